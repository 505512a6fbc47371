// Package yieldvault holds the catalogue's tools for ERC-4626 yield
// vaults known by name: Maker's Savings DAI (sDAI, the DAI Savings Rate),
// Ethena's staked USDe (sUSDe, with its cooldown) and Yearn V3 vaults.
//
// Each is an ERC-4626 vault, so depositing and redeeming are the generic
// vault tools (vault_deposit, vault_redeem, vault_withdraw with the
// vault's address); this package adds what the generic tools cannot
// know: sDAI's savings rate read from the Pot (dsr, chi), sUSDe's exit
// through cooldownShares/cooldownAssets and unstake after
// cooldownDuration (while it is non-zero, sUSDe's withdraw and redeem
// revert, and vault_withdraw/vault_redeem refuse it at preview), and a
// Yearn V3 vault's price per share, idle assets, debt lent to each
// strategy of its default queue, and deposit limit. Every tool talks to
// the mainnet interfaces (SavingsDai and Pot, StakedUSDeV2, VaultV3).
package yieldvault

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
)

// Tools are the named yield vault tools: sDAI's rate, sUSDe's state,
// cooldown and unstake, and a Yearn V3 vault's state.
func Tools() []native.Maker {
	return []native.Maker{sdaiInfo, ethenaInfo, ethenaCooldown, ethenaUnstake, yearnInfo}
}

// namedJSON is the part of the mainnet interfaces the tools use:
// SavingsDai (pot), Maker's Pot (dsr, chi, rho), StakedUSDeV2
// (cooldownDuration, cooldowns, silo, getUnvestedAmount, cooldownShares,
// cooldownAssets, unstake) and VaultV3 (apiVersion, pricePerShare,
// totalIdle, totalDebt, deposit_limit, isShutdown, get_default_queue,
// strategies), in one ABI.
const namedJSON = `[
{"type":"function","name":"pot","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"dsr","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"chi","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"rho","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"cooldownDuration","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint24"}]},
{"type":"function","name":"cooldowns","stateMutability":"view","inputs":[{"name":"","type":"address"}],"outputs":[{"name":"cooldownEnd","type":"uint104"},{"name":"underlyingAmount","type":"uint152"}]},
{"type":"function","name":"silo","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"getUnvestedAmount","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"cooldownShares","stateMutability":"nonpayable","inputs":[{"name":"shares","type":"uint256"}],"outputs":[{"name":"assets","type":"uint256"}]},
{"type":"function","name":"cooldownAssets","stateMutability":"nonpayable","inputs":[{"name":"assets","type":"uint256"}],"outputs":[{"name":"shares","type":"uint256"}]},
{"type":"function","name":"unstake","stateMutability":"nonpayable","inputs":[{"name":"receiver","type":"address"}],"outputs":[]},
{"type":"function","name":"apiVersion","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"string"}]},
{"type":"function","name":"pricePerShare","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"totalIdle","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"totalDebt","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"deposit_limit","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"isShutdown","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"get_default_queue","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address[]"}]},
{"type":"function","name":"strategies","stateMutability":"view","inputs":[{"name":"","type":"address"}],"outputs":[{"name":"activation","type":"uint256"},{"name":"last_report","type":"uint256"},{"name":"current_debt","type":"uint256"},{"name":"max_debt","type":"uint256"}]}
]`

var namedABI = native.NewABI(namedJSON)

// share is an ERC-4626 vault's share token, its asset, and the totals.
type share struct {
	vault, asset native.TokenInfo
	totalAssets  *big.Int
	totalSupply  *big.Int
}

func readShare(ctx context.Context, env *native.Env, v common.Address, what string) (share, error) {
	var s share
	a := chain.ERC4626ABI()
	asset, err := native.CallAddress(ctx, env, a, v, "asset")
	if err != nil {
		return s, fmt.Errorf("%s is not %s: %w", v.Hex(), what, err)
	}
	if s.asset, err = native.TokenInfoOf(ctx, env, asset); err != nil {
		return s, err
	}
	if s.vault, err = native.TokenInfoOf(ctx, env, v); err != nil {
		return s, err
	}
	if s.totalAssets, err = native.CallBig(ctx, env, a, v, "totalAssets"); err != nil {
		return s, err
	}
	if s.totalSupply, err = native.CallBig(ctx, env, a, v, "totalSupply"); err != nil {
		return s, err
	}
	return s, nil
}

// price is the assets one whole share converts to now.
func (s share) price(ctx context.Context, env *native.Env) (string, error) {
	p, err := native.CallBig(ctx, env, chain.ERC4626ABI(), common.Address(s.vault.Address), "convertToAssets", native.Pow10(int(s.vault.Decimals)))
	if err != nil {
		return "", err
	}
	return native.RatString(new(big.Rat).SetFrac(p, native.Pow10(int(s.asset.Decimals))), 18), nil
}

// holding is an owner's shares and what they convert to now.
func (s share) holding(ctx context.Context, env *native.Env, owner common.Address) (shares, assets *big.Int, err error) {
	a, v := chain.ERC4626ABI(), common.Address(s.vault.Address)
	if shares, err = native.CallBig(ctx, env, a, v, "balanceOf", owner); err != nil {
		return nil, nil, err
	}
	if assets, err = native.CallBig(ctx, env, a, v, "convertToAssets", shares); err != nil {
		return nil, nil, err
	}
	return shares, assets, nil
}

// bigOf reads an ABI-decoded unsigned integer wider than 64 bits (or of
// an odd width), which go-ethereum returns as *big.Int.
func bigOf(v any, what string) (*big.Int, error) {
	x, ok := v.(*big.Int)
	if !ok || x == nil {
		return nil, fmt.Errorf("unexpected %s from the vault: %T", what, v)
	}
	return x, nil
}
