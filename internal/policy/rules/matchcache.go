package rules

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// matchCacheSlots bounds a matchCache, each of whose paths has at most
// maxCachedPath bytes.
const matchCacheSlots = 1024 // a power of two

// matchCache remembers which pattern of a matcher the last paths matched,
// keyed by the exact path. matchPath is a function of the path alone for
// one matcher (its patterns are fixed when the policy is compiled, and it
// never touches the file system), so a hit returns what matchPath returns.
//
// Like commandCache it is direct-mapped with immutable entries swapped
// atomically: lookups take no lock and allocate nothing, a flood of
// distinct paths only evicts, and it lives and dies with its matcher.
type matchCache struct {
	seed  maphash.Seed
	slots [matchCacheSlots]atomic.Pointer[matchEntry]
}

type matchEntry struct {
	path, pattern string
	hit           bool
}

func newMatchCache() *matchCache {
	return &matchCache{seed: maphash.MakeSeed()}
}

// match returns m.matchPath(abs), from c when it holds it.
func (c *matchCache) match(m *matcher, abs string) (string, bool) {
	if len(abs) > maxCachedPath {
		return m.matchPath(abs)
	}
	slot := &c.slots[maphash.String(c.seed, abs)&(matchCacheSlots-1)]
	if e := slot.Load(); e != nil && e.path == abs {
		return e.pattern, e.hit
	}
	pat, hit := m.matchPath(abs)
	// abs may be a slice of a call's arguments: the entry keeps a copy,
	// not the arguments.
	slot.Store(&matchEntry{path: strings.Clone(abs), pattern: pat, hit: hit})
	return pat, hit
}
