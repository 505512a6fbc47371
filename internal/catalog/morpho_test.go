package catalog_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/chain"
)

// These tests drive the Morpho Blue tools against ward's Morpho contract
// on the shared dev chain (base_test.go): WETH/USDC markets at an LLTV of
// 86 %, priced by ETH/USD over USDC/USD feeds, one without interest (the
// lifecycle, whose amounts are exact) and one with a 4 % fixed borrow
// rate. Every write is committed and checked on chain: receipts, wallet
// and contract balances and the position Morpho records.

type morphoPosition struct {
	Supplied     amt    `json:"supplied"`
	Borrowed     amt    `json:"borrowed"`
	Collateral   amt    `json:"collateral"`
	Borrowable   amt    `json:"borrowable"`
	HF           string `json:"health_factor"`
	LTV          string `json:"ltv_percent"`
	LiqPrice     string `json:"liquidation_price"`
	Liquidatable bool   `json:"liquidatable"`
}

// receiptsOK checks every transaction a write reports was mined and
// succeeded.
func (f *baseFixture) receiptsOK(t *testing.T, name string, out writeOut) {
	t.Helper()
	if len(out.TxHashes) == 0 {
		t.Fatalf("%s: no transactions", name)
	}
	for _, h := range out.TxHashes {
		r, err := f.env.Chain.Receipt(t.Context(), common.HexToHash(h))
		if err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("%s: receipt of %s: %+v, %v", name, h, r, err)
		}
	}
	if !out.Verified {
		t.Errorf("%s: balance changes not verified: %v", name, out.Deltas)
	}
}

// onChainPosition reads Morpho's own record of the wallet's position.
func (f *baseFixture) morphoPos(t *testing.T, id common.Hash) (supplyShares, borrowShares, collateral *big.Int) {
	t.Helper()
	v := f.call(t, chain.MorphoBlueABI(), f.c.MorphoBlue, "position", id, f.wallet())
	return v[0].(*big.Int), v[1].(*big.Int), v[2].(*big.Int)
}

func TestMorphoLifecycle(t *testing.T) {
	f := base(t)
	c := f.c
	id := chain.MorphoMarketID(chain.DevMorphoMarket(c))
	mid := id.Hex()

	var m struct {
		Loan       tokenOut `json:"loan_token"`
		Collateral tokenOut `json:"collateral_token"`
		LLTV       string   `json:"lltv_percent"`
		Supplied   amt      `json:"total_supplied"`
		Liquidity  amt      `json:"liquidity"`
		BorrowAPR  string   `json:"borrow_apr_percent"`
		Price      string   `json:"collateral_price"`
	}
	f.read(t, "morpho_get_market", argsOf("market_id", mid), &m)
	if m.Loan.Symbol != "USDC" || m.Collateral.Symbol != "WETH" || m.LLTV != "86" || m.Price != "3000" ||
		m.Supplied.big(t).Cmp(units(1_000_000, 6)) < 0 || m.BorrowAPR != "0" {
		t.Fatalf("market = %+v", m)
	}
	rated := chain.MorphoMarketID(chain.DevMorphoRatedMarket(c)).Hex()
	f.read(t, "morpho_get_market", argsOf("market_id", rated), &m)
	if !near(fl(m.BorrowAPR), 4, 1e-6) || m.Liquidity.big(t).Cmp(units(100_000, 6)) != 0 {
		t.Fatalf("rated market = %+v, want a 4%% borrow APR and 100,000 USDC of liquidity", m)
	}
	var idOut struct {
		ID      string `json:"market_id"`
		Created bool   `json:"created"`
	}
	f.read(t, "morpho_get_market_id", argsOf("loan_token", c.USDC, "collateral_token", c.WETH, "oracle", c.MorphoOracleWETHUSDC,
		"irm", common.Address{}, "lltv", chain.DevMorphoLLTV), &idOut)
	if !strings.EqualFold(idOut.ID, mid) || !idOut.Created {
		t.Errorf("market id = %+v, want %s created", idOut, mid)
	}
	f.read(t, "morpho_get_market_id", argsOf("loan_token", c.USDC, "collateral_token", c.WETH, "oracle", c.MorphoOracleWETHUSDC,
		"irm", c.MorphoIrm, "lltv", "900000000000000000"), &idOut)
	if idOut.Created {
		t.Error("a market with another LLTV is reported created")
	}

	var out writeOut
	// Lend 1,000 USDC.
	usdc0, held0 := f.balance(t, c.USDC, f.wallet()), f.balance(t, c.USDC, c.MorphoBlue)
	f.commit(t, "morpho_supply_market", argsOf("market_id", mid, "amount", units(1_000, 6), "token_symbol", "USDC"), &out)
	f.receiptsOK(t, "morpho_supply_market", out)
	if d := new(big.Int).Sub(usdc0, f.balance(t, c.USDC, f.wallet())); d.Cmp(units(1_000, 6)) != 0 {
		t.Errorf("supply took %s USDC from the wallet, want 1000", d)
	}
	if d := new(big.Int).Sub(f.balance(t, c.USDC, c.MorphoBlue), held0); d.Cmp(units(1_000, 6)) != 0 {
		t.Errorf("Morpho received %s USDC, want 1000", d)
	}
	var pos morphoPosition
	f.read(t, "morpho_get_position", argsOf("market_id", mid), &pos)
	if s := pos.Supplied.big(t); s.Cmp(units(1_000, 6)) > 0 || s.Cmp(units(999, 6)) < 0 || pos.HF != "infinite" {
		t.Errorf("position after supply = %+v", pos)
	}

	// Post 2 WETH: 2 * 3000 * 0.86 = 5160 USDC of borrowing capacity.
	weth0 := f.balance(t, c.WETH, f.wallet())
	f.commit(t, "morpho_supply_collateral", argsOf("market_id", mid, "amount", units(2, 18)), &out)
	f.receiptsOK(t, "morpho_supply_collateral", out)
	if d := new(big.Int).Sub(weth0, f.balance(t, c.WETH, f.wallet())); d.Cmp(units(2, 18)) != 0 {
		t.Errorf("collateral took %s WETH, want 2", d)
	}
	if _, _, coll := f.morphoPos(t, id); coll.Cmp(units(2, 18)) != 0 {
		t.Errorf("Morpho records %s collateral, want 2 WETH", coll)
	}
	f.read(t, "morpho_get_position", argsOf("market_id", mid), &pos)
	if pos.Borrowable.big(t).Cmp(units(5_160, 6)) != 0 {
		t.Errorf("borrowable = %s, want 5160 USDC", pos.Borrowable.Formatted)
	}

	// A borrow past the LLTV is refused and nothing moves.
	usdc1 := f.balance(t, c.USDC, f.wallet())
	if _, _, err := f.plan(t, "morpho_borrow_asset", argsOf("market_id", mid, "amount", units(5_200, 6))); err == nil ||
		!strings.Contains(err.Error(), "unhealthy") || !strings.Contains(err.Error(), "at most about") {
		t.Errorf("borrow past the LLTV: %v, want a refusal naming the health factor", err)
	}
	if _, bs, _ := f.morphoPos(t, id); bs.Sign() != 0 || f.balance(t, c.USDC, f.wallet()).Cmp(usdc1) != 0 {
		t.Error("a refused borrow changed the position or the wallet")
	}

	// Borrow 3,000 USDC: health factor 5160 / 3000 = 1.72.
	p := f.commit(t, "morpho_borrow_asset", argsOf("market_id", mid, "amount", units(3_000, 6), "token_symbol", "USDC", "token_decimals", 6), &out)
	f.receiptsOK(t, "morpho_borrow_asset", out)
	if d := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), usdc1); d.Cmp(units(3_000, 6)) != 0 {
		t.Errorf("borrow paid %s USDC, want 3000", d)
	}
	if !strings.Contains(p.Summary, "infinite -> 1.72") {
		t.Errorf("borrow summary %q does not predict 1.72", p.Summary)
	}
	f.read(t, "morpho_get_position", argsOf("market_id", mid), &pos)
	if !near(fl(pos.Borrowed.Formatted), 3000, 1e-6) || !near(fl(pos.HF), 1.72, 1e-5) || pos.Liquidatable ||
		!near(fl(pos.LiqPrice), 3000/(2*0.86), 1e-5) {
		t.Errorf("position after borrow = %+v", pos)
	}

	// Taking 1 WETH back would leave 2580 of capacity for 3000 of debt.
	if _, _, err := f.plan(t, "morpho_withdraw_collateral", argsOf("market_id", mid, "amount", units(1, 18))); err == nil || !strings.Contains(err.Error(), "unhealthy") {
		t.Errorf("collateral withdrawal below health 1: %v, want a refusal", err)
	}
	// 0.2 WETH is safe: 1.8 * 3000 * 0.86 / 3000 = 1.548.
	weth1 := f.balance(t, c.WETH, f.wallet())
	wp := f.commit(t, "morpho_withdraw_collateral", argsOf("market_id", mid, "amount", units(2, 17)), &out)
	f.receiptsOK(t, "morpho_withdraw_collateral", out)
	if d := new(big.Int).Sub(f.balance(t, c.WETH, f.wallet()), weth1); d.Cmp(units(2, 17)) != 0 {
		t.Errorf("collateral withdrawal paid %s WETH, want 0.2", d)
	}
	if !strings.Contains(wp.Summary, "-> 1.54") {
		t.Errorf("withdrawal summary %q does not predict about 1.548", wp.Summary)
	}

	// ETH halves: the position is liquidatable and any more borrowing is
	// refused.
	restore := f.setETHPrice(t, 1_500e8)
	f.read(t, "morpho_get_position", argsOf("market_id", mid), &pos)
	if !pos.Liquidatable || fl(pos.HF) >= 1 {
		t.Errorf("position at ETH $1,500 = %+v, want liquidatable", pos)
	}
	if _, _, err := f.plan(t, "morpho_borrow_asset", argsOf("market_id", mid, "amount", units(1, 6))); err == nil || !strings.Contains(err.Error(), "unhealthy") {
		t.Errorf("borrow from a liquidatable position: %v, want a refusal", err)
	}
	restore()

	// Repay everything by shares, then take all collateral and supply back.
	usdc2 := f.balance(t, c.USDC, f.wallet())
	f.commit(t, "morpho_repay_debt", argsOf("market_id", mid, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_repay_debt", out)
	if _, bs, _ := f.morphoPos(t, id); bs.Sign() != 0 {
		t.Errorf("%s borrow shares left after repaying max", bs)
	}
	if paid := new(big.Int).Sub(usdc2, f.balance(t, c.USDC, f.wallet())); paid.Cmp(units(3_000, 6)) != 0 {
		t.Errorf("repaying max took %s USDC, want 3000", paid)
	}
	if _, _, err := f.plan(t, "morpho_repay_debt", argsOf("market_id", mid, "amount", "max")); err == nil {
		t.Error("repaying without debt was planned")
	}
	f.commit(t, "morpho_withdraw_collateral", argsOf("market_id", mid, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_withdraw_collateral max", out)
	if d := new(big.Int).Sub(f.balance(t, c.WETH, f.wallet()), weth1); d.Cmp(units(2, 18)) != 0 {
		t.Errorf("the wallet got %s WETH back in all, want 2", d)
	}
	usdc3 := f.balance(t, c.USDC, f.wallet())
	if _, _, err := f.plan(t, "morpho_withdraw_market", argsOf("market_id", mid, "amount", units(2_000, 6))); err == nil || !strings.Contains(err.Error(), "supplied") {
		t.Errorf("withdrawing more than supplied: %v, want a refusal", err)
	}
	f.commit(t, "morpho_withdraw_market", argsOf("market_id", mid, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_withdraw_market", out)
	if ss, _, _ := f.morphoPos(t, id); ss.Sign() != 0 {
		t.Errorf("%s supply shares left after withdrawing max", ss)
	}
	// Supply shares round down by at most a unit of the loan token.
	if got := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), usdc3); got.Cmp(units(1_000, 6)) > 0 || got.Cmp(new(big.Int).Sub(units(1_000, 6), big.NewInt(1))) < 0 {
		t.Errorf("withdrawing max paid %s USDC, want 1000", got)
	}

	// Lending to the rated market, and back.
	usdc4 := f.balance(t, c.USDC, f.wallet())
	f.commit(t, "morpho_supply_market", argsOf("market_id", rated, "amount", units(250, 6)), &out)
	f.receiptsOK(t, "morpho_supply_market rated", out)
	if d := new(big.Int).Sub(usdc4, f.balance(t, c.USDC, f.wallet())); d.Cmp(units(250, 6)) != 0 {
		t.Errorf("supply to the rated market took %s USDC, want 250", d)
	}
	f.commit(t, "morpho_withdraw_market", argsOf("market_id", rated, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_withdraw_market rated", out)
	if ss, _, _ := f.morphoPos(t, chain.MorphoMarketID(chain.DevMorphoRatedMarket(c))); ss.Sign() != 0 {
		t.Errorf("%s supply shares left in the rated market", ss)
	}
}

func TestMorphoRefusals(t *testing.T) {
	f := base(t)
	c := f.c
	mid := chain.MorphoMarketID(chain.DevMorphoMarket(c)).Hex()
	missing := common.Hash{1}.Hex()
	usdc, weth := f.balance(t, c.USDC, f.wallet()), f.balance(t, c.WETH, f.wallet())
	for _, tc := range []struct {
		name, tool, args, want string
	}{
		{"unknown market", "morpho_supply_market", argsOf("market_id", missing, "amount", "1"), "no Morpho Blue market"},
		{"zero amount", "morpho_supply_market", argsOf("market_id", mid, "amount", "0"), "greater than 0"},
		{"more than the wallet holds", "morpho_supply_market", argsOf("market_id", mid, "amount", units(10_000_000, 6)), "USDC"},
		{"borrow without collateral", "morpho_borrow_asset", argsOf("market_id", mid, "amount", units(1, 6)), "no WETH collateral"},
		{"repay without debt", "morpho_repay_debt", argsOf("market_id", mid, "amount", units(1, 6)), "owes no USDC"},
		{"withdraw without supply", "morpho_withdraw_market", argsOf("market_id", mid, "amount", "max"), "no USDC supplied"},
		{"collateral withdrawal without collateral", "morpho_withdraw_collateral", argsOf("market_id", mid, "amount", "max"), "no WETH collateral"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := f.plan(t, tc.tool, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s %s: %v, want an error containing %q", tc.tool, tc.args, err, tc.want)
			}
		})
	}
	t.Run("malformed market id", func(t *testing.T) {
		if err := f.entry(t, "morpho_supply_market").Validate(json.RawMessage(`{"market_id":"0x1234","amount":"1"}`)); err == nil {
			t.Error("a short market id passed the schema")
		}
	})
	if f.balance(t, c.USDC, f.wallet()).Cmp(usdc) != 0 || f.balance(t, c.WETH, f.wallet()).Cmp(weth) != 0 {
		t.Error("a refused plan changed the wallet")
	}
}

// TestMorphoHealthEdge checks the plan's health arithmetic against the
// contract's at the boundary (the most the LLTV allows is planned and
// accepted on chain, one unit more is refused), and that a dead oracle
// refuses every plan that depends on health.
func TestMorphoHealthEdge(t *testing.T) {
	f := base(t)
	c := f.c
	mid := chain.MorphoMarketID(chain.DevMorphoMarket(c)).Hex()
	var out writeOut
	f.commit(t, "morpho_supply_collateral", argsOf("market_id", mid, "amount", units(1, 18)), &out)
	f.receiptsOK(t, "morpho_supply_collateral", out)
	// 1 WETH * 3000 * 0.86 = 2580 USDC exactly.
	if _, _, err := f.plan(t, "morpho_borrow_asset", argsOf("market_id", mid, "amount", new(big.Int).Add(units(2_580, 6), big.NewInt(1)))); err == nil || !strings.Contains(err.Error(), "unhealthy") {
		t.Errorf("one unit past the LLTV: %v, want a refusal", err)
	}
	usdc0 := f.balance(t, c.USDC, f.wallet())
	p := f.commit(t, "morpho_borrow_asset", argsOf("market_id", mid, "amount", units(2_580, 6)), &out)
	f.receiptsOK(t, "morpho_borrow_asset at the LLTV", out)
	if d := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), usdc0); d.Cmp(units(2_580, 6)) != 0 || !strings.Contains(p.Summary, "-> 1)") {
		t.Errorf("borrow at the LLTV paid %s USDC, summary %q; want 2580 at health 1", d, p.Summary)
	}

	// The ETH feed answers 0: the oracle reverts, so health is unknown.
	restore := f.setETHPrice(t, 0)
	for _, tc := range []struct{ tool, args string }{
		{"morpho_borrow_asset", argsOf("market_id", mid, "amount", "1")},
		{"morpho_withdraw_collateral", argsOf("market_id", mid, "amount", "1")},
	} {
		if _, _, err := f.plan(t, tc.tool, tc.args); err == nil || !strings.Contains(err.Error(), "health is unknown") {
			t.Errorf("%s with a dead oracle: %v, want a refusal", tc.tool, err)
		}
	}
	var pos morphoPosition
	if err := f.readErr(t, "morpho_get_position", argsOf("market_id", mid), &pos); err == nil {
		t.Error("a position read with a dead oracle reported a health factor")
	}
	restore()
	f.commit(t, "morpho_repay_debt", argsOf("market_id", mid, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_repay_debt", out)
	f.commit(t, "morpho_withdraw_collateral", argsOf("market_id", mid, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_withdraw_collateral", out)
}

// TestMorphoInterest borrows from the rated market (4 % a year through
// FixedRateIrm), moves the chain's clock ten minutes, and checks the
// position's debt is Morpho Blue's compounding (the three-term Taylor
// expansion of e^(rt)) of what it borrowed, and that repaying "max" pays
// that debt, give or take the interest of the seconds until execution.
func TestMorphoInterest(t *testing.T) {
	f := base(t)
	c := f.c
	id := chain.MorphoMarketID(chain.DevMorphoRatedMarket(c))
	mid := id.Hex()
	var out writeOut
	f.commit(t, "morpho_supply_collateral", argsOf("market_id", mid, "amount", units(1, 18)), &out)
	f.receiptsOK(t, "morpho_supply_collateral", out)
	f.commit(t, "morpho_borrow_asset", argsOf("market_id", mid, "amount", units(1_000, 6)), &out)
	f.receiptsOK(t, "morpho_borrow_asset", out)
	if err := f.dev.AdjustTime(10 * time.Minute); err != nil {
		t.Fatal(err)
	}
	m := f.call(t, chain.MorphoBlueABI(), c.MorphoBlue, "market", id)
	borrowed, lastUpdate := m[2].(*big.Int), m[4].(*big.Int)
	head := freshHead(t, f.env.Chain) // the block the position read pins
	rate := f.call(t, chain.MorphoOracleABI(), c.MorphoIrm, "borrowRateView", chain.DevMorphoRatedMarket(c), chain.MorphoMarket{
		TotalSupplyAssets: m[0].(*big.Int), TotalSupplyShares: m[1].(*big.Int), TotalBorrowAssets: m[2].(*big.Int),
		TotalBorrowShares: m[3].(*big.Int), LastUpdate: m[4].(*big.Int), Fee: m[5].(*big.Int)})[0].(*big.Int)
	x := float64(rate.Int64()) * float64(int64(head.Time)-lastUpdate.Int64()) / 1e18
	b, _ := new(big.Float).SetInt(borrowed).Float64()
	want := b * (1 + x + x*x/2 + x*x*x/6)
	var pos morphoPosition
	f.read(t, "morpho_get_position", argsOf("market_id", mid), &pos)
	got, _ := new(big.Float).SetInt(pos.Borrowed.big(t)).Float64()
	if !near(got, want, 1e-9) || got-b < 700 {
		t.Errorf("debt after ten minutes = %.0f units, want %.0f (borrowed %.0f)", got, want, b)
	}
	usdc0 := f.balance(t, c.USDC, f.wallet())
	f.commit(t, "morpho_repay_debt", argsOf("market_id", mid, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_repay_debt", out)
	paid, _ := new(big.Float).SetInt(new(big.Int).Sub(usdc0, f.balance(t, c.USDC, f.wallet()))).Float64()
	if paid < got || paid > got*(1+1e-6) {
		t.Errorf("repaying max paid %.0f units, want the %.0f owed plus a few seconds of interest", paid, got)
	}
	if _, bs, _ := f.morphoPos(t, id); bs.Sign() != 0 {
		t.Errorf("%s borrow shares left after repaying max", bs)
	}
	f.commit(t, "morpho_withdraw_collateral", argsOf("market_id", mid, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_withdraw_collateral", out)
}

// TestMorphoRecheck: a borrow previewed while healthy is refused at
// commit, before anything is sent, when the price has since fallen so far
// that it would leave the position unhealthy.
func TestMorphoRecheck(t *testing.T) {
	f := base(t)
	c := f.c
	mid := chain.MorphoMarketID(chain.DevMorphoMarket(c)).Hex()
	var out writeOut
	f.commit(t, "morpho_supply_collateral", argsOf("market_id", mid, "amount", units(1, 18)), &out)
	f.receiptsOK(t, "morpho_supply_collateral", out)
	args := argsOf("market_id", mid, "amount", units(2_000, 6))
	p, in, err := f.plan(t, "morpho_borrow_asset", args)
	if err != nil {
		t.Fatalf("plan a borrow at health 1.29: %v", err)
	}
	restore := f.setETHPrice(t, 2_000e8)
	usdc := f.balance(t, c.USDC, f.wallet())
	if _, err := f.entry(t, "morpho_borrow_asset").Write(t.Context(), in, p, capFor("morpho_borrow_asset", in)); err == nil ||
		!strings.Contains(err.Error(), "commit is refused") || !strings.Contains(err.Error(), "unhealthy") {
		t.Errorf("commit after ETH fell to $2,000: %v, want a refusal", err)
	}
	if _, bs, _ := f.morphoPos(t, chain.MorphoMarketID(chain.DevMorphoMarket(c))); bs.Sign() != 0 || f.balance(t, c.USDC, f.wallet()).Cmp(usdc) != 0 {
		t.Error("the refused commit borrowed")
	}
	restore()
	f.commit(t, "morpho_withdraw_collateral", argsOf("market_id", mid, "amount", "max"), &out)
	f.receiptsOK(t, "morpho_withdraw_collateral", out)
}
