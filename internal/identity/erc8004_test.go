package identity

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/identity/identitytest"
)

var _ CallReader = (*chain.Provider)(nil)

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
	c := identitytest.StartChain(t)
	reg := c.Deploy(identitytest.RegistryRuntime)
	agent := c.FundedKey()
	c.Register(reg, agent)
	stranger := c.FundedKey()
	cr := &identitytest.CountingReader{Reader: c.Provider()}
	g, clk := newRegistry(t, cr, reg, ERC8004Config{})

	t.Run("registered agent is known", func(t *testing.T) {
		known(t, g, identitytest.Addr(agent), true)
	})
	t.Run("stranger is not known", func(t *testing.T) {
		known(t, g, identitytest.Addr(stranger), false)
	})
	t.Run("malformed address is not known and costs no call", func(t *testing.T) {
		before := cr.Calls.Load()
		for _, a := range []string{"", "0x1234", "not an address at all, forty-two bytes.."} {
			known(t, g, a, false)
		}
		if got := cr.Calls.Load(); got != before {
			t.Errorf("%d calls for malformed addresses, want none", got-before)
		}
	})
	t.Run("cached positive makes no call", func(t *testing.T) {
		before := cr.Calls.Load()
		clk.Advance(DefaultPositiveTTL - time.Second)
		known(t, g, identitytest.Addr(agent), true)
		if got := cr.Calls.Load(); got != before {
			t.Errorf("%d calls for a cached agent, want none", got-before)
		}
		if got := cr.Codes.Load(); got != 1 {
			t.Errorf("registry code read %d times, want once", got)
		}
		clk.Advance(time.Second)
		known(t, g, identitytest.Addr(agent), true)
		if got := cr.Calls.Load(); got != before+1 {
			t.Errorf("%d calls after the positive TTL, want 1", got-before)
		}
	})
	t.Run("stranger registered later is known after the negative TTL", func(t *testing.T) {
		late := c.FundedKey()
		known(t, g, identitytest.Addr(late), false)
		c.Register(reg, late)
		before := cr.Calls.Load()
		clk.Advance(DefaultNegativeTTL - time.Second)
		known(t, g, identitytest.Addr(late), false) // still cached
		if got := cr.Calls.Load(); got != before {
			t.Errorf("%d calls within the negative TTL, want none", got-before)
		}
		clk.Advance(time.Second)
		known(t, g, identitytest.Addr(late), true)
	})
	t.Run("rpc failure is an error, not an answer", func(t *testing.T) {
		cr.Fail.Store(true)
		defer cr.Fail.Store(false)
		other := c.FundedKey()
		got, err := g.Known(t.Context(), identitytest.Addr(other))
		if !errors.Is(err, identitytest.ErrRPC) || got {
			t.Fatalf("Known = %v, %v; want false and the rpc error", got, err)
		}
		// A cached answer is still served while the chain cannot answer.
		known(t, g, identitytest.Addr(agent), true)
		cr.Fail.Store(false)
		known(t, g, identitytest.Addr(other), false) // the error was not cached
	})
	t.Run("rpc failure before the code check is an error", func(t *testing.T) {
		fr := &identitytest.CountingReader{Reader: c.Provider()}
		fr.Fail.Store(true)
		g, _ := newRegistry(t, fr, reg, ERC8004Config{})
		if got, err := g.Known(t.Context(), identitytest.Addr(agent)); !errors.Is(err, identitytest.ErrRPC) || got {
			t.Fatalf("Known = %v, %v; want false and the rpc error", got, err)
		}
	})
	t.Run("revert is an error", func(t *testing.T) {
		g, _ := newRegistry(t, c.Provider(), c.Deploy(identitytest.RevertRuntime), ERC8004Config{})
		if got, err := g.Known(t.Context(), identitytest.Addr(agent)); !errors.Is(err, chain.ErrReverted) || got {
			t.Fatalf("Known = %v, %v; want false and a revert", got, err)
		}
	})
	t.Run("malformed reply is an error", func(t *testing.T) {
		g, _ := newRegistry(t, c.Provider(), c.Deploy(identitytest.ShortRuntime), ERC8004Config{})
		if got, err := g.Known(t.Context(), identitytest.Addr(agent)); err == nil || got {
			t.Fatalf("Known = %v, %v; want false and an error", got, err)
		}
	})
	t.Run("no code at the registry address is an error", func(t *testing.T) {
		empty := crypto.PubkeyToAddress(c.FundedKey().PublicKey) // an account, not a contract
		g, _ := newRegistry(t, c.Provider(), empty, ERC8004Config{})
		if err := g.Verify(t.Context()); !errors.Is(err, ErrNoCode) {
			t.Errorf("Verify = %v, want ErrNoCode", err)
		}
		if got, err := g.Known(t.Context(), identitytest.Addr(agent)); !errors.Is(err, ErrNoCode) || got {
			t.Fatalf("Known = %v, %v; want false and ErrNoCode", got, err)
		}
	})
}

func TestNewERC8004RegistryRefuses(t *testing.T) {
	r := &identitytest.CountingReader{}
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
