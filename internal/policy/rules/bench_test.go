package rules

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

func benchSnapshot(b *testing.B) (*policy.Snapshot, string, *policy.Tracker) {
	b.Helper()
	root := b.TempDir()
	os.MkdirAll(filepath.Join(root, "notes"), 0o755)
	os.WriteFile(filepath.Join(root, "notes", "plan.md"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(root, "wallet.json"), []byte("x"), 0o600)
	cfg := DefaultConfig()
	cfg.Paths.Root = root
	cfg.Resolver = NewResolver()
	b.Cleanup(func() { cfg.Resolver.Close() })
	snap, err := Compile(cfg)
	if err != nil {
		b.Fatal(err)
	}
	tr := policy.NewTracker()
	tr.SetBalance(100_000)
	tr.RecordSpend(SpendTransfer, 4000, time.Now().Add(-10*time.Minute))
	return snap, root, tr
}

// BenchmarkEvaluate measures decode + evaluation of one call of each kind
// in the mix.
func BenchmarkEvaluate(b *testing.B) {
	snap, root, tr := benchSnapshot(b)
	for _, bc := range []struct {
		name string
		tool string
		args string
	}{
		{"transfer-allowed", "transfer_credits", `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":500,"memo":"invoice 7"}`},
		{"transfer-denied", "transfer_credits", `{"to_address":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","amount_cents":2500,"memo":"invoice 7"}`},
		{"exec-benign", "exec", `{"command":"grep -rn TODO src","timeout_s":30}`},
		{"exec-forbidden", "exec", `{"command":"sudo rm -rf --no-preserve-root /","timeout_s":30}`},
		{"write-allowed", "write_file", `{"path":"notes/plan.md","content":"report"}`},
		{"write-protected", "write_file", `{"path":"wallet.json","content":"report"}`},
		{"read-allowed", "read_file", `{"path":"notes/plan.md"}`},
		{"read-sensitive", "read_file", `{"path":".env"}`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			raw := []byte(bc.args)
			ref := tool.Ref{Name: bc.tool}
			turn := policy.Turn{ID: "t1", SessionID: "s1", Source: policy.Agent}
			b.ReportAllocs()
			for b.Loop() {
				args, err := tool.ParseArgs(raw)
				if err != nil {
					b.Fatal(err)
				}
				snap.Evaluate(&policy.Request{Tool: ref, Args: args, Turn: turn, Workdir: root, State: tr})
			}
		})
	}
}
