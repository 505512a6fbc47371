package validate

import (
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/addrbook"
)

// moreRolePhrases are the names of the roles the book takes from
// Morpho's, Balancer's, CoW's, 0x's, ENS's, Lido's, EthereumJS's, Arbitrum's
// and the OP Stack's packages: the contract names those packages and the protocols'
// documentation use, written as one word or spaced, with and without the
// protocol's name.
//
// A name is specific when the protocol deployed that contract once, at
// one address on every chain (CoW's settlement, the ENS registry on
// Ethereum); specific on a named chain when each chain has its own
// (Morpho Blue, the Balancer vault); neither when the name may also mean
// an older or another protocol's contract ("withdrawal queue", "ENS
// public resolver", "Morpho bundler"): then only an address the book
// lists as something else contradicts it.
func moreRolePhrases() []rolePhrase {
	var out phraseList
	add := out.add

	add(onChain(addrbook.MorphoBlue), "morpho blue", "morphoblue")
	add(onChain(addrbook.MorphoAdaptiveCurveIRM), "adaptivecurveirm", "adaptive curve irm", "morpho adaptivecurveirm")
	add(onChain(addrbook.MorphoPublicAllocator), "publicallocator", "public allocator", "morpho public allocator")
	add(onChain(addrbook.MorphoBundler3), "bundler3", "morpho bundler3", "morpho bundler 3")
	add(loose(addrbook.MorphoBundler3), "morpho bundler")
	add(loose(addrbook.MorphoMetaMorphoFactory), "metamorphofactory", "metamorpho factory", "metamorpho vault factory")

	add(onChain(addrbook.BalancerV2Vault, addrbook.BalancerV3Vault), "balancer vault")
	add(onChain(addrbook.BalancerV2Vault), "balancer v2 vault", "balancer vault v2")
	add(onChain(addrbook.BalancerV3Vault), "balancer v3 vault", "balancer vault v3")

	add(specific(addrbook.CowSettlement), "gpv2settlement", "gpv2 settlement", "cow settlement", "cow protocol settlement",
		"cowswap settlement", "cow swap settlement", "cow protocol gpv2settlement")
	add(specific(addrbook.CowVaultRelayer), "gpv2vaultrelayer", "gpv2 vault relayer", "cow vault relayer",
		"cow protocol vault relayer", "cowswap vault relayer", "cow swap vault relayer")
	add(loose(addrbook.CowVaultRelayer), "vault relayer")

	add(onChain(addrbook.ZeroExExchangeProxy), "0x exchange proxy", "0x exchangeproxy", "0x protocol exchange proxy")
	add(loose(addrbook.ZeroExExchangeProxy), "exchangeproxy", "exchange proxy")

	add(specific(addrbook.LidoWithdrawalQueue), "withdrawalqueueerc721", "lido withdrawalqueueerc721", "lido withdrawal queue",
		"lido withdrawalqueue")
	add(loose(addrbook.LidoWithdrawalQueue), "withdrawalqueue", "withdrawal queue")

	add(specific(addrbook.BeaconDepositContract), "beacon deposit contract", "beacon chain deposit contract", "eth2 deposit contract",
		"ethereum deposit contract", "validator deposit contract", "staking deposit contract")
	add(loose(addrbook.BeaconDepositContract), "deposit contract", "depositcontract")

	add(specific(addrbook.ENSRegistry), "ens registry", "ensregistry", "ensregistrywithfallback", "ens registry with fallback")
	add(loose(addrbook.ENSBaseRegistrar), "baseregistrarimplementation", "ens base registrar", "ens baseregistrar")
	add(loose(addrbook.ENSEthRegistrarController), "ethregistrarcontroller", "eth registrar controller", "ens registrar controller",
		"ens eth registrar controller", "ens ethregistrarcontroller")
	add(loose(addrbook.ENSNameWrapper), "namewrapper", "ens namewrapper", "ens name wrapper")
	add(loose(addrbook.ENSPublicResolver), "publicresolver", "ens publicresolver", "ens public resolver")
	add(loose(addrbook.ENSReverseRegistrar), "reverseregistrar", "ens reverseregistrar", "ens reverse registrar")

	out = append(out, rollupPhrases()...)
	return append(out, protocolPhrases()...)
}

// phraseList collects role phrases: add gives p each of names.
type phraseList []rolePhrase

func (l *phraseList) add(p rolePhrase, names ...string) {
	for _, n := range names {
		p.words = strings.Fields(n)
		*l = append(*l, p)
	}
}

// onChain, specific and loose are a phrase's kinds (see moreRolePhrases).
func onChain(roles ...string) rolePhrase  { return rolePhrase{roles: roles, onChain: true} }
func specific(roles ...string) rolePhrase { return rolePhrase{roles: roles, specific: true} }
func loose(roles ...string) rolePhrase    { return rolePhrase{roles: roles} }

// rollupPhrases name the L1 side of OP Mainnet, Base and Arbitrum One:
// contracts on Ethereum whatever chain the name mentions ("Base's
// L1StandardBridge" is on Ethereum). With the rollup named, the name is
// specific; without ("the L1StandardBridge") it may mean any rollup's,
// and a word like "portal" or "inbox" says nothing without it.
func rollupPhrases() []rolePhrase {
	type contract struct {
		roles []string // one per rollup
		full  []string // names that say the contract alone
		short []string // names that need the rollup's
	}
	var out []rolePhrase
	add := func(rollups [][]string, cs []contract) {
		for _, c := range cs {
			for i, names := range rollups {
				for _, rn := range names {
					for _, n := range append(c.full, c.short...) {
						out = append(out, rolePhrase{words: strings.Fields(rn + " " + n), roles: c.roles[i : i+1], specific: true, home: 1})
					}
				}
			}
			for _, n := range c.full {
				out = append(out, rolePhrase{words: strings.Fields(n), roles: c.roles, home: 1})
			}
		}
	}
	add([][]string{{"op mainnet", "optimism", "optimism mainnet", "op"}, {"base", "base mainnet"}}, []contract{
		{[]string{addrbook.OPMainnetL1StandardBridge, addrbook.BaseL1StandardBridge}, []string{"l1standardbridge", "l1 standard bridge"}, nil},
		{[]string{addrbook.OPMainnetOptimismPortal, addrbook.BaseOptimismPortal}, []string{"optimismportal", "optimism portal"}, []string{"portal"}},
		{[]string{addrbook.OPMainnetL2OutputOracle, addrbook.BaseL2OutputOracle}, []string{"l2outputoracle", "l2 output oracle"}, nil},
		{[]string{addrbook.OPMainnetDisputeGameFactory, addrbook.BaseDisputeGameFactory}, []string{"disputegamefactory", "dispute game factory"}, nil},
	})
	add([][]string{{"arbitrum", "arbitrum one"}}, []contract{
		{[]string{addrbook.ArbitrumOneInbox}, []string{"delayed inbox"}, []string{"inbox"}},
		{[]string{addrbook.ArbitrumOneSequencerInbox}, []string{"sequencerinbox", "sequencer inbox"}, nil},
		{[]string{addrbook.ArbitrumOneOutbox}, nil, []string{"outbox"}},
		{[]string{addrbook.ArbitrumOneRollup}, []string{"rollupproxy"}, []string{"rollup contract"}},
		{[]string{addrbook.ArbitrumOneL1GatewayRouter}, []string{"l1gatewayrouter", "l1 gateway router"}, []string{"gateway router", "gatewayrouter"}},
		{[]string{addrbook.ArbitrumOneL1ERC20Gateway}, []string{"l1erc20gateway", "l1 erc20 gateway"}, []string{"erc20 gateway"}},
	})
	// "The Arbitrum bridge" is the Bridge contract to Arbitrum's docs and
	// the token bridge (the gateway router) to its users: either.
	for _, n := range []string{"arbitrum bridge", "arbitrum one bridge"} {
		out = append(out, rolePhrase{words: strings.Fields(n), roles: []string{addrbook.ArbitrumOneBridge, addrbook.ArbitrumOneInbox,
			addrbook.ArbitrumOneL1GatewayRouter, addrbook.ArbitrumOneL1ERC20Gateway}, home: 1})
	}
	return out
}

// protocolPhrases name the deployments the book lists only so that what
// an entry says of them can be checked: Across, Curve, LayerZero,
// Stargate, 1inch, Pendle, Linea and the OP Stack predeploys. A name is
// specific where the contract lives only on the book's chains (Curve's
// DAO, Across's HubPool, Linea's rollup, on Ethereum) or at one address
// wherever it is deployed (the Curve address provider, 1inch's and
// Pendle's routers, the OP Stack predeploys); specific on a named chain
// where chains the book does not cover have their own address (Across's
// SpokePools, Curve's routers and pools, LayerZero, Stargate); loose
// where the name may also mean an older version ("the 1inch router",
// "the Pendle router") or another protocol's contract ("hub pool",
// "gauge controller").
func protocolPhrases() []rolePhrase {
	var out phraseList
	add := out.add

	add(onChain(addrbook.AcrossSpokePool), "across spokepool", "across spoke pool", "across v3 spokepool", "across v3 spoke pool")
	add(loose(addrbook.AcrossSpokePool), "spokepool", "spoke pool")
	add(specific(addrbook.AcrossHubPool), "across hubpool", "across hub pool")
	add(loose(addrbook.AcrossHubPool), "hubpool", "hub pool")

	add(onChain(addrbook.CurveRouter), "curve router", "curverouter", "curve router ng", "curverouterng")
	add(specific(addrbook.CurveAddressProvider), "curve address provider", "curve addressprovider")
	add(onChain(addrbook.CurveStableNGFactory), "curve stableswap ng factory", "stableswap ng factory", "curve stableswapng factory")
	add(onChain(addrbook.CurveTwocryptoFactory), "curve twocrypto ng factory", "twocrypto ng factory", "curve twocrypto factory")
	add(onChain(addrbook.CurveTricryptoFactory), "curve tricrypto ng factory", "tricrypto ng factory", "curve tricrypto factory")
	add(specific(addrbook.CurveGaugeController), "curve gauge controller", "curve gaugecontroller")
	add(loose(addrbook.CurveGaugeController), "gaugecontroller", "gauge controller")
	add(specific(addrbook.CurveVotingEscrow), "vecrv", "curve voting escrow", "curve votingescrow", "vecrv contract")
	add(specific(addrbook.CurveMinter), "curve minter", "crv minter")
	add(specific(addrbook.CurveFeeDistributor), "curve fee distributor", "curve feedistributor")
	add(specific(addrbook.CurveCrvUSDFactory), "crvusd controller factory", "crvusd controllerfactory", "crvusd factory")
	for _, name := range curvePools() {
		role := addrbook.CurvePoolPrefix + name
		add(onChain(role), "curve "+name+" pool")
		// "Curve 3pool", "Curve tricrypto2": a name with a digit is no
		// other word; "Curve frax" may be the token on Curve.
		if strings.ContainsAny(name, "0123456789") {
			add(onChain(role), "curve "+name)
		}
		if strings.HasSuffix(name, "pool") {
			add(onChain(role), name)
		}
	}

	add(onChain(addrbook.LayerZeroEndpointV2), "layerzero endpoint", "layerzero endpointv2", "layerzero endpoint v2",
		"layerzero v2 endpoint", "lz endpoint", "lz endpointv2", "endpointv2")
	add(onChain(addrbook.LayerZeroSendUln302), "senduln302", "layerzero senduln302", "send uln 302")
	add(onChain(addrbook.LayerZeroReceiveUln302), "receiveuln302", "layerzero receiveuln302", "receive uln 302")
	add(onChain(addrbook.StargatePoolUSDC), "stargate usdc pool", "stargate pool usdc", "stargate v2 usdc pool", "stargatepoolusdc")
	add(onChain(addrbook.StargatePoolUSDT), "stargate usdt pool", "stargate pool usdt", "stargate v2 usdt pool", "stargatepoolusdt")
	add(onChain(addrbook.StargatePoolNative), "stargate eth pool", "stargate native pool", "stargate pool native",
		"stargate v2 eth pool", "stargatepoolnative")
	add(onChain(addrbook.StargateTokenMessaging), "tokenmessaging", "stargate tokenmessaging", "stargate token messaging")

	add(specific(addrbook.OneInchAggregationRouterV6), "aggregationrouterv6", "1inch aggregationrouterv6",
		"1inch aggregation router v6", "1inch router v6", "1inch v6 router", "1inch v6 aggregation router")
	add(loose(addrbook.OneInchAggregationRouterV6), "1inch router", "1inch aggregation router", "1inch aggregationrouter",
		"aggregationrouter", "1inch limit order protocol")

	add(specific(addrbook.PendleRouter), "pendle routerv4", "pendle router v4", "pendle v4 router")
	add(loose(addrbook.PendleRouter), "pendle router", "pendlerouter")
	add(onChain(addrbook.PendleRouterStatic), "pendle routerstatic", "pendle router static", "routerstatic")
	add(specific(addrbook.PendleLimitRouter), "pendle limit router", "pendle limitrouter")
	add(onChain(addrbook.PendleMarketFactoryV6), "pendle market factory v6", "pendlemarketfactoryv6", "pendle marketfactoryv6")
	add(onChain(addrbook.PendleYieldContractFactoryV6), "pendle yield contract factory v6", "pendleyieldcontractfactoryv6")

	// The EntryPoint has one address per version on every chain; the book
	// lists v0.7's. The Universal Router and Safe's contracts have been
	// redeployed with each version: without one, an address the book does
	// not know proves nothing.
	add(specific(addrbook.ERC4337EntryPoint), "entrypoint v0.7", "entrypoint v07", "erc-4337 entrypoint v0.7",
		"erc4337 entrypoint v0.7", "entry point v0.7", "entrypoint 0.7")
	add(loose(addrbook.ERC4337EntryPoint), "entrypoint", "erc-4337 entrypoint", "erc-4337 entry point", "erc4337 entrypoint")
	add(loose(addrbook.UniversalRouter), "universal router", "universalrouter", "uniswap universal router",
		"uniswap universalrouter")
	add(loose(addrbook.SafeProxyFactory), "safe proxy factory", "safeproxyfactory", "gnosis safe proxy factory")
	add(loose(addrbook.SafeSingleton, addrbook.SafeSingletonL2), "safe singleton", "safe mastercopy", "safe master copy",
		"gnosis safe singleton")

	add(specific(addrbook.LineaL1MessageService), "linea message service", "linea l1 message service", "linearollup",
		"linea rollup", "linea rollup contract", "lineal1messageservice")

	add(specific(addrbook.OPStackL2StandardBridge), "l2standardbridge", "l2 standard bridge")
	add(specific(addrbook.OPStackL2ToL1MessagePasser), "l2tol1messagepasser", "l2 to l1 message passer")
	add(specific(addrbook.OPStackGasPriceOracle), "gaspriceoracle")
	add(specific(addrbook.OPStackL1Block), "l1block")
	add(specific(addrbook.OPStackL2CrossDomainMessenger), "l2crossdomainmessenger", "l2 cross domain messenger",
		"l2 crossdomainmessenger")
	add(specific(addrbook.OPStackL2ERC721Bridge), "l2erc721bridge", "l2 erc721 bridge")
	return out
}

// curvePools are the names of the Curve pools in the shipped book
// (curve_pool_3pool is "3pool"), each once.
func curvePools() []string {
	var names []string
	for _, c := range addrbook.Shipped().Chains {
		for _, k := range c.Contracts {
			if name, ok := strings.CutPrefix(k.Role, addrbook.CurvePoolPrefix); ok && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return names
}
