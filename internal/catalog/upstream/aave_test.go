package upstream_test

import (
	"context"
	"fmt"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

type aaveAccount struct {
	Collateral   string `json:"total_collateral_usd"`
	Debt         string `json:"total_debt_usd"`
	Available    string `json:"available_borrows_usd"`
	HealthFactor string `json:"health_factor"`
	Liquidatable bool   `json:"liquidatable"`
	Positions    []struct {
		Asset      struct{ Address common.Address }
		Supplied   amount
		Borrowed   amount
		Collateral bool
	}
}

// userAccountData is Pool.getUserAccountData as the published Pool answers it.
func (w *world) userAccountData(t *testing.T, user common.Address) (collateral, debt, hf *big.Int) {
	t.Helper()
	out := w.n.call(t.Context(), artAavePool, w.aavePool, "getUserAccountData", user)
	if err := w.n.take(); err != nil {
		t.Fatal(err)
	}
	return out[0].(*big.Int), out[1].(*big.Int), out[5].(*big.Int)
}

// TestAave runs the lending tools against the published Pool, behind its proxy, with reserves
// initialised by the published PoolConfigurator: supply, borrow, repay, withdraw and the
// account and reserve reads, in the order an agent would use them.
func TestAave(t *testing.T) {
	w := need(t)
	a := w.agent
	weth, usdc := w.weth, w.usdc

	t.Run("aave_get_reserve_data", func(t *testing.T) {
		var got struct {
			Reserves []struct {
				Asset     struct{ Address common.Address }
				LTV       string `json:"ltv_percent"`
				Threshold string `json:"liquidation_threshold_percent"`
				Bonus     string `json:"liquidation_bonus_percent"`
				Active    bool   `json:"active"`
				Borrowing bool   `json:"borrowing_enabled"`
				AToken    string `json:"a_token"`
				PriceUSD  string `json:"price_usd"`
			}
		}
		a.read(t, "aave_get_reserve_data", map[string]any{"asset": weth}, &got)
		if len(got.Reserves) != 1 {
			t.Fatalf("reserves = %+v, want WETH only", got.Reserves)
		}
		r := got.Reserves[0]
		if r.Asset.Address != weth || r.LTV != "80" || r.Threshold != "82.5" || r.Bonus != "5" && r.Bonus != "105" ||
			!r.Active || !r.Borrowing || !sameAddr(r.AToken, w.aTokens[weth]) || r.PriceUSD != "3000" {
			t.Errorf("WETH reserve = %+v, want LTV 80, threshold 82.5, bonus 5 %%, active, borrowable, aToken %s, price 3000", r, w.aTokens[weth])
		}
		a.read(t, "aave_get_reserve_data", map[string]any{}, &got)
		if len(got.Reserves) != 3 {
			t.Errorf("every reserve: got %d, want 3", len(got.Reserves))
		}
	})

	t.Run("weth_wrap_eth", func(t *testing.T) {
		var got writeResult
		a.write(t, "weth_wrap_eth", map[string]any{"amount": units(10, 18).String()}, &got)
		if d := got.delta(t, weth); d.Cmp(units(10, 18)) != 0 || !got.Verified {
			t.Errorf("WETH delta = %s (verified %v), want 10 WETH", d, got.Verified)
		}
	})

	t.Run("aave_supply_collateral", func(t *testing.T) {
		var got writeResult
		a.write(t, "aave_supply_collateral", map[string]any{"asset": weth, "amount": units(5, 18).String(), "asset_symbol": "WETH", "asset_decimals": 18}, &got)
		if d := got.delta(t, weth); d.Cmp(units(-5, 18)) != 0 || !got.Verified {
			t.Errorf("WETH delta = %s (verified %v), want -5 WETH", d, got.Verified)
		}
		if bal := w.balance(t, w.aTokens[weth], a.addr); bal.Cmp(units(5, 18)) < 0 {
			t.Errorf("aWETH balance = %s, want at least 5 WETH", bal)
		}
	})

	t.Run("aave_get_account_data after supply", func(t *testing.T) {
		var got aaveAccount
		a.read(t, "aave_get_account_data", map[string]any{}, &got)
		coll, _, _ := w.userAccountData(t, a.addr)
		// 5 WETH at $3,000, LTV 80 %.
		if got.Collateral != "15000" || coll.Cmp(units(15_000, 8)) != 0 || got.Debt != "0" || got.Available != "12000" || got.HealthFactor != "infinite" {
			t.Errorf("account = %+v (pool: collateral %s), want $15,000 collateral, no debt, $12,000 available, infinite health", got, coll)
		}
		if len(got.Positions) != 1 || got.Positions[0].Asset.Address != weth || !got.Positions[0].Collateral {
			t.Errorf("positions = %+v, want WETH supplied as collateral", got.Positions)
		}
	})

	t.Run("aave_borrow_asset", func(t *testing.T) {
		var got writeResult
		a.write(t, "aave_borrow_asset", map[string]any{"asset": usdc, "amount": units(5_000, 6).String(), "asset_symbol": "USDC", "asset_decimals": 6}, &got)
		if d := got.delta(t, usdc); d.Cmp(units(5_000, 6)) != 0 || !got.Verified {
			t.Errorf("USDC delta = %s (verified %v), want +5,000 USDC", d, got.Verified)
		}
		_, debt, hf := w.userAccountData(t, a.addr)
		// 15,000 × 0.825 / 5,000 = 2.475.
		if !within(debt, units(5_000, 8), 1) || !within(hf, big.NewInt(2_475_000_000_000_000_000), 1) {
			t.Errorf("pool: debt %s, health factor %s; want $5,000 and 2.475", debt, hf)
		}
	})

	t.Run("aave_borrow_asset refuses beyond borrowing power", func(t *testing.T) {
		e, in := a.input(t, "aave_borrow_asset", map[string]any{"asset": usdc, "amount": units(8_000, 6).String()})
		if _, err := e.Plan(t.Context(), in); err == nil {
			t.Error("a $8,000 borrow on $7,000 of remaining borrowing power was planned")
		}
	})

	t.Run("aave_repay_debt max", func(t *testing.T) {
		var got writeResult
		a.write(t, "aave_repay_debt", map[string]any{"asset": usdc, "amount": "max"}, &got)
		if d := got.delta(t, usdc); d.Cmp(units(-5_000, 6)) > 0 || d.Cmp(units(-5_001, 6)) < 0 || !got.Verified {
			t.Errorf("USDC delta = %s (verified %v), want 5,000 USDC plus a little interest repaid", d, got.Verified)
		}
		if _, debt, _ := w.userAccountData(t, a.addr); debt.Sign() != 0 {
			t.Errorf("pool: debt %s after repaying all of it", debt)
		}
	})

	t.Run("aave_withdraw_collateral max", func(t *testing.T) {
		var got writeResult
		a.write(t, "aave_withdraw_collateral", map[string]any{"asset": weth, "amount": "max"}, &got)
		if d := got.delta(t, weth); d.Cmp(units(5, 18)) < 0 || !got.Verified {
			t.Errorf("WETH delta = %s (verified %v), want at least the 5 WETH supplied", d, got.Verified)
		}
		if coll, _, _ := w.userAccountData(t, a.addr); coll.Sign() != 0 {
			t.Errorf("pool: collateral %s after withdrawing all of it", coll)
		}
	})

	t.Run("aave_liquidate_position", func(t *testing.T) { w.liquidation(t) })
}

var borrowers atomic.Int64

// liquidation makes an account unhealthy (WETH collateral, USDC debt, then the ETH feed falls)
// and liquidates it with the tool, receiving WETH for USDC.
func (w *world) liquidation(t *testing.T) {
	a, n, ctx := w.agent, w.n, t.Context()
	// A fresh borrower each run, so that -count=N starts from a clean account.
	victim := mustKey(fmt.Sprintf("ward upstream borrower %d", borrowers.Add(1)))
	v := crypto.PubkeyToAddress(victim.PublicKey)
	n.sendTx(ctx, operatorKey, &v, units(1, 18), nil, "fund borrower")
	n.send(ctx, artWETH9, w.weth, "transfer", v, units(2, 18))
	n.sendAs(ctx, victim, nil, artERC20, w.weth, "approve", w.aavePool, maxUint)
	n.sendAs(ctx, victim, nil, artAavePool, w.aavePool, "supply", w.weth, units(2, 18), v, uint16(0))
	// $6,000 of collateral, $4,800 of borrowing power: borrow $4,700.
	n.sendAs(ctx, victim, nil, artAavePool, w.aavePool, "borrow", w.usdc, units(4_700, 6), big.NewInt(2), uint16(0), v)
	// ETH at $2,500: health 5,000 × 0.825 / 4,700 ≈ 0.88, below 0.95, so all of the debt may be covered.
	n.send(ctx, artFeed, w.ethFeed, "updateAnswer", big.NewInt(2500e8))
	t.Cleanup(func() {
		// t.Context is already cancelled when cleanups run.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		n.send(ctx, artFeed, w.ethFeed, "updateAnswer", big.NewInt(3000e8))
		if err := n.take(); err != nil {
			t.Errorf("restore the ETH price: %v", err)
		}
	})
	if err := n.take(); err != nil {
		t.Fatal(err)
	}

	var acct aaveAccount
	a.read(t, "aave_get_account_data", map[string]any{"user": v}, &acct)
	if !acct.Liquidatable {
		t.Fatalf("borrower account = %+v, want liquidatable", acct)
	}
	var got writeResult
	a.write(t, "aave_liquidate_position", map[string]any{
		"user": v, "collateral_asset": w.weth, "debt_asset": w.usdc, "debt_to_cover": "max",
	}, &got)
	paid, seized := new(big.Int).Neg(got.delta(t, w.usdc)), got.delta(t, w.weth)
	// Collateral seized = debt covered × (1 + 5 % bonus) at $2,500 per WETH.
	want := new(big.Int).Div(new(big.Int).Mul(paid, big.NewInt(105*1e12)), big.NewInt(100*2500))
	if paid.Sign() <= 0 || !within(seized, want, 5) || !got.Verified {
		t.Errorf("paid %s USDC units for %s WETH wei (verified %v), want about %s WETH wei", paid, seized, got.Verified, want)
	}
	// "max" covers the debt as planned; interest accrued until execution may stay as dust.
	if _, debt, _ := w.userAccountData(t, v); debt.Cmp(big.NewInt(1e4)) > 0 {
		t.Errorf("borrower's debt after a full liquidation = %s (8-decimal USD), want at most dust", debt)
	}
}
