package upstream_test

import (
	"testing"
	"time"

	"github.com/wardhq/ward/internal/upstream"
	"github.com/wardhq/ward/internal/upstream/upstreamtest"
)

// BenchmarkStartup measures the start-up of an upstream stdio server
// (the test server, a Go binary): Open of a set with that one server,
// from spawning it to its tools listed and checked against their pins,
// in the sandbox (the default) and with sandbox = false. It reports the
// median (p50-ms) of each; closing the set is not timed.
func BenchmarkStartup(b *testing.B) {
	st := upstream.NewBenchStore(b)
	for _, c := range []struct {
		name string
		off  bool
	}{{"sandboxed", false}, {"unsandboxed", true}} {
		b.Run(c.name, func(b *testing.B) {
			srv := upstream.StdioServer(b, "notes", "")
			srv.Sandbox.Off = c.off
			cfg := upstream.Config{Servers: []upstream.Server{srv}, State: st, Actions: st, Dir: b.TempDir()}
			var took []time.Duration
			for b.Loop() {
				start := time.Now()
				set, err := upstream.Open(b.Context(), cfg)
				took = append(took, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				if got := set.Servers(); len(got) != 1 {
					b.Fatalf("servers %v", got)
				}
				if err := set.Close(); err != nil {
					b.Fatal(err)
				}
			}
			p50 := upstreamtest.Percentile(took, 0.5)
			b.ReportMetric(float64(p50)/float64(time.Millisecond), "p50-ms")
			b.Logf("%s start-up: p50 %v, p90 %v, %d starts", c.name, p50.Round(100*time.Microsecond), upstreamtest.Percentile(took, 0.9).Round(100*time.Microsecond), len(took))
		})
	}
}
