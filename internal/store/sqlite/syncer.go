package sqlite

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

// holdRows is the open batch's length from which the writer commits it
// while a sync runs. A smaller batch waits for the sync to end: committing
// it at once would cost the writer a transaction (and a rewrite of the
// WAL's last page) for a few rows, and would not make them durable any
// sooner, since they wait for the next sync either way. 256 rows take the
// writer about as long as one sync on the machines measured.
const holdRows = 256

// syncer makes committed batches durable off the writer's path.
//
// With synchronous "full" the writer's connection runs with PRAGMA
// synchronous = NORMAL, so a COMMIT appends the batch's frames to the WAL
// without syncing it, and hands the batch to the syncer instead of
// releasing its waiters. The syncer syncs the WAL file (fdatasync, as
// SQLite's own commit sync does) and then releases every batch committed
// before that sync began. Meanwhile the writer goes on with the next
// batch, so a batch's writing overlaps the previous batch's sync instead of
// waiting for it, and one sync serves every batch committed while the last
// one ran.
//
// Durability is that of synchronous FULL: a durable append returns nil
// only once its frames are on stable storage. Checkpoints still sync the
// WAL before copying it and the database after (NORMAL does both), so a
// WAL restart never overwrites frames that exist only in the WAL.
//
// The syncer holds its own read-only descriptor of the WAL file: fsync
// applies to the file, whichever descriptor names it. SQLite keeps the WAL
// file (the same inode) while any connection has the database open, and
// the writer's connection stays open until the syncer has stopped. SQLite
// takes no locks on the WAL file itself, so this descriptor's lifetime
// cannot disturb them.
//
// A failed sync is final: after it the kernel may report later syncs as
// successful although the pages it dropped are lost, so every batch the
// syncer holds then or receives later fails with the error, and the store
// must be reopened.
type syncer struct {
	wal *os.File

	mu      sync.Mutex
	pending []*batch // committed, not yet synced
	stopped bool

	// busy is true from add until a sync round ends with nothing pending:
	// while it is, the writer holds a small batch back (see hold).
	busy atomic.Bool

	wake   chan struct{} // cap 1: pending became non-empty
	idle   chan struct{} // cap 1: busy became false
	grew   chan struct{} // cap 1: the open batch reached holdRows or became urgent
	exited chan struct{} // closed when the goroutine returns

	err error // the failed sync; only the syncer goroutine uses it
	// syncFile is the sync call; tests replace it to make it fail.
	syncFile func(*os.File) error
}

func openSyncer(walPath string) (*syncer, error) {
	f, err := os.Open(walPath)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open WAL for syncing: %w", err)
	}
	return &syncer{
		wal:      f,
		wake:     make(chan struct{}, 1),
		idle:     make(chan struct{}, 1),
		grew:     make(chan struct{}, 1),
		exited:   make(chan struct{}),
		syncFile: fdatasync,
	}, nil
}

// add hands over a committed batch; its waiters are released once a sync
// that began after add returned has finished.
func (y *syncer) add(b *batch) {
	y.mu.Lock()
	y.pending = append(y.pending, b)
	y.busy.Store(true)
	y.mu.Unlock()
	poke(y.wake)
}

// hold returns once the writer should commit the open batch: when no
// sync runs, when the batch has holdRows records or a caller waiting for
// its COMMIT only (batch.urgent), or when the store is closing.
func (s *Store) hold() {
	y := s.sync
	for y.busy.Load() {
		s.mu.Lock()
		n, urgent, closed := len(s.open.ops), s.open.urgent, s.closed
		s.mu.Unlock()
		if n >= holdRows || urgent || closed {
			return
		}
		select {
		case <-y.idle:
		case <-y.grew:
		case <-s.stop:
			return
		}
	}
}

// run syncs and releases batches until close, then drains what is left.
func (y *syncer) run() {
	defer close(y.exited)
	var done []*batch
	for {
		<-y.wake
		for {
			y.mu.Lock()
			done, y.pending = y.pending, done[:0]
			stopped := y.stopped
			if len(done) == 0 {
				y.busy.Store(false)
			}
			y.mu.Unlock()
			if len(done) == 0 {
				poke(y.idle)
				if stopped {
					return
				}
				break
			}
			if y.err == nil {
				if err := y.syncFile(y.wal); err != nil {
					y.err = fmt.Errorf("sqlite: sync WAL: %w (the audit trail's durability is unknown; reopen the store)", err)
				}
			}
			for _, b := range done {
				if y.err != nil {
					b.err = y.err
				}
				b.finish()
			}
			clear(done)
		}
	}
}

// close waits for the goroutine to release every batch it was given and
// closes the descriptor. The writer must have stopped adding batches.
func (y *syncer) close() error {
	y.mu.Lock()
	y.stopped = true
	y.mu.Unlock()
	poke(y.wake)
	<-y.exited
	return errors.Join(y.err, y.wal.Close())
}
