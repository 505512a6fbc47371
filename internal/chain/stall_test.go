package chain

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// stallServer is a JSON-RPC endpoint that says it serves chain 1 and then,
// while stalling, accepts every other request and never answers it (until
// the test ends); when not stalling it answers eth_getBalance with 2.
type stallServer struct {
	*httptest.Server
	stalling atomic.Bool
	requests atomic.Int32  // requests other than eth_chainId
	arrived  chan struct{} // one value per stalled request, as it arrives
}

func newStallServer(t testing.TB) *stallServer {
	s := &stallServer{arrived: make(chan struct{}, 100)}
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
			case s.arrived <- struct{}{}:
			default:
			}
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
// alone and with a good one behind it. The first read costs one request
// timeout (before the circuit, ~10: the backoff retried the stall four
// times, and every read paid it again); the ten after it cost nothing.
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
			one, err := balance(t.Context(), p)
			if (err == nil) != tc.good {
				t.Errorf("first read: %v", err)
			}
			start := time.Now()
			for range 10 {
				if _, err := balance(t.Context(), p); (err == nil) != tc.good {
					t.Errorf("read: %v", err)
				}
			}
			ten := time.Since(start)
			t.Logf("request timeout %s: first read %s (err %v); ten more reads %s; %d requests reached the stalling endpoint", timeout, one, err, ten, s.requests.Load())
			if one > timeout+time.Second || ten > 100*time.Millisecond || s.requests.Load() != 1 {
				t.Errorf("first read %s, ten more %s, %d stalled requests; want one timeout, then nothing, and one request", one, ten, s.requests.Load())
			}
		})
	}
}

// expireRests ends the rest of every endpoint of p, as the passing of its
// cooldown would.
func expireRests(p *Provider) {
	for _, e := range p.eps {
		e.mu.Lock()
		e.restUntil = time.Now().Add(-time.Nanosecond)
		e.mu.Unlock()
	}
}

func balance(ctx context.Context, p *Provider) (time.Duration, error) {
	start := time.Now()
	_, err := p.BalanceOf(ctx, common.Address{1})
	return time.Since(start), err
}

const stallTimeout = 100 * time.Millisecond

// TestStallOpensCircuit: the only endpoint stalls. The first call costs
// one request timeout (not one per retry) and says which chain is down
// and until when; the calls after it fail in microseconds with the same
// error and never reach the endpoint.
func TestStallOpensCircuit(t *testing.T) {
	s := newStallServer(t)
	p, err := DialEndpoints(t.Context(), []string{s.URL}, ProviderConfig{RequestTimeout: stallTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	took, err := balance(t.Context(), p)
	if took < stallTimeout || took > stallTimeout+time.Second {
		t.Errorf("first call took %s, want one request timeout (%s)", took, stallTimeout)
	}
	var d *DownError
	if !errors.As(err, &d) || !errors.Is(err, ErrChainDown) {
		t.Fatalf("first call: err = %v, want a DownError", err)
	}
	for _, want := range []string{"chain 1: every RPC endpoint failed in the last 30s", "did not answer in 100ms", "retrying after "} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to say %q", err, want)
		}
	}
	if got := d.ChainDown(); !strings.HasPrefix(got, "chain 1 is not answering: every RPC endpoint failed in the last 30s; retry after ") || strings.Contains(got, "127.0.0.1") {
		t.Errorf("ChainDown() = %q, want the chain and the retry time without the endpoint", got)
	}
	if until := time.Until(d.Retry); until < 29*time.Second || until > 30*time.Second {
		t.Errorf("retry in %s, want the 30s cooldown", until)
	}
	if retryable(err) || refused(t.Context(), err) {
		t.Errorf("a DownError is retryable (%v) or a node's refusal of a send (%v)", retryable(err), refused(t.Context(), err))
	}

	start := time.Now()
	for range 20 {
		if _, err := balance(t.Context(), p); !errors.Is(err, ErrChainDown) {
			t.Fatalf("while open: err = %v, want ErrChainDown", err)
		}
		if _, err := p.Call(t.Context(), ethereum.CallMsg{To: &common.Address{2}}); !errors.Is(err, ErrChainDown) {
			t.Fatalf("call while open: err = %v, want ErrChainDown", err)
		}
		if _, err := p.HeaderLatest(t.Context()); !errors.Is(err, ErrChainDown) {
			t.Fatalf("header while open: err = %v, want ErrChainDown", err)
		}
	}
	if took := time.Since(start); took > 50*time.Millisecond {
		t.Errorf("60 calls while open took %s, want them refused at once", took)
	}
	if n := s.requests.Load(); n != 1 {
		t.Errorf("the stalled endpoint got %d requests, want 1", n)
	}
}

// TestStallProbeRecovers: once the cooldown has passed, one call probes
// the endpoint. A probe that stalls again costs one timeout and opens the
// circuit for another cooldown; once the endpoint answers, the probe
// closes the circuit and calls go through again.
func TestStallProbeRecovers(t *testing.T) {
	s := newStallServer(t)
	p, err := DialEndpoints(t.Context(), []string{s.URL}, ProviderConfig{RequestTimeout: stallTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := balance(t.Context(), p); !errors.Is(err, ErrChainDown) {
		t.Fatalf("err = %v, want ErrChainDown", err)
	}

	expireRests(p)
	took, err := balance(t.Context(), p)
	if !errors.Is(err, ErrChainDown) || took < stallTimeout {
		t.Errorf("probe of a still stalled endpoint: %v in %s, want ErrChainDown after one timeout", err, took)
	}
	if took, err := balance(t.Context(), p); !errors.Is(err, ErrChainDown) || took > 10*time.Millisecond {
		t.Errorf("after a failed probe: %v in %s, want ErrChainDown at once", err, took)
	}

	s.stalling.Store(false)
	expireRests(p)
	for i := range 3 {
		if took, err := balance(t.Context(), p); err != nil || took > stallTimeout {
			t.Errorf("call %d after recovery: %v in %s, want an answer", i, err, took)
		}
	}
	if n := s.requests.Load(); n != 2+3 {
		t.Errorf("the endpoint got %d requests, want 5 (the first call, two probes, two more calls)", n)
	}
	if st := p.Endpoints(); st[0].State != "ok" {
		t.Errorf("endpoints = %+v, want ok", st)
	}
}

// TestStallOneProbeAtATime: while a probe is waiting on the endpoint, the
// other callers are refused at once instead of piling onto it.
func TestStallOneProbeAtATime(t *testing.T) {
	s := newStallServer(t)
	p, err := DialEndpoints(t.Context(), []string{s.URL}, ProviderConfig{RequestTimeout: stallTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	balance(t.Context(), p)
	<-s.arrived
	p.cfg.RequestTimeout = time.Minute // the probe stays in flight until cancelled
	expireRests(p)

	pctx, cancel := context.WithCancel(t.Context())
	probed := make(chan error)
	go func() {
		_, err := balance(pctx, p)
		probed <- err
	}()
	<-s.arrived

	var wg sync.WaitGroup
	errs := make([]error, 8)
	start := time.Now()
	for i := range errs {
		wg.Go(func() { _, errs[i] = balance(t.Context(), p) })
	}
	wg.Wait()
	took := time.Since(start)
	cancel()
	if err := <-probed; !errors.Is(err, context.Canceled) {
		t.Errorf("probe: err = %v, want it cancelled", err)
	}
	for i, err := range errs {
		var d *DownError
		if !errors.As(err, &d) || !d.Probing || !strings.Contains(err.Error(), "one request is trying it again now") {
			t.Errorf("caller %d during the probe: err = %v, want a DownError saying a probe is under way", i, err)
		}
	}
	if took > 50*time.Millisecond {
		t.Errorf("8 callers during the probe took %s, want them refused at once", took)
	}
	if n := s.requests.Load(); n != 2 {
		t.Errorf("the endpoint got %d requests, want 2 (the first call and one probe)", n)
	}
	// The probe was cancelled, not answered: the next call probes again.
	p.cfg.RequestTimeout = stallTimeout
	if _, err := balance(t.Context(), p); !errors.Is(err, ErrChainDown) || s.requests.Load() != 3 {
		t.Errorf("after a cancelled probe: err = %v, %d requests; want a new probe", err, s.requests.Load())
	}
}

// TestStallOtherEndpoint: with a stalling endpoint first and a good one
// behind it, the first call answers after one timeout, later ones at once;
// a transient failure of the good one is retried on it, and the stalled
// endpoint is not tried again before its rest ends.
func TestStallOtherEndpoint(t *testing.T) {
	s := newStallServer(t)
	g := newRPCServer(t)
	g.set("eth_getBalance", `{"result":"0x2"}`)
	p, err := DialEndpoints(t.Context(), []string{s.URL, g.URL}, ProviderConfig{RequestTimeout: stallTimeout, RetryBase: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if took, err := balance(t.Context(), p); err != nil || took < stallTimeout || took > stallTimeout+time.Second {
		t.Errorf("first call: %v in %s, want the answer after one timeout", err, took)
	}
	g.failNext.Store(2)
	for i := range 10 {
		if took, err := balance(t.Context(), p); err != nil || took > 50*time.Millisecond {
			t.Errorf("call %d: %v in %s, want the good endpoint's answer at once", i, err, took)
		}
	}
	if n := s.requests.Load(); n != 1 {
		t.Errorf("the stalled endpoint got %d requests, want 1", n)
	}
	if st := p.Endpoints(); st[0].State != "resting" || !strings.Contains(st[0].Error, "did not answer") {
		t.Errorf("endpoints = %+v, want the first resting after its stall", st)
	}
}

// TestStallSlowButInTime: an endpoint slower than usual but within the
// request timeout is not a stall: nothing opens.
func TestStallSlowButInTime(t *testing.T) {
	slow := newRPCServer(t)
	slow.set("eth_getBalance", `{"result":"0x2"}`)
	inner := slow.Config.Handler
	slow.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := time.NewTimer(30 * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
		}
		inner.ServeHTTP(w, r)
	})
	p, err := DialEndpoints(t.Context(), []string{slow.URL}, ProviderConfig{RequestTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := range 3 {
		if _, err := balance(t.Context(), p); err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	if st := p.Endpoints(); st[0].State != "ok" {
		t.Errorf("endpoints = %+v, want ok", st)
	}
}

// TestStallFlapping: an endpoint that fails every other request is
// retried within each call; it answers, so the circuit never opens.
func TestStallFlapping(t *testing.T) {
	f := newRPCServer(t)
	f.set("eth_getBalance", `{"result":"0x2"}`)
	p, err := DialEndpoints(t.Context(), []string{f.URL}, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := range 10 {
		f.failNext.Store(1)
		if _, err := balance(t.Context(), p); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if n := f.count("eth_getBalance"); n != 20 {
		t.Errorf("requests = %d, want 20 (each call: one failure, one answer)", n)
	}
}

// TestStallCallerDeadline: a caller whose own deadline is shorter than
// the request timeout (the gate gives a read 1 s) gets its deadline error.
// A check then waits the whole request timeout on the endpoint: one that
// stalls is down and the next calls fail fast; one that was only slow for
// that request is not.
func TestStallCallerDeadline(t *testing.T) {
	short := func(p *Provider) (time.Duration, error) {
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
		defer cancel()
		return balance(ctx, p)
	}
	t.Run("stalled", func(t *testing.T) {
		s := newStallServer(t)
		p, err := DialEndpoints(t.Context(), []string{s.URL}, ProviderConfig{RequestTimeout: stallTimeout})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		took, err := short(p)
		if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrChainDown) || took > stallTimeout {
			t.Errorf("short deadline: %v in %s, want the caller's deadline", err, took)
		}
		p.checks.Wait()
		if took, err := short(p); !errors.Is(err, ErrChainDown) || took > 10*time.Millisecond {
			t.Errorf("after the check: %v in %s, want ErrChainDown at once", err, took)
		}
		if n := s.requests.Load(); n != 2 {
			t.Errorf("the endpoint got %d requests, want 2 (the call and the check)", n)
		}
	})
	t.Run("slow", func(t *testing.T) {
		slow := newRPCServer(t)
		slow.set("eth_getBalance", `{"result":"0x2"}`)
		slow.set("eth_blockNumber", `{"result":"0x10"}`)
		inner := slow.Config.Handler
		slow.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if slow.count("eth_chainId") > 0 && slow.count("eth_blockNumber") == 0 {
				t := time.NewTimer(50 * time.Millisecond) // the balance read, not the check
				defer t.Stop()
				select {
				case <-t.C:
				case <-r.Context().Done():
				}
			}
			inner.ServeHTTP(w, r)
		})
		p, err := DialEndpoints(t.Context(), []string{slow.URL}, ProviderConfig{RequestTimeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if _, err := short(p); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("short deadline: %v, want the caller's deadline", err)
		}
		p.checks.Wait()
		if d := p.downError(); d != nil || slow.count("eth_blockNumber") != 1 {
			t.Errorf("after a check it answered: down = %v, %d checks", d, slow.count("eth_blockNumber"))
		}
		if _, err := balance(t.Context(), p); err != nil {
			t.Errorf("a caller that waits: %v", err)
		}
	})
}

// TestStallOtherChainUnaffected: one provider's stalled chain costs
// nothing to another provider's calls, during the stall or after.
func TestStallOtherChainUnaffected(t *testing.T) {
	s := newStallServer(t)
	g := newRPCServer(t)
	g.set("eth_chainId", `{"result":"0x2105"}`)
	g.set("eth_getBalance", `{"result":"0x2"}`)
	stalled, err := DialEndpoints(t.Context(), []string{s.URL}, ProviderConfig{RequestTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	good, err := DialEndpoints(t.Context(), []string{g.URL}, ProviderConfig{RequestTimeout: stallTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		balance(ctx, stalled)
	}()
	<-s.arrived
	for i := range 5 {
		if took, err := balance(t.Context(), good); err != nil || took > 50*time.Millisecond {
			t.Errorf("chain 8453, call %d while chain 1 stalls: %v in %s", i, err, took)
		}
	}
	cancel()
	<-done
}

// TestStallAtDial: an endpoint that accepts connections and never answers
// costs one request timeout at dial, not one per retry; the provider
// opens on the next endpoint, and its calls never wait on the silent one.
func TestStallAtDial(t *testing.T) {
	g := newRPCServer(t)
	g.set("eth_getBalance", `{"result":"0x2"}`)
	cfg := ProviderConfig{RequestTimeout: stallTimeout}
	start := time.Now()
	p, err := DialEndpoints(t.Context(), []string{silentURL(t), g.URL}, cfg)
	if took := time.Since(start); err != nil || took > stallTimeout+time.Second {
		t.Fatalf("dial: %v in %s, want one timeout", err, took)
	}
	defer p.Close()
	if took, err := balance(t.Context(), p); err != nil || took > 50*time.Millisecond {
		t.Errorf("first call: %v in %s, want the good endpoint at once", err, took)
	}

	start = time.Now()
	_, err = DialEndpoints(t.Context(), []string{silentURL(t)}, cfg)
	if took := time.Since(start); err == nil || !strings.Contains(err.Error(), "did not answer in 100ms") || took > stallTimeout+time.Second {
		t.Errorf("dial of a silent endpoint alone: %v in %s, want a stall after one timeout", err, took)
	}
}

// TestUnreachableOpensCircuit: an endpoint that fails every attempt of a
// call without answering (HTTP 503 from its gateway) is down as well: the
// next calls are refused without reaching it until a probe finds it back.
// A node that answers that it is behind is not down.
func TestUnreachableOpensCircuit(t *testing.T) {
	s := newRPCServer(t)
	s.set("eth_getBalance", `{"result":"0x2"}`)
	p, err := DialEndpoints(t.Context(), []string{s.URL}, fastRetry)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s.failNext.Store(1000)
	if _, err := balance(t.Context(), p); !errors.Is(err, ErrChainDown) || !strings.Contains(err.Error(), "503") {
		t.Fatalf("err = %v, want ErrChainDown naming the 503", err)
	}
	if _, err := balance(t.Context(), p); !errors.Is(err, ErrChainDown) {
		t.Errorf("while open: err = %v, want ErrChainDown", err)
	}
	if n := s.count("eth_getBalance"); n != 4 {
		t.Errorf("requests = %d, want 4 (the first call's attempts only)", n)
	}
	s.failNext.Store(0)
	expireRests(p)
	if _, err := balance(t.Context(), p); err != nil {
		t.Errorf("probe after recovery: %v", err)
	}

	s.set("eth_getBalance", `{"error":{"code":-32000,"message":"header not found"}}`)
	if _, err := balance(t.Context(), p); err == nil || errors.Is(err, ErrChainDown) {
		t.Errorf("behind: err = %v, want the node's error", err)
	}
	if d := p.downError(); d != nil {
		t.Errorf("a node that answers it is behind is down: %v", d)
	}
}

// TestStallCheckEndsOnClose: Close ends a liveness check under way and
// waits for it, instead of leaving it to run out its timeout.
func TestStallCheckEndsOnClose(t *testing.T) {
	s := newStallServer(t)
	p, err := DialEndpoints(t.Context(), []string{s.URL}, ProviderConfig{RequestTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	balance(ctx, p)
	<-s.arrived // the call
	<-s.arrived // the check
	start := time.Now()
	p.Close()
	if took := time.Since(start); took > time.Second {
		t.Errorf("Close took %s with a check under way, want it ended", took)
	}
	if p.endpointChecking() {
		t.Error("a check is still under way after Close")
	}
}

func (p *Provider) endpointChecking() bool {
	for _, e := range p.eps {
		if e.checking.Load() {
			return true
		}
	}
	return false
}
