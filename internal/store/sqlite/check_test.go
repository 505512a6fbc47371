package sqlite_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store/sqlite"
)

// filled creates a closed database at a fresh path holding n decisions.
func filled(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ward.db")
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	for i := range n {
		if err := s.AppendDecision(t.Context(), decision(at.Add(time.Duration(i)), "file_read", "allow", ""), false); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenRefusesWhatIsNotADatabase: an empty file, a file of another kind
// and a directory are refused before SQLite writes to them, and the file is
// left as it was; --init (Config.Init) makes an empty file a new database.
func TestOpenRefusesWhatIsNotADatabase(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err := sqlite.Open(t.Context(), sqlite.Config{Path: empty}); !errors.Is(err, sqlite.ErrEmptyFile) || !strings.Contains(err.Error(), "--init") {
		if err == nil {
			s.Close()
		}
		t.Fatalf("Open(empty) = %v, want ErrEmptyFile naming --init", err)
	}
	if fi, _ := os.Stat(empty); fi.Size() != 0 {
		t.Errorf("the refused empty file was written: %d bytes", fi.Size())
	}
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: empty, Init: true})
	if err != nil {
		t.Fatalf("Open(empty, Init) = %v", err)
	}
	s.Close()

	text := filepath.Join(dir, "notes.db")
	body := []byte(strings.Repeat("not a database\n", 20))
	if err := os.WriteFile(text, body, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{text, dir} {
		if s, err := sqlite.Open(t.Context(), sqlite.Config{Path: p, Init: true}); !errors.Is(err, sqlite.ErrNotDatabase) {
			if err == nil {
				s.Close()
			}
			t.Errorf("Open(%s) = %v, want ErrNotDatabase", filepath.Base(p), err)
		}
	}
	if got, _ := os.ReadFile(text); string(got) != string(body) {
		t.Error("the refused file was changed")
	}
}

// TestVerifyFindsCorruptPages: a database whose pages were overwritten is
// refused at a verifying open, and Check names the problem; the same file
// opened without Verify is what the start-up check exists to prevent.
func TestVerifyFindsCorruptPages(t *testing.T) {
	path := filled(t, 3000)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := f.Stat()
	if fi.Size() < 20*4096 {
		t.Fatalf("database of %d bytes: too small to corrupt pages in the middle", fi.Size())
	}
	junk := []byte(strings.Repeat("\xff", 64))
	for off := int64(8 * 4096); off < fi.Size()-4096; off += 4096 {
		if _, err := f.WriteAt(junk, off+200); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	r, err := sqlite.Check(t.Context(), path, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK() || len(r.Problems) == 0 {
		t.Fatalf("Check of a corrupt file: %+v, want problems", r)
	}
	if s, err := sqlite.Open(t.Context(), sqlite.Config{Path: path, Verify: true}); !errors.Is(err, sqlite.ErrNotDatabase) {
		if err == nil {
			s.Close()
		}
		t.Fatalf("verifying Open of a corrupt file = %v, want ErrNotDatabase", err)
	}
}

// TestVerifyFindsMissingTables: a database at the current schema version
// that lost a table is refused by a verifying open, with the table named.
func TestVerifyFindsMissingTables(t *testing.T) {
	path := filled(t, 1)
	c := rawConn(t, path)
	if err := c.Exec(`DROP TABLE lessons`); err != nil {
		t.Fatal(err)
	}
	c.Close()
	r, err := sqlite.Check(t.Context(), path, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.OK() || !strings.Contains(strings.Join(r.Missing, ","), "table lessons") {
		t.Errorf("Check = %+v, want table lessons missing", r)
	}
	if s, err := sqlite.Open(t.Context(), sqlite.Config{Path: path, Verify: true}); !errors.Is(err, sqlite.ErrMissingTables) || !strings.Contains(err.Error(), "table lessons") {
		if err == nil {
			s.Close()
		}
		t.Fatalf("verifying Open = %v, want ErrMissingTables naming lessons", err)
	}
}

// TestBackupWhileWriting: a backup taken while the store is open and
// writing is a consistent database with every record acknowledged before
// it started, and an existing destination is never overwritten.
func TestBackupWhileWriting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	at := time.Now()
	for i := range 500 {
		if err := s.AppendDecision(t.Context(), decision(at.Add(time.Duration(i)), "file_read", "allow", ""), true); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 500 {
			_ = s.AppendDecision(t.Context(), decision(at.Add(time.Hour+time.Duration(i)), "file_read", "allow", ""), false)
		}
	}()
	dst := filepath.Join(t.TempDir(), "copy.db")
	if err := sqlite.Backup(t.Context(), path, dst); err != nil {
		t.Fatal(err)
	}
	<-done
	r, err := sqlite.Check(t.Context(), dst, true)
	if err != nil || !r.OK() {
		t.Fatalf("Check(backup) = %+v, %v", r, err)
	}
	n, err := strconv.Atoi(queryRows(t, rawConn(t, dst), `SELECT COUNT(*) FROM policy_decisions`)[0][0])
	if err != nil || n < 500 {
		t.Errorf("backup holds %d decisions (%v), want at least the 500 acknowledged before it", n, err)
	}
	if err := sqlite.Backup(t.Context(), path, dst); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("Backup over an existing file = %v, want refused", err)
	}
}
