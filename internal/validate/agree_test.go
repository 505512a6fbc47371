package validate

import (
	"strings"
	"testing"
)

// agreeModels are small models to read agreement with: a range, a set,
// a property and its denial, and a rule of thumb below the threshold.
const agreeModels = `
{"statement": "An optimistic rollup's challenge period is about seven days", "subject": "challenge period", "relation": "within", "min": 6, "max": 8, "unit": "days", "protocols": ["op mainnet", "arbitrum"], "unless": ["zksync"], "confidence": 0.95}
{"statement": "Uniswap v3 fee tiers are 0.01 %, 0.05 %, 0.3 % and 1 %", "subject": "fee tier", "relation": "one_of", "values": [0.01, 0.05, 0.3, 1], "unit": "%", "confidence": 0.95}
{"statement": "A token symbol is not unique", "subject": "token symbol", "relation": "is_not", "object": "unique", "object_antonyms": ["copied"], "confidence": 0.95}
{"statement": "stETH rebases", "subject": "steth", "relation": "is", "object": "rebasing", "object_aliases": ["rebases"], "confidence": 0.97}
{"statement": "Staking yields fall as more stake joins", "subject": "staking yield", "relation": "is", "object": "variable", "confidence": 0.85}
`

func TestAgree(t *testing.T) {
	ms, err := LoadModels(strings.NewReader(agreeModels))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		text         string
		confirmed    int
		contradicted bool
	}{
		{"range inside", "OP Mainnet's challenge period is 7 days.", 1, false},
		{"range inside, alias of the unit", "On Arbitrum the challenge period lasts about seven days.", 1, false},
		{"range outside", "OP Mainnet's challenge period is 2 days.", 0, true},
		// The contradiction reads the nearest quantity only; agreement
		// wants every one inside.
		{"range, one of two quantities outside", "OP Mainnet's challenge period is 7 days or 12 days.", 0, false},
		{"range, protocol not named", "The challenge period is 7 days.", 0, false},
		{"range, exception named", "OP Mainnet's challenge period is 7 days, unlike zkSync.", 0, false},
		{"range negated", "OP Mainnet's challenge period is not 7 days.", 0, false},
		{"set member", "Uniswap v3 has a fee tier of 0.05 %.", 1, false},
		{"set non-member", "Uniswap v3 has a fee tier of 0.2 %.", 0, true},
		{"property denied, as the model", "A token symbol is not unique.", 1, false},
		{"property denied by its antonym", "A token symbol can be copied.", 1, false},
		{"property affirmed, against the model", "A token symbol is unique.", 0, true},
		{"property affirmed", "stETH rebases daily.", 1, false},
		{"property negated", "stETH never rebases.", 0, true},
		{"wrong subject", "wstETH does not rebase.", 0, false},
		{"conditional", "If the bridge is paused, OP Mainnet's challenge period is 7 days.", 0, false},
		{"when", "stETH rebases when the oracle reports.", 0, false},
		{"hypothetical", "OP Mainnet's challenge period would be 7 days.", 0, false},
		{"quoted", `The docs say "OP Mainnet's challenge period is 7 days".`, 0, false},
		{"curly quoted", "Someone wrote “stETH rebases”.", 0, false},
		{"question", "Is OP Mainnet's challenge period 7 days?", 0, false},
		{"reported", "Scammers claim a token symbol is not unique.", 0, false},
		{"weighed polarity", "There is zero chance that a token symbol is copied.", 0, false},
		{"loose negation", "It is a myth that stETH rebases.", 0, true},
		{"below the threshold", "Staking yield is variable.", 0, false},
		{"one sentence of two", "stETH rebases. ETH will reach 10,000 dollars.", 1, false},
		{"each sentence once", "stETH rebases and a token symbol is not unique.", 1, false},
		{"two sentences", "stETH rebases. A token symbol is not unique.", 2, false},
		{"confirmed and contradicted", "stETH rebases. A token symbol is unique.", 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Agree(tt.text, ms, 0.9)
			if got.Confirmed != tt.confirmed || got.Contradicted != tt.contradicted {
				t.Errorf("Agree(%q) = %+v, want confirmed %d, contradicted %v", tt.text, got, tt.confirmed, tt.contradicted)
			}
		})
	}
}

// TestAgreeShipped reads agreement with the models ward ships at the
// least confidence a purchased source's gross overclaim asks for (0.9375).
func TestAgreeShipped(t *testing.T) {
	ms, err := ShippedModels()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		text      string
		confirmed int
	}{
		{"An Ethereum epoch has 32 slots.", 1},
		{"An Ethereum epoch has 64 slots.", 0},
		{"Canonical OP Mainnet withdrawals to Ethereum have a challenge period of about 7 days.", 1},
		{"Canonical zkSync withdrawals to Ethereum have a challenge period of about 7 days.", 0},
		{"There is zero chance that USDC depegs again.", 0},
	}
	for _, tt := range tests {
		if got := Agree(tt.text, ms, 0.9375); got.Confirmed != tt.confirmed {
			t.Errorf("Agree(%q) = %+v, want confirmed %d", tt.text, got, tt.confirmed)
		}
	}
}
