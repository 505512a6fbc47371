package catalog_test

import (
	"math/big"
	"strconv"
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

// TestIntelCompareVenues compares a swap on the dev chain's venues: each
// venue's output is what uniswap_get_quote gives for it, and the list is
// ranked by output net of gas.
func TestIntelCompareVenues(t *testing.T) {
	f := base(t)
	var c struct {
		Venues []struct {
			Venue  string  `json:"venue"`
			Fee    int64   `json:"fee"`
			Out    amt     `json:"amount_out"`
			Impact float64 `json:"price_impact_bps"`
			Gas    int64   `json:"gas_units"`
			Net    *amt    `json:"amount_out_net_of_gas"`
		} `json:"venues"`
		RankedBy string `json:"ranked_by"`
	}
	amount := new(big.Int).Mul(big.NewInt(5), big.NewInt(1e18))
	f.read(t, "intel_compare_venues", argsOf("token_in", f.c.WETH, "token_out", f.c.USDC, "amount_in", amount), &c)
	if len(c.Venues) < 2 || c.RankedBy != "net_of_gas" {
		t.Fatalf("venues = %+v", c)
	}
	for i, v := range c.Venues {
		var q quotes
		args := argsOf("token_in", f.c.WETH, "token_out", f.c.USDC, "amount_in", amount, "version", "v2")
		if v.Venue == "uniswap_v3" {
			args = argsOf("token_in", f.c.WETH, "token_out", f.c.USDC, "amount_in", amount, "version", "v3", "fee", v.Fee)
		}
		f.read(t, "uniswap_get_quote", args, &q)
		if len(q.Quotes) != 1 || q.Quotes[0].AmountOut.big(t).Cmp(v.Out.big(t)) != 0 {
			t.Errorf("%s %d: %v, uniswap_get_quote gives %+v", v.Venue, v.Fee, v.Out, q)
		}
		if v.Net == nil || v.Net.big(t).Cmp(v.Out.big(t)) > 0 || v.Impact < 0 || v.Gas < 110_000 {
			t.Errorf("%s %d: %+v", v.Venue, v.Fee, v)
		}
		if i > 0 && c.Venues[i-1].Net.big(t).Cmp(v.Net.big(t)) < 0 {
			t.Errorf("venue %d is better net of gas than the one before it", i)
		}
		t.Logf("%s fee %d: %s USDC, impact %.1f bps, net of gas %s", v.Venue, v.Fee, v.Out.Formatted, v.Impact, v.Net.Formatted)
	}
}

// TestIntelRegime classifies WETH from its feed's rounds on the dev
// chain after three price moves a block apart: moves of 1% a few seconds
// apart are far above 100% a year, so the regime is volatile. The price
// is put back.
func TestIntelRegime(t *testing.T) {
	f := base(t)
	var tp struct {
		PriceUSD float64 `json:"price_usd"`
	}
	f.read(t, "data_get_token_price", `{}`, &tp)
	var sp struct{}
	for _, m := range []float64{1.01, 1.02, 1} {
		f.commit(t, "testnet_set_price", argsOf("token", f.c.WETH, "price", strconv.FormatFloat(tp.PriceUSD*m, 'f', 2, 64)), &sp)
	}
	var g struct {
		Regime string  `json:"regime"`
		Rounds int     `json:"rounds"`
		Vol    float64 `json:"volatility_annual"`
		ER     float64 `json:"efficiency_ratio"`
	}
	f.read(t, "intel_classify_regime", argsOf("token", f.c.WETH, "feed_rounds", 4), &g)
	if g.Regime != "volatile" || g.Rounds != 4 || !(g.Vol > 1) || g.ER < 0 || g.ER > 1 {
		t.Errorf("regime = %+v", g)
	}
	t.Logf("regime: %+v", g)
	if err := f.readErr(t, "intel_classify_regime", argsOf("token", f.c.AaveAUSDC), &g); err == nil {
		t.Error("a token without a feed was classified")
	}
}
