package rules

import (
	"errors"
	"path"
	"strings"
)

// A PathPattern names files the path rules protect. Matching is
// case-insensitive (a case-insensitive file system makes WALLET.JSON the
// same file as wallet.json). Three forms:
//
//	name-glob        no '/': matches the last element of a path
//	                 ("wallet.json", "*.pem", "id_rsa*", "*private*key*")
//	**/seg-glob/**   any element of the path ("**/.ssh/**")
//	/abs/glob        a whole absolute path, '*' within one element and
//	                 '**' across elements ("/proc/*/environ"); "~/" at the
//	                 start is the home directory
type pathPattern struct {
	src  string
	kind patternKind
	elem glob   // name and anySegment patterns
	segs []glob // absolute patterns; a nil parts with star means "**"
	lit  string // literal prefix every match of an absolute pattern has
}

type patternKind uint8

const (
	nameGlob patternKind = iota
	anyElement
	absolute
)

// glob is one path element pattern with '*' (and, rarely, '?' or '[').
type glob struct {
	exact   string   // no metacharacters
	parts   []string // split on '*'
	star    bool
	complex bool // has '?' or '[': use path.Match
	double  bool // "**"
}

func compileGlob(s string) (glob, error) {
	if s == "**" {
		return glob{double: true}, nil
	}
	if strings.ContainsAny(s, "?[") {
		if _, err := path.Match(s, ""); err != nil {
			return glob{}, err
		}
		return glob{exact: s, complex: true}, nil
	}
	if !strings.Contains(s, "*") {
		return glob{exact: s}, nil
	}
	return glob{parts: strings.Split(s, "*"), star: true}, nil
}

func (g *glob) match(s string) bool {
	switch {
	case g.complex:
		ok, _ := path.Match(g.exact, s)
		return ok
	case !g.star:
		return s == g.exact
	}
	first, last := g.parts[0], g.parts[len(g.parts)-1]
	if len(s) < len(first)+len(last) || !strings.HasPrefix(s, first) || !strings.HasSuffix(s, last) {
		return false
	}
	s = s[len(first) : len(s)-len(last)]
	for _, p := range g.parts[1 : len(g.parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

var errPattern = errors.New("invalid path pattern")

func compilePattern(src, home string) (pathPattern, error) {
	p := strings.ToLower(src)
	pp := pathPattern{src: src}
	switch {
	case p == "":
		return pp, errPattern
	case !strings.Contains(p, "/"):
		g, err := compileGlob(p)
		if err != nil || g.double {
			return pp, errPattern
		}
		pp.kind, pp.elem = nameGlob, g
		return pp, nil
	case strings.HasPrefix(p, "**/") && strings.HasSuffix(p, "/**") && strings.Count(p, "/") == 2:
		g, err := compileGlob(p[3 : len(p)-3])
		if err != nil || g.double {
			return pp, errPattern
		}
		pp.kind, pp.elem = anyElement, g
		return pp, nil
	}
	if strings.HasPrefix(p, "~/") {
		if home == "" {
			return pp, errors.New("pattern uses ~ but no home directory is known")
		}
		p = strings.ToLower(path.Join(home, p[2:]))
	}
	if !strings.HasPrefix(p, "/") {
		return pp, errors.New("a pattern with '/' must be absolute, start with ~/ or have the form **/name/**")
	}
	pp.kind = absolute
	for _, e := range strings.Split(p[1:], "/") {
		g, err := compileGlob(e)
		if err != nil || e == "" {
			return pp, errPattern
		}
		pp.segs = append(pp.segs, g)
	}
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		pp.lit = p[:i]
	} else {
		pp.lit = p
	}
	return pp, nil
}

func matchSegs(pat []glob, elems []string) bool {
	for len(pat) > 0 {
		if pat[0].double {
			for i := 0; i <= len(elems); i++ {
				if matchSegs(pat[1:], elems[i:]) {
					return true
				}
			}
			return false
		}
		if len(elems) == 0 || !pat[0].match(elems[0]) {
			return false
		}
		pat, elems = pat[1:], elems[1:]
	}
	return len(elems) == 0
}

// matcher is a compiled set of path patterns. It answers "does this path
// match any pattern" with a few map lookups for the common exact names and
// walks only the wildcard patterns.
type matcher struct {
	names      map[string]string // exact last-element names → pattern
	exts       map[string]string // "*.ext" patterns: ".ext" → pattern
	nameGlobs  []pathPattern
	elems      map[string]string // exact any-element names → pattern
	elemGlobs  []pathPattern
	absolutes  []pathPattern
	numPattern int
	seen       *matchCache // matchPath's results of the last paths
}

func newMatcher(patterns []pathPattern) *matcher {
	m := &matcher{names: map[string]string{}, exts: map[string]string{}, elems: map[string]string{}, numPattern: len(patterns), seen: newMatchCache()}
	for _, p := range patterns {
		switch {
		case p.kind == nameGlob && !p.elem.star && !p.elem.complex:
			if _, dup := m.names[p.elem.exact]; !dup {
				m.names[p.elem.exact] = p.src
			}
		case p.kind == nameGlob && isExtGlob(p.elem):
			ext := p.elem.parts[1]
			if _, dup := m.exts[ext]; !dup {
				m.exts[ext] = p.src
			}
		case p.kind == nameGlob:
			m.nameGlobs = append(m.nameGlobs, p)
		case p.kind == anyElement && !p.elem.star && !p.elem.complex:
			if _, dup := m.elems[p.elem.exact]; !dup {
				m.elems[p.elem.exact] = p.src
			}
		case p.kind == anyElement:
			m.elemGlobs = append(m.elemGlobs, p)
		default:
			m.absolutes = append(m.absolutes, p)
		}
	}
	return m
}

// isExtGlob reports a "*.ext" pattern whose extension has no further dot:
// it matches exactly the names whose last extension is ".ext".
func isExtGlob(g glob) bool {
	return len(g.parts) == 2 && g.parts[0] == "" && strings.HasPrefix(g.parts[1], ".") &&
		strings.Count(g.parts[1], ".") == 1 && len(g.parts[1]) > 1
}

// lowerInto appends s lower-cased (ASCII letters only: file systems that
// fold case fold at least these) to dst.
func lowerInto(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// match reports the first pattern matching the clean absolute path: what
// matchPath reports, remembered for the last paths matched (an agent
// reads and writes the same files again and again).
func (m *matcher) match(abs string) (string, bool) {
	if m == nil || m.numPattern == 0 {
		return "", false
	}
	return m.seen.match(m, abs)
}

// matchPath is match without the cache. Names and elements are
// lower-cased into a stack buffer, so matching allocates nothing for
// ordinary paths.
func (m *matcher) matchPath(abs string) (string, bool) {
	var buf [256]byte
	name := abs[strings.LastIndexByte(abs, '/')+1:]
	if src, ok := m.matchName(lowerInto(buf[:0], name)); ok {
		return src, true
	}
	if len(m.elems) > 0 || len(m.elemGlobs) > 0 {
		for rest := abs; rest != ""; {
			rest = strings.TrimPrefix(rest, "/")
			var elem string
			if k := strings.IndexByte(rest, '/'); k >= 0 {
				elem, rest = rest[:k], rest[k:]
			} else {
				elem, rest = rest, ""
			}
			le := lowerInto(buf[:0], elem)
			if src, ok := m.elems[string(le)]; ok {
				return src, true
			}
			for j := range m.elemGlobs {
				if m.elemGlobs[j].elem.matchBytes(le) {
					return m.elemGlobs[j].src, true
				}
			}
		}
	}
	for j := range m.absolutes {
		p := &m.absolutes[j]
		if len(abs) >= len(p.lit) && strings.EqualFold(abs[:len(p.lit)], p.lit) {
			lower := strings.ToLower(abs)
			if matchSegs(p.segs, strings.Split(strings.TrimPrefix(lower, "/"), "/")) {
				return p.src, true
			}
		}
	}
	return "", false
}

func (m *matcher) matchName(name []byte) (string, bool) {
	if src, ok := m.names[string(name)]; ok {
		return src, true
	}
	if dot := lastDot(name); dot > 0 {
		if src, ok := m.exts[string(name[dot:])]; ok {
			return src, true
		}
	}
	for j := range m.nameGlobs {
		if m.nameGlobs[j].elem.matchBytes(name) {
			return m.nameGlobs[j].src, true
		}
	}
	return "", false
}

func lastDot(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '.' {
			return i
		}
	}
	return -1
}

// matchBytes is match for a lower-cased element in a byte slice.
func (g *glob) matchBytes(s []byte) bool {
	switch {
	case g.complex:
		ok, _ := path.Match(g.exact, string(s))
		return ok
	case !g.star:
		return string(s) == g.exact
	}
	first, last := g.parts[0], g.parts[len(g.parts)-1]
	if len(s) < len(first)+len(last) || string(s[:len(first)]) != first || string(s[len(s)-len(last):]) != last {
		return false
	}
	s = s[len(first) : len(s)-len(last)]
	for _, p := range g.parts[1 : len(g.parts)-1] {
		i := indexBytes(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return true
}

func indexBytes(s []byte, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if string(s[i:i+len(sub)]) == sub {
			return i
		}
	}
	return -1
}
