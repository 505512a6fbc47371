package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
)

// rpcServer is a JSON-RPC endpoint over real HTTP whose answers per
// method the test sets, and which can fail the next requests with an HTTP
// status.
type rpcServer struct {
	*httptest.Server
	failNext   atomic.Int32
	failStatus int

	mu      sync.Mutex
	answers map[string]string // method -> JSON of "result" or of "error"
	calls   map[string]int
}

func newRPCServer(t testing.TB) *rpcServer {
	s := &rpcServer{failStatus: http.StatusServiceUnavailable, answers: map[string]string{
		"eth_chainId": `{"result":"0x1"}`,
	}, calls: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *rpcServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "batch or bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.calls[req.Method]++
	answer, ok := s.answers[req.Method]
	s.mu.Unlock()
	if s.failNext.Add(-1) >= 0 {
		http.Error(w, "try later", s.failStatus)
		return
	}
	if !ok {
		answer = `{"error":{"code":-32601,"message":"method not found"}}`
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,%s}`, req.ID, answer[1:len(answer)-1])
}

func (s *rpcServer) set(method, answer string) {
	s.mu.Lock()
	s.answers[method] = answer
	s.mu.Unlock()
}

func (s *rpcServer) count(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[method]
}

var fastRetry = ProviderConfig{RetryBase: time.Millisecond, RetryMax: 2 * time.Millisecond}

func TestProviderRetries503(t *testing.T) {
	s := newRPCServer(t)
	s.set("eth_getBalance", `{"result":"0x2a"}`)
	s.failNext.Store(2)
	p, err := Dial(t.Context(), s.URL, fastRetry)
	if err != nil {
		t.Fatalf("dial through two 503s: %v", err)
	}
	defer p.Close()
	if got := s.count("eth_chainId"); got != 3 {
		t.Errorf("eth_chainId requests = %d, want 3 (two 503s, then the answer)", got)
	}
	if p.ChainID() != 1 {
		t.Errorf("chain id = %d, want 1", p.ChainID())
	}

	s.failNext.Store(2)
	bal, err := p.BalanceOf(t.Context(), common.Address{1})
	if err != nil {
		t.Fatalf("balance through two 503s: %v", err)
	}
	if bal.Int64() != 42 {
		t.Errorf("balance = %s, want 42", bal)
	}
	if got := s.count("eth_getBalance"); got != 3 {
		t.Errorf("eth_getBalance requests = %d, want 3", got)
	}

	// More failures than attempts: the error says what failed.
	s.failNext.Store(10)
	_, err = p.BalanceOf(t.Context(), common.Address{1})
	if err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("balance after 4 failures: err = %v, want the 503", err)
	}
	if got := s.count("eth_getBalance"); got != 3+4 {
		t.Errorf("eth_getBalance requests = %d, want 7 (4 attempts)", got)
	}
	s.failNext.Store(0)
}

func TestProviderDoesNotRetry(t *testing.T) {
	reason, err := abiArgs("string").Pack("nope")
	if err != nil {
		t.Fatal(err)
	}
	revertData := "0x08c379a0" + common.Bytes2Hex(reason)

	for _, tc := range []struct {
		name, method, answer string
		status               int
		call                 func(p *Provider) error
		check                func(t *testing.T, err error)
	}{
		{
			name: "revert", method: "eth_call",
			answer: `{"error":{"code":3,"message":"execution reverted: nope","data":"` + revertData + `"}}`,
			call: func(p *Provider) error {
				_, err := p.Call(t.Context(), ethereum.CallMsg{To: &common.Address{2}})
				return err
			},
			check: func(t *testing.T, err error) {
				var re *RevertError
				if !errors.As(err, &re) || re.Reason != "nope" || len(re.Data) != 4+96 {
					t.Errorf("err = %#v, want a RevertError with reason nope and its data", err)
				}
			},
		},
		{
			name: "revert in estimate", method: "eth_estimateGas",
			answer: `{"error":{"code":3,"message":"execution reverted: nope","data":"` + revertData + `"}}`,
			call: func(p *Provider) error {
				_, err := p.EstimateGas(t.Context(), ethereum.CallMsg{To: &common.Address{2}})
				return err
			},
			check: func(t *testing.T, err error) {
				if !errors.Is(err, ErrReverted) {
					t.Errorf("err = %v, want a revert", err)
				}
			},
		},
		{
			name: "invalid params", method: "eth_getBalance",
			answer: `{"error":{"code":-32602,"message":"invalid argument 0"}}`,
			call: func(p *Provider) error {
				_, err := p.BalanceOf(t.Context(), common.Address{1})
				return err
			},
			check: func(t *testing.T, err error) {
				if err == nil || errors.Is(err, ErrReverted) {
					t.Errorf("err = %v, want a plain JSON-RPC error", err)
				}
			},
		},
		{
			name: "http 401", method: "eth_getCode", status: http.StatusUnauthorized,
			call: func(p *Provider) error {
				_, err := p.Code(t.Context(), common.Address{1})
				return err
			},
			check: func(t *testing.T, err error) {
				if err == nil || !strings.Contains(err.Error(), "401") {
					t.Errorf("err = %v, want the 401", err)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRPCServer(t)
			p, err := Dial(t.Context(), s.URL, fastRetry)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if tc.status != 0 {
				s.failStatus = tc.status
				s.failNext.Store(1)
			} else {
				s.set(tc.method, tc.answer)
			}
			tc.check(t, tc.call(p))
			if got := s.count(tc.method); got != 1 {
				t.Errorf("%s requests = %d, want 1 (not retried)", tc.method, got)
			}
		})
	}
}

func TestProviderRetriesHeaderNotFound(t *testing.T) {
	for _, msg := range []string{"header not found", "transaction indexing is in progress"} {
		s := newRPCServer(t)
		p, err := Dial(t.Context(), s.URL, fastRetry)
		if err != nil {
			t.Fatal(err)
		}
		s.set("eth_getCode", `{"error":{"code":-32000,"message":"`+msg+`"}}`)
		if _, err := p.Code(t.Context(), common.Address{1}); err == nil {
			t.Fatal("no error")
		}
		if got := s.count("eth_getCode"); got != 4 {
			t.Errorf("%s: eth_getCode requests = %d, want 4 (retried)", msg, got)
		}
		p.Close()
	}
}

func TestProviderChainIDMismatch(t *testing.T) {
	s := newRPCServer(t)
	_, err := Dial(t.Context(), s.URL, ProviderConfig{ChainID: 8453})
	if err == nil || !strings.Contains(err.Error(), "serves chain 1, configured for 8453") {
		t.Errorf("err = %v, want a chain id mismatch", err)
	}
}

func TestBackoffStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	calls := 0
	// The next delay is an hour; cancelling ends it at once.
	err := backoff{attempts: 3, base: time.Hour, most: time.Hour}.do(ctx, func(context.Context) error {
		calls++
		cancel()
		return rpc.HTTPError{StatusCode: 503, Status: "503 Service Unavailable"}
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "503") {
		t.Errorf("err = %v, want the 503 and context.Canceled", err)
	}
	if calls != 1 {
		t.Errorf("calls = %d, want 1", calls)
	}
}

func TestProviders(t *testing.T) {
	s := newRPCServer(t)
	p, err := Dial(t.Context(), s.URL, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ps, err := NewProviders(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ps.Get(1); err != nil || got != p {
		t.Errorf("Get(1) = %v, %v", got, err)
	}
	_, err = ps.Get(10)
	if !errors.Is(err, ErrUnknownChain) || !strings.Contains(err.Error(), "configured: [1]") {
		t.Errorf("Get(10) err = %v, want ErrUnknownChain listing chain 1", err)
	}
	if err := ps.Add(p); err == nil {
		t.Error("a second provider for chain 1 was accepted")
	}
	var empty Providers
	if _, err := empty.Get(1); !errors.Is(err, ErrUnknownChain) {
		t.Errorf("empty registry: err = %v", err)
	}
}

func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://eth-mainnet.g.alchemy.com/v2/SECRETKEY": "https://eth-mainnet.g.alchemy.com",
		"wss://user:pass@node.example:8546/ws":           "wss://node.example:8546",
		"http://127.0.0.1:8545":                          "http://127.0.0.1:8545",
		"/tmp/geth.ipc":                                  "/tmp/geth.ipc",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
