package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// maxSteps bounds the work of one report walk (schema nodes visited).
const maxSteps = 100_000

// reporter walks the schema against a value the library rejected and
// collects Errors. A probe reporter (limit 1) answers whether a branch of
// anyOf, oneOf, not, if or contains matches, without recording anything.
type reporter struct {
	s      *Schema
	errs   Errors
	limit  int
	budget *int
}

func newReporter(s *Schema) *reporter {
	b := maxSteps
	return &reporter{s: s, limit: MaxErrors, budget: &b}
}

func (r *reporter) full() bool { return len(r.errs) >= r.limit || *r.budget <= 0 }

func (r *reporter) add(path []string, format string, args ...any) {
	if len(r.errs) < r.limit {
		r.errs = append(r.errs, &Error{Path: pointer(path), Message: fmt.Sprintf(format, args...)})
	}
}

// matches reports whether inst matches n, as far as the walk can tell.
func (r *reporter) matches(inst any, n *jsonschema.Schema, path []string) bool {
	p := &reporter{s: r.s, limit: 1, budget: r.budget}
	p.check(inst, n, path)
	return len(p.errs) == 0
}

func (r *reporter) check(inst any, n *jsonschema.Schema, path []string) {
	if r.full() {
		return
	}
	*r.budget--
	if isFalse(n) {
		r.add(path, "is not allowed")
		return
	}
	if t := r.s.refs[n]; t != nil {
		r.check(inst, t, path)
		if r.s.draft7 {
			return
		}
	}
	got := jsonType(inst)
	if n.Type != "" || n.Types != nil {
		want := n.Types
		if n.Type != "" {
			want = []string{n.Type}
		}
		if !slices.Contains(want, got) && !(got == "integer" && slices.Contains(want, "number")) {
			r.add(path, "must be %s, not %s", orList(want), article(got))
			return
		}
	}
	if n.Enum != nil && !slices.ContainsFunc(n.Enum, func(e any) bool { return equal(e, inst) }) {
		r.add(path, "must be one of: %s", renderValues(n.Enum))
	}
	if n.Const != nil && !equal(*n.Const, inst) {
		r.add(path, "must be %s", renderValue(*n.Const))
	}
	if num, ok := rat(inst); ok {
		r.number(num, n, path)
	}
	if str, ok := inst.(string); ok {
		r.string(str, n, path)
	}
	r.logic(inst, n, path)
	switch v := inst.(type) {
	case []any:
		r.array(v, n, path)
	case map[string]any:
		r.object(v, n, path)
	}
}

func (r *reporter) number(num *big.Rat, n *jsonschema.Schema, path []string) {
	cmp := func(f float64) int { return num.Cmp(new(big.Rat).SetFloat64(f)) }
	if m := n.MultipleOf; m != nil && *m != 0 {
		f, _ := num.Float64()
		if _, frac := math.Modf(f / *m); frac != 0 {
			r.add(path, "must be a multiple of %s", fnum(*m))
		}
	}
	if m := n.Minimum; m != nil && cmp(*m) < 0 {
		r.add(path, "must be >= %s", fnum(*m))
	}
	if m := n.Maximum; m != nil && cmp(*m) > 0 {
		r.add(path, "must be <= %s", fnum(*m))
	}
	if m := n.ExclusiveMinimum; m != nil && cmp(*m) <= 0 {
		r.add(path, "must be > %s", fnum(*m))
	}
	if m := n.ExclusiveMaximum; m != nil && cmp(*m) >= 0 {
		r.add(path, "must be < %s", fnum(*m))
	}
}

func (r *reporter) string(s string, n *jsonschema.Schema, path []string) {
	runes := utf8.RuneCountInString(s)
	if m := n.MinLength; m != nil && runes < *m {
		r.add(path, "must be at least %d characters long (it has %d)", *m, runes)
	}
	if m := n.MaxLength; m != nil && runes > *m {
		r.add(path, "must be at most %d characters long (it has %d)", *m, runes)
	}
	if n.Pattern != "" {
		if re := r.s.patterns[n.Pattern]; re != nil && !re.MatchString(s) {
			r.add(path, "must match the pattern %s", trunc(n.Pattern, 120))
		}
	}
}

func (r *reporter) logic(inst any, n *jsonschema.Schema, path []string) {
	for _, a := range n.AllOf {
		r.check(inst, a, path)
	}
	if len(n.AnyOf) > 0 && !slices.ContainsFunc(n.AnyOf, func(b *jsonschema.Schema) bool { return r.matches(inst, b, path) }) {
		r.noBranch(inst, n.AnyOf, path)
	}
	if len(n.OneOf) > 0 {
		k := 0
		for _, b := range n.OneOf {
			if r.matches(inst, b, path) {
				k++
			}
		}
		switch {
		case k == 0:
			r.noBranch(inst, n.OneOf, path)
		case k > 1:
			r.add(path, "matches %d of the allowed forms; it must match exactly one", k)
		}
	}
	if n.Not != nil && r.matches(inst, n.Not, path) {
		r.add(path, "matches a form the schema forbids")
	}
	if n.If != nil {
		if r.matches(inst, n.If, path) {
			if n.Then != nil {
				r.check(inst, n.Then, path)
			}
		} else if n.Else != nil {
			r.check(inst, n.Else, path)
		}
	}
}

// noBranch reports a value that matches none of the branches of anyOf or
// oneOf. When exactly one branch accepts the value's type (through its
// references), or, for an object, exactly one branch's constant
// properties (a discriminated union's tag) match it, that branch's own
// errors are the useful ones (a string that fails the pattern of the only
// string branch, say).
func (r *reporter) noBranch(inst any, branches []*jsonschema.Schema, path []string) {
	got := jsonType(inst)
	var typed []*jsonschema.Schema
	var types []string
	for _, b := range branches {
		bt := r.s.follow(b)
		want := bt.Types
		if bt.Type != "" {
			want = []string{bt.Type}
		}
		if len(want) == 0 {
			types = nil
			typed = nil
			break
		}
		types = append(types, want...)
		if slices.Contains(want, got) || (got == "integer" && slices.Contains(want, "number")) {
			typed = append(typed, b)
		}
	}
	if o, ok := inst.(map[string]any); ok && len(typed) > 1 {
		if b := r.discriminated(o, typed); b != nil {
			typed = []*jsonschema.Schema{b}
		}
	}
	switch {
	case len(types) > 0 && len(typed) == 0:
		slices.SortFunc(types, nullLast)
		r.add(path, "must be %s, not %s", orList(slices.Compact(types)), article(got))
	case len(typed) == 1:
		before := len(r.errs)
		r.check(inst, typed[0], path)
		if len(r.errs) == before {
			r.add(path, "does not match any of the allowed forms")
		}
	default:
		r.add(path, "does not match any of the %d allowed forms", len(branches))
	}
}

// nullLast orders type names alphabetically with null last ("a string
// or null").
func nullLast(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == "null":
		return 1
	case b == "null":
		return -1
	}
	return strings.Compare(a, b)
}

// discriminated returns the branch whose properties with a single
// allowed value (const, or an enum of one: a tag) are all in o with that
// value, when exactly one branch has tags and matches them; nil
// otherwise. The properties it reads count against the walk's budget.
func (r *reporter) discriminated(o map[string]any, branches []*jsonschema.Schema) *jsonschema.Schema {
	var found *jsonschema.Schema
	for _, b := range branches {
		bt := r.s.follow(b)
		*r.budget -= len(bt.Properties)
		tagged, match := false, true
		for _, k := range keys(bt.Properties) {
			p := r.s.follow(bt.Properties[k])
			var want any
			switch {
			case p.Const != nil:
				want = *p.Const
			case len(p.Enum) == 1:
				want = p.Enum[0]
			default:
				continue
			}
			tagged = true
			if v, ok := o[k]; !ok || !equal(v, want) {
				match = false
			}
		}
		if tagged && match {
			if found != nil {
				return nil
			}
			found = b
		}
	}
	return found
}

func (r *reporter) array(a []any, n *jsonschema.Schema, path []string) {
	prefix := n.PrefixItems
	rest := n.Items
	if n.ItemsArray != nil { // draft-07 tuple form
		prefix, rest = n.ItemsArray, n.AdditionalItems
	}
	for i, item := range a {
		if r.full() {
			return
		}
		switch {
		case i < len(prefix):
			r.check(item, prefix[i], append(path, strconv.Itoa(i)))
		case rest != nil:
			r.check(item, rest, append(path, strconv.Itoa(i)))
		}
	}
	if m := n.MinItems; m != nil && len(a) < *m {
		r.add(path, "must have at least %d items (it has %d)", *m, len(a))
	}
	if m := n.MaxItems; m != nil && len(a) > *m {
		r.add(path, "must have at most %d items (it has %d)", *m, len(a))
	}
	if n.UniqueItems {
		seen := map[string]int{}
		for i, item := range a {
			k := canonical(item)
			if j, dup := seen[k]; dup {
				r.add(path, "items %d and %d are equal; items must be unique", j, i)
				break
			}
			seen[k] = i
		}
	}
	if n.Contains != nil {
		k := 0
		for _, item := range a {
			if r.full() {
				return
			}
			if r.matches(item, n.Contains, path) {
				k++
			}
		}
		least := 1
		if n.MinContains != nil {
			least = *n.MinContains
		}
		if k < least {
			r.add(path, "must contain at least %d matching item(s) (it has %d)", least, k)
		}
		if n.MaxContains != nil && k > *n.MaxContains {
			r.add(path, "must contain at most %d matching item(s) (it has %d)", *n.MaxContains, k)
		}
	}
}

func (r *reporter) object(o map[string]any, n *jsonschema.Schema, path []string) {
	for _, k := range n.Required {
		if _, ok := o[k]; !ok {
			r.add(append(path, k), "is required")
		}
	}
	names := keys(o)
	for _, k := range names {
		if r.full() {
			return
		}
		v := o[k]
		sub := append(slices.Clip(path), k)
		known := false
		if ps, ok := n.Properties[k]; ok {
			known = true
			r.check(v, ps, sub)
		}
		for _, p := range keys(n.PatternProperties) {
			if re := r.s.patterns[p]; re != nil && re.MatchString(k) {
				known = true
				r.check(v, n.PatternProperties[p], sub)
			}
		}
		if !known && n.AdditionalProperties != nil {
			if isFalse(n.AdditionalProperties) {
				if allowed := keys(n.Properties); len(allowed) > 0 && len(allowed) <= 30 {
					r.add(sub, "is not an allowed field (allowed: %s)", strings.Join(allowed, ", "))
				} else {
					r.add(sub, "is not an allowed field")
				}
			} else {
				r.check(v, n.AdditionalProperties, sub)
			}
		}
		if n.PropertyNames != nil && !r.matches(k, n.PropertyNames, sub) {
			r.add(sub, "is not an allowed field name")
		}
	}
	if m := n.MinProperties; m != nil && len(o) < *m {
		r.add(path, "must have at least %d fields (it has %d)", *m, len(o))
	}
	if m := n.MaxProperties; m != nil && len(o) > *m {
		r.add(path, "must have at most %d fields (it has %d)", *m, len(o))
	}
	deps := n.DependentRequired
	if r.s.draft7 {
		deps = n.DependencyStrings
	}
	for _, k := range keys(deps) {
		if _, ok := o[k]; !ok {
			continue
		}
		for _, need := range deps[k] {
			if _, ok := o[need]; !ok {
				r.add(append(path, need), "is required when %q is given", k)
			}
		}
	}
	depSchemas := n.DependentSchemas
	if r.s.draft7 {
		depSchemas = n.DependencySchemas
	}
	for _, k := range keys(depSchemas) {
		if _, ok := o[k]; ok {
			r.check(o, depSchemas[k], path)
		}
	}
}

// isFalse reports whether n is the schema false ({"not": {}}).
func isFalse(n *jsonschema.Schema) bool {
	return n.Not != nil && reflect.ValueOf(*n.Not).IsZero()
}

// jsonType returns the JSON Schema type name of a decoded value.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case int, int64:
		return "integer"
	case float64:
		if _, f := math.Modf(x); f == 0 && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func rat(v any) (*big.Rat, bool) {
	switch x := v.(type) {
	case int:
		return new(big.Rat).SetInt64(int64(x)), true
	case int64:
		return new(big.Rat).SetInt64(x), true
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(x), true
	}
	return nil, false
}

// equal compares two decoded JSON values, numbers by value.
func equal(a, b any) bool {
	if x, ok := rat(a); ok {
		y, ok := rat(b)
		return ok && x.Cmp(y) == 0
	}
	return canonical(a) == canonical(b)
}

// canonical encodes a decoded JSON value with sorted keys and numbers by
// value.
func canonical(v any) string {
	switch x := v.(type) {
	case int:
		return fnum(float64(x))
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			return strconv.FormatInt(int64(x), 10)
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%T", v)
	}
	return string(b)
}

func renderValue(v any) string { return trunc(canonical(v), 40) }

func renderValues(vs []any) string {
	var parts []string
	for i, v := range vs {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(vs)-10))
			break
		}
		parts = append(parts, renderValue(v))
	}
	return strings.Join(parts, ", ")
}

func fnum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func orList(types []string) string {
	if len(types) == 1 {
		return article(types[0])
	}
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = article(t)
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

func article(typ string) string {
	switch typ {
	case "null":
		return "null"
	case "array", "integer", "object":
		return "an " + typ
	}
	return "a " + typ
}

// pointer renders path as a JSON Pointer. Segments are object keys the
// agent chose, so each is cut to 64 characters and stripped of control
// and format characters before it is escaped.
func pointer(path []string) string {
	var b strings.Builder
	for _, seg := range path {
		b.WriteByte('/')
		seg = trunc(clean(seg), 64)
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1")
		b.WriteString(seg)
	}
	return b.String()
}

// clean drops control and format characters (including bidirectional
// overrides) and invalid UTF-8.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

// trunc cuts s to at most n runes, marking a cut with "…".
func trunc(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n-1 {
			return s[:j] + "…"
		}
		i++
	}
	return s
}
