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

// TestOpaqueUnguessable is the attack on ids issued back to back: two opaque
// ids made in the same millisecond share their time prefix and nothing
// else that a guesser could use. Over many pairs, the random parts agree
// per position about as often as chance (1 in 32) and never in a run
// longer than a few characters; New's monotonic ids, by contrast, agree on
// everything but their tail.
func TestOpaqueUnguessable(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	const pairs = 20_000
	same, longest := 0, 0
	seen := map[string]bool{}
	for range pairs {
		a, b := Opaque(now), Opaque(now)
		if !ValidOpaque(a) || !ValidOpaque(b) || ValidOpaque(New(now)) || Valid(a) {
			t.Fatalf("shapes: %q %q", a, b)
		}
		if !ValidAny(a) || !ValidAny(New(now)) {
			t.Fatal("ValidAny refuses an id")
		}
		if a[:10] != b[:10] {
			t.Fatalf("time prefixes differ within one millisecond: %q %q", a, b)
		}
		if seen[a] || seen[b] || a == b {
			t.Fatalf("repeated id %q", a)
		}
		seen[a], seen[b] = true, true
		run := 0
		for i := 10; i < OpaqueLen; i++ {
			if a[i] == b[i] {
				same++
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	rate := float64(same) / float64(pairs*(OpaqueLen-10))
	if rate < 0.025 || rate > 0.038 {
		t.Errorf("random parts agree at %.4f of positions, want about 1/32", rate)
	}
	if longest > 7 {
		t.Errorf("a run of %d equal random characters: too regular", longest)
	}
	// The contrast: monotonic ids made back to back share 22 or more of
	// their 26 characters, which is why no client ever sees one.
	x, y := New(now), New(now)
	common := 0
	for common < Len && x[common] == y[common] {
		common++
	}
	if common < 20 {
		t.Errorf("monotonic ids %q %q share only %d leading characters", x, y, common)
	}
}

func TestOpaqueSortsByTime(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	if a, b := Opaque(t0), Opaque(t0.Add(time.Millisecond)); a >= b {
		t.Errorf("%q not before %q", a, b)
	}
}

// TestBefore: Before(s, t) is s < MinAt(t) for ids made around t (the
// same millisecond, one before and after), MinAt's own text, its
// neighbours and times before the epoch, and allocates nothing.
func TestBefore(t *testing.T) {
	base := time.Date(2026, 11, 29, 8, 0, 0, 123_456_789, time.UTC)
	var ids []string
	for _, d := range []time.Duration{-time.Second, -time.Millisecond, 0, time.Millisecond, time.Hour} {
		at := base.Add(d)
		m := MinAt(at)
		ids = append(ids, New(at), m, m[:Len-1]+"1", m[:9]+"0"+m[10:])
	}
	for _, at := range []time.Time{base, base.Add(-time.Millisecond), base.Add(time.Millisecond), base.Add(time.Hour), time.Unix(-5, 0)} {
		for _, s := range ids {
			if got, want := Before(s, at), s < MinAt(at); got != want {
				t.Errorf("Before(%s, %v) = %v, want %v (MinAt %s)", s, at, got, want, MinAt(at))
			}
		}
	}
	s := New(base)
	if n := testing.AllocsPerRun(100, func() { Before(s, base) }); n != 0 {
		t.Errorf("Before allocates %v times, want 0", n)
	}
}
