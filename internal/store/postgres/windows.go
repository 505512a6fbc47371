package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/store"
)

// The spending and rate windows (hook.Windows) are two tables:
// spend_holds, one row per previewed write until its commit, cancel or
// expiry, and spend_ledger, one row per write that began to execute, keyed
// by its permit. Reserve and Begin take the one advisory lock of the
// windows, then read the totals, run the limiters' check and write, in one
// transaction: of concurrent holds that only one fits, from any number of
// instances, exactly one is taken. Every write returns once committed.

var _ hook.Windows = (*Store)(nil)

// windowTotals is one query for every window (see hook.WindowTotals): the
// session's spend in its latest tick (if the query's tick is not later),
// over its life, and every session's over the day; the live holds of each
// (not key $6, the one a Begin converts); the writes in the rate window
// and the live holds. Sums saturate at math.MaxInt64.
const windowTotals = `WITH latest AS (SELECT max(tick) AS t FROM spend_ledger WHERE session_id = $1)
SELECT
  least(coalesce((SELECT sum(cents) FROM spend_ledger, latest WHERE session_id = $1 AND tick = latest.t AND $2 <= latest.t), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_ledger WHERE session_id = $1), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_ledger WHERE time_ns > $4), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_holds WHERE session_id = $1 AND tick = $2 AND expires_ns > $3 AND id <> $6), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_holds WHERE session_id = $1 AND expires_ns > $3 AND id <> $6), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_holds WHERE expires_ns > $3 AND id <> $6), 0), 9223372036854775807)::bigint,
  (SELECT count(*) FROM spend_ledger WHERE time_ns > $5),
  (SELECT count(*) FROM spend_holds WHERE expires_ns > $3 AND id <> $6)`

func totals(ctx context.Context, q querier, w hook.WindowQuery, except string) (hook.WindowTotals, error) {
	var t hook.WindowTotals
	var writes, held int64
	err := q.QueryRow(ctx, windowTotals, w.Session, int64(min(w.Tick, math.MaxInt64)), clampNanos(w.Now), clampNanos(w.Now.Add(-hook.Day)),
		clampNanos(w.Now.Add(-w.RateWindow)), except).Scan(&t.Tick, &t.Session, &t.Day, &t.TickHeld, &t.SessionHeld, &t.DayHeld, &writes, &held)
	t.Writes, t.WritesHeld = int(writes), int(held)
	return t, err
}

// Totals reads the windows for q (implements hook.Windows).
func (s *Store) Totals(ctx context.Context, q hook.WindowQuery) (hook.WindowTotals, error) {
	if err := s.ok(); err != nil {
		return hook.WindowTotals{}, err
	}
	if q.Now.IsZero() {
		return hook.WindowTotals{}, errors.New("postgres: window totals: zero time")
	}
	t, err := totals(ctx, s.pool, q, "")
	if err != nil {
		return hook.WindowTotals{}, fmt.Errorf("postgres: window totals: %w", err)
	}
	return t, nil
}

// Reserve takes hold h if fits allows it (implements hook.Windows), under
// the windows' lock; expired holds are deleted in the same transaction.
// fits may be called more than once if the transaction is retried.
func (s *Store) Reserve(ctx context.Context, h hook.WindowHold, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	if err := h.Check(); err != nil {
		return fmt.Errorf("postgres: reserve: %w: %w", store.ErrInvalidRecord, err)
	}
	if _, err := store.Nanos("expires", h.Expires); err != nil {
		return fmt.Errorf("postgres: reserve: %w", err)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockWindows, ""); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM spend_holds WHERE expires_ns <= $1 OR id = $2`, clampNanos(q.Now), h.Key); err != nil {
			return err
		}
		t, err := totals(ctx, tx, q, "")
		if err != nil {
			return err
		}
		if err := fits(t); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO spend_holds (id, session_id, tick, cents, created_ns, expires_ns) VALUES ($1, $2, $3, $4, $5, $6)`,
			h.Key, h.Session, int64(h.Tick), h.Cents, clampNanos(h.At), h.Expires.UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: reserve %s: %w", h.Key, err)
	}
	return nil
}

// Begin turns the hold e.Key into recorded spend if fits allows it
// (implements hook.Windows), under the windows' lock.
func (s *Store) Begin(ctx context.Context, e hook.WindowSpend, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	if err := e.Check(); err != nil {
		return fmt.Errorf("postgres: begin spend: %w: %w", store.ErrInvalidRecord, err)
	}
	if _, err := store.Nanos("at", e.At); err != nil {
		return fmt.Errorf("postgres: begin spend: %w", err)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockWindows, ""); err != nil {
			return err
		}
		var recorded bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM spend_ledger WHERE id = $1)`, e.Key).Scan(&recorded); err != nil {
			return err
		}
		if recorded {
			return hook.ErrSpendRecorded
		}
		t, err := totals(ctx, tx, q, e.Key)
		if err != nil {
			return err
		}
		if err := fits(t); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM spend_holds WHERE id = $1`, e.Key); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO spend_ledger (id, session_id, tick, cents, time_ns, status) VALUES ($1, $2, $3, $4, $5, 'committing')`,
			e.Key, e.Session, int64(e.Tick), e.Cents, e.At.UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: begin spend %s: %w", e.Key, err)
	}
	return nil
}

// Finish settles the spend key (implements hook.Windows): executed, it
// keeps it at cents; otherwise it deletes it. It returns once committed.
func (s *Store) Finish(ctx context.Context, key string, executed bool, cents int64) error {
	if err := s.ok(); err != nil {
		return err
	}
	var tag pgconn.CommandTag
	var err error
	if executed {
		tag, err = s.pool.Exec(ctx, `UPDATE spend_ledger SET status = 'executed', cents = $1 WHERE id = $2`, max(cents, 0), key)
	} else {
		tag, err = s.pool.Exec(ctx, `DELETE FROM spend_ledger WHERE id = $1`, key)
	}
	if err == nil && tag.RowsAffected() == 0 {
		err = fmt.Errorf("no spend is recorded for %q", key)
	}
	if err != nil {
		return fmt.Errorf("postgres: finish spend: %w", err)
	}
	return nil
}

// Release drops the hold key (implements hook.Windows).
func (s *Store) Release(ctx context.Context, key string) error {
	if err := s.ok(); err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM spend_holds WHERE id = $1`, key); err != nil {
		return fmt.Errorf("postgres: release hold: %w", err)
	}
	return nil
}
