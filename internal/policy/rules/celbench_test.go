package rules

import (
	"fmt"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// celRuleShapes are always-false conditions, one per variable a rule can
// read, each numbered so that no two rules of a policy are the same.
var celRuleShapes = map[string]func(i int) string{
	"tool":       func(i int) string { return fmt.Sprintf(`tool.name == "never_%d"`, i) },
	"args":       func(i int) string { return fmt.Sprintf(`has(args.never_%d)`, i) },
	"turn":       func(i int) string { return fmt.Sprintf(`turn.authority == "never_%d"`, i) },
	"session":    func(i int) string { return fmt.Sprintf(`session.taint == "never_%d"`, i) },
	"state":      func(i int) string { return fmt.Sprintf(`state.count("never_%d", "turn") > 1000000`, i) },
	"provenance": func(i int) string { return fmt.Sprintf(`"never_%d" in provenance`, i) },
}

// BenchmarkCELRules measures a decision of a read call under the default
// rules plus n always-false CEL rules that apply to every call, for each
// variable a rule can read: the cost per applicable rule is
// (ns/op at n - ns/op at 0) / n.
func BenchmarkCELRules(b *testing.B) {
	snap0, root, tr := benchSnapshot(b)
	raw := []byte(`{"path":"notes/plan.md"}`)
	turn := policy.Turn{ID: "t1", SessionID: "s1", Source: policy.Agent}
	run := func(b *testing.B, snap *policy.Snapshot) {
		b.ReportAllocs()
		args, err := tool.ParseArgs(raw)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			d := snap.Evaluate(&policy.Request{Tool: tool.Ref{Name: "read_file"}, Args: args, Turn: turn, Workdir: root, State: tr})
			if d.Action() != policy.Allow {
				b.Fatalf("decision %v %s", d.Action(), d.Diagnostic())
			}
		}
	}
	b.Run("rules=0", func(b *testing.B) { run(b, snap0) })
	for _, shape := range []string{"tool", "args", "turn", "session", "state", "provenance"} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("%s/rules=%d", shape, n), func(b *testing.B) {
				cfg := DefaultConfig()
				cfg.Paths.Root = root
				cfg.Resolver = NewResolver()
				b.Cleanup(func() { cfg.Resolver.Close() })
				for i := range n {
					cfg.Rules = append(cfg.Rules, UserRule{ID: fmt.Sprintf("r%d", i), When: celRuleShapes[shape](i), Action: policy.Deny})
				}
				snap, err := Compile(cfg)
				if err != nil {
					b.Fatal(err)
				}
				run(b, snap)
			})
		}
	}
}

// BenchmarkArgSize measures decode + evaluation of a write_file call whose
// content is B bytes of text: the cost should grow linearly with B.
func BenchmarkArgSize(b *testing.B) {
	snap, root, tr := benchSnapshot(b)
	for _, size := range []int{1 << 10, 10 << 10, 100 << 10} {
		b.Run(fmt.Sprintf("bytes=%d", size), func(b *testing.B) {
			content := make([]byte, size)
			for i := range content {
				content[i] = "abcdefghij klmnopqrstuvwxyz\n"[i%28]
			}
			raw := []byte(fmt.Sprintf(`{"path":"notes/plan.md","content":%q}`, content))
			turn := policy.Turn{ID: "t1", SessionID: "s1", Source: policy.Agent}
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				args, err := tool.ParseArgs(raw)
				if err != nil {
					b.Fatal(err)
				}
				snap.Evaluate(&policy.Request{Tool: tool.Ref{Name: "write_file"}, Args: args, Turn: turn, Workdir: root, State: tr})
			}
		})
	}
}
