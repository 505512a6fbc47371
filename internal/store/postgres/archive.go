package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// schemaArchive is the manifest of audit archive files (store.AuditArchive),
// append-only, and the trust log's guard, which now lets a transaction
// delete the rows a manifest entry holds and nothing else.
const schemaArchive = `
CREATE TABLE audit_archives (
  seq bigserial UNIQUE,
  name text PRIMARY KEY,
  tbl text NOT NULL CHECK (tbl IN ('decisions', 'actions', 'trust')),
  rows bigint NOT NULL CHECK (rows > 0),
  from_ns bigint NOT NULL,
  to_ns bigint NOT NULL,
  sha256 text NOT NULL CHECK (length(sha256) = 64),
  first_seq bigint,
  last_seq bigint,
  last_hash bytea,
  created_ns bigint NOT NULL,
  CHECK ((tbl = 'trust') = (last_seq IS NOT NULL AND first_seq IS NOT NULL AND length(last_hash) = 32))
);
CREATE FUNCTION audit_archives_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_archives is append-only';
END $$;
CREATE TRIGGER audit_archives_guard BEFORE UPDATE OR DELETE ON audit_archives FOR EACH ROW EXECUTE FUNCTION audit_archives_guard();
CREATE OR REPLACE FUNCTION trust_log_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD.seq <= (SELECT coalesce(max(last_seq), 0) FROM audit_archives WHERE tbl = 'trust') THEN
    RETURN OLD;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'trust_log is append-only: rows cannot be changed, and only archived rows deleted';
  END IF;
  IF NEW.seq IS DISTINCT FROM (SELECT coalesce(max(seq), 0) + 1 FROM trust_log) THEN
    RAISE EXCEPTION 'trust_log is append-only: seq must follow the last row';
  END IF;
  RETURN NEW;
END $$;
`

// archivableAction is the condition on action_log (unaliased) that no
// decision reads the row: see store.AuditArchive.
const archivableAction = `kind NOT IN ('tool_call', 'upstream_tool_pinned', 'upstream_tool_changed', 'upstream_tool_approved')
  AND (permit_id IS NULL OR permit_id = '' OR (
    permit_id NOT IN (SELECT id FROM permits WHERE status = 'pending')
    AND permit_id NOT IN (SELECT permit_id FROM sent_txs WHERE state = 'in_flight')))`

const archiveColumns = `name, tbl, rows, from_ns, to_ns, sha256, first_seq, last_seq, last_hash, created_ns`

func archiveBound(before time.Time, limit int) (int64, error) {
	if limit <= 0 {
		return 0, fmt.Errorf("limit %d is not positive", limit)
	}
	return store.Nanos("before", before)
}

// ArchivableDecisions returns up to limit decisions made before before,
// oldest first.
func (s *Store) ArchivableDecisions(ctx context.Context, before time.Time, limit int) ([]store.DecisionRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	ns, err := archiveBound(before, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: archivable decisions: %w", err)
	}
	// The id bound walks the primary key (ids are time-ordered).
	out, err := s.queryDecisions(ctx, decisionSelect+` WHERE id < $1 AND created_ns < $2 ORDER BY id LIMIT $3`, []any{id.MinAt(before), ns, int64(limit)})
	if err != nil {
		return nil, fmt.Errorf("postgres: archivable decisions: %w", err)
	}
	return out, nil
}

// ArchivableActions returns up to limit action records from before before
// that no decision reads, oldest first.
func (s *Store) ArchivableActions(ctx context.Context, before time.Time, limit int) ([]store.ActionRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	ns, err := archiveBound(before, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: archivable actions: %w", err)
	}
	out, err := s.queryActions(ctx, `SELECT `+actionColumns+` FROM action_log WHERE time_ns < $1 AND `+archivableAction+
		` ORDER BY time_ns, id LIMIT $2`, []any{ns, int64(limit)})
	if err != nil {
		return nil, fmt.Errorf("postgres: archivable actions: %w", err)
	}
	return out, nil
}

// ArchivableTrust returns up to limit trust rows from the first live one
// on, in seq order, stopping before the first row at or after before and
// before the last row of the log.
func (s *Store) ArchivableTrust(ctx context.Context, before time.Time, limit int) ([]store.TrustRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	ns, err := archiveBound(before, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: archivable trust: %w", err)
	}
	var rows []store.TrustRecord
	err = s.trustPage(ctx, math.MinInt64, limit+1, func(r *store.TrustRecord, _ bool) { rows = append(rows, *r) })
	if err != nil {
		return nil, fmt.Errorf("postgres: archivable trust: %w", err)
	}
	return store.TrustPrefix(rows, ns, limit), nil
}

// CommitArchive records f in the manifest and deletes its rows in one
// transaction; if any of them is gone (or, for the trust log, the rows are
// not the oldest live ones), it returns store.ErrArchiveStale and changes
// nothing.
func (s *Store) CommitArchive(ctx context.Context, f *store.ArchiveFile, ids []string) error {
	if f == nil {
		return fmt.Errorf("postgres: commit archive: %w: nil archive", store.ErrInvalidRecord)
	}
	if err := store.CheckArchiveFile(f, ids); err != nil {
		return fmt.Errorf("postgres: commit archive: %w: %w", store.ErrInvalidRecord, err)
	}
	var ns [3]int64
	for i, t := range []time.Time{f.From, f.To, f.Created} {
		var err error
		if ns[i], err = store.Nanos("time", t); err != nil {
			return fmt.Errorf("postgres: commit archive: %w", err)
		}
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var first, last, hash any
		if f.Table == store.AuditTrust {
			if err := xlock(ctx, tx, lockTrust, "trust_log"); err != nil {
				return err
			}
			first, last, hash = f.FirstSeq, f.LastSeq, f.LastHash[:]
		}
		_, err := tx.Exec(ctx, `INSERT INTO audit_archives (`+archiveColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
			f.Name, string(f.Table), f.Rows, ns[0], ns[1], f.SHA256, first, last, hash, ns[2])
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "23505" {
			return fmt.Errorf("archive %s is already in the manifest: %w", f.Name, store.ErrArchiveStale)
		}
		if err != nil {
			return err
		}
		if f.Table == store.AuditTrust {
			var lo, hi int64
			if err := tx.QueryRow(ctx, `SELECT coalesce(min(seq), 0), coalesce(max(seq), 0) FROM trust_log`).Scan(&lo, &hi); err != nil {
				return err
			}
			if lo != f.FirstSeq || hi <= f.LastSeq {
				return fmt.Errorf("trust rows %d to %d are not a prefix of the live rows %d to %d: %w", f.FirstSeq, f.LastSeq, lo, hi, store.ErrArchiveStale)
			}
			var h []byte
			if err := tx.QueryRow(ctx, `SELECT hash FROM trust_log WHERE seq = $1`, f.LastSeq).Scan(&h); err != nil {
				return err
			}
			if !slices.Equal(h, f.LastHash[:]) {
				return fmt.Errorf("trust row %d's hash differs from the archive's: %w", f.LastSeq, store.ErrArchiveStale)
			}
			tag, err := tx.Exec(ctx, `DELETE FROM trust_log WHERE seq BETWEEN $1 AND $2`, f.FirstSeq, f.LastSeq)
			if err != nil {
				return err
			}
			if tag.RowsAffected() != f.Rows {
				return fmt.Errorf("trust rows %d to %d: %d live: %w", f.FirstSeq, f.LastSeq, tag.RowsAffected(), store.ErrArchiveStale)
			}
			return nil
		}
		del := `DELETE FROM policy_decisions WHERE id = ANY($1)`
		if f.Table == store.AuditActions {
			del = `DELETE FROM action_log WHERE id = ANY($1) AND ` + archivableAction
		}
		tag, err := tx.Exec(ctx, del, ids)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != f.Rows {
			return fmt.Errorf("%d of %d %s rows are live and archivable: %w", tag.RowsAffected(), f.Rows, f.Table, store.ErrArchiveStale)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: commit archive %s: %w", f.Name, err)
	}
	return nil
}

// ArchiveFiles returns the manifest in commit order.
func (s *Store) ArchiveFiles(ctx context.Context) ([]store.ArchiveFile, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+archiveColumns+` FROM audit_archives ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("postgres: archive files: %w", err)
	}
	defer rows.Close()
	var out []store.ArchiveFile
	for rows.Next() {
		var (
			f                 store.ArchiveFile
			tbl               string
			from, to, created int64
			first, last       *int64
			hash              []byte
		)
		if err := rows.Scan(&f.Name, &tbl, &f.Rows, &from, &to, &f.SHA256, &first, &last, &hash, &created); err != nil {
			return nil, fmt.Errorf("postgres: archive files: %w", err)
		}
		f.Table, f.From, f.To, f.Created = store.AuditTable(tbl), nsTime(from), nsTime(to), nsTime(created)
		if first != nil && last != nil {
			f.FirstSeq, f.LastSeq = *first, *last
		}
		copy(f.LastHash[:], hash)
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: archive files: %w", err)
	}
	return out, nil
}

// trustAnchor returns the last archived trust row's seq and hash, (0,
// zero) when nothing is archived: where the live log's chain starts.
func (s *Store) trustAnchor(ctx context.Context) (int64, [32]byte, error) {
	var seq int64
	var hash [32]byte
	var h []byte
	err := s.pool.QueryRow(ctx, `SELECT last_seq, last_hash FROM audit_archives WHERE tbl = 'trust' ORDER BY last_seq DESC LIMIT 1`).Scan(&seq, &h)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, hash, nil
	}
	copy(hash[:], h)
	return seq, hash, err
}
