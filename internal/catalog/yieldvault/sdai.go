package yieldvault

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

func hasSDAI(env *native.Env) bool { return env.Venues.SavingsDai != (common.Address{}) }

var ray = native.Pow10(27)

const secondsPerYear = 365 * 24 * 3600

var sdaiInfo = native.ReadTool{
	Name: "maker_get_savings_rate",
	Description: "Read Maker's Savings DAI (sDAI) vault: the DAI Savings Rate as an annual percentage (the Pot's per-second dsr compounded over a year), " +
		"the Pot's accumulator chi, the DAI one sDAI redeems for now, sDAI's supply and the DAI behind it, and an account's sDAI (default: the agent's " +
		"wallet) with its DAI value. sDAI is an ERC-4626 vault: deposit DAI with vault_deposit and exit with vault_redeem or vault_withdraw, passing " +
		"the sDAI address as vault. The rate is set by Maker governance and can change at any time; this does not forecast it.",
	Category: tool.CatYield, Budget: tool.Medium,
	Steps:   []string{"Reading sDAI", "Reading the Pot", "Reading the position"},
	Snippet: "maker_get_savings_rate reads the DAI Savings Rate (APY), sDAI's price in DAI and a position.",
	Params:  []string{native.PAddress("owner", "Whose sDAI (default: the agent's wallet)")},
	Result: []string{native.RProp("sdai", "string", "the sDAI vault"), native.RProp("pot", "string", "Maker's Pot"),
		native.RTokenProp("asset", "DAI"), native.RProp("savings_rate_apy_percent", "number", "the DSR compounded over a year, in percent"),
		native.RProp("dsr", "string", "the Pot's per-second rate, ray (1e27 = 0 %)"), native.RProp("chi", "string", "the Pot's accumulator, ray, as of now"),
		native.RProp("share_price", "string", "DAI per sDAI"), native.RAmountProp("total_assets", "DAI behind all sDAI"),
		native.RAmountProp("total_supply", "sDAI issued"), native.RProp("owner", "string", "the account read"),
		native.RAmountProp("shares", "the account's sDAI"), native.RAmountProp("assets", "DAI the account's sDAI redeems for now"),
		native.RProp("value_usd", "number", "that DAI in USD")},
	Action: "yield_info", Venue: "maker", When: hasSDAI,
	Run: readSDAI,
}

func readSDAI(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	owner := a.Whose(env, "owner")
	if err := a.Err(); err != nil {
		return nil, err
	}
	v := env.Venues.SavingsDai
	in.Step(0)
	s, err := readShare(ctx, env, v, "the sDAI vault")
	if err != nil {
		return nil, err
	}
	r, err := namedABI.Call(ctx, env, v, "pot")
	if err != nil {
		return nil, fmt.Errorf("%s is not Maker's sDAI (no pot): %w", v.Hex(), err)
	}
	pot, _ := r[0].(common.Address)
	in.Step(1)
	dsr, err := namedABI.CallBig(ctx, env, pot, "dsr")
	if err != nil {
		return nil, err
	}
	apy, err := dsrAPY(dsr)
	if err != nil {
		return nil, err
	}
	price, err := s.price(ctx, env)
	if err != nil {
		return nil, err
	}
	// chi as of now: DAI per sDAI in ray, from the vault's own conversion.
	chi, err := native.CallBig(ctx, env, chain.ERC4626ABI(), v, "convertToAssets", ray)
	if err != nil {
		return nil, err
	}
	in.Step(2)
	shares, assets, err := s.holding(ctx, env, owner)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"sdai": v.Hex(), "pot": pot.Hex(), "asset": s.asset, "savings_rate_apy_percent": apy,
		"dsr": dsr.String(), "chi": chi.String(), "share_price": price,
		"total_assets": native.AmountOf(s.totalAssets, s.asset.Decimals), "total_supply": native.AmountOf(s.totalSupply, s.vault.Decimals),
		"owner": owner.Hex(), "shares": native.AmountOf(shares, s.vault.Decimals), "assets": native.AmountOf(assets, s.asset.Decimals)}
	if u := native.USD(ctx, env, s.asset.Address, assets); u != nil {
		out["value_usd"] = *u
	}
	return out, nil
}

// dsrAPY is the annual yield, in percent, of a per-second rate in ray
// compounded every second for a year.
func dsrAPY(dsr *big.Int) (float64, error) {
	if dsr.Cmp(ray) < 0 {
		return 0, errors.New("the Pot reports a savings rate below zero")
	}
	x, _ := new(big.Rat).SetFrac(new(big.Int).Sub(dsr, ray), ray).Float64()
	apy := math.Expm1(secondsPerYear*math.Log1p(x)) * 100
	if math.IsInf(apy, 0) || math.IsNaN(apy) || apy > 1e6 {
		return 0, fmt.Errorf("the Pot reports an implausible savings rate (dsr %s)", dsr)
	}
	return math.Round(apy*1e6) / 1e6, nil
}
