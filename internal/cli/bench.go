package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/wardhq/ward/internal/bench"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/store"
)

const benchHelp = `Benchmark the policy engine on the seed's mixed workload (30 % transfers of
various amounts, 30 % exec with half forbidden commands, 25 % write_file with
half protected paths, 15 % read_file with half sensitive paths), first
evaluating only on one goroutine, then through the gate with every decision
durably written to a fresh SQLite audit trail by concurrent callers. The
audited run verifies afterwards that every decision is in the database.

With --json it prints one object with eval_per_sec, eval_p50_ns, eval_p99_ns,
audited_per_sec, audited_p50_ns and audited_p99_ns (and more).`

func benchPolicy(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "bench policy", "", benchHelp)
	policyPath := fs.String("policy", "", "policy file (default: ./ward.toml if present, else the embedded defaults)")
	duration := fs.Duration("duration", 3*time.Second, "how long each phase runs")
	workers := fs.Int("workers", 256, "concurrent callers in the audited phase")
	sync := fs.String("synchronous", "full", `SQLite synchronous mode of the audit database: "full" or "normal"`)
	storeURL := fs.String("store", "", "audit into this PostgreSQL database (postgres://...) instead of a fresh SQLite file; its existing decisions are kept")
	instances := fs.Int("instances", 1, "stores (and gates) opened on the one database, as that many ward instances would; the workers are spread over them")
	asJSON := fs.Bool("json", false, "print one JSON object")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of both phases to this file (for go tool pprof)")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if *duration <= 0 || *workers <= 0 {
		return usageErr(io, "--duration and --workers must be positive")
	}
	if *instances <= 0 {
		return usageErr(io, "--instances must be positive")
	}
	if *storeURL != "" && !daemon.IsURL(*storeURL) {
		return usageErr(io, "--store: want a postgres:// URL")
	}
	if *sync != "full" && *sync != "normal" {
		return usageErr(io, `--synchronous must be "full" or "normal"`)
	}
	cfg, err := loadConfig(*policyPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	resolver := rules.NewResolver()
	defer resolver.Close()
	snap, err := compileWith(cfg, resolver)
	if err != nil {
		return fail(io, "%v", err)
	}
	dir, err := os.MkdirTemp("", "ward-bench-")
	if err != nil {
		return fail(io, "%v", err)
	}
	defer os.RemoveAll(dir)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fail(io, "%v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fail(io, "%v", err)
		}
		defer pprof.StopCPUProfile()
	}
	res, err := bench.Run(ctx, bench.Config{
		Snapshot: snap,
		Duration: *duration,
		Workers:  *workers,
		Dir:      dir,
		Open: func(ctx context.Context, path string) (store.Store, error) {
			return openStore(ctx, path, *sync)
		},
		Store:     *storeURL,
		Instances: *instances,
		Seed:      1,
	})
	if err != nil {
		return fail(io, "%v", err)
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(io.Out, string(b))
		return exitOK
	}
	fmt.Fprintf(io.Out, "mix: 30%% transfer_credits, 30%% exec, 25%% write_file, 15%% read_file; %.1f%% allowed\n", res.AllowedPercent)
	fmt.Fprintf(io.Out, "evaluate only (1 core):           %10.0f decisions/s   p50 %8s   p99 %8s   (%d decisions)\n",
		res.EvalPerSec, time.Duration(res.EvalP50Ns), time.Duration(res.EvalP99Ns), res.EvalOps)
	fmt.Fprintf(io.Out, "gate + durable audit (%d callers): %9.0f decisions/s   p50 %8s   p99 %8s   (%d decisions, %d rows verified)\n",
		res.Workers, res.AuditedPerSec, time.Duration(res.AuditedP50Ns), time.Duration(res.AuditedP99Ns), res.AuditedOps, res.AuditedRows)
	if *storeURL != "" {
		fmt.Fprintf(io.Out, "audit store: PostgreSQL, %d instance(s); evaluation ran with GOMAXPROCS=1, the audited phase with GOMAXPROCS=%d\n", res.Instances, res.GOMAXPROCS)
	} else {
		fmt.Fprintf(io.Out, "synchronous=%s; evaluation ran with GOMAXPROCS=1, the audited phase with GOMAXPROCS=%d\n", *sync, res.GOMAXPROCS)
	}
	return exitOK
}
