package sqlite

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// GateControl returns the gate's phase and halt.
func (s *Store) GateControl(ctx context.Context) (store.GateControl, error) {
	c := store.GateControl{Phase: "thriving"}
	err := s.r.query(ctx, `SELECT phase, phase_ns, phase_by, halted, halt_reason, halt_ns, halt_by,
		spend_tick_cents, spend_session_cents, spend_day_cents, spend_by, spend_ns, allow_version FROM gate_control WHERE id = 1`, nil,
		func(st *sqlite3.Stmt) error {
			c = store.GateControl{Phase: st.ColumnText(0), PhaseAt: nsTime(st, 1), PhaseBy: st.ColumnText(2), Halted: st.ColumnBool(3),
				HaltReason: st.ColumnText(4), HaltAt: nsTime(st, 5), HaltBy: st.ColumnText(6)}
			if st.ColumnType(7) != sqlite3.NULL {
				c.Spending = &store.SpendingOverride{PerTickCents: st.ColumnInt64(7), PerSessionCents: st.ColumnInt64(8),
					DailyCents: st.ColumnInt64(9), By: st.ColumnText(10), At: nsTime(st, 11)}
			}
			c.AllowlistVersion = st.ColumnInt64(12)
			return nil
		})
	if err != nil {
		return store.GateControl{}, fmt.Errorf("sqlite: gate control: %w", err)
	}
	return c, nil
}

// controlWrite runs update on the control row (creating it first) and
// appends rec, durably, in one transaction.
func (s *Store) controlWrite(ctx context.Context, what string, rec *store.ActionRecord, update string, args ...any) error {
	return s.controlTx(ctx, what, rec, func(tx *wtx) error {
		_, err := tx.exec(update, args...)
		return err
	})
}

// controlTx runs change after creating the control row if need be, and
// appends rec, durably, in one transaction.
func (s *Store) controlTx(ctx context.Context, what string, rec *store.ActionRecord, change func(tx *wtx) error) error {
	if rec == nil {
		return fmt.Errorf("sqlite: %s: nil record", what)
	}
	if err := checkAction(rec); err != nil {
		return fmt.Errorf("sqlite: %s: record: %w", what, err)
	}
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	err := s.do(ctx, func(tx *wtx) error {
		if _, err := tx.exec(`INSERT INTO gate_control (id, phase, halted) VALUES (1, 'thriving', 0) ON CONFLICT (id) DO NOTHING`); err != nil {
			return err
		}
		if err := change(tx); err != nil {
			return err
		}
		return tx.w.writeAction(&op{action: &a})
	})
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w", what, err)
	}
	return nil
}

// SetPhase durably sets the phase and appends rec.
func (s *Store) SetPhase(ctx context.Context, phase, by string, at time.Time, rec *store.ActionRecord) error {
	if err := store.CheckPhase(phase); err != nil {
		return fmt.Errorf("sqlite: set phase: %w", err)
	}
	if _, err := nanos("at", at); err != nil {
		return fmt.Errorf("sqlite: set phase: %w", err)
	}
	return s.controlWrite(ctx, "set phase", rec, `UPDATE gate_control SET phase = ?, phase_ns = ?, phase_by = ? WHERE id = 1`, phase, at, nullable(by))
}

// SetHalt durably halts or lifts the halt and appends rec.
func (s *Store) SetHalt(ctx context.Context, halted bool, reason, by string, at time.Time, rec *store.ActionRecord) error {
	if err := store.CheckHalt(halted, reason, at); err != nil {
		return fmt.Errorf("sqlite: set halt: %w", err)
	}
	if !halted {
		reason = ""
	}
	return s.controlWrite(ctx, "set halt", rec, `UPDATE gate_control SET halted = ?, halt_reason = ?, halt_ns = ?, halt_by = ? WHERE id = 1`,
		halted, nullable(reason), at, nullable(by))
}

// SetSpendingOverride durably sets or (o nil) clears the owner's override
// of the spending limits and appends rec.
func (s *Store) SetSpendingOverride(ctx context.Context, o *store.SpendingOverride, rec *store.ActionRecord) error {
	if err := store.CheckSpendingOverride(o); err != nil {
		return fmt.Errorf("sqlite: set spending override: %w", err)
	}
	if o == nil {
		return s.controlWrite(ctx, "set spending override", rec, `UPDATE gate_control SET spend_tick_cents = NULL, spend_session_cents = NULL,
			spend_day_cents = NULL, spend_by = NULL, spend_ns = NULL WHERE id = 1`)
	}
	return s.controlWrite(ctx, "set spending override", rec, `UPDATE gate_control SET spend_tick_cents = ?, spend_session_cents = ?,
		spend_day_cents = ?, spend_by = ?, spend_ns = ? WHERE id = 1`, o.PerTickCents, o.PerSessionCents, o.DailyCents, o.By, o.At)
}

// AllowlistEntries returns the owner's allowlist entries, by kind and
// value.
func (s *Store) AllowlistEntries(ctx context.Context) ([]store.AllowlistEntry, error) {
	var out []store.AllowlistEntry
	err := s.r.query(ctx, `SELECT kind, value, allowed, set_by, set_ns FROM allowlist_entries ORDER BY kind, value`, nil,
		func(st *sqlite3.Stmt) error {
			out = append(out, store.AllowlistEntry{Kind: store.AllowlistKind(st.ColumnText(0)), Value: st.ColumnText(1),
				Allowed: st.ColumnBool(2), By: st.ColumnText(3), At: nsTime(st, 4)})
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("sqlite: allowlist entries: %w", err)
	}
	return out, nil
}

// ChangeAllowlist durably writes the owner's allowlist entries (after
// removing all when reset), counts a new version and appends rec, in one
// transaction.
func (s *Store) ChangeAllowlist(ctx context.Context, entries []store.AllowlistEntry, reset bool, rec *store.ActionRecord) error {
	if err := store.CheckAllowlistEntries(entries, reset); err != nil {
		return fmt.Errorf("sqlite: change allowlist: %w", err)
	}
	return s.controlTx(ctx, "change allowlist", rec, func(tx *wtx) error {
		if reset {
			if _, err := tx.exec(`DELETE FROM allowlist_entries`); err != nil {
				return err
			}
		}
		for _, e := range entries {
			if _, err := tx.exec(`INSERT INTO allowlist_entries (kind, value, allowed, set_by, set_ns) VALUES (?, ?, ?, ?, ?)
				ON CONFLICT (kind, value) DO UPDATE SET allowed = excluded.allowed, set_by = excluded.set_by, set_ns = excluded.set_ns`,
				string(e.Kind), e.Value, e.Allowed, e.By, e.At); err != nil {
				return err
			}
		}
		_, err := tx.exec(`UPDATE gate_control SET allow_version = allow_version + 1 WHERE id = 1`)
		return err
	})
}
