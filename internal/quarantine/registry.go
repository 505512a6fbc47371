package quarantine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/tool"
)

// Registry answers whether an agent address has an identity.
// LocalRegistry is one implementation; identity.ERC8004Registry, which
// asks an ERC-8004 identity registry on chain, is the other, and
// identity.Either combines them.
type Registry interface {
	// Known reports whether address (0x-hex, either case) is registered.
	// An error means the registry could not answer; Stage 1 then refuses.
	Known(ctx context.Context, address string) (bool, error)
}

// LocalRegistry is a registry held in memory, loaded from a list of
// addresses, with optional clade membership (seed 001 §9): the clade an
// identity belongs to and the operator's confidence in it, its intra-clade
// trust, which Demote lowers. It is safe for concurrent use.
type LocalRegistry struct {
	mu      sync.RWMutex
	known   map[common.Address]struct{}
	members map[common.Address]Member
}

// Member is an identity's clade membership.
type Member struct {
	Clade string // the clade's id, 1 to knowledge.MaxID bytes
	// Confidence is the operator's trust in the member, in [0, 1]: above
	// TrustedMember its entries skip L1 and the sandbox.
	Confidence float64
}

// TrustedMember is the confidence above which a member of the operator's
// own clade is trusted (seed 001 §9: "confidence > 0.8").
const TrustedMember = 0.8

var _ Registry = (*LocalRegistry)(nil)

// NewLocalRegistry returns a registry of addresses, refusing any that is
// not a 0x-hex address.
func NewLocalRegistry(addresses ...string) (*LocalRegistry, error) {
	r := &LocalRegistry{known: make(map[common.Address]struct{}, len(addresses)), members: map[common.Address]Member{}}
	for _, a := range addresses {
		if err := r.Add(a); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ReadLocalRegistry reads a registry from r: one address per line; blank
// lines and lines starting with # are skipped.
func ReadLocalRegistry(r io.Reader) (*LocalRegistry, error) {
	reg := &LocalRegistry{known: make(map[common.Address]struct{}), members: map[common.Address]Member{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := reg.Add(line); err != nil {
			return nil, fmt.Errorf("%w (line %d)", err, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("quarantine: read registry: %w", err)
	}
	return reg, nil
}

// Add registers address.
func (r *LocalRegistry) Add(address string) error {
	a, ok := parseAddress(address)
	if !ok {
		return fmt.Errorf("quarantine: registry: %.50q is not a 0x-hex address", address)
	}
	r.mu.Lock()
	r.known[a] = struct{}{}
	r.mu.Unlock()
	return nil
}

// AddMember registers address as a known identity and a member of clade
// at confidence, replacing any earlier membership. It refuses a malformed
// address, an empty or overlong clade id and a confidence outside [0, 1].
func (r *LocalRegistry) AddMember(address, clade string, confidence float64) error {
	a, ok := parseAddress(address)
	if !ok {
		return fmt.Errorf("quarantine: registry: %.50q is not a 0x-hex address", address)
	}
	if clade == "" || len(clade) > knowledge.MaxID {
		return fmt.Errorf("quarantine: registry: clade id of %s must be 1 to %d bytes", a.Hex(), knowledge.MaxID)
	}
	if !(confidence >= 0 && confidence <= 1) {
		return fmt.Errorf("quarantine: registry: confidence %v of %s is outside [0, 1]", confidence, a.Hex())
	}
	r.mu.Lock()
	r.known[a] = struct{}{}
	r.members[a] = Member{Clade: clade, Confidence: confidence}
	r.mu.Unlock()
	return nil
}

// Member returns address's clade membership; false if it has none.
func (r *LocalRegistry) Member(address string) (Member, bool) {
	a, ok := parseAddress(address)
	if !ok {
		return Member{}, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	m, ok := r.members[a]
	return m, ok
}

// Demote lowers address's confidence by by, not below 0, and returns the
// new confidence; false if address is not a member. The change lives in
// memory: a restart reloads the configured confidence.
func (r *LocalRegistry) Demote(address string, by float64) (float64, bool) {
	a, ok := parseAddress(address)
	if !ok {
		return 0, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	m, ok := r.members[a]
	if !ok {
		return 0, false
	}
	if by > 0 {
		m.Confidence = max(0, m.Confidence-by)
		r.members[a] = m
	}
	return m.Confidence, true
}

// Known reports whether address is registered; a malformed address is
// not.
func (r *LocalRegistry) Known(_ context.Context, address string) (bool, error) {
	a, ok := parseAddress(address)
	if !ok {
		return false, nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, known := r.known[a]
	return known, nil
}

// parseAddress parses s with tool.ParseAddress, as go-ethereum's type.
func parseAddress(s string) (common.Address, bool) {
	a, err := tool.ParseAddress(s)
	if err != nil {
		return common.Address{}, false
	}
	return common.Address(a), true
}
