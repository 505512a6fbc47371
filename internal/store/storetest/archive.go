package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// sha is a well-formed SHA-256 for manifest entries the tests commit.
var sha = strings.Repeat("ab", 32)

func archiveOf(name string, table store.AuditTable, rows int64, from, to time.Time) *store.ArchiveFile {
	return &store.ArchiveFile{Name: name, Table: table, Rows: rows, From: from, To: to, SHA256: sha, Created: to.Add(time.Hour)}
}

func (h *harness) archiveFiles() []store.ArchiveFile {
	h.t.Helper()
	got, err := h.s.ArchiveFiles(h.t.Context())
	if err != nil {
		h.t.Fatalf("ArchiveFiles: %v", err)
	}
	return got
}

func testArchiveTrust(t *testing.T, h *harness) {
	ctx := t.Context()
	var recs []*store.TrustRecord
	for i := range 10 {
		r := trust(t0.Add(time.Duration(i)*time.Second), store.TrustAccessDenied, i)
		recs = append(recs, r)
		h.appendTrust(r)
	}
	got, err := h.s.ArchivableTrust(ctx, t0.Add(5*time.Second), 100)
	if err != nil {
		t.Fatalf("ArchivableTrust: %v", err)
	}
	if len(got) != 5 || got[0].Seq != 1 || got[4].Seq != 5 {
		t.Fatalf("ArchivableTrust(before row 6) = %d rows from %d, want rows 1 to 5", len(got), seqOf(got, 0))
	}
	if got, _ = h.s.ArchivableTrust(ctx, t0.Add(time.Hour), 100); len(got) != 9 {
		t.Fatalf("ArchivableTrust(after every row) = %d rows, want 9: the last row stays live", len(got))
	}
	if got, _ = h.s.ArchivableTrust(ctx, t0.Add(time.Hour), 3); len(got) != 3 || got[2].Seq != 3 {
		t.Fatalf("ArchivableTrust(limit 3) = %d rows, want rows 1 to 3", len(got))
	}

	f := archiveOf("trust-1", store.AuditTrust, 4, recs[0].Time, recs[3].Time)
	f.FirstSeq, f.LastSeq, f.LastHash = 1, 4, recs[3].Hash
	if err := h.s.CommitArchive(ctx, f, nil); err != nil {
		t.Fatalf("CommitArchive(rows 1 to 4): %v", err)
	}
	h.reopen()
	if live := h.trustRecords(0, 0); len(live) != 6 || live[0].Seq != 5 {
		t.Fatalf("live log = %d rows from %d, want rows 5 to 10", len(live), seqOf(live, 0))
	}
	h.verifyTrust(6)
	next := trust(t0.Add(time.Minute), store.TrustPromotion, 11)
	h.appendTrust(next)
	if next.Seq != 11 || next.Prev != recs[9].Hash {
		t.Errorf("append after archiving: seq %d, want 11 linked to row 10", next.Seq)
	}
	h.verifyTrust(7)

	stale := []struct {
		name string
		f    store.ArchiveFile
	}{
		{"same name", *f},
		{"archived rows", store.ArchiveFile{Name: "trust-2", FirstSeq: 1, LastSeq: 4, LastHash: recs[3].Hash}},
		{"not the first live row", store.ArchiveFile{Name: "trust-3", FirstSeq: 6, LastSeq: 7, LastHash: recs[6].Hash}},
		{"wrong hash", store.ArchiveFile{Name: "trust-4", FirstSeq: 5, LastSeq: 6, LastHash: recs[4].Hash}},
		{"every row", store.ArchiveFile{Name: "trust-5", FirstSeq: 5, LastSeq: 11, LastHash: next.Hash}},
	}
	for _, tt := range stale {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.f
			if g.Table == "" {
				g = *archiveOf(g.Name, store.AuditTrust, g.LastSeq-g.FirstSeq+1, t0, t0.Add(time.Minute))
				g.FirstSeq, g.LastSeq, g.LastHash = tt.f.FirstSeq, tt.f.LastSeq, tt.f.LastHash
			}
			if err := h.s.CommitArchive(ctx, &g, nil); !errors.Is(err, store.ErrArchiveStale) {
				t.Errorf("CommitArchive = %v, want ErrArchiveStale", err)
			}
		})
	}
	h.verifyTrust(7)
	files := h.archiveFiles()
	if len(files) != 1 {
		t.Fatalf("manifest has %d entries, want 1", len(files))
	}
	m := files[0]
	if m.Name != f.Name || m.Table != store.AuditTrust || m.Rows != 4 || m.FirstSeq != 1 || m.LastSeq != 4 ||
		m.LastHash != recs[3].Hash || m.SHA256 != sha || !m.From.Equal(f.From) || !m.To.Equal(f.To) || !m.Created.Equal(f.Created) {
		t.Errorf("manifest entry = %+v, want %+v", m, *f)
	}
}

// TimeID returns a record id whose time part is t's millisecond, unique
// for each n: id.New's ids follow the process's latest time, and a test
// that appends records dated before earlier tests' needs ids of their own
// time (a retention cut-off selects decisions by id).
func TimeID(t time.Time, n int) string {
	return id.MinAt(t)[:10] + fmt.Sprintf("%016d", n)
}

func seqOf(rs []store.TrustRecord, i int) int64 {
	if i < len(rs) {
		return rs[i].Seq
	}
	return 0
}

func testArchiveDecisions(t *testing.T, h *harness) {
	ctx := t.Context()
	var recs []*store.DecisionRecord
	for i := range 6 {
		r := decision(t0.Add(time.Duration(i) * time.Minute))
		r.ID = TimeID(r.Time, i)
		recs = append(recs, r)
	}
	h.append(recs...)
	got, err := h.s.ArchivableDecisions(ctx, t0.Add(3*time.Minute), 100)
	if err != nil {
		t.Fatalf("ArchivableDecisions: %v", err)
	}
	if want := []string{recs[0].ID, recs[1].ID, recs[2].ID}; !slices.Equal(ids(got), want) {
		t.Fatalf("ArchivableDecisions = %v, want the three oldest %v", ids(got), want)
	}
	for i := range got {
		checkDecision(t, got[i], *recs[i])
	}
	if _, err := h.s.ArchivableDecisions(ctx, t0, 0); err == nil {
		t.Error("ArchivableDecisions(limit 0) succeeded")
	}
	f := archiveOf("decisions-1", store.AuditDecisions, 3, got[0].Time, got[2].Time)
	if err := h.s.CommitArchive(ctx, f, ids(got)); err != nil {
		t.Fatalf("CommitArchive: %v", err)
	}
	if live := h.query(store.DecisionFilter{}); len(live) != 3 {
		t.Errorf("%d decisions live, want 3", len(live))
	}
	// A pass that read the rows before another archived them: stale,
	// and nothing changes, not even the rows still live.
	g := archiveOf("decisions-2", store.AuditDecisions, 2, recs[2].Time, recs[3].Time)
	if err := h.s.CommitArchive(ctx, g, []string{recs[3].ID, recs[2].ID}); !errors.Is(err, store.ErrArchiveStale) {
		t.Errorf("CommitArchive(an archived id) = %v, want ErrArchiveStale", err)
	}
	if live := h.query(store.DecisionFilter{}); len(live) != 3 {
		t.Errorf("after a stale commit %d decisions live, want 3", len(live))
	}
	if n := len(h.archiveFiles()); n != 1 {
		t.Errorf("manifest has %d entries, want 1", n)
	}
	bad := archiveOf("decisions-3", store.AuditDecisions, 2, recs[3].Time, recs[4].Time)
	if err := h.s.CommitArchive(ctx, bad, []string{recs[3].ID}); err == nil || errors.Is(err, store.ErrArchiveStale) {
		t.Errorf("CommitArchive(2 rows, 1 id) = %v, want an invalid-record error", err)
	}
	bad = archiveOf("../decisions-4", store.AuditDecisions, 1, recs[3].Time, recs[3].Time)
	if err := h.s.CommitArchive(ctx, bad, []string{recs[3].ID}); err == nil {
		t.Error("CommitArchive(a path as its name) succeeded")
	}
}

func testArchiveActions(t *testing.T, h *harness) {
	ctx := t.Context()
	pending := permit(t0)
	h.createPermit(pending)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	recs := map[string]*store.ActionRecord{
		"vetoed":           action(at(1), store.ActionVetoed, ""),
		"of a pending":     action(at(2), store.ActionPermitCreated, pending.ID),
		"tool call":        action(at(3), store.ActionToolCall, id.New(t0)),
		"upstream pin":     action(at(4), store.ActionUpstreamPinned, ""),
		"of a closed":      action(at(5), store.ActionPermitConsumed, id.New(t0)),
		"halt":             action(at(6), store.ActionHalt, ""),
		"after the cutoff": action(at(60), store.ActionHalt, ""),
	}
	for _, r := range recs {
		if err := h.s.AppendAction(ctx, r); err != nil {
			t.Fatalf("AppendAction: %v", err)
		}
	}
	got, err := h.s.ArchivableActions(ctx, at(30), 100)
	if err != nil {
		t.Fatalf("ArchivableActions: %v", err)
	}
	var gotIDs []string
	for _, r := range got {
		gotIDs = append(gotIDs, r.ID)
	}
	want := []string{recs["vetoed"].ID, recs["of a closed"].ID, recs["halt"].ID}
	if !slices.Equal(gotIDs, want) {
		t.Fatalf("ArchivableActions = %v, want %v (vetoed, of a closed permit, halt)", gotIDs, want)
	}
	f := archiveOf("actions-1", store.AuditActions, 2, recs["vetoed"].Time, recs["of a closed"].Time)
	if err := h.s.CommitArchive(ctx, f, want[:2]); err != nil {
		t.Fatalf("CommitArchive: %v", err)
	}
	// A row a decision reads is refused even if a caller names it.
	g := archiveOf("actions-2", store.AuditActions, 1, recs["of a pending"].Time, recs["of a pending"].Time)
	if err := h.s.CommitArchive(ctx, g, []string{recs["of a pending"].ID}); !errors.Is(err, store.ErrArchiveStale) {
		t.Errorf("CommitArchive(the record of a pending permit) = %v, want ErrArchiveStale", err)
	}
	live, err := h.s.Actions(ctx, store.ActionFilter{})
	if err != nil {
		t.Fatalf("Actions: %v", err)
	}
	if len(live) != 5 {
		t.Errorf("%d actions live, want 5", len(live))
	}
}
