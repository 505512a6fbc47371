package lido

import (
	"math/big"
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	e := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }
	minAmt, maxAmt := big.NewInt(100), e(1_000)
	for _, tc := range []struct {
		name   string
		amount *big.Int
		want   []*big.Int // nil: refused
	}{
		{"under the minimum", big.NewInt(99), nil},
		{"the minimum", big.NewInt(100), []*big.Int{big.NewInt(100)}},
		{"one request", e(5), []*big.Int{e(5)}},
		{"exactly the maximum", e(1_000), []*big.Int{e(1_000)}},
		{"two requests", e(1_500), []*big.Int{e(1_000), e(500)}},
		{"a remainder under the minimum borrows", new(big.Int).Add(e(1_000), big.NewInt(30)),
			[]*big.Int{new(big.Int).Sub(e(1_000), big.NewInt(70)), big.NewInt(100)}},
		{"32 requests", e(32_000), slices.Repeat([]*big.Int{e(1_000)}, 32)},
		{"more than 32", new(big.Int).Add(e(32_000), big.NewInt(1)), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := split(tc.amount, minAmt, maxAmt)
			if tc.want == nil {
				if err == nil {
					t.Fatalf("split(%s) = %v, want a refusal", tc.amount, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("split(%s): %v", tc.amount, err)
			}
			sum := new(big.Int)
			for _, p := range got {
				sum.Add(sum, p)
				if p.Cmp(minAmt) < 0 || p.Cmp(maxAmt) > 0 {
					t.Errorf("part %s is out of bounds", p)
				}
			}
			if sum.Cmp(tc.amount) != 0 || !slices.EqualFunc(got, tc.want, func(a, b *big.Int) bool { return a.Cmp(b) == 0 }) {
				t.Errorf("split(%s) = %v, want %v", tc.amount, got, tc.want)
			}
		})
	}
}

// TestABISelectors pins the selectors of mainnet functions the tools
// send, as published by Lido's contracts.
func TestABISelectors(t *testing.T) {
	a, err := lidoABI()
	if err != nil {
		t.Fatal(err)
	}
	for method, want := range map[string]string{"submit": "a1903eab", "wrap": "ea598cb0", "unwrap": "de0e9a3e"} {
		sel, ok := a.Selector(method)
		if !ok || new(big.Int).SetBytes(sel[:]).Text(16) != want {
			t.Errorf("%s selector %x, want %s", method, sel, want)
		}
	}
}

func TestAPROf(t *testing.T) {
	e := func(milli int64) *big.Int { return new(big.Int).Mul(big.NewInt(milli), big.NewInt(1e15)) }
	data := func(words ...*big.Int) []byte {
		var b []byte
		for _, w := range words {
			b = append(b, w.FillBytes(make([]byte, 32))...)
		}
		return b
	}
	day := big.NewInt(24 * 3600)
	for _, tc := range []struct {
		name string
		data []byte
		want float64 // -1: no APR
	}{
		// 1,000 ETH on 1,000 shares earning 0.1 ETH in a day: 3.65 % a year.
		{"a day's rewards", data(day, e(1_000_000), e(1_000_000), e(1_000_000), e(1_000_100), new(big.Int)), 3.65},
		// Fee shares minted to the treasury dilute the stakers' rate.
		{"fee shares", data(day, e(1_000_000), e(1_000_000), e(1_000_010), e(1_000_100), e(10)), 90.0 / 1_000_010 * 36_500},
		{"a loss", data(day, e(1_000_000), e(1_000_000), e(1_000_000), e(999_900), new(big.Int)), -3.65},
		{"no time", data(new(big.Int), e(1), e(1), e(1), e(2), new(big.Int)), -1},
		{"an empty pool", data(day, new(big.Int), new(big.Int), e(1), e(1), new(big.Int)), -1},
		{"short data", data(day), -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := aprOf(tc.data)
			if tc.want == -1 {
				if ok {
					t.Fatalf("APR %+v, want none", r)
				}
				return
			}
			if !ok || r.APRPercent-tc.want > 1e-6 || tc.want-r.APRPercent > 1e-6 {
				t.Errorf("APR %v (%v), want %v", r.APRPercent, ok, tc.want)
			}
		})
	}
}
