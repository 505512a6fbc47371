package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// Withheld outputs. Promotion and rejection are one conditional UPDATE
// (WHERE status = 'withheld'): of any number of concurrent decisions, from
// any instances, the database lets exactly one match. Adding a wrap locks
// the output's row first, so that concurrent wraps never take an output
// past store.MaxWithheldReviewers.

const withheldMeta = `key, session_id, parent_id, tool, time_ns, size, exit_code, status, decided_by, decided_ns, principal_id`

// PutWithheld stores a copy of w, as withheld, with its wraps, in one
// transaction (see store.Withheld).
func (s *Store) PutWithheld(ctx context.Context, w *store.WithheldOutput) error {
	if err := s.ok(); err != nil {
		return err
	}
	if w == nil {
		return errors.New("postgres: put withheld: nil output")
	}
	if err := store.CheckWithheld(w); err != nil {
		return fmt.Errorf("postgres: put withheld: %w: %w", store.ErrInvalidRecord, err)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO withheld_outputs (key, session_id, parent_id, tool, time_ns, size, exit_code, status, nonce, ciphertext, principal_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, 'withheld', $8, $9, $10) ON CONFLICT (key) DO NOTHING`,
			w.Key, w.SessionID, null(w.ParentID), w.Tool, w.Time.UnixNano(), w.Size, int64(w.ExitCode), w.Nonce, w.Ciphertext, null(w.PrincipalID))
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ErrWithheldExists
		}
		for _, r := range slices.Sorted(maps.Keys(w.Wraps)) {
			if _, err := tx.Exec(ctx, `INSERT INTO withheld_wraps (key, reviewer, wrap) VALUES ($1, $2, $3)`, w.Key, r, w.Wraps[r]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: put withheld %s: %w", w.Key, err)
	}
	return nil
}

// scanWithheld reads withheldMeta, then extra.
func scanWithheld(row pgx.Row, extra ...any) (store.WithheldOutput, error) {
	var (
		w                     store.WithheldOutput
		parent, by, principal *string
		at, size, exit        int64
		decided               *int64
		status                string
	)
	dest := append([]any{&w.Key, &w.SessionID, &parent, &w.Tool, &at, &size, &exit, &status, &by, &decided, &principal}, extra...)
	if err := row.Scan(dest...); err != nil {
		return w, err
	}
	w.ParentID, w.PrincipalID, w.Time, w.Size, w.ExitCode, w.Status = text(parent), text(principal), nsTime(at), size, int(exit), store.WithheldStatus(status)
	switch w.Status {
	case store.WithheldPending:
	case store.WithheldPromoted:
		w.PromotedBy, w.PromotedAt = text(by), optTime(decided)
	case store.WithheldRejected:
		w.RejectedBy, w.RejectedAt = text(by), optTime(decided)
	default:
		return w, fmt.Errorf("withheld output %s: stored status %q", w.Key, w.Status)
	}
	return w, nil
}

// Withheld returns the output with key, its wraps and, once promoted, its
// plaintext, read in one snapshot.
func (s *Store) Withheld(ctx context.Context, key string) (*store.WithheldOutput, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	var out *store.WithheldOutput
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var nonce, ciphertext, plain []byte
		w, err := scanWithheld(tx.QueryRow(ctx, `SELECT `+withheldMeta+`, nonce, ciphertext, plain FROM withheld_outputs WHERE key = $1`, key),
			&nonce, &ciphertext, &plain)
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		w.Nonce, w.Ciphertext = nonce, ciphertext
		if w.Status == store.WithheldPromoted {
			w.Plain = append([]byte{}, plain...)
		}
		rows, err := tx.Query(ctx, `SELECT reviewer, wrap FROM withheld_wraps WHERE key = $1 ORDER BY reviewer`, key)
		if err != nil {
			return err
		}
		w.Wraps = make(map[string][]byte)
		var reviewer string
		var wrap []byte
		if _, err := pgx.ForEachRow(rows, []any{&reviewer, &wrap}, func() error {
			w.Wraps[reviewer] = slices.Clone(wrap)
			return nil
		}); err != nil {
			return err
		}
		out = &w
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: withheld %s: %w", key, err)
	}
	return out, nil
}

// AddWithheldWrap adds reviewer's wrap to the output key (see
// store.Withheld).
func (s *Store) AddWithheldWrap(ctx context.Context, key, reviewer string, wrap []byte) error {
	if err := s.ok(); err != nil {
		return err
	}
	if key == "" {
		return fmt.Errorf("postgres: add withheld wrap: empty key: %w", store.ErrNotFound)
	}
	if err := store.CheckWithheldWrap(reviewer, wrap); err != nil {
		return fmt.Errorf("postgres: add withheld wrap to %s: %w: %w", key, store.ErrInvalidRecord, err)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		// The row lock first, the count in a statement of its own: a
		// statement's snapshot is taken before it waits for a lock, so a
		// count in the locking statement could miss the wrap of the
		// transaction it waited for.
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM withheld_outputs WHERE key = $1 FOR UPDATE`, key).Scan(&one)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		}
		var n int64
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM withheld_wraps WHERE key = $1`, key).Scan(&n); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO withheld_wraps (key, reviewer, wrap) VALUES ($1, $2, $3) ON CONFLICT (key, reviewer) DO NOTHING`, key, reviewer, wrap)
		switch {
		case err != nil:
			return err
		case tag.RowsAffected() == 0:
			return store.ErrWithheldWrapped
		case n >= store.MaxWithheldReviewers:
			return fmt.Errorf("already %d wraps, the most there may be", n)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: add withheld wrap to %s for %q: %w", key, reviewer, err)
	}
	return nil
}

// PromoteWithheld moves the output key from withheld to promoted, storing
// by, at and plain, with one conditional update (see store.Withheld).
func (s *Store) PromoteWithheld(ctx context.Context, key, by string, at time.Time, plain []byte) error {
	if len(plain) > store.MaxWithheldSize {
		return fmt.Errorf("postgres: promote withheld %s: %w", key, store.Invalid("plaintext of %d bytes, above %d", len(plain), store.MaxWithheldSize))
	}
	if plain == nil {
		plain = []byte{}
	}
	return s.decideWithheld(ctx, "promote", key, by, at, store.WithheldPromoted, plain)
}

// RejectWithheld moves the output key from withheld to rejected, recording
// by and at.
func (s *Store) RejectWithheld(ctx context.Context, key, by string, at time.Time) error {
	return s.decideWithheld(ctx, "reject", key, by, at, store.WithheldRejected, nil)
}

func (s *Store) decideWithheld(ctx context.Context, verb, key, by string, at time.Time, status store.WithheldStatus, plain []byte) error {
	if err := s.ok(); err != nil {
		return err
	}
	if key == "" {
		return fmt.Errorf("postgres: %s withheld: empty key: %w", verb, store.ErrNotFound)
	}
	if by == "" {
		return fmt.Errorf("postgres: %s withheld %s: %w", verb, key, store.Invalid("empty by"))
	}
	ns, err := store.Nanos("time", at)
	if err != nil {
		return fmt.Errorf("postgres: %s withheld %s: %w", verb, key, err)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE withheld_outputs SET status = $1, decided_by = $2, decided_ns = $3, plain = $4
WHERE key = $5 AND status = 'withheld'`, string(status), by, ns, plain, key)
	if err != nil {
		return fmt.Errorf("postgres: %s withheld %s: %w", verb, key, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var cur string
	err = s.pool.QueryRow(ctx, `SELECT status FROM withheld_outputs WHERE key = $1`, key).Scan(&cur)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		err = store.ErrNotFound
	case err == nil:
		if err = store.WithheldStatusErr(store.WithheldStatus(cur)); err == nil {
			err = errors.New("the update matched nothing, yet it is withheld")
		}
	}
	return fmt.Errorf("postgres: %s withheld %s: %w", verb, key, err)
}

// WithheldBySession returns the metadata of sessionID's outputs, oldest
// first (by time, then key), up to limit (0: all).
func (s *Store) WithheldBySession(ctx context.Context, sessionID string, limit int) ([]store.WithheldOutput, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, fmt.Errorf("postgres: withheld by session: negative limit %d", limit)
	}
	var lim any // NULL: no limit
	if limit > 0 {
		lim = int64(limit)
	}
	meta := func(r pgx.CollectableRow) (store.WithheldOutput, error) { return scanWithheld(r) }
	out, err := queryRows(ctx, s.pool, meta, `SELECT `+withheldMeta+` FROM withheld_outputs WHERE session_id = $1 ORDER BY time_ns, key LIMIT $2`, sessionID, lim)
	if err != nil {
		return nil, fmt.Errorf("postgres: withheld by session %s: %w", sessionID, err)
	}
	return out, nil
}
