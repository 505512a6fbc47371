package catalog_test

import (
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/catalog"
)

func TestFromBook(t *testing.T) {
	eth, _ := addrbook.Shipped().Chain(1)
	tokens, v := catalog.FromBook(eth)
	weth := common.HexToAddress("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2")
	if v.WETH != weth || v.ETHFeed == (common.Address{}) {
		t.Errorf("WETH %s feed %s", v.WETH, v.ETHFeed)
	}
	if v.UniswapV2Router != common.HexToAddress("0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D") || v.UniswapV3Factory != common.HexToAddress("0x1F98431c8aD98523631AE4a59f267346ea31F984") || v.AavePool == (common.Address{}) {
		t.Errorf("venues = %+v", v)
	}
	if v.UniswapV3PositionManager != common.HexToAddress("0xC36442b4a4522E871399CD717aBDD847Ab11FE88") {
		t.Errorf("V3 position manager %s, want mainnet's NonfungiblePositionManager", v.UniswapV3PositionManager)
	}
	if v.UniswapV3Router != (common.Address{}) {
		t.Errorf("V3 router %s: the shipped book has only SwapRouter02", v.UniswapV3Router)
	}
	// Morpho Blue's singleton (the book's morpho_blue, from
	// @morpho-org/morpho-ts) and Compound III's USDC market, cUSDCv3 (the
	// book's compound_v3_comet, from @compound-finance/compound-js).
	if v.MorphoBlue != common.HexToAddress("0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb") || v.Comet != common.HexToAddress("0xc3d688B66703497DAA19211EEdff47f25384cdc3") {
		t.Errorf("Morpho Blue %s, Comet %s; want mainnet's Morpho and cUSDCv3", v.MorphoBlue, v.Comet)
	}
	if v.UniswapV3SwapRouter02 != common.HexToAddress("0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45") {
		t.Errorf("SwapRouter02 %s, want mainnet's", v.UniswapV3SwapRouter02)
	}
	// Mainnet's book lists the first Quoter only: routed quotes there use
	// ward's own pool arithmetic unless the operator adds QuoterV2.
	if v.UniswapV3QuoterV2 != (common.Address{}) {
		t.Errorf("QuoterV2 %s on mainnet, whose book lists only the first Quoter", v.UniswapV3QuoterV2)
	}
	// Uniswap V4 from @uniswap/sdk-core's map and the Universal Router v2.0
	// from @uniswap/universal-router-sdk's: with Permit2, the V4 swaps
	// register on mainnet.
	if v.UniswapV4PoolManager != common.HexToAddress("0x000000000004444c5dc75cB358380D2e3dE08A90") ||
		v.UniswapV4StateView != common.HexToAddress("0x7fFE42C4a5DEeA5b0feC41C94C136Cf115597227") ||
		v.UniswapV4Quoter != common.HexToAddress("0x52F0E24D1c21C8A0cB1e5a5dD6198556BD9E1203") ||
		v.UniversalRouter != common.HexToAddress("0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af") || v.Permit2 != common.HexToAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3") {
		t.Errorf("V4 PoolManager %s, StateView %s, V4Quoter %s, Universal Router %s, Permit2 %s; want mainnet's",
			v.UniswapV4PoolManager, v.UniswapV4StateView, v.UniswapV4Quoter, v.UniversalRouter, v.Permit2)
	}
	if base, ok := addrbook.Shipped().Chain(8453); !ok {
		t.Error("Base missing from the shipped book")
	} else if _, bv := catalog.FromBook(base); bv.UniswapV3QuoterV2 != common.HexToAddress("0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a") {
		t.Errorf("Base QuoterV2 %s, want the book's", bv.UniswapV3QuoterV2)
	}
	var usdc bool
	for _, tk := range tokens {
		if tk.Feed == (common.Address{}) {
			t.Errorf("unpriced token %s in the catalogue's list", tk.Symbol)
		}
		usdc = usdc || (tk.Symbol == "USDC" && tk.Decimals == 6)
	}
	if !usdc || len(tokens) < 10 {
		t.Errorf("tokens = %d, USDC listed %v", len(tokens), usdc)
	}

	local, err := addrbook.Shipped().With(addrbook.Overrides{Chains: []*addrbook.Chain{{ID: 31337,
		Contracts: []addrbook.Contract{{Role: addrbook.UniswapV3SwapRouter, Address: [20]byte{7}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	lc, _ := local.Chain(31337)
	if _, v := catalog.FromBook(lc); v.UniswapV3Router != (common.Address{7}) || v.WETH != (common.Address{}) {
		t.Errorf("local venues = %+v", v)
	}

	if v.IdentityRegistry != (common.Address{}) || v.EigenStrategyManager != (common.Address{}) {
		t.Errorf("mainnet venues name ERC-8004 or EigenLayer contracts (%s, %s), which the shipped book does not list", v.IdentityRegistry, v.EigenStrategyManager)
	}
	agents, err := addrbook.Shipped().With(addrbook.Overrides{Chains: []*addrbook.Chain{{ID: 31337, Contracts: []addrbook.Contract{
		{Role: addrbook.ERC8004IdentityRegistry, Address: [20]byte{8}}, {Role: addrbook.ERC8004ReputationRegistry, Address: [20]byte{9}},
		{Role: addrbook.EigenLayerStrategyManager, Address: [20]byte{10}}, {Role: addrbook.EigenLayerDelegationManager, Address: [20]byte{11}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	ac, _ := agents.Chain(31337)
	if _, v := catalog.FromBook(ac); v.IdentityRegistry != (common.Address{8}) || v.ReputationRegistry != (common.Address{9}) ||
		v.EigenStrategyManager != (common.Address{10}) || v.EigenDelegationManager != (common.Address{11}) || len(v.EigenStrategies) != 0 {
		t.Errorf("override venues = %+v", v)
	}
}

// TestFromBookStaking: mainnet's book names Lido's withdrawal queue (from
// @lido-sdk/constants) and no RocketStorage; an operator's book may add it.
func TestFromBookStaking(t *testing.T) {
	eth, _ := addrbook.Shipped().Chain(1)
	_, v := catalog.FromBook(eth)
	if v.LidoWithdrawalQueue != common.HexToAddress("0x889edC2eDab5f40e902b864aD4d7AdE8E412F9B1") || v.RocketStorage != (common.Address{}) {
		t.Errorf("mainnet: Lido queue %s, RocketStorage %s", v.LidoWithdrawalQueue, v.RocketStorage)
	}
	local, err := addrbook.Shipped().With(addrbook.Overrides{Chains: []*addrbook.Chain{{ID: 31337,
		Contracts: []addrbook.Contract{{Role: addrbook.RocketPoolStorage, Address: [20]byte{9}}, {Role: addrbook.LidoWithdrawalQueue, Address: [20]byte{8}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	lc, _ := local.Chain(31337)
	if _, v := catalog.FromBook(lc); v.RocketStorage != (common.Address{9}) || v.LidoWithdrawalQueue != (common.Address{8}) {
		t.Errorf("operator's book: venues = %+v", v)
	}
}

// TestFromBookNamedVaults: on Ethereum the book's sDAI and sUSDe tokens
// name Maker's and Ethena's vaults; other chains get neither.
func TestFromBookNamedVaults(t *testing.T) {
	eth, _ := addrbook.Shipped().Chain(1)
	_, v := catalog.FromBook(eth)
	if v.SavingsDai != common.HexToAddress("0x83F20F44975D03b1b09e64809B757c47f942BEeA") || v.StakedUSDe != common.HexToAddress("0x9D39A5DE30e57443BfF2A8307A4256c8797A3497") {
		t.Errorf("mainnet: sDAI %s, sUSDe %s", v.SavingsDai, v.StakedUSDe)
	}
	for _, id := range []uint64{10, 8453, 42161, 137} {
		c, ok := addrbook.Shipped().Chain(id)
		if !ok {
			continue
		}
		if _, v := catalog.FromBook(c); v.SavingsDai != (common.Address{}) || v.StakedUSDe != (common.Address{}) {
			t.Errorf("chain %d: sDAI %s, sUSDe %s", id, v.SavingsDai, v.StakedUSDe)
		}
	}
}

// TestFromBookGMX: Arbitrum One's book names GMX V2's contracts and its
// ETH/USD market (from @gmx-io/sdk), so the gmx tools register there;
// Ethereum's names none, and an operator's book may add markets.
func TestFromBookGMX(t *testing.T) {
	arb, _ := addrbook.Shipped().Chain(42161)
	tokens, v := catalog.FromBook(arb)
	want := catalog.Venues{
		GmxExchangeRouter: common.HexToAddress("0x1C3fa76e6E1088bCE750f23a5BFcffa1efEF6A41"),
		GmxRouter:         common.HexToAddress("0x7452c558d45f8afC8c83dAe62C3f8A5BE19c71f6"),
		GmxOrderVault:     common.HexToAddress("0x31eF83a530Fde1B38EE9A18093A333D8Bbbc40D5"),
		GmxDataStore:      common.HexToAddress("0xFD70de6b91282D8017aA4E741e9Ae325CAb992d8"),
		GmxReader:         common.HexToAddress("0x470fbC46bcC0f16532691Df360A07d8Bf5ee0789"),
		GmxMarkets:        []common.Address{common.HexToAddress("0x70d95587d40A2caf56bd97485aB3Eec10Bee6336")},
	}
	if v.GmxExchangeRouter != want.GmxExchangeRouter || v.GmxRouter != want.GmxRouter || v.GmxOrderVault != want.GmxOrderVault ||
		v.GmxDataStore != want.GmxDataStore || v.GmxReader != want.GmxReader || !slices.Equal(v.GmxMarkets, want.GmxMarkets) {
		t.Errorf("Arbitrum GMX venues: router %s, Router %s, vault %s, store %s, reader %s, markets %v; want %+v",
			v.GmxExchangeRouter, v.GmxRouter, v.GmxOrderVault, v.GmxDataStore, v.GmxReader, v.GmxMarkets, want)
	}
	// The market's tokens are priced catalogue tokens: WETH (index and
	// long, which prices the position) and USDC (the collateral).
	priced := map[string]bool{}
	for _, tk := range tokens {
		priced[tk.Symbol] = true
	}
	if !priced["USDC"] || v.WETH == (common.Address{}) || v.ETHFeed == (common.Address{}) {
		t.Errorf("Arbitrum: USDC priced %v, WETH %s feed %s", priced["USDC"], v.WETH, v.ETHFeed)
	}

	f := base(t)
	env := *f.env
	env.Venues.GmxExchangeRouter, env.Venues.GmxRouter, env.Venues.GmxOrderVault = v.GmxExchangeRouter, v.GmxRouter, v.GmxOrderVault
	env.Venues.GmxDataStore, env.Venues.GmxReader, env.Venues.GmxMarkets = v.GmxDataStore, v.GmxReader, v.GmxMarkets
	got := 0
	for _, tl := range catalog.Tools(&env) {
		if _, ok := gmxTools[tl.Def.Name]; ok {
			got++
		}
	}
	if got != len(gmxTools) {
		t.Errorf("%d of the %d gmx tools register with Arbitrum's book venues", got, len(gmxTools))
	}

	eth, _ := addrbook.Shipped().Chain(1)
	if _, v := catalog.FromBook(eth); v.GmxExchangeRouter != (common.Address{}) || len(v.GmxMarkets) != 0 {
		t.Errorf("Ethereum GMX venues: router %s, markets %v; GMX V2 is not on Ethereum", v.GmxExchangeRouter, v.GmxMarkets)
	}

	more, err := addrbook.Shipped().With(addrbook.Overrides{Chains: []*addrbook.Chain{{ID: 42161,
		Contracts: []addrbook.Contract{{Role: addrbook.GmxMarketPrefix + "btc_usd", Address: [20]byte{12}}}}}})
	if err != nil {
		t.Fatal(err)
	}
	mc, _ := more.Chain(42161)
	if _, v := catalog.FromBook(mc); !slices.Equal(v.GmxMarkets, []common.Address{{12}, want.GmxMarkets[0]}) {
		t.Errorf("with an operator's BTC/USD market: markets %v, want it and ETH/USD in role order", v.GmxMarkets)
	}
}
