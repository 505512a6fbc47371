package chain

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/tool"
)

// abiArgs returns unnamed arguments of the given types.
func abiArgs(types ...string) abi.Arguments {
	var out abi.Arguments
	for _, ty := range types {
		t, err := abi.NewType(ty, "", nil)
		if err != nil {
			panic(err)
		}
		out = append(out, abi.Argument{Type: t})
	}
	return out
}

// startDev starts a dev chain with auto-commit and the contracts
// deployed; it is closed when the test ends.
func startDev(t testing.TB) (*DevChain, *DevContracts) {
	t.Helper()
	d, err := StartDev(t.Context(), DevConfig{Seed: "ward chain tests", AutoCommit: true})
	if err != nil {
		t.Fatalf("start dev chain: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Errorf("close dev chain: %v", err)
		}
	})
	c, err := d.Deploy(t.Context())
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	return d, c
}

// capFor mints a capability for tool and args, as the gate would.
func capFor(toolName string, args [32]byte) *capability.Capability {
	return mint.Capability(mint.Fields{
		PermitID: "permit-" + toolName, Tool: toolName, ArgsHash: args,
		ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: 1000,
	})
}

func scopeFor(toolName string, args [32]byte) Scope {
	return Scope{Tool: toolName, ArgsHash: args, Tick: 1, Now: time.Now()}
}

// pack packs a call or fails the test.
func pack(t testing.TB, a *ABI, method string, args ...any) tool.HexBytes {
	t.Helper()
	b, err := a.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func tokenBalance(t testing.TB, p *Provider, token, owner common.Address) *big.Int {
	t.Helper()
	b, err := p.TokenBalance(t.Context(), token, owner)
	if err != nil {
		t.Fatalf("balance of %s in %s: %v", owner, token, err)
	}
	return b
}

func nonceOf(t testing.TB, p *Provider, a common.Address) uint64 {
	t.Helper()
	n, err := p.Nonce(t.Context(), a)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// view calls method on to and unpacks the result.
func view(t testing.TB, p *Provider, to common.Address, a *ABI, method string, args ...any) []any {
	t.Helper()
	out, err := p.Call(t.Context(), ethereum.CallMsg{To: &to, Data: pack(t, a, method, args...)})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	v, err := a.Unpack(method, out)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func wantBig(t testing.TB, what string, got, want *big.Int) {
	t.Helper()
	if got.Cmp(want) != 0 {
		t.Errorf("%s = %s, want %s", what, got, want)
	}
}

// countingHTTP serves the dev chain's JSON-RPC over real HTTP and counts
// requests by method.
type countingHTTP struct {
	*httptest.Server
	mu       sync.Mutex
	calls    map[string]int
	requests int // HTTP requests (a batch is one)
}

func serveHTTP(t testing.TB, d *DevChain) *countingHTTP {
	t.Helper()
	h, err := d.sim.stack.RPCHandler()
	if err != nil {
		t.Fatal(err)
	}
	c := &countingHTTP{calls: map[string]int{}}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var one struct{ Method string }
		var many []struct{ Method string }
		c.mu.Lock()
		c.requests++
		if json.Unmarshal(body, &one) == nil {
			c.calls[one.Method]++
		} else if json.Unmarshal(body, &many) == nil {
			for _, m := range many {
				c.calls[m.Method]++
			}
		}
		c.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *countingHTTP) count(method string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[method]
}

func (c *countingHTTP) roundTrips() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests
}
