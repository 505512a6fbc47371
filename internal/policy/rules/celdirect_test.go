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
		fn := directCondition(ast)
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
		}
	}
}
