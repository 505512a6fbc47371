package main

import "testing"

func TestGCSettings(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	const gib = 1 << 30
	for _, tc := range []struct {
		name    string
		getenv  func(string) string
		mem     uint64
		percent int
		limit   int64
	}{
		{"defaults", env(), 8 * gib, gcPercent, 6 * gib},
		{"memory unknown: no limit", env(), 0, gcPercent, -1},
		{"the operator's GOGC is the runtime's", env("GOGC", "100"), 8 * gib, -1, 6 * gib},
		{"GOGC=off is the operator's too", env("GOGC", "off"), 8 * gib, -1, 6 * gib},
		{"the operator's GOMEMLIMIT is the runtime's", env("GOMEMLIMIT", "2GiB"), 8 * gib, gcPercent, -1},
		{"both set: nothing changed", env("GOGC", "50", "GOMEMLIMIT", "1GiB"), 8 * gib, -1, -1},
	} {
		p, l := gcSettings(tc.getenv, tc.mem)
		if p != tc.percent || l != tc.limit {
			t.Errorf("%s: gcSettings = %d, %d; want %d, %d", tc.name, p, l, tc.percent, tc.limit)
		}
	}
	if totalMemory() == 0 {
		t.Log("this platform's memory is not read: no limit is set")
	}
}
