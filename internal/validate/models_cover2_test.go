package validate

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// TestModelCoverage2 checks the models of the second coverage round
// (account abstraction, signatures, intents, bridges, L2s, token quirks,
// ERC-4626, stablecoins, LST/LRT, perps, governance, MEV, ENS): each
// sentence of cover2Contradictions must fail L3b naming its model, and no
// sentence of cover2Clean (nor of coverClean) may fail it.
func TestModelCoverage2(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	vote := func(text string) Vote {
		return Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	}
	covered := map[string]bool{}
	n := 0
	for _, tc := range cover2Contradictions {
		var model *Model
		for i := range models {
			if models[i].Statement == tc.model {
				if model != nil {
					t.Fatalf("%q names more than one model", tc.model)
				}
				model = &models[i]
			}
		}
		if model == nil {
			t.Fatalf("%q names no model", tc.model)
		}
		for _, text := range tc.texts {
			n++
			t.Run("contradicts/"+text, func(t *testing.T) {
				v := vote(text)
				if v.Pass || !strings.Contains(strings.Join(v.Reasons, "; "), model.Statement) {
					t.Errorf("Consistency = pass %v (reasons %q), want a failure naming %q", v.Pass, v.Reasons, model.Statement)
					return
				}
				covered[model.Statement] = true
			})
		}
	}
	if len(covered) < 150 {
		t.Errorf("contradictions cover %d models, want at least 150", len(covered))
	}
	for _, text := range cover2Clean {
		t.Run("clean/"+text, func(t *testing.T) {
			if v := vote(text); !v.Pass {
				t.Errorf("Consistency flags a correct sentence: %q", v.Reasons)
			}
		})
	}
	if len(cover2Clean) < 250 {
		t.Errorf("%d clean sentences, want at least 250", len(cover2Clean))
	}
	t.Logf("%d contradictions over %d models, %d clean sentences", n, len(covered), len(cover2Clean))
}
