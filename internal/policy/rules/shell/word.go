package shell

import (
	"fmt"
	"strconv"
	"strings"
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
	lexNormal  lexMode = iota // stop at metacharacters
	lexBrace                  // operand of ${x...}: stop at }
	lexHeredoc                // here-document body: no terminator, " is literal
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

// plainWord reads a word of plain bytes, the common case, if there is one.
func (p *parser) plainWord() (Word, bool) {
	s := p.src
	i := p.pos
	for i < len(s) && isPlain(s[i]) {
		i++
	}
	if i > p.pos && (i == len(s) || isDelim(s[i])) {
		start := p.pos
		p.pos = i
		return Word{Value: s[start:i]}, true
	}
	return Word{}, false
}

// words lexes one source word and appends the fields it expands to.
func (p *parser) words(dst []Word) ([]Word, error) {
	if w, ok := p.plainWord(); ok {
		return append(dst, w), nil
	}
	b := p.scratch()
	if err := p.lexWord(b, lexNormal); err != nil {
		return dst, err
	}
	return p.fields(b, dst)
}

// single lexes one word without brace expansion or field splitting, as in
// assignments, redirections and [[ ]]. It returns the number of source
// bytes read.
func (p *parser) single() (Word, int, error) {
	start := p.pos
	b := p.scratch()
	if err := p.lexWord(b, lexNormal); err != nil {
		return Word{}, 0, err
	}
	n := p.pos - start
	if !b.derived && !b.quoted && !b.opaque && len(b.val) == n {
		return Word{Value: p.src[start:p.pos], Glob: hasGlob(b), Vars: b.vars}, n, nil
	}
	return b.word(p.src, b.val, hasGlob(b)), n, nil
}

func hasGlob(b *wordBuf) bool {
	for i, m := range b.mask {
		if (m == mLit || m == mSplit) && (b.val[i] == '*' || b.val[i] == '?' || b.val[i] == '[') {
			return true
		}
	}
	return false
}

// lexWord reads one word into b.
func (p *parser) lexWord(b *wordBuf, mode lexMode) error {
	s := p.src
	for p.pos < len(s) {
		c := s[p.pos]
		switch c {
		case ' ', '\t', '\n', ';', '&', '|', ')', '(':
			if mode == lexNormal {
				return nil
			}
			p.literal(b, mode)
		case '<', '>':
			if p.peek(1) == '(' && mode != lexHeredoc {
				if err := p.procSubst(b); err != nil {
					return err
				}
				continue
			}
			if mode == lexNormal {
				return nil
			}
			p.literal(b, mode)
		case '}':
			if mode == lexBrace {
				return nil
			}
			p.literal(b, mode)
		case '\\':
			n := p.peek(1)
			switch {
			case p.pos+1 >= len(s):
				b.addByte('\\', mQuoted)
				p.pos++
			case n == '\n':
				p.pos += 2
			case mode == lexHeredoc && n != '$' && n != '`' && n != '\\':
				b.addByte('\\', mQuoted)
				p.pos++
			default:
				b.addSrc(s, p.pos+1, p.pos+2, mQuoted)
				b.quoted = true
				p.pos += 2
			}
		case '\'':
			if mode == lexHeredoc {
				p.literal(b, mode)
				continue
			}
			j := strings.IndexByte(s[p.pos+1:], '\'')
			if j < 0 {
				return p.malformed("unterminated single quote")
			}
			b.addSrc(s, p.pos+1, p.pos+1+j, mQuoted)
			b.quoted = true
			p.pos += j + 2
		case '"':
			if mode == lexHeredoc {
				p.literal(b, mode)
				continue
			}
			if err := p.dquote(b); err != nil {
				return err
			}
		case '`':
			if err := p.backtick(b, mode == lexHeredoc); err != nil {
				return err
			}
		case '$':
			if err := p.dollar(b, mode == lexHeredoc); err != nil {
				return err
			}
		default:
			p.literal(b, mode)
		}
	}
	return nil
}

// literal adds a run of literal bytes starting at the current position.
func (p *parser) literal(b *wordBuf, mode lexMode) {
	m := mLit
	if mode == lexHeredoc {
		m = mQuoted
	}
	s := p.src
	j := p.pos + 1
	for j < len(s) && isPlain(s[j]) {
		j++
	}
	b.addSrc(s, p.pos, j, m)
	p.pos = j
}

func (p *parser) dquote(b *wordBuf) error {
	s := p.src
	p.pos++
	b.quoted = true
	for {
		if p.pos >= len(s) {
			return p.malformed("unterminated double quote")
		}
		switch c := s[p.pos]; c {
		case '"':
			p.pos++
			return nil
		case '\\':
			switch n := p.peek(1); n {
			case '$', '`', '"', '\\':
				b.addSrc(s, p.pos+1, p.pos+2, mQuoted)
				p.pos += 2
			case '\n':
				p.pos += 2
			default:
				b.addByte('\\', mQuoted)
				p.pos++
			}
		case '$':
			if err := p.dollar(b, true); err != nil {
				return err
			}
		case '`':
			if err := p.backtick(b, true); err != nil {
				return err
			}
		default:
			j := p.pos + 1
			for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] != '$' && s[j] != '`' {
				j++
			}
			b.addSrc(s, p.pos, j, mQuoted)
			p.pos = j
		}
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

func (p *parser) dollar(b *wordBuf, quoted bool) error {
	s := p.src
	i := p.pos
	if i+1 >= len(s) {
		b.addByte('$', litMark(quoted))
		p.pos++
		return nil
	}
	switch c := s[i+1]; {
	case c == '\'' && !quoted:
		return p.ansiC(b)
	case c == '"' && !quoted:
		p.pos++
		return p.dquote(b)
	case c == '(':
		if i+2 < len(s) && s[i+2] == '(' {
			if end, ok := p.arithEnd(i + 3); ok {
				if err := p.arithBody(i+3, end); err != nil {
					return err
				}
				p.pos = end + 2
				p.opaque(b, s[i:p.pos])
				return nil
			}
		}
		return p.cmdSubst(b, quoted)
	case c == '{':
		return p.braceParam(b, quoted)
	case isNameStart(c):
		j := i + 2
		for j < len(s) && isNameChar(s[j]) {
			j++
		}
		p.pos = j
		return p.param(b, s[i+1:j], s[i:j], quoted)
	case isDigit(c) || strings.IndexByte("@*#?$!-", c) >= 0:
		p.pos = i + 2
		return p.param(b, s[i+1:i+2], s[i:i+2], quoted)
	}
	b.addByte('$', litMark(quoted))
	p.pos++
	return nil
}

func litMark(quoted bool) byte {
	if quoted {
		return mQuoted
	}
	return mLit
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

// braceParam handles ${...}.
func (p *parser) braceParam(b *wordBuf, quoted bool) error {
	s := p.src
	start := p.pos
	i := p.pos + 2
	length, indirect := false, false
	if i < len(s) && s[i] == '#' && i+1 < len(s) && s[i+1] != '}' {
		length = true
		i++
	} else if i < len(s) && s[i] == '!' && i+1 < len(s) && s[i+1] != '}' {
		indirect = true
		i++
	}
	j := i
	switch {
	case j < len(s) && isNameStart(s[j]):
		for j < len(s) && isNameChar(s[j]) {
			j++
		}
	case j < len(s) && isDigit(s[j]):
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	case j < len(s) && strings.IndexByte("@*#?$!-", s[j]) >= 0:
		j++
	default:
		p.pos = j
		return p.malformed("bad substitution")
	}
	name := s[i:j]
	subscript := false
	if j < len(s) && s[j] == '[' {
		k := strings.IndexByte(s[j:], ']')
		if k < 0 {
			p.pos = j
			return p.malformed("bad substitution")
		}
		j += k + 1
		subscript = true
	}
	p.pos = j
	op := ""
	var operand wordBuf
	if p.pos >= len(s) {
		return p.malformed("unterminated ${")
	}
	if s[p.pos] != '}' {
		for _, o := range [...]string{":-", ":=", ":?", ":+", "##", "%%", "//", "/#", "/%", "^^", ",,", "-", "=", "?", "+", "#", "%", "/", "^", ",", ":", "@"} {
			if p.hasPrefix(o) {
				op = o
				break
			}
		}
		if op == "" {
			return p.malformed("bad substitution")
		}
		p.pos += len(op)
		if err := p.lexWord(&operand, lexBrace); err != nil {
			return err
		}
		if p.pos >= len(s) {
			return p.malformed("unterminated ${")
		}
	}
	p.pos++ // }
	raw := s[start:p.pos]
	b.vars = append(b.vars, name)
	v, known := p.lookup(name)
	if name == "HOME" && op != "" && v == "~" {
		v = "/home/user"
	}
	if subscript {
		known = false
		if all := s[j-3 : j]; (all == "[@]" || all == "[*]") && op == "" {
			v, known = p.lookup(name)
			quoted = false
		}
	}
	if known && indirect {
		v, known = p.lookup(v)
	} else if indirect {
		known = false
	}
	arg := string(operand.val)
	useOperand := func() error {
		b.opaque = b.opaque || operand.opaque
		b.subst = b.subst || operand.subst
		b.vars = append(b.vars, operand.vars...)
		return p.expand(b, arg, quoted)
	}
	if length {
		if !known || op != "" {
			p.opaque(b, raw)
			return nil
		}
		return p.expand(b, strconv.Itoa(len(v)), quoted)
	}
	switch op {
	case "":
		if known {
			return p.expand(b, v, quoted)
		}
	case ":-", ":=":
		if known && v != "" {
			return p.expand(b, v, quoted)
		}
		if op == ":=" && !operand.opaque {
			p.setVar(name, arg)
		}
		if !known {
			b.opaque = true
		}
		return useOperand()
	case "-", "=":
		if known {
			return p.expand(b, v, quoted)
		}
		if op == "=" && !operand.opaque {
			p.setVar(name, arg)
		}
		b.opaque = true
		return useOperand()
	case ":?", "?":
		if known && v != "" {
			return p.expand(b, v, quoted)
		}
	case ":+", "+":
		if known {
			if v == "" && op == ":+" {
				return nil
			}
			return useOperand()
		}
	case "#", "##", "%", "%%":
		if known && !operand.opaque {
			if r, ok := trim(v, arg, op); ok {
				return p.expand(b, r, quoted)
			}
		}
	case "/", "//", "/#", "/%":
		if known && !operand.opaque {
			if r, ok := replace(v, arg, op); ok {
				return p.expand(b, r, quoted)
			}
		}
	case "^^":
		if known {
			return p.expand(b, strings.ToUpper(v), quoted)
		}
	case ",,":
		if known {
			return p.expand(b, strings.ToLower(v), quoted)
		}
	case "^", ",":
		if known {
			if v != "" {
				f := v[:1]
				if op == "^" {
					f = strings.ToUpper(f)
				} else {
					f = strings.ToLower(f)
				}
				v = f + v[1:]
			}
			return p.expand(b, v, quoted)
		}
	case ":":
		if known && !operand.opaque {
			if r, ok := substring(v, arg); ok {
				return p.expand(b, r, quoted)
			}
		}
	}
	p.opaque(b, raw)
	return nil
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

// nested parses a list inside $( ) or <( ), ending at ")".
func (p *parser) nested() (*Script, error) {
	if p.depth+1 > MaxDepth {
		return nil, errTooDeep()
	}
	p.depth++
	sub := p.newScript()
	script, subs, pipe, place := p.script, p.subs, p.pipe, p.place
	p.script, p.subs = sub, nil
	err := p.list()
	p.script, p.subs, p.pipe, p.place = script, subs, pipe, place
	p.depth--
	if err != nil {
		return nil, err
	}
	if p.pos >= len(p.src) || p.src[p.pos] != ')' {
		return nil, p.malformed("unterminated substitution")
	}
	p.pos++
	return sub, nil
}

func (p *parser) cmdSubst(b *wordBuf, quoted bool) error {
	start := p.pos
	p.pos += 2
	sub, err := p.nested()
	if err != nil {
		return err
	}
	return p.substituted(b, sub, p.src[start:p.pos], quoted)
}

func (p *parser) procSubst(b *wordBuf) error {
	start := p.pos
	p.pos += 2
	sub, err := p.nested()
	if err != nil {
		return err
	}
	p.subs = append(p.subs, sub)
	p.opaque(b, p.src[start:p.pos])
	b.subst = true
	return nil
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

func (p *parser) backtick(b *wordBuf, quoted bool) error {
	s := p.src
	start := p.pos
	i := p.pos + 1
	var esc []byte
	plain := true
	for i < len(s) && s[i] != '`' {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			n := s[i+1]
			if n == '\\' || n == '`' || n == '$' || (quoted && n == '"') {
				if plain {
					esc = append(esc, s[start+1:i]...)
					plain = false
				}
				esc = append(esc, n)
				i += 2
				continue
			}
		}
		if !plain {
			esc = append(esc, c)
		}
		i++
	}
	if i >= len(s) {
		return p.malformed("unterminated backquote")
	}
	content := s[start+1 : i]
	if !plain {
		content = string(esc)
	}
	p.pos = i + 1
	if p.depth+1 > MaxDepth {
		return errTooDeep()
	}
	if err := p.st.charge(len(content)); err != nil {
		return err
	}
	child := parser{src: content, depth: p.depth + 1, st: p.st, vars: p.vars}
	sub := child.newScript()
	child.script = sub
	if err := child.top(); err != nil {
		return err
	}
	return p.substituted(b, sub, s[start:p.pos], quoted)
}

func (p *parser) ansiC(b *wordBuf) error {
	s := p.src
	i := p.pos + 2
	var out []byte
	for {
		if i >= len(s) {
			return p.malformed("unterminated $'")
		}
		c := s[i]
		if c == '\'' {
			break
		}
		if c != '\\' || i+1 >= len(s) {
			out = append(out, c)
			i++
			continue
		}
		var n int
		out, n = unescapeOne(out, s[i+1:], escANSI)
		i += 1 + n
	}
	p.pos = i + 1
	b.add(string(out), mQuoted)
	b.quoted, b.derived = true, true
	return nil
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
