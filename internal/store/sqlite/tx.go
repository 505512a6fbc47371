package sqlite

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ncruces/go-sqlite3"
)

// Typed state (principals, sessions, spend windows, the gate's control and
// the rest of what decisions depend on) is written through one kind of op:
// a function the writer runs inside its batch's transaction, under a
// savepoint of its own. Its statements take effect together or not at all,
// in the same group commit as every other write of the batch, and it may
// read what it is about to change in that same transaction (BEGIN
// IMMEDIATE holds SQLite's write lock, which every process on the file
// shares), so a check and the write that depends on it cannot be split by
// another writer. Statements are prepared once per SQL text, on the
// writer's connection.
//
// A function returns nil, an answer for its caller (wrapped with answer:
// the savepoint is rolled back and the batch goes on), or any other error,
// which fails the whole batch as a failed statement would. A constraint
// violation is an answer: it undoes only its own op.

// txFunc is one typed write, run by the writer.
type txFunc func(tx *wtx) error

// answer wraps an error that is the op's own outcome, not a failure of the
// batch: the savepoint is rolled back and the caller gets err.
type answerErr struct{ err error }

func (a answerErr) Error() string { return a.err.Error() }
func (a answerErr) Unwrap() error { return a.err }

// answer marks err as the op's outcome (see txFunc).
func answer(err error) error { return answerErr{err} }

// wtx is the writer's transaction as a txFunc sees it.
type wtx struct{ w *writer }

// stmt returns the writer's prepared statement for sql, preparing it on
// first use. The set of SQL texts is the package's constants: bounded.
func (w *writer) stmt(sql string) (*sqlite3.Stmt, error) {
	if st := w.stmts[sql]; st != nil {
		return st, nil
	}
	st, _, err := w.conn.PrepareFlags(sql, sqlite3.PREPARE_PERSISTENT)
	if err != nil {
		return nil, fmt.Errorf("prepare %.60q: %w", sql, err)
	}
	if w.stmts == nil {
		w.stmts = map[string]*sqlite3.Stmt{}
	}
	w.stmts[sql] = st
	return st, nil
}

// exec runs sql with args and returns the number of rows it changed.
func (t *wtx) exec(sql string, args ...any) (int64, error) {
	st, err := t.w.stmt(sql)
	if err != nil {
		return 0, err
	}
	if err := bindAll(st, args); err != nil {
		return 0, err
	}
	if err := st.Exec(); err != nil {
		return 0, err
	}
	return t.w.conn.Changes(), nil
}

// query runs sql with args and calls row for each result row.
func (t *wtx) query(sql string, args []any, row func(*sqlite3.Stmt) error) error {
	st, err := t.w.stmt(sql)
	if err != nil {
		return err
	}
	defer st.Reset()
	if err := bindAll(st, args); err != nil {
		return err
	}
	for st.Step() {
		if err := row(st); err != nil {
			return err
		}
	}
	return st.Err()
}

// one runs a query that returns at most one row; found reports whether it
// did.
func (t *wtx) one(sql string, args []any, row func(*sqlite3.Stmt) error) (found bool, err error) {
	err = t.query(sql, args, func(st *sqlite3.Stmt) error {
		found = true
		return row(st)
	})
	return found, err
}

// int64 runs a query whose first row's first column is an integer (0 when
// there is no row or it is NULL).
func (t *wtx) int64(sql string, args ...any) (int64, error) {
	var v int64
	_, err := t.one(sql, args, func(st *sqlite3.Stmt) error {
		v = st.ColumnInt64(0)
		return nil
	})
	return v, err
}

// runFunc runs o's function under a savepoint.
func (w *writer) runFunc(o *op) error {
	if _, err := (&wtx{w}).exec(`SAVEPOINT op`); err != nil {
		return err
	}
	err := o.fn(&wtx{w})
	var a answerErr
	if err == nil {
		_, err = (&wtx{w}).exec(`RELEASE op`)
		return err
	}
	if !errors.As(err, &a) && !isConstraint(err) {
		return err
	}
	if _, rerr := (&wtx{w}).exec(`ROLLBACK TO op`); rerr != nil {
		return rerr
	}
	if _, rerr := (&wtx{w}).exec(`RELEASE op`); rerr != nil {
		return rerr
	}
	if errors.As(err, &a) {
		o.err = a.err
	} else {
		o.err = fmt.Errorf("sqlite: write: %w", err)
	}
	return nil
}

// do submits fn as a durable write and returns its answer once committed.
func (s *Store) do(ctx context.Context, fn txFunc) error {
	return s.submit(ctx, &op{kind: opFunc, durable: true, fn: fn})
}

// doCommitted submits fn and returns its answer once its batch has
// committed, without waiting for the sync that makes it survive a power
// loss: it survives a crash of the process at once, and a power loss once
// any later durable write of this store has returned (the WAL is synced
// in order). A caller whose effect is acknowledged only after a durable
// write of its own (a hold, then the permit it holds for) pays one sync
// instead of two.
func (s *Store) doCommitted(ctx context.Context, fn txFunc) error {
	return s.submit(ctx, &op{kind: opFunc, durable: true, committed: true, fn: fn})
}

// doLater queues fn for the next group commit without waiting for it: a
// failure is counted in DroppedRecords, as for a deferred decision.
func (s *Store) doLater(ctx context.Context, fn txFunc) error {
	return s.submit(ctx, &op{kind: opFunc, fn: fn})
}

// bindAll binds args to st's parameters 1..n: string (as text), []byte (as
// a blob; nil as NULL), int64, int, uint64 (at most MaxInt64), bool (0 or
// 1), float64, time.Time (Unix nanoseconds; the zero time as NULL) and nil
// (NULL).
func bindAll(st *sqlite3.Stmt, args []any) error {
	for i, a := range args {
		var err error
		n := i + 1
		switch v := a.(type) {
		case nil:
			err = st.BindNull(n)
		case string:
			err = st.BindText(n, v)
		case []byte:
			if v == nil {
				err = st.BindNull(n)
			} else {
				err = st.BindBlob(n, v)
			}
		case int64:
			err = st.BindInt64(n, v)
		case int:
			err = st.BindInt64(n, int64(v))
		case uint64:
			if v > 1<<63-1 {
				return fmt.Errorf("argument %d: %d above the largest integer", n, v)
			}
			err = st.BindInt64(n, int64(v))
		case bool:
			err = st.BindBool(n, v)
		case float64:
			err = st.BindFloat(n, v)
		case time.Time:
			if v.IsZero() {
				err = st.BindNull(n)
			} else {
				err = st.BindInt64(n, v.UnixNano())
			}
		default:
			return fmt.Errorf("argument %d: unsupported type %T", n, a)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
