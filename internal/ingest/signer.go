package ingest

import (
	"crypto/ecdsa"
	"sync"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/quarantine"
)

// Signer signs unsigned entries with one key per source, generated in this
// process, and registers each key's address as a known identity: how `ward
// ingest` and `ward eval poisoning` stand in for real authors.
type Signer struct {
	chainID uint64
	reg     *quarantine.LocalRegistry
	mu      sync.Mutex
	keys    map[string]*ecdsa.PrivateKey
}

// NewSigner returns a signer that registers its keys in reg.
func NewSigner(chainID uint64, reg *quarantine.LocalRegistry) *Signer {
	return &Signer{chainID: chainID, reg: reg, keys: map[string]*ecdsa.PrivateKey{}}
}

// Sign sets e's agent to the key of source (made on first use) and signs e.
func (s *Signer) Sign(e *knowledge.Entry, source string) error {
	s.mu.Lock()
	k, ok := s.keys[source]
	if !ok {
		var err error
		if k, err = crypto.GenerateKey(); err != nil {
			s.mu.Unlock()
			return err
		}
		if err := s.reg.Add(crypto.PubkeyToAddress(k.PublicKey).Hex()); err != nil {
			s.mu.Unlock()
			return err
		}
		s.keys[source] = k
	}
	s.mu.Unlock()
	e.Source.Agent = crypto.PubkeyToAddress(k.PublicKey).Hex()
	return quarantine.Sign(e, s.chainID, k)
}
