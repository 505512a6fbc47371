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
		{"If a flash loan is repaid in a later block, the lender charges more.", false},
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

// TestSplitLabelled: a colon after a short label without a verb (a key,
// a field, a heading) does not end the sentence L3b reads; a colon after a
// clause does.
func TestSplitLabelled(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"// previewRedeem: rounds up", 1},
		{"withdraw: up  # shares burned", 1},
		{"Aave V3 close factor: a liquidator repays up to 50%", 1},
		{"X cannot lose: if a leg loses, it reverts", 2},
		{"Funding moves the perp back to spot: it pays the side that is short of demand", 2},
		{"the collateral of every borrower in the pool: it is shared", 2},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			if got := len(splitLabelled(tc.text)); got != tc.want {
				t.Errorf("splitLabelled = %d sentences (%q), want %d", got, splitLabelled(tc.text), tc.want)
			}
		})
	}
}

// TestObjectAfterComparison: an object named after "less than", "more
// than" or "other than" is the standard of a comparison, not a property
// the clause gives its subject.
func TestObjectAfterComparison(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		"Fee-on-transfer tokens deliver less than the amount sent, so measure the balance before and after.",
		"A fee-on-transfer token credits the receiver with fewer tokens than the amount sent.",
	} {
		t.Run(text, func(t *testing.T) {
			if v := Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models); !v.Pass {
				t.Errorf("Consistency flags a correct sentence: %q", v.Reasons)
			}
		})
	}
	text := "A fee-on-transfer token delivers the amount sent."
	if v := Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models); v.Pass {
		t.Errorf("Consistency passes %q, want a contradiction", text)
	}
}

// TestSemicolonKeepsTheProtocol: a clause after a semicolon is read in
// the scope of the protocol the clause before it names, as a sentence
// that refers back is.
func TestSemicolonKeepsTheProtocol(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	vote := func(text string) Vote {
		return Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	}
	bad := "On Aave V3 a liquidator repays up to half the debt; below a health factor of 0.95 the close factor is 25%."
	if v := vote(bad); v.Pass {
		t.Errorf("Consistency passes %q, want a contradiction", bad)
	}
	for _, good := range []string{
		"On Aave V3 a liquidator repays up to half the debt; below a health factor of 0.95 the close factor is 100%.",
		"On Aave V3 the close factor is 50%; on Euler it is 20%.",
	} {
		if v := vote(good); !v.Pass {
			t.Errorf("Consistency flags %q: %q", good, v.Reasons)
		}
	}
}
