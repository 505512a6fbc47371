package cli

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/grimoire/archive"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/vault"
)

const grimoireExportHelp = `Writes the Grimoire of the ward in --data to ARCHIVE: a zip, tar.gz (or
.tgz) or tar, by ARCHIVE's extension, holding manifest.json (format
version, ward version, creation time, entry counts, the size and SHA-256 of
every other file) and entries.jsonl (the self and external partitions, one
knowledge entry per line with its partition). Never the quarantine, the
vault key, tokens or signer keys. An entry that import would refuse (one
holding something that looks like key material or a token) is left out and
named on standard error. ARCHIVE is written to a temporary file and renamed
into place.

--scope says who the archive is for. local (the default) is a backup: every
entry. clade and commons apply the propagation gates: only warnings at
confidence 0.4 or more and insights at 0.6 or more reach the clade, only
heuristics with 5 validations at 0.7 or more reach the commons (and so the
clade); other entries are left out, counted on standard error. listed is a
marketplace listing, which only an entry's author may make: it needs
--actor, and exports only the entries whose author is that address.
See docs/grimoire-archive.md.`

const grimoireImportHelp = `Imports a Grimoire archive (zip, tar or tar.gz, detected by content) into
the ward in --data, and exits 0 only when the import is accepted.

The archive is extracted into a fresh temporary directory under --data and
refused as a whole, naming the reason, at the first symlink, hard link or
special file, unsafe or duplicate name, forbidden extension, nested
archive, size, count or compression-ratio limit (500 MB, 10,000 files),
corrupt or truncated container, secret (key material or a token), manifest
mismatch or invalid entry. Nothing in the store is touched until the whole
archive has passed.

Then every entry goes through ingestion as external knowledge, with the
pipeline 'ward serve' builds from the configuration: Stage 1 provenance
([grimoire] identities and members), Stage 2 consensus, adoption. An
unsigned or unknown-author entry, or a self entry of the other Grimoire, is
rejected by Stage 1: that is a verdict, not a refusal. The import is
all-or-nothing: it runs against a copy of the database taken under an
exclusive lock and the copy replaces the database with one atomic rename; on
any failure the database is unchanged. The database must not be open in
another process (stop ward serve first).`

// grimoireImport is `ward grimoire import`.
func grimoireImport(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "grimoire import", "ARCHIVE", grimoireImportHelp)
	data := dataFlag(fs, "data directory (created if missing)")
	cfgPath := fs.String("config", "", "ward.toml (default: ./ward.toml if present, else the embedded defaults)")
	asJSON := fs.Bool("json", false, "print one JSON report per entry, then the summary on standard error")
	verbose := fs.Bool("v", false, "print one line per entry")
	pos, st, ok := parseAnywhere(fs, args)
	if !ok {
		return st
	}
	if len(pos) != 1 {
		return usageErr(io, "grimoire import: give one archive")
	}
	f, err := loadConfig(*cfgPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	if f.Store.URL != "" {
		// All or nothing rests on staging a copy of the SQLite file and
		// swapping it in; a shared database has no such swap.
		return fail(io, "grimoire import: not supported on a shared PostgreSQL store ([store] url): import into a SQLite data directory, or share the entries with the clade through the relay")
	}
	if err := os.MkdirAll(*data, 0o700); err != nil {
		return fail(io, "grimoire import: data directory: %v", err)
	}
	tmp, err := os.MkdirTemp(*data, ".grimoire-import-")
	if err != nil {
		return fail(io, "grimoire import: %v", err)
	}
	defer os.RemoveAll(tmp)
	extracted := filepath.Join(tmp, "archive")
	if err := os.Mkdir(extracted, 0o700); err != nil {
		return fail(io, "grimoire import: %v", err)
	}
	ix, recs, err := archive.Load(ctx, pos[0], extracted, archive.Limits{})
	if err != nil {
		return importFailed(io, err)
	}
	if err := os.RemoveAll(extracted); err != nil {
		return fail(io, "grimoire import: %v", err)
	}
	reports, err := importEntries(ctx, *data, tmp, f, recs)
	if err != nil {
		return importFailed(io, err)
	}

	counts := map[ingest.Verdict]int{}
	codes := map[string]int{}
	enc := json.NewEncoder(io.Out)
	for _, r := range reports {
		counts[r.Verdict]++
		if r.Verdict != ingest.Adopted {
			codes[string(r.Code)]++
		}
		switch {
		case *asJSON:
			if err := enc.Encode(r); err != nil {
				return fail(io, "%v", err)
			}
		case *verbose:
			fmt.Fprintln(io.Out, reportLine(r))
		}
	}
	out := io.Out
	if *asJSON {
		out = io.Err
	}
	fmt.Fprintf(out, "grimoire import accepted: %d entries read (%s): %d adopted, %d quarantined, %d rejected%s%s\n",
		len(recs), partitionCounts(ix), counts[ingest.Adopted], counts[ingest.Quarantined], counts[ingest.Rejected],
		confirmedCount(counts[ingest.Confirmed]), codeCounts(codes))
	return exitOK
}

// errInUse: the live database is open elsewhere.
var errInUse = errors.New("the database is open in another process (stop ward serve first)")

func importFailed(io IO, err error) int {
	var re *archive.RefusedError
	switch {
	case errors.As(err, &re):
		fmt.Fprintf(io.Err, "ward: grimoire import refused: %s; nothing was imported\n", strings.TrimPrefix(re.Error(), "archive refused: "))
	case errors.Is(err, errInUse):
		fmt.Fprintf(io.Err, "ward: grimoire import refused: data_in_use: %v; nothing was imported\n", err)
	default:
		fmt.Fprintf(io.Err, "ward: grimoire import failed: %v; nothing was imported\n", err)
	}
	return exitFail
}

func partitionCounts(ix *archive.Index) string {
	keys := make([]string, 0, len(ix.Entries))
	for k := range ix.Entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", ix.Entries[k], k))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func codeCounts(codes map[string]int) string {
	if len(codes) == 0 {
		return ""
	}
	keys := make([]string, 0, len(codes))
	for k := range codes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, codes[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// importEntries ingests recs into the database of dataDir, all or nothing.
//
// It takes an exclusive lock on the live database (SQLite's EXCLUSIVE
// locking mode: refused at once if any other connection, in any process,
// has it open), copies it with VACUUM INTO to stage under tmp (same file
// system), opens the stack 'ward serve' opens over the copy and runs every
// entry through its ingestion pipeline, closes it (checkpointing the copy's
// WAL into it), syncs it, takes the live database out of WAL mode (so no
// stale WAL can be applied to the copy) and renames the copy over it, still
// under the lock. Until that rename the live database is untouched; the
// rename is atomic. Without a live database the copy starts empty and is
// linked into place only if none appeared meanwhile.
func importEntries(ctx context.Context, dataDir, tmp string, f *config.File, recs []archive.Record) (_ []*ingest.Report, err error) {
	live := filepath.Join(dataDir, "ward.db")
	stageDir := filepath.Join(tmp, "stage")
	if err := os.Mkdir(stageDir, 0o700); err != nil {
		return nil, err
	}
	staged := filepath.Join(stageDir, "ward.db")
	var lock *sqlite3.Conn
	if fileExists(live) {
		if lock, err = lockDatabase(live); err != nil {
			return nil, err
		}
		defer func() { err = errors.Join(err, lock.Close()) }()
		if err := copyDatabase(lock, staged); err != nil {
			return nil, err
		}
	}
	// The stack over the copy seals with the live vault key, which the
	// copy's key check names: a fresh key there would be refused (and
	// would seal what the import writes with a key the live ward lacks).
	// Without a live key yet, it is made in the data directory first, so
	// that the database linked in below never lacks the key it was sealed
	// with.
	liveKey := filepath.Join(dataDir, "vault.key")
	if !fileExists(liveKey) {
		v, err := vault.Open(liveKey)
		if err != nil {
			return nil, fmt.Errorf("grimoire import: %w", err)
		}
		v.Close()
	}
	key, err := os.ReadFile(liveKey)
	if err != nil {
		return nil, err
	}
	err = os.WriteFile(filepath.Join(stageDir, "vault.key"), key, 0o600)
	clear(key)
	if err != nil {
		return nil, err
	}
	reports, err := ingestInto(ctx, stageDir, f, recs)
	if err != nil {
		return nil, err
	}
	for _, suffix := range []string{"-wal", "-journal"} {
		if fileExists(staged + suffix) {
			return nil, fmt.Errorf("grimoire import: the copy kept its %s file", suffix)
		}
	}
	if err := syncFile(staged); err != nil {
		return nil, err
	}
	if lock == nil {
		// os.Link fails if a database appeared meanwhile.
		if err := os.Link(staged, live); err != nil {
			return nil, fmt.Errorf("grimoire import: %w", err)
		}
	} else {
		if fi, err := os.Stat(live); err == nil {
			if err := os.Chmod(staged, fi.Mode().Perm()); err != nil {
				return nil, err
			}
		}
		if err := lock.Exec(`PRAGMA journal_mode = DELETE`); err != nil {
			return nil, fmt.Errorf("grimoire import: leave WAL mode: %w", err)
		}
		if err := os.Rename(staged, live); err != nil {
			return nil, fmt.Errorf("grimoire import: swap: %w", err)
		}
	}
	return reports, syncFile(dataDir)
}

// lockDatabase opens path and takes SQLite's exclusive lock on it, failing
// with errInUse if another connection has it open.
func lockDatabase(path string) (*sqlite3.Conn, error) {
	c, err := sqlite3.OpenFlags(path, sqlite3.OPEN_READWRITE)
	if err != nil {
		return nil, fmt.Errorf("grimoire import: %w", err)
	}
	if err := c.Exec(`PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE; BEGIN IMMEDIATE; COMMIT;`); err != nil {
		c.Close()
		if errors.Is(err, sqlite3.BUSY) || errors.Is(err, sqlite3.LOCKED) {
			return nil, errInUse
		}
		return nil, fmt.Errorf("grimoire import: lock: %w", err)
	}
	return c, nil
}

// copyDatabase writes a consistent copy of c's database to path.
func copyDatabase(c *sqlite3.Conn, path string) error {
	st, _, err := c.Prepare(`VACUUM INTO ?`)
	if err != nil {
		return fmt.Errorf("grimoire import: copy: %w", err)
	}
	defer st.Close()
	if err := st.BindText(1, path); err != nil {
		return fmt.Errorf("grimoire import: copy: %w", err)
	}
	if err := st.Exec(); err != nil {
		return fmt.Errorf("grimoire import: copy: %w", err)
	}
	return nil
}

// ingestInto opens the stack over the database in dir and ingests recs as
// external knowledge, as one batch (ingest.Pipeline.IngestBatch: clusters
// of near-duplicates and the cross-entry contradiction check), one report
// per record in order; any pipeline error aborts the import.
func ingestInto(ctx context.Context, dir string, f *config.File, recs []archive.Record) (_ []*ingest.Report, err error) {
	st, err := daemon.OpenData(ctx, dir, f)
	if err != nil {
		return nil, fmt.Errorf("grimoire import: open the stack: %w", err)
	}
	defer func() { err = errors.Join(err, st.Close()) }()
	es := make([]*knowledge.Entry, len(recs))
	for i := range recs {
		e := recs[i].Entry
		es[i] = &e
	}
	reports, err := st.Ingest.IngestBatch(ctx, es)
	if err != nil {
		return nil, fmt.Errorf("grimoire import: %w", err)
	}
	if len(reports) != len(recs) {
		return nil, fmt.Errorf("grimoire import: %d of %d entries decided", len(reports), len(recs))
	}
	return reports, nil
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	return errors.Join(err, f.Close())
}

// grimoireExport is `ward grimoire export`.
func grimoireExport(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "grimoire export", "ARCHIVE", grimoireExportHelp)
	data := dataFlag(fs, "data directory of the ward whose Grimoire to export")
	cfgPath := fs.String("config", "", "ward.toml whose [store] url names a shared database (default: ./ward.toml if present)")
	scopeName := fs.String("scope", "local", "who the archive is for: local (every entry), clade, commons (the propagation gates) or listed (--actor's own entries)")
	actor := fs.String("actor", "", "with --scope listed: the address listing its entries")
	pos, st, ok := parseAnywhere(fs, args)
	if !ok {
		return st
	}
	if len(pos) != 1 {
		return usageErr(io, "grimoire export: give one archive path (.zip, .tar.gz, .tgz or .tar)")
	}
	f, err := loadConfig(*cfgPath)
	if err != nil {
		return usageErr(io, "grimoire export: %v", err)
	}
	scope, err := exportScope(*scopeName, *actor)
	if err != nil {
		return usageErr(io, "grimoire export: %v", err)
	}
	format, err := archive.FormatOf(pos[0])
	if err != nil {
		return usageErr(io, "grimoire export: %v", err)
	}
	var recs []archive.Record
	held := 0
	var skipped []string
	if db := storeOf(f, *data, ""); storeExists(db) {
		st, err := daemon.OpenStore(ctx, db, "")
		if err != nil {
			return fail(io, "grimoire export: %v", err)
		}
		recs, skipped, err = exportRecords(ctx, st)
		if err == nil {
			recs, held = scope.filter(recs, func(id string) *adopt.Record {
				r, err := st.Adoption(ctx, id)
				if err != nil {
					return nil
				}
				return r
			})
		}
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(io, "grimoire export: %v", err)
		}
	} else {
		// A ward that never ran has an empty Grimoire: its archive is
		// valid, and importing it changes nothing.
		fmt.Fprintf(io.Err, "ward: grimoire export: no ward database in %s: the Grimoire is empty\n", *data)
	}
	for _, s := range skipped {
		fmt.Fprintf(io.Err, "ward: grimoire export: left out %s\n", s)
	}
	if held > 0 {
		fmt.Fprintf(io.Err, "ward: grimoire export: left out %d entries that may not reach the %s scope\n", held, scope.scope)
	}
	lines, counts, err := archive.EncodeEntries(recs)
	if err != nil {
		return fail(io, "grimoire export: %v", err)
	}
	if len(lines) > archive.DefaultMaxTotal-archive.MaxIndex {
		return fail(io, "grimoire export: %d bytes of entries, above the %d an import accepts", len(lines), archive.DefaultMaxTotal)
	}
	ix := archive.Index{Format: archive.FormatVersion, WardVersion: Version, Created: time.Now().UTC(), Entries: counts}
	if err := writeArchive(pos[0], format, ix, []archive.Member{{Name: archive.EntriesName, Data: lines}}); err != nil {
		return fail(io, "grimoire export: %v", err)
	}
	fmt.Fprintf(io.Out, "exported %d entries (%d self, %d external) to %s\n", len(recs),
		counts[knowledge.PartitionSelf.String()], counts[knowledge.PartitionExternal.String()], pos[0])
	return exitOK
}

// exportScoping is an export's audience: an adopt.Scope, and for a
// listing the actor listing.
type exportScoping struct {
	scope adopt.Scope
	actor string
}

func exportScope(name, actor string) (exportScoping, error) {
	var sc exportScoping
	switch name {
	case "local":
		sc.scope = adopt.ScopeLocal
	case "clade":
		sc.scope = adopt.ScopeClade
	case "commons":
		sc.scope = adopt.ScopeCommons
	case "listed":
		sc.scope = adopt.ScopeListed
		if _, err := tool.ParseAddress(actor); err != nil {
			return sc, errors.New("--scope listed needs --actor, the 0x-prefixed 40-digit address listing its own entries")
		}
	default:
		return sc, fmt.Errorf("--scope %.32q: want local, clade, commons or listed", name)
	}
	if actor != "" && sc.scope != adopt.ScopeListed {
		return sc, errors.New("--actor is only for --scope listed")
	}
	sc.actor = actor
	return sc, nil
}

// filter returns the records that may reach the scope, and how many may
// not. Local takes everything. Clade and commons apply the propagation
// gates (adopt.MayPropagate) to an external entry's adoption record, or to
// the agent's own entry's type and confidence (it has no validations, so
// its heuristics never reach the commons automatically); an external
// entry without a record stays local. Listed takes only the actor's own
// entries (adopt.MayList).
func (sc exportScoping) filter(recs []archive.Record, adoption func(id string) *adopt.Record) ([]archive.Record, int) {
	if sc.scope == adopt.ScopeLocal {
		return recs, 0
	}
	out := recs[:0:0]
	for _, r := range recs {
		ok := false
		switch sc.scope {
		case adopt.ScopeListed:
			ok = adopt.MayList(sc.actor, r.Source.Agent)
		default:
			ar := &adopt.Record{ID: r.ID, Type: r.Type, Provenance: r.Source.Provenance, Confidence: r.Confidence}
			if r.Partition == knowledge.PartitionExternal {
				ar = adoption(r.ID)
			}
			ok = ar != nil && adopt.MayPropagate(ar, sc.scope)
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, len(recs) - len(out)
}

// exportRecords returns the self and external partitions, oldest first,
// leaving out (and describing) entries an import would refuse.
func exportRecords(ctx context.Context, st store.Grimoire) (recs []archive.Record, skipped []string, err error) {
	for _, p := range []knowledge.Partition{knowledge.PartitionSelf, knowledge.PartitionExternal} {
		es, err := st.Entries(ctx, p, 0)
		if err != nil {
			return nil, nil, err
		}
		for _, g := range es {
			rec := archive.Record{Entry: g.Entry, Partition: g.Partition, Created: g.Created.UTC()}
			line, _, err := archive.EncodeEntries([]archive.Record{rec})
			switch {
			case err != nil:
				skipped = append(skipped, fmt.Sprintf("entry %q: %v", g.Entry.ID, err))
			case g.Entry.ID == "" || g.Entry.Validate() != nil:
				skipped = append(skipped, fmt.Sprintf("entry %q: invalid", g.Entry.ID))
			case len(line) > archive.MaxLine:
				skipped = append(skipped, fmt.Sprintf("entry %q: above %d bytes", g.Entry.ID, archive.MaxLine))
			default:
				if kind := archive.ScanSecrets(line); kind != "" {
					skipped = append(skipped, fmt.Sprintf("entry %q: it holds what looks like a secret (%s)", g.Entry.ID, kind))
					continue
				}
				recs = append(recs, rec)
			}
		}
	}
	slices.SortStableFunc(recs, func(a, b archive.Record) int {
		return cmp.Or(cmp.Compare(a.Partition, b.Partition), a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return recs, skipped, nil
}

// writeArchive writes the archive to a temporary file next to path and
// renames it into place.
func writeArchive(path string, format archive.Format, ix archive.Index, members []archive.Member) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".ward-export-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	w := bufio.NewWriter(tmp)
	if err := archive.Write(w, format, ix, members); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// parseAnywhere parses flags placed before, between or after positional
// arguments and returns the positional ones.
func parseAnywhere(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	var pos []string
	for {
		if st, ok := parse(fs, args); !ok {
			return nil, st, false
		}
		if fs.NArg() == 0 {
			return pos, 0, true
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
