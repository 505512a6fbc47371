package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	taintlevel "github.com/wardhq/ward/internal/trust"
)

func session(t time.Time, principal, name string) *store.SessionRecord {
	return &store.SessionRecord{ID: id.Opaque(t), PrincipalID: principal, Name: name, Created: t}
}

func (h *harness) openSession(rec *store.SessionRecord, lim store.SessionLimits, now time.Time) (store.SessionRecord, bool) {
	h.t.Helper()
	got, created, err := h.s.OpenSession(h.t.Context(), rec, lim, false, now)
	if err != nil {
		h.t.Fatalf("OpenSession(%q): %v", rec.Name, err)
	}
	return got, created
}

func testSessions(t *testing.T, h *harness) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	a, b := testSessionOpen(t, h, t0)
	testSessionLevels(t, h, t0, b)
	testSessionListDelete(t, h, a, b)
}

// testSessionOpen opens alice's and bob's sessions named work, checks a
// name opens one session per principal and that they survive a reopen,
// and returns them.
func testSessionOpen(t *testing.T, h *harness, t0 time.Time) (*store.SessionRecord, store.SessionRecord) {
	ctx := t.Context()
	lim := store.SessionLimits{MaxPerPrincipal: 10, IdleTTL: time.Hour, KeepTTL: 24 * time.Hour}
	a := session(t0, "alice", "work")
	a.Isolated, a.Reviewers, a.Judge, a.Author, a.Directive, a.DirectiveTrusted = true, []string{"r1", "r2"}, "j", "alice-name", "buy ETH", true
	got, created := h.openSession(a, lim, t0)
	if !created || got.ID != a.ID || got.Level != taintlevel.Clean || !got.Isolated {
		t.Fatalf("first open = %+v, %v", got, created)
	}
	// The same name again, by another record: the existing session.
	again, created := h.openSession(session(t0.Add(time.Second), "alice", "work"), lim, t0.Add(time.Second))
	if created || again.ID != a.ID {
		t.Errorf("reopening work made %+v (created %v), want session %s", again, created, a.ID)
	}
	if _, _, err := h.s.OpenSession(ctx, session(t0, "alice", "work"), lim, true, t0); !errors.Is(err, store.ErrSessionExists) {
		t.Errorf("mustCreate on an existing name: %v, want ErrSessionExists", err)
	}
	// The same name for another principal is another session.
	b, created := h.openSession(session(t0, "bob", "work"), lim, t0)
	if !created || b.ID == a.ID {
		t.Errorf("bob's work = %+v (created %v): want a session of its own", b, created)
	}
	h.reopen()
	r, err := h.s.Session(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.PrincipalID != "alice" || r.Name != "work" || !r.Isolated || !slices.Equal(r.Reviewers, []string{"r1", "r2"}) || r.Judge != "j" ||
		r.Author != "alice-name" || r.Directive != "buy ETH" || !r.DirectiveTrusted || !sameTime(r.Created, t0) {
		t.Errorf("after reopen: %+v", r)
	}
	if r, err := h.s.SessionByName(ctx, "bob", "work"); err != nil || r.ID != b.ID {
		t.Errorf("SessionByName(bob, work) = %+v, %v", r, err)
	}
	if _, err := h.s.SessionByName(ctx, "carol", "work"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("carol's work: %v, want ErrNotFound", err)
	}
	return a, b
}

// testSessionLevels moves bob's session b through the level changes a From
// allows, sets its directive and judged count, and checks they survive a
// reopen.
func testSessionLevels(t *testing.T, h *harness, t0 time.Time, b store.SessionRecord) {
	ctx := t.Context()
	t1 := t0.Add(time.Minute)
	if err := h.s.SetSessionLevel(ctx, b.ID, store.LevelChange{To: taintlevel.Review, From: []taintlevel.Level{taintlevel.Tainted}, At: t1}); !errors.Is(err, store.ErrLevelChange) {
		t.Errorf("clean → review with From tainted: %v, want ErrLevelChange", err)
	}
	taint := store.LevelChange{To: taintlevel.Tainted, From: []taintlevel.Level{taintlevel.Clean}, At: t1, Reviewers: []string{"rules-reviewer"}, Judge: "rules-judge"}
	if err := h.s.SetSessionLevel(ctx, b.ID, taint); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetSessionLevel(ctx, b.ID, store.LevelChange{To: taintlevel.Review, From: []taintlevel.Level{taintlevel.Tainted}, At: t1}); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetSessionLevel(ctx, "nobody", taint); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("level of nobody: %v, want ErrNotFound", err)
	}
	if ok, err := h.s.UnderReview(ctx, "bob"); err != nil || !ok {
		t.Errorf("UnderReview(bob) = %v, %v", ok, err)
	}
	if ok, err := h.s.UnderReview(ctx, "alice"); err != nil || ok {
		t.Errorf("UnderReview(alice) = %v, %v", ok, err)
	}
	if ok, err := h.s.Tainted(ctx, "bob"); err != nil || !ok {
		t.Errorf("Tainted(bob) = %v, %v", ok, err)
	}
	if ok, err := h.s.Tainted(ctx, "alice"); err != nil || ok {
		t.Errorf("Tainted(alice) = %v, %v", ok, err)
	}
	if err := h.s.SetDirective(ctx, b.ID, "note", false, t1); err != nil {
		t.Fatal(err)
	}
	if err := h.s.AddJudged(ctx, b.ID, 2); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	r, err := h.s.Session(ctx, b.ID)
	if err != nil || r.Level != taintlevel.Review || !sameTime(r.LevelAt, t1) || !slices.Equal(r.Reviewers, []string{"rules-reviewer"}) ||
		r.Judge != "rules-judge" || r.Directive != "note" || r.DirectiveTrusted || r.Judged != 2 {
		t.Errorf("bob's work after the changes and a reopen: %+v, %v", r, err)
	}
}

// testSessionListDelete lists sessions by level and principal, then
// deletes bob's b, which no longer puts bob under review or taints him.
func testSessionListDelete(t *testing.T, h *harness, a *store.SessionRecord, b store.SessionRecord) {
	ctx := t.Context()
	lv := taintlevel.Review
	if list, err := h.s.ListSessions(ctx, store.SessionFilter{Level: &lv}); err != nil || len(list) != 1 || list[0].ID != b.ID {
		t.Errorf("ListSessions(review) = %+v, %v", list, err)
	}
	if list, err := h.s.ListSessions(ctx, store.SessionFilter{PrincipalID: "alice"}); err != nil || len(list) != 1 || list[0].ID != a.ID {
		t.Errorf("ListSessions(alice) = %+v, %v", list, err)
	}
	if err := h.s.DeleteSession(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	if err := h.s.DeleteSession(ctx, b.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleting twice: %v", err)
	}
	if ok, _ := h.s.UnderReview(ctx, "bob"); ok {
		t.Error("a deleted session still puts bob under review")
	}
	if ok, _ := h.s.Tainted(ctx, "bob"); ok {
		t.Error("a deleted session still taints bob")
	}
}

// A principal's live sessions are bounded: past the limit a new name is
// refused (never an old session evicted); expired sessions are removed and
// free their names. A tainted session outlives the idle time of a clean
// one.
func testSessionLimits(t *testing.T, h *harness) {
	ctx := t.Context()
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	lim := store.SessionLimits{MaxPerPrincipal: 3, IdleTTL: time.Hour, KeepTTL: 24 * time.Hour}
	tainted, _ := h.openSession(session(t0, "p", "tainted"), lim, t0)
	if err := h.s.SetSessionLevel(ctx, tainted.ID, store.LevelChange{To: taintlevel.Tainted, From: []taintlevel.Level{taintlevel.Clean}, At: t0}); err != nil {
		t.Fatal(err)
	}
	h.openSession(session(t0, "p", "a"), lim, t0)
	h.openSession(session(t0, "p", "b"), lim, t0)
	if _, _, err := h.s.OpenSession(ctx, session(t0, "p", "c"), lim, false, t0); !errors.Is(err, store.ErrSessionLimit) {
		t.Fatalf("a fourth session: %v, want ErrSessionLimit", err)
	}
	if _, err := h.s.SessionByName(ctx, "p", "c"); !errors.Is(err, store.ErrNotFound) {
		t.Error("a refused session was stored")
	}
	if r, err := h.s.Session(ctx, tainted.ID); err != nil || r.Level != taintlevel.Tainted {
		t.Errorf("the tainted session after a refusal: %+v, %v", r, err)
	}
	// Another principal is not limited by p's sessions.
	h.openSession(session(t0, "q", "c"), lim, t0)
	// An hour later the clean ones have expired: c fits, the tainted one
	// is still there.
	t1 := t0.Add(time.Hour)
	if _, created := h.openSession(session(t1, "p", "c"), lim, t1); !created {
		t.Error("c was not created after the clean sessions expired")
	}
	for _, name := range []string{"a", "b"} {
		if _, err := h.s.SessionByName(ctx, "p", name); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("expired clean session %s still stored: %v", name, err)
		}
	}
	if r, err := h.s.Session(ctx, tainted.ID); err != nil || r.Level != taintlevel.Tainted {
		t.Errorf("the tainted session an hour on: %+v, %v", r, err)
	}
	// Touching keeps a session alive.
	h.openSession(session(t1, "p", "kept"), lim, t1)
	kept, _ := h.s.SessionByName(ctx, "p", "kept")
	t2 := t1.Add(50 * time.Minute)
	if err := h.s.TouchSession(ctx, kept.ID, t2); err != nil {
		t.Fatal(err)
	}
	h.reopen()
	t3 := t1.Add(80 * time.Minute)
	h.openSession(session(t3, "p", "x"), lim, t3)
	if _, err := h.s.SessionByName(ctx, "p", "kept"); err != nil {
		t.Errorf("a touched session expired: %v", err)
	}
	if _, err := h.s.SessionByName(ctx, "p", "c"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an untouched clean session did not expire: %v", err)
	}
	// A day on, even the tainted session has expired; its name opens clean.
	t4 := t0.Add(25 * time.Hour)
	r, created := h.openSession(session(t4, "p", "tainted"), lim, t4)
	if !created || r.Level != taintlevel.Clean || r.ID == tainted.ID {
		t.Errorf("the tainted session a day on: %+v (created %v)", r, created)
	}
}

// Of concurrent opens of one name, every caller gets the same session; of
// concurrent opens of distinct names past the limit, exactly the limit
// succeed.
func testSessionConcurrent(t *testing.T, h *harness) {
	ctx := t.Context()
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	lim := store.SessionLimits{MaxPerPrincipal: 5, IdleTTL: time.Hour, KeepTTL: time.Hour}
	var wg sync.WaitGroup
	ids := make([]string, 16)
	for i := range ids {
		wg.Go(func() {
			r, _, err := h.s.OpenSession(ctx, session(t0, "p", "same"), lim, false, t0)
			if err != nil {
				t.Error(err)
			}
			ids[i] = r.ID
		})
	}
	wg.Wait()
	for _, x := range ids {
		if x != ids[0] {
			t.Fatalf("concurrent opens gave sessions %v", ids)
		}
	}
	var mu sync.Mutex
	ok := 0
	for i := range 16 {
		wg.Go(func() {
			_, _, err := h.s.OpenSession(ctx, session(t0, "p", fmt.Sprint("n", i)), lim, false, t0)
			if err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			} else if !errors.Is(err, store.ErrSessionLimit) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok != 4 {
		t.Errorf("%d of 16 concurrent new sessions were created with room for 4", ok)
	}
}

func testObservations(t *testing.T, h *harness) {
	ctx := t.Context()
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	s, _ := h.openSession(session(t0, "p", "w"), store.SessionLimits{}, t0)
	obs := []store.ObservationWrite{
		{Observation: store.Observation{Time: t0, Kind: taintlevel.Directive, Ref: "directive", Body: []byte("pay alice")}},
		{Observation: store.Observation{Time: t0, Kind: taintlevel.TrustedOutput, Ref: "call:1 balance", JSON: true, Body: []byte(`{"b":1}`), Args: []byte(`{"who":"bob"}`)}},
		{Observation: store.Observation{Time: t0, Kind: taintlevel.UntrustedOutput, Ref: "call:2 web", Instructions: []string{"override"},
			Sealed: true, Body: []byte{0, 1, 2, 255}},
			Level: &store.LevelChange{To: taintlevel.Tainted, From: []taintlevel.Level{taintlevel.Clean}, At: t0, Reviewers: []string{"rv"}, Judge: "jd"}},
	}
	for i := range obs {
		durable := i != 1
		seq, err := h.s.AppendObservation(ctx, s.ID, &obs[i], durable)
		if err != nil || (durable && seq != int64(i+1)) || (!durable && seq != 0) {
			t.Fatalf("AppendObservation %d = %d, %v", i, seq, err)
		}
	}
	h.reopen()
	got, err := h.s.Observations(ctx, s.ID, 0)
	if err != nil || len(got) != 3 {
		t.Fatalf("Observations = %+v, %v", got, err)
	}
	for i, o := range got {
		w := obs[i].Observation
		if o.Seq != int64(i+1) || o.Kind != w.Kind || o.Ref != w.Ref || o.JSON != w.JSON || o.Sealed != w.Sealed ||
			string(o.Body) != string(w.Body) || !slices.Equal(o.Instructions, w.Instructions) || !sameTime(o.Time, w.Time) ||
			string(o.Args) != string(w.Args) || (o.Args == nil) != (w.Args == nil) {
			t.Errorf("observation %d:\n got %+v\nwant %+v", i+1, o, w)
		}
	}
	if after, err := h.s.Observations(ctx, s.ID, 2); err != nil || len(after) != 1 || after[0].Seq != 3 {
		t.Errorf("Observations after 2 = %+v, %v", after, err)
	}
	r, _ := h.s.Session(ctx, s.ID)
	if r.Level != taintlevel.Tainted || r.LedgerSeq != 3 || !slices.Equal(r.Reviewers, []string{"rv"}) || r.Judge != "jd" {
		t.Errorf("the session after a tainting observation: %+v", r)
	}
	// The limit prunes the oldest, and says so once untrusted text goes.
	for i := range 5 {
		w := &store.ObservationWrite{Observation: store.Observation{Time: t0, Kind: taintlevel.TrustedOutput, Ref: fmt.Sprint("big ", i), Body: make([]byte, 100)},
			LimitBytes: 250}
		if _, err := h.s.AppendObservation(ctx, s.ID, w, true); err != nil {
			t.Fatal(err)
		}
	}
	got, _ = h.s.Observations(ctx, s.ID, 0)
	if len(got) != 2 || got[0].Ref != "big 3" || got[1].Ref != "big 4" {
		t.Errorf("after pruning: %d observations, first %+v", len(got), got[0])
	}
	if r, _ := h.s.Session(ctx, s.ID); !r.LedgerDropped || r.LedgerSeq != 8 {
		t.Errorf("after pruning untrusted text: %+v", r)
	}
	if _, err := h.s.AppendObservation(ctx, "nobody", &obs[0], true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("observation of nobody: %v, want ErrNotFound", err)
	}
	for name, w := range map[string]store.ObservationWrite{
		"zero time": {Observation: store.Observation{Kind: taintlevel.Directive, Ref: "x", Body: []byte("x")}},
		"bad kind":  {Observation: store.Observation{Time: t0, Kind: taintlevel.SourceKind(9), Ref: "x"}},
		"no ref":    {Observation: store.Observation{Time: t0, Kind: taintlevel.Directive}},
		"seq set":   {Observation: store.Observation{Seq: 4, Time: t0, Kind: taintlevel.Directive, Ref: "x"}},
		"bad level": {Observation: store.Observation{Time: t0, Kind: taintlevel.Directive, Ref: "x"}, Level: &store.LevelChange{To: 7, From: []taintlevel.Level{0}, At: t0}},
	} {
		if _, err := h.s.AppendObservation(ctx, s.ID, &w, true); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if r, _ := h.s.Session(ctx, s.ID); r.LedgerSeq != 8 {
		t.Errorf("invalid observations moved the ledger to %d", r.LedgerSeq)
	}
	if err := h.s.DeleteSession(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := h.s.Observations(ctx, s.ID, 0); err != nil || len(got) != 0 {
		t.Errorf("a deleted session's ledger: %d observations, %v", len(got), err)
	}
}
