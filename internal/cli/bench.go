package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/bench"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

const benchHelp = `Benchmark the policy engine on the seed's mixed workload (30 % transfers of
various amounts, 30 % exec with half forbidden commands, 25 % write_file with
half protected paths, 15 % read_file with half sensitive paths), first
evaluating only on one goroutine, then through the gate with every decision
durably written to a fresh SQLite audit trail by concurrent callers. The
audited run verifies afterwards that every decision is in the database.

--rules N adds N always-false CEL rules that apply to every call (reading, in
turn, tool, args, turn, session and tracked state), --arg-bytes B makes every
write_file call's content B bytes, and --callers 1,16,64,256 runs the audited
phase once per caller count: together they give the cost curves of a decision
in rules, argument size and concurrency.

With --json it prints one object with eval_per_sec, eval_p50_ns, eval_p99_ns,
eval_max_ns, audited_per_sec, audited_p50_ns, audited_p99_ns and
audited_max_ns (of the last caller count), "audited" (one entry per caller
count: callers, per_sec, p50_ns, p99_ns, max_ns, ops, rows_verified), and more.`

func benchPolicy(ctx context.Context, io IO, args []string) int {
	opts, st, ok := parseBenchPolicy(io, args)
	if !ok {
		return st
	}
	cfg, err := loadConfig(opts.policyPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	cfg.Policy.Rules = append(cfg.Policy.Rules, benchRules(opts.rules)...)
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
	stopProfile, err := startCPUProfile(opts.cpuProfile)
	if err != nil {
		return fail(io, "%v", err)
	}
	defer stopProfile()
	res, err := bench.Run(ctx, opts.config(snap, dir))
	if err != nil {
		return fail(io, "%v", err)
	}
	if opts.asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(io.Out, string(b))
		return exitOK
	}
	printBenchPolicy(io, opts, res)
	return exitOK
}

// benchPolicyOptions are the flags of ward bench policy, checked.
type benchPolicyOptions struct {
	policyPath string
	duration   time.Duration
	workers    int
	rules      int
	argBytes   int
	callers    []int
	sync       string
	storeURL   string
	instances  int
	asJSON     bool
	cpuProfile string
}

// parseBenchPolicy parses and checks the flags of ward bench policy; when ok
// is false the command ends with status st.
func parseBenchPolicy(io IO, args []string) (opts benchPolicyOptions, st int, ok bool) {
	fs := flags(io, "bench policy", "", benchHelp)
	fs.StringVar(&opts.policyPath, "policy", "", "policy file (default: ./ward.toml if present, else the embedded defaults)")
	fs.DurationVar(&opts.duration, "duration", 3*time.Second, "how long each phase runs")
	fs.IntVar(&opts.workers, "workers", 256, "concurrent callers in the audited phase (see --callers)")
	fs.IntVar(&opts.rules, "rules", 0, "add this many always-false CEL rules that apply to every call")
	fs.IntVar(&opts.argBytes, "arg-bytes", 0, "make every write_file call's content this many bytes")
	callersList := fs.String("callers", "", "comma-separated caller counts, one audited run each (default: --workers)")
	fs.StringVar(&opts.sync, "synchronous", "full", `SQLite synchronous mode of the audit database: "full" or "normal"`)
	fs.StringVar(&opts.storeURL, "store", "", "audit into this PostgreSQL database (postgres://...) instead of a fresh SQLite file; its existing decisions are kept")
	fs.IntVar(&opts.instances, "instances", 1, "stores (and gates) opened on the one database, as that many ward instances would; the workers are spread over them")
	fs.BoolVar(&opts.asJSON, "json", false, "print one JSON object")
	fs.StringVar(&opts.cpuProfile, "cpuprofile", "", "write a CPU profile of both phases to this file (for go tool pprof)")
	if st, ok := parse(fs, args); !ok {
		return opts, st, false
	}
	if opts.duration <= 0 || opts.workers <= 0 {
		return opts, usageErr(io, "--duration and --workers must be positive"), false
	}
	if opts.instances <= 0 {
		return opts, usageErr(io, "--instances must be positive"), false
	}
	if opts.storeURL != "" && !daemon.IsURL(opts.storeURL) {
		return opts, usageErr(io, "--store: want a postgres:// URL"), false
	}
	if opts.sync != "full" && opts.sync != "normal" {
		return opts, usageErr(io, `--synchronous must be "full" or "normal"`), false
	}
	if opts.rules < 0 || opts.rules > 100_000 {
		return opts, usageErr(io, "--rules must be between 0 and 100000"), false
	}
	if opts.argBytes < 0 || opts.argBytes > tool.MaxArgsSize-1024 {
		return opts, usageErr(io, "--arg-bytes must be between 0 and %d (the arguments limit less room for the rest)", tool.MaxArgsSize-1024), false
	}
	if *callersList != "" {
		for _, f := range strings.Split(*callersList, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n <= 0 || n > 100_000 {
				return opts, usageErr(io, "--callers: %q is not a caller count between 1 and 100000", f), false
			}
			opts.callers = append(opts.callers, n)
		}
	}
	return opts, 0, true
}

// config is the bench configuration the options ask for, on snap, with its
// SQLite files in dir.
func (o benchPolicyOptions) config(snap *policy.Snapshot, dir string) bench.Config {
	return bench.Config{
		Snapshot: snap,
		Duration: o.duration,
		Workers:  o.workers,
		Dir:      dir,
		Open: func(ctx context.Context, path string) (store.Store, error) {
			return openStore(ctx, path, o.sync)
		},
		Store:     o.storeURL,
		Instances: o.instances,
		Seed:      1,
		ArgBytes:  o.argBytes,
		Callers:   o.callers,
	}
}

// printBenchPolicy prints res as text: the mix, each phase's figures and
// the conditions they were measured under.
func printBenchPolicy(io IO, opts benchPolicyOptions, res *bench.Result) {
	fmt.Fprintf(io.Out, "mix: 30%% transfer_credits, 30%% exec, 25%% write_file, 15%% read_file; %.1f%% allowed\n", res.AllowedPercent)
	if opts.rules > 0 || opts.argBytes > 0 {
		fmt.Fprintf(io.Out, "with %d added always-false CEL rules; write_file content %d bytes (0: the mix's own)\n", opts.rules, opts.argBytes)
	}
	fmt.Fprintf(io.Out, "evaluate only (1 core):           %10.0f decisions/s   p50 %8s   p99 %8s   max %8s   (%d decisions)\n",
		res.EvalPerSec, time.Duration(res.EvalP50Ns), time.Duration(res.EvalP99Ns), time.Duration(res.EvalMaxNs), res.EvalOps)
	for _, r := range res.Audited {
		fmt.Fprintf(io.Out, "gate + durable audit (%d callers): %9.0f decisions/s   p50 %8s   p99 %8s   max %8s   (%d decisions, %d rows verified)\n",
			r.Callers, r.PerSec, time.Duration(r.P50Ns), time.Duration(r.P99Ns), time.Duration(r.MaxNs), r.Ops, r.RowsVerified)
	}
	if opts.storeURL != "" {
		fmt.Fprintf(io.Out, "audit store: PostgreSQL, %d instance(s); evaluation ran with GOMAXPROCS=1, the audited phase with GOMAXPROCS=%d\n", res.Instances, res.GOMAXPROCS)
	} else {
		fmt.Fprintf(io.Out, "synchronous=%s; evaluation ran with GOMAXPROCS=1, the audited phase with GOMAXPROCS=%d\n", opts.sync, res.GOMAXPROCS)
	}
}

// benchRules returns n always-false CEL rules that apply to every call,
// reading in turn each variable a rule can read.
func benchRules(n int) []rules.UserRule {
	shapes := []string{
		`tool.name == "never_%d"`,
		`has(args.never_%d)`,
		`turn.authority == "never_%d"`,
		`session.taint == "never_%d"`,
		`state.count("never_%d", "turn") > 1000000`,
	}
	out := make([]rules.UserRule, n)
	for i := range out {
		out[i] = rules.UserRule{ID: fmt.Sprintf("bench-%d", i), When: fmt.Sprintf(shapes[i%len(shapes)], i), Action: policy.Deny}
	}
	return out
}

// startCPUProfile starts a CPU profile written to path (none when path is
// empty); stop ends it and closes the file.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
