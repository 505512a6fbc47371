package rules

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// Bounds of a lexicalCache: at most lexicalCacheSlots paths, each of at
// most maxCachedPath bytes with its base.
const (
	lexicalCacheSlots = 1024 // a power of two
	maxCachedPath     = 512
)

// lexicalCache remembers the absolute forms of the last paths made
// absolute (pathSet.lexical), keyed by the path as the call spelled it and
// the directory it is relative to. lexical is a function of those two
// alone for one pathSet (its home is fixed when the policy is compiled)
// and never touches the file system, so a hit returns what lexical
// returns, without the concatenation it allocates for a relative path.
// Symlinks are resolved after it, every call, by the Resolver.
//
// Like commandCache it is direct-mapped with immutable entries swapped
// atomically: lookups take no lock, a flood of distinct paths only evicts,
// and it lives and dies with its snapshot. Failures are not cached.
type lexicalCache struct {
	seed  maphash.Seed
	slots [lexicalCacheSlots]atomic.Pointer[lexicalEntry]
}

type lexicalEntry struct {
	base, path, abs string
}

func newLexicalCache() *lexicalCache {
	return &lexicalCache{seed: maphash.MakeSeed()}
}

// lexical returns ps.lexical(p, base), from c when it holds it.
func (c *lexicalCache) lexical(ps *pathSet, p, base string) (string, error) {
	if len(p)+len(base) > maxCachedPath {
		return ps.lexical(p, base)
	}
	slot := &c.slots[c.slot(base, p)]
	if e := slot.Load(); e != nil && e.path == p && e.base == base {
		return e.abs, nil
	}
	abs, err := ps.lexical(p, base)
	if err == nil {
		// p, and abs when lexical returns it unchanged, may be slices of
		// a call's arguments: the entry keeps copies, not the arguments.
		e := &lexicalEntry{base: strings.Clone(base), path: strings.Clone(p)}
		e.abs = e.path
		if abs != p {
			e.abs = strings.Clone(abs)
		}
		slot.Store(e)
	}
	return abs, err
}

func (c *lexicalCache) slot(base, p string) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(base)
	h.WriteByte(0)
	h.WriteString(p)
	return h.Sum64() & (lexicalCacheSlots - 1)
}
