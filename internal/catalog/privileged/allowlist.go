package privileged

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// allowLists is the schema of the lists added or removed.
const allowLists = `{"type":"object","additionalProperties":false,"properties":{` +
	`"tokens":{"type":"array","maxItems":100,"items":{"type":"string","pattern":"^0[xX][0-9a-fA-F]{40}$"},"description":"Token addresses."},` +
	`"contracts":{"type":"array","maxItems":100,"items":{"type":"string","pattern":"^0[xX][0-9a-fA-F]{40}$"},"description":"Contract addresses (transaction destinations and allowance spenders)."},` +
	`"selectors":{"type":"array","maxItems":100,"items":{"type":"string","pattern":"^0x[0-9a-fA-F]{8}$"},"description":"Function selectors (0x and 8 hex digits)."}}`

var changeAllowlist = spec{
	name: "safety_change_allowlist", action: "change_allowlist", category: tool.CatSafety,
	description: "Owner-approved: change what ward.toml's allowlist ([hooks.allowlist]) lets a plan touch. What add lists is allowed " +
		"besides ward.toml's lists; what remove lists is refused whatever ward.toml says (any_token and any_contract included), so " +
		"the owner can stop a token or a contract at once; reset first forgets every earlier change. A later change of a value " +
		"replaces the earlier one. The changes are stored: they survive a restart, a reload of ward.toml does not undo them, and " +
		"every instance on the same database obeys them from its next check. The commit needs the owner's signature of the permit.",
	params: `{"type":"object","additionalProperties":false,"properties":{` +
		`"add":` + allowLists + `,"description":"What to allow besides ward.toml's lists."},` +
		`"remove":` + allowLists + `,"description":"What to refuse whatever ward.toml says."},` +
		`"reset":{"type":"boolean","description":"Forget every earlier change first (alone: ward.toml's allowlist is in force again)."}}}`,
	result: `{"type":"object","required":["entries"],"properties":{"entries":{"type":"array","items":{"type":"object","properties":{` +
		`"kind":{"type":"string"},"value":{"type":"string"},"allowed":{"type":"boolean"}}}}}}`,
	check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
		o, reset, err := allowlistArgs(in)
		if err != nil {
			return "", err
		}
		return allowlistText(o, reset), nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, by string) (any, string, string, error) {
		o, reset, err := allowlistArgs(in)
		if err != nil {
			return nil, "", "", err
		}
		if err := cfg.Gate.ChangeAllowlist(ctx, o, reset, by); err != nil {
			return nil, "", "", err
		}
		es, err := cfg.Gate.AllowlistEntries(ctx)
		if err != nil {
			return nil, "", "", err
		}
		// What the store holds now for each value changed.
		held := map[[2]string]bool{}
		entries := make([]map[string]any, 0, len(es))
		for _, e := range es {
			held[[2]string{string(e.Kind), e.Value}] = e.Allowed
			entries = append(entries, map[string]any{"kind": string(e.Kind), "value": e.Value, "allowed": e.Allowed})
		}
		want := allowlistText(o, reset)
		var got hook.AllowlistOverride
		for _, g := range []struct {
			kind  store.AllowlistKind
			in    []tool.Address
			allow *[]tool.Address
			deny  *[]tool.Address
		}{{store.AllowToken, append(o.AddTokens, o.RemoveTokens...), &got.AddTokens, &got.RemoveTokens},
			{store.AllowContract, append(o.AddContracts, o.RemoveContracts...), &got.AddContracts, &got.RemoveContracts}} {
			for _, a := range g.in {
				if allowed, ok := held[[2]string{string(g.kind), a.Hex()}]; ok && allowed {
					*g.allow = append(*g.allow, a)
				} else if ok {
					*g.deny = append(*g.deny, a)
				}
			}
		}
		for _, s := range append(o.AddSelectors, o.RemoveSelectors...) {
			if allowed, ok := held[[2]string{string(store.AllowSelector), s.String()}]; ok && allowed {
				got.AddSelectors = append(got.AddSelectors, s)
			} else if ok {
				got.RemoveSelectors = append(got.RemoveSelectors, s)
			}
		}
		return map[string]any{"entries": entries}, want, allowlistText(got, reset), nil
	},
}

// allowlistArgs reads the arguments: what to add and remove, and reset.
func allowlistArgs(in *registry.Input) (hook.AllowlistOverride, bool, error) {
	var args struct {
		Add    hook.AllowlistLists `json:"add"`
		Remove hook.AllowlistLists `json:"remove"`
		Reset  bool                `json:"reset"`
	}
	if err := json.Unmarshal(in.Raw, &args); err != nil {
		return hook.AllowlistOverride{}, false, fmt.Errorf("arguments: %w", err)
	}
	o, err := hook.ParseAllowlistOverride(args.Add, args.Remove)
	if err != nil {
		return hook.AllowlistOverride{}, false, err
	}
	if o.Empty() && !args.Reset {
		return hook.AllowlistOverride{}, false, errors.New("nothing to change: give add, remove or reset")
	}
	return o, args.Reset, nil
}

// allowlistText says what a change does.
func allowlistText(o hook.AllowlistOverride, reset bool) string {
	var parts []string
	if reset {
		parts = append(parts, "forget the earlier changes to the allowlist")
	}
	list := func(verb, what string, n int, items func(int) string) {
		if n == 0 {
			return
		}
		xs := make([]string, n)
		for i := range xs {
			xs[i] = items(i)
		}
		parts = append(parts, fmt.Sprintf("%s %s %s", verb, what, strings.Join(xs, ", ")))
	}
	list("allow", "tokens", len(o.AddTokens), func(i int) string { return o.AddTokens[i].Hex() })
	list("allow", "contracts", len(o.AddContracts), func(i int) string { return o.AddContracts[i].Hex() })
	list("allow", "functions", len(o.AddSelectors), func(i int) string { return o.AddSelectors[i].String() })
	list("refuse", "tokens", len(o.RemoveTokens), func(i int) string { return o.RemoveTokens[i].Hex() })
	list("refuse", "contracts", len(o.RemoveContracts), func(i int) string { return o.RemoveContracts[i].Hex() })
	list("refuse", "functions", len(o.RemoveSelectors), func(i int) string { return o.RemoveSelectors[i].String() })
	return strings.Join(parts, "; ")
}
