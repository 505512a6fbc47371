package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// GateControl returns the gate's phase and halt: one row every instance
// reads.
func (s *Store) GateControl(ctx context.Context) (store.GateControl, error) {
	if err := s.ok(); err != nil {
		return store.GateControl{}, err
	}
	var (
		c                           store.GateControl
		phaseNs, haltNs             *int64
		phaseBy, haltReason, haltBy *string
		tick, session, day, spendNs *int64
		spendBy                     *string
	)
	err := s.pool.QueryRow(ctx, `SELECT phase, phase_ns, phase_by, halted, halt_reason, halt_ns, halt_by,
		spend_tick_cents, spend_session_cents, spend_day_cents, spend_by, spend_ns, allow_version FROM gate_control WHERE id = 1`).
		Scan(&c.Phase, &phaseNs, &phaseBy, &c.Halted, &haltReason, &haltNs, &haltBy, &tick, &session, &day, &spendBy, &spendNs, &c.AllowlistVersion)
	if err != nil {
		return store.GateControl{}, fmt.Errorf("postgres: gate control: %w", err)
	}
	if phaseNs != nil {
		c.PhaseAt = nsTime(*phaseNs)
	}
	if haltNs != nil {
		c.HaltAt = nsTime(*haltNs)
	}
	c.PhaseBy, c.HaltReason, c.HaltBy = text(phaseBy), text(haltReason), text(haltBy)
	if tick != nil && session != nil && day != nil && spendNs != nil {
		c.Spending = &store.SpendingOverride{PerTickCents: *tick, PerSessionCents: *session, DailyCents: *day, By: text(spendBy), At: nsTime(*spendNs)}
	}
	return c, nil
}

// controlWrite runs update on the control row, appends rec and notifies
// every instance (store.ChangeControl), in one transaction.
func (s *Store) controlWrite(ctx context.Context, what string, rec *store.ActionRecord, update string, args ...any) error {
	return s.controlTx(ctx, what, rec, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, update, args...)
		return err
	})
}

// controlTx runs change, appends rec and notifies every instance
// (store.ChangeControl), in one transaction.
func (s *Store) controlTx(ctx context.Context, what string, rec *store.ActionRecord, change func(tx pgx.Tx) error) error {
	if err := s.ok(); err != nil {
		return err
	}
	if rec == nil {
		return fmt.Errorf("postgres: %s: nil record", what)
	}
	if err := rec.Validate(); err != nil {
		return fmt.Errorf("postgres: %s: record: %w", what, err)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := change(tx); err != nil {
			return err
		}
		if err := insertAction(ctx, tx, rec); err != nil {
			return err
		}
		return notifyChange(ctx, tx, store.ChangeControl, "")
	})
	if err != nil {
		return fmt.Errorf("postgres: %s: %w", what, err)
	}
	return nil
}

// SetPhase durably sets the phase (one of the five names) and appends
// rec, in one transaction.
func (s *Store) SetPhase(ctx context.Context, phase string, by string, at time.Time, rec *store.ActionRecord) error {
	if err := store.CheckPhase(phase); err != nil {
		return fmt.Errorf("postgres: set phase: %w", err)
	}
	ns, err := store.Nanos("at", at)
	if err != nil {
		return fmt.Errorf("postgres: set phase: %w", err)
	}
	return s.controlWrite(ctx, "set phase", rec, `UPDATE gate_control SET phase = $1, phase_ns = $2, phase_by = $3 WHERE id = 1`,
		phase, ns, null(by))
}

// SetHalt durably halts (with a reason) or lifts the halt, and appends
// rec, in one transaction.
func (s *Store) SetHalt(ctx context.Context, halted bool, reason string, by string, at time.Time, rec *store.ActionRecord) error {
	if err := store.CheckHalt(halted, reason, at); err != nil {
		return fmt.Errorf("postgres: set halt: %w", err)
	}
	if !halted {
		reason = ""
	}
	return s.controlWrite(ctx, "set halt", rec, `UPDATE gate_control SET halted = $1, halt_reason = $2, halt_ns = $3, halt_by = $4 WHERE id = 1`,
		halted, null(reason), at.UnixNano(), null(by))
}

// schemaSpendingOverride (migration 5) adds the owner's override of the
// spending limits to gate_control (store.SpendingOverride): NULL limits
// mean no override.
const schemaSpendingOverride = `
ALTER TABLE gate_control ADD COLUMN spend_tick_cents bigint CHECK (spend_tick_cents >= 0);
ALTER TABLE gate_control ADD COLUMN spend_session_cents bigint CHECK (spend_session_cents >= 0);
ALTER TABLE gate_control ADD COLUMN spend_day_cents bigint CHECK (spend_day_cents >= 0);
ALTER TABLE gate_control ADD COLUMN spend_by text;
ALTER TABLE gate_control ADD COLUMN spend_ns bigint;
`

// SetSpendingOverride durably sets or (o nil) clears the owner's override
// of the spending limits, appends rec and notifies every instance, in one
// transaction.
func (s *Store) SetSpendingOverride(ctx context.Context, o *store.SpendingOverride, rec *store.ActionRecord) error {
	if err := store.CheckSpendingOverride(o); err != nil {
		return fmt.Errorf("postgres: set spending override: %w", err)
	}
	if o == nil {
		return s.controlWrite(ctx, "set spending override", rec, `UPDATE gate_control SET spend_tick_cents = NULL, spend_session_cents = NULL,
			spend_day_cents = NULL, spend_by = NULL, spend_ns = NULL WHERE id = 1`)
	}
	ns, err := store.Nanos("at", o.At)
	if err != nil {
		return fmt.Errorf("postgres: set spending override: %w", err)
	}
	return s.controlWrite(ctx, "set spending override", rec, `UPDATE gate_control SET spend_tick_cents = $1, spend_session_cents = $2,
		spend_day_cents = $3, spend_by = $4, spend_ns = $5 WHERE id = 1`, o.PerTickCents, o.PerSessionCents, o.DailyCents, o.By, ns)
}

// schemaAllowlist (migration 6) adds the owner's allowlist entries
// (store.AllowlistEntry) and gate_control's count of their changes.
const schemaAllowlist = `
CREATE TABLE allowlist_entries (
  kind text NOT NULL CHECK (kind IN ('token', 'contract', 'selector')),
  value text NOT NULL CHECK (value ~ '^0x[0-9a-f]+$' AND length(value) = CASE kind WHEN 'selector' THEN 10 ELSE 42 END),
  allowed boolean NOT NULL,
  set_by text NOT NULL,
  set_ns bigint NOT NULL,
  PRIMARY KEY (kind, value)
);
ALTER TABLE gate_control ADD COLUMN allow_version bigint NOT NULL DEFAULT 0;
`

// AllowlistEntries returns the owner's allowlist entries, by kind and
// value.
func (s *Store) AllowlistEntries(ctx context.Context) ([]store.AllowlistEntry, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT kind, value, allowed, set_by, set_ns FROM allowlist_entries ORDER BY kind, value`)
	if err != nil {
		return nil, fmt.Errorf("postgres: allowlist entries: %w", err)
	}
	defer rows.Close()
	var out []store.AllowlistEntry
	for rows.Next() {
		var (
			e    store.AllowlistEntry
			kind string
			ns   int64
		)
		if err := rows.Scan(&kind, &e.Value, &e.Allowed, &e.By, &ns); err != nil {
			return nil, fmt.Errorf("postgres: allowlist entries: %w", err)
		}
		e.Kind, e.At = store.AllowlistKind(kind), nsTime(ns)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: allowlist entries: %w", err)
	}
	return out, nil
}

// ChangeAllowlist durably writes the owner's allowlist entries (after
// removing all when reset), counts a new version, appends rec and
// notifies every instance, in one transaction.
func (s *Store) ChangeAllowlist(ctx context.Context, entries []store.AllowlistEntry, reset bool, rec *store.ActionRecord) error {
	if err := store.CheckAllowlistEntries(entries, reset); err != nil {
		return fmt.Errorf("postgres: change allowlist: %w", err)
	}
	return s.controlTx(ctx, "change allowlist", rec, func(tx pgx.Tx) error {
		if reset {
			if _, err := tx.Exec(ctx, `DELETE FROM allowlist_entries`); err != nil {
				return err
			}
		}
		for _, e := range entries {
			if _, err := tx.Exec(ctx, `INSERT INTO allowlist_entries (kind, value, allowed, set_by, set_ns) VALUES ($1, $2, $3, $4, $5)
				ON CONFLICT (kind, value) DO UPDATE SET allowed = excluded.allowed, set_by = excluded.set_by, set_ns = excluded.set_ns`,
				string(e.Kind), e.Value, e.Allowed, e.By, e.At.UnixNano()); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `UPDATE gate_control SET allow_version = allow_version + 1 WHERE id = 1`)
		return err
	})
}
