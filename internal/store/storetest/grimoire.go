package storetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

var (
	agentA = "0x" + strings.Repeat("aA", 20)
	agentB = "0x" + strings.Repeat("0b", 20)
)

// knowledgeEntry returns a signed-looking external entry of agent with
// content unique to n, made at t (the store does not verify signatures).
func knowledgeEntry(t time.Time, agent string, n int) knowledge.Entry {
	sig := make([]byte, knowledge.SignatureSize)
	for i := range sig {
		sig[i] = byte(i + n)
	}
	return knowledge.Entry{
		ID:         id.New(t),
		Content:    fmt.Sprintf("entry %d of %s: pools rebalance within 3 blocks", n, agent),
		Type:       knowledge.TypeHeuristic,
		Confidence: 0.625,
		Source: knowledge.Source{
			Provenance: knowledge.Purchased,
			Agent:      agent,
			Signature:  sig,
			Anchor:     "0x" + strings.Repeat("cd", 32),
			ListingID:  "listing-42",
			CladeID:    "clade-7",
			Timestamp:  time.Date(2026, 11, 1, 12, 0, 0, 123456789, time.UTC),
		},
		Embedding: []float32{0.25, -1.5, 3.0e-7, 42},
		Claim:     &knowledge.Claim{Subject: "ETH/USDC", Relation: "mean_reverts_within", Object: "3 blocks", Conditions: []string{"swap > 1% TVL"}},
		Heuristic: &knowledge.Heuristic{Conditions: []string{"large swap"}, Actions: []string{"arb back"}, Parameters: map[string]string{"max_bps": "30"}},
	}
}

func (h *harness) quarantine(at time.Time, agent string, n int) (string, []string) {
	h.t.Helper()
	q := &store.QuarantinedEntry{Entry: knowledgeEntry(at, agent, n), QuarantinedAt: at}
	evicted, err := h.s.PutQuarantined(h.t.Context(), q)
	if err != nil {
		h.t.Fatalf("PutQuarantined(%d of %s): %v", n, agent, err)
	}
	return q.Entry.ID, evicted
}

func (h *harness) pending(agent string) []store.QuarantinedEntry {
	h.t.Helper()
	got, err := h.s.ListQuarantined(h.t.Context(), store.QuarantineFilter{Agent: agent, Status: store.QuarantinePending})
	if err != nil {
		h.t.Fatalf("ListQuarantined: %v", err)
	}
	return got
}

func testQuarantineRoundTrip(t *testing.T, h *harness) {
	ctx := t.Context()
	now := time.Now()
	want := store.QuarantinedEntry{Entry: knowledgeEntry(now, agentA, 1), QuarantinedAt: now, BatchID: "batch-1"}
	if evicted, err := h.s.PutQuarantined(ctx, &want); err != nil || len(evicted) != 0 {
		t.Fatalf("PutQuarantined = %v, %v; want no eviction", evicted, err)
	}
	h.reopen()
	got, err := h.s.QuarantinedEntry(ctx, want.Entry.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Entry, want.Entry) {
		t.Errorf("Entry = %+v, want %+v", got.Entry, want.Entry)
	}
	if got.Status != store.QuarantinePending || got.BatchID != "batch-1" || !sameTime(got.QuarantinedAt, now) || !got.DecidedAt.IsZero() {
		t.Errorf("got status %q batch %q at %v decided %v; want pending batch-1 at %v", got.Status, got.BatchID, got.QuarantinedAt, got.DecidedAt, now)
	}
	if _, err := h.s.QuarantinedEntry(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("QuarantinedEntry(missing) = %v, want ErrNotFound", err)
	}

	t.Run("duplicate id", func(t *testing.T) {
		dup := want
		dup.Entry.Content = "other content"
		if _, err := h.s.PutQuarantined(ctx, &dup); !errors.Is(err, store.ErrQuarantineExists) {
			t.Fatalf("PutQuarantined = %v, want ErrQuarantineExists", err)
		}
	})
	t.Run("same content from the same agent, in another case", func(t *testing.T) {
		replay := want
		replay.Entry.ID = id.New(now)
		replay.Entry.Source.Agent = strings.ToLower(agentA)
		if _, err := h.s.PutQuarantined(ctx, &replay); !errors.Is(err, store.ErrQuarantineExists) {
			t.Fatalf("PutQuarantined = %v, want ErrQuarantineExists", err)
		}
	})
	t.Run("same content from another agent", func(t *testing.T) {
		other := want
		other.Entry.ID = id.New(now)
		other.Entry.Source.Agent = agentB
		if _, err := h.s.PutQuarantined(ctx, &other); err != nil {
			t.Fatalf("PutQuarantined = %v, want nil", err)
		}
	})
	t.Run("invalid", func(t *testing.T) {
		for name, mutate := range map[string]func(*store.QuarantinedEntry){
			"no id":            func(q *store.QuarantinedEntry) { q.Entry.ID = "" },
			"no content":       func(q *store.QuarantinedEntry) { q.Entry.Content = "" },
			"confidence 1.5":   func(q *store.QuarantinedEntry) { q.Entry.Confidence = 1.5 },
			"64-byte sig":      func(q *store.QuarantinedEntry) { q.Entry.Source.Signature = make([]byte, 64) },
			"zero quarantined": func(q *store.QuarantinedEntry) { q.QuarantinedAt = time.Time{} },
		} {
			q := &store.QuarantinedEntry{Entry: knowledgeEntry(now, agentB, 99), QuarantinedAt: now}
			mutate(q)
			if _, err := h.s.PutQuarantined(ctx, q); err == nil {
				t.Errorf("%s: PutQuarantined = nil, want a refusal", name)
			}
		}
		if got := h.pending(agentB); len(got) != 1 {
			t.Errorf("%d pending entries of B, want 1: an invalid entry was stored", len(got))
		}
	})
}

func testQuarantineDecide(t *testing.T, h *harness) {
	ctx := t.Context()
	now := time.Now()
	pass, _ := h.quarantine(now, agentA, 1)
	fail, _ := h.quarantine(now, agentA, 2)
	if err := h.s.SetQuarantineStatus(ctx, pass, store.QuarantinePassed, "CONSENSUS_2_OF_3", knowledge.NoAttack, now); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetQuarantineStatus(ctx, fail, store.QuarantineFailed, "signature recovers another agent", knowledge.ProvenanceForgery, now); err != nil {
		t.Fatal(err)
	}
	got, err := h.s.QuarantinedEntry(ctx, fail)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.QuarantineFailed || got.Attack != knowledge.ProvenanceForgery || got.Reason != "signature recovers another agent" || !sameTime(got.DecidedAt, now) {
		t.Errorf("failed entry = %q %v %q at %v", got.Status, got.Attack, got.Reason, got.DecidedAt)
	}
	tests := []struct {
		name   string
		id     string
		status store.QuarantineStatus
		attack knowledge.AttackType
		want   error // nil: any refusal
	}{
		{"passed again", pass, store.QuarantinePassed, knowledge.NoAttack, store.ErrQuarantineDecided},
		{"failed after passing", pass, store.QuarantineFailed, knowledge.ContentInjection, store.ErrQuarantineDecided},
		{"passed after failing", fail, store.QuarantinePassed, knowledge.NoAttack, store.ErrQuarantineDecided},
		{"missing", "missing", store.QuarantinePassed, knowledge.NoAttack, store.ErrNotFound},
		{"empty id", "", store.QuarantinePassed, knowledge.NoAttack, store.ErrNotFound},
		{"back to pending", pass, store.QuarantinePending, knowledge.NoAttack, nil},
		{"passed with an attack", pass, store.QuarantinePassed, knowledge.EmbeddingAnomaly, nil},
		{"unknown attack", pass, store.QuarantineFailed, knowledge.AttackType(200), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := h.s.SetQuarantineStatus(ctx, tt.id, tt.status, "x", tt.attack, now)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("SetQuarantineStatus = %v, want %v", err, tt.want)
			}
		})
	}
	if got, _ := h.s.QuarantinedEntry(ctx, pass); got.Status != store.QuarantinePassed || got.Attack != knowledge.NoAttack {
		t.Errorf("passed entry became %q %v", got.Status, got.Attack)
	}
}

// Overflow evicts exactly the agent's oldest pending entry: not a decided
// one older still, not another agent's.
func testQuarantineOverflow(t *testing.T, h *harness) {
	ctx := t.Context()
	now := time.Now()
	decided, _ := h.quarantine(now, agentA, 0)
	if err := h.s.SetQuarantineStatus(ctx, decided, store.QuarantineFailed, "x", knowledge.ContentInjection, now); err != nil {
		t.Fatal(err)
	}
	oldest, _ := h.quarantine(now, agentA, 1)
	second, _ := h.quarantine(now, agentA, 2)
	bEntry, _ := h.quarantine(now, agentB, 1)
	// Concurrent writers, but a bounded number of them: a thousand
	// goroutines each waiting for a durable group commit only measure how
	// loaded the machine is (under -race they could outwait the store's
	// commit timeout), not the capacity bound.
	var wg sync.WaitGroup
	errs := make(chan error, store.MaxQuarantinePending)
	next := make(chan int)
	for range 16 {
		wg.Go(func() {
			for n := range next {
				q := &store.QuarantinedEntry{Entry: knowledgeEntry(now, agentA, n), QuarantinedAt: now}
				if ev, err := h.s.PutQuarantined(ctx, q); err != nil || len(ev) != 0 {
					errs <- fmt.Errorf("put %d: evicted %v, %v", n, ev, err)
				}
			}
		})
	}
	for n := 3; n <= store.MaxQuarantinePending; n++ {
		next <- n
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if got := len(h.pending(agentA)); got != store.MaxQuarantinePending {
		t.Fatalf("%d pending entries of A, want %d", got, store.MaxQuarantinePending)
	}
	newest, evicted := h.quarantine(now.Add(-time.Hour), agentA, store.MaxQuarantinePending+1)
	if !reflect.DeepEqual(evicted, []string{oldest}) {
		t.Fatalf("evicted %v, want the oldest pending %s", evicted, oldest)
	}
	if _, err := h.s.QuarantinedEntry(ctx, oldest); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("evicted entry: %v, want ErrNotFound", err)
	}
	for _, id := range []string{decided, second, bEntry, newest} {
		if _, err := h.s.QuarantinedEntry(ctx, id); err != nil {
			t.Errorf("QuarantinedEntry(%s) = %v: kept entry lost", id, err)
		}
	}
	pending := h.pending(agentA)
	if len(pending) != store.MaxQuarantinePending || pending[0].Entry.ID != second || pending[len(pending)-1].Entry.ID != newest {
		t.Errorf("pending of A: %d, first %s, last %s; want %d from %s to %s", len(pending), pending[0].Entry.ID, pending[len(pending)-1].Entry.ID, store.MaxQuarantinePending, second, newest)
	}
	if got := h.pending(agentB); len(got) != 1 {
		t.Errorf("%d pending entries of B, want 1", len(got))
	}
}

// Eight goroutines putting past the cap at once keep it, and every
// eviction is reported once.
func testQuarantineConcurrent(t *testing.T, h *harness) {
	const workers, each = 8, 150
	now := time.Now()
	var mu sync.Mutex
	evicted := map[string]int{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				q := &store.QuarantinedEntry{Entry: knowledgeEntry(now, agentA, w*each+i), QuarantinedAt: now}
				ev, err := h.s.PutQuarantined(t.Context(), q)
				if err != nil {
					t.Errorf("PutQuarantined: %v", err)
					return
				}
				mu.Lock()
				for _, id := range ev {
					evicted[id]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if got := len(h.pending(agentA)); got != store.MaxQuarantinePending {
		t.Errorf("%d pending, want the cap %d", got, store.MaxQuarantinePending)
	}
	if want := workers*each - store.MaxQuarantinePending; len(evicted) != want {
		t.Errorf("%d entries evicted, want %d", len(evicted), want)
	}
	for id, n := range evicted {
		if n != 1 {
			t.Errorf("%s reported evicted %d times", id, n)
		}
	}
}

// Pruning removes decided entries past the retention and never a pending
// one, however old; nothing becomes passed by age.
func testQuarantinePrune(t *testing.T, h *harness) {
	ctx := t.Context()
	now := time.Now()
	old := now.Add(-30 * 24 * time.Hour)
	pending, _ := h.quarantine(old, agentA, 1)
	passed, _ := h.quarantine(old, agentA, 2)
	failed, _ := h.quarantine(old, agentA, 3)
	if err := h.s.SetQuarantineStatus(ctx, passed, store.QuarantinePassed, "ok", knowledge.NoAttack, now.Add(-8*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetQuarantineStatus(ctx, failed, store.QuarantineFailed, "bad", knowledge.ConfidenceInflation, now.Add(-6*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		at   time.Time
		n    int64
		kept []string
		gone []string
	}{
		{now, 1, []string{pending, failed}, []string{passed}},
		{now, 0, []string{pending, failed}, nil},
		{now.Add(store.QuarantineRetention), 1, []string{pending}, []string{failed}},
		{now.Add(365 * 24 * time.Hour), 0, []string{pending}, nil},
	} {
		n, err := h.s.PruneQuarantine(ctx, step.at)
		if err != nil || n != step.n {
			t.Fatalf("PruneQuarantine(%v) = %d, %v; want %d", step.at, n, err, step.n)
		}
		for _, id := range step.kept {
			if _, err := h.s.QuarantinedEntry(ctx, id); err != nil {
				t.Errorf("after prune at %v: %s: %v", step.at, id, err)
			}
		}
		for _, id := range step.gone {
			if _, err := h.s.QuarantinedEntry(ctx, id); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("after prune at %v: %s: %v, want ErrNotFound", step.at, id, err)
			}
		}
	}
	if got, _ := h.s.QuarantinedEntry(ctx, pending); got.Status != store.QuarantinePending {
		t.Errorf("a year-old pending entry is %q, want pending: no timeout promotion", got.Status)
	}
}

// Rollback turns a passed row into rolled_back, re-inserts a pruned one,
// refuses any other status, and a rolled-back entry is never pruned.
func testQuarantineRollback(t *testing.T, h *harness) {
	ctx := t.Context()
	now := time.Now()
	passed, _ := h.quarantine(now, agentA, 1)
	pending, _ := h.quarantine(now, agentA, 2)
	failed, _ := h.quarantine(now, agentA, 3)
	if err := h.s.SetQuarantineStatus(ctx, passed, store.QuarantinePassed, "KNOWLEDGE_ADOPTED", knowledge.NoAttack, now); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetQuarantineStatus(ctx, failed, store.QuarantineFailed, "bad", knowledge.ContentInjection, now); err != nil {
		t.Fatal(err)
	}
	get := func(id string) *store.QuarantinedEntry {
		t.Helper()
		q, err := h.s.QuarantinedEntry(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	later := now.Add(time.Hour)
	if err := h.s.RollbackQuarantined(ctx, get(passed), "rolled back: counterfactual", later); err != nil {
		t.Fatalf("RollbackQuarantined(passed) = %v", err)
	}
	if got := get(passed); got.Status != store.QuarantineRolledBack || got.Reason != "rolled back: counterfactual" || !sameTime(got.DecidedAt, later) {
		t.Errorf("rolled back entry = %q %q at %v", got.Status, got.Reason, got.DecidedAt)
	}
	pruned := &store.QuarantinedEntry{Entry: knowledgeEntry(now, agentB, 4), QuarantinedAt: now.Add(-30 * 24 * time.Hour)}
	if err := h.s.RollbackQuarantined(ctx, pruned, "rolled back", later); err != nil {
		t.Fatalf("RollbackQuarantined(pruned) = %v", err)
	}
	if got := get(pruned.Entry.ID); got.Status != store.QuarantineRolledBack || got.Entry.Content != pruned.Entry.Content {
		t.Errorf("re-inserted entry = %q %q", got.Status, got.Entry.Content)
	}
	for _, tt := range []struct {
		name string
		q    *store.QuarantinedEntry
		want error
	}{
		{"pending", get(pending), store.ErrQuarantineDecided},
		{"failed", get(failed), store.ErrQuarantineDecided},
		{"twice", get(passed), store.ErrQuarantineDecided},
		{"same content, other id", func() *store.QuarantinedEntry {
			c := *get(pending)
			c.Entry.ID = "other-id"
			return &c
		}(), store.ErrQuarantineExists},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := h.s.RollbackQuarantined(ctx, tt.q, "x", later); !errors.Is(err, tt.want) {
				t.Fatalf("RollbackQuarantined = %v, want %v", err, tt.want)
			}
		})
	}
	if n, err := h.s.PruneQuarantine(ctx, now.Add(365*24*time.Hour)); err != nil || n != 1 {
		t.Errorf("PruneQuarantine = %d, %v; want 1 (the failed entry only)", n, err)
	}
	for _, id := range []string{passed, pruned.Entry.ID} {
		if got := get(id); got.Status != store.QuarantineRolledBack {
			t.Errorf("%s after prune is %q, want rolled_back", id, got.Status)
		}
	}
}

func testGrimoireEntries(t *testing.T, h *harness) {
	ctx := t.Context()
	now := time.Now()
	var want []store.GrimoireEntry
	for i := range 3 {
		e := knowledgeEntry(now, agentA, i)
		e.ID = id.New(now.Add(time.Duration(i) * time.Second))
		want = append(want, store.GrimoireEntry{Entry: e, Partition: knowledge.PartitionExternal, Created: now.Add(time.Duration(i) * time.Second)})
	}
	self := store.GrimoireEntry{
		Entry: knowledge.Entry{
			ID: id.New(now), Content: "my own lesson", Type: knowledge.TypeWarning, Confidence: 0.1,
			Source: knowledge.Source{Provenance: knowledge.Self, Timestamp: now.UTC().Truncate(time.Microsecond)},
		},
		Partition: knowledge.PartitionLessons,
		Created:   now,
	}
	for _, g := range append(want, self) {
		if err := h.s.PutEntry(ctx, &g); err != nil {
			t.Fatalf("PutEntry(%s): %v", g.Entry.ID, err)
		}
	}
	h.reopen()
	check := func(got, want store.GrimoireEntry) {
		t.Helper()
		if !reflect.DeepEqual(got.Entry, want.Entry) || got.Partition != want.Partition || !sameTime(got.Created, want.Created) {
			t.Errorf("entry = %+v\nwant %+v", got, want)
		}
	}
	got, err := h.s.Entry(ctx, self.Entry.ID)
	if err != nil {
		t.Fatal(err)
	}
	check(*got, self)
	list, err := h.s.Entries(ctx, knowledge.PartitionExternal, 0)
	if err != nil || len(list) != 3 {
		t.Fatalf("Entries(external) = %d entries, %v; want 3", len(list), err)
	}
	for i, g := range list {
		check(g, want[2-i]) // newest first
	}
	if list, err := h.s.Entries(ctx, knowledge.PartitionExternal, 2); err != nil || len(list) != 2 || list[0].Entry.ID != want[2].Entry.ID {
		t.Errorf("Entries(external, 2) = %d entries, %v; want the newest 2", len(list), err)
	}
	if list, err := h.s.Entries(ctx, knowledge.PartitionSelf, 0); err != nil || len(list) != 0 {
		t.Errorf("Entries(self) = %d entries, %v; want none", len(list), err)
	}
	if _, err := h.s.Entries(ctx, knowledge.Partition(0), 0); err == nil {
		t.Error("Entries(zero partition) = nil error")
	}
	if _, err := h.s.Entry(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Entry(missing) = %v, want ErrNotFound", err)
	}
	dup := want[0]
	dup.Entry.Confidence = 0.99
	if err := h.s.PutEntry(ctx, &dup); !errors.Is(err, store.ErrEntryExists) {
		t.Errorf("PutEntry(duplicate id) = %v, want ErrEntryExists", err)
	}
	if got, _ := h.s.Entry(ctx, want[0].Entry.ID); got.Entry.Confidence != want[0].Entry.Confidence {
		t.Errorf("confidence = %v after a duplicate put, want %v kept", got.Entry.Confidence, want[0].Entry.Confidence)
	}
	for name, mutate := range map[string]func(*store.GrimoireEntry){
		"zero partition": func(g *store.GrimoireEntry) { g.Partition = 0 },
		"zero created":   func(g *store.GrimoireEntry) { g.Created = time.Time{} },
		"no id":          func(g *store.GrimoireEntry) { g.Entry.ID = "" },
		"no provenance":  func(g *store.GrimoireEntry) { g.Entry.Source.Provenance = 0 },
	} {
		g := self
		g.Entry.ID = id.New(now)
		mutate(&g)
		if err := h.s.PutEntry(ctx, &g); err == nil {
			t.Errorf("%s: PutEntry = nil, want a refusal", name)
		}
	}
}

func testKnowledgeClosed(t *testing.T, h *harness) {
	ctx := t.Context()
	now := time.Now()
	if err := h.s.Close(); err != nil {
		t.Fatal(err)
	}
	q := &store.QuarantinedEntry{Entry: knowledgeEntry(now, agentA, 1), QuarantinedAt: now}
	g := &store.GrimoireEntry{Entry: knowledgeEntry(now, agentA, 1), Partition: knowledge.PartitionExternal, Created: now}
	_, e1 := h.s.PutQuarantined(ctx, q)
	_, e2 := h.s.QuarantinedEntry(ctx, q.Entry.ID)
	_, e3 := h.s.ListQuarantined(ctx, store.QuarantineFilter{})
	e4 := h.s.SetQuarantineStatus(ctx, q.Entry.ID, store.QuarantinePassed, "", knowledge.NoAttack, now)
	_, e5 := h.s.PruneQuarantine(ctx, now)
	e6 := h.s.PutEntry(ctx, g)
	_, e7 := h.s.Entry(ctx, g.Entry.ID)
	_, e8 := h.s.Entries(ctx, knowledge.PartitionExternal, 0)
	e9 := h.s.PutAdoption(ctx, &adopt.Record{ID: g.Entry.ID, Type: knowledge.TypeInsight, Provenance: knowledge.Clade, Adopted: now})
	_, e10 := h.s.Adoption(ctx, g.Entry.ID)
	_, e11 := h.s.Adoptions(ctx, 0)
	e12 := h.s.DeleteEntry(ctx, g.Entry.ID)
	for i, err := range []error{e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12} {
		if !errors.Is(err, store.ErrClosed) {
			t.Errorf("call %d after Close = %v, want ErrClosed", i+1, err)
		}
	}
}

// sameRecord compares adoption records by their JSON, which is what a
// backend keeps (times lose their monotonic reading and location).
func sameRecord(t *testing.T, what string, got, want *adopt.Record) {
	t.Helper()
	g, err1 := json.Marshal(got)
	w, err2 := json.Marshal(want)
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	if string(g) != string(w) {
		t.Errorf("%s = %s\nwant %s", what, g, w)
	}
}

// testAdoptions checks adoption records through a backend's life: put with
// their entries and read back with them and alone, updated by a
// confirmation, listed in order of adoption, refused when invalid, and
// deleted with their entries, reopening the store between writes and
// reads.
func testAdoptions(t *testing.T, h *harness) {
	now := time.Date(2026, 11, 3, 4, 5, 6, 789, time.UTC)
	entries, recs := putAdopted(t, h, now)
	h.reopen()
	readAdoptions(t, h, entries, recs)
	upd, late := updateAdoptions(t, h, now, entries[2], recs[1])
	h.reopen()
	listAdoptions(t, h, entries[1], []*adopt.Record{&recs[0], &upd, &late})
	refuseAdoptions(t, h, now, entries[0], recs[0])
	deleteAdoption(t, h, recs[0].ID)
}

// putAdopted puts three adopted entries, the first two with their
// adoption records, and returns the entries and the two records.
func putAdopted(t *testing.T, h *harness, now time.Time) ([]store.GrimoireEntry, []adopt.Record) {
	ctx := t.Context()
	var entries []store.GrimoireEntry
	var recs []adopt.Record
	for i := range 3 {
		e := knowledgeEntry(now, agentA, i)
		e.ID = id.New(now.Add(time.Duration(i) * time.Second))
		e.Type = knowledge.TypeInsight
		e.Confidence = 0.5
		r, err := adopt.Adopt(&e, adopt.Origin{}, now.Add(time.Duration(i)*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		g := store.GrimoireEntry{Entry: e, Partition: knowledge.PartitionExternal, Created: r.Adopted}
		if i < 2 {
			g.Adoption = &r
			recs = append(recs, r)
		}
		entries = append(entries, g)
		if err := h.s.PutEntry(ctx, &g); err != nil {
			t.Fatalf("PutEntry(%d): %v", i, err)
		}
	}
	return entries, recs
}

// readAdoptions checks that an entry comes back with the record put with
// it, and that an entry without one, or a missing entry, has none.
func readAdoptions(t *testing.T, h *harness, entries []store.GrimoireEntry, recs []adopt.Record) {
	ctx := t.Context()
	got, err := h.s.Entry(ctx, entries[0].Entry.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Adoption == nil {
		t.Fatal("Entry().Adoption = nil, want the record put with the entry")
	}
	sameRecord(t, "Entry().Adoption", got.Adoption, &recs[0])
	if got, err := h.s.Entry(ctx, entries[2].Entry.ID); err != nil || got.Adoption != nil {
		t.Errorf("Entry(no record).Adoption = %v, %v; want nil", got.Adoption, err)
	}
	if _, err := h.s.Adoption(ctx, entries[2].Entry.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Adoption(entry without a record) = %v, want ErrNotFound", err)
	}
	if _, err := h.s.Adoption(ctx, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Adoption(missing) = %v, want ErrNotFound", err)
	}
}

// updateAdoptions puts rec confirmed by another agent, which updates the
// record, not the entry, and a first record for bare, an entry put without
// one; it returns both records.
func updateAdoptions(t *testing.T, h *harness, now time.Time, bare store.GrimoireEntry, rec adopt.Record) (upd, late adopt.Record) {
	ctx := t.Context()
	other := knowledgeEntry(now, agentB, 9)
	upd, credit, err := adopt.Confirm(rec, adopt.ConfirmationFrom(&other, now.Add(time.Hour)))
	if err != nil || credit != adopt.SharedAnchor {
		t.Fatalf("Confirm = %v, %v; want a shared anchor", credit, err)
	}
	if err := h.s.PutAdoption(ctx, &upd); err != nil {
		t.Fatalf("PutAdoption(update): %v", err)
	}
	late, err = adopt.Adopt(&bare.Entry, adopt.Origin{}, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.s.PutAdoption(ctx, &late); err != nil {
		t.Fatalf("PutAdoption(entry without a record): %v", err)
	}
	return upd, late
}

// listAdoptions checks the updated record (want[1], of entry updated, whose
// claimed confidence stays) and that Adoptions lists want in order of
// adoption, with a limit, and refuses a negative one.
func listAdoptions(t *testing.T, h *harness, updated store.GrimoireEntry, want []*adopt.Record) {
	ctx := t.Context()
	upd := want[1]
	r, err := h.s.Adoption(ctx, upd.ID)
	if err != nil {
		t.Fatal(err)
	}
	sameRecord(t, "Adoption(updated)", r, upd)
	if e, _ := h.s.Entry(ctx, upd.ID); e == nil || e.Entry.Confidence != updated.Entry.Confidence {
		t.Errorf("the entry's claimed confidence changed with its record")
	}
	list, err := h.s.Adoptions(ctx, 0)
	if err != nil || len(list) != 3 {
		t.Fatalf("Adoptions = %d, %v; want 3", len(list), err)
	}
	for i, w := range want {
		sameRecord(t, fmt.Sprintf("Adoptions[%d]", i), &list[i], w)
	}
	if list, err := h.s.Adoptions(ctx, 1); err != nil || len(list) != 1 || list[0].ID != want[0].ID {
		t.Errorf("Adoptions(1) = %d, %v; want the first adopted", len(list), err)
	}
	if _, err := h.s.Adoptions(ctx, -1); err == nil {
		t.Error("Adoptions(-1) = nil error")
	}
}

// refuseAdoptions checks that invalid variants of rec, and an entry
// carrying the record of another id, are refused.
func refuseAdoptions(t *testing.T, h *harness, now time.Time, entry store.GrimoireEntry, rec adopt.Record) {
	ctx := t.Context()
	for name, mutate := range map[string]func(*adopt.Record){
		"missing entry":  func(r *adopt.Record) { r.ID = "missing" },
		"no id":          func(r *adopt.Record) { r.ID = "" },
		"nan":            func(r *adopt.Record) { r.Confidence = math.NaN() },
		"above one":      func(r *adopt.Record) { r.Confidence = 1.5 },
		"zero time":      func(r *adopt.Record) { r.Adopted = time.Time{} },
		"bad class":      func(r *adopt.Record) { r.Class = adopt.Class(9) },
		"bad type":       func(r *adopt.Record) { r.Type = 0 },
		"bad provenance": func(r *adopt.Record) { r.Provenance = 0 },
	} {
		r := rec
		mutate(&r)
		if err := h.s.PutAdoption(ctx, &r); err == nil {
			t.Errorf("PutAdoption(%s) = nil, want a refusal", name)
		} else if name == "missing entry" && !errors.Is(err, store.ErrNotFound) {
			t.Errorf("PutAdoption(%s) = %v, want ErrNotFound", name, err)
		}
	}
	bad := entry
	bad.Entry.ID = id.New(now)
	other := rec
	other.ID = "someone else"
	bad.Adoption = &other
	if err := h.s.PutEntry(ctx, &bad); err == nil {
		t.Error("PutEntry(record of another id) = nil, want a refusal")
	}
}

// deleteAdoption checks that the Curator's prune deletes an entry and its
// record, once.
func deleteAdoption(t *testing.T, h *harness, entryID string) {
	ctx := t.Context()
	if err := h.s.DeleteEntry(ctx, entryID); err != nil {
		t.Fatalf("DeleteEntry: %v", err)
	}
	if err := h.s.DeleteEntry(ctx, entryID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("DeleteEntry(twice) = %v, want ErrNotFound", err)
	}
	h.reopen()
	if _, err := h.s.Entry(ctx, entryID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Entry(deleted) = %v, want ErrNotFound", err)
	}
	if _, err := h.s.Adoption(ctx, entryID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Adoption(deleted) = %v, want ErrNotFound", err)
	}
	if list, _ := h.s.Adoptions(ctx, 0); len(list) != 2 {
		t.Errorf("Adoptions after a delete = %d records, want 2", len(list))
	}
}
