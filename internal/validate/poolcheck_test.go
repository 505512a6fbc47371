package validate

import (
	"strings"
	"testing"
)

// The Uniswap V3 pools a test names, as CREATE2 gives them (and as
// Uniswap's interface lists them).
const (
	poolUSDCWETH5Eth  = "0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640" // USDC/WETH 0.05 % on Ethereum
	poolUSDCWETH30Eth = "0x8ad599c3A0ff1De082011EFDDc58f1908eb6e6D8" // USDC/WETH 0.3 % on Ethereum
	poolWETHUSDC5Base = "0xd0b53D9277642d899DF5C87A3966A349A798F224" // WETH/USDC 0.05 % on Base
)

// TestBookVerifierPools: a Uniswap V3 pool's address is CREATE2 of the
// factory, the sorted pair and the fee; a claim that states another is
// false where the text names the chain, and a look-alike of the computed
// pool is false anywhere.
func TestBookVerifierPools(t *testing.T) {
	v := NewBookVerifier(nil)
	tests := []struct {
		name, text string
		want       []string // nil: not contradicted
	}{
		{"true pool", "The Uniswap V3 USDC/WETH 0.05% pool on Ethereum is " + poolUSDCWETH5Eth + ".", nil},
		{"true pool in bps, pair reversed", "On mainnet, Uniswap's WETH/USDC 5 bps V3 pool: " + poolUSDCWETH5Eth + ".", nil},
		{"0.3 % tier", "Uniswap V3 USDC/WETH 0.3% pool on Ethereum: " + poolUSDCWETH30Eth, nil},
		{"ETH is the wrapped native", "The Uniswap V3 ETH/USDC 0.05% pool on Base is " + poolWETHUSDC5Base + ".", nil},
		{"another tier's pool", "The Uniswap V3 USDC/WETH 0.05% pool on Ethereum is " + poolUSDCWETH30Eth + ".",
			[]string{"is not the Uniswap V3 USDC/WETH 0.05 % pool", "0x88e6…5640 on Ethereum"}},
		{"look-alike", "The Uniswap V3 USDC/WETH 0.05% pool is " + lookalikeOf(poolUSDCWETH5Eth) + ".",
			[]string{"look-alike of the Uniswap V3 USDC/WETH 0.05 % pool (0x88e6…5640)"}},
		{"unknown address, chain named", "Uniswap V3 USDC/WETH 0.05% pool on Ethereum: " + unknownAddr,
			[]string{"0x1111…1111 is not the Uniswap V3 USDC/WETH 0.05 % pool"}},
		{"unknown address, no chain: it may be elsewhere", "Uniswap V3 USDC/WETH 0.05% pool: " + unknownAddr, nil},
		{"not Uniswap", "The USDC/WETH 0.05% V3 pool on Ethereum is " + unknownAddr + ".", nil},
		{"Uniswap unnamed, look-alike of its pool", "The deepest USDC/WETH pool on mainnet is the 5 bps V3 pool at " + lookalikeOf(poolUSDCWETH5Eth) + ".",
			[]string{"look-alike of the Uniswap V3 USDC/WETH 0.05 % pool (0x88e6…5640)"}},
		{"Uniswap unnamed, its true pool", "The deepest USDC/WETH pool on mainnet is the 5 bps V3 pool at " + poolUSDCWETH5Eth + ".", nil},
		{"a fork", "Uniswap V3 forks like PancakeSwap run a USDC/WETH 0.05% V3 pool on Ethereum at " + unknownAddr + ".", nil},
		{"a V2 pair", "The Uniswap V2 USDC/WETH pool (0.3% fee) on Ethereum is 0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc; V3 is elsewhere.", nil},
		{"two fee tiers", "Uniswap V3 USDC/WETH pools on Ethereum: 0.05% and 0.3% at " + unknownAddr + ".", nil},
		{"a chain outside the book", "The Uniswap V3 USDC/WETH 0.05% pool on Celo is " + unknownAddr + ".", nil},
		{"warned", "Do not trust the Uniswap V3 USDC/WETH 0.05% pool on Ethereum at " + unknownAddr + ", a scam.", nil},
		{"other address in the sentence", "The Uniswap V3 USDC/WETH 0.05% pool on Ethereum is " + poolUSDCWETH5Eth + ", and our vault is " + unknownAddr + ".", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := v.Check(tc.text)
			got := strings.Join(r.False, "\n")
			if tc.want == nil {
				if len(r.False) > 0 {
					t.Fatalf("contradicted: %s", got)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("reasons %q lack %q", got, w)
				}
			}
		})
	}
}
