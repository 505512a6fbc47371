package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/store/storetest"
)

func TestAuditArchive(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "ward.db")
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range 12 {
		at := now.Add(-time.Duration(72-6*i) * time.Hour) // 72h ago to 6h ago
		// An id of the record's time: id.New follows the latest time the
		// test process used.
		d := &store.DecisionRecord{ID: storetest.TimeID(at, i), Time: at, Tool: "wallet_send_token", Risk: "dangerous",
			Decision: store.VerdictDeny, Reason: "LIMIT", Origin: store.OriginGate}
		if err := s.AppendDecision(t.Context(), d, true); err != nil {
			t.Fatal(err)
		}
		if err := s.AppendTrust(t.Context(), &store.TrustRecord{ID: id.New(at), Time: at, Kind: store.TrustAccessDenied, Target: "memory/1"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	lines := func(s string) int { return strings.Count(s, "\n") }

	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no retention", nil, "no retention"},
		{"too short", []string{"--retain", "30m"}, "shorter than 1h0m0s"},
		{"not a duration", []string{"--retain", "a month"}, "neither a duration"},
	} {
		_, errOut, code := run(t, "", append([]string{"audit", "archive", "--db", db}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, %q; want exit %d saying %q", c.name, code, errOut, exitUsage, c.want)
		}
	}
	out, errOut, code := run(t, "", "audit", "archive", "--db", db, "--retain", "1d")
	if code != exitOK || !strings.Contains(out, "archived 9 decisions, 0 action records and 9 trust rows") {
		t.Fatalf("audit archive: exit %d, %q (stderr %q)", code, out, errOut)
	}
	if out, _, _ := run(t, "", "audit", "query", "--db", db, "--json"); lines(out) != 3 {
		t.Errorf("audit query: %d decisions, want the 3 of the last day", lines(out))
	}
	if out, errOut, code := run(t, "", "audit", "query", "--db", db, "--json", "--archive"); code != exitOK || lines(out) != 12 {
		t.Errorf("audit query --archive: exit %d, %d decisions (stderr %q), want all 12", code, lines(out), errOut)
	}
	if out, _, _ := run(t, "", "audit", "query", "--db", db, "--archive", "--since", "50h", "--json"); lines(out) != 8 {
		t.Errorf("audit query --archive --since 50h: %d decisions, want 8", lines(out))
	}
	if out, errOut, code := run(t, "", "audit", "query", "--db", db, "--archive", "--report", "most-denied-tools"); code != exitOK || out != "TOOL               COUNT\nwallet_send_token  12\n" {
		t.Errorf("audit query --archive --report: exit %d, %q (stderr %q), want all 12 denials", code, out, errOut)
	}
	out, errOut, code = run(t, "", "audit", "verify", "--db", db)
	if code != exitOK || out != "trust log: 12 rows (9 archived), chain intact; 2 archive files intact\n" {
		t.Errorf("audit verify: exit %d, %q (stderr %q)", code, out, errOut)
	}

	files, _ := filepath.Glob(filepath.Join(dir, "audit-archive", "trust-*.jsonl.gz"))
	if len(files) != 1 {
		t.Fatalf("trust archive files %v, want one", files)
	}
	if err := os.Remove(files[0]); err != nil {
		t.Fatal(err)
	}
	out, _, code = run(t, "", "audit", "verify", "--db", db)
	if want := "trust log: row 1 is bad: archive " + filepath.Base(files[0]) + ": the file is missing\n"; code != exitFail || out != want {
		t.Errorf("audit verify without a trust archive: exit %d, %q; want exit %d, %q", code, out, exitFail, want)
	}
}
