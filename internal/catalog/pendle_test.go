package catalog_test

import (
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/chain"
)

// TestPendle buys PT with DAI, sells some back and redeems the rest at
// maturity on ward's same-ABI Pendle, committing each write and checking
// its receipt and the balances it moved, and refuses what the market
// would refuse, on a dev chain of its own (an expired trade, an early redemption, a foreign market).
func TestPendle(t *testing.T) {
	// A chain of its own: moving its clock past the maturity would leave
	// the shared chain's price feeds stale for the tests after this one.
	f, err := newFixture("ward catalog pendle tests")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.dev.Close() })
	c, me := f.c, f.wallet()
	e := func(n int64) *big.Int { return units(n, 18) }

	var m struct {
		PT       string  `json:"pt"`
		Expired  bool    `json:"expired"`
		Days     float64 `json:"days_to_maturity"`
		APY      float64 `json:"implied_apy_percent"`
		Price    float64 `json:"pt_price"`
		Symbol   string  `json:"underlying_symbol"`
		WalletPT amt     `json:"wallet_pt"`
	}
	f.read(t, "pendle_get_market", `{}`, &m)
	if m.PT != c.PendlePTDAI.Hex() || m.Expired || m.Days < 88 || m.Days > 90 || m.Symbol != "DAI" {
		t.Fatalf("market read %+v", m)
	}
	if m.APY < 7.99 || m.APY > 8.01 || m.Price < 0.978 || m.Price > 0.985 {
		t.Errorf("implied APY %.4f %%, PT price %.5f; want 8 %% and about 0.981", m.APY, m.Price)
	}

	// Refusals change nothing.
	if _, _, err := f.plan(t, "pendle_buy_pt", argsOf("amount", e(1), "market", c.CometUSDC.Hex())); err == nil || !strings.Contains(err.Error(), "not a Pendle market ward knows") {
		t.Errorf("foreign market: %v", err)
	}
	if _, _, err := f.plan(t, "pendle_buy_pt", argsOf("amount", e(1_000_000))); err == nil || !strings.Contains(err.Error(), "insufficient DAI") {
		t.Errorf("buy beyond the balance: %v", err)
	}
	if _, _, err := f.plan(t, "pendle_sell_pt", argsOf("amount", "max")); err == nil || !strings.Contains(err.Error(), "holds no PT") {
		t.Errorf("sell without PT: %v", err)
	}

	// Buy PT with 1,000 DAI: more than 1,000 PT, at the implied rate.
	dai0 := f.balance(t, c.DAI, me)
	var out stakeOut
	f.commit(t, "pendle_buy_pt", argsOf("amount", e(1_000)), &out)
	f.mined(t, "pendle_buy_pt", out)
	wantDelta(t, "DAI spent", new(big.Int).Sub(dai0, f.balance(t, c.DAI, me)), e(1_000))
	pt := f.balance(t, c.PendlePTDAI, me)
	if pt.Cmp(e(1_015)) < 0 || pt.Cmp(e(1_025)) > 0 {
		t.Fatalf("1,000 DAI bought %s PT, want about 1,019", pt)
	}
	if _, _, err := f.plan(t, "pendle_redeem_pt", argsOf("amount", "max")); err == nil || !strings.Contains(err.Error(), "matures on") {
		t.Errorf("redeem before maturity: %v", err)
	}

	// Sell 100 PT: about 98.1 DAI back.
	dai1 := f.balance(t, c.DAI, me)
	f.commit(t, "pendle_sell_pt", argsOf("amount", e(100)), &out)
	f.mined(t, "pendle_sell_pt", out)
	wantDelta(t, "PT sold", new(big.Int).Sub(pt, f.balance(t, c.PendlePTDAI, me)), e(100))
	got := new(big.Int).Sub(f.balance(t, c.DAI, me), dai1)
	if got.Cmp(e(97)) < 0 || got.Cmp(e(99)) > 0 {
		t.Errorf("100 PT sold for %s DAI, want about 98.1", got)
	}

	// At maturity the market stops trading and PT redeems one for one.
	if err := f.dev.AdjustTime(chain.DevPendleMaturity + 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.plan(t, "pendle_buy_pt", argsOf("amount", e(1))); err == nil || !strings.Contains(err.Error(), "matured") {
		t.Errorf("buy after maturity: %v", err)
	}
	left, dai2 := f.balance(t, c.PendlePTDAI, me), f.balance(t, c.DAI, me)
	f.commit(t, "pendle_redeem_pt", argsOf("amount", "max"), &out)
	f.mined(t, "pendle_redeem_pt", out)
	wantDelta(t, "PT after redeeming", f.balance(t, c.PendlePTDAI, me), new(big.Int))
	wantDelta(t, "DAI redeemed", new(big.Int).Sub(f.balance(t, c.DAI, me), dai2), left)
}

func wantDelta(t *testing.T, what string, got, want *big.Int) {
	t.Helper()
	if got.Cmp(want) != 0 {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}
