package audit

import (
	"fmt"
	"sync"
	"testing"
)

// A rule list's text is the exact text given, interned or not, whatever
// was interned before it, and the recorder keeps at most maxListTexts.
func TestListTexts(t *testing.T) {
	var l listTexts
	list := func(i int) []byte { return fmt.Appendf(nil, `["rule.%d","rule.%d"]`, i, i+1) }
	for round := range 2 {
		for i := range 3 * maxListTexts {
			b := list(i)
			if got := l.text(b); got != string(b) {
				t.Fatalf("round %d: text(%s) = %s", round, b, got)
			}
		}
	}
	if n := len(*l.m.Load()); n != maxListTexts {
		t.Errorf("%d lists interned, want the bound %d", n, maxListTexts)
	}
	// A prefix, an extension and a list differing in one byte are other lists.
	for _, s := range []string{`["rule.1"`, `["rule.1","rule.2"] `, `["rule.1","rule.3"]`, ``} {
		if got := l.text([]byte(s)); got != s {
			t.Errorf("text(%q) = %q", s, got)
		}
	}
	var nilList *listTexts
	if got := nilList.text([]byte(`[]`)); got != `[]` {
		t.Errorf("nil: text([]) = %q", got)
	}
}

func TestListTextsConcurrent(t *testing.T) {
	var l listTexts
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				b := fmt.Appendf(nil, `["r%d"]`, (g*7+i)%300)
				if got := l.text(b); got != string(b) {
					t.Errorf("text(%s) = %s", b, got)
					return
				}
			}
		})
	}
	wg.Wait()
}
