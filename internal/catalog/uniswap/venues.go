package uniswap

import (
	"context"
	"fmt"
	"math/big"
	"sort"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Venue comparison: the same exact-input swap quoted on every Uniswap
// venue ward has, with price impact and gas, best first.

// Gas units assumed per venue: typical single-hop swaps through the
// routers (a V3 swap pays more for each initialized tick it crosses).
// They are assumptions, said in the result, not estimates of this call.
const (
	gasV2Swap      = 110_000
	gasV3Swap      = 120_000
	gasV3PerCross  = 25_000
	gasUnitsSource = "assumed typical single-hop router swap: V2 110000, V3 120000 + 25000 per initialized tick crossed"
)

var compareVenues = native.ReadTool{
	Name: "intel_compare_venues",
	Description: "Compare one exact-input swap on every Uniswap venue ward has: the V2 pair and each V3 fee tier (0.01%, 0.05%, " +
		"0.3%, 1%) with a pool, each with its output (V2 from the router's getAmountsOut, V3 computed exactly over the pool's ticks), " +
		"its price impact against the pool's mid price net of the fee, its fee, its gas cost and the output net of gas, best first. " +
		"Gas units are assumed typical figures (V2 110000, V3 120000 plus 25000 per initialized tick crossed), priced at the latest " +
		"base fee plus the node's suggested tip; the gas is converted into token_out with both tokens' USD feeds, and when either is " +
		"unpriced or stale the ranking is by gross output and says so. Single-pool routes only. Sends nothing.",
	Category: tool.CatIntelligence, Budget: tool.Medium,
	Steps:    []string{"Quoting each venue", "Pricing gas", "Ranking"},
	Snippet:  "intel_compare_venues quotes a swap on Uniswap V2 and each V3 fee tier with impact and gas, best first.",
	Required: []string{"token_in", "token_out", "amount_in"},
	Params: []string{
		native.PAddress("token_in", "The ERC-20 token sold (use WETH for ether)"),
		native.PAddress("token_out", "The ERC-20 token bought"),
		native.PAmount("amount_in", "Exact amount of token_in to sell")},
	Result: []string{
		`"venues":{"type":"array","description":"best first","items":{"type":"object"}}`,
		native.RProp("ranked_by", "string", "net_of_gas or gross_output"),
		`"unavailable":{"type":"array","items":{"type":"string"}}`},
	Action: "compare_venues", Venue: "uniswap",
	Run: readCompareVenues,
}

type venueOut struct {
	Venue        string            `json:"venue"`
	Pool         string            `json:"pool"`
	Fee          int64             `json:"fee"`
	AmountOut    native.AmountOut  `json:"amount_out"`
	ImpactBps    float64           `json:"price_impact_bps"`
	TicksCrossed int               `json:"ticks_crossed,omitempty"`
	GasUnits     int64             `json:"gas_units"`
	GasCostWei   string            `json:"gas_cost_wei"`
	GasInOut     *native.AmountOut `json:"gas_cost_in_token_out,omitempty"`
	NetOut       *native.AmountOut `json:"amount_out_net_of_gas,omitempty"`
	net          *big.Int
	out          *big.Int
}

// impactBps is the output's shortfall against the mid price net of the
// fee, in basis points: 1 - out / (amountIn · mid · (1 - fee)).
func impactBps(out, amountIn *big.Int, mid *big.Rat, fee int64) float64 {
	ideal := new(big.Rat).Mul(new(big.Rat).SetInt(amountIn), mid)
	ideal.Mul(ideal, big.NewRat(1_000_000-fee, 1_000_000))
	if ideal.Sign() == 0 {
		return 0
	}
	r := new(big.Rat).Quo(new(big.Rat).SetInt(out), ideal)
	f, _ := r.Float64()
	return (1 - f) * 10_000
}

func readCompareVenues(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	args := native.ArgsOf(in)
	tokIn, tokOut, amount := quoteArgs(args)
	if err := args.Err(); err != nil {
		return nil, err
	}
	mi, mo, err := native.TokenInfoPair(ctx, env, tokIn, tokOut)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	qs, missing := quoteVenues(ctx, env, tokIn, tokOut, amount)
	in.Step(1)
	price, err := gasPrice(ctx, env)
	if err != nil {
		return nil, err
	}
	outPerWei := outPerWeiOf(ctx, env, mo)
	in.Step(2)
	outs, ranked := rankVenues(qs, amount, price, outPerWei, mo)
	return map[string]any{
		"token_in": mi, "token_out": mo, "amount_in": native.AmountOf(amount, mi.Decimals),
		"venues": outs, "ranked_by": ranked, "gas_price_wei": price.String(), "gas_units_source": gasUnitsSource,
		"unavailable": missing,
	}, nil
}

// quoteVenues quotes amount of tokIn for tokOut on Uniswap V2 and on each
// V3 fee tier; missing says, venue by venue, why one has no quote.
func quoteVenues(ctx context.Context, env *native.Env, tokIn, tokOut common.Address, amount *big.Int) ([]quote, []string) {
	var qs []quote
	missing := []string{}
	if r := env.Venues.UniswapV2Router; r == (common.Address{}) {
		missing = append(missing, "uniswap_v2: no router configured")
	} else if q, err := quoteV2(ctx, env, r, tokIn, tokOut, amount); err != nil {
		missing = append(missing, "uniswap_v2: "+err.Error())
	} else {
		qs = append(qs, q)
	}
	if r := v3RouterOf(env); r == (common.Address{}) {
		missing = append(missing, "uniswap_v3: no router configured")
	} else if factory, err := v3FactoryOf(ctx, env, r); err != nil {
		missing = append(missing, "uniswap_v3: "+err.Error())
	} else {
		for _, fee := range FeeTiers {
			if q, err := quoteV3(ctx, env, factory, tokIn, tokOut, fee, amount); err != nil {
				missing = append(missing, fmt.Sprintf("uniswap_v3 fee %d: %s", fee, err))
			} else {
				qs = append(qs, q)
			}
		}
	}
	return qs, missing
}

// outPerWeiOf is token_out (mo) base units per wei, from the ETH and
// token_out feeds; nil when either has no fresh, positive answer.
func outPerWeiOf(ctx context.Context, env *native.Env, mo native.TokenInfo) *big.Rat {
	pe, errE := native.PriceOf(ctx, env, common.Address{})
	po, errO := native.PriceOf(ctx, env, mo.Address)
	if errE != nil || errO != nil || pe.Stale || po.Stale || pe.Answer.Sign() <= 0 || po.Answer.Sign() <= 0 {
		return nil
	}
	num := new(big.Int).Mul(pe.Answer, native.Pow10(int(mo.Decimals)+int(po.Decimals)))
	den := new(big.Int).Mul(po.Answer, native.Pow10(18+int(pe.Decimals)))
	return new(big.Rat).SetFrac(num, den)
}

// rankVenues costs each quote's gas at price (wei per unit) and ranks the
// quotes by their output net of gas, or gross where outPerWei is nil (gas
// cannot be priced in token_out); ranked says which.
func rankVenues(qs []quote, amount, price *big.Int, outPerWei *big.Rat, mo native.TokenInfo) ([]venueOut, string) {
	outs := []venueOut{}
	for _, q := range qs {
		units := int64(gasV2Swap)
		if q.venue == "uniswap_v3" {
			units = gasV3Swap + gasV3PerCross*int64(q.v3Cross)
		}
		cost := new(big.Int).Mul(price, big.NewInt(units))
		v := venueOut{Venue: q.venue, Pool: q.pool.Hex(), Fee: q.fee, AmountOut: native.AmountOf(q.out, mo.Decimals),
			ImpactBps: impactBps(q.out, amount, q.midRate, q.fee), TicksCrossed: q.v3Cross, GasUnits: units,
			GasCostWei: cost.String(), out: q.out}
		if outPerWei != nil {
			g := new(big.Rat).Mul(new(big.Rat).SetInt(cost), outPerWei)
			gi := new(big.Int).Quo(g.Num(), g.Denom())
			net := new(big.Int).Sub(q.out, gi)
			ga, na := native.AmountOf(gi, mo.Decimals), native.AmountOf(net, mo.Decimals)
			v.GasInOut, v.NetOut, v.net = &ga, &na, net
		}
		outs = append(outs, v)
	}
	ranked := "gross_output (token_out or ETH has no fresh USD feed to price gas in token_out)"
	key := func(v venueOut) *big.Int { return v.out }
	if outPerWei != nil {
		ranked, key = "net_of_gas", func(v venueOut) *big.Int { return v.net }
	}
	sort.SliceStable(outs, func(i, j int) bool { return key(outs[i]).Cmp(key(outs[j])) > 0 })
	return outs, ranked
}

// gasPrice is the latest base fee plus the node's suggested tip (the
// node's gas price on a chain without a base fee).
func gasPrice(ctx context.Context, env *native.Env) (*big.Int, error) {
	h, err := native.Head(ctx, env)
	if err != nil {
		return nil, err
	}
	if h.BaseFee == nil {
		return env.Chain.SuggestGasPrice(ctx)
	}
	tip, err := env.Chain.SuggestGasTip(ctx)
	if err != nil {
		return nil, err
	}
	return new(big.Int).Add(h.BaseFee, tip), nil
}
