package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/daemon"
)

func benchSoak(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "bench soak", "", `Run concurrent agents against the tool gate in process, on the embedded
defaults (dev chain, SQLite with a fresh database, the default policy; the
spending and rate limits opened wide), for a duration. Each agent, with its
own session, repeats: a read, a swap preview it cancels, a read, and a swap
preview it commits (each commit needs its own token approval). Prints, per
interval (a sixth of the run, between 1 s and 1 min), each operation's
throughput, p50, p99 and failures by reason code, and the process's resident
memory, goroutines, open file descriptors, database size and growth per
minute, and the dev chain's block and how far its clock is ahead of wall
time. With --json it prints one object (start, intervals, totals).`)
	duration := fs.Duration("duration", time.Minute, "how long the agents run")
	clients := fs.Int("clients", 8, "concurrent agents")
	asJSON := fs.Bool("json", false, "print one JSON object")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (for go tool pprof)")
	memProfile := fs.String("memprofile", "", "write a heap profile at the end of the run to this file (for go tool pprof)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if *duration <= 0 || *clients <= 0 {
		return usageErr(io, "--duration and --clients must be positive")
	}
	if *clients > 1024 {
		return usageErr(io, "--clients must be at most 1024")
	}
	dir, err := os.MkdirTemp("", "ward-bench-soak-")
	if err != nil {
		return fail(io, "%v", err)
	}
	defer os.RemoveAll(dir)
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return fail(io, "%v", err)
	}
	defer stopProfile()
	res, err := daemon.BenchSoak(ctx, daemon.SoakConfig{Dir: dir, Duration: *duration, Clients: *clients, HeapProfile: *memProfile})
	if err != nil {
		return fail(io, "bench soak: %v", err)
	}
	if *asJSON {
		b, _ := json.Marshal(res)
		fmt.Fprintln(io.Out, string(b))
		return exitOK
	}
	fmt.Fprintf(io.Out, "%d clients for %v, intervals of %v\n", res.Clients, *duration, time.Duration(res.IntervalS*float64(time.Second)))
	fmt.Fprintf(io.Out, "start: rss %.1f MB, %d goroutines, %d fds, db %.2f MB\n", res.Start.RSSMB, res.Start.Goroutines, res.Start.OpenFDs, res.Start.DBMB)
	fmt.Fprintf(io.Out, "%8s %-8s %9s %10s %10s  %s\n", "t (s)", "op", "ops/s", "p50", "p99", "failures")
	for _, iv := range res.Intervals {
		for _, op := range []string{daemon.SoakRead, daemon.SoakPreview, daemon.SoakCommit, daemon.SoakCancel} {
			o := iv.Ops[op]
			fmt.Fprintf(io.Out, "%8.0f %-8s %9.1f %10v %10v  %s\n", iv.EndS, op, o.PerSec, o.P50.Round(time.Microsecond), o.P99.Round(time.Microsecond), failures(o))
		}
		fmt.Fprintf(io.Out, "%8.0f rss %.1f MB (Go: %.1f live, %.1f mapped; ledgers %.1f), %d goroutines, %d fds, db %.2f MB (+%.2f MB/min), block %d, chain clock %+.0f s\n",
			iv.EndS, iv.RSSMB, iv.GoLiveMB, iv.GoMappedMB, iv.LedgersMB, iv.Goroutines, iv.OpenFDs, iv.DBMB, iv.DBGrowthMBPerMin, iv.ChainBlock, iv.ChainAheadS)
	}
	fmt.Fprintln(io.Out, "totals:")
	for _, op := range []string{daemon.SoakRead, daemon.SoakPreview, daemon.SoakCommit, daemon.SoakCancel} {
		o := res.Totals[op]
		fmt.Fprintf(io.Out, "%8s %-8s %9.1f %10s %10s  %d ops, %s\n", "", op, o.PerSec, "", "", o.Count, failures(o))
	}
	return exitOK
}

// failures formats an operation's failures by reason code.
func failures(o *daemon.SoakOp) string {
	if len(o.Errors) == 0 {
		return "none"
	}
	codes := make([]string, 0, len(o.Errors))
	for c := range o.Errors {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	var b strings.Builder
	for i, c := range codes {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d (%.0f %%)", c, o.Errors[c], 100*float64(o.Errors[c])/float64(max(o.Count, 1)))
	}
	return b.String()
}
