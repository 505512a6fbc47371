package daemon

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/wardhq/ward/internal/config"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/postgres"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// Backend is what ward keeps its state in: the store and the spending and
// rate windows. Both backends implement it: SQLite (one file, one host)
// and PostgreSQL (one database that several ward instances share).
type Backend interface {
	store.Store
	hook.Windows
}

var (
	_ Backend = (*sqlite.Store)(nil)
	_ Backend = (*postgres.Store)(nil)
)

// IsURL reports whether db names a PostgreSQL database (a postgres:// or
// postgresql:// URL) rather than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// OpenStore opens ward's store: the PostgreSQL database db names when it
// is a URL (see IsURL), else the SQLite file at db in the given
// synchronous mode ("": the backend's default; PostgreSQL's durability is
// the server's). It is the one place that picks the backend: the stack,
// the stand-alone ingestion pipeline and the commands that read or write a
// data directory's records without the whole stack (tokens, audit,
// upstream pins, Grimoire export) open their store through it. The caller
// closes the store.
func OpenStore(ctx context.Context, db, synchronous string) (Backend, error) {
	return openStore(ctx, db, sqlite.Config{Synchronous: synchronous})
}

// openStore is OpenStore with the SQLite options of the stack (Init,
// Verify); they do not apply to PostgreSQL, whose server owns its files.
func openStore(ctx context.Context, db string, lite sqlite.Config) (Backend, error) {
	if IsURL(db) {
		return postgres.Open(ctx, postgres.Config{URL: db})
	}
	lite.Path = db
	return sqlite.Open(ctx, lite)
}

// StoreTarget is the store a data directory's ward uses under f: f's
// [store] url when it names one, else ward.db in dir.
func StoreTarget(dir string, f *config.File) string {
	if f != nil && f.Store.URL != "" {
		return f.Store.URL
	}
	return filepath.Join(dir, "ward.db")
}

// CheckDB examines the SQLite database at path without changing it (ward
// db check; see sqlite.Check).
func CheckDB(ctx context.Context, path string, full bool) (*sqlite.Report, error) {
	return sqlite.Check(ctx, path, full)
}

// BackupDB writes a consistent copy of the SQLite database at path to the
// new file dst while ward may be writing (ward db backup; see
// sqlite.Backup).
func BackupDB(ctx context.Context, path, dst string) error {
	return sqlite.Backup(ctx, path, dst)
}
