package rules

import (
	"maps"
	"sync/atomic"
)

// maxTextMemo bounds a textMemo: past it, texts are built every time.
const maxTextMemo = 256

// textMemo remembers the texts built from keys of a small, fixed set (the
// patterns of one compiled policy, the fixed findings of shell analysis),
// so that a deny message is concatenated once instead of on every call.
// The zero value is ready to use and safe for concurrent use. A lookup
// takes no lock and allocates nothing: the map is immutable and replaced
// whole when a text is added, which happens at most maxTextMemo times.
type textMemo[K comparable] struct {
	m atomic.Pointer[map[K]string]
}

// get returns build(k), remembered.
func (c *textMemo[K]) get(k K, build func(K) string) string {
	if m := c.m.Load(); m != nil {
		if s, ok := (*m)[k]; ok {
			return s
		}
	}
	s := build(k)
	for {
		old := c.m.Load()
		next := map[K]string{}
		if old != nil {
			if len(*old) >= maxTextMemo {
				return s
			}
			next = maps.Clone(*old)
		}
		next[k] = s
		if c.m.CompareAndSwap(old, &next) {
			return s
		}
	}
}
