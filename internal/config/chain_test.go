package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/tool"
)

func TestChainsDefault(t *testing.T) {
	f, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Chains) != 1 || f.Chain.Name != "dev" || f.Chain.ChainID != DevChainID || f.Chain.RPCURL != "" {
		t.Errorf("default chains = %+v", f.Chains)
	}
	if _, ok := f.Book.Chain(1); !ok {
		t.Error("the default book lacks the shipped chains")
	}
}

// TestChainsSeveral: [[chain]] tables, each with its endpoints and its
// own address-book entries (inline and from a file next to ward.toml).
func TestChainsSeveral(t *testing.T) {
	dir := t.TempDir()
	book := `[[chain]]
chain_id = 31337
name = "local"
explorer_tx_url = "http://127.0.0.1:4000/tx/{hash}"
[[chain.tokens]]
address = "0x1111111111111111111111111111111111111111"
symbol = "USDC"
decimals = 6
usd_feed = "0x2222222222222222222222222222222222222222"
[[chain.contracts]]
role = "uniswap_v3_factory"
address = "0x3333333333333333333333333333333333333333"
`
	if err := os.WriteFile(filepath.Join(dir, "local-book.toml"), []byte(book), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ward.toml")
	f, err := Parse(path, []byte(`
[[chain]]
rpc_urls = ["https://a.example/rpc", "wss://b.example/rpc"]
chain_id = 8453

[[chain]]
name = "local"
rpc_url = "http://127.0.0.1:8545"
chain_id = 31337
address_book = "local-book.toml"
[[chain.tokens]]
address = "0x4444444444444444444444444444444444444444"
symbol = "WETH"
decimals = 18
wrapped_native = true

[[chain]]
dev_seed = "other"
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Chains) != 3 {
		t.Fatalf("chains = %+v", f.Chains)
	}
	base, local, dev := f.Chains[0], f.Chains[1], f.Chains[2]
	if base.Name != "base" || base.RPCURL != "https://a.example/rpc" || len(base.RPCURLs) != 2 || f.Chain.ChainID != 8453 {
		t.Errorf("base = %+v (first %+v)", base, f.Chain)
	}
	if local.Name != "local" || local.AddressBook != "local-book.toml" || dev.Name != "dev" || dev.ChainID != DevChainID || dev.DevSeed != "other" {
		t.Errorf("local = %+v, dev = %+v", local, dev)
	}
	lb, ok := f.Book.Chain(31337)
	if !ok {
		t.Fatal("the local chain's entries are not in the book")
	}
	usdc := lb.TokensBySymbol("usdc")
	if len(usdc) != 1 || usdc[0].Decimals != 6 || usdc[0].USDFeed != (tool.Address{0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22, 0x22}) {
		t.Errorf("local USDC = %+v", usdc)
	}
	if w, ok := lb.WrappedNative(); !ok || w.Symbol != "WETH" {
		t.Errorf("inline token missing: %+v", w)
	}
	if a, ok := lb.Contract(addrbook.UniswapV3Factory); !ok || a.IsZero() || lb.TxURL("0x1") != "http://127.0.0.1:4000/tx/0x1" {
		t.Errorf("local contracts: %v %v %q", a, ok, lb.TxURL("0x1"))
	}
}

func TestChainsErrors(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.toml")
	if err := os.WriteFile(other, []byte("[[chain]]\nchain_id = 5\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	const usdcMainnet = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
	for _, tc := range []struct{ name, toml, want string }{
		{"both url forms", "[chain]\nrpc_url = \"http://a\"\nrpc_urls = [\"http://b\"]\nchain_id = 1\n", "set rpc_url or rpc_urls, not both"},
		{"bad url in list", "[[chain]]\nrpc_urls = [\"http://a\", \"ftp://b\"]\nchain_id = 1\n", "chain[0].rpc_urls[1]: must be an http(s) or ws(s) URL"},
		{"two dev chains", "[[chain]]\n[[chain]]\n", "a second embedded dev chain"},
		{"chain id twice", "[[chain]]\nrpc_url = \"http://a\"\nchain_id = 1\n[[chain]]\nrpc_url = \"http://b\"\nchain_id = 1\n", "chain 1 is configured twice"},
		{"several need ids", "[[chain]]\nrpc_url = \"http://a\"\nchain_id = 1\n[[chain]]\nrpc_url = \"http://b\"\n", "chain[1].chain_id: is required when several chains"},
		{"name taken", "[[chain]]\nname = \"x\"\nrpc_url = \"http://a\"\nchain_id = 1\n[[chain]]\nname = \"x\"\nrpc_url = \"http://b\"\nchain_id = 2\n", `the name "x" is taken`},
		{"bad name", "[chain]\nname = \"Main Net\"\n", "chain.name: must be 1 to 32"},
		{"dev chain id", "[chain]\nchain_id = 5\n", "embedded dev chain, whose chain id is 1337"},
		{"key without rpc", "[chain]\nwallet_key_file = \"k\"\n", "needs rpc_url"},
		{"unknown wallet kind", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_kind = \"multisig\"\n", `chain.wallet_kind: must be "key", "safe" or "erc4337", not "multisig"`},
		{"safe without address", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_key_file = \"k\"\nwallet_kind = \"safe\"\n", "chain.safe_address: is required"},
		{"safe without key", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_kind = \"safe\"\nsafe_address = \"0x1111111111111111111111111111111111111111\"\n", "chain.wallet_key_file: is required with wallet_kind"},
		{"safe address of a key wallet", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nsafe_address = \"0x1111111111111111111111111111111111111111\"\n", `chain.safe_address: needs wallet_kind = "safe"`},
		{"zero safe address", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_key_file = \"k\"\nwallet_kind = \"safe\"\nsafe_address = \"0x0000000000000000000000000000000000000000\"\n", "chain.safe_address: must be a non-zero 0x address"},
		{"safe address on the dev chain", "[chain]\nwallet_kind = \"safe\"\nsafe_address = \"0x1111111111111111111111111111111111111111\"\n", "ward deploys the Safe"},
		{"erc4337 without account", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_key_file = \"k\"\nwallet_kind = \"erc4337\"\nentry_point = \"0x0000000071727De22E5E9d8BAf0edAc6f37da032\"\n", "chain.account_address: is required"},
		{"erc4337 without entry point", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_key_file = \"k\"\nwallet_kind = \"erc4337\"\naccount_address = \"0x1111111111111111111111111111111111111111\"\n", "chain.entry_point: is required"},
		{"erc4337 without session key", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_kind = \"erc4337\"\naccount_address = \"0x1111111111111111111111111111111111111111\"\nentry_point = \"0x0000000071727De22E5E9d8BAf0edAc6f37da032\"\n", "chain.wallet_key_file: is required with wallet_kind = \"erc4337\""},
		{"account of a key wallet", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\naccount_address = \"0x1111111111111111111111111111111111111111\"\n", `chain.account_address: needs wallet_kind = "erc4337"`},
		{"zero entry point", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_key_file = \"k\"\nwallet_kind = \"erc4337\"\naccount_address = \"0x1111111111111111111111111111111111111111\"\nentry_point = \"0x0000000000000000000000000000000000000000\"\n", "chain.entry_point: must be a non-zero 0x address"},
		{"account on the dev chain", "[chain]\nwallet_kind = \"erc4337\"\naccount_address = \"0x1111111111111111111111111111111111111111\"\n", "ward deploys the account"},
		{"unknown key", "[[chain]]\nrpc_url = \"http://a\"\nchain_id = 1\nrpcurl = \"x\"\n", `4:1: chain.0.rpcurl: unknown key; did you mean "rpc_url"?`},
		{"book of another chain", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\naddress_book = \"" + other + "\"\n", "entries for chain 5, but this table is chain 1"},
		{"missing book", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\naddress_book = \"nope.toml\"\n", "chain.address_book"},
		{"entries without id", "[chain]\nrpc_url = \"http://a\"\n[[chain.tokens]]\naddress = \"0x1111111111111111111111111111111111111111\"\nsymbol = \"A\"\ndecimals = 1\n", "is required with address-book entries"},
		{"two roles", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\n[[chain.contracts]]\nrole = \"permit2\"\naddress = \"" + usdcMainnet + "\"\n", "is both token USDC and permit2"},
		{"bad token address", "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\n[[chain.tokens]]\naddress = \"0x12\"\nsymbol = \"A\"\ndecimals = 1\n", "want 0x and 40 hex digits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(filepath.Join(dir, "w.toml"), []byte(tc.toml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestChainPrice: the pricing knobs of a chain table, read into
// Chain.Price; out-of-range values, 0 included, are errors at load.
func TestChainPrice(t *testing.T) {
	dir := t.TempDir()
	f, err := Parse(filepath.Join(dir, "w.toml"), []byte(`
[[chain]]
rpc_url = "http://a"
chain_id = 1
twap_window = "1h"
max_price_deviation_bps = 200
min_twap_liquidity_usd = 5000000

[[chain]]
rpc_url = "http://b"
chain_id = 10
`))
	if err != nil {
		t.Fatal(err)
	}
	want := catalog.PriceConfig{TWAPWindow: time.Hour, MaxDeviationBps: 200, MinTWAPLiquidityUSD: 5_000_000}
	if got := f.Chains[0].Price; got != want {
		t.Errorf("chain 1 price = %+v, want %+v", got, want)
	}
	if got := f.Chains[1].Price; got != (catalog.PriceConfig{}) {
		t.Errorf("chain 10 price = %+v, want the zero value (the defaults)", got)
	}
	const head = "[chain]\nrpc_url = \"http://a\"\nchain_id = 1\n"
	for _, tc := range []struct{ name, toml, want string }{
		{"window not a duration", "twap_window = \"half an hour\"", "chain.twap_window: invalid duration"},
		{"window too short", "twap_window = \"1m\"", "chain.twap_window: must be whole seconds between 5m0s and 24h0m0s"},
		{"window too long", "twap_window = \"48h\"", "chain.twap_window: must be whole seconds"},
		{"window fraction", "twap_window = \"10m500ms\"", "chain.twap_window: must be whole seconds"},
		{"deviation zero", "max_price_deviation_bps = 0", "chain.max_price_deviation_bps: must be between 1 and 5000"},
		{"deviation negative", "max_price_deviation_bps = -5", "chain.max_price_deviation_bps: must be between 1 and 5000"},
		{"deviation huge", "max_price_deviation_bps = 10000", "chain.max_price_deviation_bps: must be between 1 and 5000"},
		{"liquidity zero", "min_twap_liquidity_usd = 0", "chain.min_twap_liquidity_usd: must be a positive"},
		{"liquidity not a number", "min_twap_liquidity_usd = \"lots\"", `chain.min_twap_liquidity_usd: expected an integer, found the string "lots"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(filepath.Join(dir, "w.toml"), []byte(head+tc.toml+"\n"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestChainSafeWallet: wallet_kind = "safe" with its Safe and owner key
// on an endpoint, and alone on the dev chain.
func TestChainSafeWallet(t *testing.T) {
	f, err := Parse("w.toml", []byte("[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_key_file = \"k\"\nwallet_kind = \"safe\"\nsafe_address = \"0x1111111111111111111111111111111111111111\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Chain.Wallet != WalletSafe || f.Chain.SafeAddress != (tool.Address{0: 0x11, 1: 0x11, 2: 0x11, 3: 0x11, 4: 0x11, 5: 0x11, 6: 0x11, 7: 0x11, 8: 0x11, 9: 0x11, 10: 0x11, 11: 0x11, 12: 0x11, 13: 0x11, 14: 0x11, 15: 0x11, 16: 0x11, 17: 0x11, 18: 0x11, 19: 0x11}) {
		t.Errorf("chain = %+v, want a Safe wallet at 0x1111…", f.Chain)
	}
	dev, err := Parse("w.toml", []byte("[chain]\nwallet_kind = \"safe\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if dev.Chain.Wallet != WalletSafe || dev.Chain.SafeAddress != (tool.Address{}) {
		t.Errorf("dev chain = %+v, want a Safe wallet ward deploys", dev.Chain)
	}
	plain, err := Parse("w.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Chain.Wallet != WalletKey {
		t.Errorf("default wallet kind %v, want key", plain.Chain.Wallet)
	}
}

// TestChainERC4337Wallet: wallet_kind = "erc4337" with its account, entry
// point and session key on an endpoint, and alone on the dev chain.
func TestChainERC4337Wallet(t *testing.T) {
	f, err := Parse("w.toml", []byte("[chain]\nrpc_url = \"http://a\"\nchain_id = 1\nwallet_key_file = \"k\"\nwallet_kind = \"erc4337\"\naccount_address = \"0x1111111111111111111111111111111111111111\"\nentry_point = \"0x0000000071727De22E5E9d8BAf0edAc6f37da032\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	ep, _ := tool.ParseAddress("0x0000000071727De22E5E9d8BAf0edAc6f37da032")
	acc, _ := tool.ParseAddress("0x1111111111111111111111111111111111111111")
	if f.Chain.Wallet != WalletERC4337 || f.Chain.AccountAddress != acc || f.Chain.EntryPoint != ep || f.Chain.Wallet.String() != "erc4337" {
		t.Errorf("chain = %+v, want an ERC-4337 wallet", f.Chain)
	}
	dev, err := Parse("w.toml", []byte("[chain]\nwallet_kind = \"erc4337\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if dev.Chain.Wallet != WalletERC4337 || dev.Chain.AccountAddress != (tool.Address{}) {
		t.Errorf("dev chain = %+v, want an ERC-4337 wallet ward deploys", dev.Chain)
	}
}
