package validate

import (
	"flag"
	"fmt"
	"strings"
	"testing"

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
// reason, and the gate and the relaxation it reads in the whole text. A
// change made for speed must leave every one as it was; a change of the
// model regenerates the golden file with -update.
func TestGatePinned(t *testing.T) {
	texts := pintest.Load(t, pintest.Corpus{
		JSONL:    []string{"../../testdata/dev/*/*.jsonl", "../../testdata/dev/*/late/*.jsonl"},
		Fields:   []string{"content"},
		Optional: *poisoning,
		GoTests:  []string{"*_test.go", "../trust/screen/*_test.go", "../ingest/*_test.go"},
		Exclude:  []string{"gatepin_test.go"},
	})
	pintest.Check(t, texts, gateOutputs, pintest.Options{Golden: "testdata/gatepinned.golden", Full: *pinFull, Update: *update})
}

// gateOutputs is everything the pinned functions return for text.
func gateOutputs(text string) string {
	low := strings.ToLower(text)
	return fmt.Sprintf("reason=%q gate=%q relaxation=%q", GatedRelaxation(text), gateOf(text, strings.ReplaceAll(low, "_", " ")), relaxationOf(strings.ReplaceAll(low, "_", " ")))
}
