package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

func TestAuditVerify(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "ward.db")
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for i, kind := range []store.TrustKind{store.TrustTaintAssigned, store.TrustReviewVerdict, store.TrustPromotion} {
		at := at.Add(time.Duration(i) * time.Second)
		if err := s.AppendTrust(t.Context(), &store.TrustRecord{ID: id.New(at), Time: at, Kind: kind, Target: "memory/1"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	type result struct {
		Rows     int64  `json:"rows"`
		OK       bool   `json:"ok"`
		FirstBad int64  `json:"first_bad"`
		Reason   string `json:"reason"`
	}
	check := func(wantCode int, wantText string, want result) {
		t.Helper()
		out, errOut, code := run(t, "", "audit", "verify", "--db", db)
		if code != wantCode || out != wantText {
			t.Errorf("audit verify: exit %d, output %q (stderr %q); want exit %d, %q", code, out, errOut, wantCode, wantText)
		}
		out, errOut, code = run(t, "", "audit", "verify", "--db", db, "--json")
		var got result
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != wantCode {
			t.Fatalf("audit verify --json: exit %d, %q (stderr %q): %v", code, out, errOut, err)
		}
		if got.Reason != "" && want.Reason != "" && strings.Contains(got.Reason, want.Reason) {
			got.Reason = want.Reason
		}
		if got != want {
			t.Errorf("audit verify --json = %+v, want %+v", got, want)
		}
	}
	check(exitOK, "trust log: 3 rows, chain intact\n", result{Rows: 3, OK: true})

	c, err := sqlite3.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Exec(`DROP TRIGGER trust_log_no_update; UPDATE trust_log SET kind = 'promotion' WHERE seq = 2;`)
	if cerr := c.Close(); err != nil || cerr != nil {
		t.Fatalf("tamper: %v, %v", err, cerr)
	}
	check(exitFail, "trust log: row 2 is bad: hash does not match the row's contents\n",
		result{Rows: 3, FirstBad: 2, Reason: "hash does not match"})
}
