package gate

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// BenchmarkDecideDurable runs the whole gate path (decode, evaluate, hold,
// durable audit to SQLite) from many goroutines, as a busy daemon would.
func BenchmarkDecideDurable(b *testing.B) {
	for _, par := range []int{16, 64} {
		b.Run(fmt.Sprintf("callers=%d", par*2), func(b *testing.B) {
			st, err := sqlite.Open(b.Context(), sqlite.Config{Path: filepath.Join(b.TempDir(), "ward.db")})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			cfg := rules.DefaultConfig()
			cfg.Paths.Root = b.TempDir()
			cfg.Treasury.MaxTransfersPerTurn = 1 << 30
			snap, err := rules.Compile(cfg)
			if err != nil {
				b.Fatal(err)
			}
			eng, _ := policy.NewEngine(snap)
			rec, _ := audit.NewRecorder(audit.Config{Log: st})
			tr := policy.NewTracker()
			tr.SetBalance(1 << 40)
			g, err := New(Config{Engine: eng, Tracker: tr, Audit: rec})
			if err != nil {
				b.Fatal(err)
			}
			// The request is built before the clock starts: building it
			// (fmt.Appendf) cost about 0.5 µs a call, which the figure
			// should not count. Decide copies the arguments it keeps.
			call := transfer(2000, "t") // denied: no hold to settle
			b.SetParallelism(par)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					a := g.Decide(b.Context(), call)
					if a.AuditErr != nil {
						b.Error(a.AuditErr)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
		})
	}
}

// BenchmarkOpenSession opens the agent's existing session, as every MCP
// or API request does, and creates a new one, as a client does once.
func BenchmarkOpenSession(b *testing.B) {
	f := newFixture(b, fixtureOpts{})
	view, err := f.tools.view()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("existing", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.tools.OpenSession(b.Context(), agentOwner, "s1", view); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("create", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			owner := Owner{PrincipalID: fmt.Sprint("p-bench-", i), Name: "bench", Source: agentOwner.Source}
			if _, err := f.tools.CreateSession(b.Context(), owner, "", TrustOptions{}, view); err != nil {
				b.Fatal(err)
			}
		}
	})
}
