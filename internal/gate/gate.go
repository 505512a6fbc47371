// Package gate is the path every tool call takes: decode its arguments,
// decide it with the policy, hold what it would spend, write the decision to
// the audit trail, and, once the call has run, record what it executed.
//
// The three flows are in call.go, each a sequence of stages read top to
// bottom: Tools.Read (resolve, decide, run, observe), Tools.Preview (halt,
// resolve, decide, plan, the hook chain, the hold, lessons, issuePermit)
// and Tools.Commit (loadCommit, admitCommit, executeCommit, then
// settleExecuted or settleFailed). Decide, below, is the stage all three
// share: the policy and the decision's audit record.
//
// A call is admitted only with an allow decision that is in the audit
// trail: if the audit write fails the decision becomes a deny
// (AUDIT_UNAVAILABLE) and any hold is released. Calls that stateful rules
// apply to (spend windows, rate limits, the reserve) are evaluated and held
// under the tracker's admission lock, so concurrent calls cannot together
// pass a limit that only one of them fits under.
package gate

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
)

// Config configures a Gate.
type Config struct {
	Engine  *policy.Engine
	Tracker *policy.Tracker
	Audit   *audit.Recorder
	// Ledger durably records executed calls; nil keeps them in memory only.
	Ledger  store.Ledger
	HoldTTL time.Duration // policy.DefaultHoldTTL when zero
	// ReadsBestEffort lets a read (Call.Read) that the policy allows
	// proceed with its decision queued for the next group commit, and
	// when it cannot be recorded; the failure is counted (AuditFailures).
	// Without it every decision is committed before the call goes on,
	// and a call whose decision cannot be written is refused.
	ReadsBestEffort bool
}

// Gate decides tool calls. It is safe for concurrent use.
type Gate struct {
	engine          *policy.Engine
	tracker         *policy.Tracker
	audit           *audit.Recorder
	ledger          store.Ledger
	holdTTL         time.Duration
	readsBestEffort bool
	auditFailures   atomic.Uint64
}

// New validates cfg and returns a Gate.
func New(cfg Config) (*Gate, error) {
	switch {
	case cfg.Engine == nil:
		return nil, errors.New("gate: no policy engine")
	case cfg.Tracker == nil:
		return nil, errors.New("gate: no tracker")
	case cfg.Audit == nil:
		return nil, errors.New("gate: no audit recorder")
	case cfg.HoldTTL < 0:
		return nil, errors.New("gate: negative hold TTL")
	}
	return &Gate{engine: cfg.Engine, tracker: cfg.Tracker, audit: cfg.Audit, ledger: cfg.Ledger, holdTTL: cfg.HoldTTL,
		readsBestEffort: cfg.ReadsBestEffort}, nil
}

// AuditFailures returns how many reads went on although their decision
// could not be recorded (Config.ReadsBestEffort).
func (g *Gate) AuditFailures() uint64 { return g.auditFailures.Load() }

// Call is one tool call as it arrives.
type Call struct {
	Tool    tool.Ref
	Args    []byte // JSON object; empty means no arguments
	Turn    policy.Turn
	Workdir string
	Now     time.Time // zero: the wall clock
	// Deferred queues the decision's audit record without waiting for
	// its commit: the caller makes a durable write to the same store
	// before anything acts on the decision (see audit.RecordDeferred).
	Deferred bool
	// Trust is the session's taint and the arguments' provenance.
	Trust policy.Trust
	// Read marks a read-tier call: with Config.ReadsBestEffort it may go
	// on unrecorded.
	Read bool
	// Plan is a previewed write's plan, for the policy's value rules;
	// nil for other calls.
	Plan *tool.Plan
}

// Admission is the gate's answer to a call. Only an Admission whose
// Decision allows may run; its holder must then call Done exactly once.
type Admission struct {
	Decision policy.Decision
	AuditID  string
	// AuditErr is why the decision could not be recorded (the decision is
	// then a deny).
	AuditErr error
	// Judged holds the verdicts when the session's judge let a trust
	// quarantine through (trust.go).
	Judged []trust.Verdict

	call Call
	hold policy.HoldID
	held bool
}

// Decide decides one call. It never returns an allow that is not in the
// audit trail.
func (g *Gate) Decide(ctx context.Context, c Call) *Admission {
	ctx, span := telemetry.Start(ctx, "ward.policy")
	a := &Admission{call: c}
	defer func() {
		if span.IsRecording() {
			d := &a.Decision
			span.SetAttributes(telemetry.Decision.String(decisionOf(d.Action())))
			if d.Rule() != "" {
				span.SetAttributes(telemetry.Rule.String(d.Rule()))
			}
			if d.Action() != policy.Allow {
				span.SetAttributes(telemetry.Reason.String(string(d.Code())))
			}
		}
		span.End()
	}()
	snap := g.engine.Snapshot()
	req := &policy.Request{Tool: c.Tool, Turn: c.Turn, Workdir: c.Workdir, Now: c.Now, State: g.tracker, Trust: c.Trust, Plan: c.Plan}

	// 1. Decode the arguments once; undecodable arguments are a deny.
	args, err := tool.ParseArgs(c.Args)
	if err != nil {
		a.Decision = snap.Reject(req, sha256.Sum256(c.Args), reason.BadInput,
			"the arguments are not a valid JSON object", err.Error())
	} else {
		req.Args = args
		// 2. Evaluate; calls under stateful rules are evaluated and held
		// atomically.
		if snap.Stateful(c.Tool) {
			g.tracker.Admit(func() {
				a.Decision = snap.Evaluate(req)
				if a.Decision.Action() == policy.Allow {
					a.hold, a.held = g.tracker.Hold(g.execution(a), g.holdTTL), true
				}
			})
		} else {
			a.Decision = snap.Evaluate(req)
		}
	}

	// 3. Audit: durable before any effect for calls that need it.
	// A read's decision is written before the read runs too (committed,
	// not waiting for the sync after it): a queued record that a full disk
	// then loses would leave an answered read with no trace. Only with
	// [audit] reads_best_effort may a read go on queued (and, if the write
	// fails, unrecorded).
	switch {
	case c.Deferred:
		a.AuditID, a.AuditErr = g.audit.RecordDeferred(ctx, &a.Decision)
	case c.Read && g.readsBestEffort:
		a.AuditID, a.AuditErr = g.audit.Record(ctx, &a.Decision)
	default:
		a.AuditID, a.AuditErr = g.audit.RecordCommitted(ctx, &a.Decision)
	}
	if a.AuditErr != nil {
		if c.Read && g.readsBestEffort && a.Decision.Action() == policy.Allow {
			// A read may go on unrecorded when the operator says so; the
			// failure is counted, and the caller logs it.
			g.auditFailures.Add(1)
			return a
		}
		a.Decision = a.Decision.Escalate(policy.Deny, reason.AuditUnavailable,
			"the decision could not be recorded, so the call is refused", a.AuditErr.Error())
		g.release(a)
	}
	return a
}

func (g *Gate) execution(a *Admission) policy.Execution {
	d := &a.Decision
	spend, _ := d.Spend()
	at := a.call.Now
	if at.IsZero() {
		at = d.Time()
	}
	return policy.Execution{Tool: d.Tool(), SessionID: d.SessionID(), TurnID: d.TurnID(), At: at, Spend: spend}
}

func (g *Gate) release(a *Admission) {
	if a.held {
		g.tracker.Release(a.hold)
		a.held = false
	}
}

// Outcome is what happened to an admitted call.
type Outcome struct {
	Executed bool
	// Spent is what the call actually spent, when it differs from what the
	// decision metered (nil: as metered).
	Spent *policy.Spend
	At    time.Time // zero: now
}

// ErrNotAdmitted is returned by Done for a call that was not allowed.
var ErrNotAdmitted = errors.New("call was not admitted")

// Done records the outcome of an admitted call: an executed call counts
// against rate and spend limits from now on (and is written to the ledger);
// a call that did not execute releases its hold.
func (g *Gate) Done(ctx context.Context, a *Admission, o Outcome) error {
	if a.Decision.Action() != policy.Allow {
		return ErrNotAdmitted
	}
	if !o.Executed {
		g.release(a)
		return nil
	}
	e := g.execution(a)
	e.At = o.At
	if e.At.IsZero() {
		e.At = time.Now()
	}
	if o.Spent != nil {
		e.Spend = *o.Spent
	}
	if a.held {
		g.tracker.Settle(a.hold, e)
		a.held = false
	} else {
		g.tracker.Record(e)
	}
	return g.ledgerAppend(ctx, e, a.AuditID)
}

// Executed records a committed write as an executed call of tool ref with
// args in the session and turn that committed it: the policy's rate rules
// count it from now on, and its spend windows what it spends (nil args:
// nothing), and it is written to the ledger, where a restart and `ward
// policy check` find it. A preview executes nothing (its hold is released
// by Done); the commit that carries out its permit is the execution, so
// every write counts once, whichever process commits it. decisionID is
// the preview's decision.
func (g *Gate) Executed(ctx context.Context, ref tool.Ref, args *tool.Args, sessionID, turnID, decisionID string, at time.Time) error {
	if at.IsZero() {
		at = time.Now()
	}
	snap := g.engine.Snapshot()
	e := policy.Execution{Tool: snap.Resolve(ref), SessionID: sessionID, TurnID: turnID, At: at}
	if args != nil {
		// What the write spends by the policy's meter counts in its spend
		// windows, as the preview's decision metered it.
		e.Spend, _ = snap.Spend(&policy.Request{Tool: ref, Args: args, Turn: policy.Turn{ID: turnID, SessionID: sessionID}})
	}
	if ref.Category != "" {
		e.Tool.Category = ref.Category
	}
	g.tracker.Record(e)
	return g.ledgerAppend(ctx, e, decisionID)
}

// ledgerAppend writes e to the ledger (none configured: nothing to write).
func (g *Gate) ledgerAppend(ctx context.Context, e policy.Execution, decisionID string) error {
	if g.ledger == nil {
		return nil
	}
	rec := &store.ExecutionRecord{
		ID: id.New(e.At), Time: e.At, Tool: e.Tool.Name, Category: string(e.Tool.Category),
		SessionID: e.SessionID, TurnID: e.TurnID, DecisionID: decisionID,
		SpendCategory: e.Spend.Category, SpendCents: e.Spend.Cents,
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), audit.DefaultTimeout)
	defer cancel()
	if err := g.ledger.AppendExecution(ctx, rec); err != nil {
		return fmt.Errorf("record execution: %w", err)
	}
	return nil
}

// Restore loads executed calls since the longest window and the last known
// balance from the ledger into the tracker (at startup).
func Restore(ctx context.Context, l store.Ledger, t *policy.Tracker, snap *policy.Snapshot, now time.Time) error {
	recs, err := l.Executions(ctx, now.Add(-policy.MaxWindow))
	if err != nil {
		return fmt.Errorf("restore executions: %w", err)
	}
	for _, r := range recs {
		ref := snap.Resolve(tool.Ref{Name: r.Tool, Category: tool.Category(r.Category)})
		if r.Category != "" {
			ref.Category = tool.Category(r.Category)
		}
		t.Record(policy.Execution{
			Tool: ref, SessionID: r.SessionID, TurnID: r.TurnID, At: r.Time,
			Spend: policy.Spend{Category: r.SpendCategory, Cents: r.SpendCents},
		})
	}
	cents, _, ok, err := l.Balance(ctx)
	if err != nil {
		return fmt.Errorf("restore balance: %w", err)
	}
	if ok {
		t.SetBalance(cents)
	}
	return nil
}
