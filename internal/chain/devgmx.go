package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// DevGmxMinCollateralFactor is the dev GMX market's MIN_COLLATERAL_FACTOR
// (30 decimals): 1 %, a maximum leverage of 100x, as GMX's ETH markets.
var DevGmxMinCollateralFactor = new(big.Int).Exp(big.NewInt(10), big.NewInt(28), nil)

// deployGmx adds ward's GMX V2 subset to the batch, last so the other
// addresses do not move: one ETH/USD market over WETH and USDC, and
// 1,000,000 USDC of the operator's in the contract to pay traders' profits.
func deployGmx(b *batch, c *DevContracts) {
	op := b.from.Address()
	c.GmxV2 = b.deploy("GmxV2", c.WETH, c.USDC, c.FeedETHUSD, c.FeedUSDCUSD, DevGmxMinCollateralFactor)
	b.call("mint USDC for gmx", c.USDC, nil, erc20Mint(), "mint", op, units(1_000_000, 6))
	b.call("fund gmx", c.USDC, nil, ERC20ABI(), "transfer", c.GmxV2, units(1_000_000, 6))
}

// ExecuteGmxOrder plays GMX's order keeper on the dev chain: it fills
// the pending order key at the ETH/USD feed's current price (sent by the
// operator and mined at once). The contract refuses an order whose
// acceptable price the feed's price does not meet.
func (d *DevChain) ExecuteGmxOrder(ctx context.Context, key common.Hash) error {
	c := d.Contracts()
	if c == nil {
		return errors.New("execute gmx order: the dev contracts are not deployed")
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	b.call("gmx execute order", c.GmxV2, nil, GmxKeeperABI(), "executeOrder", [32]byte(key))
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("execute gmx order %s: %w", key.Hex(), err)
	}
	return nil
}
