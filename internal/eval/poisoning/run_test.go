package poisoning

import (
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// Explicit inputs through the real pipeline: the injection is caught at
// Stage 1, the contradiction of a seeded fact at Stage 2, and the clean
// entry is adopted.
func TestRunFiles(t *testing.T) {
	rep, err := RunFiles(t.Context(), "testdata/seed.jsonl", []string{"testdata/incoming.jsonl"}, Options{Strictness: knowledge.Standard})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Seeded != 2 || rep.Clean != 1 || rep.Flagged != 0 {
		t.Errorf("seeded %d, clean %d, flagged %d\n%s", rep.Seeded, rep.Clean, rep.Flagged, rep.Text())
	}
	for class, stage := range map[string]string{"prompt_injection": "stage1/content", "semantic_contradiction": "stage2/L2"} {
		c := rep.Classes[class]
		if c == nil || c.Poison != 1 || c.Missed != 0 {
			t.Errorf("%s: %+v (%s)", class, c, rep.Text())
			continue
		}
		if c.CaughtBy[stage] != 1 {
			t.Errorf("%s caught by %v, want %s", class, c.CaughtBy, stage)
		}
	}
	if b := rep.Benchmarks["toy"]; b == nil || b.Poison != 2 || b.Clean != 1 {
		t.Errorf("benchmark toy: %+v", b)
	}
}
