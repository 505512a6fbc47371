package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// TestDataDirectoryHasOneWard: while a stack holds a data directory, a
// second one on it is refused before it touches anything, naming the
// holder; after Close the directory opens again. (flock locks belong to
// the open file description, so the second open in this process is
// refused exactly as another process's would be; the kernel drops the
// lock when the holder dies, kill -9 included.)
func TestDataDirectoryHasOneWard(t *testing.T) {
	dir := t.TempDir()
	f, err := config.Parse("ward.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := OpenData(t.Context(), dir, f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenData(t.Context(), dir, f)
	if err == nil {
		b.Close()
		a.Close()
		t.Fatal("a second stack opened the same data directory")
	}
	if !strings.Contains(err.Error(), "in use by ward process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second open: %v, want the holder's pid", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := OpenData(t.Context(), dir, f)
	if err != nil {
		t.Fatalf("open after the holder closed: %v", err)
	}
	c.Close()
}

// TestEmptyDatabaseNeedsInit: an empty ward.db (a truncated copy, a failed
// restore) is refused with what to do, and is not written; Init makes it
// a new database.
func TestEmptyDatabaseNeedsInit(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "ward.db")
	if err := os.WriteFile(db, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := config.Parse("ward.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := OpenData(t.Context(), dir, f); !errors.Is(err, sqlite.ErrEmptyFile) || !strings.Contains(err.Error(), "--init") {
		if err == nil {
			st.Close()
		}
		t.Fatalf("open on an empty ward.db: %v, want ErrEmptyFile naming --init", err)
	}
	if fi, err := os.Stat(db); err != nil || fi.Size() != 0 {
		t.Fatalf("the refused ward.db changed: %v %v", fi, err)
	}
	st, err := OpenDataWith(t.Context(), dir, f, DataOptions{Init: true})
	if err != nil {
		t.Fatalf("open with Init: %v", err)
	}
	st.Close()
	st, err = OpenData(t.Context(), dir, f) // now a database: no Init needed
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	st.Close()
}
