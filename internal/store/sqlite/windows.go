package sqlite

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/store"
)

// The spending and rate windows (hook.Windows) are two tables (version
// 11): spend_holds, one row per previewed write until its commit, cancel
// or expiry, and spend_ledger, one row per write that began to execute,
// keyed by its permit. Reserve and Begin run their totals, the limiters'
// check and their write in one transaction under the write lock every
// process on the file shares: of concurrent holds that only one fits,
// exactly one is taken, whichever process asks.

var _ hook.Windows = (*Store)(nil)

// windowTotals is one query for every window: the session's spend in its
// latest tick (if the query's tick is not later), over its life (its
// running total), and every session's over the day (the minutes after the
// one the day starts in, and that minute's rows after its start: ?7 is
// that minute, ?8 the end of the rows' range); the live holds of each (not
// key ?6, the one a Begin converts); the writes in the rate window (as the
// day's spend: ?9 and ?10) and the live holds. No part reads more rows than a tick's, a minute's and a day's minutes,
// however long the history.
const windowTotals = `SELECT
  coalesce((SELECT sum(cents) FROM spend_ledger WHERE session_id = ?1 AND ?2 <= tick
    AND tick = (SELECT tick FROM spend_ledger WHERE session_id = ?1 ORDER BY tick DESC LIMIT 1)), 0),
  coalesce((SELECT cents FROM spend_session_totals WHERE session_id = ?1), 0),
  coalesce((SELECT sum(cents) FROM spend_minutes WHERE minute > ?7), 0) +
    coalesce((SELECT sum(cents) FROM spend_ledger WHERE time_ns > ?4 AND time_ns < ?8 AND time_ns / 60000000000 = ?7), 0),
  coalesce((SELECT sum(cents) FROM spend_holds WHERE session_id = ?1 AND tick = ?2 AND expires_ns > ?3 AND id <> ?6), 0),
  coalesce((SELECT sum(cents) FROM spend_holds WHERE session_id = ?1 AND expires_ns > ?3 AND id <> ?6), 0),
  coalesce((SELECT sum(cents) FROM spend_holds WHERE expires_ns > ?3 AND id <> ?6), 0),
  coalesce((SELECT sum(writes) FROM spend_minutes WHERE minute > ?9), 0) +
    (SELECT count(*) FROM spend_ledger WHERE time_ns > ?5 AND time_ns < ?10 AND time_ns / 60000000000 = ?9),
  (SELECT count(*) FROM spend_holds WHERE expires_ns > ?3 AND id <> ?6)`

func windowArgs(q hook.WindowQuery, except string) []any {
	tick := int64(min(q.Tick, math.MaxInt64))
	now := q.Now.UnixNano()
	day, rate := q.Now.Add(-hook.Day).UnixNano(), q.Now.Add(-q.RateWindow).UnixNano()
	dayMinute, dayEnd := store.WindowStart(day)
	rateMinute, rateEnd := store.WindowStart(rate)
	return []any{q.Session, tick, now, day, rate, except, dayMinute, dayEnd, rateMinute, rateEnd}
}

func scanTotals(st *sqlite3.Stmt) hook.WindowTotals {
	return hook.WindowTotals{
		Tick: st.ColumnInt64(0), Session: st.ColumnInt64(1), Day: st.ColumnInt64(2),
		TickHeld: st.ColumnInt64(3), SessionHeld: st.ColumnInt64(4), DayHeld: st.ColumnInt64(5),
		Writes: st.ColumnInt(6), WritesHeld: st.ColumnInt(7),
	}
}

// Totals reads the windows for q (implements hook.Windows).
func (s *Store) Totals(ctx context.Context, q hook.WindowQuery) (hook.WindowTotals, error) {
	if q.Now.IsZero() {
		return hook.WindowTotals{}, errors.New("sqlite: window totals: zero time")
	}
	var t hook.WindowTotals
	err := s.r.query(ctx, windowTotals, windowArgs(q, ""), func(st *sqlite3.Stmt) error {
		t = scanTotals(st)
		return nil
	})
	if err != nil {
		return hook.WindowTotals{}, fmt.Errorf("sqlite: window totals: %w", err)
	}
	return t, nil
}

func (tx *wtx) totals(q hook.WindowQuery, except string) (hook.WindowTotals, error) {
	var t hook.WindowTotals
	_, err := tx.one(windowTotals, windowArgs(q, except), func(st *sqlite3.Stmt) error {
		t = scanTotals(st)
		return nil
	})
	return t, err
}

// Reserve takes hold h if fits allows it (implements hook.Windows).
// Expired holds are deleted in the same transaction. It returns once the
// hold is committed, which every process sees, without waiting for the
// sync: the gate acknowledges a hold only with its permit, whose durable
// write syncs the hold before it (see doCommitted).
func (s *Store) Reserve(ctx context.Context, h hook.WindowHold, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	if err := h.Check(); err != nil {
		return fmt.Errorf("sqlite: reserve: %w: %w", errInvalid, err)
	}
	err := s.doCommitted(ctx, func(tx *wtx) error {
		if _, err := tx.exec(`DELETE FROM spend_holds WHERE expires_ns <= ? OR id = ?`, q.Now, h.Key); err != nil {
			return err
		}
		t, err := tx.totals(q, "")
		if err != nil {
			return err
		}
		if err := fits(t); err != nil {
			return answer(err)
		}
		_, err = tx.exec(`INSERT INTO spend_holds (id, session_id, tick, cents, created_ns, expires_ns) VALUES (?, ?, ?, ?, ?, ?)`,
			h.Key, h.Session, h.Tick, h.Cents, h.At, h.Expires)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: reserve %s: %w", h.Key, err)
	}
	return nil
}

// Begin turns the hold e.Key into recorded spend if fits allows it
// (implements hook.Windows). Like Reserve it returns once committed: the
// gate consumes the permit next, with a durable write that syncs it.
func (s *Store) Begin(ctx context.Context, e hook.WindowSpend, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	if err := e.Check(); err != nil {
		return fmt.Errorf("sqlite: begin spend: %w: %w", errInvalid, err)
	}
	err := s.doCommitted(ctx, func(tx *wtx) error {
		n, err := tx.int64(`SELECT count(*) FROM spend_ledger WHERE id = ?`, e.Key)
		if err != nil {
			return err
		}
		if n > 0 {
			return answer(hook.ErrSpendRecorded)
		}
		t, err := tx.totals(q, e.Key)
		if err != nil {
			return err
		}
		if err := fits(t); err != nil {
			return answer(err)
		}
		if _, err := tx.exec(`DELETE FROM spend_holds WHERE id = ?`, e.Key); err != nil {
			return err
		}
		_, err = tx.exec(`INSERT INTO spend_ledger (id, session_id, tick, cents, time_ns, status) VALUES (?, ?, ?, ?, ?, 'committing')`,
			e.Key, e.Session, e.Tick, e.Cents, e.At)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: begin spend %s: %w", e.Key, err)
	}
	return nil
}

// Finish settles the spend key (implements hook.Windows). An executed
// spend is settled with the next group commit: until then, and if it is
// lost in a crash, the spend stays recorded at the value Begin gave it,
// which counts against the limits — the safe side. A release is durable
// before Finish returns.
func (s *Store) Finish(ctx context.Context, key string, executed bool, cents int64) error {
	// A spend released (the write did not execute) is answered only once
	// it is durable: the caller has refused the write, and its limits must
	// not keep counting it after a crash. Releases are rare (a failed or
	// refused commit); an executed spend stays counted either way, so it
	// rides the next group commit.
	submit := s.doLater
	if !executed {
		submit = s.do
	}
	err := submit(ctx, func(tx *wtx) error {
		var n int64
		var err error
		if executed {
			n, err = tx.exec(`UPDATE spend_ledger SET status = 'executed', cents = ? WHERE id = ?`, max(cents, 0), key)
		} else {
			n, err = tx.exec(`DELETE FROM spend_ledger WHERE id = ?`, key)
		}
		if err == nil && n == 0 {
			return answer(fmt.Errorf("no spend is recorded for %q", key))
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: finish spend: %w", err)
	}
	return nil
}

// Release durably drops the hold key (implements hook.Windows).
func (s *Store) Release(ctx context.Context, key string) error {
	err := s.do(ctx, func(tx *wtx) error {
		_, err := tx.exec(`DELETE FROM spend_holds WHERE id = ?`, key)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: release hold: %w", err)
	}
	return nil
}
