package daemon

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/embed"
	"github.com/wardhq/ward/internal/identity"
	"github.com/wardhq/ward/internal/identity/identitytest"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// TestPipelineStage1 runs entries through ingestion with Stage 1 asking
// the local registry, then the identity registry on the dev chain, as the
// daemon wires it.
func TestPipelineStage1(t *testing.T) {
	c := identitytest.StartChain(t)
	reg := c.Deploy(identitytest.RegistryRuntime)
	onchainAgent := c.FundedKey()
	c.Register(reg, onchainAgent)
	localAgent, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}

	local, err := quarantine.NewLocalRegistry(identitytest.Addr(localAgent))
	if err != nil {
		t.Fatal(err)
	}
	cr := &identitytest.CountingReader{Reader: c.Provider()}
	onchain, err := identity.NewERC8004Registry(cr, reg, identity.ERC8004Config{})
	if err != nil {
		t.Fatal(err)
	}
	checker, err := quarantine.New(quarantine.Config{ChainID: chain.DevChainID, Registry: identity.Either(local, onchain)})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(t.TempDir(), "ward.db"), Synchronous: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	orc, err := oracle.New(oracle.Config{})
	if err != nil {
		t.Fatal(err)
	}
	im, err := oracle.NewImmune(oracle.ImmuneConfig{})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	p, err := ingest.New(ingest.Config{Embedder: embed.NewHashed(embed.HashedConfig{}), Oracle: orc, Immune: im,
		Checker: checker, Store: st, Strictness: knowledge.Relaxed, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}

	seq := 0
	signed := func(k *ecdsa.PrivateKey) *knowledge.Entry {
		seq++
		e := &knowledge.Entry{ID: fmt.Sprintf("e%04d", seq), Type: knowledge.TypeInsight, Confidence: 0.5,
			Content: fmt.Sprintf("ETH/USDC 0.05%% pool fees rise when realised volatility spikes (observation %d).", seq),
			Source:  knowledge.Source{Provenance: knowledge.Purchased, Timestamp: now.Add(-time.Hour)}}
		if err := quarantine.Sign(e, chain.DevChainID, k); err != nil {
			t.Fatal(err)
		}
		return e
	}
	// With no validators, an entry past Stage 1 waits at Stage 2 for
	// consensus.
	passed := func(t *testing.T, r *ingest.Report) {
		t.Helper()
		if r.Stage != ingest.StageStage2 || r.Code != reason.KnowledgeNoConsensus || r.Attack != knowledge.NoAttack {
			t.Fatalf("got %s at %s (%s, attack %q, reasons %v), want it past Stage 1", r.Verdict, r.Stage, r.Code, r.Attack, r.Reasons)
		}
	}

	t.Run("agent registered on chain passes Stage 1", func(t *testing.T) {
		r, err := p.Ingest(t.Context(), signed(onchainAgent))
		if err != nil {
			t.Fatal(err)
		}
		passed(t, r)
	})
	t.Run("local identity passes Stage 1 without a call", func(t *testing.T) {
		before := cr.Calls.Load()
		r, err := p.Ingest(t.Context(), signed(localAgent))
		if err != nil {
			t.Fatal(err)
		}
		passed(t, r)
		if got := cr.Calls.Load(); got != before {
			t.Errorf("%d on-chain calls for a local identity, want none", got-before)
		}
	})
	t.Run("unregistered key is a provenance forgery", func(t *testing.T) {
		r, err := p.Ingest(t.Context(), signed(stranger))
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != ingest.Rejected || r.Stage != ingest.StageStage1 || r.Code != reason.KnowledgeForgery || r.Attack != knowledge.ProvenanceForgery {
			t.Fatalf("got %s at %s (%s, attack %q), want rejected at Stage 1 as %s", r.Verdict, r.Stage, r.Code, r.Attack, knowledge.ProvenanceForgery)
		}
	})
	t.Run("registry that cannot answer leaves the entry undecided", func(t *testing.T) {
		cr.Fail.Store(true)
		defer cr.Fail.Store(false)
		other, err := crypto.GenerateKey()
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Ingest(t.Context(), signed(other))
		if !errors.Is(err, identitytest.ErrRPC) {
			t.Fatalf("Ingest = %+v, %v; want the registry's error", r, err)
		}
	})
}
