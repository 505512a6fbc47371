package chain

import (
	"errors"
	"fmt"
	"slices"
	"sync"
)

// ErrUnknownChain is returned (wrapped) by Providers.Get for a chain no
// provider serves.
var ErrUnknownChain = errors.New("no provider for chain")

// Providers is the set of providers ward may use, keyed by chain ID. It is
// safe for concurrent use; the zero value is an empty set.
type Providers struct {
	mu sync.RWMutex
	m  map[uint64]*Provider
}

// NewProviders returns a registry holding ps; two providers for the same
// chain are an error.
func NewProviders(ps ...*Provider) (*Providers, error) {
	r := &Providers{}
	for _, p := range ps {
		if err := r.Add(p); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Add registers p under its chain ID; a second provider for a chain is an
// error.
func (r *Providers) Add(p *Provider) error {
	if p == nil {
		return errors.New("providers: nil provider")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[uint64]*Provider{}
	}
	if _, dup := r.m[p.ChainID()]; dup {
		return fmt.Errorf("providers: chain %d already has a provider", p.ChainID())
	}
	r.m[p.ChainID()] = p
	return nil
}

// Get returns the provider for chain id, or an error wrapping
// ErrUnknownChain that lists the chains configured.
func (r *Providers) Get(id uint64) (*Provider, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if p, ok := r.m[id]; ok {
		return p, nil
	}
	if len(r.m) == 0 {
		return nil, fmt.Errorf("%w %d (no chains configured)", ErrUnknownChain, id)
	}
	return nil, fmt.Errorf("%w %d (configured: %v)", ErrUnknownChain, id, r.chainsLocked())
}

// Chains returns the configured chain IDs in ascending order.
func (r *Providers) Chains() []uint64 {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.chainsLocked()
}

func (r *Providers) chainsLocked() []uint64 {
	ids := make([]uint64, 0, len(r.m))
	for id := range r.m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
