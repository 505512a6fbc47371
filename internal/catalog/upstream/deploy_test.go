package upstream_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Artifact paths, relative to nodeModules (ward: names ward's own internal/chain/artifacts).
const (
	artWETH9      = "@uniswap/v2-periphery/build/WETH9.json" // the canonical WETH9 the V2 tests use
	artV2Factory  = "@uniswap/v2-core/build/UniswapV2Factory.json"
	artV2Pair     = "@uniswap/v2-core/build/UniswapV2Pair.json"
	artV2Router   = "@uniswap/v2-periphery/build/UniswapV2Router02.json"
	artV3Factory  = "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json"
	artV3Pool     = "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json"
	artV3Position = "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json"
	artV3Router   = "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json"
	artV3Quoter   = "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json"

	aave            = "@aave/core-v3/artifacts/contracts/"
	artAaveProvider = aave + "protocol/configuration/PoolAddressesProvider.sol/PoolAddressesProvider.json"
	artAaveACL      = aave + "protocol/configuration/ACLManager.sol/ACLManager.json"
	artAavePool     = aave + "protocol/pool/Pool.sol/Pool.json"
	artAaveConfig   = aave + "protocol/pool/PoolConfigurator.sol/PoolConfigurator.json"
	artAaveRates    = aave + "protocol/pool/DefaultReserveInterestRateStrategy.sol/DefaultReserveInterestRateStrategy.json"
	artAaveOracle   = aave + "misc/AaveOracle.sol/AaveOracle.json"
	artAaveAToken   = aave + "protocol/tokenization/AToken.sol/AToken.json"
	artAaveStable   = aave + "protocol/tokenization/StableDebtToken.sol/StableDebtToken.json"
	artAaveVariable = aave + "protocol/tokenization/VariableDebtToken.sol/VariableDebtToken.json"
	artAaveData     = aave + "misc/AaveProtocolDataProvider.sol/AaveProtocolDataProvider.json"

	artERC20      = "ward:ERC20Permit"
	artFeed       = "ward:PriceFeed"
	artHelper     = "ward:LiquidityHelper"
	artWardV3Pool = "ward:UniswapV3Pool" // for the ABI of the dev pool's extensions
)

// Mainnet constants the periphery contracts bake into their bytecode.
var (
	v2InitCodeHash = common.HexToHash("0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f")
	v3InitCodeHash = common.HexToHash("0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54")
)

const (
	v3Fee         = 3000
	v3TickSpacing = 60
	v3MaxTick     = 887272 / v3TickSpacing * v3TickSpacing
)

var (
	maxUint   = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	farFuture = big.NewInt(1 << 40)
	ray       = new(big.Int).Exp(big.NewInt(10), big.NewInt(27), nil)
)

// units returns n whole tokens of a token with dec decimals.
func units(n int64, dec int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dec)), nil))
}

// rayPct returns pct percent as a ray.
func rayPct(pct int64) *big.Int {
	return new(big.Int).Div(new(big.Int).Mul(ray, big.NewInt(pct)), big.NewInt(100))
}

// world is everything deployed: the published protocol contracts, ward's test tokens and feeds,
// and notes on what deploying them took.
type world struct {
	n *node

	weth, usdc, dai            common.Address
	ethFeed, usdcFeed, daiFeed common.Address

	v2Factory, v2Router, v2Pair common.Address // v2Pair is USDC/WETH

	v3Factory, v3Router, v3Positions, v3Quoter, v3Pool common.Address // v3Pool is USDC/WETH 0.3 %

	aaveProvider, aaveACL, aavePool, aaveConfigurator, aaveOracle, aaveData common.Address
	aTokens                                                                 map[common.Address]common.Address

	notes   []string
	patched []string // periphery bytecode whose init code hash had to be patched

	agent *agent // the catalogue over this world
}

func (w *world) note(format string, args ...any) {
	w.notes = append(w.notes, fmt.Sprintf(format, args...))
}

// deployWorld deploys the protocols on n. It stops at the first failure.
func deployWorld(ctx context.Context, n *node) (*world, error) {
	w := &world{n: n, aTokens: map[common.Address]common.Address{}}
	for _, step := range []func(context.Context) error{w.deployTokens, w.deployUniswapV2, w.deployUniswapV3, w.deployAave} {
		if err := step(ctx); err != nil {
			return w, err
		}
	}
	return w, nil
}

func (w *world) deployTokens(ctx context.Context) error {
	n := w.n
	w.weth = n.deploy(ctx, artWETH9)
	w.usdc = n.deploy(ctx, artERC20, "USD Coin", "USDC", uint8(6))
	w.dai = n.deploy(ctx, artERC20, "Dai Stablecoin", "DAI", uint8(18))
	w.ethFeed = n.deploy(ctx, artFeed, uint8(8), "ETH / USD", big.NewInt(3000e8))
	w.usdcFeed = n.deploy(ctx, artFeed, uint8(8), "USDC / USD", big.NewInt(1e8))
	w.daiFeed = n.deploy(ctx, artFeed, uint8(8), "DAI / USD", big.NewInt(1e8))

	agent := crypto.PubkeyToAddress(agentKey.PublicKey)
	n.send(ctx, artERC20, w.usdc, "mint", n.operator, units(10_000_000, 6))
	n.send(ctx, artERC20, w.dai, "mint", n.operator, units(10_000_000, 18))
	n.send(ctx, artERC20, w.usdc, "mint", agent, units(100_000, 6))
	n.send(ctx, artERC20, w.dai, "mint", agent, units(100_000, 18))
	n.sendValue(ctx, units(10_000, 18), artWETH9, w.weth, "deposit")
	return wrap("tokens", n.err)
}

// deployUniswapV2 deploys the factory and Router02 as published and adds USDC/WETH and
// DAI/USDC liquidity through the router (which creates the pairs).
//
// Router02 finds pairs with CREATE2 and an init code hash compiled into its bytecode
// (UniswapV2Library.pairFor), so it only works with the exact pair creation code the factory
// embeds. The check below compares the hash of the published v2-core pair against it before
// deploying; it would patch the router's copy if they differed.
func (w *world) deployUniswapV2(ctx context.Context) error {
	n := w.n
	pair, router := n.art(artV2Pair), n.art(artV2Router)
	if n.err != nil {
		return wrap("uniswap v2", n.err)
	}
	pairCode, err := hex.DecodeString(pair.code)
	if err != nil {
		return wrap("uniswap v2", err)
	}
	got := crypto.Keccak256Hash(pairCode)
	w.note("uniswap v2: keccak256(v2-core UniswapV2Pair creation code) = %s; mainnet init code hash %s: match %v", got, v2InitCodeHash, got == v2InitCodeHash)
	factory := n.art(artV2Factory)
	w.note("uniswap v2: v2-core factory embeds that pair code: %v", bytes.Contains([]byte(factory.code), []byte(pair.code)))
	if c := bytes.Count([]byte(router.code), []byte(hex.EncodeToString(v2InitCodeHash[:]))); got != v2InitCodeHash {
		if c == 0 {
			return fmt.Errorf("uniswap v2: router holds no copy of the init code hash to patch")
		}
		router.code = string(bytes.ReplaceAll([]byte(router.code), []byte(hex.EncodeToString(v2InitCodeHash[:])), []byte(hex.EncodeToString(got[:]))))
		w.patched = append(w.patched, fmt.Sprintf("UniswapV2Router02 (%d copies)", c))
	}

	w.v2Factory = n.deploy(ctx, artV2Factory, n.operator)
	w.v2Router = n.deploy(ctx, artV2Router, w.v2Factory, w.weth)
	for _, tok := range []common.Address{w.usdc, w.dai, w.weth} {
		n.send(ctx, artERC20, tok, "approve", w.v2Router, maxUint)
	}
	n.send(ctx, artV2Router, w.v2Router, "addLiquidity", w.usdc, w.weth, units(3_000_000, 6), units(1_000, 18),
		big.NewInt(0), big.NewInt(0), n.operator, farFuture)
	n.send(ctx, artV2Router, w.v2Router, "addLiquidity", w.dai, w.usdc, units(1_000_000, 18), units(1_000_000, 6),
		big.NewInt(0), big.NewInt(0), n.operator, farFuture)
	w.v2Pair = n.callAddr(ctx, artV2Factory, w.v2Factory, "getPair", w.usdc, w.weth)
	if n.err != nil {
		return wrap("uniswap v2", n.err)
	}
	if want := create2Pair(w.v2Factory, w.usdc, w.weth, v2InitCodeHash); want != w.v2Pair {
		w.note("uniswap v2: factory's pair %s is not at the CREATE2 address %s Router02 computes", w.v2Pair, want)
	}
	return wrap("uniswap v2", n.err)
}

// create2Pair is UniswapV2Library.pairFor (and, with a fee in the salt, PoolAddress.computeAddress).
func create2Pair(factory, a, b common.Address, initCodeHash common.Hash) common.Address {
	if bytes.Compare(a[:], b[:]) > 0 {
		a, b = b, a
	}
	salt := crypto.Keccak256Hash(a[:], b[:])
	return crypto.CreateAddress2(factory, salt, initCodeHash[:])
}

// deployUniswapV3 deploys the factory, NonfungiblePositionManager, SwapRouter and QuoterV2 as
// published, creates the USDC/WETH 0.3 % pool at 3,000 USDC per WETH through the position
// manager and mints full-range liquidity. The periphery computes pool addresses with the
// mainnet POOL_INIT_CODE_HASH; the check is the same as for V2.
func (w *world) deployUniswapV3(ctx context.Context) error {
	n := w.n
	pool := n.art(artV3Pool)
	if n.err != nil {
		return wrap("uniswap v3", n.err)
	}
	poolCode, err := hex.DecodeString(pool.code)
	if err != nil {
		return wrap("uniswap v3", err)
	}
	got := crypto.Keccak256Hash(poolCode)
	w.note("uniswap v3: keccak256(v3-core UniswapV3Pool creation code) = %s; periphery POOL_INIT_CODE_HASH %s: match %v", got, v3InitCodeHash, got == v3InitCodeHash)
	if got != v3InitCodeHash {
		for _, rel := range []string{artV3Position, artV3Router, artV3Quoter} {
			a := n.art(rel)
			old, repl := []byte(hex.EncodeToString(v3InitCodeHash[:])), []byte(hex.EncodeToString(got[:]))
			w.patched = append(w.patched, fmt.Sprintf("%s (%d copies)", a.name, bytes.Count([]byte(a.code), old)))
			a.code = string(bytes.ReplaceAll([]byte(a.code), old, repl))
		}
	}

	w.v3Factory = n.deploy(ctx, artV3Factory)
	// The token descriptor only renders tokenURI; the zero address leaves that unused.
	w.v3Positions = n.deploy(ctx, artV3Position, w.v3Factory, w.weth, common.Address{})
	w.v3Router = n.deploy(ctx, artV3Router, w.v3Factory, w.weth)
	w.v3Quoter = n.deploy(ctx, artV3Quoter, w.v3Factory, w.weth)

	t0, t1 := w.usdc, w.weth
	amt0, amt1 := units(3_000_000, 6), units(1_000, 18)
	if bytes.Compare(t0[:], t1[:]) > 0 {
		t0, t1, amt0, amt1 = t1, t0, amt1, amt0
	}
	// sqrtPriceX96 = sqrt(amount1 / amount0) * 2^96, in base units.
	sqrtP := new(big.Int).Sqrt(new(big.Int).Div(new(big.Int).Lsh(amt1, 192), amt0))
	n.send(ctx, artV3Position, w.v3Positions, "createAndInitializePoolIfNecessary", t0, t1, big.NewInt(v3Fee), sqrtP)
	for _, tok := range []common.Address{w.usdc, w.weth} {
		n.send(ctx, artERC20, tok, "approve", w.v3Positions, maxUint)
	}
	type mintParams struct {
		Token0, Token1                 common.Address
		Fee, TickLower, TickUpper      *big.Int
		Amount0Desired, Amount1Desired *big.Int
		Amount0Min, Amount1Min         *big.Int
		Recipient                      common.Address
		Deadline                       *big.Int
	}
	n.send(ctx, artV3Position, w.v3Positions, "mint", mintParams{
		Token0: t0, Token1: t1, Fee: big.NewInt(v3Fee), TickLower: big.NewInt(-v3MaxTick), TickUpper: big.NewInt(v3MaxTick),
		Amount0Desired: amt0, Amount1Desired: amt1, Amount0Min: big.NewInt(0), Amount1Min: big.NewInt(0),
		Recipient: n.operator, Deadline: farFuture,
	})
	w.v3Pool = n.callAddr(ctx, artV3Factory, w.v3Factory, "getPool", w.usdc, w.weth, big.NewInt(v3Fee))
	if n.err != nil {
		return wrap("uniswap v3", n.err)
	}
	if liq := n.callBig(ctx, artV3Pool, w.v3Pool, "liquidity"); liq.Sign() == 0 {
		n.fail(fmt.Errorf("pool %s has no liquidity after mint", w.v3Pool))
	}
	return wrap("uniswap v3", n.err)
}

// initReserveInput is ConfiguratorInputTypes.InitReserveInput.
type initReserveInput struct {
	ATokenImpl                  common.Address
	StableDebtTokenImpl         common.Address
	VariableDebtTokenImpl       common.Address
	UnderlyingAssetDecimals     uint8
	InterestRateStrategyAddress common.Address
	UnderlyingAsset             common.Address
	Treasury                    common.Address
	IncentivesController        common.Address
	ATokenName                  string
	ATokenSymbol                string
	VariableDebtTokenName       string
	VariableDebtTokenSymbol     string
	StableDebtTokenName         string
	StableDebtTokenSymbol       string
	Params                      []byte
}

// reserve is one Aave market and its risk parameters (basis points).
type reserve struct {
	asset                 common.Address
	symbol                string
	decimals              uint8
	feed                  common.Address
	ltv, threshold, bonus int64
}

// deployAave reconstructs aave-v3-deploy's market set-up from the contracts' constructors and
// initialisers (aave-v3-deploy itself is not published on npm):
//
//  1. PoolAddressesProvider(marketId, owner); setACLAdmin(operator) — ACLManager's constructor
//     reads the ACL admin from the provider and reverts if it is unset.
//  2. ACLManager(provider); provider.setACLManager; grant the operator POOL_ADMIN (which
//     initReserves, configureReserveAsCollateral and setReserveBorrowing accept).
//  3. Pool(provider): the implementation, linked against SupplyLogic, BorrowLogic,
//     LiquidationLogic, EModeLogic, BridgeLogic, FlashLoanLogic (itself linked against
//     BorrowLogic) and PoolLogic. provider.setPoolImpl deploys the
//     InitializableImmutableAdminUpgradeabilityProxy and calls initialize(provider) through it;
//     the Pool's address is the proxy's (provider.getPool()).
//  4. PoolConfigurator(), linked against ConfiguratorLogic, behind its proxy the same way
//     (setPoolConfiguratorImpl). Its initialize reads getPool(), so the Pool comes first.
//  5. AaveOracle(provider, assets, Chainlink-style sources, no fallback, base currency USD = the
//     zero address, unit 1e8) with ward's PriceFeed as sources; provider.setPriceOracle.
//  6. AToken, StableDebtToken and VariableDebtToken implementations constructed with the Pool
//     proxy; one DefaultReserveInterestRateStrategy; configurator.initReserves deploys a proxy
//     per token and reserve.
//  7. configureReserveAsCollateral(ltv, threshold, bonus) and setReserveBorrowing(true) per
//     reserve; the operator then supplies liquidity to borrow from.
func (w *world) deployAave(ctx context.Context) error {
	n := w.n
	w.aaveProvider = n.deploy(ctx, artAaveProvider, "Ward Upstream Market", n.operator)
	n.send(ctx, artAaveProvider, w.aaveProvider, "setACLAdmin", n.operator)
	w.aaveACL = n.deploy(ctx, artAaveACL, w.aaveProvider)
	n.send(ctx, artAaveProvider, w.aaveProvider, "setACLManager", w.aaveACL)
	n.send(ctx, artAaveACL, w.aaveACL, "addPoolAdmin", n.operator)

	poolImpl := n.deploy(ctx, artAavePool, w.aaveProvider)
	n.send(ctx, artAaveProvider, w.aaveProvider, "setPoolImpl", poolImpl)
	w.aavePool = n.callAddr(ctx, artAaveProvider, w.aaveProvider, "getPool")
	// As the deploy scripts do: initialise the bare implementation so nobody else can.
	n.send(ctx, artAavePool, poolImpl, "initialize", w.aaveProvider)

	configImpl := n.deploy(ctx, artAaveConfig)
	n.send(ctx, artAaveProvider, w.aaveProvider, "setPoolConfiguratorImpl", configImpl)
	w.aaveConfigurator = n.callAddr(ctx, artAaveProvider, w.aaveProvider, "getPoolConfigurator")

	reserves := []reserve{
		{asset: w.weth, symbol: "WETH", decimals: 18, feed: w.ethFeed, ltv: 8000, threshold: 8250, bonus: 10500},
		{asset: w.usdc, symbol: "USDC", decimals: 6, feed: w.usdcFeed, ltv: 7700, threshold: 8000, bonus: 10450},
		{asset: w.dai, symbol: "DAI", decimals: 18, feed: w.daiFeed, ltv: 7500, threshold: 8000, bonus: 10500},
	}
	var assets, sources []common.Address
	for _, r := range reserves {
		assets, sources = append(assets, r.asset), append(sources, r.feed)
	}
	w.aaveOracle = n.deploy(ctx, artAaveOracle, w.aaveProvider, assets, sources, common.Address{}, common.Address{}, big.NewInt(1e8))
	n.send(ctx, artAaveProvider, w.aaveProvider, "setPriceOracle", w.aaveOracle)
	w.aaveData = n.deploy(ctx, artAaveData, w.aaveProvider)
	n.send(ctx, artAaveProvider, w.aaveProvider, "setPoolDataProvider", w.aaveData)

	aToken := n.deploy(ctx, artAaveAToken, w.aavePool)
	stable := n.deploy(ctx, artAaveStable, w.aavePool)
	variable := n.deploy(ctx, artAaveVariable, w.aavePool)
	// Aave's volatile-asset curve: 80 % optimal usage, 0 % base, 4 % and 75 % slopes.
	rates := n.deploy(ctx, artAaveRates, w.aaveProvider, rayPct(80), big.NewInt(0), rayPct(4), rayPct(75),
		rayPct(0), rayPct(0), rayPct(2), rayPct(8), rayPct(20))
	var inputs []initReserveInput
	for _, r := range reserves {
		inputs = append(inputs, initReserveInput{
			ATokenImpl: aToken, StableDebtTokenImpl: stable, VariableDebtTokenImpl: variable,
			UnderlyingAssetDecimals: r.decimals, InterestRateStrategyAddress: rates, UnderlyingAsset: r.asset,
			Treasury: n.operator, IncentivesController: common.Address{},
			ATokenName: "Aave " + r.symbol, ATokenSymbol: "a" + r.symbol,
			VariableDebtTokenName: "Aave Variable Debt " + r.symbol, VariableDebtTokenSymbol: "variableDebt" + r.symbol,
			StableDebtTokenName: "Aave Stable Debt " + r.symbol, StableDebtTokenSymbol: "stableDebt" + r.symbol,
			Params: []byte{},
		})
	}
	n.send(ctx, artAaveConfig, w.aaveConfigurator, "initReserves", inputs)
	for _, r := range reserves {
		n.send(ctx, artAaveConfig, w.aaveConfigurator, "configureReserveAsCollateral", r.asset, big.NewInt(r.ltv), big.NewInt(r.threshold), big.NewInt(r.bonus))
		n.send(ctx, artAaveConfig, w.aaveConfigurator, "setReserveBorrowing", r.asset, true)
		n.send(ctx, artAaveConfig, w.aaveConfigurator, "setReserveFactor", r.asset, big.NewInt(1000))
		out := n.call(ctx, artAavePool, w.aavePool, "getReserveData", r.asset)
		if n.err != nil {
			break
		}
		w.aTokens[r.asset] = reserveField(out[0], "ATokenAddress")
	}
	// Liquidity to borrow from.
	for _, s := range []struct {
		tok    common.Address
		amount *big.Int
	}{{w.usdc, units(1_000_000, 6)}, {w.dai, units(1_000_000, 18)}, {w.weth, units(1_000, 18)}} {
		n.send(ctx, artERC20, s.tok, "approve", w.aavePool, maxUint)
		n.send(ctx, artAavePool, w.aavePool, "supply", s.tok, s.amount, n.operator, uint16(0))
	}
	return wrap("aave v3", n.err)
}

// reserveField reads a field of the ReserveData tuple go-ethereum unpacked into an anonymous
// struct.
func reserveField(v any, name string) common.Address {
	rv := reflect.ValueOf(v)
	f := rv.FieldByName(name)
	if !f.IsValid() {
		return common.Address{}
	}
	a, _ := f.Interface().(common.Address)
	return a
}

func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("deploy %s: %w", what, err)
}
