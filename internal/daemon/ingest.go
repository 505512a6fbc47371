package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/validate"
	"github.com/wardhq/ward/internal/validate/onchain"
	"github.com/wardhq/ward/internal/validate/reasoning"
)

// IngestConfig configures an ingestion pipeline of its own: a SQLite
// store, an empty oracle and immune memory, the hashed embedder, Stage
// 2's three layers and L3 against the address book (no chain).
type IngestConfig struct {
	// DB is the SQLite file; empty: a fresh one in a temporary directory,
	// removed by the returned close function.
	DB       string
	ChainID  uint64
	Registry *quarantine.LocalRegistry
	// Strictness of consensus (the zero value is Paranoid).
	Strictness knowledge.Strictness
	// Models are L3b's mental models; nil: the shipped ones.
	Models []validate.Model
	// Book is the address book L3 checks what entries say addresses are
	// against: a ward.toml's (config.File.Book, the operator's overrides
	// applied) to judge as `ward serve` does; nil: the shipped book.
	Book *addrbook.Book
	// Bus receives the pipeline's events; nil: none.
	Bus *event.Bus
	// Sandbox runs Stage 3 at strict and paranoid strictness (the running
	// binary must serve sandbox children: sandbox.Main with skill.Job);
	// without it actionable entries wait in quarantine there.
	Sandbox bool
	// Reasoner, if set, runs L2's LLM path (ingest.WithReasoner).
	Reasoner *reasoning.Reasoner
}

// OpenIngest returns a pipeline over its own store, its Grimoire view
// loaded, and the function that closes (and, for a temporary store,
// removes) it: what `ward ingest` and `ward eval poisoning` run entries
// through, outside a data directory's stack.
func OpenIngest(ctx context.Context, cfg IngestConfig) (*ingest.Pipeline, func() error, error) {
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
	st, err := OpenStore(ctx, db, "normal")
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
	vals, err := ingest.Stage2(cfg.Models, ingest.WithReasoner(cfg.Reasoner))
	if err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	book := validate.NewBookVerifier(cfg.Book)
	vals = append(vals, ingest.OnChain(nil, onchain.Config{Book: cfg.Book, Verifier: book}))
	var s3 *ingest.Stage3
	if cfg.Sandbox {
		s3 = &ingest.Stage3{}
	}
	p, err := ingest.New(ingest.Config{Embedder: embed.NewHashed(embed.HashedConfig{}), Oracle: orc, Immune: im, Checker: checker,
		Store: st, Bus: cfg.Bus, Validators: vals, Strictness: cfg.Strictness, Stage3: s3, Verifier: book, Models: cfg.Models})
	if err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	if err := p.Grimoire().Load(ctx, st); err != nil {
		return nil, nil, errors.Join(err, closeAll())
	}
	return p, closeAll, nil
}
