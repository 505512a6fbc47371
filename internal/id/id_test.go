package id

import (
	"sync"
	"testing"
	"time"
)

func TestMonotonicAndUnique(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	prev := ""
	for i := range 10_000 {
		at := now
		if i%1000 == 999 {
			at = now.Add(-time.Hour) // the clock steps back: ids still increase
		}
		s := New(at)
		if !Valid(s) {
			t.Fatalf("invalid id %q", s)
		}
		if s <= prev {
			t.Fatalf("id %d %q not after %q", i, s, prev)
		}
		prev = s
	}
}

func TestConcurrentUnique(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			local := make([]string, 0, 2000)
			for range 2000 {
				local = append(local, New(time.Now()))
			}
			mu.Lock()
			defer mu.Unlock()
			for _, s := range local {
				if seen[s] {
					t.Errorf("duplicate id %s", s)
				}
				seen[s] = true
			}
		})
	}
	wg.Wait()
}

func TestMinAt(t *testing.T) {
	t1 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	if s := New(t1.Add(time.Millisecond)); s < MinAt(t1) || s >= MinAt(t1.Add(2*time.Millisecond)) {
		t.Errorf("id %s outside [%s, %s)", s, MinAt(t1), MinAt(t1.Add(2*time.Millisecond)))
	}
	if MinAt(t1) >= MinAt(t1.Add(time.Millisecond)) {
		t.Error("MinAt does not increase with time")
	}
}

func TestValid(t *testing.T) {
	for s, want := range map[string]bool{
		"01JD0000000000000000000001": true,
		"01JD000000000000000000000":  false, // short
		"81JD0000000000000000000001": false, // overflows 48 bits
		"01JD000000000000000000000I": false, // not Crockford
		"01jd0000000000000000000001": false, // lower case
	} {
		if got := Valid(s); got != want {
			t.Errorf("Valid(%q) = %v, want %v", s, got, want)
		}
	}
}
