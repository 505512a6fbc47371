package catalog_test

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// These tests run the protocol tools (Uniswap V2 and V3, the ERC-4626
// vault, the Aave V3 style pool) against the shared dev chain of
// base_test.go. They measure outcomes on chain: balances, positions and
// revert reasons, not the tools' own reports alone.

// defiTools are the protocol tools, with the kind of each.
var defiTools = map[string]struct {
	tier     tool.Tier
	risk     tool.RiskTier
	category tool.Category
	action   string
	venue    string
	effect   tool.Effect
}{
	"uniswap_get_pools_by_token_pair": {tool.Read, tool.Layer1, tool.CatData, "pools", "uniswap", 0},
	"uniswap_get_pool_info":           {tool.Read, tool.Layer1, tool.CatData, "pool", "uniswap", 0},
	"uniswap_get_pair_reserves":       {tool.Read, tool.Layer1, tool.CatData, "reserves", "uniswap_v2", 0},
	"uniswap_get_quote":               {tool.Read, tool.Layer1, tool.CatTrading, "quote", "uniswap", 0},
	"uniswap_compute_price_impact":    {tool.Read, tool.Layer1, tool.CatTrading, "price_impact", "uniswap", 0},
	"uniswap_get_lp_position":         {tool.Read, tool.Layer1, tool.CatLP, "lp_position", "uniswap", 0},
	"uniswap_execute_swap":            {tool.Write, tool.Layer2, tool.CatTrading, "swap", "uniswap_v3", tool.EffectOpen},
	"uniswap_execute_v2_swap":         {tool.Write, tool.Layer2, tool.CatTrading, "swap", "uniswap_v2", tool.EffectOpen},
	"uniswap_get_route":               {tool.Read, tool.Layer1, tool.CatTrading, "route", "uniswap", 0},
	"intel_estimate_mev_exposure":     {tool.Read, tool.Layer1, tool.CatIntelligence, "mev_exposure", "uniswap", 0},
	"intel_compare_venues":            {tool.Read, tool.Layer1, tool.CatIntelligence, "compare_venues", "uniswap", 0},
	"uniswap_execute_routed_swap":     {tool.Write, tool.Layer2, tool.CatTrading, "swap", "uniswap", tool.EffectOpen},
	"uniswap_add_liquidity":           {tool.Write, tool.Layer2, tool.CatLP, "add_liquidity", "uniswap_v2", tool.EffectOpen},
	"uniswap_remove_liquidity":        {tool.Write, tool.Layer2, tool.CatLP, "remove_liquidity", "uniswap_v2", tool.EffectClose},
	"uniswap_add_v3_liquidity":        {tool.Write, tool.Layer2, tool.CatLP, "add_liquidity", "uniswap_v3", tool.EffectOpen},
	"uniswap_remove_v3_liquidity":     {tool.Write, tool.Layer2, tool.CatLP, "remove_liquidity", "uniswap_v3", tool.EffectClose},
	"vault_get_info":                  {tool.Read, tool.Layer1, tool.CatVault, "vault", "vault", 0},
	"vault_preview_deposit":           {tool.Read, tool.Layer1, tool.CatVault, "deposit_preview", "vault", 0},
	"vault_preview_redeem":            {tool.Read, tool.Layer1, tool.CatVault, "redeem_preview", "vault", 0},
	"vault_preview_withdraw":          {tool.Read, tool.Layer1, tool.CatVault, "withdraw_preview", "vault", 0},
	"vault_get_position":              {tool.Read, tool.Layer1, tool.CatVault, "vault_position", "vault", 0},
	"vault_deposit":                   {tool.Write, tool.Layer2, tool.CatVault, "deposit", "vault", tool.EffectOpen},
	"vault_withdraw":                  {tool.Write, tool.Layer2, tool.CatVault, "withdraw", "vault", tool.EffectClose},
	"vault_redeem":                    {tool.Write, tool.Layer2, tool.CatVault, "redeem", "vault", tool.EffectClose},
	"aave_get_account_data":           {tool.Read, tool.Layer1, tool.CatLending, "lending_account", "aave", 0},
	"aave_get_reserve_data":           {tool.Read, tool.Layer1, tool.CatLending, "lending_reserve", "aave", 0},
	"aave_supply_collateral":          {tool.Write, tool.Layer2, tool.CatLending, "supply", "aave", tool.EffectOpen},
	"aave_withdraw_collateral":        {tool.Write, tool.Layer2, tool.CatLending, "withdraw", "aave", tool.EffectClose},
	"aave_borrow_asset":               {tool.Write, tool.Layer3, tool.CatLending, "borrow", "aave", tool.EffectOpen},
	"aave_repay_debt":                 {tool.Write, tool.Layer2, tool.CatLending, "repay", "aave", tool.EffectClose},
	"aave_liquidate_position":         {tool.Write, tool.Layer3, tool.CatLending, "liquidate", "aave", tool.EffectOpen},
	"morpho_get_market":               {tool.Read, tool.Layer1, tool.CatLending, "lending_market", "morpho", 0},
	"morpho_get_position":             {tool.Read, tool.Layer1, tool.CatLending, "lending_account", "morpho", 0},
	"morpho_get_market_id":            {tool.Read, tool.Layer1, tool.CatLending, "lending_market_id", "morpho", 0},
	"morpho_supply_market":            {tool.Write, tool.Layer2, tool.CatLending, "supply", "morpho", tool.EffectOpen},
	"morpho_withdraw_market":          {tool.Write, tool.Layer2, tool.CatLending, "withdraw", "morpho", tool.EffectClose},
	"morpho_supply_collateral":        {tool.Write, tool.Layer2, tool.CatLending, "supply_collateral", "morpho", tool.EffectOpen},
	"morpho_withdraw_collateral":      {tool.Write, tool.Layer2, tool.CatLending, "withdraw_collateral", "morpho", tool.EffectClose},
	"morpho_borrow_asset":             {tool.Write, tool.Layer3, tool.CatLending, "borrow", "morpho", tool.EffectOpen},
	"morpho_repay_debt":               {tool.Write, tool.Layer2, tool.CatLending, "repay", "morpho", tool.EffectClose},
	"compound_get_market":             {tool.Read, tool.Layer1, tool.CatLending, "lending_reserve", "compound", 0},
	"compound_get_account":            {tool.Read, tool.Layer1, tool.CatLending, "lending_account", "compound", 0},
	"compound_supply_base":            {tool.Write, tool.Layer2, tool.CatLending, "supply", "compound", tool.EffectOpen},
	"compound_withdraw_base":          {tool.Write, tool.Layer2, tool.CatLending, "withdraw", "compound", tool.EffectClose},
	"compound_supply_collateral":      {tool.Write, tool.Layer2, tool.CatLending, "supply_collateral", "compound", tool.EffectOpen},
	"compound_withdraw_collateral":    {tool.Write, tool.Layer2, tool.CatLending, "withdraw_collateral", "compound", tool.EffectClose},
	"compound_borrow_base":            {tool.Write, tool.Layer3, tool.CatLending, "borrow", "compound", tool.EffectOpen},
	"compound_repay_base":             {tool.Write, tool.Layer2, tool.CatLending, "repay", "compound", tool.EffectClose},
}

func TestDefiDefs(t *testing.T) {
	f := base(t)
	for name, want := range defiTools {
		t.Run(name, func(t *testing.T) {
			e := f.entry(t, name)
			d := e.Def
			if d.Tier != want.tier || d.RiskTier != want.risk || d.Category != want.category || d.Effect != want.effect {
				t.Errorf("tier %v risk %v category %v effect %v; want %v %v %v %v", d.Tier, d.RiskTier, d.Category, d.Effect,
					want.tier, want.risk, want.category, want.effect)
			}
			if e.Action != want.action || e.Venue != want.venue {
				t.Errorf("adapter (%s, %s), want (%s, %s)", e.Action, e.Venue, want.action, want.venue)
			}
			if d.SchemaVersion != 1 || len(d.ProgressSteps) == 0 || d.PromptSnippet == "" {
				t.Errorf("schema version %d, %d progress steps, snippet %q", d.SchemaVersion, len(d.ProgressSteps), d.PromptSnippet)
			}
			var params struct {
				Type  string                     `json:"type"`
				Extra *bool                      `json:"additionalProperties"`
				Props map[string]json.RawMessage `json:"properties"`
			}
			if err := json.Unmarshal(d.Params, &params); err != nil || params.Type != "object" || params.Extra == nil || *params.Extra {
				t.Errorf("parameter schema is not a closed object: %s", d.Params)
			}
			if len(d.Description) < 200 || !strings.Contains(d.Description, "not") {
				t.Errorf("description too thin for a model (say what it does not do): %q", d.Description)
			}
			switch d.Tier {
			case tool.Read:
				if d.Budget == tool.Slow || len(d.Result) == 0 {
					t.Errorf("a read with budget %v and result schema %q", d.Budget, d.Result)
				}
			default:
				if d.Budget != tool.Slow || len(d.ProgressSteps) < 3 {
					t.Errorf("a write with budget %v and %d steps", d.Budget, len(d.ProgressSteps))
				}
				// Writes that move the agent's tokens take the agent's claims
				// about them.
				claims := 0
				for p := range params.Props {
					if strings.HasSuffix(p, "_symbol") {
						claims++
					}
				}
				if claims == 0 && !strings.Contains(name, "remove") {
					t.Errorf("no claimed symbol parameter for the hallucination check")
				}
			}
		})
	}
	// Every (action, venue) resolves to one tool in the widest profile.
	v, err := f.reg.Select(registry.Selection{Profiles: []string{"dev"}, Have: []tool.Requirement{tool.NeedsWallet}})
	if err != nil {
		t.Fatalf("select dev profile: %v", err)
	}
	for name, want := range defiTools {
		if e, ok := v.Adapter(want.action, want.venue); !ok || e.Def.Name != name {
			t.Errorf("adapter (%s, %s) resolves to %v, want %s", want.action, want.venue, e, name)
		}
	}
	// Without a helper there is no V3 liquidity adapter; without a wallet no writes.
	env := *f.env
	env.Venues.UniswapV3LiquidityHelper = common.Address{}
	for _, tl := range catalog.Tools(&env) {
		if tl.Def.Name == "uniswap_add_v3_liquidity" {
			t.Error("uniswap_add_v3_liquidity registered without a liquidity helper")
		}
	}
}

type amt struct {
	Raw       string `json:"raw"`
	Formatted string `json:"formatted"`
}

func (a amt) big(t *testing.T) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(a.Raw, 10)
	if !ok {
		t.Fatalf("amount %q", a.Raw)
	}
	return v
}

type tokenOut struct {
	Address  string `json:"address"`
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
}

type quotes struct {
	Quotes []struct {
		Venue     string `json:"venue"`
		Pool      string `json:"pool"`
		Fee       int64  `json:"fee"`
		AmountOut amt    `json:"amount_out"`
	} `json:"quotes"`
	Unavailable []string `json:"unavailable"`
}

func (f *baseFixture) quote(t *testing.T, version string, in, out common.Address, amount *big.Int) *big.Int {
	t.Helper()
	var q quotes
	f.read(t, "uniswap_get_quote", argsOf("token_in", in, "token_out", out, "amount_in", amount, "version", version), &q)
	if len(q.Quotes) != 1 {
		t.Fatalf("%s quote: %+v", version, q)
	}
	return q.Quotes[0].AmountOut.big(t)
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

func fl(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func TestUniswapReads(t *testing.T) {
	f := base(t)
	c := f.c
	t.Run("pools", func(t *testing.T) {
		var got struct {
			Pools []struct {
				Version   string `json:"version"`
				Address   string `json:"address"`
				Fee       int64  `json:"fee"`
				ReserveA  string `json:"reserve_a"`
				Liquidity string `json:"liquidity"`
			} `json:"pools"`
		}
		f.read(t, "uniswap_get_pools_by_token_pair", argsOf("token_a", c.WETH, "token_b", c.USDC), &got)
		if len(got.Pools) != 2 || got.Pools[0].Version != "v2" || common.HexToAddress(got.Pools[0].Address) != c.UniswapV2PairUSDCWETH ||
			got.Pools[1].Version != "v3" || common.HexToAddress(got.Pools[1].Address) != c.UniswapV3PoolUSDCWETH || got.Pools[1].Fee != 3000 {
			t.Errorf("pools = %+v", got.Pools)
		}
		f.read(t, "uniswap_get_pools_by_token_pair", argsOf("token_a", c.WBTC, "token_b", c.USDC), &got)
		if len(got.Pools) != 0 {
			t.Errorf("WBTC/USDC has no pool, got %+v", got.Pools)
		}
	})
	t.Run("pool info v3", func(t *testing.T) {
		var got struct {
			Version      string   `json:"version"`
			Token0       tokenOut `json:"token0"`
			Token1       tokenOut `json:"token1"`
			Fee          int64    `json:"fee"`
			TickSpacing  int64    `json:"tick_spacing"`
			Price0       string   `json:"price0"`
			Price1       string   `json:"price1"`
			SqrtPriceX96 string   `json:"sqrt_price_x96"`
			TVL          float64  `json:"tvl_usd"`
		}
		f.read(t, "uniswap_get_pool_info", argsOf("pool_address", c.UniswapV3PoolUSDCWETH), &got)
		wethPrice := fl(got.Price0)
		if got.Token0.Symbol == "USDC" {
			wethPrice = fl(got.Price1)
		}
		if got.Version != "v3" || got.Fee != 3000 || got.TickSpacing != 60 || !near(wethPrice, 3000, 0.05) || !near(got.TVL, 6_000_000, 0.05) {
			t.Errorf("pool info = %+v", got)
		}
	})
	t.Run("pool info v2 and reserves", func(t *testing.T) {
		var info struct {
			Version  string `json:"version"`
			Reserve0 amt    `json:"reserve0"`
		}
		f.read(t, "uniswap_get_pool_info", argsOf("pool_address", c.UniswapV2PairDAIUSDC), &info)
		var res struct {
			Pair     string `json:"pair"`
			Reserve0 amt    `json:"reserve0"`
			Price0   string `json:"price0"`
		}
		f.read(t, "uniswap_get_pair_reserves", argsOf("token_a", c.USDC, "token_b", c.DAI), &res)
		if info.Version != "v2" || info.Reserve0.Raw != res.Reserve0.Raw || common.HexToAddress(res.Pair) != c.UniswapV2PairDAIUSDC || !near(fl(res.Price0), 1, 0.02) {
			t.Errorf("pool info %+v, reserves %+v", info, res)
		}
		if err := f.readErr(t, "uniswap_get_pool_info", argsOf("pool_address", c.USDC), &info); err == nil {
			t.Error("a token was described as a pool")
		}
	})
	t.Run("quotes and impact", func(t *testing.T) {
		in := units(1, 18)
		var q quotes
		f.read(t, "uniswap_get_quote", argsOf("token_in", c.WETH, "token_out", c.USDC, "amount_in", in), &q)
		if len(q.Quotes) != 2 || q.Quotes[0].AmountOut.big(t).Cmp(q.Quotes[1].AmountOut.big(t)) < 0 {
			t.Fatalf("quotes = %+v, want both venues, best first", q)
		}
		// The V2 quote is the constant-product formula on the pair's reserves.
		pair := f.v2Reserves(t, c.UniswapV2PairUSDCWETH, c.WETH)
		want := new(big.Int).Mul(in, big.NewInt(997))
		want.Mul(want, pair[1])
		want.Quo(want, new(big.Int).Add(new(big.Int).Mul(pair[0], big.NewInt(1000)), new(big.Int).Mul(in, big.NewInt(997))))
		for _, x := range q.Quotes {
			if x.Venue == "uniswap_v2" && x.AmountOut.big(t).Cmp(want) != 0 {
				t.Errorf("V2 quote %s, want %s", x.AmountOut.Raw, want)
			}
		}
		var imp struct {
			Venues []struct {
				Venue        string   `json:"venue"`
				ImpactBps    float64  `json:"price_impact_bps"`
				TotalCostBps float64  `json:"total_cost_bps"`
				VsOracleBps  *float64 `json:"vs_oracle_bps"`
				MidPrice     string   `json:"mid_price"`
			} `json:"venues"`
		}
		f.read(t, "uniswap_compute_price_impact", argsOf("token_in", c.WETH, "token_out", c.USDC, "amount_in", units(10, 18)), &imp)
		if len(imp.Venues) != 2 {
			t.Fatalf("impact = %+v", imp)
		}
		for _, v := range imp.Venues {
			// 10 of 1,000 WETH of depth: about 1 % impact, plus the 0.3 % fee.
			if !near(v.ImpactBps, 99, 0.15) || !near(v.TotalCostBps, v.ImpactBps+30, 0.05) || v.VsOracleBps == nil || !near(fl(v.MidPrice), 3000, 0.05) {
				t.Errorf("%s: %+v", v.Venue, v)
			}
		}
		if err := f.readErr(t, "uniswap_get_quote", argsOf("token_in", c.WBTC, "token_out", c.USDC, "amount_in", "1", "version", "v3"), &q); err != nil || len(q.Quotes) != 0 || len(q.Unavailable) != 1 {
			t.Errorf("a pair without pools: %+v, %v", q, err)
		}
	})
}

// v2Reserves returns a pair's reserves ordered (tokenIn, other).
func (f *baseFixture) v2Reserves(t *testing.T, pair, tokenIn common.Address) [2]*big.Int {
	t.Helper()
	v := f.call(t, chain.UniswapV2PairABI(), pair, "getReserves")
	t0 := f.call(t, chain.UniswapV2PairABI(), pair, "token0")[0].(common.Address)
	r0, r1 := v[0].(*big.Int), v[1].(*big.Int)
	if t0 == tokenIn {
		return [2]*big.Int{r0, r1}
	}
	return [2]*big.Int{r1, r0}
}

// call is a view call for the tests' own checks.
func (f *baseFixture) call(t *testing.T, a *chain.ABI, to common.Address, method string, args ...any) []any {
	t.Helper()
	data, err := a.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.env.Chain.Call(t.Context(), callMsg(to, data))
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	v, err := a.Unpack(method, out)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return v
}

type writeOut struct {
	TxHashes []string          `json:"tx_hashes"`
	Deltas   map[string]string `json:"balance_deltas"`
	Verified bool              `json:"verified"`
}

// TestSwaps swaps on each venue and checks the output is exactly the
// quote (the chain is otherwise idle between quote and swap) and at
// least the plan's minimum.
func TestSwaps(t *testing.T) {
	f := base(t)
	c := f.c
	for _, s := range []struct {
		tool, version string
		in, out       common.Address
		amount        *big.Int
		spender       common.Address
	}{
		{"uniswap_execute_swap", "v3", c.WETH, c.USDC, units(1, 18), c.UniswapV3SwapRouter},
		{"uniswap_execute_swap", "v3", c.USDC, c.WETH, units(2_500, 6), c.UniswapV3SwapRouter},
		{"uniswap_execute_v2_swap", "v2", c.USDC, c.WETH, units(3_000, 6), c.UniswapV2Router},
		{"uniswap_execute_v2_swap", "v2", c.WETH, c.USDC, units(1, 17), c.UniswapV2Router},
	} {
		t.Run(s.tool+" "+s.version, func(t *testing.T) {
			quoted := f.quote(t, s.version, s.in, s.out, s.amount)
			allowance := f.call(t, chain.ERC20ABI(), s.in, "allowance", f.wallet(), s.spender)[0].(*big.Int)
			args := argsOf("token_in", s.in, "token_out", s.out, "amount_in", s.amount, "slippage_bps", 30)
			p, _, err := f.plan(t, s.tool, args)
			if err != nil {
				t.Fatal(err)
			}
			wantTxs := 1
			if allowance.Cmp(s.amount) < 0 {
				wantTxs = 2
				if allowance.Sign() > 0 {
					wantTxs = 3
				}
			}
			minOut := new(big.Int).Quo(new(big.Int).Mul(quoted, big.NewInt(9970)), big.NewInt(10000))
			if len(p.Txs) != wantTxs || p.Txs[len(p.Txs)-1].Label != "swap" ||
				len(p.Tokens) != 2 || !p.Tokens[0].Out || p.Tokens[0].Amount.Cmp(s.amount) != 0 ||
				p.Tokens[1].Out || p.Tokens[1].Amount.Cmp(minOut) != 0 || p.ValueCents <= 0 {
				t.Fatalf("plan = %+v (allowance %s)", p, allowance)
			}
			beforeIn, beforeOut := f.balance(t, s.in, f.wallet()), f.balance(t, s.out, f.wallet())
			var out writeOut
			f.commit(t, s.tool, args, &out)
			gotOut := new(big.Int).Sub(f.balance(t, s.out, f.wallet()), beforeOut)
			gotIn := new(big.Int).Sub(beforeIn, f.balance(t, s.in, f.wallet()))
			if gotOut.Cmp(quoted) != 0 || gotIn.Cmp(s.amount) != 0 || !out.Verified {
				t.Errorf("swap paid %s for %s; quoted %s for %s (verified %v)", gotOut, gotIn, quoted, s.amount, out.Verified)
			}
			if rest := f.call(t, chain.ERC20ABI(), s.in, "allowance", f.wallet(), s.spender)[0].(*big.Int); rest.Cmp(allowance) > 0 && wantTxs == 1 {
				t.Errorf("allowance grew without an approve: %s", rest)
			}
		})
	}
}

// TestSwapImpossibleMinimum: a minimum above the quote makes a plan whose
// simulation reverts with the router's reason.
func TestSwapImpossibleMinimum(t *testing.T) {
	f := base(t)
	c := f.c
	for _, s := range []struct {
		tool, version, reason string
	}{
		{"uniswap_execute_swap", "v3", "Too little received"},
		{"uniswap_execute_v2_swap", "v2", "UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT"},
	} {
		t.Run(s.tool, func(t *testing.T) {
			amount := units(100, 6)
			quoted := f.quote(t, s.version, c.USDC, c.WETH, amount)
			floor := new(big.Int).Mul(quoted, big.NewInt(2))
			p, _, err := f.plan(t, s.tool, argsOf("token_in", c.USDC, "token_out", c.WETH, "amount_in", amount, "min_amount_out", floor))
			if err != nil {
				t.Fatal(err)
			}
			if p.Tokens[1].Amount.Cmp(floor) != 0 {
				t.Errorf("plan minimum %s, want the given floor %s", p.Tokens[1].Amount, floor)
			}
			res, err := f.env.Sim.Simulate(t.Context(), p.Chain, p.From, p.Txs, []tool.Address{tool.Address(c.WETH)})
			if err != nil {
				t.Fatal(err)
			}
			if res.OK || res.Reverted != len(p.Txs)-1 || res.RevertReason != s.reason {
				t.Errorf("simulation = ok %v, reverted tx %d with %q; want the swap to revert with %q", res.OK, res.Reverted, res.RevertReason, s.reason)
			}
		})
	}
	// And the planner refuses what it can see is wrong.
	for name, args := range map[string]string{
		"same token":  argsOf("token_in", c.USDC, "token_out", c.USDC, "amount_in", "1"),
		"zero":        argsOf("token_in", c.USDC, "token_out", c.WETH, "amount_in", "0"),
		"no pool":     argsOf("token_in", c.WBTC, "token_out", c.USDC, "amount_in", "1000"),
		"too much":    argsOf("token_in", c.USDC, "token_out", c.WETH, "amount_in", units(10_000_000, 6)),
		"not a token": argsOf("token_in", recipient, "token_out", c.WETH, "amount_in", "1"),
	} {
		if _, _, err := f.plan(t, "uniswap_execute_swap", args); err == nil {
			t.Errorf("%s: swap planned", name)
		}
	}
}

func TestV2LiquidityRoundTrip(t *testing.T) {
	f := base(t)
	c := f.c
	pair := c.UniswapV2PairUSDCWETH
	lp0 := f.balance(t, pair, f.wallet())
	usdc0, weth0 := f.balance(t, c.USDC, f.wallet()), f.balance(t, c.WETH, f.wallet())
	// Desire 5,000 USDC and 1 WETH: WETH binds, about 3,000 USDC go in.
	p := f.commit(t, "uniswap_add_liquidity", argsOf("token_a", c.USDC, "token_b", c.WETH,
		"amount_a_desired", units(5_000, 6), "amount_b_desired", units(1, 18), "token_a_symbol", "USDC", "token_a_decimals", 6), nil)
	minted := new(big.Int).Sub(f.balance(t, pair, f.wallet()), lp0)
	if minted.Sign() <= 0 || minted.Cmp(p.Tokens[2].Amount) < 0 || p.Tokens[0].Symbol != "USDC" || p.Tokens[0].Decimals != 6 {
		t.Fatalf("minted %s LP, plan %+v", minted, p)
	}
	spentUSDC := new(big.Int).Sub(usdc0, f.balance(t, c.USDC, f.wallet()))
	spentWETH := new(big.Int).Sub(weth0, f.balance(t, c.WETH, f.wallet()))
	// The router re-derives the WETH side from the USDC amount, so it may
	// take a few wei less than planned, never more.
	if spentWETH.Cmp(p.Tokens[1].Amount) > 0 || !near(fl(spentWETH.String()), 1e18, 1e-9) ||
		!near(float64(spentUSDC.Int64()), 3_000e6, 0.05) || spentUSDC.Cmp(p.Tokens[0].Amount) > 0 {
		t.Errorf("spent %s USDC and %s WETH", spentUSDC, spentWETH)
	}

	var pos struct {
		Version   string  `json:"version"`
		LPBalance amt     `json:"lp_balance"`
		Amount0   amt     `json:"amount0"`
		Amount1   amt     `json:"amount1"`
		ValueUSD  float64 `json:"value_usd"`
	}
	f.read(t, "uniswap_get_lp_position", argsOf("token_a", c.WETH, "token_b", c.USDC), &pos)
	if pos.Version != "v2" || pos.LPBalance.big(t).Cmp(new(big.Int).Add(lp0, minted)) != 0 || !near(pos.ValueUSD, 6_000, 0.05) {
		t.Errorf("position = %+v", pos)
	}

	var out writeOut
	f.commit(t, "uniswap_remove_liquidity", argsOf("pair", pair, "liquidity", "max"), &out)
	if got := f.balance(t, pair, f.wallet()); got.Sign() != 0 || !out.Verified {
		t.Errorf("LP left after removing max: %s (verified %v)", got, out.Verified)
	}
	backUSDC := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), new(big.Int).Sub(usdc0, spentUSDC))
	backWETH := new(big.Int).Sub(f.balance(t, c.WETH, f.wallet()), new(big.Int).Sub(weth0, spentWETH))
	if !near(float64(backUSDC.Int64()), float64(spentUSDC.Int64()), 0.001) || !near(fl(backWETH.String()), fl(spentWETH.String()), 0.001) {
		t.Errorf("removing returned %s USDC and %s WETH for %s and %s added", backUSDC, backWETH, spentUSDC, spentWETH)
	}
	if _, _, err := f.plan(t, "uniswap_remove_liquidity", argsOf("pair", pair, "liquidity", "max")); err == nil {
		t.Error("removing from an empty position was planned")
	}
	if _, _, err := f.plan(t, "uniswap_add_liquidity", argsOf("token_a", c.WBTC, "token_b", c.USDC, "amount_a_desired", "1", "amount_b_desired", "1")); err == nil {
		t.Error("adding to a pair that does not exist was planned")
	}
}

func TestV3LiquidityRoundTrip(t *testing.T) {
	f := base(t)
	c := f.c
	pool := c.UniswapV3PoolUSDCWETH
	var info struct {
		Token0 tokenOut `json:"token0"`
	}
	f.read(t, "uniswap_get_pool_info", argsOf("pool_address", pool), &info)
	max0, max1 := units(1, 18), units(10_000, 6) // WETH, USDC
	t0, t1 := c.WETH, c.USDC
	if common.HexToAddress(info.Token0.Address) == c.USDC {
		max0, max1, t0, t1 = max1, max0, c.USDC, c.WETH
	}
	b0, b1 := f.balance(t, t0, f.wallet()), f.balance(t, t1, f.wallet())
	p := f.commit(t, "uniswap_add_v3_liquidity", argsOf("pool", pool, "amount0_max", max0, "amount1_max", max1), nil)
	spent0 := new(big.Int).Sub(b0, f.balance(t, t0, f.wallet()))
	spent1 := new(big.Int).Sub(b1, f.balance(t, t1, f.wallet()))
	if spent0.Cmp(p.Tokens[0].Amount) != 0 || spent1.Cmp(p.Tokens[1].Amount) != 0 {
		t.Errorf("spent %s and %s, planned %s and %s", spent0, spent1, p.Tokens[0].Amount, p.Tokens[1].Amount)
	}
	var pos struct {
		Version   string  `json:"version"`
		Liquidity string  `json:"liquidity"`
		InRange   bool    `json:"in_range"`
		Amount0   amt     `json:"amount0"`
		ValueUSD  float64 `json:"value_usd"`
	}
	f.read(t, "uniswap_get_lp_position", argsOf("pool", pool), &pos)
	if pos.Version != "v3" || pos.Liquidity == "0" || !pos.InRange || !near(pos.ValueUSD, 6_000, 0.05) {
		t.Errorf("position = %+v", pos)
	}
	// A swap through the pool earns the position a share of the fee.
	f.commit(t, "uniswap_execute_swap", argsOf("token_in", c.USDC, "token_out", c.WETH, "amount_in", units(30_000, 6)), nil)
	var out writeOut
	f.commit(t, "uniswap_remove_v3_liquidity", argsOf("pool", pool, "liquidity", "max"), &out)
	f.read(t, "uniswap_get_lp_position", argsOf("pool", pool), &pos)
	if pos.Liquidity != "0" || !out.Verified {
		t.Errorf("after removing max: %+v (verified %v)", pos, out.Verified)
	}
	if _, _, err := f.plan(t, "uniswap_remove_v3_liquidity", argsOf("pool", pool, "liquidity", "max")); err == nil {
		t.Error("removing from an empty position was planned")
	}
}

func TestVaultRoundTrip(t *testing.T) {
	f := base(t)
	c := f.c
	var info struct {
		Vaults []struct {
			Vault      string   `json:"vault"`
			Asset      tokenOut `json:"asset"`
			SharePrice string   `json:"share_price"`
			MaxDeposit string   `json:"max_deposit"`
		} `json:"vaults"`
	}
	f.read(t, "vault_get_info", `{}`, &info)
	if len(info.Vaults) != 1 || common.HexToAddress(info.Vaults[0].Asset.Address) != c.USDC || info.Vaults[0].MaxDeposit != "unlimited" || fl(info.Vaults[0].SharePrice) < 1 {
		t.Fatalf("vaults = %+v", info)
	}
	assets := units(1_000, 6)
	var prev struct {
		Shares amt `json:"shares"`
	}
	f.read(t, "vault_preview_deposit", argsOf("assets", assets), &prev)
	shares0 := f.balance(t, c.VaultUSDC, f.wallet())
	usdc0 := f.balance(t, c.USDC, f.wallet())
	var out writeOut
	p := f.commit(t, "vault_deposit", argsOf("assets", assets, "asset_symbol", "USDC"), &out)
	got := new(big.Int).Sub(f.balance(t, c.VaultUSDC, f.wallet()), shares0)
	if got.Cmp(prev.Shares.big(t)) != 0 || !out.Verified || p.ValueCents != 100_000 || p.Tokens[0].Symbol != "USDC" {
		t.Errorf("deposit minted %s shares, previewed %s (verified %v, plan %+v)", got, prev.Shares.Raw, out.Verified, p)
	}

	var pos struct {
		Positions []struct {
			Shares amt     `json:"shares"`
			Assets amt     `json:"assets"`
			Value  float64 `json:"value_usd"`
		} `json:"positions"`
	}
	f.read(t, "vault_get_position", argsOf("vault", c.VaultUSDC), &pos)
	if len(pos.Positions) != 1 || pos.Positions[0].Shares.big(t).Cmp(new(big.Int).Add(shares0, got)) != 0 || !near(pos.Positions[0].Value, 1_000, 0.01) {
		t.Errorf("position = %+v", pos)
	}

	f.commit(t, "vault_withdraw", argsOf("assets", units(400, 6)), &out)
	if d := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), new(big.Int).Sub(usdc0, assets)); d.Cmp(units(400, 6)) != 0 || !out.Verified {
		t.Errorf("withdraw returned %s, want exactly 400 USDC", d)
	}
	var red struct {
		Assets amt `json:"assets"`
	}
	rest := f.balance(t, c.VaultUSDC, f.wallet())
	f.read(t, "vault_preview_redeem", argsOf("shares", rest), &red)
	before := f.balance(t, c.USDC, f.wallet())
	f.commit(t, "vault_redeem", argsOf("shares", "max"), &out)
	if d := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), before); d.Cmp(red.Assets.big(t)) != 0 || !out.Verified {
		t.Errorf("redeem paid %s, previewed %s", d, red.Assets.Raw)
	}
	if s := f.balance(t, c.VaultUSDC, f.wallet()); s.Sign() != 0 {
		t.Errorf("%s shares left after redeeming max", s)
	}
	// Deposit then redeem gives back the deposit, less at most a unit of rounding per step.
	if loss := new(big.Int).Sub(usdc0, f.balance(t, c.USDC, f.wallet())); loss.Sign() < 0 || loss.Cmp(big.NewInt(3)) > 0 {
		t.Errorf("round trip cost %s base units of USDC", loss)
	}
	if _, _, err := f.plan(t, "vault_redeem", argsOf("shares", "max")); err == nil {
		t.Error("redeeming an empty position was planned")
	}
	if _, _, err := f.plan(t, "vault_deposit", argsOf("assets", units(10_000_000, 6))); err == nil {
		t.Error("depositing more than the wallet holds was planned")
	}
}

type account struct {
	Collateral   string `json:"total_collateral_usd"`
	Debt         string `json:"total_debt_usd"`
	Available    string `json:"available_borrows_usd"`
	HF           string `json:"health_factor"`
	Liquidatable bool   `json:"liquidatable"`
	Positions    []struct {
		Asset    tokenOut `json:"asset"`
		Supplied amt      `json:"supplied"`
		Borrowed amt      `json:"borrowed"`
	} `json:"positions"`
}

func TestAaveLifecycle(t *testing.T) {
	f := base(t)
	c := f.c
	var a account
	f.read(t, "aave_get_account_data", `{}`, &a)
	if a.HF != "infinite" || a.Debt != "0" || len(a.Positions) != 0 {
		t.Fatalf("fresh account = %+v", a)
	}
	var res struct {
		Reserves []struct {
			Asset     tokenOut `json:"asset"`
			LTV       string   `json:"ltv_percent"`
			Threshold string   `json:"liquidation_threshold_percent"`
			Bonus     string   `json:"liquidation_bonus_percent"`
			Borrowing bool     `json:"borrowing_enabled"`
			Price     string   `json:"price_usd"`
		} `json:"reserves"`
	}
	f.read(t, "aave_get_reserve_data", argsOf("asset", c.WETH), &res)
	if len(res.Reserves) != 1 || res.Reserves[0].LTV != "80" || res.Reserves[0].Threshold != "82.5" || res.Reserves[0].Bonus != "5" || !res.Reserves[0].Borrowing {
		t.Fatalf("WETH reserve = %+v", res)
	}
	price := fl(res.Reserves[0].Price)

	// Supply 10 WETH, borrow half their value in USDC.
	aweth0 := f.balance(t, c.AaveAWETH, f.wallet())
	f.commit(t, "aave_supply_collateral", argsOf("asset", c.WETH, "amount", units(10, 18), "asset_symbol", "WETH", "asset_decimals", 18), nil)
	if got := new(big.Int).Sub(f.balance(t, c.AaveAWETH, f.wallet()), aweth0); got.Cmp(units(10, 18)) != 0 {
		t.Errorf("aWETH minted %s, want 10", got)
	}
	borrow := int64(price * 10 / 2)
	if _, _, err := f.plan(t, "aave_borrow_asset", argsOf("asset", c.USDC, "amount", units(int64(price*10*0.81), 6))); err == nil {
		t.Error("a borrow beyond the LTV was planned")
	}
	usdc0 := f.balance(t, c.USDC, f.wallet())
	p := f.commit(t, "aave_borrow_asset", argsOf("asset", c.USDC, "amount", units(borrow, 6)), nil)
	if got := new(big.Int).Sub(f.balance(t, c.USDC, f.wallet()), usdc0); got.Cmp(units(borrow, 6)) != 0 {
		t.Errorf("borrow paid %s USDC, want %d", got, borrow)
	}
	if !strings.Contains(p.Summary, "-> 1.65") {
		t.Errorf("borrow summary %q does not predict a health factor of 1.65", p.Summary)
	}
	f.read(t, "aave_get_account_data", `{}`, &a)
	hf := fl(a.Collateral) * 0.825 / fl(a.Debt)
	if !near(fl(a.Debt), float64(borrow), 1e-9) || !near(fl(a.HF), 1.65, 1e-3) || !near(fl(a.HF), hf, 1e-5) || a.Liquidatable || len(a.Positions) != 2 {
		t.Errorf("account after borrow = %+v (want debt %d, health factor about %.4f)", a, borrow, hf)
	}

	// Withdrawing 8 of the 10 WETH would leave the debt under-collateralised.
	_, _, err := f.plan(t, "aave_withdraw_collateral", argsOf("asset", c.WETH, "amount", units(8, 18)))
	if err == nil || !strings.Contains(err.Error(), "below 1.0") {
		t.Errorf("withdrawal below a health factor of 1: %v, want a refusal", err)
	}
	// 2 WETH is safe: 8 * 0.825 / 4 = 1.32.
	wp := f.commit(t, "aave_withdraw_collateral", argsOf("asset", c.WETH, "amount", units(2, 18)), nil)
	if !strings.Contains(wp.Summary, "-> 1.32") {
		t.Errorf("withdraw summary %q does not predict 1.32", wp.Summary)
	}

	// Repay everything, then withdraw everything.
	var out writeOut
	f.commit(t, "aave_repay_debt", argsOf("asset", c.USDC, "amount", "max"), &out)
	f.read(t, "aave_get_account_data", `{}`, &a)
	if a.Debt != "0" || a.HF != "infinite" || !out.Verified {
		t.Errorf("account after repaying max = %+v", a)
	}
	f.commit(t, "aave_withdraw_collateral", argsOf("asset", c.WETH, "amount", "max"), &out)
	f.read(t, "aave_get_account_data", `{}`, &a)
	if len(a.Positions) != 0 || a.Collateral != "0" || !out.Verified {
		t.Errorf("account after withdrawing max = %+v", a)
	}
	if _, _, err := f.plan(t, "aave_repay_debt", argsOf("asset", c.USDC, "amount", "max")); err == nil {
		t.Error("repaying without debt was planned")
	}
}

func TestAaveLiquidation(t *testing.T) {
	f := base(t)
	c := f.c
	var tp struct {
		PriceUSD float64 `json:"price_usd"`
	}
	f.read(t, "data_get_token_price", argsOf("token", c.WETH), &tp)
	price := tp.PriceUSD
	// Deferred rather than a cleanup: the test's context still lives.
	defer f.commit(t, "testnet_set_price", argsOf("token", c.WETH, "price", strconv.FormatFloat(price, 'f', -1, 64)), nil)

	// A borrower with 1 WETH of collateral and 79 % of its value borrowed.
	key, err := chain.NewLocalSigner(common.Bytes2Hex(crypto.Keccak256([]byte("ward defi test borrower"))))
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()
	borrower := key.Address()
	bw, err := chain.NewWallet(key, f.env.Chain, chain.WalletConfig{})
	if err != nil {
		t.Fatal(err)
	}
	fund := []tool.Tx{
		{To: tool.Address(borrower), Value: units(1, 18), Label: "gas money"},
		txOf(t, chain.ERC20ABI(), c.WETH, "transfer", borrower, units(1, 18)),
	}
	send(t, f.env.Wallet, fund)
	debt := units(int64(price*0.79), 6)
	send(t, bw, []tool.Tx{
		txOf(t, chain.ERC20ABI(), c.WETH, "approve", c.AavePool, units(1, 18)),
		txOf(t, chain.AaveV3PoolABI(), c.AavePool, "supply", c.WETH, units(1, 18), borrower, uint16(0)),
		txOf(t, chain.AaveV3PoolABI(), c.AavePool, "borrow", c.USDC, debt, big.NewInt(2), uint16(0), borrower),
	})

	liq := argsOf("user", borrower, "collateral_asset", c.WETH, "debt_asset", c.USDC, "debt_to_cover", "max")
	if _, _, err := f.plan(t, "aave_liquidate_position", liq); err == nil || !strings.Contains(err.Error(), "not below 1") {
		t.Errorf("liquidating a healthy account: %v, want a refusal", err)
	}

	// ETH falls 7 %: the borrower's health factor is about 0.825 * 0.93 / 0.79 = 0.97.
	f.commit(t, "testnet_set_price", argsOf("token", c.WETH, "price", strconv.FormatFloat(price*0.93, 'f', 2, 64)), nil)
	var a account
	f.read(t, "aave_get_account_data", argsOf("user", borrower), &a)
	if !a.Liquidatable || !near(fl(a.HF), 0.825*0.93/0.79, 0.01) {
		t.Fatalf("borrower after the drop = %+v", a)
	}
	usdc0, weth0 := f.balance(t, c.USDC, f.wallet()), f.balance(t, c.WETH, f.wallet())
	var out writeOut
	p := f.commit(t, "aave_liquidate_position", liq, &out)
	paid := new(big.Int).Sub(usdc0, f.balance(t, c.USDC, f.wallet()))
	got := new(big.Int).Sub(f.balance(t, c.WETH, f.wallet()), weth0)
	half := new(big.Int).Quo(new(big.Int).Add(debt, big.NewInt(1)), big.NewInt(2))
	// The collateral seized is the debt's value plus the 5 % bonus.
	wantWETH := fl(half.String()) / 1e6 / (price * 0.93) * 1.05
	if paid.Cmp(half) != 0 || !near(fl(got.String())/1e18, wantWETH, 1e-3) || got.Cmp(p.Tokens[1].Amount) < 0 || !out.Verified {
		t.Errorf("liquidation paid %s USDC for %s WETH; want half the debt (%s) for about %.6f WETH (plan minimum %s)", paid, got, half, wantWETH, p.Tokens[1].Amount)
	}
	f.read(t, "aave_get_account_data", argsOf("user", borrower), &a)
	if a.Liquidatable {
		t.Errorf("borrower still liquidatable after the liquidation: %+v", a)
	}
}

func txOf(t *testing.T, a *chain.ABI, to common.Address, method string, args ...any) tool.Tx {
	t.Helper()
	data, err := a.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Tx{To: tool.Address(to), Data: data, Label: method}
}

// send sends txs from w with a capability minted for the test.
//
// A wallet funded by the transaction just before may be refused
// "insufficient funds" for a moment: the dev node's transaction pool
// moves to a new head after the block's receipts are answered. send
// retries that refusal, and only that one, for up to 5 s when nothing of
// txs was sent.
func send(t *testing.T, w *chain.Wallet, txs []tool.Tx) {
	t.Helper()
	h := [32]byte{1}
	deadline := time.Now().Add(5 * time.Second)
	for {
		now := time.Now()
		c := mint.Capability(mint.Fields{PermitID: "test", Tool: "test_setup", ArgsHash: h, ExpiresAt: now.Add(time.Minute)})
		rs, err := w.Send(t.Context(), c, chain.Scope{Tool: "test_setup", ArgsHash: h, Now: now}, txs)
		if err == nil {
			return
		}
		if len(rs) > 0 || !strings.Contains(err.Error(), "insufficient funds") || now.After(deadline) {
			t.Fatalf("send: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func callMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}

// TestUnpricedPlan: without feeds a plan's value is -1, never 0.
func TestUnpricedPlan(t *testing.T) {
	f := base(t)
	env := *f.env
	env.Tokens, env.Venues.ETHFeed = nil, common.Address{}
	for _, tl := range catalog.Tools(&env) {
		switch tl.Def.Name {
		case "uniswap_execute_swap", "vault_deposit", "aave_supply_collateral":
		default:
			continue
		}
		args := map[string]string{
			"uniswap_execute_swap":   argsOf("token_in", f.c.USDC, "token_out", f.c.WETH, "amount_in", units(10, 6)),
			"vault_deposit":          argsOf("assets", units(10, 6)),
			"aave_supply_collateral": argsOf("asset", f.c.USDC, "amount", units(10, 6)),
		}[tl.Def.Name]
		p, err := tl.Plan(t.Context(), input(t, args))
		if err != nil {
			t.Fatalf("%s: %v", tl.Def.Name, err)
		}
		if p.ValueCents != -1 {
			t.Errorf("%s without price feeds: value %d cents, want -1", tl.Def.Name, p.ValueCents)
		}
		if len(p.Unpriced) == 0 || p.Unpriced[0].Token != tool.Address(f.c.USDC) || !strings.Contains(p.Unpriced[0].Why, "not in the chain's token list") {
			t.Errorf("%s: unpriced = %+v, want USDC and what to configure", tl.Def.Name, p.Unpriced)
		}
	}
}

// TestProgressSteps: a planner announces the steps before sending, the
// write handler the last two, in order; reads stay within their steps.
func TestProgressSteps(t *testing.T) {
	f := base(t)
	record := func(in *registry.Input) *[]int {
		var got []int
		in.Step = func(i int) { got = append(got, i) }
		return &got
	}
	name := "vault_deposit"
	args := argsOf("assets", units(5, 6))
	e := f.entry(t, name)
	in := input(t, args)
	got := record(in)
	p, err := e.Plan(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Write(t.Context(), in, p, capFor(name, in)); err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 3}; !slices.Equal(*got, want) {
		t.Errorf("%s steps = %v, want %v", name, *got, want)
	}
	f.commit(t, "vault_redeem", argsOf("shares", "max"), nil)

	for name, args := range map[string]string{
		"uniswap_get_pools_by_token_pair": argsOf("token_a", f.c.WETH, "token_b", f.c.USDC),
		"uniswap_get_pool_info":           argsOf("pool_address", f.c.UniswapV3PoolUSDCWETH),
		"uniswap_compute_price_impact":    argsOf("token_in", f.c.WETH, "token_out", f.c.USDC, "amount_in", units(1, 18)),
		"vault_get_info":                  `{}`,
		"aave_get_account_data":           `{}`,
		"aave_get_reserve_data":           `{}`,
	} {
		e := f.entry(t, name)
		in := input(t, args)
		got := record(in)
		if _, err := e.Read(t.Context(), in); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(*got) == 0 || !slices.IsSorted(*got) || (*got)[len(*got)-1] >= len(e.Def.ProgressSteps) {
			t.Errorf("%s steps = %v of %d", name, *got, len(e.Def.ProgressSteps))
		}
	}
}
