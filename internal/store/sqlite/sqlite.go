// Package sqlite is ward's default store.Store: one SQLite file in WAL
// mode, written by one goroutine that group-commits.
//
// Writes. Only the writer goroutine uses the write connection. Every write
// (decision, execution, balance, policy, permit, gate state, action) joins
// the currently open batch; the writer repeatedly swaps the open batch for
// an empty one, writes it in one transaction with statements prepared once
// (decisions in multi-row INSERTs of 64 and 16 rows, then single rows;
// everything else row by row), commits, and once the commit is durable
// closes the batch's done channel, on which its durable callers wait. One
// COMMIT, and one fsync, thus serves every caller in the batch, and batches
// grow by themselves while the previous one is written. Open starts the
// writer; Close stops it and waits for it.
//
// Permits. Consuming or cancelling a permit is one conditional UPDATE in
// its batch's transaction; one that matches nothing is diagnosed by reading
// the row in that same transaction and answers its own caller without
// failing the batch (see permit.go). BEGIN IMMEDIATE takes SQLite's write
// lock, which every process on the file shares, so exactly one of any
// number of consumers, in any number of processes, succeeds.
//
// Reads (QueryDecisions, DecisionReport, Executions, Balance, Policy,
// Permit, PendingPermits, State, Actions) use a read-only connection under
// a mutex; in WAL mode they see the last committed state and neither wait
// for nor block the writer. Values are always bound as parameters, never
// spliced into SQL.
//
// Durability. With Config.Synchronous "full" (the default) a durable
// append that returned nil survives power loss; with "normal" it survives
// a crash of the process, not of the machine. Under "full" the COMMIT does
// not sync the WAL itself: the syncer (syncer.go) does, on its own
// goroutine, and only then releases the batch's callers, so that writing a
// batch overlaps syncing the previous one. While a sync runs the writer
// holds back a batch of fewer than 256 records, which would gain nothing
// from an early commit. A failed sync fails every durable append until the
// store is reopened.
//
// Checkpoints. SQLite's own checkpoint runs inside the COMMIT that takes
// the WAL past its limit, stalling the writer for the copy and two syncs.
// Instead a checkpointer goroutine with a connection of its own copies the
// WAL in the background (PASSIVE, never blocking the writer) from 1024
// pages on, woken each time the WAL grew by another 512, and the writer finishes the checkpoint between batches at 4096
// pages (16 MiB) so that the WAL restarts from its beginning (see
// afterCommit).
//
// Ids and time. Decisions are ordered by id, newest first, and a Since
// filter also becomes an id range (id.MinAt), so the id primary key is the
// only index time filters need. This is exact because AppendDecision
// rejects a record whose id sorts before id.MinAt(rec.Time), as an id made
// by id.New at or after the record's time never does.
//
// Schema. Migrations are a versioned list applied on Open, each in its own
// transaction, recorded in schema_migrations and PRAGMA user_version; a
// database written by a newer ward is refused with store.ErrSchemaTooNew.
// Decisions are stored compactly in decision_log (integer times and enums,
// interned strings, binary hashes; see migrations), and policy_decisions is
// a view with the seed's columns and names, so the seed's report queries
// run unchanged. The tables of version 1 store other times as UTC RFC 3339
// text with exactly nine fractional digits, so text order is time order;
// permits, gate state and actions store Unix nanoseconds. Empty optional
// strings are stored as NULL and read back as "".
package sqlite

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// Defaults applied by Open to zero Config fields.
const (
	DefaultMaxBatch      = 4096
	DefaultCommitTimeout = 5 * time.Second
)

// ErrQueueFull is returned when a record could not join a batch within
// Config.CommitTimeout because the writer is behind; the record was not
// accepted.
var ErrQueueFull = errors.New("sqlite: write queue full")

// ErrCommitTimeout is returned by a durable write whose commit did not
// finish within Config.CommitTimeout; the record was accepted and is still
// written if the database recovers.
var ErrCommitTimeout = errors.New("sqlite: commit timed out")

// Config configures a Store. The zero value of every field but Path selects
// the default.
type Config struct {
	// Path is the database file; it is created if missing. Its directory
	// must exist.
	Path string
	// Synchronous is "full" (the default when empty: a durable append
	// survives power loss) or "normal" (it survives a process crash).
	Synchronous string
	// MaxBatch is the number of records the open batch may hold before
	// appenders wait for the writer (default 4096).
	MaxBatch int
	// CommitTimeout bounds how long a write waits for room in a batch and
	// for its commit, counted from the first record of its batch, and how
	// long the writer waits for a lock held by another process (default
	// 5s).
	CommitTimeout time.Duration
	// Init lets an existing empty file become a new database; without it
	// Open refuses one (ErrEmptyFile), since a ward database is never
	// empty once created. A missing file is always created.
	Init bool
	// Verify runs the start-up check: SQLite's quick_check before
	// migrating (ErrNotDatabase) and, after, every table and index of the
	// schema present (ErrMissingTables). Its cost grows with the file
	// (a full read); the daemon sets it, short-lived commands do not.
	Verify bool
}

func (c Config) withDefaults() (Config, error) {
	if c.Path == "" {
		return c, errors.New("sqlite: config: empty path")
	}
	if c.Path == ":memory:" || strings.HasPrefix(c.Path, "file:") {
		return c, fmt.Errorf("sqlite: config: path %q: need a plain file path (the store opens two connections to one file)", c.Path)
	}
	switch strings.ToLower(c.Synchronous) {
	case "", "full":
		c.Synchronous = "full"
	case "normal":
		c.Synchronous = "normal"
	default:
		return c, fmt.Errorf("sqlite: config: synchronous %q: want \"full\" or \"normal\"", c.Synchronous)
	}
	switch {
	case c.MaxBatch < 0:
		return c, fmt.Errorf("sqlite: config: negative max batch %d", c.MaxBatch)
	case c.MaxBatch == 0:
		c.MaxBatch = DefaultMaxBatch
	}
	switch {
	case c.CommitTimeout < 0:
		return c, fmt.Errorf("sqlite: config: negative commit timeout %v", c.CommitTimeout)
	case c.CommitTimeout == 0:
		c.CommitTimeout = DefaultCommitTimeout
	}
	return c, nil
}

// Store is a store.Store on one SQLite file. Its methods are safe for
// concurrent use. It must be closed with Close.
type Store struct {
	cfg Config

	mu     sync.Mutex
	open   *batch // the batch appenders join
	closed bool

	wake   chan struct{} // cap 1: the open batch became non-empty
	stop   chan struct{} // closed by Close
	exited chan struct{} // closed when the writer goroutine returns

	w       *writer // owned by the writer goroutine until exited is closed
	r       *reader
	sync    *syncer // nil unless synchronous is "full"
	dropped atomic.Uint64

	// decisionOps holds decision ops no one refers to any more (see
	// recycle), so that a durable append does not allocate its op.
	decisionOps sync.Pool
}

var _ store.Store = (*Store)(nil)

// Open opens (creating if needed) the database at cfg.Path, applies pending
// migrations, and starts the writer goroutine.
// ctx bounds migrating only. It fails with an error wrapping store.ErrSchemaTooNew if
// the database was written by a newer ward.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	return open(ctx, cfg, options{})
}

// options are knobs for tests and benchmarks.
type options struct {
	chunks   []int // multi-row INSERT sizes, descending, ending with 1
	pageSize int   // of a new database; 0 is SQLite's default (4096)
	// checkpointPages is the WAL length in pages at which the writer
	// finishes a checkpoint; 0 is defaultCheckpointPages, negative
	// disables checkpoints.
	checkpointPages int
	// sqliteCheckpoints makes the COMMIT that takes the WAL past
	// checkpointPages checkpoint (PRAGMA wal_autocheckpoint), instead of
	// the checkpointer and the writer between batches.
	sqliteCheckpoints bool
	// commitSync makes COMMIT sync the WAL with synchronous "full", as
	// SQLite does by itself, instead of the syncer.
	commitSync bool
}

// syncer reports whether the store syncs through a syncer.
func (o options) syncer(cfg Config) bool { return cfg.Synchronous == "full" && !o.commitSync }

// autocheckpoint is the writer's PRAGMA wal_autocheckpoint.
func (o options) autocheckpoint() int {
	if o.sqliteCheckpoints && o.checkpointPages > 0 {
		return o.checkpointPages
	}
	return 0
}

func open(ctx context.Context, cfg Config, opt options) (*Store, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if opt.chunks == nil {
		opt.chunks = defaultChunks
	}
	if opt.checkpointPages == 0 {
		opt.checkpointPages = defaultCheckpointPages
	}
	if err := preflight(cfg); err != nil {
		return nil, err
	}
	w, err := openWriter(ctx, cfg, opt)
	if err != nil {
		return nil, err
	}
	r, err := openReader(cfg)
	if err != nil {
		return nil, errors.Join(err, w.close())
	}
	if opt.checkpointPages > 0 && !opt.sqliteCheckpoints {
		if w.ckpt, err = openCheckpointer(cfg); err != nil {
			return nil, errors.Join(err, r.close(), w.close())
		}
	}
	var y *syncer
	if opt.syncer(cfg) {
		if y, err = openSyncer(cfg.Path + "-wal"); err != nil {
			var ckptErr error
			if w.ckpt != nil {
				ckptErr = w.ckpt.close(false)
			}
			return nil, errors.Join(err, ckptErr, r.close(), w.close())
		}
	}
	s := &Store{
		cfg:    cfg,
		open:   newBatch(),
		wake:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
		exited: make(chan struct{}),
		w:      w,
		r:      r,
		sync:   y,
	}
	labels := pprof.Labels("ward", "sqlite-writer", "path", cfg.Path)
	go pprof.Do(context.WithoutCancel(ctx), labels, func(context.Context) { s.run() })
	if c := w.ckpt; c != nil {
		labels := pprof.Labels("ward", "sqlite-checkpointer", "path", cfg.Path)
		go pprof.Do(context.WithoutCancel(ctx), labels, func(context.Context) { c.run() })
	}
	if y != nil {
		labels := pprof.Labels("ward", "sqlite-syncer", "path", cfg.Path)
		go pprof.Do(context.WithoutCancel(ctx), labels, func(context.Context) { y.run() })
	}
	return s, nil
}

// DroppedRecords returns how many accepted records were never written:
// records nobody waited for whose batch failed twice, and records that
// violated a constraint while nobody waited for them.
func (s *Store) DroppedRecords() uint64 { return s.dropped.Load() }

// Close stops accepting writes (they fail with store.ErrClosed, as do
// reads), writes and flushes everything queued, stops the goroutines and
// waits for them, and closes the database. It reports records that could not be written. A
// second Close returns store.ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return store.ErrClosed
	}
	s.closed = true
	s.mu.Unlock()

	before := s.dropped.Load()
	close(s.stop)
	<-s.exited
	var flushErr error
	if n := s.dropped.Load() - before; n > 0 {
		flushErr = fmt.Errorf("sqlite: close: %d queued records not written", n)
		if s.w.lastErr != nil {
			flushErr = fmt.Errorf("%w: %w", flushErr, s.w.lastErr)
		}
	}
	var syncErr, ckptErr error
	if s.sync != nil {
		// The writer has handed over its last batch.
		syncErr = s.sync.close()
	}
	if s.w.ckpt != nil {
		ckptErr = s.w.ckpt.close(true)
	}
	// The writer's connection closes last: closing the last connection
	// checkpoints the WAL into the database and removes it.
	return errors.Join(flushErr, syncErr, s.r.close(), ckptErr, s.w.close())
}
