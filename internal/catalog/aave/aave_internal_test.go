package aave

import (
	"math/big"
	"testing"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

func TestHealthAfter(t *testing.T) {
	usd := func(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), native.Pow10(aaveBaseDecimals)) }
	acct := aaveAccount{collateral: usd(10_000), debt: usd(5_000), threshold: big.NewInt(8250), ltv: big.NewInt(8000)}
	for _, c := range []struct {
		name       string
		coll, debt *big.Int
		threshold  int64
		want       string
	}{
		{"unchanged", new(big.Int), new(big.Int), 8250, "1.65"},
		{"withdraw 2000 of collateral", usd(-2_000), new(big.Int), 8250, "1.32"},
		{"withdraw a non-collateral asset", usd(-2_000), new(big.Int), 0, "1.65"},
		{"borrow 2500 more", new(big.Int), usd(2_500), 0, "1.1"},
		{"repay 2500", new(big.Int), usd(-2_500), 0, "3.3"},
		{"withdraw too much", usd(-4_500), new(big.Int), 8250, "0.9075"},
		{"repay everything", new(big.Int), usd(-5_000), 0, "infinite"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := native.FormatHealth(healthAfter(acct, c.coll, c.threshold, c.debt)); got != c.want {
				t.Errorf("health factor = %s, want %s", got, c.want)
			}
		})
	}
	if native.FormatHealth(native.MaxUint256) != "infinite" {
		t.Error("the maximum health factor is not shown as infinite")
	}
}

func TestLiquidationQuote(t *testing.T) {
	// 1 WETH of collateral at $2800, 2400 USDC of debt, bonus 5 %.
	weth, usdc := e18(1), big.NewInt(2_400e6)
	pWETH, pUSDC := big.NewInt(2_800e8), big.NewInt(1e8)
	hf := new(big.Int).Mul(big.NewInt(9625), native.Pow10(14)) // 0.9625: close factor 50 %
	q := liquidationQuote(hf, usdc, weth, nil, pUSDC, pWETH, 6, 18, 10500)
	if q.debt.Cmp(big.NewInt(1_200e6)) != 0 || q.repaid.Cmp(q.debt) != 0 {
		t.Errorf("debt covered %s (repaid %s), want half the debt, 1200 USDC", q.debt, q.repaid)
	}
	// 1200 / 2800 * 1.05 WETH
	want := new(big.Int).Mul(big.NewInt(1_200e6), native.Pow10(12+8))
	want.Quo(want, big.NewInt(2_800e8))
	want = percentMul(want, 10500)
	if q.collateral.Cmp(want) != 0 {
		t.Errorf("collateral %s, want %s", q.collateral, want)
	}
	// Below 0.95 the whole debt may be covered; at $2000 the collateral
	// (1 WETH < 2400 / 2000 * 1.05) caps it.
	low := new(big.Int).Mul(big.NewInt(5), native.Pow10(17))
	q = liquidationQuote(low, usdc, weth, nil, pUSDC, big.NewInt(2_000e8), 6, 18, 10500)
	if q.debt.Cmp(usdc) != 0 || q.collateral.Cmp(weth) != 0 || q.repaid.Cmp(usdc) >= 0 {
		t.Errorf("capped liquidation: debt %s, collateral %s, repaid %s", q.debt, q.collateral, q.repaid)
	}
	q = liquidationQuote(hf, usdc, weth, big.NewInt(100e6), pUSDC, pWETH, 6, 18, 10500)
	if q.debt.Int64() != 100e6 {
		t.Errorf("an explicit cover below the cap: %s", q.debt)
	}
}

func e18(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), native.Pow10(18)) }
