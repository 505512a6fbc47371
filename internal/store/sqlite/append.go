package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// AppendDecision queues rec for the next group commit; with durable it
// returns once the record is committed. rec is copied and may be reused
// when the call returns. An invalid record (an id that is not a ULID or
// made before rec.Time, a zero time or one outside years 1678-2262, an
// unknown risk or decision, a rule list that is not a JSON array, a
// negative latency) is rejected and nothing is written. See
// the package comment for ctx, timeouts and failed commits.
func (s *Store) AppendDecision(ctx context.Context, rec *store.DecisionRecord, durable bool) error {
	if rec == nil {
		return errors.New("sqlite: append decision: nil record")
	}
	o, err := newDecisionOpIn(&s.decisionOps, rec, durable)
	if err != nil {
		return fmt.Errorf("sqlite: append decision: %w", err)
	}
	err = s.submit(ctx, o)
	s.recycle(o)
	return err
}

// AppendDecisionCommitted writes rec and returns once its batch is
// committed, without waiting for the sync after it (see doCommitted).
func (s *Store) AppendDecisionCommitted(ctx context.Context, rec *store.DecisionRecord) error {
	if rec == nil {
		return errors.New("sqlite: append decision: nil record")
	}
	o, err := newDecisionOpIn(&s.decisionOps, rec, true)
	if err != nil {
		return fmt.Errorf("sqlite: append decision: %w", err)
	}
	o.committed = true
	err = s.submit(ctx, o)
	s.recycle(o)
	return err
}

// recycle puts a decision's op back in the pool once submit returned, if
// nothing refers to it any more. That is so for a durable op its caller
// did not abandon: it was never queued (submit failed first), or the
// writer is done with it, since the batch's committed (or done) channel,
// on which the caller waited, is closed only after the writer's last use
// of its ops (write's loops over them; only orphans are kept for a
// retry). The batch still lists it, but from then on only its channels
// and err are used. A non-durable op and an abandoned one are the
// writer's, which may still write it.
func (s *Store) recycle(o *op) {
	if !o.durable || o.state.Load() == opAbandoned {
		return
	}
	*o = op{}
	s.decisionOps.Put(o)
}

var _ store.CommittedDecisionLog = (*Store)(nil)

// AppendTimeout is Config.CommitTimeout: no append waits longer (see
// submit), whatever its ctx.
func (s *Store) AppendTimeout() time.Duration { return s.cfg.CommitTimeout }

var _ store.BoundedDecisionLog = (*Store)(nil)

// AppendExecution durably writes rec (same batching and ctx rules as a
// durable AppendDecision). It needs a ULID id, a non-zero time, a tool and
// a spend that is not negative.
func (s *Store) AppendExecution(ctx context.Context, rec *store.ExecutionRecord) error {
	if rec == nil {
		return errors.New("sqlite: append execution: nil record")
	}
	e := *rec
	o := &op{kind: opExecution, durable: true, exec: &e}
	var err error
	if o.at, err = checkExecution(rec); err != nil {
		return fmt.Errorf("sqlite: append execution: %w", err)
	}
	return s.submit(ctx, o)
}

// SetBalance durably records the last known balance; the latest call wins.
func (s *Store) SetBalance(ctx context.Context, cents int64, at time.Time) error {
	o := &op{kind: opBalance, durable: true, cents: cents}
	var err error
	if at.IsZero() {
		return fmt.Errorf("sqlite: set balance: %w: zero time", errInvalid)
	}
	if o.at, err = formatTime(at); err != nil {
		return fmt.Errorf("sqlite: set balance: %w: %v", errInvalid, err)
	}
	return s.submit(ctx, o)
}

// RecordPolicy durably stores source under hash. Recording the same hash
// again with the same source is a no-op; with a different source it fails
// and the first source stays.
func (s *Store) RecordPolicy(ctx context.Context, hash string, source []byte) error {
	if hash == "" {
		return fmt.Errorf("sqlite: record policy: %w: empty hash", errInvalid)
	}
	o := &op{kind: opPolicy, durable: true, hash: hash, source: slices.Clone(source)}
	if o.source == nil {
		o.source = []byte{}
	}
	var err error
	if o.at, err = formatTime(time.Now()); err != nil {
		return fmt.Errorf("sqlite: record policy: %w", err)
	}
	return s.submit(ctx, o)
}
