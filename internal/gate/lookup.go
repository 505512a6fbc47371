package gate

import (
	"context"
	"errors"
	"time"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// Lookups by id. A client names permits, quarantined calls, withheld
// outputs and tasks by ids it was handed (id.Opaque: 110 random bits), and
// may only reach its own: another principal's id gets exactly the answer an
// unknown id gets. Every failed lookup is in the action log with the
// principal that made it (ActionLookupFailed), and a principal whose recent
// failures reach the limits below is refused further lookups (429) before
// it can try more: it can guess a few ids a second at most, against 2^110.
// The count is the action log's, so it holds across restarts and
// processes.

// Limits of failed lookups per principal: more than lookupBurst in
// lookupBurstWindow, or lookupHourly in an hour, and lookups are refused
// until the window has moved on.
const (
	lookupBurst       = 5
	lookupBurstWindow = 2 * time.Second
	lookupHourly      = 120
)

// lookupAllowed refuses a lookup by id when the session's principal has
// failed too many lately. Reading the count is part of the check: if it
// cannot be read the lookup is refused.
func (t *Tools) lookupAllowed(ctx context.Context, s *Session) error {
	return t.LookupAllowed(ctx, s.Principal)
}

// LookupAllowed refuses a lookup by id (a *Refusal, reason.LookupLimited)
// when principal has failed too many lately; surfaces that look ids up
// themselves (A2A tasks) call it first. The empty principal (an
// in-process session no client holds) is not limited.
func (t *Tools) LookupAllowed(ctx context.Context, principal string) error {
	if principal == "" {
		return nil
	}
	now := t.cfg.Now()
	n, err := t.actions.FailedLookups(ctx, principal, now.Add(-lookupBurstWindow))
	if err != nil {
		return refuse(reason.AuditUnavailable, "lookup", "the lookup could not be checked, so it is refused", err.Error())
	}
	if n >= lookupBurst {
		return refuse(reason.LookupLimited, "lookup", "too many lookups of ids that do not exist: wait a few seconds", "")
	}
	if n, err = t.actions.FailedLookups(ctx, principal, now.Add(-time.Hour)); err != nil {
		return refuse(reason.AuditUnavailable, "lookup", "the lookup could not be checked, so it is refused", err.Error())
	}
	if n >= lookupHourly {
		return refuse(reason.LookupLimited, "lookup", "too many lookups of ids that do not exist in the last hour: wait", "")
	}
	return nil
}

// lookupFailed records a failed lookup of what (permit, quarantine,
// output, task) by the session's principal, and returns the refusal an
// unknown id gets. The record is durable before the answer: a guess that
// cannot be recorded is refused all the same, and counted.
func (t *Tools) lookupFailed(ctx context.Context, s *Session, what, ref string, r *Refusal) *Refusal {
	t.LookupFailed(ctx, s.Principal, s.ID, what, ref, r.Code)
	return r
}

// LookupFailed records that principal (in session, if any) looked up an
// id of what that does not exist or is not its own, with the code it was
// answered.
func (t *Tools) LookupFailed(ctx context.Context, principal, session, what, ref string, code reason.Code) {
	if len(ref) > 64 {
		ref = ref[:64]
	}
	if err := t.record(ctx, &store.ActionRecord{Kind: store.ActionLookupFailed, PrincipalID: principal, SessionID: session,
		Status: store.StatusBlocked, BlockReason: string(code), Detail: jsonOf(map[string]string{"what": what, "id": ref})}); err != nil {
		t.auditFailed("failed lookup", err)
	}
}

// owns reports whether the permit p is s's: the same session of the same
// principal (a permit stored before permits named their principal has
// only its session, which was never shared).
// LookupPermit returns the session's permit permitID (query_state kind
// "permit"). Another session's permit, or an unknown one, is a
// PermitNotFound refusal and a failed lookup; a store failure is an
// AuditUnavailable refusal.
func (t *Tools) LookupPermit(ctx context.Context, s *Session, permitID string) (*store.Permit, error) {
	if err := t.lookupAllowed(ctx, s); err != nil {
		return nil, err
	}
	pm, err := t.permits.Permit(ctx, permitID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !owns(s, &pm)) {
		return nil, t.lookupFailed(ctx, s, "permit", permitID, refuse(reason.PermitNotFound, "permit", "no permit has this id", ""))
	}
	if err != nil {
		return nil, refuse(reason.AuditUnavailable, "permit", "the permit could not be read", err.Error())
	}
	return &pm, nil
}

func owns(s *Session, p *store.Permit) bool {
	return p.SessionID == s.ID && (p.PrincipalID == "" || p.PrincipalID == s.Principal)
}
