package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// Permits and the action log go through the writer like every
// other write: each is an op of the open batch, durable when its call
// returns. ConsumePermit and CancelPermit are single conditional UPDATEs
// run by the writer inside its batch's transaction (BEGIN IMMEDIATE, so the
// write lock, shared with every other process on the file, is held). When
// the UPDATE matches nothing the writer reads the row in the same
// transaction to say why, which is therefore exact: nothing can change the
// row between the UPDATE and the read. A refusal is the op's answer, not a
// write error, so it fails neither the batch nor the other ops in it.

// permitColumns is the column list every permit read scans (scanPermit).
const permitColumns = `id, created_ns, expires_ns, not_before_ns, expiry_tick, session_id, tool, args_hash, args, policy_hash, phase, risk_tier, value_cents, preview, status, closed_ns, closed_by, principal_id`

const (
	sqlPermitInsert = `INSERT INTO permits (id, created_ns, expires_ns, not_before_ns, expiry_tick, session_id, tool, args_hash, args, policy_hash, phase, risk_tier, value_cents, preview, status, principal_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,'pending',?)`
	// sqlPermitConsume is the one statement that consumes a permit: every
	// condition of a PermitCheck is in its WHERE clause.
	sqlPermitConsume = `UPDATE permits SET status = 'consumed', closed_ns = ?1, closed_by = ?2
WHERE id = ?3 AND status = 'pending' AND expires_ns > ?1 AND (not_before_ns IS NULL OR not_before_ns <= ?1)
  AND (expiry_tick = 0 OR ?4 < expiry_tick) AND tool = ?5 AND args_hash = ?6 AND policy_hash = ?7 AND phase = ?8
  AND (?9 = '' OR session_id = ?9)
RETURNING ` + permitColumns
	sqlPermitCancel = `UPDATE permits SET status = 'cancelled', closed_ns = ?1, closed_by = ?2 WHERE id = ?3 AND status = 'pending'`
	sqlPermitRow    = `SELECT ` + permitColumns + ` FROM permits WHERE id = ?`
	sqlActionInsert = `INSERT INTO action_log (` + actionColumns + `) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`
)

// actionColumns is the column list of action_log, in ActionRecord's order.
const actionColumns = `id, time_ns, kind, permit_id, session_id, tool, action_type, args_hash, tx_hash, status, block_reason, gas_used, gas_cost_wei, verified, expected, actual, ground_truth, detail, principal_id, chain_id`

// permitOp is a permit write and, for a consume or cancel, the writer's
// answer, set before the batch's done is closed and read by the caller only
// if the batch committed.
type permitOp struct {
	p       store.Permit      // create: the permit; consume: the consumed permit, its preview still encoded
	preview []byte            // create, consume: p's preview, encoded (MarshalPreview)
	id      string            // consume, cancel
	check   store.PermitCheck // consume
	by      string            // consume, cancel
	now     int64             // consume, cancel: Unix nanoseconds
	tick    int64             // consume: check.Tick, at most math.MaxInt64

	refused error // consume, cancel: why the UPDATE matched nothing
}

// CreatePermit durably stores a copy of p. p must be pending and not
// closed, with a ULID id, CreatedAt and ExpiresAt (after CreatedAt), a
// NotBefore (if set) before ExpiresAt, a tool, an args hash and a policy
// hash, a risk tier (if set) of routine, standard, elevated, high or
// critical, a value that is not negative, an ExpiryTick of at most
// math.MaxInt64, Args that are empty or JSON, and a preview JSON can hold
// (see store.Permit.MarshalPreview: the preview column keeps that
// document). An invalid permit, or one whose id exists, is refused and
// nothing is written.
func (s *Store) CreatePermit(ctx context.Context, p *store.Permit) error {
	if p == nil {
		return errors.New("sqlite: create permit: nil permit")
	}
	if err := checkPermit(p); err != nil {
		return fmt.Errorf("sqlite: create permit: %w", err)
	}
	preview, err := p.MarshalPreview()
	if err != nil {
		return fmt.Errorf("sqlite: create permit: %w: %w", errInvalid, err)
	}
	po := &permitOp{p: *p, preview: preview}
	po.p.Args, po.p.Plan, po.p.Simulation, po.p.Lessons = slices.Clone(p.Args), nil, nil, nil
	return s.submit(ctx, &op{kind: opPermitCreate, durable: true, permit: po})
}

// nanos returns t in Unix nanoseconds, refusing a zero time or one outside
// the years they hold.
func checkPermit(p *store.Permit) error { return p.Validate() }

func nanos(what string, t time.Time) (int64, error) { return store.Nanos(what, t) }

// Permit returns the permit with id, or an error wrapping store.ErrNotFound.
func (s *Store) Permit(ctx context.Context, pid string) (store.Permit, error) {
	p, err := readOne(ctx, s.r, scanPermitPreview, sqlPermitRow, pid)
	if err != nil {
		return store.Permit{}, fmt.Errorf("sqlite: permit %s: %w", pid, err)
	}
	return p, nil
}

// ConsumePermit consumes the pending permit id if it still matches c (see
// store.Permits), with one conditional UPDATE made durable before it
// returns, and returns the consumed permit. A refusal wraps
// store.ErrNotFound (also for an empty id) or the sentinel of the first
// condition that fails, in this order: status (ErrPermitConsumed or
// ErrPermitCancelled, both also ErrPermitNotPending), tool or args hash
// (ErrPermitMismatch), expiry by time or tick (ErrPermitExpired), policy
// (ErrPolicyChanged), phase (ErrPhaseChanged), announce delay
// (ErrPermitEarly). A zero or unrepresentable c.Now is refused unread. A
// c.Tick above math.MaxInt64 counts as past every expiry tick. A ctx done
// before the call queues nothing; one that ends while the call waits for
// its commit returns ctx.Err() and the consumption may still happen.
func (s *Store) ConsumePermit(ctx context.Context, pid string, c store.PermitCheck) (store.Permit, error) {
	if pid == "" {
		return store.Permit{}, fmt.Errorf("sqlite: consume permit: empty id: %w", store.ErrNotFound)
	}
	now, err := nanos("now", c.Now)
	if err != nil {
		return store.Permit{}, fmt.Errorf("sqlite: consume permit %s: %w", pid, err)
	}
	if err := ctx.Err(); err != nil {
		return store.Permit{}, err
	}
	po := &permitOp{id: pid, check: c, by: c.By, now: now, tick: int64(min(c.Tick, math.MaxInt64))}
	if err := s.submit(ctx, &op{kind: opPermitConsume, durable: true, permit: po}); err != nil {
		return store.Permit{}, err
	}
	if po.refused != nil {
		return store.Permit{}, fmt.Errorf("sqlite: consume permit %s: %w", pid, po.refused)
	}
	// The writer leaves the preview encoded: decoding it is the caller's
	// work, not the batch's.
	p := po.p
	if err := p.UnmarshalPreview(po.preview); err != nil {
		return store.Permit{}, fmt.Errorf("sqlite: consume permit %s (consumed): %w", pid, err)
	}
	return p, nil
}

// CancelPermit durably cancels the pending permit id. It fails with an
// error wrapping store.ErrNotFound, or store.ErrPermitNotPending (and
// ErrPermitConsumed or ErrPermitCancelled) if the permit is closed; a zero
// now is refused. ctx is treated as by ConsumePermit.
func (s *Store) CancelPermit(ctx context.Context, pid string, by string, now time.Time) error {
	if pid == "" {
		return fmt.Errorf("sqlite: cancel permit: empty id: %w", store.ErrNotFound)
	}
	ns, err := nanos("now", now)
	if err != nil {
		return fmt.Errorf("sqlite: cancel permit %s: %w", pid, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	po := &permitOp{id: pid, by: by, now: ns}
	if err := s.submit(ctx, &op{kind: opPermitCancel, durable: true, permit: po}); err != nil {
		return err
	}
	if po.refused != nil {
		return fmt.Errorf("sqlite: cancel permit %s: %w", pid, po.refused)
	}
	return nil
}

// OpenCommits returns the consumed permits without a tool_call record
// (see store.Permits).
func (s *Store) OpenCommits(ctx context.Context, limit int) ([]store.Permit, error) {
	if limit < 0 {
		return nil, fmt.Errorf("sqlite: open commits: negative limit %d", limit)
	}
	q := `SELECT ` + permitColumns + ` FROM permits WHERE status = 'consumed'
  AND NOT EXISTS (SELECT 1 FROM action_log a WHERE a.permit_id = permits.id AND a.kind = 'tool_call') ORDER BY closed_ns, id`
	var args []any
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, int64(limit))
	}
	out, err := readRows(ctx, s.r, scanPermitPreview, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open commits: %w", err)
	}
	return out, nil
}

// PendingPermits returns the pending permits that expire after now, by
// creation time (then id), at most limit of them unless limit is 0. A
// permit still in its announce delay is pending; expiry ticks are not
// considered.
func (s *Store) PendingPermits(ctx context.Context, now time.Time, limit int) ([]store.Permit, error) {
	ns, err := nanos("now", now)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pending permits: %w", err)
	}
	if limit < 0 {
		return nil, fmt.Errorf("sqlite: pending permits: negative limit %d", limit)
	}
	q := `SELECT ` + permitColumns + ` FROM permits WHERE status = 'pending' AND expires_ns > ? ORDER BY created_ns, id`
	args := []any{ns}
	if limit > 0 {
		q += ` LIMIT ?`
		args = append(args, int64(limit))
	}
	out, err := readRows(ctx, s.r, scanPermitPreview, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pending permits: %w", err)
	}
	return out, nil
}

// previewColumn is the preview's index in permitColumns.
const previewColumn = 13

// scanPermitPreview reads a row of permitColumns, its preview decoded.
func scanPermitPreview(st *sqlite3.Stmt) (store.Permit, error) {
	p, err := scanPermit(st)
	if err != nil {
		return p, err
	}
	return p, p.UnmarshalPreview(st.ColumnRawText(previewColumn))
}

// scanPermit reads a row of permitColumns but its preview (Plan,
// Simulation and Lessons are left nil): see scanPermitPreview.
func scanPermit(st *sqlite3.Stmt) (store.Permit, error) {
	p := store.Permit{
		ID:         st.ColumnText(0),
		CreatedAt:  nsTime(st, 1),
		ExpiresAt:  nsTime(st, 2),
		NotBefore:  nsTime(st, 3),
		ExpiryTick: uint64(st.ColumnInt64(4)),
		SessionID:  st.ColumnText(5),
		Tool:       st.ColumnText(6),
		ArgsHash:   st.ColumnText(7),
		Args:       textBytes(st, 8),
		PolicyHash: st.ColumnText(9),
		Phase:      st.ColumnText(10),
		RiskTier:   st.ColumnText(11),
		ValueCents: st.ColumnInt64(12),
		Status:     store.PermitStatus(st.ColumnText(14)),
		ClosedAt:   nsTime(st, 15),
		ClosedBy:   st.ColumnText(16),
	}
	p.PrincipalID = st.ColumnText(17)
	switch p.Status {
	case store.PermitPending, store.PermitConsumed, store.PermitCancelled:
		return p, nil
	}
	return p, fmt.Errorf("permit %s: stored status %q", p.ID, p.Status)
}

// nsTime reads a time stored in Unix nanoseconds, NULL as the zero time.
func nsTime(st *sqlite3.Stmt, col int) time.Time {
	if st.ColumnType(col) == sqlite3.NULL {
		return time.Time{}
	}
	return time.Unix(0, st.ColumnInt64(col)).UTC()
}

// textBytes copies a text column, NULL (stored for empty) as nil.
func textBytes(st *sqlite3.Stmt, col int) []byte {
	if b := st.ColumnRawText(col); len(b) > 0 {
		return bytes.Clone(b)
	}
	return nil
}

// writePermitCreate inserts o's permit. A duplicate id is a constraint
// error that fails only this op (see Store.write).
func (w *writer) writePermitCreate(o *op) error {
	st, p := w.permitInsert, &o.permit.p
	var notBefore int64
	if !p.NotBefore.IsZero() {
		notBefore = p.NotBefore.UnixNano()
	}
	err := firstErr(
		st.BindText(1, p.ID),
		st.BindInt64(2, p.CreatedAt.UnixNano()),
		st.BindInt64(3, p.ExpiresAt.UnixNano()),
		bindOptionalInt(st, 4, notBefore, !p.NotBefore.IsZero()),
		st.BindInt64(5, int64(p.ExpiryTick)),
		bindOptional(st, 6, p.SessionID),
		st.BindText(7, p.Tool),
		st.BindText(8, p.ArgsHash),
		bindOptionalJSON(st, 9, p.Args),
		st.BindText(10, p.PolicyHash),
		st.BindText(11, p.Phase),
		bindOptional(st, 12, p.RiskTier),
		st.BindInt64(13, p.ValueCents),
		bindOptionalJSON(st, 14, o.permit.preview),
		bindOptional(st, 15, p.PrincipalID),
		st.Exec(),
	)
	var e *sqlite3.Error
	if errors.As(err, &e) && e.ExtendedCode() == sqlite3.CONSTRAINT_PRIMARYKEY {
		return fmt.Errorf("permit %s already exists: %w", p.ID, err)
	}
	return err
}

// writePermitConsume runs the conditional UPDATE and records its answer in
// o.permit: the consumed permit, or why nothing matched.
func (w *writer) writePermitConsume(o *op) error {
	po := o.permit
	po.p, po.preview, po.refused = store.Permit{}, nil, nil
	st, c := w.permitConsume, &po.check
	if err := firstErr(
		st.BindInt64(1, po.now),
		bindOptional(st, 2, po.by),
		st.BindText(3, po.id),
		st.BindInt64(4, po.tick),
		st.BindText(5, c.Tool),
		st.BindText(6, c.ArgsHash),
		st.BindText(7, c.PolicyHash),
		st.BindText(8, c.Phase),
		st.BindText(9, c.SessionID),
	); err != nil {
		return err
	}
	// RETURNING makes every change in the first Step; Reset finishes the
	// statement either way.
	if st.Step() {
		p, err := scanPermit(st)
		preview := textBytes(st, previewColumn)
		if err := firstErr(err, st.Reset()); err != nil {
			return err
		}
		po.p, po.preview = p, preview
		return nil
	}
	if err := st.Reset(); err != nil {
		return err
	}
	p, found, err := w.readPermit(po.id)
	switch {
	case err != nil:
		return err
	case !found || (c.SessionID != "" && p.SessionID != c.SessionID):
		// Another session's permit is, to this session, no permit.
		po.refused = store.ErrNotFound
	default:
		if po.refused = p.Refusal(po.check); po.refused == nil {
			return fmt.Errorf("consume permit %s: the update matched nothing, yet every condition holds", po.id)
		}
	}
	return nil
}

// writePermitCancel cancels o's permit if pending, else records why not.
func (w *writer) writePermitCancel(o *op) error {
	po := o.permit
	po.refused = nil
	st := w.permitCancel
	if err := firstErr(st.BindInt64(1, po.now), bindOptional(st, 2, po.by), st.BindText(3, po.id), st.Exec()); err != nil {
		return err
	}
	if w.conn.Changes() == 1 {
		return nil
	}
	p, found, err := w.readPermit(po.id)
	switch {
	case err != nil:
		return err
	case !found:
		po.refused = store.ErrNotFound
	case p.Status == store.PermitPending:
		return fmt.Errorf("cancel permit %s: the update matched nothing, yet it is pending", po.id)
	default:
		po.refused = store.PermitStatusErr(p.Status)
	}
	return nil
}

// readPermit reads a permit, but not its preview (a refusal needs none),
// on the writer's connection inside its transaction.
func (w *writer) readPermit(pid string) (store.Permit, bool, error) {
	q := w.permitRow
	defer q.Reset()
	if err := q.BindText(1, pid); err != nil {
		return store.Permit{}, false, err
	}
	if !q.Step() {
		return store.Permit{}, false, q.Err()
	}
	p, err := scanPermit(q)
	return p, true, err
}

// bindOptionalInt binds v, or NULL unless set.
func bindOptionalInt(st *sqlite3.Stmt, i int, v int64, set bool) error {
	if !set {
		return st.BindNull(i)
	}
	return st.BindInt64(i, v)
}

// bindOptionalJSON binds JSON as text, empty as NULL.
func bindOptionalJSON(st *sqlite3.Stmt, i int, v []byte) error {
	if len(v) == 0 {
		return st.BindNull(i)
	}
	return st.BindRawText(i, v)
}

// AppendAction durably writes a copy of rec. It needs a ULID id, a time,
// a kind, a GasUsed of at most math.MaxInt64, a GasCostWei that is empty or
// decimal digits, and a Detail that is empty or JSON; an invalid record, or
// one whose id exists, is refused and nothing is written.
func (s *Store) AppendAction(ctx context.Context, rec *store.ActionRecord) error {
	if rec == nil {
		return errors.New("sqlite: append action: nil record")
	}
	if err := checkAction(rec); err != nil {
		return fmt.Errorf("sqlite: append action: %w", err)
	}
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	return s.submit(ctx, &op{kind: opAction, durable: true, action: &a})
}

func checkAction(r *store.ActionRecord) error { return r.Validate() }

func (w *writer) writeAction(o *op) error {
	st, a := w.action, o.action
	err := firstErr(
		st.BindText(1, a.ID),
		st.BindInt64(2, a.Time.UnixNano()),
		st.BindText(3, a.Kind.String()),
		bindOptional(st, 4, a.PermitID),
		bindOptional(st, 5, a.SessionID),
		bindOptional(st, 6, a.Tool),
		bindOptional(st, 7, a.ActionType),
		bindOptional(st, 8, a.ArgsHash),
		bindOptional(st, 9, a.TxHash),
		bindOptional(st, 10, a.Status.String()),
		bindOptional(st, 11, a.BlockReason),
		st.BindInt64(12, int64(a.GasUsed)),
		bindOptional(st, 13, a.GasCostWei),
		st.BindBool(14, a.Verified),
		bindOptional(st, 15, a.Expected),
		bindOptional(st, 16, a.Actual),
		bindOptional(st, 17, a.GroundTruth),
		bindOptionalJSON(st, 18, a.Detail),
		bindOptional(st, 19, a.PrincipalID),
		bindChain(st, 20, a.ChainID),
		st.Exec(),
	)
	var e *sqlite3.Error
	if errors.As(err, &e) && e.ExtendedCode() == sqlite3.CONSTRAINT_PRIMARYKEY {
		return fmt.Errorf("action %s already exists: %w", a.ID, err)
	}
	return err
}

// Actions returns the action records f selects, oldest first (by time,
// then id); with a limit, the oldest ones.
func (s *Store) Actions(ctx context.Context, f store.ActionFilter) ([]store.ActionRecord, error) {
	if f.Limit < 0 {
		return nil, fmt.Errorf("sqlite: actions: negative limit %d", f.Limit)
	}
	var conds []string
	var args []any
	eq := func(col, v string) {
		if v != "" {
			conds = append(conds, col+" = ?")
			args = append(args, v)
		}
	}
	eq("permit_id", f.PermitID)
	eq("principal_id", f.PrincipalID)
	eq("session_id", f.SessionID)
	eq("tool", f.Tool)
	if f.Kind != 0 {
		eq("kind", f.Kind.String())
	}
	switch {
	case f.Since.IsZero() || f.Since.Before(minTime):
	case f.Since.After(maxTime):
		conds = append(conds, "0")
	default:
		conds = append(conds, "time_ns >= ?")
		args = append(args, f.Since.UnixNano())
	}
	switch {
	case f.Until.IsZero() || f.Until.After(maxTime):
	case f.Until.Before(minTime):
		conds = append(conds, "0")
	default:
		conds = append(conds, "time_ns < ?")
		args = append(args, f.Until.UnixNano())
	}
	q := `SELECT ` + actionColumns + ` FROM action_log`
	if len(conds) > 0 {
		q += ` WHERE ` + strings.Join(conds, " AND ")
	}
	q += ` ORDER BY time_ns, id`
	if f.Limit > 0 {
		q += ` LIMIT ?`
		args = append(args, int64(f.Limit))
	}
	out, err := s.queryActions(ctx, q, args)
	if err != nil {
		return nil, fmt.Errorf("sqlite: actions: %w", err)
	}
	return out, nil
}

// queryActions runs q, which selects actionColumns, and scans its rows.
func (s *Store) queryActions(ctx context.Context, q string, args []any) ([]store.ActionRecord, error) {
	var out []store.ActionRecord
	err := s.r.query(ctx, q, args, func(st *sqlite3.Stmt) error {
		kind, err := store.ParseActionKind(st.ColumnText(2))
		if err != nil {
			return err
		}
		status, err := store.ParseActionStatus(st.ColumnText(9))
		if err != nil {
			return err
		}
		out = append(out, store.ActionRecord{
			ID:          st.ColumnText(0),
			Time:        nsTime(st, 1),
			Kind:        kind,
			PermitID:    st.ColumnText(3),
			SessionID:   st.ColumnText(4),
			Tool:        st.ColumnText(5),
			ActionType:  st.ColumnText(6),
			ArgsHash:    st.ColumnText(7),
			TxHash:      st.ColumnText(8),
			Status:      status,
			BlockReason: st.ColumnText(10),
			GasUsed:     uint64(st.ColumnInt64(11)),
			GasCostWei:  st.ColumnText(12),
			Verified:    st.ColumnBool(13),
			Expected:    st.ColumnText(14),
			Actual:      st.ColumnText(15),
			GroundTruth: st.ColumnText(16),
			Detail:      textBytes(st, 17),
			PrincipalID: st.ColumnText(18),
			ChainID:     uint64(st.ColumnInt64(19)),
		})
		return nil
	})
	return out, err
}

// FailedLookups counts the principal's lookup_failed records at or after
// since (the partial index action_log_lookup_failed serves it).
func (s *Store) FailedLookups(ctx context.Context, principalID string, since time.Time) (int, error) {
	var n int
	err := s.r.query(ctx, `SELECT count(*) FROM action_log WHERE kind = 'lookup_failed' AND principal_id = ? AND time_ns >= ?`,
		[]any{principalID, since.UnixNano()}, func(st *sqlite3.Stmt) error { n = st.ColumnInt(0); return nil })
	if err != nil {
		return 0, fmt.Errorf("sqlite: failed lookups: %w", err)
	}
	return n, nil
}

// CancelPermitRecorded durably cancels the pending permit id and appends
// rec, in one transaction under a savepoint: a refusal (ErrNotFound,
// ErrPermitNotPending) writes neither.
func (s *Store) CancelPermitRecorded(ctx context.Context, pid, by string, now time.Time, rec *store.ActionRecord) error {
	if rec == nil {
		return s.CancelPermit(ctx, pid, by, now)
	}
	if pid == "" {
		return fmt.Errorf("sqlite: cancel permit: empty id: %w", store.ErrNotFound)
	}
	ns, err := nanos("now", now)
	if err != nil {
		return fmt.Errorf("sqlite: cancel permit %s: %w", pid, err)
	}
	if err := checkAction(rec); err != nil {
		return fmt.Errorf("sqlite: cancel permit %s: record: %w", pid, err)
	}
	a := *rec
	a.Detail = slices.Clone(rec.Detail)
	err = s.do(ctx, func(tx *wtx) error {
		n, err := tx.exec(sqlPermitCancel, ns, nullable(by), pid)
		if err != nil {
			return err
		}
		if n == 0 {
			p, found, err := tx.w.readPermit(pid)
			switch {
			case err != nil:
				return err
			case !found:
				return answer(store.ErrNotFound)
			}
			return answer(store.PermitStatusErr(p.Status))
		}
		return tx.w.writeAction(&op{action: &a})
	})
	if err != nil {
		return fmt.Errorf("sqlite: cancel permit %s: %w", pid, err)
	}
	return nil
}

// bindChain binds a chain id, NULL for none.
func bindChain(st *sqlite3.Stmt, i int, id uint64) error {
	if id == 0 {
		return st.BindNull(i)
	}
	return st.BindInt64(i, int64(id))
}
