package chain

import (
	"math/big"
	"time"
)

// The dev chain's yield tokenization: ward's same-ABI Pendle contracts
// (contracts/src/Pendle.sol) over DAI, one maturity DevPendleMaturity
// after deployment (a test reaches it with AdjustTime), and a market
// seeded by the operator at an implied rate of DevPendleLnImpliedRate.
var (
	// DevPendleLnImpliedRate is ln(1.08), 18 decimals: PT is priced for
	// an implied APY of 8 %.
	DevPendleLnImpliedRate = big.NewInt(76961041136128324)
	pendleSeed             = units(100_000, 18) // DAI minted into PT/YT for the market, and as much again as SY
)

// DevPendleMaturity is how long after deployment the dev chain's PT
// matures.
const DevPendleMaturity = 90 * 24 * time.Hour

// deployYield adds Pendle's SY over DAI, the PT and YT of one maturity,
// their market and the router to the batch, and seeds the market with
// PT and SY.
func deployYield(b *batch, c *DevContracts) {
	op := b.from.Address()
	a := pendleAdminABI()
	expiry := big.NewInt(time.Now().Add(DevPendleMaturity).Truncate(24 * time.Hour).Unix())
	b.call("mint DAI for Pendle", c.DAI, nil, erc20Mint(), "mint", op, new(big.Int).Mul(pendleSeed, big.NewInt(2)))
	c.PendleSYDAI = b.deploy("PendleSY", "SY DAI", "SY-DAI", c.DAI)
	c.PendlePTDAI = b.deploy("PendlePrincipalToken", c.PendleSYDAI, "PT DAI", "PT-DAI", expiry)
	c.PendleYTDAI = b.deploy("PendleYieldToken", c.PendleSYDAI, c.PendlePTDAI, "YT DAI", "YT-DAI", expiry)
	b.call("pendle wire PT", c.PendlePTDAI, nil, a, "initialize", c.PendleYTDAI)
	c.PendleMarketDAI = b.deploy("PendleMarket", c.PendlePTDAI, DevPendleLnImpliedRate)
	c.PendleRouter = b.deploy("PendleRouter")
	b.call("approve pendle SY", c.DAI, nil, ERC20ABI(), "approve", c.PendleSYDAI, maxUint256)
	b.call("pendle SY for PT", c.PendleSYDAI, nil, a, "deposit", c.PendleYTDAI, c.DAI, pendleSeed, pendleSeed)
	b.call("pendle mint PT", c.PendleYTDAI, nil, a, "mintPY", c.PendleMarketDAI, op)
	b.call("pendle SY for market", c.PendleSYDAI, nil, a, "deposit", c.PendleMarketDAI, c.DAI, pendleSeed, pendleSeed)
	b.call("pendle sync market", c.PendleMarketDAI, nil, a, "sync")
}

var pendleAdminABI = onceABI(`[
{"type":"function","name":"initialize","stateMutability":"nonpayable","inputs":[{"name":"yt","type":"address"}],"outputs":[]},
{"type":"function","name":"deposit","stateMutability":"payable","inputs":[{"name":"receiver","type":"address"},{"name":"tokenIn","type":"address"},{"name":"amountTokenToDeposit","type":"uint256"},{"name":"minSharesOut","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"mintPY","stateMutability":"nonpayable","inputs":[{"name":"receiverPT","type":"address"},{"name":"receiverYT","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"sync","stateMutability":"nonpayable","inputs":[],"outputs":[]}
]`)
