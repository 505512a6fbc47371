package identity

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"errors"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"

	"github.com/wardhq/ward/internal/chain"
)

// registryRuntime is a minimal identity registry: register() records the
// caller as holding an identity token, balanceOf(address) returns the
// number recorded for the address (0 or 1), and any other call reverts.
// Storage slot n holds the balance of address n.
//
//	00  60 00        PUSH1 0
//	02  35           CALLDATALOAD
//	03  60 e0        PUSH1 0xe0
//	05  1c           SHR               the selector
//	06  80           DUP1
//	07  63 70a08231  PUSH4 balanceOf(address)
//	0c  14           EQ
//	0d  60 1d        PUSH1 balance
//	0f  57           JUMPI
//	10  63 1aa3a008  PUSH4 register()
//	15  14           EQ
//	16  60 2a        PUSH1 register
//	18  57           JUMPI
//	19  60 00        PUSH1 0
//	1b  80           DUP1
//	1c  fd           REVERT
//	1d  5b           balance: JUMPDEST
//	1e  60 04        PUSH1 4
//	20  35           CALLDATALOAD      the address argument
//	21  54           SLOAD
//	22  60 00        PUSH1 0
//	24  52           MSTORE
//	25  60 20        PUSH1 32
//	27  60 00        PUSH1 0
//	29  f3           RETURN            one 32-byte word
//	2a  5b           register: JUMPDEST
//	2b  60 01        PUSH1 1
//	2d  33           CALLER
//	2e  55           SSTORE            storage[caller] = 1
//	2f  00           STOP
var registryRuntime = mustHex("6000" + "35" + "60e0" + "1c" + "80" + "6370a08231" + "14" + "601d" + "57" +
	"631aa3a008" + "14" + "602a" + "57" + "6000" + "80" + "fd" +
	"5b" + "6004" + "35" + "54" + "6000" + "52" + "6020" + "6000" + "f3" +
	"5b" + "6001" + "33" + "55" + "00")

// revertRuntime reverts every call: PUSH1 0, DUP1, REVERT.
var revertRuntime = mustHex("600080fd")

// shortRuntime answers every call with one byte: PUSH1 1, PUSH1 0, RETURN.
var shortRuntime = mustHex("60016000f3")

// registerData is the calldata of register().
var registerData = mustHex("1aa3a008")

// initCode wraps runtime in creation code that returns it:
//
//	00  60 nn  PUSH1 len(runtime)
//	02  80     DUP1
//	03  60 0b  PUSH1 11             the runtime's offset in this code
//	05  60 00  PUSH1 0
//	07  39     CODECOPY             memory[0:len] = code[11:11+len]
//	08  60 00  PUSH1 0
//	0a  f3     RETURN               memory[0:len]
func initCode(runtime []byte) []byte {
	if len(runtime) > 0xff {
		panic("runtime too long for PUSH1")
	}
	return append([]byte{0x60, byte(len(runtime)), 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3}, runtime...)
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// testChain is a dev chain, closed when the test ends, with a funded
// deployer key.
type testChain struct {
	t        testing.TB
	d        *chain.DevChain
	deployer *ecdsa.PrivateKey
}

func startChain(t testing.TB) *testChain {
	t.Helper()
	d, err := chain.StartDev(t.Context(), chain.DevConfig{Seed: "ward identity tests", AutoCommit: true})
	if err != nil {
		t.Fatalf("start dev chain: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("close dev chain: %v", err)
		}
	})
	c := &testChain{t: t, d: d}
	c.deployer = c.fundedKey()
	return c
}

// fundedKey returns a new key holding 1 ETH.
func (c *testChain) fundedKey() *ecdsa.PrivateKey {
	c.t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := c.d.Fund(c.t.Context(), crypto.PubkeyToAddress(k.PublicKey), common.Address{}, big.NewInt(params.Ether)); err != nil {
		c.t.Fatalf("fund: %v", err)
	}
	return k
}

// send sends a transaction from k and waits for its successful receipt.
func (c *testChain) send(k *ecdsa.PrivateKey, to *common.Address, data []byte) *types.Receipt {
	c.t.Helper()
	ctx := c.t.Context()
	s, err := chain.NewLocalSigner(hex.EncodeToString(crypto.FromECDSA(k)))
	if err != nil {
		c.t.Fatal(err)
	}
	defer s.Close()
	p := c.d.Provider()
	nonce, err := p.Nonce(ctx, s.Address())
	if err != nil {
		c.t.Fatal(err)
	}
	head, err := p.HeaderLatest(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	id := big.NewInt(chain.DevChainID)
	tip := big.NewInt(params.GWei)
	tx, err := s.SignTx(ctx, id, types.NewTx(&types.DynamicFeeTx{ChainID: id, Nonce: nonce, GasTipCap: tip,
		GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip), Gas: 200_000, To: to, Data: data}))
	if err != nil {
		c.t.Fatal(err)
	}
	c.retry("send", func(ctx context.Context) error { return p.SendTransaction(ctx, tx) })
	var r *types.Receipt
	c.retry("receipt", func(ctx context.Context) (err error) {
		r, err = p.WaitReceipt(ctx, tx.Hash())
		return err
	})
	if r.Status != types.ReceiptStatusSuccessful {
		c.t.Fatalf("transaction %s failed", tx.Hash())
	}
	return r
}

// retry retries f for a few seconds. The dev node lags behind its own
// head for a moment after a block: its transaction pool may not yet see a
// funding transfer ("insufficient funds"), and it refuses receipt queries
// while its transaction indexer starts ("indexing is in progress").
func (c *testChain) retry(op string, f func(ctx context.Context) error) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		err := f(ctx)
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			c.t.Fatalf("%s: %v", op, err)
		case <-tick.C:
		}
	}
}

// deploy creates a contract with runtime code runtime.
func (c *testChain) deploy(runtime []byte) common.Address {
	c.t.Helper()
	r := c.send(c.deployer, nil, initCode(runtime))
	code, err := c.d.Provider().Code(c.t.Context(), r.ContractAddress)
	if err != nil || !bytes.Equal(code, runtime) {
		c.t.Fatalf("code at %s = %x (%v), want %x", r.ContractAddress, code, err, runtime)
	}
	return r.ContractAddress
}

// register registers a new funded agent key in the registry at reg.
func (c *testChain) register(reg common.Address, k *ecdsa.PrivateKey) {
	c.t.Helper()
	c.send(k, &reg, registerData)
}

func addr(k *ecdsa.PrivateKey) string { return crypto.PubkeyToAddress(k.PublicKey).Hex() }

var _ CallReader = (*chain.Provider)(nil)

// countingReader counts the calls made through it and fails them all
// while fail is set.
type countingReader struct {
	CallReader
	calls atomic.Int32
	codes atomic.Int32
	fail  atomic.Bool
}

var errRPC = errors.New("rpc down")

func (c *countingReader) Call(ctx context.Context, msg ethereum.CallMsg) ([]byte, error) {
	c.calls.Add(1)
	if c.fail.Load() {
		return nil, errRPC
	}
	return c.CallReader.Call(ctx, msg)
}

func (c *countingReader) Code(ctx context.Context, a common.Address) ([]byte, error) {
	c.codes.Add(1)
	if c.fail.Load() {
		return nil, errRPC
	}
	return c.CallReader.Code(ctx, a)
}

// clock is a settable time for the registry's cache.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func newRegistry(t testing.TB, r CallReader, reg common.Address, cfg ERC8004Config) (*ERC8004Registry, *clock) {
	t.Helper()
	g, err := NewERC8004Registry(r, reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{now: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	g.now = clk.Now
	return g, clk
}

func known(t *testing.T, g interface {
	Known(context.Context, string) (bool, error)
}, address string, want bool) {
	t.Helper()
	got, err := g.Known(t.Context(), address)
	if err != nil {
		t.Fatalf("Known(%s): %v", address, err)
	}
	if got != want {
		t.Fatalf("Known(%s) = %v, want %v", address, got, want)
	}
}

func TestERC8004Registry(t *testing.T) {
	c := startChain(t)
	reg := c.deploy(registryRuntime)
	agent := c.fundedKey()
	c.register(reg, agent)
	stranger := c.fundedKey()
	cr := &countingReader{CallReader: c.d.Provider()}
	g, clk := newRegistry(t, cr, reg, ERC8004Config{})

	t.Run("registered agent is known", func(t *testing.T) {
		known(t, g, addr(agent), true)
	})
	t.Run("stranger is not known", func(t *testing.T) {
		known(t, g, addr(stranger), false)
	})
	t.Run("malformed address is not known and costs no call", func(t *testing.T) {
		before := cr.calls.Load()
		for _, a := range []string{"", "0x1234", "not an address at all, forty-two bytes.."} {
			known(t, g, a, false)
		}
		if got := cr.calls.Load(); got != before {
			t.Errorf("%d calls for malformed addresses, want none", got-before)
		}
	})
	t.Run("cached positive makes no call", func(t *testing.T) {
		before := cr.calls.Load()
		clk.Advance(DefaultPositiveTTL - time.Second)
		known(t, g, addr(agent), true)
		if got := cr.calls.Load(); got != before {
			t.Errorf("%d calls for a cached agent, want none", got-before)
		}
		if got := cr.codes.Load(); got != 1 {
			t.Errorf("registry code read %d times, want once", got)
		}
		clk.Advance(time.Second)
		known(t, g, addr(agent), true)
		if got := cr.calls.Load(); got != before+1 {
			t.Errorf("%d calls after the positive TTL, want 1", got-before)
		}
	})
	t.Run("stranger registered later is known after the negative TTL", func(t *testing.T) {
		late := c.fundedKey()
		known(t, g, addr(late), false)
		c.register(reg, late)
		before := cr.calls.Load()
		clk.Advance(DefaultNegativeTTL - time.Second)
		known(t, g, addr(late), false) // still cached
		if got := cr.calls.Load(); got != before {
			t.Errorf("%d calls within the negative TTL, want none", got-before)
		}
		clk.Advance(time.Second)
		known(t, g, addr(late), true)
	})
	t.Run("rpc failure is an error, not an answer", func(t *testing.T) {
		cr.fail.Store(true)
		defer cr.fail.Store(false)
		other := c.fundedKey()
		got, err := g.Known(t.Context(), addr(other))
		if !errors.Is(err, errRPC) || got {
			t.Fatalf("Known = %v, %v; want false and the rpc error", got, err)
		}
		// A cached answer is still served while the chain cannot answer.
		known(t, g, addr(agent), true)
		cr.fail.Store(false)
		known(t, g, addr(other), false) // the error was not cached
	})
	t.Run("rpc failure before the code check is an error", func(t *testing.T) {
		fr := &countingReader{CallReader: c.d.Provider()}
		fr.fail.Store(true)
		g, _ := newRegistry(t, fr, reg, ERC8004Config{})
		if got, err := g.Known(t.Context(), addr(agent)); !errors.Is(err, errRPC) || got {
			t.Fatalf("Known = %v, %v; want false and the rpc error", got, err)
		}
	})
	t.Run("revert is an error", func(t *testing.T) {
		g, _ := newRegistry(t, c.d.Provider(), c.deploy(revertRuntime), ERC8004Config{})
		if got, err := g.Known(t.Context(), addr(agent)); !errors.Is(err, chain.ErrReverted) || got {
			t.Fatalf("Known = %v, %v; want false and a revert", got, err)
		}
	})
	t.Run("malformed reply is an error", func(t *testing.T) {
		g, _ := newRegistry(t, c.d.Provider(), c.deploy(shortRuntime), ERC8004Config{})
		if got, err := g.Known(t.Context(), addr(agent)); err == nil || got {
			t.Fatalf("Known = %v, %v; want false and an error", got, err)
		}
	})
	t.Run("no code at the registry address is an error", func(t *testing.T) {
		empty := crypto.PubkeyToAddress(c.fundedKey().PublicKey) // an account, not a contract
		g, _ := newRegistry(t, c.d.Provider(), empty, ERC8004Config{})
		if err := g.Verify(t.Context()); !errors.Is(err, ErrNoCode) {
			t.Errorf("Verify = %v, want ErrNoCode", err)
		}
		if got, err := g.Known(t.Context(), addr(agent)); !errors.Is(err, ErrNoCode) || got {
			t.Fatalf("Known = %v, %v; want false and ErrNoCode", got, err)
		}
	})
}

func TestNewERC8004RegistryRefuses(t *testing.T) {
	r := &countingReader{}
	reg := common.HexToAddress("0x00000000000000000000000000000000000080a4")
	for _, tc := range []struct {
		name string
		r    CallReader
		reg  common.Address
		cfg  ERC8004Config
	}{
		{"no reader", nil, reg, ERC8004Config{}},
		{"zero address", r, common.Address{}, ERC8004Config{}},
		{"negative ttl", r, reg, ERC8004Config{NegativeTTL: -time.Second}},
		{"negative cache size", r, reg, ERC8004Config{CacheSize: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if g, err := NewERC8004Registry(tc.r, tc.reg, tc.cfg); err == nil {
				t.Errorf("NewERC8004Registry = %v, want an error", g)
			}
		})
	}
}

// fakeChain answers balanceOf from a map, for the cache's bounds.
type fakeChain struct {
	mu       sync.Mutex
	balances map[common.Address]int64
	calls    int
}

func (f *fakeChain) Call(_ context.Context, msg ethereum.CallMsg) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if len(msg.Data) != 36 || !bytes.Equal(msg.Data[:4], balanceOf[:]) {
		return nil, errors.New("not balanceOf(address)")
	}
	out := make([]byte, 32)
	big.NewInt(f.balances[common.BytesToAddress(msg.Data[4:])]).FillBytes(out)
	return out, nil
}

func (f *fakeChain) Code(context.Context, common.Address) ([]byte, error) { return []byte{0x00}, nil }

func TestERC8004RegistryCacheBound(t *testing.T) {
	a := common.HexToAddress("0x1000000000000000000000000000000000000001")
	b := common.HexToAddress("0x2000000000000000000000000000000000000002")
	x := common.HexToAddress("0x3000000000000000000000000000000000000003")
	f := &fakeChain{balances: map[common.Address]int64{a: 1, b: 2, x: 1}}
	g, _ := newRegistry(t, f, common.HexToAddress("0x00000000000000000000000000000000000080a4"), ERC8004Config{CacheSize: 2})
	for _, step := range []struct {
		addr  common.Address
		calls int
	}{
		{a, 1}, {b, 2}, {a, 2}, // a and b cached; a most recently used
		{x, 3}, // evicts b
		{a, 3}, {x, 3},
		{b, 4}, // b was evicted
	} {
		known(t, g, step.addr.Hex(), true)
		if f.calls != step.calls {
			t.Fatalf("after %s: %d calls, want %d", step.addr.Hex(), f.calls, step.calls)
		}
	}
	if n := g.cache.order.Len(); n != 2 {
		t.Errorf("cache holds %d answers, want 2", n)
	}
}

// fixed is a registry with a fixed answer.
type fixed struct {
	known bool
	err   error
	calls *int
}

func (f fixed) Known(context.Context, string) (bool, error) {
	if f.calls != nil {
		*f.calls++
	}
	return f.known, f.err
}

func TestEither(t *testing.T) {
	const a = "0x1000000000000000000000000000000000000001"
	down := errors.New("chain down")
	for _, tc := range []struct {
		name         string
		local, chain fixed
		want         bool
		wantErr      error
		chainCalls   int
	}{
		{"local identity needs no call", fixed{known: true}, fixed{err: down}, true, nil, 0},
		{"stranger registered on chain", fixed{}, fixed{known: true}, true, nil, 1},
		{"stranger nowhere", fixed{}, fixed{}, false, nil, 1},
		{"chain cannot answer for a stranger", fixed{}, fixed{err: down}, false, down, 1},
		{"local failure, chain knows", fixed{err: down}, fixed{known: true}, true, nil, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			tc.chain.calls = &calls
			got, err := Either(tc.local, tc.chain).Known(t.Context(), a)
			if got != tc.want || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Errorf("Known = %v, %v; want %v, %v", got, err, tc.want, tc.wantErr)
			}
			if calls != tc.chainCalls {
				t.Errorf("on-chain registry asked %d times, want %d", calls, tc.chainCalls)
			}
		})
	}
}

// Many goroutines asking about a few addresses through a small cache
// always get the chain's answer (run with -race).
func TestERC8004RegistryConcurrent(t *testing.T) {
	addrs := make([]common.Address, 8)
	f := &fakeChain{balances: map[common.Address]int64{}}
	for i := range addrs {
		addrs[i] = common.BigToAddress(big.NewInt(int64(0x1000 + i)))
		f.balances[addrs[i]] = int64(i % 2)
	}
	g, clk := newRegistry(t, f, common.HexToAddress("0x00000000000000000000000000000000000080a4"), ERC8004Config{CacheSize: 3})
	var wg sync.WaitGroup
	for w := range 16 {
		wg.Go(func() {
			for i := range 200 {
				a := addrs[(w+i)%len(addrs)]
				if i%50 == 0 {
					clk.Advance(DefaultNegativeTTL)
				}
				got, err := g.Known(t.Context(), a.Hex())
				if err != nil || got != (f.balances[a] > 0) {
					t.Errorf("Known(%s) = %v, %v; want %v", a.Hex(), got, err, f.balances[a] > 0)
					return
				}
			}
		})
	}
	wg.Wait()
	if n := g.cache.order.Len(); n > 3 || n != len(g.cache.byKey) {
		t.Errorf("cache holds %d answers (%d keys), want at most 3", n, len(g.cache.byKey))
	}
}

// replyChain answers every call with a fixed reply.
type replyChain []byte

func (r replyChain) Call(context.Context, ethereum.CallMsg) ([]byte, error) { return r, nil }
func (r replyChain) Code(context.Context, common.Address) ([]byte, error)   { return []byte{0x00}, nil }

// FuzzKnown feeds arbitrary addresses and registry replies: a malformed
// address is unknown without a call, a reply that is not one 32-byte word
// is an error, and only a non-zero word is "known".
func FuzzKnown(f *testing.F) {
	word := func(n int64) []byte { return big.NewInt(n).FillBytes(make([]byte, 32)) }
	for _, s := range []struct {
		addr  string
		reply []byte
	}{
		{"0x1000000000000000000000000000000000000001", word(1)},
		{"0x1000000000000000000000000000000000000001", word(0)},
		{"0x1000000000000000000000000000000000000001", nil},
		{"0x1000000000000000000000000000000000000001", append(word(1), 0)},
		{"0X1000000000000000000000000000000000000001", word(7)},
		{"0x100000000000000000000000000000000000000g", word(1)},
		{"", word(1)},
	} {
		f.Add(s.addr, s.reply)
	}
	f.Fuzz(func(t *testing.T, address string, reply []byte) {
		g, err := NewERC8004Registry(replyChain(reply), common.HexToAddress("0x00000000000000000000000000000000000080a4"), ERC8004Config{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Known(t.Context(), address)
		_, wellFormed := parseAddress(address)
		switch {
		case !wellFormed:
			if got || err != nil {
				t.Fatalf("malformed %q: Known = %v, %v; want false, nil", address, got, err)
			}
		case len(reply) != 32:
			if got || err == nil {
				t.Fatalf("%d-byte reply: Known = %v, %v; want false and an error", len(reply), got, err)
			}
		default:
			if want := new(big.Int).SetBytes(reply).Sign() > 0; got != want || err != nil {
				t.Fatalf("reply %x: Known = %v, %v; want %v, nil", reply, got, err, want)
			}
		}
	})
}
