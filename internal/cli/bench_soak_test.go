package cli

import (
	"encoding/json"
	"testing"
)

// TestBenchSoakJSON runs a short soak and checks its JSON figures: every
// interval reports each operation and the process's resources, every
// operation ran.
func TestBenchSoakJSON(t *testing.T) {
	out, errOut, code := run(t, "", "bench", "soak", "--duration", "5s", "--clients", "4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		DurationS float64 `json:"duration_s"`
		Clients   int     `json:"clients"`
		IntervalS float64 `json:"interval_s"`
		Start     struct {
			RSSMB float64 `json:"rss_mb"`
			DBMB  float64 `json:"db_mb"`
		} `json:"start"`
		Intervals []struct {
			StartS, EndS float64
			Ops          map[string]struct {
				Count  int            `json:"count"`
				PerSec float64        `json:"per_sec"`
				Errors map[string]int `json:"errors"`
				P50    int64          `json:"p50_ns"`
				P99    int64          `json:"p99_ns"`
			} `json:"ops"`
			RSSMB            float64  `json:"rss_mb"`
			Goroutines       int      `json:"goroutines"`
			OpenFDs          int      `json:"open_fds"`
			DBMB             float64  `json:"db_mb"`
			DBGrowthMBPerMin *float64 `json:"db_growth_mb_per_min"`
			ChainBlock       uint64   `json:"chain_block"`
			ChainAheadS      *float64 `json:"chain_ahead_s"`
		} `json:"intervals"`
		Totals map[string]struct {
			Count  int            `json:"count"`
			Errors map[string]int `json:"errors"`
		} `json:"totals"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not the JSON object: %v\n%s", err, out)
	}
	if res.DurationS != 5 || res.Clients != 4 || res.IntervalS != 1 {
		t.Errorf("duration %v s, %d clients, intervals of %v s; want 5, 4, 1", res.DurationS, res.Clients, res.IntervalS)
	}
	if res.Start.RSSMB <= 0 || res.Start.DBMB <= 0 {
		t.Errorf("start = %+v, want its RSS and database size", res.Start)
	}
	if n := len(res.Intervals); n < 4 || n > 6 {
		t.Fatalf("%d intervals in 5 s of 1 s intervals", n)
	}
	var head uint64
	for i, iv := range res.Intervals {
		// The chain's head is read at the interval's end: 0 when the
		// in-process chain did not answer in time (a starved machine).
		head = max(head, iv.ChainBlock)
		if iv.RSSMB <= 0 || iv.Goroutines <= 0 || iv.OpenFDs <= 0 || iv.DBMB <= 0 || iv.DBGrowthMBPerMin == nil || iv.ChainAheadS == nil {
			t.Errorf("interval %d resources = %+v, want all of them", i, iv)
		}
		for _, op := range []string{"read", "preview", "commit", "cancel"} {
			o, ok := iv.Ops[op]
			if !ok {
				t.Errorf("interval %d has no %s figures", i, op)
			} else if o.Count > 0 && (o.P50 <= 0 || o.P99 < o.P50 || o.PerSec <= 0) {
				t.Errorf("interval %d %s = %+v: want p50 > 0, p99 >= p50, a rate", i, op, o)
			}
		}
	}
	if head == 0 {
		t.Error("no interval reports the chain's head")
	}
	for _, op := range []string{"read", "preview", "commit", "cancel"} {
		tot := res.Totals[op]
		if tot.Count == 0 {
			t.Errorf("no %s in the run", op)
		}
		// Failures are reported, not judged here: on a machine starved by
		// other test packages the in-process chain's calls time out
		// (reads EXECUTION_FAILED, previews CHAIN_UNAVAILABLE, seen once
		// in a loaded package run). That concurrent swaps do not fail each
		// other over an allowance is TestConcurrentSwapsAllCommit's.
		if len(tot.Errors) > 0 {
			t.Logf("%s failures: %v", op, tot.Errors)
		}
	}
}
