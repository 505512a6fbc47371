package shell

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Each byte of a word being built carries a mark saying where it came from.
const (
	mQuoted byte = iota // quoted or escaped: literal
	mLit                // unquoted source text: braces and globs are active
	mSplit              // unquoted expansion result: field splitting and globs
	mOpaque             // text standing for an unknown expansion
)

// maxFields bounds the words one source word may expand to.
const maxFields = 1024

type lexMode uint8

const (
	lexNormal  lexMode = iota // unquoted
	lexQuoted                 // inside "..."
	lexHeredoc                // here-document body: " and ' are literal
)

// wordBuf accumulates one word with a mark per byte.
type wordBuf struct {
	val, mask []byte
	vars      []string
	opaque    bool
	subst     bool
	quoted    bool
	derived   bool
	first     int       // start in the source of the bytes in val, or -1
	last      int       // end in the source of the bytes in val
	broken    bool      // val is not src[first:last]
	arr       [128]byte // initial storage for val and mask
}

func (b *wordBuf) reset() {
	b.val, b.mask, b.vars = b.val[:0], b.mask[:0], nil
	b.opaque, b.subst, b.quoted, b.derived = false, false, false, false
	b.first, b.last, b.broken = -1, 0, false
}

// add appends bytes that are not a copy of the source text.
func (b *wordBuf) add(s string, m byte) {
	b.broken = true
	b.put(s, m)
}

func (b *wordBuf) put(s string, m byte) {
	b.val = append(b.val, s...)
	for range len(s) {
		b.mask = append(b.mask, m)
	}
}

// addSrc appends src[i:j], noting whether the word so far is one
// contiguous piece of the source.
func (b *wordBuf) addSrc(src string, i, j int, m byte) {
	switch {
	case b.broken:
	case b.first < 0 && len(b.val) == 0:
		b.first, b.last = i, j
	case i == b.last:
		b.last = j
	default:
		b.broken = true
	}
	b.put(src[i:j], m)
}

func (b *wordBuf) addByte(c, m byte) {
	b.broken = true
	b.val = append(b.val, c)
	b.mask = append(b.mask, m)
}

// word returns val, part of b.val, as a word. When val is all of b.val and
// a contiguous piece of src it is not copied.
func (b *wordBuf) word(src string, val []byte, glob bool) Word {
	w := Word{Opaque: b.opaque, Glob: glob, Subst: b.subst, Vars: b.vars, derived: b.derived}
	if !b.broken && b.first >= 0 && len(val) == len(b.val) && b.last-b.first == len(val) {
		w.Value = src[b.first:b.last]
	} else {
		w.Value = string(val)
	}
	return w
}

func (p *parser) scratch() *wordBuf {
	b := p.bufs[p.depth]
	if b == nil {
		b = new(wordBuf)
		p.bufs[p.depth] = b
	}
	b.reset()
	if b.val == nil {
		b.val, b.mask = b.arr[:0:len(b.arr)/2], b.arr[len(b.arr)/2:len(b.arr)/2]
	}
	return b
}

// isPlain reports bytes that stand for themselves in an unquoted word.
func isPlain(c byte) bool { return !notPlain[c] }

var notPlain = [256]bool{
	' ': true, '\t': true, '\n': true, ';': true, '&': true, '|': true, '<': true, '>': true, '(': true,
	')': true, '\'': true, '"': true, '\\': true, '$': true, '`': true, '{': true, '}': true, '*': true,
	'?': true, '[': true,
}

// plainLit returns the value of a word of plain bytes, the common case.
func plainLit(w *syntax.Word) (string, bool) {
	if len(w.Parts) != 1 {
		return "", false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok || l.Value == "" {
		return "", false
	}
	for i := 0; i < len(l.Value); i++ {
		if notPlain[l.Value[i]] {
			return "", false
		}
	}
	return l.Value, true
}

// words expands one source word and appends the fields it expands to.
func (p *parser) words(w *syntax.Word, dst []Word) ([]Word, error) {
	if v, ok := plainLit(w); ok {
		return append(dst, Word{Value: v}), nil
	}
	b := p.scratch()
	if err := p.lex(b, w.Parts, lexNormal); err != nil {
		return dst, err
	}
	return p.fields(b, dst)
}

// single expands one word without brace expansion or field splitting, as
// in assignments, redirections and [[ ]].
func (p *parser) single(w *syntax.Word) (Word, error) {
	if w == nil {
		return Word{}, nil
	}
	if v, ok := plainLit(w); ok {
		return Word{Value: v}, nil
	}
	b := p.scratch()
	if err := p.lex(b, w.Parts, lexNormal); err != nil {
		return Word{}, err
	}
	return b.word(p.src, b.val, hasGlob(b)), nil
}

func hasGlob(b *wordBuf) bool {
	for i, m := range b.mask {
		if (m == mLit || m == mSplit) && (b.val[i] == '*' || b.val[i] == '?' || b.val[i] == '[') {
			return true
		}
	}
	return false
}

// lex expands the parts of one word into b.
func (p *parser) lex(b *wordBuf, parts []syntax.WordPart, mode lexMode) error {
	quoted := mode != lexNormal
	for _, part := range parts {
		if _, ok := part.(*syntax.Lit); !ok {
			p.bol = false
		}
		switch x := part.(type) {
		case *syntax.Lit:
			p.lit(b, x, mode)
		case *syntax.SglQuoted:
			b.quoted = true
			if x.Dollar {
				p.ansiC(b, x.Value)
				continue
			}
			if i, j := int(x.Left.Offset())+1, int(x.Right.Offset()); p.exact(i, j, x.Value) {
				b.addSrc(p.src, i, j, mQuoted)
			} else {
				b.add(x.Value, mQuoted)
			}
		case *syntax.DblQuoted:
			b.quoted = true
			if err := p.lex(b, x.Parts, lexQuoted); err != nil {
				return err
			}
		case *syntax.ParamExp:
			if err := p.paramExp(b, x, quoted); err != nil {
				return err
			}
		case *syntax.CmdSubst:
			raw := p.raw(x)
			sub, err := p.nested(x.Stmts, x.Backquotes)
			if err != nil {
				return err
			}
			if err := p.substituted(b, sub, raw, quoted); err != nil {
				return err
			}
		case *syntax.ArithmExp:
			if err := p.arith(x.X); err != nil {
				return err
			}
			p.opaque(b, p.raw(x))
		case *syntax.ProcSubst:
			raw := p.raw(x)
			sub, err := p.nested(x.Stmts, false)
			if err != nil {
				return err
			}
			p.subs = append(p.subs, sub)
			p.opaque(b, raw)
			b.subst = true
		case *syntax.ExtGlob:
			b.add(p.raw(x), mLit)
		default:
			return p.malformed("unsupported expansion", part)
		}
	}
	return nil
}

// exact reports whether src[i:j] is v, so that v can be kept as a piece of
// the source.
func (p *parser) exact(i, j int, v string) bool {
	return p.bq == 0 && 0 <= i && i <= j && j <= len(p.src) && p.src[i:j] == v
}

// lit adds a literal, removing the backslashes that quote in mode.
func (p *parser) lit(b *wordBuf, l *syntax.Lit, mode lexMode) {
	v := l.Value
	off := int(l.Pos().Offset())
	if !p.exact(off, int(l.End().Offset()), v) {
		off = -1
	}
	m := mLit
	if mode != lexNormal {
		m = mQuoted
	}
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && v[j] != '\\' {
			j++
		}
		p.putLit(b, v[i:j], offAt(off, i), m)
		if j == len(v) {
			return
		}
		i = j + 1
		if i == len(v) {
			b.addByte('\\', mQuoted)
			return
		}
		switch n := v[i]; {
		case n == '\n':
			i++
		case mode == lexNormal:
			p.putLit(b, v[i:i+1], offAt(off, i), mQuoted)
			b.quoted = true
			i++
		case n == '$' || n == '`' || n == '\\' || mode == lexQuoted && n == '"':
			p.putLit(b, v[i:i+1], offAt(off, i), mQuoted)
			i++
		default:
			b.addByte('\\', mQuoted)
		}
	}
}

// offAt returns off+i, or -1 if off is.
func offAt(off, i int) int {
	if off < 0 {
		return -1
	}
	return off + i
}

// putLit adds s, which is at offset off of the source if off >= 0,
// removing the tabs that start a line of a <<- here-document.
func (p *parser) putLit(b *wordBuf, s string, off int, m byte) {
	if !p.strip {
		if off >= 0 {
			b.addSrc(p.src, off, off+len(s), m)
		} else {
			b.add(s, m)
		}
		return
	}
	for i := 0; i < len(s); i++ {
		if p.bol && s[i] == '\t' {
			b.broken = true
			continue
		}
		p.bol = s[i] == '\n'
		b.addByte(s[i], m)
	}
}

// expand adds the value of an expansion, charging the budget.
func (p *parser) expand(b *wordBuf, v string, quoted bool) error {
	if err := p.st.charge(len(v)); err != nil {
		return err
	}
	m := mSplit
	if quoted {
		m = mQuoted
	}
	b.add(v, m)
	b.derived = true
	return nil
}

func (p *parser) opaque(b *wordBuf, raw string) {
	b.add(raw, mOpaque)
	b.opaque = true
}

// lookup returns a parameter's value if it is known.
func (p *parser) lookup(name string) (string, bool) {
	if v, ok := p.vars[name]; ok {
		return v, true
	}
	switch name {
	case "HOME":
		return "~", true
	case "IFS":
		return " ", true
	}
	return defaultValue(name)
}

// defaultValue returns the usual value of variables that are set in every
// environment, for expansions like ${PATH:0:1} or $SHELL -c.
func defaultValue(name string) (string, bool) {
	switch name {
	case "PATH":
		return "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", true
	case "SHELL", "0":
		return "/bin/sh", true
	case "BASH":
		return "/bin/bash", true
	}
	return "", false
}

func (p *parser) param(b *wordBuf, name, raw string, quoted bool) error {
	b.vars = append(b.vars, name)
	v, ok := p.lookup(name)
	if !ok {
		p.opaque(b, raw)
		return nil
	}
	if name == "@" || name == "*" {
		quoted = false
	}
	return p.expand(b, v, quoted)
}

// paramExp expands $x and ${...}.
func (p *parser) paramExp(b *wordBuf, x *syntax.ParamExp, quoted bool) error {
	raw := p.raw(x)
	if x.Param == nil || x.NestedParam != nil || x.Flags != nil || x.Width || x.IsSet || x.Names != 0 || len(x.Modifiers) > 0 {
		p.opaque(b, raw)
		return nil
	}
	name := x.Param.Value
	if x.Short {
		return p.param(b, name, raw, quoted)
	}
	op := ""
	var operand wordBuf
	switch {
	case x.Exp != nil:
		op = x.Exp.Op.String()
		if x.Exp.Word != nil {
			if err := p.lex(&operand, x.Exp.Word.Parts, lexNormal); err != nil {
				return err
			}
		}
	case x.Repl != nil:
		op = "/"
		if x.Repl.All {
			op = "//"
		}
		if x.Repl.Orig != nil {
			if err := p.lex(&operand, x.Repl.Orig.Parts, lexNormal); err != nil {
				return err
			}
		}
		if v := operand.val; op == "/" && len(v) > 0 && (v[0] == '#' || v[0] == '%') && operand.mask[0] == mLit {
			op += string(v[0])
			operand.val, operand.mask = v[1:], operand.mask[1:]
		}
		if x.Repl.With != nil {
			operand.add("/", mLit)
			if err := p.lex(&operand, x.Repl.With.Parts, lexNormal); err != nil {
				return err
			}
		}
	case x.Slice != nil:
		op = ":"
		if err := p.arithOperand(&operand, x.Slice.Offset); err != nil {
			return err
		}
		if x.Slice.Length != nil {
			operand.add(":", mLit)
			if err := p.arithOperand(&operand, x.Slice.Length); err != nil {
				return err
			}
		}
	}
	subscript, all := x.Index != nil, false
	if w, ok := x.Index.(*syntax.Word); ok {
		if v := w.Lit(); v == "@" || v == "*" {
			all = true
		}
	}
	if x.Index != nil && !all {
		if err := p.arith(x.Index); err != nil {
			return err
		}
	}
	return p.paramOp(b, paramOp{name: name, op: op, raw: raw, length: x.Length, indirect: x.Excl, subscript: subscript, all: all}, &operand, quoted)
}

// arithOperand adds an offset or length of ${x:off:len} to operand.
func (p *parser) arithOperand(operand *wordBuf, x syntax.ArithmExpr) error {
	if x == nil {
		return nil
	}
	if w, ok := x.(*syntax.Word); ok {
		return p.lex(operand, w.Parts, lexNormal)
	}
	if err := p.arith(x); err != nil {
		return err
	}
	if p.bq > 0 {
		operand.opaque = true
		return nil
	}
	operand.add(p.raw(x), mLit)
	return nil
}

// paramOp is the form of a ${...} expansion.
type paramOp struct {
	name, op, raw    string
	length, indirect bool
	subscript, all   bool // ${x[i]}; i is @ or *
}

// paramOp expands ${...} given its form and the expanded operand: it looks
// the variable up, then expands its length, the operand where the operator
// falls back to or substitutes it, or the value the operator makes; what
// cannot be known is opaque.
func (p *parser) paramOp(b *wordBuf, e paramOp, operand *wordBuf, quoted bool) error {
	b.vars = append(b.vars, e.name)
	v, known, quoted := p.paramValue(e, quoted)
	if e.length {
		if !known || e.op != "" {
			p.opaque(b, e.raw)
			return nil
		}
		return p.expand(b, strconv.Itoa(len(v)), quoted)
	}
	switch e.op {
	case ":-", ":=", "-", "=", ":+", "+":
		return p.paramDefault(b, e, v, known, operand, quoted)
	}
	if known {
		if r, ok := paramTransform(v, e.op, string(operand.val), !operand.opaque); ok {
			return p.expand(b, r, quoted)
		}
	}
	p.opaque(b, e.raw)
	return nil
}

// paramValue returns the value of the variable ${...} names, whether it is
// known, and whether its expansion stays quoted: a subscript is known only
// as ${x[@]} or ${x[*]}, which expand unquoted, and ${!x} through the
// value of x.
func (p *parser) paramValue(e paramOp, quoted bool) (v string, known, stillQuoted bool) {
	v, known = p.lookup(e.name)
	if e.name == "HOME" && e.op != "" && v == "~" {
		v = "/home/user"
	}
	if e.subscript {
		known = false
		if e.all && e.op == "" {
			v, known = p.lookup(e.name)
			quoted = false
		}
	}
	if known && e.indirect {
		v, known = p.lookup(v)
	} else if e.indirect {
		known = false
	}
	return v, known, quoted
}

// paramDefault expands the operators that fall back to or substitute the
// operand: ${x:-y}, ${x:=y} (which also assigns), ${x-y}, ${x=y}, ${x:+y}
// and ${x+y}.
func (p *parser) paramDefault(b *wordBuf, e paramOp, v string, known bool, operand *wordBuf, quoted bool) error {
	arg := string(operand.val)
	switch e.op {
	case ":-", ":=":
		if known && v != "" {
			return p.expand(b, v, quoted)
		}
		if e.op == ":=" && !operand.opaque {
			p.setVar(e.name, arg)
		}
		if !known {
			b.opaque = true
		}
		return p.useOperand(b, operand, arg, quoted)
	case "-", "=":
		if known {
			return p.expand(b, v, quoted)
		}
		if e.op == "=" && !operand.opaque {
			p.setVar(e.name, arg)
		}
		b.opaque = true
		return p.useOperand(b, operand, arg, quoted)
	case ":+", "+":
		if known {
			if v == "" && e.op == ":+" {
				return nil
			}
			return p.useOperand(b, operand, arg, quoted)
		}
	}
	p.opaque(b, e.raw)
	return nil
}

// useOperand expands the operand arg in place of the variable.
func (p *parser) useOperand(b *wordBuf, operand *wordBuf, arg string, quoted bool) error {
	b.opaque = b.opaque || operand.opaque
	b.subst = b.subst || operand.subst
	b.vars = append(b.vars, operand.vars...)
	return p.expand(b, arg, quoted)
}

// paramTransform returns what the operator op makes of the known value v
// given the operand arg (argKnown false when the operand is opaque), or
// false when that cannot be known.
func paramTransform(v, op, arg string, argKnown bool) (string, bool) {
	switch op {
	case "":
		return v, true
	case ":?", "?":
		return v, v != ""
	case "#", "##", "%", "%%":
		if argKnown {
			return trim(v, arg, op)
		}
	case "/", "//", "/#", "/%":
		if argKnown {
			return replace(v, arg, op)
		}
	case "^^":
		return strings.ToUpper(v), true
	case ",,":
		return strings.ToLower(v), true
	case "^", ",":
		if v != "" {
			f := v[:1]
			if op == "^" {
				f = strings.ToUpper(f)
			} else {
				f = strings.ToLower(f)
			}
			v = f + v[1:]
		}
		return v, true
	case ":":
		if argKnown {
			return substring(v, arg)
		}
	}
	return "", false
}

// maxPattern bounds values handled by pattern operators.
const maxPattern = 4096

func trim(v, pat, op string) (string, bool) {
	if len(v) > maxPattern {
		return "", false
	}
	switch op {
	case "#":
		for k := 0; k <= len(v); k++ {
			if globMatch(pat, v[:k]) {
				return v[k:], true
			}
		}
	case "##":
		for k := len(v); k >= 0; k-- {
			if globMatch(pat, v[:k]) {
				return v[k:], true
			}
		}
	case "%":
		for k := len(v); k >= 0; k-- {
			if globMatch(pat, v[k:]) {
				return v[:k], true
			}
		}
	case "%%":
		for k := 0; k <= len(v); k++ {
			if globMatch(pat, v[k:]) {
				return v[:k], true
			}
		}
	}
	return v, true
}

func replace(v, arg, op string) (string, bool) {
	pat, rep := arg, ""
	if i := strings.IndexByte(arg, '/'); i >= 0 {
		pat, rep = arg[:i], arg[i+1:]
	}
	if len(v) > maxPattern || strings.ContainsAny(pat, "*?[\\") {
		return "", false
	}
	switch op {
	case "/":
		return strings.Replace(v, pat, rep, 1), true
	case "//":
		if pat == "" {
			return v, true
		}
		return strings.ReplaceAll(v, pat, rep), true
	case "/#":
		if strings.HasPrefix(v, pat) {
			return rep + v[len(pat):], true
		}
	case "/%":
		if strings.HasSuffix(v, pat) {
			return v[:len(v)-len(pat)] + rep, true
		}
	}
	return v, true
}

func substring(v, arg string) (string, bool) {
	offs, lens, hasLen := arg, "", false
	if i := strings.IndexByte(arg, ':'); i >= 0 {
		offs, lens, hasLen = arg[:i], arg[i+1:], true
	}
	off, err := strconv.Atoi(strings.TrimSpace(offs))
	if err != nil {
		return "", false
	}
	if off < 0 {
		off += len(v)
	}
	if off < 0 || off > len(v) {
		return "", off > len(v)
	}
	v = v[off:]
	if hasLen {
		n, err := strconv.Atoi(strings.TrimSpace(lens))
		if err != nil {
			return "", false
		}
		if n < 0 {
			n += len(v)
		}
		if n < 0 {
			return "", false
		}
		if n < len(v) {
			v = v[:n]
		}
	}
	return v, true
}

// nested reads the list of commands inside $( ), ` ` or <( ).
func (p *parser) nested(list []*syntax.Stmt, backquotes bool) (*Script, error) {
	if p.depth+1 > MaxDepth {
		return nil, errTooDeep()
	}
	p.depth++
	if backquotes {
		p.bq++
	}
	sub := p.newScript()
	script, subs, pipe, place := p.script, p.subs, p.pipe, p.place
	p.script, p.subs = sub, nil
	err := p.stmts(list)
	p.script, p.subs, p.pipe, p.place = script, subs, pipe, place
	if backquotes {
		p.bq--
	}
	p.depth--
	if err != nil {
		return nil, err
	}
	return sub, nil
}

// substituted records a command substitution and adds its output if it can
// be computed.
func (p *parser) substituted(b *wordBuf, sub *Script, raw string, quoted bool) error {
	p.subs = append(p.subs, sub)
	if out, ok := foldScript(sub, p.st); ok {
		return p.expand(b, strings.TrimRight(out, "\n"), quoted)
	}
	p.opaque(b, raw)
	b.subst = true
	return nil
}

// ansiC adds the value of $'s'.
func (p *parser) ansiC(b *wordBuf, s string) {
	var out []byte
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			out = append(out, c)
			i++
			continue
		}
		var n int
		out, n = unescapeOne(out, s[i+1:], escANSI)
		i += 1 + n
	}
	b.add(string(out), mQuoted)
	b.derived = true
}

// fields performs brace expansion and field splitting on b and appends
// the resulting words to dst.
func (p *parser) fields(b *wordBuf, dst []Word) ([]Word, error) {
	brace, split := false, false
	for i, m := range b.mask {
		c := b.val[i]
		switch {
		case m == mLit && c == '{':
			brace = true
		case m == mSplit && p.isSep(c):
			split = true
		}
	}
	if !brace && !split {
		if len(b.val) == 0 && !b.quoted && b.derived {
			return dst, nil
		}
		return append(dst, b.word(p.src, b.val, hasGlob(b))), nil
	}
	one := [1]piece{{b.val, b.mask}}
	pieces := one[:]
	if brace {
		var out []piece
		if err := p.braceExpand(b.val, b.mask, &out); err != nil {
			return dst, err
		}
		pieces = out
	}
	n := 0
	for _, pc := range pieces {
		start := -1
		for i := 0; i <= len(pc.val); i++ {
			sep := i == len(pc.val) || pc.mask[i] == mSplit && p.isSep(pc.val[i])
			if !sep {
				if start < 0 {
					start = i
				}
				continue
			}
			if start < 0 {
				continue
			}
			if n++; n > maxFields {
				return dst, p.tooMany()
			}
			val, mask := pc.val[start:i], pc.mask[start:i]
			glob := false
			for k, m := range mask {
				if (m == mLit || m == mSplit) && (val[k] == '*' || val[k] == '?' || val[k] == '[') {
					glob = true
				}
			}
			dst = append(dst, b.word(p.src, val, glob))
			start = -1
		}
		if len(pc.val) == 0 && b.quoted {
			dst = append(dst, Word{})
		}
	}
	return dst, nil
}

func (p *parser) tooMany() error {
	return fmt.Errorf("%w: a word expands to more than %d fields", ErrTooLong, maxFields)
}

func isIFS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// isSep reports a field separator: a byte of $IFS if it was assigned, else
// blank or newline.
func (p *parser) isSep(c byte) bool {
	if ifs, ok := p.vars["IFS"]; ok {
		return strings.IndexByte(ifs, c) >= 0
	}
	return isIFS(c)
}

type piece struct{ val, mask []byte }

// braceExpand expands the first unquoted {a,b} or {x..y} in val and recurses.
func (p *parser) braceExpand(val, mask []byte, out *[]piece) error {
	for i := 0; i < len(val); i++ {
		if val[i] != '{' || mask[i] != mLit {
			continue
		}
		depth := 0
		var commas []int
		end := -1
		for j := i + 1; j < len(val) && end < 0; j++ {
			if mask[j] != mLit {
				continue
			}
			switch val[j] {
			case '{':
				depth++
			case '}':
				if depth == 0 {
					end = j
				} else {
					depth--
				}
			case ',':
				if depth == 0 {
					commas = append(commas, j)
				}
			}
		}
		if end < 0 {
			continue
		}
		var alts [][2]int
		var seq []string
		if len(commas) > 0 {
			prev := i + 1
			for _, c := range commas {
				alts = append(alts, [2]int{prev, c})
				prev = c + 1
			}
			alts = append(alts, [2]int{prev, end})
		} else if seq = sequence(string(val[i+1 : end])); seq == nil {
			continue
		}
		emit := func(mid, midMask []byte) error {
			v := make([]byte, 0, i+len(mid)+len(val)-end-1)
			v = append(append(append(v, val[:i]...), mid...), val[end+1:]...)
			m := make([]byte, 0, len(v))
			m = append(append(append(m, mask[:i]...), midMask...), mask[end+1:]...)
			if err := p.st.charge(len(v)); err != nil {
				return err
			}
			return p.braceExpand(v, m, out)
		}
		for _, a := range alts {
			if err := emit(val[a[0]:a[1]], mask[a[0]:a[1]]); err != nil {
				return err
			}
		}
		for _, x := range seq {
			if err := emit([]byte(x), make([]byte, len(x))); err != nil {
				return err
			}
		}
		return nil
	}
	return p.addPiece(out, val, mask)
}

func (p *parser) addPiece(out *[]piece, val, mask []byte) error {
	if len(*out) >= maxFields {
		return p.tooMany()
	}
	*out = append(*out, piece{val, mask})
	return nil
}

// sequence expands the inside of {1..5} or {a..e}; nil if it is not one.
func sequence(s string) []string {
	a, z, ok := strings.Cut(s, "..")
	if !ok || strings.Contains(z, "..") {
		return nil
	}
	if x, err := strconv.Atoi(a); err == nil {
		y, err := strconv.Atoi(z)
		if err != nil || x-y > maxFields || y-x > maxFields {
			return nil
		}
		var out []string
		for k := x; ; {
			out = append(out, strconv.Itoa(k))
			if k == y {
				break
			}
			if x < y {
				k++
			} else {
				k--
			}
		}
		return out
	}
	if len(a) == 1 && len(z) == 1 && isNameStart(a[0]) && isNameStart(z[0]) {
		var out []string
		for k := int(a[0]); ; {
			out = append(out, string(rune(k)))
			if k == int(z[0]) {
				break
			}
			if a[0] < z[0] {
				k++
			} else {
				k--
			}
		}
		return out
	}
	return nil
}

// globMatch reports whether s matches the shell pattern pat, where * and ?
// match any byte including '/'.
func globMatch(pat, s string) bool {
	px, sx := 0, 0
	nextPx, nextSx := -1, -1
	for px < len(pat) || sx < len(s) {
		if px < len(pat) {
			switch c := pat[px]; c {
			case '*':
				nextPx, nextSx = px, sx+1
				px++
				continue
			case '?':
				if sx < len(s) {
					px++
					sx++
					continue
				}
			case '[':
				if sx < len(s) {
					if ok, n := matchClass(pat[px:], s[sx]); n > 0 {
						if ok {
							px += n
							sx++
							continue
						}
						break
					}
				}
				if sx < len(s) && s[sx] == '[' {
					px++
					sx++
					continue
				}
			case '\\':
				if px+1 < len(pat) && sx < len(s) && pat[px+1] == s[sx] {
					px += 2
					sx++
					continue
				}
			default:
				if sx < len(s) && s[sx] == c {
					px++
					sx++
					continue
				}
			}
		}
		if nextSx > 0 && nextSx <= len(s) {
			px, sx = nextPx, nextSx
			continue
		}
		return false
	}
	return true
}

// matchClass matches c against the bracket expression at the start of pat
// and returns the expression's length, or 0 if it is not one.
func matchClass(pat string, c byte) (bool, int) {
	i := 1
	neg := false
	if i < len(pat) && (pat[i] == '!' || pat[i] == '^') {
		neg = true
		i++
	}
	match := false
	first := true
	for i < len(pat) {
		if pat[i] == ']' && !first {
			return match != neg, i + 1
		}
		first = false
		lo := pat[i]
		if lo == '[' && i+1 < len(pat) && pat[i+1] == ':' {
			end := strings.Index(pat[i+2:], ":]")
			if end >= 0 {
				if inClass(pat[i+2:i+2+end], c) {
					match = true
				}
				i += end + 4
				continue
			}
		}
		i++
		hi := lo
		if i+1 < len(pat) && pat[i] == '-' && pat[i+1] != ']' {
			hi = pat[i+1]
			i += 2
		}
		if lo <= c && c <= hi {
			match = true
		}
	}
	return false, 0
}

func inClass(name string, c byte) bool {
	switch name {
	case "alpha":
		return isNameStart(c) && c != '_'
	case "digit":
		return isDigit(c)
	case "alnum":
		return isNameChar(c) && c != '_'
	case "upper":
		return 'A' <= c && c <= 'Z'
	case "lower":
		return 'a' <= c && c <= 'z'
	case "space":
		return c == ' ' || ('\t' <= c && c <= '\r')
	case "punct":
		return c > ' ' && c < 0x7f && !isNameChar(c) || c == '_'
	case "xdigit":
		return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
	}
	return false
}

type escStyle uint8

const (
	escANSI   escStyle = iota // $'...'
	escEcho                   // echo -e and printf %b: \0NNN octal, \c stops
	escPrintf                 // printf format: \NNN octal
)

// unescapeOne decodes the escape after a backslash at the start of s,
// appends it to out and returns the number of bytes of s consumed. A
// consumed count of -1 (echo \c) is reported as len(s) with nothing added.
func unescapeOne(out []byte, s string, style escStyle) ([]byte, int) {
	if s == "" {
		return append(out, '\\'), 0
	}
	c := s[0]
	switch c {
	case 'a':
		return append(out, 7), 1
	case 'b':
		return append(out, 8), 1
	case 'e', 'E':
		return append(out, 27), 1
	case 'f':
		return append(out, 12), 1
	case 'n':
		return append(out, '\n'), 1
	case 'r':
		return append(out, '\r'), 1
	case 't':
		return append(out, '\t'), 1
	case 'v':
		return append(out, 11), 1
	case '\\', '\'', '"', '?':
		return append(out, c), 1
	case 'c':
		if style == escEcho {
			return out, -1
		}
		if style == escANSI && len(s) > 1 {
			return append(out, s[1]&0x1f), 2
		}
	case 'x':
		v, n := 0, 0
		for n < 2 && 1+n < len(s) && isHex(s[1+n]) {
			v = v*16 + hexVal(s[1+n])
			n++
		}
		if n > 0 {
			return append(out, byte(v)), 1 + n
		}
	case 'u', 'U':
		max := 4
		if c == 'U' {
			max = 8
		}
		v, n := 0, 0
		for n < max && 1+n < len(s) && isHex(s[1+n]) {
			v = v*16 + hexVal(s[1+n])
			n++
		}
		if n > 0 {
			if v > 0x10ffff {
				v = 0xfffd
			}
			return append(out, string(rune(v))...), 1 + n
		}
	default:
		if '0' <= c && c <= '7' {
			start, max := 0, 3
			if style == escEcho && c == '0' {
				start, max = 1, 4
			}
			v, n := 0, start
			for n < max && n < len(s) && '0' <= s[n] && s[n] <= '7' {
				v = v*8 + int(s[n]-'0')
				n++
			}
			return append(out, byte(v)), n
		}
	}
	return append(out, '\\', c), 1
}

func isHex(c byte) bool {
	return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func hexVal(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}
