package chain_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestShippedAddressBookChecksums: every address in the shipped book is
// spelled with its valid EIP-55 checksum, the form go-ethereum prints.
func TestShippedAddressBookChecksums(t *testing.T) {
	data, err := os.ReadFile("../addrbook/book.json")
	if err != nil {
		t.Fatal(err)
	}
	var book struct {
		Chains []struct {
			ID     uint64 `json:"chain_id"`
			Tokens []struct {
				Address string `json:"address"`
				USDFeed string `json:"usd_feed"`
			} `json:"tokens"`
			Contracts []struct {
				Role    string `json:"role"`
				Address string `json:"address"`
			} `json:"contracts"`
		} `json:"chains"`
	}
	if err := json.Unmarshal(data, &book); err != nil {
		t.Fatal(err)
	}
	n := 0
	check := func(chain uint64, what, s string) {
		n++
		if !common.IsHexAddress(s) || common.HexToAddress(s).Hex() != s {
			t.Errorf("chain %d %s: %q is not EIP-55 checksummed (want %s)", chain, what, s, common.HexToAddress(s).Hex())
		}
	}
	for _, c := range book.Chains {
		for _, tk := range c.Tokens {
			check(c.ID, "token", tk.Address)
			if tk.USDFeed != "" {
				check(c.ID, "feed", tk.USDFeed)
			}
		}
		for _, k := range c.Contracts {
			check(c.ID, k.Role, k.Address)
		}
	}
	if n < 500 {
		t.Errorf("checked %d addresses, want the whole book", n)
	}
}
