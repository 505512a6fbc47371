package sqlite_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// trustLog makes a database at a fresh path holding n chained trust
// records and returns the path, the store closed.
func trustLog(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ward.db")
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: path})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	base := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i := range n {
		at := base.Add(time.Duration(i) * time.Second)
		r := &store.TrustRecord{ID: id.New(at), Time: at, Kind: store.TrustTaintAssigned, SessionID: "sess-a",
			Actor: "quarantine", Target: fmt.Sprintf("memory/%d", i), Detail: []byte(`{"label":"untrusted"}`)}
		if err := s.AppendTrust(t.Context(), r); err != nil {
			t.Fatalf("AppendTrust: %v", err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return path
}

func verify(t *testing.T, path string) store.TrustVerify {
	t.Helper()
	s := openStore(t, sqlite.Config{Path: path})
	v, err := s.VerifyTrust(t.Context())
	if err != nil {
		t.Fatalf("VerifyTrust: %v", err)
	}
	return v
}

func mustExec(t *testing.T, c *sqlite3.Conn, sql string) {
	t.Helper()
	if err := c.Exec(sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func TestTrustTriggersRefuseChanges(t *testing.T) {
	path := trustLog(t, 3)
	c := rawConn(t, path)
	for _, sql := range []string{
		`UPDATE trust_log SET actor = 'mallory' WHERE seq = 2`,
		`DELETE FROM trust_log WHERE seq = 3`,
		`DELETE FROM trust_log`,
		`INSERT OR REPLACE INTO trust_log SELECT * FROM trust_log WHERE seq = 2`,
		`INSERT INTO trust_log (seq, id, time_ns, kind, session_id, actor, target, prev, hash) VALUES (7, 'x', 1, 'promotion', '', '', '', x'00', x'00')`,
	} {
		if err := c.Exec(sql); err == nil {
			t.Errorf("%s: accepted while the triggers are in place", sql)
		}
	}
	if v := verify(t, path); !v.OK || v.Rows != 3 {
		t.Errorf("VerifyTrust = %+v, want 3 rows intact", v)
	}
}

// TestTrustVerifyFindsTampering changes the log behind the store's back,
// with the triggers dropped, as an attacker with the file could.
func TestTrustVerifyFindsTampering(t *testing.T) {
	const n = 8
	tests := []struct {
		name      string
		tamper    func(t *testing.T, c *sqlite3.Conn)
		bad       int64
		rows      int64
		reasonHas string
	}{
		{"modified field", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `UPDATE trust_log SET actor = 'mallory' WHERE seq = 4`)
		}, 4, n, "hash does not match"},
		{"modified time", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `UPDATE trust_log SET time_ns = time_ns + 1 WHERE seq = 5`)
		}, 5, n, "hash does not match"},
		{"modified detail", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `UPDATE trust_log SET detail = '{"label":"trusted"}' WHERE seq = 2`)
		}, 2, n, "hash does not match"},
		{"deleted row", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `DELETE FROM trust_log WHERE seq = 4`)
		}, 4, n - 1, "row 4 is missing"},
		{"deleted first row", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `DELETE FROM trust_log WHERE seq = 1`)
		}, 1, n - 1, "row 1 is missing"},
		{"deleted rows", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `DELETE FROM trust_log WHERE seq IN (3, 4, 5)`)
		}, 3, n - 3, "rows 3 to 5 are missing"},
		{"swapped rows", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `CREATE TEMP TABLE swap AS SELECT * FROM trust_log WHERE seq IN (3, 6);
DELETE FROM trust_log WHERE seq IN (3, 6);
INSERT INTO trust_log SELECT CASE seq WHEN 3 THEN 6 ELSE 3 END, id, time_ns, kind, session_id, actor, target, detail, prev, hash FROM swap;`)
		}, 3, n, "prev does not match the hash of row 2"},
		{"row rehashed, next prev not", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `UPDATE trust_log SET actor = 'mallory' WHERE seq = 4`)
			s := rawRecord(t, c, 4)
			h := store.TrustHash(&s)
			st, _, err := c.Prepare(`UPDATE trust_log SET hash = ? WHERE seq = 4`)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if err := firstErr(st.BindBlob(1, h[:]), st.Exec()); err != nil {
				t.Fatal(err)
			}
		}, 5, n, "prev does not match the hash of row 4"},
		{"first prev not zero", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `UPDATE trust_log SET prev = zeroblob(31) || x'01' WHERE seq = 1`)
		}, 1, n, "prev of row 1"},
		{"short hash", func(t *testing.T, c *sqlite3.Conn) {
			mustExec(t, c, `UPDATE trust_log SET hash = x'00' WHERE seq = 6`)
		}, 6, n, "not 32 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := trustLog(t, n)
			c := rawConn(t, path)
			mustExec(t, c, `DROP TRIGGER trust_log_append; DROP TRIGGER trust_log_no_update; DROP TRIGGER trust_log_no_delete;`)
			tt.tamper(t, c)
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			v := verify(t, path)
			if v.OK || v.FirstBad != tt.bad || v.Rows != tt.rows || !strings.Contains(v.Reason, tt.reasonHas) {
				t.Errorf("VerifyTrust = %+v, want row %d bad of %d rows, reason with %q", v, tt.bad, tt.rows, tt.reasonHas)
			}
		})
	}
}

// rawRecord reads row seq with c, as TrustHash needs it.
func rawRecord(t *testing.T, c *sqlite3.Conn, seq int64) store.TrustRecord {
	t.Helper()
	st, _, err := c.Prepare(`SELECT seq, id, time_ns, kind, session_id, actor, target, detail, prev FROM trust_log WHERE seq = ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.BindInt64(1, seq); err != nil {
		t.Fatal(err)
	}
	if !st.Step() {
		t.Fatalf("row %d: %v", seq, st.Err())
	}
	r := store.TrustRecord{Seq: st.ColumnInt64(0), ID: st.ColumnText(1), Time: time.Unix(0, st.ColumnInt64(2)),
		Kind: store.TrustKind(st.ColumnText(3)), SessionID: st.ColumnText(4), Actor: st.ColumnText(5), Target: st.ColumnText(6),
		Detail: []byte(st.ColumnText(7))}
	copy(r.Prev[:], st.ColumnRawBlob(8))
	return r
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestTrustAppendAfterReopen continues the chain of a reopened store.
func TestTrustAppendAfterReopen(t *testing.T) {
	path := trustLog(t, 4)
	s := openStore(t, sqlite.Config{Path: path})
	at := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	r := &store.TrustRecord{ID: id.New(at), Time: at, Kind: store.TrustDecryptionGrant}
	if err := s.AppendTrust(t.Context(), r); err != nil {
		t.Fatalf("AppendTrust: %v", err)
	}
	if r.Seq != 5 {
		t.Errorf("Seq = %d after reopen, want 5", r.Seq)
	}
	v, err := s.VerifyTrust(t.Context())
	if err != nil || !v.OK || v.Rows != 5 {
		t.Errorf("VerifyTrust = %+v, %v; want 5 rows intact", v, err)
	}
}

// TestTrustAppendRefusesMalformedTail does not chain to a last row whose
// hash is not 32 bytes, which would hide it.
func TestTrustAppendRefusesMalformedTail(t *testing.T) {
	path := trustLog(t, 2)
	c := rawConn(t, path)
	mustExec(t, c, `DROP TRIGGER trust_log_no_update; UPDATE trust_log SET hash = x'01' WHERE seq = 2`)
	s := openStore(t, sqlite.Config{Path: path})
	at := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	if err := s.AppendTrust(t.Context(), &store.TrustRecord{ID: id.New(at), Time: at, Kind: store.TrustPromotion}); err == nil {
		t.Error("AppendTrust chained to a malformed last row")
	}
	if got, err := s.TrustRecords(t.Context(), 1, 0); err != nil || len(got) != 2 {
		t.Errorf("TrustRecords = %d rows, %v; want the 2 rows", len(got), err)
	}
}
