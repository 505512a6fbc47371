package sqlite_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// TestArchiveTriggers: with rows 1 and 2 archived, the database itself
// still refuses deleting any live trust row and changing the manifest.
func TestArchiveTriggers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var recs []*store.TrustRecord
	for i := range 4 {
		r := &store.TrustRecord{ID: id.New(at), Time: at.Add(time.Duration(i) * time.Second), Kind: store.TrustAccessDenied, Target: "t"}
		if err := s.AppendTrust(t.Context(), r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	f := &store.ArchiveFile{Name: "trust-1-2.jsonl.gz", Table: store.AuditTrust, Rows: 2, From: recs[0].Time, To: recs[1].Time,
		SHA256: strings.Repeat("0", 64), FirstSeq: 1, LastSeq: 2, LastHash: recs[1].Hash, Created: at}
	if err := s.CommitArchive(t.Context(), f, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{
		`DELETE FROM trust_log WHERE seq = 3`,
		`DELETE FROM audit_archives`,
		`UPDATE audit_archives SET last_seq = 3`,
	} {
		if err := c.Exec(q); err == nil {
			t.Errorf("%s succeeded", q)
		}
	}
}
