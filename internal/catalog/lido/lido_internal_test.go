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
