package rules

import (
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/wardhq/ward/internal/policy"
)

// The overloads of the state functions that take two arguments besides
// the receiver.
const (
	overloadSpent       = "state_spent_string_duration"
	overloadCount       = "state_count_string_string"
	overloadCountWindow = "state_count_window_string_duration"
)

// stateFunc is a state function of two arguments besides its receiver: it
// returns an int, or an error for arguments of the wrong type or out of
// range.
type stateFunc func(recv, a, b ref.Val) ref.Val

func spent(recv, a, b ref.Val) ref.Val {
	r, ok := stateOf(recv)
	cat, ok2 := a.(types.String)
	d, ok3 := b.(types.Duration)
	if !ok || !ok2 || !ok3 {
		return types.NewErr("spent: bad arguments")
	}
	return types.Int(r.State.Spent(string(cat), d.Duration, r.Now))
}

func count(recv, a, b ref.Val) ref.Val {
	r, ok := stateOf(recv)
	name, ok2 := a.(types.String)
	scope, ok3 := scopeOf(b)
	if !ok || !ok2 || !ok3 {
		return types.NewErr(`count: scope must be "turn" or "session"`)
	}
	return types.Int(countOf(r, []string{string(name)}, scope))
}

// countOf is state.count of the tools in a turn or session scope.
func countOf(r *policy.Request, tools []string, scope policy.Scope) int {
	q := policy.CountQuery{Tools: tools, Scope: scope, Key: r.Turn.ID}
	if scope == policy.ScopeSession {
		q.Key = r.Turn.SessionID
	}
	return r.State.Count(q, r.Now)
}

func countWindow(recv, a, b ref.Val) ref.Val {
	r, ok := stateOf(recv)
	name, ok2 := a.(types.String)
	d, ok3 := b.(types.Duration)
	if !ok || !ok2 || !ok3 || d.Duration <= 0 || d.Duration > policy.MaxWindow {
		return types.NewErr("count_window: window must be between 1ns and 168h")
	}
	q := policy.CountQuery{Tools: []string{string(name)}, Scope: policy.ScopeWindow, Window: d.Duration}
	return types.Int(r.State.Count(q, r.Now))
}

// stateBinding is f as a CEL function binding (receiver first).
func stateBinding(f stateFunc) func(args ...ref.Val) ref.Val {
	return func(args ...ref.Val) ref.Val { return f(args[0], args[1], args[2]) }
}

func stateFuncOf(overload string) stateFunc {
	switch overload {
	case overloadSpent:
		return spent
	case overloadCount:
		return count
	case overloadCountWindow:
		return countWindow
	}
	return nil
}

// stateCalls is a CEL decorator that plans a call of spent, count or
// count_window as a direct call of its Go function. CEL's generic call
// allocates a slice of its arguments on every evaluation, about half the
// cost of a rule such as state.count("swap", "turn") > 2. A call with an
// argument that is an error or unknown goes
// through CEL's own call, so results and errors are exactly CEL's. The decorator
// does not report costs: it is only installed on programs that run without
// a runtime cost tracker (whose cost the checker bounded at load).
func stateCalls(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	call, ok := i.(interpreter.InterpretableCall)
	if !ok {
		return i, nil
	}
	f := stateFuncOf(call.OverloadID())
	if f == nil || len(call.Args()) != 3 {
		return i, nil
	}
	a := call.Args()
	return &stateCall{InterpretableCall: call, f: f, recv: a[0], a: a[1], b: a[2]}, nil
}

// stateCall is a planned call of a stateFunc.
type stateCall struct {
	interpreter.InterpretableCall // the call as CEL planned it
	f                             stateFunc
	recv, a, b                    interpreter.InterpretableV2
}

func (c *stateCall) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	recv, a, b := c.recv.Exec(frame), c.a.Exec(frame), c.b.Exec(frame)
	if types.IsUnknownOrError(recv) || types.IsUnknownOrError(a) || types.IsUnknownOrError(b) {
		return c.InterpretableCall.Exec(frame)
	}
	v := c.f(recv, a, b)
	if err, ok := v.(*types.Err); ok {
		return types.LabelErrNode(c.ID(), err)
	}
	return v
}

func (c *stateCall) Eval(vars interpreter.Activation) ref.Val {
	return interpreter.EvalActivation(vars, c.Exec)
}
