package wasm_test

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkCall runs the example module with no reads, the gate left
// out: one fresh instance (memory, data segments, the Go runtime's
// _initialize) and its ward_run. It reports the median (p50-ns/op);
// internal/daemon's BenchmarkWASMOverhead measures the same call through
// the gate.
func BenchmarkCall(b *testing.B) {
	w := load(b, config(b, "example", nil))
	s := &session{}
	var ns []time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := call(b, w, s, `{"read":[]}`); err != nil {
			b.Fatal(err)
		}
		ns = append(ns, time.Since(start))
	}
	slices.Sort(ns)
	b.ReportMetric(float64(ns[len(ns)/2].Nanoseconds()), "p50-ns/op")
}
