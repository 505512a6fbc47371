package quarantine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"
)

// Registry answers whether an agent address has an identity. The ERC-8004
// on-chain registry will be one implementation; LocalRegistry is the
// other.
type Registry interface {
	// Known reports whether address (0x-hex, either case) is registered.
	// An error means the registry could not answer; Stage 1 then refuses.
	Known(ctx context.Context, address string) (bool, error)
}

// LocalRegistry is a registry held in memory, loaded from a list of
// addresses. It is safe for concurrent use.
type LocalRegistry struct {
	mu    sync.RWMutex
	known map[common.Address]struct{}
}

var _ Registry = (*LocalRegistry)(nil)

// NewLocalRegistry returns a registry of addresses, refusing any that is
// not a 0x-hex address.
func NewLocalRegistry(addresses ...string) (*LocalRegistry, error) {
	r := &LocalRegistry{known: make(map[common.Address]struct{}, len(addresses))}
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
	reg := &LocalRegistry{known: make(map[common.Address]struct{})}
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

func parseAddress(s string) (common.Address, bool) {
	if len(s) != 42 || (s[:2] != "0x" && s[:2] != "0X") || !common.IsHexAddress(s) {
		return common.Address{}, false
	}
	return common.HexToAddress(s), true
}
