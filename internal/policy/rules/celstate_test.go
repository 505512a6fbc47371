package rules

import (
	"testing"
	"time"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/interpreter"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// TestStateCallsAsCELCalls evaluates calls of the state functions planned
// as direct calls and as CEL's own calls, with arguments of every kind
// (constants, variables, wrong types, errors, out-of-range scopes and
// windows), and wants the same value or the same error from both.
func TestStateCallsAsCELCalls(t *testing.T) {
	exprs := []string{
		`state.count("swap", "turn")`,
		`state.count("swap", "session")`,
		`state.count("read_file", "turn")`,
		`state.count("swap", "forever")`,
		`state.count(tool.name, "turn")`,
		`state.count(args.name, args.scope)`,
		`state.count(args.nope, "turn")`,
		`state.count("swap", args.nope)`,
		`state.count_window("swap", duration("1h"))`,
		`state.count_window("swap", duration("30s"))`,
		`state.count_window("swap", duration("0s"))`,
		`state.count_window("swap", duration("200h"))`,
		`state.count_window(args.name, duration(args.window))`,
		`state.spent("transfer", duration("1h"))`,
		`state.spent(args.name, duration("1h"))`,
		`state.spent(args.cat, duration(args.window))`,
		`state.count("swap", "turn") > 1 || state.count(args.nope, "turn") > 0`,
		`state.count(args.nope, "turn") > 0 || state.count("swap", "turn") > 1`,
		`[1, 2, 3].exists(x, state.count("swap", "turn") > x)`,
	}
	argSets := []string{
		`{}`,
		`{"name":"swap","scope":"turn","cat":"transfer","window":"1h"}`,
		`{"name":"swap","scope":"session","cat":"transfer","window":"500h"}`,
		`{"name":7,"scope":"forever","cat":1,"window":"2m"}`,
		`{"name":"read_file","scope":3,"cat":"transfer","window":"nope"}`,
	}
	now := time.Unix(1_800_000_000, 0)
	tr := policy.NewTracker()
	for i := range 5 {
		tr.Record(policy.Execution{Tool: tool.Ref{Name: "swap"}, SessionID: "s1", TurnID: "t1", At: now.Add(-time.Duration(i) * 20 * time.Minute),
			Spend: policy.Spend{Category: "transfer", Cents: 700}})
	}
	tr.Record(policy.Execution{Tool: tool.Ref{Name: "read_file"}, SessionID: "s1", TurnID: "t0", At: now.Add(-2 * time.Hour)})
	tr.Hold(policy.Execution{Tool: tool.Ref{Name: "swap"}, SessionID: "s1", TurnID: "t1", At: now.Add(-time.Second),
		Spend: policy.Spend{Category: "transfer", Cents: 50}}, time.Minute)

	env, err := newCELEnv(nil)
	if err != nil {
		t.Fatal(err)
	}
	direct := 0
	counted := func(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
		out, err := stateCalls(i)
		if _, ok := out.(*stateCall); ok {
			direct++
		}
		return out, err
	}
	for _, expr := range exprs {
		ast, iss := env.Compile(expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", expr, iss.Err())
		}
		plain, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize))
		if err != nil {
			t.Fatal(err)
		}
		before := direct
		fast, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize), cel.CustomDecoratorV2(counted))
		if err != nil {
			t.Fatal(err)
		}
		if direct == before {
			t.Errorf("%s: no state call was planned as a direct call", expr)
		}
		for _, raw := range argSets {
			args, err := tool.ParseArgs([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			for _, turn := range []policy.Turn{{ID: "t1", SessionID: "s1"}, {ID: "t2", SessionID: "s2"}, {}} {
				r := &policy.Request{Tool: tool.Ref{Name: "swap"}, Args: args, Turn: turn, State: tr, Now: now}
				want, _, werr := plain.Eval(activation{r})
				got, _, gerr := fast.Eval(activation{r})
				switch {
				case werr != nil || gerr != nil:
					if werr == nil || gerr == nil || werr.Error() != gerr.Error() {
						t.Errorf("%s with %s, turn %q: direct error %v, CEL's %v", expr, raw, turn.ID, gerr, werr)
					}
				case got.Equal(want) != types.True:
					t.Errorf("%s with %s, turn %q: direct %v, CEL's %v", expr, raw, turn.ID, got, want)
				}
			}
		}
	}
}
