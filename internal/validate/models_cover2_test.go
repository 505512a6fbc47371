package validate

import (
	"math"
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
	checkCoverage(t, cover2Contradictions, cover2Clean)
}

func TestUnitOfTimeAndEther(t *testing.T) {
	for _, tc := range []struct {
		tok   string
		unit  string
		scale float64
	}{
		{"millisecond", "days", 1.0 / 86400000},
		{"ms", "days", 1.0 / 86400000},
		{"eth", "eth", 1},
		{"ether", "eth", 1},
		{"second", "days", 1.0 / 86400},
		{"pool", "", 1},
	} {
		t.Run(tc.tok, func(t *testing.T) {
			unit, scale := unitOf(tc.tok)
			if unit != tc.unit || scale != tc.scale {
				t.Errorf("unitOf(%q) = %q, %v, want %q, %v", tc.tok, unit, scale, tc.unit, tc.scale)
			}
		})
	}
}

func TestNearestQuantity(t *testing.T) {
	for _, tc := range []struct {
		name    string
		text    string
		subject string
		unit    string
		want    []float64 // lo of each interval returned
	}{
		{"after beats farther after", "grace period is 90 days followed by 21 day auction", "grace period", "days", []float64{90}},
		{"after beats farther before", "base every 2 seconds and arbitrum block every 250 ms", "arbitrum block", "days", []float64{250.0 / 86400000}},
		{"before when none after", "a 7 day challenge period", "challenge period", "days", []float64{7}},
		{"other units ignored", "close factor is 50 % for 2 days", "close factor", "%", []float64{50}},
		{"none in unit", "close factor is 50 %", "close factor", "days", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			toks := stems(tc.text)
			sp := find(toks, terms([]string{tc.subject}))
			if len(sp) != 1 {
				t.Fatalf("subject %q found %d times in %q", tc.subject, len(sp), toks)
			}
			var got []float64
			for _, iv := range nearest(numbersNear(toks, sp[0]), tc.unit, sp[0]) {
				got = append(got, iv.lo)
			}
			if len(got) != len(tc.want) || len(got) == 1 && math.Abs(got[0]-tc.want[0]) > 1e-12 {
				t.Errorf("nearest = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNegationScope checks that a negation before one mention of a
// property does not also deny a mention of the other kind further on.
func TestNegationScope(t *testing.T) {
	models, err := LoadModels(strings.NewReader(`{"statement":"Token X is custodial, not decentralised","subject":"token x","relation":"is_not","object":"decentralised","object_aliases":["decentralized","fungible erc-20"],"object_antonyms":["custodial","burns and mints"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		pass bool
	}{
		{"Token X is not decentralized, it is custodial.", true},
		{"Token X is not decentralized and burns and mints.", true},
		{"Token X is custodial, not decentralized.", true},
		{"Token X is not custodial, it is decentralized.", false},
		{"Token X is decentralized.", false},
		{"Token X is not custodial.", false},
		{"Token X is not fungible ERC-20 custodial.", false}, // one phrase: the negation denies both
	} {
		t.Run(tc.text, func(t *testing.T) {
			v := Consistency(Candidate{Entry: &knowledge.Entry{Content: tc.text}}, models)
			if v.Pass != tc.pass {
				t.Errorf("Consistency = pass %v (reasons %q), want pass %v", v.Pass, v.Reasons, tc.pass)
			}
		})
	}
}

// TestModelCoverage2Fresh measures L3b on sentences written after the
// models in wordings their tests do not use: it logs every miss and the
// catch rate, fails below a floor of 80 %, and fails on any clean
// sentence flagged.
func TestModelCoverage2Fresh(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	vote := func(text string) Vote {
		return Consistency(Candidate{Entry: &knowledge.Entry{Content: text}}, models)
	}
	caught := 0
	for _, text := range cover2FreshContradictions {
		if vote(text).Pass {
			t.Logf("missed: %q", text)
			continue
		}
		caught++
	}
	rate := float64(caught) / float64(len(cover2FreshContradictions))
	t.Logf("fresh contradictions flagged: %d of %d (%.0f %%)", caught, len(cover2FreshContradictions), 100*rate)
	if rate < 0.8 {
		t.Errorf("fresh contradictions flagged %.0f %%, want at least 80 %%", 100*rate)
	}
	for _, text := range cover2FreshClean {
		if v := vote(text); !v.Pass {
			t.Errorf("Consistency flags a correct sentence %q: %q", text, v.Reasons)
		}
	}
}
