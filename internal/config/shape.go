package config

import (
	"bytes"
	"encoding"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// checkShape compares every key and value of a TOML document with the
// shape of fileTOML before it is decoded, so that one run reports every
// unknown key (with the closest known one when there is one) and every
// value of the wrong type, each with its key path, line and column, in the
// user's words: go-toml's decoder stops at the first problem and names Go
// types. The document is read with go-toml's own parser, so positions and
// syntax errors are the library's. Without problems the decoder will
// accept the types; values are validated after decoding.
//
// It also returns the key paths of the values in question, which without
// them decode (see withoutKeys), so that the file's other problems are
// reported in the same run; syntax is true for a syntax error, after
// which nothing can be decoded.
//
// A field whose value is a string of a particular form says so with a
// `shape` struct tag: shape:"duration".
func checkShape(data []byte) (diags []Diagnostic, bad [][]string, syntax bool) {
	c := &shapeChecker{}
	c.p.Reset(data)
	root := reflect.TypeFor[fileTOML]()
	var table reflect.Type = root
	var tablePath []string
	arrays := map[string]int{} // array-table path → elements seen
	for c.p.NextExpression() {
		e := c.p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, keyNodes := keyOf(e)
			// A header below an array table refers to its last element.
			var path []string
			t := root
			for i, part := range parts {
				last := i == len(parts)-1
				path = append(path, part)
				ft, ok := c.field(t, path, keyNodes[i])
				if !ok {
					t = nil
					break
				}
				t = ft
				if last && e.Kind == unstable.ArrayTable {
					n := arrays[strings.Join(path, ".")]
					arrays[strings.Join(path, ".")] = n + 1
					path = append(path, strconv.Itoa(n))
					if t = elemOfTables(t); t == nil {
						c.wrong(keyNodes[i], path[:len(path)-1], ft, "a list of tables ([[...]])")
					}
					break
				}
				if n, ok := arrays[strings.Join(path, ".")]; ok && n > 0 {
					path = append(path, strconv.Itoa(n-1))
					t = elemOfTables(t)
				} else if t = tableOf(t); t == nil {
					c.wrong(keyNodes[i], path, ft, "a table")
					break
				}
			}
			table, tablePath = t, path
		case unstable.KeyValue:
			if table == nil {
				continue // under a table already reported
			}
			c.keyValue(table, tablePath, e)
		}
	}
	if err := c.p.Error(); err != nil {
		return append(c.diags, syntaxDiagnostic(&c.p, err)), nil, true
	}
	return c.diags, c.bad, false
}

type shapeChecker struct {
	p     unstable.Parser
	diags []Diagnostic
	bad   [][]string
}

func keyOf(n *unstable.Node) ([]string, []*unstable.Node) {
	var parts []string
	var nodes []*unstable.Node
	it := n.Key()
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
		nodes = append(nodes, it.Node())
	}
	return parts, nodes
}

// keyValue checks one key = value under table (whose key path is path).
func (c *shapeChecker) keyValue(table reflect.Type, path []string, kv *unstable.Node) {
	parts, nodes := keyOf(kv)
	path = append([]string(nil), path...)
	t := table
	for i, part := range parts {
		path = append(path, part)
		ft, ok := c.field(t, path, nodes[i])
		if !ok {
			return
		}
		if i == len(parts)-1 {
			c.value(ft, path, kv.Value(), nodes[i])
			return
		}
		if t = tableOf(ft); t == nil {
			c.wrong(nodes[i], path, ft, "a table")
			return
		}
	}
}

// field finds the type of key path[len(path)-1] in t: a struct field by
// its toml tag, a map's element, or anything under an untyped field. An
// unknown key is reported, with the closest known key.
func (c *shapeChecker) field(t reflect.Type, path []string, at *unstable.Node) (reflect.Type, bool) {
	t = deref(t)
	name := path[len(path)-1]
	switch t.Kind() {
	case reflect.Map:
		return t.Elem(), true
	case reflect.Interface:
		return t, true
	case reflect.Struct:
	default:
		return nil, false
	}
	var known []string
	for f := range structFields(t) {
		if f.name == name {
			ft := f.typ
			if ft.Kind() == reflect.Interface && strings.Join(path, ".") == "chain" {
				// [chain] is one table or [[chain]] several (chain.go).
				ft = reflect.TypeFor[chainOrChains]()
			}
			return tagged{ft, f.shape}.typ(), true
		}
		known = append(known, f.name)
	}
	msg := "unknown key"
	if s := closest(name, known); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	c.at(at, strings.Join(path, "."), msg)
	return nil, false
}

// chainOrChains marks the chain key: a table or a list of tables, each a
// chainTOML.
type chainOrChains []chainTOML

// durationString is the type field reports for a string field tagged
// shape:"duration".
type durationString string

type tagged struct {
	t     reflect.Type
	shape string
}

func (g tagged) typ() reflect.Type {
	if g.shape == "duration" {
		if g.t.Kind() == reflect.Pointer {
			return reflect.PointerTo(reflect.TypeFor[durationString]())
		}
		return reflect.TypeFor[durationString]()
	}
	return g.t
}

type fieldInfo struct {
	name, shape string
	typ         reflect.Type
}

// structFields yields the TOML keys of struct type t: the toml tag's name,
// or the field's name in lower case as go-toml matches it; the fields of an
// embedded struct without a tag are t's own, as go-toml decodes them.
func structFields(t reflect.Type) func(func(fieldInfo) bool) {
	return func(yield func(fieldInfo) bool) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous && f.Tag.Get("toml") == "" && deref(f.Type).Kind() == reflect.Struct {
				for ef := range structFields(deref(f.Type)) {
					if !yield(ef) {
						return
					}
				}
				continue
			}
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			if !yield(fieldInfo{name: name, shape: f.Tag.Get("shape"), typ: f.Type}) {
				return
			}
		}
	}
}

// closest returns the known key nearest to name, if it is close enough to
// be the one meant.
func closest(name string, known []string) string {
	best, bestD := "", len(name)/3+1
	if bestD > 3 {
		bestD = 3
	}
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return k
		}
		if d := levenshtein.ComputeDistance(name, k); d <= bestD && (best == "" || d < bestD) {
			best, bestD = k, d
		}
	}
	return best
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

func isText(t reflect.Type) bool {
	return reflect.PointerTo(deref(t)).Implements(textUnmarshaler)
}

// tableOf is the type a table of t's value is checked against, or nil
// when t's value is not a table.
func tableOf(t reflect.Type) reflect.Type {
	if t == reflect.TypeFor[chainOrChains]() {
		return reflect.TypeFor[chainTOML]()
	}
	d := deref(t)
	switch {
	case isText(d):
		return nil
	case d.Kind() == reflect.Struct, d.Kind() == reflect.Map, d.Kind() == reflect.Interface:
		return d
	}
	return nil
}

// elemOfTables is the element type of a list of tables, or nil.
func elemOfTables(t reflect.Type) reflect.Type {
	d := deref(t)
	if d.Kind() == reflect.Interface {
		return d
	}
	if d.Kind() != reflect.Slice {
		return nil
	}
	return tableOf(d.Elem())
}

// value checks a value node against t.
func (c *shapeChecker) value(t reflect.Type, path []string, v, key *unstable.Node) {
	d := deref(t)
	at := v
	if at == nil || at.Raw.Length == 0 {
		at = key
	}
	ok := false
	switch {
	case d == reflect.TypeFor[durationString]():
		ok = v.Kind == unstable.String
	case t == reflect.TypeFor[chainOrChains]():
		ok = v.Kind == unstable.InlineTable || v.Kind == unstable.Array
		if ok {
			elem := reflect.TypeFor[chainTOML]()
			if v.Kind == unstable.InlineTable {
				c.table(elem, path, v)
				return
			}
			c.list(reflect.SliceOf(elem), path, v, key)
			return
		}
	case isText(d):
		ok = v.Kind == unstable.String
	case d.Kind() == reflect.Interface:
		return
	case d.Kind() == reflect.String:
		ok = v.Kind == unstable.String
	case d.Kind() == reflect.Bool:
		ok = v.Kind == unstable.Bool
	case d.Kind() >= reflect.Int && d.Kind() <= reflect.Uint64:
		ok = v.Kind == unstable.Integer
	case d.Kind() == reflect.Float32 || d.Kind() == reflect.Float64:
		ok = v.Kind == unstable.Float || v.Kind == unstable.Integer
	case d.Kind() == reflect.Slice:
		if v.Kind == unstable.Array {
			c.list(d, path, v, key)
			return
		}
	case d.Kind() == reflect.Struct || d.Kind() == reflect.Map:
		if v.Kind == unstable.InlineTable {
			c.table(d, path, v)
			return
		}
	}
	if !ok {
		c.at(at, strings.Join(path, "."), "expected "+expected(t)+", found "+found(v))
	}
}

func (c *shapeChecker) list(t reflect.Type, path []string, v, key *unstable.Node) {
	it := v.Children()
	for i := 0; it.Next(); i++ {
		c.value(t.Elem(), append(append([]string(nil), path...), strconv.Itoa(i)), it.Node(), key)
	}
}

func (c *shapeChecker) table(t reflect.Type, path []string, v *unstable.Node) {
	it := v.Children()
	for it.Next() {
		c.keyValue(t, path, it.Node())
	}
}

func (c *shapeChecker) wrong(at *unstable.Node, path []string, t reflect.Type, what string) {
	c.at(at, strings.Join(path, "."), "expected "+expected(t)+", found "+what)
}

func (c *shapeChecker) at(n *unstable.Node, key, msg string) {
	c.bad = append(c.bad, strings.Split(key, "."))
	d := Diagnostic{Key: key, Msg: msg}
	if n != nil && n.Raw.Length > 0 {
		sh := c.p.Shape(n.Raw)
		d.Line, d.Col = sh.Start.Line, sh.Start.Column
	}
	c.diags = append(c.diags, d)
}

// expected says in words what a value of type t is written as.
func expected(t reflect.Type) string {
	if t == reflect.TypeFor[chainOrChains]() {
		return "a table ([chain]) or a list of tables ([[chain]])"
	}
	d := deref(t)
	switch {
	case d == reflect.TypeFor[durationString]():
		return `a duration like "5m"`
	case isText(d), d.Kind() == reflect.String:
		return "a string"
	case d.Kind() == reflect.Bool:
		return "true or false"
	case d.Kind() >= reflect.Int && d.Kind() <= reflect.Uint64:
		return "an integer"
	case d.Kind() == reflect.Float32 || d.Kind() == reflect.Float64:
		return "a number"
	case d.Kind() == reflect.Slice:
		if tableOf(d.Elem()) != nil {
			return "a list of tables"
		}
		return "a list of " + plural(expected(d.Elem()))
	case d.Kind() == reflect.Struct || d.Kind() == reflect.Map:
		return "a table"
	}
	return "a value"
}

func plural(s string) string {
	switch {
	case s == "true or false":
		return "booleans"
	case strings.HasPrefix(s, "a duration"):
		return "durations"
	case strings.HasPrefix(s, "an "):
		return s[3:] + "s"
	case strings.HasPrefix(s, "a "):
		return s[2:] + "s"
	}
	return s
}

// found says in words what the file has: the kind and, for a scalar, the
// value as written (a configuration value, not a secret of an agent's).
func found(v *unstable.Node) string {
	quote := func(s string) string {
		if len(s) > 40 {
			s = s[:37] + "..."
		}
		return strconv.Quote(s)
	}
	switch v.Kind {
	case unstable.String:
		return "the string " + quote(string(v.Data))
	case unstable.Integer:
		return "the integer " + string(v.Data)
	case unstable.Float:
		return "the number " + string(v.Data)
	case unstable.Bool:
		return "the boolean " + string(v.Data)
	case unstable.Array:
		return "a list"
	case unstable.InlineTable:
		return "a table"
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return "the date/time " + string(v.Data)
	}
	return "a " + v.Kind.String()
}

// syntaxDiagnostic places a TOML syntax error.
func syntaxDiagnostic(p *unstable.Parser, err error) Diagnostic {
	var pe *unstable.ParserError
	d := Diagnostic{Msg: "TOML syntax: " + err.Error()}
	if pe, _ = err.(*unstable.ParserError); pe != nil && len(pe.Highlight) > 0 {
		sh := p.Shape(p.Range(pe.Highlight))
		d.Line, d.Col = sh.Start.Line, sh.Start.Column
		d.Msg = "TOML syntax: " + pe.Message
	}
	return d
}

// withoutKeys decodes data into v without the values at the key paths bad
// (their problems are reported already): through a generic tree, the way
// chain.go decodes a [chain] table. An element of a list of values takes
// its whole list with it, so that no other element changes its index.
func withoutKeys(data []byte, bad [][]string, v any) error {
	var tree map[string]any
	if err := toml.Unmarshal(data, &tree); err != nil {
		return err
	}
	for _, path := range bad {
		removeKey(tree, path)
	}
	b, err := toml.Marshal(tree)
	if err != nil {
		return err
	}
	return toml.NewDecoder(bytes.NewReader(b)).DisallowUnknownFields().Decode(v)
}

func removeKey(node any, path []string) {
	if len(path) == 0 {
		return
	}
	last := len(path) == 1 || isIndex(path[1]) && len(path) == 2
	switch n := node.(type) {
	case map[string]any:
		child, ok := n[path[0]]
		if !ok {
			return
		}
		if last {
			delete(n, path[0])
			return
		}
		if isIndex(path[1]) {
			if list, ok := child.([]any); ok {
				if i, _ := strconv.Atoi(path[1]); i < len(list) {
					if _, table := list[i].(map[string]any); table {
						removeKey(list[i], path[2:])
						return
					}
				}
			}
			delete(n, path[0]) // a list of values
			return
		}
		removeKey(child, path[1:])
	}
}

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
