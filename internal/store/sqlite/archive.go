package sqlite

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// archivableAction is the condition on action_log (unaliased) that no
// decision reads the row: see store.AuditArchive.
const archivableAction = `kind NOT IN ('tool_call', 'upstream_tool_pinned', 'upstream_tool_changed', 'upstream_tool_approved')
  AND (permit_id IS NULL OR permit_id = '' OR (
    permit_id NOT IN (SELECT id FROM permits WHERE status = 'pending')
    AND permit_id NOT IN (SELECT permit_id FROM sent_txs WHERE state = 'in_flight')))`

const archiveColumns = `name, tbl, rows, from_ns, to_ns, sha256, first_seq, last_seq, last_hash, created_ns`

// ArchivableDecisions returns up to limit decisions made before before,
// oldest (smallest id) first.
func (s *Store) ArchivableDecisions(ctx context.Context, before time.Time, limit int) ([]store.DecisionRecord, error) {
	ns, err := archiveBound(before, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: archivable decisions: %w", err)
	}
	var out []store.DecisionRecord
	// The id bound lets SQLite walk the primary key (ids are time-ordered)
	// instead of scanning the table for created_ns.
	err = s.r.query(ctx, selectDecisions+` WHERE d.id < ? AND d.created_ns < ? ORDER BY d.id LIMIT ?`, []any{id.MinAt(before), ns, int64(limit)},
		func(st *sqlite3.Stmt) error {
			rec, err := scanDecision(st)
			out = append(out, rec)
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("sqlite: archivable decisions: %w", err)
	}
	return out, nil
}

// ArchivableActions returns up to limit action records from before before
// that no decision reads, oldest first.
func (s *Store) ArchivableActions(ctx context.Context, before time.Time, limit int) ([]store.ActionRecord, error) {
	ns, err := archiveBound(before, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: archivable actions: %w", err)
	}
	out, err := s.queryActions(ctx, `SELECT `+actionColumns+` FROM action_log WHERE time_ns < ? AND `+archivableAction+
		` ORDER BY time_ns, id LIMIT ?`, []any{ns, int64(limit)})
	if err != nil {
		return nil, fmt.Errorf("sqlite: archivable actions: %w", err)
	}
	return out, nil
}

// ArchivableTrust returns up to limit trust rows from the first live one
// on, in seq order, stopping before the first row at or after before and
// before the last row of the log.
func (s *Store) ArchivableTrust(ctx context.Context, before time.Time, limit int) ([]store.TrustRecord, error) {
	ns, err := archiveBound(before, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: archivable trust: %w", err)
	}
	rows, _, err := s.trustPage(ctx, math.MinInt64, limit+1, nil)
	if err != nil {
		return nil, fmt.Errorf("sqlite: archivable trust: %w", err)
	}
	return store.TrustPrefix(rows, ns, limit), nil
}

func archiveBound(before time.Time, limit int) (int64, error) {
	if limit <= 0 {
		return 0, fmt.Errorf("limit %d is not positive", limit)
	}
	return nanos("before", before)
}

// CommitArchive records f in the manifest and deletes its rows in one
// durable transaction; if any of them is gone (or, for the trust log, the
// rows are not the oldest live ones, each present), it returns
// store.ErrArchiveStale and changes nothing.
func (s *Store) CommitArchive(ctx context.Context, f *store.ArchiveFile, ids []string) error {
	if err := checkArchive(f, ids); err != nil {
		return fmt.Errorf("sqlite: commit archive: %w", err)
	}
	from, err := nanos("from", f.From)
	if err != nil {
		return fmt.Errorf("sqlite: commit archive: %w", err)
	}
	to, err := nanos("to", f.To)
	if err != nil {
		return fmt.Errorf("sqlite: commit archive: %w", err)
	}
	created, err := nanos("created", f.Created)
	if err != nil {
		return fmt.Errorf("sqlite: commit archive: %w", err)
	}
	ids = slices.Clone(ids)
	err = s.do(ctx, func(tx *wtx) error {
		if err := manifestArchive(tx, f, from, to, created); err != nil {
			return err
		}
		if f.Table == store.AuditTrust {
			return deleteArchivedTrust(tx, f)
		}
		return deleteArchivedRows(tx, f, ids)
	})
	if err != nil {
		return fmt.Errorf("sqlite: commit archive %s: %w", f.Name, err)
	}
	return nil
}

// manifestArchive records f in the manifest; a file already in it is
// stale.
func manifestArchive(tx *wtx, f *store.ArchiveFile, from, to, created int64) error {
	var first, last, hash any
	if f.Table == store.AuditTrust {
		first, last, hash = f.FirstSeq, f.LastSeq, slices.Clone(f.LastHash[:])
	}
	if _, err := tx.exec(`INSERT INTO audit_archives (`+archiveColumns+`) VALUES (?,?,?,?,?,?,?,?,?,?)`,
		f.Name, string(f.Table), f.Rows, from, to, f.SHA256, first, last, hash, created); err != nil {
		if isConstraint(err) {
			return answer(fmt.Errorf("archive %s is already in the manifest: %w", f.Name, store.ErrArchiveStale))
		}
		return err
	}
	return nil
}

// deleteArchivedTrust deletes the trust log rows f archives: they must be
// the oldest live ones, each present, not the whole log, and end at the
// hash f names; else the archive is stale.
func deleteArchivedTrust(tx *wtx, f *store.ArchiveFile) error {
	min, err := tx.int64(`SELECT COALESCE(MIN(seq), 0) FROM trust_log`)
	if err != nil {
		return err
	}
	if min != f.FirstSeq {
		return answer(fmt.Errorf("trust rows %d to %d: the first live row is %d: %w", f.FirstSeq, f.LastSeq, min, store.ErrArchiveStale))
	}
	tail, err := tx.int64(`SELECT COALESCE(MAX(seq), 0) FROM trust_log`)
	if err != nil {
		return err
	}
	if tail <= f.LastSeq {
		return answer(fmt.Errorf("trust rows %d to %d would leave the log empty: %w", f.FirstSeq, f.LastSeq, store.ErrArchiveStale))
	}
	var h []byte
	if _, err := tx.one(`SELECT hash FROM trust_log WHERE seq = ?`, []any{f.LastSeq}, func(st *sqlite3.Stmt) error {
		h = slices.Clone(st.ColumnRawBlob(0))
		return nil
	}); err != nil {
		return err
	}
	if !slices.Equal(h, f.LastHash[:]) {
		return answer(fmt.Errorf("trust row %d's hash differs from the archive's: %w", f.LastSeq, store.ErrArchiveStale))
	}
	n, err := tx.exec(`DELETE FROM trust_log WHERE seq BETWEEN ? AND ?`, f.FirstSeq, f.LastSeq)
	if err != nil {
		return err
	}
	if n != f.LastSeq-f.FirstSeq+1 {
		return answer(fmt.Errorf("trust rows %d to %d: %d live: %w", f.FirstSeq, f.LastSeq, n, store.ErrArchiveStale))
	}
	return nil
}

// deleteArchivedRows deletes the decision or action rows ids that f
// archives; a row no longer live (or, for actions, no longer archivable)
// makes the archive stale.
func deleteArchivedRows(tx *wtx, f *store.ArchiveFile, ids []string) error {
	del := `DELETE FROM decision_log WHERE id = ?`
	if f.Table == store.AuditActions {
		del = `DELETE FROM action_log WHERE id = ? AND ` + archivableAction
	}
	for _, id := range ids {
		n, err := tx.exec(del, id)
		if err != nil {
			return err
		}
		if n != 1 {
			return answer(fmt.Errorf("%s row %s is not live or no longer archivable: %w", f.Table, id, store.ErrArchiveStale))
		}
	}
	return nil
}

// checkArchive returns why f cannot be committed with ids, or nil.
func checkArchive(f *store.ArchiveFile, ids []string) error {
	if f == nil {
		return fmt.Errorf("%w: nil archive", errInvalid)
	}
	if err := store.CheckArchiveFile(f, ids); err != nil {
		return fmt.Errorf("%w: %w", errInvalid, err)
	}
	return nil
}

// ArchiveFiles returns the manifest in commit order.
func (s *Store) ArchiveFiles(ctx context.Context) ([]store.ArchiveFile, error) {
	var out []store.ArchiveFile
	err := s.r.query(ctx, `SELECT `+archiveColumns+` FROM audit_archives ORDER BY rowid`, nil, func(st *sqlite3.Stmt) error {
		f := store.ArchiveFile{
			Name:     st.ColumnText(0),
			Table:    store.AuditTable(st.ColumnText(1)),
			Rows:     st.ColumnInt64(2),
			From:     nsTime(st, 3),
			To:       nsTime(st, 4),
			SHA256:   st.ColumnText(5),
			FirstSeq: st.ColumnInt64(6),
			LastSeq:  st.ColumnInt64(7),
			Created:  nsTime(st, 9),
		}
		copy(f.LastHash[:], st.ColumnRawBlob(8))
		out = append(out, f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: archive files: %w", err)
	}
	return out, nil
}

// trustAnchor returns the last archived trust row's seq and hash, (0, zero)
// when nothing is archived: where the live log's chain starts.
func (s *Store) trustAnchor(ctx context.Context) (int64, [32]byte, error) {
	var seq int64
	var hash [32]byte
	err := s.r.query(ctx, `SELECT last_seq, last_hash FROM audit_archives WHERE tbl = 'trust' ORDER BY last_seq DESC LIMIT 1`, nil,
		func(st *sqlite3.Stmt) error {
			seq = st.ColumnInt64(0)
			copy(hash[:], st.ColumnRawBlob(1))
			return nil
		})
	return seq, hash, err
}
