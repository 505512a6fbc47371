package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
)

// baseNode is a JSON-RPC endpoint that says it is Base (chain 8453) and
// answers the reads of a native balance; dead makes it fail every request.
func baseNode(t *testing.T) (*httptest.Server, *atomic.Bool) {
	var dead atomic.Bool
	head, _ := json.Marshal(&types.Header{Number: big.NewInt(777), Difficulty: big.NewInt(0), Time: uint64(time.Now().Unix())})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if dead.Load() {
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		result := map[string]string{"eth_chainId": `"0x2105"`, "eth_getBalance": `"0x2a"`, "eth_getBlockByNumber": string(head), "eth_blockNumber": `"0x309"`}[req.Method]
		w.Header().Set("Content-Type", "application/json")
		if result == "" {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
	t.Cleanup(srv.Close)
	return srv, &dead
}

// stalledNode is a JSON-RPC endpoint that says it serves chainHex and
// then accepts every other request and never answers it (until the test
// ends).
func stalledNode(t *testing.T, chainHex string) *httptest.Server {
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.NewDecoder(r.Body).Decode(&req) == nil && req.Method == "eth_chainId" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%q}`, req.ID, chainHex)
			return
		}
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv
}

// TestServeSeveralChains: one ward serves the embedded dev chain (the
// default) and Base through another endpoint. A read names its chain with
// chain_id; a chain no tool is offered on, or a write on a chain without
// a wallet, is refused CHAIN_NOT_SUPPORTED before any request; when
// Base's endpoint dies its calls fail fast and the dev chain's go on. A
// chain whose endpoint stalls (OP Mainnet here) costs its first reads
// their budget, then is refused CHAIN_UNAVAILABLE at once, naming the
// chain and when it is tried again, while the others answer.
func TestServeSeveralChains(t *testing.T) {
	node, dead := baseNode(t)
	stalled, stalledArb := stalledNode(t, "0xa"), stalledNode(t, "0xa4b1")
	key, _ := writeKey(t, t.TempDir())
	f, err := config.Parse("ward.toml", []byte(fmt.Sprintf(`
[store]
synchronous = "normal"

[[chain]]

[[chain]]
rpc_url = %q
chain_id = 8453

[[chain]]
rpc_url = %q
chain_id = 10
wallet_key_file = %q

[[chain]]
rpc_url = %q
chain_id = 42161
`, node.URL, stalled.URL, key, stalledArb.URL)))
	if err != nil {
		t.Fatal(err)
	}
	st, err := daemon.Start(context.Background(), daemon.ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(), File: f, Mount: daemon.MountSurfaces, Version: Version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Stop() })
	s := &served{t: t, base: st.URL, srv: st.Server, client: &http.Client{Timeout: time.Minute}}
	agent, _ := s.token(auth.Agent, "agent", 0)
	dc := st.Stack.Dev.Contracts()
	balance := func(chain string) *reply {
		params := `{}`
		if chain != "" {
			params = `{"chain_id":` + chain + `,"owner":"0x000000000000000000000000000000000000dEaD"}`
		}
		return s.call(agent, "", "query_state", `{"kind":"native_balance","params":`+params+`}`)
	}
	wei := func(r *reply) string {
		var out struct {
			Data struct {
				BalanceWei string `json:"balance_wei"`
				Block      uint64 `json:"block_number"`
			} `json:"data"`
		}
		json.Unmarshal(r.body, &out)
		return fmt.Sprintf("%s@%d", out.Data.BalanceWei, out.Data.Block)
	}

	if e, ok := st.Stack.Registry.Get("data_get_native_balance"); !ok || !slices.Equal(e.Def.Chains, []uint64{1337, 8453, 10, 42161}) {
		t.Errorf("supported chains of a read = %v", e.Def.Chains)
	}
	if e, ok := st.Stack.Registry.Get("uniswap_execute_swap"); !ok || !slices.Equal(e.Def.Chains, []uint64{1337, 10}) {
		t.Errorf("supported chains of a write (no wallet on Base) = %v", e.Def.Chains)
	}
	if r := balance("8453"); r.status != 200 || wei(r) != "42@777" {
		t.Errorf("balance on Base: %d %s", r.status, r.body)
	}
	if r := balance(""); r.status != 200 || strings.HasPrefix(wei(r), "42@") || strings.HasPrefix(wei(r), "@") {
		t.Errorf("balance on the default (dev) chain: %d %s", r.status, r.body)
	}
	if r := balance("11"); r.code() != "CHAIN_NOT_SUPPORTED" {
		t.Errorf("balance on a chain not configured: %d %s", r.status, r.body)
	}
	swap := fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":"1000000","chain_id":8453}}`, dc.USDC.Hex(), dc.WETH.Hex())
	if r := s.call(agent, "", "preview_action", swap); r.code() != "CHAIN_NOT_SUPPORTED" {
		t.Errorf("a swap on Base, where ward has no wallet: %d %s", r.status, r.body)
	}

	// A preview on the stalled chain (OP Mainnet) is refused after one
	// request timeout (3 s, within the 5 s preview budget), naming the
	// chain and when it is tried again; the next is refused at once.
	opSwap := `{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":"0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85","token_out":"0x4200000000000000000000000000000000000006","amount_in":"1000000","chain_id":10}}`
	for i, within := range []time.Duration{5 * time.Second, time.Second} {
		start := time.Now()
		r := s.call(agent, "", "preview_action", opSwap)
		if took := time.Since(start); r.code() != "CHAIN_UNAVAILABLE" || took > within ||
			!strings.Contains(string(r.body), "chain 10 is not answering") || !strings.Contains(string(r.body), "retry after") || strings.Contains(string(r.body), "127.0.0.1") {
			t.Errorf("preview %d on the stalled chain: %d %s in %s", i, r.status, r.body, took)
		} else {
			t.Logf("preview %d on the stalled chain: refused CHAIN_UNAVAILABLE in %s", i, took)
		}
	}
	// The first reads on a stalled chain (Arbitrum) spend their 1 s
	// budget; a check waits out the request timeout on the endpoint, and
	// from then on its reads are refused at once.
	var r *reply
	for range 10 {
		if r = balance("42161"); r.code() == "CHAIN_UNAVAILABLE" {
			break
		}
		if r.code() != "TICK_BUDGET_EXCEEDED" {
			t.Fatalf("a read on the stalled chain: %d %s", r.status, r.body)
		}
	}
	if r.code() != "CHAIN_UNAVAILABLE" || r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "chain 42161 is not answering") {
		t.Errorf("a read on the stalled chain after the check: %d %s", r.status, r.body)
	}
	start := time.Now()
	for range 5 {
		for _, id := range []string{"10", "42161"} {
			if r := balance(id); r.code() != "CHAIN_UNAVAILABLE" {
				t.Errorf("a read on stalled chain %s: %d %s", id, r.status, r.body)
			}
		}
		if r := balance("8453"); r.status != 200 {
			t.Errorf("balance on Base while two chains stall: %d %s", r.status, r.body)
		}
		if r := balance(""); r.status != 200 {
			t.Errorf("the dev chain while two chains stall: %d %s", r.status, r.body)
		}
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("20 reads with two chains stalled took %s", took)
	}

	dead.Store(true)
	start = time.Now()
	if r := balance("8453"); r.status == 200 {
		t.Errorf("balance on a dead Base: %d %s", r.status, r.body)
	} else if r.code() != "CHAIN_UNAVAILABLE" && r.code() != "TICK_BUDGET_EXCEEDED" {
		t.Errorf("balance on a dead Base: %d %s, want CHAIN_UNAVAILABLE (or the budget, on a slow machine)", r.status, r.body)
	} else if took := time.Since(start); took > 10*time.Second {
		t.Errorf("a dead chain's call took %s", took)
	}
	if r := balance("8453"); r.code() != "CHAIN_UNAVAILABLE" {
		t.Errorf("balance on a dead Base, again: %d %s, want CHAIN_UNAVAILABLE at once", r.status, r.body)
	}
	if r := balance(""); r.status != 200 {
		t.Errorf("the dev chain after Base died: %d %s", r.status, r.body)
	}
}
