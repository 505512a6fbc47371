package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// Withheld outputs go through the writer like permits: each write is an op
// of the open batch, durable when its call returns, and every expected
// refusal (a key that exists, a missing output, a reviewer that has a
// wrap, a decided output) is found by a conditional statement and its
// diagnosis in the batch's transaction, answering its own caller without
// failing the batch. Promotion and rejection are one conditional UPDATE
// (WHERE status = 'withheld') under the write lock BEGIN IMMEDIATE takes,
// so exactly one decision wins across goroutines and processes.
//
// PutWithheld inserts the output row with ON CONFLICT DO NOTHING and its
// wraps only if the row was new: the wraps of a new key are distinct map
// keys whose output row exists, so no wrap insert can violate a constraint
// and an output is never stored without its wraps.

const (
	withheldMeta      = `key, session_id, parent_id, tool, time_ns, size, exit_code, status, decided_by, decided_ns, principal_id`
	sqlWithheldInsert = `INSERT INTO withheld_outputs (key, session_id, parent_id, tool, time_ns, size, exit_code, status, nonce, ciphertext, principal_id)
VALUES (?,?,?,?,?,?,?,'withheld',?,?,?) ON CONFLICT (key) DO NOTHING`
	sqlWithheldWrap = `INSERT INTO withheld_wraps (key, reviewer, wrap) VALUES (?,?,?)`
	// sqlWithheldAddWrap adds a wrap only to an existing output with room
	// for it, and never replaces one.
	sqlWithheldAddWrap = `INSERT INTO withheld_wraps (key, reviewer, wrap) SELECT ?1, ?2, ?3
WHERE EXISTS (SELECT 1 FROM withheld_outputs WHERE key = ?1)
  AND (SELECT COUNT(*) FROM withheld_wraps WHERE key = ?1) < ?4
ON CONFLICT (key, reviewer) DO NOTHING`
	sqlWithheldWrapWhy = `SELECT EXISTS (SELECT 1 FROM withheld_outputs WHERE key = ?1),
  EXISTS (SELECT 1 FROM withheld_wraps WHERE key = ?1 AND reviewer = ?2),
  (SELECT COUNT(*) FROM withheld_wraps WHERE key = ?1)`
	// sqlWithheldDecide is the one statement that decides an output.
	sqlWithheldDecide = `UPDATE withheld_outputs SET status = ?1, decided_by = ?2, decided_ns = ?3, plain = ?4
WHERE key = ?5 AND status = 'withheld'`
	sqlWithheldStatus  = `SELECT status FROM withheld_outputs WHERE key = ?`
	sqlWithheldRow     = `SELECT ` + withheldMeta + `, nonce, ciphertext, plain FROM withheld_outputs WHERE key = ?`
	sqlWithheldWraps   = `SELECT reviewer, wrap FROM withheld_wraps WHERE key = ? ORDER BY reviewer`
	sqlWithheldSession = `SELECT ` + withheldMeta + ` FROM withheld_outputs WHERE session_id = ? ORDER BY time_ns, key LIMIT ?`
)

// withheldWriter holds the writer's statements for withheld outputs.
type withheldWriter struct {
	insert, wrap, addWrap, wrapWhy, decide, status *sqlite3.Stmt
}

func (ww *withheldWriter) prepare(prep func(string) *sqlite3.Stmt) {
	ww.insert = prep(sqlWithheldInsert)
	ww.wrap = prep(sqlWithheldWrap)
	ww.addWrap = prep(sqlWithheldAddWrap)
	ww.wrapWhy = prep(sqlWithheldWrapWhy)
	ww.decide = prep(sqlWithheldDecide)
	ww.status = prep(sqlWithheldStatus)
}

// withheldOp is a withheld output write and the writer's answer, set
// before the batch's done is closed and read by the caller only if the
// batch committed.
type withheldOp struct {
	out *store.WithheldOutput // put

	key      string
	reviewer string // wrap
	wrap     []byte // wrap
	status   store.WithheldStatus
	by       string // decide
	ns       int64  // decide
	plain    []byte // decide: promoted (non-nil), rejected (nil)

	refused error // why the conditional statement matched nothing
}

// PutWithheld durably stores a copy of w, as withheld, with its wraps.
// An output that store.CheckWithheld refuses is refused unwritten; one
// whose key exists fails with an error wrapping store.ErrWithheldExists.
// A ctx that ends while the call waits returns ctx.Err() and the output
// may still be stored.
func (s *Store) PutWithheld(ctx context.Context, w *store.WithheldOutput) error {
	if w == nil {
		return errors.New("sqlite: put withheld: nil output")
	}
	if err := store.CheckWithheld(w); err != nil {
		return fmt.Errorf("sqlite: put withheld: %w: %w", errInvalid, err)
	}
	c := *w
	c.Time = c.Time.UTC()
	c.Status = store.WithheldPending
	c.Nonce, c.Ciphertext = slices.Clone(w.Nonce), slices.Clone(w.Ciphertext)
	c.Wraps = make(map[string][]byte, len(w.Wraps))
	for r, wrap := range w.Wraps {
		c.Wraps[r] = slices.Clone(wrap)
	}
	wo := &withheldOp{out: &c}
	if err := s.submit(ctx, &op{kind: opWithheldPut, durable: true, withheld: wo}); err != nil {
		return err
	}
	if wo.refused != nil {
		return fmt.Errorf("sqlite: put withheld %s: %w", w.Key, wo.refused)
	}
	return nil
}

func (w *writer) writeWithheldPut(o *op) error {
	wo, ww := o.withheld, &w.withheld
	wo.refused = nil
	out, st := wo.out, ww.insert
	if err := firstErr(
		st.BindText(1, out.Key),
		st.BindText(2, out.SessionID),
		bindOptional(st, 3, out.ParentID),
		st.BindText(4, out.Tool),
		st.BindInt64(5, out.Time.UnixNano()),
		st.BindInt64(6, out.Size),
		st.BindInt64(7, int64(out.ExitCode)),
		st.BindBlob(8, out.Nonce),
		st.BindBlob(9, out.Ciphertext),
		bindOptional(st, 10, out.PrincipalID),
		st.Exec(),
	); err != nil {
		return err
	}
	if w.conn.Changes() == 0 {
		wo.refused = store.ErrWithheldExists
		return nil
	}
	st = ww.wrap
	for _, r := range slices.Sorted(maps.Keys(out.Wraps)) {
		if err := firstErr(st.BindText(1, out.Key), st.BindText(2, r), st.BindBlob(3, out.Wraps[r]), st.Exec()); err != nil {
			return err
		}
	}
	return nil
}

// Withheld returns the output with key, its wraps and, once promoted, its
// plaintext; an error wrapping store.ErrNotFound if there is none. The
// output and its wraps are read one after the other: a wrap added in
// between is included.
func (s *Store) Withheld(ctx context.Context, key string) (*store.WithheldOutput, error) {
	var out *store.WithheldOutput
	err := s.r.query(ctx, sqlWithheldRow, []any{key}, func(st *sqlite3.Stmt) error {
		w, err := scanWithheld(st)
		if err != nil {
			return err
		}
		w.Nonce = bytes.Clone(st.ColumnRawBlob(11))
		w.Ciphertext = bytes.Clone(st.ColumnRawBlob(12))
		if w.Status == store.WithheldPromoted {
			w.Plain = append([]byte{}, st.ColumnRawBlob(13)...)
		}
		out = &w
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: withheld %s: %w", key, err)
	}
	if out == nil {
		return nil, fmt.Errorf("sqlite: withheld %s: %w", key, store.ErrNotFound)
	}
	out.Wraps = make(map[string][]byte)
	err = s.r.query(ctx, sqlWithheldWraps, []any{key}, func(st *sqlite3.Stmt) error {
		out.Wraps[st.ColumnText(0)] = bytes.Clone(st.ColumnRawBlob(1))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: withheld %s: wraps: %w", key, err)
	}
	return out, nil
}

// scanWithheld reads a row of withheldMeta.
func scanWithheld(st *sqlite3.Stmt) (store.WithheldOutput, error) {
	w := store.WithheldOutput{
		Key:       st.ColumnText(0),
		SessionID: st.ColumnText(1),
		ParentID:  st.ColumnText(2),
		Tool:      st.ColumnText(3),
		Time:      nsTime(st, 4),
		Size:      st.ColumnInt64(5),
		ExitCode:  int(st.ColumnInt64(6)),
		Status:    store.WithheldStatus(st.ColumnText(7)),
	}
	w.PrincipalID = st.ColumnText(10)
	by, at := st.ColumnText(8), nsTime(st, 9)
	switch w.Status {
	case store.WithheldPending:
	case store.WithheldPromoted:
		w.PromotedBy, w.PromotedAt = by, at
	case store.WithheldRejected:
		w.RejectedBy, w.RejectedAt = by, at
	default:
		return w, fmt.Errorf("withheld output %s: stored status %q", w.Key, w.Status)
	}
	return w, nil
}

// AddWithheldWrap durably adds reviewer's wrap to the output key. It fails
// with an error wrapping store.ErrNotFound if there is no such output,
// store.ErrWithheldWrapped if reviewer has a wrap already, or saying that
// the output has store.MaxWithheldReviewers wraps; an invalid reviewer or
// wrap (store.CheckWithheldWrap) is refused unwritten. ctx is treated as
// by PutWithheld.
func (s *Store) AddWithheldWrap(ctx context.Context, key, reviewer string, wrap []byte) error {
	if key == "" {
		return fmt.Errorf("sqlite: add withheld wrap: empty key: %w", store.ErrNotFound)
	}
	if err := store.CheckWithheldWrap(reviewer, wrap); err != nil {
		return fmt.Errorf("sqlite: add withheld wrap to %s: %w: %w", key, errInvalid, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	wo := &withheldOp{key: key, reviewer: reviewer, wrap: slices.Clone(wrap)}
	if err := s.submit(ctx, &op{kind: opWithheldWrap, durable: true, withheld: wo}); err != nil {
		return err
	}
	if wo.refused != nil {
		return fmt.Errorf("sqlite: add withheld wrap to %s for %q: %w", key, reviewer, wo.refused)
	}
	return nil
}

func (w *writer) writeWithheldWrap(o *op) error {
	wo, ww := o.withheld, &w.withheld
	wo.refused = nil
	st := ww.addWrap
	if err := firstErr(
		st.BindText(1, wo.key),
		st.BindText(2, wo.reviewer),
		st.BindBlob(3, wo.wrap),
		st.BindInt64(4, store.MaxWithheldReviewers),
		st.Exec(),
	); err != nil {
		return err
	}
	if w.conn.Changes() == 1 {
		return nil
	}
	q := ww.wrapWhy
	defer q.Reset()
	if err := firstErr(q.BindText(1, wo.key), q.BindText(2, wo.reviewer)); err != nil {
		return err
	}
	if !q.Step() {
		return fmt.Errorf("add withheld wrap to %s: no diagnosis: %w", wo.key, q.Err())
	}
	switch {
	case !q.ColumnBool(0):
		wo.refused = store.ErrNotFound
	case q.ColumnBool(1):
		wo.refused = store.ErrWithheldWrapped
	case q.ColumnInt64(2) >= store.MaxWithheldReviewers:
		wo.refused = fmt.Errorf("already %d wraps, the most there may be", q.ColumnInt64(2))
	default:
		return fmt.Errorf("add withheld wrap to %s: the insert matched nothing, yet every condition holds", wo.key)
	}
	return nil
}

// PromoteWithheld durably moves the output key from withheld to promoted,
// storing by, at and plain (at most store.MaxWithheldSize bytes; nil is
// stored as empty), with one conditional UPDATE. It fails with an error
// wrapping store.ErrNotFound (also for an empty key), or
// store.ErrWithheldDecided and store.ErrWithheldPromoted or
// store.ErrWithheldRejected, and nothing changes. An empty by or a zero or
// unrepresentable at is refused unwritten. A ctx done before the call
// queues nothing; one that ends while the call waits returns ctx.Err() and
// the promotion may still happen.
func (s *Store) PromoteWithheld(ctx context.Context, key, by string, at time.Time, plain []byte) error {
	if len(plain) > store.MaxWithheldSize {
		return fmt.Errorf("sqlite: promote withheld %s: %w", key, invalid("plaintext of %d bytes, above %d", len(plain), store.MaxWithheldSize))
	}
	return s.decideWithheld(ctx, "promote", key, by, at, store.WithheldPromoted, append([]byte{}, plain...))
}

// RejectWithheld durably moves the output key from withheld to rejected,
// recording by and at; errors and ctx are as for PromoteWithheld.
func (s *Store) RejectWithheld(ctx context.Context, key, by string, at time.Time) error {
	return s.decideWithheld(ctx, "reject", key, by, at, store.WithheldRejected, nil)
}

func (s *Store) decideWithheld(ctx context.Context, verb, key, by string, at time.Time, status store.WithheldStatus, plain []byte) error {
	if key == "" {
		return fmt.Errorf("sqlite: %s withheld: empty key: %w", verb, store.ErrNotFound)
	}
	if by == "" {
		return fmt.Errorf("sqlite: %s withheld %s: %w", verb, key, invalid("empty by"))
	}
	ns, err := nanos("time", at)
	if err != nil {
		return fmt.Errorf("sqlite: %s withheld %s: %w", verb, key, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	wo := &withheldOp{key: key, status: status, by: by, ns: ns, plain: plain}
	if err := s.submit(ctx, &op{kind: opWithheldDecide, durable: true, withheld: wo}); err != nil {
		return err
	}
	if wo.refused != nil {
		return fmt.Errorf("sqlite: %s withheld %s: %w", verb, key, wo.refused)
	}
	return nil
}

func (w *writer) writeWithheldDecide(o *op) error {
	wo, ww := o.withheld, &w.withheld
	wo.refused = nil
	st := ww.decide
	plain := st.BindNull(4)
	if wo.plain != nil {
		plain = st.BindBlob(4, wo.plain)
	}
	if err := firstErr(
		st.BindText(1, string(wo.status)),
		st.BindText(2, wo.by),
		st.BindInt64(3, wo.ns),
		plain,
		st.BindText(5, wo.key),
		st.Exec(),
	); err != nil {
		return err
	}
	if w.conn.Changes() == 1 {
		return nil
	}
	q := ww.status
	defer q.Reset()
	if err := q.BindText(1, wo.key); err != nil {
		return err
	}
	if !q.Step() {
		if err := q.Err(); err != nil {
			return err
		}
		wo.refused = store.ErrNotFound
		return nil
	}
	if wo.refused = store.WithheldStatusErr(store.WithheldStatus(q.ColumnText(0))); wo.refused == nil {
		return fmt.Errorf("decide withheld %s: the update matched nothing, yet it is withheld", wo.key)
	}
	return nil
}

// WithheldBySession returns the metadata of sessionID's outputs, oldest
// first (by time, then key), up to limit (0: all).
func (s *Store) WithheldBySession(ctx context.Context, sessionID string, limit int) ([]store.WithheldOutput, error) {
	if limit < 0 {
		return nil, fmt.Errorf("sqlite: withheld by session: negative limit %d", limit)
	}
	lim := int64(limit)
	if limit == 0 {
		lim = -1 // SQLite: no limit
	}
	out, err := readRows(ctx, s.r, scanWithheld, sqlWithheldSession, sessionID, lim)
	if err != nil {
		return nil, fmt.Errorf("sqlite: withheld by session %s: %w", sessionID, err)
	}
	return out, nil
}
