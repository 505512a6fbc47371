package chain

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// deadURL is an endpoint that refuses connections.
func deadURL(t testing.TB) string {
	s := httptest.NewServer(http.NotFoundHandler())
	u := s.URL
	s.Close()
	return u
}

// TestFailoverDeadFirst: the first endpoint is dead from the start; the
// provider opens on the second and every request goes there.
func TestFailoverDeadFirst(t *testing.T) {
	b := newRPCServer(t)
	b.set("eth_getBalance", `{"result":"0x2a"}`)
	p, err := DialEndpoints(t.Context(), []string{deadURL(t), b.URL}, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for range 3 {
		if bal, err := p.BalanceOf(t.Context(), common.Address{1}); err != nil || bal.Int64() != 42 {
			t.Fatalf("balance = %v, %v", bal, err)
		}
	}
	if st := p.Endpoints(); st[0].State != "unverified" || st[1].State != "ok" {
		t.Errorf("endpoints = %+v", st)
	}
}

// TestFailoverWhenFirstDies: both answer at first; when the first starts
// failing, the next request moves to the second at once (no backoff), and
// stays there.
func TestFailoverWhenFirstDies(t *testing.T) {
	a, b := newRPCServer(t), newRPCServer(t)
	a.set("eth_getBalance", `{"result":"0x1"}`)
	b.set("eth_getBalance", `{"result":"0x2"}`)
	cfg := ProviderConfig{RetryBase: time.Hour, RetryMax: time.Hour} // a backoff would hang the test
	p, err := DialEndpoints(t.Context(), []string{a.URL, b.URL}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if bal, _ := p.BalanceOf(t.Context(), common.Address{1}); bal.Int64() != 1 {
		t.Fatalf("first answer from %d, want the first endpoint", bal)
	}
	a.failNext.Store(1000)
	for range 3 {
		if bal, err := p.BalanceOf(t.Context(), common.Address{1}); err != nil || bal.Int64() != 2 {
			t.Fatalf("after the first died: %v, %v", bal, err)
		}
	}
	if n := a.count("eth_getBalance"); n != 2 {
		t.Errorf("the dead endpoint got %d balance requests, want 2 (one answer, one failure, then rested)", n)
	}
	if st := p.Endpoints(); st[0].State != "resting" {
		t.Errorf("endpoints = %+v", st)
	}
}

// TestFailoverStall: an endpoint that accepts and never answers costs one
// request timeout, then the next answers.
func TestFailoverStall(t *testing.T) {
	release := make(chan struct{})
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if req.Method == "eth_chainId" {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":"0x1"}`))
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer stall.Close()
	defer close(release)
	b := newRPCServer(t)
	b.set("eth_getBalance", `{"result":"0x2"}`)
	p, err := DialEndpoints(t.Context(), []string{stall.URL, b.URL}, ProviderConfig{RequestTimeout: 100 * time.Millisecond, RetryBase: time.Hour, RetryMax: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	start := time.Now()
	bal, err := p.BalanceOf(t.Context(), common.Address{1})
	took := time.Since(start)
	if err != nil || bal.Int64() != 2 {
		t.Fatalf("balance = %v, %v", bal, err)
	}
	if took < 100*time.Millisecond || took > 2*time.Second {
		t.Errorf("failover took %s, want about the 100 ms request timeout", took)
	}
	start = time.Now()
	if _, err := p.BalanceOf(t.Context(), common.Address{1}); err != nil || time.Since(start) > 50*time.Millisecond {
		t.Errorf("second request: %v in %s, want the answering endpoint at once", err, time.Since(start))
	}
}

// TestFailoverWrongChain: an endpoint of another chain is refused at
// dial; one that only later turns out to serve another chain is never
// used.
func TestFailoverWrongChain(t *testing.T) {
	a, b := newRPCServer(t), newRPCServer(t)
	a.set("eth_chainId", `{"result":"0x5"}`)
	if _, err := DialEndpoints(t.Context(), []string{b.URL, a.URL}, fastRetry); err == nil || !strings.Contains(err.Error(), "serves chain 5, configured for 1") {
		t.Errorf("dial with an endpoint of chain 5: %v", err)
	}

	a.failNext.Store(4) // a does not answer at dial: unverified
	b.set("eth_getBalance", `{"result":"0x2"}`)
	a.set("eth_getBalance", `{"result":"0x666"}`)
	p, err := DialEndpoints(t.Context(), []string{a.URL, b.URL}, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	b.failNext.Store(1) // b fails once: a is tried, says chain 5, and is dropped
	bal, err := p.BalanceOf(t.Context(), common.Address{1})
	if err != nil || bal.Int64() != 2 {
		t.Fatalf("balance = %v, %v: want b's answer, never a's", bal, err)
	}
	if st := p.Endpoints(); st[0].State != "wrong chain" || !strings.Contains(st[0].Error, "serves chain 5") {
		t.Errorf("endpoints = %+v", st)
	}
	if n := a.count("eth_getBalance"); n != 0 {
		t.Errorf("the wrong chain's endpoint answered %d balance requests", n)
	}
}

// TestSendAfterFailoverIsNotDoubled: a transaction an earlier attempt got
// onto the chain is refused by the next endpoint as "nonce too low"; the
// provider finds it by hash and reports success instead of an error that
// would make the caller sign a second one.
func TestSendAfterFailoverIsNotDoubled(t *testing.T) {
	key, _ := crypto.GenerateKey()
	signer := types.LatestSignerForChainID(big.NewInt(1))
	to := common.Address{9}
	tx := types.MustSignNewTx(key, signer, &types.DynamicFeeTx{ChainID: big.NewInt(1), Nonce: 7, To: &to, Gas: 21000, GasFeeCap: big.NewInt(1e9), GasTipCap: big.NewInt(1)})
	txJSON, err := tx.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var withBlock map[string]any
	_ = json.Unmarshal(txJSON, &withBlock)
	withBlock["blockHash"], withBlock["blockNumber"], withBlock["from"] = common.Hash{1}.Hex(), "0x10", crypto.PubkeyToAddress(key.PublicKey).Hex()
	found, _ := json.Marshal(withBlock)

	s := newRPCServer(t)
	s.set("eth_sendRawTransaction", `{"error":{"code":-32000,"message":"nonce too low: next nonce 8, tx nonce 7"}}`)
	s.set("eth_getTransactionByHash", `{"result":`+string(found)+`}`)
	p, err := Dial(t.Context(), s.URL, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.SendTransaction(context.Background(), tx); err != nil {
		t.Errorf("send of a transaction the chain has: %v", err)
	}
	s.set("eth_getTransactionByHash", `{"result":null}`)
	if err := p.SendTransaction(context.Background(), tx); err == nil || !strings.Contains(err.Error(), "nonce too low") {
		t.Errorf("send of a transaction the chain does not have: %v, want nonce too low", err)
	}
}

// BenchmarkFailover measures one read through a provider whose first
// endpoint is dead (connection refused on loopback) and is tried on every
// request (its rest expires at once), against one live endpoint alone:
// the difference is the latency failover adds when the first URL is dead.
func BenchmarkFailover(b *testing.B) {
	live := newRPCServer(b)
	live.set("eth_getBalance", `{"result":"0x2a"}`)
	for _, bc := range []struct {
		name string
		urls []string
	}{
		{"live", []string{live.URL}},
		{"dead-first", []string{deadURL(b), live.URL}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, err := DialEndpoints(b.Context(), bc.urls, ProviderConfig{RetryBase: time.Millisecond, RetryMax: time.Millisecond, Cooldown: time.Nanosecond})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			for b.Loop() {
				p.cur.Store(0) // the dead endpoint first, every time
				if _, err := p.BalanceOf(b.Context(), common.Address{1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
