package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// BenchDecision is the i-th decision of a benchmark or a load test: a
// realistic one of about 500 bytes, in one of 64 sessions.
func BenchDecision(i int) *store.DecisionRecord {
	now := time.Now()
	return &store.DecisionRecord{
		ID:             id.New(now),
		Time:           now,
		TurnID:         "01JD3K7ZQ4Y7K3M9XW2V5T8R6P",
		SessionID:      fmt.Sprintf("01JD3K7ZQ4Y7K3M9XW2V5T8R%02d", i%64),
		InputSource:    "agent",
		Authority:      "agent",
		Tool:           "wallet_send_token",
		Category:       "wallet",
		ArgsHash:       "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		Risk:           "dangerous",
		Decision:       store.VerdictDeny,
		Reason:         "HOURLY_TRANSFER_LIMIT_EXCEEDED",
		Message:        "hourly transfer limit of 5000 cents would be exceeded by this call (4900 spent + 250)",
		Rule:           "spend.hourly_transfer",
		RulesEvaluated: `["authority.tool_allowed","command.forbidden_patterns","spend.hourly_transfer","spend.daily_transfer","loop.identical_calls"]`,
		RulesTriggered: `["spend.hourly_transfer"]`,
		Latency:        17*time.Microsecond + time.Duration(i%1000),
		PolicyHash:     "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
		SpendCategory:  "transfer",
		SpendCents:     250,
		Origin:         store.OriginGate,
	}
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
