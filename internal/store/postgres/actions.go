package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/store"
)

const actionColumns = `id, time_ns, kind, permit_id, session_id, tool, action_type, args_hash, tx_hash, status, block_reason, gas_used, gas_cost_wei, verified, expected, actual, ground_truth, detail, principal_id, chain_id`

// insertAction writes rec on q (the pool, or the transaction of the change
// the record belongs to). The caller has validated rec.
func insertAction(ctx context.Context, q querier, rec *store.ActionRecord) error {
	var detail any
	if len(rec.Detail) > 0 {
		detail = rec.Detail
	}
	_, err := q.Exec(ctx, `INSERT INTO action_log (`+actionColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20)`,
		rec.ID, rec.Time.UnixNano(), rec.Kind.String(), null(rec.PermitID), null(rec.SessionID), null(rec.Tool),
		null(rec.ActionType), null(rec.ArgsHash), null(rec.TxHash), rec.Status.String(), null(rec.BlockReason),
		int64(rec.GasUsed), null(rec.GasCostWei), rec.Verified, null(rec.Expected), null(rec.Actual),
		null(rec.GroundTruth), detail, null(rec.PrincipalID), int64(rec.ChainID))
	return err
}

// AppendAction durably writes rec.
func (s *Store) AppendAction(ctx context.Context, rec *store.ActionRecord) error {
	if err := s.ok(); err != nil {
		return err
	}
	if rec == nil {
		return errors.New("postgres: append action: nil record")
	}
	if err := rec.Validate(); err != nil {
		return fmt.Errorf("postgres: append action: %w", err)
	}
	if err := insertAction(ctx, s.pool, rec); err != nil {
		return fmt.Errorf("postgres: append action: %w", err)
	}
	return nil
}

// Actions returns matching records, oldest first.
func (s *Store) Actions(ctx context.Context, f store.ActionFilter) ([]store.ActionRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	if f.Limit < 0 {
		return nil, fmt.Errorf("postgres: actions: negative limit %d", f.Limit)
	}
	var conds []string
	var args []any
	arg := func(v any) string { args = append(args, v); return "$" + strconv.Itoa(len(args)) }
	eq := func(col, v string) {
		if v != "" {
			conds = append(conds, col+" = "+arg(v))
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
	case f.Since.IsZero() || f.Since.Before(store.MinTime):
	case f.Since.After(store.MaxTime):
		conds = append(conds, "false")
	default:
		conds = append(conds, "time_ns >= "+arg(f.Since.UnixNano()))
	}
	switch {
	case f.Until.IsZero() || f.Until.After(store.MaxTime):
	case f.Until.Before(store.MinTime):
		conds = append(conds, "false")
	default:
		conds = append(conds, "time_ns < "+arg(f.Until.UnixNano()))
	}
	q := `SELECT ` + actionColumns + ` FROM action_log`
	if len(conds) > 0 {
		q += ` WHERE ` + strings.Join(conds, " AND ")
	}
	q += ` ORDER BY time_ns, id`
	if f.Limit > 0 {
		q += ` LIMIT ` + arg(int64(f.Limit))
	}
	out, err := s.queryActions(ctx, q, args)
	if err != nil {
		return nil, fmt.Errorf("postgres: actions: %w", err)
	}
	return out, nil
}

// queryActions runs q, which selects actionColumns, and scans its rows.
func (s *Store) queryActions(ctx context.Context, q string, args []any) ([]store.ActionRecord, error) {
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []store.ActionRecord
	for rows.Next() {
		var (
			r                                                     store.ActionRecord
			ns, gas, chain                                        int64
			kind, status                                          string
			permit, session, tool, typ, argsHash, tx, block, cost *string
			expected, actual, truth, principal                    *string
			detail                                                []byte
		)
		if err := rows.Scan(&r.ID, &ns, &kind, &permit, &session, &tool, &typ, &argsHash, &tx, &status, &block,
			&gas, &cost, &r.Verified, &expected, &actual, &truth, &detail, &principal, &chain); err != nil {
			return nil, err
		}
		if r.Kind, err = store.ParseActionKind(kind); err != nil {
			return nil, err
		}
		if r.Status, err = store.ParseActionStatus(status); err != nil {
			return nil, err
		}
		r.Time = nsTime(ns)
		r.PermitID, r.SessionID, r.Tool, r.ActionType = text(permit), text(session), text(tool), text(typ)
		r.ArgsHash, r.TxHash, r.BlockReason, r.GasCostWei = text(argsHash), text(tx), text(block), text(cost)
		r.Expected, r.Actual, r.GroundTruth, r.PrincipalID = text(expected), text(actual), text(truth), text(principal)
		r.GasUsed, r.ChainID = uint64(gas), uint64(chain)
		r.Detail = slices.Clip(detail)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// FailedLookups counts the principal's lookup_failed records at or after
// since.
func (s *Store) FailedLookups(ctx context.Context, principalID string, since time.Time) (int, error) {
	if err := s.ok(); err != nil {
		return 0, err
	}
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(*) FROM action_log WHERE kind = 'lookup_failed' AND principal_id = $1 AND time_ns >= $2`,
		principalID, since.UnixNano()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("postgres: failed lookups: %w", err)
	}
	return n, nil
}
