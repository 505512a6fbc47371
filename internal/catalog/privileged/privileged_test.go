package privileged_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/catalog/privileged"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func TestDefs(t *testing.T) {
	reg := registry.New()
	seen := map[[2]string]string{}
	all := privileged.All()
	if len(all) < 10 {
		t.Errorf("%d privileged tools, want at least 10", len(all))
	}
	for _, tl := range all {
		d := tl.Def
		t.Run(d.Name, func(t *testing.T) {
			if err := reg.Add(tl); err != nil {
				t.Fatalf("registry: %v", err)
			}
			if d.Tier != tool.Privileged || (d.Category != tool.CatSafety && d.Category != tool.CatWallet) {
				t.Errorf("tier %s, category %s; want privileged, safety or wallet", d.Tier, d.Category)
			}
			if len(d.Requires) != 0 {
				t.Errorf("requires %v: an owner setting needs no wallet", d.Requires)
			}
			var params struct {
				Type  string `json:"type"`
				Extra *bool  `json:"additionalProperties"`
			}
			if err := json.Unmarshal(d.Params, &params); err != nil || params.Type != "object" || params.Extra == nil || *params.Extra {
				t.Errorf("parameter schema is not a closed object: %s", d.Params)
			}
			if len(d.Result) == 0 {
				t.Error("no result schema")
			}
			if !strings.HasPrefix(d.Description, "Owner-approved: ") {
				t.Errorf("the description does not say the owner approves it: %q", d.Description)
			}
			k := [2]string{tl.Action, tl.Venue}
			if prev, dup := seen[k]; dup || tl.Action == "" {
				t.Errorf("adapter (%s, %s) missing or also taken by %s", tl.Action, tl.Venue, prev)
			}
			seen[k] = d.Name
			// Without the gate's approval the handler does nothing.
			in := &registry.Input{Args: tool.EmptyArgs(), Step: func(int) {}}
			if res, err := tl.Privileged(context.Background(), in, &tool.Plan{}, nil, nil); err == nil {
				t.Errorf("the handler ran without a capability or approval: %s", res.Data)
			}
		})
	}
	if r := reg.Refused(); len(r) > 0 {
		t.Errorf("schemas refused: %v", r)
	}
}

func TestToolsNeedTheirState(t *testing.T) {
	if _, err := privileged.Tools(privileged.Config{}); err == nil {
		t.Error("tools without a gate or a store")
	}
}

// TestPlansRefuseBadInput: a preview of bad arguments is refused with a
// clear error and changes nothing (the listed tools are bound to no gate
// and no store, so any attempt to change something would fail too).
func TestPlansRefuseBadInput(t *testing.T) {
	byName := map[string]registry.Tool{}
	for _, tl := range privileged.All() {
		byName[tl.Def.Name] = tl
	}
	for _, tc := range []struct{ tool, args, want string }{
		{"safety_set_gate_phase", `{"phase":"ecstatic"}`, "phase must be"},
		{"safety_set_session_review", `{"level":"clean"}`, "level must be"},
		{"safety_set_agent_directive", `{"directive":""}`, "directive must be"},
		{"wallet_issue_agent_token", `{"name":" padded"}`, "name"},
		{"wallet_issue_peer_token", `{"name":"p","ttl":"0s"}`, "ttl must be"},
		{"safety_set_spending_limits", `{}`, "must all be given"},
		{"safety_set_spending_limits", `{"per_tick_usd":"5","per_session_usd":"5"}`, "must all be given"},
		{"safety_set_spending_limits", `{"per_tick_usd":"5","per_session_usd":"5","daily_usd":"5","clear":true}`, "clear takes no limits"},
		{"safety_set_spending_limits", `{"per_tick_usd":"-5","per_session_usd":"5","daily_usd":"5"}`, "per_tick_usd: must be dollars"},
		{"safety_set_spending_limits", `{"per_tick_usd":"5","per_session_usd":"1.234","daily_usd":"5"}`, "per_session_usd: must be dollars"},
		{"safety_set_spending_limits", `{"per_tick_usd":"5","per_session_usd":"5","daily_usd":"1e9"}`, "daily_usd: must be dollars"},
		{"wallet_grant_session_key", `{"session_key":"0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed","calls":[{"target":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","selector":"0xa9059cbb"}],"valid_until":4102444800}`, "EIP-55"},
		{"wallet_grant_session_key", `{"session_key":"0x0000000000000000000000000000000000000000","calls":[{"target":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","selector":"0xa9059cbb"}],"valid_until":4102444800}`, "zero address"},
		{"wallet_grant_session_key", `{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","calls":[],"valid_until":4102444800}`, "at least one"},
		{"wallet_grant_session_key", `{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","calls":[{"target":"0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359","selector":"0xa9059cbb"}],"valid_until":4102444800}`, "calls[0].target"},
		{"wallet_grant_session_key", `{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","calls":[{"target":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","selector":"0xa9059c"}],"valid_until":4102444800}`, "selector"},
		{"wallet_grant_session_key", `{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","calls":[{"target":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","selector":"0xa9059cbb"}],"value_cap_wei":"340282366920938463463374607431768211456","valid_until":4102444800}`, "below 2^128"},
		{"wallet_grant_session_key", `{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","calls":[{"target":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","selector":"0xa9059cbb"}],"valid_until":281474976710656}`, "below 2^48"},
		{"wallet_grant_session_key", `{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","calls":[{"target":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","selector":"0xa9059cbb"}],"valid_until":1000}`, "not in the future"},
		{"wallet_grant_session_key", `{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","calls":[{"target":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","selector":"0xa9059cbb"}],"valid_until":4102444800}`, "no ERC-4337 account"},
		{"wallet_revoke_session_key", `{"session_key":"0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"}`, "EIP-55"},
		{"wallet_revoke_session_key", `{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}`, "no ERC-4337 account"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			a, err := tool.ParseArgs(json.RawMessage(tc.args))
			if err != nil {
				t.Fatal(err)
			}
			_, err = byName[tc.tool].Plan(context.Background(), &registry.Input{Args: a, Raw: json.RawMessage(tc.args), Now: time.Now(), Step: func(int) {}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("plan of %s: %v, want an error saying %q", tc.args, err, tc.want)
			}
		})
	}
}
