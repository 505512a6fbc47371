package ingest

import (
	"testing"

	"github.com/wardhq/ward/internal/skill"
)

// BenchmarkComponentRun is one run of the example component as a
// condition: what a WASM condition costs at each tick of an evaluation.
func BenchmarkComponentRun(b *testing.B) {
	m, err := LoadComponent(b.Context(), componentModule(b, "example"), skill.WASMLimits{})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close(b.Context())
	in := []byte(`{"kind":"condition","args":{"rsi_below":45},"market":{"rsi":40,"vol":0.01}}`)
	for b.Loop() {
		if _, err := m.Run(b.Context(), in); err != nil {
			b.Fatal(err)
		}
	}
}
