package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// GateBench are the tool gate's figures (issue 3's targets: read overhead
// p50 under 50 µs, swap preview with simulation p50 under 5 ms, commit p50
// under 10 ms).
type GateBench struct {
	Reads    int `json:"reads"`
	Previews int `json:"previews"`
	Commits  int `json:"commits"`
	// ReadsBestEffort: reads were measured with their decision record
	// queued ([audit] reads_best_effort), not waited for.
	ReadsBestEffort bool `json:"reads_best_effort"`
	// ReadOverhead is a read tool's call through the gate minus its
	// handler's own time (the handler's RPC).
	ReadOverheadP50 time.Duration `json:"read_overhead_p50_ns"`
	ReadOverheadP99 time.Duration `json:"read_overhead_p99_ns"`
	ReadTotalP50    time.Duration `json:"read_total_p50_ns"`
	// Preview is preview_action of a USDC → WETH swap on the V3 pool:
	// policy, plan (quote), the hook chain with the fork simulation, the
	// durable permit.
	PreviewP50 time.Duration `json:"preview_swap_p50_ns"`
	PreviewP99 time.Duration `json:"preview_swap_p99_ns"`
	// Commit is commit_action of such a permit: the conditional update,
	// mint, signing, sending and the receipt (the dev chain mines at once,
	// so its block time is the time to build one block).
	CommitP50 time.Duration `json:"commit_p50_ns"`
	CommitP99 time.Duration `json:"commit_p99_ns"`
	// CommitExBlock is the commit without the time spent waiting for the
	// transactions' receipts (the chain's block time).
	CommitExBlockP50 time.Duration `json:"commit_excluding_block_p50_ns"`
	CommitExBlockP99 time.Duration `json:"commit_excluding_block_p99_ns"`
}

// BenchGate measures the tool gate on the embedded dev chain with a fresh
// database in dir.
//
// With readsBestEffort a read's decision record is queued rather than
// waited for ([audit] reads_best_effort), so the two costs can be told
// apart.
func BenchGate(ctx context.Context, dir string, reads, previews, commits int, readsBestEffort bool) (*GateBench, error) {
	st, err := openBenchStack(ctx, dir, readsBestEffort)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var handlerNS atomic.Int64
	reg, err := timedReads(st, &handlerNS)
	if err != nil {
		return nil, err
	}
	// The gate as ward serve wires it: sessions, their ledgers (sealed),
	// the spending and rate windows and the lookups all in the store.
	tools, view, err := benchTools(st, reg)
	if err != nil {
		return nil, err
	}
	s, err := tools.OpenSession(ctx, gate.Owner{PrincipalID: "bench", Name: "bench", Source: policy.Agent}, "bench", view)
	if err != nil {
		return nil, err
	}
	dc := st.Dev.Contracts()
	res := &GateBench{Reads: reads, Previews: previews, Commits: commits, ReadsBestEffort: readsBestEffort}
	readArgs := json.RawMessage(fmt.Sprintf(`{"token":%q}`, dc.USDC.Hex()))
	if err := benchReads(ctx, tools, s, readArgs, reads, &handlerNS, res); err != nil {
		return nil, err
	}
	swap := json.RawMessage(fmt.Sprintf(`{"token_in":%q,"token_out":%q,"amount_in":"10000000"}`, dc.USDC.Hex(), dc.WETH.Hex()))
	if err := benchPreviews(ctx, tools, s, swap, previews, res); err != nil {
		return nil, err
	}
	if err := benchCommits(ctx, st, tools, s, swap, commits, res); err != nil {
		return nil, err
	}
	return res, nil
}

// timedReads returns a frozen registry of the catalog whose read handlers
// store their own time in handlerNS, so the gate's share of a read can be
// told from the handler's RPC.
func timedReads(st *Stack, handlerNS *atomic.Int64) (*registry.Registry, error) {
	reg := registry.New()
	for _, t := range catalog.Tools(st.Env) {
		if t.Read != nil {
			h := t.Read
			t.Read = func(ctx context.Context, in *registry.Input) (*tool.Result, error) {
				start := time.Now()
				r, err := h(ctx, in)
				handlerNS.Store(int64(time.Since(start)))
				return r, err
			}
		}
		if err := reg.Add(t); err != nil {
			return nil, err
		}
	}
	reg.Freeze()
	return reg, nil
}

// benchReads times reads calls of a balance read after a tenth as many
// to warm up, in total and less the handler's own time.
func benchReads(ctx context.Context, tools *gate.Tools, s *gate.Session, args json.RawMessage, reads int, handlerNS *atomic.Int64, res *GateBench) error {
	var over, total []time.Duration
	for i := range reads + reads/10 {
		start := time.Now()
		if _, err := tools.ReadWith(ctx, s, "data_get_token_balance", args, gate.CallOptions{}); err != nil {
			return fmt.Errorf("bench read: %w", err)
		}
		d := time.Since(start)
		if i < reads/10 {
			continue // warm-up
		}
		total = append(total, d)
		over = append(over, d-time.Duration(handlerNS.Load()))
	}
	res.ReadOverheadP50, res.ReadOverheadP99 = pct(over, 50), pct(over, 99)
	res.ReadTotalP50 = pct(total, 50)
	return nil
}

// benchPreviews times previews previews of swap after 5 to warm up,
// cancelling each permit.
func benchPreviews(ctx context.Context, tools *gate.Tools, s *gate.Session, swap json.RawMessage, previews int, res *GateBench) error {
	var prev []time.Duration
	for i := range previews + 5 {
		start := time.Now()
		pv, err := tools.PreviewWith(ctx, s, "uniswap_execute_swap", swap, gate.CallOptions{})
		if err != nil {
			return fmt.Errorf("bench preview: %w", err)
		}
		d := time.Since(start)
		if i >= 5 {
			prev = append(prev, d)
		}
		_ = tools.Cancel(ctx, s, pv.PermitID)
	}
	res.PreviewP50, res.PreviewP99 = pct(prev, 50), pct(prev, 99)
	return nil
}

// benchCommits times commits commits of a fresh preview of swap each
// (the preview untimed), in total and less the time waited for receipts.
func benchCommits(ctx context.Context, st *Stack, tools *gate.Tools, s *gate.Session, swap json.RawMessage, commits int, res *GateBench) error {
	var com, ex []time.Duration
	for range commits {
		pv, err := tools.PreviewWith(ctx, s, "uniswap_execute_swap", swap, gate.CallOptions{})
		if err != nil {
			return fmt.Errorf("bench preview: %w", err)
		}
		waited := st.Provider.Waited()
		start := time.Now()
		if _, err := tools.CommitWith(ctx, s, gate.CommitRequest{PermitID: pv.PermitID}, gate.CallOptions{}); err != nil {
			return fmt.Errorf("bench commit: %w", err)
		}
		d := time.Since(start)
		com = append(com, d)
		ex = append(ex, d-(st.Provider.Waited()-waited))
	}
	res.CommitP50, res.CommitP99 = pct(com, 50), pct(com, 99)
	res.CommitExBlockP50, res.CommitExBlockP99 = pct(ex, 50), pct(ex, 99)
	return nil
}

// openBenchStack opens the stack of the gate benchmarks: the embedded
// defaults (dev chain, SQLite with synchronous=full, the default policy)
// in dir, with the spending and rate hooks opened wide so that a long
// run measures the gate rather than its limits.
func openBenchStack(ctx context.Context, dir string, readsBestEffort bool) (*Stack, error) {
	snap, err := rules.Compile(rules.DefaultConfig())
	if err != nil {
		return nil, err
	}
	return Open(ctx, Config{
		DB: DefaultDB(dir), Synchronous: "full", Policy: snap, DevSeed: "ward-bench",
		Hooks: hook.Config{
			Spending: hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			Rate:     hook.RateConfig{Max: 1 << 30, Window: time.Hour},
		},
		AnnounceDelay:   -1,
		VaultKey:        dir + "/vault.key",
		DevDir:          dir + "/devchain",
		ReadsBestEffort: readsBestEffort,
	})
}

// benchTools wires the gate over st and reg as ward serve does (sessions,
// their ledgers, the spending and rate windows and the lookups all in the
// store) and selects the dev profile's tools.
func benchTools(st *Stack, reg *registry.Registry) (*gate.Tools, *registry.View, error) {
	tools, err := gate.NewTools(gate.ToolsConfig{
		Decider: st.Decider, Engine: st.Engine, Registry: reg, Hooks: st.Hooks,
		Permits: st.Store, Control: st.Store, Held: st.Store, Actions: st.Store, Bus: st.Bus, AnnounceDelay: -1,
		Sessions: st.Store, TrustLog: st.Store, Withheld: st.Store, Vault: st.vault,
	})
	if err != nil {
		return nil, nil, err
	}
	ps, _ := registry.ParseProfiles("dev")
	view, err := reg.Select(registry.Selection{Profiles: ps, Have: []tool.Requirement{tool.NeedsWallet}})
	if err != nil {
		return nil, nil, err
	}
	return tools, view, nil
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s) - 1) * p / 100
	return s[i]
}
