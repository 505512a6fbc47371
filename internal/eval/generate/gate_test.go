package generate

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/baseline.json with the rates measured now")

// Tolerance is how far a rate may rise over the baseline: 1 point.
const Tolerance = 0.01

const baselinePath = "testdata/baseline.json"

// timeScore guards the gate's budget: it runs in every `go test ./...`,
// so scoring must stay well under the ~30 s a CI run may spend on it. It
// bounds the CPU time the process spent scoring, not the wall clock: on
// a 2-core machine shared with other test binaries the wall clock of the
// same work varied 4-21 s, and a budget that fails on load is a flake.
const timeScore = 20 * time.Second

// cpuTime is the user and system CPU time this process has used.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// baseline is what testdata/baseline.json holds.
type baseline struct {
	Seed       uint64             `json:"seed"`
	Strictness string             `json:"strictness"`
	FNR        map[string]float64 `json:"fnr"`
	FPR        float64            `json:"fpr"`
	// ClassFPR is recorded for reading, not gated: each class has few
	// clean rows, and the seed's FPR targets are overall.
	ClassFPR map[string]float64 `json:"class_fpr"`
}

// TestRegressionGate scores the generated suite at Standard strictness and
// fails when any class's FNR, or the FPR, is more than Tolerance above the
// committed baseline (seed §14.2: any FNR increase over 1 % requires
// explicit justification).
func TestRegressionGate(t *testing.T) {
	start, wall := cpuTime(t), time.Now()
	res, err := Score(t.Context(), Generate(GateSeed))
	if err != nil {
		t.Fatal(err)
	}
	d := cpuTime(t) - start
	t.Logf("scoring: %v of CPU, %v of wall clock", d, time.Since(wall))
	if d > timeScore && !raceEnabled {
		t.Errorf("scoring took %v of CPU (%v of wall clock), over the gate's budget of %v", d, time.Since(wall), timeScore)
	}
	got := baseline{Seed: GateSeed, Strictness: "standard", FNR: res.FNR, FPR: round4(res.FPR), ClassFPR: res.ClassFPR}
	for k, v := range got.FNR {
		got.FNR[k] = round4(v)
	}
	for k, v := range got.ClassFPR {
		got.ClassFPR[k] = round4(v)
	}
	if *update {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(baselinePath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s:\n%s", baselinePath, b)
		return
	}
	b, err := os.ReadFile(baselinePath)
	if err != nil {
		t.Fatal(err)
	}
	var want baseline
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%s: %v", baselinePath, err)
	}
	if want.Seed != GateSeed {
		t.Fatalf("%s is for seed %d, the gate scores seed %d", baselinePath, want.Seed, GateSeed)
	}
	fails, better := compare(want, got)
	if len(better) > 0 {
		t.Logf("better than %s: %s; lower the baseline with -update so that the gain is kept", baselinePath, strings.Join(better, "; "))
	}
	if len(fails) > 0 {
		t.Errorf("adversarial regression gate: %s (more than %.0f point over %s).\n"+
			"The baseline changes only with a written justification in the commit: if the rise is intended, run\n"+
			"  go test ./internal/eval/generate -run TestRegressionGate -update\n"+
			"and say in the commit message why each rate may rise.\n\n%s",
			strings.Join(fails, "; "), 100*Tolerance, baselinePath, res.Report.Text())
	}
}

// compare returns the rates of got more than Tolerance above want's
// (fails) and more than Tolerance below (better).
func compare(want, got baseline) (fails, better []string) {
	for _, c := range Classes() {
		n := c.String()
		w, ok := want.FNR[n]
		g, measured := got.FNR[n]
		switch {
		case !ok:
			fails = append(fails, fmt.Sprintf("class %s has no baseline FNR", n))
		case !measured:
			fails = append(fails, fmt.Sprintf("class %s was not measured (baseline FNR %.1f%%)", n, 100*w))
		case g > w+Tolerance+1e-9:
			fails = append(fails, fmt.Sprintf("%s FNR rose from %.1f%% to %.1f%%", n, 100*w, 100*g))
		case g < w-Tolerance-1e-9:
			better = append(better, fmt.Sprintf("%s FNR fell from %.1f%% to %.1f%%", n, 100*w, 100*g))
		}
	}
	switch {
	case got.FPR > want.FPR+Tolerance+1e-9:
		fails = append(fails, fmt.Sprintf("FPR rose from %.1f%% to %.1f%%", 100*want.FPR, 100*got.FPR))
	case got.FPR < want.FPR-Tolerance-1e-9:
		better = append(better, fmt.Sprintf("FPR fell from %.1f%% to %.1f%%", 100*want.FPR, 100*got.FPR))
	}
	sort.Strings(fails)
	return fails, better
}

// The gate can fail: a rise of more than a point in one class, or in the
// FPR, is reported; a point exactly, or a fall, is not.
func TestGateDetects(t *testing.T) {
	base := func() baseline {
		b := baseline{FNR: map[string]float64{}, FPR: 0.02}
		for _, c := range Classes() {
			b.FNR[c.String()] = 0.5
		}
		return b
	}
	for _, tc := range []struct {
		name        string
		edit        func(*baseline)
		fails, gain int
	}{
		{"same", func(*baseline) {}, 0, 0},
		{"one point up", func(b *baseline) { b.FNR["minja"] = 0.51 }, 0, 0},
		{"FNR up", func(b *baseline) { b.FNR["minja"] = 0.52 }, 1, 0},
		{"FPR up", func(b *baseline) { b.FPR = 0.0301 }, 1, 0},
		{"class missing", func(b *baseline) { delete(b.FNR, "memorygraft") }, 1, 0},
		{"FNR down", func(b *baseline) { b.FNR["agentpoison"] = 0.3 }, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := base()
			tc.edit(&got)
			fails, better := compare(base(), got)
			if len(fails) != tc.fails || len(better) != tc.gain {
				t.Errorf("fails %q, better %q; want %d and %d", fails, better, tc.fails, tc.gain)
			}
		})
	}
}

func round4(x float64) float64 { return math.Round(x*10000) / 10000 }
