// Package sieve runs a regular expression only on the texts it may match.
// Compile reads from the expression's syntax the literals a match cannot
// do without (every match of `\b(?:stop|cease)\s+following` holds "stop"
// or "cease", and "following"), and a Regexp's methods answer "no match"
// at once for a text that lacks them, without running the automaton. The
// literals are a necessary condition derived from the syntax tree, never
// a guess: an answer is the same as regexp's for every text. It pays where
// an expression has no literal prefix for the regexp package to scan for
// (a leading \b, class or alternation) and most texts hold none of its
// words.
package sieve

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Regexp is a compiled expression and the literals its matches need. It
// is safe for concurrent use, like regexp.Regexp.
type Regexp struct {
	*regexp.Regexp
	need []clause // every clause has a literal in any text re matches
}

// MustCompile is regexp.MustCompile with the literals of the expression's
// matches read from its syntax.
func MustCompile(expr string) *Regexp {
	re := regexp.MustCompile(expr)
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic("sieve: " + err.Error()) // regexp.MustCompile accepted expr
	}
	return &Regexp{Regexp: re, need: best(required(tree.Simplify()))}
}

// May reports whether s holds a literal of every clause: false means that
// re matches nowhere in s.
func (re *Regexp) May(s string) bool {
	for _, c := range re.need {
		if !c.in(s) {
			return false
		}
	}
	return true
}

// MatchString is regexp's MatchString.
func (re *Regexp) MatchString(s string) bool { return re.May(s) && re.Regexp.MatchString(s) }

// FindString is regexp's FindString.
func (re *Regexp) FindString(s string) string {
	if !re.May(s) {
		return ""
	}
	return re.Regexp.FindString(s)
}

// FindStringIndex is regexp's FindStringIndex.
func (re *Regexp) FindStringIndex(s string) []int {
	if !re.May(s) {
		return nil
	}
	return re.Regexp.FindStringIndex(s)
}

// FindAllStringIndex is regexp's FindAllStringIndex.
func (re *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if !re.May(s) {
		return nil
	}
	return re.Regexp.FindAllStringIndex(s, n)
}

// FindAllString is regexp's FindAllString.
func (re *Regexp) FindAllString(s string, n int) []string {
	if !re.May(s) {
		return nil
	}
	return re.Regexp.FindAllString(s, n)
}

// ReplaceAllString is regexp's ReplaceAllString.
func (re *Regexp) ReplaceAllString(src, repl string) string {
	if !re.May(src) {
		return src
	}
	return re.Regexp.ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc is regexp's ReplaceAllStringFunc.
func (re *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if !re.May(src) {
		return src
	}
	return re.Regexp.ReplaceAllStringFunc(src, repl)
}

// literal is a string a match holds, byte for byte, or in ASCII letters of
// either case when fold is set.
type literal struct {
	s    string
	fold bool
}

func (l literal) in(s string) bool {
	if !l.fold {
		return strings.Contains(s, l.s)
	}
	return containsFold(s, l.s)
}

// containsFold reports whether s holds lit, an ASCII string, with its
// letters in either case.
func containsFold(s, lit string) bool {
	first := lit[0]
	lo, up := first|0x20, first&^0x20
	if !isASCIILetter(first) {
		lo, up = first, first
	}
	for i := 0; i+len(lit) <= len(s); {
		j := strings.IndexByte(s[i:], lo)
		if k := strings.IndexByte(s[i:], up); k >= 0 && (j < 0 || k < j) {
			j = k
		}
		if j < 0 || i+j+len(lit) > len(s) {
			return false
		}
		if equalFoldASCII(s[i+j:i+j+len(lit)], lit) {
			return true
		}
		i += j + 1
	}
	return false
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(b); i++ {
		x, y := a[i], b[i]
		if x != y && !(isASCIILetter(y) && x|0x20 == y|0x20) {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// clause is a set of literals one of which every match holds.
type clause []literal

func (c clause) in(s string) bool {
	for _, l := range c {
		if l.in(s) {
			return true
		}
	}
	return false
}

// shortest is the length of the clause's shortest literal: the longer,
// the rarer in text.
func (c clause) shortest() int {
	n := -1
	for _, l := range c {
		if n < 0 || len(l.s) < n {
			n = len(l.s)
		}
	}
	return n
}

// Bounds on what a Regexp checks before it runs.
const (
	maxClauses  = 3
	maxLiterals = 64 // per clause
	maxClass    = 8  // runes of a character class read as literals
)

// required returns clauses every match of re satisfies; none for a node
// that may match without any literal.
func required(re *syntax.Regexp) []clause {
	switch re.Op {
	case syntax.OpLiteral:
		if l, ok := literalOf(re.Rune, re.Flags&syntax.FoldCase != 0); ok {
			return []clause{{l}}
		}
	case syntax.OpCharClass:
		var c clause
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo >= maxClass || len(c)+int(hi-lo)+1 > maxClass {
				return nil
			}
			for r := lo; r <= hi; r++ {
				if r == utf8.RuneError || !utf8.ValidRune(r) {
					return nil
				}
				c = append(c, literal{s: string(r)})
			}
		}
		if len(c) > 0 {
			return []clause{c}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var out []clause
		for _, sub := range re.Sub {
			out = append(out, required(sub)...)
		}
		return out
	case syntax.OpAlternate:
		var c clause
		for _, sub := range re.Sub {
			cs := best(required(sub))
			if len(cs) == 0 {
				return nil
			}
			c = append(c, cs[0]...)
		}
		if len(c) > maxLiterals {
			return nil
		}
		return []clause{c}
	}
	return nil
}

// literalOf returns the longest run of runes a match of the literal holds
// byte for byte, or as ASCII letters of either case under fold. Under fold
// a letter whose case orbit leaves ASCII (k and the Kelvin sign, s and the
// long s) ends a run.
func literalOf(runes []rune, fold bool) (literal, bool) {
	var bestRun, run []rune
	for _, r := range runes {
		ok := r != utf8.RuneError && utf8.ValidRune(r)
		if fold && ok {
			ok = r < utf8.RuneSelf && asciiOrbit(r)
		}
		if !ok {
			run = run[:0]
			continue
		}
		run = append(run, r)
		if len(run) > len(bestRun) {
			bestRun = slices.Clone(run)
		}
	}
	if len(bestRun) == 0 {
		return literal{}, false
	}
	if fold {
		return literal{s: strings.ToLower(string(bestRun)), fold: true}, true
	}
	return literal{s: string(bestRun)}, true
}

// asciiOrbit reports whether r's simple case folding orbit is r and its
// other ASCII case only.
func asciiOrbit(r rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// best keeps the clauses that sieve most: those whose shortest literal is
// longest, at most maxClauses of them, and none with too many literals.
func best(cs []clause) []clause {
	cs = slices.DeleteFunc(slices.Clone(cs), func(c clause) bool { return len(c) == 0 || len(c) > maxLiterals })
	cs = slices.CompactFunc(cs, slices.Equal) // repeats of one node come in a row
	slices.SortStableFunc(cs, func(a, b clause) int {
		if d := b.shortest() - a.shortest(); d != 0 {
			return d
		}
		return len(a) - len(b)
	})
	return cs[:min(len(cs), maxClauses)]
}
