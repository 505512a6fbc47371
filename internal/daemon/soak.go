package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/registry"
)

// The soak benchmark's operations, in the order they are reported.
const (
	SoakRead    = "read"
	SoakPreview = "preview"
	SoakCommit  = "commit"
	SoakCancel  = "cancel"
)

var soakOps = []string{SoakRead, SoakPreview, SoakCommit, SoakCancel}

// SoakConfig configures BenchSoak.
type SoakConfig struct {
	// Dir holds the run's database (it should be fresh).
	Dir string
	// Duration is how long the clients run.
	Duration time.Duration
	// Clients is the number of concurrent agents, each with its own
	// session.
	Clients int
	// Interval is the length of a reporting interval (default: a sixth
	// of Duration, between 1 s and 1 min).
	Interval time.Duration
	// HeapProfile, if set, is where a heap profile is written at the end
	// of the run, while the stack is still open (what it holds is what
	// a long-running daemon would).
	HeapProfile string
}

// SoakOp are one operation's figures over an interval (or the run).
type SoakOp struct {
	Count  int     `json:"count"`
	PerSec float64 `json:"per_sec"`
	// Errors counts the failures by reason code ("error" when the gate
	// gave none).
	Errors map[string]int `json:"errors,omitempty"`
	P50    time.Duration  `json:"p50_ns"`
	P99    time.Duration  `json:"p99_ns"`
}

// SoakInterval is one reporting interval: what each operation did and the
// process's resources at its end.
type SoakInterval struct {
	StartS float64            `json:"start_s"`
	EndS   float64            `json:"end_s"`
	Ops    map[string]*SoakOp `json:"ops"`
	RSSMB  float64            `json:"rss_mb"`
	// GoLiveMB is the Go heap live after the last collection, GoMappedMB
	// what the Go runtime holds from the system (the rest of RSS is
	// outside it: SQLite's memory, the chain database's caches), and
	// LedgersMB what the cached sessions' trust ledgers count.
	GoLiveMB   float64 `json:"go_live_mb"`
	GoMappedMB float64 `json:"go_mapped_mb"`
	LedgersMB  float64 `json:"ledgers_mb"`
	Goroutines int     `json:"goroutines"`
	OpenFDs    int     `json:"open_fds"`
	// DBMB is the database's size on disk (with its WAL), and
	// DBGrowthMBPerMin its growth over the interval scaled to a minute.
	DBMB             float64 `json:"db_mb"`
	DBGrowthMBPerMin float64 `json:"db_growth_mb_per_min"`
	// ChainBlock is the dev chain's head, and ChainAheadS how far its
	// clock is ahead of wall time in seconds.
	ChainBlock  uint64  `json:"chain_block"`
	ChainAheadS float64 `json:"chain_ahead_s"`
}

// SoakBench are the soak benchmark's figures.
type SoakBench struct {
	DurationS float64            `json:"duration_s"`
	Clients   int                `json:"clients"`
	IntervalS float64            `json:"interval_s"`
	Start     SoakInterval       `json:"start"` // resources before the clients start
	Intervals []SoakInterval     `json:"intervals"`
	Totals    map[string]*SoakOp `json:"totals"`
}

// BenchSoak runs cfg.Clients agents against the gate on the embedded
// defaults for cfg.Duration. Each agent repeats: a read (a token
// balance), a swap preview that it cancels, another read, and a swap
// preview that it commits (1 USDC for WETH on the V3 pool, so every
// commit needs its own approval). Failures are counted, not fatal: the
// run reports them per reason code.
func BenchSoak(ctx context.Context, cfg SoakConfig) (*SoakBench, error) {
	if cfg.Duration <= 0 || cfg.Clients <= 0 {
		return nil, errors.New("bench soak: duration and clients must be positive")
	}
	if cfg.Interval <= 0 {
		cfg.Interval = min(max(cfg.Duration/6, time.Second), time.Minute)
	}
	st, err := openBenchStack(ctx, cfg.Dir, false)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	tools, view, err := soakTools(st)
	if err != nil {
		return nil, err
	}
	rec := &soakRecorder{}
	res := &SoakBench{DurationS: cfg.Duration.Seconds(), Clients: cfg.Clients, IntervalS: cfg.Interval.Seconds()}
	res.Start = sampleSoak(ctx, st, tools, cfg.Dir, nil, 0, 0, 0)

	runCtx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var wg sync.WaitGroup
	if err := startSoakClients(ctx, runCtx, &wg, st, tools, view, cfg.Clients, rec); err != nil {
		cancel()
		wg.Wait()
		return nil, err
	}
	res.Intervals = sampleSoakIntervals(ctx, runCtx, &wg, st, tools, cfg, rec, res.Start)
	res.Totals = soakTotals(res.Intervals)
	if cfg.HeapProfile != "" {
		if err := writeHeapProfile(cfg.HeapProfile); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// soakTools is the gate over the whole catalogue on st, and the view of
// it the soak's sessions open with.
func soakTools(st *Stack) (*gate.Tools, *registry.View, error) {
	reg := registry.New()
	for _, t := range catalog.Tools(st.Env) {
		if err := reg.Add(t); err != nil {
			return nil, nil, err
		}
	}
	reg.Freeze()
	return benchTools(st, reg)
}

// startSoakClients opens a session for each of n agents and starts each
// agent's loop in wg, until runCtx ends; it fails if a session cannot be
// opened (the agents already started are then left to the caller to
// stop).
func startSoakClients(ctx, runCtx context.Context, wg *sync.WaitGroup, st *Stack, tools *gate.Tools, view *registry.View, n int, rec *soakRecorder) error {
	dc := st.Dev.Contracts()
	readArgs := json.RawMessage(fmt.Sprintf(`{"token":%q}`, dc.USDC.Hex()))
	swap := json.RawMessage(fmt.Sprintf(`{"token_in":%q,"token_out":%q,"amount_in":"1000000"}`, dc.USDC.Hex(), dc.WETH.Hex()))
	for i := range n {
		name := "soak-" + strconv.Itoa(i)
		s, err := tools.OpenSession(ctx, gate.Owner{PrincipalID: name, Name: name, Source: policy.Agent}, name, view)
		if err != nil {
			return err
		}
		wg.Go(func() { soakAgent(runCtx, tools, s, readArgs, swap, rec) })
	}
	return nil
}

// soakAgent repeats, until runCtx ends: a read, a swap preview it
// cancels, another read, a swap preview it commits; rec gets every
// operation's latency and outcome.
func soakAgent(runCtx context.Context, tools *gate.Tools, s *gate.Session, readArgs, swap json.RawMessage, rec *soakRecorder) {
	for step := 0; runCtx.Err() == nil; step++ {
		switch step % 4 {
		case 0, 2:
			t0 := time.Now()
			_, err := tools.ReadWith(runCtx, s, "data_get_token_balance", readArgs, gate.CallOptions{})
			rec.add(runCtx, SoakRead, time.Since(t0), err)
		case 1, 3:
			t0 := time.Now()
			pv, err := tools.PreviewWith(runCtx, s, "uniswap_execute_swap", swap, gate.CallOptions{})
			rec.add(runCtx, SoakPreview, time.Since(t0), err)
			if err != nil {
				continue
			}
			t0 = time.Now()
			if step%4 == 1 {
				err = tools.Cancel(runCtx, s, pv.PermitID)
				rec.add(runCtx, SoakCancel, time.Since(t0), err)
			} else {
				_, err = tools.CommitWith(runCtx, s, gate.CommitRequest{PermitID: pv.PermitID}, gate.CallOptions{})
				rec.add(runCtx, SoakCommit, time.Since(t0), err)
			}
		}
	}
}

// sampleSoakIntervals samples the operations rec collected and the
// resources every cfg.Interval until runCtx ends, and once more after the
// agents in wg have stopped (the last interval includes the operations
// in flight).
func sampleSoakIntervals(ctx, runCtx context.Context, wg *sync.WaitGroup, st *Stack, tools *gate.Tools, cfg SoakConfig, rec *soakRecorder, prev SoakInterval) []SoakInterval {
	var out []SoakInterval
	start := time.Now()
	tick := time.NewTicker(cfg.Interval)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case <-runCtx.Done():
			wg.Wait()
			done = true
		case <-tick.C:
		}
		now := time.Since(start).Seconds()
		recs := rec.swap()
		iv := sampleSoak(ctx, st, tools, cfg.Dir, &recs, prev.EndS, now, prev.DBMB)
		if iv.EndS-iv.StartS < 0.1 && len(out) > 0 {
			break // a tick that raced the end: nothing to report
		}
		out = append(out, iv)
		prev = iv
	}
	return out
}

// writeHeapProfile writes a heap profile, after a collection, to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	err = pprof.WriteHeapProfile(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("bench soak: heap profile: %w", err)
	}
	return nil
}

// soakRecorder collects the operations' latencies and failures of the
// current interval. Its methods are safe for concurrent use.
type soakRecorder struct {
	mu   sync.Mutex
	lat  map[string][]time.Duration
	errs map[string]map[string]int
}

// add records one operation; an error caused by the run's end is not a
// failure of the operation and is dropped.
func (r *soakRecorder) add(runCtx context.Context, op string, d time.Duration, err error) {
	if err != nil && runCtx.Err() != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lat == nil {
		r.lat, r.errs = map[string][]time.Duration{}, map[string]map[string]int{}
	}
	r.lat[op] = append(r.lat[op], d)
	if err != nil {
		code := "error"
		if ref, ok := errors.AsType[*gate.Refusal](err); ok {
			code = string(ref.Code)
		}
		if r.errs[op] == nil {
			r.errs[op] = map[string]int{}
		}
		r.errs[op][code]++
	}
}

// swap returns the interval's records and starts a new interval.
func (r *soakRecorder) swap() soakRecords {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := soakRecords{lat: r.lat, errs: r.errs}
	r.lat, r.errs = nil, nil
	return out
}

type soakRecords struct {
	lat  map[string][]time.Duration
	errs map[string]map[string]int
}

// sampleSoak makes an interval from recs (nil: none) and the process's
// resources now.
func sampleSoak(ctx context.Context, st *Stack, tools *gate.Tools, dir string, recs *soakRecords, from, to, prevDBMB float64) SoakInterval {
	iv := SoakInterval{StartS: from, EndS: to, Ops: map[string]*SoakOp{},
		RSSMB: selfRSSMB(), Goroutines: runtime.NumGoroutine(), OpenFDs: openFDs(), DBMB: dbMB(DefaultDB(dir))}
	iv.GoLiveMB, iv.GoMappedMB = goMemMB()
	iv.LedgersMB = float64(tools.CachedLedgerBytes()) / (1 << 20)
	if to > from {
		iv.DBGrowthMBPerMin = (iv.DBMB - prevDBMB) / (to - from) * 60
	}
	if h, err := st.Provider.HeaderLatest(ctx); err == nil {
		iv.ChainBlock = h.Number.Uint64()
		iv.ChainAheadS = float64(int64(h.Time) - time.Now().Unix())
	}
	for _, op := range soakOps {
		o := &SoakOp{}
		if recs != nil {
			lat := recs.lat[op]
			o.Count, o.Errors = len(lat), recs.errs[op]
			o.P50, o.P99 = pct(lat, 50), pct(lat, 99)
			if to > from {
				o.PerSec = float64(len(lat)) / (to - from)
			}
		}
		iv.Ops[op] = o
	}
	return iv
}

// soakTotals sums the intervals' counts and failures; the run's p50 and
// p99 are the worst interval's (the latencies themselves are not kept).
func soakTotals(ivs []SoakInterval) map[string]*SoakOp {
	out := map[string]*SoakOp{}
	var secs float64
	for _, iv := range ivs {
		secs += iv.EndS - iv.StartS
	}
	for _, op := range soakOps {
		t := &SoakOp{}
		for _, iv := range ivs {
			o := iv.Ops[op]
			t.Count += o.Count
			t.P50, t.P99 = max(t.P50, o.P50), max(t.P99, o.P99)
			for code, n := range o.Errors {
				if t.Errors == nil {
					t.Errors = map[string]int{}
				}
				t.Errors[code] += n
			}
		}
		if secs > 0 {
			t.PerSec = float64(t.Count) / secs
		}
		out[op] = t
	}
	return out
}

// selfRSSMB is this process's resident set size in MB (0 where /proc is
// not available).
func selfRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return 0
			}
			return kb / 1024
		}
	}
	return 0
}

// openFDs counts this process's open file descriptors (0 where /proc is
// not available).
func openFDs() int {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	return len(es)
}

// dbMB is a SQLite database's size on disk with its WAL, in MB.
func dbMB(path string) float64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return float64(n) / (1 << 20)
}

// goMemMB returns the Go heap live after the last collection and what the
// Go runtime holds from the system (mapped less released), in MB.
func goMemMB() (live, mapped float64) {
	ms := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(ms)
	u := func(i int) float64 {
		if ms[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return float64(ms[i].Value.Uint64()) / (1 << 20)
	}
	return u(0), u(1) - u(2)
}
