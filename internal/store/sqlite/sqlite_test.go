package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	configs := []struct {
		name string
		cfg  sqlite.Config
	}{
		{"defaults", sqlite.Config{}},
		// Tiny batches exercise backpressure and many small commits.
		{"normal,batch=7", sqlite.Config{Synchronous: "normal", MaxBatch: 7}},
	}
	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) func() (store.Store, error) {
				cfg := c.cfg
				cfg.Path = filepath.Join(t.TempDir(), "ward.db")
				return func() (store.Store, error) { return sqlite.Open(t.Context(), cfg) }
			})
		})
	}
}

func openStore(t *testing.T, cfg sqlite.Config) *sqlite.Store {
	t.Helper()
	if cfg.Path == "" {
		cfg.Path = filepath.Join(t.TempDir(), "ward.db")
	}
	s, err := sqlite.Open(t.Context(), cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// rawConn opens a connection of the test's own to path.
func rawConn(t *testing.T, path string) *sqlite3.Conn {
	t.Helper()
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// queryRows runs sql on c and returns every row as text.
func queryRows(t *testing.T, c *sqlite3.Conn, sql string) [][]string {
	t.Helper()
	st, _, err := c.Prepare(sql)
	if err != nil {
		t.Fatalf("prepare %q: %v", sql, err)
	}
	defer st.Close()
	var rows [][]string
	for st.Step() {
		row := make([]string, st.ColumnCount())
		for i := range row {
			row[i] = st.ColumnText(i)
		}
		rows = append(rows, row)
	}
	if err := st.Err(); err != nil {
		t.Fatalf("query %q: %v", sql, err)
	}
	return rows
}

func TestOpenConfig(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		cfg  sqlite.Config
	}{
		{"empty path", sqlite.Config{}},
		{"memory", sqlite.Config{Path: ":memory:"}},
		{"uri", sqlite.Config{Path: "file:" + filepath.Join(dir, "a.db")}},
		{"missing directory", sqlite.Config{Path: filepath.Join(dir, "no", "such", "dir", "a.db")}},
		{"synchronous off", sqlite.Config{Path: filepath.Join(dir, "b.db"), Synchronous: "off"}},
		{"negative batch", sqlite.Config{Path: filepath.Join(dir, "c.db"), MaxBatch: -1}},
		{"negative timeout", sqlite.Config{Path: filepath.Join(dir, "d.db"), CommitTimeout: -time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := sqlite.Open(t.Context(), tt.cfg)
			if err == nil {
				s.Close()
				t.Fatalf("Open(%+v) succeeded, want an error", tt.cfg)
			}
		})
	}
	for _, sync := range []string{"", "full", "FULL", "normal"} {
		t.Run("synchronous "+sync, func(t *testing.T) {
			s := openStore(t, sqlite.Config{Synchronous: sync})
			if err := s.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
		})
	}
}

func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	for range 3 { // reopening applies nothing twice
		s := openStore(t, sqlite.Config{Path: path})
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	c := rawConn(t, path)
	if got := queryRows(t, c, `SELECT version FROM schema_migrations ORDER BY version`); !slices.EqualFunc(got, [][]string{{"1"}}, slices.Equal) {
		t.Errorf("schema_migrations versions = %v, want [[1]]", got)
	}
	if got := queryRows(t, c, `PRAGMA user_version`); got[0][0] != "1" {
		t.Errorf("user_version = %s, want 1", got[0][0])
	}
	if got := queryRows(t, c, `PRAGMA journal_mode`); got[0][0] != "wal" {
		t.Errorf("journal_mode = %s, want wal", got[0][0])
	}
	tables := map[string][]string{
		"policy_decisions": {"id", "turn_id", "tool_name", "tool_args_hash", "risk_level", "decision",
			"rules_evaluated", "rules_triggered", "reason", "latency_ms", "created_at", "session_id",
			"input_source", "authority_level", "tool_category", "message", "rule", "policy_hash",
			"latency_ns", "spend_category", "spend_cents", "diagnostic", "origin"},
		"tool_executions":   {"id", "created_at", "tool_name", "tool_category", "session_id", "turn_id", "decision_id", "spend_category", "spend_cents"},
		"tracked_balance":   {"id", "cents", "observed_at"},
		"policy_snapshots":  {"hash", "source", "created_at"},
		"schema_migrations": {"version", "applied_at"},
	}
	for table, want := range tables {
		var got []string
		for _, row := range queryRows(t, c, fmt.Sprintf(`SELECT name FROM pragma_table_info('%s')`, table)) {
			got = append(got, row[0])
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s columns:\n got %v\nwant %v", table, got, want)
		}
	}
	// Few indexes: each costs insert time.
	got := queryRows(t, c, `SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name`)
	want := [][]string{{"tool_executions_created_at"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("indexes = %v, want %v", got, want)
	}
}

func TestSchemaTooNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	c := rawConn(t, path)
	if err := c.Exec(`PRAGMA user_version = 2`); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: path})
	if !errors.Is(err, store.ErrSchemaTooNew) {
		if err == nil {
			s.Close()
		}
		t.Fatalf("Open of a newer schema: error = %v, want %v", err, store.ErrSchemaTooNew)
	}
}

func decision(at time.Time, tool, verdict string, triggered string) *store.DecisionRecord {
	return &store.DecisionRecord{
		ID: id.New(at), Time: at, Tool: tool, ArgsHash: "ab", Risk: "caution", Decision: verdict,
		Reason: "R_" + verdict, RulesTriggered: triggered, Latency: 1500 * time.Microsecond, Origin: "gate",
	}
}

// The seed's example queries run verbatim against the table.
func TestSeedQueries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	recs := []*store.DecisionRecord{
		decision(at, "shell_exec", "deny", `["command.forbidden"]`),
		decision(at, "shell_exec", "deny", `["command.forbidden","authority.path"]`),
		decision(at, "wallet_send", "deny", `["spend.hourly"]`),
		decision(at, "file_read", "allow", `[]`),
		decision(at, "http_post", "quarantine", `["taint.session"]`),
	}
	for _, r := range recs {
		if err := s.AppendDecision(t.Context(), r, true); err != nil {
			t.Fatal(err)
		}
	}
	c := rawConn(t, path)
	tests := []struct {
		name string
		sql  string
		want [][]string
	}{
		{"most denied tools", `SELECT tool_name, COUNT(*) AS deny_count
FROM policy_decisions
WHERE decision = 'deny'
GROUP BY tool_name
ORDER BY deny_count DESC;`, [][]string{{"shell_exec", "2"}, {"wallet_send", "1"}}},
		{"most triggered rules", `SELECT json_each.value AS rule_id, COUNT(*) AS trigger_count
FROM policy_decisions, json_each(rules_triggered)
GROUP BY rule_id
ORDER BY trigger_count DESC;`, [][]string{{"command.forbidden", "2"}, {"authority.path", "1"}, {"spend.hourly", "1"}, {"taint.session", "1"}}},
		{"denials by reason", `SELECT reason, COUNT(*) AS count
FROM policy_decisions
WHERE decision = 'deny'
GROUP BY reason
ORDER BY count DESC;`, [][]string{{"R_deny", "3"}}},
		{"stored time and latency", `SELECT DISTINCT created_at, latency_ms, latency_ns FROM policy_decisions`,
			[][]string{{"2026-01-02T03:04:05.000000006Z", "1.5", "1500000"}}},
		{"empty optional fields are NULL", `SELECT COUNT(*) FROM policy_decisions WHERE session_id IS NULL AND diagnostic IS NULL AND origin = 'gate'`,
			[][]string{{"5"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := queryRows(t, c, tt.sql)
			// Ties have no order in the seed's queries: compare the tied tail as a set.
			if tt.name == "most triggered rules" && len(got) == 4 {
				slices.SortFunc(got[1:], func(a, b []string) int { return cmpStrings(a[0], b[0]) })
			}
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func cmpStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestRejectsIDBeforeTime(t *testing.T) {
	s := openStore(t, sqlite.Config{})
	now := time.Now()
	r := decision(now, "file_read", "allow", "")
	r.ID = id.MinAt(now.Add(-time.Hour))
	if err := s.AppendDecision(t.Context(), r, true); err == nil {
		t.Fatal("AppendDecision accepted an id older than the record's time")
	}
}

// A duplicate id fails only its own append; the rest of its batch commits.
func TestDuplicateIDFailsAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	first := decision(time.Now(), "file_read", "allow", "")
	if err := s.AppendDecision(t.Context(), first, true); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 100)
	var others []string
	for i := range errs {
		r := decision(time.Now(), "file_read", "allow", "")
		if i == 50 {
			dup := *first
			r = &dup
		} else {
			others = append(others, r.ID)
		}
		wg.Go(func() { errs[i] = s.AppendDecision(t.Context(), r, true) })
	}
	wg.Wait()
	for i, err := range errs {
		if (err != nil) != (i == 50) {
			t.Errorf("append %d: error %v (want an error only for the duplicate)", i, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := s.DroppedRecords(); n != 0 {
		t.Errorf("DroppedRecords = %d, want 0 (the duplicate's caller was told)", n)
	}
	c := rawConn(t, path)
	if got := queryRows(t, c, `SELECT COUNT(*) FROM policy_decisions`); got[0][0] != fmt.Sprint(len(others)+1) {
		t.Errorf("%s rows, want %d", got[0][0], len(others)+1)
	}
}

func TestRecordPolicyConflict(t *testing.T) {
	s := openStore(t, sqlite.Config{})
	ctx := t.Context()
	if err := s.RecordPolicy(ctx, "abcd", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordPolicy(ctx, "abcd", []byte("two")); err == nil {
		t.Error("RecordPolicy accepted a different source under a recorded hash")
	}
	if got, err := s.Policy(ctx, "abcd"); err != nil || string(got) != "one" {
		t.Errorf("Policy = %q, %v; want the first source", got, err)
	}
}

func TestQueryHonoursContext(t *testing.T) {
	s := openStore(t, sqlite.Config{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.QueryDecisions(ctx, store.DecisionFilter{}); !errors.Is(err, context.Canceled) {
		t.Errorf("QueryDecisions with a cancelled ctx: %v, want %v", err, context.Canceled)
	}
	if _, err := s.QueryDecisions(t.Context(), store.DecisionFilter{Limit: -1}); err == nil {
		t.Error("QueryDecisions accepted a negative limit")
	}
}
