package rules

import (
	"encoding/json"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"

	"github.com/wardhq/ward/internal/policy"
)

// A user rule whose selector names only tools whose parameter schemas are
// known when the policy compiles (Config.ArgSchemas) is type-checked a
// second time with args declared as an object of those parameters: a
// comparison of an integer argument with a string, or a field no tool
// has, is then a compile error instead of a deny at run time. The rule
// still runs the program compiled against the dynamic args map, so
// evaluation is unchanged. Rules selecting by category, risk or all, or
// naming a tool whose schema is unknown, keep dynamic typing; so does an
// expression that uses args other than by field (args["x"], "x" in args,
// args.size()), which a declared object type does not support.

// argsTypeName is the CEL type of args in the typed check.
const argsTypeName = "ward.args"

// argFields are the parameters of a rule's tools: name → CEL type. open
// means some tool accepts parameters its schema does not name.
type argFields struct {
	fields map[string]*types.Type
	open   bool
}

// ruleArgFields returns the parameters of the tools sel names, or false
// when the rule keeps dynamic typing.
func (b *builder) ruleArgFields(u UserRule) (argFields, bool) {
	if b.cfg.ArgSchemas == nil || u.AppliesTo.By != policy.SelectName || len(u.AppliesTo.Names) == 0 {
		return argFields{}, false
	}
	af := argFields{fields: map[string]*types.Type{}}
	conflict := map[string]bool{}
	for _, name := range u.AppliesTo.Names {
		raw := b.cfg.ArgSchemas(name)
		if raw == nil {
			return argFields{}, false
		}
		var s struct {
			Properties           map[string]json.RawMessage `json:"properties"`
			AdditionalProperties *json.RawMessage           `json:"additionalProperties"`
		}
		if json.Unmarshal(raw, &s) != nil {
			return argFields{}, false
		}
		if s.AdditionalProperties == nil || string(*s.AdditionalProperties) != "false" {
			af.open = true
		}
		for field, ps := range s.Properties {
			t := celTypeOf(ps)
			if prev, ok := af.fields[field]; ok && !prev.IsExactType(t) {
				conflict[field] = true
			}
			af.fields[field] = t
		}
	}
	for field := range conflict {
		af.fields[field] = types.DynType
	}
	return af, true
}

// celTypeOf maps a JSON schema to the CEL type its values decode to.
func celTypeOf(schema json.RawMessage) *types.Type {
	var s struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return types.DynType
	}
	var name string
	if json.Unmarshal(s.Type, &name) != nil {
		return types.DynType // absent, or a list of types
	}
	switch name {
	case "string":
		return types.StringType
	case "integer":
		return types.IntType
	case "number":
		return types.DoubleType
	case "boolean":
		return types.BoolType
	case "array":
		return types.NewListType(types.DynType)
	case "object":
		return types.NewMapType(types.StringType, types.DynType)
	}
	return types.DynType
}

// argsByFieldOnly reports whether every use of args in the checked
// expression selects a field of it.
func argsByFieldOnly(checked *cel.Ast) bool {
	idents, selects := 0, 0
	ast.PostOrderVisit(checked.NativeRep().Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		switch e.Kind() {
		case ast.IdentKind:
			if e.AsIdent() == "args" {
				idents++
			}
		case ast.SelectKind:
			if op := e.AsSelect().Operand(); op.Kind() == ast.IdentKind && op.AsIdent() == "args" {
				selects++
			}
		}
	}))
	return idents == selects
}

// argsProvider declares ward.args over CEL's standard types.
type argsProvider struct {
	*types.Registry
	af argFields
}

func (p argsProvider) FindStructType(name string) (*types.Type, bool) {
	if name == argsTypeName {
		return types.NewTypeTypeWithParam(types.NewObjectType(argsTypeName)), true
	}
	return p.Registry.FindStructType(name)
}

func (p argsProvider) FindStructFieldNames(name string) ([]string, bool) {
	if name == argsTypeName {
		names := make([]string, 0, len(p.af.fields))
		for f := range p.af.fields {
			names = append(names, f)
		}
		slices.Sort(names)
		return names, true
	}
	return p.Registry.FindStructFieldNames(name)
}

func (p argsProvider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	if name == argsTypeName {
		t, ok := p.af.fields[field]
		if !ok && p.af.open {
			t, ok = types.DynType, true
		}
		if !ok {
			return nil, false
		}
		return &types.FieldType{Type: t}, true
	}
	return p.Registry.FindStructFieldType(name, field)
}

// typeCheck checks a rule's expression against its tools' parameters and
// reports every type error under path; it returns true if it found any.
func (b *builder) typeCheck(path string, u UserRule, checked *cel.Ast) bool {
	af, ok := b.ruleArgFields(u)
	if !ok || !argsByFieldOnly(checked) {
		return false
	}
	reg, err := types.NewRegistry()
	if err != nil {
		b.errorf(path, "cannot set up CEL: %v", err)
		return true
	}
	env, err := newCELEnv(types.NewObjectType(argsTypeName), cel.CustomTypeProvider(argsProvider{Registry: reg, af: af}))
	if err != nil {
		b.errorf(path, "cannot set up CEL: %v", err)
		return true
	}
	_, iss := env.Compile(u.When)
	if iss.Err() == nil {
		return false
	}
	tools := strings.Join(u.AppliesTo.Names, ", ")
	for _, e := range iss.Errors() {
		b.errs = append(b.errs, &Error{Path: path, Msg: e.Message + " (with the parameter types of " + tools + ")",
			Line: e.Location.Line(), Col: e.Location.Column() + 1})
	}
	return true
}
