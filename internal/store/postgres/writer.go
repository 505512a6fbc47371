package postgres

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// The decision writer group-commits the audit trail. AppendDecision adds
// its row to the open batch and wakes the writer goroutine; the writer
// swaps the open batch for an empty one and writes it with one COPY (one
// transaction), then closes the batch's done channel, on which durable
// callers wait. One commit thus serves every caller in the batch, and
// batches grow by themselves while the previous one is written. A batch
// the database refuses (a duplicate id) is written again row by row, so
// that only the refused row fails. Close stops the writer after it wrote
// everything queued: nothing is accepted after the last batch is taken.

// commitTimeout bounds the writing of one batch (and of each row of a
// batch written row by row).
const commitTimeout = 30 * time.Second

// decisionWriter is the writer's state, owned by the Store.
type decisionWriter struct {
	mu      sync.Mutex
	open    *batch // rows waiting for the next write
	stopped bool   // the last batch was taken: refuse new rows
	kick    chan struct{}
	// dropped counts non-durable rows that could not be written (whose
	// callers had returned already).
	dropped atomic.Uint64
}

// batch is rows written in one transaction; errs[i] is row i's outcome,
// set before done is closed.
type batch struct {
	rows []decisionRow
	errs []error
	done chan struct{}
}

func newBatch() *batch { return &batch{done: make(chan struct{})} }

// start starts the store's background goroutines (the decision writer).
func (s *Store) start() {
	s.dec = &decisionWriter{open: newBatch(), kick: make(chan struct{}, 1)}
	s.wg.Add(1)
	go pprof.Do(s.bg, pprof.Labels("ward", "postgres decision writer"), func(context.Context) {
		defer s.wg.Done()
		s.runWriter()
	})
}

// enqueue adds row to the open batch and returns the batch and the row's
// index in it; ErrClosed once the writer stopped.
func (w *decisionWriter) enqueue(row decisionRow) (*batch, int, error) {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return nil, 0, store.ErrClosed
	}
	b := w.open
	b.rows = append(b.rows, row)
	i := len(b.rows) - 1
	w.mu.Unlock()
	select {
	case w.kick <- struct{}{}:
	default:
	}
	return b, i, nil
}

// take swaps the open batch for an empty one; last marks the writer
// stopped, so that no row is queued after the last batch.
func (w *decisionWriter) take(last bool) *batch {
	w.mu.Lock()
	defer w.mu.Unlock()
	b := w.open
	w.open, w.stopped = newBatch(), last
	return b
}

// runWriter writes batches until the store's context ends, then writes
// what is left and stops.
func (s *Store) runWriter() {
	w := s.dec
	for {
		select {
		case <-w.kick:
			s.writeBatch(w.take(false))
		case <-s.bg.Done():
			s.writeBatch(w.take(true))
			return
		}
	}
}

// writeBatch writes b and releases its callers.
func (s *Store) writeBatch(b *batch) {
	defer close(b.done)
	if len(b.rows) == 0 {
		return
	}
	b.errs = make([]error, len(b.rows))
	// The writer's writes outlive Close's cancellation: what was accepted
	// is written.
	base := context.WithoutCancel(s.bg)
	ctx, cancel := context.WithTimeout(base, commitTimeout)
	err := copyDecisions(ctx, s, b.rows)
	cancel()
	if err == nil {
		return
	}
	if len(b.rows) == 1 {
		b.errs[0] = err
	} else {
		for i := range b.rows {
			ctx, cancel := context.WithTimeout(base, commitTimeout)
			b.errs[i] = copyDecisions(ctx, s, b.rows[i:i+1])
			cancel()
		}
	}
	for i, e := range b.errs {
		if e != nil && !b.rows[i].durable {
			s.dec.dropped.Add(1)
		}
	}
}

// copyDecisions writes rows with one COPY, which is its own transaction
// (all rows or none) and needs no BEGIN and COMMIT round trips.
func copyDecisions(ctx context.Context, s *Store, rows []decisionRow) error {
	n, err := s.pool.CopyFrom(ctx, pgx.Identifier{"policy_decisions"}, decisionCopyColumns, pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
		return rows[i].values(), nil
	}))
	switch {
	case isUnique(err):
		return fmt.Errorf("a decision with one of these ids exists: %w", err)
	case err != nil:
		return err
	case n != int64(len(rows)):
		return fmt.Errorf("copied %d of %d decisions", n, len(rows))
	}
	return nil
}

// DroppedRecords returns how many accepted records were never written:
// non-durable decisions whose batch, and then whose own row, the database
// refused.
func (s *Store) DroppedRecords() uint64 { return s.dec.dropped.Load() }

// wait waits for row i of b to be committed; a ctx that ends first
// returns ctx.Err() and the row is still written.
func (b *batch) wait(ctx context.Context, i int) error {
	select {
	case <-b.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if b.errs == nil { // an empty batch cannot hold row i
		return errors.New("postgres: append decision: the batch lost its row")
	}
	return b.errs[i]
}
