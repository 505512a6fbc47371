package uniswap

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// ---- uniswap_get_lp_position ----

var lpPosition = native.ReadTool{
	Name: "uniswap_get_lp_position",
	Description: "Read a liquidity position on Uniswap: for a V2 pair (pair, or token_a and token_b) the LP token balance, its share of the pair " +
		"and the tokens it redeems for; for a V3 pool (pool) the position's liquidity in a tick range (default: the full range), the tokens it holds at the current price " +
		"and its uncollected fees. Values in USD where feeds price the tokens. Owner defaults to the agent's wallet. " +
		"Use before uniswap_remove_liquidity or uniswap_remove_v3_liquidity to know what there is to remove. Does not read NFT (position manager) positions.",
	Category: tool.CatLP, Budget: tool.Medium,
	Steps:   []string{"Reading the pool", "Reading the position", "Valuing the position"},
	Snippet: "uniswap_get_lp_position reads a V2 LP balance or a V3 position and what it is worth.",
	Params: []string{
		native.PAddress("pair", "V2 pair; or give token_a and token_b"),
		native.PAddress("token_a", "V2: one token of the pair"),
		native.PAddress("token_b", "V2: the other token"),
		native.PAddress("pool", "V3 pool (instead of a V2 pair)"),
		native.PInt("tick_lower", "V3: lower tick of the position (default: the full range)", minTick, maxTick),
		native.PInt("tick_upper", "V3: upper tick of the position (default: the full range)", minTick, maxTick),
		native.PAddress("owner", "Whose position (default: the agent's wallet)"),
		native.PAddress("factory", "Uniswap V2 factory for the pair lookup (default: the chain's configured one)")},
	Result: []string{
		native.RProp("version", "string", "v2 or v3"), native.RProp("owner", "string", "position owner"),
		native.RProp("pair", "string", "V2 pair"), native.RProp("pool", "string", "V3 pool"),
		native.RTokenProp("token0", "token0"), native.RTokenProp("token1", "token1"),
		native.RAmountProp("lp_balance", "V2: LP tokens held"), native.RProp("total_supply", "string", "V2: LP supply"),
		native.RProp("share_percent", "string", "V2: share of the pair"),
		native.RProp("liquidity", "string", "V3: position liquidity"), native.RProp("tick_lower", "integer", "V3"), native.RProp("tick_upper", "integer", "V3"),
		native.RProp("in_range", "boolean", "V3: whether the current price is inside the range"),
		native.RAmountProp("amount0", "token0 the position redeems for now"), native.RAmountProp("amount1", "token1 the position redeems for now"),
		native.RAmountProp("fees0", "V3: uncollected token0 fees"), native.RAmountProp("fees1", "V3: uncollected token1 fees"),
		native.RProp("value_usd", "number", "USD value of the amounts (and fees); absent when unpriced")},
	Action: "lp_position", Venue: "uniswap",
	Run: uniLPPosition,
}

func uniLPPosition(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	args := native.ArgsOf(in)
	owner := args.Whose(env, "owner")
	if err := args.Err(); err != nil {
		return nil, err
	}
	if args.Has("pool") {
		return v3Position(ctx, env, in, owner)
	}
	pair, err := argPair(ctx, env, in, argFactory(env, in))
	if err != nil {
		return nil, err
	}
	in.Step(0)
	st, err := readV2Pair(ctx, env, pair)
	if err != nil {
		return nil, err
	}
	m0, m1, err := native.TokenInfoPair(ctx, env, st.token0, st.token1)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	lp, err := env.Chain.TokenBalance(ctx, pair, owner)
	if err != nil {
		return nil, err
	}
	a0, a1, err := v2Redeem(ctx, env, st, lp)
	if err != nil {
		return nil, err
	}
	in.Step(2)
	out := map[string]any{
		"version": "v2", "owner": owner.Hex(), "pair": pair.Hex(), "token0": m0, "token1": m1,
		"lp_balance": native.AmountOf(lp, 18), "total_supply": st.totalSupply.String(), "share_percent": "0",
		"amount0": native.AmountOf(a0, m0.Decimals), "amount1": native.AmountOf(a1, m1.Decimals),
	}
	if st.totalSupply.Sign() > 0 {
		out["share_percent"] = native.RatString(new(big.Rat).SetFrac(new(big.Int).Mul(lp, big.NewInt(100)), st.totalSupply), 8)
	}
	if c := native.SumCents(native.ValueCents(ctx, env, st.token0, a0), native.ValueCents(ctx, env, st.token1, a1)); c >= 0 {
		out["value_usd"] = float64(c) / 100
	}
	return out, nil
}

// v2Redeem returns what burning liquidity LP tokens of a pair pays out:
// the liquidity's share of the pair's token balances (as the pair's burn
// computes it, without the protocol fee's mint).
func v2Redeem(ctx context.Context, env *native.Env, st v2PairState, liquidity *big.Int) (*big.Int, *big.Int, error) {
	if st.totalSupply.Sign() == 0 {
		return new(big.Int), new(big.Int), nil
	}
	b0, err := env.Chain.TokenBalance(ctx, st.token0, st.address)
	if err != nil {
		return nil, nil, err
	}
	b1, err := env.Chain.TokenBalance(ctx, st.token1, st.address)
	if err != nil {
		return nil, nil, err
	}
	a0 := new(big.Int).Mul(liquidity, b0)
	a0.Quo(a0, st.totalSupply)
	a1 := new(big.Int).Mul(liquidity, b1)
	a1.Quo(a1, st.totalSupply)
	return a0, a1, nil
}

// v3Range reads the tick range of a V3 position from the arguments,
// defaulting to the pool's full range.
func v3Range(in *registry.Input, st v3PoolState) (int64, int64, error) {
	lo, hi := st.fullRangeTicks()
	lo, hi = native.ArgInt(in, "tick_lower", lo), native.ArgInt(in, "tick_upper", hi)
	if lo >= hi || lo%st.spacing != 0 || hi%st.spacing != 0 {
		return 0, 0, fmt.Errorf("tick range [%d, %d] must be increasing multiples of the pool's tick spacing %d", lo, hi, st.spacing)
	}
	return lo, hi, nil
}

// v3PositionKey is the pool's key of owner's position in [lo, hi]:
// keccak256(abi.encodePacked(owner, int24 lo, int24 hi)).
func v3PositionKey(owner common.Address, lo, hi int64) [32]byte {
	b := make([]byte, 0, 26)
	b = append(b, owner.Bytes()...)
	for _, t := range []int64{lo, hi} {
		u := uint32(t) & 0xffffff
		b = append(b, byte(u>>16), byte(u>>8), byte(u))
	}
	var k [32]byte
	copy(k[:], crypto.Keccak256(b))
	return k
}

// v3Amounts returns the tokens liquidity holds in [sqrtA, sqrtB] at price
// sqrtP (rounded up when adding, down when removing).
func v3Amounts(sqrtP, sqrtA, sqrtB, liq *big.Int, up bool) (*big.Int, *big.Int, error) {
	switch {
	case sqrtP.Cmp(sqrtA) <= 0:
		a0, err := amount0Delta(sqrtA, sqrtB, liq, up)
		return a0, new(big.Int), err
	case sqrtP.Cmp(sqrtB) >= 0:
		a1, err := amount1Delta(sqrtA, sqrtB, liq, up)
		return new(big.Int), a1, err
	}
	a0, err := amount0Delta(sqrtP, sqrtB, liq, up)
	if err != nil {
		return nil, nil, err
	}
	a1, err := amount1Delta(sqrtA, sqrtP, liq, up)
	return a0, a1, err
}

// v3PositionState is a V3 position with its uncollected fees.
type v3PositionState struct {
	liquidity, owed0, owed1 *big.Int // owed includes fees accrued since the last update
}

// readV3Position reads owner's position in [lo, hi] and computes its fees
// as the pool would credit them on the next update.
func readV3Position(ctx context.Context, env *native.Env, st v3PoolState, owner common.Address, lo, hi int64) (v3PositionState, error) {
	var p v3PositionState
	r, err := native.ExtraCall(ctx, env, st.address, "positions", v3PositionKey(owner, lo, hi))
	if err != nil {
		return p, err
	}
	p.liquidity = r[0].(*big.Int)
	last0, last1 := r[1].(*big.Int), r[2].(*big.Int)
	p.owed0, p.owed1 = new(big.Int).Set(r[3].(*big.Int)), new(big.Int).Set(r[4].(*big.Int))
	if p.liquidity.Sign() == 0 {
		return p, nil
	}
	a := chain.UniswapV3PoolABI()
	g0, err := native.CallBig(ctx, env, a, st.address, "feeGrowthGlobal0X128")
	if err != nil {
		return p, err
	}
	g1, err := native.CallBig(ctx, env, a, st.address, "feeGrowthGlobal1X128")
	if err != nil {
		return p, err
	}
	tl, err := native.Call(ctx, env.Chain, a, st.address, "ticks", big.NewInt(lo))
	if err != nil {
		return p, err
	}
	tu, err := native.Call(ctx, env.Chain, a, st.address, "ticks", big.NewInt(hi))
	if err != nil {
		return p, err
	}
	inside := func(global, lower, upper *big.Int) *big.Int {
		below, above := lower, upper
		if st.tick < lo {
			below = new(big.Int).Sub(global, lower)
		}
		if st.tick >= hi {
			above = new(big.Int).Sub(global, upper)
		}
		v := new(big.Int).Sub(global, below)
		v.Sub(v, above)
		return v.Mod(v, native.Two256)
	}
	for _, f := range []struct {
		global, lower, upper, last, owed *big.Int
	}{
		{g0, tl[2].(*big.Int), tu[2].(*big.Int), last0, p.owed0},
		{g1, tl[3].(*big.Int), tu[3].(*big.Int), last1, p.owed1},
	} {
		d := new(big.Int).Sub(inside(f.global, f.lower, f.upper), f.last)
		d.Mod(d, native.Two256)
		d.Mul(d, p.liquidity)
		d.Rsh(d, 128)
		f.owed.Add(f.owed, d)
	}
	return p, nil
}

func v3Position(ctx context.Context, env *native.Env, in *registry.Input, owner common.Address) (any, error) {
	args := native.ArgsOf(in)
	pool := args.Address("pool")
	if err := args.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	st, err := readV3Pool(ctx, env, pool)
	if err != nil {
		return nil, err
	}
	lo, hi, err := v3Range(in, st)
	if err != nil {
		return nil, err
	}
	m0, m1, err := native.TokenInfoPair(ctx, env, st.token0, st.token1)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	p, err := readV3Position(ctx, env, st, owner, lo, hi)
	if err != nil {
		return nil, err
	}
	sa, sb, err := sqrtRatios(lo, hi)
	if err != nil {
		return nil, err
	}
	a0, a1, err := v3Amounts(st.sqrtP, sa, sb, p.liquidity, false)
	if err != nil {
		return nil, err
	}
	in.Step(2)
	out := map[string]any{
		"version": "v3", "owner": owner.Hex(), "pool": pool.Hex(), "token0": m0, "token1": m1,
		"liquidity": p.liquidity.String(), "tick_lower": lo, "tick_upper": hi, "in_range": st.tick >= lo && st.tick < hi,
		"amount0": native.AmountOf(a0, m0.Decimals), "amount1": native.AmountOf(a1, m1.Decimals),
		"fees0": native.AmountOf(p.owed0, m0.Decimals), "fees1": native.AmountOf(p.owed1, m1.Decimals),
	}
	t0 := new(big.Int).Add(a0, p.owed0)
	t1 := new(big.Int).Add(a1, p.owed1)
	if c := native.SumCents(native.ValueCents(ctx, env, st.token0, t0), native.ValueCents(ctx, env, st.token1, t1)); c >= 0 {
		out["value_usd"] = float64(c) / 100
	}
	return out, nil
}

// ---- uniswap_add_liquidity (V2) ----

var addV2 = native.WriteTool{
	Name: "uniswap_add_liquidity",
	Description: "Add liquidity to an existing Uniswap V2 pair (Router02.addLiquidity) and receive its LP tokens in the agent's wallet. " +
		"The plan computes the amounts the pair takes at its current ratio from your desired amounts (one side is used fully, the other as the ratio requires), " +
		"protects both with slippage_bps (default 0.5%), and adds exact approves of the router when allowances are short. " +
		"Use to provide V2 liquidity and earn the 0.3% fee. Does not create pairs or set a first price, and does not take native ETH (wrap it first). " +
		"For V3 pools see uniswap_add_v3_liquidity; read a pair first with uniswap_get_pair_reserves.",
	Category: tool.CatLP, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the pair", "Checking balances and allowances", "Sending approves and addLiquidity", "Confirming"},
	Snippet:  "uniswap_add_liquidity adds liquidity to a V2 pair at its current ratio.",
	Required: []string{"token_a", "token_b", "amount_a_desired", "amount_b_desired"},
	Params: []string{
		native.PAddress("token_a", "One token of the pair"),
		native.PAddress("token_b", "The other token"),
		native.PAmount("amount_a_desired", "Most of token_a to add"),
		native.PAmount("amount_b_desired", "Most of token_b to add"),
		native.PSlippage, native.PDeadline,
		native.PAddress("router", "Uniswap V2 Router02 (default: the chain's configured one)"),
		native.PClaims("token_a", "token_a"), native.PClaims("token_b", "token_b")},
	Action: "add_liquidity", Venue: "uniswap_v2",
	Plan: planAddLiquidity,
}

func planAddLiquidity(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	args, err := addLiquidityArgs(env, in)
	if err != nil {
		return nil, err
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	q, err := quoteV2Add(ctx, env, in, args)
	if err != nil {
		return nil, err
	}
	a, b := args.a, args.b
	ma, mb, err := native.TokenInfoPair(ctx, env, a, b)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	txs, err := addLiquidityTxs(ctx, env, in, args, owner, ma, mb, q)
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, txs,
		[]tool.TokenUse{
			native.Claimed(in, a, q.amtA, true, "token_a"), native.Claimed(in, b, q.amtB, true, "token_b"),
			{Token: tool.Address(q.pair), Symbol: "", Decimals: -1, Amount: q.minLP, Out: false},
		},
		native.SumCents(native.ValueCents(ctx, env, a, q.amtA), native.ValueCents(ctx, env, b, q.amtB)),
		fmt.Sprintf("add %s %s and %s %s to Uniswap V2 pair %s for at least %s LP tokens",
			native.FormatUnits(q.amtA, ma.Decimals), ma.Symbol, native.FormatUnits(q.amtB, mb.Decimals), mb.Symbol, q.pair.Hex(), native.FormatUnits(q.minLP, 18))), nil
}

// v2AddArgs are uniswap_add_liquidity's arguments.
type v2AddArgs struct {
	a, b       common.Address
	desA, desB *big.Int // the most of each to add, both positive
	router     common.Address
}

// addLiquidityArgs reads and checks the arguments; router defaults to the
// chain's configured Router02.
func addLiquidityArgs(env *native.Env, in *registry.Input) (v2AddArgs, error) {
	args := native.ArgsOf(in)
	var v v2AddArgs
	v.a, v.b = args.Pair("token_a", "token_b")
	v.desA, v.desB = args.Amount("amount_a_desired"), args.Amount("amount_b_desired")
	if err := args.Err(); err != nil {
		return v, err
	}
	if err := native.Positive("amount_a_desired", v.desA); err != nil {
		return v, err
	}
	if err := native.Positive("amount_b_desired", v.desB); err != nil {
		return v, err
	}
	v.router = args.Venue("router", env.Venues.UniswapV2Router, "Uniswap V2 router")
	return v, args.Err()
}

// v2AddQuote is what adding to an existing V2 pair at its current
// reserves takes and mints, with the slippage minimums.
type v2AddQuote struct {
	pair                   common.Address
	amtA, amtB, minA, minB *big.Int
	minLP                  *big.Int
}

// quoteV2Add reads the router's pair of a and b and prices the add
// against its reserves. It refuses a missing or empty pair (this tool
// neither creates pairs nor sets a first price) and amounts too small to
// add or to mint.
func quoteV2Add(ctx context.Context, env *native.Env, in *registry.Input, args v2AddArgs) (v2AddQuote, error) {
	var q v2AddQuote
	factory, err := v2FactoryOf(ctx, env, args.router)
	if err != nil {
		return q, err
	}
	q.pair, err = v2PairOf(ctx, env, factory, args.a, args.b)
	if err != nil {
		return q, fmt.Errorf("%w (this tool does not create pairs)", err)
	}
	st, err := readV2Pair(ctx, env, q.pair)
	if err != nil {
		return q, err
	}
	ra, rb := st.reservesFor(args.a)
	if ra.Sign() == 0 || rb.Sign() == 0 {
		return q, errors.New("the pair has no liquidity: this tool does not set a pair's first price")
	}
	q.amtA, q.amtB, err = v2AddAmounts(args.desA, args.desB, ra, rb)
	if err != nil {
		return q, err
	}
	if q.amtA.Sign() == 0 || q.amtB.Sign() == 0 {
		return q, errors.New("the desired amounts are too small for the pair's ratio")
	}
	bps := native.ArgInt(in, "slippage_bps", native.DefaultSlippageBps)
	q.minA, q.minB = native.SlippageMin(q.amtA, bps), native.SlippageMin(q.amtB, bps)
	lp := v2Minted(q.amtA, q.amtB, ra, rb, st.totalSupply)
	q.minLP = native.SlippageMin(lp, bps)
	if q.minLP.Sign() <= 0 {
		return q, errors.New("the amounts are too small to mint LP tokens")
	}
	return q, nil
}

// addLiquidityTxs checks the owner holds both amounts and returns the
// approvals the router needs followed by addLiquidity.
func addLiquidityTxs(ctx context.Context, env *native.Env, in *registry.Input, args v2AddArgs, owner common.Address, ma, mb native.TokenInfo, q v2AddQuote) ([]tool.Tx, error) {
	if err := native.NeedBalance(ctx, env, ma, q.amtA); err != nil {
		return nil, err
	}
	if err := native.NeedBalance(ctx, env, mb, q.amtB); err != nil {
		return nil, err
	}
	var txs []tool.Tx
	for _, ap := range []struct {
		tok common.Address
		amt *big.Int
	}{{args.a, q.amtA}, {args.b, q.amtB}} {
		t, err := native.SpendApprovals(ctx, env, ap.tok, args.router, ap.amt)
		if err != nil {
			return nil, err
		}
		txs = append(txs, t...)
	}
	dl, err := native.Deadline(ctx, env, in)
	if err != nil {
		return nil, err
	}
	add, err := native.Tx(chain.UniswapV2Router02ABI(), args.router, "add liquidity", "addLiquidity", args.a, args.b, q.amtA, q.amtB, q.minA, q.minB, owner, dl)
	if err != nil {
		return nil, err
	}
	return append(txs, add), nil
}

// ---- uniswap_remove_liquidity (V2) ----

var removeV2 = native.WriteTool{
	Name: "uniswap_remove_liquidity",
	Description: "Remove liquidity from a Uniswap V2 pair (Router02.removeLiquidity): burn LP tokens from the agent's wallet and receive both tokens back. " +
		"liquidity is an amount of LP tokens or \"max\" for the whole balance; the minimum of each token is the current redemption less slippage_bps (default 0.5%). " +
		"Adds an exact approve of the LP token to the router when needed. Use to exit or shrink a V2 position; check it first with uniswap_get_lp_position. " +
		"Does not unwrap WETH or remove V3 liquidity (uniswap_remove_v3_liquidity).",
	Category: tool.CatLP, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the pair and position", "Checking the LP allowance", "Sending approve and removeLiquidity", "Confirming"},
	Snippet:  "uniswap_remove_liquidity burns V2 LP tokens for the pair's tokens.",
	Required: []string{"liquidity"},
	Params: []string{
		native.PAddress("pair", "The V2 pair; or give token_a and token_b"),
		native.PAddress("token_a", "One token of the pair"),
		native.PAddress("token_b", "The other token"),
		native.PAmountMax("liquidity", "LP tokens to burn"),
		native.PSlippage, native.PDeadline,
		native.PAddress("router", "Uniswap V2 Router02 (default: the chain's configured one)")},
	Action: "remove_liquidity", Venue: "uniswap_v2",
	Plan: planRemoveLiquidity,
}

func planRemoveLiquidity(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	args := native.ArgsOf(in)
	router := args.Venue("router", env.Venues.UniswapV2Router, "Uniswap V2 router")
	liq := args.AmountOrMax("liquidity")
	if err := args.Err(); err != nil {
		return nil, err
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	pair, err := argPair(ctx, env, in, func() (common.Address, error) { return v2FactoryOf(ctx, env, router) })
	if err != nil {
		return nil, err
	}
	st, err := readV2Pair(ctx, env, pair)
	if err != nil {
		return nil, err
	}
	bal, err := env.Chain.TokenBalance(ctx, pair, owner)
	if err != nil {
		return nil, err
	}
	if liq == nil {
		liq = bal
	}
	if liq.Sign() == 0 {
		return nil, native.ErrNoPosition
	}
	if liq.Cmp(bal) > 0 {
		return nil, fmt.Errorf("the wallet holds %s LP tokens of the pair, less than %s", bal, liq)
	}
	a0, a1, err := v2Redeem(ctx, env, st, liq)
	if err != nil {
		return nil, err
	}
	bps := native.ArgInt(in, "slippage_bps", native.DefaultSlippageBps)
	min0, min1 := native.SlippageMin(a0, bps), native.SlippageMin(a1, bps)
	if min0.Sign() == 0 || min1.Sign() == 0 {
		return nil, errors.New("the liquidity is too small to redeem both tokens")
	}
	m0, m1, err := native.TokenInfoPair(ctx, env, st.token0, st.token1)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	txs, err := native.SpendApprovals(ctx, env, pair, router, liq)
	if err != nil {
		return nil, err
	}
	dl, err := native.Deadline(ctx, env, in)
	if err != nil {
		return nil, err
	}
	rm, err := native.Tx(chain.UniswapV2Router02ABI(), router, "remove liquidity", "removeLiquidity", st.token0, st.token1, liq, min0, min1, owner, dl)
	if err != nil {
		return nil, err
	}
	txs = append(txs, rm)
	return native.NewPlan(ctx, env, txs,
		[]tool.TokenUse{
			{Token: tool.Address(pair), Decimals: -1, Amount: liq, Out: true},
			{Token: tool.Address(st.token0), Decimals: -1, Amount: min0},
			{Token: tool.Address(st.token1), Decimals: -1, Amount: min1},
		},
		native.SumCents(native.ValueCents(ctx, env, st.token0, a0), native.ValueCents(ctx, env, st.token1, a1)),
		fmt.Sprintf("burn %s LP tokens of Uniswap V2 pair %s for at least %s %s and %s %s",
			native.FormatUnits(liq, 18), pair.Hex(), native.FormatUnits(min0, m0.Decimals), m0.Symbol, native.FormatUnits(min1, m1.Decimals), m1.Symbol)), nil
}

// ---- uniswap_add_v3_liquidity ----

var addV3 = native.WriteTool{
	Name: "uniswap_add_v3_liquidity",
	Description: "Add full-range liquidity to a Uniswap V3 pool through the chain's liquidity helper; the position is owned by the agent's wallet inside the pool (no NFT). " +
		"Give the most of each pool token you are willing to add; the plan computes the liquidity they buy at the current price and the exact amounts it takes, " +
		"and adds exact approves of the helper. The helper takes no minimum liquidity: if the price moves before execution you get less liquidity, never spend more than planned. " +
		"Use for V3 LP on ward's dev chain; mainnet's NonfungiblePositionManager is not supported, nor are concentrated ranges. Remove with uniswap_remove_v3_liquidity.",
	Category: tool.CatLP, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the pool", "Checking balances and allowances", "Sending approves and addLiquidity", "Confirming"},
	Snippet:  "uniswap_add_v3_liquidity adds full-range liquidity to a V3 pool.",
	Required: []string{"pool", "amount0_max", "amount1_max"},
	Params: []string{
		native.PAddress("pool", "The V3 pool (see uniswap_get_pools_by_token_pair)"),
		native.PAmount("amount0_max", "Most of the pool's token0 to add"),
		native.PAmount("amount1_max", "Most of the pool's token1 to add"),
		native.PAddress("helper", "The liquidity helper (default: the chain's configured one)"),
		native.PClaims("token0", "the pool's token0"), native.PClaims("token1", "the pool's token1")},
	Action: "add_liquidity", Venue: "uniswap_v3",
	When: hasV3Helper,
	Plan: planAddV3Liquidity,
}

func planAddV3Liquidity(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	args := native.ArgsOf(in)
	pool, max0, max1 := args.Address("pool"), args.Amount("amount0_max"), args.Amount("amount1_max")
	helper := args.Venue("helper", env.Venues.UniswapV3LiquidityHelper, "Uniswap V3 liquidity helper")
	if err := args.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	st, err := readV3Pool(ctx, env, pool)
	if err != nil {
		return nil, err
	}
	lo, hi := st.fullRangeTicks()
	sa, sb, err := sqrtRatios(lo, hi)
	if err != nil {
		return nil, err
	}
	liq, amt0, amt1, err := v3FitAmounts(st.sqrtP, sa, sb, max0, max1)
	if err != nil {
		return nil, err
	}
	m0, m1, err := native.TokenInfoPair(ctx, env, st.token0, st.token1)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	var txs []tool.Tx
	for _, x := range []struct {
		t   native.TokenInfo
		amt *big.Int
	}{{m0, amt0}, {m1, amt1}} {
		t, err := native.Spend(ctx, env, x.t, helper, x.amt)
		if err != nil {
			return nil, err
		}
		txs = append(txs, t...)
	}
	// The planned amounts are the maxima: the helper cannot take more.
	add, err := native.ExtraTx(helper, "add liquidity", "addLiquidity", pool, amt0, amt1)
	if err != nil {
		return nil, err
	}
	txs = append(txs, add)
	return native.NewPlan(ctx, env, txs,
		[]tool.TokenUse{native.Claimed(in, st.token0, amt0, true, "token0"), native.Claimed(in, st.token1, amt1, true, "token1")},
		native.SumCents(native.ValueCents(ctx, env, st.token0, amt0), native.ValueCents(ctx, env, st.token1, amt1)),
		fmt.Sprintf("add %s liquidity (%s %s and %s %s) across the full range of Uniswap V3 pool %s",
			liq, native.FormatUnits(amt0, m0.Decimals), m0.Symbol, native.FormatUnits(amt1, m1.Decimals), m1.Symbol, pool.Hex())), nil
}

// v3FitAmounts returns the liquidity at most max0 and max1 buy in [sa, sb]
// at price sqrtP, and the exact amounts it takes, chosen so that a
// contract given those amounts as its maxima or desired amounts (the
// helper, the NonfungiblePositionManager) adds at least that liquidity
// and takes no more than those amounts (its rounding could otherwise ask
// for a unit more than a maximum and revert).
func v3FitAmounts(sqrtP, sa, sb, max0, max1 *big.Int) (liq, amt0, amt1 *big.Int, err error) {
	if liq, err = v3LiquidityFor(sqrtP, sa, sb, max0, max1); err != nil {
		return nil, nil, nil, err
	}
	for range 8 {
		if liq.Sign() == 0 {
			return nil, nil, nil, errors.New("the amounts are too small for any liquidity at the pool's price")
		}
		if amt0, amt1, err = v3Amounts(sqrtP, sa, sb, liq, true); err != nil {
			return nil, nil, nil, err
		}
		again, err := v3LiquidityFor(sqrtP, sa, sb, amt0, amt1)
		if err != nil {
			return nil, nil, nil, err
		}
		a0, a1, err := v3Amounts(sqrtP, sa, sb, again, true)
		if err != nil {
			return nil, nil, nil, err
		}
		if amt0.Cmp(max0) <= 0 && amt1.Cmp(max1) <= 0 && a0.Cmp(amt0) <= 0 && a1.Cmp(amt1) <= 0 {
			return liq, amt0, amt1, nil
		}
		liq = new(big.Int).Sub(liq, native.BigOne)
	}
	return nil, nil, nil, errors.New("no liquidity amount fits the maxima at the pool's price")
}

// v3LiquidityFor is the liquidity amount0 and amount1 buy in [sqrtA,
// sqrtB] at price sqrtP (LiquidityAmounts.getLiquidityForAmounts, rounded
// down): token0 alone below the range, token1 alone above it, the smaller
// of the two inside it. It is capped at the uint128 maximum.
func v3LiquidityFor(sqrtP, sqrtA, sqrtB, amount0, amount1 *big.Int) (*big.Int, error) {
	if sqrtA.Cmp(sqrtB) >= 0 {
		return nil, errors.New("the position's range is empty")
	}
	liq0 := func(a, b *big.Int) (*big.Int, error) {
		inter, err := mulDiv(a, b, q96)
		if err != nil {
			return nil, err
		}
		return mulDiv(amount0, inter, new(big.Int).Sub(b, a))
	}
	liq1 := func(a, b *big.Int) (*big.Int, error) {
		return mulDiv(amount1, q96, new(big.Int).Sub(b, a))
	}
	var l *big.Int
	var err error
	switch {
	case sqrtP.Cmp(sqrtA) <= 0:
		l, err = liq0(sqrtA, sqrtB)
	case sqrtP.Cmp(sqrtB) >= 0:
		l, err = liq1(sqrtA, sqrtB)
	default:
		var l1 *big.Int
		if l, err = liq0(sqrtP, sqrtB); err != nil {
			return nil, err
		}
		if l1, err = liq1(sqrtA, sqrtP); err != nil {
			return nil, err
		}
		if l1.Cmp(l) < 0 {
			l = l1
		}
	}
	if err != nil {
		return nil, err
	}
	if l.Cmp(maxUint128) > 0 {
		l = new(big.Int).Set(maxUint128)
	}
	return l, nil
}

// ---- uniswap_remove_v3_liquidity ----

var removeV3 = native.WriteTool{
	Name: "uniswap_remove_v3_liquidity",
	Description: "Remove liquidity from a Uniswap V3 position the agent's wallet owns directly in the pool (as uniswap_add_v3_liquidity creates): " +
		"burns liquidity (an amount or \"max\") from the tick range (default: the full range) and collects the tokens and all uncollected fees to the wallet, in two transactions to the pool. " +
		"The plan expects the position's current redemption less slippage_bps (default 0.5%); the pool's burn takes no minimum, so the check happens in simulation and after execution. " +
		"Use to exit or shrink a V3 position; read it first with uniswap_get_lp_position. Does not handle NonfungiblePositionManager positions.",
	Category: tool.CatLP, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the pool and position", "Computing the redemption", "Sending burn and collect", "Confirming"},
	Snippet:  "uniswap_remove_v3_liquidity burns a V3 position's liquidity and collects tokens and fees.",
	Required: []string{"pool", "liquidity"},
	Params: []string{
		native.PAddress("pool", "The V3 pool"),
		native.PAmountMax("liquidity", "Liquidity to remove (the position's liquidity units, see uniswap_get_lp_position)"),
		native.PInt("tick_lower", "Lower tick of the position (default: the full range)", minTick, maxTick),
		native.PInt("tick_upper", "Upper tick of the position (default: the full range)", minTick, maxTick),
		native.PSlippage},
	Action: "remove_liquidity", Venue: "uniswap_v3",
	Plan: planRemoveV3Liquidity,
}

func planRemoveV3Liquidity(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	args := native.ArgsOf(in)
	pool := args.Address("pool")
	liq := args.AmountOrMax("liquidity")
	if err := args.Err(); err != nil {
		return nil, err
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	st, err := readV3Pool(ctx, env, pool)
	if err != nil {
		return nil, err
	}
	lo, hi, err := v3Range(in, st)
	if err != nil {
		return nil, err
	}
	pos, err := readV3Position(ctx, env, st, owner, lo, hi)
	if err != nil {
		return nil, err
	}
	if liq == nil {
		liq = pos.liquidity
	}
	if liq.Sign() == 0 {
		return nil, native.ErrNoPosition
	}
	if liq.Cmp(pos.liquidity) > 0 {
		return nil, fmt.Errorf("the position holds %s liquidity, less than %s", pos.liquidity, liq)
	}
	in.Step(1)
	sa, sb, err := sqrtRatios(lo, hi)
	if err != nil {
		return nil, err
	}
	a0, a1, err := v3Amounts(st.sqrtP, sa, sb, liq, false)
	if err != nil {
		return nil, err
	}
	bps := native.ArgInt(in, "slippage_bps", native.DefaultSlippageBps)
	min0 := new(big.Int).Add(native.SlippageMin(a0, bps), pos.owed0)
	min1 := new(big.Int).Add(native.SlippageMin(a1, bps), pos.owed1)
	m0, m1, err := native.TokenInfoPair(ctx, env, st.token0, st.token1)
	if err != nil {
		return nil, err
	}
	burn, err := native.ExtraTx(pool, "burn", "burn", big.NewInt(lo), big.NewInt(hi), liq)
	if err != nil {
		return nil, err
	}
	collect, err := native.ExtraTx(pool, "collect", "collect", owner, big.NewInt(lo), big.NewInt(hi), maxUint128, maxUint128)
	if err != nil {
		return nil, err
	}
	e0, e1 := new(big.Int).Add(a0, pos.owed0), new(big.Int).Add(a1, pos.owed1)
	return native.NewPlan(ctx, env, []tool.Tx{burn, collect},
		[]tool.TokenUse{
			{Token: tool.Address(st.token0), Decimals: -1, Amount: min0},
			{Token: tool.Address(st.token1), Decimals: -1, Amount: min1},
		},
		native.SumCents(native.ValueCents(ctx, env, st.token0, e0), native.ValueCents(ctx, env, st.token1, e1)),
		fmt.Sprintf("remove %s liquidity from Uniswap V3 pool %s [%d, %d] and collect about %s %s and %s %s (fees included)",
			liq, pool.Hex(), lo, hi, native.FormatUnits(e0, m0.Decimals), m0.Symbol, native.FormatUnits(e1, m1.Decimals), m1.Symbol)), nil
}
