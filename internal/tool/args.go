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

// Value is one decoded JSON value. Strings are decoded (escapes resolved);
// numbers keep their literal text so that no precision is lost; object
// fields are sorted in canonical order and have unique keys.
type Value struct {
	kind Kind
	b    bool
	s    string
	// kids are an array's elements (with empty keys) or an object's fields.
	kids []Field
}

// Field is one member of a JSON object.
type Field struct {
	Key   string
	Value Value
}

// Kind returns the value's JSON type.
func (v Value) Kind() Kind { return v.kind }

// Str returns the value of a JSON string.
func (v Value) Str() (string, bool) { return v.s, v.kind == String }

// Bool returns the value of a JSON boolean.
func (v Value) Bool() (bool, bool) { return v.b, v.kind == Bool }

// NumberText returns the literal text of a JSON number.
func (v Value) NumberText() (string, bool) { return v.s, v.kind == Number }

// Len returns the number of elements of an array or members of an object.
func (v Value) Len() int { return len(v.kids) }

// Elem returns the i-th element of a JSON array.
func (v Value) Elem(i int) Value { return v.kids[i].Value }

// Elems returns the elements of a JSON array.
func (v Value) Elems() []Value {
	if v.kind != Array {
		return nil
	}
	out := make([]Value, len(v.kids))
	for i := range v.kids {
		out[i] = v.kids[i].Value
	}
	return out
}

// Fields returns the members of a JSON object in canonical key order.
func (v Value) Fields() []Field {
	if v.kind != Object {
		return nil
	}
	return v.kids
}

// Field returns the member of a JSON object with the given key.
func (v Value) Field(key string) (Value, bool) {
	if v.kind != Object {
		return Value{}, false
	}
	return lookup(v.kids, key)
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
	if isIntLiteral(v.s) {
		n, err := strconv.ParseInt(v.s, 10, 64)
		if err != nil {
			return 0, ErrIntOverflow
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(v.s, 64)
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
	f, err := strconv.ParseFloat(v.s, 64)
	return f, err == nil
}

// Equal reports whether v and w are the same JSON value (numbers compared
// by their canonical spelling).
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case Null:
		return true
	case Bool:
		return v.b == w.b
	case String:
		return v.s == w.s
	}
	return string(appendCanonical(nil, v)) == string(appendCanonical(nil, w))
}

// Any returns the value as plain Go data: nil, bool, int64 (integral numbers
// within int64), float64 (other numbers), string, []any or map[string]any.
func (v Value) Any() any {
	switch v.kind {
	case Bool:
		return v.b
	case Number:
		if isIntLiteral(v.s) {
			if n, err := strconv.ParseInt(v.s, 10, 64); err == nil {
				return n
			}
		}
		f, _ := strconv.ParseFloat(v.s, 64)
		return f
	case String:
		return v.s
	case Array:
		out := make([]any, len(v.kids))
		for i, e := range v.kids {
			out[i] = e.Value.Any()
		}
		return out
	case Object:
		out := make(map[string]any, len(v.kids))
		for _, f := range v.kids {
			out[f.Key] = f.Value.Any()
		}
		return out
	}
	return nil
}

// Args are the decoded arguments of a tool call: a JSON object whose
// SHA-256 over its canonical form identifies the call's arguments
// independently of key order, insignificant whitespace, string escaping and
// number spelling. An Args is immutable and safe for concurrent use.
type Args struct {
	root Value
	hash [32]byte
	size int

	anyOnce sync.Once
	anyMap  map[string]any

	// inline holds the top-level fields of a small object, so that most
	// calls decode with two allocations (this and the text).
	inline [4]Field
}

var emptyArgs = func() *Args {
	a := &Args{root: Value{kind: Object}}
	a.hash = sha256.Sum256([]byte("{}"))
	return a
}()

// EmptyArgs returns the arguments of a call without arguments ({}).
func EmptyArgs() *Args { return emptyArgs }

// ParseArgs decodes the JSON arguments of a call. Absent arguments (empty
// input or null) are an empty object; anything else must be one JSON object
// within the limits above, with unique keys and valid UTF-8.
func ParseArgs(raw []byte) (*Args, error) {
	if len(raw) > MaxArgsSize {
		return nil, fmt.Errorf("%w: %d bytes exceeds the limit of %d", ErrArgs, len(raw), MaxArgsSize)
	}
	a, text := new(Args), string(raw)
	p := parserPool.Get().(*parser)
	defer p.release()
	p.s, p.i, p.values, p.top = text, 0, 0, a
	p.skipSpace()
	if p.i == len(p.s) {
		return emptyArgs, nil
	}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, p.errorf("unexpected data after the arguments object")
	}
	switch v.kind {
	case Null:
		return emptyArgs, nil
	case Object:
	default:
		return nil, fmt.Errorf("%w: arguments must be a JSON object, not %s", ErrArgs, v.kind)
	}
	a.root, a.size = v, len(raw)
	buf := canonPool.Get().(*[]byte)
	b := appendCanonical((*buf)[:0], v)
	a.hash = sha256.Sum256(b)
	*buf = b
	canonPool.Put(buf)
	return a, nil
}

var canonPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// Get returns the top-level argument with the given key.
func (a *Args) Get(key string) (Value, bool) { return lookup(a.root.kids, key) }

// Fields returns the top-level arguments in canonical key order.
func (a *Args) Fields() []Field { return a.root.kids }

// Len returns the number of top-level arguments.
func (a *Args) Len() int { return len(a.root.kids) }

// Size returns the length in bytes of the JSON the arguments were decoded from.
func (a *Args) Size() int { return a.size }

// Hash returns the SHA-256 of the canonical JSON of the arguments.
func (a *Args) Hash() [32]byte { return a.hash }

// HashHex returns Hash in lower-case hexadecimal.
func (a *Args) HashHex() string { return hex.EncodeToString(a.hash[:]) }

// Canonical returns the canonical JSON of the arguments: object keys sorted
// by UTF-16 code units (RFC 8785), no insignificant whitespace, minimal
// string escaping, numbers normalised (see package doc of canonNumber).
func (a *Args) Canonical() []byte { return appendCanonical(nil, a.root) }

// Map returns the arguments as a map of plain Go values (see Value.Any),
// computed once and shared: callers must not modify it.
func (a *Args) Map() map[string]any {
	a.anyOnce.Do(func() { a.anyMap = a.root.Any().(map[string]any) })
	return a.anyMap
}

func lookup(fields []Field, key string) (Value, bool) {
	if len(fields) <= 16 {
		for i := range fields {
			if fields[i].Key == key {
				return fields[i].Value, true
			}
		}
		return Value{}, false
	}
	i, found := slices.BinarySearchFunc(fields, key, func(f Field, k string) int { return compareKeys(f.Key, k) })
	if found {
		return fields[i].Value, true
	}
	return Value{}, false
}

var parserPool = sync.Pool{New: func() any { return &parser{scratch: make([]Field, 0, 64)} }}

func (p *parser) release() {
	clear(p.scratch[:p.high]) // drop references into the input
	p.scratch = p.scratch[:0]
	p.s, p.high, p.top = "", 0, nil
	if cap(p.scratch) <= 4096 {
		parserPool.Put(p)
	}
}

type parser struct {
	s      string
	i      int
	values int
	// scratch holds the fields of the objects being parsed (a stack: an
	// inner object's fields sit above its parent's), so that each object
	// allocates its field slice once, at its final size.
	scratch []Field
	high    int   // the most fields scratch has held
	top     *Args // receives the top-level object's fields inline
}

func (p *parser) push(f Field) {
	p.scratch = append(p.scratch, f)
	p.high = max(p.high, len(p.scratch))
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

func (p *parser) value(depth int) (Value, error) {
	p.values++
	if p.values > MaxArgsValues {
		return Value{}, p.errorf("more than %d values", MaxArgsValues)
	}
	if p.i >= len(p.s) {
		return Value{}, p.errorf("unexpected end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		if depth >= MaxArgsDepth {
			return Value{}, p.errorf("nesting deeper than %d", MaxArgsDepth)
		}
		return p.object(depth + 1)
	case c == '[':
		if depth >= MaxArgsDepth {
			return Value{}, p.errorf("nesting deeper than %d", MaxArgsDepth)
		}
		return p.array(depth + 1)
	case c == '"':
		s, err := p.str()
		return Value{kind: String, s: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return Value{kind: Bool, b: true}, nil
	case strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return Value{kind: Bool}, nil
	case strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return Value{kind: Null}, nil
	}
	return Value{}, p.errorf("unexpected character %q", p.s[p.i])
}

func (p *parser) object(depth int) (Value, error) {
	p.i++ // {
	base := len(p.scratch)
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return Value{kind: Object, kids: []Field{}}, nil
	}
	for {
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return Value{}, p.errorf("expected a string key")
		}
		k, err := p.str()
		if err != nil {
			return Value{}, err
		}
		p.skipSpace()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return Value{}, p.errorf("expected ':' after key %q", truncate(k))
		}
		p.i++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		p.push(Field{Key: k, Value: v})
		p.skipSpace()
		if p.i >= len(p.s) {
			return Value{}, p.errorf("unexpected end of input in object")
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] == '}' {
			p.i++
			break
		}
		return Value{}, p.errorf("expected ',' or '}' in object")
	}
	src := p.scratch[base:]
	var fields []Field
	if n := len(src); depth == 1 && p.top != nil && n <= len(p.top.inline) {
		fields = p.top.inline[:n:n]
	} else {
		fields = make([]Field, n)
	}
	if n := len(src); n <= 16 {
		// Order small objects by sorting indexes on the stack, then copy
		// each field once into place.
		var idx [16]uint8
		for i := range n {
			idx[i] = uint8(i)
		}
		order := idx[:n]
		for i := 1; i < n; i++ {
			for j := i; j > 0 && compareKeys(src[order[j-1]].Key, src[order[j]].Key) > 0; j-- {
				order[j-1], order[j] = order[j], order[j-1]
			}
		}
		for i, k := range order {
			fields[i] = src[k]
		}
	} else {
		copy(fields, src)
		slices.SortFunc(fields, func(a, b Field) int { return compareKeys(a.Key, b.Key) })
	}
	p.scratch = p.scratch[:base]
	for i := 1; i < len(fields); i++ {
		if fields[i].Key == fields[i-1].Key {
			return Value{}, fmt.Errorf("%w: duplicate key %q", ErrArgs, truncate(fields[i].Key))
		}
	}
	return Value{kind: Object, kids: fields}, nil
}

func (p *parser) array(depth int) (Value, error) {
	p.i++ // [
	base := len(p.scratch)
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return Value{kind: Array, kids: []Field{}}, nil
	}
	for {
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return Value{}, err
		}
		p.push(Field{Value: v})
		p.skipSpace()
		if p.i >= len(p.s) {
			return Value{}, p.errorf("unexpected end of input in array")
		}
		if p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.s[p.i] == ']' {
			p.i++
			kids := slices.Clone(p.scratch[base:])
			p.scratch = p.scratch[:base]
			return Value{kind: Array, kids: kids}, nil
		}
		return Value{}, p.errorf("expected ',' or ']' in array")
	}
}

// str decodes a JSON string starting at the opening quote.
func (p *parser) str() (string, error) {
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
				return "", fmt.Errorf("%w: string at offset %d is not valid UTF-8", ErrArgs, start)
			}
			return s, nil
		case c == '\\':
			return p.strSlow(start)
		case c < 0x20:
			return "", p.errorf("control character in string")
		}
		p.i++
	}
	return "", p.errorf("unterminated string")
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

func (p *parser) number() (Value, error) {
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
		return Value{}, p.errorf("invalid number")
	}
	isInt := true
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if p.digits() == 0 {
			return Value{}, p.errorf("invalid number: digits expected after '.'")
		}
		isInt = false
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			return Value{}, p.errorf("invalid number: digits expected in exponent")
		}
		isInt = false
	}
	lit := p.s[start:p.i]
	if len(lit) > maxNumberLen {
		return Value{}, fmt.Errorf("%w: number at offset %d longer than %d bytes", ErrArgs, start, maxNumberLen)
	}
	if !isInt {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil || math.IsInf(f, 0) {
			return Value{}, fmt.Errorf("%w: number at offset %d out of range", ErrArgs, start)
		}
	}
	return Value{kind: Number, s: lit}, nil
}

func (p *parser) digits() int {
	n := 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
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

func appendCanonical(b []byte, v Value) []byte {
	switch v.kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		if v.b {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case Number:
		return appendCanonNumber(b, v.s)
	case String:
		return appendCanonString(b, v.s)
	case Array:
		b = append(b, '[')
		for i, e := range v.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, e.Value)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i, f := range v.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonString(b, f.Key)
			b = append(b, ':')
			b = appendCanonical(b, f.Value)
		}
		return append(b, '}')
	}
	return b
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
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func truncate(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
