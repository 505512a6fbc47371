package bench

import (
	"context"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/tool"
)

// BenchmarkEvalMix decodes and evaluates the mixed workload, as the
// first phase of `ward bench policy` does.
func BenchmarkEvalMix(b *testing.B) {
	w, err := NewWorkload(b.TempDir(), 4096, 1)
	if err != nil {
		b.Fatal(err)
	}
	cfg := rules.DefaultConfig()
	cfg.Resolver = rules.NewResolver()
	defer cfg.Resolver.Close()
	snap, err := rules.Compile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	tr := newTracker(time.Now())
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c := &w.Calls[i%len(w.Calls)]
		i++
		args, err := tool.ParseArgs(c.Args)
		if err != nil {
			b.Fatal(err)
		}
		snap.Evaluate(&policy.Request{Tool: c.Tool, Args: args, Turn: c.Turn, Workdir: c.Workdir, State: tr})
	}
}

// TestRun runs both phases briefly against a real SQLite store and checks
// the result is complete and the audit trail has every decision.
func TestRun(t *testing.T) {
	cfg := rules.DefaultConfig()
	snap, err := rules.Compile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(t.Context(), Config{
		Snapshot: snap,
		Duration: 200 * time.Millisecond,
		Workers:  8,
		Dir:      t.TempDir(),
		Open: func(ctx context.Context, path string) (store.Store, error) {
			return sqlite.Open(ctx, sqlite.Config{Path: path, Synchronous: "normal"})
		},
		Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.EvalOps == 0 || res.AuditedOps == 0 || res.AuditedRows != res.AuditedOps {
		t.Errorf("ops: eval %d, audited %d, rows %d", res.EvalOps, res.AuditedOps, res.AuditedRows)
	}
	if res.EvalP50Ns <= 0 || res.EvalP99Ns < res.EvalP50Ns || res.AuditedP99Ns < res.AuditedP50Ns {
		t.Errorf("percentiles: %+v", res)
	}
	// The mix allows about half its calls (the reference mix: ~45 %).
	if res.AllowedPercent < 35 || res.AllowedPercent > 65 {
		t.Errorf("allowed %.1f%% of the mix, want about half", res.AllowedPercent)
	}
}

func TestWorkloadMix(t *testing.T) {
	w, err := NewWorkload(t.TempDir(), 10_000, 7)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, c := range w.Calls {
		n[c.Tool.Name]++
	}
	for name, want := range map[string]float64{"transfer_credits": 0.30, "exec": 0.30, "write_file": 0.25, "read_file": 0.15} {
		got := float64(n[name]) / float64(len(w.Calls))
		if got < want-0.02 || got > want+0.02 {
			t.Errorf("%s is %.3f of the mix, want %.2f", name, got, want)
		}
	}
}

// BenchmarkEvalMixStages splits BenchmarkEvalMix by stage and by the
// mix's four kinds of call: decoding the arguments alone ("parse"), the
// snapshot's evaluation of arguments decoded beforehand ("evaluate", which
// allocates nothing), and each built-in rule that applies to the kind on
// its own ("rule/<kind>/<id>", on a request reused between calls, with
// nothing shared between rules: no memo of an amount or a path another
// rule already read). Parse plus evaluate is less than EvalMix, which also
// pays for the collector's work on the decoded arguments.
func BenchmarkEvalMixStages(b *testing.B) {
	w, err := NewWorkload(b.TempDir(), 4096, 1)
	if err != nil {
		b.Fatal(err)
	}
	cfg := rules.DefaultConfig()
	cfg.Resolver = rules.NewResolver()
	defer cfg.Resolver.Close()
	snap, err := rules.Compile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	tr := newTracker(time.Now())
	parsed := make([]*tool.Args, len(w.Calls))
	byKind := map[string][]int{}
	for i, c := range w.Calls {
		if parsed[i], err = tool.ParseArgs(c.Args); err != nil {
			b.Fatal(err)
		}
		byKind[c.Tool.Name] = append(byKind[c.Tool.Name], i)
	}
	all := make([]int, len(w.Calls))
	for i := range all {
		all[i] = i
	}
	stages := func(name string, calls []int) {
		b.Run("parse/"+name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := tool.ParseArgs(w.Calls[calls[i%len(calls)]].Args); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run("evaluate/"+name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				j := calls[i%len(calls)]
				c := &w.Calls[j]
				snap.Evaluate(&policy.Request{Tool: c.Tool, Args: parsed[j], Turn: c.Turn, Workdir: c.Workdir, State: tr})
				i++
			}
		})
	}
	stages("mix", all)
	kinds := []string{"transfer_credits", "exec", "write_file", "read_file"}
	for _, kind := range kinds {
		stages(kind, byKind[kind])
	}
	for _, kind := range kinds {
		calls := byKind[kind]
		ref := snap.Resolve(tool.Ref{Name: kind})
		for _, r := range snap.Rules() {
			if !r.Applies.Matches(ref) {
				continue
			}
			b.Run("rule/"+kind+"/"+r.ID, func(b *testing.B) {
				req, now := new(policy.Request), time.Now()
				i := 0
				for b.Loop() {
					j := calls[i%len(calls)]
					c := &w.Calls[j]
					*req = policy.Request{Tool: ref, Args: parsed[j], Turn: c.Turn, Workdir: c.Workdir, State: tr, Now: now}
					r.Eval(req)
					i++
				}
			})
		}
	}
}
