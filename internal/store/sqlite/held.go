package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

const heldColumns = `id, principal_id, session_id, time_ns, expires_ns, turn_id, input_source, facade, tool, tier, args, args_hash,
  reason, message, rule, decision_id, reviews, status, decided_ns, decided_by, note, outcome, retry_key, description`

func scanHeld(st *sqlite3.Stmt) (store.HeldCall, error) {
	c := store.HeldCall{
		ID: st.ColumnText(0), PrincipalID: st.ColumnText(1), SessionID: st.ColumnText(2), Time: nsTime(st, 3), Expires: nsTime(st, 4),
		TurnID: st.ColumnText(5), InputSource: st.ColumnText(6), Facade: st.ColumnText(7), Tool: st.ColumnText(8),
		Args: textBytes(st, 10), ArgsHash: st.ColumnText(11), Reason: st.ColumnText(12), Message: st.ColumnText(13),
		Rule: st.ColumnText(14), DecisionID: st.ColumnText(15), Reviews: textBytes(st, 16),
		DecidedAt: nsTime(st, 18), DecidedBy: st.ColumnText(19), Note: st.ColumnText(20), Outcome: textBytes(st, 21),
		RetryKey: st.ColumnText(22), Description: textBytes(st, 23),
	}
	if err := c.Tier.UnmarshalText([]byte(st.ColumnText(9))); err != nil {
		return c, fmt.Errorf("held call %s: %w", c.ID, err)
	}
	var err error
	if c.Status, err = store.ParseHeldStatus(st.ColumnText(17)); err != nil {
		return c, fmt.Errorf("held call %s: %w", c.ID, err)
	}
	return c, nil
}

// HoldCall stores a held call and its record (see store.HeldCalls).
func (s *Store) HoldCall(ctx context.Context, c *store.HeldCall, lim store.HoldLimits, rec *store.ActionRecord) (string, error) {
	if c == nil || rec == nil {
		return "", errors.New("sqlite: hold call: nil call or record")
	}
	if err := c.Validate(); err != nil {
		return "", fmt.Errorf("sqlite: hold call: %w", err)
	}
	if err := checkAction(rec); err != nil {
		return "", fmt.Errorf("sqlite: hold call: record: %w", err)
	}
	h := *c
	h.Args, h.Reviews, h.Description = slices.Clone(c.Args), slices.Clone(c.Reviews), slices.Clone(c.Description)
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	tier, _ := h.Tier.MarshalText()
	var existing string
	err := s.do(ctx, func(tx *wtx) error {
		existing = ""
		now := h.Time.UnixNano()
		if !lim.RejectedSince.IsZero() && h.RetryKey != "" {
			session := ""
			if h.PrincipalID == "local" {
				session = h.SessionID
			}
			if _, err := tx.one(`SELECT id FROM held_calls WHERE principal_id = ? AND tool = ? AND retry_key = ? AND status = 'rejected'
  AND decided_ns >= ? AND (? = '' OR session_id = ?) ORDER BY decided_ns DESC LIMIT 1`,
				[]any{h.PrincipalID, h.Tool, h.RetryKey, lim.RejectedSince.UnixNano(), session, session},
				func(st *sqlite3.Stmt) error { existing = st.ColumnText(0); return nil }); err != nil {
				return err
			}
			if existing != "" {
				return answer(store.ErrHeldRejected)
			}
		}
		if _, err := tx.one(`SELECT id FROM held_calls WHERE session_id = ? AND tool = ? AND args_hash = ? AND status = 'pending' AND expires_ns > ?`,
			[]any{h.SessionID, h.Tool, h.ArgsHash, now}, func(st *sqlite3.Stmt) error { existing = st.ColumnText(0); return nil }); err != nil {
			return err
		}
		if existing != "" {
			return nil
		}
		n, err := tx.int64(`SELECT count(*) FROM held_calls WHERE session_id = ? AND status = 'pending' AND expires_ns > ?`, h.SessionID, now)
		if err != nil {
			return err
		}
		if n >= int64(lim.MaxPending) {
			return answer(store.ErrHeldLimit)
		}
		if _, err := tx.exec(`INSERT INTO held_calls (id, principal_id, session_id, time_ns, expires_ns, turn_id, input_source, facade, tool, tier,
  args, args_hash, reason, message, rule, decision_id, reviews, status, retry_key, description)
  VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,'pending',?,?)`,
			h.ID, h.PrincipalID, h.SessionID, h.Time, h.Expires, nullable(h.TurnID), h.InputSource, nullable(h.Facade), h.Tool, string(tier),
			string(h.Args), h.ArgsHash, h.Reason, h.Message, nullable(h.Rule), nullable(h.DecisionID), jsonText(h.Reviews),
			nullable(h.RetryKey), jsonText(h.Description)); err != nil {
			return err
		}
		return tx.w.writeAction(&op{action: &a})
	})
	if err != nil {
		return existing, fmt.Errorf("sqlite: hold call: %w", err)
	}
	return existing, nil
}

// jsonText binds JSON as text, empty as NULL.
func jsonText(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// HeldCall returns the held call id.
func (s *Store) HeldCall(ctx context.Context, hid string) (store.HeldCall, error) {
	c, err := readOne(ctx, s.r, scanHeld, `SELECT `+heldColumns+` FROM held_calls WHERE id = ?`, hid)
	if err != nil {
		return store.HeldCall{}, fmt.Errorf("sqlite: held call %s: %w", hid, err)
	}
	return c, nil
}

// HeldCalls returns the held calls f selects, oldest first.
func (s *Store) HeldCalls(ctx context.Context, f store.HeldFilter) ([]store.HeldCall, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	var since int64
	if !f.Since.IsZero() {
		since = f.Since.UnixNano()
		if f.Since.Before(minTime) {
			since = minTime.UnixNano()
		}
	}
	status := ""
	if f.ByStatus {
		status = f.Status.String()
	}
	out, err := readRows(ctx, s.r, scanHeld, `SELECT `+heldColumns+` FROM held_calls WHERE time_ns >= ?1 AND (?2 = '' OR session_id = ?2) AND (?3 = '' OR status = ?3)
  ORDER BY time_ns, id LIMIT ?4`, since, f.SessionID, status, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: held calls: %w", err)
	}
	return out, nil
}

// DecideHeldCall durably decides a pending held call (see
// store.HeldCalls).
func (s *Store) DecideHeldCall(ctx context.Context, hid string, status store.HeldStatus, by, note string, at time.Time, rec *store.ActionRecord) error {
	if status != store.HeldApproved && status != store.HeldRejected {
		return fmt.Errorf("sqlite: decide held call: %w: status %v", errInvalid, status)
	}
	ns, err := nanos("at", at)
	if err != nil {
		return fmt.Errorf("sqlite: decide held call: %w", err)
	}
	if rec == nil {
		return errors.New("sqlite: decide held call: nil record")
	}
	if err := checkAction(rec); err != nil {
		return fmt.Errorf("sqlite: decide held call: record: %w", err)
	}
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	err = s.do(ctx, func(tx *wtx) error {
		n, err := tx.exec(`UPDATE held_calls SET status = ?, decided_ns = ?, decided_by = ?, note = ? WHERE id = ? AND status = 'pending' AND expires_ns > ?`,
			status.String(), ns, nullable(by), nullable(note), hid, ns)
		if err != nil {
			return err
		}
		if n == 0 {
			var cur string
			var exp int64
			found, err := tx.one(`SELECT status, expires_ns FROM held_calls WHERE id = ?`, []any{hid}, func(st *sqlite3.Stmt) error {
				cur, exp = st.ColumnText(0), st.ColumnInt64(1)
				return nil
			})
			switch {
			case err != nil:
				return err
			case !found:
				return answer(store.ErrNotFound)
			case cur != "pending":
				return answer(store.ErrHeldDecided)
			case exp <= ns:
				return answer(store.ErrHeldExpired)
			}
			return fmt.Errorf("decide held call %s: the update matched nothing, yet it is pending", hid)
		}
		return tx.w.writeAction(&op{action: &a})
	})
	if err != nil {
		return fmt.Errorf("sqlite: decide held call %s: %w", hid, err)
	}
	return nil
}

// SetHeldOutcome durably stores an approved call's outcome, once.
func (s *Store) SetHeldOutcome(ctx context.Context, hid string, outcome []byte, rec *store.ActionRecord) error {
	if !json.Valid(outcome) {
		return fmt.Errorf("sqlite: held outcome: %w: not JSON", errInvalid)
	}
	if rec == nil {
		return errors.New("sqlite: held outcome: nil record")
	}
	if err := checkAction(rec); err != nil {
		return fmt.Errorf("sqlite: held outcome: record: %w", err)
	}
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	out := string(outcome)
	err := s.do(ctx, func(tx *wtx) error {
		n, err := tx.exec(`UPDATE held_calls SET outcome = ? WHERE id = ? AND status = 'approved' AND outcome IS NULL`, out, hid)
		if err != nil {
			return err
		}
		if n == 0 {
			exists, err := tx.int64(`SELECT count(*) FROM held_calls WHERE id = ?`, hid)
			if err != nil {
				return err
			}
			if exists == 0 {
				return answer(store.ErrNotFound)
			}
			return answer(store.ErrHeldDecided)
		}
		return tx.w.writeAction(&op{action: &a})
	})
	if err != nil {
		return fmt.Errorf("sqlite: held outcome %s: %w", hid, err)
	}
	return nil
}
