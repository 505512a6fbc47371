package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// The dev chain's named yield vaults, ward's same-ABI contracts
// (contracts/src/SavingsDai.sol, StakedUSDe.sol, YearnV3Vault.sol): sDAI
// over a Pot at DevDSR, sUSDe over a USDe token with a cooldown of
// DevUSDeCooldown, and a Yearn V3 USDC vault lending part of its assets to
// one ERC-4626 strategy that has already reported a gain.
var (
	// DevDSR is Maker's per-second rate (ray) for a 5 % savings rate.
	DevDSR = mustBig("1000000001547125957863212448")
	// DevYearnDepositLimit is the Yearn vault's deposit_limit.
	DevYearnDepositLimit = units(10_000_000, 6)
)

// DevUSDeCooldown is the dev sUSDe's cooldownDuration (mainnet's today).
const DevUSDeCooldown = 7 * 24 * time.Hour

func mustBig(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic("chain: bad constant " + s)
	}
	return v
}

// deployNamedVaults adds sDAI, sUSDe and the Yearn vault to the batch,
// after everything else so the other addresses do not move. The operator
// holds 100,000 DAI of sDAI (and sends sDAI 10,000 DAI to pay the
// savings rate), 100,000 USDe of sUSDe, and 200,000 USDC of the Yearn
// vault, 150,000 of it lent to the strategy, which gained 1,500; the dev
// wallet gets 10,000 USDe.
func deployNamedVaults(b *batch, c *DevContracts) {
	op, wallet := b.from.Address(), b.d.walletS.Address()
	erc20, v := ERC20ABI(), ERC4626ABI()
	a := namedVaultAdminABI()

	c.MakerPot = b.deploy("Pot", DevDSR)
	c.SavingsDai = b.deploy("SavingsDai", c.DAI, c.MakerPot)
	b.call("approve sDAI", c.DAI, nil, erc20, "approve", c.SavingsDai, maxUint256)
	b.call("sDAI deposit", c.SavingsDai, nil, v, "deposit", units(100_000, 18), op)
	b.call("sDAI interest reserve", c.DAI, nil, erc20, "transfer", c.SavingsDai, units(10_000, 18))

	c.USDe = b.deploy("ERC20Permit", "USDe", "USDe", uint8(18))
	c.FeedUSDeUSD = b.deploy("PriceFeed", uint8(8), "USDe / USD", devPriceUSD)
	b.call("mint USDe", c.USDe, nil, erc20Mint(), "mint", op, units(1_000_000, 18))
	b.call("fund wallet USDe", c.USDe, nil, erc20Mint(), "mint", wallet, units(10_000, 18))
	c.EthenaSUSDe = b.deploy("StakedUSDeV2", c.USDe)
	b.call("sUSDe cooldown", c.EthenaSUSDe, nil, a, "setCooldownDuration", big.NewInt(int64(DevUSDeCooldown/time.Second)))
	b.call("approve sUSDe", c.USDe, nil, erc20, "approve", c.EthenaSUSDe, maxUint256)
	b.call("sUSDe deposit", c.EthenaSUSDe, nil, v, "deposit", units(100_000, 18), op)

	c.YearnVaultUSDC = b.deploy("YearnV3Vault", c.USDC, "USDC-1 yVault", "yvUSDC-1", DevYearnDepositLimit)
	c.YearnStrategyUSDC = b.deploy("ERC4626Vault", c.USDC, "Ward USDC Lender", "wlUSDC")
	b.call("mint USDC for yearn", c.USDC, nil, erc20Mint(), "mint", op, units(201_500, 6))
	b.call("approve yearn", c.USDC, nil, erc20, "approve", c.YearnVaultUSDC, maxUint256)
	b.call("approve yearn strategy", c.USDC, nil, erc20, "approve", c.YearnStrategyUSDC, maxUint256)
	b.call("yearn add strategy", c.YearnVaultUSDC, nil, a, "add_strategy", c.YearnStrategyUSDC)
	b.call("yearn max debt", c.YearnVaultUSDC, nil, a, "update_max_debt_for_strategy", c.YearnStrategyUSDC, units(1_000_000, 6))
	b.call("yearn deposit", c.YearnVaultUSDC, nil, v, "deposit", units(200_000, 6), op)
	b.call("yearn update debt", c.YearnVaultUSDC, nil, a, "update_debt", c.YearnStrategyUSDC, units(150_000, 6))
	b.call("yearn strategy gain", c.YearnStrategyUSDC, nil, a, "harvest", units(1_500, 6))
	b.call("yearn report", c.YearnVaultUSDC, nil, a, "process_report", c.YearnStrategyUSDC)
}

var namedVaultAdminABI = onceABI(`[
{"type":"function","name":"setCooldownDuration","stateMutability":"nonpayable","inputs":[{"name":"duration","type":"uint24"}],"outputs":[]},
{"type":"function","name":"transferInRewards","stateMutability":"nonpayable","inputs":[{"name":"amount","type":"uint256"}],"outputs":[]},
{"type":"function","name":"add_strategy","stateMutability":"nonpayable","inputs":[{"name":"strategy","type":"address"}],"outputs":[]},
{"type":"function","name":"update_max_debt_for_strategy","stateMutability":"nonpayable","inputs":[{"name":"strategy","type":"address"},{"name":"newMaxDebt","type":"uint256"}],"outputs":[]},
{"type":"function","name":"update_debt","stateMutability":"nonpayable","inputs":[{"name":"strategy","type":"address"},{"name":"targetDebt","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"process_report","stateMutability":"nonpayable","inputs":[{"name":"strategy","type":"address"}],"outputs":[{"name":"gain","type":"uint256"},{"name":"loss","type":"uint256"}]},
{"type":"function","name":"harvest","stateMutability":"nonpayable","inputs":[{"name":"assets","type":"uint256"}],"outputs":[]}
]`)

// SetUSDeCooldown sets the dev sUSDe's cooldownDuration (0 turns the
// cooldown off: withdraw and redeem work again and the cooldown calls
// revert), sent by the operator and mined at once.
func (d *DevChain) SetUSDeCooldown(ctx context.Context, cooldown time.Duration) error {
	c := d.Contracts()
	if c == nil {
		return errors.New("set sUSDe cooldown: the dev contracts are not deployed")
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	b.call("sUSDe cooldown", c.EthenaSUSDe, nil, namedVaultAdminABI(), "setCooldownDuration", big.NewInt(int64(cooldown/time.Second)))
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("set sUSDe cooldown: %w", err)
	}
	return nil
}
