package token

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

// The WETH tools: wrapping native ETH into the WETH9 token and back, on
// the WETH contract of ward's venues.

var wrap = native.WriteTool{
	Name: "weth_wrap_eth",
	Description: "Wrap native ETH into WETH (the WETH9 contract ward knows), one for one, so it can be swapped, supplied or deposited " +
		"like any ERC-20 token. Use it before an action that needs WETH when the wallet holds ETH. Keep some ETH unwrapped for gas. " +
		"Fails when the wallet holds less ETH than the amount. Does not swap to any other token.",
	Category: tool.CatTrading, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Sending deposit", "Confirming"},
	Snippet:  "weth_wrap_eth wraps ETH into WETH one for one.",
	Required: []string{"amount"},
	Params: []string{
		native.PAmount("amount", "How much ETH to wrap, in wei (1 ETH = \"1000000000000000000\")")},
	Action: "wrap", Venue: "weth",
	When: hasWETH,
	Plan: planWETH(true),
}

var unwrap = native.WriteTool{
	Name: "weth_unwrap_eth",
	Description: "Unwrap WETH back into native ETH (the WETH9 contract ward knows), one for one. Use it to exit to the base asset or " +
		"to get ETH for gas. Fails when the wallet holds less WETH than the amount. Does not swap other tokens to ETH.",
	Category: tool.CatTrading, Risk: tool.Layer2, Effect: tool.EffectUnwind,
	Steps:    []string{"Sending withdraw", "Confirming"},
	Snippet:  "weth_unwrap_eth unwraps WETH into ETH one for one.",
	Required: []string{"amount"},
	Params: []string{
		native.PAmount("amount", "How much WETH to unwrap, in wei (1 WETH = \"1000000000000000000\")")},
	Action: "unwrap", Venue: "weth",
	When: hasWETH,
	Plan: planWETH(false),
}

// planWETH returns the planner of a one-for-one move between native ETH
// and WETH: wrap (deposit, paying ETH) or its reverse (withdraw). The
// agent claimed no symbol or decimals (Decimals -1): the tool names both
// tokens itself.
func planWETH(wrap bool) func(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	return func(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
		amount, err := native.ArgAmount(in, "amount")
		if err != nil {
			return nil, err
		}
		if amount.Sign() == 0 {
			return nil, errors.New("amount must be positive")
		}
		owner, weth := env.Wallet.Address(), env.Venues.WETH
		// The wallet pays from and gets to (the zero address is ETH).
		var bal *big.Int
		from, to := weth, common.Address{}
		if wrap {
			from, to = to, from
			bal, err = env.Chain.BalanceOf(ctx, owner)
		} else {
			bal, err = env.Chain.TokenBalance(ctx, weth, owner)
		}
		if err != nil {
			return nil, err
		}
		var t tool.Tx
		switch {
		case wrap && bal.Cmp(amount) < 0:
			return nil, fmt.Errorf("insufficient ETH: the wallet holds %s ETH and wrapping needs %s ETH plus gas", native.FormatUnits(bal, 18), native.FormatUnits(amount, 18))
		case bal.Cmp(amount) < 0:
			return nil, fmt.Errorf("insufficient WETH: the wallet holds %s WETH and unwrapping needs %s", native.FormatUnits(bal, 18), native.FormatUnits(amount, 18))
		case wrap:
			t, err = native.Tx(chain.WETH9ABI(), weth, "wrap", "deposit")
			t.Value = amount
		default:
			t, err = native.Tx(chain.WETH9ABI(), weth, "unwrap", "withdraw", amount)
		}
		if err != nil {
			return nil, err
		}
		summary := fmt.Sprintf("unwrap %s WETH (%s) into ETH", native.FormatUnits(amount, 18), weth.Hex())
		if wrap {
			summary = fmt.Sprintf("wrap %s ETH into WETH (%s)", native.FormatUnits(amount, 18), weth.Hex())
		}
		return native.NewPlan(ctx, env, []tool.Tx{t},
			[]tool.TokenUse{{Token: tool.Address(from), Decimals: -1, Amount: amount, Out: true}, {Token: tool.Address(to), Decimals: -1, Amount: amount}},
			native.ValueCents(ctx, env, from, amount), summary), nil
	}
}
