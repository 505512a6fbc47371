package deploy

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/addrbook"
)

// Prices (8-decimal feed answers) and sizes. Every pool is priced at
// $3,000 per ETH and $1 per stablecoin; amounts are whole tokens.
const (
	priceETH = 3_000e8
	priceUSD = 1e8

	wethPerPool   = 100 // WETH in each WETH pool (and in Aave)
	wethKept      = 100 // WETH the key keeps
	stablePerPool = 1_000_000
	wethPerV4Pool = 50
	wethWrapped   = 4*wethPerPool + wethKept + 2*wethPerV4Pool // three WETH pools and Aave, plus the key's own, plus the two V4 pools
	usdcMinted    = 5_000_000                                  // enough for every pool, the native V4 one included
	daiMinted     = 4_000_000 + vaultsDAIspent
)

// Mainnet constants the periphery contracts bake into their bytecode: the
// routers find pairs and pools with CREATE2 and these hashes of the
// published pair and pool creation code.
var (
	v2InitCodeHash = common.HexToHash("0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f")
	v3InitCodeHash = common.HexToHash("0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54")
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

// Result is what Deploy put on the chain.
type Result struct {
	ChainID  uint64
	Deployer common.Address // the key's address: it holds the tokens and positions
	Tokens   []Token
	// Contracts are the protocol entry points, by addrbook role.
	Contracts []Contract
	Pools     []Pool
	// ATokens are Aave's aTokens by underlying token symbol.
	ATokens map[string]common.Address
	// Transactions is how many transactions the deployment sent.
	Transactions int
	// Account is the ERC-4337 account (ward's SessionKeyAccount, owned by
	// the deploying key) at EntryPoint; SessionKey is the key granted a
	// session on it (zero: none).
	Account, EntryPoint, SessionKey common.Address
}

// Token is a test token with its USD feed.
type Token struct {
	Symbol, Name  string
	Decimals      uint8
	Address, Feed common.Address
	WrappedNative bool
}

// Contract is one protocol contract and its address book role.
type Contract struct {
	Role    string
	Address common.Address
}

// Pool is a Uniswap pair or pool with liquidity.
type Pool struct {
	Protocol string // "uniswap_v2" or "uniswap_v3"
	Tokens   [2]string
	Fee      uint32 // V3 fee in hundredths of a basis point; 3000 for V2's 0.3 %
	Address  common.Address
}

// Token returns the token with symbol sym.
func (r *Result) Token(sym string) (Token, bool) {
	for _, t := range r.Tokens {
		if t.Symbol == sym {
			return t, true
		}
	}
	return Token{}, false
}

// Contract returns the address of the contract with role.
func (r *Result) Contract(role string) (common.Address, bool) {
	for _, c := range r.Contracts {
		if c.Role == role {
			return c.Address, true
		}
	}
	return common.Address{}, false
}

func (r *Result) addToken(t Token) { r.Tokens = append(r.Tokens, t) }

func (r *Result) addContract(role string, at common.Address) {
	r.Contracts = append(r.Contracts, Contract{Role: role, Address: at})
}

func (r *Result) tok(sym string) common.Address {
	t, _ := r.Token(sym)
	return t.Address
}

// checkInitCodeHashes checks, before anything is sent, that the published
// pair and pool creation code hash to the constants the published routers
// carry: otherwise the routers would look for pools at addresses where
// there are none.
func checkInitCodeHashes() error {
	for _, c := range []struct {
		art  string
		want common.Hash
	}{{artV2Pair, v2InitCodeHash}, {artV3Pool, v3InitCodeHash}} {
		a, err := load(c.art)
		if err != nil {
			return err
		}
		code, err := a.code(nil)
		if err != nil {
			return err
		}
		if got := crypto.Keccak256Hash(code); got != c.want {
			return fmt.Errorf("%s creation code hashes to %s, but the routers expect %s", a.name, got, c.want)
		}
	}
	return nil
}

// deployTokens deploys the canonical WETH9, ward's ERC-20s for USDC (6
// decimals) and DAI (18) and a USD feed for each; mints the stablecoins to
// the key and wraps ETH into WETH.
func deployTokens(ctx context.Context, s *sender, r *Result) {
	weth := s.deploy(ctx, "WETH9", artWETH9)
	usdc := s.deploy(ctx, "USDC (test token)", artERC20, "USD Coin", "USDC", uint8(6))
	dai := s.deploy(ctx, "DAI (test token)", artERC20, "Dai Stablecoin", "DAI", uint8(18))
	ethFeed := s.deploy(ctx, "ETH / USD feed", artFeed, uint8(8), "ETH / USD", big.NewInt(priceETH))
	usdcFeed := s.deploy(ctx, "USDC / USD feed", artFeed, uint8(8), "USDC / USD", big.NewInt(priceUSD))
	daiFeed := s.deploy(ctx, "DAI / USD feed", artFeed, uint8(8), "DAI / USD", big.NewInt(priceUSD))
	s.send(ctx, fmt.Sprintf("minted %d USDC to %s", usdcMinted, s.from.Hex()), nil, artERC20, usdc, "mint", s.from, units(usdcMinted, 6))
	s.send(ctx, fmt.Sprintf("minted %d DAI to %s", daiMinted, s.from.Hex()), nil, artERC20, dai, "mint", s.from, units(daiMinted, 18))
	s.send(ctx, fmt.Sprintf("wrapped %d ETH into WETH", wethWrapped), units(wethWrapped, 18), artWETH9, weth, "deposit")
	r.addToken(Token{Symbol: "WETH", Name: "Wrapped Ether", Decimals: 18, Address: weth, Feed: ethFeed, WrappedNative: true})
	r.addToken(Token{Symbol: "USDC", Name: "USD Coin", Decimals: 6, Address: usdc, Feed: usdcFeed})
	r.addToken(Token{Symbol: "DAI", Name: "Dai Stablecoin", Decimals: 18, Address: dai, Feed: daiFeed})
}

// deployUniswapV2 deploys the factory and Router02 and adds WETH/USDC and
// DAI/USDC liquidity through the router, which creates the pairs.
func deployUniswapV2(ctx context.Context, s *sender, r *Result) {
	weth, usdc, dai := r.tok("WETH"), r.tok("USDC"), r.tok("DAI")
	factory := s.deploy(ctx, "Uniswap V2 factory", artV2Factory, s.from)
	router := s.deploy(ctx, "Uniswap V2 Router02", artV2Router, factory, weth)
	for _, t := range r.Tokens {
		s.send(ctx, "approved Uniswap V2 Router02 for "+t.Symbol, nil, artERC20, t.Address, "approve", router, maxUint)
	}
	s.send(ctx, "added Uniswap V2 WETH/USDC liquidity", nil, artV2Router, router, "addLiquidity", weth, usdc,
		units(wethPerPool, 18), units(wethPerPool*3_000, 6), new(big.Int), new(big.Int), s.from, farFuture)
	s.send(ctx, "added Uniswap V2 DAI/USDC liquidity", nil, artV2Router, router, "addLiquidity", dai, usdc,
		units(stablePerPool, 18), units(stablePerPool, 6), new(big.Int), new(big.Int), s.from, farFuture)
	r.addContract(addrbook.UniswapV2Factory, factory)
	r.addContract(addrbook.UniswapV2Router02, router)
	for _, p := range [][2]string{{"WETH", "USDC"}, {"DAI", "USDC"}} {
		pair := s.callAddr(ctx, artV2Factory, factory, "getPair", r.tok(p[0]), r.tok(p[1]))
		if s.err == nil && pair == (common.Address{}) {
			s.fail(fmt.Errorf("uniswap v2: no %s/%s pair after adding liquidity", p[0], p[1]))
		}
		r.Pools = append(r.Pools, Pool{Protocol: "uniswap_v2", Tokens: p, Fee: 3000, Address: pair})
	}
}

// v3Pool is one V3 pool deployUniswapV3 creates, with the amounts minted
// over the full range (whole tokens).
type v3Pool struct {
	a, b             string
	fee, tickSpacing int64
	amountA, amountB int64
}

// deployUniswapV3 deploys the factory, NonfungiblePositionManager,
// SwapRouter, SwapRouter02 (over the V2 factory too) and QuoterV2; creates WETH/USDC pools at the 0.05 % and 0.3 %
// tiers and a USDC/DAI pool at 0.05 % (so WETH → USDC → DAI is a two-hop
// route) through the position manager, and mints a full-range position in
// each for the key.
func deployUniswapV3(ctx context.Context, s *sender, r *Result) {
	weth := r.tok("WETH")
	factory := s.deploy(ctx, "Uniswap V3 factory", artV3Factory)
	// The token descriptor only renders tokenURI; the zero address leaves it unused.
	positions := s.deploy(ctx, "Uniswap V3 NonfungiblePositionManager", artV3Position, factory, weth, common.Address{})
	router := s.deploy(ctx, "Uniswap V3 SwapRouter", artV3Router, factory, weth)
	// SwapRouter02 routes over V2 and V3 alike; public chains list only it.
	factoryV2, _ := r.Contract(addrbook.UniswapV2Factory)
	router02 := s.deploy(ctx, "Uniswap SwapRouter02", artV3Router02, factoryV2, factory, positions, weth)
	quoter := s.deploy(ctx, "Uniswap V3 QuoterV2", artV3Quoter, factory, weth)
	r.addContract(addrbook.UniswapV3Factory, factory)
	r.addContract(addrbook.UniswapV3PositionManager, positions)
	r.addContract(addrbook.UniswapV3SwapRouter, router)
	r.addContract(addrbook.UniswapV3SwapRouter02, router02)
	r.addContract(addrbook.UniswapV3QuoterV2, quoter)
	for _, t := range r.Tokens {
		s.send(ctx, "approved the position manager for "+t.Symbol, nil, artERC20, t.Address, "approve", positions, maxUint)
	}
	type mintParams struct {
		Token0, Token1                 common.Address
		Fee, TickLower, TickUpper      *big.Int
		Amount0Desired, Amount1Desired *big.Int
		Amount0Min, Amount1Min         *big.Int
		Recipient                      common.Address
		Deadline                       *big.Int
	}
	for _, p := range []v3Pool{
		{"WETH", "USDC", 500, 10, wethPerPool, wethPerPool * 3_000},
		{"WETH", "USDC", 3000, 60, wethPerPool, wethPerPool * 3_000},
		{"USDC", "DAI", 500, 10, stablePerPool, stablePerPool},
	} {
		ta, _ := r.Token(p.a)
		tb, _ := r.Token(p.b)
		t0, t1 := ta.Address, tb.Address
		amt0, amt1 := units(p.amountA, int(ta.Decimals)), units(p.amountB, int(tb.Decimals))
		if bytes.Compare(t0[:], t1[:]) > 0 {
			t0, t1, amt0, amt1 = t1, t0, amt1, amt0
		}
		// sqrtPriceX96 = sqrt(amount1 / amount0) * 2^96, in base units.
		sqrtP := new(big.Int).Sqrt(new(big.Int).Div(new(big.Int).Lsh(amt1, 192), amt0))
		name := fmt.Sprintf("Uniswap V3 %s/%s %s %%", p.a, p.b, feePct(p.fee))
		s.send(ctx, "created "+name, nil, artV3Position, positions, "createAndInitializePoolIfNecessary", t0, t1, big.NewInt(p.fee), sqrtP)
		maxTick := 887272 / p.tickSpacing * p.tickSpacing
		s.send(ctx, "minted a full-range position in "+name, nil, artV3Position, positions, "mint", mintParams{
			Token0: t0, Token1: t1, Fee: big.NewInt(p.fee), TickLower: big.NewInt(-maxTick), TickUpper: big.NewInt(maxTick),
			Amount0Desired: amt0, Amount1Desired: amt1, Amount0Min: new(big.Int), Amount1Min: new(big.Int),
			Recipient: s.from, Deadline: farFuture,
		})
		pool := s.callAddr(ctx, artV3Factory, factory, "getPool", t0, t1, big.NewInt(p.fee))
		out := s.call(ctx, artV3Pool, pool, "liquidity")
		if s.err == nil {
			if liq, ok := out[0].(*big.Int); !ok || liq.Sign() == 0 {
				s.fail(fmt.Errorf("%s at %s has no liquidity after the mint", name, pool))
			}
		}
		r.Pools = append(r.Pools, Pool{Protocol: "uniswap_v3", Tokens: [2]string{p.a, p.b}, Fee: uint32(p.fee), Address: pool})
	}
}

// deployPermit2 deploys Permit2. Its package publishes only its runtime
// code (see deployRuntime), captured from a deployment on chain 31337
// (Foundry's, Anvil's and Hardhat's default): its immutables cache that
// chain id and that deployment's EIP-712 domain separator. On any other
// chain Permit2 computes the separator from its own address, so permits
// bind to this deployment; on chain 31337 it would return the cached one,
// naming another address. So the separator is checked, and a Permit2
// whose separator is not this deployment's stays out of the book (the
// Permit2 tools then do not register) rather than being listed broken.
func deployPermit2(ctx context.Context, s *sender, r *Result) {
	at := s.deployRuntime(ctx, "Permit2", artPermit2)
	out := s.call(ctx, artPermit2, at, "DOMAIN_SEPARATOR")
	if s.err != nil {
		return
	}
	got, _ := out[0].([32]byte)
	if want := permit2Domain(s.chainID, at); got != want {
		s.report("Permit2 at %s is left out of the book: its EIP-712 domain separator %x is not this chain's (%x); its code caches chain 31337's", at.Hex(), got, want)
		return
	}
	r.addContract(addrbook.Permit2, at)
}

// permit2Domain is Permit2's EIP-712 domain separator at address at on
// chain id: name "Permit2", no version.
func permit2Domain(id *big.Int, at common.Address) common.Hash {
	return crypto.Keccak256Hash(
		crypto.Keccak256([]byte("EIP712Domain(string name,uint256 chainId,address verifyingContract)")),
		crypto.Keccak256([]byte("Permit2")),
		common.LeftPadBytes(id.Bytes(), 32), common.LeftPadBytes(at.Bytes(), 32))
}

// feePct formats a V3 fee (hundredths of a basis point) as a percentage.
func feePct(fee int64) string {
	return new(big.Rat).SetFrac64(fee, 10_000).FloatString(2)
}

// initReserveInput is Aave's ConfiguratorInputTypes.InitReserveInput.
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

// deployAave reconstructs aave-v3-deploy's market set-up (which is not
// published on npm) from the contracts' constructors and initialisers:
//
//  1. PoolAddressesProvider(marketId, owner); setACLAdmin(key): ACLManager's
//     constructor reads the ACL admin from the provider.
//  2. ACLManager(provider); provider.setACLManager; the key becomes POOL_ADMIN.
//  3. Pool(provider), linked against its logic libraries; provider.setPoolImpl
//     deploys the proxy and initialises it; the Pool is the proxy
//     (provider.getPool()). The bare implementation is initialised too, as
//     the deploy scripts do, so nobody else can.
//  4. PoolConfigurator behind its proxy the same way.
//  5. AaveOracle over the test tokens' feeds (base currency USD, unit 1e8);
//     AaveProtocolDataProvider.
//  6. AToken, StableDebtToken, VariableDebtToken implementations and one
//     DefaultReserveInterestRateStrategy; configurator.initReserves deploys
//     the reserve's token proxies.
//  7. Collateral parameters and borrowing per reserve; the key supplies
//     liquidity to borrow from.
func deployAave(ctx context.Context, s *sender, r *Result) {
	provider := s.deploy(ctx, "Aave PoolAddressesProvider", artAaveProvider, "Ward Dev Market", s.from)
	s.send(ctx, "set the Aave ACL admin", nil, artAaveProvider, provider, "setACLAdmin", s.from)
	acl := s.deploy(ctx, "Aave ACLManager", artAaveACL, provider)
	s.send(ctx, "registered the Aave ACLManager", nil, artAaveProvider, provider, "setACLManager", acl)
	s.send(ctx, "made the key Aave pool admin", nil, artAaveACL, acl, "addPoolAdmin", s.from)

	poolImpl := s.deploy(ctx, "Aave Pool implementation", artAavePool, provider)
	s.send(ctx, "set the Aave Pool implementation (deploys its proxy)", nil, artAaveProvider, provider, "setPoolImpl", poolImpl)
	pool := s.callAddr(ctx, artAaveProvider, provider, "getPool")
	s.send(ctx, "initialised the bare Aave Pool implementation", nil, artAavePool, poolImpl, "initialize", provider)

	configImpl := s.deploy(ctx, "Aave PoolConfigurator implementation", artAaveConfig)
	s.send(ctx, "set the Aave PoolConfigurator implementation (deploys its proxy)", nil, artAaveProvider, provider, "setPoolConfiguratorImpl", configImpl)
	configurator := s.callAddr(ctx, artAaveProvider, provider, "getPoolConfigurator")

	var assets, sources []common.Address
	for _, t := range r.Tokens {
		assets, sources = append(assets, t.Address), append(sources, t.Feed)
	}
	oracle := s.deploy(ctx, "Aave oracle", artAaveOracle, provider, assets, sources, common.Address{}, common.Address{}, big.NewInt(1e8))
	s.send(ctx, "registered the Aave oracle", nil, artAaveProvider, provider, "setPriceOracle", oracle)
	data := s.deploy(ctx, "Aave protocol data provider", artAaveData, provider)
	s.send(ctx, "registered the Aave data provider", nil, artAaveProvider, provider, "setPoolDataProvider", data)

	aToken := s.deploy(ctx, "Aave AToken implementation", artAaveAToken, pool)
	stable := s.deploy(ctx, "Aave StableDebtToken implementation", artAaveStable, pool)
	variable := s.deploy(ctx, "Aave VariableDebtToken implementation", artAaveVariable, pool)
	// Aave's volatile-asset curve: 80 % optimal usage, 0 % base, 4 % and 75 % slopes.
	rates := s.deploy(ctx, "Aave interest rate strategy", artAaveRates, provider, rayPct(80), new(big.Int), rayPct(4), rayPct(75),
		rayPct(0), rayPct(0), rayPct(2), rayPct(8), rayPct(20))
	var inputs []initReserveInput
	for _, t := range r.Tokens {
		inputs = append(inputs, initReserveInput{
			ATokenImpl: aToken, StableDebtTokenImpl: stable, VariableDebtTokenImpl: variable,
			UnderlyingAssetDecimals: t.Decimals, InterestRateStrategyAddress: rates, UnderlyingAsset: t.Address,
			Treasury: s.from, ATokenName: "Aave " + t.Symbol, ATokenSymbol: "a" + t.Symbol,
			VariableDebtTokenName: "Aave Variable Debt " + t.Symbol, VariableDebtTokenSymbol: "variableDebt" + t.Symbol,
			StableDebtTokenName: "Aave Stable Debt " + t.Symbol, StableDebtTokenSymbol: "stableDebt" + t.Symbol,
			Params: []byte{},
		})
	}
	s.send(ctx, "initialised the Aave reserves", nil, artAaveConfig, configurator, "initReserves", inputs)
	// Collateral parameters in basis points: LTV, liquidation threshold, bonus.
	params := map[string][3]int64{"WETH": {8000, 8250, 10500}, "USDC": {7700, 8000, 10450}, "DAI": {7500, 8000, 10500}}
	supply := map[string]*big.Int{"WETH": units(wethPerPool, 18), "USDC": units(stablePerPool, 6), "DAI": units(stablePerPool, 18)}
	r.ATokens = map[string]common.Address{}
	for _, t := range r.Tokens {
		p := params[t.Symbol]
		s.send(ctx, "made "+t.Symbol+" Aave collateral", nil, artAaveConfig, configurator, "configureReserveAsCollateral",
			t.Address, big.NewInt(p[0]), big.NewInt(p[1]), big.NewInt(p[2]))
		s.send(ctx, "enabled borrowing "+t.Symbol+" on Aave", nil, artAaveConfig, configurator, "setReserveBorrowing", t.Address, true)
		s.send(ctx, "set the "+t.Symbol+" Aave reserve factor", nil, artAaveConfig, configurator, "setReserveFactor", t.Address, big.NewInt(1000))
		out := s.call(ctx, artAavePool, pool, "getReserveData", t.Address)
		if s.err != nil {
			return
		}
		r.ATokens[t.Symbol] = reserveField(out[0], "ATokenAddress")
		s.send(ctx, "approved the Aave Pool for "+t.Symbol, nil, artERC20, t.Address, "approve", pool, maxUint)
		s.send(ctx, "supplied "+t.Symbol+" to Aave", nil, artAavePool, pool, "supply", t.Address, supply[t.Symbol], s.from, uint16(0))
	}
	r.addContract(addrbook.AaveV3PoolAddressesProvider, provider)
	r.addContract(addrbook.AaveV3Pool, pool)
	r.addContract(addrbook.AaveV3PoolConfigurator, configurator)
	r.addContract(addrbook.AaveV3ACLManager, acl)
	r.addContract(addrbook.AaveV3Oracle, oracle)
	r.addContract(addrbook.AaveV3DataProvider, data)
}

// reserveField reads a field of the ReserveData tuple go-ethereum unpacked
// into an anonymous struct.
func reserveField(v any, name string) common.Address {
	f := reflect.ValueOf(v).FieldByName(name)
	if !f.IsValid() {
		return common.Address{}
	}
	a, _ := f.Interface().(common.Address)
	return a
}

// checkCode checks that every address the result names holds code: a node
// that accepted a deployment but stored nothing fails here, not later in
// ward.
func checkCode(ctx context.Context, s *sender, r *Result) {
	if s.err != nil {
		return
	}
	s.step = "checking the deployed code"
	check := func(what string, at common.Address) {
		if s.err != nil {
			return
		}
		code, err := s.b.CodeAt(ctx, at, nil)
		switch {
		case err != nil:
			s.fail(fmt.Errorf("code of %s at %s: %w", what, at, err))
		case len(code) == 0:
			s.fail(fmt.Errorf("no code at %s (%s)", at, what))
		}
	}
	for _, t := range r.Tokens {
		check(t.Symbol, t.Address)
		if t.Feed != (common.Address{}) { // a vault's share token is priced through its vault
			check(t.Symbol+" feed", t.Feed)
		}
	}
	for _, c := range r.Contracts {
		check(c.Role, c.Address)
	}
	for _, p := range r.Pools {
		check(p.Protocol+" pool", p.Address)
	}
	for sym, a := range r.ATokens {
		check("a"+sym, a)
	}
}
