package validate

import (
	"strings"
	"testing"
)

// lookalikeOf keeps the first and last four hex digits of a and changes
// the middle: what an address-poisoning campaign grinds.
func lookalikeOf(a string) string {
	return strings.ToLower(a[:6]) + "9d3c07b1e5a2f4c6d8e0b1a3c5e7f9d2" + strings.ToLower(a[38:])
}

// TestBookVerifierRoles: for each role the book takes from Morpho's,
// Balancer's, CoW's, 0x's, ENS's, Lido's, Arbitrum's and the OP Stack's
// packages, a true statement passes and is verified, an address the book
// does not know is contradicted with the book's address named, a
// look-alike is named as one, and another address in the same sentence
// changes nothing.
func TestBookVerifierRoles(t *testing.T) {
	v := NewBookVerifier(nil)
	tests := []struct {
		claim, real string
		want        string // what an unknown address is contradicted with; "" when only a named chain makes it false
	}{
		{"Morpho Blue on Ethereum is", "0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb", "morpho_blue on Ethereum is 0xBBBB…FFCb"},
		{"The Morpho Blue singleton on Arbitrum is", "0x6c247b1F6182318877311737BaC0844bAa518F5e", "morpho_blue on Arbitrum One is 0x6c24…8F5e"},
		{"Morpho's AdaptiveCurveIrm on Base:", "0x46415998764C29aB2a25CbeA6254146D50D22687", "morpho_adaptive_curve_irm on Base is 0x4641…2687"},
		{"The Balancer V2 Vault on Polygon is", "0xBA12222222228d8Ba445958a75a0704d566BF2C8", "balancer_v2_vault on Polygon is 0xBA12…F2C8"},
		{"The Balancer vault on OP Mainnet is", "0xBA12222222228d8Ba445958a75a0704d566BF2C8", "balancer_v2_vault on OP Mainnet is 0xBA12…F2C8"},
		{"The Balancer V3 Vault on Ethereum is", "0xbA1333333333a1BA1108E8412f11850A5C319bA9", "balancer_v3_vault on Ethereum is 0xbA13…9bA9"},
		{"CoW Protocol's GPv2Settlement is", "0x9008D19f58AAbD9eD0D60971565AA8510560ab41", "cow_gpv2_settlement on Ethereum is 0x9008…ab41"},
		{"The GPv2VaultRelayer on Base is", "0xC92E8bdf79f0507f65a392b0ab4667716BFE0110", "cow_gpv2_vault_relayer on Base is 0xC92E…0110"},
		{"The 0x Exchange Proxy on Ethereum is", "0xDef1C0ded9bec7F1a1670819833240f027b25EfF", "zeroex_exchange_proxy on Ethereum is 0xDef1…5EfF"},
		{"Lido's WithdrawalQueueERC721 is", "0x889edC2eDab5f40e902b864aD4d7AdE8E412F9B1", "lido_withdrawal_queue on Ethereum is 0x889e…F9B1"},
		{"The ENS registry is", "0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e", "ens_registry on Ethereum is 0x0000…2e1e"},
		{"Base's L1StandardBridge is", "0x3154Cf16ccdb4C6d922629664174b904d80F2C35", "base_l1_standard_bridge on Ethereum is 0x3154…2C35"},
		{"The OP Mainnet L1StandardBridge is", "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1", "op_mainnet_l1_standard_bridge on Ethereum is 0x99C9…4bE1"},
		{"Base's OptimismPortal:", "0x49048044D57e1C92A77f79988d21Fa8fAF74E97e", "base_optimism_portal on Ethereum is 0x4904…E97e"},
		{"Arbitrum's delayed inbox is", "0x4Dbd4fc535Ac27206064B68FfCf827b0A60BAB3f", "arbitrum_one_inbox on Ethereum is 0x4Dbd…AB3f"},
		{"The Arbitrum One L1GatewayRouter is", "0x72Ce9c846789fdB6fC1f34aC4AD25Dd9ef7031ef", "arbitrum_one_l1_gateway_router on Ethereum is 0x72Ce…31ef"},
		{"Arbitrum's SequencerInbox is", "0x1c479675ad559DC151F6Ec7ed3FbF8ceE79582B6", "arbitrum_one_sequencer_inbox on Ethereum is 0x1c47…82B6"},
		{"The Chainlink BTC/USD feed on Ethereum is", "0xF4030086522a5bEEa4988F8cA5B36dbC97BeE88c", ""},
		{"Chainlink ETH/USD on Arbitrum:", "0x639Fe6ab55C921f74e7fac1ee960C0B6293ba612", ""},
		{"The USDC/USD aggregator on Ethereum is", "0x8fFfFfd4AfB6115b954Bd326cbe7B4BA576818f6", ""},
	}
	for _, tc := range tests {
		t.Run(tc.claim, func(t *testing.T) {
			good := v.Check(tc.claim + " " + tc.real + ".")
			if len(good.False) > 0 || len(good.Verified) == 0 {
				t.Errorf("true statement: false %q, verified %q; want it verified", good.False, good.Verified)
			}
			like := lookalikeOf(tc.real)
			bad := strings.Join(v.Check(tc.claim+" "+like+".").False, "\n")
			if !strings.Contains(bad, "is a look-alike of") || !strings.Contains(bad, short(mustAddress(t, tc.real))) {
				t.Errorf("look-alike: reasons %q, want a look-alike of %s", bad, tc.real)
			}
			other := v.Check(tc.claim + " " + tc.real + ", and the fee recipient is " + unknownAddr + ".")
			if len(other.False) > 0 {
				t.Errorf("another address in the sentence: contradicted %q", other.False)
			}
			if tc.want == "" {
				return
			}
			wrong := strings.Join(v.Check(tc.claim+" "+unknownAddr+".").False, "\n")
			if !strings.HasPrefix(wrong, FalsePrefix) || !strings.Contains(wrong, tc.want) {
				t.Errorf("unknown address: reasons %q, want %q", wrong, tc.want)
			}
		})
	}
}

func mustAddress(t *testing.T, s string) Address {
	t.Helper()
	ids := ExtractIdentities(s)
	if len(ids) != 1 {
		t.Fatalf("%s: %d addresses", s, len(ids))
	}
	return ids[0].Address
}

// TestBookVerifierRolesUnverifiable: where a name may mean another
// deployment than the book's (another chain, an older version, another
// protocol's contract of the same name), a real address is never
// contradicted.
func TestBookVerifierRolesUnverifiable(t *testing.T) {
	v := NewBookVerifier(nil)
	for _, text := range []string{
		"Morpho Blue on Unichain is 0x8f5ae9CddB9f68de460C77730b018Ae7E04a140A.",
		"Morpho Blue lives at 0x8f5ae9CddB9f68de460C77730b018Ae7E04a140A on most newer chains.",
		"The Balancer vault on Fantom (Beethoven X) is 0x20dd72Ed959b6147912C2e529F0a0C651c33c9ce.",
		"The Balancer vault is " + unknownAddr + " on that chain.",
		"Zora's L1StandardBridge on Ethereum is 0x3e2Ea9B92B7E48A52296fD261dc26fd995284631.",
		"The L1StandardBridge is " + unknownAddr + " for our own OP Stack chain.",
		"Lido's withdrawal queue on Holesky is 0xc7cc160b58F8Bb0baC94b80847E2CF2800565C50.",
		"ether.fi's withdrawal queue is " + unknownAddr + ".",
		"The Morpho bundler (v2) was 0x4095F064B8d3c3548A3bebfd0Bbfd04750E30077.",
		"The old ENS public resolver is 0x4976fb03C32e5B8cfe2b6cCB31c09Ba78EBaBa41.",
		"Uniswap V3's SwapRouter on Ethereum is " + router02 + " or the original 0xE592427A0AEce92De3Edee1F18E0157C05861564.",
		"Aggregators write native ETH as 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE in their quotes.",
		"A Morpho vault on Base: " + unknownAddr + ".",
		"The Arbitrum Nova delayed inbox is 0xc4448b71118c9071Bcb9734A0EAc55D18A153949.",
		"Arbitrum Nova's inbox is 0xc4448b71118c9071Bcb9734A0EAc55D18A153949.",
		"The Morpho Blue USDC market on Base has id 0x9103c3b4e834476c9a62ea009ba2c884ee42e94e6e314a26f04d312434191836.",
	} {
		if r := v.Check(text); len(r.False) > 0 {
			t.Errorf("%q contradicted: %q", text, r.False)
		}
	}
	// SwapRouter02 is not the original SwapRouter.
	r := v.Check("SwapRouter02 on Ethereum: 0xE592427A0AEce92De3Edee1F18E0157C05861564.")
	if got := strings.Join(r.False, "\n"); !strings.Contains(got, "uniswap_v3_swap_router02 on Ethereum is 0x68b3…Fc45") {
		t.Errorf("SwapRouter02 at the original router's address: reasons %q", got)
	}
}

// TestBookVerifierDepositContract: the consensus layer's deposit contract
// (from EthereumJS's chain presets) is verified when named with its
// address, and another address presented as it is contradicted with the
// book's named. Its leading zeros do not count toward a look-alike, so
// the look-alike row of TestBookVerifierRoles does not fit it.
func TestBookVerifierDepositContract(t *testing.T) {
	v := NewBookVerifier(nil)
	const real = "0x00000000219ab540356cBB839Cbe05303d7705Fa"
	for _, claim := range []string{"The beacon chain deposit contract is", "Stake through the Ethereum deposit contract at"} {
		if r := v.Check(claim + " " + real + "."); len(r.False) > 0 || len(r.Verified) == 0 {
			t.Errorf("%q with the real address: false %q, verified %q; want it verified", claim, r.False, r.Verified)
		}
		bad := strings.Join(v.Check(claim+" "+unknownAddr+".").False, "\n")
		if !strings.Contains(bad, "beacon_deposit_contract on Ethereum is 0x0000…05Fa") {
			t.Errorf("%q with another address: reasons %q, want the book's deposit contract named", claim, bad)
		}
	}
}
