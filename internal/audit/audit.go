// Package audit writes every policy decision to the audit trail.
//
// A Recorder turns a policy.Decision into a store.DecisionRecord and writes
// it. Decisions about calls that can change state (write and privileged
// tiers) or are dangerous are durable before Record returns; if they cannot
// be written, Record fails and the caller must refuse the call (the gate
// does). Other decisions are queued for the next group commit. Cancelling
// the caller's context never drops a record: writes run under
// context.WithoutCancel with the recorder's own timeout, which a log that
// bounds its appends no later than that (store.BoundedDecisionLog)
// enforces itself, sparing each record a timer.
//
// An Archiver (retain.go) applies [audit] retain: it moves old decisions,
// action records and trust log rows to compressed archive files, never
// losing a row, and reads and verifies them.
package audit

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// Origins of decisions.
const (
	OriginGate  = store.OriginGate  // a live call
	OriginCheck = store.OriginCheck // a what-if evaluation recorded on request
)

// DefaultTimeout bounds one audit write when the config does not say.
const DefaultTimeout = 5 * time.Second

// Config configures a Recorder.
type Config struct {
	Log     store.DecisionLog
	Origin  store.Origin  // OriginGate when zero
	Timeout time.Duration // DefaultTimeout when zero
	// DurableAll makes every record durable before Record returns.
	DurableAll bool
}

// Recorder writes decisions to the audit trail. It is safe for concurrent
// use.
type Recorder struct {
	log        store.DecisionLog
	origin     store.Origin
	timeout    time.Duration
	durableAll bool
	// bounded: the log returns within timeout by itself, so a record
	// needs no timeout context of its own.
	bounded bool
	// policyHex is the hex text of the last policy hash recorded: every
	// decision of one snapshot names the same policy, so its text is
	// encoded once per snapshot rather than once per record.
	policyHex atomic.Pointer[hashText]
	// recs holds *store.DecisionRecord: a log does not keep the record it
	// is given, so one record serves many decisions in turn.
	recs sync.Pool
	// lists interns the JSON text of rule lists (lists.go).
	lists listTexts
}

// hashText is a SHA-256 and its lower-case hex text.
type hashText struct {
	sum  [32]byte
	text string
}

// NewRecorder validates cfg and returns a Recorder.
func NewRecorder(cfg Config) (*Recorder, error) {
	if cfg.Log == nil {
		return nil, errors.New("audit: no decision log")
	}
	if cfg.Timeout < 0 {
		return nil, errors.New("audit: negative timeout")
	}
	r := &Recorder{log: cfg.Log, origin: cfg.Origin, timeout: cfg.Timeout, durableAll: cfg.DurableAll}
	if r.origin == 0 {
		r.origin = OriginGate
	}
	if !r.origin.Valid() {
		return nil, fmt.Errorf("audit: unknown origin %v", cfg.Origin)
	}
	if r.timeout == 0 {
		r.timeout = DefaultTimeout
	}
	if b, ok := cfg.Log.(store.BoundedDecisionLog); ok {
		d := b.AppendTimeout()
		r.bounded = d > 0 && d <= r.timeout
	}
	return r, nil
}

// Durable reports whether a decision must be committed before the call may
// proceed: calls of write or privileged tools, and dangerous or forbidden
// ones.
func Durable(d *policy.Decision) bool {
	return d.Tool().Tier.Effective() >= tool.Write || d.Risk() >= tool.Dangerous
}

// ErrUnavailable wraps every failure to write an audit record.
var ErrUnavailable = errors.New("audit trail unavailable")

// Record writes the decision and returns its audit id. For a durable
// decision a nil error means the record is committed.
func (r *Recorder) Record(ctx context.Context, d *policy.Decision) (string, error) {
	rec := r.recordOf(d)
	defer r.release(rec)
	ctx, cancel := r.writeContext(ctx)
	defer cancel()
	if err := r.log.AppendDecision(ctx, rec, r.durableAll || Durable(d)); err != nil {
		return rec.ID, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return rec.ID, nil
}

// RecordCommitted writes the decision like Record but always waits until
// it is written, whatever the call's tier: committed, when the log can say
// so (store.CommittedDecisionLog), without waiting for the sync after it;
// durable otherwise. The gate uses it for reads, which are refused when
// their decision cannot be written (unless the operator opted into
// best-effort reads).
func (r *Recorder) RecordCommitted(ctx context.Context, d *policy.Decision) (string, error) {
	if r.durableAll || Durable(d) {
		return r.Record(ctx, d)
	}
	rec := r.recordOf(d)
	defer r.release(rec)
	ctx, cancel := r.writeContext(ctx)
	defer cancel()
	var err error
	if c, ok := r.log.(store.CommittedDecisionLog); ok {
		err = c.AppendDecisionCommitted(ctx, rec)
	} else {
		err = r.log.AppendDecision(ctx, rec, true)
	}
	if err != nil {
		return rec.ID, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return rec.ID, nil
}

// RecordDeferred queues the decision for the next group commit without
// waiting for it. The caller must make a durable write to the same store
// before acting on the decision: the store commits records in order, so
// that write's commit makes this record durable too (the tool gate's
// preview does this with its permit).
func (r *Recorder) RecordDeferred(ctx context.Context, d *policy.Decision) (string, error) {
	rec := r.recordOf(d)
	defer r.release(rec)
	ctx, cancel := r.writeContext(ctx)
	defer cancel()
	if err := r.log.AppendDecision(ctx, rec, r.durableAll); err != nil {
		return rec.ID, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return rec.ID, nil
}

// writeContext is ctx without its cancellation, bounded by the
// recorder's timeout unless the log bounds its appends by no more.
func (r *Recorder) writeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx = context.WithoutCancel(ctx)
	if r.bounded {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, r.timeout)
}

// recordOf is RecordOf with a new id, the recorder's origin and the policy
// hash's text reused from the previous record when it names the same
// policy, in a record of the pool; release returns it.
func (r *Recorder) recordOf(d *policy.Decision) *store.DecisionRecord {
	ph := d.PolicyHash()
	last := r.policyHex.Load()
	if last == nil || last.sum != ph {
		last = &hashText{sum: ph, text: hex.EncodeToString(ph[:])}
		r.policyHex.Store(last)
	}
	rec, _ := r.recs.Get().(*store.DecisionRecord)
	if rec == nil {
		rec = new(store.DecisionRecord)
	}
	*rec = recordOf(d, id.New(d.Time()), r.origin, last.text, &r.lists)
	return rec
}

// release clears rec, so that the pool holds no decision's text, and
// returns it to the pool.
func (r *Recorder) release(rec *store.DecisionRecord) {
	*rec = store.DecisionRecord{}
	r.recs.Put(rec)
}

// RecordOf converts a decision to its audit record.
func RecordOf(d *policy.Decision, recID string, origin store.Origin) store.DecisionRecord {
	ph := d.PolicyHash()
	return recordOf(d, recID, origin, hex.EncodeToString(ph[:]), nil)
}

// recordOf is RecordOf with the policy hash's hex text, policyHex, given,
// and the rule lists' text taken from lists (nil: allocated).
func recordOf(d *policy.Decision, recID string, origin store.Origin, policyHex string, lists *listTexts) store.DecisionRecord {
	ah := d.ArgsHash()
	// Encoded on the stack: EncodeToString's buffer is a second
	// allocation beside the string.
	var ahHex [2 * len(ah)]byte
	hex.Encode(ahHex[:], ah[:])
	var buf [512]byte
	evaluated := d.AppendRulesEvaluatedJSON(buf[:0])
	rec := store.DecisionRecord{
		ID:             recID,
		Time:           d.Time(),
		TurnID:         d.TurnID(),
		SessionID:      d.SessionID(),
		InputSource:    d.Source().String(),
		Authority:      d.Authority().String(),
		Tool:           d.Tool().Name,
		Category:       string(d.Tool().Category),
		ArgsHash:       string(ahHex[:]),
		Risk:           d.Risk().String(),
		Decision:       verdictOf(d.Action()),
		Reason:         string(d.Code()),
		Message:        d.Message(),
		Rule:           d.Rule(),
		RulesEvaluated: lists.text(evaluated),
		RulesTriggered: lists.text(d.AppendRulesTriggeredJSON(evaluated[len(evaluated):])),
		Latency:        d.Latency(),
		PolicyHash:     policyHex,
		Diagnostic:     d.Diagnostic(),
		Origin:         origin,
	}
	if s, ok := d.Spend(); ok {
		rec.SpendCategory, rec.SpendCents = s.Category, s.Cents
	}
	return rec
}

// verdictOf is the audit record's verdict of an action; an action the
// store does not know (none exists) is recorded as a deny.
func verdictOf(a policy.Action) store.Verdict {
	switch a {
	case policy.Allow:
		return store.VerdictAllow
	case policy.Quarantine:
		return store.VerdictQuarantine
	}
	return store.VerdictDeny
}
