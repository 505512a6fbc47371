package sqlite

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/storetest"
)

func benchRecordSize() int {
	r := storetest.BenchDecision(0)
	return len(r.ID) + len(timeLayout) + len(r.TurnID) + len(r.SessionID) + len(r.InputSource) +
		len(r.Authority) + len(r.Tool) + len(r.Category) + len(r.ArgsHash) + len(r.Risk) +
		len(r.Decision.String()) + len(r.Reason) + len(r.Message) + len(r.Rule) + len(r.RulesEvaluated) +
		len(r.RulesTriggered) + len(r.PolicyHash) + len(r.SpendCategory) + len(r.Origin.String()) + 8 + 8 + 8
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
	storetest.AppendParallel(b, func() storetest.DecisionAppender { return s })
}

// BenchmarkAppendDurableParallel: many goroutines, each durable append
// waits for its group commit.
func BenchmarkAppendDurableParallel(b *testing.B) {
	b.Logf("record size ~%d bytes", benchRecordSize())
	for _, sync := range []string{"full", "normal"} {
		for _, n := range []int{16, 64, 128, 256, 1024} {
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
					if err := s.AppendDecision(b.Context(), storetest.BenchDecision(i), false); err != nil {
						b.Fatal(err)
					}
					i++
				}
			} else {
				b.RunParallel(func(pb *testing.PB) {
					i := 0
					for pb.Next() {
						if err := s.AppendDecision(b.Context(), storetest.BenchDecision(i), false); err != nil {
							b.Error(err)
							return
						}
						i++
					}
				})
			}
			if err := s.AppendDecision(b.Context(), storetest.BenchDecision(0), true); err != nil {
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
				if err := s.AppendDecision(b.Context(), storetest.BenchDecision(i), true); err != nil {
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
	sessionIndex bool // add an index on decision_log(session_id)
	withoutRowid bool // decision_log rebuilt WITHOUT ROWID: one B-tree keyed by id
}

var shapes = []shape{
	{name: "default"},
	{name: "chunks=1", opt: options{chunks: []int{1}}},
	{name: "chunks=16,1", opt: options{chunks: []int{16, 1}}},
	{name: "chunks=256,64,16,1", opt: options{chunks: []int{256, 64, 16, 1}}},
	{name: "page=16384", opt: options{pageSize: 16384}},
	{name: "session-index", sessionIndex: true},
	{name: "without-rowid", withoutRowid: true},
}

// checkpointShapes compare WAL lengths at which COMMIT checkpoints.
var checkpointShapes = []shape{
	{name: "background=4096"},
	{name: "background=16384", opt: options{checkpointPages: 16384}},
	{name: "background=1024", opt: options{checkpointPages: 1024}},
	{name: "autocheckpoint=16384", opt: options{checkpointPages: 16384, sqliteCheckpoints: true}},
	{name: "autocheckpoint=65536", opt: options{checkpointPages: 65536, sqliteCheckpoints: true}},
	{name: "autocheckpoint=4096", opt: options{checkpointPages: 4096, sqliteCheckpoints: true}},
	{name: "no-checkpoint", opt: options{checkpointPages: -1}},
}

func shapedStore(b *testing.B, cfg Config, sh shape) *Store {
	b.Helper()
	cfg.Path = filepath.Join(b.TempDir(), "ward.db")
	if sh.sessionIndex || sh.withoutRowid {
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
		sql := `CREATE INDEX decision_log_session_id ON decision_log(session_id)`
		if sh.withoutRowid {
			// Views name decision_log: drop them around the swap.
			var views []string
			st, _, err := c.Prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'view'`)
			if err != nil {
				b.Fatal(err)
			}
			sql = withoutRowidSQL
			for st.Step() {
				sql = `DROP VIEW ` + st.ColumnText(0) + `;` + sql
				views = append(views, st.ColumnText(1))
			}
			if err := errors.Join(st.Err(), st.Close()); err != nil {
				b.Fatal(err)
			}
			for _, v := range views {
				sql += v + `;`
			}
		}
		if err := c.Exec(sql); err != nil {
			b.Fatal(err)
		}
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
	}
	return benchStore(b, cfg, sh.opt)
}

// withoutRowidSQL rebuilds an empty decision_log as a WITHOUT ROWID table
// (its view reads it by name, so it survives the rename).
const withoutRowidSQL = `PRAGMA legacy_alter_table = OFF;
BEGIN;
CREATE TABLE decision_log_wr (
  id TEXT PRIMARY KEY, created_ns INTEGER NOT NULL, turn_id TEXT, session_id TEXT,
  input_source INTEGER, authority INTEGER, tool INTEGER, category INTEGER, args_hash,
  risk INTEGER NOT NULL CHECK (risk BETWEEN 1 AND 4), decision INTEGER NOT NULL CHECK (decision BETWEEN 0 AND 2),
  reason INTEGER, message TEXT, rule INTEGER, rules_evaluated INTEGER NOT NULL, rules_triggered INTEGER NOT NULL,
  latency_ns INTEGER NOT NULL, policy INTEGER, spend_category INTEGER, spend_cents INTEGER NOT NULL,
  diagnostic TEXT, origin INTEGER
) WITHOUT ROWID;
DROP TABLE decision_log;
ALTER TABLE decision_log_wr RENAME TO decision_log;
COMMIT;`

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
						o, err := newDecisionOp(storetest.BenchDecision(i), false)
						if err != nil {
							b.Fatal(err)
						}
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
	storetest.ReportLatency(b, lat)
}

// mixedRecord is a decision of a busy gate: 256 sessions interleaved,
// turns of about four calls, six tools, a third denied, messages and
// argument hashes that differ from row to row.
func mixedRecord(i int) *store.DecisionRecord {
	now := time.Now()
	h := uint32(i) * 2654435761
	type toolShape struct{ tool, category, risk, rule, reason, evaluated string }
	tools := []toolShape{
		{"wallet_send_token", "wallet", "dangerous", "spend.hourly_transfer", "HOURLY_TRANSFER_LIMIT_EXCEEDED", `["authority.tool_allowed","spend.hourly_transfer","spend.daily_transfer","loop.identical_calls"]`},
		{"shell_exec", "shell", "dangerous", "command.forbidden_patterns", "FORBIDDEN_COMMAND", `["authority.tool_allowed","command.forbidden_patterns","authority.path","loop.identical_calls"]`},
		{"file_read", "file", "safe", "authority.path", "AUTHORITY_INSUFFICIENT", `["authority.tool_allowed","authority.path","loop.identical_calls"]`},
		{"file_write", "file", "caution", "authority.path", "AUTHORITY_INSUFFICIENT", `["authority.tool_allowed","authority.path","loop.identical_calls"]`},
		{"http_post", "network", "caution", "taint.session", "TAINTED_SESSION", `["authority.tool_allowed","taint.session","loop.identical_calls"]`},
		{"memory_search", "memory", "safe", "loop.identical_calls", "LOOP_DETECTED", `["authority.tool_allowed","loop.identical_calls"]`},
	}
	ts := tools[h>>8%uint32(len(tools))]
	args := sha256.Sum256([]byte(fmt.Sprint(i)))
	r := &store.DecisionRecord{
		ID:             id.New(now),
		Time:           now,
		TurnID:         fmt.Sprintf("01JD3K7ZQ4Y7K3M9XW2V%06d", i/4),
		SessionID:      fmt.Sprintf("01JD3K7ZQ4Y7K3M9XW2V5T8R%02x", h>>24),
		InputSource:    "agent",
		Authority:      "agent",
		Tool:           ts.tool,
		Category:       ts.category,
		ArgsHash:       hex.EncodeToString(args[:]),
		Risk:           ts.risk,
		Decision:       store.VerdictAllow,
		Reason:         "ALLOWED",
		RulesEvaluated: ts.evaluated,
		RulesTriggered: `[]`,
		Latency:        17*time.Microsecond + time.Duration(h%100000),
		PolicyHash:     "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
		Origin:         store.OriginGate,
	}
	if h%3 == 0 {
		r.Decision, r.Reason, r.Rule, r.RulesTriggered = store.VerdictDeny, ts.reason, ts.rule, `["`+ts.rule+`"]`
		r.Message = fmt.Sprintf("call refused by %s: limit of 5000 would be exceeded (%d spent + 250)", ts.rule, h%5000)
	}
	if ts.tool == "wallet_send_token" {
		r.SpendCategory, r.SpendCents = "transfer", int64(h%1000)
	}
	return r
}

// BenchmarkWriterCostMixed is BenchmarkWriterCost with mixedRecord.
func BenchmarkWriterCostMixed(b *testing.B) {
	for _, batchSize := range []int{128, 1024} {
		for _, sh := range []shape{shapes[0], {name: "without-rowid", withoutRowid: true}} {
			b.Run(fmt.Sprintf("batch=%d/%s", batchSize, sh.name), func(b *testing.B) {
				s := shapedStore(b, Config{Synchronous: "normal"}, sh)
				ops := make([]*op, batchSize)
				rows := 0
				for b.Loop() {
					b.StopTimer()
					for i := range ops {
						ops[i] = mustOp(b, mixedRecord(rows+i))
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

func mustOp(b *testing.B, r *store.DecisionRecord) *op {
	o, err := newDecisionOp(r, false)
	if err != nil {
		b.Fatal(err)
	}
	return o
}

// BenchmarkAppendDurableRate offers durable appends at a fixed rate, as a
// gate under a steady load does, and reports latency from each append's
// scheduled start (so that a stall counts against every append it delays,
// not only the few in flight). b.N appends take b.N/rate seconds: run it
// with -benchtime 1000000x for 10 s at 100k/s.
func BenchmarkAppendDurableRate(b *testing.B) {
	for _, rate := range []int{50_000, 100_000} {
		for _, sh := range rateShapes {
			b.Run(fmt.Sprintf("rate=%d/%s", rate, sh.name), func(b *testing.B) {
				durableRate(b, shapedStore(b, Config{}, sh), rate, 1024)
			})
		}
	}
}

func durableRate(b *testing.B, s *Store, rate, workers int) {
	lat := make([]time.Duration, b.N)
	interval := time.Second / time.Duration(rate)
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range workers {
		wg.Go(func() {
			for k := w; k < b.N; k += workers {
				at := start.Add(time.Duration(k) * interval)
				if d := time.Until(at); d > 0 {
					time.Sleep(d)
				}
				if err := s.AppendDecision(b.Context(), storetest.BenchDecision(k), true); err != nil {
					b.Error(err)
					return
				}
				lat[k] = time.Since(at)
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	storetest.ReportLatency(b, lat)
}

// rateShapes compare checkpointing under a fixed offered load.
var rateShapes = []shape{
	{name: "background=4096"},
	{name: "autocheckpoint=16384", opt: options{checkpointPages: 16384, sqliteCheckpoints: true}},
}
