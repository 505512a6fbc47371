package rules

import (
	"cel.dev/cel-go/cel"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"

	"github.com/wardhq/ward/internal/policy"
)

// Rules of a few shapes that many policies repeat with different constants
// are run as Go comparisons instead of CEL programs:
//
//	turn.F == "c", session.F != "c"        (or the constant first)
//	state.count("tool", "turn") > n        (any comparison with an int)
//
// These cannot fail (the field is one the variable has, the scope is
// valid, the comparison is of a string or an int with a constant), so the
// comparison's result is the program's; CEL's per-rule overhead (frame,
// dispatch, boxing) is most of such a rule's cost. A rule of any other
// shape, or whose worst-case cost exceeds the limit, stays a CEL program.
// TestDirectConditionsAsCEL checks the two agree.

// directCondition returns the condition of a rule of one of the shapes
// above as a Go function, or nil; for V.F == "c" also the equality, so
// that the snapshot can decide runs of such rules by one lookup.
func directCondition(ast *cel.Ast) (func(*policy.Request) bool, *policy.Equality) {
	a := ast.NativeRep()
	e := a.Expr()
	if e.Kind() != celast.CallKind {
		return nil, nil
	}
	call := e.AsCall()
	args := call.Args()
	if call.IsMemberFunction() || len(args) != 2 {
		return nil, nil
	}
	fn := call.FunctionName()
	if f, eq := fieldEquals(a, fn, args[0], args[1]); f != nil {
		return f, eq
	}
	if f, eq := fieldEquals(a, fn, args[1], args[0]); f != nil {
		return f, eq
	}
	return countCompares(a, fn, args[0], args[1]), nil
}

// fieldEquals handles V.F == "c" and V.F != "c" for V turn or session.
func fieldEquals(a *celast.AST, fn string, sel, lit celast.Expr) (func(*policy.Request) bool, *policy.Equality) {
	if fn != operators.Equals && fn != operators.NotEquals {
		return nil, nil
	}
	c, ok := stringLiteral(lit)
	if !ok || sel.Kind() != celast.SelectKind || sel.AsSelect().IsTestOnly() {
		return nil, nil
	}
	field := sel.AsSelect().FieldName()
	v := variable(a, sel.AsSelect().Operand())
	var read func(*policy.Request, string) (string, bool)
	switch v {
	case "turn":
		read = turnSet{}.field
	case "session":
		read = sessionSet{}.field
	default:
		return nil, nil
	}
	if _, ok := read(&policy.Request{}, field); !ok {
		return nil, nil // no such field: CEL's error
	}
	get := func(r *policy.Request) string { s, _ := read(r, field); return s }
	if fn == operators.Equals {
		return func(r *policy.Request) bool { return get(r) == c }, &policy.Equality{Field: v + "." + field, Read: get, Value: c}
	}
	return func(r *policy.Request) bool { return get(r) != c }, nil
}

// countCompares handles state.count("tool", scope) compared with an int
// constant.
func countCompares(a *celast.AST, fn string, call, lit celast.Expr) func(*policy.Request) bool {
	if lit.Kind() != celast.LiteralKind || call.Kind() != celast.CallKind {
		return nil
	}
	n, ok := lit.AsLiteral().(types.Int)
	if !ok {
		return nil
	}
	c := call.AsCall()
	ids := a.GetOverloadIDs(call.ID())
	if !c.IsMemberFunction() || len(ids) != 1 || ids[0] != overloadCount || variable(a, c.Target()) != "state" || len(c.Args()) != 2 {
		return nil
	}
	name, ok := stringLiteral(c.Args()[0])
	scopeName, ok2 := stringLiteral(c.Args()[1])
	scope, ok3 := scopeOf(types.String(scopeName))
	if !ok || !ok2 || !ok3 {
		return nil
	}
	tools := []string{name}
	count := func(r *policy.Request) int64 { return int64(countOf(r, tools, scope)) }
	switch fn {
	case operators.Less:
		return func(r *policy.Request) bool { return count(r) < int64(n) }
	case operators.LessEquals:
		return func(r *policy.Request) bool { return count(r) <= int64(n) }
	case operators.Greater:
		return func(r *policy.Request) bool { return count(r) > int64(n) }
	case operators.GreaterEquals:
		return func(r *policy.Request) bool { return count(r) >= int64(n) }
	case operators.Equals:
		return func(r *policy.Request) bool { return count(r) == int64(n) }
	case operators.NotEquals:
		return func(r *policy.Request) bool { return count(r) != int64(n) }
	}
	return nil
}

func stringLiteral(e celast.Expr) (string, bool) {
	if e.Kind() != celast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
}

// variable returns the name of the variable e is, or "".
func variable(a *celast.AST, e celast.Expr) string {
	if e.Kind() != celast.IdentKind {
		return ""
	}
	ref, ok := a.ReferenceMap()[e.ID()]
	if !ok || ref.Value != nil || len(ref.OverloadIDs) > 0 || ref.Name != e.AsIdent() {
		return ""
	}
	return ref.Name
}
