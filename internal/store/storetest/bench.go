package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// BenchDecision is the i-th decision of a benchmark or a load test: the
// suite's realistic record (about 500 bytes) made now, in one of 64
// sessions.
func BenchDecision(i int) *store.DecisionRecord {
	r := decision(time.Now())
	r.SessionID = fmt.Sprintf("01JD3K7ZQ4Y7K3M9XW2V5T8R%02d", i%64)
	r.Latency = 17*time.Microsecond + time.Duration(i%1000)
	return r
}

// DecisionAppender is what AppendParallel appends through.
type DecisionAppender interface {
	AppendDecision(ctx context.Context, rec *store.DecisionRecord, durable bool) error
}

// AppendParallel runs b's parallel goroutines (b.SetParallelism is the
// caller's), each appending BenchDecision records durably through the
// appender pick returns for it, and reports rows/s and the append
// latency (ReportLatency).
func AppendParallel(b *testing.B, pick func() DecisionAppender) {
	var (
		mu  sync.Mutex
		lat []time.Duration
	)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		s := pick()
		local := make([]time.Duration, 0, 4096)
		i := 0
		for pb.Next() {
			r := BenchDecision(i)
			i++
			start := time.Now()
			if err := s.AppendDecision(b.Context(), r, true); err != nil {
				b.Error(err)
				return
			}
			local = append(local, time.Since(start))
		}
		mu.Lock()
		lat = append(lat, local...)
		mu.Unlock()
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	ReportLatency(b, lat)
}

// ReportLatency reports the p50, p99 and max of lat, which it sorts.
func ReportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(q(0.50), "p50-µs")
	b.ReportMetric(q(0.99), "p99-µs")
	b.ReportMetric(q(1), "max-µs")
}
