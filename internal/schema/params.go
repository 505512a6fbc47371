package schema

import (
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Param is one top-level parameter of a schema (a property of the object
// it describes), as Params resolves it.
type Param struct {
	Name string
	// Type is the parameter's JSON type ("string", "integer", "object",
	// ...): the first type other than "null" that the property declares,
	// looking through $ref, allOf and the branches of anyOf and oneOf; ""
	// when none of them declares a type.
	Type string
	// Nullable reports whether the schema names null among its types or
	// has a {"type": "null"} branch in anyOf or oneOf.
	Nullable bool
	// Description is the property's own description, else that of the
	// schema it refers to (through $ref, a nullable union's other branch,
	// or allOf).
	Description string
	// Format and Enum are found the same way: the format annotation, and
	// the allowed values (enum, or const as a single value; nil when the
	// values are not restricted).
	Format string
	Enum   []any
	// Required reports whether the object requires the parameter.
	Required bool
	// Schema is the property's subschema with the references, the
	// nullable union and the single-branch allOf around it looked through
	// (Deref): for {"anyOf": [{"$ref": "#/$defs/Address"}, {"type":
	// "null"}]} it is the Address schema. Keywords next to a $ref are not
	// merged into it. It belongs to the compiled schema and must not be
	// modified.
	Schema *jsonschema.Schema
}

// Params returns the parameters the schema's root object declares, sorted
// by name: the properties of the root (through a root $ref) and of the
// object schemas its allOf combines, the first declaration of a name
// winning. It is the way to read a parameter's name, type and description
// from a schema whose properties are references ($defs, definitions),
// nullable unions or allOf wrappers, as pydantic and zod write them.
// Like Deref, it only reads the schema and is safe for concurrent use.
func (s *Schema) Params() []Param {
	var out []Param
	required, seen := map[string]bool{}, map[string]bool{}
	for _, obj := range s.objects(s.root, 0, nil) {
		for _, r := range obj.Required {
			required[r] = true
		}
		for _, name := range keys(obj.Properties) {
			if seen[name] {
				continue
			}
			seen[name] = true
			n := obj.Properties[name]
			p := Param{Name: name, Schema: s.Deref(n)}
			s.describe(n, &p, 0)
			out = append(out, p)
		}
	}
	for i := range out {
		out[i].Required = required[out[i].Name]
	}
	slices.SortFunc(out, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// objects returns n and the schemas it refers to and combines with
// allOf, recursively (under draft-07 a $ref stands for n alone).
func (s *Schema) objects(n *jsonschema.Schema, depth int, out []*jsonschema.Schema) []*jsonschema.Schema {
	if depth > MaxDepth {
		return out
	}
	t := s.refs[n]
	if t == nil || !s.draft7 {
		out = append(out, n)
	}
	if t != nil {
		out = s.objects(t, depth+1, out)
		if s.draft7 {
			return out
		}
	}
	for _, b := range n.AllOf {
		out = s.objects(b, depth+1, out)
	}
	return out
}

// Deref returns the schema that n stands for, n being a subschema of s:
// it follows $ref, the one other branch of a nullable union (anyOf or
// oneOf of a schema and {"type": "null"}) and an allOf of one schema, as
// long as one of them applies. Keywords next to those are not merged in.
// It returns n itself when none applies, and nil for nil.
func (s *Schema) Deref(n *jsonschema.Schema) *jsonschema.Schema {
	for range MaxDepth {
		if n == nil {
			return nil
		}
		switch t := s.refs[n]; {
		case t != nil:
			n = t
		case len(n.AllOf) == 1 && n.AnyOf == nil && n.OneOf == nil:
			n = n.AllOf[0]
		case nonNull(n.AnyOf) != nil && n.AllOf == nil && n.OneOf == nil:
			n = nonNull(n.AnyOf)
		case nonNull(n.OneOf) != nil && n.AllOf == nil && n.AnyOf == nil:
			n = nonNull(n.OneOf)
		default:
			return n
		}
	}
	return n
}

// nonNull returns the branch other than {"type": "null"} of a two-branch
// union, or nil when the union is not of that form.
func nonNull(branches []*jsonschema.Schema) *jsonschema.Schema {
	if len(branches) != 2 {
		return nil
	}
	switch {
	case isNull(branches[0]) && !isNull(branches[1]):
		return branches[1]
	case isNull(branches[1]) && !isNull(branches[0]):
		return branches[0]
	}
	return nil
}

// isNull reports whether n is the schema of null alone.
func isNull(n *jsonschema.Schema) bool {
	return n != nil && (n.Type == "null" || (n.Type == "" && len(n.Types) == 1 && n.Types[0] == "null"))
}

// describe fills p's type, nullability and annotations from n, then from
// what n refers to or combines, each field from the first schema that
// has it. Under draft-07 the siblings of a $ref do not apply, except the
// description, which a reader of the schema still sees.
func (s *Schema) describe(n *jsonschema.Schema, p *Param, depth int) {
	if n == nil || depth > MaxDepth {
		return
	}
	if p.Description == "" {
		p.Description = n.Description
	}
	t := s.refs[n]
	if t == nil || !s.draft7 {
		types := n.Types
		if n.Type != "" {
			types = []string{n.Type}
		}
		for _, ty := range types {
			switch {
			case ty == "null":
				p.Nullable = true
			case p.Type == "":
				p.Type = ty
			}
		}
		if p.Format == "" {
			p.Format = n.Format
		}
		if p.Enum == nil {
			switch {
			case n.Enum != nil:
				p.Enum = n.Enum
			case n.Const != nil:
				p.Enum = []any{*n.Const}
			}
		}
	}
	if t != nil {
		s.describe(t, p, depth+1)
		if s.draft7 {
			return
		}
	}
	for _, b := range n.AllOf {
		s.describe(b, p, depth+1)
	}
	for _, union := range [][]*jsonschema.Schema{n.AnyOf, n.OneOf} {
		if one := nonNull(union); one != nil {
			p.Nullable = true
			s.describe(one, p, depth+1)
			continue
		}
		// A union of several forms: only its type (the first one not
		// null), not one branch's annotations.
		for _, b := range union {
			q := Param{}
			s.describe(b, &q, depth+1)
			p.Nullable = p.Nullable || q.Nullable
			if p.Type == "" {
				p.Type = q.Type
			}
		}
	}
}
