package audit

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/store/storetest"
)

var now = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

type fixture struct {
	t     testing.TB
	st    *sqlite.Store
	dir   string
	ages  []time.Duration // of the decisions, in append order
	trust []*store.TrustRecord
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(t.TempDir(), "ward.db"), Synchronous: "normal"})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return &fixture{t: t, st: st, dir: filepath.Join(t.TempDir(), "audit-archive")}
}

// add appends a decision, an action and a trust row of each age.
func (f *fixture) add(ages ...time.Duration) {
	f.t.Helper()
	ctx := f.t.Context()
	for _, age := range ages {
		at := now.Add(-age)
		n := len(f.ages)
		d := &store.DecisionRecord{ID: storetest.TimeID(at, n), Time: at, SessionID: "s1", Tool: fmt.Sprintf("tool_%d", n%3), Risk: "dangerous",
			Decision: []store.Verdict{store.VerdictDeny, store.VerdictAllow}[n%2], Reason: fmt.Sprintf("R%d", n%2), RulesEvaluated: `["a","b","c"]`,
			RulesTriggered: []string{`["b"]`, `["a","b"]`, `[]`}[n%3], Latency: 1234 * time.Nanosecond, SpendCents: 5, Origin: store.OriginGate}
		if err := f.st.AppendDecision(ctx, d, true); err != nil {
			f.t.Fatal(err)
		}
		f.ages = append(f.ages, age)
		a := &store.ActionRecord{ID: id.New(at), Time: at, Kind: store.ActionVetoed, Status: store.StatusBlocked, Tool: "wallet_send_token",
			Detail: []byte(`{"why": "test"}`)}
		if err := f.st.AppendAction(ctx, a); err != nil {
			f.t.Fatal(err)
		}
		r := &store.TrustRecord{ID: id.New(at), Time: at, Kind: store.TrustAccessDenied, SessionID: "s1", Actor: "gate",
			Target: fmt.Sprintf("t%d", len(f.trust)), Detail: []byte(`{"n": 1}`)}
		if err := f.st.AppendTrust(ctx, r); err != nil {
			f.t.Fatal(err)
		}
		f.trust = append(f.trust, r)
	}
}

func (f *fixture) archiver(batch int) *Archiver {
	f.t.Helper()
	a, err := NewArchiver(ArchiveConfig{Store: f.st, Dir: f.dir, Retain: 24 * time.Hour, Batch: batch})
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

func (f *fixture) verify(a *Archiver) ArchiveVerify {
	f.t.Helper()
	v, err := a.Verify(f.t.Context())
	if err != nil {
		f.t.Fatalf("Verify: %v", err)
	}
	return v
}

func (f *fixture) allDecisions(a *Archiver) []store.DecisionRecord {
	f.t.Helper()
	recs, err := a.Decisions(f.t.Context(), f.st, store.DecisionFilter{})
	if err != nil {
		f.t.Fatalf("Decisions: %v", err)
	}
	return recs
}

func TestArchivePass(t *testing.T) {
	f := newFixture(t)
	f.add(72*time.Hour, 50*time.Hour, 49*time.Hour, 48*time.Hour, 30*time.Hour, 2*time.Hour, time.Hour)
	before, err := f.st.QueryDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	reports := map[store.Report][]store.ReportRow{}
	for _, r := range store.Reports() {
		if reports[r], err = f.st.DecisionReport(t.Context(), r, store.DecisionFilter{}); err != nil || len(reports[r]) == 0 {
			t.Fatalf("report %s before archiving: %v, %v", r, reports[r], err)
		}
	}
	a := f.archiver(2)
	res, err := a.Pass(t.Context(), now)
	if err != nil {
		t.Fatalf("Pass: %v", err)
	}
	for _, r := range store.Reports() {
		got, err := a.Report(t.Context(), f.st, r, store.DecisionFilter{})
		if err != nil || !slices.Equal(got, reports[r]) {
			t.Errorf("report %s with archives = %v, %v; want %v as before archiving", r, got, err, reports[r])
		}
		if got, _ := a.Report(t.Context(), f.st, r, store.DecisionFilter{Limit: 1}); !slices.Equal(got, reports[r][:1]) {
			t.Errorf("report %s with archives, limit 1 = %v, want %v", r, got, reports[r][:1])
		}
	}
	want := map[store.AuditTable]int64{store.AuditDecisions: 5, store.AuditActions: 5, store.AuditTrust: 5}
	for tbl, n := range want {
		if res.Rows[tbl] != n {
			t.Errorf("archived %d %s rows, want %d", res.Rows[tbl], tbl, n)
		}
	}
	if len(res.Files) != 9 { // batches of 2: 3 files per table
		t.Errorf("%d files, want 9", len(res.Files))
	}
	live, _ := f.st.QueryDecisions(t.Context(), store.DecisionFilter{})
	if len(live) != 2 {
		t.Errorf("%d decisions live, want the 2 of the last day", len(live))
	}
	if acts, _ := f.st.Actions(t.Context(), store.ActionFilter{}); len(acts) != 2 {
		t.Errorf("%d actions live, want 2", len(acts))
	}
	if tr, _ := f.st.TrustRecords(t.Context(), 0, 0); len(tr) != 2 || tr[0].Seq != 6 {
		t.Errorf("live trust log: %d rows, want rows 6 and 7", len(tr))
	}

	got := f.allDecisions(a)
	if len(got) != len(before) {
		t.Fatalf("with archives %d decisions, want %d", len(got), len(before))
	}
	for i := range got {
		if fmt.Sprint(got[i]) != fmt.Sprint(before[i]) {
			t.Errorf("decision %d read back as\n%+v\nwant\n%+v", i, got[i], before[i])
		}
	}
	since, err := a.Decisions(t.Context(), f.st, store.DecisionFilter{Since: now.Add(-49 * time.Hour), Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if ids := idsOf(since); !slices.Equal(ids, idsOf(before[:3])) {
		t.Errorf("since 49h, limit 3: %v, want the 3 newest %v", ids, idsOf(before[:3]))
	}

	v := f.verify(a)
	if !v.OK || v.Files != 9 || v.ArchivedRows != 5 || v.Live.Rows != 2 {
		t.Fatalf("Verify = %+v, want OK over 9 files, 5 archived and 2 live trust rows", v)
	}
	// The chain goes on across a second pass.
	f.add(time.Minute)
	if _, err := a.Pass(t.Context(), now.Add(48*time.Hour)); err != nil {
		t.Fatalf("second Pass: %v", err)
	}
	if v := f.verify(a); !v.OK || v.ArchivedRows != 7 || v.Live.Rows != 1 {
		t.Fatalf("Verify after a second pass = %+v, want OK, 7 archived rows and the last one live", v)
	}
}

func idsOf(recs []store.DecisionRecord) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

// TestArchiveKilledBeforeCommit stops a pass after its first file is
// written and synced, before the rows are deleted, as a kill would: the
// rows stay live and are read once, and a rerun archives them once.
func TestArchiveKilledBeforeCommit(t *testing.T) {
	f := newFixture(t)
	f.add(72*time.Hour, 50*time.Hour, 49*time.Hour, time.Hour)
	a := f.archiver(10)
	killed := errors.New("killed")
	var written string
	a.beforeCommit = func(name string) error { written = name; return killed }
	if _, err := a.Pass(t.Context(), now); !errors.Is(err, killed) {
		t.Fatalf("Pass = %v, want the kill", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, written)); err != nil {
		t.Fatalf("the file written before the kill: %v", err)
	}
	if live, _ := f.st.QueryDecisions(t.Context(), store.DecisionFilter{}); len(live) != 4 {
		t.Fatalf("%d decisions live after the kill, want 4", len(live))
	}
	if got := f.allDecisions(a); len(got) != 4 {
		t.Errorf("after the kill %d decisions with archives, want 4 (none twice)", len(got))
	}
	if v := f.verify(a); !v.OK || v.Files != 0 {
		t.Errorf("Verify after the kill = %+v, want OK and no files", v)
	}

	a.beforeCommit = nil
	res, err := a.Pass(t.Context(), now)
	if err != nil {
		t.Fatalf("rerun: %v", err)
	}
	if res.Rows[store.AuditDecisions] != 3 || res.Rows[store.AuditTrust] != 3 {
		t.Errorf("rerun archived %v, want 3 decisions and 3 trust rows", res.Rows)
	}
	got := f.allDecisions(a)
	if len(got) != 4 || len(slices.Compact(idsOf(got))) != 4 {
		t.Errorf("after the rerun %d decisions with archives, want each of the 4 once", len(got))
	}
	// The file of the killed pass is not read, and once older than
	// OrphanAge a pass removes it.
	orphan := filepath.Join(f.dir, written)
	if _, err := os.Stat(orphan); err != nil {
		t.Fatalf("the killed pass's file, younger than OrphanAge: %v", err)
	}
	old := time.Now().Add(-OrphanAge - time.Minute)
	if err := os.Chtimes(orphan, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Pass(t.Context(), now); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(orphan); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed pass's file after a later pass: %v, want it removed", err)
	}
	entries, _ := os.ReadDir(f.dir)
	if len(entries) != 3 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("archive directory holds %v, want the 3 committed files", names)
	}
	if v := f.verify(a); !v.OK {
		t.Errorf("Verify after the rerun = %+v", v)
	}
}

func TestArchiveVerifyDetects(t *testing.T) {
	tests := []struct {
		name   string
		table  store.AuditTable
		spoil  func(t *testing.T, path string)
		reason string
	}{
		{"missing trust file", store.AuditTrust, func(t *testing.T, p string) { os.Remove(p) }, "missing"},
		{"tampered trust file", store.AuditTrust, rewrite("t1", "t9"), "changed"},
		{"missing decisions file", store.AuditDecisions, func(t *testing.T, p string) { os.Remove(p) }, "missing"},
		{"tampered decisions file", store.AuditDecisions, rewrite(`"deny"`, `"allow"`), "changed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.add(72*time.Hour, 50*time.Hour, 49*time.Hour, 48*time.Hour, time.Hour)
			a := f.archiver(2)
			res, err := a.Pass(t.Context(), now)
			if err != nil {
				t.Fatal(err)
			}
			var victim string
			for _, file := range res.Files {
				if file.Table == tt.table {
					victim = file.Name // the first of the table's
					break
				}
			}
			tt.spoil(t, filepath.Join(f.dir, victim))
			v := f.verify(a)
			if v.OK || v.BadFile != victim || !strings.Contains(v.Reason, tt.reason) {
				t.Errorf("Verify = %+v, want file %s bad: %s", v, victim, tt.reason)
			}
			if tt.table == store.AuditTrust && v.FirstBad != 1 {
				t.Errorf("FirstBad = %d, want row 1", v.FirstBad)
			}
			if tt.table == store.AuditDecisions {
				if _, err := a.Decisions(t.Context(), f.st, store.DecisionFilter{}); err == nil {
					t.Error("Decisions read a bad archive without an error")
				}
			}
		})
	}
}

// rewrite re-compresses the archive at path with old replaced by new: a
// tamperer who knows the format.
func rewrite(old, new string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		t.Helper()
		in, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(in)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		in.Close()
		s := string(raw)
		if !strings.Contains(s, old) {
			t.Fatalf("%s does not hold %s", path, old)
		}
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(out)
		zw.Write([]byte(strings.Replace(s, old, new, 1)))
		if err := errors.Join(zw.Close(), out.Close()); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseRetain(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		bad  string
	}{
		{"", 0, ""},
		{"720h", 720 * time.Hour, ""},
		{"30d", 30 * 24 * time.Hour, ""},
		{"1h", time.Hour, ""},
		{"59m", 0, "shorter"},
		{"0d", 0, "shorter"},
		{"-5d", 0, "days"},
		{"soon", 0, "neither"},
		{"1.5d", 0, "days"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRetain(tt.in)
			if tt.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tt.bad) {
					t.Errorf("ParseRetain(%q) = %v, %v, want an error saying %q", tt.in, got, err, tt.bad)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseRetain(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
			}
		})
	}
	if _, err := NewArchiver(ArchiveConfig{Store: nil, Dir: "x", Retain: time.Hour}); err == nil {
		t.Error("NewArchiver without a store succeeded")
	}
}

// TestArchiveRacingPasses: a pass whose rows another pass archived
// between its read and its commit (two instances on one database) commits
// nothing and removes its file; every row is archived once.
func TestArchiveRacingPasses(t *testing.T) {
	f := newFixture(t)
	f.add(72*time.Hour, 50*time.Hour, time.Hour)
	first, other := f.archiver(10), f.archiver(10)
	var lost string
	first.beforeCommit = func(name string) error {
		first.beforeCommit = nil
		lost = name
		if _, err := other.Pass(t.Context(), now); err != nil {
			t.Errorf("the other pass: %v", err)
		}
		return nil
	}
	if _, err := first.Pass(t.Context(), now); !errors.Is(err, store.ErrArchiveStale) {
		t.Fatalf("the overtaken pass = %v, want ErrArchiveStale", err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, lost)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the overtaken pass's file: %v, want it removed", err)
	}
	if got := f.allDecisions(first); len(got) != 3 {
		t.Errorf("%d decisions with archives, want 3", len(got))
	}
	if v := f.verify(first); !v.OK || v.ArchivedRows != 2 {
		t.Errorf("Verify = %+v, want OK with 2 archived trust rows", v)
	}
}
