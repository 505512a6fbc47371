package yieldvault

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func hasEthena(env *native.Env) bool { return env.Venues.StakedUSDe != (common.Address{}) }

// cooldown is an account's sUSDe cooldown as the vault reports it, and
// the vault's cooldown duration and the chain's time.
type cooldown struct {
	duration time.Duration
	end      time.Time // zero: none
	amount   *big.Int  // USDe waiting in the silo
	now      time.Time
}

// ready reports whether unstake would pay now, as StakedUSDeV2 decides.
func (c cooldown) ready() bool {
	return c.duration == 0 || !c.now.Before(c.end)
}

func readCooldown(ctx context.Context, env *native.Env, v, owner common.Address) (cooldown, error) {
	var c cooldown
	r, err := namedABI.Call(ctx, env, v, "cooldownDuration")
	if err != nil {
		return c, fmt.Errorf("%s is not Ethena's sUSDe (no cooldownDuration): %w", v.Hex(), err)
	}
	d, err := bigOf(r[0], "cooldownDuration")
	if err != nil {
		return c, err
	}
	c.duration = time.Duration(d.Int64()) * time.Second
	if r, err = namedABI.Call(ctx, env, v, "cooldowns", owner); err != nil {
		return c, err
	}
	end, err := bigOf(r[0], "cooldownEnd")
	if err != nil {
		return c, err
	}
	if c.amount, err = bigOf(r[1], "underlyingAmount"); err != nil {
		return c, err
	}
	if !end.IsInt64() {
		return c, fmt.Errorf("the vault reports a cooldown end out of range (%s)", end)
	}
	if end.Sign() > 0 {
		c.end = time.Unix(end.Int64(), 0).UTC()
	}
	h, err := env.Chain.HeaderLatest(ctx)
	if err != nil {
		return c, err
	}
	c.now = time.Unix(int64(h.Time), 0).UTC()
	return c, nil
}

// walletCooldown reads sUSDe and the wallet's cooldown, for a write.
func walletCooldown(ctx context.Context, env *native.Env) (owner, v common.Address, s share, c cooldown, err error) {
	if owner, err = native.Owner(env); err != nil {
		return
	}
	v = env.Venues.StakedUSDe
	if s, err = readShare(ctx, env, v, "the sUSDe vault"); err != nil {
		return
	}
	c, err = readCooldown(ctx, env, v, owner)
	return
}

var ethenaInfo = native.ReadTool{
	Name: "ethena_get_info",
	Description: "Read Ethena's staked USDe (sUSDe) vault and an account's place in it (default: the agent's wallet): the USDe one sUSDe redeems for, " +
		"sUSDe's supply and the USDe behind it (rewards still vesting are not counted yet), the cooldown duration, the account's sUSDe and its USDe value, " +
		"and its cooldown: the USDe waiting in the silo, when the cooldown ends and whether ethena_unstake_usde can pay it now. " +
		"Deposit USDe with vault_deposit (vault = the sUSDe address). While the cooldown duration is not zero, sUSDe cannot be redeemed directly: " +
		"exit with ethena_cooldown_susde, then ethena_unstake_usde once the cooldown ends. Does not report a yield forecast.",
	Category: tool.CatYield, Budget: tool.Medium,
	Steps:   []string{"Reading sUSDe", "Reading the cooldown"},
	Snippet: "ethena_get_info reads sUSDe's price in USDe, the cooldown duration and an account's cooldown.",
	Params:  []string{native.PAddress("owner", "Whose sUSDe and cooldown (default: the agent's wallet)")},
	Result: []string{native.RProp("susde", "string", "the sUSDe vault"), native.RTokenProp("asset", "USDe"),
		native.RProp("share_price", "string", "USDe per sUSDe"), native.RAmountProp("total_assets", "USDe behind all sUSDe, vesting rewards excluded"),
		native.RAmountProp("total_supply", "sUSDe issued"), native.RAmountProp("unvested_rewards", "USDe rewards still vesting"),
		native.RProp("cooldown_seconds", "integer", "the cooldown duration; 0 means sUSDe redeems directly"),
		native.RProp("owner", "string", "the account read"), native.RAmountProp("shares", "the account's sUSDe"),
		native.RAmountProp("assets", "USDe the account's sUSDe is worth now"), native.RProp("value_usd", "number", "that USDe in USD"),
		native.RAmountProp("cooling_down", "USDe in the silo for the account"),
		native.RProp("cooldown_end", "string", "when the account's cooldown ends (RFC 3339), empty when none"),
		native.RProp("unstake_ready", "boolean", "whether ethena_unstake_usde would pay the cooling USDe now")},
	Action: "yield_info", Venue: "ethena", When: hasEthena,
	Run: readEthena,
}

func readEthena(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	owner := a.Whose(env, "owner")
	if err := a.Err(); err != nil {
		return nil, err
	}
	v := env.Venues.StakedUSDe
	in.Step(0)
	s, err := readShare(ctx, env, v, "the sUSDe vault")
	if err != nil {
		return nil, err
	}
	price, err := s.price(ctx, env)
	if err != nil {
		return nil, err
	}
	unvested, err := namedABI.CallBig(ctx, env, v, "getUnvestedAmount")
	if err != nil {
		return nil, err
	}
	shares, assets, err := s.holding(ctx, env, owner)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	c, err := readCooldown(ctx, env, v, owner)
	if err != nil {
		return nil, err
	}
	end := ""
	if !c.end.IsZero() {
		end = c.end.Format(time.RFC3339)
	}
	out := map[string]any{"susde": v.Hex(), "asset": s.asset, "share_price": price,
		"total_assets": native.AmountOf(s.totalAssets, s.asset.Decimals), "total_supply": native.AmountOf(s.totalSupply, s.vault.Decimals),
		"unvested_rewards": native.AmountOf(unvested, s.asset.Decimals), "cooldown_seconds": int64(c.duration / time.Second),
		"owner": owner.Hex(), "shares": native.AmountOf(shares, s.vault.Decimals), "assets": native.AmountOf(assets, s.asset.Decimals),
		"cooling_down": native.AmountOf(c.amount, s.asset.Decimals), "cooldown_end": end,
		"unstake_ready": c.amount.Sign() > 0 && c.ready()}
	if u := native.USD(ctx, env, s.asset.Address, assets); u != nil {
		out["value_usd"] = *u
	}
	return out, nil
}

var ethenaCooldown = native.WriteTool{
	Name: "ethena_cooldown_susde",
	Description: "Start the cooldown that exits Ethena's sUSDe: burns the agent's sUSDe and moves the USDe it is worth into Ethena's silo, " +
		"claimable with ethena_unstake_usde once the cooldown duration has passed (cooldownShares for shares, \"max\" for all; cooldownAssets for an " +
		"exact USDe amount; give exactly one). The USDe earns nothing while it cools down, and starting another cooldown adds to the USDe waiting and " +
		"restarts the wait for all of it. The plan checks the balance and that the vault has a cooldown (when it has none, use vault_redeem). " +
		"Does not pay USDe now and cannot be undone.",
	Category: tool.CatYield, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:   []string{"Reading sUSDe", "Previewing the cooldown", "Sending the cooldown", "Confirming"},
	Snippet: "ethena_cooldown_susde starts sUSDe's cooldown; unstake the USDe after it ends.",
	Params: []string{native.PAmountMax("shares", "sUSDe to cool down"), native.PAmount("assets", "USDe worth of sUSDe to cool down, instead of shares"),
		native.PClaims("susde", "sUSDe")},
	Action: "cooldown", Venue: "ethena", When: hasEthena,
	Plan: planCooldown,
}

func planCooldown(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	if a.Has("shares") == a.Has("assets") {
		return nil, errors.New("give exactly one of shares and assets")
	}
	var shares, assets *big.Int
	if a.Has("shares") {
		shares = a.AmountOrMax("shares")
	} else {
		assets = a.Positive("assets")
	}
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	owner, v, s, c, err := walletCooldown(ctx, env)
	if err != nil {
		return nil, err
	}
	if c.duration == 0 {
		return nil, errors.New("sUSDe has no cooldown now: redeem it directly with vault_redeem")
	}
	in.Step(1)
	e := chain.ERC4626ABI()
	held, err := native.CallBig(ctx, env, e, v, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	if held.Sign() == 0 {
		return nil, errors.New("the wallet holds no sUSDe")
	}
	var t tool.Tx
	if assets != nil {
		shares, t, err = cooldownAssets(ctx, env, v, owner, s, assets)
	} else {
		shares, assets, t, err = cooldownShares(ctx, env, v, s, held, shares)
	}
	if err != nil {
		return nil, err
	}
	ends := c.now.Add(c.duration)
	summary := fmt.Sprintf("cool down %s sUSDe (%s) for %s USDe, claimable with ethena_unstake_usde from %s",
		native.FormatUnits(shares, s.vault.Decimals), v.Hex(), native.FormatUnits(assets, s.asset.Decimals), ends.Format(time.RFC3339))
	if c.amount.Sign() > 0 {
		summary += fmt.Sprintf("; the %s USDe already cooling down waits until then too", native.FormatUnits(c.amount, s.asset.Decimals))
	}
	return native.NewPlan(ctx, env, []tool.Tx{t},
		[]tool.TokenUse{native.Claimed(in, v, shares, true, "susde")},
		native.ValueCents(ctx, env, common.Address(s.asset.Address), assets), summary), nil
}

// cooldownAssets is the cooldown of assets worth of the wallet's sUSDe
// (cooldownAssets): at most what its shares are worth, and the shares it
// takes.
func cooldownAssets(ctx context.Context, env *native.Env, v, owner common.Address, s share, assets *big.Int) (*big.Int, tool.Tx, error) {
	e := chain.ERC4626ABI()
	most, err := native.CallBig(ctx, env, e, v, "maxWithdraw", owner)
	if err != nil {
		return nil, tool.Tx{}, err
	}
	if assets.Cmp(most) > 0 {
		return nil, tool.Tx{}, fmt.Errorf("the wallet's sUSDe is worth %s USDe, less than the %s asked", native.FormatUnits(most, s.asset.Decimals), native.FormatUnits(assets, s.asset.Decimals))
	}
	shares, err := native.CallBig(ctx, env, e, v, "previewWithdraw", assets)
	if err != nil {
		return nil, tool.Tx{}, err
	}
	t, err := namedABI.Tx(v, "cooldownAssets", "cooldownAssets", assets)
	return shares, t, err
}

// cooldownShares is the cooldown of shares of the wallet's held sUSDe
// (nil: all of it; cooldownShares): the shares, and the assets they are
// worth.
func cooldownShares(ctx context.Context, env *native.Env, v common.Address, s share, held, shares *big.Int) (*big.Int, *big.Int, tool.Tx, error) {
	if shares == nil {
		shares = held
	}
	if shares.Sign() == 0 {
		return nil, nil, tool.Tx{}, errors.New("shares must be greater than 0")
	}
	if shares.Cmp(held) > 0 {
		return nil, nil, tool.Tx{}, fmt.Errorf("the wallet holds %s sUSDe but the cooldown needs %s", native.FormatUnits(held, s.vault.Decimals), native.FormatUnits(shares, s.vault.Decimals))
	}
	assets, err := native.CallBig(ctx, env, chain.ERC4626ABI(), v, "previewRedeem", shares)
	if err != nil {
		return nil, nil, tool.Tx{}, err
	}
	if assets.Sign() == 0 {
		return nil, nil, tool.Tx{}, errors.New("the shares are too few to be worth any USDe")
	}
	t, err := namedABI.Tx(v, "cooldownShares", "cooldownShares", shares)
	return shares, assets, t, err
}

var ethenaUnstake = native.WriteTool{
	Name: "ethena_unstake_usde",
	Description: "Claim the USDe of an ended sUSDe cooldown (Ethena's unstake, paying the agent's wallet): everything ethena_cooldown_susde put in the silo. " +
		"Refused at preview, with the time the cooldown ends, while it is still running, and when nothing is cooling down (start with ethena_cooldown_susde; " +
		"ethena_get_info shows the cooldown). Does not touch sUSDe still held and does not swap the USDe.",
	Category: tool.CatYield, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:   []string{"Reading the cooldown", "Sending unstake", "Confirming"},
	Snippet: "ethena_unstake_usde claims USDe once the sUSDe cooldown has ended.",
	Params:  []string{native.PClaims("usde", "USDe (what the unstake pays)")},
	Action:  "unstake", Venue: "ethena", When: hasEthena,
	Plan: planUnstake,
}

func planUnstake(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	in.Step(0)
	owner, v, s, c, err := walletCooldown(ctx, env)
	if err != nil {
		return nil, err
	}
	if c.amount.Sign() == 0 {
		return nil, errors.New("no USDe is cooling down for the wallet: start with ethena_cooldown_susde")
	}
	if !c.ready() {
		return nil, fmt.Errorf("the cooldown of %s USDe ends at %s, in %s: unstake is refused until then",
			native.FormatUnits(c.amount, s.asset.Decimals), c.end.Format(time.RFC3339), c.end.Sub(c.now).Round(time.Second))
	}
	t, err := namedABI.Tx(v, "unstake", "unstake", owner)
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, []tool.Tx{t},
		[]tool.TokenUse{native.Claimed(in, common.Address(s.asset.Address), c.amount, false, "usde")},
		native.ValueCents(ctx, env, common.Address(s.asset.Address), c.amount),
		fmt.Sprintf("unstake %s USDe from sUSDe's silo (%s)", native.FormatUnits(c.amount, s.asset.Decimals), v.Hex())), nil
}
