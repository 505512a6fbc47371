package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store/sqlite"
)

// TestDBCheckAndBackup: ward db check passes an intact database and names
// what a damaged one lacks (exit 1); ward db backup writes a copy that
// checks out and never overwrites a file.
func TestDBCheckAndBackup(t *testing.T) {
	dir := t.TempDir()
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, errOut, code := run(t, "", "db", "check", "--data", dir)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(out), "ok") {
		t.Fatalf("db check of a fresh database: exit %d\n%s%s", code, out, errOut)
	}
	copyPath := filepath.Join(t.TempDir(), "copy.db")
	if out, errOut, code := run(t, "", "db", "backup", "--data", dir, copyPath); code != 0 {
		t.Fatalf("db backup: exit %d\n%s%s", code, out, errOut)
	}
	if out, errOut, code := run(t, "", "db", "check", "--full", "--db", copyPath); code != 0 {
		t.Fatalf("db check of the backup: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := run(t, "", "db", "backup", "--data", dir, copyPath); code != 2 || !strings.Contains(errOut, "exists") {
		t.Errorf("db backup over an existing file: exit %d %q", code, errOut)
	}
	c, err := sqlite3.Open(filepath.Join(dir, "ward.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Exec(`DROP TABLE lessons`); err != nil {
		t.Fatal(err)
	}
	c.Close()
	out, errOut, code = run(t, "", "db", "check", "--data", dir)
	if code != 1 || !strings.Contains(out, "missing: table lessons") || !strings.Contains(errOut, "restore it from a backup") {
		t.Errorf("db check of a damaged database: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code := run(t, "", "db", "check", "--data", filepath.Join(dir, "none")); code != 2 || !strings.Contains(errOut, "no database") {
		t.Errorf("db check without a database: exit %d %q", code, errOut)
	}
}

// TestServeRefusesEmptyDatabase: ward serve on a data directory whose
// ward.db is an empty file stops before serving, says to restore or pass
// --init, and leaves the file as it was.
func TestServeRefusesEmptyDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ward.db")
	if err := os.WriteFile(db, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // no ./ward.toml
	out, errOut, code := run(t, "", "serve", "--data", dir, "--addr", "127.0.0.1:0")
	if code == 0 || !strings.Contains(errOut, "--init") || strings.Contains(out, "ready") {
		t.Errorf("serve on an empty ward.db: exit %d\n%s%s", code, out, errOut)
	}
	if fi, err := os.Stat(db); err != nil || fi.Size() != 0 {
		t.Errorf("the refused ward.db changed: %v %v", fi, err)
	}
}
