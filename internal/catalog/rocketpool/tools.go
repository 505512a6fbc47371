package rocketpool

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

var info = native.ReadTool{
	Name: "rocketpool_get_info",
	Description: "Describe the Rocket Pool deployment ward knows on this chain: the rETH token and deposit pool, the exchange rate (ETH one rETH is worth), " +
		"rETH's supply, whether deposits are open, the deposit fee, the least one deposit takes and the most the pool accepts now, and the ETH available " +
		"to pay rETH burns. Use it before rocketpool_deposit_eth or rocketpool_burn_reth. Does not report an APR (Rocket Pool's contracts expose none) " +
		"and does not show anyone's rETH (rocketpool_get_position).",
	Category: tool.CatStaking, Budget: tool.Medium,
	Steps:   []string{"Reading Rocket Pool's storage", "Reading rETH", "Reading the deposit pool"},
	Snippet: "rocketpool_get_info reads rETH's exchange rate, deposit limits and fee, and the ETH available for burns.",
	Result: []string{
		native.RProp("reth", "string", "rETH"), native.RProp("deposit_pool", "string", "the deposit pool"),
		native.RProp("exchange_rate", "string", "ETH one rETH is worth"), native.RAmountProp("reth_supply", "rETH issued"),
		native.RAmountProp("total_collateral", "ETH available now to pay rETH burns"),
		native.RProp("deposits_enabled", "boolean", "whether the deposit pool takes deposits"),
		native.RProp("deposit_fee_percent", "string", "share of a deposit kept as fee, in percent"),
		native.RAmountProp("minimum_deposit", "least ETH one deposit takes"), native.RAmountProp("maximum_deposit", "most ETH the pool takes now"),
		native.RAmountProp("deposit_pool_balance", "ETH waiting in the deposit pool"),
		native.RProp("tvl_usd", "number", "ETH backing rETH in USD"),
	},
	Action: "staking_info", Venue: "rocketpool", When: hasRocketPool,
	Run: readInfo,
}

func readInfo(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	rate1, err := call(ctx, env, d.reth, "getExchangeRate")
	if err != nil {
		return nil, err
	}
	supply, err := call(ctx, env, d.reth, "totalSupply")
	if err != nil {
		return nil, err
	}
	backing, err := call(ctx, env, d.reth, "getEthValue", supply)
	if err != nil {
		return nil, err
	}
	collateral, err := call(ctx, env, d.reth, "getTotalCollateral")
	if err != nil {
		return nil, err
	}
	in.Step(2)
	l, err := readLimits(ctx, env, d)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"reth": d.reth.Hex(), "deposit_pool": d.depositPool.Hex(), "exchange_rate": native.WadString(rate1),
		"reth_supply": native.Ether(supply), "total_collateral": native.Ether(collateral), "deposits_enabled": l.enabled,
		"deposit_fee_percent": native.RatString(new(big.Rat).SetFrac(l.fee, native.Pow10(16)), 6),
		"minimum_deposit":     native.Ether(l.minimum), "maximum_deposit": native.Ether(l.most), "deposit_pool_balance": native.Ether(l.poolBalance)}
	if v := native.ETHUSD(ctx, env, backing); v != nil {
		out["tvl_usd"] = *v
	}
	return out, nil
}

var position = native.ReadTool{
	Name: "rocketpool_get_position",
	Description: "Read an account's rETH (default: the agent's wallet): the balance, the ETH it is worth at the exchange rate, the ETH a burn of all of it " +
		"could be paid now (limited by Rocket Pool's collateral), and the USD value. rETH does not rebase: the balance stays and its ETH value grows. " +
		"Use it before rocketpool_burn_reth. Does not show the protocol's totals (rocketpool_get_info).",
	Category: tool.CatStaking, Budget: tool.Fast,
	Steps:   []string{"Reading Rocket Pool's storage", "Reading the balance"},
	Snippet: "rocketpool_get_position reads rETH held and the ETH it is worth.",
	Params:  []string{native.PAddress("owner", "Whose rETH (default: the agent's wallet)")},
	Result: []string{native.RProp("owner", "string", "the account"), native.RAmountProp("reth", "rETH balance"),
		native.RAmountProp("eth_value", "ETH the rETH is worth at the exchange rate"),
		native.RProp("burnable_now", "boolean", "whether Rocket Pool holds enough ETH to pay a burn of all of it now"),
		native.RProp("value_usd", "number", "ETH value in USD")},
	Action: "staking_position", Venue: "rocketpool", When: hasRocketPool,
	Run: readPosition,
}

func readPosition(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	owner := a.Whose(env, "owner")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	bal, err := call(ctx, env, d.reth, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	value, err := call(ctx, env, d.reth, "getEthValue", bal)
	if err != nil {
		return nil, err
	}
	collateral, err := call(ctx, env, d.reth, "getTotalCollateral")
	if err != nil {
		return nil, err
	}
	out := map[string]any{"owner": owner.Hex(), "reth": native.Ether(bal), "eth_value": native.Ether(value), "burnable_now": value.Cmp(collateral) <= 0}
	if v := native.ETHUSD(ctx, env, value); v != nil {
		out["value_usd"] = *v
	}
	return out, nil
}

var deposit = native.WriteTool{
	Name: "rocketpool_deposit_eth",
	Description: "Deposit native ETH into Rocket Pool's deposit pool for rETH in the agent's wallet (deposit(), paying the amount). The pool keeps its deposit fee " +
		"and mints rETH for the rest at the exchange rate (getRethValue): rETH does not rebase, it becomes worth more ETH over time. The plan checks that deposits " +
		"are open, the minimum deposit, the most the pool takes now and the wallet's ETH, and expects exactly the rETH previewed. Keep some ETH for gas. " +
		"Does not buy rETH on an exchange (which may be cheaper when the pool is full) and is undone only by rocketpool_burn_reth or a swap.",
	Category: tool.CatStaking, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading Rocket Pool", "Previewing the rETH", "Sending deposit", "Confirming"},
	Snippet:  "rocketpool_deposit_eth deposits ETH with Rocket Pool for rETH.",
	Required: []string{"amount"},
	Params: []string{native.PAmount("amount", "How much ETH to deposit, in wei (1 ETH = \"1000000000000000000\")"),
		native.PClaims("reth", "rETH (what the deposit mints)")},
	Action: "stake", Venue: "rocketpool", When: hasRocketPool,
	Plan: planDeposit,
}

func planDeposit(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	amount := a.Positive("amount")
	owner := a.Wallet(env)
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	l, err := readLimits(ctx, env, d)
	if err != nil {
		return nil, err
	}
	switch {
	case !l.enabled:
		return nil, errors.New("deposits into Rocket Pool are disabled now")
	case amount.Cmp(l.minimum) < 0:
		return nil, fmt.Errorf("a Rocket Pool deposit takes at least %s ETH", native.FormatUnits(l.minimum, 18))
	case amount.Cmp(l.most) > 0:
		return nil, fmt.Errorf("the Rocket Pool deposit pool takes at most %s ETH now", native.FormatUnits(l.most, 18))
	}
	if err := native.NeedETH(ctx, env, owner, amount, "the deposit"); err != nil {
		return nil, err
	}
	in.Step(1)
	fee := l.feeOf(amount)
	reth, err := call(ctx, env, d.reth, "getRethValue", new(big.Int).Sub(amount, fee))
	if err != nil {
		return nil, err
	}
	if reth.Sign() == 0 {
		return nil, errors.New("the deposit is too small to mint any rETH")
	}
	t, err := tx(d.depositPool, "deposit", "deposit")
	if err != nil {
		return nil, err
	}
	t.Value = amount
	return native.NewPlan(ctx, env, []tool.Tx{t},
		[]tool.TokenUse{native.ETHUse(amount, true), native.Claimed(in, d.reth, reth, false, "reth")},
		native.ETHCents(ctx, env, amount),
		fmt.Sprintf("deposit %s ETH into Rocket Pool (%s) for %s rETH, after a %s ETH deposit fee",
			native.FormatUnits(amount, 18), d.depositPool.Hex(), native.FormatUnits(reth, 18), native.FormatUnits(fee, 18))), nil
}

var burn = native.WriteTool{
	Name: "rocketpool_burn_reth",
	Description: "Burn rETH for ETH at Rocket Pool's exchange rate (rETH's burn): the ETH (getEthValue) is paid to the agent's wallet at once. \"max\" burns the " +
		"whole balance. The plan checks the balance and that Rocket Pool holds enough ETH to pay (getTotalCollateral); when it does not, burning is refused " +
		"and only a swap exits. Use it to exit rETH to ETH. Does not swap on an exchange and does not touch other tokens.",
	Category: tool.CatStaking, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading Rocket Pool", "Previewing the ETH", "Sending burn", "Confirming"},
	Snippet:  "rocketpool_burn_reth burns rETH for ETH at the exchange rate.",
	Required: []string{"amount"},
	Params: []string{native.PAmountMax("amount", "How much rETH to burn, in wei"),
		native.PClaims("reth", "rETH (what you burn)")},
	Action: "burn", Venue: "rocketpool", When: hasRocketPool,
	Plan: planBurn,
}

func planBurn(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	amount := a.AmountOrMax("amount")
	owner := a.Wallet(env)
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	d, err := resolve(ctx, env)
	if err != nil {
		return nil, err
	}
	bal, err := call(ctx, env, d.reth, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	if amount == nil {
		amount = bal
	}
	switch {
	case bal.Sign() == 0:
		return nil, errors.New("the wallet holds no rETH")
	case amount.Sign() == 0:
		return nil, errors.New("amount must be greater than 0")
	case amount.Cmp(bal) > 0:
		return nil, fmt.Errorf("the wallet holds %s rETH but the burn needs %s", native.FormatUnits(bal, 18), native.FormatUnits(amount, 18))
	}
	in.Step(1)
	paid, err := call(ctx, env, d.reth, "getEthValue", amount)
	if err != nil {
		return nil, err
	}
	if paid.Sign() == 0 {
		return nil, errors.New("the amount is too small to be worth any ETH")
	}
	collateral, err := call(ctx, env, d.reth, "getTotalCollateral")
	if err != nil {
		return nil, err
	}
	if paid.Cmp(collateral) > 0 {
		return nil, fmt.Errorf("the ETH Rocket Pool holds to pay burns now, %s, is less than the %s ETH this burn needs: swap rETH instead, or burn less",
			native.FormatUnits(collateral, 18), native.FormatUnits(paid, 18))
	}
	t, err := tx(d.reth, "burn", "burn", amount)
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, []tool.Tx{t},
		[]tool.TokenUse{native.Claimed(in, d.reth, amount, true, "reth"), native.ETHUse(paid, false)},
		native.ETHCents(ctx, env, paid),
		fmt.Sprintf("burn %s rETH (%s) for %s ETH", native.FormatUnits(amount, 18), d.reth.Hex(), native.FormatUnits(paid, 18))), nil
}
