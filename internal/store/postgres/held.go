package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// Held calls. HoldCall takes the advisory lock of the call's session, so
// that its checks (a rejected identical call, the same call pending, the
// session's pending count) and its insert run one session at a time
// across instances. A decision is one conditional UPDATE (WHERE status =
// 'pending'), and a trigger refuses to decide a decided call again.

const heldColumns = `id, principal_id, session_id, time_ns, expires_ns, turn_id, input_source, facade, tool, tier, args, args_hash,
  reason, message, rule, decision_id, reviews, status, decided_ns, decided_by, note, outcome, retry_key, description`

func scanHeld(row pgx.Row) (store.HeldCall, error) {
	var (
		c                                                        store.HeldCall
		at, expires                                              int64
		decided                                                  *int64
		tier, status, args                                       string
		turn, facade, rule, decision, reviews, by, note, outcome *string
		retry, description                                       *string
	)
	if err := row.Scan(&c.ID, &c.PrincipalID, &c.SessionID, &at, &expires, &turn, &c.InputSource, &facade, &c.Tool, &tier, &args, &c.ArgsHash,
		&c.Reason, &c.Message, &rule, &decision, &reviews, &status, &decided, &by, &note, &outcome, &retry, &description); err != nil {
		return c, err
	}
	if err := c.Tier.UnmarshalText([]byte(tier)); err != nil {
		return c, fmt.Errorf("held call %s: %w", c.ID, err)
	}
	var err error
	if c.Status, err = store.ParseHeldStatus(status); err != nil {
		return c, fmt.Errorf("held call %s: %w", c.ID, err)
	}
	c.Time, c.Expires, c.DecidedAt = nsTime(at), nsTime(expires), optTime(decided)
	c.TurnID, c.Facade, c.Rule, c.DecisionID, c.DecidedBy, c.Note, c.RetryKey = text(turn), text(facade), text(rule), text(decision), text(by), text(note), text(retry)
	c.Args, c.Reviews, c.Outcome, c.Description = []byte(args), jsonBytes(reviews), jsonBytes(outcome), jsonBytes(description)
	return c, nil
}

// jsonBytes reads a nullable JSON text column (NULL: nil).
func jsonBytes(p *string) []byte {
	if p == nil {
		return nil
	}
	return []byte(*p)
}

// jsonText binds JSON as text, empty as NULL.
func jsonText(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// HoldCall stores a held call and its record (see store.HeldCalls).
func (s *Store) HoldCall(ctx context.Context, c *store.HeldCall, lim store.HoldLimits, rec *store.ActionRecord) (string, error) {
	if err := s.ok(); err != nil {
		return "", err
	}
	if c == nil || rec == nil {
		return "", errors.New("postgres: hold call: nil call or record")
	}
	if err := c.Validate(); err != nil {
		return "", fmt.Errorf("postgres: hold call: %w", err)
	}
	if err := rec.Validate(); err != nil {
		return "", fmt.Errorf("postgres: hold call: record: %w", err)
	}
	h := *c
	h.Args, h.Reviews, h.Description = slices.Clone(c.Args), slices.Clone(c.Reviews), slices.Clone(c.Description)
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	tier, _ := h.Tier.MarshalText()
	var existing string
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		existing = ""
		if err := xlock(ctx, tx, lockHeld, h.SessionID); err != nil {
			return err
		}
		now := h.Time.UnixNano()
		if !lim.RejectedSince.IsZero() && h.RetryKey != "" {
			session := ""
			if h.PrincipalID == "local" {
				session = h.SessionID
			}
			err := tx.QueryRow(ctx, `SELECT id FROM held_calls WHERE principal_id = $1 AND tool = $2 AND retry_key = $3 AND status = 'rejected'
  AND decided_ns >= $4 AND ($5 = '' OR session_id = $5) ORDER BY decided_ns DESC LIMIT 1`,
				h.PrincipalID, h.Tool, h.RetryKey, clampNanos(lim.RejectedSince), session).Scan(&existing)
			switch {
			case err == nil:
				return store.ErrHeldRejected
			case !errors.Is(err, pgx.ErrNoRows):
				return err
			}
		}
		err := tx.QueryRow(ctx, `SELECT id FROM held_calls WHERE session_id = $1 AND tool = $2 AND args_hash = $3 AND status = 'pending' AND expires_ns > $4
  LIMIT 1`, h.SessionID, h.Tool, h.ArgsHash, now).Scan(&existing)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, pgx.ErrNoRows):
			return err
		}
		var n int64
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM held_calls WHERE session_id = $1 AND status = 'pending' AND expires_ns > $2`, h.SessionID, now).Scan(&n); err != nil {
			return err
		}
		if n >= int64(lim.MaxPending) {
			return store.ErrHeldLimit
		}
		if _, err := tx.Exec(ctx, `INSERT INTO held_calls (id, principal_id, session_id, time_ns, expires_ns, turn_id, input_source, facade, tool, tier,
  args, args_hash, reason, message, rule, decision_id, reviews, status, retry_key, description)
  VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,'pending',$18,$19)`,
			h.ID, h.PrincipalID, h.SessionID, now, h.Expires.UnixNano(), null(h.TurnID), h.InputSource, null(h.Facade), h.Tool, string(tier),
			string(h.Args), h.ArgsHash, h.Reason, h.Message, null(h.Rule), null(h.DecisionID), jsonText(h.Reviews),
			null(h.RetryKey), jsonText(h.Description)); err != nil {
			return err
		}
		return insertAction(ctx, tx, &a)
	})
	if err != nil {
		return existing, fmt.Errorf("postgres: hold call: %w", err)
	}
	return existing, nil
}

// clampNanos returns t as Unix nanoseconds, a time outside what they hold
// as the nearest that they do.
func clampNanos(t time.Time) int64 {
	switch {
	case t.Before(store.MinTime):
		return store.MinTime.UnixNano()
	case t.After(store.MaxTime):
		return store.MaxTime.UnixNano()
	}
	return t.UnixNano()
}

// HeldCall returns the held call id.
func (s *Store) HeldCall(ctx context.Context, hid string) (store.HeldCall, error) {
	if err := s.ok(); err != nil {
		return store.HeldCall{}, err
	}
	c, err := scanHeld(s.pool.QueryRow(ctx, `SELECT `+heldColumns+` FROM held_calls WHERE id = $1`, hid))
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.HeldCall{}, fmt.Errorf("postgres: held call %s: %w", hid, err)
	}
	return c, nil
}

// HeldCalls returns the held calls f selects, oldest first.
func (s *Store) HeldCalls(ctx context.Context, f store.HeldFilter) ([]store.HeldCall, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	since := store.MinTime.UnixNano()
	if !f.Since.IsZero() {
		since = clampNanos(f.Since)
	}
	status := ""
	if f.ByStatus {
		status = f.Status.String()
	}
	out, err := queryRows(ctx, s.pool, rowTo(scanHeld), `SELECT `+heldColumns+` FROM held_calls WHERE time_ns >= $1 AND ($2 = '' OR session_id = $2) AND ($3 = '' OR status = $3)
  ORDER BY time_ns, id LIMIT $4`, since, f.SessionID, status, int64(limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: held calls: %w", err)
	}
	return out, nil
}

// DecideHeldCall decides a pending, unexpired held call with one
// conditional update and appends rec in the same transaction (see
// store.HeldCalls).
func (s *Store) DecideHeldCall(ctx context.Context, hid string, status store.HeldStatus, by, note string, at time.Time, rec *store.ActionRecord) error {
	if status != store.HeldApproved && status != store.HeldRejected {
		return fmt.Errorf("postgres: decide held call: %w", store.Invalid("status %v", status))
	}
	ns, err := store.Nanos("at", at)
	if err != nil {
		return fmt.Errorf("postgres: decide held call: %w", err)
	}
	if rec == nil {
		return errors.New("postgres: decide held call: nil record")
	}
	if err := rec.Validate(); err != nil {
		return fmt.Errorf("postgres: decide held call: record: %w", err)
	}
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE held_calls SET status = $1, decided_ns = $2, decided_by = $3, note = $4
  WHERE id = $5 AND status = 'pending' AND expires_ns > $2`, status.String(), ns, null(by), null(note), hid)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			var cur string
			var exp int64
			err := tx.QueryRow(ctx, `SELECT status, expires_ns FROM held_calls WHERE id = $1`, hid).Scan(&cur, &exp)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
				return store.ErrNotFound
			case err != nil:
				return err
			case cur != "pending":
				return store.ErrHeldDecided
			case exp <= ns:
				return store.ErrHeldExpired
			}
			return fmt.Errorf("the update matched nothing, yet it is pending")
		}
		return insertAction(ctx, tx, &a)
	})
	if err != nil {
		return fmt.Errorf("postgres: decide held call %s: %w", hid, err)
	}
	return nil
}

// SetHeldOutcome stores an approved call's outcome, once, with one
// conditional update.
func (s *Store) SetHeldOutcome(ctx context.Context, hid string, outcome []byte, rec *store.ActionRecord) error {
	if !json.Valid(outcome) {
		return fmt.Errorf("postgres: held outcome: %w", store.Invalid("not JSON"))
	}
	if rec == nil {
		return errors.New("postgres: held outcome: nil record")
	}
	if err := rec.Validate(); err != nil {
		return fmt.Errorf("postgres: held outcome: record: %w", err)
	}
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	out := string(outcome)
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE held_calls SET outcome = $1 WHERE id = $2 AND status = 'approved' AND outcome IS NULL`, out, hid)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			var exists bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM held_calls WHERE id = $1)`, hid).Scan(&exists); err != nil {
				return err
			}
			if !exists {
				return store.ErrNotFound
			}
			return store.ErrHeldDecided
		}
		return insertAction(ctx, tx, &a)
	})
	if err != nil {
		return fmt.Errorf("postgres: held outcome %s: %w", hid, err)
	}
	return nil
}
