package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// Permits. Consuming or cancelling a permit is one conditional UPDATE
// whose WHERE clause holds every condition, so of any number of callers in
// any number of instances exactly one matches the pending row: the others
// wait for its row lock, find it no longer pending and match nothing. A
// call that matched nothing then reads the row to say why (see
// store.Permit.Refusal); the read is after the winner's commit, so a lost
// race reads "consumed".

// permitColumns is the column list scanPermit reads.
const permitColumns = `id, created_ns, expires_ns, not_before_ns, expiry_tick, principal_id, session_id, tool, args_hash, args,
  policy_hash, phase, risk_tier, value_cents, preview, status, closed_ns, closed_by`

// CreatePermit durably stores a copy of p (store.Permit.Validate; its
// preview is kept as store.Permit.MarshalPreview's document). An invalid
// permit, or one whose id exists, is refused and nothing is written.
func (s *Store) CreatePermit(ctx context.Context, p *store.Permit) error {
	if err := s.ok(); err != nil {
		return err
	}
	if p == nil {
		return errors.New("postgres: create permit: nil permit")
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("postgres: create permit: %w", err)
	}
	if err := storable(p.PrincipalID, p.SessionID, p.Tool, p.ArgsHash, p.PolicyHash, p.Phase); err != nil {
		return fmt.Errorf("postgres: create permit: %w", err)
	}
	preview, err := p.MarshalPreview()
	if err != nil {
		return fmt.Errorf("postgres: create permit: %w: %w", store.ErrInvalidRecord, err)
	}
	var notBefore any
	if !p.NotBefore.IsZero() {
		notBefore = p.NotBefore.UnixNano()
	}
	var args any
	if len(p.Args) > 0 {
		args = p.Args
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO permits (id, created_ns, expires_ns, not_before_ns, expiry_tick, principal_id, session_id, tool,
  args_hash, args, policy_hash, phase, risk_tier, value_cents, preview, status) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,'pending')`,
		p.ID, p.CreatedAt.UnixNano(), p.ExpiresAt.UnixNano(), notBefore, int64(p.ExpiryTick), null(p.PrincipalID), null(p.SessionID),
		p.Tool, p.ArgsHash, args, p.PolicyHash, p.Phase, null(p.RiskTier), p.ValueCents, preview)
	if isUnique(err) {
		return fmt.Errorf("postgres: create permit: permit %s already exists: %w", p.ID, err)
	}
	if err != nil {
		return fmt.Errorf("postgres: create permit %s: %w", p.ID, err)
	}
	return nil
}

// Permit returns the permit with id, or an error wrapping store.ErrNotFound.
func (s *Store) Permit(ctx context.Context, pid string) (store.Permit, error) {
	if err := s.ok(); err != nil {
		return store.Permit{}, err
	}
	p, err := readPermit(ctx, s.pool, pid)
	if err != nil {
		return store.Permit{}, fmt.Errorf("postgres: permit %s: %w", pid, err)
	}
	return p, nil
}

// readPermit reads one permit, preview decoded, or store.ErrNotFound.
func readPermit(ctx context.Context, q querier, pid string) (store.Permit, error) {
	return queryOne(ctx, q, scanPermit, `SELECT `+permitColumns+` FROM permits WHERE id = $1`, pid)
}

// scanPermit reads a row of permitColumns.
func scanPermit(row pgx.CollectableRow) (store.Permit, error) {
	var (
		p                                  store.Permit
		created, expires, tick, value      int64
		notBefore, closedNs                *int64
		principal, session, risk, closedBy *string
		status                             string
		args, preview                      []byte
	)
	if err := row.Scan(&p.ID, &created, &expires, &notBefore, &tick, &principal, &session, &p.Tool, &p.ArgsHash, &args,
		&p.PolicyHash, &p.Phase, &risk, &value, &preview, &status, &closedNs, &closedBy); err != nil {
		return store.Permit{}, err
	}
	p.CreatedAt, p.ExpiresAt, p.ExpiryTick, p.ValueCents = nsTime(created), nsTime(expires), uint64(tick), value
	if notBefore != nil {
		p.NotBefore = nsTime(*notBefore)
	}
	if closedNs != nil {
		p.ClosedAt = nsTime(*closedNs)
	}
	p.PrincipalID, p.SessionID, p.RiskTier, p.ClosedBy = text(principal), text(session), text(risk), text(closedBy)
	if len(args) > 0 {
		p.Args = args
	}
	p.Status = store.PermitStatus(status)
	switch p.Status {
	case store.PermitPending, store.PermitConsumed, store.PermitCancelled:
	default:
		return p, fmt.Errorf("permit %s: stored status %q", p.ID, status)
	}
	return p, p.UnmarshalPreview(preview)
}

// ConsumePermit consumes the pending permit id if it still matches c, in
// one conditional UPDATE, and returns the consumed permit. A refusal wraps
// store.ErrNotFound (also for an empty id, or another session's permit)
// or the reason store.Permit.Refusal gives. A zero or unrepresentable
// c.Now is refused unread. A ctx that ends during the call may return
// ctx.Err() with the permit consumed; it is never consumed twice.
func (s *Store) ConsumePermit(ctx context.Context, pid string, c store.PermitCheck) (store.Permit, error) {
	if err := s.ok(); err != nil {
		return store.Permit{}, err
	}
	if pid == "" {
		return store.Permit{}, fmt.Errorf("postgres: consume permit: empty id: %w", store.ErrNotFound)
	}
	now, err := store.Nanos("now", c.Now)
	if err != nil {
		return store.Permit{}, fmt.Errorf("postgres: consume permit %s: %w", pid, err)
	}
	tick := int64(min(c.Tick, math.MaxInt64))
	rows, err := s.pool.Query(ctx, `UPDATE permits SET status = 'consumed', closed_ns = $1, closed_by = $2
WHERE id = $3 AND status = 'pending' AND expires_ns > $1 AND (not_before_ns IS NULL OR not_before_ns <= $1)
  AND (expiry_tick = 0 OR $4 < expiry_tick) AND tool = $5 AND args_hash = $6 AND policy_hash = $7 AND phase = $8
  AND ($9 = '' OR session_id = $9)
RETURNING `+permitColumns, now, null(c.By), pid, tick, c.Tool, c.ArgsHash, c.PolicyHash, c.Phase, c.SessionID)
	if err != nil {
		return store.Permit{}, fmt.Errorf("postgres: consume permit %s: %w", pid, err)
	}
	p, err := pgx.CollectExactlyOneRow(rows, scanPermit)
	switch {
	case err == nil:
		return p, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return store.Permit{}, fmt.Errorf("postgres: consume permit %s: %w", pid, err)
	}
	p, err = readPermit(ctx, s.pool, pid)
	switch {
	case errors.Is(err, store.ErrNotFound) || (err == nil && c.SessionID != "" && p.SessionID != c.SessionID):
		// Another session's permit is, to this session, no permit.
		return store.Permit{}, fmt.Errorf("postgres: consume permit %s: %w", pid, store.ErrNotFound)
	case err != nil:
		return store.Permit{}, fmt.Errorf("postgres: consume permit %s: %w", pid, err)
	}
	why := p.Refusal(c)
	if why == nil {
		return store.Permit{}, fmt.Errorf("postgres: consume permit %s: the update matched nothing, yet every condition holds", pid)
	}
	return store.Permit{}, fmt.Errorf("postgres: consume permit %s: %w", pid, why)
}

// CancelPermit durably cancels the pending permit id. It fails with an
// error wrapping store.ErrNotFound, or store.ErrPermitNotPending (and
// ErrPermitConsumed or ErrPermitCancelled) if the permit is closed; a zero
// now is refused.
func (s *Store) CancelPermit(ctx context.Context, pid string, by string, now time.Time) error {
	return s.CancelPermitRecorded(ctx, pid, by, now, nil)
}

// CancelPermitRecorded is CancelPermit appending rec (if not nil) to the
// action log in the same transaction: a refusal writes neither.
func (s *Store) CancelPermitRecorded(ctx context.Context, pid string, by string, now time.Time, rec *store.ActionRecord) error {
	if err := s.ok(); err != nil {
		return err
	}
	if pid == "" {
		return fmt.Errorf("postgres: cancel permit: empty id: %w", store.ErrNotFound)
	}
	ns, err := store.Nanos("now", now)
	if err != nil {
		return fmt.Errorf("postgres: cancel permit %s: %w", pid, err)
	}
	if rec != nil {
		if err := rec.Validate(); err != nil {
			return fmt.Errorf("postgres: cancel permit %s: record: %w", pid, err)
		}
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE permits SET status = 'cancelled', closed_ns = $1, closed_by = $2 WHERE id = $3 AND status = 'pending'`,
			ns, null(by), pid)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			var status string
			err := tx.QueryRow(ctx, `SELECT status FROM permits WHERE id = $1`, pid).Scan(&status)
			switch {
			case errors.Is(err, pgx.ErrNoRows):
				return store.ErrNotFound
			case err != nil:
				return err
			}
			return store.PermitStatusErr(store.PermitStatus(status))
		}
		if rec == nil {
			return nil
		}
		return insertAction(ctx, tx, rec)
	})
	if err != nil {
		return fmt.Errorf("postgres: cancel permit %s: %w", pid, err)
	}
	return nil
}

// OpenCommits returns the consumed permits without a tool_call record
// (see store.Permits).
func (s *Store) OpenCommits(ctx context.Context, limit int) ([]store.Permit, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, fmt.Errorf("postgres: open commits: negative limit %d", limit)
	}
	q := `SELECT ` + permitColumns + ` FROM permits WHERE status = 'consumed'
  AND NOT EXISTS (SELECT 1 FROM action_log a WHERE a.permit_id = permits.id AND a.kind = 'tool_call') ORDER BY closed_ns, id`
	var args []any
	if limit > 0 {
		q += ` LIMIT $1`
		args = append(args, int64(limit))
	}
	out, err := queryRows(ctx, s.pool, scanPermit, q, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: open commits: %w", err)
	}
	return out, nil
}

// PendingPermits returns the pending permits that expire after now, by
// creation time (then id), at most limit of them unless limit is 0.
func (s *Store) PendingPermits(ctx context.Context, now time.Time, limit int) ([]store.Permit, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	ns, err := store.Nanos("now", now)
	if err != nil {
		return nil, fmt.Errorf("postgres: pending permits: %w", err)
	}
	if limit < 0 {
		return nil, fmt.Errorf("postgres: pending permits: negative limit %d", limit)
	}
	q := `SELECT ` + permitColumns + ` FROM permits WHERE status = 'pending' AND expires_ns > $1 ORDER BY created_ns, id`
	args := []any{ns}
	if limit > 0 {
		q += ` LIMIT $2`
		args = append(args, int64(limit))
	}
	out, err := queryRows(ctx, s.pool, scanPermit, q, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: pending permits: %w", err)
	}
	return out, nil
}
