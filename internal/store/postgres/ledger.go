package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// writeTimeout bounds a write that runs on after its caller's ctx ended:
// a cancelled caller must not drop a record it handed over.
const writeTimeout = 30 * time.Second

// detached returns a context for a write that must complete even if ctx
// is cancelled (store.Store's durability contract), bounded by
// writeTimeout.
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
}

// AppendExecution durably writes rec (store.ExecutionRecord.Validate).
// A ctx cancelled before or during the call does not stop the write.
func (s *Store) AppendExecution(ctx context.Context, rec *store.ExecutionRecord) error {
	if err := s.ok(); err != nil {
		return err
	}
	if rec == nil {
		return errors.New("postgres: append execution: nil record")
	}
	if err := rec.Validate(); err != nil {
		return fmt.Errorf("postgres: append execution: %w", err)
	}
	wctx, cancel := detached(ctx)
	defer cancel()
	_, err := s.pool.Exec(wctx, `INSERT INTO tool_executions (id, created_ns, tool_name, tool_category, session_id, turn_id, decision_id, spend_category, spend_cents)
VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`, rec.ID, rec.Time.UnixNano(), rec.Tool, null(rec.Category), null(rec.SessionID),
		null(rec.TurnID), null(rec.DecisionID), null(rec.SpendCategory), rec.SpendCents)
	if err != nil {
		return fmt.Errorf("postgres: append execution %s: %w", rec.ID, err)
	}
	return nil
}

func scanExecution(row pgx.CollectableRow) (store.ExecutionRecord, error) {
	var (
		r                                           store.ExecutionRecord
		ns                                          int64
		category, session, turn, decision, spendCat *string
	)
	err := row.Scan(&r.ID, &ns, &r.Tool, &category, &session, &turn, &decision, &spendCat, &r.SpendCents)
	r.Time = nsTime(ns)
	r.Category, r.SessionID, r.TurnID, r.DecisionID, r.SpendCategory = text(category), text(session), text(turn), text(decision), text(spendCat)
	return r, err
}

// Executions returns executed calls at or after since, oldest first.
func (s *Store) Executions(ctx context.Context, since time.Time) ([]store.ExecutionRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	from := int64(-1 << 63)
	switch {
	case since.IsZero() || since.Before(store.MinTime):
	case since.After(store.MaxTime):
		return nil, nil
	default:
		from = since.UnixNano()
	}
	out, err := queryRows(ctx, s.pool, scanExecution, `SELECT id, created_ns, tool_name, tool_category, session_id, turn_id, decision_id, spend_category, spend_cents
FROM tool_executions WHERE created_ns >= $1 ORDER BY created_ns, id`, from)
	if err != nil {
		return nil, fmt.Errorf("postgres: executions: %w", err)
	}
	return out, nil
}

// SetBalance durably records the last known balance; the latest call
// wins.
func (s *Store) SetBalance(ctx context.Context, cents int64, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	ns, err := store.Nanos("at", at)
	if err != nil {
		return fmt.Errorf("postgres: set balance: %w", err)
	}
	wctx, cancel := detached(ctx)
	defer cancel()
	_, err = s.pool.Exec(wctx, `INSERT INTO tracked_balance (id, cents, observed_ns) VALUES (1, $1, $2)
ON CONFLICT (id) DO UPDATE SET cents = excluded.cents, observed_ns = excluded.observed_ns`, cents, ns)
	if err != nil {
		return fmt.Errorf("postgres: set balance: %w", err)
	}
	return nil
}

// Balance returns the last balance recorded by SetBalance.
func (s *Store) Balance(ctx context.Context) (cents int64, at time.Time, ok bool, err error) {
	if err := s.ok(); err != nil {
		return 0, time.Time{}, false, err
	}
	var ns int64
	err = s.pool.QueryRow(ctx, `SELECT cents, observed_ns FROM tracked_balance WHERE id = 1`).Scan(&cents, &ns)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return 0, time.Time{}, false, nil
	case err != nil:
		return 0, time.Time{}, false, fmt.Errorf("postgres: balance: %w", err)
	}
	return cents, nsTime(ns), true, nil
}

// RecordPolicy durably stores source under hash. Recording the same hash
// again with the same source is a no-op; with a different source it fails
// and the first source stays.
func (s *Store) RecordPolicy(ctx context.Context, hash string, source []byte) error {
	if err := s.ok(); err != nil {
		return err
	}
	if hash == "" {
		return fmt.Errorf("postgres: record policy: %w", store.Invalid("empty hash"))
	}
	if err := storable(hash); err != nil {
		return fmt.Errorf("postgres: record policy: %w", err)
	}
	if source == nil {
		source = []byte{}
	}
	wctx, cancel := detached(ctx)
	defer cancel()
	tag, err := s.pool.Exec(wctx, `INSERT INTO policy_snapshots (hash, source, created_ns) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING`,
		hash, source, time.Now().UnixNano())
	if err != nil {
		return fmt.Errorf("postgres: record policy: %w", err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var stored []byte
	if err := s.pool.QueryRow(wctx, `SELECT source FROM policy_snapshots WHERE hash = $1`, hash).Scan(&stored); err != nil {
		return fmt.Errorf("postgres: record policy: %w", err)
	}
	if !bytes.Equal(stored, source) {
		return fmt.Errorf("postgres: record policy: hash %.16s already recorded with a different source", hash)
	}
	return nil
}

// Policy returns the source recorded under hash, or an error wrapping
// store.ErrNotFound.
func (s *Store) Policy(ctx context.Context, hash string) ([]byte, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	var src []byte
	err := s.pool.QueryRow(ctx, `SELECT source FROM policy_snapshots WHERE hash = $1`, hash).Scan(&src)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, fmt.Errorf("postgres: policy %.16s: %w", hash, store.ErrNotFound)
	case err != nil:
		return nil, fmt.Errorf("postgres: policy: %w", err)
	}
	if src == nil {
		src = []byte{}
	}
	return src, nil
}
