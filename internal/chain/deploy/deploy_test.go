package deploy

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/params"
	"github.com/pelletier/go-toml/v2"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/artifacts/published"
)

// The deployment tests run on go-ethereum's simulated backend; the real
// node (geth --dev) is driven by internal/cli's test of ward chain deploy.

const testKey = "8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"

// minedClient mines a block after every transaction, as a dev node does.
// failAt, if positive, makes that send (counting from 1) fail.
type minedClient struct {
	simulated.Client
	b      *simulated.Backend
	sends  int
	failAt int
}

func (m *minedClient) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	m.sends++
	if m.sends == m.failAt {
		return errors.New("node went away")
	}
	if err := m.Client.SendTransaction(ctx, tx); err != nil {
		return err
	}
	m.b.Commit()
	return nil
}

func newSim(t *testing.T, funded *big.Int) (*minedClient, *chain.LocalSigner) {
	t.Helper()
	signer, err := chain.NewLocalSigner(testKey)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { signer.Close() })
	b := simulated.NewBackend(types.GenesisAlloc{signer.Address(): {Balance: funded}}, simulated.WithBlockGasLimit(60_000_000))
	t.Cleanup(func() { b.Close() })
	return &minedClient{Client: b.Client(), b: b}, signer
}

func TestDeploySimulated(t *testing.T) {
	ctx := t.Context()
	c, signer := newSim(t, units(1_000, 18))
	var lines []string
	sessionKey := common.HexToAddress("0x000000000000000000000000000000000005e55a")
	r, err := Deploy(ctx, c, Config{Signer: signer, Progress: func(l string) { lines = append(lines, l) }, ReceiptPoll: 1, SessionKey: sessionKey})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d transactions, %d progress lines", r.Transactions, len(lines))
	me := signer.Address()

	t.Run("book parses back and applies over the shipped book", func(t *testing.T) {
		text, err := r.TOML()
		if err != nil {
			t.Fatal(err)
		}
		var o addrbook.Overrides
		if err := toml.Unmarshal(text, &o); err != nil {
			t.Fatalf("decode the written book: %v\n%s", err, text)
		}
		b, err := addrbook.Shipped().With(o)
		if err != nil {
			t.Fatal(err)
		}
		ch, ok := b.Chain(1337)
		if !ok {
			t.Fatal("chain 1337 missing from the book")
		}
		for _, role := range []string{
			addrbook.UniswapV2Factory, addrbook.UniswapV2Router02, addrbook.UniswapV3Factory, addrbook.UniswapV3SwapRouter,
			addrbook.UniswapV3SwapRouter02, addrbook.Permit2,
			addrbook.UniswapV3QuoterV2, addrbook.UniswapV3PositionManager, addrbook.AaveV3Pool, addrbook.AaveV3DataProvider,
			addrbook.AaveV3Oracle, addrbook.AaveV3PoolAddressesProvider,
		} {
			if _, ok := ch.Contract(role); !ok {
				t.Errorf("role %s missing", role)
			}
		}
		weth, ok := ch.WrappedNative()
		if !ok || weth.Symbol != "WETH" || weth.USDFeed.IsZero() {
			t.Errorf("wrapped native = %+v, %v; want WETH with a feed", weth, ok)
		}
		if usdc := ch.TokensBySymbol("USDC"); len(usdc) != 1 || usdc[0].Decimals != 6 {
			t.Errorf("USDC = %+v, want one token with 6 decimals", usdc)
		}
	})

	t.Run("named yield vaults", func(t *testing.T) {
		// The book names sDAI, USDe and sUSDe (the yield tools find the
		// vaults by symbol); the key holds shares of each vault.
		text, err := r.TOML()
		if err != nil {
			t.Fatal(err)
		}
		var o addrbook.Overrides
		if err := toml.Unmarshal(text, &o); err != nil {
			t.Fatal(err)
		}
		b, err := addrbook.Shipped().With(o)
		if err != nil {
			t.Fatal(err)
		}
		ch, _ := b.Chain(1337)
		for _, sym := range []string{"sDAI", "USDe", "sUSDe"} {
			if got := ch.TokensBySymbol(sym); len(got) != 1 || got[0].Decimals != 18 {
				t.Errorf("%s in the book: %+v, want one 18-decimal token", sym, got)
			}
			tok, _ := r.Token(sym)
			if sym == "USDe" {
				continue
			}
			if got := callBig(t, c, artERC20, tok.Address, "balanceOf", me); got.Sign() <= 0 {
				t.Errorf("the key holds %s %s, want shares", got, sym)
			}
		}
		susde, _ := r.Token("sUSDe")
		if got := callBig(t, c, artStakedUSDe, susde.Address, "cooldownDuration"); got.Int64() != int64(chain.DevUSDeCooldown/time.Second) {
			t.Errorf("sUSDe cooldownDuration = %s, want %d s", got, int64(chain.DevUSDeCooldown/time.Second))
		}
		sdai, _ := r.Token("sDAI")
		if got := callBig(t, c, artSavingsDai, sdai.Address, "convertToAssets", units(1, 18)); got.Cmp(units(1, 18)) < 0 {
			t.Errorf("1 sDAI converts to %s DAI units, want at least 1 DAI", got)
		}
	})

	t.Run("key holds the tokens", func(t *testing.T) {
		for sym, want := range map[string]*big.Int{"WETH": units(wethKept, 18), "USDC": units(1, 6), "DAI": units(1, 18)} {
			tok, _ := r.Token(sym)
			got := callBig(t, c, artERC20, tok.Address, "balanceOf", me)
			if got.Cmp(want) < 0 {
				t.Errorf("%s balance %s, want at least %s", sym, got, want)
			}
		}
	})

	t.Run("routers quote over the pools", func(t *testing.T) {
		weth, usdc, dai := r.tok("WETH"), r.tok("USDC"), r.tok("DAI")
		v2, _ := r.Contract(addrbook.UniswapV2Router02)
		out := call(t, c, artV2Router, v2, "getAmountsOut", units(1, 18), []common.Address{weth, usdc})
		if got := out[0].([]*big.Int)[1]; !near(got, units(2_961, 6), 1) {
			t.Errorf("V2 quote for 1 WETH = %s USDC units, want about 2,961 USDC", got)
		}
		quoter, _ := r.Contract(addrbook.UniswapV3QuoterV2)
		// WETH -0.05 %-> USDC -0.05 %-> DAI: path = token, fee (3 bytes), token, fee, token.
		path := append(append(append(append(weth.Bytes(), 0, 0x01, 0xf4), usdc.Bytes()...), 0, 0x01, 0xf4), dai.Bytes()...)
		out = call(t, c, artV3Quoter, quoter, "quoteExactInput", path, units(1, 18))
		if got := out[0].(*big.Int); !near(got, units(2_967, 18), 1) {
			t.Errorf("V3 two-hop quote for 1 WETH = %s DAI units, want about 2,967 DAI", got)
		}
	})

	t.Run("SwapRouter02 knows both factories", func(t *testing.T) {
		r02, _ := r.Contract(addrbook.UniswapV3SwapRouter02)
		v2, _ := r.Contract(addrbook.UniswapV2Factory)
		v3, _ := r.Contract(addrbook.UniswapV3Factory)
		pm, _ := r.Contract(addrbook.UniswapV3PositionManager)
		for method, want := range map[string]common.Address{"factoryV2": v2, "factory": v3, "positionManager": pm, "WETH9": r.tok("WETH")} {
			if got := call(t, c, artV3Router02, r02, method)[0].(common.Address); got != want {
				t.Errorf("SwapRouter02.%s() = %s, want %s", method, got, want)
			}
		}
	})

	t.Run("Permit2 is the published code, with this chain's domain", func(t *testing.T) {
		p2, _ := r.Contract(addrbook.Permit2)
		a, err := published.Load("Permit2")
		if err != nil {
			t.Fatal(err)
		}
		want, _ := a.Runtime()
		if got, err := c.CodeAt(t.Context(), p2, nil); err != nil || !bytes.Equal(got, want) {
			t.Errorf("code at Permit2 %s: %d bytes (%v), want the published %d", p2, len(got), err, len(want))
		}
		// Permit2's EIP712: name "Permit2", no version, this chain and address.
		typeHash := crypto.Keccak256([]byte("EIP712Domain(string name,uint256 chainId,address verifyingContract)"))
		dom := crypto.Keccak256Hash(typeHash, crypto.Keccak256([]byte("Permit2")),
			common.LeftPadBytes(big.NewInt(1337).Bytes(), 32), common.LeftPadBytes(p2.Bytes(), 32))
		if dom != permit2Domain(big.NewInt(1337), p2) {
			t.Errorf("permit2Domain = %x, want %x", permit2Domain(big.NewInt(1337), p2), dom)
		}
		if got := call(t, c, artPermit2, p2, "DOMAIN_SEPARATOR")[0].([32]byte); got != dom {
			t.Errorf("DOMAIN_SEPARATOR = %x, want %x", got, dom)
		}
	})

	t.Run("erc4337 account with the session key", func(t *testing.T) {
		if ep, ok := r.Contract(addrbook.ERC4337EntryPoint); !ok || ep != r.EntryPoint || r.Account == (common.Address{}) {
			t.Fatalf("entry point role %s %v, result %s / %s", ep.Hex(), ok, r.EntryPoint.Hex(), r.Account.Hex())
		}
		if got := call(t, c, artSessionAccount, r.Account, "entryPoint")[0].(common.Address); got != r.EntryPoint {
			t.Errorf("account's entry point %s, want %s", got.Hex(), r.EntryPoint.Hex())
		}
		if got := call(t, c, artSessionAccount, r.Account, "owner")[0].(common.Address); got != me {
			t.Errorf("account's owner %s, want the deploying key %s", got.Hex(), me.Hex())
		}
		if v := call(t, c, artSessionAccount, r.Account, "sessionKey", sessionKey); !v[0].(bool) {
			t.Error("the session key was not granted")
		}
		if got := callBig(t, c, artEntryPoint, r.EntryPoint, "balanceOf", r.Account); got.Cmp(units(accountDepositETH, 18)) != 0 {
			t.Errorf("account deposit %s, want %d ETH", got, accountDepositETH)
		}
		if got := callBig(t, c, artERC20, r.tok("USDC"), "balanceOf", r.Account); got.Cmp(units(accountUSDC, 6)) != 0 {
			t.Errorf("account USDC %s, want %d", got, accountUSDC)
		}
		if bal, err := c.BalanceAt(ctx, sessionKey, nil); err != nil || bal.Cmp(units(sessionKeyETH, 18)) != 0 {
			t.Errorf("session key ETH %s %v, want %d ETH", bal, err, sessionKeyETH)
		}
		text, _ := r.TOML()
		if !strings.Contains(string(text), `account_address = "`+r.Account.Hex()+`"`) {
			t.Errorf("the book's comment does not give the account's config:\n%.600s", text)
		}
	})

	t.Run("aave prices the reserves", func(t *testing.T) {
		oracle, _ := r.Contract(addrbook.AaveV3Oracle)
		if got := callBig(t, c, artAaveOracle, oracle, "getAssetPrice", r.tok("WETH")); got.Cmp(big.NewInt(priceETH)) != 0 {
			t.Errorf("oracle WETH price %s, want %d", got, int64(priceETH))
		}
		for sym, a := range r.ATokens {
			if got := callBig(t, c, artERC20, a, "balanceOf", me); got.Sign() == 0 {
				t.Errorf("key holds no a%s", sym)
			}
		}
	})
}

// TestDeployPermit2OnChain31337 deploys on a chain with the id Permit2's
// published code caches (Anvil's and Hardhat's default): the code returns
// a domain separator for another address there, so the deployment leaves
// Permit2 out of the book and says so, and everything else is deployed.
func TestDeployPermit2OnChain31337(t *testing.T) {
	signer, err := chain.NewLocalSigner(testKey)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { signer.Close() })
	cfg := *params.AllDevChainProtocolChanges
	cfg.ChainID = big.NewInt(31337)
	b := simulated.NewBackend(types.GenesisAlloc{signer.Address(): {Balance: units(1_000, 18)}}, simulated.WithBlockGasLimit(60_000_000),
		func(_ *node.Config, ec *ethconfig.Config) { ec.Genesis.Config = &cfg })
	t.Cleanup(func() { b.Close() })
	var lines []string
	r, err := Deploy(t.Context(), &minedClient{Client: b.Client(), b: b}, Config{Signer: signer, ReceiptPoll: 1, Progress: func(l string) { lines = append(lines, l) }})
	if err != nil {
		t.Fatal(err)
	}
	if at, ok := r.Contract(addrbook.Permit2); ok {
		t.Errorf("Permit2 %s in the book on chain 31337", at)
	}
	if _, ok := r.Contract(addrbook.UniswapV3SwapRouter02); !ok {
		t.Error("the rest of the deployment is missing")
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "Permit2") && strings.Contains(l, "left out") }) {
		t.Errorf("no progress line says Permit2 was left out: %q", lines)
	}
}

func TestDeployRefuses(t *testing.T) {
	t.Run("a real chain", func(t *testing.T) {
		c, signer := newSim(t, units(1_000, 18))
		_, err := Deploy(t.Context(), chainIDClient{c, 8453}, Config{Signer: signer})
		if !errors.Is(err, ErrRealChain) || !strings.Contains(err.Error(), "8453") {
			t.Errorf("err = %v, want ErrRealChain naming 8453", err)
		}
	})
	t.Run("an unfunded key", func(t *testing.T) {
		c, signer := newSim(t, units(1, 18))
		_, err := Deploy(t.Context(), c, Config{Signer: signer})
		if !errors.Is(err, ErrUnfunded) {
			t.Errorf("err = %v, want ErrUnfunded", err)
		}
		if n, _ := c.NonceAt(t.Context(), signer.Address(), nil); n != 0 {
			t.Errorf("sent %d transactions before refusing", n)
		}
	})
	t.Run("a node that fails midway", func(t *testing.T) {
		c, signer := newSim(t, units(1_000, 18))
		c.failAt = 12
		_, err := Deploy(t.Context(), c, Config{Signer: signer, ReceiptPoll: 1})
		var pe *PartialError
		if !errors.As(err, &pe) {
			t.Fatalf("err = %v, want a *PartialError", err)
		}
		if pe.Step == "" || len(pe.Done) == 0 || !strings.Contains(err.Error(), "node went away") {
			t.Errorf("partial error %q: step %q, %d done; want the step, what was done and the cause", err, pe.Step, len(pe.Done))
		}
		for _, d := range pe.Done {
			if code, _ := c.CodeAt(t.Context(), d.Address, nil); len(code) == 0 {
				t.Errorf("%s listed as deployed at %s, which has no code", d.Name, d.Address)
			}
		}
	})
}

// chainIDClient reports a chain id of its choosing.
type chainIDClient struct {
	Backend
	id int64
}

func (c chainIDClient) ChainID(context.Context) (*big.Int, error) { return big.NewInt(c.id), nil }

func call(t *testing.T, c Backend, art string, to common.Address, method string, args ...any) []any {
	t.Helper()
	a, err := ABI(art)
	if err != nil {
		t.Fatal(err)
	}
	data, err := a.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.CallContract(t.Context(), ethereum.CallMsg{To: &to, Data: data}, nil)
	if err != nil {
		t.Fatalf("%s.%s: %v", art, method, err)
	}
	vals, err := a.Unpack(method, out)
	if err != nil {
		t.Fatalf("%s.%s: %v", art, method, err)
	}
	return vals
}

func callBig(t *testing.T, c Backend, art string, to common.Address, method string, args ...any) *big.Int {
	t.Helper()
	return call(t, c, art, to, method, args...)[0].(*big.Int)
}

// near reports whether got is within pct percent of want.
func near(got, want *big.Int, pct int64) bool {
	d := new(big.Int).Abs(new(big.Int).Sub(got, want))
	return d.Mul(d, big.NewInt(100)).Cmp(new(big.Int).Mul(want, big.NewInt(pct))) <= 0
}
