package upstream_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/registry"
)

type poolRef struct {
	Version string `json:"version"`
	Address string `json:"address"`
	Fee     int64  `json:"fee"`
}

type quoteResult struct {
	Quotes []struct {
		Venue     string `json:"venue"`
		Pool      string `json:"pool"`
		Fee       int64  `json:"fee"`
		AmountOut amount `json:"amount_out"`
	} `json:"quotes"`
	Unavailable []string `json:"unavailable"`
}

func sameAddr(s string, a common.Address) bool { return strings.EqualFold(s, a.Hex()) }

// TestUniswapReads runs the discovery and pool-state tools on the published V2 pair and V3 pool.
func TestUniswapReads(t *testing.T) {
	w := need(t)
	a := w.agent

	t.Run("uniswap_get_pools_by_token_pair", func(t *testing.T) {
		var got struct{ Pools []poolRef }
		a.read(t, "uniswap_get_pools_by_token_pair", map[string]any{"token_a": w.usdc, "token_b": w.weth}, &got)
		var v2, v3 bool
		for _, p := range got.Pools {
			switch {
			case p.Version == "v2" && sameAddr(p.Address, w.v2Pair):
				v2 = true
			case p.Version == "v3" && sameAddr(p.Address, w.v3Pool) && p.Fee == v3Fee:
				v3 = true
			}
		}
		if !v2 || !v3 {
			t.Errorf("pools = %+v, want the V2 pair %s and the V3 pool %s (fee %d)", got.Pools, w.v2Pair, w.v3Pool, v3Fee)
		}
	})

	t.Run("uniswap_get_pool_info v2", func(t *testing.T) {
		var got struct {
			Version            string
			Reserve0, Reserve1 amount
		}
		a.read(t, "uniswap_get_pool_info", map[string]any{"pool_address": w.v2Pair}, &got)
		res := w.n.call(t.Context(), artV2Pair, w.v2Pair, "getReserves")
		if err := w.n.take(); err != nil {
			t.Fatal(err)
		}
		if got.Version != "v2" || got.Reserve0.big(t).Cmp(res[0].(*big.Int)) != 0 || got.Reserve1.big(t).Cmp(res[1].(*big.Int)) != 0 {
			t.Errorf("pool info = %+v, want v2 with reserves %v / %v", got, res[0], res[1])
		}
	})

	t.Run("uniswap_get_pool_info v3", func(t *testing.T) {
		var got struct {
			Version     string
			Fee         int64
			TickSpacing int64  `json:"tick_spacing"`
			Liquidity   string `json:"liquidity"`
		}
		a.read(t, "uniswap_get_pool_info", map[string]any{"pool_address": w.v3Pool}, &got)
		liq := w.n.callBig(t.Context(), artV3Pool, w.v3Pool, "liquidity")
		if err := w.n.take(); err != nil {
			t.Fatal(err)
		}
		if got.Version != "v3" || got.Fee != v3Fee || got.TickSpacing != v3TickSpacing || got.Liquidity != liq.String() {
			t.Errorf("pool info = %+v, want v3, fee %d, spacing %d, liquidity %s", got, v3Fee, v3TickSpacing, liq)
		}
	})

	t.Run("uniswap_get_pair_reserves", func(t *testing.T) {
		var got struct {
			Pair        string `json:"pair"`
			TotalSupply string `json:"total_supply"`
		}
		a.read(t, "uniswap_get_pair_reserves", map[string]any{"token_a": w.weth, "token_b": w.usdc}, &got)
		supply := w.n.callBig(t.Context(), artV2Pair, w.v2Pair, "totalSupply")
		if err := w.n.take(); err != nil {
			t.Fatal(err)
		}
		if !sameAddr(got.Pair, w.v2Pair) || got.TotalSupply != supply.String() {
			t.Errorf("reserves = %+v, want pair %s with supply %s", got, w.v2Pair, supply)
		}
	})

	t.Run("uniswap_get_quote v2 agrees with Router02", func(t *testing.T) {
		in := units(2, 18)
		var got quoteResult
		a.read(t, "uniswap_get_quote", map[string]any{"token_in": w.weth, "token_out": w.usdc, "amount_in": in.String(), "version": "v2"}, &got)
		want := w.v2AmountOut(t, in, w.weth, w.usdc)
		if len(got.Quotes) != 1 || got.Quotes[0].AmountOut.big(t).Cmp(want) != 0 {
			t.Errorf("quotes = %+v (unavailable %v), want one V2 quote of %s", got.Quotes, got.Unavailable, want)
		}
	})

	t.Run("uniswap_get_quote v3 agrees with QuoterV2", func(t *testing.T) {
		// Large enough to move the price noticeably, so a rounding slip would show.
		in := units(50, 18)
		var got quoteResult
		a.read(t, "uniswap_get_quote", map[string]any{"token_in": w.weth, "token_out": w.usdc, "amount_in": in.String(), "version": "v3", "fee": v3Fee}, &got)
		want := w.v3AmountOut(t, in, w.weth, w.usdc)
		if len(got.Quotes) != 1 || got.Quotes[0].AmountOut.big(t).Cmp(want) != 0 || !sameAddr(got.Quotes[0].Pool, w.v3Pool) {
			t.Errorf("quotes = %+v (unavailable %v), want one V3 quote of %s from %s", got.Quotes, got.Unavailable, want, w.v3Pool)
		}
	})

	t.Run("uniswap_compute_price_impact", func(t *testing.T) {
		var got struct {
			Venues []struct {
				Venue     string  `json:"venue"`
				ImpactBps float64 `json:"price_impact_bps"`
				TotalBps  float64 `json:"total_cost_bps"`
			} `json:"venues"`
		}
		// 10 WETH into 1,000 WETH of depth: about 1 % impact on V2, about the same on the
		// full-range V3 position (same depth), plus the 0.3 % fee.
		a.read(t, "uniswap_compute_price_impact", map[string]any{"token_in": w.weth, "token_out": w.usdc, "amount_in": units(10, 18).String()}, &got)
		if len(got.Venues) != 2 {
			t.Fatalf("venues = %+v, want V2 and V3", got.Venues)
		}
		for _, v := range got.Venues {
			if v.ImpactBps < 80 || v.ImpactBps > 120 || v.TotalBps < v.ImpactBps {
				t.Errorf("%s: impact %.1f bps, total %.1f bps; want about 99 bps of impact and a total above it", v.Venue, v.ImpactBps, v.TotalBps)
			}
		}
	})
}

// v2AmountOut asks Router02 itself.
func (w *world) v2AmountOut(t *testing.T, in *big.Int, from, to common.Address) *big.Int {
	t.Helper()
	out := w.n.call(t.Context(), artV2Router, w.v2Router, "getAmountsOut", in, []common.Address{from, to})
	if err := w.n.take(); err != nil {
		t.Fatal(err)
	}
	amounts := out[0].([]*big.Int)
	return amounts[len(amounts)-1]
}

// v3AmountOut asks the published QuoterV2, which runs the pool's own swap and reverts with the
// result.
func (w *world) v3AmountOut(t *testing.T, in *big.Int, from, to common.Address) *big.Int {
	t.Helper()
	type quoteParams struct {
		TokenIn, TokenOut common.Address
		AmountIn, Fee     *big.Int
		SqrtPriceLimitX96 *big.Int
	}
	out := w.n.call(t.Context(), artV3Quoter, w.v3Quoter, "quoteExactInputSingle",
		quoteParams{TokenIn: from, TokenOut: to, AmountIn: in, Fee: big.NewInt(v3Fee), SqrtPriceLimitX96: new(big.Int)})
	if err := w.n.take(); err != nil {
		t.Fatal(err)
	}
	return out[0].(*big.Int)
}

// TestUniswapSwaps swaps through the published Router02 and SwapRouter with the write tools,
// USDC to WETH and back (so the pools end near where they started), checking that each swap
// pays exactly what the published router or quoter quoted: nobody else trades in between.
func TestUniswapSwaps(t *testing.T) {
	w := need(t)
	a := w.agent
	for _, c := range []struct {
		tool, version string
		quote         func(t *testing.T, in *big.Int, from, to common.Address) *big.Int
	}{
		{"uniswap_execute_v2_swap", "v2", w.v2AmountOut},
		{"uniswap_execute_swap", "v3", w.v3AmountOut},
	} {
		t.Run(c.tool, func(t *testing.T) {
			bought := swap(t, a, c.tool, c.quote, w.usdc, "USDC", 6, w.weth, "WETH", 18, units(3_000, 6))
			swap(t, a, c.tool, c.quote, w.weth, "WETH", 18, w.usdc, "USDC", 6, bought)
		})
	}
}

// swap runs one swap tool selling amount of `in` for `out` and returns what it bought.
func swap(t *testing.T, a *agent, tool string, quote func(*testing.T, *big.Int, common.Address, common.Address) *big.Int,
	in common.Address, inSym string, inDec int, out common.Address, outSym string, outDec int, amount *big.Int) *big.Int {
	t.Helper()
	want := quote(t, amount, in, out)
	var got writeResult
	a.write(t, tool, map[string]any{
		"token_in": in, "token_out": out, "amount_in": amount.String(), "slippage_bps": 50,
		"token_in_symbol": inSym, "token_in_decimals": inDec, "token_out_symbol": outSym, "token_out_decimals": outDec,
	}, &got)
	if !got.Verified {
		t.Errorf("%s → %s: result not verified against balances: %+v", inSym, outSym, got)
	}
	if d := got.delta(t, in); d.Cmp(new(big.Int).Neg(amount)) != 0 {
		t.Errorf("%s delta = %s, want -%s", inSym, d, amount)
	}
	d := got.delta(t, out)
	if d.Cmp(want) != 0 {
		t.Errorf("%s delta = %s, want the quote %s", outSym, d, want)
	}
	return d
}

type lpPosition struct {
	Version          string `json:"version"`
	LPBalance        amount `json:"lp_balance"`
	Liquidity        string `json:"liquidity"`
	Amount0, Amount1 amount
}

// TestUniswapV2Liquidity adds liquidity to the published pair through Router02 with the tool,
// reads the position and removes all of it.
func TestUniswapV2Liquidity(t *testing.T) {
	w := need(t)
	a := w.agent
	var wrap writeResult
	a.write(t, "weth_wrap_eth", map[string]any{"amount": units(2, 18).String()}, &wrap)

	var added writeResult
	t.Run("uniswap_add_liquidity", func(t *testing.T) {
		a.write(t, "uniswap_add_liquidity", map[string]any{
			"token_a": w.usdc, "token_b": w.weth, "amount_a_desired": units(3_000, 6).String(), "amount_b_desired": units(1, 18).String(),
			"token_a_symbol": "USDC", "token_a_decimals": 6, "token_b_symbol": "WETH", "token_b_decimals": 18,
		}, &added)
		lp := added.delta(t, w.v2Pair)
		if !added.Verified || lp.Sign() <= 0 || lp.Cmp(w.balance(t, w.v2Pair, a.addr)) != 0 {
			t.Errorf("add: verified %v, LP delta %s; want verified and the wallet's whole LP balance", added.Verified, lp)
		}
		// The pair's ratio decides which desired amount binds; the other is nearly all used.
		usdc, weth := added.delta(t, w.usdc), added.delta(t, w.weth)
		if usdc.Cmp(units(-3_000, 6)) < 0 || weth.Cmp(units(-1, 18)) < 0 || (!within(usdc, units(-3_000, 6), 100) && !within(weth, units(-1, 18), 100)) {
			t.Errorf("add took %s USDC and %s WETH units, want at most 3,000 USDC and 1 WETH, one of them within 1 %%", usdc, weth)
		}
	})

	t.Run("uniswap_get_lp_position v2", func(t *testing.T) {
		var got lpPosition
		a.read(t, "uniswap_get_lp_position", map[string]any{"token_a": w.weth, "token_b": w.usdc}, &got)
		bal := w.balance(t, w.v2Pair, a.addr)
		if got.Version != "v2" || got.LPBalance.big(t).Cmp(bal) != 0 {
			t.Errorf("position = %+v, want v2 with LP balance %s", got, bal)
		}
	})

	t.Run("uniswap_remove_liquidity max", func(t *testing.T) {
		var got writeResult
		a.write(t, "uniswap_remove_liquidity", map[string]any{"token_a": w.usdc, "token_b": w.weth, "liquidity": "max"}, &got)
		if !got.Verified || w.balance(t, w.v2Pair, a.addr).Sign() != 0 {
			t.Errorf("remove: verified %v, LP left %s; want verified and none left", got.Verified, w.balance(t, w.v2Pair, a.addr))
		}
		// Burning returns what was added, less rounding (no trades in between).
		for _, tok := range []common.Address{w.usdc, w.weth} {
			in, out := new(big.Int).Neg(added.delta(t, tok)), got.delta(t, tok)
			if out.Cmp(in) > 0 || !within(out, in, 1) {
				t.Errorf("%s: added %s, got back %s; want the same less rounding", tok, in, out)
			}
		}
	})
}

// TestUniswapV3Positions reads the position manager's position in the published pool with the
// LP tool, and adds and removes wallet-owned liquidity through ward's liquidity helper when
// the helper can drive the published pool.
func TestUniswapV3Positions(t *testing.T) {
	w := need(t)
	a := w.agent

	t.Run("uniswap_get_lp_position v3 of the position manager", func(t *testing.T) {
		var got lpPosition
		a.read(t, "uniswap_get_lp_position", map[string]any{"pool": w.v3Pool, "owner": w.v3Positions}, &got)
		// The manager holds the only position, full range, so it is all of the active liquidity.
		liq := w.n.callBig(t.Context(), artV3Pool, w.v3Pool, "liquidity")
		if err := w.n.take(); err != nil {
			t.Fatal(err)
		}
		if got.Version != "v3" || got.Liquidity != liq.String() {
			t.Errorf("position = %+v, want v3 with liquidity %s", got, liq)
		}
	})

	t.Run("uniswap_add_v3_liquidity and uniswap_remove_v3_liquidity", func(t *testing.T) {
		ctx, n := t.Context(), w.n
		helper := n.deploy(ctx, artHelper, w.v3Factory)
		if err := n.take(); err != nil {
			t.Fatal(err)
		}
		// Ward's helper asks the pool for its full range (fullRange()), an extension only the dev
		// chain's pool has.
		if n.call(ctx, artWardV3Pool, w.v3Pool, "fullRange"); n.take() != nil {
			t.Skip("ward's LiquidityHelper cannot drive the published UniswapV3Pool: it calls pool.fullRange(), which only ward's dev pool implements (the mainnet pool reverts)")
		}
		env := *a.env
		env.Venues.UniswapV3LiquidityHelper = helper
		ha := &agent{addr: a.addr, signer: a.signer, env: &env, reg: registry.New()}
		if err := catalog.Register(ha.reg, &env); err != nil {
			t.Fatal(err)
		}
		var added writeResult
		ha.write(t, "uniswap_add_v3_liquidity", map[string]any{"pool": w.v3Pool, "amount0_max": units(1, 18).String(), "amount1_max": units(3_000, 6).String()}, &added)
		var pos lpPosition
		ha.read(t, "uniswap_get_lp_position", map[string]any{"pool": w.v3Pool}, &pos)
		if !added.Verified || pos.Liquidity == "0" {
			t.Errorf("add: verified %v, position %+v", added.Verified, pos)
		}
		var removed writeResult
		ha.write(t, "uniswap_remove_v3_liquidity", map[string]any{"pool": w.v3Pool, "liquidity": "max"}, &removed)
		if !removed.Verified {
			t.Errorf("remove not verified: %+v", removed)
		}
	})
}
