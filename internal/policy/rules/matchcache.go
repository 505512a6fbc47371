package rules

import "github.com/wardhq/ward/internal/policy/slot"

// matchCache remembers which pattern of a matcher the last paths matched,
// keyed by the exact path. matchPath is a function of the path alone for
// one matcher (its patterns are fixed when the policy is compiled, and it
// never touches the file system), so a hit returns what matchPath returns.
//
// It is a slot.Cache: bounded, lock-free, allocation-free on a hit, a flood
// only evicts, and it lives and dies with its matcher. Paths longer than
// maxCachedPath are matched every time.
type matchCache struct {
	*slot.Cache[slotKey, matched]
}

// matched is what matchPath returned for one path: the pattern is one of
// the matcher's own strings, never the path's bytes.
type matched struct {
	pattern string
	hit     bool
}

func newMatchCache() *matchCache {
	return &matchCache{slot.New[slotKey, matched](slotKey.clone)}
}

// match returns m.matchPath(abs), from c when it holds it.
func (c *matchCache) match(m *matcher, abs string) (string, bool) {
	if len(abs) > maxCachedPath {
		return m.matchPath(abs)
	}
	k := slotKey{s: abs}
	if r, ok := c.Get(k); ok {
		return r.pattern, r.hit
	}
	pat, hit := m.matchPath(abs)
	c.Put(k, matched{pat, hit})
	return pat, hit
}
