package rules

import (
	"errors"
	"fmt"
	"reflect"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/decls"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
)

// User rules are CEL expressions over:
//
//	tool     map(string, string)  name, category, risk, tier
//	args     map(string, dyn)     the call's arguments
//	turn     map(string, string)  id, session_id, input_source, authority
//	workdir  string               the agent's root for this call
//	now      timestamp            the evaluation time
//	state    ward.State           tracked state, through member functions:
//	    state.spent(category, window)       int   cents executed in the window
//	    state.count(tool, scope)            int   executed calls; scope "turn" or "session"
//	    state.count_window(tool, window)    int   executed calls in the window
//	    state.has_balance()                 bool
//	    state.balance()                     int   cents (an error if unknown)
//	session    map(string, string) id, taint ("clean", "tainted", "review"),
//	                               mode ("agent" or "isolated"), sends ("true"
//	                               for a data-sending call)
//	provenance map(string, string) argument → "trusted", "untrusted" or
//	                               "unknown" (test with has() or "in": an
//	                               argument the call lacks has no entry)
//
// When the expression is true the rule's action applies; false is no
// opinion. An evaluation error (a missing key, a type error, the cost limit)
// denies the call.

var stateType = cel.OpaqueType("ward.State")

// celState is the runtime value of the state variable.
type celState struct{ r *policy.Request }

func (s celState) ConvertToNative(reflect.Type) (any, error) {
	return nil, errors.New("ward.State cannot be converted")
}
func (s celState) ConvertToType(t ref.Type) ref.Val {
	if t == types.TypeType {
		return stateType
	}
	return types.NewErr("ward.State cannot be converted to %s", t)
}
func (s celState) Equal(other ref.Val) ref.Val { return types.Bool(false) }
func (s celState) Type() ref.Type              { return stateType }
func (s celState) Value() any                  { return s.r }

func stateOf(v ref.Val) (*policy.Request, bool) {
	s, ok := v.(celState)
	return s.r, ok
}

func scopeOf(v ref.Val) (policy.Scope, bool) {
	switch v.(types.String) {
	case "turn":
		return policy.ScopeTurn, true
	case "session":
		return policy.ScopeSession, true
	}
	return 0, false
}

// newCELEnv declares the variables and functions of user rules, args with
// the type argsType (nil: a map of dynamic values, as evaluation sees it).
func newCELEnv(argsType *cel.Type, opts ...cel.EnvOption) (*cel.Env, error) {
	strMap := cel.MapType(cel.StringType, cel.StringType)
	if argsType == nil {
		argsType = cel.MapType(cel.StringType, cel.DynType)
	}
	return cel.NewEnv(append(opts,
		cel.Variable("tool", strMap),
		cel.Variable("args", argsType),
		cel.Variable("turn", strMap),
		cel.Variable("workdir", cel.StringType),
		cel.Variable("now", cel.TimestampType),
		cel.Variable("state", stateType),
		cel.Variable("session", strMap),
		cel.Variable("provenance", strMap),
		cel.CrossTypeNumericComparisons(true),
		cel.ParserExpressionSizeLimit(4096),
		cel.ParserRecursionLimit(64),
		cel.Function("spent",
			cel.MemberOverload(overloadSpent, []*cel.Type{stateType, cel.StringType, cel.DurationType}, cel.IntType,
				cel.FunctionBinding(stateBinding(spent))), noGuards),
		cel.Function("count",
			cel.MemberOverload(overloadCount, []*cel.Type{stateType, cel.StringType, cel.StringType}, cel.IntType,
				cel.FunctionBinding(stateBinding(count))), noGuards),
		cel.Function("count_window",
			cel.MemberOverload(overloadCountWindow, []*cel.Type{stateType, cel.StringType, cel.DurationType}, cel.IntType,
				cel.FunctionBinding(stateBinding(countWindow))), noGuards),
		cel.Function("has_balance",
			cel.MemberOverload("state_has_balance", []*cel.Type{stateType}, cel.BoolType,
				cel.UnaryBinding(func(v ref.Val) ref.Val {
					r, ok := stateOf(v)
					if !ok {
						return types.NewErr("has_balance: bad receiver")
					}
					_, known := r.State.Balance()
					return types.Bool(known)
				})), noGuards),
		cel.Function("balance",
			cel.MemberOverload("state_balance", []*cel.Type{stateType}, cel.IntType,
				cel.UnaryBinding(func(v ref.Val) ref.Val {
					r, ok := stateOf(v)
					if !ok {
						return types.NewErr("balance: bad receiver")
					}
					n, known := r.State.Balance()
					if !known {
						return types.NewErr("balance is unknown")
					}
					return types.Int(n)
				})), noGuards),
	)...)
}

// noGuards drops CEL's runtime type checks of the state functions'
// arguments, which cost about a fifth of a call: each binding checks the
// types it is given and returns an error for any other.
var noGuards = decls.DisableTypeGuards(true)

// activation resolves the variables of one evaluation without building a
// map.
type activation struct{ r *policy.Request }

func (a activation) ResolveName(name string) (any, bool) {
	r := a.r
	switch name {
	case "tool":
		return fields[toolSet]{r}, true
	case "args":
		return r.Args.Map(), true
	case "turn":
		return fields[turnSet]{r}, true
	case "workdir":
		return r.Workdir, true
	case "now":
		return r.Now, true
	case "state":
		return celState{r}, true
	case "session":
		return fields[sessionSet]{r}, true
	case "provenance":
		return provenanceVal{r.Trust.Provenance}, true
	}
	return nil, false
}

func (a activation) Parent() interpreter.Activation { return nil }

// userRules compiles the policy's CEL rules: for each, it checks the
// rule's fields, compiles its condition, and makes the rule. Every error
// of every rule is reported; a rule with any is left out.
func (b *builder) userRules() {
	if len(b.cfg.Rules) == 0 {
		return
	}
	env, err := newCELEnv(nil)
	if err != nil {
		b.errorf("rules", "cannot set up CEL: %v", err)
		return
	}
	limit := b.cfg.CELCostLimit
	if limit == 0 {
		limit = DefaultCELCostLimit
	}
	seen := map[string]bool{}
	for i, u := range b.cfg.Rules {
		path := fmt.Sprintf("rules.%d", i)
		code, ok := b.checkRule(path, u, seen)
		if u.When == "" {
			continue
		}
		cond, compiled := b.compileCondition(env, path+".when", u, limit)
		if !ok || !compiled {
			continue
		}
		b.rules = append(b.rules, celRule(u, code, cond))
	}
}

// checkRule checks a CEL rule's fields other than the condition's text,
// and that it has one, and returns its reason code. seen holds the ids of
// the rules before it.
func (b *builder) checkRule(path string, u UserRule, seen map[string]bool) (code reason.Code, ok bool) {
	ok = true
	fail := func(key, format string, args ...any) {
		b.errorf(path+key, format, args...)
		ok = false
	}
	switch {
	case u.ID == "":
		fail(".id", "a rule needs an id")
	case seen[u.ID] || b.builtinIDs[u.ID]:
		fail(".id", "duplicate rule id %q", u.ID)
	}
	seen[u.ID] = true
	if u.Action > policy.Allow {
		fail(".action", "action must be allow, quarantine or deny")
	}
	code = u.Code
	if code == "" {
		code = "CUSTOM_RULE_VIOLATION"
	}
	if !code.Valid() {
		fail(".reason_code", "invalid reason code %q (upper snake case, up to 64 characters)", u.Code)
	}
	if err := u.AppliesTo.Validate(); err != nil {
		fail(".applies_to", "%v", err)
	}
	if u.When == "" {
		fail(".when", "a rule needs a CEL condition")
	}
	return code, ok
}

// celCondition is a rule's compiled condition.
type celCondition struct {
	ast    *cel.Ast
	prg    cel.Program
	direct func(*policy.Request) bool // not nil: the condition as a Go comparison
	equal  *policy.Equality
}

// compileCondition compiles a rule's condition, reported at path, and
// checks that it is a boolean whose argument types fit the rule's tools.
func (b *builder) compileCondition(env *cel.Env, path string, u UserRule, limit uint64) (celCondition, bool) {
	ast, iss := env.Compile(u.When)
	if iss.Err() != nil {
		for _, e := range iss.Errors() {
			b.errs = append(b.errs, &Error{Path: path, Msg: e.Message,
				Line: e.Location.Line(), Col: e.Location.Column() + 1})
		}
		return celCondition{}, false
	}
	if t := ast.OutputType(); !t.IsExactType(cel.BoolType) && !t.IsExactType(cel.DynType) {
		b.errorf(path, "the condition must be a boolean, not %s", t)
		return celCondition{}, false
	}
	if n := len(b.errs); b.typeCheck(path, u, ast) || len(b.errs) > n {
		return celCondition{}, false
	}
	// A rule whose worst case the checker can bound within the limit
	// runs without CEL's runtime cost tracker (two allocations per
	// evaluation); one whose cost grows with its arguments' sizes
	// keeps the tracker and its limit.
	// The state functions' direct calls report no cost, so only a
	// rule without the tracker gets them.
	// Within the limit, a condition of a shape many rules repeat runs
	// as a Go comparison (celdirect.go).
	c := celCondition{ast: ast}
	popts := []cel.ProgramOption{cel.EvalOptions(cel.OptOptimize)}
	if est, err := env.EstimateCost(ast, noSizes{}); err != nil || est.Max > limit {
		popts = append(popts, cel.CostLimit(limit))
	} else {
		popts = append(popts, cel.CustomDecoratorV2(stateCalls))
		c.direct, c.equal = directCondition(ast)
	}
	prg, err := env.Program(ast, popts...)
	if err != nil {
		b.errorf(path, "%v", err)
		return celCondition{}, false
	}
	c.prg = prg
	return c, true
}

// celRule makes the policy rule of a checked CEL rule and its condition.
func celRule(u UserRule, code reason.Code, cond celCondition) policy.Rule {
	msg := u.Message
	if msg == "" {
		msg = "denied by policy rule " + u.ID
	}
	result := policy.Result{Opinion: true, Action: u.Action, Code: code, Message: msg}
	rule := policy.Rule{
		ID: u.ID, Priority: u.Priority, Applies: u.AppliesTo,
		Stateful: celUsesState(cond.ast),
		ToolOnly: celReadsOnlyTool(cond.ast),
	}
	if direct := cond.direct; direct != nil {
		rule.Equal = cond.equal
		rule.Eval = func(r *policy.Request) (policy.Result, error) {
			if direct(r) {
				return result, nil
			}
			return policy.NoOpinion, nil
		}
		return rule
	}
	prg := cond.prg
	rule.Eval = func(r *policy.Request) (policy.Result, error) {
		out, _, err := prg.Eval(activation{r})
		if err != nil {
			return policy.Result{}, fmt.Errorf("cel: %w", err)
		}
		v, isBool := out.Value().(bool)
		if !isBool {
			return policy.Result{}, fmt.Errorf("cel: condition returned %s, not a boolean", out.Type())
		}
		if v {
			return result, nil
		}
		return policy.NoOpinion, nil
	}
	return rule
}

// celUsesState reports whether the expression mentions the state variable.
func celUsesState(ast *cel.Ast) bool {
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if ref.Name == "state" {
			return true
		}
	}
	return false
}

// celReadsOnlyTool reports whether the only variable the expression reads
// is tool (or none at all): its value is then a function of the tool.
func celReadsOnlyTool(ast *cel.Ast) bool {
	for _, ref := range ast.NativeRep().ReferenceMap() {
		if len(ref.OverloadIDs) == 0 && ref.Value == nil && ref.Name != "tool" {
			return false
		}
	}
	return true
}
