package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/daemon"
)

const auditVerifyHelp = `Check the hash chain of the trust audit log (taint assignments, access
denials, review verdicts, promotions, decryption grants): every row in seq
order, its seq, its link to the previous row and its own hash, from row 1
through the archive files retention wrote ([audit] retain) into the live
table. Every archive file the manifest lists must be present and unchanged
(its SHA-256 and row count). Names the first bad row or file and exits 1 if
anything is wrong.

The chain cannot show that its newest rows were removed.`

func auditVerify(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "audit verify", "", auditVerifyHelp)
	cfgPath := fs.String("config", "", "config file (default: ./ward.toml if present)")
	data := dataFlag(fs, "data directory of the ward whose trust log to check")
	dbPath := dbFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object {rows, ok, first_bad, reason, archived_rows, archive_files, bad_file}")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if fs.NArg() > 0 {
		return usageErr(io, "audit verify takes no arguments (got %q)", fs.Arg(0))
	}
	st, archive, code := openAuditArchive(ctx, io, *cfgPath, *data, *dbPath)
	if st == nil {
		return code
	}
	defer st.Close()
	v, err := archive.Verify(ctx)
	if err != nil {
		return fail(io, "%v", err)
	}
	rows := v.ArchivedRows + v.Live.Rows
	if *asJSON {
		json.NewEncoder(io.Out).Encode(struct {
			Rows         int64  `json:"rows"`
			OK           bool   `json:"ok"`
			FirstBad     int64  `json:"first_bad"`
			Reason       string `json:"reason"`
			ArchivedRows int64  `json:"archived_rows"`
			ArchiveFiles int    `json:"archive_files"`
			BadFile      string `json:"bad_file,omitempty"`
		}{rows, v.OK, v.FirstBad, v.Reason, v.ArchivedRows, v.Files, v.BadFile})
	} else {
		printVerify(io, v, rows)
	}
	if !v.OK {
		return exitFail
	}
	return exitOK
}

func printVerify(io IO, v audit.ArchiveVerify, rows int64) {
	switch {
	case v.OK && v.Files == 0:
		fmt.Fprintf(io.Out, "trust log: %d rows, chain intact\n", rows)
	case v.OK:
		fmt.Fprintf(io.Out, "trust log: %d rows (%d archived), chain intact; %d archive files intact\n", rows, v.ArchivedRows, v.Files)
	case v.BadFile != "" && v.FirstBad != 0:
		fmt.Fprintf(io.Out, "trust log: row %d is bad: archive %s: %s\n", v.FirstBad, v.BadFile, v.Reason)
	case v.BadFile != "":
		fmt.Fprintf(io.Out, "audit archive %s is bad: %s\n", v.BadFile, v.Reason)
	default:
		fmt.Fprintf(io.Out, "trust log: row %d is bad: %s\n", v.FirstBad, v.Reason)
	}
}

const auditArchiveHelp = `Run one retention pass now: move the decisions, action records and trust
log rows older than the retention ([audit] retain, or --retain) into
gzip-compressed JSON Lines files in the archive directory ([audit]
archive_dir, default audit-archive in the data directory). Each file is
written and synced before its rows are deleted, in one transaction with
its manifest entry. Rows a decision still reads stay live: the action
records of pending permits and of transactions in flight, upstream tool
pins and approvals, tool_call records, and the newest trust row.
ward serve runs the same pass at start and hourly when [audit] retain is
set. ward audit query --archive and ward audit verify read the files.`

func auditArchive(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "audit archive", "", auditArchiveHelp)
	cfgPath := fs.String("config", "", "config file (default: ./ward.toml if present)")
	data := dataFlag(fs, "data directory of the ward whose audit trail to archive")
	dbPath := dbFlag(fs)
	retain := fs.String("retain", "", `keep rows this recent live ("720h", "30d"; default: [audit] retain)`)
	asJSON := fs.Bool("json", false, "print one JSON object {files, decisions, actions, trust, dir}")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if fs.NArg() > 0 {
		return usageErr(io, "audit archive takes no arguments (got %q)", fs.Arg(0))
	}
	cfg, err := loadConfig(*cfgPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	if *retain != "" {
		d, err := audit.ParseRetain(*retain)
		if err != nil {
			return usageErr(io, "--retain: %v", err)
		}
		cfg.Audit.Retain = d
	}
	if cfg.Audit.Retain == 0 {
		return usageErr(io, "no retention: set [audit] retain or pass --retain (nothing is archived by default)")
	}
	st, code := openAuditStore(ctx, io, *cfgPath, *data, *dbPath)
	if st == nil {
		return code
	}
	defer st.Close()
	dir := archiveBase(*data, *dbPath)
	a, err := daemon.NewArchiver(st, cfg, dir)
	if err != nil {
		return fail(io, "%v", err)
	}
	res, err := a.Pass(ctx, time.Now())
	if err != nil {
		return fail(io, "%v (rows not yet archived stay live)", err)
	}
	out := daemon.ArchiveDir(cfg, dir)
	if *asJSON {
		json.NewEncoder(io.Out).Encode(map[string]any{"files": len(res.Files), "decisions": res.Rows["decisions"],
			"actions": res.Rows["actions"], "trust": res.Rows["trust"], "dir": out})
		return exitOK
	}
	fmt.Fprintf(io.Out, "archived %d decisions, %d action records and %d trust rows into %d files in %s\n",
		res.Rows["decisions"], res.Rows["actions"], res.Rows["trust"], len(res.Files), out)
	return exitOK
}
