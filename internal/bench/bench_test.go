package bench

import (
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
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
