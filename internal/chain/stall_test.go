package chain

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// stallServer is a JSON-RPC endpoint that says it serves chain 1 and then,
// while stalling, accepts every other request and never answers it (until
// the test ends); when not stalling it answers eth_getBalance with 2.
type stallServer struct {
	*httptest.Server
	stalling atomic.Bool
	requests atomic.Int32 // requests other than eth_chainId
}

func newStallServer(t testing.TB) *stallServer {
	s := &stallServer{}
	s.stalling.Store(true)
	done := make(chan struct{})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		answer := `"0x2"`
		switch {
		case req.Method == "eth_chainId":
			answer = `"0x1"`
		case s.stalling.Load():
			s.requests.Add(1)
			select {
			case <-done:
			case <-r.Context().Done():
			}
			return
		default:
			s.requests.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + answer + `}`))
	}))
	t.Cleanup(func() { close(done); s.Close() })
	return s
}

// silentURL is an endpoint that accepts TCP connections and never reads
// or answers: a node stalled before it even says its chain.
func silentURL(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	return "http://" + l.Addr().String()
}

// TestStallCost measures what a stalled chain costs its callers: one read
// and a preview-like sequence of ten reads, with the stalling endpoint
// alone and with a good one behind it.
func TestStallCost(t *testing.T) {
	const timeout = 100 * time.Millisecond
	for _, tc := range []struct {
		name string
		good bool
	}{{"stalling alone", false}, {"stalling then good", true}} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStallServer(t)
			urls := []string{s.URL}
			if tc.good {
				g := newRPCServer(t)
				g.set("eth_getBalance", `{"result":"0x2"}`)
				urls = append(urls, g.URL)
			}
			p, err := DialEndpoints(t.Context(), urls, ProviderConfig{RequestTimeout: timeout})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			start := time.Now()
			_, err = p.BalanceOf(t.Context(), common.Address{1})
			one := time.Since(start)
			start = time.Now()
			for range 10 {
				p.BalanceOf(t.Context(), common.Address{1})
			}
			ten := time.Since(start)
			t.Logf("request timeout %s: first read %s (err %v); ten more reads %s; %d requests reached the stalling endpoint", timeout, one, err, ten, s.requests.Load())
		})
	}
}
