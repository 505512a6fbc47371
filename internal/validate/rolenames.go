package validate

import (
	"strings"

	"github.com/wardhq/ward/internal/addrbook"
)

// moreRolePhrases are the names of the roles the book takes from
// Morpho's, Balancer's, CoW's, 0x's, ENS's, Lido's, Arbitrum's and the OP
// Stack's packages: the contract names those packages and the protocols'
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
	var out []rolePhrase
	add := func(p rolePhrase, names ...string) {
		for _, n := range names {
			p.words = strings.Fields(n)
			out = append(out, p)
		}
	}
	onChain := func(roles ...string) rolePhrase { return rolePhrase{roles: roles, onChain: true} }
	specific := func(roles ...string) rolePhrase { return rolePhrase{roles: roles, specific: true} }
	loose := func(roles ...string) rolePhrase { return rolePhrase{roles: roles} }

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

	add(specific(addrbook.ENSRegistry), "ens registry", "ensregistry", "ensregistrywithfallback", "ens registry with fallback")
	add(loose(addrbook.ENSBaseRegistrar), "baseregistrarimplementation", "ens base registrar", "ens baseregistrar")
	add(loose(addrbook.ENSEthRegistrarController), "ethregistrarcontroller", "eth registrar controller", "ens registrar controller",
		"ens eth registrar controller", "ens ethregistrarcontroller")
	add(loose(addrbook.ENSNameWrapper), "namewrapper", "ens namewrapper", "ens name wrapper")
	add(loose(addrbook.ENSPublicResolver), "publicresolver", "ens publicresolver", "ens public resolver")
	add(loose(addrbook.ENSReverseRegistrar), "reverseregistrar", "ens reverseregistrar", "ens reverse registrar")

	return append(out, rollupPhrases()...)
}

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
