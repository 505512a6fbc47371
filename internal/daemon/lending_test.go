package daemon

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
)

// TestLendingThroughTheGate drives Morpho Blue and Compound III through
// the facade an agent sees on `ward serve`'s embedded defaults:
// preview_action → permit (a borrow is a High-risk permit) →
// commit_action, each committed on the dev chain and checked by its
// receipts and the wallet's balances; a borrow past the collateral is
// refused at preview, before any permit. The per-tick spending limit is
// raised: the limiter counts a borrow and a repay at their value too.
func TestLendingThroughTheGate(t *testing.T) {
	g := openGateStack(t, "[gate]\nannounce_delay = \"0s\"\n[hooks.spending]\nper_tick_usd = 10000\n")
	dc, w := g.dc, g.Dev.WalletAddress()
	bal := func(tok common.Address) *big.Int {
		t.Helper()
		return g.balance(tok, w)
	}
	preview := func(action, venue string, params map[string]any) (string, string, error) {
		t.Helper()
		pv, err := g.preview(action, venue, params)
		return pv.PermitID, pv.Risk, err
	}
	commit := func(action, venue string, params map[string]any) string {
		t.Helper()
		id, risk, err := preview(action, venue, params)
		if err != nil {
			t.Fatalf("%s/%s preview: %v", action, venue, err)
		}
		c, err := g.commit(id)
		if err != nil {
			t.Fatalf("%s/%s commit: %v", action, venue, err)
		}
		g.mined(action+"/"+venue+" commit", c.TxHashes)
		return risk
	}

	market := chain.MorphoMarketID(chain.DevMorphoMarket(dc)).Hex()
	weth0, usdc0 := bal(dc.WETH), bal(dc.USDC)
	commit("supply_collateral", "morpho", map[string]any{"market_id": market, "amount": "300000000000000000"})
	if _, _, err := preview("borrow", "morpho", map[string]any{"market_id": market, "amount": "800000000"}); err == nil || !strings.Contains(err.Error(), "unhealthy") {
		t.Errorf("a Morpho borrow past the LLTV: %v, want a refusal at preview", err)
	}
	if risk := commit("borrow", "morpho", map[string]any{"market_id": market, "amount": "400000000"}); risk != "high" {
		t.Errorf("a Morpho borrow's permit risk is %q, want high", risk)
	}
	if d := new(big.Int).Sub(bal(dc.USDC), usdc0); d.Cmp(big.NewInt(400e6)) != 0 {
		t.Errorf("the Morpho borrow paid %s USDC, want 400", d)
	}
	commit("repay", "morpho", map[string]any{"market_id": market, "amount": "max"})
	commit("withdraw_collateral", "morpho", map[string]any{"market_id": market, "amount": "max"})

	commit("supply_collateral", "compound", map[string]any{"asset": dc.WETH.Hex(), "amount": "300000000000000000"})
	if _, _, err := preview("borrow", "compound", map[string]any{"amount": "800000000"}); err == nil || !strings.Contains(err.Error(), "NotCollateralized") {
		t.Errorf("a Comet borrow past the collateral factor: %v, want a refusal at preview", err)
	}
	if risk := commit("borrow", "compound", map[string]any{"amount": "400000000"}); risk != "high" {
		t.Errorf("a Comet borrow's permit risk is %q, want high", risk)
	}
	if d := new(big.Int).Sub(bal(dc.USDC), usdc0); d.Cmp(big.NewInt(400e6)) != 0 {
		t.Errorf("after the Comet borrow the wallet holds %s more USDC, want 400", d)
	}
	commit("repay", "compound", map[string]any{"amount": "max"})
	commit("withdraw_collateral", "compound", map[string]any{"asset": dc.WETH.Hex(), "amount": "max"})
	if bal(dc.WETH).Cmp(weth0) != 0 {
		t.Errorf("the wallet's WETH is %s, want %s back", bal(dc.WETH), weth0)
	}
	if spent := new(big.Int).Sub(usdc0, bal(dc.USDC)); spent.Sign() < 0 || spent.Cmp(big.NewInt(1e6)) > 0 {
		t.Errorf("the round trips cost %s USDC units, want at most a dollar of Comet interest", spent)
	}
}
