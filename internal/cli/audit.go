package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/store"
)

func openStore(ctx context.Context, path, synchronous string) (store.Store, error) {
	s, err := daemon.OpenStore(ctx, path, synchronous)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return s, nil
}

// openAuditStore opens the existing database an audit command reads:
// --db, else ward.db in the data directory. On failure it has printed why
// and returns the exit status.
func openAuditStore(ctx context.Context, io IO, cfgPath, data, dbPath string) (store.Store, int) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, usageErr(io, "%v", err)
	}
	db := storeOf(cfg, data, dbPath)
	if !storeExists(db) {
		return nil, fail(io, "no database at %s (nothing has been recorded yet)", db)
	}
	st, err := openStore(ctx, db, cfg.Store.Synchronous)
	if err != nil {
		return nil, fail(io, "%v", err)
	}
	return st, exitOK
}

const auditQueryHelp = `Query the audit trail of policy decisions, newest first, or run a named
report over the decisions the filters select. Reports:

  most-denied-tools     tools by number of denials
  most-triggered-rules  rules by number of decisions they triggered in
  denials-by-reason     denials by reason code

Times are RFC 3339 (2026-11-22T10:00:00Z) or a duration before now (90m, 24h).
With --archive, decisions retention moved to archive files ([audit] retain)
are included, in the list and in the reports.`

func auditQuery(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "audit query", "", auditQueryHelp)
	cfgPath := fs.String("config", "", "config file (default: ./ward.toml if present)")
	data := dataFlag(fs, "data directory of the ward whose decisions to read")
	dbPath := dbFlag(fs)
	var f store.DecisionFilter
	fs.StringVar(&f.Tool, "tool", "", "only this tool")
	decision := fs.String("decision", "", "only this decision: allow, quarantine or deny")
	fs.StringVar(&f.Reason, "reason", "", "only this reason code")
	fs.StringVar(&f.SessionID, "session", "", "only this session")
	fs.StringVar(&f.TurnID, "turn", "", "only this turn")
	origin := fs.String("origin", "", "only this origin: gate (live calls) or check (recorded what-ifs)")
	since := fs.String("since", "", "only decisions at or after this time")
	until := fs.String("until", "", "only decisions before this time")
	fs.IntVar(&f.Limit, "limit", 100, "at most this many rows (0: all)")
	report := fs.String("report", "", "run a named report instead of listing decisions")
	asJSON := fs.Bool("json", false, "print JSON Lines")
	withArchive := fs.Bool("archive", false, "include the decisions retention moved to archive files")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if fs.NArg() > 0 {
		return usageErr(io, "audit query takes no arguments (got %q)", fs.Arg(0))
	}
	if err := completeDecisionFilter(&f, *decision, *origin, *since, *until, time.Now()); err != nil {
		return usageErr(io, "%v", err)
	}
	if *report != "" && !slices.Contains(store.Reports(), store.Report(*report)) {
		names := make([]string, 0, 3)
		for _, r := range store.Reports() {
			names = append(names, string(r))
		}
		return usageErr(io, "unknown report %q (want %s)", *report, strings.Join(names, ", "))
	}
	st, archive, code := openAuditArchive(ctx, io, *cfgPath, *data, *dbPath)
	if st == nil {
		return code
	}
	defer st.Close()
	src := decisionSource{st: st}
	if *withArchive {
		src.archive = archive
	}
	if *report != "" {
		return printDecisionReport(ctx, io, src, store.Report(*report), f, *asJSON)
	}
	return printDecisions(ctx, io, src, f, *asJSON)
}

// completeDecisionFilter sets the fields of f that audit query's
// --decision, --origin, --since and --until name, and checks --limit; the
// error is the usage message.
func completeDecisionFilter(f *store.DecisionFilter, decision, origin, since, until string, now time.Time) error {
	var err error
	if f.Since, err = parseWhen(since, now); err != nil {
		return fmt.Errorf("--since: %w", err)
	}
	if f.Until, err = parseWhen(until, now); err != nil {
		return fmt.Errorf("--until: %w", err)
	}
	if decision != "" {
		if f.Decision, err = store.ParseVerdict(decision); err != nil {
			return errors.New("--decision must be allow, quarantine or deny")
		}
	}
	if origin != "" {
		if f.Origin, err = store.ParseOrigin(origin); err != nil {
			return errors.New("--origin must be gate or check")
		}
	}
	if f.Limit < 0 {
		return errors.New("--limit must not be negative")
	}
	return nil
}

// decisionSource is where audit query reads decisions: the database, and
// with archive also the archive files retention moved decisions to.
type decisionSource struct {
	st      store.Store
	archive *audit.Archiver // nil: the database only
}

// printDecisionReport runs the named report over the decisions f selects
// and prints it as a table or, with asJSON, as JSON Lines.
func printDecisionReport(ctx context.Context, io IO, src decisionSource, report store.Report, f store.DecisionFilter, asJSON bool) int {
	var rows []store.ReportRow
	var err error
	if src.archive != nil {
		rows, err = src.archive.Report(ctx, src.st, report, f)
	} else {
		rows, err = src.st.DecisionReport(ctx, report, f)
	}
	if err != nil {
		return fail(io, "%v", err)
	}
	if asJSON {
		enc := json.NewEncoder(io.Out)
		for _, r := range rows {
			enc.Encode(map[string]any{"key": r.Key, "count": r.Count})
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tCOUNT\n", strings.ToUpper(reportKey(report)))
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\n", r.Key, r.Count)
	}
	tw.Flush()
	return exitOK
}

// printDecisions lists the decisions f selects, newest first, as a table
// or, with asJSON, as JSON Lines.
func printDecisions(ctx context.Context, io IO, src decisionSource, f store.DecisionFilter, asJSON bool) int {
	var recs []store.DecisionRecord
	var err error
	if src.archive != nil {
		recs, err = src.archive.Decisions(ctx, src.st, f)
	} else {
		recs, err = src.st.QueryDecisions(ctx, f)
	}
	if err != nil {
		return fail(io, "%v", err)
	}
	if asJSON {
		enc := json.NewEncoder(io.Out)
		for i := range recs {
			enc.Encode(recordJSON(&recs[i]))
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME\tDECISION\tTOOL\tREASON\tRULE\tSESSION\tTURN\tLATENCY")
	for _, r := range recs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Time.UTC().Format(time.RFC3339Nano), r.Decision, r.Tool,
			r.Reason, r.Rule, r.SessionID, r.TurnID, r.Latency)
	}
	tw.Flush()
	return exitOK
}

func reportKey(r store.Report) string {
	switch r {
	case store.MostDeniedTools:
		return "tool"
	case store.MostTriggeredRules:
		return "rule"
	}
	return "reason"
}

func recordJSON(r *store.DecisionRecord) map[string]any {
	return map[string]any{
		"id": r.ID, "timestamp": r.Time.UTC().Format(time.RFC3339Nano), "turn_id": r.TurnID, "session_id": r.SessionID,
		"input_source": r.InputSource, "authority_level": r.Authority, "tool": r.Tool, "category": r.Category,
		"args_hash": r.ArgsHash, "risk_level": r.Risk, "action": r.Decision, "reason_code": r.Reason,
		"message": r.Message, "rule": r.Rule, "rules_evaluated": json.RawMessage(r.RulesEvaluated),
		"rules_triggered": json.RawMessage(r.RulesTriggered), "latency_ns": r.Latency.Nanoseconds(),
		"policy_hash": r.PolicyHash, "spend_category": r.SpendCategory, "spend_cents": r.SpendCents,
		"diagnostic": r.Diagnostic, "origin": r.Origin,
	}
}

// parseWhen parses an RFC 3339 time or a duration before now.
func parseWhen(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 time nor a positive duration", s)
	}
	return now.Add(-d), nil
}

// openAuditArchive is openAuditStore plus the archiver of the store's
// archive files: [audit] archive_dir, else audit-archive beside the
// database (in the data directory, where ward serve writes them).
func openAuditArchive(ctx context.Context, io IO, cfgPath, data, dbPath string) (store.Store, *audit.Archiver, int) {
	cfg, err := loadConfig(cfgPath)
	if err != nil {
		return nil, nil, usageErr(io, "%v", err)
	}
	st, code := openAuditStore(ctx, io, cfgPath, data, dbPath)
	if st == nil {
		return nil, nil, code
	}
	a, err := daemon.NewArchiver(st, cfg, archiveBase(data, dbPath))
	if err != nil {
		st.Close()
		return nil, nil, fail(io, "%v", err)
	}
	return st, a, exitOK
}

// archiveBase is the directory the default archive directory is in: the
// database's (--db), else the data directory.
func archiveBase(data, dbPath string) string {
	if dbPath != "" {
		return filepath.Dir(dbPath)
	}
	return data
}
