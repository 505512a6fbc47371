package store

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// AuditTable names a part of the audit trail that retention moves to
// archive files: the decisions, the action log and the trust log.
type AuditTable string

// The archived tables.
const (
	AuditDecisions AuditTable = "decisions"
	AuditActions   AuditTable = "actions"
	AuditTrust     AuditTable = "trust"
)

// AuditTables lists the archived tables, in the order a pass archives them.
func AuditTables() []AuditTable { return []AuditTable{AuditDecisions, AuditActions, AuditTrust} }

// Valid reports whether t is one of the archived tables.
func (t AuditTable) Valid() bool {
	return t == AuditDecisions || t == AuditActions || t == AuditTrust
}

// ArchiveFile is the manifest entry of one archive file: what the store
// recorded, in the transaction that deleted the rows, about the file that
// holds them. For the trust log, FirstSeq..LastSeq are the rows it holds
// and LastHash the hash of row LastSeq, to which the first live row links.
type ArchiveFile struct {
	Name     string // base name in the archive directory
	Table    AuditTable
	Rows     int64
	From, To time.Time // the oldest and newest row's time
	SHA256   string    // lower-case hex of the file's bytes
	FirstSeq int64     // trust only
	LastSeq  int64     // trust only
	LastHash [32]byte  // trust only
	Created  time.Time // when the pass committed it
}

// ErrArchiveStale is returned by CommitArchive when a row the file holds
// is no longer live (another pass archived it) or, for the trust log, when
// the rows are not the oldest live ones: nothing was changed, and the file
// is not in the manifest.
var ErrArchiveStale = errors.New("archive rows are no longer the live ones")

// AuditArchive moves old audit rows out of the live tables. A pass reads
// the rows a retention cut-off lets go, writes and syncs them to a file,
// then calls CommitArchive, which records the file in the manifest and
// deletes its rows in one transaction: a crash between the two leaves the
// rows live and the file unlisted, and a rerun archives them again.
//
// Rows that a decision still reads are never offered: action records of a
// pending permit or of a transaction in flight, the upstream pinning and
// approval records the tool pins are checked against, and tool_call
// records (causal rollback attributes returns to them over up to 1,000
// days). The newest trust row always stays live, so that the chain's tail
// is in the table appends link to. Executions and the spend ledger, which
// rate and spend windows count, are not archived at all.
type AuditArchive interface {
	// ArchivableDecisions returns up to limit decisions made before
	// before, oldest (smallest id) first. Backends seek by id (ids are
	// time-ordered), so a decision whose id was made after its Time (the
	// clock stepped back) is offered once its id's time is before before.
	ArchivableDecisions(ctx context.Context, before time.Time, limit int) ([]DecisionRecord, error)
	// ArchivableActions returns up to limit action records from before
	// before that no decision reads, oldest first.
	ArchivableActions(ctx context.Context, before time.Time, limit int) ([]ActionRecord, error)
	// ArchivableTrust returns up to limit trust rows from before before,
	// in seq order from the first live row, stopping at the first row
	// that is newer or is the last row of the log.
	ArchivableTrust(ctx context.Context, before time.Time, limit int) ([]TrustRecord, error)
	// CommitArchive records f in the manifest and deletes f's rows (ids
	// for decisions and actions; seqs FirstSeq..LastSeq for the trust
	// log) in one durable transaction, or returns ErrArchiveStale and
	// changes nothing.
	CommitArchive(ctx context.Context, f *ArchiveFile, ids []string) error
	// ArchiveFiles returns the manifest in commit order.
	ArchiveFiles(ctx context.Context) ([]ArchiveFile, error)
}

// Match reports whether f selects r, as QueryDecisions does (f.Limit is
// not applied).
func (f *DecisionFilter) Match(r *DecisionRecord) bool {
	switch {
	case f.Tool != "" && r.Tool != f.Tool,
		f.Decision != 0 && r.Decision != f.Decision,
		f.Reason != "" && r.Reason != f.Reason,
		f.SessionID != "" && r.SessionID != f.SessionID,
		f.TurnID != "" && r.TurnID != f.TurnID,
		f.Origin != 0 && r.Origin != f.Origin,
		!f.Since.IsZero() && r.Time.Before(f.Since),
		!f.Until.IsZero() && !r.Time.Before(f.Until):
		return false
	}
	return true
}

// TrustPrefix cuts rows, read in seq order from the first live row with a
// limit of limit+1, to what ArchivableTrust returns: the rows before the
// first one at or after ns (Unix nanoseconds), at most limit, and never
// the log's last row (when rows holds limit rows or fewer, the last one is
// the log's).
func TrustPrefix(rows []TrustRecord, ns int64, limit int) []TrustRecord {
	end := len(rows)
	if end <= limit {
		end-- // the log's last row stays live
	} else {
		end = limit
	}
	for i := range max(end, 0) {
		if rows[i].Time.UnixNano() >= ns {
			return rows[:i]
		}
	}
	return rows[:max(end, 0)]
}

// CheckArchiveFile returns why f cannot be committed with ids, or nil: a
// plain file name, a table of AuditTables, a positive row count that is
// len(ids) (for the trust log, the seq range's length, ids unused), From
// not after To, a SHA-256 in lower-case hex, and for the trust log a seq
// range from 1 on.
func CheckArchiveFile(f *ArchiveFile, ids []string) error {
	switch {
	case f.Name == "" || f.Name != filepath.Base(f.Name) || strings.HasPrefix(f.Name, "."):
		return fmt.Errorf("archive name %q is not a plain file name", f.Name)
	case !f.Table.Valid():
		return fmt.Errorf("table %.32q is not archived", string(f.Table))
	case f.Rows <= 0:
		return fmt.Errorf("archive %s has %d rows", f.Name, f.Rows)
	case f.From.After(f.To):
		return fmt.Errorf("archive %s: from %v is after to %v", f.Name, f.From, f.To)
	case len(f.SHA256) != 64 || strings.ToLower(f.SHA256) != f.SHA256:
		return fmt.Errorf("archive %s: sha256 %q is not 64 lower-case hex digits", f.Name, f.SHA256)
	}
	if _, err := hex.DecodeString(f.SHA256); err != nil {
		return fmt.Errorf("archive %s: sha256: %w", f.Name, err)
	}
	if f.Table == AuditTrust {
		if f.FirstSeq < 1 || f.LastSeq < f.FirstSeq || f.Rows != f.LastSeq-f.FirstSeq+1 {
			return fmt.Errorf("archive %s: trust seqs %d to %d do not make %d rows", f.Name, f.FirstSeq, f.LastSeq, f.Rows)
		}
		return nil
	}
	if int64(len(ids)) != f.Rows {
		return fmt.Errorf("archive %s: %d ids for %d rows", f.Name, len(ids), f.Rows)
	}
	return nil
}
