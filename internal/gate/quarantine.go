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
// Storage is the gate's state and action log, no table of its own: an item
// is one state row ("quarantine:ID", its JSON, rewritten when it is decided
// and when its call has run) and action records — "quarantined" when it is
// held (the queue is listed from these), "quarantine_approved" or
// "quarantine_rejected" when the owner decides, "quarantine_outcome" when an
// approved call has run. The review's record has the item's id as its own:
// the action log refuses a second record with an id it has (storetest
// checks this), so exactly one review of an item is ever recorded, across
// goroutines and processes sharing the store, and it is durable before an
// approved call runs.
//
// The sessions an approval runs as are remembered in memory, from the call
// that was held and from the agent's queries of its items. An item
// approved when its session is not known (ward restarted since) runs when
// the agent next reads it.

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

// Bounds of the queue, so that an agent cannot flood the owner: calls of
// one session waiting at once, and calls this process remembers waiting.
// A call held beyond them is refused without being queued.
const (
	maxHeldPerSession = 32
	maxHeld           = 4096
)

// heldRunTimeout bounds the run of an approved call.
const heldRunTimeout = 2 * time.Minute

// QuarantineNotFound is the code of an agent's query for an item its
// session does not have.
const QuarantineNotFound = reason.QuarantineNotFound

// Events of the quarantine queue. Their Summary is the item's id; a
// decided event's Message is "approved" or "rejected".
const (
	EventQuarantined       event.Kind = "quarantine:held"
	EventQuarantineDecided event.Kind = "quarantine:decided"
	EventQuarantineOutcome event.Kind = "quarantine:outcome"
)

// Action record kinds of the quarantine queue.
const (
	actionHeld     = "quarantined"
	actionApproved = "quarantine_approved"
	actionRejected = "quarantine_rejected"
	actionOutcome  = "quarantine_outcome"
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

// quarantineQueue is the queue's memory in this process: which calls wait
// (to hold a repeated call once and bound what a session queues), the
// sessions approvals run as, and the approved calls running now.
type quarantineQueue struct {
	mu       sync.Mutex
	waiting  map[string]heldRef // session, tool and args hash → the item
	sessions map[string]*Session
	running  map[string]bool
}

type heldRef struct {
	id, session string
	expires     time.Time
}

func newQuarantineQueue() quarantineQueue {
	return quarantineQueue{waiting: map[string]heldRef{}, sessions: map[string]*Session{}, running: map[string]bool{}}
}

func (q *quarantineQueue) rememberLocked(s *Session) {
	if _, ok := q.sessions[s.ID]; !ok && len(q.sessions) >= maxHeld {
		clear(q.sessions) // an approval of a forgotten session waits for its next query
	}
	q.sessions[s.ID] = s
}

func (q *quarantineQueue) remember(s *Session) {
	q.mu.Lock()
	q.rememberLocked(s)
	q.mu.Unlock()
}

func (q *quarantineQueue) session(id string) *Session {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.sessions[id]
}

func (q *quarantineQueue) forget(itemID string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for k, r := range q.waiting {
		if r.id == itemID {
			delete(q.waiting, k)
		}
	}
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

// lift is carried by the context of an approved call's run: a quarantine
// of that tool with those arguments is lifted, nothing else. Only this
// package can make one.
type lift struct {
	tool, argsHash string
}

type liftKey struct{}

// facadeKey carries the facade a call came through, for the queue.
type facadeKey struct{}

func quarantineTTL(cfg *ToolsConfig) time.Duration {
	if cfg.QuarantineTTL > 0 {
		return cfg.QuarantineTTL
	}
	return DefaultQuarantineTTL
}

func heldKey(itemID string) string { return "quarantine:" + itemID }

// lifted reports whether a's quarantine is lifted for this call by an
// owner's approval.
func lifted(ctx context.Context, a *Admission) bool {
	l, ok := ctx.Value(liftKey{}).(lift)
	d := &a.Decision
	return ok && l.tool == d.Tool().Name && l.argsHash == hashHex(d.ArgsHash())
}

// hold queues a quarantined call and returns its refusal, which names the
// item. A call that cannot be queued (the queue is full, the store fails)
// is refused all the same.
func (t *Tools) hold(ctx context.Context, s *Session, e *registry.Entry, raw json.RawMessage, a *Admission, verdicts []trust.Verdict) *Refusal {
	d := &a.Decision
	r := refuse(d.Code(), "policy", d.Message()+" (held for review)", d.Diagnostic())
	args, err := tool.ParseArgs(raw)
	if err != nil {
		return r
	}
	now := t.cfg.Now()
	hash := args.HashHex()
	key := s.ID + "\x00" + e.Def.Name + "\x00" + hash
	q := &t.queue
	q.mu.Lock()
	n := 0
	for k, w := range q.waiting {
		switch {
		case !now.Before(w.expires):
			delete(q.waiting, k)
		case w.session == s.ID:
			n++
		}
	}
	if w, ok := q.waiting[key]; ok {
		q.rememberLocked(s)
		q.mu.Unlock()
		return heldRefusal(r, d.Message(), w.id)
	}
	if n >= maxHeldPerSession || len(q.waiting) >= maxHeld {
		q.mu.Unlock()
		r.Message = d.Message() + " (held for review; too many calls already wait for the owner, so this one was not queued)"
		return r
	}
	it := &Quarantined{
		ID: id.New(now), Status: QuarantinePending, Time: now, ExpiresAt: now.Add(quarantineTTL(&t.cfg)),
		SessionID: s.ID, TurnID: s.TurnID, Source: s.Source.String(), Tool: e.Def.Name, Tier: e.Def.Tier.Effective(),
		Args: args.Canonical(), ArgsHash: hash, Reason: d.Code(), Message: d.Message(), Rule: d.Rule(), DecisionID: a.AuditID,
		Reviews: verdicts,
	}
	it.Facade, _ = ctx.Value(facadeKey{}).(string)
	q.waiting[key] = heldRef{id: it.ID, session: s.ID, expires: it.ExpiresAt}
	q.rememberLocked(s)
	q.mu.Unlock()

	// The item and its record are written concurrently: one group commit.
	recErr := make(chan error, 1)
	go func() {
		recErr <- t.record(ctx, &store.ActionRecord{Kind: actionHeld, Time: now, SessionID: s.ID, Tool: it.Tool, ArgsHash: hash,
			Status: "blocked", BlockReason: string(it.Reason),
			Detail: jsonOf(map[string]string{"quarantine_id": it.ID, "decision_id": it.DecisionID, "facade": it.Facade})})
	}()
	saveErr := t.saveHeld(ctx, it)
	if err := errors.Join(saveErr, <-recErr); err != nil {
		q.forget(it.ID)
		r.Detail += "; not queued: " + err.Error()
		return r
	}
	t.bus.Publish(event.Event{Kind: EventQuarantined, Time: now, SessionID: s.ID, Tool: it.Tool, ParamsHash: hash,
		Code: string(it.Reason), Message: it.Message, Summary: it.ID})
	return heldRefusal(r, d.Message(), it.ID)
}

func heldRefusal(r *Refusal, msg, itemID string) *Refusal {
	r.Quarantine = itemID
	r.Message = fmt.Sprintf("%s: the call waits for the owner's review as quarantine item %s and runs only if the owner approves it "+
		`(read its status with query_state {"kind":"quarantine","params":{"id":%q}})`, msg, itemID, itemID)
	return r
}

func (t *Tools) saveHeld(ctx context.Context, it *Quarantined) error {
	b, err := json.Marshal(it)
	if err != nil {
		return err
	}
	if err := t.state.SetState(ctx, heldKey(it.ID), string(b), t.cfg.Now()); err != nil {
		return fmt.Errorf("gate: store quarantined call %s: %w", it.ID, err)
	}
	return nil
}

// Quarantined returns the quarantined call id: ErrQuarantineNotFound if
// there is none.
func (t *Tools) Quarantined(ctx context.Context, itemID string) (*Quarantined, error) {
	if !id.Valid(itemID) {
		return nil, ErrQuarantineNotFound
	}
	v, _, ok, err := t.state.State(ctx, heldKey(itemID))
	if err != nil {
		return nil, fmt.Errorf("gate: read quarantined call: %w", err)
	}
	if !ok || v == "" {
		return nil, ErrQuarantineNotFound
	}
	it := new(Quarantined)
	if err := json.Unmarshal([]byte(v), it); err != nil {
		return nil, fmt.Errorf("gate: quarantined call %s: %w", itemID, err)
	}
	if it.Status == QuarantinePending && !t.cfg.Now().Before(it.ExpiresAt) {
		it.Status = QuarantineExpired
	}
	return it, nil
}

// QuarantineQueue returns the quarantined calls f selects, oldest first.
func (t *Tools) QuarantineQueue(ctx context.Context, f QuarantineFilter) ([]Quarantined, error) {
	if f.Since.IsZero() {
		f.Since = t.cfg.Now().Add(-quarantineTTL(&t.cfg))
	}
	switch {
	case f.Limit <= 0:
		f.Limit = 100
	case f.Limit > 1000:
		f.Limit = 1000
	}
	recs, err := t.actions.Actions(ctx, store.ActionFilter{Kind: actionHeld, SessionID: f.SessionID, Since: f.Since, Limit: 5 * maxHeld})
	if err != nil {
		return nil, fmt.Errorf("gate: list quarantined calls: %w", err)
	}
	var out []Quarantined
	for _, rec := range recs {
		var ref struct {
			ID string `json:"quarantine_id"`
		}
		if json.Unmarshal(rec.Detail, &ref) != nil {
			continue
		}
		it, err := t.Quarantined(ctx, ref.ID)
		if errors.Is(err, ErrQuarantineNotFound) {
			continue // held, but its item could not be stored
		}
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
	it, err := t.Quarantined(ctx, itemID)
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
	kind, status := actionRejected, QuarantineRejected
	if approve {
		kind, status = actionApproved, QuarantineApproved
	}
	// The review's record is the claim: its id is the item's.
	claim := &store.ActionRecord{ID: it.ID, Kind: kind, Time: now, SessionID: it.SessionID, Tool: it.Tool, ArgsHash: it.ArgsHash,
		Detail: jsonOf(map[string]string{"quarantine_id": it.ID, "by": by, "note": note})}
	if err := t.record(ctx, claim); err != nil {
		if t.reviewed(ctx, it) {
			return nil, ErrQuarantineDecided
		}
		return nil, fmt.Errorf("gate: record the review of %s: %w", it.ID, err)
	}
	t.queue.forget(it.ID)
	it.Status, it.DecidedAt, it.DecidedBy, it.Note = status, now, by, note
	running := approve && t.queue.start(it.ID)
	if err := t.saveHeld(ctx, it); err != nil {
		if running {
			t.queue.done(it.ID)
		}
		return nil, err
	}
	t.bus.Publish(event.Event{Kind: EventQuarantineDecided, Time: now, SessionID: it.SessionID, Tool: it.Tool, ParamsHash: it.ArgsHash,
		Code: string(it.Reason), Message: status.String(), Summary: it.ID})
	if !running {
		return it, nil
	}
	if s := t.queue.session(it.SessionID); s != nil {
		t.runHeld(ctx, s, it)
	} else {
		t.queue.done(it.ID) // runs at the agent's next query
	}
	return it, nil
}

// reviewed reports whether the item's review is in the action log.
func (t *Tools) reviewed(ctx context.Context, it *Quarantined) bool {
	for _, kind := range []string{actionApproved, actionRejected} {
		recs, err := t.actions.Actions(ctx, store.ActionFilter{Kind: kind, SessionID: it.SessionID, Since: it.Time})
		if err != nil {
			continue
		}
		for _, r := range recs {
			if r.ID == it.ID {
				return true
			}
		}
	}
	return false
}

// runHeld runs an approved call as s, with its quarantine lifted, and
// stores the outcome. The caller has marked the item running.
func (t *Tools) runHeld(ctx context.Context, s *Session, it *Quarantined) {
	defer t.queue.done(it.ID)
	// The review is recorded: the run and its outcome must not depend on
	// the reviewer's request staying open.
	ctx, cancel := context.WithTimeout(context.WithValue(context.WithoutCancel(ctx), liftKey{}, lift{tool: it.Tool, argsHash: it.ArgsHash}), heldRunTimeout)
	defer cancel()
	out := &QuarantineOutcome{}
	var err error
	rec := &store.ActionRecord{Kind: actionOutcome, SessionID: s.ID, Tool: it.Tool, ArgsHash: it.ArgsHash}
	if it.Tier == tool.Read {
		var res *tool.Result
		if res, err = t.Read(ctx, s, it.Tool, it.Args); err == nil {
			out.Result, err = json.Marshal(res)
		}
	} else {
		var pv *PermitView
		if pv, err = t.Preview(ctx, s, it.Tool, it.Args); err == nil {
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
		rec.Status, rec.BlockReason = "blocked", string(out.Code)
	} else {
		out.OK = true
		rec.Status = "executed"
	}
	it.Outcome = out
	rec.Detail = jsonOf(map[string]string{"quarantine_id": it.ID, "code": string(out.Code)})
	saveErr := t.saveHeld(ctx, it)
	recErr := t.record(ctx, rec)
	ev := event.Event{Kind: EventQuarantineOutcome, Time: out.Time, SessionID: s.ID, Tool: it.Tool, ParamsHash: it.ArgsHash,
		PermitID: rec.PermitID, Success: out.OK, Code: string(out.Code), Summary: it.ID}
	if err := errors.Join(saveErr, recErr); err != nil {
		ev.Message = "the outcome could not be stored"
	}
	t.bus.Publish(ev)
}

// queryHeld answers query_state kind "quarantine": the session's own item,
// run first if the owner approved it while its session was unknown.
func (t *Tools) queryHeld(ctx context.Context, s *Session, params json.RawMessage) (json.RawMessage, error) {
	var p struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.ID == "" {
		return nil, refuse(reason.MissingArgument, "schema", "params.id is required", "")
	}
	it, err := t.Quarantined(ctx, p.ID)
	if errors.Is(err, ErrQuarantineNotFound) || (err == nil && it.SessionID != s.ID) {
		return nil, refuse(QuarantineNotFound, "quarantine", "no quarantined call of this session has this id", "")
	}
	if err != nil {
		return nil, refuse(reason.AuditUnavailable, "quarantine", "the quarantined call could not be read", err.Error())
	}
	t.queue.remember(s)
	if it.Status == QuarantineApproved && it.Outcome == nil && t.queue.start(it.ID) {
		// Read again under the mark: a run may have finished since.
		if again, err := t.Quarantined(ctx, p.ID); err == nil && again.Outcome == nil {
			t.runHeld(ctx, s, again)
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
	return json.Marshal(view)
}
