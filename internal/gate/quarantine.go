package gate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
)

// The quarantine queue. A policy quarantine does not just refuse a call:
// the gate keeps the call (session, tool, arguments, the decision's reason)
// as a pending item and the refusal tells the agent the item's id. The
// owner approves or rejects it. An approval runs the call on the agent's
// behalf with the policy's quarantine lifted for that one call: a deny
// still denies, and the hook chain, permits and capabilities still apply,
// so an approved write yields the preview's permit, which the agent then
// commits. What the run did is stored on the item, where the agent reads it
// (query_state {"kind":"quarantine","params":{"id":...}}). Items expire
// after ToolsConfig.QuarantineTTL.
//
// Storage is the store's held calls (store.HeldCalls): an item is a row
// with its principal and session, written with its action record in one
// transaction — "quarantined" when it is held, "quarantine_approved" or
// "quarantine_rejected" when the owner decides (one conditional update:
// exactly one review of an item is ever recorded, across goroutines and
// processes sharing the store, and it is durable before an approved call
// runs), "quarantine_outcome" when an approved call has run. Holding a call
// also refuses a session more than maxHeldPerSession waiting calls, and
// holds a repeated call once, in that same transaction.
//
// A call the owner rejected is not asked again: the same principal's
// identical call (same tool, arguments equal after canonicalisation, see
// retryKey) within QuarantineTTL of the rejection is refused at once with
// REJECTED_BY_OWNER, naming the rejected item. The check is in the store's
// hold transaction, so it holds across restarts. In-process sessions share
// the principal "local" and are matched by session instead; another
// principal's rejection never blocks a call.
//
// Each item carries its Description, made once when it is held (describe.go).
//
// An approved call runs as its session, which the gate loads from the
// store when it is not in memory (after a restart, say). Only the session
// that was held can read its item: another session's id, or another
// principal's, gets the answer an unknown id gets.

// QuarantineStatus is where a quarantined call is in its review. The zero
// value is pending: nothing has run.
type QuarantineStatus uint8

// Review states. Expired is never stored: a pending item past its expiry
// reads as expired.
const (
	QuarantinePending QuarantineStatus = iota
	QuarantineApproved
	QuarantineRejected
	QuarantineExpired
)

var quarantineStatusNames = [...]string{"pending", "approved", "rejected", "expired"}

func (s QuarantineStatus) String() string {
	if int(s) < len(quarantineStatusNames) {
		return quarantineStatusNames[s]
	}
	return fmt.Sprintf("QuarantineStatus(%d)", uint8(s))
}

// MarshalText implements encoding.TextMarshaler.
func (s QuarantineStatus) MarshalText() ([]byte, error) {
	if int(s) >= len(quarantineStatusNames) {
		return nil, fmt.Errorf("invalid quarantine status %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *QuarantineStatus) UnmarshalText(b []byte) error {
	v, err := ParseQuarantineStatus(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseQuarantineStatus parses a status name.
func ParseQuarantineStatus(s string) (QuarantineStatus, error) {
	for i, n := range quarantineStatusNames {
		if n == s {
			return QuarantineStatus(i), nil
		}
	}
	return 0, fmt.Errorf("unknown quarantine status %q (want pending, approved, rejected or expired)", s)
}

// DefaultQuarantineTTL is how long a quarantined call waits for the owner
// when ToolsConfig.QuarantineTTL is zero.
const DefaultQuarantineTTL = 24 * time.Hour

// maxHeldPerSession bounds the calls of one session waiting at once, so
// that an agent cannot flood the owner; a call held beyond it is refused
// without being queued.
const maxHeldPerSession = 32

// heldRunTimeout bounds the run of an approved call.
const heldRunTimeout = 2 * time.Minute

// QuarantineNotFound is the code of an agent's query for an item its
// session does not have.
const QuarantineNotFound = reason.QuarantineNotFound

// Action record kinds of the quarantine queue.
const (
	actionHeld     = store.ActionQuarantined
	actionApproved = store.ActionQuarantineApproved
	actionRejected = store.ActionQuarantineRejected
	actionOutcome  = store.ActionQuarantineOutcome
)

// Errors of the owner's review operations.
var (
	ErrQuarantineNotFound = errors.New("no quarantined call has this id")
	ErrQuarantineDecided  = errors.New("the quarantined call was already reviewed")
	ErrQuarantineExpired  = errors.New("the quarantined call expired")
)

// Quarantined is one call held for the owner's review.
type Quarantined struct {
	ID        string           `json:"id"`
	Status    QuarantineStatus `json:"status"`
	Time      time.Time        `json:"time"` // when it was held
	ExpiresAt time.Time        `json:"expires_at"`
	SessionID string           `json:"session_id"`
	TurnID    string           `json:"turn_id,omitempty"`
	Source    string           `json:"input_source"`
	// Facade is the facade tool the agent called, when it came through one.
	Facade string    `json:"facade,omitempty"`
	Tool   string    `json:"tool"`
	Tier   tool.Tier `json:"tier"`
	// Args are the call's canonical arguments.
	Args       json.RawMessage `json:"args"`
	ArgsHash   string          `json:"args_hash"`
	Reason     reason.Code     `json:"reason"`
	Message    string          `json:"message"`
	Rule       string          `json:"rule,omitempty"`
	DecisionID string          `json:"decision_id,omitempty"`
	DecidedAt  time.Time       `json:"decided_at,omitzero"`
	DecidedBy  string          `json:"decided_by,omitempty"`
	Note       string          `json:"note,omitempty"`
	// Reviews are the verdicts of the session's reviewers and judge when
	// the trust model held the call (the judge did not approve it).
	Reviews []trust.Verdict `json:"reviews,omitempty"`
	// Outcome is what the approved call did; nil until it has run.
	Outcome *QuarantineOutcome `json:"outcome,omitempty"`
	// Description is what the call would do, in a person's units (made
	// when it was held; nil for items held before ward made them).
	Description *Description `json:"description,omitempty"`
}

// QuarantineOutcome is what running an approved call did: a write's
// permit (to commit before it expires), a read's result, or the refusal or
// failure that stopped it.
type QuarantineOutcome struct {
	Time    time.Time       `json:"time"`
	OK      bool            `json:"ok"`
	Permit  *PermitView     `json:"permit,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Code    reason.Code     `json:"code,omitempty"`
	Message string          `json:"message,omitempty"`
}

// QuarantineFilter selects quarantined calls. The zero filter selects the
// pending calls held in the last QuarantineTTL, at most 100.
type QuarantineFilter struct {
	Since     time.Time // zero: QuarantineTTL before now
	SessionID string
	Status    QuarantineStatus
	AnyStatus bool // every status, not only Status
	Limit     int  // 0: 100; at most 1000
}

// quarantineQueue is what this process remembers of the queue: the
// approved calls it is running now (so that an approval and the agent's
// query do not both run one). What a decision needs is in the store.
type quarantineQueue struct {
	mu      sync.Mutex
	running map[string]bool
}

func newQuarantineQueue() quarantineQueue {
	return quarantineQueue{running: map[string]bool{}}
}

// start marks an approved item as running; false if it already is.
func (q *quarantineQueue) start(itemID string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.running[itemID] {
		return false
	}
	q.running[itemID] = true
	return true
}

func (q *quarantineQueue) done(itemID string) {
	q.mu.Lock()
	delete(q.running, itemID)
	q.mu.Unlock()
}

// lift is what the owner's approval of a held call lifts: a quarantine of
// that tool with those arguments, nothing else. Only runHeld makes one, and
// passes it to the approved call's run.
type lift struct {
	tool, argsHash string
}

func quarantineTTL(cfg *ToolsConfig) time.Duration {
	if cfg.QuarantineTTL > 0 {
		return cfg.QuarantineTTL
	}
	return DefaultQuarantineTTL
}

// lifts reports whether l lifts a's quarantine: l is the owner's approval
// of this tool with these arguments. A nil l lifts nothing.
func (l *lift) lifts(a *Admission) bool {
	d := &a.Decision
	return l != nil && l.tool == d.Tool().Name && l.argsHash == hashHex(d.ArgsHash())
}

// hold queues a quarantined call, which came through the facade tool
// facade (empty for none), and returns its refusal, which names the item.
// A call that cannot be queued (the session's queue is full, the store
// fails) is refused all the same.
func (t *Tools) hold(ctx context.Context, s *Session, e *registry.Entry, raw json.RawMessage, a *Admission, verdicts []trust.Verdict,
	plan *tool.Plan, tv policy.Trust, facade string) *Refusal {
	d := &a.Decision
	r := refuse(d.Code(), "policy", d.Message()+" (held for review)", d.Diagnostic())
	args, err := tool.ParseArgs(raw)
	if err != nil {
		return r
	}
	now := t.cfg.Now()
	hash := args.HashHex()
	principal := s.Principal
	if principal == "" {
		principal = "local"
	}
	c := &store.HeldCall{
		ID: id.Opaque(now), PrincipalID: principal, SessionID: s.ID, Time: now, Expires: now.Add(quarantineTTL(&t.cfg)),
		TurnID: s.TurnID, InputSource: s.Source.String(), Tool: e.Def.Name, Tier: e.Def.Tier.Effective(),
		Args: args.Canonical(), ArgsHash: hash, Reason: string(d.Code()), Message: d.Message(), Rule: d.Rule(), DecisionID: a.AuditID,
		RetryKey: retryKey(e.Def.Name, args), Description: jsonOf(t.heldDescription(ctx, args, d, plan, tv)), Facade: facade,
	}
	if len(verdicts) > 0 {
		c.Reviews = jsonOf(verdicts)
	}
	rec := &store.ActionRecord{ID: id.New(now), Kind: actionHeld, Time: now, PrincipalID: s.Principal, SessionID: s.ID, Tool: c.Tool, ArgsHash: hash,
		Status: store.StatusBlocked, BlockReason: c.Reason, Detail: jsonOf(map[string]string{"quarantine_id": c.ID, "decision_id": c.DecisionID, "facade": c.Facade})}
	lim := store.HoldLimits{MaxPending: maxHeldPerSession, RejectedSince: now.Add(-quarantineTTL(&t.cfg))}
	existing, err := t.held.HoldCall(ctx, c, lim, rec)
	switch {
	case errors.Is(err, store.ErrHeldRejected):
		rr := refuse(reason.RetryRejected, "quarantine",
			fmt.Sprintf("the owner rejected this same call (quarantine item %s); it is not asked again: change what the call does, or ask the owner", existing), "")
		_ = t.vetoed(ctx, s, c.Tool, hash, rr)
		return rr
	case errors.Is(err, store.ErrHeldLimit):
		r.Message = d.Message() + " (held for review; too many calls already wait for the owner, so this one was not queued)"
		return r
	case err != nil:
		r.Detail += "; not queued: " + err.Error()
		return r
	case existing != "":
		return heldRefusal(r, d.Message(), existing)
	}
	t.bus.Publish(event.Event{Kind: event.QuarantineHeld, Time: now, SessionID: s.ID, Tool: c.Tool, ParamsHash: hash,
		Code: c.Reason, Message: c.Message, Payload: event.QuarantineItem{ID: c.ID}})
	return heldRefusal(r, d.Message(), c.ID)
}

func heldRefusal(r *Refusal, msg, itemID string) *Refusal {
	r.Quarantine = itemID
	r.Message = fmt.Sprintf("%s: the call waits for the owner's review as quarantine item %s and runs only if the owner approves it "+
		`(read its status with query_state {"kind":"quarantine","params":{"id":%q}})`, msg, itemID, itemID)
	return r
}

// quarantined is the gate's view of a stored held call.
func quarantined(c *store.HeldCall, now time.Time) (*Quarantined, error) {
	it := &Quarantined{
		ID: c.ID, Time: c.Time, ExpiresAt: c.Expires, SessionID: c.SessionID, TurnID: c.TurnID, Source: c.InputSource,
		Facade: c.Facade, Tool: c.Tool, Tier: c.Tier, Args: json.RawMessage(c.Args), ArgsHash: c.ArgsHash, Reason: reason.Code(c.Reason),
		Message: c.Message, Rule: c.Rule, DecisionID: c.DecisionID, DecidedAt: c.DecidedAt, DecidedBy: c.DecidedBy, Note: c.Note,
	}
	if len(c.Description) > 0 {
		it.Description = new(Description)
		if err := json.Unmarshal(c.Description, it.Description); err != nil {
			return nil, fmt.Errorf("gate: quarantined call %s: description: %w", c.ID, err)
		}
	}
	switch c.Status {
	case store.HeldApproved:
		it.Status = QuarantineApproved
	case store.HeldRejected:
		it.Status = QuarantineRejected
	default:
		it.Status = QuarantinePending
		if !now.Before(c.Expires) {
			it.Status = QuarantineExpired
		}
	}
	if len(c.Reviews) > 0 {
		if err := json.Unmarshal(c.Reviews, &it.Reviews); err != nil {
			return nil, fmt.Errorf("gate: quarantined call %s: reviews: %w", c.ID, err)
		}
	}
	if len(c.Outcome) > 0 {
		it.Outcome = new(QuarantineOutcome)
		if err := json.Unmarshal(c.Outcome, it.Outcome); err != nil {
			return nil, fmt.Errorf("gate: quarantined call %s: outcome: %w", c.ID, err)
		}
	}
	return it, nil
}

// Quarantined returns the quarantined call id: ErrQuarantineNotFound if
// there is none.
func (t *Tools) Quarantined(ctx context.Context, itemID string) (*Quarantined, error) {
	it, _, err := t.heldCall(ctx, itemID)
	return it, err
}

func (t *Tools) heldCall(ctx context.Context, itemID string) (*Quarantined, *store.HeldCall, error) {
	if !id.ValidAny(itemID) {
		return nil, nil, ErrQuarantineNotFound
	}
	c, err := t.held.HeldCall(ctx, itemID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, ErrQuarantineNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("gate: read quarantined call: %w", err)
	}
	it, err := quarantined(&c, t.cfg.Now())
	return it, &c, err
}

// QuarantineQueue returns the quarantined calls f selects, oldest first.
func (t *Tools) QuarantineQueue(ctx context.Context, f QuarantineFilter) ([]Quarantined, error) {
	now := t.cfg.Now()
	if f.Since.IsZero() {
		f.Since = now.Add(-quarantineTTL(&t.cfg))
	}
	switch {
	case f.Limit <= 0:
		f.Limit = 100
	case f.Limit > 1000:
		f.Limit = 1000
	}
	hf := store.HeldFilter{Since: f.Since, SessionID: f.SessionID, Limit: 10_000}
	switch {
	case f.AnyStatus:
	case f.Status == QuarantineApproved:
		hf.ByStatus, hf.Status = true, store.HeldApproved
	case f.Status == QuarantineRejected:
		hf.ByStatus, hf.Status = true, store.HeldRejected
	default: // pending or expired: both are stored pending
		hf.ByStatus, hf.Status = true, store.HeldPending
	}
	calls, err := t.held.HeldCalls(ctx, hf)
	if err != nil {
		return nil, fmt.Errorf("gate: list quarantined calls: %w", err)
	}
	var out []Quarantined
	for i := range calls {
		it, err := quarantined(&calls[i], now)
		if err != nil {
			return nil, err
		}
		if f.AnyStatus || it.Status == f.Status {
			out = append(out, *it)
			if len(out) == f.Limit {
				break
			}
		}
	}
	return out, nil
}

// Approve approves a pending quarantined call for the owner by (recorded
// in the action log with note) and runs it as the agent's session, with
// its quarantine lifted for that one call; the returned item carries the
// outcome once it has run. It fails with ErrQuarantineNotFound,
// ErrQuarantineDecided or ErrQuarantineExpired, with a Refusal while
// writes are halted (for a write), and with other errors when the review
// cannot be recorded.
func (t *Tools) Approve(ctx context.Context, itemID, by, note string) (*Quarantined, error) {
	return t.review(ctx, itemID, by, note, true)
}

// Reject rejects a pending quarantined call for the owner by; it never
// runs. Errors as Approve's.
func (t *Tools) Reject(ctx context.Context, itemID, by, note string) (*Quarantined, error) {
	return t.review(ctx, itemID, by, note, false)
}

func (t *Tools) review(ctx context.Context, itemID, by, note string, approve bool) (*Quarantined, error) {
	it, c, err := t.heldCall(ctx, itemID)
	if err != nil {
		return nil, err
	}
	switch it.Status {
	case QuarantineExpired:
		return nil, ErrQuarantineExpired
	case QuarantineApproved, QuarantineRejected:
		return nil, ErrQuarantineDecided
	}
	if approve && it.Tier != tool.Read {
		if halted, why, err := t.Halted(ctx); err != nil || halted {
			return nil, refuse(reason.Halted, "halt", "writes are halted: "+why+"; resume before approving a write", errString(err))
		}
	}
	if len(note) > 500 {
		note = note[:500]
	}
	now := t.cfg.Now()
	kind, status, held := actionRejected, QuarantineRejected, store.HeldRejected
	if approve {
		kind, status, held = actionApproved, QuarantineApproved, store.HeldApproved
	}
	// The decision and its record are one conditional update: exactly one
	// review of an item is ever recorded.
	rec := &store.ActionRecord{ID: id.New(now), Kind: kind, Time: now, PrincipalID: c.PrincipalID, SessionID: it.SessionID, Tool: it.Tool,
		ArgsHash: it.ArgsHash, Detail: jsonOf(map[string]string{"quarantine_id": it.ID, "by": by, "note": note})}
	switch err := t.held.DecideHeldCall(ctx, it.ID, held, by, note, now, rec); {
	case errors.Is(err, store.ErrHeldDecided):
		return nil, ErrQuarantineDecided
	case errors.Is(err, store.ErrHeldExpired):
		return nil, ErrQuarantineExpired
	case errors.Is(err, store.ErrNotFound):
		return nil, ErrQuarantineNotFound
	case err != nil:
		return nil, fmt.Errorf("gate: record the review of %s: %w", it.ID, err)
	}
	it.Status, it.DecidedAt, it.DecidedBy, it.Note = status, now, by, note
	t.bus.Publish(event.Event{Kind: event.QuarantineDecided, Time: now, SessionID: it.SessionID, Tool: it.Tool, ParamsHash: it.ArgsHash,
		Code: string(it.Reason), Message: status.String(), Payload: event.QuarantineItem{ID: it.ID}})
	if !approve || !t.queue.start(it.ID) {
		return it, nil
	}
	s, err := t.SessionByID(ctx, it.SessionID)
	if err != nil {
		// No such session here (an in-process one, gone): the agent's
		// next query runs it, if its session comes back.
		t.queue.done(it.ID)
		return it, nil
	}
	// The owner's review runs the call through no facade, with no one
	// listening for its progress.
	t.runHeld(ctx, s, it, CallOptions{})
	return it, nil
}

// runHeld runs an approved call as s, with its quarantine lifted and the
// options of the call that runs it (the owner's review or the agent's
// query), and stores the outcome. The caller has marked the item running.
func (t *Tools) runHeld(ctx context.Context, s *Session, it *Quarantined, opts CallOptions) {
	defer t.queue.done(it.ID)
	// The review is recorded: the run and its outcome must not depend on
	// the reviewer's request staying open.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), heldRunTimeout)
	o := callOpts{CallOptions: opts, approved: &lift{tool: it.Tool, argsHash: it.ArgsHash}}
	defer cancel()
	out := &QuarantineOutcome{}
	var err error
	rec := &store.ActionRecord{Kind: actionOutcome, PrincipalID: s.Principal, SessionID: s.ID, Tool: it.Tool, ArgsHash: it.ArgsHash}
	if it.Tier == tool.Read {
		var res *tool.Result
		if res, err = t.read(ctx, s, it.Tool, it.Args, o); err == nil {
			out.Result, err = json.Marshal(res)
		}
	} else {
		var pv *PermitView
		if pv, err = t.preview(ctx, s, it.Tool, it.Args, o); err == nil {
			out.Permit, rec.PermitID = pv, pv.PermitID
		}
	}
	out.Time = t.cfg.Now()
	if err != nil {
		var rf *Refusal
		if errors.As(err, &rf) {
			out.Code, out.Message = rf.Code, rf.Message
		} else {
			out.Code, out.Message = reason.ExecutionFailed, it.Tool+" failed"
		}
		rec.Status, rec.BlockReason = store.StatusBlocked, string(out.Code)
	} else {
		out.OK = true
		rec.Status = store.StatusExecuted
	}
	it.Outcome = out
	rec.ID, rec.Time = id.New(out.Time), out.Time
	rec.Detail = jsonOf(map[string]string{"quarantine_id": it.ID, "code": string(out.Code)})
	ev := event.Event{Kind: event.QuarantineOutcome, Time: out.Time, SessionID: s.ID, Tool: it.Tool, ParamsHash: it.ArgsHash,
		PermitID: rec.PermitID, Success: out.OK, Code: string(out.Code), Payload: event.QuarantineItem{ID: it.ID}}
	if err := t.held.SetHeldOutcome(ctx, it.ID, jsonOf(out), rec); err != nil {
		ev.Message = "the outcome could not be stored"
		t.auditFailed("quarantine outcome", err)
	}
	t.bus.Publish(ev)
}

// LookupHeld is LookupHeldWith with the options WithFacade and
// WithProgress put in ctx (OptionsFromContext), for a caller that
// predates CallOptions.
func (t *Tools) LookupHeld(ctx context.Context, s *Session, itemID string) (*Quarantined, error) {
	return t.LookupHeldWith(ctx, s, itemID, OptionsFromContext(ctx))
}

// LookupHeldWith answers an agent's query of the quarantined call itemID
// (query_state kind "quarantine"): the session's own item, run first (with
// opts, the query's options) if the owner approved it while its session
// was unknown, without who decided it or the owner's description of it.
// Another session's item, or an unknown one, is a QuarantineNotFound
// refusal and a failed lookup.
func (t *Tools) LookupHeldWith(ctx context.Context, s *Session, itemID string, opts CallOptions) (*Quarantined, error) {
	if err := t.lookupAllowed(ctx, s); err != nil {
		return nil, err
	}
	it, c, err := t.heldCall(ctx, itemID)
	if errors.Is(err, ErrQuarantineNotFound) || (err == nil && (it.SessionID != s.ID || (s.Principal != "" && c.PrincipalID != s.Principal))) {
		return nil, t.lookupFailed(ctx, s, "quarantine", itemID, refuse(QuarantineNotFound, "quarantine", "no quarantined call of this session has this id", ""))
	}
	if err != nil {
		return nil, refuse(reason.AuditUnavailable, "quarantine", "the quarantined call could not be read", err.Error())
	}
	if it.Status == QuarantineApproved && it.Outcome == nil && t.queue.start(it.ID) {
		// Read again under the mark: a run may have finished since.
		if again, err := t.Quarantined(ctx, itemID); err == nil && again.Outcome == nil {
			t.runHeld(ctx, s, again, opts)
			it = again
		} else {
			t.queue.done(it.ID)
			if err == nil {
				it = again
			}
		}
	}
	view := *it
	view.DecidedBy = "" // the owner's principal is not the agent's business
	// Nor is the owner's description: what the books call its addresses
	// and which of its arguments ward does not trust.
	view.Description = nil
	return &view, nil
}

// heldDescription is describe for a held call, with the balance changes of
// a simulation run for the owner now (on a fork; it decides nothing): what
// the owner approves should be what they saw.
func (t *Tools) heldDescription(ctx context.Context, args *tool.Args, d *policy.Decision, plan *tool.Plan, tv policy.Trust) *Description {
	ds := t.describe(args, d, plan, tv)
	if plan == nil || len(plan.Txs) == 0 || t.set == nil || t.set.Simulation == nil {
		return ds
	}
	sim, err := t.set.Simulation.Preview(ctx, plan)
	if err != nil {
		ds.Simulation = "the simulation could not run"
		return ds
	}
	ds.withSimulation(t.cfg.Book, sim)
	return ds
}
