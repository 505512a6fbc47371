package rollback

import (
	"reflect"
	"strings"
	"testing"
)

// minAccuracy is the least share of histories of each kind the suite must
// decide right: the measured accuracy (docs/rollback.md) less a margin.
var minAccuracy = map[Kind]float64{
	Market:   0.90,
	Poisoned: 0.75,
	Both:     0.55,
	Noise:    0.88,
	Unused:   1,
}

// TestSuiteAccuracy runs the scenario suite and logs its table; run with
// -v to see it.
func TestSuiteAccuracy(t *testing.T) {
	perKind := 1000
	if testing.Short() {
		perKind = 200
	}
	results := Suite(perKind, 1)
	var b strings.Builder
	if err := WriteTable(&b, results); err != nil {
		t.Fatal(err)
	}
	t.Logf("scenario suite, %d histories per kind:\n%s", perKind, b.String())
	if len(results) != len(minAccuracy) {
		t.Fatalf("%d kinds, want %d", len(results), len(minAccuracy))
	}
	for _, r := range results {
		if r.Histories != perKind || r.Errors != 0 {
			t.Errorf("%v: %d histories, %d errors; want %d and none", r.Kind, r.Histories, r.Errors, perKind)
		}
		if got, want := r.Accuracy(), minAccuracy[r.Kind]; got < want {
			t.Errorf("%v: accuracy %.3f, want at least %.2f", r.Kind, got, want)
		}
	}
}

func TestSimulate(t *testing.T) {
	for _, k := range Kinds() {
		t.Run(k.String(), func(t *testing.T) {
			a, b := Simulate(k, 42), Simulate(k, 42)
			if !reflect.DeepEqual(a, b) {
				t.Fatal("the same seed gave two histories")
			}
			if reflect.DeepEqual(a.Input.Returns, Simulate(k, 43).Input.Returns) {
				t.Error("two seeds gave the same returns")
			}
			if want := k == Poisoned || k == Both; a.Want != want {
				t.Errorf("want rollback %v, ground truth says %v", a.Want, want)
			}
			if (a.Crash < 0) != (k == Market || k == Both) {
				t.Errorf("crash %v for kind %v", a.Crash, k)
			}
			if n := len(a.Input.Returns); n < 50 || n > 70 || len(a.Input.Factors) != 4 || len(a.Input.Peers) != 8 {
				t.Errorf("%d days, %d factors, %d peers", n, len(a.Input.Factors), len(a.Input.Peers))
			}
			used := attribute(a.Input).Influenced > 0
			if used != (k != Unused) {
				t.Errorf("source used %v for kind %v", used, k)
			}
		})
	}
}

func BenchmarkDecide(b *testing.B) {
	in := Simulate(Poisoned, 1).Input
	in.FirstUse = 20
	for b.Loop() {
		if _, err := Decide(in); err != nil {
			b.Fatal(err)
		}
	}
}
