// Package schema validates tool arguments against the JSON Schema of the
// tool's parameters.
//
// Compile checks a schema once (it must describe an object, use only local
// references, and be small and acyclic enough that validating any
// argument object is bounded); Validate then checks arguments against it
// as many times as needed, from any goroutine. Validation itself is done
// by github.com/google/jsonschema-go (drafts 2020-12 and 07), the
// implementation the MCP Go SDK uses. That library stops at the first
// failure and describes it with schema locations and the offending value
// quoted in full, which is neither what a model can act on nor safe to
// show it; so when the library rejects the arguments, this package walks
// the schema itself and reports every problem it finds as an Error with
// the JSON Pointer of the offending value and a short description of what
// is wrong. Messages quote the schema (enums, patterns, bounds), never the
// argument values; object keys that appear in a path are truncated and
// stripped of control characters.
//
// The library's verdict is authoritative: Validate fails exactly when the
// library says the arguments are invalid, and if the report walk finds
// nothing more specific, the failure is reported on the arguments object
// as a whole.
package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/wardhq/ward/internal/tool"
)

// Limits on the schemas Compile accepts.
const (
	// MaxSchemaSize is the longest schema text, in bytes.
	MaxSchemaSize = 1 << 20
	// MaxPaths bounds the number of ways the schema graph can be walked
	// from the root (subschemas, counted once per way each is reached
	// through $ref and the combinators). Validation visits each argument
	// value at most this many times.
	MaxPaths = 2000
	// MaxErrors is the most errors Validate reports.
	MaxErrors = 20
)

// ErrInvalid is matched (errors.Is) by the Errors Validate returns.
var ErrInvalid = errors.New("arguments do not match the schema")

// Schema is a compiled parameter schema. It is immutable and safe for
// concurrent use.
type Schema struct {
	root     *jsonschema.Schema
	resolved *jsonschema.Resolved
	draft7   bool                                      // siblings of $ref are ignored
	refs     map[*jsonschema.Schema]*jsonschema.Schema // $ref source → target
	patterns map[string]*regexp.Regexp
}

// Compile parses and checks a parameter schema. It rejects a schema that
// is not JSON, whose root is not {"type": "object", ...}, that declares a
// draft other than 2020-12 or 07, that uses $dynamicRef or references
// other than local JSON Pointers ("#", "#/$defs/name"), whose references
// form a cycle, or that exceeds the limits above.
func Compile(raw json.RawMessage) (*Schema, error) {
	if len(raw) > MaxSchemaSize {
		return nil, fmt.Errorf("schema: %d bytes exceeds the limit of %d", len(raw), MaxSchemaSize)
	}
	root := new(jsonschema.Schema)
	if err := json.Unmarshal(raw, root); err != nil {
		return nil, fmt.Errorf("schema: decode: %w", err)
	}
	if root.Type != "object" && !(len(root.Types) == 1 && root.Types[0] == "object") {
		return nil, errors.New(`schema: parameters must be described by a schema of "type": "object"`)
	}
	switch root.Schema {
	case "", "https://json-schema.org/draft/2020-12/schema",
		"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#":
	default:
		return nil, fmt.Errorf("schema: unsupported $schema %q (want draft 2020-12 or draft-07)", trunc(root.Schema, 80))
	}
	s := &Schema{root: root, draft7: strings.Contains(root.Schema, "draft-07"), refs: map[*jsonschema.Schema]*jsonschema.Schema{}, patterns: map[string]*regexp.Regexp{}}
	if err := s.link(); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	rs, err := root.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	s.resolved = rs
	return s, nil
}

// link resolves the schema's references, compiles its patterns, and
// checks that walking it is finite and bounded (see MaxPaths).
func (s *Schema) link() error {
	// Every node once: references, patterns, unsupported keywords.
	var visitErr error
	var visit func(n *jsonschema.Schema, depth int)
	visit = func(n *jsonschema.Schema, depth int) {
		if visitErr != nil || n == nil {
			return
		}
		if depth > 64 {
			visitErr = errors.New("subschemas nested more than 64 deep")
			return
		}
		if n.DynamicRef != "" {
			visitErr = errors.New("$dynamicRef is not supported")
			return
		}
		for _, ty := range append([]string{n.Type}, n.Types...) {
			switch ty {
			case "", "null", "boolean", "object", "array", "number", "integer", "string":
			default:
				visitErr = fmt.Errorf("unknown type %q", trunc(ty, 40))
				return
			}
		}
		if n != s.root && n.ID != "" {
			visitErr = errors.New("$id is allowed on the root schema only")
			return
		}
		if n.Ref != "" {
			t, err := s.pointer(n.Ref)
			if err != nil {
				visitErr = err
				return
			}
			s.refs[n] = t
		}
		for _, p := range append([]string{n.Pattern}, keys(n.PatternProperties)...) {
			if p == "" || s.patterns[p] != nil {
				continue
			}
			re, err := regexp.Compile(p)
			if err != nil {
				visitErr = fmt.Errorf("pattern %q: %w", trunc(p, 80), err)
				return
			}
			s.patterns[p] = re
		}
		for _, c := range edges(n) {
			visit(c, depth+1)
		}
	}
	visit(s.root, 0)
	if visitErr != nil {
		return visitErr
	}

	// Count the ways of walking the graph from the root through $ref and
	// every child edge; a cycle is an unbounded walk (and would overflow
	// the validator's stack, which no recover can catch).
	const (
		unseen = iota
		active
		done
	)
	state := map[*jsonschema.Schema]int{}
	paths := map[*jsonschema.Schema]int{}
	var count func(n *jsonschema.Schema) (int, error)
	count = func(n *jsonschema.Schema) (int, error) {
		switch state[n] {
		case active:
			return 0, errors.New("the schema refers to itself (recursive schemas are not supported)")
		case done:
			return paths[n], nil
		}
		state[n] = active
		total := 1
		next := edges(n)
		if t := s.refs[n]; t != nil {
			next = append(next, t)
		}
		for _, child := range next {
			c, err := count(child)
			if err != nil {
				return 0, err
			}
			total += c
			if total > MaxPaths {
				return 0, fmt.Errorf("the schema is too complex (more than %d subschema paths)", MaxPaths)
			}
		}
		state[n], paths[n] = done, total
		return total, nil
	}
	_, err := count(s.root)
	return err
}

// pointer resolves a local JSON Pointer reference ("#", "#/$defs/x").
func (s *Schema) pointer(ref string) (*jsonschema.Schema, error) {
	bad := func(why string) error { return fmt.Errorf("$ref %q: %s", trunc(ref, 80), why) }
	if !strings.HasPrefix(ref, "#") {
		return nil, bad("only local references (#/...) are supported")
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, bad("invalid escape")
	}
	n := s.root
	if frag == "" {
		return n, nil
	}
	if frag[0] != '/' {
		return nil, bad("anchors are not supported; use a JSON Pointer")
	}
	segs := strings.Split(frag[1:], "/")
	for i := 0; i < len(segs); i++ {
		seg := unescapePointer(segs[i])
		arg := func() (string, bool) {
			if i+1 >= len(segs) {
				return "", false
			}
			i++
			return unescapePointer(segs[i]), true
		}
		var next *jsonschema.Schema
		switch seg {
		case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas":
			k, ok := arg()
			if !ok {
				return nil, bad("incomplete pointer")
			}
			next = map[string]map[string]*jsonschema.Schema{
				"$defs": n.Defs, "definitions": n.Definitions, "properties": n.Properties,
				"patternProperties": n.PatternProperties, "dependentSchemas": n.DependentSchemas,
			}[seg][k]
		case "allOf", "anyOf", "oneOf", "prefixItems", "items":
			list := map[string][]*jsonschema.Schema{"allOf": n.AllOf, "anyOf": n.AnyOf, "oneOf": n.OneOf,
				"prefixItems": n.PrefixItems, "items": n.ItemsArray}[seg]
			if seg == "items" && n.Items != nil {
				next = n.Items
				break
			}
			k, ok := arg()
			if !ok {
				return nil, bad("incomplete pointer")
			}
			j, err := strconv.Atoi(k)
			if err != nil || j < 0 || j >= len(list) {
				return nil, bad("index out of range")
			}
			next = list[j]
		case "not":
			next = n.Not
		case "if":
			next = n.If
		case "then":
			next = n.Then
		case "else":
			next = n.Else
		case "additionalProperties":
			next = n.AdditionalProperties
		case "additionalItems":
			next = n.AdditionalItems
		case "contains":
			next = n.Contains
		case "propertyNames":
			next = n.PropertyNames
		}
		if next == nil {
			return nil, bad("does not point at a subschema")
		}
		n = next
	}
	return n, nil
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// edges returns every child schema of n.
func edges(n *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	add := func(ss ...*jsonschema.Schema) {
		for _, c := range ss {
			if c != nil {
				out = append(out, c)
			}
		}
	}
	addMap := func(m map[string]*jsonschema.Schema) {
		for _, k := range keys(m) {
			add(m[k])
		}
	}
	addMap(n.Defs)
	addMap(n.Definitions)
	addMap(n.DependencySchemas)
	addMap(n.Properties)
	addMap(n.PatternProperties)
	addMap(n.DependentSchemas)
	add(n.PrefixItems...)
	add(n.ItemsArray...)
	add(n.AllOf...)
	add(n.AnyOf...)
	add(n.OneOf...)
	add(n.Items, n.AdditionalItems, n.Contains, n.UnevaluatedItems, n.AdditionalProperties,
		n.PropertyNames, n.UnevaluatedProperties, n.Not, n.If, n.Then, n.Else, n.ContentSchema)
	return out
}

// Validate checks args against the schema. args is the JSON text of the
// arguments (json.RawMessage or []byte, decoded with tool.ParseArgs and so
// within its limits), decoded *tool.Args, or a value as encoding/json
// decodes into any. It returns nil when the arguments are valid, Errors
// when they are not, and another error when args is of a type it cannot
// validate.
func (s *Schema) Validate(args any) error {
	var inst any
	switch a := args.(type) {
	case json.RawMessage:
		return s.validateText(a)
	case []byte:
		return s.validateText(a)
	case *tool.Args:
		if a == nil {
			return s.validateValue(map[string]any{})
		}
		return s.validateValue(a.Map())
	case nil, bool, float64, int64, int, string, []any, map[string]any:
		inst = a
	default:
		return fmt.Errorf("schema: cannot validate a %T", args)
	}
	return s.validateValue(inst)
}

func (s *Schema) validateText(raw []byte) error {
	a, err := tool.ParseArgs(raw)
	if err != nil {
		return Errors{{Message: "the arguments are not one JSON object within ward's limits (size, depth, unique keys, valid UTF-8)", cause: err}}
	}
	return s.validateValue(a.Map())
}

func (s *Schema) validateValue(inst any) error {
	if err := s.resolved.Validate(inst); err == nil {
		return nil
	}
	r := newReporter(s)
	r.check(inst, s.root, nil)
	if len(r.errs) == 0 {
		return Errors{{Message: "the arguments do not match the tool's parameter schema"}}
	}
	return r.errs
}

// Error is one way the arguments break the schema: the JSON Pointer of the
// offending value ("" for the arguments object itself) and what is wrong
// with it, worded for the model that wrote the arguments.
type Error struct {
	Path    string
	Message string
	cause   error
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "arguments: " + e.Message
	}
	return e.Path + ": " + e.Message
}

// Unwrap returns the underlying decoding error, if any.
func (e *Error) Unwrap() error { return e.cause }

// Errors are the problems Validate found, at most MaxErrors of them, in
// the order the schema walk met them.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the errors, so that errors.As finds an *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// Is makes errors.Is(err, ErrInvalid) true for Errors.
func (es Errors) Is(target error) bool { return target == ErrInvalid }

// keys returns m's keys in sorted order.
func keys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
