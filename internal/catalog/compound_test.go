package catalog_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/chain"
)

// These tests drive the Compound III tools against ward's Comet on the
// shared dev chain (base_test.go): USDC as the base asset, WETH (borrow
// collateral factor 82.5 %, liquidation 89.5 %) and WBTC as collateral.
// Every write is committed and checked on chain: receipts, wallet and
// Comet balances and Comet's own view of the account.

type cometAccount struct {
	Supplied     amt    `json:"supplied"`
	Borrowed     amt    `json:"borrowed"`
	Capacity     string `json:"borrow_capacity_usd"`
	Debt         string `json:"debt_usd"`
	Borrowable   amt    `json:"borrowable"`
	HF           string `json:"health_factor"`
	Collat       bool   `json:"borrow_collateralized"`
	Liquidatable bool   `json:"liquidatable"`
}

func (f *baseFixture) cometBig(t *testing.T, method string, args ...any) *big.Int {
	t.Helper()
	return f.call(t, chain.CometABI(), f.c.CometUSDC, method, args...)[0].(*big.Int)
}

func TestCompoundLifecycle(t *testing.T) {
	f := base(t)
	c := f.c
	var m struct {
		Base       tokenOut `json:"base_token"`
		Supplied   amt      `json:"total_supplied"`
		Util       string   `json:"utilization_percent"`
		BorrowAPR  string   `json:"borrow_apr_percent"`
		MinBorrow  amt      `json:"min_borrow"`
		Collateral []struct {
			Asset    tokenOut `json:"asset"`
			BorrowCF string   `json:"borrow_collateral_factor_percent"`
			LiqCF    string   `json:"liquidate_collateral_factor_percent"`
			Penalty  string   `json:"liquidation_penalty_percent"`
			Price    string   `json:"price_usd"`
		} `json:"collateral"`
	}
	f.read(t, "compound_get_market", `{}`, &m)
	if m.Base.Symbol != "USDC" || m.Supplied.big(t).Cmp(units(1_000_000, 6)) < 0 || m.MinBorrow.Formatted != "100" ||
		len(m.Collateral) != 2 || m.Collateral[0].Asset.Symbol != "WETH" || m.Collateral[0].BorrowCF != "82.5" ||
		m.Collateral[0].LiqCF != "89.5" || m.Collateral[0].Penalty != "5" || m.Collateral[0].Price != "3000" {
		t.Fatalf("market = %+v", m)
	}

	var out writeOut
	// Lend 500 USDC.
	usdc0, held0 := f.balance(t, c.USDC, f.wallet()), f.balance(t, c.USDC, c.CometUSDC)
	f.commit(t, "compound_supply_base", argsOf("amount", units(500, 6), "token_symbol", "USDC"), &out)
	f.receiptsOK(t, "compound_supply_base", out)
	if d := new(big.Int).Sub(usdc0, f.balance(t, c.USDC, f.wallet())); d.Cmp(units(500, 6)) != 0 {
		t.Errorf("supply took %s USDC, want 500", d)
	}
	if d := new(big.Int).Sub(f.balance(t, c.USDC, c.CometUSDC), held0); d.Cmp(units(500, 6)) != 0 {
		t.Errorf("the Comet received %s USDC, want 500", d)
	}
	if b := f.cometBig(t, "balanceOf", f.wallet()); b.Cmp(units(499, 6)) < 0 || b.Cmp(units(501, 6)) > 0 {
		t.Errorf("Comet balanceOf = %s, want about 500 USDC", b)
	}
	// Withdrawing more than supplied is not a borrow.
	if _, _, err := f.plan(t, "compound_withdraw_base", argsOf("amount", units(600, 6))); err == nil || !strings.Contains(err.Error(), "compound_borrow_base") {
		t.Errorf("withdrawing past the supply: %v, want a refusal pointing at compound_borrow_base", err)
	}
	f.commit(t, "compound_withdraw_base", argsOf("amount", "max"), &out)
	f.receiptsOK(t, "compound_withdraw_base", out)
	if b := f.cometBig(t, "balanceOf", f.wallet()); b.Sign() != 0 {
		t.Errorf("Comet balance after withdrawing max = %s", b)
	}
	if got := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), usdc0); got.Sign() < 0 || got.Cmp(units(1, 6)) > 0 {
		t.Errorf("round trip moved the wallet's USDC by %s, want 0 plus a little interest", got)
	}

	// Post 1 WETH: 3000 * 0.825 = 2475 USD of borrowing capacity.
	weth0 := f.balance(t, c.WETH, f.wallet())
	f.commit(t, "compound_supply_collateral", argsOf("asset", c.WETH, "amount", units(1, 18), "token_symbol", "WETH"), &out)
	f.receiptsOK(t, "compound_supply_collateral", out)
	if d := new(big.Int).Sub(weth0, f.balance(t, c.WETH, f.wallet())); d.Cmp(units(1, 18)) != 0 {
		t.Errorf("collateral took %s WETH, want 1", d)
	}
	if got := f.call(t, chain.CometABI(), c.CometUSDC, "collateralBalanceOf", f.wallet(), c.WETH)[0].(*big.Int); got.Cmp(units(1, 18)) != 0 {
		t.Errorf("Comet records %s WETH collateral, want 1", got)
	}
	var a cometAccount
	f.read(t, "compound_get_account", `{}`, &a)
	if a.Capacity != "2475" || a.Borrowable.big(t).Cmp(units(2_475, 6)) != 0 || a.HF != "infinite" {
		t.Errorf("account after posting collateral = %+v", a)
	}

	// Past the borrow collateral factor, and below the minimum borrow:
	// refused, nothing moves.
	usdc1 := f.balance(t, c.USDC, f.wallet())
	if _, _, err := f.plan(t, "compound_borrow_base", argsOf("amount", units(2_500, 6))); err == nil || !strings.Contains(err.Error(), "NotCollateralized") {
		t.Errorf("borrow past the collateral factor: %v, want a refusal", err)
	}
	if _, _, err := f.plan(t, "compound_borrow_base", argsOf("amount", units(50, 6))); err == nil || !strings.Contains(err.Error(), "minimum borrow") {
		t.Errorf("borrow below the minimum: %v, want a refusal", err)
	}
	if f.cometBig(t, "borrowBalanceOf", f.wallet()).Sign() != 0 || f.balance(t, c.USDC, f.wallet()).Cmp(usdc1) != 0 {
		t.Error("a refused borrow changed the account or the wallet")
	}

	// Borrow 1,500 USDC: health 3000 * 0.895 / 1500 = 1.79.
	p := f.commit(t, "compound_borrow_base", argsOf("amount", units(1_500, 6), "token_symbol", "USDC", "token_decimals", 6), &out)
	f.receiptsOK(t, "compound_borrow_base", out)
	if d := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), usdc1); d.Cmp(units(1_500, 6)) != 0 {
		t.Errorf("borrow paid %s USDC, want 1500", d)
	}
	if !strings.Contains(p.Summary, "infinite -> 1.79") {
		t.Errorf("borrow summary %q does not predict 1.79", p.Summary)
	}
	f.read(t, "compound_get_account", `{}`, &a)
	if !near(fl(a.Borrowed.Formatted), 1500, 1e-6) || !near(fl(a.HF), 1.79, 1e-4) || !a.Collat || a.Liquidatable {
		t.Errorf("account after borrow = %+v", a)
	}
	// Taking the collateral back would leave the debt uncollateralized.
	if _, _, err := f.plan(t, "compound_withdraw_collateral", argsOf("asset", c.WETH, "amount", units(5, 17))); err == nil || !strings.Contains(err.Error(), "repay first") {
		t.Errorf("collateral withdrawal under the debt: %v, want a refusal", err)
	}

	// ETH halves: Comet itself says the account is liquidatable, and no
	// more is lent against it.
	restore := f.setETHPrice(t, 1_500e8)
	f.read(t, "compound_get_account", `{}`, &a)
	if !a.Liquidatable || a.Collat || fl(a.HF) >= 1 {
		t.Errorf("account at ETH $1,500 = %+v, want liquidatable", a)
	}
	if _, _, err := f.plan(t, "compound_borrow_base", argsOf("amount", units(100, 6))); err == nil {
		t.Error("a borrow from a liquidatable account was planned")
	}
	restore()

	// Repay everything, then take the collateral back.
	usdc2 := f.balance(t, c.USDC, f.wallet())
	f.commit(t, "compound_repay_base", argsOf("amount", "max"), &out)
	f.receiptsOK(t, "compound_repay_base", out)
	if b := f.cometBig(t, "borrowBalanceOf", f.wallet()); b.Sign() != 0 {
		t.Errorf("%s USDC still owed after repaying max", b)
	}
	if b := f.cometBig(t, "balanceOf", f.wallet()); b.Sign() != 0 {
		t.Errorf("repaying max left %s USDC supplied, want none", b)
	}
	if paid := new(big.Int).Sub(usdc2, f.balance(t, c.USDC, f.wallet())); paid.Cmp(units(1_500, 6)) < 0 || paid.Cmp(units(1_501, 6)) > 0 {
		t.Errorf("repaying max took %s USDC, want 1500 plus a little interest", paid)
	}
	if _, _, err := f.plan(t, "compound_repay_base", argsOf("amount", "max")); err == nil {
		t.Error("repaying without debt was planned")
	}
	f.commit(t, "compound_withdraw_collateral", argsOf("asset", c.WETH, "amount", "max"), &out)
	f.receiptsOK(t, "compound_withdraw_collateral", out)
	if f.balance(t, c.WETH, f.wallet()).Cmp(weth0) != 0 {
		t.Error("the wallet's WETH is not back where it started")
	}
}

func TestCompoundRefusals(t *testing.T) {
	f := base(t)
	c := f.c
	usdc, weth := f.balance(t, c.USDC, f.wallet()), f.balance(t, c.WETH, f.wallet())
	for _, tc := range []struct {
		name, tool, args, want string
	}{
		{"zero amount", "compound_supply_base", argsOf("amount", "0"), "greater than 0"},
		{"more than the wallet holds", "compound_supply_base", argsOf("amount", units(10_000_000, 6)), "USDC"},
		{"unlisted collateral", "compound_supply_collateral", argsOf("asset", c.DAI, "amount", "1"), "not a collateral asset"},
		{"base as collateral", "compound_supply_collateral", argsOf("asset", c.USDC, "amount", "1"), "base asset"},
		{"over the supply cap", "compound_supply_collateral", argsOf("asset", c.WBTC, "amount", units(2_000, 8)), "supply cap"},
		{"borrow without collateral", "compound_borrow_base", argsOf("amount", units(200, 6)), "NotCollateralized"},
		{"repay without debt", "compound_repay_base", argsOf("amount", units(1, 6)), "owes no USDC"},
		{"withdraw without supply", "compound_withdraw_base", argsOf("amount", "max"), "no USDC supplied"},
		{"collateral withdrawal without collateral", "compound_withdraw_collateral", argsOf("asset", c.WETH, "amount", "max"), "no WETH collateral"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := f.plan(t, tc.tool, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %s: %v, want an error containing %q", tc.tool, tc.args, err, tc.want)
			}
		})
	}
	if f.balance(t, c.USDC, f.wallet()).Cmp(usdc) != 0 || f.balance(t, c.WETH, f.wallet()).Cmp(weth) != 0 {
		t.Error("a refused plan changed the wallet")
	}
}

// TestCompoundPriceDown: when a collateral's price feed answers 0 (Comet's
// getPrice reverts), every plan that depends on the account's standing is
// refused rather than guessed.
func TestCompoundPriceDown(t *testing.T) {
	f := base(t)
	c := f.c
	var out writeOut
	f.commit(t, "compound_supply_collateral", argsOf("asset", c.WETH, "amount", units(1, 18)), &out)
	f.receiptsOK(t, "compound_supply_collateral", out)
	f.commit(t, "compound_borrow_base", argsOf("amount", units(500, 6)), &out)
	f.receiptsOK(t, "compound_borrow_base", out)
	restore := f.setETHPrice(t, 0)
	for _, tc := range []struct{ tool, args string }{
		{"compound_borrow_base", argsOf("amount", units(100, 6))},
		{"compound_withdraw_collateral", argsOf("asset", c.WETH, "amount", "1")},
	} {
		if _, _, err := f.plan(t, tc.tool, tc.args); err == nil || !strings.Contains(err.Error(), "health is unknown") {
			t.Errorf("%s with a dead price feed: %v, want a refusal", tc.tool, err)
		}
	}
	restore()
	f.commit(t, "compound_repay_base", argsOf("amount", "max"), &out)
	f.receiptsOK(t, "compound_repay_base", out)
	f.commit(t, "compound_withdraw_collateral", argsOf("asset", c.WETH, "amount", "max"), &out)
	f.receiptsOK(t, "compound_withdraw_collateral", out)
}

// TestCompoundRecheck: a borrow previewed while collateralized is refused
// at commit, before anything is sent, once the collateral's price fell.
func TestCompoundRecheck(t *testing.T) {
	f := base(t)
	c := f.c
	var out writeOut
	f.commit(t, "compound_supply_collateral", argsOf("asset", c.WETH, "amount", units(1, 18)), &out)
	f.receiptsOK(t, "compound_supply_collateral", out)
	p, in, err := f.plan(t, "compound_borrow_base", argsOf("amount", units(2_000, 6)))
	if err != nil {
		t.Fatalf("plan a borrow within the collateral factor: %v", err)
	}
	restore := f.setETHPrice(t, 2_000e8)
	usdc := f.balance(t, c.USDC, f.wallet())
	if _, err := f.entry(t, "compound_borrow_base").Write(t.Context(), in, p, capFor("compound_borrow_base", in)); err == nil ||
		!strings.Contains(err.Error(), "commit is refused") || !strings.Contains(err.Error(), "NotCollateralized") {
		t.Errorf("commit after ETH fell to $2,000: %v, want a refusal", err)
	}
	if f.cometBig(t, "borrowBalanceOf", f.wallet()).Sign() != 0 || f.balance(t, c.USDC, f.wallet()).Cmp(usdc) != 0 {
		t.Error("the refused commit borrowed")
	}
	restore()
	f.commit(t, "compound_withdraw_collateral", argsOf("asset", c.WETH, "amount", "max"), &out)
	f.receiptsOK(t, "compound_withdraw_collateral", out)
}
