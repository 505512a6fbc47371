package shell

import (
	"path"
	"strings"
)

// The agent's own files (Env.Own) and secret directories (Env.Secret) are
// absolute paths. A word of a command relates to one of them as the
// command would resolve it: against the directory the command line is in
// at that point (cd is followed), with "..", "~" and globs.

// Relations of a word to a path of Env.Own or Env.Secret, as bits: a glob
// may relate in several ways at once.
const (
	relAncestor uint8 = 1 << iota // the word names a directory holding the path
	relSame                       // the word names the path itself
	relInside                     // the word names something inside the path
)

// relate returns how the path s (one word, or a part of one: see pathsIn)
// relates to the paths of Env.Own and of Env.Secret. A relative s is
// resolved against the current directory; when that is unknown, s relates
// to a path only if it names the path's last elements (or something inside
// them).
func (a *analyzer) relate(s string) (own, secret uint8) {
	if s == "" {
		return 0, 0
	}
	// Trailing slashes and leading "./" change nothing here.
	for len(s) > 1 && s[len(s)-1] == '/' {
		s = s[:len(s)-1]
	}
	for len(s) > 2 && s[0] == '.' && s[1] == '/' {
		s = strings.TrimLeft(s[2:], "/")
	}
	glob := hasGlobMeta(s)
	each := func(f func(o string) uint8) (uint8, uint8) {
		var ro, rs uint8
		for _, o := range a.env.Own {
			ro |= f(o)
		}
		for _, o := range a.env.Secret {
			rs |= f(o)
		}
		return ro, rs
	}
	switch {
	case s == "." && a.cwd != "" && !strings.HasPrefix(a.cwd, homeDir):
		return each(func(o string) uint8 { return relatePath(a.cwd, o) })
	case !glob && s[0] == '/' && isClean(s):
		return each(func(o string) uint8 { return relatePath(s, o) })
	case s[0] == '~' && (len(s) == 1 || s[1] == '/'):
		// Under the home directory: compared without joining, if clean.
		rest := strings.TrimLeft(s[1:], "/")
		switch {
		case a.env.Home == "":
			return 0, 0 // nothing is under a home it does not know
		case rest == "":
			return each(func(o string) uint8 { return relatePath(a.env.Home, o) })
		case !glob && isClean(rest):
			return each(func(o string) uint8 { return relateRel(a.env.Home, rest, o) })
		}
	case a.cwd != "" && plainStart(s[0]) && s[0] != '/' && isClean(s) && !strings.HasPrefix(a.cwd, homeDir):
		// The common case: a relative path, compared without joining.
		if !glob {
			if to, ts := a.table(&a.ownTab, a.env.Own), a.table(&a.secretTab, a.env.Secret); to != nil && ts != nil {
				return to.relate(s), ts.relate(s)
			}
			return each(func(o string) uint8 { return relateRel(a.cwd, s, o) })
		}
		return each(func(o string) uint8 { return relateRelGlob(a.cwd, s, o) })
	}
	p, ok := a.abs(s)
	if !ok {
		if glob || s[0] == '~' || !plainStart(s[0]) {
			return 0, 0
		}
		rel := path.Clean(s)
		return each(func(o string) uint8 { return relateTail(rel, o) })
	}
	p = a.realHome(p)
	if glob {
		return each(func(o string) uint8 { return relateGlob(p, o) })
	}
	return each(func(o string) uint8 { return relatePath(p, o) })
}

// plainStart reports a first byte that leaves a relative path as written:
// not ~, $ or ` (which a.abs expands or cannot resolve).
func plainStart(c byte) bool { return c != '~' && c != '$' && c != '`' }

// realHome maps a path under homeDir to the same path under Env.Home, if
// that is known.
func (a *analyzer) realHome(p string) string {
	h := a.env.Home
	if h == "" || !strings.HasPrefix(p, homeDir) {
		return p
	}
	rest := p[len(homeDir):]
	if rest != "" && rest[0] != '/' {
		return p
	}
	return path.Clean(h + rest)
}

// relatePath relates the clean absolute path p to o.
func relatePath(p, o string) uint8 {
	switch {
	case p == o:
		return relSame
	case under(p, o):
		return relInside
	case under(o, p):
		return relAncestor
	}
	return 0
}

// under reports whether the clean absolute path p is strictly inside dir.
func under(p, dir string) bool {
	if dir == "/" {
		return len(p) > 1 && p[0] == '/'
	}
	return len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir
}

// relateRel relates dir/rel to o, for a clean absolute dir and a clean
// relative rel, without building dir/rel.
func relateRel(dir, rel, o string) uint8 {
	var ro string // o relative to dir
	switch {
	case dir == "/" && len(o) > 1:
		ro = o[1:]
	case under(o, dir):
		ro = o[len(dir)+1:]
	case dir == o || under(dir, o):
		return relInside
	default:
		return 0
	}
	switch {
	case rel == ro:
		return relSame
	case len(rel) > len(ro) && rel[len(ro)] == '/' && rel[:len(ro)] == ro:
		return relInside
	case len(ro) > len(rel) && ro[len(rel)] == '/' && ro[:len(rel)] == rel:
		return relAncestor
	}
	return 0
}

// relEntry is a path of Env.Own or Env.Secret seen from the current
// directory: relative to it (ro, "" if it is not under it), or holding it.
type relEntry struct {
	ro    string
	holds bool // the current directory is the path or inside it
}

// relate relates a clean relative path to the entry's path: it is
// relateRel without the work that depends only on the directory.
func (e *relEntry) relate(rel string) uint8 {
	switch {
	case e.holds:
		return relInside
	case e.ro == "" || rel[0] != e.ro[0]:
		return 0
	case rel == e.ro:
		return relSame
	case len(rel) > len(e.ro) && rel[len(e.ro)] == '/' && rel[:len(e.ro)] == e.ro:
		return relInside
	case len(e.ro) > len(rel) && e.ro[len(rel)] == '/' && e.ro[:len(rel)] == rel:
		return relAncestor
	}
	return 0
}

// relTable holds the entries of a list for one current directory, and
// what a relative path must start with to relate to any of them.
type relTable struct {
	cwd     string
	n       int
	entries [8]relEntry
	holds   bool    // an entry holds the current directory
	first   byteSet // the first bytes of the entries' relative paths
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// table returns t filled with the entries of list for the current
// directory, computed when it changes; nil for a longer list.
func (a *analyzer) table(t *relTable, list []string) *relTable {
	if len(list) > len(t.entries) {
		return nil
	}
	if t.n != len(list) || t.cwd != a.cwd {
		*t = relTable{cwd: a.cwd, n: len(list)}
		for i, o := range list {
			e := relEntry{}
			switch {
			case a.cwd == "/" && len(o) > 1:
				e.ro = o[1:]
			case under(o, a.cwd):
				e.ro = o[len(a.cwd)+1:]
			case a.cwd == o || under(a.cwd, o):
				e.holds = true
			}
			t.entries[i] = e
			t.holds = t.holds || e.holds
			if e.ro != "" {
				t.first.add(e.ro[0])
			}
		}
	}
	return t
}

// relate relates the clean relative path rel to the table's paths.
func (t *relTable) relate(rel string) uint8 {
	if t.n == 0 || !t.holds && !t.first.has(rel[0]) {
		return 0
	}
	var r uint8
	for i := range t.entries[:t.n] {
		r |= t.entries[i].relate(rel)
	}
	return r
}

// relateGlob relates the clean absolute pattern p to o, element by element.
func relateGlob(p, o string) uint8 {
	if p == "/" {
		return relatePath(p, o)
	}
	return matchElems(p[1:], o[1:])
}

// relateRelGlob relates dir/rel to o, for a clean absolute dir and a clean
// relative pattern rel, without building dir/rel.
func relateRelGlob(dir, rel, o string) uint8 {
	var ro string // o relative to dir
	switch {
	case dir == "/" && len(o) > 1:
		ro = o[1:]
	case under(o, dir):
		ro = o[len(dir)+1:]
	case dir == o || under(dir, o):
		return relInside
	default:
		return 0
	}
	return matchElems(rel, ro)
}

// matchElems relates the relative pattern p to the relative path o ("" is
// the directory both are relative to), matching element by element.
func matchElems(p, o string) uint8 {
	for {
		if o == "" {
			if p == "" {
				return relSame
			}
			return relInside
		}
		if p == "" {
			return relAncestor
		}
		pe, prest, _ := strings.Cut(p, "/")
		oe, orest, _ := strings.Cut(o, "/")
		if ok, err := path.Match(pe, oe); err != nil || !ok {
			return 0
		}
		p, o = prest, orest
	}
}

// relateTail relates a clean relative path rel, whose directory is unknown,
// to o: it is o (or inside o) if o ends with rel (or with its first
// elements).
func relateTail(rel, o string) uint8 {
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return 0
	}
	for k := len(rel); k > 0; {
		head := rel[:k]
		if len(o) > len(head) && o[len(o)-len(head)-1] == '/' && o[len(o)-len(head):] == head {
			if k == len(rel) {
				return relSame
			}
			return relInside
		}
		k = strings.LastIndexByte(head, '/')
	}
	return 0
}

// rel returns how the word v (its paths as pathsIn finds them, m being
// its marks, or nil to find them) relates to Env.Own and Env.Secret.
// Recent answers are kept: the checks of one word ask in turn, and the
// words of a command are checked more than once.
func (a *analyzer) rel(v string, m *marks) (own, secret uint8) {
	if len(a.env.Own) == 0 && len(a.env.Secret) == 0 {
		return 0, 0
	}
	memo := &a.relMemo
	for i := range memo.n {
		if e := &memo.e[i]; e.v == v && e.cwd == a.cwd {
			return e.own, e.secret
		}
	}
	if m == nil {
		mk := findMarks(v)
		m = &mk
	}
	if m.eq < 0 && m.at < 0 && m.colon < 0 && !m.blank && v != "" && v[0] != '-' && v[0] != '<' {
		own, secret = a.relate(v) // the usual case: v is all there is
	} else {
		m.pathsIn(v, func(s string) bool {
			o, sec := a.relate(s)
			own, secret = own|o, secret|sec
			return false
		})
	}
	memo.e[memo.next] = relAnswer{v: v, cwd: a.cwd, own: own, secret: secret}
	memo.next = (memo.next + 1) % len(memo.e)
	if memo.n < len(memo.e) {
		memo.n++
	}
	return own, secret
}

// relMemo keeps the last answers of rel.
type relMemo struct {
	e       [8]relAnswer
	n, next int
}

type relAnswer struct {
	v, cwd      string
	own, secret uint8
}

// ownTree reports an operand of a recursive or moving command that names
// one of Env.Own, something inside one, or a directory holding one.
func (a *analyzer) ownTree(w Word) bool {
	if len(a.env.Own) == 0 {
		return false
	}
	own, _ := a.relate(w.Value)
	return own != 0
}

// secretIn reports whether v names something inside one of Env.Secret.
func (a *analyzer) secretIn(v string) bool {
	_, secret := a.rel(v, nil)
	return secret&relInside != 0
}

// exposes reports a word naming something the agent may not send out: a
// protected or sensitive file, one of Env.Own or Env.Secret, something
// inside one, or a directory holding one.
func (a *analyzer) exposes(v string) bool {
	if own, secret := a.rel(v, nil); own|secret != 0 {
		return true
	}
	return a.protected(v) || a.sensitive(v)
}

// sensitive reports whether v names a sensitive file (Env.Sensitive), or
// something inside one of Env.Secret.
func (a *analyzer) sensitive(v string) bool {
	if a.secretIn(v) {
		return true
	}
	if a.env.Sensitive == nil {
		return false
	}
	m := findMarks(v)
	return m.pathsIn(v, a.isSensitive) || probe(v, m, false, a.isSensitive)
}
