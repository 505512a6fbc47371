package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/grimoire/archive"
	"github.com/wardhq/ward/internal/grimoire/archive/archivetest"
	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/quarantine"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

func runWard(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(t.Context(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// grimoireFixture writes a data directory whose Grimoire holds two self
// entries and n external entries signed by keys registered in the returned
// registry, and returns the addresses of their authors.
func grimoireFixture(t *testing.T, dir string, n int) []string {
	t.Helper()
	topics := []string{"Uniswap v3 pools with a 0.05% fee tier rebalance within two blocks of a large swap.",
		"Aave utilisation above 90% raises the USDC borrow rate sharply within an hour.",
		"Gas prices on mainnet fall by about a third on weekend mornings UTC.",
		"Curve stable pools hold their peg within ten basis points outside of depeg events."}
	contents := make([]string, n)
	for i := range n {
		contents[i] = topics[i%len(topics)]
	}
	return grimoireFixtureOf(t, dir, contents)
}

// grimoireFixtureOf is grimoireFixture with one external entry per content.
func grimoireFixtureOf(t *testing.T, dir string, contents []string) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := quarantine.NewLocalRegistry()
	if err != nil {
		t.Fatal(err)
	}
	sg := ingest.NewSigner(chain.DevChainID, reg)
	now := time.Now().UTC().Truncate(time.Second)
	put := func(e knowledge.Entry, p knowledge.Partition) {
		if err := st.PutEntry(t.Context(), &store.GrimoireEntry{Entry: e, Partition: p, Created: now}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 2 {
		put(knowledge.Entry{ID: fmt.Sprintf("self-%d", i), Content: fmt.Sprintf("Own note %d: gas on Sundays is cheaper by a third.", i),
			Type: knowledge.TypeInsight, Confidence: 0.6, Source: knowledge.Source{Provenance: knowledge.Self, Timestamp: now}}, knowledge.PartitionSelf)
	}
	agents := map[string]bool{}
	for i, content := range contents {
		e := knowledge.Entry{ID: fmt.Sprintf("ext-%d", i), Content: content, Type: knowledge.TypeInsight, Confidence: 0.5,
			Source: knowledge.Source{Provenance: knowledge.Purchased, Timestamp: now.Add(-time.Hour)}}
		if err := sg.Sign(&e, fmt.Sprintf("author-%d", i%2)); err != nil {
			t.Fatal(err)
		}
		agents[e.Source.Agent] = true
		put(e, knowledge.PartitionExternal)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	var out []string
	for a := range agents {
		out = append(out, a)
	}
	return out
}

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// exported returns the entries of an export of dir, as JSON lines.
func exported(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "snapshot.zip")
	if code, _, errOut := runWard(t, "grimoire", "export", p, "--data", dir); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	dest := t.TempDir()
	_, recs, err := archive.Load(t.Context(), p, dest, archive.Limits{})
	if err != nil {
		t.Fatalf("export does not load: %v", err)
	}
	b, _, err := archive.EncodeEntries(recs)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func tempDirs(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".grimoire-import-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGrimoireImportRefusesMaliciousArchives runs the whole malicious
// corpus through `ward grimoire import`: each is refused naming its
// reason, nothing lands outside the temporary directory, the temporary
// directory is gone, and the live Grimoire is byte-for-byte unchanged.
func TestGrimoireImportRefusesMaliciousArchives(t *testing.T) {
	root := t.TempDir()
	data := filepath.Join(root, "data")
	grimoireFixture(t, data, 3)
	before, beforeHash := exported(t, data), fileHash(t, filepath.Join(data, "ward.db"))
	cases, sentinel := archivetest.Corpus(t, filepath.Join(root, "corpus"))
	if len(cases) < 30 {
		t.Fatalf("%d archives, want at least 30", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			args := []string{"grimoire", "import", c.Path, "--data", data}
			if len(c.Name)%2 == 0 { // flags before the archive too
				args = []string{"grimoire", "import", "--data", data, c.Path}
			}
			code, out, errOut := runWard(t, args...)
			if code == 0 {
				t.Fatalf("exit 0 (stdout %q), want a refusal", out)
			}
			if want := "refused: " + string(c.Reason); !strings.Contains(errOut, want) {
				t.Errorf("stderr %q does not contain %q", errOut, want)
			}
			if left := tempDirs(t, data); len(left) != 0 {
				t.Errorf("temporary directories left: %v", left)
			}
		})
	}
	if ents, _ := os.ReadDir(sentinel); len(ents) != 0 {
		t.Errorf("sentinel directory holds %d entries", len(ents))
	}
	if got := fileHash(t, filepath.Join(data, "ward.db")); got != beforeHash {
		t.Error("ward.db changed")
	}
	if after := exported(t, data); after != before {
		t.Errorf("Grimoire changed:\nbefore %s\nafter %s", before, after)
	}
}

func TestGrimoireRoundTrip(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "src"), filepath.Join(root, "dst")
	agents := grimoireFixture(t, src, 4)
	cfg := filepath.Join(root, "ward.toml")
	quoted := make([]string, len(agents))
	for i, a := range agents {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	if err := os.WriteFile(cfg, []byte("[grimoire]\nstrictness = \"relaxed\"\nidentities = ["+strings.Join(quoted, ", ")+"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"g.zip", "g.tar.gz"} {
		p := filepath.Join(root, name)
		code, out, errOut := runWard(t, "grimoire", "export", "--data", src, p)
		if code != 0 {
			t.Fatalf("export %s: exit %d: %s", name, code, errOut)
		}
		if !strings.Contains(out, "exported 6 entries (2 self, 4 external)") {
			t.Errorf("export said %q", out)
		}
	}

	// Into a data directory without a database.
	start := time.Now()
	code, out, errOut := runWard(t, "grimoire", "import", filepath.Join(root, "g.zip"), "--data", dst, "--config", cfg, "--json")
	if code != 0 {
		t.Fatalf("import: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	t.Logf("import of 6 entries into a new data directory took %v: %s", time.Since(start), strings.TrimSpace(errOut))
	if !strings.Contains(errOut, "grimoire import accepted: 6 entries read") {
		t.Errorf("summary %q", errOut)
	}
	verdicts := map[string]map[ingest.Verdict]int{}
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var r ingest.Report
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		kind := "external"
		if strings.HasPrefix(r.EntryID, "self-") {
			kind = "self"
		}
		if verdicts[kind] == nil {
			verdicts[kind] = map[ingest.Verdict]int{}
		}
		verdicts[kind][r.Verdict]++
		if kind == "external" && r.Stage == ingest.StageStage1 && r.Verdict == ingest.Rejected {
			t.Errorf("signed entry %s rejected at Stage 1: %v", r.EntryID, r.Reasons)
		}
	}
	if verdicts["self"][ingest.Rejected] != 2 {
		t.Errorf("self entries: %v, want both rejected (another Grimoire's self is not ours)", verdicts["self"])
	}
	if verdicts["external"][ingest.Adopted] == 0 {
		t.Errorf("external entries: %v, want some adopted", verdicts["external"])
	}
	if left := tempDirs(t, dst); len(left) != 0 {
		t.Errorf("temporary directories left: %v", left)
	}
	first := exported(t, dst)
	if !strings.Contains(first, `"partition":"external"`) {
		t.Errorf("nothing adopted into the external partition: %s", first)
	}

	// Again, over the existing database (the lock, copy and swap path),
	// flags first: the entries are replays now, the database stays whole.
	code, out, errOut = runWard(t, "grimoire", "import", "--data", dst, "--config", cfg, filepath.Join(root, "g.tar.gz"))
	if code != 0 {
		t.Fatalf("second import: exit %d: %s %s", code, out, errOut)
	}
	if !strings.Contains(out, "0 adopted") {
		t.Errorf("second import: %q, want nothing adopted again", out)
	}
	if got := exported(t, dst); got != first {
		t.Errorf("second import changed the Grimoire:\n%s\n%s", first, got)
	}
	if fileExists(filepath.Join(dst, "ward.db-wal")) {
		t.Error("a WAL was left next to the swapped database")
	}

	// The database open elsewhere: refused, nothing changed.
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dst, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runWard(t, "grimoire", "import", filepath.Join(root, "g.zip"), "--data", dst, "--config", cfg)
	if cerr := st.Close(); cerr != nil {
		t.Fatal(cerr)
	}
	if code == 0 || !strings.Contains(errOut, "refused: data_in_use") {
		t.Errorf("import with the database open: exit %d, %q", code, errOut)
	}
	if got := exported(t, dst); got != first {
		t.Error("the refused import changed the Grimoire")
	}
}

func TestGrimoireUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"import without archive", []string{"grimoire", "import", "--data", dir}, exitUsage, "give one archive"},
		{"import two archives", []string{"grimoire", "import", "a.zip", "b.zip", "--data", dir}, exitUsage, "give one archive"},
		{"import missing file", []string{"grimoire", "import", filepath.Join(dir, "nope.zip"), "--data", dir}, exitFail, "nothing was imported"},
		{"export bad extension", []string{"grimoire", "export", filepath.Join(dir, "g.rar"), "--data", dir}, exitUsage, ".zip, .tar.gz"},
		{"export without database is an empty Grimoire", []string{"grimoire", "export", filepath.Join(dir, "g.zip"), "--data", filepath.Join(dir, "none")}, exitOK, "the Grimoire is empty"},
		{"import of that empty archive", []string{"grimoire", "import", filepath.Join(dir, "g.zip"), "--data", filepath.Join(dir, "fresh")}, exitOK, ""},
		{"group", []string{"grimoire"}, exitUsage, "grimoire import"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runWard(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tc.code, tc.want)
			}
		})
	}
}

// An entry that import would refuse is left out of an export, which stays
// importable.
func TestGrimoireExportLeavesOutSecrets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	grimoireFixture(t, dir, 0)
	st, err := sqlite.Open(context.Background(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	err = st.PutEntry(t.Context(), &store.GrimoireEntry{Partition: knowledge.PartitionSelf, Created: now, Entry: knowledge.Entry{
		ID: "leak", Content: "-----BEGIN EC PRIVATE KEY----- oops", Type: knowledge.TypeWarning, Confidence: 0.9,
		Source: knowledge.Source{Provenance: knowledge.Self, Timestamp: now}}})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "g.tgz")
	code, out, errOut := runWard(t, "grimoire", "export", p, "--data", dir)
	if code != 0 || !strings.Contains(errOut, `left out entry "leak"`) || !strings.Contains(out, "exported 2 entries") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, _, err := archive.Load(t.Context(), p, t.TempDir(), archive.Limits{}); err != nil {
		t.Errorf("export does not load: %v", err)
	}
}

// TestGrimoireExportScopes: an export for the clade or the commons holds
// only what the propagation gates let reach it; a listing only the
// actor's own entries; local everything.
func TestGrimoireExportScopes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	grimoireFixture(t, dir, 0) // two self insights at 0.6: they reach the clade
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := quarantine.NewLocalRegistry()
	if err != nil {
		t.Fatal(err)
	}
	sg := ingest.NewSigner(chain.DevChainID, reg)
	now := time.Now().UTC().Truncate(time.Second)
	self := func(id string, typ knowledge.EntryType, conf float64) {
		e := knowledge.Entry{ID: id, Content: "Own " + id + ": weekend gas is cheaper.", Type: typ, Confidence: conf,
			Source: knowledge.Source{Provenance: knowledge.Self, Timestamp: now}}
		if typ == knowledge.TypeHeuristic {
			e.Heuristic = &knowledge.Heuristic{Conditions: []string{"gas above 100 gwei"}, Actions: []string{"wait"}}
		}
		if err := st.PutEntry(t.Context(), &store.GrimoireEntry{Entry: e, Partition: knowledge.PartitionSelf, Created: now}); err != nil {
			t.Fatal(err)
		}
	}
	self("weak-warning", knowledge.TypeWarning, 0.3) // below 0.4: local
	self("own-heuristic", knowledge.TypeHeuristic, 0.9)
	var author string
	external := func(id string, typ knowledge.EntryType, conf float64, validations int, record bool) {
		e := knowledge.Entry{ID: id, Content: "External " + id + ": Aave utilisation above 90% lifts rates.", Type: typ, Confidence: 0.5,
			Source: knowledge.Source{Provenance: knowledge.Purchased, Timestamp: now.Add(-time.Hour)}}
		if typ == knowledge.TypeHeuristic {
			e.Heuristic = &knowledge.Heuristic{Conditions: []string{"utilisation above 90%"}, Actions: []string{"repay"}}
		}
		if err := sg.Sign(&e, "seller"); err != nil {
			t.Fatal(err)
		}
		author = e.Source.Agent
		g := &store.GrimoireEntry{Entry: e, Partition: knowledge.PartitionExternal, Created: now}
		if record {
			g.Adoption = &adopt.Record{ID: id, Type: typ, Provenance: knowledge.Purchased, Agent: strings.ToLower(e.Source.Agent),
				Confidence: conf, Ceiling: 0.8, Validations: validations, Adopted: now}
		}
		if err := st.PutEntry(t.Context(), g); err != nil {
			t.Fatal(err)
		}
	}
	external("validated-heuristic", knowledge.TypeHeuristic, 0.75, 5, true) // the commons
	external("young-heuristic", knowledge.TypeHeuristic, 0.75, 4, true)     // local
	external("strong-insight", knowledge.TypeInsight, 0.65, 0, true)        // the clade
	external("unrecorded", knowledge.TypeInsight, 0.9, 0, false)            // local: no record
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	ids := func(args ...string) string {
		t.Helper()
		p := filepath.Join(t.TempDir(), "out.zip")
		code, _, errOut := runWard(t, append([]string{"grimoire", "export", p, "--data", dir}, args...)...)
		if code != 0 {
			t.Fatalf("export %v: exit %d: %s", args, code, errOut)
		}
		_, recs, err := archive.Load(t.Context(), p, t.TempDir(), archive.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range recs {
			out = append(out, r.ID)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "own-heuristic,self-0,self-1,strong-insight,unrecorded,validated-heuristic,weak-warning,young-heuristic"},
		{[]string{"--scope", "clade"}, "self-0,self-1,strong-insight,validated-heuristic"},
		{[]string{"--scope", "commons"}, "validated-heuristic"},
		{[]string{"--scope", "listed", "--actor", author}, "strong-insight,unrecorded,validated-heuristic,young-heuristic"},
		{[]string{"--scope", "listed", "--actor", "0x" + strings.ToUpper(author[2:])}, "strong-insight,unrecorded,validated-heuristic,young-heuristic"},
		{[]string{"--scope", "listed", "--actor", "0x" + strings.Repeat("1", 40)}, ""},
	} {
		if got := ids(tc.args...); got != tc.want {
			t.Errorf("export %v = %s, want %s", tc.args, got, tc.want)
		}
	}
	for _, args := range [][]string{{"--scope", "listed"}, {"--scope", "everyone"}, {"--scope", "clade", "--actor", author}, {"--scope", "listed", "--actor", "0xnothex"}} {
		p := filepath.Join(t.TempDir(), "bad.zip")
		code, _, errOut := runWard(t, append([]string{"grimoire", "export", p, "--data", dir}, args...)...)
		if code == 0 || !strings.Contains(errOut, "--") {
			t.Errorf("export %v: exit %d, %q; want a usage error naming the flag", args, code, errOut)
		}
		if _, err := os.Stat(p); err == nil {
			t.Errorf("export %v wrote an archive", args)
		}
	}
}

// `ward grimoire import` validates the archive as one batch: entries whose
// claims contradict each other are flagged and validated fully under
// scrutiny, and the import stays all-or-nothing with its reports.
func TestGrimoireImportValidatesAsABatch(t *testing.T) {
	root := t.TempDir()
	src, dst := filepath.Join(root, "src"), filepath.Join(root, "dst")
	agents := grimoireFixtureOf(t, src, []string{
		"ETH/USDC pool fees rise when realised volatility spikes.",
		"ETH/USDC pool fees fall when realised volatility spikes.",
		"Aave utilisation above 90% raises the USDC borrow rate sharply within an hour.",
	})
	cfg := filepath.Join(root, "ward.toml")
	quoted := make([]string, len(agents))
	for i, a := range agents {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	if err := os.WriteFile(cfg, []byte("[grimoire]\nstrictness = \"relaxed\"\nidentities = ["+strings.Join(quoted, ", ")+"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, "g.zip")
	if code, _, errOut := runWard(t, "grimoire", "export", "--data", src, p); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	code, out, errOut := runWard(t, "grimoire", "import", p, "--data", dst, "--config", cfg, "--json")
	if code != 0 {
		t.Fatalf("import: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "grimoire import accepted: 5 entries read") {
		t.Errorf("summary %q", errOut)
	}
	flagged := map[string]bool{}
	var ids []string
	dec := json.NewDecoder(strings.NewReader(out))
	for dec.More() {
		var r ingest.Report
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.EntryID)
		flagged[r.EntryID] = slices.Contains(r.Flags, ingest.FlagContradiction)
	}
	if len(ids) != 5 {
		t.Fatalf("%d reports %v, want one per entry", len(ids), ids)
	}
	if !flagged["ext-0"] || !flagged["ext-1"] || flagged["ext-2"] {
		t.Errorf("contradiction flags %v, want ext-0 and ext-1 only", flagged)
	}
}
