package sqlite

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ncruces/go-sqlite3"
)

// defaultCheckpointPages is the WAL length, in pages, at which the writer
// finishes a checkpoint; the checkpointer starts copying at a quarter of
// it (see the package comment).
const defaultCheckpointPages = 4096

// checkpointSteps: between a quarter and the whole checkpoint length, the
// writer wakes the checkpointer each time the WAL grew by this fraction of
// the length, not after every commit. Each background checkpoint sorts
// the index of every frame in the WAL and syncs the WAL and the database,
// so a run per small batch cost more than the pages it copied.
const checkpointSteps = 8

// checkpointer owns the connection that copies the WAL into the database
// in the background. Its goroutine is started by Open and stopped by Close.
type checkpointer struct {
	// mu is held for every checkpoint of this store, by the goroutine or
	// by the writer, so that they take turns instead of failing with
	// SQLITE_BUSY.
	mu     sync.Mutex
	conn   *sqlite3.Conn
	wake   chan struct{} // cap 1: the WAL grew past the background threshold
	stop   chan struct{} // closed by Close
	exited chan struct{} // closed when the goroutine returns
}

func openCheckpointer(cfg Config) (*checkpointer, error) {
	conn, err := sqlite3.OpenFlags(cfg.Path, sqlite3.OPEN_READWRITE)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s for checkpoints: %w", cfg.Path, err)
	}
	// A checkpoint syncs the WAL before copying it and the database after,
	// unless synchronous is OFF.
	if err := conn.Exec(`PRAGMA synchronous = ` + strings.ToUpper(cfg.Synchronous)); err != nil {
		return nil, errors.Join(fmt.Errorf("sqlite: open %s for checkpoints: %w", cfg.Path, err), conn.Close())
	}
	return &checkpointer{
		conn:   conn,
		wake:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
		exited: make(chan struct{}),
	}, nil
}

// run copies the WAL into the database each time it is woken, until stop.
// A PASSIVE checkpoint never blocks the writer: it copies the frames
// committed when it starts, while the writer goes on appending. Its errors
// are not reported: they recur in the writer's own checkpoints, whose
// errors SQLite does not report either.
func (c *checkpointer) run() {
	defer close(c.exited)
	for {
		select {
		case <-c.wake:
		case <-c.stop:
			return
		}
		c.mu.Lock()
		_, _, _ = c.conn.WALCheckpoint("main", sqlite3.CHECKPOINT_PASSIVE)
		c.mu.Unlock()
	}
}

// poke wakes the goroutine without waiting.
func (c *checkpointer) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// close stops the goroutine, if it was started, and closes the connection.
func (c *checkpointer) close(started bool) error {
	if started {
		close(c.stop)
		<-c.exited
	}
	return c.conn.Close()
}

// afterCommit runs on the writer goroutine between batches, with the WAL
// length the last commit left. From a quarter of the checkpoint length it
// wakes the checkpointer; from the full length it finishes the checkpoint
// itself, copying what the checkpointer has not (little, if it kept up),
// so that the next transaction restarts the WAL from its beginning: a WAL
// is only restarted by a writer that finds it wholly copied, which a
// concurrent checkpointer never achieves under a steady load.
func (w *writer) afterCommit() {
	if w.ckpt == nil {
		return
	}
	pages := w.walPages
	if pages < w.checkpointPages/4 {
		w.retryCheckpointAt = 0
		w.pokeCheckpointAt = 0
		return
	}
	if pages < w.checkpointPages {
		if pages >= w.pokeCheckpointAt {
			w.ckpt.poke()
			w.pokeCheckpointAt = pages + w.checkpointPages/checkpointSteps
		}
		return
	}
	if pages < w.retryCheckpointAt {
		return
	}
	// While the checkpointer copies, try again after the next batch, unless
	// the WAL is twice its length: then wait for it.
	if pages < 2*w.checkpointPages {
		if !w.ckpt.mu.TryLock() {
			return
		}
	} else {
		w.ckpt.mu.Lock()
	}
	nLog, nCkpt, err := w.conn.WALCheckpoint("main", sqlite3.CHECKPOINT_PASSIVE)
	w.ckpt.mu.Unlock()
	if err != nil || nCkpt < nLog {
		// A reader holds back part of the WAL, or the checkpoint failed:
		// try again once the WAL grew by another quarter, not after every
		// batch.
		w.retryCheckpointAt = pages + w.checkpointPages/4
	}
}
