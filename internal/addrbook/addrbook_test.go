package addrbook_test

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/tool"
)

func addr(t *testing.T, s string) tool.Address {
	t.Helper()
	a, err := tool.ParseAddress(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestShippedBook: the five chains the issue names are there, each with
// its wrapped native token, priced majors, and the protocol deployments
// ward speaks.
func TestShippedBook(t *testing.T) {
	b := addrbook.Shipped()
	for _, id := range []uint64{1, 8453, 42161, 10, 137} {
		c, ok := b.Chain(id)
		if !ok {
			t.Fatalf("chain %d missing", id)
		}
		if w, ok := c.WrappedNative(); !ok || w.Decimals != 18 || w.USDFeed.IsZero() {
			t.Errorf("chain %d: wrapped native %+v, want 18 decimals and a USD feed", id, w)
		}
		for _, sym := range []string{"USDC", "WETH"} {
			if ts := c.TokensBySymbol(sym); len(ts) == 0 {
				t.Errorf("chain %d: no %s", id, sym)
			}
		}
		for _, role := range []string{addrbook.UniswapV2Factory, addrbook.UniswapV3Factory, addrbook.UniswapV3SwapRouter02,
			addrbook.UniswapV3PositionManager, addrbook.Permit2, addrbook.AaveV3Pool, addrbook.AaveV3DataProvider, addrbook.AaveV3Oracle,
			addrbook.UniswapV4PoolManager, addrbook.UniswapV4StateView, addrbook.UniswapV4Quoter, addrbook.UniversalRouter, addrbook.SafeMultiSendCallOnly} {
			if a, ok := c.Contract(role); !ok || a.IsZero() {
				t.Errorf("chain %d: no %s", id, role)
			}
		}
		_, v1 := c.Contract(addrbook.UniswapV3QuoterV1)
		_, v2 := c.Contract(addrbook.UniswapV3QuoterV2)
		if v1 == v2 {
			t.Errorf("chain %d: want exactly one V3 quoter (v1 %v, v2 %v)", id, v1, v2)
		}
		if c.UniswapV3PoolInitCodeHash == "" {
			t.Errorf("chain %d: no Uniswap V3 pool init code hash", id)
		}
		if u := c.TxURL("0xabc"); !strings.HasPrefix(u, "https://") || !strings.HasSuffix(u, "/tx/0xabc") {
			t.Errorf("chain %d: TxURL = %q", id, u)
		}
	}
	eth, _ := b.Chain(1)
	usdc := eth.TokensBySymbol("usdc")
	if len(usdc) != 1 || usdc[0].Address != addr(t, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48") || usdc[0].Decimals != 6 || usdc[0].USDFeed.IsZero() {
		t.Errorf("mainnet USDC = %+v", usdc)
	}
	if r := eth.RoleOf(addr(t, "0x000000000022D473030F116dDEE9F6B43aC78BA3")); r != addrbook.Permit2 {
		t.Errorf("RoleOf(Permit2) = %q", r)
	}
	// The Universal Router v2.0 (V4_SWAP), as @uniswap/universal-router-sdk
	// 5.13.0 lists it for mainnet.
	if r := eth.RoleOf(addr(t, "0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af")); r != addrbook.UniversalRouter {
		t.Errorf("RoleOf(Universal Router) = %q", r)
	}
	if r := eth.RoleOf(usdc[0].USDFeed); r != "USD feed" {
		t.Errorf("RoleOf(USDC feed) = %q", r)
	}
	if r := eth.RoleOf(addr(t, "0x1111111111111111111111111111111111111111")); r != "" {
		t.Errorf("RoleOf(unknown) = %q", r)
	}
	if _, ok := b.Chain(1337); ok {
		t.Error("the dev chain is in the shipped book")
	}
}

// TestShippedRoles: the deployments the generator takes from Morpho's,
// Balancer's, CoW's, 0x's, ENS's, Lido's, Arbitrum's and viem's packages
// are in the book at the protocols' published addresses, and so are
// Chainlink's USD feeds.
func TestShippedRoles(t *testing.T) {
	b := addrbook.Shipped()
	tests := []struct {
		chain uint64
		role  string
		want  string
	}{
		{1, addrbook.MorphoBlue, "0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb"},
		{8453, addrbook.MorphoBlue, "0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb"},
		{42161, addrbook.MorphoBlue, "0x6c247b1F6182318877311737BaC0844bAa518F5e"},
		{1, addrbook.MorphoAdaptiveCurveIRM, "0x870aC11D48B15DB9a138Cf899d20F13F79Ba00BC"},
		{1, addrbook.BalancerV2Vault, "0xBA12222222228d8Ba445958a75a0704d566BF2C8"},
		{137, addrbook.BalancerV2Vault, "0xBA12222222228d8Ba445958a75a0704d566BF2C8"},
		{1, addrbook.BalancerV3Vault, "0xbA1333333333a1BA1108E8412f11850A5C319bA9"},
		{1, addrbook.CowSettlement, "0x9008D19f58AAbD9eD0D60971565AA8510560ab41"},
		{42161, addrbook.CowVaultRelayer, "0xC92E8bdf79f0507f65a392b0ab4667716BFE0110"},
		{1, addrbook.ZeroExExchangeProxy, "0xDef1C0ded9bec7F1a1670819833240f027b25EfF"},
		{1, addrbook.ENSRegistry, "0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e"},
		{1, addrbook.LidoWithdrawalQueue, "0x889edC2eDab5f40e902b864aD4d7AdE8E412F9B1"},
		{1, addrbook.OPMainnetL1StandardBridge, "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1"},
		{1, addrbook.BaseL1StandardBridge, "0x3154Cf16ccdb4C6d922629664174b904d80F2C35"},
		{1, addrbook.BaseOptimismPortal, "0x49048044D57e1C92A77f79988d21Fa8fAF74E97e"},
		{1, addrbook.ArbitrumOneInbox, "0x4Dbd4fc535Ac27206064B68FfCf827b0A60BAB3f"},
		{1, addrbook.ArbitrumOneBridge, "0x8315177aB297bA92A06054cE80a67Ed4DBd7ed3a"},
		{1, addrbook.ArbitrumOneL1GatewayRouter, "0x72Ce9c846789fdB6fC1f34aC4AD25Dd9ef7031ef"},
	}
	for _, tt := range tests {
		t.Run(tt.role, func(t *testing.T) {
			c, _ := b.Chain(tt.chain)
			if got, ok := c.Contract(tt.role); !ok || got != addr(t, tt.want) {
				t.Errorf("chain %d %s = %v (%v), want %s", tt.chain, tt.role, got.Hex(), ok, tt.want)
			}
		})
	}
	// The L1 side of a rollup is on Ethereum, not on the rollup.
	if op, _ := b.Chain(10); op.RoleOf(addr(t, "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1")) != "" {
		t.Error("OP Mainnet lists its L1StandardBridge")
	}
	feeds := []struct {
		chain uint64
		pair  string
		want  string
	}{
		{1, "ETH/USD", "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419"},
		{1, "BTC/USD", "0xF4030086522a5bEEa4988F8cA5B36dbC97BeE88c"},
		{1, "USDC/USD", "0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6"},
		{42161, "ETH/USD", "0x639Fe6ab55C921f74e7fac1ee960C0B6293ba612"},
	}
	for _, f := range feeds {
		c, _ := b.Chain(f.chain)
		if got := c.RoleOf(addr(t, f.want)); got != f.pair+" feed" {
			t.Errorf("chain %d: RoleOf(%s) = %q, want the %s feed", f.chain, f.want, got, f.pair)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	const tok = `{"address":"0x1111111111111111111111111111111111111111","symbol":"AAA","decimals":18}`
	const k = `{"role":"permit2","address":"0x2222222222222222222222222222222222222222"}`
	tests := []struct{ name, json, want string }{
		{"not json", `{`, "address book"},
		{"format", `{"format":2,"chains":[]}`, "format 2"},
		{"no chain id", `{"format":1,"chains":[{"tokens":[]}]}`, "without a chain_id"},
		{"chain twice", `{"format":1,"chains":[{"chain_id":1},{"chain_id":1}]}`, "listed twice"},
		{"bad address", `{"format":1,"chains":[{"chain_id":1,"tokens":[{"address":"0x12","symbol":"A","decimals":1}]}]}`, "want 0x and 40 hex digits"},
		{"token twice", `{"format":1,"chains":[{"chain_id":1,"tokens":[` + tok + `,` + tok + `]}]}`, "listed twice"},
		{"no symbol", `{"format":1,"chains":[{"chain_id":1,"tokens":[{"address":"0x1111111111111111111111111111111111111111","decimals":1}]}]}`, "symbol"},
		{"role twice", `{"format":1,"chains":[{"chain_id":1,"contracts":[` + k + `,{"role":"permit2","address":"0x3333333333333333333333333333333333333333"}]}]}`, "two contracts have the role permit2"},
		{"address two roles", `{"format":1,"chains":[{"chain_id":1,"contracts":[` + k + `,{"role":"multicall3","address":"0x2222222222222222222222222222222222222222"}]}]}`, "is both permit2 and multicall3"},
		{"token is contract", `{"format":1,"chains":[{"chain_id":1,"tokens":[` + tok + `],"contracts":[{"role":"permit2","address":"0x1111111111111111111111111111111111111111"}]}]}`, "both token AAA and permit2"},
		{"feed is token", `{"format":1,"chains":[{"chain_id":1,"tokens":[{"address":"0x1111111111111111111111111111111111111111","symbol":"AAA","decimals":18,"usd_feed":"0x1111111111111111111111111111111111111111"}]}]}`, "the feed of AAA"},
		{"chainlink feed is contract", `{"format":1,"chains":[{"chain_id":1,"contracts":[` + k + `],"feeds":[{"pair":"ETH/USD","address":"0x2222222222222222222222222222222222222222"}]}]}`, "the ETH/USD feed 0x2222222222222222222222222222222222222222 is permit2"},
		{"init code hash", `{"format":1,"chains":[{"chain_id":1,"uniswap_v3_pool_init_code_hash":"0x12"}]}`, "want 0x and 64 hex digits"},
		{"feed without pair", `{"format":1,"chains":[{"chain_id":1,"feeds":[{"address":"0x2222222222222222222222222222222222222222"}]}]}`, "feed \"\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := addrbook.Parse([]byte(tt.json))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestOverrides: an operator's entry replaces the book's at its address
// or role, adds a chain, leaves the shipped book untouched, and cannot
// make one address play two roles.
func TestOverrides(t *testing.T) {
	b := addrbook.Shipped()
	eth, _ := b.Chain(1)
	usdc := eth.TokensBySymbol("USDC")[0]
	feed := addr(t, "0x4444444444444444444444444444444444444444")
	router := addr(t, "0x5555555555555555555555555555555555555555")
	o := addrbook.Overrides{Chains: []*addrbook.Chain{
		{ID: 1, Tokens: []addrbook.Token{{Address: usdc.Address, Symbol: "USDC", Decimals: 6, USDFeed: feed}},
			Contracts: []addrbook.Contract{{Role: addrbook.UniswapV3SwapRouter02, Address: router}}},
		{ID: 31337, Name: "local", ExplorerTxURL: "http://127.0.0.1:4000/tx/{hash}",
			Tokens: []addrbook.Token{{Address: addr(t, "0x6666666666666666666666666666666666666666"), Symbol: "USDC", Decimals: 6}}},
	}}
	nb, err := b.With(o)
	if err != nil {
		t.Fatal(err)
	}
	neth, _ := nb.Chain(1)
	if got, _ := neth.Token(usdc.Address); got.USDFeed != feed || got.Sources[0] != "operator" {
		t.Errorf("overridden USDC = %+v", got)
	}
	if got, _ := neth.Contract(addrbook.UniswapV3SwapRouter02); got != router {
		t.Errorf("overridden router = %v", got)
	}
	if len(neth.Tokens) != len(eth.Tokens) {
		t.Errorf("tokens %d, want %d (replaced, not added)", len(neth.Tokens), len(eth.Tokens))
	}
	if got, _ := eth.Token(usdc.Address); got.USDFeed != usdc.USDFeed {
		t.Error("With changed the shipped book")
	}
	local, ok := nb.Chain(31337)
	if !ok || local.TxURL("0x1") != "http://127.0.0.1:4000/tx/0x1" || len(local.TokensBySymbol("usdc")) != 1 {
		t.Errorf("added chain = %+v", local)
	}
	bad := addrbook.Overrides{Chains: []*addrbook.Chain{{ID: 1, Contracts: []addrbook.Contract{{Role: addrbook.Permit2, Address: usdc.Address}}}}}
	if _, err := b.With(bad); err == nil || !strings.Contains(err.Error(), "both token USDC") {
		t.Errorf("a contract at a token's address: err = %v", err)
	}
}

// TestShippedMoreProtocols: the deployments the generator takes from
// Across's, Curve's, LayerZero's, Stargate's, 1inch's, Pendle's and
// Linea's packages and viem's OP Stack chains are in the book at the addresses
// the protocols document, on the chains they are deployed to and no
// other.
func TestShippedMoreProtocols(t *testing.T) {
	b := addrbook.Shipped()
	tests := []struct {
		chain uint64
		role  string
		want  string
	}{
		{1, addrbook.AcrossSpokePool, "0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5"},
		{1, addrbook.AcrossHubPool, "0xc186fA914353c44b2E33eBE05f21846F1048bEda"},
		{42161, addrbook.AcrossSpokePool, "0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A"},
		{8453, addrbook.AcrossSpokePool, "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64"},
		{1, addrbook.CurveRouter, "0x45312ea0eFf7E09C83CBE249fa1d7598c4C8cd4e"},
		{1, addrbook.CurveAddressProvider, "0x0000000022D53366457F9d5E68Ec105046FC4383"},
		{137, addrbook.CurveAddressProvider, "0x0000000022D53366457F9d5E68Ec105046FC4383"},
		{1, addrbook.CurveGaugeController, "0x2F50D538606Fa9EDD2B11E2446BEb18C9D5846bB"},
		{1, addrbook.CurveVotingEscrow, "0x5f3b5DfEb7B28CDbD7FAba78963EE202a494e2A2"},
		{1, addrbook.CurvePoolPrefix + "3pool", "0xbEbc44782C7dB0a1A60Cb6fe97d0b483032FF1C7"},
		{1, addrbook.CurvePoolPrefix + "steth", "0xDC24316b9AE028F1497c275EB9192a3Ea0f67022"},
		{1, addrbook.LayerZeroEndpointV2, "0x1a44076050125825900e736c501f859c50fE728c"},
		{10, addrbook.LayerZeroEndpointV2, "0x1a44076050125825900e736c501f859c50fE728c"},
		{1, addrbook.StargatePoolUSDC, "0xc026395860Db2d07ee33e05fE50ed7bD583189C7"},
		{1, addrbook.StargatePoolNative, "0x77b2043768d28E9C9aB44E1aBfC95944bcE57931"},
		{1, addrbook.OneInchAggregationRouterV6, "0x111111125421cA6dc452d289314280a0f8842A65"},
		{137, addrbook.OneInchAggregationRouterV6, "0x111111125421cA6dc452d289314280a0f8842A65"},
		{1, addrbook.PendleRouter, "0x888888888889758F76e7103c6CbF23ABbF58F946"},
		{42161, addrbook.PendleRouter, "0x888888888889758F76e7103c6CbF23ABbF58F946"},
		{10, addrbook.OPStackL2StandardBridge, "0x4200000000000000000000000000000000000010"},
		{8453, addrbook.OPStackL2StandardBridge, "0x4200000000000000000000000000000000000010"},
		{8453, addrbook.OPStackL2ToL1MessagePasser, "0x4200000000000000000000000000000000000016"},
		{10, addrbook.OPStackGasPriceOracle, "0x420000000000000000000000000000000000000F"},
		{1, addrbook.LineaL1MessageService, "0xd19d4B5d358258f05D7B411E21A1460D11B0876F"},
	}
	for _, tt := range tests {
		t.Run(tt.role, func(t *testing.T) {
			c, _ := b.Chain(tt.chain)
			if got, ok := c.Contract(tt.role); !ok || got != addr(t, tt.want) {
				t.Errorf("chain %d %s = %v (%v), want %s", tt.chain, tt.role, got.Hex(), ok, tt.want)
			}
			if r := c.RoleOf(addr(t, tt.want)); r != tt.role {
				t.Errorf("chain %d RoleOf(%s) = %q, want %s", tt.chain, tt.want, r, tt.role)
			}
		})
	}
	absent := []struct {
		chain uint64
		role  string
	}{
		// @curvefi/api fills the L2s' gauge controller with Ethereum's
		// address as a placeholder: it is not deployed there.
		{137, addrbook.CurveGaugeController},
		{42161, addrbook.CurveGaugeController},
		// The HubPool is on Ethereum only; predeploys are on OP Stack chains only.
		{42161, addrbook.AcrossHubPool},
		{1, addrbook.OPStackL2StandardBridge},
		{42161, addrbook.OPStackL2ToL1MessagePasser},
		// @pendle/core-v2 lists no deployment on Polygon PoS.
		{137, addrbook.PendleRouter},
	}
	for _, tt := range absent {
		c, _ := b.Chain(tt.chain)
		if a, ok := c.Contract(tt.role); ok {
			t.Errorf("chain %d lists %s at %s", tt.chain, tt.role, a.Hex())
		}
	}
}
