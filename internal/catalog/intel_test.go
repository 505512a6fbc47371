package catalog_test

import (
	"math/big"
	"testing"
)

// TestIntelMEV runs the sandwich bound on the dev chain's pools: the
// unsandwiched output is the V2 router's quote, the sandwiched one stays
// at or above the minimum, and a looser tolerance exposes more.
func TestIntelMEV(t *testing.T) {
	f := base(t)
	type mev struct {
		Quoted     amt    `json:"quoted_out"`
		Min        amt    `json:"min_out"`
		Sandwiched amt    `json:"sandwiched_out"`
		Loss       amt    `json:"victim_loss"`
		Profit     amt    `json:"attacker_profit"`
		Profitable bool   `json:"profitable"`
		Model      string `json:"model"`
	}
	amount := new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18)) // 10 WETH
	quoted := f.quote(t, "v2", f.c.WETH, f.c.USDC, amount)
	var last *big.Int
	for _, bps := range []int{10, 50, 300} {
		var m mev
		f.read(t, "intel_estimate_mev_exposure", argsOf("token_in", f.c.WETH, "token_out", f.c.USDC, "amount_in", amount, "slippage_bps", bps), &m)
		q, lo, got, loss, profit := m.Quoted.big(t), m.Min.big(t), m.Sandwiched.big(t), m.Loss.big(t), m.Profit.big(t)
		if q.Cmp(quoted) != 0 {
			t.Errorf("%d bps: quoted %v, the router quotes %v", bps, q, quoted)
		}
		if got.Cmp(lo) < 0 || new(big.Int).Sub(q, got).Cmp(loss) != 0 || loss.Sign() <= 0 {
			t.Errorf("%d bps: %+v", bps, m)
		}
		if last != nil && profit.Cmp(last) <= 0 {
			t.Errorf("%d bps: profit %v not above %v at a tighter tolerance", bps, profit, last)
		}
		last = profit
		t.Logf("%d bps on 10 WETH: victim loses %s USDC, attacker keeps %s WETH before gas (%s)", bps, m.Loss.Formatted, m.Profit.Formatted, m.Model)
	}
	var m mev
	f.read(t, "intel_estimate_mev_exposure", argsOf("token_in", f.c.WETH, "token_out", f.c.USDC, "amount_in", amount, "slippage_bps", 100, "version", "v3", "fee", 3000), &m)
	if m.Sandwiched.big(t).Cmp(m.Min.big(t)) < 0 || m.Loss.big(t).Sign() <= 0 {
		t.Errorf("v3: %+v", m)
	}
	t.Logf("v3 0.3%%, 100 bps: victim loses %s USDC (%s)", m.Loss.Formatted, m.Model)
	if err := f.readErr(t, "intel_estimate_mev_exposure", argsOf("token_in", f.c.WETH, "token_out", f.c.WETH, "amount_in", amount, "slippage_bps", 50), &m); err == nil {
		t.Error("a swap of a token for itself was assessed")
	}
}
