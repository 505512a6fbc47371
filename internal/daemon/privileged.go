package daemon

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/catalog/privileged"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust"
)

// ownerOps is the gate's owner operations as the privileged tools reach
// them (privileged.Gate): the very methods the owner API calls, on the session
// a call names by id. The tools are registered before the gate exists, so
// the gate is set once it does; a tool cannot run before that anyway.
type ownerOps struct {
	t          atomic.Pointer[gate.Tools]
	invalidate atomic.Pointer[func(principalID string)]
}

var _ privileged.Gate = (*ownerOps)(nil)

var errNoGate = errors.New("the gate is not open")

func (o *ownerOps) gate() (*gate.Tools, error) {
	t := o.t.Load()
	if t == nil {
		return nil, errNoGate
	}
	return t, nil
}

func (o *ownerOps) session(ctx context.Context, sessionID string) (*gate.Tools, *gate.Session, error) {
	t, err := o.gate()
	if err != nil {
		return nil, nil, err
	}
	s, err := t.SessionByID(ctx, sessionID)
	return t, s, err
}

func (o *ownerOps) Phase(ctx context.Context) (hook.Phase, error) {
	t, err := o.gate()
	if err != nil {
		return 0, err
	}
	return t.Phase(ctx)
}

func (o *ownerOps) SetPhase(ctx context.Context, p hook.Phase, by string) error {
	t, err := o.gate()
	if err != nil {
		return err
	}
	return t.SetPhase(ctx, p, by)
}

func (o *ownerOps) Halt(ctx context.Context, sessionID, why string) error {
	t, s, err := o.session(ctx, sessionID)
	if err != nil {
		return err
	}
	return t.Halt(ctx, s, why)
}

func (o *ownerOps) SetDirective(ctx context.Context, sessionID, directive string) error {
	t, s, err := o.session(ctx, sessionID)
	if err != nil {
		return err
	}
	_, err = t.SetDirective(ctx, s, directive, true)
	return err
}

func (o *ownerOps) SetLevel(ctx context.Context, sessionID string, level trust.Level, by string) error {
	t, s, err := o.session(ctx, sessionID)
	if err != nil {
		return err
	}
	return t.SetLevel(ctx, s, level, by)
}

func (o *ownerOps) CancelByOwner(ctx context.Context, permitID, by string) error {
	t, err := o.gate()
	if err != nil {
		return err
	}
	return t.CancelByOwner(ctx, permitID, by)
}

func (o *ownerOps) Reject(ctx context.Context, itemID, by, note string) (string, error) {
	t, err := o.gate()
	if err != nil {
		return "", err
	}
	q, err := t.Reject(ctx, itemID, by, note)
	if err != nil {
		return "", err
	}
	return q.Status.String(), nil
}

func (o *ownerOps) SpendingOverride(ctx context.Context) (hook.SpendingConfig, bool, error) {
	t, err := o.gate()
	if err != nil {
		return hook.SpendingConfig{}, false, err
	}
	return t.SpendingOverride(ctx)
}

func (o *ownerOps) SetSpendingLimits(ctx context.Context, limits *hook.SpendingConfig, by string) error {
	t, err := o.gate()
	if err != nil {
		return err
	}
	return t.SetSpendingLimits(ctx, limits, by)
}

func (o *ownerOps) AllowlistEntries(ctx context.Context) ([]store.AllowlistEntry, error) {
	t, err := o.gate()
	if err != nil {
		return nil, err
	}
	return t.AllowlistEntries(ctx)
}

func (o *ownerOps) ChangeAllowlist(ctx context.Context, ov hook.AllowlistOverride, reset bool, by string) error {
	t, err := o.gate()
	if err != nil {
		return err
	}
	return t.ChangeAllowlist(ctx, ov, reset, by)
}

// invalidateToken clears this process's cached verification of a
// principal (the server's verifier, once a server runs over the stack).
func (o *ownerOps) invalidateToken(principalID string) {
	if f := o.invalidate.Load(); f != nil {
		(*f)(principalID)
	}
}

// ownerTools returns the privileged tools over the stack's gate and store.
func (s *Stack) ownerTools(cfg Config) ([]registry.Tool, error) {
	s.owner = &ownerOps{}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return privileged.Tools(privileged.Config{Gate: s.owner, Principals: s.Store, Invalidate: s.owner.invalidateToken,
		SessionKeys: ownerCalls{s: s, now: now}, Now: cfg.Now})
}
