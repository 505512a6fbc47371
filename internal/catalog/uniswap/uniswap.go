package uniswap

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// v3FeeTiers are the fee tiers (hundredths of a bip) searched when a call
// names none.
var FeeTiers = []int64{100, 500, 3000, 10000}

// v2Fee is Uniswap V2's swap fee in hundredths of a bip.
const v2Fee = 3000

// v2PairState is a V2 pair as read from the chain.
type v2PairState struct {
	address            common.Address
	token0, token1     common.Address
	reserve0, reserve1 *big.Int
	totalSupply        *big.Int
	timestampLast      uint32
}

func readV2Pair(ctx context.Context, env *native.Env, pair common.Address) (v2PairState, error) {
	a := chain.UniswapV2PairABI()
	s := v2PairState{address: pair}
	r, err := native.Call(ctx, env.Chain, a, pair, "getReserves")
	if err != nil {
		return s, fmt.Errorf("%s is not a Uniswap V2 pair: %w", pair.Hex(), err)
	}
	s.reserve0, s.reserve1, s.timestampLast = r[0].(*big.Int), r[1].(*big.Int), r[2].(uint32)
	if s.token0, err = native.CallAddress(ctx, env, a, pair, "token0"); err != nil {
		return s, err
	}
	if s.token1, err = native.CallAddress(ctx, env, a, pair, "token1"); err != nil {
		return s, err
	}
	v, err := native.Call(ctx, env.Chain, a, pair, "totalSupply")
	if err != nil {
		return s, err
	}
	s.totalSupply = v[0].(*big.Int)
	return s, nil
}

// reservesFor returns the pair's reserves ordered as (tokenA, other).
func (s v2PairState) reservesFor(tokenA common.Address) (*big.Int, *big.Int) {
	if tokenA == s.token0 {
		return s.reserve0, s.reserve1
	}
	return s.reserve1, s.reserve0
}

// v3PoolState is a V3 pool as read from the chain.
type v3PoolState struct {
	address        common.Address
	token0, token1 common.Address
	fee, spacing   int64
	sqrtP          *big.Int
	tick           int64
	liquidity      *big.Int
	fullRange      *[2]int64 // set for ward's dev pools (see v3Pool)
}

func readV3Pool(ctx context.Context, env *native.Env, pool common.Address) (v3PoolState, error) {
	a := chain.UniswapV3PoolABI()
	s := v3PoolState{address: pool}
	slot0, err := native.Call(ctx, env.Chain, a, pool, "slot0")
	if err != nil {
		return s, fmt.Errorf("%s is not a Uniswap V3 pool: %w", pool.Hex(), err)
	}
	s.sqrtP, s.tick = slot0[0].(*big.Int), slot0[1].(*big.Int).Int64()
	if s.sqrtP.Sign() == 0 {
		return s, fmt.Errorf("pool %s is not initialized", pool.Hex())
	}
	if s.token0, err = native.CallAddress(ctx, env, a, pool, "token0"); err != nil {
		return s, err
	}
	if s.token1, err = native.CallAddress(ctx, env, a, pool, "token1"); err != nil {
		return s, err
	}
	for _, f := range []struct {
		m   string
		dst *int64
	}{{"fee", &s.fee}, {"tickSpacing", &s.spacing}} {
		v, err := native.Call(ctx, env.Chain, a, pool, f.m)
		if err != nil {
			return s, err
		}
		*f.dst = v[0].(*big.Int).Int64()
	}
	if s.spacing <= 0 || s.fee < 0 || s.fee >= 1e6 {
		return s, fmt.Errorf("pool %s reports fee %d and tick spacing %d", pool.Hex(), s.fee, s.spacing)
	}
	v, err := native.Call(ctx, env.Chain, a, pool, "liquidity")
	if err != nil {
		return s, err
	}
	s.liquidity = v[0].(*big.Int)
	// Only ward's dev pools answer fullRange(); mainnet pools revert.
	if r, err := native.ExtraCall(ctx, env, pool, "fullRange"); err == nil {
		s.fullRange = &[2]int64{r[0].(*big.Int).Int64(), r[1].(*big.Int).Int64()}
	}
	return s, nil
}

// fullRangeTicks returns the widest usable tick range of a pool: the one
// ward's dev pools require and the full-range position of any pool.
func (s v3PoolState) fullRangeTicks() (int64, int64) {
	if s.fullRange != nil {
		return s.fullRange[0], s.fullRange[1]
	}
	return (minTick / s.spacing) * s.spacing, (maxTick / s.spacing) * s.spacing
}

// chainTicks reads one pool's tick state for quoteV3ExactIn, caching
// bitmap words.
type chainTicks struct {
	env   *native.Env
	pool  common.Address
	words map[int16]*big.Int
}

func (c *chainTicks) bitmapWord(ctx context.Context, w int16) (*big.Int, error) {
	if v, ok := c.words[w]; ok {
		return v, nil
	}
	r, err := native.ExtraCall(ctx, c.env, c.pool, "tickBitmap", w)
	if err != nil {
		return nil, err
	}
	c.words[w] = r[0].(*big.Int)
	return c.words[w], nil
}

func (c *chainTicks) liquidityNet(ctx context.Context, tick int64) (*big.Int, error) {
	r, err := native.Call(ctx, c.env.Chain, chain.UniswapV3PoolABI(), c.pool, "ticks", big.NewInt(tick))
	if err != nil {
		return nil, err
	}
	return r[1].(*big.Int), nil
}

// maxQuoteSteps bounds the tick ranges one V3 quote may cross (each costs
// one or two reads).
const maxQuoteSteps = 64

// quote is one venue's exact-input quote.
type quote struct {
	venue   string
	pool    common.Address
	router  common.Address
	fee     int64 // hundredths of a bip
	out     *big.Int
	midRate *big.Rat // tokenOut base units per tokenIn base unit before the swap
	method  string
	steps   int
	v3Cross int
}

// v2Factory returns the factory behind a V2 router.
func v2FactoryOf(ctx context.Context, env *native.Env, router common.Address) (common.Address, error) {
	if router == env.Venues.UniswapV2Router && env.Venues.UniswapV2Factory != (common.Address{}) {
		return env.Venues.UniswapV2Factory, nil
	}
	return native.CallAddress(ctx, env, chain.UniswapV2Router02ABI(), router, "factory")
}

// v3FactoryOf returns the factory behind a V3 SwapRouter.
func v3FactoryOf(ctx context.Context, env *native.Env, router common.Address) (common.Address, error) {
	if (router == env.Venues.UniswapV3Router || router == env.Venues.UniswapV3SwapRouter02) && env.Venues.UniswapV3Factory != (common.Address{}) {
		return env.Venues.UniswapV3Factory, nil
	}
	return native.CallAddress(ctx, env, chain.UniswapV3SwapRouterABI(), router, "factory")
}

// v2PairOf returns the pair of two tokens, or an error naming the missing
// pair.
func v2PairOf(ctx context.Context, env *native.Env, factory, a, b common.Address) (common.Address, error) {
	pair, err := native.CallAddress(ctx, env, chain.UniswapV2FactoryABI(), factory, "getPair", a, b)
	if err != nil {
		return pair, err
	}
	if pair == (common.Address{}) {
		return pair, fmt.Errorf("no Uniswap V2 pair for %s and %s", a.Hex(), b.Hex())
	}
	return pair, nil
}

// v3PoolOf returns the pool of two tokens at one fee tier.
func v3PoolOf(ctx context.Context, env *native.Env, factory, a, b common.Address, fee int64) (common.Address, error) {
	pool, err := native.CallAddress(ctx, env, chain.UniswapV3FactoryABI(), factory, "getPool", a, b, big.NewInt(fee))
	if err != nil {
		return pool, err
	}
	if pool == (common.Address{}) {
		return pool, fmt.Errorf("no Uniswap V3 pool for %s and %s at fee %d", a.Hex(), b.Hex(), fee)
	}
	return pool, nil
}

// quoteV2 quotes an exact input through a V2 router's getAmountsOut (the
// router's own arithmetic, so the quote is what the swap pays on an
// unchanged pair).
func quoteV2(ctx context.Context, env *native.Env, router, in, out common.Address, amountIn *big.Int) (quote, error) {
	q := quote{venue: "uniswap_v2", router: router, fee: v2Fee, method: "router getAmountsOut"}
	factory, err := v2FactoryOf(ctx, env, router)
	if err != nil {
		return q, err
	}
	if q.pool, err = v2PairOf(ctx, env, factory, in, out); err != nil {
		return q, err
	}
	st, err := readV2Pair(ctx, env, q.pool)
	if err != nil {
		return q, err
	}
	rIn, rOut := st.reservesFor(in)
	if rIn.Sign() == 0 || rOut.Sign() == 0 {
		return q, errors.New("the Uniswap V2 pair has no liquidity")
	}
	q.midRate = new(big.Rat).SetFrac(rOut, rIn)
	v, err := native.Call(ctx, env.Chain, chain.UniswapV2Router02ABI(), router, "getAmountsOut", amountIn, []common.Address{in, out})
	if err != nil {
		return q, err
	}
	amounts := v[0].([]*big.Int)
	if len(amounts) != 2 {
		return q, fmt.Errorf("router %s returned %d amounts for a two-token path", router.Hex(), len(amounts))
	}
	q.out = amounts[1]
	return q, nil
}

// quoteV3 quotes an exact input through one V3 pool by running the pool's
// swap arithmetic in Go over the pool's tick state (see quoteV3ExactIn):
// the output SwapRouter.exactInputSingle pays on an unchanged pool.
func quoteV3(ctx context.Context, env *native.Env, factory, in, out common.Address, fee int64, amountIn *big.Int) (quote, error) {
	q := quote{venue: "uniswap_v3", fee: fee, method: "exact V3 swap computation over the pool's tick state"}
	var err error
	if q.pool, err = v3PoolOf(ctx, env, factory, in, out, fee); err != nil {
		return q, err
	}
	st, err := readV3Pool(ctx, env, q.pool)
	if err != nil {
		return q, err
	}
	zeroForOne := in == st.token0
	p := v3Pool{sqrtP: st.sqrtP, tick: st.tick, liquidity: st.liquidity, fee: st.fee, spacing: st.spacing,
		fullRange: st.fullRange, ticks: &chainTicks{env: env, pool: q.pool, words: map[int16]*big.Int{}}}
	sw, err := quoteV3ExactIn(ctx, p, zeroForOne, amountIn, maxQuoteSteps)
	if err != nil {
		return q, fmt.Errorf("quote through pool %s: %w", q.pool.Hex(), err)
	}
	if sw.amountIn.Cmp(amountIn) < 0 {
		return q, fmt.Errorf("pool %s can absorb only %s of the %s input before its price limit", q.pool.Hex(), sw.amountIn, amountIn)
	}
	q.out, q.v3Cross = sw.amountOut, sw.crossed
	mid := new(big.Rat).SetFrac(new(big.Int).Mul(st.sqrtP, st.sqrtP), new(big.Int).Lsh(native.BigOne, 192))
	if !zeroForOne {
		mid.Inv(mid)
	}
	q.midRate = mid
	return q, nil
}

// quoteV3Best quotes every fee tier with a pool (or only fee when it is
// non-zero) and returns the best.
func quoteV3Best(ctx context.Context, env *native.Env, router, in, out common.Address, fee int64, amountIn *big.Int) (quote, error) {
	factory, err := v3FactoryOf(ctx, env, router)
	if err != nil {
		return quote{}, err
	}
	tiers := FeeTiers
	if fee != 0 {
		tiers = []int64{fee}
	}
	var best quote
	var errs []error
	for _, f := range tiers {
		q, err := quoteV3(ctx, env, factory, in, out, f, amountIn)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if best.out == nil || q.out.Cmp(best.out) > 0 {
			best = q
		}
	}
	if best.out == nil {
		if fee == 0 && len(errs) == len(tiers) {
			return best, fmt.Errorf("no usable Uniswap V3 pool for %s and %s: %w", in.Hex(), out.Hex(), errors.Join(errs...))
		}
		return best, errors.Join(errs...)
	}
	best.router = router
	return best, nil
}

// ---- uniswap_get_pools_by_token_pair ----

var pools = native.ReadTool{
	Name: "uniswap_get_pools_by_token_pair",
	Description: "Find the Uniswap pools that trade two tokens: the V2 pair and the V3 pools at the 0.01%, 0.05%, 0.3% and 1% fee tiers, " +
		"with each pool's address and depth (V2 reserves, V3 active liquidity and price). Use it first whenever another Uniswap tool asks for a pool or pair address. " +
		"Returns an empty list when no pool exists; it does not create pools, quote swaps (use uniswap_get_quote) or read positions.",
	Category: tool.CatData, Budget: tool.Medium,
	Steps:    []string{"Reading the V2 factory", "Reading the V3 factory", "Reading pool depth"},
	Snippet:  "uniswap_get_pools_by_token_pair finds V2 and V3 pool addresses for two tokens.",
	Required: []string{"token_a", "token_b"},
	Params: []string{
		native.PAddress("token_a", "One token of the pair (ERC-20; use WETH for ether)"),
		native.PAddress("token_b", "The other token"),
		native.PAddress("v2_factory", "Uniswap V2 factory (default: the chain's configured one)"),
		native.PAddress("v3_factory", "Uniswap V3 factory (default: the chain's configured one)")},
	Result: []string{
		native.RProp("token_a", "string", "first token"), native.RProp("token_b", "string", "second token"),
		`"pools":{"type":"array","items":{"type":"object","properties":{"version":{"type":"string","enum":["v2","v3"]},"address":{"type":"string"},"fee":{"type":"integer","description":"fee in hundredths of a bip (3000 = 0.3%)"},"reserve_a":{"type":"string"},"reserve_b":{"type":"string"},"liquidity":{"type":"string"},"sqrt_price_x96":{"type":"string"},"tick":{"type":"integer"}}}}`},
	Action: "pools", Venue: "uniswap",
	Run: uniPools,
}

type poolRef struct {
	Version      string `json:"version"`
	Address      string `json:"address"`
	Fee          int64  `json:"fee"`
	ReserveA     string `json:"reserve_a,omitempty"`
	ReserveB     string `json:"reserve_b,omitempty"`
	Liquidity    string `json:"liquidity,omitempty"`
	SqrtPriceX96 string `json:"sqrt_price_x96,omitempty"`
	Tick         *int64 `json:"tick,omitempty"`
}

func uniPools(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	args := native.ArgsOf(in)
	a, b := args.Pair("token_a", "token_b")
	f2 := args.AddressOr("v2_factory", env.Venues.UniswapV2Factory)
	f3 := args.AddressOr("v3_factory", env.Venues.UniswapV3Factory)
	if err := args.Err(); err != nil {
		return nil, err
	}
	if f2 == (common.Address{}) && f3 == (common.Address{}) {
		return nil, errors.New("no Uniswap factory is configured for this chain: pass v2_factory or v3_factory")
	}
	pools := []poolRef{}
	in.Step(0)
	if f2 != (common.Address{}) {
		pair, err := native.CallAddress(ctx, env, chain.UniswapV2FactoryABI(), f2, "getPair", a, b)
		if err != nil {
			return nil, err
		}
		if pair != (common.Address{}) {
			st, err := readV2Pair(ctx, env, pair)
			if err != nil {
				return nil, err
			}
			ra, rb := st.reservesFor(a)
			pools = append(pools, poolRef{Version: "v2", Address: pair.Hex(), Fee: v2Fee, ReserveA: ra.String(), ReserveB: rb.String()})
		}
	}
	in.Step(1)
	var v3 []common.Address
	var fees []int64
	if f3 != (common.Address{}) {
		for _, fee := range FeeTiers {
			p, err := native.CallAddress(ctx, env, chain.UniswapV3FactoryABI(), f3, "getPool", a, b, big.NewInt(fee))
			if err != nil {
				return nil, err
			}
			if p != (common.Address{}) {
				v3, fees = append(v3, p), append(fees, fee)
			}
		}
	}
	in.Step(2)
	for i, p := range v3 {
		ref := poolRef{Version: "v3", Address: p.Hex(), Fee: fees[i]}
		if st, err := readV3Pool(ctx, env, p); err == nil {
			t := st.tick
			ref.Liquidity, ref.SqrtPriceX96, ref.Tick = st.liquidity.String(), st.sqrtP.String(), &t
		}
		pools = append(pools, ref)
	}
	return map[string]any{"token_a": a.Hex(), "token_b": b.Hex(), "pools": pools}, nil
}

// ---- uniswap_get_pool_info ----

var poolInfo = native.ReadTool{
	Name: "uniswap_get_pool_info",
	Description: "Get the current state of one Uniswap pool, V3 or V2 (detected automatically): tokens, fee tier, price in both directions, " +
		"and for V3 sqrtPriceX96, tick, tick spacing and active liquidity; for V2 the reserves and LP supply; plus the tokens the pool holds and their USD value where feeds price them. " +
		"Use it for pool depth and current price. Get the pool address first via uniswap_get_pools_by_token_pair. " +
		"Does not quote a trade (uniswap_get_quote) or read anyone's position.",
	Category: tool.CatData, Budget: tool.Medium,
	Steps:    []string{"Fetching slot0 or reserves", "Reading tokens", "Computing prices"},
	Snippet:  "uniswap_get_pool_info reads a pool's price, liquidity and tokens. Call uniswap_get_pools_by_token_pair first to get the pool address.",
	Required: []string{"pool_address"},
	Params: []string{
		native.PAddress("pool_address", "The pool or pair contract; use uniswap_get_pools_by_token_pair to find it")},
	Result: []string{
		native.RProp("version", "string", "v2 or v3"), native.RProp("pool_address", "string", "the pool"),
		native.RTokenProp("token0", "the pool's token0"), native.RTokenProp("token1", "the pool's token1"),
		native.RProp("fee", "integer", "fee in hundredths of a bip (3000 = 0.3%)"),
		native.RProp("price0", "string", "price of one token0 in token1 (whole tokens)"),
		native.RProp("price1", "string", "price of one token1 in token0 (whole tokens)"),
		native.RProp("sqrt_price_x96", "string", "V3: current sqrt price, Q64.96"), native.RProp("tick", "integer", "V3: current tick"),
		native.RProp("tick_spacing", "integer", "V3: tick spacing"), native.RProp("liquidity", "string", "V3: active liquidity"),
		native.RAmountProp("reserve0", "V2: reserve of token0"), native.RAmountProp("reserve1", "V2: reserve of token1"),
		native.RProp("total_supply", "string", "V2: LP token supply"),
		native.RAmountProp("balance0", "token0 held by the pool"), native.RAmountProp("balance1", "token1 held by the pool"),
		native.RProp("tvl_usd", "number", "USD value of the pool's balances; absent when a token is unpriced")},
	Action: "pool", Venue: "uniswap",
	Run: uniPoolInfo,
}

func uniPoolInfo(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	args := native.ArgsOf(in)
	pool := args.Address("pool_address")
	if err := args.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	out := map[string]any{"pool_address": pool.Hex()}
	var t0, t1 common.Address
	var price func(d0, d1 uint8) *big.Rat
	var v2 *v2PairState
	v3, v3err := readV3Pool(ctx, env, pool)
	if v3err == nil {
		t0, t1 = v3.token0, v3.token1
		out["version"] = "v3"
		out["fee"], out["tick_spacing"] = v3.fee, v3.spacing
		out["sqrt_price_x96"], out["tick"], out["liquidity"] = v3.sqrtP.String(), v3.tick, v3.liquidity.String()
		price = func(d0, d1 uint8) *big.Rat { return priceFromSqrtX96(v3.sqrtP, d0, d1) }
	} else {
		st, err := readV2Pair(ctx, env, pool)
		if err != nil {
			return nil, fmt.Errorf("%s is neither a Uniswap V3 pool nor a V2 pair", pool.Hex())
		}
		v2 = &st
		t0, t1 = st.token0, st.token1
		out["version"], out["fee"], out["total_supply"] = "v2", v2Fee, st.totalSupply.String()
		price = func(d0, d1 uint8) *big.Rat { return priceFromReserves(st.reserve0, st.reserve1, d0, d1) }
	}
	in.Step(1)
	m0, m1, err := native.TokenInfoPair(ctx, env, t0, t1)
	if err != nil {
		return nil, err
	}
	out["token0"], out["token1"] = m0, m1
	if v2 != nil {
		out["reserve0"], out["reserve1"] = native.AmountOf(v2.reserve0, m0.Decimals), native.AmountOf(v2.reserve1, m1.Decimals)
	}
	in.Step(2)
	p := price(m0.Decimals, m1.Decimals)
	out["price0"] = native.RatString(p, 18)
	if p.Sign() > 0 {
		out["price1"] = native.RatString(new(big.Rat).Inv(p), 18)
	}
	b0, err := env.Chain.TokenBalance(ctx, t0, pool)
	if err != nil {
		return nil, err
	}
	b1, err := env.Chain.TokenBalance(ctx, t1, pool)
	if err != nil {
		return nil, err
	}
	out["balance0"], out["balance1"] = native.AmountOf(b0, m0.Decimals), native.AmountOf(b1, m1.Decimals)
	if c := native.SumCents(native.ValueCents(ctx, env, t0, b0), native.ValueCents(ctx, env, t1, b1)); c >= 0 {
		out["tvl_usd"] = float64(c) / 100
	}
	return out, nil
}

// ---- uniswap_get_pair_reserves ----

var reserves = native.ReadTool{
	Name: "uniswap_get_pair_reserves",
	Description: "Read a Uniswap V2 pair's reserves, LP token supply, last update time and the price in both directions. " +
		"Pass the pair address, or token_a and token_b to look the pair up in the factory. " +
		"Use it for V2 depth before a V2 swap or liquidity change. Does not cover V3 pools (use uniswap_get_pool_info) and does not quote trades.",
	Category: tool.CatData, Budget: tool.Fast,
	Steps:   []string{"Reading reserves", "Reading tokens"},
	Snippet: "uniswap_get_pair_reserves reads a V2 pair's reserves and price.",
	Params: []string{
		native.PAddress("pair", "The V2 pair; omit to look it up from token_a and token_b"),
		native.PAddress("token_a", "One token (with token_b, instead of pair)"),
		native.PAddress("token_b", "The other token"),
		native.PAddress("factory", "Uniswap V2 factory for the lookup (default: the chain's configured one)")},
	Result: []string{
		native.RProp("pair", "string", "the pair"), native.RTokenProp("token0", "token0"), native.RTokenProp("token1", "token1"),
		native.RAmountProp("reserve0", "reserve of token0"), native.RAmountProp("reserve1", "reserve of token1"),
		native.RProp("total_supply", "string", "LP token supply"), native.RProp("block_timestamp_last", "integer", "unix time of the last reserve update"),
		native.RProp("price0", "string", "one token0 in token1"), native.RProp("price1", "string", "one token1 in token0")},
	Action: "reserves", Venue: "uniswap_v2",
	Run: uniReserves,
}

// argPair resolves a pair from "pair", or from "token_a" and "token_b"
// and the V2 factory that factory returns.
func argPair(ctx context.Context, env *native.Env, in *registry.Input, factory func() (common.Address, error)) (common.Address, error) {
	if _, ok := in.Args.Get("pair"); ok {
		return native.ArgAddress(in, "pair")
	}
	a, errA := native.ArgAddress(in, "token_a")
	b, errB := native.ArgAddress(in, "token_b")
	if errA != nil || errB != nil {
		return common.Address{}, errors.New("pass pair, or token_a and token_b")
	}
	f, err := factory()
	if err != nil {
		return common.Address{}, err
	}
	return v2PairOf(ctx, env, f, a, b)
}

// argFactory returns the V2 factory named by the argument "factory", or
// the chain's configured one.
func argFactory(env *native.Env, in *registry.Input) func() (common.Address, error) {
	return func() (common.Address, error) {
		f, err := native.ArgAddressOr(in, "factory", env.Venues.UniswapV2Factory)
		if err != nil {
			return f, err
		}
		return f, native.NeedVenue(f, "Uniswap V2 factory", "factory")
	}
}

func uniReserves(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	pair, err := argPair(ctx, env, in, argFactory(env, in))
	if err != nil {
		return nil, err
	}
	in.Step(0)
	st, err := readV2Pair(ctx, env, pair)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	m0, m1, err := native.TokenInfoPair(ctx, env, st.token0, st.token1)
	if err != nil {
		return nil, err
	}
	out := map[string]any{
		"pair": pair.Hex(), "token0": m0, "token1": m1,
		"reserve0": native.AmountOf(st.reserve0, m0.Decimals), "reserve1": native.AmountOf(st.reserve1, m1.Decimals),
		"total_supply": st.totalSupply.String(), "block_timestamp_last": st.timestampLast,
	}
	if st.reserve0.Sign() > 0 && st.reserve1.Sign() > 0 {
		p := priceFromReserves(st.reserve0, st.reserve1, m0.Decimals, m1.Decimals)
		out["price0"], out["price1"] = native.RatString(p, 18), native.RatString(new(big.Rat).Inv(p), 18)
	}
	return out, nil
}

// ---- uniswap_get_quote ----

// quoteParams are the parameters of a quote: tokens, amount, venues and
// the agent's claims about the tokens.
func quoteParams() []string {
	return []string{
		native.PAddress("token_in", "The ERC-20 token sold (use WETH for ether)"),
		native.PAddress("token_out", "The ERC-20 token bought"),
		native.PAmount("amount_in", "Exact amount of token_in to sell"),
		native.PString("version", "Which Uniswap to quote: v2, v3, or best (default: both, best first)", "v2", "v3", "best"),
		`"fee":{"type":"integer","enum":[100,500,3000,10000],"description":"V3 fee tier in hundredths of a bip (3000 = 0.3%); default: every tier with a pool"}`,
		native.PAddress("v2_router", "Uniswap V2 Router02 (default: the chain's configured one)"),
		native.PAddress("v3_router", "Uniswap V3 SwapRouter, whose factory is searched (default: the chain's configured one)"),
		native.PChain,
		native.PClaims("token_in", "token_in"), native.PClaims("token_out", "token_out"),
	}
}

var quoteTool = native.ReadTool{
	Name: "uniswap_get_quote",
	Description: "Quote an exact-input swap on Uniswap V2 and/or V3: how much token_out amount_in of token_in buys right now, per venue and fee tier, best first. " +
		"V2 quotes come from the router's getAmountsOut; V3 quotes are computed exactly from the pool's tick state with the pool's own arithmetic (including tick crossings), " +
		"so on an unchanged pool the swap pays exactly the quoted amount. Single-pool routes only (no multi-hop). " +
		"Use before uniswap_execute_swap or uniswap_execute_v2_swap; it sends nothing. For slippage versus the mid price and the oracle, use uniswap_compute_price_impact.",
	Category: tool.CatTrading, Budget: tool.Medium,
	Steps:    []string{"Quoting Uniswap V2", "Quoting Uniswap V3", "Ranking quotes"},
	Snippet:  "uniswap_get_quote quotes an exact-input swap on Uniswap V2 and V3.",
	Required: []string{"token_in", "token_out", "amount_in"},
	Params:   quoteParams(),
	Result: []string{
		native.RTokenProp("token_in", "token sold"), native.RTokenProp("token_out", "token bought"), native.RAmountProp("amount_in", "amount sold"),
		`"quotes":{"type":"array","description":"available quotes, best first","items":{"type":"object","properties":{"venue":{"type":"string"},"pool":{"type":"string"},"fee":{"type":"integer"},"amount_out":` + native.RAmount + `,"method":{"type":"string"}}}}`,
		`"unavailable":{"type":"array","items":{"type":"string"},"description":"why a venue gave no quote"}`},
	Action: "quote", Venue: "uniswap",
	Run: uniQuote,
}

type quoteOut struct {
	Venue     string           `json:"venue"`
	Pool      string           `json:"pool"`
	Router    string           `json:"router"`
	Fee       int64            `json:"fee"`
	AmountOut native.AmountOut `json:"amount_out"`
	Method    string           `json:"method"`
	// TicksCrossed counts the initialized V3 ticks the swap crosses
	// (liquidity changes on the way: a deeper price move).
	TicksCrossed int `json:"ticks_crossed,omitempty"`
}

// quotes returns every requested venue's quote, best first, and why the
// others are missing.
func quotes(ctx context.Context, env *native.Env, in *registry.Input, tokIn, tokOut common.Address, amount *big.Int) ([]quote, []string, error) {
	version := native.ArgString(in, "version", "best")
	var qs []quote
	var missing []string
	for step, v := range []struct {
		name, skip, arg string
		def             common.Address
		quote           func(router common.Address) (quote, error)
	}{
		{"uniswap_v2", "v3", "v2_router", env.Venues.UniswapV2Router, func(router common.Address) (quote, error) {
			return quoteV2(ctx, env, router, tokIn, tokOut, amount)
		}},
		{"uniswap_v3", "v2", "v3_router", v3RouterOf(env), func(router common.Address) (quote, error) {
			return quoteV3Best(ctx, env, router, tokIn, tokOut, native.ArgInt(in, "fee", 0), amount)
		}},
	} {
		in.Step(step)
		if version == v.skip {
			continue
		}
		router, err := native.ArgAddressOr(in, v.arg, v.def)
		if err != nil {
			return nil, nil, err
		}
		if router == (common.Address{}) {
			missing = append(missing, v.name+": no router configured (pass "+v.arg+")")
		} else if q, err := v.quote(router); err != nil {
			missing = append(missing, v.name+": "+err.Error())
		} else {
			qs = append(qs, q)
		}
	}
	in.Step(2)
	if len(qs) == 2 && qs[1].out.Cmp(qs[0].out) > 0 {
		qs[0], qs[1] = qs[1], qs[0]
	}
	return qs, missing, nil
}

// quoteArgs reads what an exact-input quote or swap sells and buys: two
// different tokens and a positive amount.
func quoteArgs(args *native.Args) (tokIn, tokOut common.Address, amount *big.Int) {
	tokIn, tokOut = args.Pair("token_in", "token_out")
	return tokIn, tokOut, args.Positive("amount_in")
}

// quoteRequest reads an exact-input quote request (tokens and amount) and quotes it on every requested venue, best first.
func quoteRequest(ctx context.Context, env *native.Env, in *registry.Input) (mi, mo native.TokenInfo, amount *big.Int, qs []quote, missing []string, err error) {
	args := native.ArgsOf(in)
	tokIn, tokOut, amount := quoteArgs(args)
	if err = args.Err(); err != nil {
		return
	}
	if mi, mo, err = native.TokenInfoPair(ctx, env, tokIn, tokOut); err != nil {
		return
	}
	qs, missing, err = quotes(ctx, env, in, tokIn, tokOut, amount)
	return
}

func uniQuote(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	mi, mo, amount, qs, missing, err := quoteRequest(ctx, env, in)
	if err != nil {
		return nil, err
	}
	outs := []quoteOut{}
	for _, q := range qs {
		outs = append(outs, quoteOut{Venue: q.venue, Pool: q.pool.Hex(), Router: q.router.Hex(), Fee: q.fee,
			AmountOut: native.AmountOf(q.out, mo.Decimals), Method: q.method, TicksCrossed: q.v3Cross})
	}
	return map[string]any{
		"token_in": mi, "token_out": mo, "amount_in": native.AmountOf(amount, mi.Decimals),
		"quotes": outs, "unavailable": nonNil(missing),
	}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ---- uniswap_compute_price_impact ----

var impact = native.ReadTool{
	Name: "uniswap_compute_price_impact",
	Description: "Measure what an exact-input swap would cost on Uniswap V2 and/or V3: the quoted output against the pool's mid price " +
		"(price impact, excluding and including the LP fee) and against the USD price feeds of both tokens when both are priced. " +
		"Use it to judge whether a trade is too large for the pool or the pool's price is off the market before swapping. " +
		"Sends nothing; for the raw output amounts use uniswap_get_quote.",
	Category: tool.CatTrading, Budget: tool.Medium,
	Steps:    []string{"Quoting Uniswap V2", "Quoting Uniswap V3", "Ranking quotes", "Reading price feeds"},
	Snippet:  "uniswap_compute_price_impact compares a swap quote with the pool mid price and the oracle price.",
	Required: []string{"token_in", "token_out", "amount_in"},
	Params:   quoteParams(),
	Result: []string{
		native.RTokenProp("token_in", "token sold"), native.RTokenProp("token_out", "token bought"), native.RAmountProp("amount_in", "amount sold"),
		`"venues":{"type":"array","items":{"type":"object","properties":{"venue":{"type":"string"},"pool":{"type":"string"},"fee":{"type":"integer"},"amount_out":` + native.RAmount +
			`,"mid_price":{"type":"string","description":"token_out per token_in at the pool's price before the swap"},"execution_price":{"type":"string"},` +
			`"price_impact_bps":{"type":"number","description":"output shortfall versus the mid price net of the fee"},"total_cost_bps":{"type":"number","description":"shortfall versus the mid price, fee included"},` +
			`"oracle_price":{"type":"string"},"vs_oracle_bps":{"type":"number","description":"shortfall versus the USD feeds' fair output (negative: better than the oracle)"}}}}`,
		`"unavailable":{"type":"array","items":{"type":"string"}}`},
	Action: "price_impact", Venue: "uniswap",
	Run: uniImpact,
}

type impactOut struct {
	Venue          string           `json:"venue"`
	Pool           string           `json:"pool"`
	Fee            int64            `json:"fee"`
	AmountOut      native.AmountOut `json:"amount_out"`
	MidPrice       string           `json:"mid_price"`
	ExecPrice      string           `json:"execution_price"`
	ImpactBps      float64          `json:"price_impact_bps"`
	TotalCostBps   float64          `json:"total_cost_bps"`
	OraclePrice    string           `json:"oracle_price,omitempty"`
	VsOracleBps    *float64         `json:"vs_oracle_bps,omitempty"`
	OracleProblems string           `json:"oracle_note,omitempty"`
}

func uniImpact(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	mi, mo, amount, qs, missing, err := quoteRequest(ctx, env, in)
	if err != nil {
		return nil, err
	}
	in.Step(3)
	// fair is the oracle's output in token_out base units per token_in
	// base unit.
	var fair *big.Rat
	note := ""
	pi, errIn := native.PriceOf(ctx, env, mi.Address)
	po, errOut := native.PriceOf(ctx, env, mo.Address)
	switch {
	case errIn != nil || errOut != nil:
		note = "no USD feed prices both tokens"
	case pi.Stale || po.Stale:
		note = "a USD feed is stale"
	case po.Answer.Sign() <= 0 || pi.Answer.Sign() <= 0:
		note = "a USD feed has no positive answer"
	default:
		num := new(big.Int).Mul(pi.Answer, native.Pow10(int(mo.Decimals)+int(po.Decimals)))
		den := new(big.Int).Mul(po.Answer, native.Pow10(int(mi.Decimals)+int(pi.Decimals)))
		fair = new(big.Rat).SetFrac(num, den)
	}
	// whole is the factor from base-unit rates to whole-token prices.
	whole := new(big.Rat).SetFrac(native.Pow10(int(mi.Decimals)), native.Pow10(int(mo.Decimals)))
	amt := new(big.Rat).SetInt(amount)
	outs := []impactOut{}
	for _, q := range qs {
		got := new(big.Rat).SetInt(q.out)
		atMid := new(big.Rat).Mul(amt, q.midRate)
		netMid := new(big.Rat).Mul(atMid, big.NewRat(1e6-q.fee, 1e6))
		o := impactOut{Venue: q.venue, Pool: q.pool.Hex(), Fee: q.fee, AmountOut: native.AmountOf(q.out, mo.Decimals),
			MidPrice:  native.RatString(new(big.Rat).Mul(q.midRate, whole), 18),
			ExecPrice: native.RatString(new(big.Rat).Mul(new(big.Rat).Quo(got, amt), whole), 18),
			ImpactBps: bpsOf(netMid, got), TotalCostBps: bpsOf(atMid, got), OracleProblems: note}
		if fair != nil {
			o.OraclePrice = native.RatString(new(big.Rat).Mul(fair, whole), 18)
			v := bpsOf(new(big.Rat).Mul(amt, fair), got)
			o.VsOracleBps = &v
		}
		outs = append(outs, o)
	}
	return map[string]any{
		"token_in": mi, "token_out": mo, "amount_in": native.AmountOf(amount, mi.Decimals),
		"venues": outs, "unavailable": nonNil(missing),
	}, nil
}
