package gate

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// Recheck decides again, for a later poll of a live data subscription,
// the read the session subscribed through (name with raw), without running
// it: the hub's poll delivers what the session may still read, and nothing
// once it may not. It returns nil only when
//
//   - the session is live (not expired, not removed),
//   - its principal's token is neither revoked nor expired (when the gate
//     has the principals: ToolsConfig.Principals; a principal the store
//     does not hold, such as ward's local ones, has no token),
//   - writes are not halted (emergency_halt ends the subscriptions too),
//     and
//   - the session's trust admits the read and the current policy
//     snapshot allows it, with the decision audited as every read's is.
//
// A tainted session, or one under review, keeps its subscriptions: its
// reads are allowed (taint and review hold state-changing and
// data-sending calls), and a subscription only reads. Reading one token's
// name taints a session; ending its price feed for that would punish the
// ordinary case and protect nothing.
//
// Anything else, including a store that cannot answer, is a *Refusal with
// the reason. A quarantine is a refusal here: nobody approves a poll, so
// it is never queued for review.
func (t *Tools) Recheck(ctx context.Context, s *Session, name string, raw json.RawMessage) error {
	live, err := t.SessionLive(ctx, s.ID)
	if err != nil || !live {
		return refuse(reason.StreamUnavailable, "session", "the session has ended", errString(err))
	}
	if t.cfg.Principals != nil && s.Principal != "" {
		// A principal the store does not know holds no token (ward's
		// local principals, whose sessions the machine's owner opens):
		// there is nothing to revoke. Principals are never deleted.
		p, err := t.cfg.Principals.Principal(ctx, s.Principal)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return refuse(reason.AuthorityInsufficient, "principal", "the session's token could not be checked", err.Error())
		case !p.Live(t.cfg.Now()):
			return refuse(reason.AuthorityInsufficient, "principal", "the session's token is revoked or expired", "")
		}
	}
	if halted, why, err := t.Halted(ctx); err != nil || halted {
		return refuse(reason.Halted, "halt", "ward is halted: "+why, errString(err))
	}
	e, _, err := t.resolve(ctx, s, name, raw)
	if err != nil {
		return err
	}
	ct, err := t.admitTrust(ctx, s, e, raw)
	if err != nil {
		return err
	}
	a := t.decider.Decide(ctx, Call{
		Tool: e.Def.Ref(), Args: raw, Read: true,
		Turn:  policy.Turn{ID: s.TurnID, SessionID: s.ID, Source: s.Source},
		Trust: ct.view,
	})
	d := &a.Decision
	if d.Action() != policy.Allow {
		return refuse(d.Code(), "policy", d.Message(), d.Diagnostic())
	}
	if a.AuditErr != nil {
		t.auditFailed("read decision", a.AuditErr) // [audit] reads_best_effort, as Read
	}
	return nil
}

// Recheck decides again the session's read name with raw (Tools.Recheck):
// a live data subscription's poll asks it before delivering.
func (c handlerCalls) Recheck(ctx context.Context, name string, raw json.RawMessage) error {
	return c.t.Recheck(ctx, c.s, name, raw)
}
