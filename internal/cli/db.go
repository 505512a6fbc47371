package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/daemon"
)

func dbCheck(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "db check", "", `Check the SQLite database of a data directory without changing it: its
header, SQLite's consistency check (quick_check; --full: integrity_check,
which also compares every index with its table and reads the whole file),
its schema version against this build's and, at this build's version, every
table and index of the schema. Safe while ward serve runs. Exits 0 when the
database is intact, 1 when it is not (each problem on a line), 2 on usage
errors. ward serve runs the quick form of the same check at every start.`)
	data := dataFlag(fs, "data directory whose database to check")
	db := dbFlag(fs)
	full := fs.Bool("full", false, "run integrity_check instead of quick_check")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(io, "db check: unexpected argument %q", fs.Arg(0))
	}
	path := storeFile(*data, *db)
	if daemon.IsURL(path) {
		return usageErr(io, "db check: %s is a PostgreSQL URL: its server checks its own files (pg_amcheck)", path)
	}
	if !fileExists(path) {
		return usageErr(io, "db check: no database at %s", path)
	}
	r, err := daemon.CheckDB(ctx, path, *full)
	if err != nil {
		return fail(io, "db check: %v", err)
	}
	if *asJSON {
		if err := json.NewEncoder(io.Out).Encode(r); err != nil {
			return fail(io, "db check: %v", err)
		}
	} else {
		fmt.Fprintf(io.Out, "%s: schema version %d (this ward knows up to %d), %d pages, %d bytes\n", r.Path, r.Version, r.Known, r.Pages, r.Bytes)
		for _, p := range r.Problems {
			fmt.Fprintf(io.Out, "problem: %s\n", p)
		}
		for _, m := range r.Missing {
			fmt.Fprintf(io.Out, "missing: %s\n", m)
		}
		if r.Version > r.Known {
			fmt.Fprintf(io.Out, "problem: written by a newer ward (schema %d); this one cannot run it\n", r.Version)
		}
	}
	if !r.OK() {
		fmt.Fprintf(io.Err, "ward db check: %s is damaged: restore it from a backup (ward db backup)\n", path)
		return exitFail
	}
	if !*asJSON {
		fmt.Fprintln(io.Out, "ok")
	}
	return exitOK
}

func dbBackup(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "db backup", "OUT", `Write a consistent copy of a data directory's SQLite database to OUT, a new
file, with SQLite's online backup API: one snapshot of the database
(write-ahead log included), taken while ward serve keeps running and
writing. The copy is checked (quick_check) before the command succeeds. To
restore, stop ward and put the copy in place of ward.db (with no ward.db-wal
or ward.db-shm beside it).`)
	data := dataFlag(fs, "data directory whose database to copy")
	db := dbFlag(fs)
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		return usageErr(io, "db backup: want one argument, the new file to write")
	}
	out := fs.Arg(0)
	path := storeFile(*data, *db)
	if daemon.IsURL(path) {
		return usageErr(io, "db backup: %s is a PostgreSQL URL: back it up with pg_dump or the server's own tools", path)
	}
	if !fileExists(path) {
		return usageErr(io, "db backup: no database at %s", path)
	}
	if fileExists(out) {
		return usageErr(io, "db backup: %s exists: choose a new file", out)
	}
	if err := daemon.BackupDB(ctx, path, out); err != nil {
		return fail(io, "db backup: %v", err)
	}
	r, err := daemon.CheckDB(ctx, out, false)
	if err != nil || !r.OK() {
		var why string
		if err != nil {
			why = err.Error()
		} else {
			why = strings.Join(append(r.Problems, r.Missing...), "; ")
		}
		return fail(io, "db backup: the copy at %s does not check out: %s", out, why)
	}
	fmt.Fprintf(io.Out, "%s: %d pages, %d bytes, schema version %d\n", out, r.Pages, r.Bytes, r.Version)
	return exitOK
}
