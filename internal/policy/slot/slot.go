// Package slot is a bounded, lock-free memo of a pure function's results:
// a direct-mapped table of the last keys seen.
//
// A Cache is for values that are a function of the key alone for the life
// of their owner (one compiled policy), so that a hit returns what
// computing would. It is direct-mapped: a key's hash, seeded per cache so
// that an attacker who has read the source cannot aim at a slot, picks
// one slot, and a new key replaces whatever the slot held. A flood of
// distinct keys therefore costs a bounded amount of memory and only
// evicts: it never changes what a lookup returns, because a slot answers
// only for the exact key it holds (compared with ==, never by hash).
// A slot holds an immutable entry swapped atomically, so lookups take no
// lock and allocate nothing. Values are shared by every caller that hits
// them and must not be changed. Entries keep the key as the cache's clone
// function copies it, never the caller's bytes (often a slice of a call's
// arguments). Bounding the size of keys is the caller's business.
package slot

import (
	"hash/maphash"
	"sync/atomic"
)

// Slots is the number of slots of every Cache.
const Slots = 1024 // a power of two

// Cache remembers values for the last keys seen. It is safe for concurrent
// use; make one with New.
type Cache[K comparable, V any] struct {
	seed  maphash.Seed
	clone func(K) K
	slots [Slots]atomic.Pointer[entry[K, V]]
}

type entry[K comparable, V any] struct {
	key K
	val V
}

// New returns an empty cache. clone returns a copy of a key that shares
// no memory with it (strings.Clone of its strings); nil means keys are
// plain values that need no copy.
func New[K comparable, V any](clone func(K) K) *Cache[K, V] {
	return &Cache[K, V]{seed: maphash.MakeSeed(), clone: clone}
}

// Get returns the value remembered for exactly k, if k's slot holds it.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	if e := c.slot(k).Load(); e != nil && e.key == k {
		return e.val, true
	}
	var zero V
	return zero, false
}

// Put remembers v for k, evicting whatever k's slot held. The entry keeps
// a clone of k; v is kept as given and must not share memory with a
// call's arguments.
func (c *Cache[K, V]) Put(k K, v V) {
	if c.clone != nil {
		k = c.clone(k)
	}
	c.slot(k).Store(&entry[K, V]{key: k, val: v})
}

func (c *Cache[K, V]) slot(k K) *atomic.Pointer[entry[K, V]] {
	return &c.slots[maphash.Comparable(c.seed, k)&(Slots-1)]
}

// Len returns the number of slots in use.
func (c *Cache[K, V]) Len() int {
	n := 0
	for i := range c.slots {
		if c.slots[i].Load() != nil {
			n++
		}
	}
	return n
}

// Kept returns the key the cache keeps for k, if k's slot holds it, so
// that a caller's tests can check that it shares no memory with k.
func (c *Cache[K, V]) Kept(k K) (K, bool) {
	if e := c.slot(k).Load(); e != nil && e.key == k {
		return e.key, true
	}
	var zero K
	return zero, false
}
