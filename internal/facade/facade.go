// Package facade is the one package the surfaces (mcp, a2a, api) call to
// reach the flows: the 8 facade tools an agent's model sees (preview_action,
// commit_action, ... defs.go) and what they run (Tools.CallWith, call.go), what
// a session may discover and call by name besides them (its upstream
// tools, query_state {"kind":"tools"}, the choices a refusal names;
// discover.go), the
// owner's operations (review of quarantined calls, halt and phase, session
// trust, withheld outputs; owner.go), and the values the gate answers with
// (refusals, quarantined calls, outputs; gate.go).
//
// A surface holds a *Session, a handle on a caller's gate session that
// only this package resolves: it reads the session's id, tools and trust
// state, and acts on the session through Tools, never on the gate's
// session itself (its input source or trust state). The daemon wires the
// stack: it builds Tools over the gate (New) and hands the surfaces their
// sessions (NewSession).
//
// Errors are the gate's: a call refused is a *Refusal (its Message is safe
// to show the agent, its Detail is not); the sentinel errors are the
// gate's own values, so errors.Is holds across the two packages.
package facade

import (
	"errors"

	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/trust"
)

// Config configures Tools.
type Config struct {
	// Gate is the tool gate every call goes through (required).
	Gate *gate.Tools
}

// Tools is the gate as the surfaces see it. It is safe for concurrent use,
// as the gate is.
type Tools struct {
	g *gate.Tools
}

// New validates cfg and returns Tools.
func New(cfg Config) (*Tools, error) {
	if cfg.Gate == nil {
		return nil, errors.New("facade: no tool gate")
	}
	return &Tools{g: cfg.Gate}, nil
}

// Session is a caller's session as a surface holds it. Only NewSession
// makes one; the zero Session stands for no session, and Tools refuses it
// (ErrNoSession).
type Session struct {
	g *gate.Session
}

// NewSession returns the handle of the gate session g (nil for nil).
func NewSession(g *gate.Session) *Session {
	if g == nil {
		return nil
	}
	return &Session{g: g}
}

// ID is the session's id.
func (s *Session) ID() string { return s.g.ID }

// Source is the input source the policy sees the session's calls come
// from (its principal's role).
func (s *Session) Source() policy.InputSource { return s.g.Source }

// View is the set of tools the session's profile allows (nil for a
// session opened without one).
func (s *Session) View() *registry.View { return s.g.View }

// TrustState is a session's trust state at one moment (docs/trust.md).
type TrustState struct {
	Level     trust.Level
	Isolated  bool
	Parent    string // the orchestrator's session id of a child session
	Reviewers []string
	Judge     string
}

// Trust returns the session's trust state; a session the gate has not yet
// given one is clean.
func (s *Session) Trust() TrustState {
	st := s.g.Trust
	if st == nil {
		return TrustState{}
	}
	reviewers, judge := st.Reviewers()
	return TrustState{Level: st.Level(), Isolated: st.Isolated(), Parent: st.Parent(), Reviewers: reviewers, Judge: judge}
}

// gate returns the gate session s stands for, or ErrNoSession.
func (s *Session) gate() (*gate.Session, error) {
	if s == nil || s.g == nil {
		return nil, ErrNoSession
	}
	return s.g, nil
}
