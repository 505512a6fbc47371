package chain

import (
	"context"
	"errors"
	"fmt"
	"sync"
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
}

func newEndpoint(name string, c *rpc.Client, owned bool) *endpoint {
	return &endpoint{name: name, rpc: c, ec: ethclient.NewClient(c), owned: owned}
}

func (e *endpoint) wrongChain() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.wrong
}

// errStalled marks an endpoint that did not answer within the request
// timeout while the caller was still waiting: transient, try another.
var errStalled = errors.New("the endpoint did not answer in time")

// errNoEndpoint is returned when every endpoint serves another chain.
var errNoEndpoint = errors.New("no endpoint serves the chain")

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
	actx, cancel := context.WithTimeout(ctx, p.cfg.RequestTimeout)
	id, err := e.ec.ChainID(actx)
	stalled := err != nil && ctx.Err() == nil && actx.Err() != nil
	cancel()
	if stalled {
		err = errStalled
	}
	if err != nil {
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

// order returns the endpoints to try: the one that answered last, then
// the others in configured order, those resting after a failure last.
// Endpoints of another chain are left out.
func (p *Provider) order() []int {
	now := time.Now()
	first := int(p.cur.Load())
	var ready, resting []int
	for k := range p.eps {
		i := (first + k) % len(p.eps)
		e := p.eps[i]
		e.mu.Lock()
		wrong, rest := e.wrong != nil, now.Before(e.restUntil)
		e.mu.Unlock()
		switch {
		case wrong:
		case rest:
			resting = append(resting, i)
		default:
			ready = append(ready, i)
		}
	}
	return append(ready, resting...)
}

// each runs f on the endpoints in order until one answers or one fails
// finally (a revert or another JSON-RPC error, which any endpoint would
// give). An endpoint that fails transiently or stalls is rested and the
// next is tried at once; when all failed, the joined error is transient
// and the provider's backoff retries.
func (p *Provider) each(ctx context.Context, f func(ctx context.Context, e *endpoint) error) error {
	var errs []error
	for _, i := range p.order() {
		e := p.eps[i]
		if err := p.verify(ctx, e); err != nil {
			if ctx.Err() != nil {
				return err
			}
			if e.wrongChain() == nil {
				p.rest(e)
			}
			errs = append(errs, fmt.Errorf("%s: %w", e.name, err))
			continue
		}
		actx, cancel := context.WithTimeout(ctx, p.cfg.RequestTimeout)
		err := f(actx, e)
		stalled := err != nil && ctx.Err() == nil && actx.Err() != nil
		cancel()
		if err == nil {
			p.cur.Store(int32(i))
			return nil
		}
		if stalled {
			err = errStalled
		}
		if !retryable(err) {
			return err
		}
		p.rest(e)
		if len(p.eps) == 1 {
			return err
		}
		errs = append(errs, fmt.Errorf("%s: %w", e.name, err))
	}
	if len(errs) == 0 {
		return errNoEndpoint
	}
	return errors.Join(errs...)
}

func (p *Provider) rest(e *endpoint) {
	e.mu.Lock()
	e.restUntil = time.Now().Add(p.cfg.Cooldown)
	e.mu.Unlock()
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
