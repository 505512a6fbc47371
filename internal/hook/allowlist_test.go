package hook_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

var (
	selApprove = hook.Selector{0x09, 0x5e, 0xa7, 0xb3}
	selSwap    = hook.Selector{0x41, 0x4b, 0xf3, 0x89}
	other      = tool.Address{0xee}
)

func TestAllowlist(t *testing.T) {
	full := hook.AllowlistConfig{
		Tokens:            []tool.Address{hooktest.Token, {}},
		Contracts:         []tool.Address{hooktest.Token, hooktest.Router},
		Selectors:         []hook.Selector{selApprove},
		ContractSelectors: map[tool.Address][]hook.Selector{hooktest.Router: {selSwap}},
	}
	withTx := func(tx tool.Tx) *tool.Plan {
		p := hooktest.Plan(1, 1)
		p.Txs = append(p.Txs, tx)
		return p
	}
	withToken := func(a tool.Address) *tool.Plan {
		p := hooktest.Plan(1, 1)
		p.Tokens = append(p.Tokens, tool.TokenUse{Token: a, Amount: nil, Decimals: -1})
		return p
	}
	withGrant := func(spender tool.Address) *tool.Plan {
		p := hooktest.Plan(1, 1)
		p.Grants = append(p.Grants, tool.Grant{Token: hooktest.Token, Spender: spender, Amount: big.NewInt(5)})
		return p
	}
	tests := []struct {
		name string
		cfg  hook.AllowlistConfig
		plan *tool.Plan
		code reason.Code // "" passes
	}{
		{"all listed", full, hooktest.Plan(1, 1), ""},
		{"zero config refuses contracts first", hook.AllowlistConfig{}, hooktest.Plan(1, 1), reason.ContractNotAllowed},
		{"zero config refuses tokens", hook.AllowlistConfig{AnyContract: true, AnySelector: true}, hooktest.Plan(1, 1), reason.TokenNotAllowed},
		{"zero config refuses selectors", hook.AllowlistConfig{AnyContract: true, AnyToken: true}, hooktest.Plan(1, 1), reason.SelectorNotAllowed},
		{"everything open", hook.AllowlistConfig{AnyContract: true, AnyToken: true, AnySelector: true}, withToken(other), ""},
		{"unlisted contract", full, withTx(tool.Tx{To: other, Data: tool.HexBytes(selApprove[:])}), reason.ContractNotAllowed},
		{"plain transfer to unlisted address", full, withTx(tool.Tx{To: other}), reason.ContractNotAllowed},
		{"plain transfer to listed address", full, withTx(tool.Tx{To: hooktest.Router}), ""},
		{"global selector on any listed contract", full, withTx(tool.Tx{To: hooktest.Router, Data: tool.HexBytes(selApprove[:])}), ""},
		{"per-contract selector elsewhere", full, withTx(tool.Tx{To: hooktest.Token, Data: tool.HexBytes(selSwap[:])}), reason.SelectorNotAllowed},
		{"unknown selector", full, withTx(tool.Tx{To: hooktest.Router, Data: tool.HexBytes{0xa9, 0x05, 0x9c, 0xbb}}), reason.SelectorNotAllowed},
		{"short calldata", full, withTx(tool.Tx{To: hooktest.Router, Data: tool.HexBytes{0x41, 0x4b}}), reason.SelectorNotAllowed},
		{"unlisted token", full, withToken(other), reason.TokenNotAllowed},
		{"approve to a listed spender", full, withTx(approveTx(hooktest.Token, hooktest.Router)), ""},
		{"approve to an unlisted spender", full, withTx(approveTx(hooktest.Token, other)), reason.ContractNotAllowed},
		{"signed permit to an unlisted spender", full, withGrant(other), reason.ContractNotAllowed},
		{"signed permit to a listed spender", full, withGrant(hooktest.Router), ""},
		{"native ETH must be listed", hook.AllowlistConfig{Tokens: []tool.Address{hooktest.Token}, AnyContract: true, AnySelector: true}, hooktest.Plan(1, 1), reason.TokenNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := hook.NewAllowlist(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			c := writeCall()
			c.Plan = tt.plan
			v := a.Check(context.Background(), c)
			if v.Code != tt.code || v.Veto != (tt.code != "") {
				t.Errorf("Check = %s %q, want %q", v.Code, v.Message, tt.code)
			}
		})
	}
}

// approveTx is approve(spender, 1000) on token.
func approveTx(token, spender tool.Address) tool.Tx {
	data := make([]byte, 4+64)
	copy(data, selApprove[:])
	copy(data[4+12:4+32], spender[:])
	big.NewInt(1000).FillBytes(data[4+32:])
	return tool.Tx{To: token, Data: data, Label: "approve"}
}

func TestAllowlistPassesReadsAndPlanlessPreviews(t *testing.T) {
	a, _ := hook.NewAllowlist(hook.AllowlistConfig{})
	read := writeCall()
	read.Def = hooktest.Def("uniswap_get_quote", tool.Read, tool.Layer1, tool.EffectNone)
	read.Plan = nil
	preview := writeCall()
	preview.Plan, preview.Preview = nil, true
	commit := writeCall()
	commit.Plan = nil
	for name, tc := range map[string]struct {
		c    *hook.Call
		code reason.Code
	}{"read": {read, ""}, "preview": {preview, ""}, "commit without plan": {commit, reason.HookError}} {
		if v := a.Check(context.Background(), tc.c); v.Code != tc.code {
			t.Errorf("%s: %s, want %q", name, v.Code, tc.code)
		}
	}
}

func TestAllowlistConfigErrors(t *testing.T) {
	for name, cfg := range map[string]hook.AllowlistConfig{
		"any token with list":    {AnyToken: true, Tokens: []tool.Address{{}}},
		"any contract with list": {AnyContract: true, Contracts: []tool.Address{{}}},
		"any selector with list": {AnySelector: true, Selectors: []hook.Selector{selSwap}},
		"selectors of unlisted":  {ContractSelectors: map[tool.Address][]hook.Selector{other: {selSwap}}},
	} {
		if _, err := hook.NewAllowlist(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSelectorText(t *testing.T) {
	s, err := hook.ParseSelector("0xa9059cbb")
	if err != nil || s.String() != "0xa9059cbb" {
		t.Errorf("ParseSelector = %v, %v", s, err)
	}
	for _, bad := range []string{"a9059cbb", "0xa9059c", "0xa9059cbz", "0xa9059cbb00"} {
		if _, err := hook.ParseSelector(bad); err == nil {
			t.Errorf("ParseSelector(%q) succeeded", bad)
		}
	}
}

func TestSelectorJSON(t *testing.T) {
	var got struct{ S []hook.Selector }
	if err := json.Unmarshal([]byte(`{"S":["0xa9059cbb","0x095ea7b3"]}`), &got); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"S":["0xa9059cbb","0x095ea7b3"]}` {
		t.Errorf("round trip = %s", b)
	}
	if err := json.Unmarshal([]byte(`{"S":["transfer"]}`), &got); err == nil {
		t.Error("a non-selector was accepted")
	}
}

// TestAllowlistOverride: the owner's changes add to the configured lists
// and remove from them, a removal winning over the configuration's Any
// flags; a source that cannot be read refuses.
func TestAllowlistOverride(t *testing.T) {
	full := hook.AllowlistConfig{
		Tokens:            []tool.Address{hooktest.Token, {}},
		Contracts:         []tool.Address{hooktest.Token, hooktest.Router},
		Selectors:         []hook.Selector{selApprove},
		ContractSelectors: map[tool.Address][]hook.Selector{hooktest.Router: {selSwap}},
	}
	open := hook.AllowlistConfig{AnyToken: true, AnyContract: true, AnySelector: true}
	withTx := func(tx tool.Tx) *tool.Plan {
		p := hooktest.Plan(1, 1)
		p.Txs = append(p.Txs, tx)
		return p
	}
	withToken := func(a tool.Address) *tool.Plan {
		p := hooktest.Plan(1, 1)
		p.Tokens = append(p.Tokens, tool.TokenUse{Token: a, Decimals: -1})
		return p
	}
	swapTx := tool.Tx{To: hooktest.Router, Data: tool.HexBytes(selSwap[:])}
	for _, tt := range []struct {
		name string
		cfg  hook.AllowlistConfig
		o    hook.AllowlistOverride
		plan *tool.Plan
		code reason.Code
	}{
		{"added token", full, hook.AllowlistOverride{AddTokens: []tool.Address{other}}, withToken(other), ""},
		{"not added token", full, hook.AllowlistOverride{AddTokens: []tool.Address{{0xdd}}}, withToken(other), reason.TokenNotAllowed},
		{"removed configured token", full, hook.AllowlistOverride{RemoveTokens: []tool.Address{hooktest.Token}}, withToken(hooktest.Token), reason.TokenNotAllowed},
		{"removed token under any_token", open, hook.AllowlistOverride{RemoveTokens: []tool.Address{other}}, withToken(other), reason.TokenNotAllowed},
		{"other token under any_token", open, hook.AllowlistOverride{RemoveTokens: []tool.Address{{0xdd}}}, withToken(other), ""},
		{"added contract", full, hook.AllowlistOverride{AddContracts: []tool.Address{other}}, withTx(tool.Tx{To: other}), ""},
		{"removed contract under any_contract", open, hook.AllowlistOverride{RemoveContracts: []tool.Address{hooktest.Router}}, withTx(swapTx), reason.ContractNotAllowed},
		{"removed spender of an allowance", open, hook.AllowlistOverride{RemoveContracts: []tool.Address{other}}, withTx(approveTx(hooktest.Token, other)), reason.ContractNotAllowed},
		{"added selector", full, hook.AllowlistOverride{AddSelectors: []hook.Selector{selSwap}}, withTx(tool.Tx{To: hooktest.Token, Data: tool.HexBytes(selSwap[:])}), ""},
		{"not added selector", full, hook.AllowlistOverride{}, withTx(tool.Tx{To: hooktest.Token, Data: tool.HexBytes(selSwap[:])}), reason.SelectorNotAllowed},
		{"removed selector under any_selector", open, hook.AllowlistOverride{RemoveSelectors: []hook.Selector{selSwap}}, withTx(swapTx), reason.SelectorNotAllowed},
		{"removed configured selector", full, hook.AllowlistOverride{RemoveSelectors: []hook.Selector{selApprove}}, withTx(approveTx(hooktest.Token, hooktest.Router)), reason.SelectorNotAllowed},
		{"added and removed: removed wins", full, hook.AllowlistOverride{AddTokens: []tool.Address{other}, RemoveTokens: []tool.Address{other}}, withToken(other), reason.TokenNotAllowed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, err := hook.NewAllowlist(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			a.SetOverride(func(context.Context) (hook.AllowlistOverride, error) { return tt.o, nil })
			c := writeCall()
			c.Plan = tt.plan
			if v := a.Check(context.Background(), c); v.Code != tt.code || v.Veto != (tt.code != "") {
				t.Errorf("Check = %s %q, want %q", v.Code, v.Message, tt.code)
			}
		})
	}
	a, _ := hook.NewAllowlist(open)
	a.SetOverride(func(context.Context) (hook.AllowlistOverride, error) {
		return hook.AllowlistOverride{}, context.DeadlineExceeded
	})
	c := writeCall()
	if v := a.Check(context.Background(), c); v.Code != reason.HookError || !v.Veto {
		t.Errorf("an unreadable override: %s %q, want a %s veto", v.Code, v.Message, reason.HookError)
	}
}
