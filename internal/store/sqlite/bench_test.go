package sqlite

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// benchRecord is a realistic decision of about 500 bytes.
func benchRecord(i int) *store.DecisionRecord {
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
		Decision:       "deny",
		Reason:         "HOURLY_TRANSFER_LIMIT_EXCEEDED",
		Message:        "hourly transfer limit of 5000 cents would be exceeded by this call (4900 spent + 250)",
		Rule:           "spend.hourly_transfer",
		RulesEvaluated: `["authority.tool_allowed","command.forbidden_patterns","spend.hourly_transfer","spend.daily_transfer","loop.identical_calls"]`,
		RulesTriggered: `["spend.hourly_transfer"]`,
		Latency:        17*time.Microsecond + time.Duration(i%1000),
		PolicyHash:     "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
		SpendCategory:  "transfer",
		SpendCents:     250,
		Origin:         "gate",
	}
}

func benchRecordSize() int {
	r := benchRecord(0)
	return len(r.ID) + len(timeLayout) + len(r.TurnID) + len(r.SessionID) + len(r.InputSource) +
		len(r.Authority) + len(r.Tool) + len(r.Category) + len(r.ArgsHash) + len(r.Risk) +
		len(r.Decision) + len(r.Reason) + len(r.Message) + len(r.Rule) + len(r.RulesEvaluated) +
		len(r.RulesTriggered) + len(r.PolicyHash) + len(r.SpendCategory) + len(r.Origin) + 8 + 8 + 8
}

func benchStore(b *testing.B, cfg Config, opt options) *Store {
	b.Helper()
	if cfg.Path == "" {
		cfg.Path = filepath.Join(b.TempDir(), "ward.db")
	}
	s, err := open(b.Context(), cfg, opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := s.Close(); err != nil {
			b.Error(err)
		}
	})
	return s
}

// durableParallel runs appenders goroutines doing durable appends and
// reports rows/s and latency percentiles.
func durableParallel(b *testing.B, s *Store, appenders int) {
	b.SetParallelism((appenders + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	var lat []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		local := make([]time.Duration, 0, 4096)
		i := 0
		for pb.Next() {
			r := benchRecord(i)
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
	reportLatency(b, lat)
}

func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(q(0.50), "p50-µs")
	b.ReportMetric(q(0.99), "p99-µs")
	b.ReportMetric(q(1), "max-µs")
}

// BenchmarkAppendDurableParallel: many goroutines, each durable append
// waits for its group commit.
func BenchmarkAppendDurableParallel(b *testing.B) {
	b.Logf("record size ~%d bytes", benchRecordSize())
	for _, sync := range []string{"full", "normal"} {
		for _, n := range []int{16, 64, 256, 1024} {
			b.Run(fmt.Sprintf("sync=%s/appenders=%d", sync, n), func(b *testing.B) {
				durableParallel(b, benchStore(b, Config{Synchronous: sync}, options{}), n)
			})
		}
	}
}

// BenchmarkAppendAsync: non-durable appends; the timer includes the final
// flush (a durable append commits after everything queued before it).
func BenchmarkAppendAsync(b *testing.B) {
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("appenders=%d", n), func(b *testing.B) {
			s := benchStore(b, Config{}, options{})
			b.SetParallelism((n + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
			b.ReportAllocs()
			b.ResetTimer()
			if n == 1 {
				i := 0
				for b.Loop() {
					if err := s.AppendDecision(b.Context(), benchRecord(i), false); err != nil {
						b.Fatal(err)
					}
					i++
				}
			} else {
				b.RunParallel(func(pb *testing.PB) {
					i := 0
					for pb.Next() {
						if err := s.AppendDecision(b.Context(), benchRecord(i), false); err != nil {
							b.Error(err)
							return
						}
						i++
					}
				})
			}
			if err := s.AppendDecision(b.Context(), benchRecord(0), true); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			if d := s.DroppedRecords(); d != 0 {
				b.Errorf("%d records dropped", d)
			}
		})
	}
}

// BenchmarkAppendDurableSerial: one goroutine, so every append is its own
// commit: the cost of one commit (with one fsync under FULL).
func BenchmarkAppendDurableSerial(b *testing.B) {
	for _, sync := range []string{"full", "normal"} {
		b.Run("sync="+sync, func(b *testing.B) {
			s := benchStore(b, Config{Synchronous: sync}, options{})
			i := 0
			for b.Loop() {
				if err := s.AppendDecision(b.Context(), benchRecord(i), true); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
		})
	}
}

// shape is a variant of the writer for the benchmarks that compare them.
type shape struct {
	name         string
	opt          options
	sessionIndex bool // add an index on policy_decisions(session_id)
}

var shapes = []shape{
	{name: "default"},
	{name: "chunks=1", opt: options{chunks: []int{1}}},
	{name: "chunks=16,1", opt: options{chunks: []int{16, 1}}},
	{name: "chunks=256,64,16,1", opt: options{chunks: []int{256, 64, 16, 1}}},
	{name: "page=16384", opt: options{pageSize: 16384}},
	{name: "session-index", sessionIndex: true},
}

// checkpointShapes compare WAL lengths at which COMMIT checkpoints.
var checkpointShapes = []shape{
	{name: "autocheckpoint=16384"},
	{name: "autocheckpoint=1000", opt: options{autocheckpoint: 1000}},
	{name: "autocheckpoint=4096", opt: options{autocheckpoint: 4096}},
	{name: "no-checkpoint", opt: options{autocheckpoint: -1}},
}

func shapedStore(b *testing.B, cfg Config, sh shape) *Store {
	b.Helper()
	cfg.Path = filepath.Join(b.TempDir(), "ward.db")
	if sh.sessionIndex {
		s, err := open(b.Context(), cfg, sh.opt)
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		c, err := sqlite3.Open(cfg.Path)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Exec(`CREATE INDEX policy_decisions_session_id ON policy_decisions(session_id)`); err != nil {
			b.Fatal(err)
		}
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
	}
	return benchStore(b, cfg, sh.opt)
}

// BenchmarkWriterShape compares writer variants under the durable parallel
// load (256 appenders, synchronous full).
func BenchmarkWriterShape(b *testing.B) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			durableParallel(b, shapedStore(b, Config{}, sh), 256)
		})
	}
}

// BenchmarkCheckpoint compares checkpointing strategies under the durable
// parallel load; run it long enough (-benchtime 8s) to span several
// checkpoints.
func BenchmarkCheckpoint(b *testing.B) {
	for _, n := range []int{64, 256} {
		for _, sh := range checkpointShapes {
			b.Run(fmt.Sprintf("appenders=%d/%s", n, sh.name), func(b *testing.B) {
				durableParallel(b, shapedStore(b, Config{}, sh), n)
			})
		}
	}
}

// BenchmarkWriterCost measures the writer's own work per row without
// appenders or fsync: batches of prebuilt records written directly.
func BenchmarkWriterCost(b *testing.B) {
	for _, batchSize := range []int{16, 128, 1024} {
		for _, sh := range shapes[:6] {
			b.Run(fmt.Sprintf("batch=%d/%s", batchSize, sh.name), func(b *testing.B) {
				s := shapedStore(b, Config{Synchronous: "normal"}, sh)
				ops := make([]*op, batchSize)
				rows := 0
				for b.Loop() {
					b.StopTimer()
					for i := range ops {
						r := benchRecord(i)
						o := &op{kind: opDecision, dec: *r}
						o.at, o.evaluated, o.triggered, _ = checkDecision(r)
						ops[i] = o
					}
					b.StartTimer()
					if err := s.w.tx(ops, false); err != nil {
						b.Fatal(err)
					}
					rows += len(ops)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rows), "ns/row")
			})
		}
	}
}

// BenchmarkFsync measures this disk: append 16 KiB to a file and fsync it.
func BenchmarkFsync(b *testing.B) {
	f, err := os.Create(filepath.Join(b.TempDir(), "fsync"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	page := make([]byte, 16384)
	var lat []time.Duration
	for b.Loop() {
		if _, err := f.Write(page); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	reportLatency(b, lat)
}
