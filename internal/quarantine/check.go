package quarantine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/knowledge"
)

// Defaults of Config.
const (
	DefaultReplayWindow = 7 * 24 * time.Hour // the seed's audit retention
	DefaultReplayKeys   = 100_000
)

// Config configures a Checker.
type Config struct {
	ChainID  uint64   // the chain of the signing domain; required
	Registry Registry // required
	// ReplayWindow is how long an (agent, content) pair is refused after
	// it was admitted; 0: DefaultReplayWindow.
	ReplayWindow time.Duration
	// ReplayKeys bounds the pairs remembered; 0: DefaultReplayKeys.
	ReplayKeys int
}

// Checker runs Stage 1 on entries. It is safe for concurrent use.
type Checker struct {
	domain   Domain
	registry Registry
	replay   *replayGuard
}

// New returns a Checker for cfg.
func New(cfg Config) (*Checker, error) {
	if cfg.ChainID == 0 {
		return nil, errors.New("quarantine: config: chain id is required")
	}
	if cfg.Registry == nil {
		return nil, errors.New("quarantine: config: registry is required")
	}
	if cfg.ReplayWindow < 0 || cfg.ReplayKeys < 0 {
		return nil, errors.New("quarantine: config: negative replay window or keys")
	}
	if cfg.ReplayWindow == 0 {
		cfg.ReplayWindow = DefaultReplayWindow
	}
	if cfg.ReplayKeys == 0 {
		cfg.ReplayKeys = DefaultReplayKeys
	}
	return &Checker{domain: NewDomain(cfg.ChainID), registry: cfg.Registry, replay: newReplayGuard(cfg.ReplayWindow, cfg.ReplayKeys)}, nil
}

// Check admits e to quarantine at now, or says why not: an invalid entry
// (wrapping knowledge.ErrInvalid), a signature that does
// not hold (see Domain.Verify), an agent the registry does not know
// (ErrUnknownAgent) or cannot answer for, or a replay (ErrReplayed). Every
// refusal but an invalid entry, a replay or a registry failure wraps
// ErrProvenanceForgery.
// Only an admitted entry is remembered by the replay guard, so a forged
// copy never blocks the genuine one. Self-generated entries are not
// external knowledge and are refused.
func (c *Checker) Check(ctx context.Context, e *knowledge.Entry, now time.Time) error {
	if err := signatureShape(e.Source.Signature); err != nil {
		return err
	}
	if err := e.Validate(); err != nil {
		return fmt.Errorf("quarantine: %w", err)
	}
	if !e.Source.Provenance.External() {
		return fmt.Errorf("quarantine: %w: %s entries do not enter quarantine", knowledge.ErrInvalid, e.Source.Provenance)
	}
	if err := c.domain.Verify(e); err != nil {
		return err
	}
	known, err := c.registry.Known(ctx, e.Source.Agent)
	if err != nil {
		return fmt.Errorf("quarantine: identity registry: %w", err)
	}
	if !known {
		return forged(ErrUnknownAgent, "")
	}
	return c.replay.admit(replayKey{common.HexToAddress(e.Source.Agent), ContentHash(e)}, now)
}

// Attack classifies a Check error: knowledge.ProvenanceForgery if it
// wraps ErrProvenanceForgery, else knowledge.NoAttack.
func Attack(err error) knowledge.AttackType {
	if errors.Is(err, ErrProvenanceForgery) {
		return knowledge.ProvenanceForgery
	}
	return knowledge.NoAttack
}
