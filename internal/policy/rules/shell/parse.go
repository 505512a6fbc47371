package shell

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// The command line is parsed by mvdan.cc/sh/v3/syntax, as bash
// (syntax.LangBash); anything it rejects, invalid UTF-8 included, is
// ErrMalformed, and so is a NUL byte, which it would drop. This file turns
// its syntax tree into a Script: it numbers pipelines, flattens compound
// commands into their simple commands and expands each word (word.go)
// under the call's work budget, in the order bash would, so that a
// parameter assigned a literal earlier in the line is known later. The
// limits the tree does not carry, MaxDepth for substitutions and
// subshells and maxNest for compound commands, are checked while walking.

// budget is the number of bytes of parsing and expansion one Analyze or
// Parse call may do, nested scripts included.
const budget = 16 * MaxLen

// maxNest bounds the nesting of groups and compound commands, which do not
// count toward MaxDepth.
const maxNest = 64

// maxParens bounds the nesting of parentheses in the source text, counted
// without regard to quoting. At "((" syntax.Parser tries arithmetic and then
// nested subshells, which costs time quadratic in that nesting: 2,000
// parentheses take a quarter of a second.
const maxParens = 128

// maxHeredocRetries bounds the here-documents left open at the end of the
// input that parseFile closes.
const maxHeredocRetries = 4

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

// parser turns one syntax tree into a Script.
type parser struct {
	src    string // the source text, with any delimiters parseFile added
	srcLen int    // the length of the text as given
	depth  int
	nest   int
	bq     int  // inside backquotes, where node offsets are not exact
	strip  bool // reading a <<- here-document: leading tabs are removed
	bol    bool // at the beginning of a line of that here-document
	st     *state
	vars   map[string]string      // parameters with a known value
	script *Script                // script receiving commands
	subs   []*Script              // substitutions of the command being read
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

// rootAlloc is the storage Parse starts with for a short command line: its
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

// shParser is a reusable syntax.Parser: building one allocates more than
// parsing a short command line does.
type shParser struct {
	p *syntax.Parser
	r strings.Reader
}

var shParsers = sync.Pool{New: func() any {
	return &shParser{p: syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))}
}}

// parseFile parses src as bash. A here-document still open at the end of
// the input ends there, as in bash: the missing delimiter is added to the
// returned source, of which the first len(src) bytes are src.
func parseFile(src string) (*syntax.File, string, error) {
	if strings.IndexByte(src, 0) >= 0 {
		// syntax.Parser drops NUL bytes; a shell given the text ends it there.
		return nil, "", fmt.Errorf("%w: NUL byte", ErrMalformed)
	}
	if parenDepth(src) > maxParens {
		return nil, "", fmt.Errorf("%w: parentheses nested more than %d deep", ErrTooDeep, maxParens)
	}
	sp := shParsers.Get().(*shParser)
	defer shParsers.Put(sp)
	text := src
	for range maxHeredocRetries + 1 {
		sp.r.Reset(text)
		f, err := sp.p.Parse(&sp.r, "")
		if err == nil {
			return f, text, nil
		}
		var pe syntax.ParseError
		if !errors.As(err, &pe) {
			return nil, "", fmt.Errorf("%w: not bash", ErrMalformed)
		}
		delim, ok := strings.CutPrefix(pe.Text, "unclosed here-document ")
		if ok {
			delim, err = strconv.Unquote(delim)
		}
		if !ok || err != nil || strings.ContainsAny(delim, "\n") {
			return nil, "", fmt.Errorf("%w: syntax error at line %d, column %d", ErrMalformed, pe.Pos.Line(), pe.Pos.Col())
		}
		text = text + "\n" + delim
	}
	return nil, "", fmt.Errorf("%w: unterminated here-documents", ErrMalformed)
}

// parenDepth returns the greatest nesting of parentheses in s.
func parenDepth(s string) int {
	d, most := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			d++
			most = max(most, d)
		case ')':
			d = max(d-1, 0)
		}
	}
	return most
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
	f, text, err := parseFile(src)
	if err != nil {
		return nil, err
	}
	p := parser{src: text, srcLen: len(src), depth: depth, st: st, vars: vars, arena: mem.words, spill: mem.spill}
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
	if err := p.stmts(f.Stmts); err != nil {
		return nil, err
	}
	return s, nil
}

func errTooDeep() error {
	return fmt.Errorf("%w: more than %d levels", ErrTooDeep, MaxDepth)
}

func (p *parser) malformed(what string, n syntax.Node) error {
	return fmt.Errorf("%w: %s at offset %d", ErrMalformed, what, n.Pos().Offset())
}

// raw returns the source text of n, as written.
func (p *parser) raw(n syntax.Node) string {
	i, j := int(n.Pos().Offset()), int(n.End().Offset())
	if p.bq == 0 && 0 <= i && i <= j && j <= len(p.src) {
		return p.src[i:j]
	}
	var b strings.Builder
	if syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n) != nil {
		return "$(…)"
	}
	return b.String()
}

// stmts reads a list of commands.
func (p *parser) stmts(list []*syntax.Stmt) error {
	for _, s := range list {
		start := len(p.script.Commands)
		if err := p.andOr(s); err != nil {
			return err
		}
		if s.Background {
			p.background(start)
		}
	}
	return nil
}

// background marks the commands added since start as asynchronous.
func (p *parser) background(start int) {
	for i := start; i < len(p.script.Commands); i++ {
		p.script.Commands[i].Background = true
	}
}

func (p *parser) andOr(s *syntax.Stmt) error {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
		if err := p.andOr(b.X); err != nil {
			return err
		}
		return p.andOr(b.Y)
	}
	return p.pipeline(s)
}

// pipeline reads a pipeline, which time and ! do not change.
func (p *parser) pipeline(s *syntax.Stmt) error {
	for {
		t, ok := s.Cmd.(*syntax.TimeClause)
		if !ok || len(s.Redirs) > 0 {
			break
		}
		if t.Stmt == nil {
			return p.malformed("missing command", t)
		}
		s = t.Stmt
	}
	id := p.script.pipes
	p.script.pipes++
	var local [4]pipeElem
	for i, e := range pipeElems(s, local[:0], false) {
		start := len(p.script.Commands)
		pipe, place := p.pipe, p.place
		p.pipe, p.place = id, i
		var err error
		if e.time != nil {
			err = p.timeCommand(e.s, e.time)
		} else {
			err = p.command(e.s)
		}
		p.pipe, p.place = pipe, place
		if err != nil {
			return err
		}
		if i > 0 {
			for j := start; j < len(p.script.Commands); j++ {
				p.script.Commands[j].Piped = true
			}
		}
	}
	return nil
}

// pipeElem is a command of a pipeline. Only at the start of a pipeline is
// time a reserved word: after a |, it is a command, which time is set for.
type pipeElem struct {
	s    *syntax.Stmt
	time *syntax.TimeClause
}

// pipeElems appends the commands of the pipeline s to dst; later reports
// that s is not its first.
func pipeElems(s *syntax.Stmt, dst []pipeElem, later bool) []pipeElem {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
		return pipeElems(b.Y, pipeElems(b.X, dst, later), true)
	}
	if t, ok := s.Cmd.(*syntax.TimeClause); ok && later && len(s.Redirs) == 0 {
		if t.Stmt == nil {
			return append(dst, pipeElem{time: t})
		}
		n := len(dst)
		dst = pipeElems(t.Stmt, dst, true)
		dst[n].time = t
		return dst
	}
	return append(dst, pipeElem{s: s})
}

// timeCommand reads a simple command s run by the command time, or time
// alone if s is nil.
func (p *parser) timeCommand(s *syntax.Stmt, t *syntax.TimeClause) error {
	prefix := [2]Word{{Value: "time"}, {Value: "-p"}}
	n := 1
	if t.PosixFormat {
		n = 2
	}
	if s == nil {
		p.script.Commands = append(p.script.Commands, Command{Args: p.keep(prefix[:n]), Pipeline: p.pipe, Position: p.place})
		return nil
	}
	if _, ok := s.Cmd.(*syntax.CallExpr); !ok {
		return p.malformed("unexpected token", s)
	}
	return p.simple(s, prefix[:n])
}

func (p *parser) command(s *syntax.Stmt) error {
	p.nest++
	if p.nest > maxNest {
		return errTooDeep()
	}
	err := p.compound(s)
	p.nest--
	return err
}

// compound reads one command of a pipeline: a compound command, a function
// definition or a simple command.
func (p *parser) compound(s *syntax.Stmt) error {
	switch c := s.Cmd.(type) {
	case nil, *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
		return p.simple(s, nil)
	case *syntax.Block:
		if err := p.stmts(c.Stmts); err != nil {
			return err
		}
	case *syntax.Subshell:
		if p.depth+1 > MaxDepth {
			return errTooDeep()
		}
		p.depth++
		err := p.stmts(c.Stmts)
		p.depth--
		if err != nil {
			return err
		}
	case *syntax.IfClause:
		for ; c != nil; c = c.Else {
			if err := p.stmts(c.Cond); err != nil {
				return err
			}
			if err := p.stmts(c.Then); err != nil {
				return err
			}
		}
	case *syntax.WhileClause:
		if err := p.stmts(c.Cond); err != nil {
			return err
		}
		if err := p.stmts(c.Do); err != nil {
			return err
		}
	case *syntax.ForClause:
		if err := p.loop(c.Loop); err != nil {
			return err
		}
		if err := p.stmts(c.Do); err != nil {
			return err
		}
	case *syntax.CaseClause:
		if err := p.caseClause(c); err != nil {
			return err
		}
	case *syntax.FuncDecl:
		return p.funcDecl(s, c)
	case *syntax.ArithmCmd:
		if err := p.arithmCmd(c); err != nil {
			return err
		}
	case *syntax.TestClause:
		if err := p.testClause(c); err != nil {
			return err
		}
	case *syntax.TimeClause:
		if c.Stmt == nil {
			return p.malformed("missing command", c)
		}
		if err := p.command(c.Stmt); err != nil {
			return err
		}
	case *syntax.CoprocClause:
		if err := p.coproc(c); err != nil {
			return err
		}
	default:
		return p.malformed("unsupported command", s)
	}
	return p.trailingRedirects(s)
}

// arithmCmd reads (( expr )) as a command whose arguments are "((" and the
// expression, opaque.
func (p *parser) arithmCmd(c *syntax.ArithmCmd) error {
	saved := p.subs
	p.subs = nil
	if err := p.arith(c.X); err != nil {
		return err
	}
	expr := ""
	if i, j := int(c.Left.Offset())+2, int(c.Right.Offset()); p.bq == 0 && i <= j && j <= len(p.src) {
		expr = p.src[i:j]
	} else {
		expr = strings.TrimSuffix(strings.TrimPrefix(p.raw(c), "(("), "))")
	}
	cmd := Command{Pipeline: p.pipe, Position: p.place, Subs: p.subs}
	p.subs = saved
	cmd.Args = []Word{{Value: "(("}, {Value: expr, Opaque: true}}
	p.script.Commands = append(p.script.Commands, cmd)
	return nil
}

// testClause reads [[ expr ]] as a command whose arguments are "[[", the
// expression's words and "]]".
func (p *parser) testClause(c *syntax.TestClause) error {
	cmd := Command{Pipeline: p.pipe, Position: p.place}
	saved := p.subs
	p.subs = nil
	cmd.Args = append(cmd.Args, Word{Value: "[["})
	args, err := p.test(c.X, cmd.Args)
	if err != nil {
		return err
	}
	cmd.Args = append(args, Word{Value: "]]"})
	cmd.Subs = p.subs
	p.subs = saved
	p.script.Commands = append(p.script.Commands, cmd)
	return nil
}

// coproc reads a coprocess. coproc runs a simple command as a wrapper does
// (see wrap.go), and a compound command in the background. Before a
// simple command, what the tree has as its name is the command's.
func (p *parser) coproc(c *syntax.CoprocClause) error {
	start := len(p.script.Commands)
	var err error
	switch c.Stmt.Cmd.(type) {
	case nil, *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
		prefix := []Word{{Value: "coproc"}}
		if c.Name != nil {
			if prefix, err = p.words(c.Name, prefix); err != nil {
				return err
			}
		}
		err = p.simple(c.Stmt, prefix)
	default:
		err = p.command(c.Stmt)
	}
	if err != nil {
		return err
	}
	p.background(start)
	return nil
}

// loop reads the header of a for or select loop.
func (p *parser) loop(l syntax.Loop) error {
	switch l := l.(type) {
	case *syntax.WordIter:
		if !l.InPos.IsValid() {
			return nil
		}
		var words []Word
		for _, w := range l.Items {
			var err error
			if words, err = p.words(w, words); err != nil {
				return err
			}
		}
		p.moveSubs()
		if len(words) == 1 && !words[0].Opaque {
			p.setVar(l.Name.Value, words[0].Value)
		} else {
			p.unsetVar(l.Name.Value)
		}
	case *syntax.CStyleLoop:
		for _, x := range [...]syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
			if err := p.arith(x); err != nil {
				return err
			}
		}
		p.moveSubs()
	}
	return nil
}

func (p *parser) caseClause(c *syntax.CaseClause) error {
	if _, err := p.words(c.Word, nil); err != nil {
		return err
	}
	p.moveSubs()
	for _, item := range c.Items {
		for _, w := range item.Patterns {
			if _, err := p.words(w, nil); err != nil {
				return err
			}
		}
		p.moveSubs()
		if err := p.stmts(item.Stmts); err != nil {
			return err
		}
	}
	return nil
}

// funcDecl reads a function definition into a script of its own.
func (p *parser) funcDecl(s *syntax.Stmt, c *syntax.FuncDecl) error {
	if c.Name == nil || c.Body == nil {
		return p.malformed("bad function definition", s)
	}
	switch c.Body.Cmd.(type) {
	case *syntax.Block, *syntax.Subshell, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause,
		*syntax.CaseClause, *syntax.TestClause, *syntax.ArithmCmd:
	default: // bash wants a compound command
		return p.malformed("bad function body", c.Body)
	}
	body := p.newScript()
	saved, subs, pipe, place := p.script, p.subs, p.pipe, p.place
	p.script, p.subs = body, nil
	err := p.command(c.Body)
	if err == nil {
		err = p.trailingRedirects(s)
	}
	p.script, p.subs, p.pipe, p.place = saved, subs, pipe, place
	if err != nil {
		return err
	}
	p.script.Funcs = append(p.script.Funcs, Func{Name: c.Name.Value, Body: body})
	return nil
}

// test appends the words of a [[ ]] expression to dst, operators included.
func (p *parser) test(x syntax.TestExpr, dst []Word) ([]Word, error) {
	var err error
	switch x := x.(type) {
	case *syntax.Word:
		var w Word
		if w, err = p.single(x); err == nil {
			dst = append(dst, w)
		}
	case *syntax.UnaryTest:
		dst = append(dst, Word{Value: x.Op.String()})
		return p.test(x.X, dst)
	case *syntax.BinaryTest:
		if dst, err = p.test(x.X, dst); err != nil {
			return dst, err
		}
		dst = append(dst, Word{Value: x.Op.String()})
		return p.test(x.Y, dst)
	case *syntax.ParenTest:
		if dst, err = p.test(x.X, append(dst, Word{Value: "("})); err == nil {
			dst = append(dst, Word{Value: ")"})
		}
	}
	return dst, err
}

// arith finds the command substitutions inside an arithmetic expression:
// its words are expanded and their values dropped.
func (p *parser) arith(x syntax.ArithmExpr) error {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		if err := p.arith(x.X); err != nil {
			return err
		}
		return p.arith(x.Y)
	case *syntax.UnaryArithm:
		return p.arith(x.X)
	case *syntax.ParenArithm:
		return p.arith(x.X)
	case *syntax.FlagsArithm:
		return p.arith(x.X)
	case *syntax.Word:
		if _, ok := x.Parts[0].(*syntax.Lit); ok && len(x.Parts) == 1 {
			return nil
		}
		var tmp wordBuf
		return p.lex(&tmp, x.Parts, lexNormal)
	}
	return nil
}

// moveSubs moves pending substitutions to the script, for words that are not
// part of a simple command.
func (p *parser) moveSubs() {
	p.script.Subs = append(p.script.Subs, p.subs...)
	p.subs = nil
}

// trailingRedirects reads the redirections of a compound command into a
// command without Args.
func (p *parser) trailingRedirects(s *syntax.Stmt) error {
	if len(s.Redirs) == 0 {
		return nil
	}
	cmd := Command{Pipeline: p.pipe, Position: p.place}
	saved := p.subs
	p.subs = nil
	var docs []*syntax.Redirect
	for _, r := range s.Redirs {
		var err error
		if docs, err = p.redirect(&cmd, r, docs); err != nil {
			return err
		}
	}
	cmd.Subs = p.subs
	if err := p.heredocs(&cmd, docs); err != nil {
		return err
	}
	p.subs = saved
	p.script.Commands = append(p.script.Commands, cmd)
	return nil
}

// simple reads a simple command, a declaration (export, declare…) or let.
// Its words follow prefix, which makes assignments arguments.
func (p *parser) simple(s *syntax.Stmt, prefix []Word) error {
	cmd := Command{Pipeline: p.pipe, Position: p.place}
	saved := p.subs
	p.subs = nil
	var local [8]Word
	args := append(local[:0], prefix...)
	var docs []*syntax.Redirect
	var err error
	ri := 0
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		for _, as := range c.Assigns {
			if len(prefix) == 0 {
				err = p.assign(&cmd, as)
			} else {
				var more []Word
				more, err = p.declArg(as)
				args = append(args, more...)
				p.spill = more[:0]
			}
			if err != nil {
				return err
			}
		}
		for _, w := range c.Args {
			for ; ri < len(s.Redirs) && s.Redirs[ri].Pos().Offset() < w.Pos().Offset(); ri++ {
				if docs, err = p.redirect(&cmd, s.Redirs[ri], docs); err != nil {
					return err
				}
			}
			if v, ok := plainLit(w); ok {
				args = append(args, Word{Value: v})
				continue
			}
			more, err := p.words(w, p.spill[:0])
			if err != nil {
				return err
			}
			args = append(args, more...)
			p.spill = more[:0]
		}
	case *syntax.DeclClause:
		args = append(args, Word{Value: c.Variant.Value})
		for _, as := range c.Args {
			more, err := p.declArg(as)
			if err != nil {
				return err
			}
			args = append(args, more...)
			p.spill = more[:0]
		}
	case *syntax.LetClause:
		args = append(args, Word{Value: "let"})
		for _, x := range c.Exprs {
			if err := p.arith(x); err != nil {
				return err
			}
			args = append(args, Word{Value: p.raw(x), Opaque: true})
		}
	}
	for ; ri < len(s.Redirs); ri++ {
		if docs, err = p.redirect(&cmd, s.Redirs[ri], docs); err != nil {
			return err
		}
	}
	cmd.Args = p.keep(args)
	if len(cmd.Args) == 0 && len(cmd.Assigns) == 0 && len(cmd.Redirects) == 0 {
		return p.malformed("missing command", s)
	}
	cmd.Subs = p.subs
	if err := p.heredocs(&cmd, docs); err != nil {
		return err
	}
	p.subs = saved
	p.trackVars(&cmd)
	p.script.Commands = append(p.script.Commands, cmd)
	return nil
}

// trackVars records the variables cmd sets for the words that follow:
// its assignments when it has no arguments, else the name=value
// arguments of a declaration (export, declare…). A value ward cannot
// know unsets the variable.
func (p *parser) trackVars(cmd *Command) {
	if len(cmd.Args) == 0 {
		for _, a := range cmd.Assigns {
			if a.Value.Opaque {
				p.unsetVar(a.Name)
			} else {
				p.setVar(a.Name, a.Value.Value)
			}
		}
		return
	}
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

// declArg returns the words of an argument of export, declare and the
// like, in p.spill.
func (p *parser) declArg(as *syntax.Assign) ([]Word, error) {
	switch {
	case as.Naked && as.Value != nil:
		return p.words(as.Value, p.spill[:0])
	case as.Naked:
		return append(p.spill[:0], Word{Value: as.Name.Value}), nil
	case as.Array != nil:
		v, err := p.array(as.Array)
		v.Value = as.Name.Value + "=" + v.Value
		return append(p.spill[:0], v), err
	}
	b := p.scratch()
	i, j := int(as.Pos().Offset()), int(as.End().Offset())
	if as.Value != nil {
		j = int(as.Value.Pos().Offset())
	}
	if p.bq == 0 && 0 <= i && i <= j && j <= len(p.src) {
		b.addSrc(p.src, i, j, mLit)
	} else {
		b.add(as.Name.Value+"=", mLit)
	}
	if as.Value != nil {
		if err := p.lex(b, as.Value.Parts, lexNormal); err != nil {
			return nil, err
		}
	}
	return p.fields(b, p.spill[:0])
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

// assign reads NAME=value, NAME+=value, NAME[i]=value or NAME=(a b).
func (p *parser) assign(cmd *Command, as *syntax.Assign) error {
	if as.Name == nil {
		return p.malformed("bad assignment", as)
	}
	if as.Index != nil {
		if err := p.arith(as.Index); err != nil {
			return err
		}
	}
	var w Word
	var err error
	if as.Array != nil {
		w, err = p.array(as.Array)
	} else {
		w, err = p.single(as.Value)
	}
	cmd.Assigns = append(cmd.Assigns, Assign{Name: as.Name.Value, Value: w})
	return err
}

// array returns the elements of an array assignment as one word.
func (p *parser) array(arr *syntax.ArrayExpr) (Word, error) {
	var words []Word
	for _, e := range arr.Elems {
		if e.Index != nil {
			if err := p.arith(e.Index); err != nil {
				return Word{}, err
			}
		}
		if e.Value == nil {
			continue
		}
		var err error
		if words, err = p.words(e.Value, words); err != nil {
			return Word{}, err
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
	return v, nil
}

// redirect reads a redirection. Here-documents are appended to docs, to be
// read once the command's other words have been.
func (p *parser) redirect(cmd *Command, r *syntax.Redirect, docs []*syntax.Redirect) ([]*syntax.Redirect, error) {
	fd := -1
	if r.N != nil {
		if !allDigits(r.N.Value) {
			return docs, p.malformed("bad redirection", r)
		}
		n, err := strconv.Atoi(r.N.Value)
		if err != nil || n > 1<<20 {
			n = 1 << 20
		}
		fd = n
	}
	op := r.Op.String()
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		cmd.Redirects = append(cmd.Redirects, Redirect{Fd: fd, Op: op})
		return append(docs, r), nil
	case syntax.RdrOut, syntax.AppOut, syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.DplOut,
		syntax.RdrClob, syntax.WordHdoc, syntax.RdrAll, syntax.AppAll:
	default:
		return docs, p.malformed("bad redirection", r)
	}
	w, err := p.single(r.Word)
	if err != nil {
		return docs, err
	}
	cmd.Redirects = append(cmd.Redirects, Redirect{Fd: fd, Op: op, Target: w})
	return docs, nil
}

// heredocs reads the bodies of the here-documents of cmd, which are its last
// redirections of those operators, in order.
func (p *parser) heredocs(cmd *Command, docs []*syntax.Redirect) error {
	if len(docs) == 0 {
		return nil
	}
	k := 0
	for i := range cmd.Redirects {
		r := &cmd.Redirects[i]
		if r.Op != "<<" && r.Op != "<<-" {
			continue
		}
		w, err := p.heredoc(docs[k])
		if err != nil {
			return err
		}
		r.Target = w
		k++
	}
	cmd.Subs = p.subs
	return nil
}

// heredoc returns the body of a here-document, expanded unless its
// delimiter is quoted.
func (p *parser) heredoc(r *syntax.Redirect) (Word, error) {
	if r.Hdoc == nil {
		return Word{}, nil
	}
	quoted := false
	for _, part := range r.Word.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			quoted = quoted || strings.IndexByte(part.Value, '\\') >= 0
		default:
			quoted = true
		}
	}
	b := p.scratch()
	p.strip, p.bol = r.Op == syntax.DashHdoc, true
	var err error
	if quoted {
		for _, part := range r.Hdoc.Parts {
			if l, ok := part.(*syntax.Lit); ok {
				p.putLit(b, l.Value, -1, mQuoted)
			}
		}
	} else {
		err = p.lex(b, r.Hdoc.Parts, lexHeredoc)
	}
	p.strip = false
	if err != nil {
		return Word{}, err
	}
	if int(r.Hdoc.End().Offset()) > p.srcLen && len(b.val) > 0 && b.val[len(b.val)-1] == '\n' {
		// parseFile closed the here-document: its body ends with the input.
		b.val, b.mask = b.val[:len(b.val)-1], b.mask[:len(b.mask)-1]
		b.broken = true
	}
	w := b.word(p.src, b.val, false)
	w.Glob = false
	return w, nil
}
