package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// The dev chain's liquid staking: ward's same-ABI Lido and Rocket Pool
// contracts (contracts/src/Lido.sol, RocketPool.sol), seeded by the
// operator so that neither exchange rate is one (a tool that confused
// shares with balances, or rETH with ETH, would show it).
var (
	lidoSeedStake     = units(1_000, 18) // ETH the operator stakes with Lido
	lidoSeedRewards   = units(30, 18)    // rewards reported on it, over a year: 1.03 ETH per share, 3 % APR
	rocketSeedDeposit = units(1_000, 18) // ETH the operator deposits with Rocket Pool
	rocketSeedRewards = units(100, 18)   // rewards backing rETH: about 1.1 ETH per rETH
)

// deployStaking adds Lido's stETH, wstETH and withdrawal queue and
// Rocket Pool's storage, deposit settings, deposit pool and rETH to the
// deployment batch, and seeds both.
func deployStaking(b *batch, c *DevContracts) {
	lido := lidoAdminABI()
	c.LidoStETH = b.deploy("Lido")
	c.LidoWstETH = b.deploy("WstETH", c.LidoStETH)
	c.LidoWithdrawalQueue = b.deploy("WithdrawalQueueERC721", c.LidoWstETH)
	b.call("lido set queue", c.LidoStETH, nil, lido, "setWithdrawalQueue", c.LidoWithdrawalQueue)
	b.call("lido stake", c.LidoStETH, lidoSeedStake, lido, "submit", common.Address{})
	b.call("lido rewards", c.LidoStETH, lidoSeedRewards, lido, "reportRewards", big.NewInt(lidoYear))

	rp := rocketAdminABI()
	c.RocketStorage = b.deploy("RocketStorage")
	c.RocketDepositSettings = b.deploy("RocketDAOProtocolSettingsDeposit")
	c.RocketDepositPool = b.deploy("RocketDepositPool", c.RocketStorage)
	c.RocketRETH = b.deploy("RocketTokenRETH", c.RocketStorage)
	for _, k := range []struct {
		name string
		at   common.Address
	}{{"rocketDAOProtocolSettingsDeposit", c.RocketDepositSettings}, {"rocketDepositPool", c.RocketDepositPool}, {"rocketTokenRETH", c.RocketRETH}} {
		b.call("rocket register "+k.name, c.RocketStorage, nil, rp, "setAddress", RocketContractKey(k.name), k.at)
	}
	b.call("rocket deposit", c.RocketDepositPool, rocketSeedDeposit, rp, "deposit")
	b.call("rocket rewards", c.RocketRETH, rocketSeedRewards, rp, "depositRewards")
}

// RocketContractKey is Rocket Pool's storage key of a network contract:
// keccak256(abi.encodePacked("contract.address", name)).
func RocketContractKey(name string) [32]byte {
	return crypto.Keccak256Hash([]byte("contract.address"), []byte(name))
}

// The periods the dev chain's Lido reports say their rewards cover.
const (
	lidoDay  = 24 * 60 * 60
	lidoYear = 365 * lidoDay
)

// ReportLido plays Lido's accounting oracle on the dev chain: it adds
// rewards (wei, may be zero), as earned over a day, to the pooled ether,
// raising every stETH balance, then, when finalizeThrough is positive, finalizes the
// withdrawal queue's requests up to that id at the new share rate.
func (d *DevChain) ReportLido(ctx context.Context, rewards *big.Int, finalizeThrough uint64) error {
	c := d.Contracts()
	if c == nil {
		return errors.New("report lido: the dev contracts are not deployed")
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	if rewards != nil && rewards.Sign() > 0 {
		b.call("lido rewards", c.LidoStETH, rewards, lidoAdminABI(), "reportRewards", big.NewInt(lidoDay))
	}
	if finalizeThrough > 0 {
		b.call("lido finalize", c.LidoStETH, nil, lidoAdminABI(), "finalizeWithdrawals", new(big.Int).SetUint64(finalizeThrough))
	}
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("report lido: %w", err)
	}
	return nil
}

// PauseLidoStaking pauses (or resumes) staking on the dev chain's Lido.
func (d *DevChain) PauseLidoStaking(ctx context.Context, paused bool) error {
	c := d.Contracts()
	if c == nil {
		return errors.New("pause lido staking: the dev contracts are not deployed")
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	method := "resumeStaking"
	if paused {
		method = "pauseStaking"
	}
	b.call("lido "+method, c.LidoStETH, nil, lidoAdminABI(), method)
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("pause lido staking: %w", err)
	}
	return nil
}

// ReportRocketPool plays Rocket Pool's oracle DAO on the dev chain:
// rewards (wei) join the ETH backing rETH, raising its exchange rate.
func (d *DevChain) ReportRocketPool(ctx context.Context, rewards *big.Int) error {
	c := d.Contracts()
	if c == nil {
		return errors.New("report rocket pool: the dev contracts are not deployed")
	}
	if rewards == nil || rewards.Sign() <= 0 {
		return errors.New("report rocket pool: rewards must be positive")
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	b.call("rocket rewards", c.RocketRETH, rewards, rocketAdminABI(), "depositRewards")
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("report rocket pool: %w", err)
	}
	return nil
}

// EnableRocketPoolDeposits opens (or closes) the dev chain's Rocket Pool
// deposit pool, as its DAO's deposit setting does.
func (d *DevChain) EnableRocketPoolDeposits(ctx context.Context, enabled bool) error {
	c := d.Contracts()
	if c == nil {
		return errors.New("enable rocket pool deposits: the dev contracts are not deployed")
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	b.call("rocket deposits", c.RocketDepositSettings, nil, rocketAdminABI(), "setDepositEnabled", enabled)
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("enable rocket pool deposits: %w", err)
	}
	return nil
}

// The dev staking contracts' deployment and admin methods, beyond what
// the tools use.
var (
	lidoAdminABI = onceABI(`[
{"type":"function","name":"setWithdrawalQueue","stateMutability":"nonpayable","inputs":[{"name":"queue","type":"address"}],"outputs":[]},
{"type":"function","name":"submit","stateMutability":"payable","inputs":[{"name":"referral","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"reportRewards","stateMutability":"payable","inputs":[{"name":"timeElapsed","type":"uint256"}],"outputs":[]},
{"type":"function","name":"finalizeWithdrawals","stateMutability":"nonpayable","inputs":[{"name":"lastRequestId","type":"uint256"}],"outputs":[]},
{"type":"function","name":"pauseStaking","stateMutability":"nonpayable","inputs":[],"outputs":[]},
{"type":"function","name":"resumeStaking","stateMutability":"nonpayable","inputs":[],"outputs":[]}]`)
	rocketAdminABI = onceABI(`[
{"type":"function","name":"setAddress","stateMutability":"nonpayable","inputs":[{"name":"_key","type":"bytes32"},{"name":"_value","type":"address"}],"outputs":[]},
{"type":"function","name":"deposit","stateMutability":"payable","inputs":[],"outputs":[]},
{"type":"function","name":"depositRewards","stateMutability":"payable","inputs":[],"outputs":[]},
{"type":"function","name":"setDepositEnabled","stateMutability":"nonpayable","inputs":[{"name":"enabled","type":"bool"}],"outputs":[]}]`)
)
