package facade

import (
	"context"
	"encoding/json"
	"time"

	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
)

// What the surfaces do besides the facade tools: the owner's operations
// and the reads behind them. Each is the gate's operation of the same name
// (see internal/gate), on the gate session a *Session stands for.

// Phase returns the PolicyCage phase.
func (t *Tools) Phase(ctx context.Context) (hook.Phase, error) { return t.g.Phase(ctx) }

// SetPhase changes the phase for the owner by.
func (t *Tools) SetPhase(ctx context.Context, p hook.Phase, by string) error {
	return t.g.SetPhase(ctx, p, by)
}

// SpendingOverride returns the owner's override of the spending limits
// (ok false when none is set).
func (t *Tools) SpendingOverride(ctx context.Context) (hook.SpendingConfig, bool, error) {
	return t.g.SpendingOverride(ctx)
}

// SetSpendingLimits sets the owner's override of the spending limits for
// the owner by, or clears it when limits is nil.
func (t *Tools) SetSpendingLimits(ctx context.Context, limits *hook.SpendingConfig, by string) error {
	return t.g.SetSpendingLimits(ctx, limits, by)
}

// AllowlistEntries returns the owner's allowlist entries.
func (t *Tools) AllowlistEntries(ctx context.Context) ([]store.AllowlistEntry, error) {
	return t.g.AllowlistEntries(ctx)
}

// ChangeAllowlist records the owner by's changes to the allowlist (after
// forgetting the earlier ones when reset).
func (t *Tools) ChangeAllowlist(ctx context.Context, o hook.AllowlistOverride, reset bool, by string) error {
	return t.g.ChangeAllowlist(ctx, o, reset, by)
}

// Halted reports whether writes are halted, and why.
func (t *Tools) Halted(ctx context.Context) (bool, string, error) { return t.g.Halted(ctx) }

// Halt stops every write until the owner lifts it, at session s's request.
func (t *Tools) Halt(ctx context.Context, s *Session, why string) error {
	gs, err := s.gate()
	if err != nil {
		return err
	}
	return t.g.Halt(ctx, gs, why)
}

// Resume lifts the halt for the owner by.
func (t *Tools) Resume(ctx context.Context, by string) error { return t.g.Resume(ctx, by) }

// Tick returns the gate's tick of now.
func (t *Tools) Tick(now time.Time) uint64 { return t.g.Tick(now) }

// CancelByOwner cancels any pending permit for the owner by.
func (t *Tools) CancelByOwner(ctx context.Context, permitID, by string) error {
	return t.g.CancelByOwner(ctx, permitID, by)
}

// QuarantineQueue lists the quarantined calls f selects.
func (t *Tools) QuarantineQueue(ctx context.Context, f QuarantineFilter) ([]Quarantined, error) {
	return t.g.QuarantineQueue(ctx, f)
}

// Quarantined returns the quarantined call itemID (ErrQuarantineNotFound).
func (t *Tools) Quarantined(ctx context.Context, itemID string) (*Quarantined, error) {
	return t.g.Quarantined(ctx, itemID)
}

// Approve approves the quarantined call itemID for the owner by and runs
// it; the item comes back with its outcome (ErrQuarantineNotFound,
// ErrQuarantineDecided, ErrQuarantineExpired, or a *Refusal).
func (t *Tools) Approve(ctx context.Context, itemID, by, note string) (*Quarantined, error) {
	return t.g.Approve(ctx, itemID, by, note)
}

// Reject rejects the quarantined call itemID for the owner by.
func (t *Tools) Reject(ctx context.Context, itemID, by, note string) (*Quarantined, error) {
	return t.g.Reject(ctx, itemID, by, note)
}

// Sessions lists the stored sessions f selects.
func (t *Tools) Sessions(ctx context.Context, f store.SessionFilter) ([]store.SessionRecord, error) {
	return t.g.Sessions(ctx, f)
}

// DeleteSession clears session s: its taint, review and ledger.
func (t *Tools) DeleteSession(ctx context.Context, s *Session) error {
	gs, err := s.gate()
	if err != nil {
		return err
	}
	return t.g.DeleteSession(ctx, gs)
}

// SetDirective records a directive for session s, trusted when it comes
// from the owner or from a clean session; it reports whether it is.
func (t *Tools) SetDirective(ctx context.Context, s *Session, directive string, fromOwner bool) (trusted bool, err error) {
	gs, err := s.gate()
	if err != nil {
		return false, err
	}
	return t.g.SetDirective(ctx, gs, directive, fromOwner)
}

// SetLevel puts a tainted session under review, or lifts a review back to
// tainted, for the owner by (ErrBadLevel for any other change).
func (t *Tools) SetLevel(ctx context.Context, s *Session, level trust.Level, by string) error {
	gs, err := s.gate()
	if err != nil {
		return err
	}
	return t.g.SetLevel(ctx, gs, level, by)
}

// Delegate runs the read tool name for the orchestrator parent in its
// tainted child session and withholds the output.
func (t *Tools) Delegate(ctx context.Context, parent, child *Session, name string, raw json.RawMessage) (*OutputMeta, error) {
	p, err := parent.gate()
	if err != nil {
		return nil, err
	}
	c, err := child.gate()
	if err != nil {
		return nil, err
	}
	return t.g.Delegate(ctx, p, c, name, raw)
}

// ReadOutput returns the withheld output key to r, if r may read it.
func (t *Tools) ReadOutput(ctx context.Context, key string, r OutputReader) (*Output, error) {
	return t.g.ReadOutput(ctx, key, r)
}

// LookupAllowed refuses a lookup by id (a *Refusal) when principal has
// failed too many lately; a surface that looks its own ids up (A2A tasks)
// calls it first.
func (t *Tools) LookupAllowed(ctx context.Context, principal string) error {
	return t.g.LookupAllowed(ctx, principal)
}

// LookupFailed records that principal (in session, if any) looked up an id
// of what that does not exist or is not its own.
func (t *Tools) LookupFailed(ctx context.Context, principal, session, what, ref string, code reason.Code) {
	t.g.LookupFailed(ctx, principal, session, what, ref, code)
}

// Restore loads the executed calls of the policy's longest window and the
// last known balance from the ledger into the tracker, as the gate does
// at startup (a what-if check evaluates against it).
func Restore(ctx context.Context, l store.Ledger, tr *policy.Tracker, snap *policy.Snapshot, now time.Time) error {
	return gate.Restore(ctx, l, tr, snap, now)
}

// Def returns the definition of the tool name as this ward offers it
// (gate.Tools.Def).
func (t *Tools) Def(name string) (*tool.Def, bool) { return t.g.Def(name) }
