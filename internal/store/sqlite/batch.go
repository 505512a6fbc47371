package sqlite

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/store"
)

type opKind uint8

const (
	opDecision opKind = iota
	opExecution
	opBalance
	opPolicy
	opPermitCreate
	opPermitConsume
	opPermitCancel
	opAction
	opTrust
	opWithheldPut
	opWithheldWrap
	opWithheldDecide
	opQuarantinePut
	opQuarantineDecide
	opQuarantinePrune
	opGrimoirePut
	opGrimoireAdoption
	opGrimoireDelete
	opQuarantineRollback
	opFunc
)

// Op states: a durable op's waiter and the writer (on failure) race to
// move it out of opPending; whoever wins decides who owns the outcome.
const (
	opPending   uint32 = iota
	opAbandoned        // the waiter left: the writer retries or counts it
	opResolved         // the writer delivered an error to the waiter
)

// op is one accepted record.
type op struct {
	kind    opKind
	durable bool
	// committed makes a durable op's caller wait only for its batch's
	// COMMIT, not for the sync after it (see Store.doCommitted).
	committed bool
	state     atomic.Uint32
	retried   bool  // writer only: already retried once
	err       error // set by the writer before the batch's done is closed

	at string // stored time of an execution, balance or policy

	// A decision and what newDecisionOp computed for the writer.
	dec                  store.DecisionRecord
	ns                   int64    // dec.Time in Unix nanoseconds
	risk, decision       int64    // stored codes
	evaluated, triggered string   // rule lists, "" normalized to "[]"
	argsHash             []byte   // dec.ArgsHash decoded, nil to store it as text
	argsHashBuf          [32]byte // argsHash's bytes when it is a SHA-256
	ownAuthority         bool     // dec.Authority is not the derived one

	exec   *store.ExecutionRecord // a copy, behind a pointer to keep decisions' ops small
	cents  int64
	hash   string
	source []byte

	// Permit, state and action ops, behind pointers to keep decisions'
	// ops small.
	permit   *permitOp
	action   *store.ActionRecord
	trust    *store.TrustRecord // Seq, Prev and Hash set by the writer
	withheld *withheldOp
	know     *knowledgeOp // quarantine and Grimoire writes
	fn       txFunc       // typed state (tx.go)
}

// orphan reports whether no caller waits for op's outcome, so a failure
// must be handled by the writer (retry or count as dropped).
func (o *op) orphan() bool {
	return !o.durable || !o.state.CompareAndSwap(opPending, opResolved)
}

// batch is the unit of group commit.
type batch struct {
	ops       []*op
	taken     chan struct{} // closed when the writer takes the batch
	committed chan struct{} // closed once the batch's COMMIT returned (or failed), before its sync
	done      chan struct{} // closed once the batch committed or failed
	err       error         // batch-wide failure, set before done is closed
	// urgent: a caller waits for the batch's COMMIT only (op.committed),
	// so the writer does not hold it for the running sync. Under Store.mu.
	urgent bool

	// expired is closed CommitTimeout after the first record joined: one
	// timer per batch bounds every wait on it, instead of one per caller.
	expired chan struct{}
	timer   *time.Timer // started by the first record, under Store.mu
}

func newBatch() *batch {
	return &batch{taken: make(chan struct{}), committed: make(chan struct{}), done: make(chan struct{}), expired: make(chan struct{})}
}

// finish releases b's waiters.
func (b *batch) finish() {
	if b.timer != nil {
		b.timer.Stop()
	}
	close(b.done)
}

// submit queues o, and if durable waits for its commit. It returns at
// most CommitTimeout after it was called (AppendTimeout): the batch o
// joins expires CommitTimeout after its first record joined, which is no
// later than o; a record that first waits for room in a full batch starts
// a timer of its own, since the batch it then joins may be younger.
func (s *Store) submit(ctx context.Context, o *op) error {
	var late <-chan time.Time // o's own deadline, once it waited for room
	s.mu.Lock()
	for len(s.open.ops) >= s.cfg.MaxBatch && !s.closed {
		// The full batch waits for the writer; once it has waited for
		// CommitTimeout, give up.
		full := s.open
		s.mu.Unlock()
		if late == nil {
			t := time.NewTimer(s.cfg.CommitTimeout)
			defer t.Stop()
			late = t.C
		}
		select {
		case <-full.taken:
		case <-full.expired:
			return fmt.Errorf("%w: the writer took no batch for %v", ErrQueueFull, s.cfg.CommitTimeout)
		case <-late:
			return fmt.Errorf("%w: no room in a batch for %v", ErrQueueFull, s.cfg.CommitTimeout)
		}
		s.mu.Lock()
	}
	if s.closed {
		s.mu.Unlock()
		return store.ErrClosed
	}
	b := s.open
	b.ops = append(b.ops, o)
	n := len(b.ops)
	first := n == 1
	if first {
		b.timer = time.AfterFunc(s.cfg.CommitTimeout, func() { close(b.expired) })
	}
	urgent := o.committed && !b.urgent
	if urgent {
		b.urgent = true
	}
	s.mu.Unlock()
	if first {
		poke(s.wake)
	}
	if (n == holdRows || urgent) && s.sync != nil {
		poke(s.sync.grew)
	}
	if !o.durable {
		return nil
	}
	return s.wait(ctx, b, o, late)
}

// wait waits for o's batch to end. If ctx ends, the batch expires or late
// fires first, it abandons o to the writer (which still writes it) unless
// the writer already resolved o with an error, which is then returned.
func (s *Store) wait(ctx context.Context, b *batch, o *op, late <-chan time.Time) error {
	done := b.done
	if o.committed {
		done = b.committed
	}
	var gaveUp error
	select {
	case <-done:
		return o.outcome(b)
	case <-ctx.Done():
		gaveUp = ctx.Err()
	case <-b.expired:
		gaveUp = fmt.Errorf("%w: not committed %v after its batch opened (the record stays queued)", ErrCommitTimeout, s.cfg.CommitTimeout)
	case <-late:
		gaveUp = fmt.Errorf("%w: not committed %v after it was appended (the record stays queued)", ErrCommitTimeout, s.cfg.CommitTimeout)
	}
	select {
	case <-done: // both were ready
		return o.outcome(b)
	default:
	}
	if o.state.CompareAndSwap(opPending, opAbandoned) {
		return gaveUp
	}
	<-done // the writer resolved o and is about to close done
	return o.outcome(b)
}

func (o *op) outcome(b *batch) error {
	if o.err != nil {
		return o.err
	}
	return b.err
}

// poke sends on a channel of capacity 1 without waiting: a signal already
// pending covers this one.
func poke(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}
