package cli

import (
	"bytes"
	"encoding/hex"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/pelletier/go-toml/v2"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/chain/deploy"
	"github.com/wardhq/ward/internal/chain/nodetest"
	"github.com/wardhq/ward/internal/tool"
)

// writeKey writes a fresh key to an owner-only file and returns the file
// and the key's address.
func writeKey(t *testing.T, dir string) (string, common.Address) {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "deploy.key")
	if err := os.WriteFile(path, []byte(hex.EncodeToString(crypto.FromECDSA(k))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, crypto.PubkeyToAddress(k.PublicKey)
}

// deployWallet writes a fresh key to dir, funds it from node and deploys
// the protocols, test tokens and feeds with it (ward chain deploy, the
// book written to dir/book.toml); it returns the key file and address.
func deployWallet(t *testing.T, node *nodetest.Node, dir string) (string, common.Address) {
	t.Helper()
	keyFile, me := writeKey(t, dir)
	node.Fund(t, me, new(big.Int).Add(deploy.MinBalance(), big.NewInt(1e18)))
	var out, errb bytes.Buffer
	if code := Main(t.Context(), []string{"chain", "deploy", "--rpc", node.URL, "--key-file", keyFile, "--out", filepath.Join(dir, "book.toml")}, nil, &out, &errb); code != exitOK {
		t.Fatalf("ward chain deploy: exit %d: %s", code, errb.String())
	}
	return keyFile, me
}

// TestChainDeployOnGeth runs `ward chain deploy` against geth --dev
// started as a separate process, then checks on chain what the written
// address book says: code at every address, the key's tokens, V2 and V3
// pools with liquidity, the feeds' answers.
func TestChainDeployOnGeth(t *testing.T) {
	start := time.Now()
	node := nodetest.Start(t)
	t.Logf("geth --dev serving at %s after %v", node.URL, time.Since(start).Round(time.Millisecond))
	dir := t.TempDir()
	keyFile, me := writeKey(t, dir)
	book := filepath.Join(dir, "book.toml")

	t.Run("an unfunded key is refused before anything is sent", func(t *testing.T) {
		var out, errb bytes.Buffer
		code := Main(t.Context(), []string{"chain", "deploy", "--rpc", node.URL, "--key-file", keyFile, "--out", book}, nil, &out, &errb)
		if code != exitFail || !strings.Contains(errb.String(), "too little ETH") || !strings.Contains(errb.String(), "nothing was sent") {
			t.Errorf("exit %d, stderr %q; want exit 1 saying the key has too little ETH and nothing was sent", code, errb.String())
		}
		if fileExists(book) {
			t.Error("the book was written")
		}
	})

	node.Fund(t, me, new(big.Int).Add(deploy.MinBalance(), big.NewInt(1e18)))
	start = time.Now()
	var out, errb bytes.Buffer
	code := Main(t.Context(), []string{"chain", "deploy", "--rpc", node.URL, "--key-file", keyFile, "--out", book}, nil, &out, &errb)
	if code != exitOK {
		t.Fatalf("ward chain deploy: exit %d\nstdout: %s\nstderr: %s\ngeth log: %s", code, out.String(), errb.String(), node.Log)
	}
	t.Logf("ward chain deploy took %v: %s", time.Since(start).Round(time.Millisecond), strings.TrimSpace(out.String()))

	text, err := os.ReadFile(book)
	if err != nil {
		t.Fatal(err)
	}
	var o addrbook.Overrides
	if err := toml.Unmarshal(text, &o); err != nil {
		t.Fatalf("decode %s: %v\n%s", book, err, text)
	}
	b, err := addrbook.Shipped().With(o)
	if err != nil {
		t.Fatalf("the written book does not apply over the shipped one: %v", err)
	}
	ch, ok := b.Chain(nodetest.ChainID)
	if !ok {
		t.Fatalf("the book has no chain %d:\n%s", nodetest.ChainID, text)
	}

	c, err := ethclient.DialContext(t.Context(), node.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	call := func(t *testing.T, art string, to tool.Address, method string, args ...any) []any {
		t.Helper()
		a, err := deploy.ABI(art)
		if err != nil {
			t.Fatal(err)
		}
		data, err := a.Pack(method, args...)
		if err != nil {
			t.Fatal(err)
		}
		at := common.Address(to)
		res, err := c.CallContract(t.Context(), ethereum.CallMsg{To: &at, Data: data}, nil)
		if err != nil {
			t.Fatalf("%s.%s at %s: %v", art, method, at, err)
		}
		vals, err := a.Unpack(method, res)
		if err != nil {
			t.Fatalf("%s.%s at %s: %v", art, method, at, err)
		}
		return vals
	}
	role := func(t *testing.T, r string) tool.Address {
		t.Helper()
		a, ok := ch.Contract(r)
		if !ok {
			t.Fatalf("the book has no %s", r)
		}
		return a
	}
	token := func(t *testing.T, sym string) addrbook.Token {
		t.Helper()
		ts := ch.TokensBySymbol(sym)
		if len(ts) != 1 {
			t.Fatalf("the book has %d tokens %s, want 1", len(ts), sym)
		}
		return ts[0]
	}

	t.Run("code at every address of the book", func(t *testing.T) {
		var addrs []tool.Address
		for _, k := range ch.Contracts {
			addrs = append(addrs, k.Address)
		}
		for _, tk := range ch.Tokens {
			addrs = append(addrs, tk.Address)
			if tk.USDFeed != (tool.Address{}) { // a vault's share token (sDAI, sUSDe) has no feed of its own
				addrs = append(addrs, tk.USDFeed)
			}
		}
		for _, r := range []string{addrbook.UniswapV2Factory, addrbook.UniswapV2Router02, addrbook.UniswapV3Factory,
			addrbook.UniswapV3SwapRouter, addrbook.UniswapV3QuoterV2, addrbook.UniswapV3PositionManager,
			addrbook.AaveV3Pool, addrbook.AaveV3DataProvider, addrbook.AaveV3Oracle, addrbook.AaveV3PoolAddressesProvider} {
			role(t, r)
		}
		for _, a := range addrs {
			code, err := c.CodeAt(t.Context(), common.Address(a), nil)
			if err != nil || len(code) == 0 {
				t.Errorf("no code at %s (%s): %v", a.Hex(), ch.RoleOf(a), err)
			}
		}
	})

	t.Run("the key holds the tokens", func(t *testing.T) {
		for sym, least := range map[string]int64{"WETH": 100, "USDC": 100_000, "DAI": 100_000, "sDAI": 50_000, "sUSDe": 50_000, "USDe": 100_000} {
			tk := token(t, sym)
			got := call(t, "ward:ERC20Permit", tk.Address, "balanceOf", me)[0].(*big.Int)
			want := new(big.Int).Mul(big.NewInt(least), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tk.Decimals)), nil))
			if got.Cmp(want) < 0 {
				t.Errorf("%s balance of %s = %s, want at least %s", sym, me, got, want)
			}
		}
		if w, ok := ch.WrappedNative(); !ok || w.Symbol != "WETH" {
			t.Errorf("wrapped native = %+v, %v; want WETH", w, ok)
		}
		if usdc := token(t, "USDC"); usdc.Decimals != 6 {
			t.Errorf("USDC has %d decimals, want 6", usdc.Decimals)
		}
	})

	t.Run("a V2 pair with reserves", func(t *testing.T) {
		pair := call(t, "published:UniswapV2Factory", role(t, addrbook.UniswapV2Factory), "getPair", token(t, "WETH").Address, token(t, "USDC").Address)[0].(common.Address)
		res := call(t, "published:UniswapV2Pair", tool.Address(pair), "getReserves")
		if res[0].(*big.Int).Sign() == 0 || res[1].(*big.Int).Sign() == 0 {
			t.Errorf("WETH/USDC pair %s reserves %v, want both non-zero", pair, res[:2])
		}
	})

	t.Run("V3 pools with liquidity at two fee tiers and a two-hop route", func(t *testing.T) {
		weth, usdc, dai := token(t, "WETH").Address, token(t, "USDC").Address, token(t, "DAI").Address
		for _, p := range []struct {
			a, b tool.Address
			fee  int64
		}{{weth, usdc, 500}, {weth, usdc, 3000}, {usdc, dai, 500}} {
			pool := call(t, "published:UniswapV3Factory", role(t, addrbook.UniswapV3Factory), "getPool", p.a, p.b, big.NewInt(p.fee))[0].(common.Address)
			if pool == (common.Address{}) {
				t.Errorf("no pool %s/%s at fee %d", p.a.Hex(), p.b.Hex(), p.fee)
				continue
			}
			if liq := call(t, "published:UniswapV3Pool", tool.Address(pool), "liquidity")[0].(*big.Int); liq.Sign() == 0 {
				t.Errorf("pool %s (fee %d) has no liquidity", pool, p.fee)
			}
		}
		fee500 := []byte{0, 0x01, 0xf4}
		path := bytes.Join([][]byte{weth[:], fee500, usdc[:], fee500, dai[:]}, nil)
		got := call(t, "published:QuoterV2", role(t, addrbook.UniswapV3QuoterV2), "quoteExactInput", path, big.NewInt(1e18))[0].(*big.Int)
		if lo, hi := new(big.Int).Mul(big.NewInt(2_900), big.NewInt(1e18)), new(big.Int).Mul(big.NewInt(3_000), big.NewInt(1e18)); got.Cmp(lo) < 0 || got.Cmp(hi) > 0 {
			t.Errorf("QuoterV2 WETH → USDC → DAI for 1 WETH = %s, want between 2,900 and 3,000 DAI", got)
		}
	})

	t.Run("feeds answer and Aave prices from them", func(t *testing.T) {
		for sym, want := range map[string]int64{"WETH": 3_000e8, "USDC": 1e8, "DAI": 1e8} {
			tk := token(t, sym)
			round := call(t, "ward:PriceFeed", tk.USDFeed, "latestRoundData")
			if got := round[1].(*big.Int); got.Int64() != want {
				t.Errorf("%s feed answers %s, want %d", sym, got, want)
			}
			if got := call(t, "published:AaveOracle", role(t, addrbook.AaveV3Oracle), "getAssetPrice", tk.Address)[0].(*big.Int); got.Int64() != want {
				t.Errorf("Aave oracle prices %s at %s, want %d", sym, got, want)
			}
		}
		data := call(t, "published:Pool", role(t, addrbook.AaveV3Pool), "getUserAccountData", me)
		if got := data[0].(*big.Int); got.Sign() == 0 {
			t.Error("the key has no collateral on Aave")
		}
	})
}

// TestChainDeployFlags covers the refusals that need no node.
func TestChainDeployFlags(t *testing.T) {
	dir := t.TempDir()
	keyFile, _ := writeKey(t, dir)
	loose := filepath.Join(dir, "loose.key")
	if err := os.WriteFile(loose, []byte(strings.Repeat("11", 32)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no rpc", []string{"--key-file", keyFile, "--out", "b.toml"}, exitUsage, "--rpc is required"},
		{"no key", []string{"--rpc", "http://127.0.0.1:1", "--out", "b.toml"}, exitUsage, "--key-file is required"},
		{"no out", []string{"--rpc", "http://127.0.0.1:1", "--key-file", keyFile}, exitUsage, "--out is required"},
		{"key readable by others", []string{"--rpc", "http://127.0.0.1:1", "--key-file", loose, "--out", filepath.Join(dir, "b.toml")}, exitFail, "chmod 600"},
		{"bad session key", []string{"--rpc", "http://127.0.0.1:1", "--key-file", keyFile, "--out", "b.toml", "--session-key", "0x12"}, exitUsage, "--session-key must be a non-zero 0x address"},
		{"out in a missing directory", []string{"--rpc", "http://127.0.0.1:1", "--key-file", keyFile, "--out", filepath.Join(dir, "no", "b.toml")}, exitFail, "--out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Main(t.Context(), append([]string{"chain", "deploy"}, tc.args...), nil, &out, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, errb.String(), tc.code, tc.want)
			}
		})
	}
}
