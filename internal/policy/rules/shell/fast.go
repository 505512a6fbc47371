package shell

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// Most command lines an agent runs are a few plain words: `git status`,
// `go test ./...`, `cat README.md | head -n 20`, `git commit -m 'fix x'`.
// For those the general parser's work (expansions, redirections, compound
// commands) is wasted, so Analyze first tries fastParse, which only splits
// the line into words and commands. It accepts a line only when the general
// parser would read every byte as fastParse does — a word byte that needs
// no quote removal or expansion, a word that is one quoted string with
// nothing to expand, a space, or the operators |, &&, || and ; — and it
// builds exactly the Script parseInto would build; anything else falls
// back to the general parser. The analysis of the Script is the same on
// both paths. TestFastParse and FuzzFastParse check the equivalence.

// scratch is the memory one Analyze call starts with: the top-level script,
// the parser's scratch space, the work budget and room for the findings.
// Nested scripts (sh -c, eval, code piped to a shell) take one each too,
// without using its budget and findings. Scratches are reused through
// scratchPool, so a short command line needs no allocation but the one for
// the findings returned.
type scratch struct {
	s     Script
	cmds  [4]Command
	words [16]Word
	spill [1]Word
	buf   wordBuf
	st    state
	found [8]Finding
	raw   [4]Finding
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch {
	sc := scratchPool.Get().(*scratch)
	sc.st.budget = budget
	return sc
}

// putScratch clears sc, so that the pool holds no part of a command line,
// and returns it to the pool.
func putScratch(sc *scratch) {
	*sc = scratch{}
	scratchPool.Put(sc)
}

func (sc *scratch) mem() parseMem {
	return parseMem{s: &sc.s, cmds: sc.cmds[:0], words: sc.words[:0], spill: sc.spill[:0], buf: &sc.buf}
}

// fastBytes marks the bytes of a word that fastParse accepts: letters,
// digits and -_./=:,@+%~*?. They are all plain to the general parser
// (isPlain) except * and ?, which make the word a glob (fastGlob); none
// starts a comment or a reserved word such as ! or {.
var fastBytes = func() (set [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		set[c] = fastWord
	}
	for c := 'a'; c <= 'z'; c++ {
		set[c] = fastWord
		set[c-'a'+'A'] = fastWord
	}
	for _, c := range "-_./=:,@+%~" {
		set[c] = fastWord
	}
	set['*'] = fastWord | fastGlob
	set['?'] = fastWord | fastGlob
	return set
}()

const (
	fastWord uint8 = 1 << iota
	fastGlob
)

// fastParse parses cmd into sc if it is a plain command line: words of
// fastBytes, or each one quoted string ('...', or "..." without \, $ or `),
// separated by spaces, in simple commands separated by |, &&, || or ;,
// quoted strings being valid UTF-8 without NUL bytes. It
// charges st as parseInto does, and reports whether there were
// quotes. It returns nil, having charged nothing, for any other line, and
// for lines the general parser reads differently or rejects: an assignment
// or a reserved word in command position, an empty command, a trailing
// operator.
func (sc *scratch) fastParse(cmd string, st *state) (s *Script, quoted bool) {
	words := sc.words[:0]
	cmds := sc.cmds[:0]
	first, pipe, place := 0, 0, 0 // the current command's first word and position
	for i := 0; ; {
		for i < len(cmd) && cmd[i] == ' ' {
			i++
		}
		if i < len(cmd) && fastBytes[cmd[i]] != 0 {
			j, kinds := i, uint8(0)
			for ; j < len(cmd) && fastBytes[cmd[j]] != 0; j++ {
				kinds |= fastBytes[cmd[j]]
			}
			words = append(words, Word{Value: cmd[i:j], Glob: kinds&fastGlob != 0})
			i = j
			if i < len(cmd) && !fastEnd(cmd[i]) {
				return nil, false
			}
			continue
		}
		if i < len(cmd) && (cmd[i] == '\'' || cmd[i] == '"') {
			j := strings.IndexByte(cmd[i+1:], cmd[i]) + i + 1
			if j == i || cmd[i] == '"' && strings.ContainsAny(cmd[i+1:j], "\\$`") || !plainText(cmd[i+1:j]) {
				return nil, false
			}
			words = append(words, Word{Value: cmd[i+1 : j]})
			i, quoted = j+1, true
			if i < len(cmd) && !fastEnd(cmd[i]) {
				return nil, false
			}
			continue
		}
		// The end of the line or an operator ends the current command.
		if len(words) == first || !commandWord(words[first].Value) {
			return nil, false
		}
		cmds = append(cmds, Command{
			Args:     words[first:len(words):len(words)],
			Pipeline: pipe,
			Position: place,
			Piped:    place > 0,
		})
		first = len(words)
		if i == len(cmd) {
			break
		}
		var next byte
		if i+1 < len(cmd) {
			next = cmd[i+1]
		}
		switch c := cmd[i]; {
		case c == '|' && next == '|', c == '&' && next == '&':
			i += 2
			pipe, place = pipe+1, 0
		case c == '|' && next != '&':
			i++
			place++
		case c == ';' && next != ';' && next != '&':
			i++
			pipe, place = pipe+1, 0
		default: // another byte, &, |&, ;; or ;&
			return nil, false
		}
	}
	if st.charge(len(cmd)) != nil {
		return nil, false
	}
	s = &sc.s
	s.Commands = cmds
	s.pipes = pipe + 1
	return s, quoted
}

// plainText reports text the general parser reads as it is: valid UTF-8
// without NUL bytes.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || c >= utf8.RuneSelf {
			return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
		}
	}
	return true
}

// fastEnd reports the bytes that may follow a word in fastParse.
func fastEnd(c byte) bool { return c == ' ' || c == '|' || c == '&' || c == ';' }

// commandWord reports whether the first word of a plain simple command is
// read by the general parser as a command name: not an assignment, not a
// reserved word, which starts a compound command or is an error there, and
// not a builtin whose arguments it parses (export, let, coproc…).
func commandWord(v string) bool {
	switch v {
	case "if", "then", "elif", "else", "fi", "do", "done", "case", "esac",
		"while", "until", "for", "select", "function", "in", "time",
		// builtins the general parser reads with a syntax of their own
		"export", "declare", "local", "readonly", "typeset", "nameref", "let", "coproc":
		return false
	}
	if v == "" || !isNameStart(v[0]) {
		return true
	}
	i := 1
	for i < len(v) && isNameChar(v[i]) {
		i++
	}
	if i < len(v) && v[i] == '+' {
		i++
	}
	return i >= len(v) || v[i] != '='
}
