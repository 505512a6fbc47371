package catalog_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
)

// miningProxy forwards JSON-RPC to the dev chain and mines a block after
// every eth_call it forwards, so a read that made its calls at "latest"
// would see a new block at each one. It records the block each eth_call
// asked for.
type miningProxy struct {
	t   *testing.T
	dev *chain.DevChain
	to  *rpc.Client

	mu     sync.Mutex
	blocks []string // eth_call's block parameter, in order
}

type rpcReq struct {
	ID     json.RawMessage   `json:"id"`
	Method string            `json:"method"`
	Params []json.RawMessage `json:"params"`
}

type rpcResp struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcErr         `json:"error,omitempty"`
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (m *miningProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	var batch []rpcReq
	single := len(body) > 0 && body[0] != '['
	if single {
		var one rpcReq
		if err := json.Unmarshal(body, &one); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		batch = []rpcReq{one}
	} else if err := json.Unmarshal(body, &batch); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	out := make([]rpcResp, len(batch))
	for i, q := range batch {
		out[i] = m.forward(r, q)
	}
	w.Header().Set("Content-Type", "application/json")
	if single {
		json.NewEncoder(w).Encode(out[0])
		return
	}
	json.NewEncoder(w).Encode(out)
}

func (m *miningProxy) forward(r *http.Request, q rpcReq) rpcResp {
	args := make([]any, len(q.Params))
	for i, p := range q.Params {
		args[i] = p
	}
	var res json.RawMessage
	err := m.to.CallContext(r.Context(), &res, q.Method, args...)
	if q.Method == "eth_call" {
		var tag string
		if len(q.Params) > 1 {
			_ = json.Unmarshal(q.Params[1], &tag)
		}
		m.mu.Lock()
		m.blocks = append(m.blocks, tag)
		m.mu.Unlock()
		if _, cerr := m.dev.Commit(r.Context()); cerr != nil {
			m.t.Errorf("mine a block between calls: %v", cerr)
		}
	}
	resp := rpcResp{JSONRPC: "2.0", ID: q.ID, Result: res}
	if err != nil {
		e := &rpcErr{Code: -32000, Message: err.Error()}
		if de, ok := err.(rpc.DataError); ok {
			e.Data = de.ErrorData()
		}
		if ce, ok := err.(rpc.Error); ok {
			e.Code = ce.ErrorCode()
		}
		resp.Result, resp.Error = nil, e
	}
	return resp
}

// TestReadPinsOneBlock: a read tool that makes many calls (Aave's account
// data: the account, the reserves, each reserve's tokens and balances)
// makes every one of them at the one block it resolved at its start, and
// reports it, although a block is mined after each call.
func TestReadPinsOneBlock(t *testing.T) {
	f, err := newFixture("ward pin tests")
	if err != nil {
		t.Fatalf("dev chain fixture: %v", err)
	}
	t.Cleanup(func() { f.dev.Close() })
	proxy := &miningProxy{t: t, dev: f.dev, to: f.dev.Provider().RPC()}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	c, err := rpc.DialHTTP(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	p, err := chain.NewProvider(t.Context(), c, chain.ProviderConfig{ChainID: chain.DevChainID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	env := *f.env
	env.Chain = p
	r := registry.New()
	if err := catalog.Register(r, &env); err != nil {
		t.Fatal(err)
	}
	r.Freeze()
	e, ok := r.Get("aave_get_account_data")
	if !ok {
		t.Fatal("aave_get_account_data is not registered")
	}
	before := head(t, f.dev)
	res, err := e.Read(t.Context(), input(t, `{}`))
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		Block uint64 `json:"block_number"`
	}
	if err := json.Unmarshal(res.Data, &out); err != nil {
		t.Fatal(err)
	}
	proxy.mu.Lock()
	blocks := append([]string(nil), proxy.blocks...)
	proxy.mu.Unlock()
	if len(blocks) < 3 {
		t.Fatalf("the read made %d eth_calls, want several", len(blocks))
	}
	want := hexutil.EncodeUint64(out.Block)
	for i, b := range blocks {
		if b != want {
			t.Fatalf("eth_call %d of %d read block %q, want %s (the block the result reports); all: %q", i+1, len(blocks), b, want, blocks)
		}
	}
	if out.Block < before {
		t.Fatalf("the read reports block %d, older than the head %d before it", out.Block, before)
	}
	if mined := head(t, f.dev) - out.Block; mined < uint64(len(blocks)) {
		t.Fatalf("%d blocks were mined during %d calls: the test did not move the chain", mined, len(blocks))
	}
	// Outside a tool's execution nothing is pinned: the provider alone
	// reads "latest".
	if _, err := p.TokenBalance(t.Context(), f.env.Tokens[0].Address, f.dev.WalletAddress()); err != nil {
		t.Fatal(err)
	}
	proxy.mu.Lock()
	last := proxy.blocks[len(proxy.blocks)-1]
	proxy.mu.Unlock()
	if last != "latest" {
		t.Fatalf("an unpinned call read %q, want latest", last)
	}
}

// head is the dev chain's latest block number, asked afresh.
func head(t *testing.T, dev *chain.DevChain) uint64 {
	t.Helper()
	var n hexutil.Uint64
	if err := dev.Provider().RPC().CallContext(t.Context(), &n, "eth_blockNumber"); err != nil {
		t.Fatal(err)
	}
	return uint64(n)
}
