package validate

import (
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// TestConditionIntroducingTheSubject: a condition that opens just the
// model's subject ("when funding is positive, …") is the model's own
// antecedent, so its contradiction is unconditional; a condition that says
// more ("when stETH is bridged") still makes the claim conditional.
func TestConditionIntroducingTheSubject(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text        string
		wantDecided bool // an unconditional contradiction of a decisive model
	}{
		{"When funding is positive, shorts pay longs.", true},
		{"If funding is positive, shorts pay longs every eight hours.", true},
		{"When funding is positive and the market is calm, shorts pay longs.", false},
		{"When stETH is bridged, it does not rebase.", false},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			v := Consistency(Candidate{Entry: &knowledge.Entry{Content: tc.text}}, models)
			if v.Pass {
				t.Fatalf("Consistency passed, want a contradiction: %v", v.Reasons)
			}
			if v.Decisive != tc.wantDecided {
				t.Errorf("Decisive = %v, want %v (score %.2f, %v)", v.Decisive, tc.wantDecided, v.Score, v.Reasons)
			}
		})
	}
}
