package upstream_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// TestSafetyTools runs the checks that read or simulate the published contracts: simulation of a
// Router02 call on forked state (w3vm over ward's provider), the pool-versus-feed price check on
// both pool kinds, the token check on the canonical WETH9, and unwrapping it.
func TestSafetyTools(t *testing.T) {
	w := need(t)
	a := w.agent

	t.Run("safety_simulate_transaction Router02.swapExactETHForTokens", func(t *testing.T) {
		router := w.n.art(artV2Router)
		data, err := router.abi.Pack("swapExactETHForTokens", big.NewInt(0), []common.Address{w.weth, w.usdc}, a.addr, farFuture)
		if err != nil {
			t.Fatal(err)
		}
		want := w.v2AmountOut(t, units(1, 18), w.weth, w.usdc)
		var got struct {
			OK           bool   `json:"ok"`
			RevertReason string `json:"revert_reason"`
			Deltas       []struct {
				Token common.Address `json:"token"`
				Delta string         `json:"delta"`
			} `json:"deltas"`
		}
		a.read(t, "safety_simulate_transaction", map[string]any{
			"to": w.v2Router, "data": hexutil.Encode(data), "value": units(1, 18).String(), "watch_tokens": []common.Address{w.usdc},
		}, &got)
		if !got.OK {
			t.Fatalf("simulation failed: %q", got.RevertReason)
		}
		found := false
		for _, d := range got.Deltas {
			if d.Token == w.usdc {
				found = true
				if d.Delta != want.String() {
					t.Errorf("simulated USDC delta = %s, want Router02's quote %s", d.Delta, want)
				}
			}
		}
		if !found {
			t.Errorf("no USDC delta in %+v", got.Deltas)
		}
	})

	for _, c := range []struct {
		name   string
		pool   common.Address
		source string
	}{{"v2 pair", w.v2Pair, "uniswap_v2_pair"}, {"v3 pool", w.v3Pool, "uniswap_v3_pool"}} {
		t.Run("safety_check_price_deviation "+c.name, func(t *testing.T) {
			var got struct {
				Within    bool    `json:"within_limit"`
				Deviation float64 `json:"deviation_bps"`
				Source    string  `json:"source"`
			}
			a.read(t, "safety_check_price_deviation", map[string]any{"token_in": w.weth, "token_out": w.usdc, "pool": c.pool}, &got)
			// The pools were seeded at the feed's $3,000; the tests' trades move them by well under 1 %.
			if !got.Within || got.Deviation > 100 || got.Source != c.source {
				t.Errorf("got %+v, want within 100 bps from %s", got, c.source)
			}
		})
	}

	t.Run("safety_check_token canonical WETH9", func(t *testing.T) {
		var got struct {
			Verdict string `json:"verdict"`
			Symbol  string `json:"symbol"`
			Checks  []struct{ Name, Status, Detail string }
		}
		a.read(t, "safety_check_token", map[string]any{"token": w.weth}, &got)
		if got.Verdict == "fail" || got.Symbol != "WETH" {
			t.Errorf("got %+v, want WETH not failing", got)
		}
	})

	t.Run("weth_unwrap_eth canonical WETH9", func(t *testing.T) {
		var wrapped, got writeResult
		a.write(t, "weth_wrap_eth", map[string]any{"amount": units(1, 18).String()}, &wrapped)
		a.write(t, "weth_unwrap_eth", map[string]any{"amount": units(1, 18).String()}, &got)
		if d := got.delta(t, w.weth); d.Cmp(units(-1, 18)) != 0 || !got.Verified {
			t.Errorf("WETH delta = %s (verified %v), want -1 WETH", d, got.Verified)
		}
	})
}
