// Package schema compiles the JSON Schemas of tools' parameters and
// results and validates arguments against them.
//
// Compile checks a schema once and Validate then checks arguments against
// it as many times as needed, from any goroutine. Schemas are read with
// the semantics of JSON Schema draft 2020-12, or of draft-07 when the
// schema declares it (or, declaring nothing, uses draft-07's tuple
// "items" or "dependencies"): local references ("#", "#/$defs/x",
// "#/definitions/x", or a JSON Pointer to any subschema, also through
// other references), the applicators (allOf, anyOf, oneOf, not,
// if/then/else, properties, items, prefixItems, ...), and every assertion
// keyword. "format" and "default" are annotations, as 2020-12 makes them
// by default: a value is not checked against its format, and a default is
// not checked against its schema (generators such as pydantic write
// "default": null next to a non-null type).
//
// Compile refuses a schema that could make validation unbounded or that
// it cannot read faithfully: one over the size, depth and path limits
// below, references that are remote, anchors, $dynamicRef or cyclic
// (recursive schemas), nested $id, patterns Go's regexp cannot compile, a
// root that is not an object schema. Its error is a *CompileError with
// the JSON Pointer of the offending place in the schema.
//
// Validation itself is done by github.com/google/jsonschema-go, the
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
//
// Params reads a compiled schema's top-level parameters with references
// resolved, for code that classifies arguments by name, type and
// description; Object builds an object schema from one schema per
// parameter.
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
	// MaxDepth is how deeply subschemas may nest.
	MaxDepth = 64
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

// The $schema values of the two drafts, as the library spells them.
const (
	draft202012 = "https://json-schema.org/draft/2020-12/schema"
	draft07     = "http://json-schema.org/draft-07/schema#"
)

// Schema is a compiled schema. It is immutable and safe for concurrent
// use.
type Schema struct {
	root     *jsonschema.Schema
	resolved *jsonschema.Resolved
	draft7   bool                                      // siblings of $ref are ignored
	refs     map[*jsonschema.Schema]*jsonschema.Schema // $ref source → target
	patterns map[string]*regexp.Regexp
}

// CompileError is why Compile refused a schema.
type CompileError struct {
	// Path is the JSON Pointer of the offending keyword or subschema in
	// the schema ("/properties/to/$ref"); "" for the schema as a whole.
	// Property names in it are cut to 64 characters and stripped of
	// control characters.
	Path string
	// Reason says what is wrong, quoting the schema.
	Reason string
	err    error
}

func (e *CompileError) Error() string {
	if e.Path == "" {
		return "schema: " + e.Reason
	}
	return "schema: at " + e.Path + ": " + e.Reason
}

// Unwrap returns the underlying error (a decoding or library error), if
// any.
func (e *CompileError) Unwrap() error { return e.err }

func refuse(path, format string, args ...any) *CompileError {
	return &CompileError{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// Compile parses and checks a schema of tool parameters or of a tool's
// structured result: its root must describe an object ({"type":
// "object"}, or a reference to such a schema). It returns a
// *CompileError for a schema it refuses (see the package comment).
func Compile(raw json.RawMessage) (*Schema, error) {
	if len(raw) > MaxSchemaSize {
		return nil, refuse("", "%d bytes exceeds the limit of %d", len(raw), MaxSchemaSize)
	}
	root := new(jsonschema.Schema)
	if err := json.Unmarshal(raw, root); err != nil {
		return nil, &CompileError{Reason: "decode: " + err.Error(), err: err}
	}
	s := &Schema{root: root, refs: map[*jsonschema.Schema]*jsonschema.Schema{}, patterns: map[string]*regexp.Regexp{}}
	switch draft(root.Schema) {
	case draft202012:
		root.Schema = draft202012
	case draft07:
		root.Schema, s.draft7 = draft07, true
	case "":
		// Undeclared: 2020-12, unless the schema is written in draft-07's
		// own forms, which 2020-12 would silently ignore.
		s.draft7 = usesDraft7(root, 0)
		if s.draft7 {
			root.Schema = draft07
		}
	default:
		return nil, refuse("/$schema", "unsupported $schema %q (want draft 2020-12 or draft-07)", trunc(root.Schema, 80))
	}
	if err := s.link(); err != nil {
		return nil, err
	}
	if !isObject(s.follow(root)) {
		return nil, refuse("", `the schema must describe an object ("type": "object")`)
	}
	rs, err := root.Resolve(nil)
	if err != nil {
		return nil, &CompileError{Reason: trunc(err.Error(), 300), err: err}
	}
	s.resolved = rs
	return s, nil
}

// draft returns the canonical $schema of a declared draft 2020-12 or
// draft-07 ("" when none is declared, the value itself when it is
// another): http or https, with or without the empty fragment.
func draft(declared string) string {
	u := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(declared, "https://"), "http://"), "#")
	switch u {
	case "":
		if declared == "" {
			return ""
		}
	case "json-schema.org/draft/2020-12/schema":
		return draft202012
	case "json-schema.org/draft-07/schema":
		return draft07
	}
	return declared
}

// usesDraft7 reports whether n or a subschema uses a form only draft-07
// gives a meaning: "items" as an array of schemas, or "dependencies".
func usesDraft7(n *jsonschema.Schema, depth int) bool {
	if n.ItemsArray != nil || n.DependencySchemas != nil || n.DependencyStrings != nil {
		return true
	}
	if depth > MaxDepth {
		return false
	}
	for _, c := range children(n) {
		if usesDraft7(c.s, depth+1) {
			return true
		}
	}
	return false
}

func isObject(n *jsonschema.Schema) bool {
	return n.Type == "object" || (n.Type == "" && len(n.Types) == 1 && n.Types[0] == "object")
}

// follow follows n's references while the schema it is at declares no
// type of its own, and returns where it stops: the schema whose type
// decides what n accepts first.
func (s *Schema) follow(n *jsonschema.Schema) *jsonschema.Schema {
	for range MaxDepth {
		t := s.refs[n]
		if t == nil || n.Type != "" || n.Types != nil {
			break
		}
		n = t
	}
	return n
}

// link resolves the schema's references, compiles its patterns, and
// checks that walking it is finite and bounded (see MaxPaths).
func (s *Schema) link() error {
	at := map[*jsonschema.Schema]string{}
	if err := s.visit(s.root, "", 0, at); err != nil {
		return err
	}
	pc := pathCounter{s: s, at: at, state: map[*jsonschema.Schema]int{}, paths: map[*jsonschema.Schema]int{}}
	if _, err := pc.count(s.root); err != nil {
		return err
	}
	return nil
}

// visit checks n and its subschemas, each node once, recording in at
// where each is: nesting, keywords ward does not support, references
// (resolved into s.refs) and patterns (compiled).
func (s *Schema) visit(n *jsonschema.Schema, path string, depth int, at map[*jsonschema.Schema]string) *CompileError {
	at[n] = path
	if depth > MaxDepth {
		return refuse(path, "subschemas nested more than %d deep", MaxDepth)
	}
	if err := s.checkKeywords(n, path); err != nil {
		return err
	}
	if n.Ref != "" {
		t, err := s.pointer(n.Ref)
		if err != nil {
			return refuse(path+"/$ref", "%v", err)
		}
		s.refs[n] = t
	}
	if n.Pattern != "" {
		if err := s.compilePattern(n.Pattern); err != nil {
			return refuse(path+"/pattern", "%v", err)
		}
	}
	for _, p := range keys(n.PatternProperties) {
		if err := s.compilePattern(p); err != nil {
			return refuse(path+"/patternProperties/"+segment(p), "%v", err)
		}
	}
	for _, c := range children(n) {
		if err := s.visit(c.s, path+c.path(), depth+1, at); err != nil {
			return err
		}
	}
	return nil
}

// checkKeywords refuses what n at path says that ward does not support:
// $dynamicRef, an unknown type, $id below the root, and draft-07's tuple
// items in a draft 2020-12 schema.
func (s *Schema) checkKeywords(n *jsonschema.Schema, path string) *CompileError {
	if n.DynamicRef != "" {
		return refuse(path+"/$dynamicRef", "$dynamicRef is not supported")
	}
	for _, ty := range append([]string{n.Type}, n.Types...) {
		switch ty {
		case "", "null", "boolean", "object", "array", "number", "integer", "string":
		default:
			return refuse(path+"/type", "unknown type %q", trunc(ty, 40))
		}
	}
	if n != s.root && n.ID != "" {
		return refuse(path+"/$id", "$id is allowed on the root schema only")
	}
	if n.ItemsArray != nil && !s.draft7 {
		return refuse(path+"/items", `an array of schemas is draft-07's tuple form; draft 2020-12 uses "prefixItems"`)
	}
	return nil
}

// States of a node in pathCounter's walk.
const (
	walkUnseen = iota
	walkActive
	walkDone
)

// pathCounter counts the ways of walking a schema's graph from a node
// through $ref and every child edge; a cycle is an unbounded walk (and
// would overflow the validator's stack, which no recover can catch).
type pathCounter struct {
	s     *Schema
	at    map[*jsonschema.Schema]string // where each node is (visit)
	state map[*jsonschema.Schema]int    // walkUnseen, walkActive (on the walk) or walkDone
	paths map[*jsonschema.Schema]int    // of each done node
}

// count returns the number of walks from n, or refuses a cycle (at the
// edge that closes it) or more than MaxPaths walks.
func (pc *pathCounter) count(n *jsonschema.Schema) (int, *CompileError) {
	switch pc.state[n] {
	case walkActive:
		return 0, refuse("", "the schema refers to itself (recursive schemas are not supported)")
	case walkDone:
		return pc.paths[n], nil
	}
	pc.state[n] = walkActive
	total := 1
	next := edges(n)
	if t := pc.s.refs[n]; t != nil {
		next = append(next, t)
	}
	for _, child := range next {
		c, err := pc.count(child)
		if err != nil {
			if err.Path == "" {
				// The edge that closes the cycle.
				err.Path = pc.at[child]
				if child == pc.s.refs[n] {
					err.Path = pc.at[n] + "/$ref"
				}
			}
			return 0, err
		}
		total += c
		if total > MaxPaths {
			return 0, refuse(pc.at[n], "the schema is too complex (more than %d subschema paths)", MaxPaths)
		}
	}
	pc.state[n], pc.paths[n] = walkDone, total
	return total, nil
}

func (s *Schema) compilePattern(p string) error {
	if s.patterns[p] != nil {
		return nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return fmt.Errorf("pattern %q: %w", trunc(p, 80), err)
	}
	s.patterns[p] = re
	return nil
}

// pointer resolves a local reference: "#" or a JSON Pointer fragment
// ("#/$defs/x", "#/properties/a/items") to any subschema.
func (s *Schema) pointer(ref string) (*jsonschema.Schema, error) {
	bad := func(why string) error { return fmt.Errorf("$ref %q %s", trunc(ref, 80), why) }
	if !strings.HasPrefix(ref, "#") {
		return nil, bad("is not local (only #/... references are supported)")
	}
	frag, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil, bad("has an invalid escape")
	}
	n := s.root
	if frag == "" {
		return n, nil
	}
	if frag[0] != '/' {
		return nil, bad("names an anchor (not supported; use a JSON Pointer)")
	}
	segs := strings.Split(frag[1:], "/")
	for i := range segs {
		segs[i] = unescapePointer(segs[i])
	}
	for len(segs) > 0 {
		next, used := step(n, segs)
		if next == nil {
			return nil, bad("does not point at a subschema")
		}
		n, segs = next, segs[used:]
	}
	return n, nil
}

// step returns the child of n that the JSON Pointer segments segs start
// with, and how many segments name it (nil if none does). It names the
// children children lists, looked up directly: a schema may hold many
// references into many definitions.
func step(n *jsonschema.Schema, segs []string) (*jsonschema.Schema, int) {
	arg := func() (string, bool) {
		if len(segs) < 2 {
			return "", false
		}
		return segs[1], true
	}
	index := func(list []*jsonschema.Schema) (*jsonschema.Schema, int) {
		k, ok := arg()
		if !ok {
			return nil, 0
		}
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(list) || strconv.Itoa(i) != k {
			return nil, 0
		}
		return list[i], 2
	}
	named := func(m map[string]*jsonschema.Schema) (*jsonschema.Schema, int) {
		k, ok := arg()
		if !ok || m[k] == nil {
			return nil, 0
		}
		return m[k], 2
	}
	one := func(c *jsonschema.Schema) (*jsonschema.Schema, int) { return c, 1 }
	switch segs[0] {
	case "$defs":
		return named(n.Defs)
	case "definitions":
		return named(n.Definitions)
	case "dependencies":
		return named(n.DependencySchemas)
	case "properties":
		return named(n.Properties)
	case "patternProperties":
		return named(n.PatternProperties)
	case "dependentSchemas":
		return named(n.DependentSchemas)
	case "prefixItems":
		return index(n.PrefixItems)
	case "allOf":
		return index(n.AllOf)
	case "anyOf":
		return index(n.AnyOf)
	case "oneOf":
		return index(n.OneOf)
	case "items":
		if n.ItemsArray != nil {
			return index(n.ItemsArray)
		}
		return one(n.Items)
	case "additionalItems":
		return one(n.AdditionalItems)
	case "contains":
		return one(n.Contains)
	case "unevaluatedItems":
		return one(n.UnevaluatedItems)
	case "additionalProperties":
		return one(n.AdditionalProperties)
	case "propertyNames":
		return one(n.PropertyNames)
	case "unevaluatedProperties":
		return one(n.UnevaluatedProperties)
	case "not":
		return one(n.Not)
	case "if":
		return one(n.If)
	case "then":
		return one(n.Then)
	case "else":
		return one(n.Else)
	case "contentSchema":
		return one(n.ContentSchema)
	}
	return nil, 0
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// child is a subschema and where it sits in its parent: the JSON Pointer
// segments of its keyword, and of its name or index where the keyword
// holds several ("properties", "to"; "allOf", "0"; "items").
type child struct {
	key []string
	s   *jsonschema.Schema
}

// path returns the child's key as a JSON Pointer suffix for messages
// (names cut and cleaned as pointer does).
func (c child) path() string { return pointer(c.key) }

// segment returns one name as a JSON Pointer segment for messages.
func segment(name string) string { return pointer([]string{name})[1:] }

// children returns every child schema of n, maps in key order.
func children(n *jsonschema.Schema) []child {
	var out []child
	one := func(kw string, c *jsonschema.Schema) {
		if c != nil {
			out = append(out, child{[]string{kw}, c})
		}
	}
	list := func(kw string, cs []*jsonschema.Schema) {
		for i, c := range cs {
			if c != nil {
				out = append(out, child{[]string{kw, strconv.Itoa(i)}, c})
			}
		}
	}
	named := func(kw string, m map[string]*jsonschema.Schema) {
		for _, k := range keys(m) {
			if m[k] != nil {
				out = append(out, child{[]string{kw, k}, m[k]})
			}
		}
	}
	named("$defs", n.Defs)
	named("definitions", n.Definitions)
	named("dependencies", n.DependencySchemas)
	named("properties", n.Properties)
	named("patternProperties", n.PatternProperties)
	named("dependentSchemas", n.DependentSchemas)
	list("prefixItems", n.PrefixItems)
	list("items", n.ItemsArray)
	list("allOf", n.AllOf)
	list("anyOf", n.AnyOf)
	list("oneOf", n.OneOf)
	one("items", n.Items)
	one("additionalItems", n.AdditionalItems)
	one("contains", n.Contains)
	one("unevaluatedItems", n.UnevaluatedItems)
	one("additionalProperties", n.AdditionalProperties)
	one("propertyNames", n.PropertyNames)
	one("unevaluatedProperties", n.UnevaluatedProperties)
	one("not", n.Not)
	one("if", n.If)
	one("then", n.Then)
	one("else", n.Else)
	one("contentSchema", n.ContentSchema)
	return out
}

// edges returns every child schema of n.
func edges(n *jsonschema.Schema) []*jsonschema.Schema {
	cs := children(n)
	out := make([]*jsonschema.Schema, len(cs))
	for i, c := range cs {
		out[i] = c.s
	}
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
