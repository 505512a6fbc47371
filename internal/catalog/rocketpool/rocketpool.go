// Package rocketpool holds the catalogue's Rocket Pool liquid staking
// tools: depositing ETH into the deposit pool for rETH, burning rETH for
// ETH, and the reads around them (the exchange rate, deposit limits and
// fee, the ETH available for burns, an account's rETH).
//
// What they rely on in Rocket Pool's contracts (the mainnet interfaces):
// network contracts are found in RocketStorage with
// getAddress(keccak256("contract.address" ++ name)), as Rocket Pool's own
// contracts find each other, so the tools follow its upgrades and one
// address (the book's rocketpool_storage) names the deployment. A deposit
// mints getRethValue(deposit - fee) rETH, the fee being
// RocketDAOProtocolSettingsDeposit's getDepositFee (1e18 = 100 %), and is
// refused while deposits are disabled, under the minimum deposit or over
// getMaximumDepositAmount. A burn pays getEthValue(rETH) and needs that
// much ETH in rETH's collateral plus the deposit pool's excess
// (getTotalCollateral). rETH is not rebasing: its ETH value grows with
// the exchange rate (getExchangeRate, ETH per rETH). Rocket Pool's
// contracts expose no APR, so no tool reports one. Values are the ETH the
// tokens redeem for, priced with the ETH/USD feed.
package rocketpool

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

// Tools are the Rocket Pool reads and writes, registered where the chain
// names RocketStorage.
func Tools() []native.Maker { return []native.Maker{info, position, deposit, burn} }

func hasRocketPool(env *native.Env) bool { return env.Venues.RocketStorage != (common.Address{}) }

// rocketJSON is the part of Rocket Pool's mainnet interfaces the tools
// use: RocketStorage, RocketDepositPool, RocketTokenRETH and
// RocketDAOProtocolSettingsDeposit, in one ABI.
const rocketJSON = `[
{"type":"function","name":"getAddress","stateMutability":"view","inputs":[{"name":"_key","type":"bytes32"}],"outputs":[{"name":"r","type":"address"}]},
{"type":"function","name":"deposit","stateMutability":"payable","inputs":[],"outputs":[]},
{"type":"function","name":"getBalance","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getMaximumDepositAmount","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getEthValue","stateMutability":"view","inputs":[{"name":"_rethAmount","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getRethValue","stateMutability":"view","inputs":[{"name":"_ethAmount","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getExchangeRate","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getTotalCollateral","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"totalSupply","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"_account","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"burn","stateMutability":"nonpayable","inputs":[{"name":"_rethAmount","type":"uint256"}],"outputs":[]},
{"type":"function","name":"getDepositEnabled","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"getMinimumDeposit","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getDepositFee","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]}
]`

var rocketABI = native.NewABI(rocketJSON)

var (
	call    = rocketABI.CallBig
	callAny = rocketABI.Call
	tx      = rocketABI.Tx
)

// deployment is a Rocket Pool deployment as its storage names it.
type deployment struct {
	storage, depositPool, reth, settings common.Address
}

// contractKey is RocketStorage's key of a network contract.
func contractKey(name string) [32]byte {
	return crypto.Keccak256Hash([]byte("contract.address"), []byte(name))
}

// resolve looks the deposit pool, rETH and the deposit settings up in the
// configured RocketStorage.
func resolve(ctx context.Context, env *native.Env) (deployment, error) {
	d := deployment{storage: env.Venues.RocketStorage}
	for _, c := range []struct {
		name string
		to   *common.Address
	}{{"rocketDepositPool", &d.depositPool}, {"rocketTokenRETH", &d.reth}, {"rocketDAOProtocolSettingsDeposit", &d.settings}} {
		v, err := callAny(ctx, env, d.storage, "getAddress", contractKey(c.name))
		if err != nil {
			return d, fmt.Errorf("%s is not Rocket Pool's storage: %w", d.storage.Hex(), err)
		}
		a, ok := v[0].(common.Address)
		if !ok || a == (common.Address{}) {
			return d, fmt.Errorf("the Rocket Pool storage %s names no %s", d.storage.Hex(), c.name)
		}
		*c.to = a
	}
	return d, nil
}

// depositLimits are the deposit pool's rules now.
type depositLimits struct {
	enabled       bool
	minimum, most *big.Int // least one deposit, most the pool takes now
	fee           *big.Int // 1e18 = 100 %
	poolBalance   *big.Int
}

func readLimits(ctx context.Context, env *native.Env, d deployment) (depositLimits, error) {
	var l depositLimits
	v, err := callAny(ctx, env, d.settings, "getDepositEnabled")
	if err != nil {
		return l, err
	}
	l.enabled, _ = v[0].(bool)
	if l.minimum, err = call(ctx, env, d.settings, "getMinimumDeposit"); err != nil {
		return l, err
	}
	if l.fee, err = call(ctx, env, d.settings, "getDepositFee"); err != nil {
		return l, err
	}
	if l.fee.Cmp(native.Wad) > 0 {
		return l, fmt.Errorf("the deposit fee Rocket Pool reports is over 100 %% (%s)", l.fee)
	}
	if l.most, err = call(ctx, env, d.depositPool, "getMaximumDepositAmount"); err != nil {
		return l, err
	}
	if l.poolBalance, err = call(ctx, env, d.depositPool, "getBalance"); err != nil {
		return l, err
	}
	return l, nil
}

// feeOf is the deposit fee on amount, rounded down as the deposit pool
// computes it.
func (l depositLimits) feeOf(amount *big.Int) *big.Int {
	f := new(big.Int).Mul(amount, l.fee)
	return f.Quo(f, native.Wad)
}
