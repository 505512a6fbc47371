package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/nodetest"
	"github.com/wardhq/ward/internal/config"
)

// TestKillBetweenSendAndReceipt: a restart between send and receipt does
// not send a second transaction (issue 17). ward serve runs as a process
// of its own whose only RPC URL is a proxy in front of a geth --dev node;
// the proxy hides receipts, or swallows a broadcast, and the process is
// killed -9 once its transaction went out. The next process reconciles
// its send journal before it serves: it records what the chain did, sends
// no transaction that was not journaled, rebroadcasts only the same signed
// bytes, and refuses a new commit while a transaction is unresolved.
func TestKillBetweenSendAndReceipt(t *testing.T) {
	node := nodetest.Start(t)
	dir := t.TempDir()
	keyFile, me := deployWallet(t, node, dir)
	px := newRPCProxy(t, node.URL)
	cfgPath := filepath.Join(dir, "ward.toml")
	cfgText := fmt.Sprintf(`
[store]
synchronous = "normal"

[[chain]]
name = "local"
rpc_urls = [%q]
chain_id = %d
wallet_key_file = %q
address_book = "book.toml"

[gate]
announce_delay = "0s"

[hooks.allowlist]
any_token = true
any_contract = true
any_selector = true
`, px.URL, nodetest.ChainID, keyFile)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Parse(cfgPath, []byte(cfgText))
	if err != nil {
		t.Fatal(err)
	}
	bc, ok := f.Book.Chain(nodetest.ChainID)
	if !ok {
		t.Fatal("the deployed book is not in the configuration's address book")
	}
	usdcs := bc.TokensBySymbol("USDC")
	if len(usdcs) != 1 {
		t.Fatalf("book has %d USDC", len(usdcs))
	}
	usdc := common.Address(usdcs[0].Address)

	data := t.TempDir()
	owner, _ := createToken(t, "owner", "owner", "--data", data)
	agent, agentID := createToken(t, "agent", "agent", "--data", data)

	ec, err := ethclient.DialContext(t.Context(), node.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	nonce := func() uint64 {
		t.Helper()
		n, err := ec.NonceAt(t.Context(), me, nil)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	recipient := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	received := func() *big.Int {
		t.Helper()
		p, err := chain.Dial(t.Context(), node.URL, chain.ProviderConfig{})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		b, err := p.TokenBalance(t.Context(), usdc, recipient)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	transfer := func(units int64) string {
		return fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":"%d"}}`, usdc.Hex(), recipient.Hex(), units)
	}

	c := startChild(t, data, cfgPath)
	s := &served{t: t, base: c.base, client: &http.Client{Timeout: time.Minute}}
	preview := func(args string) string {
		t.Helper()
		r := s.call(agent, "k", "preview_action", args)
		if r.status != http.StatusOK || r.get("permit_id") == "" {
			t.Fatalf("preview: %d %s", r.status, r.body)
		}
		return r.get("permit_id")
	}
	commitBody := func(permit string) string { return fmt.Sprintf(`{"permit_id":%q}`, permit) }
	// commitAsync commits permit in the background: the commit never
	// answers, its process is killed under it.
	commitAsync := func(permit string) <-chan struct{} {
		done := make(chan struct{})
		req, err := http.NewRequest("POST", s.base+"/v1/call/commit_action", strings.NewReader(commitBody(permit)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+agent)
		req.Header.Set("X-Ward-Session", "k")
		go func() {
			defer close(done)
			if resp, err := s.client.Do(req); err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
		return done
	}
	settled := func(hash common.Hash) (status, principal string, found bool) {
		t.Helper()
		r := s.do("GET", "/v1/actions?kind=tx_settled", owner, "", "")
		var v struct {
			Actions []struct {
				TxHash      string          `json:"tx_hash"`
				PrincipalID string          `json:"principal_id"`
				Status      string          `json:"status"`
				Detail      json.RawMessage `json:"detail"`
			} `json:"actions"`
		}
		if err := json.Unmarshal(r.body, &v); r.status != http.StatusOK || err != nil {
			t.Fatalf("GET /v1/actions: %d %s", r.status, r.body)
		}
		for _, a := range v.Actions {
			if strings.EqualFold(a.TxHash, hash.Hex()) {
				t.Logf("tx_settled %s: %s %s", a.TxHash, a.Status, a.Detail)
				return a.Status, a.PrincipalID, true
			}
		}
		return "", "", false
	}
	// restart stops the ward process with sig and starts another on the
	// same data directory; it returns once the new one serves.
	restart := func(sig os.Signal) {
		t.Helper()
		c.stop(sig)
		c = startChild(t, data, cfgPath)
		s.base = c.base
	}
	// refusedInFlight commits a new permit and wants it refused, naming
	// no other permit, with nothing broadcast at nonce.
	refusedInFlight := func(nonce uint64, other string) {
		t.Helper()
		r := s.call(agent, "k", "commit_action", commitBody(preview(transfer(3_000_000))))
		s.want(r, http.StatusConflict, "TX_IN_FLIGHT")
		if msg := errorOf(r); !strings.Contains(msg, "preview again") || strings.Contains(msg, other) {
			t.Errorf("the in-flight refusal says %q: want what to do, and not another permit's id", msg)
		}
		if n := px.sendsAt(nonce); n != 0 {
			t.Errorf("while a transaction is unresolved the proxy saw %d broadcasts at nonce %d", n, nonce)
		}
	}

	// 1. Killed between send and receipt: the node mined the transaction
	// but served no receipt.
	n0, got0 := nonce(), received()
	px.hideReceipts.Store(true)
	permit := preview(transfer(1_000_000))
	done := commitAsync(permit)
	sent := px.waitSend(t, n0)
	waitFor(t, "the node to mine the transaction", func() bool { return nonce() == n0+1 })
	restart(syscall.SIGKILL)
	<-done
	// Still no receipt: the nonce is used and the node knows the
	// transaction, so it is neither dropped nor sent again, and the wallet
	// sends nothing new.
	if _, _, ok := settled(sent.hash); ok {
		t.Errorf("%s was recorded settled without its receipt", sent.hash.Hex())
	}
	refusedInFlight(n0+1, permit)
	// Receipts served again: the next start records the outcome. (This
	// stop is clean: a spend settlement is written with the next group
	// commit and a kill may lose it, leaving the refused commit's spend
	// counted, the safe side; the daily total is checked at the end.)
	px.hideReceipts.Store(false)
	restart(syscall.SIGTERM)
	if status, principal, ok := settled(sent.hash); !ok || status != "executed" || principal != agentID {
		t.Errorf("tx_settled for %s: found %v, status %q, principal %q; want executed by %s", sent.hash.Hex(), ok, status, principal, agentID)
	}
	if got := nonce(); got != n0+1 {
		t.Errorf("nonce after the restarts = %d, want %d: the one-transaction plan was sent once", got, n0+1)
	}
	if hs := px.hashesAt(n0); len(hs) != 1 || px.sendsAt(n0) != 1 {
		t.Errorf("the proxy saw %d broadcasts at nonce %d: %v, want the one", px.sendsAt(n0), n0, hs)
	}
	if got := new(big.Int).Sub(received(), got0); got.Int64() != 1_000_000 {
		t.Errorf("the recipient received %s, want 1 USDC once", got)
	}
	s.want(s.call(agent, "k", "commit_action", commitBody(permit)), http.StatusConflict, "PERMIT_ALREADY_CONSUMED")
	if n := px.sendsAt(n0 + 1); n != 0 {
		t.Errorf("the second commit of the permit broadcast %d transactions", n)
	}

	// 2. Killed after a lost broadcast: the endpoint answered the hash
	// but the node never got the transaction.
	n0, got0 = nonce(), received()
	px.dropSends.Store(true)
	permit = preview(transfer(2_000_000))
	done = commitAsync(permit)
	lost := px.waitSend(t, n0)
	restart(syscall.SIGKILL)
	<-done
	// The restart rebroadcast the journaled bytes (lost again), and the
	// wallet sends nothing new while the transaction is unresolved.
	if n := px.sendsOf(lost.hash); n < 2 {
		t.Errorf("the restart did not rebroadcast %s: %d broadcasts", lost.hash.Hex(), n)
	}
	refusedInFlight(n0+1, permit)
	if hs := px.hashesAt(n0); len(hs) != 1 {
		t.Errorf("transactions broadcast at nonce %d: %v, want only %s", n0, hs, lost.hash.Hex())
	}
	if got := nonce(); got != n0 {
		t.Fatalf("nonce %d, want %d: the lost transaction reached the node", got, n0)
	}
	// The node takes broadcasts again: the next start rebroadcasts the
	// same bytes and the node mines them.
	px.dropSends.Store(false)
	restart(syscall.SIGTERM)
	waitFor(t, "the rebroadcast transaction to be mined", func() bool { return nonce() == n0+1 })
	if rc, err := ec.TransactionReceipt(t.Context(), lost.hash); err != nil || rc.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("receipt of %s: %+v, %v", lost.hash.Hex(), rc, err)
	}
	// The next commit records it settled and goes through at the next
	// nonce.
	s.want(s.call(agent, "k", "commit_action", commitBody(preview(transfer(4_000_000)))), http.StatusOK, "")
	if status, principal, ok := settled(lost.hash); !ok || status != "executed" || principal != agentID {
		t.Errorf("tx_settled for %s: found %v, status %q, principal %q; want executed by %s", lost.hash.Hex(), ok, status, principal, agentID)
	}
	if got := nonce(); got != n0+2 {
		t.Errorf("nonce %d, want %d: the lost transaction once, the next commit once", got, n0+2)
	}
	if hs := px.hashesAt(n0); len(hs) != 1 || hs[0] != lost.hash {
		t.Errorf("transactions broadcast at nonce %d: %v, want only %s", n0, hs, lost.hash.Hex())
	}
	if got := new(big.Int).Sub(received(), got0); got.Int64() != 6_000_000 {
		t.Errorf("the recipient received %s, want 2 + 4 USDC", got)
	}
	// The day's spend is the three transfers that executed ($7); the two
	// refused in flight sent nothing and count nothing.
	var gate struct {
		Spend []struct {
			Window     string `json:"window"`
			SpentCents int64  `json:"spent_cents"`
			HeldCents  int64  `json:"held_cents"`
		} `json:"spend"`
	}
	json.Unmarshal(s.do("GET", "/v1/gate", agent, "", "").body, &gate)
	for _, w := range gate.Spend {
		if w.Window == "daily" && (w.SpentCents < 690 || w.SpentCents > 710 || w.HeldCents != 0) {
			t.Errorf("the day spent %d cents and holds %d, want about 700 and none", w.SpentCents, w.HeldCents)
		}
	}
	c.stop(syscall.SIGTERM)
}

// waitFor polls cond until it holds, failing the test after 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

// rpcProxy is a JSON-RPC proxy in front of a node that can hide receipts
// (eth_getTransactionReceipt answers null) and drop broadcasts
// (eth_sendRawTransaction answers the hash without forwarding). It records
// every broadcast it sees.
type rpcProxy struct {
	URL          string
	hideReceipts atomic.Bool
	dropSends    atomic.Bool

	upstream string
	mu       sync.Mutex
	sends    []broadcast
	seen     chan struct{} // signalled on each broadcast
}

type broadcast struct {
	hash    common.Hash
	nonce   uint64
	dropped bool
}

type rpcMsg struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      json.RawMessage   `json:"id"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
}

func newRPCProxy(t *testing.T, upstream string) *rpcProxy {
	p := &rpcProxy{upstream: upstream, seen: make(chan struct{}, 1)}
	srv := httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

func (p *rpcProxy) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if b := bytes.TrimSpace(body); len(b) > 0 && b[0] == '[' {
		var reqs []json.RawMessage
		if err := json.Unmarshal(b, &reqs); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		outs := make([]json.RawMessage, len(reqs))
		for i, req := range reqs {
			if outs[i], err = p.one(r.Context(), req); err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
		}
		json.NewEncoder(w).Encode(outs)
		return
	}
	out, err := p.one(r.Context(), body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	w.Write(out)
}

// one answers a single JSON-RPC request.
func (p *rpcProxy) one(ctx context.Context, req json.RawMessage) (json.RawMessage, error) {
	var m rpcMsg
	if err := json.Unmarshal(req, &m); err != nil {
		return nil, err
	}
	answer := func(result any) (json.RawMessage, error) {
		return json.Marshal(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	}
	switch m.Method {
	case "eth_getTransactionReceipt":
		if p.hideReceipts.Load() {
			return answer(nil)
		}
	case "eth_sendRawTransaction":
		var raw hexutil.Bytes
		tx := new(types.Transaction)
		if len(m.Params) == 1 && json.Unmarshal(m.Params[0], &raw) == nil && tx.UnmarshalBinary(raw) == nil {
			drop := p.dropSends.Load()
			p.mu.Lock()
			p.sends = append(p.sends, broadcast{hash: tx.Hash(), nonce: tx.Nonce(), dropped: drop})
			p.mu.Unlock()
			select {
			case p.seen <- struct{}{}:
			default:
			}
			if drop {
				return answer(tx.Hash())
			}
		}
	}
	hr, err := http.NewRequestWithContext(ctx, "POST", p.upstream, bytes.NewReader(req))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// waitSend waits until the proxy has seen a broadcast at nonce and
// returns the first.
func (p *rpcProxy) waitSend(t *testing.T, nonce uint64) broadcast {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		p.mu.Lock()
		for _, b := range p.sends {
			if b.nonce == nonce {
				p.mu.Unlock()
				return b
			}
		}
		p.mu.Unlock()
		select {
		case <-p.seen:
		case <-timeout:
			t.Fatalf("no transaction at nonce %d was broadcast", nonce)
		}
	}
}

// hashesAt returns the distinct hashes broadcast at nonce, in order.
func (p *rpcProxy) hashesAt(nonce uint64) []common.Hash {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []common.Hash
	for _, b := range p.sends {
		if b.nonce == nonce && !slices.Contains(out, b.hash) {
			out = append(out, b.hash)
		}
	}
	return out
}

// sendsAt counts the broadcasts at nonce.
func (p *rpcProxy) sendsAt(nonce uint64) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, b := range p.sends {
		if b.nonce == nonce {
			n++
		}
	}
	return n
}

// sendsOf counts the broadcasts of hash.
func (p *rpcProxy) sendsOf(hash common.Hash) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, b := range p.sends {
		if b.hash == hash {
			n++
		}
	}
	return n
}
