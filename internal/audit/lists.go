package audit

import (
	"maps"
	"sync"
	"sync/atomic"
)

// maxListTexts bounds the rule lists a recorder interns. A policy
// evaluates few distinct lists (they are rule names in the policy's order,
// not anything a caller writes); past the bound a list is allocated per
// record, as without interning.
const maxListTexts = 1024

// listTexts interns the JSON text of rule lists: every decision's record
// carries the lists of rules evaluated and triggered, which repeat from
// one decision to the next, so a record takes the text of a list seen
// before instead of allocating it. Lookups read an immutable map without a
// lock; a new list copies it. A list is found only by its exact text.
// The zero value is ready; a nil *listTexts interns nothing.
type listTexts struct {
	m  atomic.Pointer[map[string]string]
	mu sync.Mutex // serialises additions
}

// text returns b as a string, the interned copy when there is one.
func (l *listTexts) text(b []byte) string {
	if l == nil {
		return string(b)
	}
	if m := l.m.Load(); m != nil {
		if s, ok := (*m)[string(b)]; ok {
			return s
		}
	}
	s := string(b)
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.m.Load()
	var n int
	if old != nil {
		if t, ok := (*old)[s]; ok {
			return t
		}
		n = len(*old)
	}
	if n >= maxListTexts {
		return s
	}
	m := map[string]string{s: s}
	if old != nil {
		m = maps.Clone(*old)
		m[s] = s
	}
	l.m.Store(&m)
	return s
}
