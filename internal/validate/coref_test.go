package validate

import (
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

// TestConsistencyPronounSubject: a sentence whose subject is a pronoun is
// read with the one model subject the sentence before names, and only
// then.
func TestConsistencyPronounSubject(t *testing.T) {
	models, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, text string
		pass       bool
	}{
		{"contradiction through it", "Many vaults hold wstETH. It rebases every day.", false},
		{"contradiction through they", "Many vaults hold wstETH tokens. They rebase every day.", false},
		{"contradiction through this", "Many vaults hold wstETH. This is a rebasing token.", false},
		{"correct through it", "Many vaults hold wstETH. It does not rebase.", true},
		{"correct through they", "Many vaults hold wstETH tokens. They do not rebase; the exchange rate rises instead.", true},
		{"ambiguous antecedent", "Vaults hold wstETH and stETH. It rebases every day.", true},
		{"two sentences back", "Many vaults hold wstETH. Yields vary. It rebases every day.", true},
		{"no model subject before", "Many vaults hold tokens. It rebases every day.", true},
		{"quoted pronoun", "Many vaults hold wstETH. \"It rebases every day,\" a forum post says.", true},
		{"quoted antecedent", "A post said \"buy wstETH\". It rebases every day.", true},
		{"determiner this", "Many vaults hold wstETH. This vault rebases every day.", true},
		{"dummy it", "Many vaults hold wstETH. It is worth noting that rebasing tokens exist.", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := Consistency(Candidate{Entry: &knowledge.Entry{Content: tc.text}}, models)
			if v.Pass != tc.pass {
				t.Errorf("Consistency(%q).Pass = %v, want %v (reasons %q)", tc.text, v.Pass, tc.pass, v.Reasons)
			}
		})
	}
}

func TestPronounLen(t *testing.T) {
	cases := []struct {
		text string
		want int
	}{
		{"It does not rebase", 1},
		{"They rebase daily", 1},
		{"It is largest when the price stays still", 1},
		{"This is a rebasing token", 1},
		{"These are rebasing tokens", 1},
		{"Elle ne rebase pas", 1},
		{"This token rebases", 0},
		{"It is worth noting that tokens rebase", 0},
		{"It is possible to lose funds", 0},
		{"Its balance grows", 0},
		{"The latter rebases", 0},
		{"It", 0},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			if got := pronounLen(stems(tc.text)); got != tc.want {
				t.Errorf("pronounLen(%q) = %d, want %d", tc.text, got, tc.want)
			}
		})
	}
}
