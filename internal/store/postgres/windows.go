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

// schemaSpendTotals (migration 4) keeps running totals of spend_ledger,
// maintained by a trigger in the transaction that writes each row, so
// that the spending windows cost the same at a session's ten-thousandth
// write as at its first: spend_session_totals, each session's sum, and
// spend_minutes, every session's sum and count of writes per minute of
// time_ns (the day and rate windows sum at most 1,441 minutes, and the
// rows of the minute they start in). Totals are numeric, as sum is: the windows saturate, never
// overflow. It also indexes sent_txs by permit, which a commit and its
// reconciliation look up. The SQLite store's migration 29 is the same.
const schemaSpendTotals = `
CREATE TABLE spend_session_totals (
  session_id text PRIMARY KEY,
  cents numeric NOT NULL
);
CREATE TABLE spend_minutes (
  minute bigint PRIMARY KEY,
  cents numeric NOT NULL,
  writes bigint NOT NULL
);
INSERT INTO spend_session_totals (session_id, cents) SELECT session_id, sum(cents) FROM spend_ledger GROUP BY session_id;
INSERT INTO spend_minutes (minute, cents, writes) SELECT time_ns / 60000000000, sum(cents), count(*) FROM spend_ledger GROUP BY time_ns / 60000000000;
CREATE FUNCTION spend_ledger_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE spend_session_totals SET cents = cents - OLD.cents WHERE session_id = OLD.session_id;
    UPDATE spend_minutes SET cents = cents - OLD.cents, writes = writes - 1 WHERE minute = OLD.time_ns / 60000000000;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO spend_session_totals AS t (session_id, cents) VALUES (NEW.session_id, NEW.cents)
      ON CONFLICT (session_id) DO UPDATE SET cents = t.cents + excluded.cents;
    INSERT INTO spend_minutes AS t (minute, cents, writes) VALUES (NEW.time_ns / 60000000000, NEW.cents, 1)
      ON CONFLICT (minute) DO UPDATE SET cents = t.cents + excluded.cents, writes = t.writes + 1;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER spend_ledger_totals AFTER INSERT OR DELETE OR UPDATE OF session_id, cents, time_ns ON spend_ledger
FOR EACH ROW EXECUTE FUNCTION spend_ledger_totals();
CREATE INDEX sent_txs_permit ON sent_txs (permit_id);
`

// windowTotals is one query for every window (see hook.WindowTotals): the
// session's spend in its latest tick (if the query's tick is not later),
// over its life (its running total), and every session's over the day
// (the minutes after the one the day starts in, $7, and that minute's
// rows after its start, below $8); the live holds of each (not key $6,
// the one a Begin converts); the writes in the rate window (as the day's
// spend: $9 and $10) and the live holds. Sums saturate at math.MaxInt64. No part reads more rows than a
// tick's, a minute's and a day's minutes, however long the history.
const windowTotals = `SELECT
  least(coalesce((SELECT sum(cents) FROM spend_ledger WHERE session_id = $1 AND $2 <= tick
    AND tick = (SELECT tick FROM spend_ledger WHERE session_id = $1 ORDER BY tick DESC LIMIT 1)), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT cents FROM spend_session_totals WHERE session_id = $1), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_minutes WHERE minute > $7), 0) +
    coalesce((SELECT sum(cents) FROM spend_ledger WHERE time_ns > $4 AND time_ns < $8 AND time_ns / 60000000000 = $7), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_holds WHERE session_id = $1 AND tick = $2 AND expires_ns > $3 AND id <> $6), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_holds WHERE session_id = $1 AND expires_ns > $3 AND id <> $6), 0), 9223372036854775807)::bigint,
  least(coalesce((SELECT sum(cents) FROM spend_holds WHERE expires_ns > $3 AND id <> $6), 0), 9223372036854775807)::bigint,
  (coalesce((SELECT sum(writes) FROM spend_minutes WHERE minute > $9), 0) +
    (SELECT count(*) FROM spend_ledger WHERE time_ns > $5 AND time_ns < $10 AND time_ns / 60000000000 = $9))::bigint,
  (SELECT count(*) FROM spend_holds WHERE expires_ns > $3 AND id <> $6)`

func totals(ctx context.Context, q querier, w hook.WindowQuery, except string) (hook.WindowTotals, error) {
	var t hook.WindowTotals
	var writes, held int64
	day, rate := clampNanos(w.Now.Add(-hook.Day)), clampNanos(w.Now.Add(-w.RateWindow))
	dayMinute, dayEnd := store.WindowStart(day)
	rateMinute, rateEnd := store.WindowStart(rate)
	err := q.QueryRow(ctx, windowTotals, w.Session, int64(min(w.Tick, math.MaxInt64)), clampNanos(w.Now), day,
		rate, except, dayMinute, dayEnd, rateMinute, rateEnd).Scan(&t.Tick, &t.Session, &t.Day, &t.TickHeld, &t.SessionHeld, &t.DayHeld, &writes, &held)
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
