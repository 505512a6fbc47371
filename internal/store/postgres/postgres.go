// Package postgres is ward's store.Store on PostgreSQL, for several ward
// instances that must behave as one: every instance on one database shares
// permits, sessions and their taint, spend and rate windows, held calls,
// tokens, the gate's phase and halt, the audit trail and the trust log.
//
// Concurrency. What two instances racing must not both win is decided by
// the database, never by a process: a permit or an output is consumed or
// decided by one conditional UPDATE; a check and the write that depends on
// it (a spend window's totals and the hold they admit, a session limit
// and the session it admits, the trust log's head and the record chained
// to it) run in one transaction that first takes a transaction-scoped
// advisory lock naming what it serialises (lock.go), so that the order of
// such writers is the database's commit order whichever instance asks.
//
// Changes. A write that changes what another instance may hold in memory
// (a session's level or review, the gate's control, a principal's tokens)
// sends a notification on the channel "ward_changes" in its own
// transaction, delivered only if it commits; Watch (notify.go) turns them
// into store.Change values for the caches above the store.
//
// Schema. Migrations are a versioned list applied by Open under a
// session-level advisory lock, each in its own transaction and recorded in
// schema_migrations, so that instances starting together apply each
// version exactly once and wait for each other; a database written by a
// newer ward is refused with store.ErrSchemaTooNew. Times are stored as
// Unix nanoseconds (bigint), enums as their stable names, bytes as bytea.
// Values are always bound as parameters, never spliced into SQL.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/wardhq/ward/internal/store"
)

// Config configures a Store.
type Config struct {
	// URL is the database's connection URL (postgres://user@host/db?...),
	// or a libpq keyword/value string.
	URL string
	// MaxConns bounds the pool's connections (0: 16).
	MaxConns int32
}

// DefaultMaxConns is the pool size when Config.MaxConns is 0.
const DefaultMaxConns = 16

// Store is a store.Store on one PostgreSQL database. Its methods are safe
// for concurrent use, also across processes. It must be closed with Close.
type Store struct {
	pool   *pgxpool.Pool
	closed atomic.Bool
	once   sync.Once
	// mu orders track against Close: no goroutine is added to wg once
	// Close has begun waiting for it.
	mu sync.Mutex
	// bg is cancelled by Close: the context of the store's own goroutines.
	bg     context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// beforeClose run in Close after the goroutines stopped, before the
	// pool closes (the audit writer's flush).
	beforeClose []func()
	// dec is the decision writer (writer.go), started by start.
	dec *decisionWriter
}

// Open connects to the database, applies pending migrations and returns
// the store. ctx bounds connecting and migrating.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.URL == "" {
		return nil, errors.New("postgres: config: empty url")
	}
	pc, err := pgxpool.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("postgres: config: url %s: %w", Redact(cfg.URL), err)
	}
	switch {
	case cfg.MaxConns < 0:
		return nil, fmt.Errorf("postgres: config: negative max conns %d", cfg.MaxConns)
	case cfg.MaxConns == 0:
		pc.MaxConns = DefaultMaxConns
	default:
		pc.MaxConns = cfg.MaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("postgres: open %s: %w", Redact(cfg.URL), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect %s: %w", Redact(cfg.URL), err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	s := &Store{pool: pool}
	s.bg, s.cancel = context.WithCancel(context.Background())
	s.start()
	return s, nil
}

// Redact returns the URL with its password replaced, for messages.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return "(connection string)"
	}
	return u.Redacted()
}

// Close stops the store's goroutines, flushes what they queued and closes
// the pool. Every method fails with store.ErrClosed after it; a second
// Close returns nil.
func (s *Store) Close() error {
	var err error
	s.once.Do(func() {
		s.mu.Lock()
		s.closed.Store(true)
		s.mu.Unlock()
		for _, f := range s.beforeClose {
			f()
		}
		s.cancel()
		s.wg.Wait()
		s.pool.Close()
	})
	return err
}

// track adds n goroutines to wg, unless the store is closed (false).
func (s *Store) track(n int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return false
	}
	s.wg.Add(n)
	return true
}

// ok returns store.ErrClosed once the store is closed.
func (s *Store) ok() error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	return nil
}

// admit is the prologue of a write of one record: the store is open, rec
// is valid (store.CheckRecord) and the fields text returns of it hold no
// text PostgreSQL cannot store (storable). op begins its errors.
func admit[R interface {
	comparable
	Validate() error
}](s *Store, op string, rec R, text func(R) []string) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckRecord(op, rec); err != nil {
		return err
	}
	if err := storable(text(rec)...); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// Pool returns the connection pool (for tests and tools of this package's
// users that need raw SQL, such as ward's own schema checks).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// querier is what a statement runs on: the pool or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

var (
	_ querier = (*pgxpool.Pool)(nil)
	_ querier = (pgx.Tx)(nil)
)

// queryRows runs sql on q and reads every row it returns with scan, in
// order. A failed query or scan is its error, unwrapped: the caller names
// the operation.
func queryRows[T any](ctx context.Context, q querier, scan pgx.RowToFunc[T], sql string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scan)
}

// rowTo adapts scan, written for the one row of QueryRow, to the rows
// queryRows and queryOne collect.
func rowTo[T any](scan func(pgx.Row) (T, error)) pgx.RowToFunc[T] {
	return func(r pgx.CollectableRow) (T, error) { return scan(r) }
}

// queryOne runs sql on q and reads the one row it returns with scan: no
// row is store.ErrNotFound, more than one is pgx.ErrTooManyRows.
func queryOne[T any](ctx context.Context, q querier, scan pgx.RowToFunc[T], sql string, args ...any) (T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		var zero T
		return zero, err
	}
	t, err := pgx.CollectExactlyOneRow(rows, scan)
	if errors.Is(err, pgx.ErrNoRows) {
		return t, store.ErrNotFound
	}
	return t, err
}

// inTx runs fn in a transaction and commits it, retrying the whole of fn
// on a serialization failure or a deadlock (which PostgreSQL resolves by
// failing one party). fn may run more than once: it must not have effects
// outside the transaction. An error fn returns rolls the transaction back
// and is returned as it is.
func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	if err := s.ok(); err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		err := pgx.BeginFunc(ctx, s.pool, fn)
		if err == nil || !retryable(err) || attempt >= 20 {
			return unwritable(err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * time.Millisecond):
		}
	}
}

// unwritable wraps err with store.ErrUnwritable when the server could not
// write for lack of space (disk_full, 53100: also store.ErrDiskFull) or
// because it is read-only (25006, a standby); other errors are returned as
// they are.
func unwritable(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	switch pe.Code {
	case "53100":
		return fmt.Errorf("postgres: %w: %w: %w", store.ErrUnwritable, store.ErrDiskFull, err)
	case "25006":
		return fmt.Errorf("postgres: %w: %w", store.ErrUnwritable, err)
	}
	return err
}

// retryable reports a serialization failure or a deadlock.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

// isUnique reports a unique violation.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}

// nsTime converts stored Unix nanoseconds back to a UTC time (0: zero).
func nsTime(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}

// null returns nil for an empty string, so that it is stored as NULL.
func null(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// text reads a nullable text column.
func text(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

var _ store.Store = (*Store)(nil)
