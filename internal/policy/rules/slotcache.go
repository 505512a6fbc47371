package rules

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// cacheSlots is the number of slots of every slotCache: a power of two.
const cacheSlots = 1024

// slotKey is what a slotCache is keyed by: two strings, compared exactly
// (a directory and the command or path the call spelled; dir is empty
// for a cache keyed by one string).
type slotKey struct{ dir, s string }

// slotCache remembers the values of a function of a slotKey for the last
// keys seen; its users cache results that are a function of the key alone
// for one compiled policy, so that a hit returns what computing would.
//
// It is direct-mapped: a key's hash (seeded per cache, so an attacker who
// has read the source cannot aim at a slot) picks one slot, and a new key
// replaces whatever the slot held. A flood of distinct keys therefore
// costs a bounded amount of memory and only evicts; it never changes what
// a lookup returns, because a slot answers only for the exact key it
// holds. A slot holds an immutable entry swapped atomically, so lookups
// take no lock and allocate nothing; a value is shared by every caller
// that hits it and must not be changed. The entry keeps copies of the
// key's strings, never the caller's bytes (often a slice of a call's
// arguments). Bounding the size of keys is the caller's business.
//
// It is safe for concurrent use. It lives and dies with what owns it (a
// rule of one snapshot): a reload starts empty.
type slotCache[V any] struct {
	seed  maphash.Seed
	slots [cacheSlots]atomic.Pointer[slotEntry[V]]
}

type slotEntry[V any] struct {
	key slotKey
	val V
}

func newSlotCache[V any]() *slotCache[V] {
	return &slotCache[V]{seed: maphash.MakeSeed()}
}

// get returns the value remembered for exactly k, if its slot holds it.
func (c *slotCache[V]) get(k slotKey) (V, bool) {
	if e := c.slot(k).Load(); e != nil && e.key == k {
		return e.val, true
	}
	var zero V
	return zero, false
}

// put remembers v for k, evicting whatever k's slot held. v must not share
// bytes with a call's arguments: put copies the key, not the value.
func (c *slotCache[V]) put(k slotKey, v V) {
	c.slot(k).Store(&slotEntry[V]{key: slotKey{dir: strings.Clone(k.dir), s: strings.Clone(k.s)}, val: v})
}

func (c *slotCache[V]) slot(k slotKey) *atomic.Pointer[slotEntry[V]] {
	if k.dir == "" {
		return &c.slots[maphash.String(c.seed, k.s)&(cacheSlots-1)]
	}
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(k.dir)
	h.WriteByte(0)
	h.WriteString(k.s)
	return &c.slots[h.Sum64()&(cacheSlots-1)]
}

// len returns the number of slots in use, for tests.
func (c *slotCache[V]) len() int {
	n := 0
	for i := range c.slots {
		if c.slots[i].Load() != nil {
			n++
		}
	}
	return n
}
