package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
)

// endpoint is one JSON-RPC endpoint of a provider's chain.
type endpoint struct {
	name  string // the redacted URL, for messages
	rpc   *rpc.Client
	ec    *ethclient.Client
	owned bool // the provider dialled it and closes it

	mu        sync.Mutex
	verified  bool      // it said it serves the provider's chain
	wrong     error     // it serves another chain: never used
	restUntil time.Time // it failed: tried after the others until then
	down      error     // it did not answer (stalled or unreachable), and has not answered since
	stalled   bool      // down because it stalled: not tried at all until its rest ends

	checking atomic.Bool // a liveness check is under way (suspect)
}

func newEndpoint(name string, c *rpc.Client, owned bool) *endpoint {
	return &endpoint{name: name, rpc: c, ec: ethclient.NewClient(c), owned: owned}
}

func (e *endpoint) wrongChain() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.wrong
}

// errStalled matches a request an endpoint did not answer within the
// request timeout while the caller was still waiting: transient, try
// another endpoint, never the same one again within the call.
var errStalled = errors.New("did not answer in time")

type stallError struct{ after time.Duration }

func (e *stallError) Error() string        { return fmt.Sprintf("did not answer in %s", e.after) }
func (e *stallError) Is(target error) bool { return target == errStalled }

// errNoEndpoint is returned when every endpoint serves another chain.
var errNoEndpoint = errors.New("no endpoint serves the chain")

// ErrChainDown is matched by a *DownError.
var ErrChainDown = errors.New("every RPC endpoint of the chain failed")

// DownError is a request refused at once, without reaching any endpoint,
// or given up, because every endpoint of the provider's chain that serves
// it failed to answer (stalled past RequestTimeout or was unreachable)
// and has not answered since: the provider's circuit is open. Calls fail
// this way until Retry, when one call at a time (the probe) tries an
// endpoint again; its success closes the circuit. It matches
// ErrChainDown.
type DownError struct {
	ChainID  uint64
	Cooldown time.Duration // how long a failed endpoint rests
	First    error         // the first endpoint's failure, with its name
	Retry    time.Time     // when an endpoint is tried again
	Probing  bool          // a probe is trying an endpoint now
}

func (e *DownError) Error() string {
	if e.Probing { // the failures may be older than the cooldown
		return fmt.Sprintf("chain %d: every RPC endpoint failed (first: %v); one request is trying it again now", e.ChainID, e.First)
	}
	return fmt.Sprintf("chain %d: every RPC endpoint failed in the last %s (first: %v); retrying after %s", e.ChainID, e.Cooldown, e.First, e.Retry.UTC().Format("15:04:05 UTC"))
}

// ChainDown is the error for an agent: the chain and when it is tried
// again, without the endpoints' addresses.
func (e *DownError) ChainDown() string {
	if e.Probing {
		return fmt.Sprintf("chain %d is not answering: every RPC endpoint failed; it is being tried again now", e.ChainID)
	}
	return fmt.Sprintf("chain %d is not answering: every RPC endpoint failed in the last %s; retry after %s", e.ChainID, e.Cooldown, e.Retry.UTC().Format("15:04:05 UTC"))
}

// Is reports whether target is ErrChainDown.
func (e *DownError) Is(target error) bool { return target == ErrChainDown }

// verify checks, once, that e serves the provider's chain (learning the
// chain from the first endpoint that answers when none is configured).
// An endpoint of another chain is marked wrong for good.
func (p *Provider) verify(ctx context.Context, e *endpoint) error {
	e.mu.Lock()
	verified, wrong := e.verified, e.wrong
	e.mu.Unlock()
	if wrong != nil {
		return wrong
	}
	if verified {
		return nil
	}
	var id *big.Int
	if err := p.request(ctx, func(ctx context.Context) (err error) {
		id, err = e.ec.ChainID(ctx)
		return err
	}); err != nil {
		return err
	}
	p.idMu.Lock()
	defer p.idMu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case !id.IsUint64() || id.Sign() == 0:
		e.wrong = fmt.Errorf("%s reports chain id %s", e.name, id)
	case p.chainID == 0:
		p.chainID = id.Uint64()
	case id.Uint64() != p.chainID:
		e.wrong = fmt.Errorf("%s serves chain %d, configured for %d", e.name, id.Uint64(), p.chainID)
	}
	if e.wrong != nil {
		return e.wrong
	}
	e.verified = true
	return nil
}

// request runs f bounded by RequestTimeout; running out of it while ctx
// is still live is a stall.
func (p *Provider) request(ctx context.Context, f func(ctx context.Context) error) error {
	actx, cancel := context.WithTimeout(ctx, p.cfg.RequestTimeout)
	defer cancel()
	err := f(actx)
	if err != nil && ctx.Err() == nil && actx.Err() != nil {
		return &stallError{after: p.cfg.RequestTimeout}
	}
	return err
}

// order returns the endpoints to try: the one that answered last, then
// the others in configured order, those resting after a failure last.
// Endpoints of another chain are left out, and so are those resting after
// a stall: trying one again would cost another timeout.
func (p *Provider) order() []int {
	now := time.Now()
	first := int(p.cur.Load())
	var ready, resting []int
	for k := range p.eps {
		i := (first + k) % len(p.eps)
		e := p.eps[i]
		e.mu.Lock()
		wrong, rest, stalled := e.wrong != nil, now.Before(e.restUntil), e.stalled
		e.mu.Unlock()
		switch {
		case wrong, rest && stalled:
		case rest:
			resting = append(resting, i)
		default:
			ready = append(ready, i)
		}
	}
	return append(ready, resting...)
}

// admit lets a call go to the endpoints while the circuit is closed: some
// endpoint serving the chain is up (it answered last time, or has not
// been tried). When all are down the circuit is open and the call gets a
// *DownError at once, until one's rest ends; then it is half-open: one
// call at a time goes through as the probe (probe is true and the caller
// must call endProbe), the others still get the *DownError.
func (p *Provider) admit() (probe bool, err error) {
	now := time.Now()
	usable, resting := 0, 0
	for _, e := range p.eps {
		e.mu.Lock()
		wrong, down, rest := e.wrong != nil, e.down != nil, now.Before(e.restUntil)
		e.mu.Unlock()
		switch {
		case wrong:
			continue
		case !down:
			return false, nil
		case rest:
			resting++
		}
		usable++
	}
	if usable == 0 {
		return false, nil // each says no endpoint serves the chain
	}
	if resting == usable {
		return false, p.downError()
	}
	if !p.probing.CompareAndSwap(false, true) {
		d := p.downError()
		d.Probing = true
		return false, d
	}
	return true, nil
}

func (p *Provider) endProbe() { p.probing.Store(false) }

// downError describes the open circuit, or is nil while some endpoint
// serving the chain is up (or none serves it).
func (p *Provider) downError() *DownError {
	var d *DownError
	for _, e := range p.eps {
		e.mu.Lock()
		wrong, down, until := e.wrong, e.down, e.restUntil
		e.mu.Unlock()
		switch {
		case wrong != nil:
		case down == nil:
			return nil
		case d == nil:
			d = &DownError{ChainID: p.chainID, Cooldown: p.cfg.Cooldown, First: fmt.Errorf("%s: %w", e.name, down), Retry: until}
		case until.Before(d.Retry):
			d.Retry = until
		}
	}
	return d
}

// each runs f on the endpoints in order until one answers or one fails
// finally (a revert or another JSON-RPC error, which any endpoint would
// give). An endpoint that fails transiently or stalls is rested and the
// next is tried at once; when all failed, the joined error is transient
// and the provider's backoff retries, except when every endpoint left
// stalled: then it is the *DownError, which is not retried.
func (p *Provider) each(ctx context.Context, f func(ctx context.Context, e *endpoint) error) error {
	var errs []error
	for _, i := range p.order() {
		e := p.eps[i]
		err := p.verify(ctx, e)
		verified := err == nil
		if verified {
			err = p.request(ctx, func(ctx context.Context) error { return f(ctx, e) })
		}
		switch {
		case err == nil:
			p.cur.Store(int32(i))
			p.answered(e)
			return nil
		case ctx.Err() != nil:
			// The caller stopped waiting first: the endpoint goes last
			// next time, and a check finds whether it stalled.
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				p.rest(e, nil)
				p.suspect(ctx, e)
			}
			return err
		case e.wrongChain() != nil:
		case verified && !retryable(err):
			p.answered(e)
			return err
		default:
			p.rest(e, err)
		}
		errs = append(errs, fmt.Errorf("%s: %w", e.name, err))
	}
	if len(p.order()) == 0 {
		if d := p.downError(); d != nil {
			return d
		}
	}
	if len(errs) == 0 {
		return errNoEndpoint
	}
	return errors.Join(errs...)
}

// suspect checks e after a caller's deadline cut a wait on it short:
// that deadline (the gate gives a read 1 s) says nothing of the endpoint,
// so eth_blockNumber is asked, in the background, with the whole
// RequestTimeout; if it gets no answer e is down, as if the caller had
// waited, and the next calls fail fast instead of each spending its
// deadline on the stall. One check per endpoint at a time; Close ends
// them and waits for them.
func (p *Provider) suspect(ctx context.Context, e *endpoint) {
	if !e.checking.CompareAndSwap(false, true) {
		return
	}
	p.life.Lock()
	if p.isClosed {
		p.life.Unlock()
		e.checking.Store(false)
		return
	}
	p.checks.Add(1)
	p.life.Unlock()
	go func() {
		defer p.checks.Done()
		defer e.checking.Store(false)
		ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		defer cancel()
		go func() {
			select {
			case <-p.closed:
				cancel()
			case <-ctx.Done():
			}
		}()
		err := p.request(ctx, func(ctx context.Context) error {
			_, err := e.ec.BlockNumber(ctx)
			return err
		})
		if err != nil && retryable(err) && ctx.Err() == nil {
			p.rest(e, err)
		}
	}()
}

// rest puts e after the others for Cooldown after it failed with err: it
// is down when it did not answer at all (it stalled, or the network or an
// HTTP gateway failed), up when it answered that it cannot serve now (a
// rate limit, a block it has not seen yet). A nil err rests it without
// saying either.
func (p *Provider) rest(e *endpoint, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.restUntil = time.Now().Add(p.cfg.Cooldown)
	switch {
	case err == nil:
	case answeredWith(err):
		e.down, e.stalled = nil, false
	default:
		e.down, e.stalled = err, errors.Is(err, errStalled)
	}
}

// answered records that e answered: it is up and not resting.
func (p *Provider) answered(e *endpoint) {
	e.mu.Lock()
	e.restUntil, e.down, e.stalled = time.Time{}, nil, false
	e.mu.Unlock()
}

// answeredWith reports whether err, a transient failure, came from the
// node itself (a JSON-RPC error or HTTP 429) rather than from not
// reaching it.
func answeredWith(err error) bool {
	if errors.Is(err, errStalled) {
		return false
	}
	var re rpc.Error
	if errors.As(err, &re) {
		return true
	}
	var he rpc.HTTPError
	return errors.As(err, &he) && he.StatusCode == 429
}

// Endpoints says, for each endpoint in configured order, whether it is
// usable now: "ok", "resting" after a failure, "unverified" (it has not
// answered yet) or why it is never used.
func (p *Provider) Endpoints() []EndpointStatus {
	now := time.Now()
	out := make([]EndpointStatus, len(p.eps))
	for i, e := range p.eps {
		e.mu.Lock()
		st := EndpointStatus{Name: e.name, State: "ok"}
		switch {
		case e.wrong != nil:
			st.State, st.Error = "wrong chain", e.wrong.Error()
		case now.Before(e.restUntil):
			st.State = "resting"
			if e.down != nil {
				st.Error = e.down.Error()
			}
		case !e.verified:
			st.State = "unverified"
		}
		e.mu.Unlock()
		out[i] = st
	}
	return out
}

// EndpointStatus is one endpoint's state (Provider.Endpoints).
type EndpointStatus struct {
	Name  string `json:"name"` // the redacted URL
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}
