package uniswap

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// The two swap tools are one planner over two venues, so that each has its
// own (swap, venue) entry in the adapter table. Swaps are EffectOpen: a
// swap can move into a position as well as out of one, and a tool's effect
// is fixed, so the phase gate treats every swap as the riskier kind.

func swapParams(router string) []string {
	return []string{
		native.PAddress("token_in", "The ERC-20 token to sell (WETH for ether: wrap ETH first)"),
		native.PAddress("token_out", "The ERC-20 token to buy"),
		native.PAmount("amount_in", "Exact amount of token_in to sell"),
		native.PSlippage,
		native.PAmount("min_amount_out", "Optional floor on the output in token_out base units; the plan uses the larger of this and the slippage-derived minimum"),
		native.PDeadline,
		native.PAddress("router", router),
		native.PClaims("token_in", "token_in"),
		native.PClaims("token_out", "token_out"),
		native.PChain,
	}
}

var swapV3 = native.WriteTool{
	Name: "uniswap_execute_swap",
	Description: "Swap an exact amount of one ERC-20 token for another through one Uniswap V3 pool (exactInputSingle on the original SwapRouter, or on SwapRouter02 inside a multicall with the deadline), received by the agent's wallet. " +
		"The plan quotes the swap exactly from the pool's state, sets the minimum output to the quote less slippage_bps (default 0.5%), " +
		"adds an exact approve of the router when the allowance is short, and picks the fee tier with the best output unless fee is given. " +
		"Use it to buy or sell on Uniswap V3; get a quote first with uniswap_get_quote if you want to compare venues. " +
		"Does not take native ETH (wrap it to WETH first), route through several pools (use uniswap_execute_routed_swap), or send the output to another address. For V2 pairs use uniswap_execute_v2_swap.",
	Category: tool.CatTrading, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:      []string{"Quoting the pool", "Checking balance and allowance", "Sending approve and swap", "Confirming"},
	Snippet:    "uniswap_execute_swap swaps an exact input on Uniswap V3 with a slippage-protected minimum.",
	Guidelines: []string{"Keep slippage_bps small (50 or less) on deep pools.", "Check uniswap_compute_price_impact for large trades."},
	Required:   []string{"token_in", "token_out", "amount_in"},
	Params: append(swapParams("Uniswap V3 SwapRouter with the original interface, whose params carry a deadline (mainnet 0xE592427A0AEce92De3Edee1F18E0157C05861564), or the chain's configured SwapRouter02; default: the chain's original SwapRouter, else its SwapRouter02"),
		`"fee":{"type":"integer","enum":[100,500,3000,10000],"description":"Fee tier of the pool in hundredths of a bip (3000 = 0.3%); default: the tier with the best output"}`),
	Action: "swap", Venue: "uniswap_v3",
	Plan: planSwap(true),
}

var swapV2 = native.WriteTool{
	Name: "uniswap_execute_v2_swap",
	Description: "Swap an exact amount of one ERC-20 token for another through a Uniswap V2 pair (Router02.swapExactTokensForTokens on the direct pair), received by the agent's wallet. " +
		"The plan quotes with the router's getAmountsOut, sets the minimum output to the quote less slippage_bps (default 0.5%), and adds an exact approve of the router when the allowance is short. " +
		"Use it when the V2 pair gives the better quote (see uniswap_get_quote). " +
		"Does not take native ETH (wrap it to WETH first), route through intermediate tokens, or send the output elsewhere. For V3 pools use uniswap_execute_swap.",
	Category: tool.CatTrading, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Quoting the pair", "Checking balance and allowance", "Sending approve and swap", "Confirming"},
	Snippet:  "uniswap_execute_v2_swap swaps an exact input on a Uniswap V2 pair with a slippage-protected minimum.",
	Required: []string{"token_in", "token_out", "amount_in"},
	Params:   swapParams("Uniswap V2 Router02 (default: the chain's configured one)"),
	Action:   "swap", Venue: "uniswap_v2",
	Plan: planSwap(false),
}

// exactInputSingleParams is SwapRouter.ExactInputSingleParams.
type exactInputSingleParams struct {
	TokenIn           common.Address
	TokenOut          common.Address
	Fee               *big.Int
	Recipient         common.Address
	Deadline          *big.Int
	AmountIn          *big.Int
	AmountOutMinimum  *big.Int
	SqrtPriceLimitX96 *big.Int
}

// exactInputSingleParams02 is SwapRouter02's ExactInputSingleParams: no
// deadline (its multicall carries one).
type exactInputSingleParams02 struct {
	TokenIn           common.Address
	TokenOut          common.Address
	Fee               *big.Int
	Recipient         common.Address
	AmountIn          *big.Int
	AmountOutMinimum  *big.Int
	SqrtPriceLimitX96 *big.Int
}

// isRouter02 reports whether router is the chain's SwapRouter02 and not
// (also) its original SwapRouter.
func isRouter02(env *native.Env, router common.Address) bool {
	return router == env.Venues.UniswapV3SwapRouter02 && router != env.Venues.UniswapV3Router
}

// exactInputSingle02 is SwapRouter02's exactInputSingle wrapped in
// multicall(deadline, ...), so the swap reverts after the deadline as the
// original router's does.
func exactInputSingle02(router common.Address, p exactInputSingleParams02, deadline *big.Int) (tool.Tx, error) {
	a := chain.UniswapV3SwapRouter02ABI()
	inner, err := a.Pack("exactInputSingle", p)
	if err != nil {
		return tool.Tx{}, err
	}
	return native.Tx(a, router, "swap", "multicall", deadline, [][]byte{inner})
}

// planSwap is the planner of a V3 swap (v3) or a V2 swap.
func planSwap(v3 bool) func(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	return func(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
		def := env.Venues.UniswapV2Router
		if v3 {
			def = v3RouterOf(env)
		}
		args := native.ArgsOf(in)
		tokIn, tokOut, amount := quoteArgs(args)
		router := args.Venue("router", def, "Uniswap router")
		if err := args.Err(); err != nil {
			return nil, err
		}
		owner, err := native.Owner(env)
		if err != nil {
			return nil, err
		}
		mi, mo, err := native.TokenInfoPair(ctx, env, tokIn, tokOut)
		if err != nil {
			return nil, err
		}
		in.Step(0)
		var q quote
		if v3 {
			q, err = quoteV3Best(ctx, env, router, tokIn, tokOut, native.ArgInt(in, "fee", 0), amount)
		} else {
			q, err = quoteV2(ctx, env, router, tokIn, tokOut, amount)
		}
		if err != nil {
			return nil, err
		}
		minOut := native.SlippageMin(q.out, native.ArgInt(in, "slippage_bps", native.DefaultSlippageBps))
		if floor := args.OptionalAmount("min_amount_out"); args.Err() != nil {
			return nil, args.Err()
		} else if floor != nil && floor.Cmp(minOut) > 0 {
			minOut = floor
		}
		if minOut.Sign() == 0 {
			return nil, fmt.Errorf("the swap would return nothing: %s %s buys less than one unit of %s", native.FormatUnits(amount, mi.Decimals), mi.Symbol, mo.Symbol)
		}
		in.Step(1)
		txs, err := native.Spend(ctx, env, mi, router, amount)
		if err != nil {
			return nil, err
		}
		dl, err := native.Deadline(ctx, env, in)
		if err != nil {
			return nil, err
		}
		var swap tool.Tx
		where := "Uniswap V2 pair " + q.pool.Hex()
		if v3 && isRouter02(env, router) {
			swap, err = exactInputSingle02(router, exactInputSingleParams02{
				TokenIn: tokIn, TokenOut: tokOut, Fee: big.NewInt(q.fee), Recipient: owner,
				AmountIn: amount, AmountOutMinimum: minOut, SqrtPriceLimitX96: new(big.Int),
			}, dl)
			where = fmt.Sprintf("Uniswap V3 pool %s (fee %s%%, SwapRouter02)", q.pool.Hex(), native.RatString(big.NewRat(q.fee, 10000), 6))
		} else if v3 {
			swap, err = native.Tx(chain.UniswapV3SwapRouterABI(), router, "swap", "exactInputSingle", exactInputSingleParams{
				TokenIn: tokIn, TokenOut: tokOut, Fee: big.NewInt(q.fee), Recipient: owner, Deadline: dl,
				AmountIn: amount, AmountOutMinimum: minOut, SqrtPriceLimitX96: new(big.Int),
			})
			where = fmt.Sprintf("Uniswap V3 pool %s (fee %s%%)", q.pool.Hex(), native.RatString(big.NewRat(q.fee, 10000), 6))
		} else {
			swap, err = native.Tx(chain.UniswapV2Router02ABI(), router, "swap", "swapExactTokensForTokens",
				amount, minOut, []common.Address{tokIn, tokOut}, owner, dl)
		}
		if err != nil {
			return nil, err
		}
		txs = append(txs, swap)
		return native.NewPlan(ctx, env, txs,
			[]tool.TokenUse{native.Claimed(in, tokIn, amount, true, "token_in"), native.Claimed(in, tokOut, minOut, false, "token_out")},
			native.ValueCents(ctx, env, tokIn, amount),
			fmt.Sprintf("swap %s %s for at least %s %s (quoted %s) on %s",
				native.FormatUnits(amount, mi.Decimals), mi.Symbol, native.FormatUnits(minOut, mo.Decimals), mo.Symbol,
				native.FormatUnits(q.out, mo.Decimals), where)), nil
	}
}
