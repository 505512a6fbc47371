package uniswap

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// The MEV exposure of a swap: how much a sandwich can take from it within
// the agent's slippage tolerance, from the pool's depth.

var mevExposure = native.ReadTool{
	Name: "intel_estimate_mev_exposure",
	Description: "Estimate how exposed an exact-input swap is to a sandwich attack: the largest front-run that still leaves the swap " +
		"its minimum output (the quote less slippage_bps), what the swap then receives, and what the attacker keeps after selling " +
		"back (in token_in, before gas and builder payments). Computed on a Uniswap V2 pair with the pair's exact arithmetic " +
		"(0.3% fee), or on a V3 pool (fee given) from its active liquidity as constant-product virtual reserves, which assumes the " +
		"three trades cross no initialized tick (exact for ward's full-range dev pools, an approximation near a range's edge). " +
		"Assumes the attacker alone trades around the swap in the same block and has the capital. A loss of zero means the " +
		"tolerance leaves no room; a tighter slippage_bps always lowers the bound. Use it to choose slippage_bps or to split or route " +
		"a large swap privately. Sends nothing.",
	Category: tool.CatIntelligence, Budget: tool.Medium,
	Steps:    []string{"Reading the pool", "Searching the largest front-run"},
	Snippet:  "intel_estimate_mev_exposure bounds a sandwich's take from a swap's slippage tolerance and the pool depth.",
	Required: []string{"token_in", "token_out", "amount_in", "slippage_bps"},
	Params: []string{
		native.PAddress("token_in", "The ERC-20 token sold"),
		native.PAddress("token_out", "The ERC-20 token bought"),
		native.PAmount("amount_in", "Exact amount of token_in to sell"),
		native.PInt("slippage_bps", "The swap's slippage tolerance in basis points (50 = 0.5%)", 1, 5000),
		native.PString("version", "Pool to assess: v2 (default) or v3", "v2", "v3"),
		`"fee":{"type":"integer","enum":[100,500,3000,10000],"description":"V3 fee tier (with version v3; default 3000)"}`,
	},
	Result: []string{
		native.RAmountProp("victim_loss", "how much less token_out the swap receives when sandwiched"),
		native.RAmountProp("attacker_profit", "what the attacker keeps, in token_in, before gas"),
		native.RProp("profitable", "boolean", "The bound is positive")},
	Action: "mev_exposure", Venue: "uniswap",
	Run: readMEV,
}

// cpPool is a constant-product pool seen from token_in: reserves and the
// fee in hundredths of a bip.
type cpPool struct {
	rIn, rOut *big.Int
	fee       int64
}

// out is the output of an exact input: a·(1-fee)·rOut / (rIn + a·(1-fee)),
// Uniswap V2's getAmountOut for fee 3000.
func (p cpPool) out(a *big.Int) *big.Int {
	if a.Sign() <= 0 {
		return new(big.Int)
	}
	withFee := new(big.Int).Mul(a, big.NewInt(1_000_000-p.fee))
	num := new(big.Int).Mul(withFee, p.rOut)
	den := new(big.Int).Mul(p.rIn, big.NewInt(1_000_000))
	return num.Quo(num, den.Add(den, withFee))
}

type sandwich struct {
	front, frontOut, victimOut, back, profit *big.Int
}

// sandwichAt plays a front-run of a token_in, the victim's v, and the
// back-run selling what the front-run bought.
func sandwichAt(p cpPool, a, v *big.Int) sandwich {
	s := sandwich{front: a, frontOut: p.out(a)}
	p1 := cpPool{rIn: new(big.Int).Add(p.rIn, a), rOut: new(big.Int).Sub(p.rOut, s.frontOut), fee: p.fee}
	s.victimOut = p1.out(v)
	// The back-run sells token_out into the pool: reserves swap roles.
	p2 := cpPool{rIn: new(big.Int).Sub(p1.rOut, s.victimOut), rOut: new(big.Int).Add(p1.rIn, v), fee: p.fee}
	s.back = p2.out(s.frontOut)
	s.profit = new(big.Int).Sub(s.back, a)
	return s
}

// maxSandwich finds the largest front-run after which the victim still
// gets minOut (the victim's output falls as the front-run grows).
func maxSandwich(p cpPool, v, minOut *big.Int) sandwich {
	ok := func(a *big.Int) bool { return sandwichAt(p, a, v).victimOut.Cmp(minOut) >= 0 }
	lo, hi := new(big.Int), new(big.Int).Set(p.rIn)
	for i := 0; ok(hi) && i < 256; i++ {
		lo.Set(hi)
		hi.Lsh(hi, 1)
	}
	// ok(lo), !ok(hi): bisect.
	for new(big.Int).Sub(hi, lo).Cmp(native.BigOne) > 0 {
		mid := new(big.Int).Add(lo, hi)
		mid.Rsh(mid, 1)
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return sandwichAt(p, lo, v)
}

func readMEV(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	args := native.ArgsOf(in)
	tokIn, tokOut, amount := quoteArgs(args)
	if err := args.Err(); err != nil {
		return nil, err
	}
	bps := native.ArgInt(in, "slippage_bps", 0)
	if bps < 1 || bps > 5000 {
		return nil, errors.New("slippage_bps must be between 1 and 5000")
	}
	mi, mo, err := native.TokenInfoPair(ctx, env, tokIn, tokOut)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	p, pool, model, err := cpPoolOf(ctx, env, in, tokIn, tokOut)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	quoted := p.out(amount)
	if quoted.Sign() == 0 {
		return nil, errors.New("the swap buys nothing from this pool")
	}
	minOut := new(big.Int).Mul(quoted, big.NewInt(10_000-bps))
	minOut.Quo(minOut, big.NewInt(10_000))
	s := maxSandwich(p, amount, minOut)
	loss := new(big.Int).Sub(quoted, s.victimOut)
	profit := s.profit
	if profit.Sign() < 0 {
		profit = new(big.Int)
	}
	return map[string]any{
		"token_in": mi, "token_out": mo, "amount_in": native.AmountOf(amount, mi.Decimals),
		"pool": pool.Hex(), "fee": p.fee, "model": model, "slippage_bps": bps,
		"quoted_out":      native.AmountOf(quoted, mo.Decimals),
		"min_out":         native.AmountOf(minOut, mo.Decimals),
		"front_run_in":    native.AmountOf(s.front, mi.Decimals),
		"sandwiched_out":  native.AmountOf(s.victimOut, mo.Decimals),
		"victim_loss":     native.AmountOf(loss, mo.Decimals),
		"attacker_profit": native.AmountOf(profit, mi.Decimals),
		"profitable":      profit.Sign() > 0,
		"assumptions": []string{
			"one attacker trades immediately before and after the swap in the same block, with enough capital",
			"profit is before gas, builder tips and any flash-loan fee",
			"the pool is unchanged by other trades until the swap",
		},
	}, nil
}

// cpPoolOf reads the pool to assess as constant-product reserves seen
// from tokIn.
func cpPoolOf(ctx context.Context, env *native.Env, in *registry.Input, tokIn, tokOut common.Address) (cpPool, common.Address, string, error) {
	if native.ArgString(in, "version", "v2") == "v2" {
		if env.Venues.UniswapV2Router == (common.Address{}) {
			return cpPool{}, common.Address{}, "", errors.New("no Uniswap V2 router is configured on this chain")
		}
		factory, err := v2FactoryOf(ctx, env, env.Venues.UniswapV2Router)
		if err != nil {
			return cpPool{}, common.Address{}, "", err
		}
		pair, err := v2PairOf(ctx, env, factory, tokIn, tokOut)
		if err != nil {
			return cpPool{}, pair, "", err
		}
		st, err := readV2Pair(ctx, env, pair)
		if err != nil {
			return cpPool{}, pair, "", err
		}
		rIn, rOut := st.reservesFor(tokIn)
		if rIn.Sign() == 0 || rOut.Sign() == 0 {
			return cpPool{}, pair, "", errors.New("the Uniswap V2 pair has no liquidity")
		}
		return cpPool{rIn: rIn, rOut: rOut, fee: v2Fee}, pair, "uniswap_v2 pair reserves, exact arithmetic", nil
	}
	router := v3RouterOf(env)
	if router == (common.Address{}) {
		return cpPool{}, common.Address{}, "", errors.New("no Uniswap V3 router is configured on this chain")
	}
	factory, err := v3FactoryOf(ctx, env, router)
	if err != nil {
		return cpPool{}, common.Address{}, "", err
	}
	fee := native.ArgInt(in, "fee", 3000)
	pool, err := v3PoolOf(ctx, env, factory, tokIn, tokOut, fee)
	if err != nil {
		return cpPool{}, pool, "", err
	}
	st, err := readV3Pool(ctx, env, pool)
	if err != nil {
		return cpPool{}, pool, "", err
	}
	if st.liquidity.Sign() == 0 || st.sqrtP.Sign() == 0 {
		return cpPool{}, pool, "", fmt.Errorf("the Uniswap V3 pool %s has no active liquidity", pool.Hex())
	}
	// Virtual reserves: x = L·2⁹⁶/√P, y = L·√P/2⁹⁶.
	q96 := new(big.Int).Lsh(native.BigOne, 96)
	x := new(big.Int).Quo(new(big.Int).Mul(st.liquidity, q96), st.sqrtP)
	y := new(big.Int).Quo(new(big.Int).Mul(st.liquidity, st.sqrtP), q96)
	p := cpPool{rIn: x, rOut: y, fee: st.fee}
	if tokIn != st.token0 {
		p.rIn, p.rOut = y, x
	}
	return p, pool, "uniswap_v3 active liquidity as virtual reserves (no tick crossing assumed)", nil
}
