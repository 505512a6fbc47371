package sqlite

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"testing"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// checkRefs fails if a row of decision_log names an id missing from
// decision_dict or policy_snapshots.
func checkRefs(t *testing.T, path string) {
	t.Helper()
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	cols := []string{"input_source", "authority", "tool", "category", "reason", "rule", "rules_evaluated", "rules_triggered", "spend_category", "origin"}
	for _, col := range cols {
		st, _, err := c.Prepare(`SELECT COUNT(*) FROM decision_log AS d WHERE d.` + col + ` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM decision_dict WHERE id = d.` + col + `)`)
		if err != nil {
			t.Fatal(err)
		}
		st.Step()
		if n := st.ColumnInt64(0); n != 0 {
			t.Errorf("%d rows name a %s missing from decision_dict", n, col)
		}
		st.Close()
	}
	st, _, err := c.Prepare(`SELECT COUNT(*) FROM decision_log AS d WHERE d.policy IS NOT NULL AND NOT EXISTS (SELECT 1 FROM policy_snapshots WHERE id = d.policy)`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Step()
	if n := st.ColumnInt64(0); n != 0 {
		t.Errorf("%d rows name a policy missing from policy_snapshots", n)
	}
}

// tools returns the tool of every decision by id.
func tools(t *testing.T, s *Store) map[string]string {
	t.Helper()
	recs, err := s.QueryDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range recs {
		out[r.ID] = r.Tool
	}
	return out
}

// Strings interned by a transaction that failed are interned again by the
// next one that uses them, never taken as committed.
func TestInternAfterFailedCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := testStore(t, Config{Path: path})
	boom := errors.New("disk on fire")
	release := plug(t, s, func(n int32) error {
		if n == 2 {
			return boom
		}
		return nil
	})
	// Both join the batch that fails: the durable one is reported and
	// gone, the other is retried.
	lost := rec("tool-lost")
	lost.PolicyHash, lost.Category, lost.RulesEvaluated = "hash-lost", "category-lost", `["rule.lost"]`
	retried := rec("tool-retried")
	retried.RulesEvaluated = `[]`
	if err := s.AppendDecision(t.Context(), retried, false); err != nil {
		t.Fatal(err)
	}
	failed := make(chan error, 1)
	go func() { failed <- s.AppendDecision(t.Context(), lost, true) }()
	waitQueued(s, 2)
	release()
	if err := <-failed; !errors.Is(err, boom) {
		t.Fatalf("append in the failed batch: %v, want %v", err, boom)
	}
	// New strings first, so that ids the failed transaction used are
	// handed out again, then the lost ones.
	fresh := rec("tool-fresh")
	fresh.PolicyHash, fresh.Category, fresh.RulesEvaluated = "hash-fresh", "category-fresh", `["rule.fresh"]`
	again := rec("tool-lost")
	again.PolicyHash, again.Category, again.RulesEvaluated = "hash-lost", "category-lost", `["rule.lost"]`
	for _, r := range []*store.DecisionRecord{fresh, again} {
		if err := s.AppendDecision(t.Context(), r, true); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.QueryDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*store.DecisionRecord{retried.ID: retried, fresh.ID: fresh, again.ID: again}
	for _, g := range got {
		w, ok := want[g.ID]
		if g.Tool == "plug" {
			continue
		}
		if !ok {
			t.Errorf("unexpected record %s (%s)", g.ID, g.Tool)
			continue
		}
		if g.Tool != w.Tool || g.PolicyHash != w.PolicyHash || g.Category != w.Category || g.RulesEvaluated != w.RulesEvaluated {
			t.Errorf("record %s: %s %s %s %s, want %s %s %s %s", g.ID, g.Tool, g.PolicyHash, g.Category, g.RulesEvaluated,
				w.Tool, w.PolicyHash, w.Category, w.RulesEvaluated)
		}
		delete(want, g.ID)
	}
	for id, w := range want {
		t.Errorf("record %s (%s) missing", id, w.Tool)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkRefs(t, path)
}

// Two stores on one file (two processes) intern the same strings without
// conflict: each finds what the other committed.
func TestInternTwoWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	a := testStore(t, Config{Path: path})
	b := testStore(t, Config{Path: path})
	steps := []struct {
		s    *Store
		tool string
	}{{a, "alpha"}, {b, "beta"}, {b, "alpha"}, {a, "beta"}, {a, "gamma"}, {b, "delta"}, {b, "gamma"}, {a, "delta"}}
	want := map[string]string{}
	for _, st := range steps {
		r := rec(st.tool)
		r.PolicyHash = "policy-" + st.tool
		if err := st.s.AppendDecision(t.Context(), r, true); err != nil {
			t.Fatalf("append %s: %v", st.tool, err)
		}
		want[r.ID] = st.tool
	}
	for _, s := range []*Store{a, b} {
		got := tools(t, s)
		for id, tool := range want {
			if got[id] != tool {
				t.Errorf("record %s: tool %q, want %q", id, got[id], tool)
			}
		}
	}
	for _, s := range []*Store{a, b} {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	checkRefs(t, path)
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, _, err := c.Prepare(`SELECT COUNT(*) FROM decision_dict WHERE value IN ('alpha', 'beta', 'gamma', 'delta')`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Step(); st.ColumnInt64(0) != 4 {
		t.Errorf("%d tool names in decision_dict, want each of the 4 once", st.ColumnInt64(0))
	}
}

// The dictionary is loaded at Open: a reopened store interns nothing it
// already has.
func TestDictLoadedAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := testStore(t, Config{Path: path})
	if err := s.AppendDecision(t.Context(), rec("loaded"), true); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = testStore(t, Config{Path: path})
	for _, v := range []string{"loaded", "[]", "external", "gate"} {
		if _, ok := s.w.names.ids[v]; !ok {
			t.Errorf("%q not loaded into the writer's dictionary", v)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

// An unknown name in a filter matches nothing.
func TestFilterUnknownName(t *testing.T) {
	s := testStore(t, Config{})
	if err := s.AppendDecision(t.Context(), rec("known"), true); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	for _, f := range []store.DecisionFilter{
		{Tool: "unknown"}, {Reason: "unknown"}, {Origin: 9}, {Decision: 200},
	} {
		n, err := s.CountDecisions(ctx, f)
		if err != nil || n != 0 {
			t.Errorf("CountDecisions(%+v) = %d, %v; want 0", f, n, err)
		}
	}
}

// Past maxCachedIDs, new strings (tool names an agent invents) are still
// interned and read back, but not kept in memory.
func TestDictCacheBounded(t *testing.T) {
	defer func(n int) { maxCachedIDs = n }(maxCachedIDs)
	maxCachedIDs = 16
	path := filepath.Join(t.TempDir(), "ward.db")
	s, err := Open(t.Context(), Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for i := range 100 {
		r := rec(fmt.Sprintf("tool_%d", i%50)) // each name twice
		if err := s.AppendDecision(t.Context(), r, true); err != nil {
			t.Fatal(err)
		}
		want[r.ID] = r.Tool
	}
	if got := tools(t, s); !maps.Equal(got, want) {
		t.Errorf("tools read back differ: got %d records, want %d", len(got), len(want))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := len(s.w.names.ids); n > maxCachedIDs {
		t.Errorf("dict caches %d strings, cap %d", n, maxCachedIDs)
	}
	checkRefs(t, path)
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, _, err := c.Prepare(`SELECT COUNT(*) FROM decision_dict WHERE value LIKE 'tool\_%' ESCAPE '\'`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.Step()
	if n := st.ColumnInt(0); n != 50 {
		t.Errorf("%d tool names interned, want 50 (each once)", n)
	}
}
