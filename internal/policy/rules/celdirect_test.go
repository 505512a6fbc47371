package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"cel.dev/cel-go/common/types"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// TestDirectConditionsAsCEL generates conditions of the shapes run as Go
// comparisons, with every field, operator and constant that matters, and
// wants the Go comparison to give the CEL program's value on random calls
// and tracked state; conditions of neighbouring shapes must stay CEL.
func TestDirectConditionsAsCEL(t *testing.T) {
	env, err := newCELEnv(nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 5))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var values []string
	for i := range 8 {
		values = append(values, policy.InputSource(i).String(), policy.AuthorityOf(policy.InputSource(i)).String())
	}
	values = append(values, "t1", "t2", "s1", "", policy.TaintClean, policy.TaintTainted, policy.TaintReview, "agent", "isolated", "true", "false", "x")
	fields := map[string][]string{
		"turn":    {"id", "session_id", "input_source", "authority"},
		"session": {"id", "taint", "mode", "sends"},
	}
	ops := []string{"==", "!=", "<", "<=", ">", ">="}
	var direct []string
	for range 300 {
		v := pick([]string{"turn", "session"})
		sel, c := v+"."+pick(fields[v]), fmt.Sprintf("%q", pick(values))
		op := pick(ops[:2])
		if rng.IntN(2) == 0 {
			direct = append(direct, sel+" "+op+" "+c)
		} else {
			direct = append(direct, c+" "+op+" "+sel)
		}
		direct = append(direct, fmt.Sprintf(`state.count(%q, %q) %s %d`, pick([]string{"swap", "exec", "read_file"}), pick([]string{"turn", "session"}), pick(ops), rng.IntN(6)-1))
	}
	celOnly := []string{
		`turn.nope == "x"`, `session["taint"] == "tainted"`, `has(turn.id)`, `turn.id == session.id`,
		`state.count("swap", "forever") > 1`, `state.count("swap", "turn") > 1.5`, `state.count(tool.name, "turn") > 1`,
		`1 < state.count("swap", "turn")`, `state.count_window("swap", duration("1h")) > 1`, `turn.id == "t1" && session.id == "s1"`,
	}
	now := time.Unix(1_800_000_000, 0)
	trackers := []*policy.Tracker{nil, policy.NewTracker()}
	for i := range 3 {
		tr := policy.NewTracker()
		for j := range 1 + rng.IntN(6) {
			tr.Record(policy.Execution{Tool: tool.Ref{Name: pick([]string{"swap", "exec"})}, SessionID: pick([]string{"s1", "s2"}),
				TurnID: pick([]string{"t1", "t2"}), At: now.Add(-time.Duration(i*10+j) * time.Minute)})
		}
		tr.Hold(policy.Execution{Tool: tool.Ref{Name: "swap"}, SessionID: "s1", TurnID: "t1", At: now}, time.Minute)
		trackers = append(trackers, tr)
	}
	requests := make([]*policy.Request, 200)
	for i := range requests {
		requests[i] = &policy.Request{
			Tool: tool.Ref{Name: "swap"}, Args: tool.EmptyArgs(), Now: now, State: trackers[rng.IntN(len(trackers))],
			Turn:  policy.Turn{ID: pick([]string{"t1", "t2", ""}), SessionID: pick([]string{"s1", "s2", ""}), Source: policy.InputSource(rng.IntN(8))},
			Trust: policy.Trust{Taint: pick([]string{"", policy.TaintTainted, policy.TaintReview}), Isolated: rng.IntN(2) == 0, Sends: rng.IntN(2) == 0},
		}
	}
	for _, expr := range append(direct, celOnly...) {
		ast, iss := env.Compile(expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", expr, iss.Err())
		}
		fn, eq := directCondition(ast)
		isDirect := !slices.Contains(celOnly, expr)
		if (fn != nil) != isDirect {
			t.Errorf("%s: run as Go comparison = %v, want %v", expr, fn != nil, isDirect)
			continue
		}
		if fn == nil {
			continue
		}
		prg, err := env.Program(ast)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range requests {
			out, _, err := prg.Eval(activation{r})
			if err != nil {
				t.Fatalf("%s: CEL failed: %v", expr, err)
			}
			if got := fn(r); types.Bool(got) != out {
				t.Errorf("%s on turn %+v, trust %+v: Go %v, CEL %v", expr, r.Turn, r.Trust, got, out)
			}
			if eq != nil && types.Bool(eq.Read(r) == eq.Value) != out {
				t.Errorf("%s on turn %+v, trust %+v: the equality %s == %q is %v, CEL %v", expr, r.Turn, r.Trust, eq.Field, eq.Value, eq.Read(r) == eq.Value, out)
			}
		}
	}
}

// TestGroupedRulesAsOneByOne compiles random policies full of runs of
// same-field comparisons (what Snapshot.Evaluate decides by one lookup)
// mixed with rules of other shapes, priorities that interleave them,
// repeated constants and every action, and wants every decision, with
// the rules evaluated and triggered, to be the plain one-by-one walk's.
func TestGroupedRulesAsOneByOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var sources []string
	for i := range 8 {
		sources = append(sources, policy.InputSource(i).String())
	}
	taints := []string{policy.TaintClean, policy.TaintTainted, policy.TaintReview}
	ids := []string{"t1", "t2", "t3", "s1", "s2", "x"}
	shapes := []func() string{
		func() string { return fmt.Sprintf(`turn.input_source == %q`, pick(sources)) },
		func() string { return fmt.Sprintf(`%q == turn.input_source`, pick(sources)) },
		func() string { return fmt.Sprintf(`session.taint == %q`, pick(taints)) },
		func() string { return fmt.Sprintf(`turn.id == %q`, pick(ids)) },
		func() string { return fmt.Sprintf(`session.id == %q`, pick(ids)) },
		func() string { return fmt.Sprintf(`turn.id != %q`, pick(ids)) },
		func() string { return fmt.Sprintf(`state.count("swap", "turn") > %d`, rng.IntN(3)) },
		func() string { return `has(args.amount)` },
		func() string { return fmt.Sprintf(`tool.name == %q`, pick([]string{"swap", "exec", "read_file"})) },
	}
	tools := []string{"swap", "exec", "read_file", "transfer"}
	now := time.Unix(1_800_000_000, 0)
	grouped := 0
	for p := range 60 {
		cfg := DefaultConfig()
		cfg.Paths.Root = t.TempDir()
		cfg.Resolver = NewResolver()
		n := 1 + rng.IntN(200)
		// Long runs of one shape, so that groups form; a few other rules
		// and priorities between them.
		run, shape := 0, 0
		for i := range n {
			if run == 0 {
				run, shape = 1+rng.IntN(40), rng.IntN(len(shapes))
			}
			run--
			u := UserRule{ID: fmt.Sprintf("p%d-r%d", p, i), When: shapes[shape](), Action: policy.Action(rng.IntN(3)), Priority: rng.IntN(3)}
			if rng.IntN(8) == 0 {
				u.AppliesTo = policy.Names(pick(tools))
			}
			if rng.IntN(10) == 0 {
				u.When = shapes[rng.IntN(len(shapes))]()
			}
			cfg.Rules = append(cfg.Rules, u)
		}
		plain, err := compileSnapshot(cfg, true)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := compileSnapshot(cfg, false)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Resolver.Close()
		tr := policy.NewTracker()
		for j := range rng.IntN(4) {
			tr.Record(policy.Execution{Tool: tool.Ref{Name: "swap"}, SessionID: "s1", TurnID: pick([]string{"t1", "t2"}), At: now.Add(-time.Duration(j) * time.Minute)})
		}
		for range 300 {
			raw := `{}`
			if rng.IntN(2) == 0 {
				raw = `{"amount":"5"}`
			}
			args, err := tool.ParseArgs([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			req := &policy.Request{
				Tool: tool.Ref{Name: pick(tools)}, Args: args, Now: now, State: tr,
				Turn:  policy.Turn{ID: pick(ids), SessionID: pick(ids), Source: policy.InputSource(rng.IntN(8))},
				Trust: policy.Trust{Taint: pick(taints)},
			}
			want, got := plain.Evaluate(req), fast.Evaluate(req)
			if got.Action() != want.Action() || got.Code() != want.Code() || got.Rule() != want.Rule() || got.Message() != want.Message() ||
				!slices.Equal(got.RulesEvaluated(), want.RulesEvaluated()) || !slices.Equal(got.RulesTriggered(), want.RulesTriggered()) {
				t.Fatalf("policy %d, %s on turn %+v, taint %s:\ngrouped %v %s %s triggered %v\nplain   %v %s %s triggered %v",
					p, req.Tool.Name, req.Turn, req.Trust.Taint, got.Action(), got.Code(), got.Rule(), got.RulesTriggered(),
					want.Action(), want.Code(), want.Rule(), want.RulesTriggered())
			}
			if len(got.RulesTriggered()) > 0 {
				grouped++
			}
		}
	}
	if grouped < 1000 {
		t.Fatalf("only %d decisions had a rule with an opinion: the policies do not exercise the groups", grouped)
	}
}
