package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/wardhq/ward/internal/chain/artifacts"
)

// DevContracts are the addresses of the contracts Deploy puts on the dev
// chain.
type DevContracts struct {
	WETH common.Address `json:"weth"`
	USDC common.Address `json:"usdc"`
	DAI  common.Address `json:"dai"`
	WBTC common.Address `json:"wbtc"`

	FeedETHUSD  common.Address `json:"feed_eth_usd"`
	FeedBTCUSD  common.Address `json:"feed_btc_usd"`
	FeedUSDCUSD common.Address `json:"feed_usdc_usd"`
	FeedDAIUSD  common.Address `json:"feed_dai_usd"`

	UniswapV2Factory      common.Address `json:"uniswap_v2_factory"`
	UniswapV2Router       common.Address `json:"uniswap_v2_router"`
	UniswapV2PairUSDCWETH common.Address `json:"uniswap_v2_pair_usdc_weth"`
	UniswapV2PairDAIUSDC  common.Address `json:"uniswap_v2_pair_dai_usdc"`

	UniswapV3Factory         common.Address `json:"uniswap_v3_factory"`
	UniswapV3SwapRouter      common.Address `json:"uniswap_v3_swap_router"`
	UniswapV3PoolUSDCWETH    common.Address `json:"uniswap_v3_pool_usdc_weth"`
	UniswapV3LiquidityHelper common.Address `json:"uniswap_v3_liquidity_helper"`

	VaultUSDC common.Address `json:"vault_usdc"`

	AavePool  common.Address `json:"aave_pool"`
	AaveAUSDC common.Address `json:"aave_ausdc"`
	AaveAWETH common.Address `json:"aave_aweth"`
	AaveADAI  common.Address `json:"aave_adai"`

	// MorphoBlue has two WETH/USDC markets at an LLTV of 86 %, priced by
	// MorphoOracleWETHUSDC: DevMorphoMarket without interest and
	// DevMorphoRatedMarket with MorphoIrm's fixed 4 % borrow rate.
	MorphoBlue           common.Address `json:"morpho_blue"`
	MorphoOracleWETHUSDC common.Address `json:"morpho_oracle_weth_usdc"`
	MorphoIrm            common.Address `json:"morpho_irm"`

	// CometUSDC is a Compound III market with USDC as its base and WETH
	// and WBTC as collateral.
	CometUSDC common.Address `json:"comet_usdc"`
	// Lido (stETH, wstETH, withdrawal queue) and Rocket Pool (storage,
	// deposit pool, rETH): see deployStaking.
	LidoStETH             common.Address `json:"lido_steth"`
	LidoWstETH            common.Address `json:"lido_wsteth"`
	LidoWithdrawalQueue   common.Address `json:"lido_withdrawal_queue"`
	RocketStorage         common.Address `json:"rocketpool_storage"`
	RocketDepositPool     common.Address `json:"rocketpool_deposit_pool"`
	RocketRETH            common.Address `json:"rocketpool_reth"`
	RocketDepositSettings common.Address `json:"rocketpool_deposit_settings"`
	// ERC-8004 (Trustless Agents) registries: agent identities and the
	// reputation feedback given to them.
	IdentityRegistry   common.Address `json:"erc8004_identity_registry"`
	ReputationRegistry common.Address `json:"erc8004_reputation_registry"`

	// EigenLayer: the two managers, a strategy over WETH whitelisted for
	// deposits, and the operator account registered as an operator.
	EigenDelegationManager common.Address `json:"eigenlayer_delegation_manager"`
	EigenStrategyManager   common.Address `json:"eigenlayer_strategy_manager"`
	EigenStrategyWETH      common.Address `json:"eigenlayer_strategy_weth"`
	EigenOperator          common.Address `json:"eigenlayer_operator"`

	// GmxV2 is ward's GMX V2 subset: one contract answering as the
	// ExchangeRouter, Router, OrderVault, DataStore and Reader, with one
	// ETH/USD market (long WETH, short USDC, USDC collateral) whose orders
	// the operator executes as keeper (ExecuteGmxOrder).
	GmxV2           common.Address `json:"gmx_v2"`
	GmxMarketETHUSD common.Address `json:"gmx_market_eth_usd"`
	// Pendle: SY over DAI, the PT and YT of one maturity, their market
	// and the router (see deployYield).
	PendleSYDAI     common.Address `json:"pendle_sy_dai"`
	PendlePTDAI     common.Address `json:"pendle_pt_dai"`
	PendleYTDAI     common.Address `json:"pendle_yt_dai"`
	PendleMarketDAI common.Address `json:"pendle_market_dai"`
	PendleRouter    common.Address `json:"pendle_router"`
	// Permit2 and Uniswap V4 (PoolManager, StateView, V4Quoter, the
	// Universal Router, and the test router that seeded the pools), as
	// their npm packages publish them: see deployUniswapV4 and DevV4Pools.
	Permit2                  common.Address `json:"permit2"`
	UniswapV4PoolManager     common.Address `json:"uniswap_v4_pool_manager"`
	UniswapV4StateView       common.Address `json:"uniswap_v4_state_view"`
	UniswapV4Quoter          common.Address `json:"uniswap_v4_quoter"`
	UniversalRouter          common.Address `json:"uniswap_universal_router"`
	UniswapV4LiquidityRouter common.Address `json:"uniswap_v4_liquidity_router"`
	// Named yield vaults (see deployNamedVaults): Maker's Pot and sDAI,
	// USDe (priced by FeedUSDeUSD) and Ethena's sUSDe, and a Yearn V3
	// USDC vault with its one strategy.
	MakerPot          common.Address `json:"maker_pot"`
	SavingsDai        common.Address `json:"sdai"`
	USDe              common.Address `json:"usde"`
	FeedUSDeUSD       common.Address `json:"feed_usde_usd"`
	EthenaSUSDe       common.Address `json:"ethena_susde"`
	YearnVaultUSDC    common.Address `json:"yearn_vault_usdc"`
	YearnStrategyUSDC common.Address `json:"yearn_strategy_usdc"`
}

// Token is a token of the dev chain with its Chainlink-style USD feed.
type Token struct {
	Address  common.Address `json:"address"`
	Symbol   string         `json:"symbol"`
	Decimals uint8          `json:"decimals"`
	Feed     common.Address `json:"feed"`
}

// Dev chain prices (8-decimal feed answers) and pool sizes.
var (
	devPriceETH  = big.NewInt(3_000e8)
	devPriceBTC  = big.NewInt(60_000e8)
	devPriceUSD  = big.NewInt(1e8)
	devV3FeePips = big.NewInt(3000)
	devDeadline  = big.NewInt(1 << 40)
	maxUint256   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
)

// DevEigenWithdrawalDelay is the dev chain's EigenLayer withdrawal delay
// in blocks (mainnet's is 14 days of blocks): a queued withdrawal
// completes once block.number exceeds its start block plus this.
const DevEigenWithdrawalDelay = 5

// units returns n whole tokens with decimals dec in base units.
func units(n int64, dec int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dec)), nil))
}

// Deploy puts the dev contract set on the chain and funds the dev wallet
// with 100,000 USDC, 50 WETH and 10,000 DAI: the tokens USDC (6
// decimals), DAI (18), WBTC (8) and WETH9; 8-decimal feeds for ETH/USD
// ($3,000), BTC/USD ($60,000), USDC/USD and DAI/USD ($1); a Uniswap V2
// factory and router with USDC/WETH (3,000,000 USDC : 1,000 WETH) and
// DAI/USDC (1,000,000 : 1,000,000) pairs; a Uniswap V3 factory, the
// SwapRouter and a USDC/WETH 0.3 % pool at the same price with full-range
// liquidity; an ERC-4626 vault over USDC; an Aave V3 style pool with
// USDC, WETH and DAI reserves supplied by the operator account; the
// lending markets of deployLending (Morpho Blue, Compound III); Lido
// (stETH, wstETH, withdrawal queue) and Rocket Pool (storage, deposit
// pool, rETH), each seeded with 1,000 ETH and rewards (see deployStaking);
// empty ERC-8004 identity and reputation registries; EigenLayer's
// managers with a WETH strategy and the operator account as an operator;
// and, as their npm packages publish them, Permit2 and Uniswap V4 with the
// Universal Router and two WETH/USDC pools, one hooked (see
// deployUniswapV4); then the named yield vaults of deployNamedVaults (sDAI,
// sUSDe over a USDe token priced at $1, of which the wallet holds 10,000,
// and a Yearn V3 USDC vault).
//
// All of it is sent by the operator as one batch of transactions with
// consecutive nonces starting at 0 and mined in one block, so the
// addresses depend only on the seed. Deploy runs once: later calls return
// the first result. It fails if the operator has sent anything before.
func (d *DevChain) Deploy(ctx context.Context) (*DevContracts, error) {
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	if d.contracts != nil {
		c := *d.contracts
		return &c, nil
	}
	c, err := d.deploy(ctx)
	if err != nil {
		return nil, fmt.Errorf("deploy dev contracts: %w", err)
	}
	d.contracts = c
	d.tokens = []Token{
		{Address: c.WETH, Symbol: "WETH", Decimals: 18, Feed: c.FeedETHUSD},
		{Address: c.USDC, Symbol: "USDC", Decimals: 6, Feed: c.FeedUSDCUSD},
		{Address: c.DAI, Symbol: "DAI", Decimals: 18, Feed: c.FeedDAIUSD},
		{Address: c.WBTC, Symbol: "WBTC", Decimals: 8, Feed: c.FeedBTCUSD},
		{Address: c.USDe, Symbol: "USDe", Decimals: 18, Feed: c.FeedUSDeUSD},
	}
	out := *c
	return &out, nil
}

// Contracts returns the deployed contracts, or nil before Deploy.
func (d *DevChain) Contracts() *DevContracts {
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	if d.contracts == nil {
		return nil
	}
	c := *d.contracts
	return &c
}

// Tokens returns the dev chain's tokens with their feeds (nil before
// Deploy).
func (d *DevChain) Tokens() []Token {
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	return append([]Token(nil), d.tokens...)
}

func (d *DevChain) deploy(ctx context.Context) (*DevContracts, error) {
	op := d.operator.Address()
	nonce, err := d.provider.Nonce(ctx, op)
	if err != nil {
		return nil, err
	}
	if nonce != 0 {
		return nil, fmt.Errorf("operator %s has sent %d transactions; deployment must be its first", op, nonce)
	}
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return nil, err
	}
	// The order is the operator's nonces, so the addresses: a stage added
	// later goes after the others.
	var c DevContracts
	deployCore(b, &c)
	fundAccounts(b, &c, d.walletS.Address())
	if err := seedUniswap(b, &c); err != nil {
		return nil, err
	}
	// ERC-4626 vault over USDC, seeded.
	b.call("vault deposit", c.VaultUSDC, nil, ERC4626ABI(), "deposit", units(100_000, 6), op)
	seedAave(b, &c)
	deployLending(b, &c)
	deployStaking(b, &c)
	// ERC-8004 registries, empty: no agent is registered.
	c.IdentityRegistry = b.deploy("IdentityRegistry")
	c.ReputationRegistry = b.deploy("ReputationRegistry", c.IdentityRegistry)
	deployEigenLayer(b, &c)
	deployGmx(b, &c)
	deployYield(b, &c)
	deployUniswapV4(b, &c)
	deployNamedVaults(b, &c)
	seedNativeV4Pool(b, &c) // last: it deploys nothing, so no address above moves
	if err := b.run(ctx); err != nil {
		return nil, err
	}
	if err := readDeployed(ctx, d.provider, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// deployCore adds the tokens, price feeds, Uniswap V2 and V3, the USDC
// vault and the Aave pool to the batch.
func deployCore(b *batch, c *DevContracts) {
	op := b.from.Address()
	c.USDC = b.deploy("ERC20Permit", "USD Coin", "USDC", uint8(6))
	c.DAI = b.deploy("ERC20Permit", "Dai Stablecoin", "DAI", uint8(18))
	c.WBTC = b.deploy("ERC20Permit", "Wrapped BTC", "WBTC", uint8(8))
	c.WETH = b.deploy("WETH9")
	c.FeedETHUSD = b.deploy("PriceFeed", uint8(8), "ETH / USD", devPriceETH)
	c.FeedBTCUSD = b.deploy("PriceFeed", uint8(8), "BTC / USD", devPriceBTC)
	c.FeedUSDCUSD = b.deploy("PriceFeed", uint8(8), "USDC / USD", devPriceUSD)
	c.FeedDAIUSD = b.deploy("PriceFeed", uint8(8), "DAI / USD", devPriceUSD)
	c.UniswapV2Factory = b.deploy("UniswapV2Factory", op)
	c.UniswapV2Router = b.deploy("UniswapV2Router02", c.UniswapV2Factory, c.WETH)
	c.UniswapV3Factory = b.deploy("UniswapV3Factory")
	c.UniswapV3SwapRouter = b.deploy("SwapRouter", c.UniswapV3Factory, c.WETH)
	c.UniswapV3LiquidityHelper = b.deploy("LiquidityHelper", c.UniswapV3Factory)
	c.VaultUSDC = b.deploy("ERC4626Vault", c.USDC, "Vault USDC", "vUSDC")
	c.AavePool = b.deploy("Pool")
}

// fundAccounts mints the operator's tokens and the dev wallet's, and
// approves the venues the operator seeds to spend the operator's.
func fundAccounts(b *batch, c *DevContracts, wallet common.Address) {
	op := b.from.Address()
	erc20, weth9 := ERC20ABI(), WETH9ABI()
	b.call("mint USDC", c.USDC, nil, erc20Mint(), "mint", op, units(10_000_000, 6))
	b.call("mint DAI", c.DAI, nil, erc20Mint(), "mint", op, units(5_000_000, 18))
	b.call("mint WBTC", c.WBTC, nil, erc20Mint(), "mint", op, units(1_000, 8))
	b.call("wrap ETH", c.WETH, units(2_550, 18), weth9, "deposit")
	b.call("fund wallet USDC", c.USDC, nil, erc20Mint(), "mint", wallet, units(100_000, 6))
	b.call("fund wallet DAI", c.DAI, nil, erc20Mint(), "mint", wallet, units(10_000, 18))
	b.call("fund wallet WETH", c.WETH, nil, erc20, "transfer", wallet, units(50, 18))
	for _, tok := range []common.Address{c.USDC, c.DAI, c.WETH, c.WBTC} {
		for _, spender := range []common.Address{c.UniswapV2Router, c.UniswapV3LiquidityHelper, c.AavePool, c.VaultUSDC} {
			b.call("approve", tok, nil, erc20, "approve", spender, maxUint256)
		}
	}
}

// seedUniswap adds the Uniswap V2 pairs at $3,000 per ETH and 1 DAI = 1
// USDC, and the V3 USDC/WETH 0.3 % pool at the same price, full range.
func seedUniswap(b *batch, c *DevContracts) error {
	op := b.from.Address()
	v2 := UniswapV2Router02ABI()
	b.call("v2 USDC/WETH", c.UniswapV2Router, nil, v2, "addLiquidity", c.USDC, c.WETH,
		units(3_000_000, 6), units(1_000, 18), big.NewInt(0), big.NewInt(0), op, devDeadline)
	b.call("v2 DAI/USDC", c.UniswapV2Router, nil, v2, "addLiquidity", c.DAI, c.USDC,
		units(1_000_000, 18), units(1_000_000, 6), big.NewInt(0), big.NewInt(0), op, devDeadline)

	poolArt, err := artifacts.Load("UniswapV3Pool")
	if err != nil {
		return err
	}
	c.UniswapV3PoolUSDCWETH, err = v3PoolAddress(c.UniswapV3Factory, c.USDC, c.WETH, devV3FeePips, poolArt.Bytecode)
	if err != nil {
		return err
	}
	amtUSDC, amtWETH := units(3_000_000, 6), units(1_000, 18)
	amt0, amt1 := amtUSDC, amtWETH
	if lessAddr(c.WETH, c.USDC) {
		amt0, amt1 = amtWETH, amtUSDC
	}
	b.call("v3 create pool", c.UniswapV3Factory, nil, UniswapV3FactoryABI(), "createPool", c.USDC, c.WETH, devV3FeePips)
	b.call("v3 initialize", c.UniswapV3PoolUSDCWETH, nil, UniswapV3PoolABI(), "initialize", sqrtPriceX96(amt0, amt1))
	b.call("v3 add liquidity", c.UniswapV3LiquidityHelper, nil, liquidityHelperABI(), "addLiquidity", c.UniswapV3PoolUSDCWETH, amt0, amt1)
	return nil
}

// seedAave initialises the Aave V3 style pool's USDC, WETH and DAI
// reserves and supplies them.
func seedAave(b *batch, c *DevContracts) {
	op := b.from.Address()
	pool := aavePoolAdminABI()
	b.call("aave init USDC", c.AavePool, nil, pool, "initReserve", c.USDC, c.FeedUSDCUSD, big.NewInt(7500), big.NewInt(7800), big.NewInt(450))
	b.call("aave init WETH", c.AavePool, nil, pool, "initReserve", c.WETH, c.FeedETHUSD, big.NewInt(8000), big.NewInt(8250), big.NewInt(500))
	b.call("aave init DAI", c.AavePool, nil, pool, "initReserve", c.DAI, c.FeedDAIUSD, big.NewInt(7500), big.NewInt(7800), big.NewInt(500))
	aave := AaveV3PoolABI()
	b.call("aave supply USDC", c.AavePool, nil, aave, "supply", c.USDC, units(1_000_000, 6), op, uint16(0))
	b.call("aave supply WETH", c.AavePool, nil, aave, "supply", c.WETH, units(500, 18), op, uint16(0))
	b.call("aave supply DAI", c.AavePool, nil, aave, "supply", c.DAI, units(1_000_000, 18), op, uint16(0))
}

// deployEigenLayer adds EigenLayer: a WETH strategy open for deposits, the
// operator account registered as an operator anyone may delegate to, and a
// withdrawal delay of DevEigenWithdrawalDelay blocks.
func deployEigenLayer(b *batch, c *DevContracts) {
	op := b.from.Address()
	c.EigenDelegationManager = b.deploy("DelegationManager", uint32(DevEigenWithdrawalDelay))
	c.EigenStrategyManager = b.deploy("StrategyManager", c.EigenDelegationManager)
	c.EigenStrategyWETH = b.deploy("StrategyBase", c.EigenStrategyManager, c.WETH)
	c.EigenOperator = op
	b.call("eigenlayer wire", c.EigenDelegationManager, nil, eigenAdminABI(), "setStrategyManager", c.EigenStrategyManager)
	b.call("eigenlayer whitelist", c.EigenStrategyManager, nil, eigenAdminABI(), "addStrategiesToDepositWhitelist", []common.Address{c.EigenStrategyWETH})
	b.call("eigenlayer operator", c.EigenDelegationManager, nil, EigenDelegationManagerABI(), "registerAsOperator",
		common.Address{}, uint32(0), "https://ward.invalid/dev-operator.json")
}

// readDeployed reads back into c the addresses the contracts created:
// the V2 pairs, the aTokens and the GMX market, and checks the V3 pool is
// where it was computed to be.
func readDeployed(ctx context.Context, p *Provider, c *DevContracts) error {
	r := reader{ctx: ctx, p: p}
	c.UniswapV2PairUSDCWETH = r.addr(c.UniswapV2Factory, UniswapV2FactoryABI(), "getPair", c.USDC, c.WETH)
	c.UniswapV2PairDAIUSDC = r.addr(c.UniswapV2Factory, UniswapV2FactoryABI(), "getPair", c.DAI, c.USDC)
	if got := r.addr(c.UniswapV3Factory, UniswapV3FactoryABI(), "getPool", c.USDC, c.WETH, devV3FeePips); r.err == nil && got != c.UniswapV3PoolUSDCWETH {
		return fmt.Errorf("v3 pool is at %s, computed %s", got, c.UniswapV3PoolUSDCWETH)
	}
	c.AaveAUSDC = r.aToken(c.AavePool, c.USDC)
	c.AaveAWETH = r.aToken(c.AavePool, c.WETH)
	c.AaveADAI = r.aToken(c.AavePool, c.DAI)
	c.GmxMarketETHUSD = r.addr(c.GmxV2, GmxKeeperABI(), "market")
	return r.err
}

// Dev lending markets' parameters: Morpho's LLTV (one of the values
// Morpho governance enables on mainnet) and interest rates per second
// (1e18 scale) from annual rates.
var (
	DevMorphoLLTV = big.NewInt(860_000_000_000_000_000)
	devYear       = big.NewInt(365 * 24 * 3600)
)

func perSecond(annualPercentTimes100 int64) *big.Int {
	r := new(big.Int).Mul(big.NewInt(annualPercentTimes100), big.NewInt(1e14))
	return r.Quo(r, devYear)
}

// deployLending adds the Morpho Blue and Compound III markets to the
// batch, after everything else so the other addresses do not move: the
// Morpho WETH/USDC markets (DevMorphoMarket, DevMorphoRatedMarket) and a
// USDC Comet with WETH and WBTC collateral, supplied with USDC by the
// operator.
func deployLending(b *batch, c *DevContracts) {
	op := b.from.Address()
	erc20 := ERC20ABI()
	b.call("mint USDC for lending", c.USDC, nil, erc20Mint(), "mint", op, units(2_000_000, 6))
	c.MorphoBlue = b.deploy("Morpho", op)
	c.MorphoIrm = b.deploy("FixedRateIrm", perSecond(400))
	c.MorphoOracleWETHUSDC = b.deploy("MorphoChainlinkOracle", c.FeedETHUSD, big.NewInt(18), c.FeedUSDCUSD, big.NewInt(6))
	params, rated := DevMorphoMarket(c), DevMorphoRatedMarket(c)
	b.call("morpho enable no irm", c.MorphoBlue, nil, morphoAdminABI(), "enableIrm", common.Address{})
	b.call("morpho enable irm", c.MorphoBlue, nil, morphoAdminABI(), "enableIrm", c.MorphoIrm)
	b.call("morpho enable lltv", c.MorphoBlue, nil, morphoAdminABI(), "enableLltv", DevMorphoLLTV)
	b.call("morpho create market", c.MorphoBlue, nil, morphoAdminABI(), "createMarket", params)
	b.call("morpho create rated market", c.MorphoBlue, nil, morphoAdminABI(), "createMarket", rated)
	b.call("approve morpho", c.USDC, nil, erc20, "approve", c.MorphoBlue, maxUint256)
	b.call("morpho supply USDC", c.MorphoBlue, nil, MorphoBlueABI(), "supply", params, units(1_000_000, 6), new(big.Int), op, []byte{})
	b.call("morpho supply USDC (rated market)", c.MorphoBlue, nil, MorphoBlueABI(), "supply", rated, units(100_000, 6), new(big.Int), op, []byte{})

	rates := [8]uint64{9e17, perSecond(300).Uint64(), perSecond(20000).Uint64(), 0, 9e17, perSecond(400).Uint64(), perSecond(25000).Uint64(), perSecond(150).Uint64()}
	c.CometUSDC = b.deploy("Comet", c.USDC, c.FeedUSDCUSD, units(100, 6), rates)
	b.call("comet add WETH", c.CometUSDC, nil, cometAdminABI(), "addAsset", c.WETH, c.FeedETHUSD, uint64(825e15), uint64(895e15), uint64(95e16), units(100_000, 18))
	b.call("comet add WBTC", c.CometUSDC, nil, cometAdminABI(), "addAsset", c.WBTC, c.FeedBTCUSD, uint64(70e16), uint64(77e16), uint64(95e16), units(1_000, 8))
	b.call("approve comet", c.USDC, nil, erc20, "approve", c.CometUSDC, maxUint256)
	b.call("comet supply USDC", c.CometUSDC, nil, CometABI(), "supply", c.USDC, units(1_000_000, 6))
}

// DevMorphoMarket is the dev chain's Morpho Blue market for lending and
// borrowing: WETH collateral, USDC loans, no interest rate model (no
// interest, as Morpho Blue allows), so its balances are exact.
func DevMorphoMarket(c *DevContracts) MorphoMarketParams {
	return MorphoMarketParams{LoanToken: c.USDC, CollateralToken: c.WETH, Oracle: c.MorphoOracleWETHUSDC, Lltv: DevMorphoLLTV}
}

// DevMorphoRatedMarket is the same pair with MorphoIrm's 4 % borrow rate:
// another market (another id), supplied with 100,000 USDC. Interest
// accrues on each touch once it has borrowers.
func DevMorphoRatedMarket(c *DevContracts) MorphoMarketParams {
	p := DevMorphoMarket(c)
	p.Irm = c.MorphoIrm
	return p
}

// Admin-only methods of the dev contracts, beyond the mainnet interfaces.
var (
	erc20Mint          = onceABI(`[{"type":"function","name":"mint","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[]}]`)
	liquidityHelperABI = onceABI(`[{"type":"function","name":"addLiquidity","stateMutability":"nonpayable","inputs":[{"name":"pool","type":"address"},{"name":"amount0Max","type":"uint256"},{"name":"amount1Max","type":"uint256"}],"outputs":[{"name":"liquidity","type":"uint128"},{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]}]`)
	aavePoolAdminABI   = onceABI(`[{"type":"function","name":"initReserve","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"priceFeed","type":"address"},{"name":"ltvBps","type":"uint256"},{"name":"liquidationThresholdBps","type":"uint256"},{"name":"liquidationBonusBps","type":"uint256"}],"outputs":[]}]`)
	morphoAdminABI     = onceABI(`[{"type":"function","name":"enableIrm","stateMutability":"nonpayable","inputs":[{"name":"irm","type":"address"}],"outputs":[]},{"type":"function","name":"enableLltv","stateMutability":"nonpayable","inputs":[{"name":"lltv","type":"uint256"}],"outputs":[]},{"type":"function","name":"createMarket","stateMutability":"nonpayable","inputs":[{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]}],"outputs":[]}]`)
	cometAdminABI      = onceABI(`[{"type":"function","name":"addAsset","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"priceFeed","type":"address"},{"name":"borrowCollateralFactor","type":"uint64"},{"name":"liquidateCollateralFactor","type":"uint64"},{"name":"liquidationFactor","type":"uint64"},{"name":"supplyCap","type":"uint128"}],"outputs":[]}]`)
	eigenAdminABI      = onceABI(`[{"type":"function","name":"setStrategyManager","stateMutability":"nonpayable","inputs":[{"name":"sm","type":"address"}],"outputs":[]},{"type":"function","name":"addStrategiesToDepositWhitelist","stateMutability":"nonpayable","inputs":[{"name":"strategies","type":"address[]"}],"outputs":[]}]`)
	priceFeedAdminABI  = onceABI(`[{"type":"function","name":"updateAnswer","stateMutability":"nonpayable","inputs":[{"name":"answer","type":"int256"}],"outputs":[]},{"type":"function","name":"updateRoundData","stateMutability":"nonpayable","inputs":[{"name":"answer","type":"int256"},{"name":"updatedAt","type":"uint256"}],"outputs":[]}]`)
)

// SetFeedAnswer publishes a new answer on one of the dev chain's price
// feeds (sent by the operator and mined at once), to move a market in
// tests and demos.
func (d *DevChain) SetFeedAnswer(ctx context.Context, feed common.Address, answer *big.Int) error {
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	b.call("update answer", feed, nil, priceFeedAdminABI(), "updateAnswer", answer)
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("set feed answer: %w", err)
	}
	delete(d.pinned, feed)
	return nil
}

// DeployToken deploys another ERC-20 (with EIP-2612) from the operator
// and mints supply to it: for demos and tests of tokens ward does not know
// (their name and symbol are whatever the deployer wrote).
func (d *DevChain) DeployToken(ctx context.Context, name, symbol string, decimals uint8, supply *big.Int) (common.Address, error) {
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return common.Address{}, err
	}
	addr := b.deploy("ERC20Permit", name, symbol, decimals)
	if supply != nil && supply.Sign() > 0 {
		b.call("mint", addr, nil, erc20Mint(), "mint", d.operator.Address(), supply)
	}
	if err := b.run(ctx); err != nil {
		return common.Address{}, fmt.Errorf("deploy token: %w", err)
	}
	return addr, nil
}

// SetFeedRound publishes a round on a dev price feed with the given
// update time (in the past to make the price stale). The feed keeper
// leaves the feed alone from then on, until SetFeedAnswer.
func (d *DevChain) SetFeedRound(ctx context.Context, feed common.Address, answer *big.Int, updatedAt time.Time) error {
	if updatedAt.Unix() <= 0 {
		return errors.New("set feed round: update time before 1970")
	}
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	b.call("update round", feed, nil, priceFeedAdminABI(), "updateRoundData", answer, big.NewInt(updatedAt.Unix()))
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("set feed round: %w", err)
	}
	d.pinned[feed] = true // the keeper must not undo a deliberately aged round
	return nil
}

// Fund sends amount of token to an address from the operator: ether for
// the zero address, WETH by wrapping the operator's ether, and the dev
// tokens (USDC, DAI, WBTC) by minting.
func (d *DevChain) Fund(ctx context.Context, to, token common.Address, amount *big.Int) error {
	if amount == nil || amount.Sign() <= 0 {
		return errors.New("fund: amount must be positive")
	}
	c := d.Contracts()
	d.deployMu.Lock()
	defer d.deployMu.Unlock()
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		return err
	}
	switch {
	case token == (common.Address{}):
		b.add("send ether", &to, amount, nil)
	case c != nil && token == c.WETH:
		b.call("wrap", c.WETH, amount, WETH9ABI(), "deposit")
		b.call("transfer WETH", c.WETH, nil, ERC20ABI(), "transfer", to, amount)
	case c != nil && (token == c.USDC || token == c.DAI || token == c.WBTC):
		b.call("mint", token, nil, erc20Mint(), "mint", to, amount)
	default:
		return fmt.Errorf("fund: %s is not a dev token", token.Hex())
	}
	if err := b.run(ctx); err != nil {
		return fmt.Errorf("fund: %w", err)
	}
	return nil
}

// batch is a sequence of operator transactions sent with consecutive
// nonces and a fixed gas limit, then mined together. Its methods record
// the first error and do nothing after it.
type batch struct {
	d      *DevChain
	from   *LocalSigner
	nonce  uint64
	tip    *big.Int
	feeCap *big.Int
	txs    []*types.Transaction
	labels []string
	arts   map[string]artifacts.Artifact
	err    error
}

func newBatch(ctx context.Context, d *DevChain, from *LocalSigner) (*batch, error) {
	nonce, err := d.provider.Nonce(ctx, from.Address())
	if err != nil {
		return nil, err
	}
	head, err := d.provider.HeaderLatest(ctx)
	if err != nil {
		return nil, err
	}
	tip := big.NewInt(params.GWei)
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), tip)
	return &batch{d: d, from: from, nonce: nonce, tip: tip, feeCap: feeCap, arts: map[string]artifacts.Artifact{}}, nil
}

// deploy adds the creation of artifact name with constructor args and
// returns the address it will have.
func (b *batch) deploy(name string, args ...any) common.Address {
	if b.err != nil {
		return common.Address{}
	}
	art, ok := b.arts[name]
	if !ok {
		var err error
		if art, err = artifacts.Load(name); err != nil {
			b.err = err
			return common.Address{}
		}
		b.arts[name] = art
	}
	a, err := ParseABI(art.ABI)
	if err != nil {
		b.err = fmt.Errorf("%s: %w", name, err)
		return common.Address{}
	}
	ctor, err := a.abi.Pack("", args...)
	if err != nil {
		b.err = fmt.Errorf("%s constructor: %w", name, err)
		return common.Address{}
	}
	addr := crypto.CreateAddress(b.from.Address(), b.nonce)
	b.add("deploy "+name, nil, nil, append(append([]byte(nil), art.Bytecode...), ctor...))
	return addr
}

// call adds a call of method on to.
func (b *batch) call(label string, to common.Address, value *big.Int, a *ABI, method string, args ...any) {
	if b.err != nil {
		return
	}
	data, err := a.Pack(method, args...)
	if err != nil {
		b.err = fmt.Errorf("%s: %w", label, err)
		return
	}
	b.add(label, &to, value, data)
}

func (b *batch) add(label string, to *common.Address, value *big.Int, data []byte) {
	if value == nil {
		value = new(big.Int)
	}
	b.txs = append(b.txs, types.NewTx(&types.DynamicFeeTx{
		ChainID: big.NewInt(DevChainID), Nonce: b.nonce, GasTipCap: b.tip, GasFeeCap: b.feeCap,
		Gas: params.MaxTxGas, To: to, Value: value, Data: data,
	}))
	b.labels = append(b.labels, label)
	b.nonce++
}

// run signs and sends the batch, mines it (holding the commit lock, so
// auto-commit cannot split it), and checks every receipt.
func (b *batch) run(ctx context.Context) error {
	if b.err != nil {
		return b.err
	}
	if len(b.txs) == 0 {
		return nil
	}
	chainID := big.NewInt(DevChainID)
	d := b.d
	d.commitMu.Lock()
	defer d.commitMu.Unlock()
	signed := make([]*types.Transaction, len(b.txs))
	for i, tx := range b.txs {
		s, err := b.from.SignTx(ctx, chainID, tx)
		if err != nil {
			return err
		}
		if err := d.provider.SendTransaction(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", b.labels[i], err)
		}
		signed[i] = s
	}
	if err := b.mine(ctx); err != nil {
		return err
	}
	for i, s := range signed {
		r, err := d.provider.Receipt(ctx, s.Hash())
		if err != nil {
			return fmt.Errorf("%s: not mined: %w", b.labels[i], err)
		}
		if r.Status != types.ReceiptStatusSuccessful {
			msg := ethereum.CallMsg{From: b.from.Address(), To: s.To(), Value: s.Value(), Data: s.Data(), Gas: s.Gas()}
			return fmt.Errorf("%s (tx %d): %w", b.labels[i], i, d.provider.failure(ctx, msg, s, r))
		}
	}
	return nil
}

// mine seals blocks until every transaction of the batch is mined. On a
// loaded machine the miner may seal a block with only part of the pool
// (its payload is built against a deadline), or with none of it when it
// could not even gather the pool in time, so the number of blocks is not
// known in advance: it goes on while blocks make progress, and gives up
// once stalledBlocks blocks in a row, over at least stalledFor, mined
// none of the batch. stalledFor was 5 s until a clean-clone CI run on a
// machine at load 10-14 gave up on a deployment's approval that way
// (TestHeldOutReplay, "approve yearn: not mined"); a stall only costs
// time when the batch really cannot be mined.
func (b *batch) mine(ctx context.Context) error {
	const (
		stalledBlocks = 8
		stalledFor    = 30 * time.Second
	)
	var mined uint64
	stalled, since := 0, time.Now()
	for stalled < stalledBlocks || time.Since(since) < stalledFor {
		b.d.commitLocked()
		n, err := b.d.provider.MinedNonce(ctx, b.from.Address())
		if err != nil {
			return err
		}
		if n >= b.nonce {
			return nil
		}
		if n > mined {
			mined, stalled, since = n, 0, time.Now()
		} else {
			stalled++
		}
	}
	return nil // the receipts say which transaction was not mined
}

// reader makes view calls, recording the first error.
type reader struct {
	ctx context.Context
	p   *Provider
	err error
}

func (r *reader) addr(to common.Address, a *ABI, method string, args ...any) common.Address {
	if r.err != nil {
		return common.Address{}
	}
	data, err := a.Pack(method, args...)
	if err != nil {
		r.err = err
		return common.Address{}
	}
	out, err := r.p.Call(r.ctx, ethereum.CallMsg{To: &to, Data: data})
	if err != nil || len(out) < 32 {
		r.err = errors.Join(fmt.Errorf("%s: no address returned", method), err)
		return common.Address{}
	}
	return common.BytesToAddress(out[:32])
}

// aToken reads the aToken of asset from getReserveData (the ninth word).
func (r *reader) aToken(pool, asset common.Address) common.Address {
	if r.err != nil {
		return common.Address{}
	}
	data, err := AaveV3PoolABI().Pack("getReserveData", asset)
	if err != nil {
		r.err = err
		return common.Address{}
	}
	out, err := r.p.Call(r.ctx, ethereum.CallMsg{To: &pool, Data: data})
	if err != nil || len(out) < 9*32 {
		r.err = errors.Join(errors.New("getReserveData: short answer"), err)
		return common.Address{}
	}
	return common.BytesToAddress(out[8*32 : 9*32])
}

func onceABI(j string) func() *ABI {
	return sync.OnceValue(func() *ABI { return mustParseABI(j) })
}

// lessAddr orders addresses as Uniswap sorts tokens.
func lessAddr(a, b common.Address) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// v3PoolAddress is the CREATE2 address of a Uniswap V3 pool: salt
// keccak256(abi.encode(token0, token1, fee)), init code the pool's
// creation code.
func v3PoolAddress(factory, a, b common.Address, fee *big.Int, initCode []byte) (common.Address, error) {
	if lessAddr(b, a) {
		a, b = b, a
	}
	addrT, _ := abi.NewType("address", "", nil)
	feeT, _ := abi.NewType("uint24", "", nil)
	salt, err := abi.Arguments{{Type: addrT}, {Type: addrT}, {Type: feeT}}.Pack(a, b, fee)
	if err != nil {
		return common.Address{}, err
	}
	return crypto.CreateAddress2(factory, crypto.Keccak256Hash(salt), crypto.Keccak256(initCode)), nil
}

// sqrtPriceX96 is floor(sqrt(amount1/amount0) * 2^96): the V3 price at
// which amount0 of token0 is worth amount1 of token1.
func sqrtPriceX96(amount0, amount1 *big.Int) *big.Int {
	num := new(big.Int).Lsh(amount1, 192)
	return num.Sqrt(num.Div(num, amount0))
}
