package slot

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// slotKey is a key of two strings, as ward's caches use: a directory and
// a command or path.
type slotKey struct{ dir, s string }

func cloneKey(k slotKey) slotKey { return slotKey{strings.Clone(k.dir), strings.Clone(k.s)} }

func newSlotCache() *Cache[slotKey, string] { return New[slotKey, string](cloneKey) }

// slotValue is the value the slotCache tests remember for a key: derived
// from the key alone, so that any answer can be checked.
func slotValue(k slotKey) string { return k.dir + "|" + k.s }

// collidingKeys returns n distinct keys that c maps to one slot.
func collidingKeys(c *Cache[slotKey, string], dir string, n int) []slotKey {
	var keys []slotKey
	want := c.slot(slotKey{dir: dir, s: "k0"})
	for i := 0; len(keys) < n; i++ {
		if k := (slotKey{dir: dir, s: fmt.Sprintf("k%d", i)}); c.slot(k) == want {
			keys = append(keys, k)
		}
	}
	return keys
}

// TestSlotCacheExactKey checks that a slot answers only for the exact key
// it holds: not for another key of the same slot, not for a key whose
// strings split the same bytes differently, and not for an empty key.
func TestSlotCacheExactKey(t *testing.T) {
	c := newSlotCache()
	for _, dir := range []string{"", "/work"} {
		keys := collidingKeys(c, dir, 3)
		c.Put(keys[0], slotValue(keys[0]))
		if v, ok := c.Get(keys[0]); !ok || v != slotValue(keys[0]) {
			t.Errorf("get(%q) = %q, %v after put; want %q, true", keys[0], v, ok, slotValue(keys[0]))
		}
		for _, k := range keys[1:] {
			if v, ok := c.Get(k); ok {
				t.Errorf("get(%q) = %q from the slot holding %q; want a miss", k, v, keys[0])
			}
		}
		c.Put(keys[1], slotValue(keys[1]))
		if v, ok := c.Get(keys[0]); ok {
			t.Errorf("get(%q) = %q after its slot was given to %q; want a miss", keys[0], v, keys[1])
		}
	}
	for _, pair := range [][2]slotKey{
		{{"/a", "bc"}, {"/ab", "c"}},
		{{"", "/a/b"}, {"/a", "/b"}},
		{{"x", ""}, {"", "x"}},
		{{"/w", "rm -rf ."}, {"/w/", "rm -rf ."}},
		{{"", "a"}, {"", "A"}},
	} {
		c := newSlotCache()
		c.Put(pair[0], slotValue(pair[0]))
		if v, ok := c.Get(pair[1]); ok {
			t.Errorf("get(%q) = %q with only %q put; want a miss", pair[1], v, pair[0])
		}
	}
	if v, ok := newSlotCache().Get(slotKey{}); ok {
		t.Errorf("an empty cache answered %q for the empty key", v)
	}
}

// TestSlotCacheCopiesKey checks that an entry keeps copies of its key's
// strings, not the caller's bytes.
func TestSlotCacheCopiesKey(t *testing.T) {
	buf := []byte("/srv/agent notes/plan.md")
	k := slotKey{dir: unsafe.String(&buf[0], 10), s: unsafe.String(&buf[11], len(buf)-11)}
	c := newSlotCache()
	c.Put(k, "v")
	kept, ok := c.Kept(k)
	if !ok {
		t.Fatal("nothing stored")
	}
	if unsafe.StringData(kept.dir) == unsafe.StringData(k.dir) || unsafe.StringData(kept.s) == unsafe.StringData(k.s) {
		t.Error("the entry shares the caller's bytes")
	}
	copy(buf, "XXXXXXXXXXXXXXXXXXXXXXXX")
	if v, ok := c.Get(slotKey{"/srv/agent", "notes/plan.md"}); !ok || v != "v" {
		t.Errorf("after the caller's bytes changed, get = %q, %v; want \"v\", true", v, ok)
	}
}

// TestSlotCacheFlood puts many times more distinct keys than there are
// slots and checks that the cache stays bounded and that every lookup,
// during and after the flood, misses or returns exactly its key's value.
func TestSlotCacheFlood(t *testing.T) {
	c := newSlotCache()
	key := func(i int) slotKey { return slotKey{dir: []string{"", "/a", "/b"}[i%3], s: fmt.Sprintf("p%d", i)} }
	const n = 50 * Slots
	hits := 0
	for i := range n {
		k := key(i)
		c.Put(k, slotValue(k))
		for _, j := range []int{i, i / 2, i - 1, 7} {
			if j < 0 {
				continue
			}
			q := key(j)
			if v, ok := c.Get(q); ok {
				if v != slotValue(q) {
					t.Fatalf("get(%q) = %q, want %q or a miss", q, v, slotValue(q))
				}
				hits++
			}
		}
	}
	if got := c.Len(); got > Slots || got < Slots/2 {
		t.Errorf("after %d distinct keys the cache holds %d, want at most %d (and most slots used)", n, got, Slots)
	}
	if hits < n {
		t.Errorf("%d hits for %d lookups of the key just put; want at least that many", hits, n)
	}
}

// TestSlotCacheConcurrent puts and gets from several goroutines on keys
// that collide in a few slots and checks every answer (run it with -race).
func TestSlotCacheConcurrent(t *testing.T) {
	c := newSlotCache()
	keys := append(collidingKeys(c, "", 8), collidingKeys(c, "/w", 8)...)
	for i := range 200 {
		keys = append(keys, slotKey{dir: "/w", s: strings.Repeat("x", i)})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 20000 {
				k := keys[(i*(g+1)+g)%len(keys)]
				v, ok := c.Get(k)
				if !ok {
					c.Put(k, slotValue(k))
					continue
				}
				if v != slotValue(k) {
					errs <- fmt.Sprintf("get(%q) = %q, want %q", k, v, slotValue(k))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
