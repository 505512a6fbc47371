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

// The NPM's parameter structs, as go-ethereum packs tuples.
type (
	mintParams struct {
		Token0         common.Address
		Token1         common.Address
		Fee            *big.Int
		TickLower      *big.Int
		TickUpper      *big.Int
		Amount0Desired *big.Int
		Amount1Desired *big.Int
		Amount0Min     *big.Int
		Amount1Min     *big.Int
		Recipient      common.Address
		Deadline       *big.Int
	}
	increaseParams struct {
		TokenId        *big.Int
		Amount0Desired *big.Int
		Amount1Desired *big.Int
		Amount0Min     *big.Int
		Amount1Min     *big.Int
		Deadline       *big.Int
	}
	decreaseParams struct {
		TokenId    *big.Int
		Liquidity  *big.Int
		Amount0Min *big.Int
		Amount1Min *big.Int
		Deadline   *big.Int
	}
)

// v3Deposit is what adding liquidity to a range takes at the pool's price:
// the liquidity, the exact amounts (passed to the NPM as the desired
// amounts, so it can take no more), and their slippage minima.
type v3Deposit struct {
	liq, amt0, amt1, min0, min1 *big.Int
}

// planDeposit fits desired amounts of token0 and token1 to [lo, hi] at the
// pool's current price.
func planDeposit(st v3PoolState, lo, hi int64, des0, des1 *big.Int, bps int64) (v3Deposit, error) {
	sa, sb, err := sqrtRatios(lo, hi)
	if err != nil {
		return v3Deposit{}, err
	}
	switch {
	case st.sqrtP.Cmp(sa) <= 0 && des0.Sign() == 0:
		return v3Deposit{}, errors.New("the pool's price is below the range, so the position takes token0 only: give an amount of token0")
	case st.sqrtP.Cmp(sb) >= 0 && des1.Sign() == 0:
		return v3Deposit{}, errors.New("the pool's price is above the range, so the position takes token1 only: give an amount of token1")
	case st.sqrtP.Cmp(sa) > 0 && st.sqrtP.Cmp(sb) < 0 && (des0.Sign() == 0 || des1.Sign() == 0):
		return v3Deposit{}, errors.New("the pool's price is inside the range, so the position takes both tokens: give an amount of each")
	}
	liq, amt0, amt1, err := v3FitAmounts(st.sqrtP, sa, sb, des0, des1)
	if err != nil {
		return v3Deposit{}, err
	}
	return v3Deposit{liq: liq, amt0: amt0, amt1: amt1, min0: native.SlippageMin(amt0, bps), min1: native.SlippageMin(amt1, bps)}, nil
}

// depositTxs returns the balance checks' and exact approvals' transactions
// for a deposit to the NPM.
func depositTxs(ctx context.Context, env *native.Env, npm common.Address, m0, m1 native.TokenInfo, d v3Deposit) ([]tool.Tx, error) {
	var txs []tool.Tx
	for _, x := range []struct {
		t   native.TokenInfo
		amt *big.Int
	}{{m0, d.amt0}, {m1, d.amt1}} {
		t, err := native.Spend(ctx, env, x.t, npm, x.amt)
		if err != nil {
			return nil, err
		}
		txs = append(txs, t...)
	}
	return txs, nil
}

func feePct(fee int64) string { return native.RatString(big.NewRat(fee, 10000), 6) + "%" }

// ---- uniswap_v3_mint_position ----

var mintPosition = native.WriteTool{
	Name: "uniswap_v3_mint_position",
	Description: "Open a new Uniswap V3 position (an NFT of the chain's NonfungiblePositionManager, minted to the agent's wallet) in an existing pool of token_a and token_b at a fee tier, " +
		"over a price range given as tick_lower/tick_upper (multiples of the fee tier's tick spacing) or as price_lower/price_upper in whole token_b per token_a (snapped to the nearest usable ticks). " +
		"The plan computes from the pool's current price the liquidity your desired amounts buy and the exact amounts it takes (never more), protects them with slippage_bps (default 0.5%), " +
		"and adds exact approves of the position manager. A range entirely above or below the price takes one token only. " +
		"Use to provide concentrated liquidity; read the pool first with uniswap_get_pool_info. Does not create or initialise pools, take native ETH (wrap it first), or mint to another recipient. " +
		"Manage the position afterwards with uniswap_v3_increase_liquidity, uniswap_v3_decrease_liquidity and uniswap_v3_collect_fees.",
	Category: tool.CatLP, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the pool", "Computing the range and amounts", "Checking balances and allowances", "Sending approves and mint", "Confirming"},
	Snippet:  "uniswap_v3_mint_position opens a concentrated V3 liquidity position NFT over a tick or price range.",
	Required: []string{"token_a", "token_b", "fee", "amount_a_desired", "amount_b_desired"},
	Params: []string{
		native.PAddress("token_a", "One token of the pool (ERC-20; use WETH for ether)"),
		native.PAddress("token_b", "The other token; prices are in token_b per token_a"),
		`"fee":{"type":"integer","enum":[100,500,3000,10000],"description":"Fee tier of the pool in hundredths of a bip (500 = 0.05%, 3000 = 0.3%)"}`,
		native.PInt("tick_lower", "Lower tick of the range, a multiple of the pool's tick spacing (with tick_upper; or give prices)", minTick, maxTick),
		native.PInt("tick_upper", "Upper tick of the range, a multiple of the pool's tick spacing", minTick, maxTick),
		native.PDecimal("price_lower", "Lower end of the range in whole token_b per token_a (with price_upper; instead of ticks)"),
		native.PDecimal("price_upper", "Upper end of the range in whole token_b per token_a"),
		native.PAmount("amount_a_desired", "Most of token_a to deposit (0 when the range is entirely on token_b's side)"),
		native.PAmount("amount_b_desired", "Most of token_b to deposit (0 when the range is entirely on token_a's side)"),
		native.PSlippage, native.PDeadline,
		native.PClaims("token_a", "token_a"), native.PClaims("token_b", "token_b")},
	Action: "add_liquidity", Venue: "uniswap_v3_nft",
	When: hasNPM,
	Plan: planMintPosition,
}

func planMintPosition(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	npm, err := npmOf(env)
	if err != nil {
		return nil, err
	}
	args := native.ArgsOf(in)
	a, b := args.Pair("token_a", "token_b")
	desA, desB := args.Amount("amount_a_desired"), args.Amount("amount_b_desired")
	if err := args.Err(); err != nil {
		return nil, err
	}
	if desA.Sign() == 0 && desB.Sign() == 0 {
		return nil, errors.New("amount_a_desired and amount_b_desired are both 0")
	}
	fee := args.Int("fee", 0)
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	mp, err := mintPoolOf(ctx, env, npm, a, b, fee)
	if err != nil {
		return nil, err
	}
	st, m0, m1 := mp.st, mp.m0, mp.m1
	in.Step(1)
	lo, hi, err := mintRange(in, st, mp.ma, m0, m1)
	if err != nil {
		return nil, err
	}
	des0, des1 := desA, desB
	if a != st.token0 {
		des0, des1 = desB, desA
	}
	d, err := planDeposit(st, lo, hi, des0, des1, args.Int("slippage_bps", native.DefaultSlippageBps))
	if err != nil {
		return nil, err
	}
	in.Step(2)
	txs, err := mintTxs(ctx, env, in, npm, mp, lo, hi, d, owner)
	if err != nil {
		return nil, err
	}
	summary, err := mintSummary(mp, lo, hi, d)
	if err != nil {
		return nil, err
	}
	pa, pb := "token_a", "token_b"
	if a != st.token0 {
		pa, pb = pb, pa
	}
	return native.NewPlan(ctx, env, txs,
		[]tool.TokenUse{native.Claimed(in, st.token0, d.amt0, true, pa), native.Claimed(in, st.token1, d.amt1, true, pb)},
		native.SumCents(native.ValueCents(ctx, env, st.token0, d.amt0), native.ValueCents(ctx, env, st.token1, d.amt1)),
		summary), nil
}

// mintPool is the existing pool a position is minted in: its address and
// state, token_a's metadata, and its tokens' in pool order.
type mintPool struct {
	addr       common.Address
	st         v3PoolState
	ma, m0, m1 native.TokenInfo
}

// mintPoolOf finds and reads the pool of a and b with fee under npm's
// factory; it does not create one.
func mintPoolOf(ctx context.Context, env *native.Env, npm, a, b common.Address, fee int64) (mintPool, error) {
	var mp mintPool
	factory, err := npmFactory(ctx, env, npm)
	if err != nil {
		return mp, err
	}
	if mp.addr, err = v3PoolOf(ctx, env, factory, a, b, fee); err != nil {
		return mp, fmt.Errorf("%w (this tool does not create pools)", err)
	}
	if mp.st, err = readV3Pool(ctx, env, mp.addr); err != nil {
		return mp, err
	}
	if mp.ma, _, err = native.TokenInfoPair(ctx, env, a, b); err != nil {
		return mp, err
	}
	mp.m0, mp.m1, err = native.TokenInfoPair(ctx, env, mp.st.token0, mp.st.token1)
	return mp, err
}

// mintTxs are the deposit's approvals and the mint of the position over
// [lo, hi] to owner, with the call's deadline.
func mintTxs(ctx context.Context, env *native.Env, in *registry.Input, npm common.Address, mp mintPool, lo, hi int64, d v3Deposit, owner common.Address) ([]tool.Tx, error) {
	txs, err := depositTxs(ctx, env, npm, mp.m0, mp.m1, d)
	if err != nil {
		return nil, err
	}
	dl, err := native.Deadline(ctx, env, in)
	if err != nil {
		return nil, err
	}
	mint, err := native.Tx(chain.UniswapV3PositionManagerABI(), npm, "mint position", "mint", mintParams{
		Token0: mp.st.token0, Token1: mp.st.token1, Fee: big.NewInt(mp.st.fee), TickLower: big.NewInt(lo), TickUpper: big.NewInt(hi),
		Amount0Desired: d.amt0, Amount1Desired: d.amt1, Amount0Min: d.min0, Amount1Min: d.min1, Recipient: owner, Deadline: dl,
	})
	if err != nil {
		return nil, err
	}
	return append(txs, mint), nil
}

// mintSummary describes the mint: pool, fee, range in ticks and prices,
// liquidity and amounts.
func mintSummary(mp mintPool, lo, hi int64, d v3Deposit) (string, error) {
	m0, m1 := mp.m0, mp.m1
	pl, err := tickPrice(lo, m0.Decimals, m1.Decimals)
	if err != nil {
		return "", err
	}
	pu, err := tickPrice(hi, m0.Decimals, m1.Decimals)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("mint a Uniswap V3 position NFT in pool %s (fee %s) over ticks [%d, %d] (%s to %s %s per %s) with %s liquidity for %s %s and %s %s",
		mp.addr.Hex(), feePct(mp.st.fee), lo, hi, pl, pu, m1.Symbol, m0.Symbol, d.liq,
		native.FormatUnits(d.amt0, m0.Decimals), m0.Symbol, native.FormatUnits(d.amt1, m1.Decimals), m1.Symbol), nil
}

// ---- uniswap_v3_increase_liquidity ----

var increaseLiquidity = native.WriteTool{
	Name: "uniswap_v3_increase_liquidity",
	Description: "Add liquidity to a Uniswap V3 position NFT the agent's wallet owns (NonfungiblePositionManager.increaseLiquidity), in the position's own range. " +
		"Give the most of the pool's token0 and token1 to add; the plan computes from the current price the liquidity they buy and the exact amounts it takes (never more), " +
		"protects them with slippage_bps (default 0.5%) and adds exact approves of the position manager. " +
		"Refuses a token_id the wallet does not own (adding to someone else's position would give them the tokens). " +
		"Use to grow a position listed by uniswap_v3_list_positions. Does not change the range (mint a new position) or take native ETH.",
	Category: tool.CatLP, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the position and pool", "Checking balances and allowances", "Sending approves and increaseLiquidity", "Confirming"},
	Snippet:  "uniswap_v3_increase_liquidity adds liquidity to a V3 position NFT the wallet owns.",
	Required: []string{"token_id", "amount0_desired", "amount1_desired"},
	Params: []string{
		pTokenID("The position to add to"),
		native.PAmount("amount0_desired", "Most of the pool's token0 to add"),
		native.PAmount("amount1_desired", "Most of the pool's token1 to add"),
		native.PSlippage, native.PDeadline,
		native.PClaims("token0", "the pool's token0"), native.PClaims("token1", "the pool's token1")},
	Action: "increase_liquidity", Venue: "uniswap_v3_nft",
	When:    hasNPM,
	Plan:    planIncreaseLiquidity,
	Recheck: recheckOwner,
}

func planIncreaseLiquidity(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	args := native.ArgsOf(in)
	npm, id, err := positionArg(env, args)
	if err != nil {
		return nil, err
	}
	des0, des1 := args.Amount("amount0_desired"), args.Amount("amount1_desired")
	if err := args.Err(); err != nil {
		return nil, err
	}
	if des0.Sign() == 0 && des1.Sign() == 0 {
		return nil, errors.New("amount0_desired and amount1_desired are both 0")
	}
	in.Step(0)
	p, err := ownedPosition(ctx, env, npm, id)
	if err != nil {
		return nil, err
	}
	st, err := p.pool(ctx, env, npm)
	if err != nil {
		return nil, err
	}
	d, err := planDeposit(st, p.lo, p.hi, des0, des1, args.Int("slippage_bps", native.DefaultSlippageBps))
	if err != nil {
		return nil, err
	}
	m0, m1, err := native.TokenInfoPair(ctx, env, p.token0, p.token1)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	txs, err := depositTxs(ctx, env, npm, m0, m1, d)
	if err != nil {
		return nil, err
	}
	dl, err := native.Deadline(ctx, env, in)
	if err != nil {
		return nil, err
	}
	inc, err := native.Tx(chain.UniswapV3PositionManagerABI(), npm, "increase liquidity", "increaseLiquidity", increaseParams{
		TokenId: id, Amount0Desired: d.amt0, Amount1Desired: d.amt1, Amount0Min: d.min0, Amount1Min: d.min1, Deadline: dl,
	})
	if err != nil {
		return nil, err
	}
	txs = append(txs, inc)
	return native.NewPlan(ctx, env, txs,
		[]tool.TokenUse{native.Claimed(in, p.token0, d.amt0, true, "token0"), native.Claimed(in, p.token1, d.amt1, true, "token1")},
		native.SumCents(native.ValueCents(ctx, env, p.token0, d.amt0), native.ValueCents(ctx, env, p.token1, d.amt1)),
		fmt.Sprintf("add %s liquidity to Uniswap V3 position %s (ticks [%d, %d]) for %s %s and %s %s",
			d.liq, id, p.lo, p.hi, native.FormatUnits(d.amt0, m0.Decimals), m0.Symbol, native.FormatUnits(d.amt1, m1.Decimals), m1.Symbol)), nil
}

// ---- uniswap_v3_decrease_liquidity ----

var decreaseLiquidity = native.WriteTool{
	Name: "uniswap_v3_decrease_liquidity",
	Description: "Remove liquidity from a Uniswap V3 position NFT the agent's wallet owns and receive the freed tokens and all uncollected fees in the wallet, " +
		"in one NonfungiblePositionManager multicall (decreaseLiquidity then collect), so nothing is left owed in the position. " +
		"Give liquidity (an amount in the position's liquidity units, or \"max\") or percent (1 to 100) of the position's liquidity. " +
		"The minimum of each token is the current redemption less slippage_bps (default 0.5%) plus the fees owed now. " +
		"Refuses a token_id the wallet does not own. Use to shrink or exit a position listed by uniswap_v3_list_positions. " +
		"Does not burn the NFT, unwrap WETH, or touch positions held directly in a pool (uniswap_remove_v3_liquidity).",
	Category: tool.CatLP, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the position and pool", "Computing the redemption and fees", "Sending decreaseLiquidity and collect", "Confirming"},
	Snippet:  "uniswap_v3_decrease_liquidity removes liquidity from a V3 position NFT and collects the tokens and fees.",
	Required: []string{"token_id"},
	Params: []string{
		pTokenID("The position to remove liquidity from"),
		native.PAmountMax("liquidity", "Liquidity to remove (the position's liquidity units, see uniswap_v3_list_positions); or give percent"),
		native.PInt("percent", "Share of the position's liquidity to remove, 1 to 100 (instead of liquidity)", 1, 100),
		native.PSlippage, native.PDeadline},
	Action: "remove_liquidity", Venue: "uniswap_v3_nft",
	When:    hasNPM,
	Plan:    planDecreaseLiquidity,
	Recheck: recheckOwner,
}

// planDecreaseLiquidity plans uniswap_v3_decrease_liquidity in stages:
// the arguments, the position and the liquidity it gives up
// (removedLiquidity), the tokens and fees that frees (redeem), and the
// multicall that takes them (decreaseAndCollect).
func planDecreaseLiquidity(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	args := native.ArgsOf(in)
	npm, id, err := positionArg(env, args)
	if err != nil {
		return nil, err
	}
	byLiq, byPct := args.Has("liquidity"), args.Has("percent")
	if byLiq == byPct {
		return nil, errors.New("give liquidity or percent (one of them)")
	}
	var liq *big.Int // nil: all of it
	if byLiq {
		if liq = args.AmountOrMax("liquidity"); args.Err() != nil {
			return nil, args.Err()
		}
	}
	wallet, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	p, err := ownedPosition(ctx, env, npm, id)
	if err != nil {
		return nil, err
	}
	if liq, err = removedLiquidity(p, id, liq, byPct, args.Int("percent", 0)); err != nil {
		return nil, err
	}
	st, err := p.pool(ctx, env, npm)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	r, err := redeem(ctx, env, npm, st, p, liq, args.Int("slippage_bps", native.DefaultSlippageBps))
	if err != nil {
		return nil, err
	}
	m0, m1, err := native.TokenInfoPair(ctx, env, p.token0, p.token1)
	if err != nil {
		return nil, err
	}
	dl, err := native.Deadline(ctx, env, in)
	if err != nil {
		return nil, err
	}
	tx, err := decreaseAndCollect(npm, wallet, decreaseParams{TokenId: id, Liquidity: liq, Amount0Min: r.min0, Amount1Min: r.min1, Deadline: dl})
	if err != nil {
		return nil, err
	}
	// Fees only grow between preview and execution, so the fees owed now
	// are a floor of what collect pays on top of the freed tokens.
	in0, in1 := new(big.Int).Add(r.min0, r.f0), new(big.Int).Add(r.min1, r.f1)
	e0, e1 := new(big.Int).Add(r.a0, r.f0), new(big.Int).Add(r.a1, r.f1)
	return native.NewPlan(ctx, env, []tool.Tx{tx},
		[]tool.TokenUse{
			{Token: tool.Address(p.token0), Decimals: -1, Amount: in0},
			{Token: tool.Address(p.token1), Decimals: -1, Amount: in1},
		},
		native.SumCents(native.ValueCents(ctx, env, p.token0, e0), native.ValueCents(ctx, env, p.token1, e1)),
		fmt.Sprintf("remove %s of %s liquidity from Uniswap V3 position %s (ticks [%d, %d]) and collect at least %s %s and %s %s to the wallet (about %s %s and %s %s, fees included)",
			liq, p.liquidity, id, p.lo, p.hi, native.FormatUnits(in0, m0.Decimals), m0.Symbol, native.FormatUnits(in1, m1.Decimals), m1.Symbol,
			native.FormatUnits(e0, m0.Decimals), m0.Symbol, native.FormatUnits(e1, m1.Decimals), m1.Symbol)), nil
}

// removedLiquidity is the liquidity a decrease takes from position id:
// pct percent of it (byPct), else liq, or all of it when liq is nil. It
// refuses a percent outside 1 to 100, a position without liquidity, a
// share that rounds to 0, and more than the position holds.
func removedLiquidity(p npmPosition, id, liq *big.Int, byPct bool, pct int64) (*big.Int, error) {
	switch {
	case byPct:
		if pct < 1 || pct > 100 {
			return nil, errors.New("percent must be between 1 and 100")
		}
		liq = new(big.Int).Mul(p.liquidity, big.NewInt(pct))
		liq.Quo(liq, big.NewInt(100))
	case liq == nil:
		liq = new(big.Int).Set(p.liquidity)
	}
	if p.liquidity.Sign() == 0 {
		return nil, fmt.Errorf("position %s has no liquidity left: collect its fees with uniswap_v3_collect_fees", id)
	}
	if liq.Sign() == 0 {
		return nil, errors.New("the liquidity to remove rounds to 0")
	}
	if liq.Cmp(p.liquidity) > 0 {
		return nil, fmt.Errorf("position %s holds %s liquidity, less than %s", id, p.liquidity, liq)
	}
	return liq, nil
}

// redemption is what removing liquidity frees at the pool's price now:
// the tokens (a0, a1), their slippage minima and the fees owed (f0, f1).
type redemption struct {
	a0, a1, min0, min1, f0, f1 *big.Int
}

// redeem is the redemption of liq of position p in the pool st, its
// minima bps basis points under the amounts.
func redeem(ctx context.Context, env *native.Env, npm common.Address, st v3PoolState, p npmPosition, liq *big.Int, bps int64) (redemption, error) {
	var r redemption
	sa, sb, err := sqrtRatios(p.lo, p.hi)
	if err != nil {
		return r, err
	}
	if r.a0, r.a1, err = v3Amounts(st.sqrtP, sa, sb, liq, false); err != nil {
		return r, err
	}
	if r.f0, r.f1, err = npmFees(ctx, env, npm, p); err != nil {
		return r, err
	}
	r.min0, r.min1 = native.SlippageMin(r.a0, bps), native.SlippageMin(r.a1, bps)
	return r, nil
}

// decreaseAndCollect is the NPM multicall that removes liquidity as dec
// says and collects everything the position is then owed to wallet, so
// nothing is left owed in it.
func decreaseAndCollect(npm, wallet common.Address, dec decreaseParams) (tool.Tx, error) {
	a := chain.UniswapV3PositionManagerABI()
	d, err := a.Pack("decreaseLiquidity", dec)
	if err != nil {
		return tool.Tx{}, err
	}
	c, err := a.Pack("collect", collectAll(dec.TokenId, wallet))
	if err != nil {
		return tool.Tx{}, err
	}
	return native.Tx(a, npm, "decrease liquidity and collect", "multicall", [][]byte{d, c})
}

// ---- uniswap_v3_collect_fees ----

var collectFees = native.WriteTool{
	Name: "uniswap_v3_collect_fees",
	Description: "Collect everything a Uniswap V3 position NFT the agent's wallet owns is owed (its trading fees, and any tokens freed by an earlier decrease) to the wallet, " +
		"with NonfungiblePositionManager.collect for the maximum amounts; the plan states the exact amounts, found by simulating the collect. " +
		"Refuses a token_id the wallet does not own, and a position with nothing to collect. " +
		"Use to harvest fees while keeping the liquidity in place; see them first with uniswap_v3_list_positions. " +
		"Does not remove liquidity (uniswap_v3_decrease_liquidity), reinvest fees, or unwrap WETH.",
	Category: tool.CatLP, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the position", "Simulating the collect", "Sending collect", "Confirming"},
	Snippet:  "uniswap_v3_collect_fees collects a V3 position NFT's uncollected fees to the wallet.",
	Required: []string{"token_id"},
	Params: []string{
		pTokenID("The position whose fees to collect"),
		native.PClaims("token0", "the pool's token0"), native.PClaims("token1", "the pool's token1")},
	Action: "collect_fees", Venue: "uniswap_v3_nft",
	When:    hasNPM,
	Plan:    planCollectFees,
	Recheck: recheckOwner,
}

func planCollectFees(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	args := native.ArgsOf(in)
	npm, id, err := positionArg(env, args)
	if err != nil {
		return nil, err
	}
	wallet, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	p, err := ownedPosition(ctx, env, npm, id)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	f0, f1, err := npmFees(ctx, env, npm, p)
	if err != nil {
		return nil, err
	}
	if f0.Sign() == 0 && f1.Sign() == 0 {
		return nil, fmt.Errorf("position %s has nothing to collect", id)
	}
	m0, m1, err := native.TokenInfoPair(ctx, env, p.token0, p.token1)
	if err != nil {
		return nil, err
	}
	tx, err := native.Tx(chain.UniswapV3PositionManagerABI(), npm, "collect fees", "collect", collectAll(id, wallet))
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, []tool.Tx{tx},
		[]tool.TokenUse{native.Claimed(in, p.token0, f0, false, "token0"), native.Claimed(in, p.token1, f1, false, "token1")},
		native.SumCents(native.ValueCents(ctx, env, p.token0, f0), native.ValueCents(ctx, env, p.token1, f1)),
		fmt.Sprintf("collect %s %s and %s %s owed to Uniswap V3 position %s to the wallet",
			native.FormatUnits(f0, m0.Decimals), m0.Symbol, native.FormatUnits(f1, m1.Decimals), m1.Symbol, id)), nil
}
