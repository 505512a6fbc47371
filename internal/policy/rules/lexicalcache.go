package rules

import (
	"strings"

	"github.com/wardhq/ward/internal/policy/slot"
)

// maxCachedPath bounds the paths (with their base) a lexicalCache and a
// matchCache keep.
const maxCachedPath = 512

// lexicalCache remembers the absolute forms of the last paths made
// absolute (pathSet.lexical), keyed by the path as the call spelled it and
// the directory it is relative to. lexical is a function of those two
// alone for one pathSet (its home is fixed when the policy is compiled)
// and never touches the file system, so a hit returns what lexical
// returns, without the concatenation it allocates for a relative path.
// Symlinks are resolved after it, every call, by the Resolver.
//
// It is a slot.Cache: bounded, lock-free, a flood only evicts, and it
// lives and dies with its snapshot. Failures are not cached.
type lexicalCache struct {
	*slot.Cache[slotKey, string]
}

func newLexicalCache() *lexicalCache {
	return &lexicalCache{slot.New[slotKey, string](slotKey.clone)}
}

// lexical returns ps.lexical(p, base), from c when it holds it.
func (c *lexicalCache) lexical(ps *pathSet, p, base string) (string, error) {
	if len(p)+len(base) > maxCachedPath {
		return ps.lexical(p, base)
	}
	k := slotKey{dir: base, s: p}
	if abs, ok := c.Get(k); ok {
		return abs, nil
	}
	abs, err := ps.lexical(p, base)
	if err == nil {
		// abs may be p itself, a slice of a call's arguments: the entry
		// keeps a copy.
		c.Put(k, strings.Clone(abs))
	}
	return abs, err
}
