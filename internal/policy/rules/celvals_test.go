package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// plainActivation is how rules saw their variables before they were read
// field by field: a map built per evaluation. The lazy values must be
// indistinguishable from it.
func plainActivation(r *policy.Request) map[string]any {
	mode, sends := "agent", "false"
	if r.Trust.Isolated {
		mode = "isolated"
	}
	if r.Trust.Sends {
		sends = "true"
	}
	prov := r.Trust.Provenance
	if prov == nil {
		prov = map[string]string{}
	}
	return map[string]any{
		"tool": map[string]string{
			"name": r.Tool.Name, "category": string(r.Tool.Category),
			"risk": r.Tool.Risk.Effective().String(), "tier": r.Tool.Tier.Effective().String(),
		},
		"args": r.Args.Map(),
		"turn": map[string]string{
			"id": r.Turn.ID, "session_id": r.Turn.SessionID,
			"input_source": r.Turn.Source.String(), "authority": policy.AuthorityOf(r.Turn.Source).String(),
		},
		"workdir":    r.Workdir,
		"now":        r.Now,
		"state":      celState{r},
		"session":    map[string]string{"id": r.Turn.SessionID, "taint": r.Trust.TaintLevel(), "mode": mode, "sends": sends},
		"provenance": prov,
	}
}

// TestFieldValuesActAsMaps evaluates expressions that use the map
// variables every way CEL allows (select, index, presence, in, size,
// iteration, equality, conversion, wrong key types) with the lazy values
// and with plain maps, and wants the same value or an error from both.
func TestFieldValuesActAsMaps(t *testing.T) {
	env, err := newCELEnv(nil)
	if err != nil {
		t.Fatal(err)
	}
	exprs := []string{
		`tool.name == "swap"`, `tool["category"]`, `tool.risk`, `tool.tier`, `size(tool)`, `"name" in tool`, `"nope" in tool`,
		`has(tool.name)`, `has(tool.nope)`, `tool.nope == "x"`, `tool.exists(k, k == "tier")`, `tool.all(k, tool[k] != "")`,
		`tool == {"name": "swap", "category": "defi", "risk": "high", "tier": "write"}`, `tool != {}`, `type(tool) == map`,
		`dyn(tool)[1]`, `dyn(tool)["name"] + "!"`, `tool.map(k, k).size()`, `tool.filter(k, k.startsWith("t")).size()`,
		`turn.authority`, `turn.input_source == "agent"`, `turn.id + turn.session_id`, `size(turn)`, `turn.exists(k, turn[k] == "s1")`,
		`session.taint`, `session.mode == "isolated"`, `session.sends`, `session.id`, `session == {"id": "s1", "taint": "tainted", "mode": "agent", "sends": "true"}`,
		`"to" in provenance`, `provenance["to"] == "untrusted"`, `provenance.to`, `size(provenance)`, `has(provenance.memo)`,
		`provenance.all(k, provenance[k] in ["trusted", "untrusted", "unknown"])`, `provenance == {}`, `dyn(provenance)[2]`,
		`[tool, session].size()`, `{"t": tool}.t.name`, `tool.name in ["swap", "exec"] && session.taint != "clean"`,
	}
	reqs := []*policy.Request{
		{Tool: tool.Ref{Name: "swap", Category: "defi", Risk: tool.Dangerous, Tier: tool.Write},
			Turn:  policy.Turn{ID: "t1", SessionID: "s1", Source: policy.Agent},
			Trust: policy.Trust{Taint: policy.TaintTainted, Sends: true, Provenance: map[string]string{"to": "untrusted", "memo": "trusted"}}},
		{Tool: tool.Ref{Name: "read_file"}, Turn: policy.Turn{ID: "t2", SessionID: "s2", Source: policy.External},
			Trust: policy.Trust{Isolated: true}},
		{},
	}
	for _, e := range exprs {
		ast, iss := env.Compile(e)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", e, iss.Err())
		}
		prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize))
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range reqs {
			if r.Args == nil {
				r.Args = tool.EmptyArgs()
			}
			lazy, _, lerr := prg.Eval(activation{r})
			plain, _, perr := prg.Eval(plainActivation(r))
			switch {
			case (lerr != nil) != (perr != nil):
				t.Errorf("%s on request %d: lazy error %v, plain error %v", e, i, lerr, perr)
			case lerr == nil && lazy.Equal(plain) != types.True && fmt.Sprint(lazy.Value()) != fmt.Sprint(plain.Value()):
				t.Errorf("%s on request %d: lazy %v, plain %v", e, i, lazy.Value(), plain.Value())
			}
		}
	}
}

// TestToolOnlyRulesFoldedAsEvaluated compares, on randomly generated
// policies and calls, the decisions of the snapshot that decides rules
// reading only the tool once per tool with those of one that evaluates
// every applicable rule on every call: the same action, reason, deciding
// rule, diagnostic and triggered rules, in the same order.
func TestToolOnlyRulesFoldedAsEvaluated(t *testing.T) {
	names := []string{"exec", "read_file", "write_file", "transfer_credits", "swap", "mcp_x_y"}
	conds := []string{
		// Tool alone: folded.
		`tool.name == "%s"`, `tool.name != "%s"`, `tool.name in ["%s", "exec"]`, `tool.name.startsWith("%.3s")`,
		`tool.category == "vm"`, `tool.risk == "dangerous"`, `tool.tier == "write" && tool.name != "%s"`, `true`, `false`,
		`tool.nope == "%s"`, `size(tool) == 4`,
		// The call: evaluated on every call.
		`has(args.a)`, `has(args.a) && tool.name == "%s"`, `args.a > 3`, `session.taint == "tainted"`,
		`turn.authority == "owner"`, `state.count("%s", "session") > 0`, `"a" in provenance`,
	}
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	for trial := range 200 {
		cfg := DefaultConfig()
		cfg.Paths.Root = t.TempDir()
		n := 1 + rng.IntN(12)
		for i := range n {
			c := conds[rng.IntN(len(conds))]
			if slices.Contains([]byte(c), '%') {
				c = fmt.Sprintf(c, pick(names))
			}
			u := UserRule{ID: fmt.Sprintf("u%d", i), Priority: rng.IntN(3), When: c, Action: policy.Action(rng.IntN(3))}
			if rng.IntN(4) == 0 {
				u.AppliesTo = policy.Selector{By: policy.SelectName, Names: []string{pick(names)}}
			}
			cfg.Rules = append(cfg.Rules, u)
		}
		b := newBuilder(cfg)
		b.build()
		if len(b.errs) > 0 {
			t.Fatalf("trial %d: %v", trial, b.errs)
		}
		scfg := policy.SnapshotConfig{Hash: Hash(cfg), Catalog: b.catalog(), Meter: b.meter(), Provenance: true}
		folded, err := policy.NewSnapshot(b.rules, scfg)
		if err != nil {
			t.Fatal(err)
		}
		plainRules := slices.Clone(b.rules)
		for i := range plainRules {
			plainRules[i].ToolOnly = false
		}
		plain, err := policy.NewSnapshot(plainRules, scfg)
		if err != nil {
			t.Fatal(err)
		}
		tr := policy.NewTracker()
		tr.Record(policy.Execution{Tool: tool.Ref{Name: "swap"}, SessionID: "s1", TurnID: "t1", At: time.Unix(1_800_000_000, 0).Add(-time.Minute)})
		for range 30 {
			args := `{}`
			if rng.IntN(2) == 0 {
				args = fmt.Sprintf(`{"a":%d}`, rng.IntN(6))
			}
			a, err := tool.ParseArgs([]byte(args))
			if err != nil {
				t.Fatal(err)
			}
			req := policy.Request{
				Tool: tool.Ref{Name: pick(names)}, Args: a, State: tr, Now: time.Unix(1_800_000_000, 0),
				Turn:  policy.Turn{ID: "t1", SessionID: "s1", Source: policy.InputSource(rng.IntN(6))},
				Trust: policy.Trust{Taint: pick([]string{"", policy.TaintTainted, policy.TaintReview}), Provenance: map[string]string{"a": "trusted"}},
			}
			r1, r2 := req, req
			d1, d2 := folded.Evaluate(&r1), plain.Evaluate(&r2)
			if d1.Action() != d2.Action() || d1.Code() != d2.Code() || d1.Rule() != d2.Rule() || d1.Diagnostic() != d2.Diagnostic() ||
				!slices.Equal(d1.RulesTriggered(), d2.RulesTriggered()) {
				t.Fatalf("trial %d, %s %s: folded %v %s %q %v, plain %v %s %q %v\nrules %+v", trial, req.Tool.Name, args,
					d1.Action(), d1.Code(), d1.Rule(), d1.RulesTriggered(), d2.Action(), d2.Code(), d2.Rule(), d2.RulesTriggered(), cfg.Rules)
			}
		}
	}
}
