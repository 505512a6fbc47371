package validate

import (
	"encoding/hex"
	"math/big"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

const (
	addrA = "0x1111111111111111111111111111111111111111"
	addrB = "0x2222222222222222222222222222222222222222"
	addrC = "0x3333333333333333333333333333333333333333"
)

func mustAddr(t testing.TB, s string) Address {
	t.Helper()
	var a Address
	if _, err := hex.Decode(a[:], []byte(s[2:])); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestExtractVerifiable(t *testing.T) {
	type want struct {
		kind    VerifiableKind
		target  string
		holder  string
		values  []string // "value unit"
		block   uint64
		atBlock bool
		chain   uint64
	}
	tests := []struct {
		name, text string
		want       []want
	}{
		{"feed reported at block", "The ETH/USD feed " + addrA + " reported 2,000 at block 123.",
			[]want{{kind: KindFeedAnswer, target: addrA, values: []string{"2000"}, block: 123, atBlock: true}}},
		{"feed block first, dollar, million", "As of block #19,000,000 the Chainlink aggregator at " + addrA + " answered $3.4M",
			[]want{{kind: KindFeedAnswer, target: addrA, values: []string{"3400000 usd"}, block: 19_000_000, atBlock: true}}},
		{"oracle says k", "Oracle " + addrA + " says ETH trades at 1.2k USD", []want{{kind: KindFeedAnswer, target: addrA, values: []string{"1200 usd"}}}},
		{"eth balance", "Wallet " + addrA + " held 12.5 ETH at block height 77", []want{{kind: KindEthBalance, target: addrA, values: []string{"12.5 eth"}, block: 77, atBlock: true}}},
		{"eth balance possessive wei", addrA + "'s balance is 1500000000000000000 wei",
			[]want{{kind: KindEthBalance, target: addrA, values: []string{"1500000000000000000 wei"}}}},
		{"eth balance of", "The balance of " + addrA + " was 3 ether on Base", []want{{kind: KindEthBalance, target: addrA, values: []string{"3 eth"}, chain: 8453}}},
		{"token balance holder first", addrA + " holds 1,234.5 of token " + addrB + " at block 9",
			[]want{{kind: KindTokenBalance, target: addrB, holder: addrA, values: []string{"1234.5"}, block: 9, atBlock: true}}},
		{"token balance of in token", "The balance of " + addrA + " in token " + addrB + " is 5,000 USDC",
			[]want{{kind: KindTokenBalance, target: addrB, holder: addrA, values: []string{"5000 USDC"}}}},
		{"token balance token first", addrB + " balance of " + addrA + " is 100 DAI",
			[]want{{kind: KindTokenBalance, target: addrB, holder: addrA, values: []string{"100 DAI"}}}},
		{"token address cue", "Account " + addrA + " owns 2.5M tokens of token address " + addrB,
			[]want{{kind: KindTokenBalance, target: addrB, holder: addrA, values: []string{"2500000"}}}},
		{"total supply", "The total supply of " + addrB + " is 1,000,000,000 at block 5,000",
			[]want{{kind: KindTotalSupply, target: addrB, values: []string{"1000000000"}, block: 5000, atBlock: true}}},
		{"supply minted", "Token " + addrB + " has 21M minted (chain id 10)", []want{{kind: KindTotalSupply, target: addrB, values: []string{"21000000"}, chain: 10}}},
		{"reserves", "The Uniswap V2 pair " + addrC + " had reserves of 3,000,000 USDC and 1,000 WETH at block 42.",
			[]want{{kind: KindReserves, target: addrC, values: []string{"3000000 USDC", "1000 WETH"}, block: 42, atBlock: true}}},
		{"tvl as reserves", "TVL of pool " + addrC + ": 1k WETH / 3M USDC", []want{{kind: KindReserves, target: addrC, values: []string{"1000 WETH", "3000000 USDC"}}}},
		{"pair holds", "Pair " + addrC + " holds 500 WETH", []want{{kind: KindReserves, target: addrC, values: []string{"500 WETH"}}}},
		{"v3 liquidity", "The V3 pool " + addrC + " has liquidity of 1.5e21 at block 10",
			[]want{{kind: KindLiquidity, target: addrC, values: []string{"1500000000000000000000"}, block: 10, atBlock: true}}},
		{"v3 price", "The 0.3% pool " + addrC + " price (slot0) is 3,000 USDC per WETH", []want{{kind: KindPoolPrice, target: addrC, values: []string{"3000 USDC"}}}},
		{"hex block", "Feed " + addrA + " answered 1 at block 0x1f", []want{{kind: KindFeedAnswer, target: addrA, values: []string{"1"}, block: 31, atBlock: true}}},
		{"date not a value", "On March 3, 2024 oracle " + addrA + " reported 2,950.25", []want{{kind: KindFeedAnswer, target: addrA, values: []string{"2950.25"}}}},
		{"two claims one sentence", addrA + " holds 5 ETH and " + addrB + " holds 7 ETH at block 3",
			[]want{{kind: KindEthBalance, target: addrA, values: []string{"5 eth"}, block: 3, atBlock: true}, {kind: KindEthBalance, target: addrB, values: []string{"7 eth"}, block: 3, atBlock: true}}},
		{"two sentences", "Feed " + addrA + " answered 3000. Pair " + addrC + " has reserves of 10 WETH and 30,000 USDC.",
			[]want{{kind: KindFeedAnswer, target: addrA, values: []string{"3000"}}, {kind: KindReserves, target: addrC, values: []string{"10 WETH", "30000 USDC"}}}},

		{"value among dates and times", "At 14:05 UTC on 2024-03-01 feed " + addrA + " answered 3,010.5", []want{{kind: KindFeedAnswer, target: addrA, values: []string{"3010.5"}}}},
		{"clause with the value", "Wallet " + addrA + " holds 12.5 ETH, worth $37,500", []want{{kind: KindEthBalance, target: addrA, values: []string{"12.5 eth"}}}},
		{"second block in a later clause", "Feed " + addrA + " answered 3,000 at block 100 and 2,500 at block 200",
			[]want{{kind: KindFeedAnswer, target: addrA, values: []string{"3000"}, block: 100, atBlock: true}}},

		{"two numbers, which is the answer", "The feed " + addrA + " with 8 decimals answered 3,000", nil},
		{"value of another address", "The feed " + addrA + " is used by pool " + addrC + ", which holds 1,000 WETH", nil},
		{"three addresses", addrA + " holds 5 of token " + addrB + " via " + addrC, nil},
		{"no address", "The ETH/USD feed reported 2,000 at block 123.", nil},
		{"short address", "The feed 0x1234 reported 2,000.", nil},
		{"tx hash", "Tx 0x" + strings.Repeat("ab", 32) + " moved 5 ETH", nil},
		{"no value", "Feed " + addrA + " is the ETH/USD oracle.", nil},
		{"percent only", "Pool " + addrC + " charges a 0.3% fee", nil},
		{"balance in usd", "Wallet " + addrA + " holds $5M", nil},
		{"ambiguous token balance", addrA + " and " + addrB + " hold 100 USDC", nil},
		{"eth balance needs a unit", "Wallet " + addrA + " holds 100", nil},
		{"block overflow", "Feed " + addrA + " answered 5 at block 99999999999999999999999", nil},
		{"advice", "Always approve " + addrA + " for unlimited spending", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ExtractVerifiable(tc.text)
			if len(got) != len(tc.want) {
				t.Fatalf("ExtractVerifiable(%q) = %d claims %+v, want %d", tc.text, len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				var vals []string
				for _, a := range g.Values {
					vals = append(vals, a.String())
				}
				if g.Kind != w.kind || g.Target != mustAddr(t, w.target) || g.Block != w.block || g.AtBlock != w.atBlock ||
					g.ChainID != w.chain || strings.Join(vals, "|") != strings.Join(w.values, "|") {
					t.Errorf("claim %d = %s %s block %d/%v chain %d values %q, want %s %s block %d/%v chain %d values %q",
						i, g.Kind, g.Target, g.Block, g.AtBlock, g.ChainID, vals, w.kind, w.target, w.block, w.atBlock, w.chain, w.values)
				}
				if w.holder != "" && g.Holder != mustAddr(t, w.holder) {
					t.Errorf("claim %d holder = %s, want %s", i, g.Holder, w.holder)
				}
				if g.Start < 0 || g.End > len(tc.text) || g.Start >= g.End || !strings.Contains(tc.text[g.Start:g.End], g.Target.String()[2:10]) {
					t.Errorf("claim %d span [%d,%d) does not hold its address", i, g.Start, g.End)
				}
			}
		})
	}
}

func TestEntryVerifiable(t *testing.T) {
	e := &knowledge.Entry{Content: "Wallet " + addrA + " held 12.5 ETH at block 77.",
		Claim: &knowledge.Claim{Subject: "the total supply of token " + addrB, Relation: "is", Object: "1,000", Conditions: []string{"at block 80"}}}
	got := EntryVerifiable(e)
	if len(got) != 2 {
		t.Fatalf("got %d claims %+v, want 2", len(got), got)
	}
	if got[0].Kind != KindEthBalance || got[0].FromClaim {
		t.Errorf("first claim = %s (from claim %v), want eth_balance from content", got[0].Kind, got[0].FromClaim)
	}
	if g := got[1]; g.Kind != KindTotalSupply || !g.FromClaim || g.Block != 80 || g.Values[0].Value.Cmp(big.NewRat(1000, 1)) != 0 {
		t.Errorf("second claim = %+v, want total_supply of 1000 at block 80 from the claim", g)
	}
	// The same statement in both places is one claim.
	e.Claim = &knowledge.Claim{Subject: "wallet " + addrA, Relation: "held", Object: "12.5 ETH", Conditions: []string{"at block 77"}}
	if got := EntryVerifiable(e); len(got) != 1 {
		t.Errorf("duplicate claim: got %d claims, want 1", len(got))
	}
	if EntryVerifiable(nil) != nil {
		t.Error("nil entry has claims")
	}
}

func TestExtractVerifiableBounded(t *testing.T) {
	var b strings.Builder
	for range 200 {
		b.WriteString("Wallet " + addrA + " holds 1 ETH. ")
	}
	if got := ExtractVerifiable(b.String()); len(got) != MaxVerifiable {
		t.Errorf("got %d claims, want the bound %d", len(got), MaxVerifiable)
	}
}

func FuzzExtractVerifiable(f *testing.F) {
	for _, s := range []string{
		"The ETH/USD feed " + addrA + " reported 2,000 at block 123.",
		addrA + " holds 1,234.5 of token " + addrB + " at block 9",
		"The Uniswap V2 pair " + addrC + " had reserves of 3,000,000 USDC and 1,000 WETH at block 42.",
		"Feed " + addrA + " answered 1e99 at block 0xffffffffffffffff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range ExtractVerifiable(s) {
			if v.Kind == KindNone || len(v.Values) == 0 || v.Start < 0 || v.End > len(s) || v.Start >= v.End {
				t.Fatalf("malformed claim %+v from %q", v, s)
			}
			for _, a := range v.Values {
				if a.Value == nil || a.Value.Sign() < 0 {
					t.Fatalf("bad value in %+v", v)
				}
			}
		}
	})
}

func BenchmarkExtractVerifiable(b *testing.B) {
	for name, text := range map[string]string{
		"claims": "Liquidity on Uniswap has been thin this week. The ETH/USD feed " + addrA + " reported 2,000 at block 19,000,000, " +
			"and the pair " + addrC + " had reserves of 3,000,000 USDC and 1,000 WETH. Wallet " + addrB + " holds 12.5 ETH. " +
			"Higher utilization increases the borrow rate; LPs should rebalance when volatility spikes.",
		"no address": "Liquidity on Uniswap has been thin this week. Higher utilization increases the borrow rate; " +
			"LPs should rebalance when volatility spikes above 80% and the ETH/USD price moves 5% in a day.",
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				ExtractVerifiable(text)
			}
		})
	}
}
