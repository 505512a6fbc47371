package sqlite

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/ncruces/go-sqlite3"
)

// Errors of a database file that cannot be ward's. Open wraps them; a
// caller tells the operator what to do (restore a backup, or --init).
var (
	// ErrEmptyFile is an existing 0-byte database file. A ward database is
	// never empty once created, so this is a truncated copy or a failed
	// restore, not a fresh start: Open refuses it unless Config.Init.
	ErrEmptyFile = errors.New("the database file is empty")
	// ErrNotDatabase is a file that is not a SQLite database, or one that
	// fails SQLite's consistency check.
	ErrNotDatabase = errors.New("the file is not an intact SQLite database")
	// ErrMissingTables is a database at this build's schema version that
	// lacks tables or indexes its migrations create.
	ErrMissingTables = errors.New("the database lacks tables of its schema")
)

// sqliteMagic is the first 16 bytes of every SQLite 3 database file.
const sqliteMagic = "SQLite format 3\x00"

// preflight refuses a file at cfg.Path that exists but cannot be a ward
// database, before SQLite writes anything to it: an empty file (unless
// cfg.Init), a directory, or a file without SQLite's header. A missing
// file is a new database.
func preflight(cfg Config) error {
	fi, err := os.Stat(cfg.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("sqlite: %s is not a regular file: %w", cfg.Path, ErrNotDatabase)
	}
	if fi.Size() == 0 {
		if wal, err := os.Stat(cfg.Path + "-wal"); err == nil && wal.Size() > 0 {
			return nil // the header is still in the write-ahead log
		}
		if cfg.Init {
			return nil
		}
		return fmt.Errorf("sqlite: %s: %w: restore it from a backup (ward db backup), or start with --init to create a new, empty database in it", cfg.Path, ErrEmptyFile)
	}
	f, err := os.Open(cfg.Path)
	if err != nil {
		return fmt.Errorf("sqlite: %w", err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, []byte(sqliteMagic)) {
		return fmt.Errorf("sqlite: %s has no SQLite header: %w; restore it from a backup or move it away", cfg.Path, ErrNotDatabase)
	}
	return nil
}

// corrupt reports an error of SQLite's that says the file is damaged or
// not a database.
func corrupt(err error) bool {
	var e *sqlite3.Error
	return errors.As(err, &e) && (e.Code() == sqlite3.CORRUPT || e.Code() == sqlite3.NOTADB)
}

// quickCheck runs PRAGMA quick_check (full: integrity_check, which also
// checks that indexes match their tables) and returns SQLite's findings;
// none means the file is consistent.
func quickCheck(conn *sqlite3.Conn, full bool) ([]string, error) {
	pragma := `PRAGMA quick_check(20)`
	if full {
		pragma = `PRAGMA integrity_check(20)`
	}
	st, _, err := conn.Prepare(pragma)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %s: %w", pragma, err)
	}
	defer st.Close()
	var found []string
	for st.Step() {
		if r := st.ColumnText(0); r != "ok" {
			found = append(found, r)
		}
	}
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: %s: %w", pragma, err)
	}
	return found, nil
}

// schemaObjects lists the tables and indexes of conn's main database.
func schemaObjects(conn *sqlite3.Conn) ([]string, error) {
	st, _, err := conn.Prepare(`SELECT type || ' ' || name FROM sqlite_schema WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list schema: %w", err)
	}
	defer st.Close()
	var out []string
	for st.Step() {
		out = append(out, st.ColumnText(0))
	}
	if err := st.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list schema: %w", err)
	}
	return out, nil
}

// expectedObjects are the tables and indexes a fresh database has after
// every migration: what a database at schemaVersion must contain.
var expectedObjects = sync.OnceValues(func() ([]string, error) {
	conn, err := sqlite3.Open(":memory:")
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := migrate(context.Background(), conn); err != nil {
		return nil, err
	}
	return schemaObjects(conn)
})

// missingObjects returns the tables and indexes of the current schema that
// conn's database lacks. Objects the database has beyond them (an
// operator's own index) are not a fault.
func missingObjects(conn *sqlite3.Conn) ([]string, error) {
	want, err := expectedObjects()
	if err != nil {
		return nil, fmt.Errorf("sqlite: expected schema: %w", err)
	}
	have, err := schemaObjects(conn)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, o := range want {
		if !slices.Contains(have, o) {
			missing = append(missing, o)
		}
	}
	return missing, nil
}

// verifyConsistent is the first half of Open's start-up check with
// Config.Verify, before migrating: the file is consistent (quick_check).
func verifyConsistent(conn *sqlite3.Conn, path string) error {
	found, err := quickCheck(conn, false)
	if err != nil {
		return fmt.Errorf("sqlite: %s: %w: %v; restore it from a backup", path, ErrNotDatabase, err)
	}
	if len(found) > 0 {
		return fmt.Errorf("sqlite: %s: %w: quick_check: %s; restore it from a backup (ward db check --full says more)", path, ErrNotDatabase, strings.Join(found, "; "))
	}
	return nil
}

// verifySchema is the second half, after migrating: the database has every
// table and index of its schema.
func verifySchema(conn *sqlite3.Conn, path string) error {
	missing, err := missingObjects(conn)
	if err != nil {
		return err
	}
	if len(missing) > 0 {
		return fmt.Errorf("sqlite: %s: %w: %s; restore it from a backup", path, ErrMissingTables, strings.Join(missing, ", "))
	}
	return nil
}

// Report is what Check found in a database file.
type Report struct {
	Path     string   `json:"path"`
	Version  int      `json:"schema_version"`
	Known    int      `json:"known_version"` // the newest schema this build knows
	Problems []string `json:"problems"`      // SQLite's consistency findings
	Missing  []string `json:"missing"`       // tables and indexes of the schema it lacks
	Pages    int64    `json:"pages"`
	Bytes    int64    `json:"bytes"`
}

// OK reports whether the database is intact and at a schema this build
// can run (older versions migrate on open).
func (r *Report) OK() bool {
	return len(r.Problems) == 0 && len(r.Missing) == 0 && r.Version <= r.Known
}

// Check examines the database at path without changing it: its header,
// SQLite's consistency check (full: integrity_check, else quick_check),
// its schema version and, at this build's version, its tables and
// indexes. An error means the file could not be examined at all; what is
// wrong with a file that could is in the Report.
func Check(ctx context.Context, path string, full bool) (*Report, error) {
	if err := preflight(Config{Path: path}); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	defer conn.Close()
	old := conn.SetInterrupt(ctx)
	defer conn.SetInterrupt(old)
	r := &Report{Path: path, Known: schemaVersion()}
	if r.Problems, err = quickCheck(conn, full); err != nil {
		r.Problems = []string{err.Error()}
		return r, nil
	}
	if r.Version, err = userVersion(conn); err != nil {
		r.Problems = append(r.Problems, err.Error())
		return r, nil
	}
	if r.Version == r.Known {
		if r.Missing, err = missingObjects(conn); err != nil {
			return nil, err
		}
	}
	if pages, err := pragmaText(conn, `PRAGMA page_count`); err == nil {
		fmt.Sscan(pages, &r.Pages)
	}
	if fi, err := os.Stat(path); err == nil {
		r.Bytes = fi.Size()
	}
	return r, nil
}

// Backup writes a consistent copy of the database at path to dst, with
// SQLite's online backup API: it reads one snapshot of the database
// (write-ahead log included) while a running ward keeps writing. dst must
// not exist.
func Backup(ctx context.Context, path, dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("sqlite: backup: %s exists; choose a new file", dst)
	}
	if err := preflight(Config{Path: path}); err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	conn, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READONLY)
	if err != nil {
		return fmt.Errorf("sqlite: backup: open %s: %w", path, err)
	}
	defer conn.Close()
	old := conn.SetInterrupt(ctx)
	defer conn.SetInterrupt(old)
	if err := conn.Backup("main", dst); err != nil {
		os.Remove(dst)
		return fmt.Errorf("sqlite: backup to %s: %w", dst, err)
	}
	return nil
}
