package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// Why a parser of its own rather than mvdan.cc/sh/v3/syntax, the
// maintained Go shell parser. Measured on the same machine (2 cores,
// go test -bench), mvdan's Parse alone, with a reused parser and before
// any expansion, takes 2.0–2.7 µs and 9–16 allocations for one-line
// commands such as `git status` or `cat README.md | head -n 20`, where
// Analyze as a whole (parse, expansion and every check) takes 0.25–0.5 µs
// and no allocation: switching would cost 5–10 times the latency of the
// common case, against a budget of 20 %. mvdan's parser also builds a
// syntax tree without values: the expansions this package computes under
// one work budget (literal assignments, brace expansion, ANSI-C strings,
// $IFS, foldable substitutions), and its fail-closed limits on length,
// depth and work, would have to be rebuilt over that tree anyway, and
// the corpus (shell_test.go) and fuzz tests would then have to be made to
// pass again against a second parser. FuzzAnalyze and FuzzFastParse guard
// this one instead.

// budget is the number of bytes of parsing and expansion one Analyze or
// Parse call may do, nested scripts included.
const budget = 16 * MaxLen

// maxNest bounds the nesting of groups and compound commands, which do not
// count toward MaxDepth.
const maxNest = 64

// state is shared by every parser and analysis step of one call.
type state struct {
	budget int
}

// charge spends n bytes of the budget.
func (st *state) charge(n int) error {
	st.budget -= n
	if st.budget < 0 {
		return fmt.Errorf("%w: expansion exceeds the work budget", ErrTooLong)
	}
	return nil
}

// parser is a recursive-descent parser over one source text.
type parser struct {
	src    string
	pos    int
	depth  int
	nest   int
	st     *state
	vars   map[string]string      // parameters with a known value
	script *Script                // script receiving commands
	subs   []*Script              // substitutions of the command being read
	docs   []heredoc              // here-documents waiting for the next newline
	pipe   int                    // pipeline number for new commands
	place  int                    // position in the pipeline for new commands
	arena  []Word                 // backing store for Command.Args
	spill  []Word                 // reused buffer for the fields of one word
	bufs   [MaxDepth + 1]*wordBuf // scratch per depth, allocated on first use
}

// scriptAlloc allocates a script with room for a short command.
type scriptAlloc struct {
	s    Script
	cmds [1]Command
	args [4]Word
}

// rootAlloc is the one allocation Parse needs for a short command line: its
// script, the parser's scratch space and the work budget. (Analyze uses a
// scratch from a pool instead.)
type rootAlloc struct {
	s     Script
	cmds  [1]Command
	words [8]Word
	spill [1]Word
	buf   wordBuf
	st    state
}

// parseMem is the storage parseInto starts with.
type parseMem struct {
	s     *Script
	cmds  []Command
	words []Word
	spill []Word
	buf   *wordBuf
}

func (r *rootAlloc) mem() parseMem {
	return parseMem{s: &r.s, cmds: r.cmds[:0], words: r.words[:0], spill: r.spill[:0], buf: &r.buf}
}

func (p *parser) newScript() *Script {
	al := new(scriptAlloc)
	al.s.depth = p.depth
	al.s.Commands = al.cmds[:0]
	if cap(p.arena)-len(p.arena) < len(al.args) {
		p.arena = al.args[:0]
	}
	return &al.s
}

// keep copies words to the arena.
func (p *parser) keep(words []Word) []Word {
	n := len(words)
	if n == 0 {
		return nil
	}
	if cap(p.arena)-len(p.arena) < n {
		p.arena = make([]Word, 0, max(n, 16))
	}
	start := len(p.arena)
	p.arena = append(p.arena, words...)
	return p.arena[start : start+n : start+n]
}

type heredoc struct {
	script *Script
	cmd    int
	redir  int
	delim  string
	strip  bool
	quoted bool
}

func parse(src string, depth int, st *state, vars map[string]string) (*Script, error) {
	top := new(scriptAlloc)
	return parseInto(parseMem{s: &top.s, cmds: top.cmds[:0], words: top.args[:0]}, src, depth, st, vars)
}

// parseInto parses src into the script of top.
func parseInto(mem parseMem, src string, depth int, st *state, vars map[string]string) (*Script, error) {
	if depth > MaxDepth {
		return nil, errTooDeep()
	}
	if err := st.charge(len(src)); err != nil {
		return nil, err
	}
	p := parser{src: src, depth: depth, st: st, vars: vars, arena: mem.words, spill: mem.spill}
	s := mem.s
	s.depth = depth
	s.Commands = mem.cmds
	p.script = s
	p.bufs[depth] = mem.buf
	// Size the arenas from the number of separators, so that a command
	// line of a few hundred bytes needs at most two more allocations.
	words := 1 + strings.Count(src, " ") + strings.Count(src, "\t")
	cmds := 1 + strings.Count(src, "|") + strings.Count(src, ";") + strings.Count(src, "&") + strings.Count(src, "\n")
	if words > cap(mem.words) {
		p.arena = make([]Word, 0, min(words, 256))
	}
	if cmds > cap(mem.cmds) {
		s.Commands = make([]Command, 0, min(cmds, 64))
	}
	if err := p.top(); err != nil {
		return nil, err
	}
	return s, nil
}

// top parses a whole source text.
func (p *parser) top() error {
	if err := p.list(); err != nil {
		return err
	}
	if p.pos < len(p.src) {
		return p.malformed("unexpected token")
	}
	return p.readHeredocs()
}

func errTooDeep() error {
	return fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth)
}

func (p *parser) malformed(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrMalformed, what, p.pos)
}

func (p *parser) peek(n int) byte {
	if p.pos+n < len(p.src) {
		return p.src[p.pos+n]
	}
	return 0
}

func (p *parser) hasPrefix(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

// skipBlanks skips blanks, line continuations and comments, not newlines.
func (p *parser) skipBlanks() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t':
			p.pos++
		case '\\':
			if p.peek(1) != '\n' {
				return
			}
			p.pos += 2
		case '#':
			i := strings.IndexByte(p.src[p.pos:], '\n')
			if i < 0 {
				p.pos = len(p.src)
			} else {
				p.pos += i
			}
		default:
			return
		}
	}
}

// linebreak skips blanks and newlines, reading pending here-documents.
func (p *parser) linebreak() error {
	for {
		p.skipBlanks()
		if p.pos >= len(p.src) || p.src[p.pos] != '\n' {
			return nil
		}
		p.pos++
		if err := p.readHeredocs(); err != nil {
			return err
		}
	}
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

// reserved returns the reserved word at the current position, or "".
func (p *parser) reserved() string {
	if p.pos >= len(p.src) {
		return ""
	}
	var cands []string
	switch p.src[p.pos] {
	case '{':
		cands = []string{"{"}
	case '}':
		cands = []string{"}"}
	case '!':
		cands = []string{"!"}
	case '[':
		cands = []string{"[["}
	case 'i':
		cands = []string{"if", "in"}
	case 't':
		cands = []string{"then", "time"}
	case 'e':
		cands = []string{"elif", "else", "esac"}
	case 'f':
		cands = []string{"fi", "for", "function"}
	case 'd':
		cands = []string{"do", "done"}
	case 'w':
		cands = []string{"while"}
	case 'u':
		cands = []string{"until"}
	case 'c':
		cands = []string{"case"}
	case 's':
		cands = []string{"select"}
	default:
		return ""
	}
	rest := p.src[p.pos:]
	for _, w := range cands {
		if strings.HasPrefix(rest, w) && (len(rest) == len(w) || isDelim(rest[len(w)])) {
			return w
		}
	}
	return ""
}

func (p *parser) expect(word string) error {
	if p.reserved() != word {
		return p.malformed("missing " + word)
	}
	p.pos += len(word)
	return nil
}

// atListEnd reports a token that ends a command list.
func (p *parser) atListEnd() bool {
	c := p.src[p.pos]
	if c == ')' {
		return true
	}
	if c == ';' && (p.peek(1) == ';' || p.peek(1) == '&') {
		return true
	}
	switch p.reserved() {
	case "}", "then", "elif", "else", "fi", "do", "done", "esac":
		return true
	}
	return false
}

// list parses commands up to the end of input or a token that ends a list,
// which it leaves for the caller.
func (p *parser) list() error {
	for {
		if err := p.linebreak(); err != nil {
			return err
		}
		if p.pos >= len(p.src) || p.atListEnd() {
			return nil
		}
		start := len(p.script.Commands)
		if err := p.andOr(); err != nil {
			return err
		}
		p.skipBlanks()
		if p.pos >= len(p.src) {
			return nil
		}
		switch p.src[p.pos] {
		case '&':
			p.pos++
			for i := start; i < len(p.script.Commands); i++ {
				p.script.Commands[i].Background = true
			}
		case ';':
			if p.peek(1) == ';' || p.peek(1) == '&' {
				return nil
			}
			p.pos++
		case '\n':
		default:
			return nil
		}
	}
}

func (p *parser) andOr() error {
	for {
		if err := p.pipeline(); err != nil {
			return err
		}
		p.skipBlanks()
		if !p.hasPrefix("&&") && !p.hasPrefix("||") {
			return nil
		}
		p.pos += 2
		if err := p.linebreak(); err != nil {
			return err
		}
	}
}

func (p *parser) pipeline() error {
	for {
		p.skipBlanks()
		switch p.reserved() {
		case "!":
			p.pos++
			continue
		case "time":
			p.pos += 4
			p.skipBlanks()
			if p.hasPrefix("-p") && (p.pos+2 == len(p.src) || isDelim(p.src[p.pos+2])) {
				p.pos += 2
			}
			continue
		}
		break
	}
	id := p.script.pipes
	p.script.pipes++
	for i := 0; ; i++ {
		start := len(p.script.Commands)
		pipe, place := p.pipe, p.place
		p.pipe, p.place = id, i
		err := p.command()
		p.pipe, p.place = pipe, place
		if err != nil {
			return err
		}
		if i > 0 {
			for j := start; j < len(p.script.Commands); j++ {
				p.script.Commands[j].Piped = true
			}
		}
		p.skipBlanks()
		if p.hasPrefix("||") || !p.hasPrefix("|") {
			return nil
		}
		p.pos++
		if p.peek(0) == '&' {
			p.pos++
		}
		if err := p.linebreak(); err != nil {
			return err
		}
	}
}

func (p *parser) enter() error {
	p.nest++
	if p.nest > maxNest {
		return errTooDeep()
	}
	return nil
}

func (p *parser) command() error {
	p.skipBlanks()
	if p.pos >= len(p.src) {
		return p.malformed("missing command")
	}
	if err := p.enter(); err != nil {
		return err
	}
	err := p.compound()
	p.nest--
	return err
}

// compound parses the command at the current position: a compound command,
// a function definition or a simple command.
func (p *parser) compound() error {
	switch w := p.reserved(); w {
	case "{":
		p.pos++
		if err := p.list(); err != nil {
			return err
		}
		if err := p.expect("}"); err != nil {
			return err
		}
		return p.trailingRedirects()
	case "if":
		return p.ifClause()
	case "while", "until":
		p.pos += len(w)
		if err := p.list(); err != nil {
			return err
		}
		return p.doGroup()
	case "for", "select":
		return p.forClause(w)
	case "case":
		return p.caseClause()
	case "function":
		p.pos += len(w)
		p.skipBlanks()
		start := p.pos
		for p.pos < len(p.src) && !isDelim(p.src[p.pos]) {
			p.pos++
		}
		name := p.src[start:p.pos]
		if name == "" {
			return p.malformed("missing function name")
		}
		p.skipBlanks()
		if p.hasPrefix("(") {
			p.pos++
			p.skipBlanks()
			if !p.hasPrefix(")") {
				return p.malformed("bad function definition")
			}
			p.pos++
		}
		return p.funcBody(name)
	case "[[":
		return p.cond()
	case "}", "then", "elif", "else", "fi", "do", "done", "esac", "in":
		if w != "in" {
			return p.malformed("unexpected " + w)
		}
	}
	if p.src[p.pos] == '(' {
		if p.hasPrefix("((") {
			if ok, err := p.arithCommand(); ok || err != nil {
				return err
			}
		}
		return p.subshell()
	}
	return p.simple()
}

func (p *parser) subshell() error {
	if p.depth+1 > MaxDepth {
		return errTooDeep()
	}
	p.depth++
	p.pos++
	if err := p.list(); err != nil {
		return err
	}
	if !p.hasPrefix(")") {
		return p.malformed("unbalanced (")
	}
	p.pos++
	p.depth--
	return p.trailingRedirects()
}

func (p *parser) ifClause() error {
	p.pos += 2
	for {
		if err := p.list(); err != nil {
			return err
		}
		if err := p.expect("then"); err != nil {
			return err
		}
		if err := p.list(); err != nil {
			return err
		}
		switch p.reserved() {
		case "elif":
			p.pos += 4
			continue
		case "else":
			p.pos += 4
			if err := p.list(); err != nil {
				return err
			}
		}
		if err := p.expect("fi"); err != nil {
			return err
		}
		return p.trailingRedirects()
	}
}

// doGroup parses "do list done", or a { } group as bash allows after for.
func (p *parser) doGroup() error {
	if err := p.linebreak(); err != nil {
		return err
	}
	if p.reserved() == "{" {
		p.pos++
		if err := p.list(); err != nil {
			return err
		}
		if err := p.expect("}"); err != nil {
			return err
		}
		return p.trailingRedirects()
	}
	if err := p.expect("do"); err != nil {
		return err
	}
	if err := p.list(); err != nil {
		return err
	}
	if err := p.expect("done"); err != nil {
		return err
	}
	return p.trailingRedirects()
}

func (p *parser) forClause(kw string) error {
	p.pos += len(kw)
	p.skipBlanks()
	if kw == "for" && p.hasPrefix("((") {
		end, ok := p.arithEnd(p.pos + 2)
		if !ok {
			return p.malformed("unterminated ((")
		}
		if err := p.arithBody(p.pos+2, end); err != nil {
			return err
		}
		p.pos = end + 2
		p.moveSubs()
		p.skipBlanks()
		if p.hasPrefix(";") {
			p.pos++
		}
		return p.doGroup()
	}
	start := p.pos
	for p.pos < len(p.src) && isNameChar(p.src[p.pos]) {
		p.pos++
	}
	name := p.src[start:p.pos]
	if name == "" || !isNameStart(name[0]) {
		return p.malformed("bad for variable")
	}
	p.skipBlanks()
	if p.hasPrefix(";") {
		p.pos++
		return p.doGroup()
	}
	if err := p.linebreak(); err != nil {
		return err
	}
	if p.reserved() == "in" {
		p.pos += 2
		var words []Word
		for {
			p.skipBlanks()
			if p.pos >= len(p.src) {
				return p.malformed("unterminated for")
			}
			c := p.src[p.pos]
			if c == ';' || c == '\n' {
				p.pos++
				break
			}
			if isDelim(c) {
				return p.malformed("unexpected token in for list")
			}
			var err error
			if words, err = p.words(words); err != nil {
				return err
			}
		}
		p.moveSubs()
		if len(words) == 1 && !words[0].Opaque {
			p.setVar(name, words[0].Value)
		} else {
			p.unsetVar(name)
		}
	}
	return p.doGroup()
}

func (p *parser) caseClause() error {
	p.pos += 4
	p.skipBlanks()
	var subject []Word
	var err error
	if subject, err = p.words(subject); err != nil {
		return err
	}
	p.moveSubs()
	if err := p.linebreak(); err != nil {
		return err
	}
	if err := p.expect("in"); err != nil {
		return err
	}
	for {
		if err := p.linebreak(); err != nil {
			return err
		}
		if p.pos >= len(p.src) {
			return p.malformed("unterminated case")
		}
		if p.reserved() == "esac" {
			p.pos += 4
			return p.trailingRedirects()
		}
		if p.src[p.pos] == '(' {
			p.pos++
		}
		var pats []Word
		for {
			p.skipBlanks()
			if p.pos >= len(p.src) {
				return p.malformed("unterminated case pattern")
			}
			switch p.src[p.pos] {
			case '|':
				p.pos++
				continue
			case ')':
				p.pos++
			default:
				before := p.pos
				var err error
				if pats, err = p.words(pats); err != nil {
					return err
				}
				if p.pos == before {
					return p.malformed("bad case pattern")
				}
				continue
			}
			break
		}
		p.moveSubs()
		if err := p.list(); err != nil {
			return err
		}
		p.skipBlanks()
		switch {
		case p.hasPrefix(";;&"):
			p.pos += 3
		case p.hasPrefix(";;"), p.hasPrefix(";&"):
			p.pos += 2
		case p.reserved() == "esac":
		default:
			return p.malformed("unterminated case item")
		}
	}
}

// funcBody parses the compound command of a function definition.
func (p *parser) funcBody(name string) error {
	if err := p.linebreak(); err != nil {
		return err
	}
	if p.pos >= len(p.src) {
		return p.malformed("missing function body")
	}
	switch p.reserved() {
	case "{", "if", "while", "until", "for", "select", "case", "[[":
	default:
		if p.src[p.pos] != '(' {
			return p.malformed("bad function body")
		}
	}
	body := p.newScript()
	saved, pipe, place := p.script, p.pipe, p.place
	p.script = body
	err := p.command()
	p.script, p.pipe, p.place = saved, pipe, place
	if err != nil {
		return err
	}
	p.script.Funcs = append(p.script.Funcs, Func{Name: name, Body: body})
	return nil
}

// cond parses [[ ... ]] into a command with the words as Args.
func (p *parser) cond() error {
	p.pos += 2
	cmd := Command{Pipeline: p.pipe, Position: p.place}
	cmd.Args = append(cmd.Args, Word{Value: "[["})
	saved := p.subs
	p.subs = nil
	for {
		if err := p.linebreak(); err != nil {
			return err
		}
		if p.pos >= len(p.src) {
			return p.malformed("unterminated [[")
		}
		if p.hasPrefix("]]") && (p.pos+2 == len(p.src) || isDelim(p.src[p.pos+2])) {
			p.pos += 2
			break
		}
		switch c := p.src[p.pos]; {
		case p.hasPrefix("&&"), p.hasPrefix("||"):
			cmd.Args = append(cmd.Args, Word{Value: p.src[p.pos : p.pos+2]})
			p.pos += 2
		case (c == '<' || c == '>') && p.peek(1) == '(':
			if err := p.oneWord(&cmd.Args); err != nil {
				return err
			}
		case isDelim(c):
			cmd.Args = append(cmd.Args, Word{Value: p.src[p.pos : p.pos+1]})
			p.pos++
		default:
			if err := p.oneWord(&cmd.Args); err != nil {
				return err
			}
		}
	}
	cmd.Args = append(cmd.Args, Word{Value: "]]"})
	cmd.Subs = p.subs
	p.subs = saved
	p.addCommand(cmd, len(p.docs))
	return p.trailingRedirects()
}

// oneWord appends one unsplit word, as in [[ ]].
func (p *parser) oneWord(dst *[]Word) error {
	w, n, err := p.single()
	if err != nil {
		return err
	}
	if n == 0 {
		return p.malformed("unexpected token")
	}
	*dst = append(*dst, w)
	return nil
}

// arithCommand parses (( ... )) if the parens close as arithmetic.
func (p *parser) arithCommand() (bool, error) {
	end, ok := p.arithEnd(p.pos + 2)
	if !ok {
		return false, nil
	}
	saved := p.subs
	p.subs = nil
	if err := p.arithBody(p.pos+2, end); err != nil {
		return true, err
	}
	expr := p.src[p.pos+2 : end]
	p.pos = end + 2
	cmd := Command{Pipeline: p.pipe, Position: p.place, Subs: p.subs}
	p.subs = saved
	cmd.Args = []Word{{Value: "(("}, {Value: expr, Opaque: true}}
	p.addCommand(cmd, len(p.docs))
	return true, p.trailingRedirects()
}

// arithEnd returns the index of the "))" closing arithmetic that starts at
// i, just after "((" or "$((". It reports false if the first unmatched ")"
// is not followed by another.
func (p *parser) arithEnd(i int) (int, bool) {
	depth := 0
	for ; i < len(p.src); i++ {
		switch p.src[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				if i+1 < len(p.src) && p.src[i+1] == ')' {
					return i, true
				}
				return 0, false
			}
			depth--
		case '\'':
			j := strings.IndexByte(p.src[i+1:], '\'')
			if j < 0 {
				return 0, false
			}
			i += j + 1
		case '\\':
			i++
		}
	}
	return 0, false
}

// arithBody parses the command substitutions inside arithmetic src[i:end].
func (p *parser) arithBody(i, end int) error {
	saved := p.pos
	p.pos = i
	var tmp wordBuf
	for p.pos < end {
		switch {
		case p.hasPrefix("$(") && !p.hasPrefix("$(("):
			if err := p.cmdSubst(&tmp, false); err != nil {
				return err
			}
		case p.src[p.pos] == '`':
			if err := p.backtick(&tmp, false); err != nil {
				return err
			}
		default:
			p.pos++
		}
	}
	if p.pos > end {
		return p.malformed("bad arithmetic")
	}
	p.pos = saved
	return nil
}

// moveSubs moves pending substitutions to the script, for words that are not
// part of a simple command.
func (p *parser) moveSubs() {
	p.script.Subs = append(p.script.Subs, p.subs...)
	p.subs = nil
}

// trailingRedirects parses redirections after a compound command into a
// command without Args.
func (p *parser) trailingRedirects() error {
	cmd := Command{Pipeline: p.pipe, Position: p.place}
	docs := len(p.docs)
	saved := p.subs
	p.subs = nil
	for {
		p.skipBlanks()
		ok, err := p.redirect(&cmd)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	cmd.Subs = p.subs
	p.subs = saved
	if len(cmd.Redirects) > 0 {
		p.addCommand(cmd, docs)
	}
	return nil
}

// addCommand appends cmd and points here-documents registered since docs at
// it, but for those of commands inside it ($(cat <<EOF)), which have theirs.
func (p *parser) addCommand(cmd Command, docs int) {
	idx := len(p.script.Commands)
	p.script.Commands = append(p.script.Commands, cmd)
	for i := docs; i < len(p.docs); i++ {
		if p.docs[i].cmd < 0 {
			p.docs[i].script = p.script
			p.docs[i].cmd = idx
		}
	}
}

func (p *parser) simple() error {
	cmd := Command{Pipeline: p.pipe, Position: p.place}
	docs := len(p.docs)
	saved := p.subs
	p.subs = nil
	var local [8]Word
	args := local[:0]
	for {
		p.skipBlanks()
		if p.pos >= len(p.src) {
			break
		}
		ok, err := p.redirect(&cmd)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		c := p.src[p.pos]
		if c == ';' || c == '&' || c == '|' || c == ')' || c == '\n' {
			break
		}
		if c == '(' {
			if len(args) == 1 && len(cmd.Assigns) == 0 && len(cmd.Redirects) == 0 && !args[0].Opaque {
				p.pos++
				p.skipBlanks()
				if !p.hasPrefix(")") {
					return p.malformed("bad function definition")
				}
				p.pos++
				p.subs = saved
				return p.funcBody(args[0].Value)
			}
			return p.malformed("unexpected (")
		}
		if len(args) == 0 {
			ok, err := p.assignment(&cmd)
			if err != nil {
				return err
			}
			if ok {
				continue
			}
		}
		if w, ok := p.plainWord(); ok {
			args = append(args, w)
			continue
		}
		before := p.pos
		more, err := p.words(p.spill[:0])
		if err != nil {
			return err
		}
		if p.pos == before {
			return p.malformed("unexpected token")
		}
		args = append(args, more...)
		p.spill = more[:0]
	}
	cmd.Args = p.keep(args)
	if len(cmd.Args) == 0 && len(cmd.Assigns) == 0 && len(cmd.Redirects) == 0 {
		return p.malformed("missing command")
	}
	cmd.Subs = p.subs
	p.subs = saved
	if len(cmd.Args) == 0 {
		for _, a := range cmd.Assigns {
			if a.Value.Opaque {
				p.unsetVar(a.Name)
			} else {
				p.setVar(a.Name, a.Value.Value)
			}
		}
	} else {
		switch cmd.Args[0].Value {
		case "export", "declare", "typeset", "local", "readonly":
			for _, w := range cmd.Args[1:] {
				if i := strings.IndexByte(w.Value, '='); i > 0 && validName(w.Value[:i]) {
					if w.Opaque {
						p.unsetVar(w.Value[:i])
					} else {
						p.setVar(w.Value[:i], w.Value[i+1:])
					}
				}
			}
		}
	}
	p.addCommand(cmd, docs)
	return nil
}

func (p *parser) setVar(name, value string) {
	if p.vars == nil {
		p.vars = make(map[string]string)
	}
	p.vars[name] = value
}

func (p *parser) unsetVar(name string) {
	if p.vars != nil {
		delete(p.vars, name)
	}
}

func isNameStart(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

func isNameChar(c byte) bool { return isNameStart(c) || isDigit(c) }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func validName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	return true
}

// assignment parses NAME=value, NAME+=value, NAME[i]=value or NAME=(a b).
func (p *parser) assignment(cmd *Command) (bool, error) {
	s := p.src
	i := p.pos
	if !isNameStart(s[i]) {
		return false, nil
	}
	j := i + 1
	for j < len(s) && isNameChar(s[j]) {
		j++
	}
	name := s[i:j]
	if j < len(s) && s[j] == '[' {
		k := strings.IndexByte(s[j:], ']')
		if k < 0 {
			return false, nil
		}
		j += k + 1
	}
	if j < len(s) && s[j] == '+' {
		j++
	}
	if j >= len(s) || s[j] != '=' {
		return false, nil
	}
	p.pos = j + 1
	if p.peek(0) == '(' {
		p.pos++
		var words []Word
		for {
			if err := p.linebreak(); err != nil {
				return true, err
			}
			if p.pos >= len(p.src) {
				return true, p.malformed("unterminated array")
			}
			if p.src[p.pos] == ')' {
				p.pos++
				break
			}
			before := p.pos
			var err error
			if words, err = p.words(words); err != nil {
				return true, err
			}
			if p.pos == before {
				return true, p.malformed("bad array")
			}
		}
		v := Word{}
		parts := make([]string, len(words))
		for k, w := range words {
			parts[k] = w.Value
			v.Opaque = v.Opaque || w.Opaque
			v.Subst = v.Subst || w.Subst
			v.Vars = append(v.Vars, w.Vars...)
		}
		v.Value = strings.Join(parts, " ")
		cmd.Assigns = append(cmd.Assigns, Assign{Name: name, Value: v})
		return true, nil
	}
	w, _, err := p.single()
	if err != nil {
		return true, err
	}
	cmd.Assigns = append(cmd.Assigns, Assign{Name: name, Value: w})
	return true, nil
}

// redirect parses a redirection at the current position, if there is one.
func (p *parser) redirect(cmd *Command) (bool, error) {
	s := p.src
	i := p.pos
	fd := -1
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j > i {
		if j >= len(s) || (s[j] != '<' && s[j] != '>') {
			return false, nil
		}
		n, err := strconv.Atoi(s[i:j])
		if err != nil || n > 1<<20 {
			n = 1 << 20
		}
		fd = n
		i = j
	}
	if i == len(s) || s[i] != '<' && s[i] != '>' && s[i] != '&' {
		return false, nil // every operator starts with one of these
	}
	rest := s[i:]
	var op string
	switch {
	case strings.HasPrefix(rest, "&>>") && fd < 0:
		op = "&>>"
	case strings.HasPrefix(rest, "&>") && fd < 0:
		op = "&>"
	case strings.HasPrefix(rest, "<<<"):
		op = "<<<"
	case strings.HasPrefix(rest, "<<-"):
		op = "<<-"
	case strings.HasPrefix(rest, "<<"):
		op = "<<"
	case strings.HasPrefix(rest, "<>"):
		op = "<>"
	case strings.HasPrefix(rest, "<&"):
		op = "<&"
	case strings.HasPrefix(rest, "<("), strings.HasPrefix(rest, ">("):
		if fd >= 0 {
			return false, p.malformed("bad redirection")
		}
		return false, nil
	case strings.HasPrefix(rest, "<"):
		op = "<"
	case strings.HasPrefix(rest, ">>"):
		op = ">>"
	case strings.HasPrefix(rest, ">|"):
		op = ">|"
	case strings.HasPrefix(rest, ">&"):
		op = ">&"
	case strings.HasPrefix(rest, ">"):
		op = ">"
	default:
		return false, nil
	}
	p.pos = i + len(op)
	p.skipBlanks()
	if op == "<<" || op == "<<-" {
		b := &wordBuf{}
		start := p.pos
		if err := p.lexWord(b, lexNormal); err != nil {
			return true, err
		}
		if p.pos == start {
			return true, p.malformed("missing here-document delimiter")
		}
		cmd.Redirects = append(cmd.Redirects, Redirect{Fd: fd, Op: op})
		p.docs = append(p.docs, heredoc{
			script: p.script,
			cmd:    -1,
			redir:  len(cmd.Redirects) - 1,
			delim:  string(b.val),
			strip:  op == "<<-",
			quoted: b.quoted,
		})
		return true, nil
	}
	w, n, err := p.single()
	if err != nil {
		return true, err
	}
	if n == 0 {
		return true, p.malformed("missing redirection target")
	}
	cmd.Redirects = append(cmd.Redirects, Redirect{Fd: fd, Op: op, Target: w})
	return true, nil
}

// readHeredocs reads the bodies of pending here-documents, which start at the
// current position (just after a newline).
func (p *parser) readHeredocs() error {
	for k := range p.docs {
		d := p.docs[k]
		start := p.pos
		end := -1
		for p.pos < len(p.src) {
			lineEnd := len(p.src)
			if e := strings.IndexByte(p.src[p.pos:], '\n'); e >= 0 {
				lineEnd = p.pos + e
			}
			line := p.src[p.pos:lineEnd]
			if d.strip {
				line = strings.TrimLeft(line, "\t")
			}
			if line == d.delim {
				end = p.pos
				p.pos = min(lineEnd+1, len(p.src))
				break
			}
			p.pos = min(lineEnd+1, len(p.src))
		}
		if end < 0 {
			end = len(p.src)
		}
		body := p.src[start:end]
		if d.strip {
			lines := strings.SplitAfter(body, "\n")
			for i, l := range lines {
				lines[i] = strings.TrimLeft(l, "\t")
			}
			body = strings.Join(lines, "")
		}
		if d.script == nil || d.cmd < 0 || d.cmd >= len(d.script.Commands) {
			continue
		}
		c := &d.script.Commands[d.cmd]
		if d.redir >= len(c.Redirects) {
			return p.malformed("misplaced here-document")
		}
		w := Word{Value: body}
		if !d.quoted && strings.ContainsAny(body, "$`\\") {
			child := parser{src: body, depth: p.depth, st: p.st, vars: p.vars}
			b := child.scratch()
			if err := child.lexWord(b, lexHeredoc); err != nil {
				return err
			}
			w = b.word(child.src, b.val, false)
			c.Subs = append(c.Subs, child.subs...)
		}
		c.Redirects[d.redir].Target = w
	}
	p.docs = p.docs[:0]
	return nil
}
