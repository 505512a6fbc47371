package validate

import (
	"strings"
	"testing"
)

func TestJoinSplitAddresses(t *testing.T) {
	const wbtcLike = "2260fa0123456789abcdef0123456789abc2c599"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"halves with words between", "WBTC starts 0x2260fa0123456789abcd and ends ef0123456789abc2c599; done.",
			"WBTC starts 0x" + wbtcLike + "; done."},
		{"groups of ten", "WBTC is at 0x 2260fa0123 456789abcd ef01234567 89abc2c599 (spaced).",
			"WBTC is at 0x" + wbtcLike + " (spaced)."},
		{"hyphens", "WBTC: 0x-2260fa012345-6789abcdef0123-456789abc2c599",
			"WBTC: 0x" + wbtcLike},
		{"whole address untouched", "WBTC: 0x" + wbtcLike + " here", "WBTC: 0x" + wbtcLike + " here"},
		{"selector and prose untouched", "The selector 0xa9059cbb is transfer; call it at block 21400112 and add a fee.",
			"The selector 0xa9059cbb is transfer; call it at block 21400112 and add a fee."},
		{"overshoot untouched", "0x2260fa0123456789abcd ef0123456789abc2c599 ff01",
			"0x2260fa0123456789abcd ef0123456789abc2c599 ff01"},
		{"too many words between", "0x2260fa0123456789abcd and then it ends with ef0123456789abc2c599",
			"0x2260fa0123456789abcd and then it ends with ef0123456789abc2c599"},
		{"wrapped at a line end", "WBTC is\n0x2260fa0123456789abcd\nef0123456789abc2c599\nnext line",
			"WBTC is\n0x" + wbtcLike + "\nnext line"},
		{"a blank line ends the run", "0x2260fa0123456789abcd\n\nef0123456789abc2c599",
			"0x2260fa0123456789abcd\n\nef0123456789abc2c599"},
		{"no gap word after a line break", "0x2260fa0123456789abcd\nand ef0123456789abc2c599",
			"0x2260fa0123456789abcd\nand ef0123456789abc2c599"},
		{"hex-letter words are gap words, not digits", "0x2260fa0123456789abcd be dead ef0123456789abc2c599",
			"0x" + wbtcLike},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := joinSplitAddresses(tc.in); got != tc.want {
				t.Errorf("joinSplitAddresses(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestPrefixBareAddresses(t *testing.T) {
	const a = "2260fa0123456789abcdef0123456789abc2c599"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"bare", "WBTC token " + a + " (no prefix).", "WBTC token 0x" + a + " (no prefix)."},
		{"JSON value", `{"address": "` + a + `"}`, `{"address": "0x` + a + `"}`},
		{"already prefixed", "WBTC 0x" + a, "WBTC 0x" + a},
		{"a commit", "Audited at commit " + a + ".", "Audited at commit " + a + "."},
		{"a git hash", "git hash: " + a, "git hash: " + a},
		{"a transaction hash", "tx 0x" + a + a[:24], "tx 0x" + a + a[:24]},
		{"longer hex run", a + "ff", a + "ff"},
		{"no letter", "1234567890123456789012345678901234567890", "1234567890123456789012345678901234567890"},
		{"inside a word", "id_" + a, "id_" + a},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := prefixBareAddresses(tc.in); got != tc.want {
				t.Errorf("prefixBareAddresses(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzPrefixBareAddresses(f *testing.F) {
	for _, s := range []string{"2260fa0123456789abcdef0123456789abc2c599", "commit 2260fa0123456789abcdef0123456789abc2c599", "", "0x12"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := prefixBareAddresses(s)
		if strings.ReplaceAll(out, "0x", "") != strings.ReplaceAll(s, "0x", "") && !strings.Contains(s, "x") {
			t.Fatalf("rewrite changed more than prefixes: %q -> %q", s, out)
		}
		if len(out) < len(s) {
			t.Fatalf("rewritten text shrank: %q -> %q", s, out)
		}
	})
}

func FuzzJoinSplitAddresses(f *testing.F) {
	for _, s := range []string{"0x 2260fa0123 456789abcd ef01234567 89abc2c599", "0x-12-34", "0x", "0X0 0 0", "a0x1 and 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := joinSplitAddresses(s)
		if !strings.Contains(s, "0x") && !strings.Contains(s, "0X") && out != s {
			t.Fatalf("text without 0x changed: %q -> %q", s, out)
		}
		if len(out) > len(s)+2 {
			t.Fatalf("joined text grew: %q -> %q", s, out)
		}
	})
}

// TestBookVerifierSplitAndLoose: addresses split across the text and
// names the proximity binding cannot reach are checked; entries that only
// mention a token beside another contract, or warn about an address, are
// not contradicted.
func TestBookVerifierSplitAndLoose(t *testing.T) {
	v := NewBookVerifier(nil)
	const (
		usdcLike = "0xa0b8691234567890abcdef1234567890ab06eb48" // USDC's first and last digits
		unknown  = "0x4687f771ccae87c7014eb74d09f7138622ba7481"
		baseUSDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
		opUSDC   = "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"
		aavePool = "0x87870Bca3F3fD6335C3F4ce8392D69350B4fA4E2"
		permit2  = "0x000000000022D473030F116dDEE9F6B43aC78BA3"
	)
	for _, tc := range []struct {
		name, text string
		false_     bool
	}{
		{"split look-alike", "USDC starts " + usdcLike[:22] + " and ends " + usdcLike[22:] + ".", true},
		{"spaced look-alike", "USDC: 0x " + usdcLike[2:12] + " " + usdcLike[12:22] + " " + usdcLike[22:32] + " " + usdcLike[32:], true},
		{"appositive, unknown address", "GHO, Aave's stablecoin, has the contract " + unknown + ".", true},
		{"other language, specific contract", "L'adresse de Permit2 est " + unknown + " sur le mainnet.", true},
		{"right token, wrong chain", "For mainnet USDC transfers, use " + baseUSDC + " — it is the Circle contract.", true},
		{"name in the next clause", "Bridge USDC to Arbitrum and use " + opUSDC + " there; it is native USDC on Arbitrum One.", true},

		{"token beside a known contract", "Our eth_call of getReserveData on " + aavePool + " showed USDC utilisation of 87%.", false},
		{"scam warning", "The fake airdrop contract " + unknown + " claims to pay UNI; it is a scam.", false},
		{"a vault, not the token", "Deposit USDC in the vault " + unknown + " to earn yield.", false},
		{"a venue", "Swap USDC at " + unknown + " for the best price.", false},
		{"a warning past a comma", "Never, under any circumstances, treat " + unknown + " as GHO.", false},
		{"a recipient", "Send the USDC to " + unknown + " after the swap.", false},
		{"two names", "The router I use on mainnet is " + unknown + "; it pulls tokens through Permit2 at " + permit2 + ".", false},
		{"correct address in prose", "Der offizielle Pool von Aave V3 auf Ethereum ist " + aavePool + ".", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := v.Check(tc.text)
			if got := len(r.False) > 0; got != tc.false_ {
				t.Errorf("Check(%q): false claims %q, want any: %v", tc.text, r.False, tc.false_)
			}
		})
	}
}
