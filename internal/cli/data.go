package cli

import (
	"flag"
	"path/filepath"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
)

// defaultData is the data directory of every command that opens ward's
// store: ward serve creates it, and the other commands find the same
// database there with no flags.
const defaultData = "ward-data"

// dataFlag declares --data with the shared default.
func dataFlag(fs *flag.FlagSet, help string) *string {
	return fs.String("data", defaultData, help)
}

// dbFlag declares --db, the alias that names the database file itself
// instead of its directory.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "", "database file (overrides --data; default: ward.db in the data directory)")
}

// storeFile is the database a command opens: db when --db was given, else
// ward.db in the data directory, where ward serve keeps it.
func storeFile(data, db string) string {
	if db != "" {
		return db
	}
	return filepath.Join(data, "ward.db")
}

// storeOf is the store a command opens under the configuration f: db when
// --db was given (a file, or a postgres:// URL), else f's [store] url when
// it names one, else ward.db in the data directory.
func storeOf(f *config.File, data, db string) string {
	if db == "" && f != nil && f.Store.URL != "" {
		return f.Store.URL
	}
	return storeFile(data, db)
}

// storeExists reports whether there is a store at target to open: a
// PostgreSQL URL always (the server answers for it), a file if it exists.
func storeExists(target string) bool { return daemon.IsURL(target) || fileExists(target) }
