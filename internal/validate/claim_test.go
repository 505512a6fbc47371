package validate

import (
	"errors"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

func TestExtractClaims(t *testing.T) {
	type want struct {
		subj, rel, obj string
		dir            int
		redirect, neg  bool
		cond           string // substring of the first condition, if any
		mag            float64
		unit           string
	}
	tests := []struct {
		text string
		want *want // nil: no claim
	}{
		{"Higher utilization increases the borrow rate.", &want{subj: "utilization", rel: RelIncreases, obj: "borrow rate", dir: 1}},
		{"Higher utilization lowers borrowing rates.", &want{subj: "utilization", rel: RelDecreases, obj: "borrowing rates", dir: -1}},
		{"Lower utilization increases the borrow rate.", &want{subj: "utilization", rel: RelDecreases, obj: "borrow rate", dir: -1}},
		{"Gas price does not increase transaction cost.", &want{subj: "gas price", rel: RelDecreases, obj: "transaction cost", dir: -1}},
		{"Larger trades never raise price impact", &want{subj: "trades", rel: RelDecreases, obj: "price impact", dir: -1}},
		{"Impermanent loss increases with price divergence.", &want{subj: "impermanent loss", rel: RelIncreases, obj: "price divergence", dir: 1}},
		{"Borrow rates fall when utilization rises.", &want{subj: "utilization", rel: RelDecreases, obj: "borrow rates", dir: -1}},
		{"Slippage rises as liquidity falls", &want{subj: "slippage", rel: RelDecreases, obj: "liquidity", dir: -1}},
		{"Higher volatility leads to lower LP returns.", &want{subj: "volatility", rel: RelDecreases, obj: "lp returns", dir: -1}},
		{"Staking yield drops during network congestion.", &want{subj: "staking yield", rel: RelChanges, dir: -1, cond: "during network congestion"}},
		{"If the health factor drops below 1, the position is liquidated", nil},
		{"Funding rates increase when open interest is skewed, unless the market is halted.", &want{subj: "funding rates", rel: RelChanges, dir: 1, cond: "when open interest is skewed"}},
		{"Borrowing requires collateral.", &want{subj: "borrowing", rel: RelRequires, obj: "collateral"}},
		{"Borrowing does not require collateral anymore", &want{subj: "borrowing", rel: RelRequires, obj: "collateral anymore", neg: true}},
		{"A shorter TWAP window increases manipulation risk.", &want{subj: "twap window", rel: RelDecreases, obj: "manipulation risk", dir: -1}},
		{"Tighter slippage tolerance reduces MEV.", &want{subj: "slippage tolerance", rel: RelIncreases, obj: "mev", dir: 1}},
		{"Slippage tolerance bounds the minimum output.", &want{subj: "minimum output", rel: RelBoundedBy, obj: "slippage tolerance"}},
		{"A health factor below 1 implies liquidation.", &want{subj: "health factor below 1", rel: RelImplies, obj: "liquidation"}},
		{"The protocol fee is 0.3%.", &want{subj: "protocol fee", rel: RelIs, obj: "0.3%", mag: 0.3, unit: "%"}},
		{"The liquidation bonus is 50 bps", &want{subj: "liquidation bonus", rel: RelIs, obj: "0.5%", mag: 0.5, unit: "%"}},
		{"The Acme router now lives at 0xAbCdEf0123456789abcdef0123456789ABCDEF01.", &want{subj: "acme router", rel: RelRedirect, obj: "0xabcdef0123456789abcdef0123456789abcdef01", redirect: true}},
		{"Nimbus Bridge has moved to https://nimbus-bridge.example.org/app", &want{subj: "nimbus bridge", rel: RelRedirect, obj: "nimbus-bridge.example.org/app", redirect: true}},
		{"Use vault.example.com instead of the old dashboard.", &want{subj: "old dashboard", rel: RelRedirect, obj: "vault.example.com", redirect: true}},
		{"For deposits, always use 0x1111222233334444555566667777888899990000", &want{subj: "deposits", rel: RelRedirect, obj: "0x1111222233334444555566667777888899990000", redirect: true}},
		{"The new address for the Orbit vault is 0x9999888877776666555544443333222211110000.", &want{subj: "orbit vault", rel: RelRedirect, obj: "0x9999888877776666555544443333222211110000", redirect: true}},
		{"The old pool was replaced by PoolV3 on Arbitrum", &want{subj: "old pool", rel: RelRedirect, obj: "poolv3 arbitrum", redirect: true}},
		{"The longer the TWAP window, the lower the manipulation cost.", &want{subj: "twap window", rel: RelDecreases, obj: "manipulation cost", dir: -1}},
		{"The higher the utilisation, the higher the borrow rate", &want{subj: "utilisation", rel: RelIncreases, obj: "borrow rate", dir: 1}},
		{"The longer you wait, the more it costs.", nil},
		{"Lending markets lower the borrow rate as utilisation rises, so borrowing is cheapest at the top.", &want{subj: "utilisation", rel: RelDecreases, obj: "borrow rate", dir: -1}},
		{"Lending markets lower the borrow rate as utilisation rises.", &want{subj: "utilisation", rel: RelDecreases, obj: "borrow rate", dir: -1}},
		{"Protocols raise the borrow rate when utilization climbs", &want{subj: "utilization", rel: RelIncreases, obj: "borrow rate", dir: 1}},
		{"The weather was pleasant.", nil},
		{"Hello there", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got := ExtractClaims(tt.text)
			if tt.want == nil {
				if len(got) != 0 {
					t.Fatalf("ExtractClaims = %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("ExtractClaims = %+v, want one claim", got)
			}
			g, w := got[0], tt.want
			if g.Subject != w.subj || g.Relation != w.rel || g.Object != w.obj || g.Direction != w.dir || g.Redirect != w.redirect || g.Negated != w.neg {
				t.Errorf("got {%q %q %q dir %d redirect %v neg %v}, want {%q %q %q dir %d redirect %v neg %v}",
					g.Subject, g.Relation, g.Object, g.Direction, g.Redirect, g.Negated, w.subj, w.rel, w.obj, w.dir, w.redirect, w.neg)
			}
			if w.cond != "" && (len(g.Conditions) == 0 || !strings.Contains(g.Conditions[0], w.cond)) {
				t.Errorf("conditions = %q, want one containing %q", g.Conditions, w.cond)
			}
			if w.unit != "" && (g.Magnitude == nil || g.Magnitude.Value != w.mag || g.Magnitude.Unit != w.unit) {
				t.Errorf("magnitude = %+v, want %v%s", g.Magnitude, w.mag, w.unit)
			}
		})
	}
}

func TestExtractClaimsSentences(t *testing.T) {
	got := ExtractClaims("Higher utilization increases the borrow rate. The fee is 0.05%! Nothing here")
	if len(got) != 2 {
		t.Fatalf("got %d claims %+v, want 2", len(got), got)
	}
}

func TestContradictions(t *testing.T) {
	c := func(s string) Claim {
		cs := ExtractClaims(s)
		if len(cs) != 1 {
			t.Fatalf("ExtractClaims(%q) = %+v, want one", s, cs)
		}
		return cs[0]
	}
	tests := []struct {
		a, b string
		want bool
	}{
		{"Higher utilization increases the borrow rate", "Higher utilization decreases the borrow rate", true},
		{"Higher utilization increases the borrow rate", "Utilization raises borrow rates", false},
		{"Higher utilization increases the borrow rate", "Gas price decreases transaction cost", false},
		{"The protocol fee is 0.3%", "The protocol fee is 3%", true},
		{"The protocol fee is 0.3%", "The protocol fee is 0.25%", false},
		{"The Acme router now lives at 0x1111222233334444555566667777888899990000", "The Acme router is 0x1111222233334444555566667777888899990000", false},
		{"The Acme router now lives at 0x1111222233334444555566667777888899990000", "The Acme router is 0x2222222233334444555566667777888899990000", true},
		{"Borrowing requires collateral", "Borrowing does not require collateral", true},
		{"Repaying debt increases the health factor", "Drawing more debt cuts the health factor", false},
		{"A HF above 2 raises safety", "A health factor above 2 lowers safety", true},
		{"A price rise causes impermanent loss just like a fall", "Price divergence increases impermanent loss", false},
	}
	for _, tt := range tests {
		t.Run(tt.a+" / "+tt.b, func(t *testing.T) {
			if got := Contradictions(c(tt.a), c(tt.b)); got != tt.want {
				t.Errorf("Contradictions = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFromKnowledge(t *testing.T) {
	got, ok := FromKnowledge(&knowledge.Claim{Subject: "Utilization", Relation: "does not increase", Object: "borrow rate", Conditions: []string{"on Aave"}})
	if !ok || got.Direction != -1 || got.Subject != "utilization" || got.Object != "borrow rate" || len(got.Conditions) != 1 {
		t.Errorf("FromKnowledge = %+v, %v; want utilization decreases borrow rate on Aave", got, ok)
	}
	if _, ok := FromKnowledge(&knowledge.Claim{Object: "x"}); ok {
		t.Error("FromKnowledge without subject reported ok")
	}
}

func TestLoadModels(t *testing.T) {
	ms, err := ShippedModels()
	if err != nil {
		t.Fatalf("ShippedModels: %v", err)
	}
	if len(ms) < 30 {
		t.Errorf("ShippedModels has %d models, want at least 30", len(ms))
	}
	bad := []struct{ name, in, line string }{
		{"json", "{\"statement\":\"a\"", "line 1"},
		{"relation", "\n{\"statement\":\"s\",\"subject\":\"a\",\"relation\":\"causes\",\"object\":\"b\"}", "line 2"},
		{"subject", "{\"statement\":\"s\",\"relation\":\"increases\",\"object\":\"b\"}", "line 1"},
		{"statement", "{\"subject\":\"a\",\"relation\":\"increases\",\"object\":\"b\"}", "line 1"},
		{"unknown field", "{\"statement\":\"s\",\"subject\":\"a\",\"relation\":\"increases\",\"object\":\"b\",\"x\":1}", "line 1"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadModels(strings.NewReader(tt.in))
			if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), tt.line) {
				t.Errorf("LoadModels error = %v, want ErrModel at %s", err, tt.line)
			}
		})
	}
	ms, err = LoadModels(strings.NewReader("# comment\n\n{\"statement\":\"s\",\"subject\":\"a\",\"relation\":\"requires\",\"object\":\"b\"}\n"))
	if err != nil || len(ms) != 1 {
		t.Errorf("LoadModels = %v, %v; want one model", ms, err)
	}
}

// Phrases that share only a generic head ("risk", "rate") name different
// quantities; a shared qualifier still makes them the same.
func TestSimilarStemsGenericHead(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"sandwich risk", "revert risk", false},
		{"borrow rate", "supply rate", false},
		{"gas price", "oracle price", false},
		{"liquidation risk", "risk of liquidation", true},
		{"borrow rate", "borrow rates", true},
		{"staleness risk", "staleness", true},
		{"risk", "risk", true},
		{"sandwich risk", "sandwich attack risk", true},
		{"token unlock", "token burn", false},
	} {
		if got := similarStems(phraseStems(tc.a), phraseStems(tc.b)); got != tc.want {
			t.Errorf("similarStems(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	// The shipped model "a higher slippage tolerance increases sandwich
	// attack risk" no longer clashes with "a tighter slippage tolerance
	// makes a swap revert more often" on its own statement.
	a := ExtractClaims("Higher slippage tolerance increases sandwich risk.")
	b := ExtractClaims("Higher slippage tolerance decreases revert risk.")
	if len(a) != 1 || len(b) != 1 || Contradictions(a[0], b[0]) {
		t.Errorf("claims %+v and %+v contradict", a, b)
	}
}
