package audit

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// Retention. An Archiver moves audit rows older than its retention out of
// the live tables into gzip-compressed JSON Lines files, one file per
// table and batch, and reads them back for ward audit query --archive and
// ward audit verify. Each batch is written to a temporary file, synced,
// renamed into place and the directory synced before the store's
// CommitArchive records the file (name, rows, time range, SHA-256; for the
// trust log its seqs and last hash) and deletes the rows in one
// transaction. A crash before the commit leaves the rows live and the file
// out of the manifest: readers only read files the manifest lists, a rerun
// archives the rows again into a file of its own, and a later pass removes
// the orphan once it is older than OrphanAge. Which rows may go is the
// store's rule (store.AuditArchive): nothing a decision still reads.

// MinRetain is the shortest retention an Archiver accepts: the windows a
// decision reads from the action log (failed lookups) span an hour.
const MinRetain = time.Hour

// DefaultArchiveBatch is how many rows an archive file holds at most.
const DefaultArchiveBatch = 10_000

// ArchiveStore is what an Archiver needs of the store.
type ArchiveStore interface {
	store.AuditArchive
	VerifyTrust(ctx context.Context) (store.TrustVerify, error)
}

// ArchiveConfig configures an Archiver.
type ArchiveConfig struct {
	Store ArchiveStore
	// Dir holds the archive files; it is created on the first pass.
	Dir string
	// Retain is how long rows stay live; zero keeps everything (Pass then
	// archives nothing), otherwise at least MinRetain.
	Retain time.Duration
	// Batch is the most rows per file (0: DefaultArchiveBatch).
	Batch int
}

// Archiver runs retention passes and reads their files. Its methods may be
// called from several goroutines. Passes may overlap (ward audit archive
// beside ward serve, several instances on one PostgreSQL): the store
// refuses the commit of rows another pass took, and that pass removes its
// file.
type Archiver struct {
	cfg ArchiveConfig
	// beforeCommit, in tests, runs between a file's sync and its commit;
	// an error stops the pass there as a crash would.
	beforeCommit func(name string) error
}

// NewArchiver validates cfg.
func NewArchiver(cfg ArchiveConfig) (*Archiver, error) {
	switch {
	case cfg.Store == nil:
		return nil, errors.New("audit: archiver: no store")
	case cfg.Dir == "":
		return nil, errors.New("audit: archiver: no archive directory")
	case cfg.Retain < 0 || (cfg.Retain > 0 && cfg.Retain < MinRetain):
		return nil, fmt.Errorf("audit: archiver: retention %v is shorter than %v", cfg.Retain, MinRetain)
	case cfg.Batch < 0:
		return nil, fmt.Errorf("audit: archiver: negative batch %d", cfg.Batch)
	}
	if cfg.Batch == 0 {
		cfg.Batch = DefaultArchiveBatch
	}
	return &Archiver{cfg: cfg}, nil
}

// ParseRetain parses a retention: empty (keep everything, 0), a Go
// duration ("720h") or a number of days ("30d"), at least MinRetain.
func ParseRetain(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	var d time.Duration
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.ParseUint(n, 10, 16)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number of days (want, say, 30d)", s)
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, fmt.Errorf("%q is neither a duration (720h) nor a number of days (30d)", s)
		}
	}
	if d < MinRetain {
		return 0, fmt.Errorf("%q is shorter than %v: rows that recent may still be read by decisions", s, MinRetain)
	}
	return d, nil
}

// PassResult says what a pass archived: files written and rows moved, per
// table.
type PassResult struct {
	Files []store.ArchiveFile
	Rows  map[store.AuditTable]int64
}

// Pass archives every row older than now minus the retention, a file per
// table and batch, and returns what it moved. With no retention it does
// nothing. An error stops the pass; what was committed stays committed.
func (a *Archiver) Pass(ctx context.Context, now time.Time) (PassResult, error) {
	res := PassResult{Rows: map[store.AuditTable]int64{}}
	if a.cfg.Retain == 0 {
		return res, nil
	}
	if err := os.MkdirAll(a.cfg.Dir, 0o700); err != nil {
		return res, fmt.Errorf("audit: archive: %w", err)
	}
	if err := a.removeOrphans(ctx, time.Now()); err != nil {
		return res, err
	}
	before := now.Add(-a.cfg.Retain)
	for _, t := range store.AuditTables() {
		for {
			f, err := a.archiveBatch(ctx, t, before, now)
			if err != nil {
				return res, err
			}
			if f == nil {
				break
			}
			res.Files = append(res.Files, *f)
			res.Rows[t] += f.Rows
			if f.Rows < int64(a.cfg.Batch) {
				break
			}
		}
	}
	return res, nil
}

// archiveBatch moves one batch of t's rows from before before into a file;
// it returns nil when there is none.
func (a *Archiver) archiveBatch(ctx context.Context, t store.AuditTable, before, now time.Time) (*store.ArchiveFile, error) {
	var (
		lines []any
		ids   []string
		f     = store.ArchiveFile{Table: t, Created: now.UTC()}
	)
	st := a.cfg.Store
	switch t {
	case store.AuditDecisions:
		recs, err := st.ArchivableDecisions(ctx, before, a.cfg.Batch)
		if err != nil || len(recs) == 0 {
			return nil, err
		}
		lines, ids = keyedBatch(&f, "decisions", recs, func(r *store.DecisionRecord) (any, string, time.Time) {
			return decisionLineOf(r), r.ID, r.Time
		})
	case store.AuditActions:
		recs, err := st.ArchivableActions(ctx, before, a.cfg.Batch)
		if err != nil || len(recs) == 0 {
			return nil, err
		}
		lines, ids = keyedBatch(&f, "actions", recs, func(r *store.ActionRecord) (any, string, time.Time) {
			return actionLineOf(r), r.ID, r.Time
		})
	case store.AuditTrust:
		recs, err := st.ArchivableTrust(ctx, before, a.cfg.Batch)
		if err != nil || len(recs) == 0 {
			return nil, err
		}
		for i := range recs {
			lines = append(lines, trustLineOf(&recs[i]))
			f.From, f.To = span(f.From, f.To, recs[i].Time, i == 0)
		}
		last := recs[len(recs)-1]
		f.FirstSeq, f.LastSeq, f.LastHash = recs[0].Seq, last.Seq, last.Hash
		f.Name = fmt.Sprintf("trust-%s-%s-seq%d-%d-%s.jsonl.gz", stamp(f.From), stamp(f.To), f.FirstSeq, f.LastSeq, nonce())
	}
	f.Rows = int64(len(lines))
	sum, err := writeArchive(a.cfg.Dir, f.Name, lines)
	if err != nil {
		return nil, fmt.Errorf("audit: archive %s: %w", t, err)
	}
	f.SHA256 = sum
	if a.beforeCommit != nil {
		if err := a.beforeCommit(f.Name); err != nil {
			return nil, err
		}
	}
	if err := st.CommitArchive(context.WithoutCancel(ctx), &f, ids); err != nil {
		if errors.Is(err, store.ErrArchiveStale) {
			// Nothing was committed (another pass took the rows): the
			// file is this pass's alone. After any other error the commit
			// may have happened, and the file stays.
			os.Remove(filepath.Join(a.cfg.Dir, f.Name))
		}
		return nil, fmt.Errorf("audit: archive %s: %w", t, err)
	}
	return &f, nil
}

// keyedBatch turns a non-empty batch of rows that the store deletes by id
// (decisions, actions) into archive lines: it returns the lines and the
// ids, and sets f's time span and its name, which starts with the table's
// prefix and holds the first row's id.
func keyedBatch[R any](f *store.ArchiveFile, prefix string, recs []R, row func(*R) (line any, id string, at time.Time)) ([]any, []string) {
	lines := make([]any, 0, len(recs))
	ids := make([]string, 0, len(recs))
	for i := range recs {
		line, id, at := row(&recs[i])
		lines = append(lines, line)
		ids = append(ids, id)
		f.From, f.To = span(f.From, f.To, at, i == 0)
	}
	f.Name = fmt.Sprintf("%s-%s-%s-%s-%s.jsonl.gz", prefix, stamp(f.From), stamp(f.To), ids[0], nonce())
	return lines, ids
}

func span(from, to, t time.Time, first bool) (time.Time, time.Time) {
	if first {
		return t, t
	}
	if t.Before(from) {
		from = t
	}
	if t.After(to) {
		to = t
	}
	return from, to
}

// nonce makes each pass's file names its own, so that passes of several
// instances sharing a directory never write the same file.
func nonce() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func stamp(t time.Time) string { return t.UTC().Format("20060102T150405.000000000Z") }

// writeArchive writes lines as gzip-compressed JSON Lines to dir/name
// through a synced temporary file, renames it into place, syncs dir, and
// returns the file's SHA-256 in hex.
func writeArchive(dir, name string, lines []any) (string, error) {
	tmp, err := os.CreateTemp(dir, ".tmp-"+name+"-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name()) // after the rename, a no-op
	h := sha256.New()
	bw := bufio.NewWriter(io.MultiWriter(tmp, h))
	zw := gzip.NewWriter(bw)
	enc := json.NewEncoder(zw)
	for _, l := range lines {
		if err = enc.Encode(l); err != nil {
			break
		}
	}
	err = errors.Join(err, zw.Close(), bw.Flush(), tmp.Sync(), tmp.Close())
	if err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return "", err
	}
	if err := syncDir(dir); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// OrphanAge is how old a file the manifest does not list must be before a
// pass removes it: a pass commits a file within seconds of writing it, so
// an older one is left by a pass that stopped (its rows are still live),
// and a younger one may be another instance's pass in progress.
const OrphanAge = 10 * time.Minute

// removeOrphans deletes the files of passes that stopped before their
// commit: files of the archive's naming, older than OrphanAge, that the
// manifest does not list.
func (a *Archiver) removeOrphans(ctx context.Context, now time.Time) error {
	files, err := a.cfg.Store.ArchiveFiles(ctx)
	if err != nil {
		return fmt.Errorf("audit: archive: %w", err)
	}
	listed := map[string]bool{}
	for _, f := range files {
		listed[f.Name] = true
	}
	entries, err := os.ReadDir(a.cfg.Dir)
	if err != nil {
		return fmt.Errorf("audit: archive: %w", err)
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || listed[n] || !(strings.HasPrefix(n, ".tmp-") || isArchiveName(n)) {
			continue
		}
		if info, err := e.Info(); err != nil || now.Sub(info.ModTime()) < OrphanAge {
			continue
		}
		if err := os.Remove(filepath.Join(a.cfg.Dir, n)); err != nil {
			return fmt.Errorf("audit: archive: remove an unlisted file: %w", err)
		}
	}
	return nil
}

func isArchiveName(n string) bool {
	if !strings.HasSuffix(n, ".jsonl.gz") {
		return false
	}
	for _, t := range store.AuditTables() {
		if strings.HasPrefix(n, string(t)+"-") {
			return true
		}
	}
	return false
}

// readArchive reads dir/f.Name, checks its SHA-256 against the manifest's,
// and calls line with each line's JSON.
func readArchive(dir string, f *store.ArchiveFile, line func([]byte) error) error {
	b, err := os.ReadFile(filepath.Join(dir, f.Name))
	if errors.Is(err, os.ErrNotExist) {
		return &ArchiveError{File: f.Name, Reason: "the file is missing"}
	}
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.SHA256 {
		return &ArchiveError{File: f.Name, Reason: "the file was changed: its SHA-256 is not the one recorded when it was archived"}
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return &ArchiveError{File: f.Name, Reason: fmt.Sprintf("not gzip: %v", err)}
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 64<<20)
	var n int64
	for sc.Scan() {
		n++
		if err := line(sc.Bytes()); err != nil {
			return &ArchiveError{File: f.Name, Reason: fmt.Sprintf("line %d: %v", n, err), err: err}
		}
	}
	if err := sc.Err(); err != nil {
		return &ArchiveError{File: f.Name, Reason: err.Error()}
	}
	if n != f.Rows {
		return &ArchiveError{File: f.Name, Reason: fmt.Sprintf("%d rows, the manifest says %d", n, f.Rows)}
	}
	return nil
}

// ArchiveError is a bad archive file: missing, changed or unreadable.
type ArchiveError struct {
	File   string
	Reason string
	err    error // what a line's reader returned, if that is why
}

func (e *ArchiveError) Error() string { return "archive " + e.File + ": " + e.Reason }

func (e *ArchiveError) Unwrap() error { return e.err }

// Decisions returns the decisions f selects, archived and live, newest
// first (by id, as QueryDecisions), at most f.Limit. A row in both (a pass
// that crashed before its commit cannot leave one, but a restored file
// could) is returned once.
func (a *Archiver) Decisions(ctx context.Context, log store.DecisionLog, f store.DecisionFilter) ([]store.DecisionRecord, error) {
	live, err := log.QueryDecisions(ctx, f)
	if err != nil {
		return nil, err
	}
	files, err := a.cfg.Store.ArchiveFiles(ctx)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, r := range live {
		seen[r.ID] = true
	}
	out := live
	for i := range files {
		af := &files[i]
		if af.Table != store.AuditDecisions || (!f.Since.IsZero() && af.To.Before(f.Since)) || (!f.Until.IsZero() && !af.From.Before(f.Until)) {
			continue
		}
		err := readArchive(a.cfg.Dir, af, func(b []byte) error {
			var l decisionLine
			if err := json.Unmarshal(b, &l); err != nil {
				return err
			}
			r := l.record()
			if f.Match(&r) && !seen[r.ID] {
				seen[r.ID] = true
				out = append(out, r)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(x, y store.DecisionRecord) int { return cmp.Compare(y.ID, x.ID) })
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[:f.Limit]
	}
	return out, nil
}

// ArchiveVerify is the outcome of verifying the archive files and the
// trust log across them. OK when every listed file is present and
// unchanged, its rows count and, for the trust log, its chain links from
// row 1 through every file into the live table.
type ArchiveVerify struct {
	Files        int   // manifest entries
	ArchivedRows int64 // trust rows in archive files
	Live         store.TrustVerify
	OK           bool
	BadFile      string // the first bad file, if one is
	FirstBad     int64  // the first bad trust row's seq, if one is
	Reason       string
}

// Verify checks every archive file the manifest lists and the trust
// log's hash chain from row 1 through the archived rows into the live
// table. An error means something could not be read, not that it is bad.
func (a *Archiver) Verify(ctx context.Context) (ArchiveVerify, error) {
	files, err := a.cfg.Store.ArchiveFiles(ctx)
	if err != nil {
		return ArchiveVerify{}, fmt.Errorf("audit: verify archives: %w", err)
	}
	v := ArchiveVerify{Files: len(files)}
	trust := slices.DeleteFunc(slices.Clone(files), func(f store.ArchiveFile) bool { return f.Table != store.AuditTrust })
	slices.SortFunc(trust, func(x, y store.ArchiveFile) int { return cmp.Compare(x.FirstSeq, y.FirstSeq) })
	var chain store.TrustChain
	for i := range trust {
		f := &trust[i]
		var first int64
		err := readArchive(a.cfg.Dir, f, func(b []byte) error {
			var l trustLine
			if err := json.Unmarshal(b, &l); err != nil {
				return err
			}
			r, err := l.record()
			if err != nil {
				return err
			}
			if first == 0 {
				first = r.Seq
			}
			v.ArchivedRows++
			if !chain.Add(&r) {
				return errChainBroken
			}
			return nil
		})
		if errors.Is(err, errChainBroken) {
			res := chain.Result(0)
			v.BadFile, v.FirstBad, v.Reason = f.Name, res.FirstBad, res.Reason
			return v, nil
		}
		if bad, ok := errors.AsType[*ArchiveError](err); ok {
			v.BadFile, v.Reason = bad.File, bad.Reason
			if res := chain.Result(0); res.OK {
				seq, _ := chain.Tail()
				v.FirstBad = seq + 1
			}
			return v, nil
		}
		if err != nil {
			return ArchiveVerify{}, fmt.Errorf("audit: verify archives: %w", err)
		}
		if seq, hash := chain.Tail(); first != f.FirstSeq || seq != f.LastSeq || hash != f.LastHash {
			v.BadFile, v.FirstBad, v.Reason = f.Name, f.FirstSeq, fmt.Sprintf("holds rows %d to %d, the manifest says %d to %d with another last hash", first, seq, f.FirstSeq, f.LastSeq)
			return v, nil
		}
	}
	for i := range files {
		if f := &files[i]; f.Table != store.AuditTrust {
			if err := readArchive(a.cfg.Dir, f, func([]byte) error { return nil }); err != nil {
				bad, ok := errors.AsType[*ArchiveError](err)
				if !ok {
					return ArchiveVerify{}, fmt.Errorf("audit: verify archives: %w", err)
				}
				v.BadFile, v.Reason = bad.File, bad.Reason
				return v, nil
			}
		}
	}
	if v.Live, err = a.cfg.Store.VerifyTrust(ctx); err != nil {
		return ArchiveVerify{}, fmt.Errorf("audit: verify archives: %w", err)
	}
	if !v.Live.OK {
		v.FirstBad, v.Reason = v.Live.FirstBad, v.Live.Reason
		return v, nil
	}
	v.OK = true
	return v, nil
}

var errChainBroken = errors.New("trust chain broken")

// Report runs the named report over the decisions f selects, archived and
// live: the live counts from log, plus the archived rows counted the same
// way (the deny reports count denials; the rules report each rule of a
// decision's triggered list). Rows come by count, descending, then key;
// f.Limit bounds their number.
func (a *Archiver) Report(ctx context.Context, log store.DecisionLog, r store.Report, f store.DecisionFilter) ([]store.ReportRow, error) {
	limit := f.Limit
	f.Limit = 0
	live, err := log.DecisionReport(ctx, r, f)
	if err != nil {
		return nil, err
	}
	counts := map[string]int64{}
	for _, row := range live {
		counts[row.Key] += row.Count
	}
	files, err := a.cfg.Store.ArchiveFiles(ctx)
	if err != nil {
		return nil, err
	}
	for i := range files {
		af := &files[i]
		if af.Table != store.AuditDecisions || (!f.Since.IsZero() && af.To.Before(f.Since)) || (!f.Until.IsZero() && !af.From.Before(f.Until)) {
			continue
		}
		err := readArchive(a.cfg.Dir, af, func(b []byte) error {
			var l decisionLine
			if err := json.Unmarshal(b, &l); err != nil {
				return err
			}
			d := l.record()
			if !f.Match(&d) {
				return nil
			}
			switch r {
			case store.MostDeniedTools:
				if d.Decision == store.VerdictDeny {
					counts[d.Tool]++
				}
			case store.DenialsByReason:
				if d.Decision == store.VerdictDeny {
					counts[d.Reason]++
				}
			case store.MostTriggeredRules:
				var rules []string
				if d.RulesTriggered != "" {
					if err := json.Unmarshal([]byte(d.RulesTriggered), &rules); err != nil {
						return fmt.Errorf("rules_triggered: %w", err)
					}
				}
				for _, rule := range rules {
					counts[rule]++
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := make([]store.ReportRow, 0, len(counts))
	for k, n := range counts {
		out = append(out, store.ReportRow{Key: k, Count: n})
	}
	slices.SortFunc(out, func(x, y store.ReportRow) int {
		return cmp.Or(cmp.Compare(y.Count, x.Count), cmp.Compare(x.Key, y.Key))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
