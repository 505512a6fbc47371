package ingest

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/validate"
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

// LocalConfig configures a pipeline of its own: a SQLite store, an empty
// oracle and immune memory, the hashed embedder and Stage 2's three layers.
type LocalConfig struct {
	// DB is the SQLite file; empty: a fresh one in a temporary directory,
	// removed by the returned close function.
	DB       string
	ChainID  uint64
	Registry *quarantine.LocalRegistry
	// Strictness of consensus (the zero value is Paranoid).
	Strictness knowledge.Strictness
	// Models are L3b's mental models; nil: the shipped ones.
	Models []validate.Model
	Bus    *event.Bus
	// Sandbox runs Stage 3 at strict and paranoid strictness (the running
	// binary must serve sandbox children: sandbox.Main with skill.Job);
	// without it actionable entries wait in quarantine there.
	Sandbox bool
}

// OpenLocal returns a pipeline over its own store, its Grimoire view
// loaded, and the function that closes (and, for a temporary store,
// removes) it.
func OpenLocal(ctx context.Context, cfg LocalConfig) (*Pipeline, func() error, error) {
	if cfg.Registry == nil {
		return nil, nil, errors.New("ingest: a local pipeline needs an identity registry")
	}
	var cleanup []func() error
	closeAll := func() error {
		var errs []error
		for i := len(cleanup) - 1; i >= 0; i-- {
			errs = append(errs, cleanup[i]())
		}
		return errors.Join(errs...)
	}
	db := cfg.DB
	if db == "" {
		dir, err := os.MkdirTemp("", "ward-ingest-")
		if err != nil {
			return nil, nil, err
		}
		cleanup = append(cleanup, func() error { return os.RemoveAll(dir) })
		db = filepath.Join(dir, "ward.db")
	}
	st, err := sqlite.Open(ctx, sqlite.Config{Path: db, Synchronous: "normal"})
	if err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	cleanup = append(cleanup, st.Close)
	checker, err := quarantine.New(quarantine.Config{ChainID: cfg.ChainID, Registry: cfg.Registry})
	if err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	orc, err := oracle.New(oracle.Config{})
	if err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	im, err := oracle.NewImmune(oracle.ImmuneConfig{})
	if err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	vals, err := Stage2(cfg.Models)
	if err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	var s3 *Stage3
	if cfg.Sandbox {
		s3 = &Stage3{}
	}
	p, err := New(Config{Embedder: embed.NewHashed(embed.HashedConfig{}), Oracle: orc, Immune: im, Checker: checker,
		Store: st, Bus: cfg.Bus, Validators: vals, Strictness: cfg.Strictness, Stage3: s3})
	if err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	if err := p.Grimoire().Load(ctx, st); err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	return p, closeAll, nil
}
