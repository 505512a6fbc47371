package cli

import (
	"flag"
	"path/filepath"
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
