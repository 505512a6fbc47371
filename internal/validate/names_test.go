package validate

import (
	"strings"
	"testing"
)

// TestBookVerifierSpelledSymbols: a token named by its full name or by a
// config key is checked like its symbol, and the same forms with the
// book's own address, or a name the book does not make a claim of, pass.
func TestBookVerifierSpelledSymbols(t *testing.T) {
	v := NewBookVerifier(nil)
	const (
		usdtEth = "0xdAC17F958D2ee523a2206206994597C13D831ec7"
		usdcArb = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
		other   = "0x7a8F5E837d007126AF7De751fafe6E265ef08456"
	)
	tests := []struct {
		name, text string
		want       []string // "" for no contradiction, else substrings of the reasons
	}{
		{"full name, unknown address", "Tether USD on Ethereum: " + other, []string{"USDT on Ethereum is 0xdAC1…1ec7"}},
		{"full name in lower case", "mainnet wrapped ether lives at " + other + " on Ethereum.", []string{"WETH on Ethereum is 0xC02a…6Cc2"}},
		{"full name, book address", "Tether USD on Ethereum: " + usdtEth, nil},
		{"three-word name", "Coinbase Wrapped Staked ETH (Base): " + other, []string{"cbETH on Base"}},
		{"YAML key", "tokens:\n  usdt: \"" + other + "\"\n  chain: ethereum", []string{"USDT on Ethereum is 0xdAC1…1ec7"}},
		{"TOML key, book address", "[arbitrum]\nusdc = \"" + usdcArb + "\"", nil},
		{"constant name", "const WETH_ADDRESS = \"" + other + "\"; // Ethereum", []string{"WETH on Ethereum"}},
		{"key of a cast", "IERC20 usdc = IERC20(" + other + "); // Ethereum", []string{"USDC on Ethereum is 0xA0b8…eB48"}},
		{"key of a cast, book address", "IERC20 usdc = IERC20(0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48); // Ethereum", nil},
		{"key naming no symbol", "treasury: \"" + other + "\"\nchain: ethereum", nil},
		{"name split over lines is no name", "Tether\n\nUSD sent to " + other, nil},
		{"address wrapped at the line end", "The USDC contract on Ethereum is\n" + other[:22] + "\n" + other[22:], []string{"USDC on Ethereum is 0xA0b8…eB48"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(v.Check(tc.text).False, "; ")
			if tc.want == nil {
				if got != "" {
					t.Errorf("Check(%q) = %q, want no contradiction", tc.text, got)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Check(%q) = %q, want it to contain %q", tc.text, got, w)
				}
			}
		})
	}
}

// TestBookVerifierVersionedRoles: the EntryPoint, the Universal Router and
// Safe's contracts are read as their roles: another book address named as
// one is contradicted, the book's own passes, and an unknown address is
// contradicted only for a version the book is complete for.
func TestBookVerifierVersionedRoles(t *testing.T) {
	v := NewBookVerifier(nil)
	const (
		entryPoint = "0x0000000071727De22E5E9d8BAf0edAc6f37da032"
		universal  = "0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af"
		factory    = "0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67"
		router02   = "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D" // Uniswap V2 Router02 on Ethereum
		other      = "0x7a8F5E837d007126AF7De751fafe6E265ef08456"
	)
	tests := []struct {
		name, text string
		want       string // "" for no contradiction
	}{
		{"EntryPoint v0.7, book address", "ERC-4337 EntryPoint v0.7: " + entryPoint, ""},
		{"EntryPoint v0.7, unknown address", "ERC-4337 EntryPoint v0.7: " + other, "erc4337_entry_point on Ethereum is 0x0000…a032"},
		{"EntryPoint of no version, unknown address", "The EntryPoint on Base is " + other + ".", ""},
		{"EntryPoint given another book address", "The EntryPoint on Ethereum is " + router02 + ".", "not erc4337_entry_point"},
		{"Universal Router, book address", "The Uniswap Universal Router on Ethereum is " + universal + ".", ""},
		{"Universal Router given another book address", "Swap through the Universal Router on Ethereum at " + wethEth + ".", "not uniswap_universal_router"},
		{"Safe proxy factory, book address", "Safe proxy factory (v1.4.1) on Ethereum: " + factory, ""},
		{"Safe proxy factory, unknown address", "Safe proxy factory on Ethereum: " + other, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(v.Check(tc.text).False, "; ")
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("Check(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
