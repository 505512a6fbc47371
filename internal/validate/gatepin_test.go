package validate

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/pintest"
)

var (
	update    = flag.Bool("update", false, "rewrite testdata/gatepinned.golden with the outputs now")
	pinFull   = flag.String("pin.full", "", "also write (-update) or compare every output in this file, outside the repository")
	poisoning = flag.String("pin.poisoning", "../../../shared/eval/poisoning", "the public poisoning set's directory, read when it exists")
)

// TestGatePinned pins what the gated-relaxation vote makes of the dev
// corpora, the public poisoning set and the string literals of this
// package's, package screen's and package ingest's tests: GatedRelaxation's
// reason, the gate and the relaxation it reads in the whole text, and the
// votes that share its expressions (Trigger, Blend, Loosen). A change made
// for speed must leave every one as it was; a change of the models
// regenerates the golden file with -update.
func TestGatePinned(t *testing.T) {
	texts := pintest.Load(t, pintest.Corpus{
		JSONL:    []string{"../../testdata/dev/*/*.jsonl", "../../testdata/dev/*/late/*.jsonl"},
		Fields:   []string{"content"},
		Optional: *poisoning,
		GoTests:  []string{"*_test.go", "onchain/*_test.go", "reasoning/*_test.go", "../trust/screen/*_test.go", "../ingest/*_test.go"},
		Exclude:  []string{"gatepin_test.go"},
	})
	pintest.Check(t, texts, gateOutputs, pintest.Options{Golden: "testdata/gatepinned.golden", Full: *pinFull, Update: *update})
}

// gateOutputs is everything the pinned functions return for text.
func gateOutputs(text string) string {
	low := strings.ToLower(text)
	e := &knowledge.Entry{Content: text}
	return fmt.Sprintf("reason=%q gate=%q relaxation=%q trigger=%+v blend=%+v loosen=%+v", GatedRelaxation(text), gateOf(text, strings.ReplaceAll(low, "_", " ")), relaxationOf(strings.ReplaceAll(low, "_", " ")),
		Trigger(e), Blend(e), Loosen(e))
}

// devMix is a fixed mix of dev-set contents for benchmarks: every eighth
// text of the dev corpora, clean and poisoned, in file order.
func devMix(b *testing.B) []string {
	texts := pintest.Load(b, pintest.Corpus{JSONL: []string{"../../testdata/dev/*/*.jsonl"}, Fields: []string{"content"}})
	var out []string
	for i := 0; i < len(texts); i += 8 {
		out = append(out, texts[i].Text)
	}
	return out
}

// BenchmarkGatedRelaxation measures the gate vote's reading of one
// dev-set content, over a fixed mix of them.
func BenchmarkGatedRelaxation(b *testing.B) {
	texts := devMix(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		GatedRelaxation(texts[i%len(texts)])
		i++
	}
}
