package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
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
	versions := queryRows(t, c, `SELECT version FROM schema_migrations ORDER BY version`)
	for i, v := range versions {
		if v[0] != strconv.Itoa(i+1) {
			t.Fatalf("schema_migrations versions = %v, want 1, 2, 3, ... without gaps", versions)
		}
	}
	if len(versions) < 12 {
		t.Errorf("%d migrations, want at least the 12 of the typed enforcement state", len(versions))
	}
	if got := queryRows(t, c, `PRAGMA user_version`); got[0][0] != strconv.Itoa(len(versions)) {
		t.Errorf("user_version = %s, want %d", got[0][0], len(versions))
	}
	if got := queryRows(t, c, `PRAGMA journal_mode`); got[0][0] != "wal" {
		t.Errorf("journal_mode = %s, want wal", got[0][0])
	}
	tables := map[string][]string{
		"policy_decisions": {"id", "turn_id", "tool_name", "tool_args_hash", "risk_level", "decision",
			"rules_evaluated", "rules_triggered", "reason", "latency_ms", "created_at", "session_id",
			"input_source", "authority_level", "tool_category", "message", "rule", "policy_hash",
			"latency_ns", "spend_category", "spend_cents", "diagnostic", "origin"},
		"decision_log": {"id", "created_ns", "turn_id", "session_id", "input_source", "authority", "tool",
			"category", "args_hash", "risk", "decision", "reason", "message", "rule", "rules_evaluated",
			"rules_triggered", "latency_ns", "policy", "spend_category", "spend_cents", "diagnostic", "origin"},
		"decision_dict":     {"id", "value"},
		"tool_executions":   {"id", "created_at", "tool_name", "tool_category", "session_id", "turn_id", "decision_id", "spend_category", "spend_cents"},
		"tracked_balance":   {"id", "cents", "observed_at"},
		"policy_snapshots":  {"id", "hash", "source", "created_at"},
		"schema_migrations": {"version", "applied_at"},
		"permits": {"id", "created_ns", "expires_ns", "not_before_ns", "expiry_tick", "session_id", "tool",
			"args_hash", "args", "policy_hash", "phase", "risk_tier", "value_cents", "preview", "status",
			"closed_ns", "closed_by", "principal_id"},
		"action_log": {"id", "time_ns", "kind", "permit_id", "session_id", "tool", "action_type", "args_hash",
			"tx_hash", "status", "block_reason", "gas_used", "gas_cost_wei", "verified", "expected", "actual",
			"ground_truth", "detail", "principal_id", "chain_id"},
		"withheld_outputs": {"key", "session_id", "parent_id", "tool", "time_ns", "size", "exit_code", "status",
			"nonce", "ciphertext", "decided_by", "decided_ns", "plain", "principal_id"},
		"withheld_wraps": {"key", "reviewer", "wrap"},
		"quarantine_entries": {"seq", "id", "agent", "content_hash", "entry", "status", "reason", "attack",
			"batch_id", "quarantined_ns", "decided_ns"},
		"grimoire_entries": {"id", "partition", "entry_type", "content", "provenance", "confidence", "agent",
			"signature", "anchor", "listing", "clade", "source_ns", "embedding", "claim", "heuristic", "created_ns", "adoption"},
		"principals": {"id", "name", "role", "token_hash", "created_ns", "expires_ns", "revoked_ns", "rotated_ns", "last_used_ns"},
		"sessions": {"id", "principal_id", "name", "created_ns", "active_ns", "level", "level_ns", "isolated", "parent_id",
			"author", "reviewers", "judge", "directive", "directive_trusted", "judged", "ledger_seq", "ledger_bytes", "ledger_dropped"},
		"session_observations": {"session_id", "seq", "time_ns", "kind", "ref", "instructions", "format", "sealed", "body", "args"},
		"held_calls": {"id", "principal_id", "session_id", "time_ns", "expires_ns", "turn_id", "input_source", "facade", "tool",
			"tier", "args", "args_hash", "reason", "message", "rule", "decision_id", "reviews", "status", "decided_ns",
			"decided_by", "note", "outcome", "retry_key", "description"},
		"spend_holds":  {"id", "session_id", "tick", "cents", "created_ns", "expires_ns"},
		"spend_ledger": {"id", "session_id", "tick", "cents", "time_ns", "status"},
		"gate_control": {"id", "phase", "phase_ns", "phase_by", "halted", "halt_reason", "halt_ns", "halt_by",
			"spend_tick_cents", "spend_session_cents", "spend_day_cents", "spend_by", "spend_ns", "allow_version"},
		"allowlist_entries": {"kind", "value", "allowed", "set_by", "set_ns"},
		"lessons": {"id", "used", "summary", "advice", "reason", "entry_id", "conditions", "keywords", "confidence",
			"created_ns", "touched_ns", "matches", "promoted_ns"},
		"series_samples":    {"day", "name", "value"},
		"oracle_filters":    {"kind", "bands", "band_bits", "seed", "hashes", "bits", "items", "words", "saved_ns"},
		"immune_signatures": {"seq", "id", "class", "centroid", "sketch", "dim", "attack", "reason", "recorded_ns"},
		"skill_components":  {"seq", "name", "kind", "text", "expr", "wasm", "func", "added_ns"},
		"source_reputation": {"agent", "used", "submitted", "quarantined", "adopted", "confirmed", "rolled_back",
			"stage1_passed", "stage1_failed", "stage2_passed", "stage2_failed", "sandbox_passed", "sandbox_failed",
			"adopt_passed", "adopt_failed", "safety_alpha", "safety_beta"},
		"source_failures":      {"agent", "attack", "failures"},
		"source_buyers":        {"agent", "buyer", "decided", "failed"},
		"session_influences":   {"session_id", "entry_id", "seq", "provenance", "agent", "confidence", "retrieved_ns"},
		"clade_entries":        {"seq", "entry_id"},
		"clade_votes":          {"entry_id", "member", "rejected", "voted_ns"},
		"clade_demotions":      {"entry_id", "member", "amount", "demoted_ns"},
		"upstream_pins":        {"server", "tool", "hash", "approved_ns", "approved_by"},
		"upstream_pending":     {"server", "tool", "hash", "approved_hash", "seen_ns", "definition"},
		"spend_session_totals": {"session_id", "cents"},
		"spend_minutes":        {"minute", "cents", "writes"},
		"sent_txs": {"hash", "chain_id", "sender", "nonce", "raw", "permit_id", "plan_index", "plan_len", "label", "state",
			"block", "created_ns", "settled_ns"},
		"safe_txs": {"hash", "chain_id", "safe", "nonce", "to_addr", "value", "data", "permit_id", "plan_index", "plan_len", "label",
			"executed_tx", "created_ns", "executed_ns"},
		"safe_signatures": {"hash", "owner", "sig", "signed_ns"},
		"owner_txs": {"id", "chain_id", "account", "owner", "kind", "session_key", "data", "unsigned_tx", "from_block", "permit_id",
			"created_ns", "done_tx", "done_ns", "stale_ns"},
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
	want := [][]string{{"action_log_lookup_failed"}, {"action_log_permit"}, {"action_log_time"}, {"grimoire_entries_partition"},
		{"held_calls_retry"}, {"held_calls_session"}, {"held_calls_time"}, {"owner_txs_pending"}, {"permits_status_expires"}, {"principals_live_name"},
		{"quarantine_entries_agent"}, {"quarantine_entries_decided"}, {"safe_txs_pending"}, {"sent_txs_nonce"}, {"sent_txs_permit"}, {"session_influences_time"}, {"sessions_parent"}, {"sessions_principal"},
		{"spend_holds_expires"}, {"spend_holds_session"}, {"spend_ledger_session"}, {"spend_ledger_time"},
		{"tool_executions_created_at"}, {"withheld_outputs_session"}}
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
	current, err := strconv.Atoi(queryRows(t, c, `PRAGMA user_version`)[0][0])
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, current+1)); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = sqlite.Open(t.Context(), sqlite.Config{Path: path})
	if !errors.Is(err, store.ErrSchemaTooNew) {
		if err == nil {
			s.Close()
		}
		t.Fatalf("Open of a newer schema: error = %v, want %v", err, store.ErrSchemaTooNew)
	}
}

func decision(at time.Time, tool, verdict string, triggered string) *store.DecisionRecord {
	v, err := store.ParseVerdict(verdict)
	if err != nil {
		panic(err)
	}
	return &store.DecisionRecord{
		ID: id.New(at), Time: at, Tool: tool, ArgsHash: "ab", Risk: "caution", Decision: v,
		Reason: "R_" + verdict, RulesTriggered: triggered, Latency: 1500 * time.Microsecond, Origin: store.OriginGate,
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

// oldRow is how the seed's policy_decisions table stored r, column by
// column (nil for NULL), before decisions were stored compactly: the view
// must show exactly this.
func oldRow(r *store.DecisionRecord) map[string]any {
	opt := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	list := func(s string) string {
		if s == "" {
			return "[]"
		}
		return s
	}
	return map[string]any{
		"id": r.ID, "turn_id": opt(r.TurnID), "tool_name": r.Tool, "tool_args_hash": r.ArgsHash,
		"risk_level": r.Risk, "decision": r.Decision.String(), "rules_evaluated": list(r.RulesEvaluated),
		"rules_triggered": list(r.RulesTriggered), "reason": r.Reason,
		"latency_ms": float64(r.Latency) / 1e6, "created_at": r.Time.UTC().Format("2006-01-02T15:04:05.000000000Z"),
		"session_id": opt(r.SessionID), "input_source": opt(r.InputSource), "authority_level": opt(r.Authority),
		"tool_category": opt(r.Category), "message": opt(r.Message), "rule": opt(r.Rule),
		"policy_hash": opt(r.PolicyHash), "latency_ns": int64(r.Latency), "spend_category": opt(r.SpendCategory),
		"spend_cents": r.SpendCents, "diagnostic": opt(r.Diagnostic), "origin": opt(r.Origin.String()),
	}
}

// viewRecords are records whose every field takes the compact encoding's
// less common paths.
func viewRecords() []*store.DecisionRecord {
	now := time.Now()
	full := &store.DecisionRecord{
		ID: id.New(now), Time: now, TurnID: "turn-1", SessionID: "sess-1", InputSource: "creator", Authority: "agent",
		Tool: "wallet_send_token", Category: "wallet",
		ArgsHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Risk: "forbidden",
		Decision: store.VerdictDeny, Reason: "HOURLY_TRANSFER_LIMIT_EXCEEDED", Message: "limit", Rule: "spend.hourly",
		RulesEvaluated: `["authority.tool","spend.hourly"]`, RulesTriggered: `["spend.hourly"]`,
		Latency: 12345678, PolicyHash: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
		SpendCategory: "transfer", SpendCents: 250, Diagnostic: "d", Origin: store.OriginGate,
	}
	minimal := &store.DecisionRecord{ID: id.New(now), Time: now, Risk: "safe", Decision: store.VerdictAllow, Origin: store.OriginGate}
	odd := &store.DecisionRecord{
		ID: id.New(now), Time: now, InputSource: "Agent", Authority: "system", Tool: "", ArgsHash: "ABCDEF",
		Risk: "caution", Decision: store.VerdictQuarantine, RulesEvaluated: ` [ "a", 1, null ] `, PolicyHash: "not-hex",
		Origin: store.OriginCheck, Latency: 1,
	}
	noAuthority := &store.DecisionRecord{
		ID: id.New(now), Time: now, InputSource: "peer", ArgsHash: "00", Risk: "dangerous", Decision: store.VerdictDeny,
		Reason: "R", RulesTriggered: `[]`, Origin: store.OriginGate,
	}
	derived := make([]*store.DecisionRecord, 0, 6)
	for _, src := range []string{"external", "peer", "heartbeat", "system", "agent", "creator"} {
		auth := map[string]string{"creator": "agent", "agent": "agent", "system": "system", "heartbeat": "system"}[src]
		if auth == "" {
			auth = "external"
		}
		derived = append(derived, &store.DecisionRecord{
			ID: id.New(now), Time: now, InputSource: src, Authority: auth, ArgsHash: "0f", Risk: "safe", Decision: store.VerdictAllow,
			Origin: store.OriginGate,
		})
	}
	// Before 1970 and a nanosecond before a second: the view's time
	// arithmetic floors.
	old := time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC)
	before1970 := &store.DecisionRecord{ID: id.New(now), Time: old, Risk: "safe", Decision: store.VerdictAllow, Tool: "t", Origin: store.OriginGate}
	return append([]*store.DecisionRecord{full, minimal, odd, noAuthority, before1970}, derived...)
}

// The view shows every column as the seed's table stored it, and
// QueryDecisions returns every record as it was appended.
func TestViewMatchesSeedTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	recs := viewRecords()
	for _, r := range recs {
		if err := s.AppendDecision(t.Context(), r, true); err != nil {
			t.Fatalf("AppendDecision(%+v): %v", r, err)
		}
	}
	got, err := s.QueryDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]store.DecisionRecord{}
	for _, g := range got {
		byID[g.ID] = g
	}
	for _, r := range recs {
		g, ok := byID[r.ID]
		if !ok {
			t.Errorf("record %s missing", r.ID)
			continue
		}
		want := *r
		want.Time = r.Time.UTC()
		if !g.Time.Equal(want.Time) || g.Time.Location() != time.UTC {
			t.Errorf("record %s: time %v, want %v", r.ID, g.Time, want.Time)
		}
		g.Time, want.Time = time.Time{}, time.Time{}
		if want.RulesEvaluated == "" {
			want.RulesEvaluated = "[]"
		}
		if want.RulesTriggered == "" {
			want.RulesTriggered = "[]"
		}
		if g != want {
			t.Errorf("QueryDecisions:\n got %+v\nwant %+v", g, want)
		}
	}

	c := rawConn(t, path)
	st, _, err := c.Prepare(`SELECT * FROM policy_decisions WHERE id = ?`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, r := range recs {
		want := oldRow(r)
		if err := st.BindText(1, r.ID); err != nil {
			t.Fatal(err)
		}
		if !st.Step() {
			t.Fatalf("record %s not in the view: %v", r.ID, st.Err())
		}
		for i := range st.ColumnCount() {
			name := st.ColumnName(i)
			w, ok := want[name]
			if !ok {
				t.Errorf("unexpected view column %s", name)
				continue
			}
			var g any
			switch st.ColumnType(i) {
			case sqlite3.NULL:
			case sqlite3.INTEGER:
				g = st.ColumnInt64(i)
			case sqlite3.FLOAT:
				g = st.ColumnFloat(i)
			case sqlite3.TEXT:
				g = st.ColumnText(i)
			default:
				g = fmt.Sprintf("%v %x", st.ColumnType(i), st.ColumnRawBlob(i))
			}
			if g != w {
				t.Errorf("record %s: %s = %#v, want %#v", r.ID, name, g, w)
			}
		}
		if err := st.Reset(); err != nil {
			t.Fatal(err)
		}
	}
	if n := st.ColumnCount(); n != len(oldRow(recs[0])) {
		t.Errorf("view has %d columns, want %d", n, len(oldRow(recs[0])))
	}
}

// Records outside the years Unix nanoseconds hold are refused; filters
// outside them select everything or nothing.
func TestTimeRange(t *testing.T) {
	s := openStore(t, sqlite.Config{})
	for _, at := range []time.Time{
		time.Date(1677, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2263, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		// Not id.New(at): a time before 1970 would derail its monotonic
		// clock for the rest of the process.
		r := decision(time.Now(), "file_read", "allow", "")
		r.Time, r.ID = at, id.MinAt(at.Add(time.Hour))
		if err := s.AppendDecision(t.Context(), r, true); err == nil {
			t.Errorf("AppendDecision accepted a record at %v", at)
		}
	}
	r := decision(time.Now(), "file_read", "allow", "")
	if err := s.AppendDecision(t.Context(), r, true); err != nil {
		t.Fatal(err)
	}
	far, past := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 2, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		f    store.DecisionFilter
		want int64
	}{
		{"since long ago", store.DecisionFilter{Since: past}, 1},
		{"until far ahead", store.DecisionFilter{Until: far}, 1},
		{"since far ahead", store.DecisionFilter{Since: far}, 0},
		{"until long ago", store.DecisionFilter{Until: past}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := s.CountDecisions(t.Context(), tt.f)
			if err != nil || n != tt.want {
				t.Errorf("CountDecisions(%+v) = %d, %v; want %d", tt.f, n, err, tt.want)
			}
		})
	}
}

// A policy hash named by decisions before its source is recorded is
// stored, and RecordPolicy fills the source in once.
func TestPolicyNamedBeforeRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	ctx := t.Context()
	r := decision(time.Now(), "file_read", "allow", "")
	r.PolicyHash = "feed"
	if err := s.AppendDecision(ctx, r, true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Policy(ctx, "feed"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Policy of a hash only named by a decision: %v, want %v", err, store.ErrNotFound)
	}
	if err := s.RecordPolicy(ctx, "feed", []byte("one")); err != nil {
		t.Fatalf("RecordPolicy: %v", err)
	}
	if err := s.RecordPolicy(ctx, "feed", []byte("one")); err != nil {
		t.Fatalf("RecordPolicy again: %v", err)
	}
	if err := s.RecordPolicy(ctx, "feed", []byte("two")); err == nil {
		t.Error("RecordPolicy accepted a different source under a recorded hash")
	}
	if got, err := s.Policy(ctx, "feed"); err != nil || string(got) != "one" {
		t.Errorf("Policy = %q, %v; want the first source", got, err)
	}
	r2 := decision(time.Now(), "file_read", "allow", "")
	r2.PolicyHash = "feed"
	if err := s.AppendDecision(ctx, r2, true); err != nil {
		t.Fatal(err)
	}
	got, err := s.QueryDecisions(ctx, store.DecisionFilter{})
	if err != nil || len(got) != 2 || got[0].PolicyHash != "feed" || got[1].PolicyHash != "feed" {
		t.Fatalf("QueryDecisions = %+v, %v; want two records with policy hash feed", got, err)
	}
	c := rawConn(t, path)
	if got := queryRows(t, c, `SELECT COUNT(*), COUNT(source) FROM policy_snapshots`); got[0][0] != "1" || got[0][1] != "1" {
		t.Errorf("policy_snapshots rows, sources = %v, want 1, 1", got[0])
	}
}
