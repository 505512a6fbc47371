package tool

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits on the arguments of one call. A call beyond them is refused before
// any rule sees it.
const (
	MaxArgsSize   = 1 << 20 // bytes of JSON
	MaxArgsDepth  = 32      // nesting of arrays and objects
	MaxArgsValues = 100_000 // values in total
	maxNumberLen  = 256     // bytes in one number literal
)

// ErrArgs is wrapped by every error ParseArgs returns.
var ErrArgs = errors.New("invalid arguments")

// Kind is the JSON type of a Value.
type Kind uint8

// Kinds of JSON values.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is one JSON value of validated arguments. It keeps the value's JSON
// text and decodes on demand: reading a string or number costs nothing
// unless it is asked for, and nested arrays and objects are walked only
// when a rule looks inside them.
type Value struct {
	kind Kind
	esc  bool   // a string with escapes: decoding allocates
	raw  string // the value's JSON text; for strings, with the quotes
}

// Field is one member of a JSON object.
type Field struct {
	Key   string
	Value Value
}

// Kind returns the value's JSON type.
func (v Value) Kind() Kind { return v.kind }

// Str returns the value of a JSON string.
func (v Value) Str() (string, bool) {
	if v.kind != String {
		return "", false
	}
	if !v.esc {
		return v.raw[1 : len(v.raw)-1], true
	}
	return decodeString(v.raw), true
}

// Raw returns the value's JSON text as it appears in the input (strings
// with their quotes and escapes).
func (v Value) Raw() string { return v.raw }

// Bool returns the value of a JSON boolean.
func (v Value) Bool() (bool, bool) { return v.raw == "true", v.kind == Bool }

// NumberText returns the literal text of a JSON number.
func (v Value) NumberText() (string, bool) {
	if v.kind != Number {
		return "", false
	}
	return v.raw, true
}

// Len returns the number of elements of an array or members of an object.
func (v Value) Len() int {
	n := 0
	switch v.kind {
	case Array:
		eachElem(v.raw, func(Value) { n++ })
	case Object:
		eachMember(v.raw, func(string, Value) bool { n++; return true })
	}
	return n
}

// Elem returns the i-th element of a JSON array (a null Value if out of
// range).
func (v Value) Elem(i int) Value {
	var out Value
	if v.kind == Array {
		j := 0
		eachElem(v.raw, func(e Value) {
			if j == i {
				out = e
			}
			j++
		})
	}
	return out
}

// Elems returns the elements of a JSON array.
func (v Value) Elems() []Value {
	if v.kind != Array {
		return nil
	}
	var out []Value
	eachElem(v.raw, func(e Value) { out = append(out, e) })
	return out
}

// Fields returns the members of a JSON object in canonical key order.
func (v Value) Fields() []Field {
	if v.kind != Object {
		return nil
	}
	var out []Field
	eachMember(v.raw, func(k string, e Value) bool { out = append(out, Field{k, e}); return true })
	slices.SortFunc(out, func(a, b Field) int { return compareKeys(a.Key, b.Key) })
	return out
}

// EachField calls fn for each member of a JSON object in the order of its
// text, without collecting them (Fields sorts them into a new slice), until
// fn returns false; it reports whether fn never did. It does nothing for a
// value that is not an object.
func (v Value) EachField(fn func(key string, e Value) bool) bool {
	if v.kind != Object {
		return true
	}
	all := true
	eachMember(v.raw, func(k string, e Value) bool {
		all = fn(k, e)
		return all
	})
	return all
}

// Field returns the member of a JSON object with the given key.
func (v Value) Field(key string) (Value, bool) {
	var out Value
	found := false
	if v.kind == Object {
		eachMember(v.raw, func(k string, e Value) bool {
			if k == key {
				out, found = e, true
			}
			return true
		})
	}
	return out, found
}

// Errors returned by Value.Int.
var (
	ErrNotNumber   = errors.New("not a number")
	ErrNotInteger  = errors.New("not an integer")
	ErrIntOverflow = errors.New("integer out of range")
)

// Int returns the value of a JSON number that is an exact integer within
// int64. A literal with a fraction or exponent is accepted when its value is
// integral and exactly representable (2500.0, 2.5e3); anything else is an
// error, never a rounded or truncated value.
func (v Value) Int() (int64, error) {
	if v.kind != Number {
		return 0, ErrNotNumber
	}
	if isIntLiteral(v.raw) {
		n, err := strconv.ParseInt(v.raw, 10, 64)
		if err != nil {
			return 0, ErrIntOverflow
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(v.raw, 64)
	if err != nil {
		return 0, ErrNotNumber
	}
	if f != math.Trunc(f) {
		return 0, ErrNotInteger
	}
	if math.Abs(f) > 1<<53 {
		return 0, ErrIntOverflow
	}
	return int64(f), nil
}

// Float returns the value of a JSON number as a float64.
func (v Value) Float() (float64, bool) {
	if v.kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.raw, 64)
	return f, err == nil
}

// Equal reports whether v and w are the same JSON value (object keys in any
// order, numbers compared by their canonical spelling).
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind {
		return false
	}
	if v.raw == w.raw {
		return true
	}
	if v.kind == String {
		a, _ := v.Str()
		b, _ := w.Str()
		return a == b
	}
	return string(canonicalOf(v.raw)) == string(canonicalOf(w.raw))
}

// Any returns the value as plain Go data: nil, bool, int64 (integral numbers
// within int64), float64 (other numbers), string, []any or map[string]any.
func (v Value) Any() any {
	switch v.kind {
	case Bool:
		return v.raw == "true"
	case Number:
		if isIntLiteral(v.raw) {
			if n, err := strconv.ParseInt(v.raw, 10, 64); err == nil {
				return n
			}
		}
		f, _ := strconv.ParseFloat(v.raw, 64)
		return f
	case String:
		s, _ := v.Str()
		return s
	case Array:
		out := []any{}
		eachElem(v.raw, func(e Value) { out = append(out, e.Any()) })
		return out
	case Object:
		out := map[string]any{}
		eachMember(v.raw, func(k string, e Value) bool { out[k] = e.Any(); return true })
		return out
	}
	return nil
}

// Args are the decoded arguments of a tool call: a JSON object whose
// SHA-256 over its canonical form identifies the call's arguments
// independently of key order, insignificant whitespace, string escaping and
// number spelling. An Args is immutable and safe for concurrent use.
type Args struct {
	members
	hash   [32]byte
	anyMap atomic.Pointer[map[string]any] // Map's result, once computed
}

// members are the top-level members of a decoded object.
type members struct {
	text  string
	n     int     // top-level members
	small [6]span // the first members, in canonical key order
	spill *spill  // nil unless there are more members or escaped keys
}

// spill holds what few arguments have: members beyond members.small and
// keys that had escapes. Keeping them behind one pointer keeps Args, which
// every call allocates, in a smaller size class.
type spill struct {
	more []span   // the members after small
	keys []string // decoded keys that had escapes, by span.ks (-ks-1)
}

// span locates a top-level member in Args.text. It holds no pointers, so
// decoding allocates little for the collector to scan.
type span struct {
	// ks, ke are the key literal, without quotes. A key literal starts
	// after an object's brace and a quote, so ks is never below 2: a
	// negative ks marks a key that had escapes, whose decoded form is
	// keys[-ks-1] (the Args' spill.keys, or the parser's esc while it
	// parses), and ke is then unused. Without a field of its own for
	// that index, six spans keep Args in the 192-byte size class.
	ks, ke int32
	vs, ve int32 // value text
	kind   Kind
	esc    bool // a string value with escapes
}

// escapedKey returns the index of sp's decoded key in its list of keys
// that had escapes, or -1 if its key had none.
func (sp *span) escapedKey() int {
	if sp.ks < 0 {
		return int(-sp.ks - 1)
	}
	return -1
}

func (a *members) span(i int) *span {
	if i < len(a.small) {
		return &a.small[i]
	}
	return &a.spill.more[i-len(a.small)]
}

func (a *members) key(sp *span) string {
	if k := sp.escapedKey(); k >= 0 {
		return a.spill.keys[k]
	}
	return a.text[sp.ks:sp.ke]
}

func (a *members) value(sp *span) Value {
	return Value{kind: sp.kind, esc: sp.esc, raw: a.text[sp.vs:sp.ve]}
}

var emptyArgs = func() *Args {
	a := &Args{members: members{text: "{}"}}
	a.hash = sha256.Sum256([]byte("{}"))
	return a
}()

// EmptyArgs returns the arguments of a call without arguments ({}).
func EmptyArgs() *Args { return emptyArgs }

// ParseArgs decodes the JSON arguments of a call. Absent arguments (empty
// input or null) are an empty object; anything else must be one JSON object
// within the limits above, with unique keys and valid UTF-8. Decoding
// validates and canonicalises the whole value in one pass and keeps the
// top-level members; nested values are read on demand.
func ParseArgs(raw []byte) (*Args, error) {
	if err := checkSize(raw); err != nil {
		return nil, err
	}
	a := new(Args)
	a.text = string(raw)
	p := parserPool.Get().(*parser)
	defer p.release()
	p.s, p.top, p.topHash = a.text, &a.members, &a.hash
	kind, err := p.parse()
	if err != nil {
		return nil, err
	}
	switch kind {
	case Null:
		return emptyArgs, nil
	case Object:
		return a, nil
	}
	return nil, fmt.Errorf("%w: arguments must be a JSON object, not %s", ErrArgs, kind)
}

// Envelope is a JSON object decoded and validated as ParseArgs does (within
// the same limits, unique keys, valid UTF-8), whose members are read
// without hashing it: the envelope of a request rather than the arguments
// of a call.
type Envelope struct {
	m    members
	args *Args // the member named by ParseEnvelope's argsKey, if an object
}

// ParseEnvelope decodes a JSON object; an empty input or null is an error.
// If argsKey is not empty and the object has a member of that name whose
// value is an object, that member is decoded in the same pass as the
// arguments of a call (see Envelope.Args), so that a request line is read
// once rather than once for the envelope and again for its arguments.
func ParseEnvelope(raw []byte, argsKey string) (Envelope, error) {
	if err := checkSize(raw); err != nil {
		return Envelope{}, err
	}
	var sub *Args
	p := parserPool.Get().(*parser)
	defer p.release()
	// The members are decoded into the parser's own env and copied out:
	// o stays on the caller's stack.
	p.env.text = string(raw)
	p.s, p.top = p.env.text, &p.env
	if argsKey != "" {
		sub = new(Args)
		p.sub, p.subKey = sub, argsKey
	}
	kind, err := p.parse()
	switch {
	case err != nil:
		return Envelope{}, err
	case kind != Object:
		return Envelope{}, fmt.Errorf("%w: want a JSON object", ErrArgs)
	}
	o := Envelope{m: p.env}
	if sub != nil && sub.text != "" {
		o.args = sub
	}
	return o, nil
}

// Len returns the number of members.
func (o *Envelope) Len() int { return o.m.n }

// Field returns the i-th member (0 <= i < Len) in canonical key order.
func (o *Envelope) Field(i int) Field {
	sp := o.m.span(i)
	return Field{Key: o.m.key(sp), Value: o.m.value(sp)}
}

// ValueSpan returns where the i-th member's value (0 <= i < Len) is in
// the input ParseEnvelope read, as byte offsets: a caller may slice its
// own input instead of copying Field(i).Value.Raw().
func (o *Envelope) ValueSpan(i int) (start, end int) {
	sp := o.m.span(i)
	return int(sp.vs), int(sp.ve)
}

// Args returns the member named by ParseEnvelope's argsKey decoded as the
// arguments of a call: the same members and hash ParseArgs returns for
// that member's text. It returns nil if there is no such member or its
// value is not an object (null, say: ParseArgs tells what that means).
func (o *Envelope) Args() *Args { return o.args }

func checkSize(raw []byte) error {
	if len(raw) > MaxArgsSize {
		return fmt.Errorf("%w: %d bytes exceeds the limit of %d", ErrArgs, len(raw), MaxArgsSize)
	}
	return nil
}

// parse decodes p.s, one JSON value, and returns its kind (Null for an
// empty input). The top-level object's members go to p.top (and its hash
// to p.topHash) if set; the member p.subKey, if an object, to p.sub.
func (p *parser) parse() (Kind, error) {
	if cap(p.out) < len(p.s) {
		// The canonical form is at most about the input's size: one
		// allocation instead of a series of doublings.
		p.out = make([]byte, 0, len(p.s))
	}
	p.skipSpace()
	if p.i == len(p.s) {
		return Null, nil
	}
	kind, err := p.value(0)
	if err != nil {
		return 0, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return 0, p.errorf("unexpected data after the arguments object")
	}
	return kind, nil
}

var openBrace, comma, closeBrace = []byte{'{'}, []byte{','}, []byte{'}'}

// hashMembers returns the SHA-256 of the canonical object made of the
// members ms (in key order), whose "key":value bytes are in out. Small
// objects are laid out in the parser's tmp buffer and hashed in one call,
// which costs less than feeding a streaming digest member by member;
// large ones are streamed rather than copied.
func (p *parser) hashMembers(ms []member, size int) [32]byte {
	if size > 4<<10 {
		h := sha256.New()
		h.Write(openBrace)
		for i, m := range ms {
			if i > 0 {
				h.Write(comma)
			}
			h.Write(p.out[m.start:m.end])
		}
		h.Write(closeBrace)
		var sum [32]byte
		h.Sum(sum[:0])
		return sum
	}
	p.tmp = append(p.tmp[:0], '{')
	for i, m := range ms {
		if i > 0 {
			p.tmp = append(p.tmp, ',')
		}
		p.tmp = append(p.tmp, p.out[m.start:m.end]...)
	}
	p.tmp = append(p.tmp, '}')
	return sha256.Sum256(p.tmp)
}

// Get returns the top-level argument with the given key.
func (a *Args) Get(key string) (Value, bool) {
	for i := range a.n {
		sp := a.span(i)
		if a.key(sp) == key {
			return a.value(sp), true
		}
	}
	return Value{}, false
}

// Fields returns the top-level arguments in canonical key order.
func (a *Args) Fields() []Field {
	out := make([]Field, a.n)
	for i := range a.n {
		sp := a.span(i)
		out[i] = Field{Key: a.key(sp), Value: a.value(sp)}
	}
	return out
}

// Field returns the i-th top-level argument (0 <= i < Len), in the order
// of Fields, without allocating.
func (a *Args) Field(i int) Field {
	sp := a.span(i)
	return Field{Key: a.key(sp), Value: a.value(sp)}
}

// Key returns the key of the i-th top-level argument (0 <= i < Len), in
// the order of Fields: Field(i).Key without reading the value.
func (a *Args) Key(i int) string { return a.key(a.span(i)) }

// Len returns the number of top-level arguments.
func (a *Args) Len() int { return a.n }

// Size returns the length in bytes of the JSON the arguments were decoded from.
func (a *Args) Size() int { return len(a.text) }

// Hash returns the SHA-256 of the canonical JSON of the arguments.
func (a *Args) Hash() [32]byte { return a.hash }

// HashHex returns Hash in lower-case hexadecimal.
func (a *Args) HashHex() string { return hex.EncodeToString(a.hash[:]) }

// Canonical returns the canonical JSON of the arguments: object keys sorted
// by UTF-16 code units (RFC 8785), no insignificant whitespace, minimal
// string escaping, numbers normalised (see appendCanonNumber).
func (a *Args) Canonical() []byte {
	if a.n == 0 {
		return []byte("{}")
	}
	return canonicalOf(a.text)
}

// Map returns the arguments as a map of plain Go values (see Value.Any),
// computed once and shared: callers must not modify it.
func (a *Args) Map() map[string]any {
	if m := a.anyMap.Load(); m != nil {
		return *m
	}
	m := make(map[string]any, a.n)
	for i := range a.n {
		sp := a.span(i)
		m[a.key(sp)] = a.value(sp).Any()
	}
	// Callers racing here compute equal maps; all return the one stored.
	if !a.anyMap.CompareAndSwap(nil, &m) {
		return *a.anyMap.Load()
	}
	return m
}

// canonicalOf returns the canonical form of validated JSON text.
func canonicalOf(raw string) []byte {
	p := parserPool.Get().(*parser)
	defer p.release()
	p.s = raw
	p.skipSpace()
	if _, err := p.value(0); err != nil {
		return nil
	}
	return slices.Clone(p.out)
}

var parserPool = sync.Pool{New: func() any { return &parser{out: make([]byte, 0, 512)} }}

// parser validates JSON and writes its canonical form to out in one pass.
//
// It is hand-written although jsontext.Value.Canonicalize
// (github.com/go-json-experiment/json) canonicalises JSON, for three
// reasons. tool is vocabulary and imports the standard library only
// (internal/arch). JCS, which Canonicalize follows by default, reads every
// number as a float64, so two token amounts above 2^53 that differ would
// hash alike; integers here are kept exactly (appendCanonNumber). And the
// canonical bytes are what permits and audit records hash: any change to
// them, a library's included, must leave TestArgsGolden's hashes as they
// are, or pending permits stop matching their calls. Validation (the
// limits, unique keys, UTF-8), canonicalisation and hashing share this one
// pass, which issue 23 tuned (docs/performance.md).
type parser struct {
	s      string
	i      int
	values int
	out    []byte
	tmp    []byte   // reordering space for object members
	keys   []member // the members of the objects being parsed (a stack)
	esc    []string // decoded keys that had escapes, by span.ks (-ks-1)
	// top and topHash, if set, receive the top-level object's members
	// and hash; env holds an envelope's members (ParseEnvelope).
	top     *members
	topHash *[32]byte
	env     members
	sub     *Args // receives the members and hash of the top-level member subKey
	subKey  string
	inSub   bool // the next object parsed is that member's value
	escaped bool // the last string value strCanon read had escapes
}

// member is one object member while its object is parsed: where its key
// and value are in the input, and where its canonical "key":value bytes are
// in out. It holds no pointers: sorting members needs no write barriers.
type member struct {
	sp         span
	start, end int32 // in out
}

// keyOf returns a member's decoded key.
func (p *parser) keyOf(m *member) string {
	if k := m.sp.escapedKey(); k >= 0 {
		return p.esc[k]
	}
	return p.s[m.sp.ks:m.sp.ke]
}

func (p *parser) release() {
	clear(p.esc)
	p.keys, p.esc = p.keys[:0], p.esc[:0]
	p.s, p.i, p.values, p.top, p.topHash = "", 0, 0, nil, nil
	if p.env.text != "" {
		p.env = members{}
	}
	p.sub, p.subKey, p.inSub = nil, "", false
	p.out, p.tmp = p.out[:0], p.tmp[:0]
	if cap(p.out) <= 64<<10 && cap(p.tmp) <= 64<<10 && cap(p.keys) <= 1024 {
		parserPool.Put(p)
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: offset %d: %s", ErrArgs, p.i, fmt.Sprintf(format, args...))
}

func (p *parser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value parses one value at p.i, appends its canonical form and returns
// its kind.
func (p *parser) value(depth int) (Kind, error) {
	p.values++
	if p.values > MaxArgsValues {
		return 0, p.errorf("more than %d values", MaxArgsValues)
	}
	if p.i >= len(p.s) {
		return 0, p.errorf("unexpected end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		if depth >= MaxArgsDepth {
			return 0, p.errorf("nesting deeper than %d", MaxArgsDepth)
		}
		return Object, p.object(depth + 1)
	case c == '[':
		if depth >= MaxArgsDepth {
			return 0, p.errorf("nesting deeper than %d", MaxArgsDepth)
		}
		return Array, p.array(depth + 1)
	case c == '"':
		return String, p.strCanon()
	case c == '-' || (c >= '0' && c <= '9'):
		return Number, p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		p.out = append(p.out, "true"...)
		return Bool, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		p.out = append(p.out, "false"...)
		return Bool, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		p.out = append(p.out, "null"...)
		return Null, nil
	}
	return 0, p.errorf("unexpected character %q", p.s[p.i])
}

// object parses the object at p.i and appends its canonical form: it reads
// the members in input order, checks their keys for duplicates and sorts
// them, writes them in key order, and records the arguments' members as
// spans.
func (p *parser) object(depth int) error {
	dst, hash, origin := p.destination(depth)
	open, base := len(p.out), len(p.keys)
	defer func() { p.keys = p.keys[:base] }()
	if err := p.members(depth); err != nil {
		return err
	}
	ms := p.keys[base:]
	sorted, err := p.sortKeys(ms)
	if err != nil {
		return err
	}
	if !sorted && dst == nil {
		p.rewrite(open, ms)
	}
	p.out = append(p.out, '}')
	if dst != nil {
		p.record(dst, hash, origin, open, ms, sorted)
	}
	return nil
}

// destination returns where the object at p.i records its members: the
// top-level object, or the top-level member ParseEnvelope decodes as
// arguments, whose spans are then relative to its own text (origin). dst
// is nil for every other object, and hash is nil when no hash is wanted.
func (p *parser) destination(depth int) (dst *members, hash *[32]byte, origin int) {
	switch {
	case p.inSub:
		p.inSub = false
		return &p.sub.members, &p.sub.hash, p.i
	case depth == 1 && p.top != nil:
		return p.top, p.topHash, 0
	}
	return nil, nil, 0
}

// members reads an object's braces and members, appending the members to
// out in input order, separated by commas and without the closing brace,
// and to p.keys.
func (p *parser) members(depth int) error {
	p.i++ // {
	p.out = append(p.out, '{')
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return nil
	}
	for n := 0; ; n++ {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return p.errorf("expected a string key")
		}
		if n > 0 {
			p.out = append(p.out, ',')
		}
		if err := p.member(depth); err != nil {
			return err
		}
		p.skipSpace()
		if p.i >= len(p.s) {
			return p.errorf("unexpected end of input in object")
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] == '}' {
			p.i++
			return nil
		}
		return p.errorf("expected ',' or '}' in object")
	}
}

// member reads one key, its colon and its value, and appends the member to
// p.keys.
func (p *parser) member(depth int) error {
	start := len(p.out)
	ks := p.i + 1
	key, escaped, err := p.str(true)
	if err != nil {
		return err
	}
	m := member{sp: span{ks: int32(ks), ke: int32(p.i - 1)}, start: int32(start)}
	if escaped {
		p.esc = append(p.esc, key)
		m.sp.ks, m.sp.ke = -int32(len(p.esc)), 0
	}
	p.skipSpace()
	if p.i >= len(p.s) || p.s[p.i] != ':' {
		return p.errorf("expected ':' after key %q", truncate(key))
	}
	p.i++
	p.out = append(p.out, ':')
	p.skipSpace()
	vs := p.i
	sub := p.sub != nil && depth == 1 && key == p.subKey && p.i < len(p.s) && p.s[p.i] == '{'
	if sub {
		p.inSub = true
	}
	kind, err := p.value(depth)
	if err != nil {
		return err
	}
	if sub {
		p.sub.text = p.s[vs:p.i]
	}
	m.end = int32(len(p.out))
	m.sp.vs, m.sp.ve, m.sp.kind = int32(vs), int32(p.i), kind
	m.sp.esc = kind == String && p.escaped
	p.keys = append(p.keys, m)
	return nil
}

// sortKeys puts an object's members in key order and reports whether they
// already were; a key that appears twice is an error.
func (p *parser) sortKeys(ms []member) (sorted bool, err error) {
	sorted = true
	for i := 1; i < len(ms); i++ {
		if c := compareKeys(p.keyOf(&ms[i-1]), p.keyOf(&ms[i])); c == 0 {
			return false, fmt.Errorf("%w: duplicate key %q", ErrArgs, truncate(p.keyOf(&ms[i])))
		} else if c > 0 {
			sorted = false
		}
	}
	if sorted {
		return true, nil
	}
	if len(ms) <= 16 {
		for i := 1; i < len(ms); i++ {
			for j := i; j > 0 && compareKeys(p.keyOf(&ms[j-1]), p.keyOf(&ms[j])) > 0; j-- {
				ms[j-1], ms[j] = ms[j], ms[j-1]
			}
		}
	} else {
		slices.SortFunc(ms, func(a, b member) int { return compareKeys(p.keyOf(&a), p.keyOf(&b)) })
	}
	for i := 1; i < len(ms); i++ {
		if p.keyOf(&ms[i-1]) == p.keyOf(&ms[i]) {
			return false, fmt.Errorf("%w: duplicate key %q", ErrArgs, truncate(p.keyOf(&ms[i])))
		}
	}
	return false, nil
}

// rewrite writes the members of the object opened at out[open], which sit
// in out in input order, again in key order.
func (p *parser) rewrite(open int, ms []member) {
	p.tmp = append(p.tmp[:0], p.out[open+1:]...)
	p.out = p.out[:open+1]
	shift := open + 1
	for i, m := range ms {
		if i > 0 {
			p.out = append(p.out, ',')
		}
		p.out = append(p.out, p.tmp[int(m.start)-shift:int(m.end)-shift]...)
	}
}

// record stores the members of the object written at out[open:], in key
// order, as spans in a, and its hash when hash is not nil: over out
// itself when the members came in key order, else over the members in key
// order where they sit, rather than over a rewritten copy.
func (p *parser) record(a *members, hash *[32]byte, origin, open int, ms []member, sorted bool) {
	switch {
	case hash == nil:
	case sorted:
		*hash = sha256.Sum256(p.out[open:])
	default:
		*hash = p.hashMembers(ms, len(p.out)-open)
	}
	a.n = len(ms)
	if len(ms) > len(a.small) {
		a.spill = &spill{more: make([]span, len(ms)-len(a.small))}
	}
	o := int32(origin)
	for i := range ms {
		sp := ms[i].sp
		if k := sp.escapedKey(); k >= 0 {
			if a.spill == nil {
				a.spill = new(spill)
			}
			a.spill.keys = append(a.spill.keys, p.esc[k])
			sp.ks = -int32(len(a.spill.keys))
		} else if o != 0 {
			sp.ks, sp.ke = sp.ks-o, sp.ke-o
		}
		if o != 0 {
			sp.vs, sp.ve = sp.vs-o, sp.ve-o
		}
		*a.span(i) = sp
	}
}

func (p *parser) array(depth int) error {
	p.i++ // [
	p.out = append(p.out, '[')
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		p.out = append(p.out, ']')
		return nil
	}
	for n := 0; ; n++ {
		p.skipSpace()
		if n > 0 {
			p.out = append(p.out, ',')
		}
		if _, err := p.value(depth); err != nil {
			return err
		}
		p.skipSpace()
		if p.i >= len(p.s) {
			return p.errorf("unexpected end of input in array")
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] == ']' {
			p.i++
			p.out = append(p.out, ']')
			return nil
		}
		return p.errorf("expected ',' or ']' in array")
	}
}

// str parses a JSON string at its opening quote, appends its canonical form
// if emit, and returns its decoded value (a substring of the input when it
// has no escapes) and whether it had escapes.
func (p *parser) str(emit bool) (string, bool, error) {
	p.i++ // "
	start := p.i
	var high byte // OR of all bytes: ASCII strings need no UTF-8 check
	for p.i < len(p.s) {
		c := p.s[p.i]
		high |= c
		switch {
		case c == '"':
			s := p.s[start:p.i]
			p.i++
			if high >= utf8.RuneSelf && !utf8.ValidString(s) {
				return "", false, fmt.Errorf("%w: string at offset %d is not valid UTF-8", ErrArgs, start)
			}
			if emit {
				// No escapes and no control characters: the literal is
				// already canonical.
				p.out = append(p.out, p.s[start-1:p.i]...)
			}
			return s, false, nil
		case c == '\\':
			s, err := p.strSlow(start)
			if err == nil && emit {
				p.out = appendCanonString(p.out, s)
			}
			return s, true, err
		case c < 0x20:
			return "", false, p.errorf("control character in string")
		}
		p.i++
	}
	return "", false, p.errorf("unterminated string")
}

// strCanon parses a JSON string value at its opening quote and appends
// its canonical form (what appendCanonString makes of its decoded value)
// straight from the input: no decoded copy is built, so a long value with
// escapes costs its canonical bytes and nothing more.
func (p *parser) strCanon() error {
	p.i++ // "
	p.escaped = false
	start := p.i
	var high byte // OR of the bytes: ASCII needs no UTF-8 check
	p.i = plainRun(p.s, p.i)
	for p.i < len(p.s) {
		c := p.s[p.i]
		high |= c
		switch {
		case c == '"':
			// No escapes and no control characters: the literal is
			// already canonical.
			if high >= utf8.RuneSelf && !utf8.ValidString(p.s[start:p.i]) {
				return fmt.Errorf("%w: string at offset %d is not valid UTF-8", ErrArgs, start)
			}
			p.i++
			p.out = append(p.out, p.s[start-1:p.i]...)
			return nil
		case c == '\\':
			p.escaped = true
			return p.strCanonEscaped(start, high)
		case c < 0x20:
			return p.errorf("control character in string")
		}
		p.i++
		if c < utf8.RuneSelf { // text of multi-byte characters goes byte by byte
			p.i = plainRun(p.s, p.i)
		}
	}
	return p.errorf("unterminated string")
}

// strCanonEscaped is strCanon from the first backslash of a string that
// starts at start; high is the OR of the bytes before it.
func (p *parser) strCanonEscaped(start int, high byte) error {
	p.out = append(p.out, '"')
	run := start // where the pending run of literal bytes starts; high is its bytes' OR
	flush := func() error {
		if high >= utf8.RuneSelf && !utf8.ValidString(p.s[run:p.i]) {
			return fmt.Errorf("%w: string at offset %d is not valid UTF-8", ErrArgs, start)
		}
		p.out = append(p.out, p.s[run:p.i]...)
		return nil
	}
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			if err := flush(); err != nil {
				return err
			}
			p.i++
			p.out = append(p.out, '"')
			return nil
		case c < 0x20:
			return p.errorf("control character in string")
		case c != '\\':
			high |= c
			p.i++
			if c < utf8.RuneSelf {
				p.i = plainRun(p.s, p.i)
			}
			continue
		}
		if err := flush(); err != nil {
			return err
		}
		p.i++
		if p.i >= len(p.s) {
			break
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\':
			p.out = append(p.out, '\\', e)
		case '/':
			p.out = append(p.out, '/')
		case 'b', 'f', 'n', 'r', 't':
			p.out = append(p.out, '\\', e)
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return err
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 || !strings.HasPrefix(p.s[p.i:], `\u`) {
					return p.errorf("lone surrogate in string")
				}
				p.i += 2
				r2, err := p.hex4()
				if err != nil {
					return err
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return p.errorf("invalid surrogate pair in string")
				}
			}
			if r < utf8.RuneSelf {
				p.out = appendCanonByte(p.out, byte(r))
			} else {
				p.out = utf8.AppendRune(p.out, r)
			}
		default:
			return p.errorf("invalid escape \\%c", e)
		}
		run, high = p.i, 0
		p.i = plainRun(p.s, p.i)
	}
	return p.errorf("unterminated string")
}

// plainRun returns the offset of the first byte at or after i in s that
// is not printable ASCII other than '"' and '\\', looking eight bytes at
// a time and ending at a word's start: bytes it skips are their own
// canonical form and need no UTF-8 check. Long argument values (a file's
// content) are mostly such bytes.
func plainRun(s string, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8] // one bounds check; the compiler loads the word at once
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if x&hi != 0 {
			return i // a byte of a multi-byte character
		}
		// Every byte is below 0x80, so each subtraction sets a byte's top
		// bit exactly when that byte is below 0x20, a quote or a
		// backslash, or a lower byte of the word already is (a borrow).
		if ((x-0x20*lo)|((x^'"'*lo)-lo)|((x^'\\'*lo)-lo))&hi != 0 {
			return i
		}
	}
	return i
}

func (p *parser) strSlow(start int) (string, error) {
	var b strings.Builder
	b.WriteString(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			s := b.String()
			if !utf8.ValidString(s) {
				return "", fmt.Errorf("%w: string at offset %d is not valid UTF-8", ErrArgs, start)
			}
			return s, nil
		case c < 0x20:
			return "", p.errorf("control character in string")
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			break
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 || !strings.HasPrefix(p.s[p.i:], `\u`) {
					return "", p.errorf("lone surrogate in string")
				}
				p.i += 2
				r2, err := p.hex4()
				if err != nil {
					return "", err
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", p.errorf("invalid surrogate pair in string")
				}
			}
			b.WriteRune(r)
		default:
			return "", p.errorf("invalid escape \\%c", e)
		}
	}
	return "", p.errorf("unterminated string")
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, p.errorf("short \\u escape")
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, p.errorf("invalid \\u escape")
	}
	p.i += 4
	return rune(n), nil
}

func (p *parser) number() error {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case p.i < len(p.s) && p.s[p.i] >= '1' && p.s[p.i] <= '9':
		p.digits()
	default:
		return p.errorf("invalid number")
	}
	isInt := true
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return p.errorf("invalid number: digits expected after '.'")
		}
		isInt = false
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return p.errorf("invalid number: digits expected in exponent")
		}
		isInt = false
	}
	lit := p.s[start:p.i]
	if len(lit) > maxNumberLen {
		return fmt.Errorf("%w: number at offset %d longer than %d bytes", ErrArgs, start, maxNumberLen)
	}
	if !isInt {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.IsInf(f, 0) {
			return fmt.Errorf("%w: number at offset %d out of range", ErrArgs, start)
		}
	}
	p.out = appendCanonNumber(p.out, lit)
	return nil
}

func (p *parser) digits() int {
	n := 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

// walker reads validated JSON text: it never fails on text ParseArgs
// accepted, and stops quietly on anything else.
type walker struct {
	s string
	i int
}

func (w *walker) space() {
	for w.i < len(w.s) && (w.s[w.i] == ' ' || w.s[w.i] == '\t' || w.s[w.i] == '\n' || w.s[w.i] == '\r') {
		w.i++
	}
}

// next returns the value at w.i and moves past it.
func (w *walker) next() (Value, bool) {
	w.space()
	if w.i >= len(w.s) {
		return Value{}, false
	}
	start := w.i
	var kind Kind
	switch c := w.s[w.i]; {
	case c == '"':
		esc := false
		for w.i++; w.i < len(w.s) && w.s[w.i] != '"'; w.i++ {
			if w.s[w.i] == '\\' {
				esc = true
				w.i++
			}
		}
		w.i++
		if w.i > len(w.s) {
			return Value{}, false
		}
		return Value{kind: String, esc: esc, raw: w.s[start:w.i]}, true
	case c == '{' || c == '[':
		kind = Object
		if c == '[' {
			kind = Array
		}
		depth := 0
		for ; w.i < len(w.s); w.i++ {
			switch w.s[w.i] {
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			case '"':
				for w.i++; w.i < len(w.s) && w.s[w.i] != '"'; w.i++ {
					if w.s[w.i] == '\\' {
						w.i++
					}
				}
			}
			if depth == 0 {
				w.i++
				return Value{kind: kind, raw: w.s[start:w.i]}, true
			}
		}
		return Value{}, false
	case c == 't' || c == 'f':
		kind = Bool
	case c == 'n':
		kind = Null
	default:
		kind = Number
	}
	for w.i < len(w.s) && !strings.ContainsRune(",}] \t\n\r", rune(w.s[w.i])) {
		w.i++
	}
	return Value{kind: kind, raw: w.s[start:w.i]}, true
}

// sep consumes a ',' or the closing byte; false at the end.
func (w *walker) sep(close byte) bool {
	w.space()
	if w.i < len(w.s) && w.s[w.i] == ',' {
		w.i++
		return true
	}
	w.i++ // close
	return false
}

func eachElem(raw string, fn func(Value)) {
	w := walker{s: raw, i: 1}
	w.space()
	if w.i < len(w.s) && w.s[w.i] == ']' {
		return
	}
	for {
		v, ok := w.next()
		if !ok {
			return
		}
		fn(v)
		if !w.sep(']') {
			return
		}
	}
}

func eachMember(raw string, fn func(string, Value) bool) {
	w := walker{s: raw, i: 1}
	w.space()
	if w.i < len(w.s) && w.s[w.i] == '}' {
		return
	}
	for {
		k, ok := w.next()
		if !ok || k.kind != String {
			return
		}
		w.space()
		w.i++ // :
		v, ok := w.next()
		if !ok {
			return
		}
		key, _ := k.Str()
		if !fn(key, v) || !w.sep('}') {
			return
		}
	}
}

// decodeString decodes a validated JSON string literal (with quotes).
func decodeString(raw string) string {
	p := parser{s: raw}
	s, _, err := p.str(false)
	if err != nil {
		return ""
	}
	return s
}

func isIntLiteral(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && !(c == '-' && i == 0) {
			return false
		}
	}
	return true
}

// compareKeys orders object keys by their UTF-16 code units, as RFC 8785
// requires. For keys without characters above U+FFFF this is byte order.
func compareKeys(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf {
				return int(a[i]) - int(b[i])
			}
			return compareUTF16(a[i:], b[i:])
		}
	}
	return len(a) - len(b)
}

func compareUTF16(a, b string) int {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		ua1, ua2 := utf16Units(ra)
		ub1, ub2 := utf16Units(rb)
		if ua1 != ub1 {
			return int(ua1) - int(ub1)
		}
		if ua2 != ub2 {
			return int(ua2) - int(ub2)
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

func utf16Units(r rune) (rune, rune) {
	if r < 0x10000 {
		return r, 0
	}
	return utf16.EncodeRune(r)
}

// appendCanonNumber writes a number so that every spelling of the same value
// hashes the same: plain integer literals are kept exactly (no float64
// rounding, "-0" becomes "0"); other literals are parsed as float64 and
// written as integers when integral and below 2^53, otherwise in the
// ECMAScript shortest form RFC 8785 uses.
func appendCanonNumber(b []byte, lit string) []byte {
	if isIntLiteral(lit) {
		if lit == "-0" {
			return append(b, '0')
		}
		return append(b, lit...)
	}
	f, _ := strconv.ParseFloat(lit, 64)
	if f == 0 {
		return append(b, '0')
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.AppendInt(b, int64(f), 10)
	}
	abs := math.Abs(f)
	if abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	// Go writes e+07/e-07; ECMAScript writes e+7/e-7.
	if e := strings.LastIndexByte(string(b[start:]), 'e'); e >= 0 {
		e += start
		if e+2 < len(b) && b[e+2] == '0' {
			b = append(b[:e+2], b[e+3:]...)
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

func appendCanonString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		b = appendCanonByte(b, c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendCanonByte appends the canonical form of one ASCII byte inside a
// string: escaped if it is a quote, a backslash or a control character,
// itself otherwise.
func appendCanonByte(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	if c < 0x20 {
		return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
	}
	return append(b, c)
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
