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
			addrbook.UniswapV3PositionManager, addrbook.Permit2, addrbook.AaveV3Pool, addrbook.AaveV3DataProvider, addrbook.AaveV3Oracle} {
			if a, ok := c.Contract(role); !ok || a.IsZero() {
				t.Errorf("chain %d: no %s", id, role)
			}
		}
		_, v1 := c.Contract(addrbook.UniswapV3QuoterV1)
		_, v2 := c.Contract(addrbook.UniswapV3QuoterV2)
		if v1 == v2 {
			t.Errorf("chain %d: want exactly one V3 quoter (v1 %v, v2 %v)", id, v1, v2)
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
