package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wardhq/ward/internal/store"
)

// The trust log is one hash chain however many instances append to it:
// an append takes the transaction-scoped advisory lock lockTrust, reads
// the last row's seq and hash, and inserts the next row, all in one
// transaction, so that appenders in every process take turns in the
// database's commit order and the chain has no fork or gap. The table's
// trigger refuses anything but the next seq, and any update or delete.

const trustColumns = `seq, id, time_ns, kind, session_id, actor, target, detail, prev, hash`

// verifyPage is how many rows VerifyTrust reads per query.
const verifyPage = 1024

// AppendTrust durably appends a copy of rec and, once it is committed,
// sets rec's Seq, Prev and Hash. rec must pass store.CheckTrustRecord and
// hold no text PostgreSQL cannot store; an invalid record, or one whose id
// exists, is refused and nothing is written. A ctx that ends during the
// call may return ctx.Err() with the record appended; rec is then left as
// it was.
func (s *Store) AppendTrust(ctx context.Context, rec *store.TrustRecord) error {
	if err := s.ok(); err != nil {
		return err
	}
	if rec == nil {
		return errors.New("postgres: append trust: nil record")
	}
	if err := store.CheckTrustRecord(rec); err != nil {
		return fmt.Errorf("postgres: append trust: %w: %w", store.ErrInvalidRecord, err)
	}
	if err := storable(rec.ID, rec.SessionID, rec.Actor, rec.Target); err != nil {
		return fmt.Errorf("postgres: append trust: %w", err)
	}
	r := *rec
	r.Time = r.Time.UTC()
	var detail any
	if len(r.Detail) > 0 {
		detail = r.Detail
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockTrust, "trust_log"); err != nil {
			return err
		}
		var last int64
		var hash []byte
		err := tx.QueryRow(ctx, `SELECT seq, hash FROM trust_log ORDER BY seq DESC LIMIT 1`).Scan(&last, &hash)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			last, hash = 0, make([]byte, 32)
		case err != nil:
			return err
		case len(hash) != 32:
			// Chaining to a corrupt row would hide it.
			return fmt.Errorf("the last row, %d, has a %d-byte hash: run ward audit verify", last, len(hash))
		}
		r.Seq = last + 1
		copy(r.Prev[:], hash)
		r.Hash = store.TrustHash(&r)
		_, err = tx.Exec(ctx, `INSERT INTO trust_log (`+trustColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
			r.Seq, r.ID, r.Time.UnixNano(), string(r.Kind), r.SessionID, r.Actor, r.Target, detail, r.Prev[:], r.Hash[:])
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "trust_log_id_key" {
			return fmt.Errorf("trust record %s already exists: %w", r.ID, err)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: append trust: %w", err)
	}
	rec.Seq, rec.Prev, rec.Hash = r.Seq, r.Prev, r.Hash
	return nil
}

// TrustRecords returns up to limit rows (0: all) with seq at or after
// fromSeq, in seq order, as stored. A prev or hash that is not 32 bytes is
// returned truncated or zero-padded; VerifyTrust reports it.
func (s *Store) TrustRecords(ctx context.Context, fromSeq int64, limit int) ([]store.TrustRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	if limit < 0 {
		return nil, fmt.Errorf("postgres: trust records: negative limit %d", limit)
	}
	var out []store.TrustRecord
	err := s.trustPage(ctx, fromSeq, limit, func(r *store.TrustRecord, _ bool) { out = append(out, *r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: trust records: %w", err)
	}
	return out, nil
}

// trustPage calls row with each row from fromSeq on (limit 0: all) and
// whether its prev and hash are 32 bytes.
func (s *Store) trustPage(ctx context.Context, fromSeq int64, limit int, row func(r *store.TrustRecord, wellFormed bool)) error {
	q := `SELECT ` + trustColumns + ` FROM trust_log WHERE seq >= $1 ORDER BY seq`
	args := []any{fromSeq}
	if limit > 0 {
		q += ` LIMIT $2`
		args = append(args, int64(limit))
	}
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			r          store.TrustRecord
			ns         int64
			kind       string
			detail     []byte
			prev, hash []byte
		)
		if err := rows.Scan(&r.Seq, &r.ID, &ns, &kind, &r.SessionID, &r.Actor, &r.Target, &detail, &prev, &hash); err != nil {
			return err
		}
		r.Time, r.Kind = nsTime(ns), store.TrustKind(kind)
		if len(detail) > 0 {
			r.Detail = detail
		}
		copy(r.Prev[:], prev)
		copy(r.Hash[:], hash)
		row(&r, len(prev) == 32 && len(hash) == 32)
	}
	return rows.Err()
}

// VerifyTrust walks the live trust log in seq order, a page at a time,
// from the row after the last archived one (see store.AuditArchive), and
// reports the first row whose seq does not follow the previous one,
// whose prev is not the previous row's hash, or whose hash is not
// store.TrustHash of its contents. The log cannot tell that its last rows
// were removed: that needs a seq or hash kept elsewhere.
func (s *Store) VerifyTrust(ctx context.Context) (store.TrustVerify, error) {
	if err := s.ok(); err != nil {
		return store.TrustVerify{}, err
	}
	seq, hash, err := s.trustAnchor(ctx)
	if err != nil {
		return store.TrustVerify{}, fmt.Errorf("postgres: verify trust: archive manifest: %w", err)
	}
	v, err := store.VerifyTrustLogFrom(store.TrustChainAfter(seq, hash), verifyPage, func(from int64, row func(*store.TrustRecord, bool)) (int, error) {
		n := 0
		err := s.trustPage(ctx, from, verifyPage, func(r *store.TrustRecord, wellFormed bool) { n++; row(r, wellFormed) })
		return n, err
	}, func() (total int64, err error) {
		err = s.pool.QueryRow(ctx, `SELECT count(*) FROM trust_log`).Scan(&total)
		return total, err
	})
	if err != nil {
		return store.TrustVerify{}, fmt.Errorf("postgres: verify trust: %w", err)
	}
	return v, nil
}
