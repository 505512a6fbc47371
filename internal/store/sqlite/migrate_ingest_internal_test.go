package sqlite

import (
	"encoding/base64"
	"encoding/json"
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/oracle"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/store"
)

// A version 12 database kept the knowledge pipeline's lessons, series,
// filters, immune memory, skill library and reputation, and the upstream
// pins, as JSON or base64 under one gate_state key each. Versions 13 to 21
// move what SQL can read into the tables, where the store reads it back,
// drop the base64 binary encodings, and leave none of those keys behind;
// a value or row that is not what ward wrote is dropped, not moved half.
func TestMigrateIngestStateToTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:12] {
		if err := applyMigration(c, m); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 11, 20, 10, 0, 0, 123456789, time.UTC)
	ms := func(t time.Time) time.Time { return t.Truncate(time.Millisecond) }

	// The encodings of the code before version 13.
	ls, err := adopt.NewLessons(0)
	if err != nil {
		t.Fatal(err)
	}
	old := adopt.Lesson{ID: "rollback-1", Summary: "rolled back", Advice: "distrust 0xabc", Reason: "rolled_back: peer_comparison",
		EntryID: "e1", Keywords: []string{"0xabc"}, Confidence: 0.8, Created: at, Matches: []time.Time{at.Add(time.Minute)}}
	recent := adopt.Lesson{ID: "sandbox-2", Summary: "breached", Conditions: []string{"gas high"}, Confidence: 0.6, Created: at.Add(time.Hour),
		Promoted: at.Add(2 * time.Hour)}
	for _, l := range []adopt.Lesson{old, recent} {
		if _, err := ls.Add(l); err != nil {
			t.Fatal(err)
		}
	}
	lessons, err := ls.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	series := `[{"day":"2026-10-01T00:00:00Z","values":{"portfolio_usd":1000.5,"eth_usd":3000}},` +
		`{"day":"2026-10-02T00:00:00Z","values":{"portfolio_usd":990,"Bad Name":1}}]`
	o, err := oracle.New(oracle.Config{})
	if err != nil {
		t.Fatal(err)
	}
	o.MarkBad("poison", nil)
	export, err := o.Export()
	if err != nil {
		t.Fatal(err)
	}
	im, err := oracle.NewImmune(oracle.ImmuneConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := im.Record(oracle.Features{Source: "purchased", Category: "insight", Embedding: []float32{1, 2}}, "KNOWLEDGE_INJECTION", knowledge.ContentInjection); err != nil {
		t.Fatal(err)
	}
	immune, err := im.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	skills := `[{"name":"rsi_oversold","kind":0,"text":"rsi below 30 oversold","expr":"rsi \u003c 30.0"},` +
		`{"name":"e9#1","kind":0,"text":"gas below 5","expr":"gas \u003c 5.0"},` +
		`{"name":"size_half","kind":1,"text":"half","wasm":"AGFzbQEAAAA=","func":"size"}]`
	reputation := `{"version":1,"sources":[` +
		`{"agent":"0xAAAA","entries_submitted":4,"entries_quarantined":1,"stages":{"stage1":{"passed":3,"failed":1},"adopt":{"passed":2,"failed":0}},` +
		`"failures_by_attack":{"content_injection":1,"not_an_attack":2},"entries_adopted":2,"entries_confirmed":1,"entries_rolled_back":0,` +
		`"safety_alpha":2,"safety_beta":0.5,"safety":0.8,"buyers":{"local":{"decided":3,"failed":1},"peer":{"decided":1,"failed":2}},` +
		`"failure_rate":0.33,"accept_rate":0.66,"rollback_rate":0,"blacklisted":false},` +
		`{"agent":"0xbbbb","entries_submitted":1,"entries_quarantined":0,"entries_adopted":0,"entries_confirmed":0,"entries_rolled_back":0,` +
		`"safety_alpha":1,"safety_beta":3,"safety":0.25,"failure_rate":0,"accept_rate":0,"rollback_rate":0,"blacklisted":true}]}`
	h1, h2, h3 := strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64)
	pendingNotes, err := json.Marshal(map[string]any{"get_note": map[string]any{"tool": "get_note", "hash": h2, "approved_hash": h1,
		"seen_at": at, "definition": json.RawMessage(`{"name":"get_note","description":"Always include it."}`)},
		"broken": map[string]any{"tool": "broken", "hash": "not hex", "approved_hash": h1, "seen_at": at, "definition": json.RawMessage(`{}`)}})
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := c.Prepare(`INSERT INTO gate_state (key, value, set_ns) VALUES (?, ?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range [][2]string{
		{"grimoire:lessons", string(lessons)},
		{"grimoire:series", series},
		{"grimoire:oracle", base64.StdEncoding.EncodeToString(export)},
		{"grimoire:immune", base64.StdEncoding.EncodeToString(immune)},
		{"grimoire:skill_library", skills},
		{"grimoire:reputation", reputation},
		{"upstream:notes:get_note", h1},
		{"upstream:notes:ns:odd", h3},
		{"upstream:notes:empty", ""},
		{"upstream-pending:notes", string(pendingNotes)},
		{"upstream-pending:other", ""},
		{"halt", "kept"},
	} {
		if err := st.BindText(1, kv[0]); err != nil {
			t.Fatal(err)
		}
		if err := st.BindText(2, kv[1]); err != nil {
			t.Fatal(err)
		}
		if err := st.BindInt64(3, at.UnixNano()); err != nil {
			t.Fatal(err)
		}
		if err := st.Exec(); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	s := testStore(t, Config{Path: path})
	ctx := t.Context()

	gotLessons, err := s.Lessons(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantOld, wantRecent := old, recent
	wantOld.Touched, wantRecent.Touched = ms(at), ms(at.Add(time.Hour))
	wantOld.Created, wantOld.Matches = ms(at), []time.Time{ms(at.Add(time.Minute))}
	wantRecent.Created, wantRecent.Promoted = ms(at.Add(time.Hour)), ms(at.Add(2*time.Hour))
	if want := []adopt.Lesson{wantRecent, wantOld}; !reflect.DeepEqual(gotLessons, want) {
		t.Errorf("lessons, most recent first:\n got %+v\nwant %+v", gotLessons, want)
	}

	samples, err := s.Samples(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d1 := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	if len(samples) != 2 || !samples[0].Day.Equal(d1) || !maps.Equal(samples[0].Values, map[string]float64{"portfolio_usd": 1000.5, "eth_usd": 3000}) ||
		!maps.Equal(samples[1].Values, map[string]float64{"portfolio_usd": 990}) {
		t.Errorf("samples = %+v; want two days, without the bad name", samples)
	}

	if _, ok, err := s.OracleFilters(ctx); err != nil || ok {
		t.Errorf("oracle filters after the migration: %v, %v; want none (dropped)", ok, err)
	}
	if sigs, err := s.ImmuneSignatures(ctx); err != nil || len(sigs) != 0 {
		t.Errorf("immune signatures after the migration: %d, %v; want none (dropped)", len(sigs), err)
	}

	comps, err := s.SkillComponents(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantComps := []skill.Component{{Name: "rsi_oversold", Text: "rsi below 30 oversold", Expr: "rsi < 30.0"},
		{Name: "e9#1", Text: "gas below 5", Expr: "gas < 5.0"}}
	if !reflect.DeepEqual(comps, wantComps) {
		t.Errorf("skill components = %+v; want the two conditions", comps)
	}

	srcs, err := s.Sources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantSrcs := []store.SourceRecord{
		{Agent: "0xaaaa", Submitted: 4, Quarantined: 1, Adopted: 2, Confirmed: 1, Stage1: store.StageCount{Passed: 3, Failed: 1},
			Adopt: store.StageCount{Passed: 2}, Failures: map[knowledge.AttackType]int{knowledge.ContentInjection: 1}, SafetyAlpha: 2, SafetyBeta: 1,
			Buyers: map[string]store.BuyerCount{"local": {Decided: 3, Failed: 1}}},
		{Agent: "0xbbbb", Submitted: 1, SafetyAlpha: 1, SafetyBeta: 3, Failures: map[knowledge.AttackType]int{}, Buyers: map[string]store.BuyerCount{}},
	}
	if !reflect.DeepEqual(srcs, wantSrcs) {
		t.Errorf("sources, least recently updated first:\n got %+v\nwant %+v", srcs, wantSrcs)
	}

	for _, tc := range []struct {
		server, tool, hash string
	}{{"notes", "get_note", h1}, {"notes", "ns:odd", h3}} {
		p, err := s.PinnedTool(ctx, tc.server, tc.tool)
		if err != nil || p.Hash != tc.hash || !p.Approved.Equal(at) || p.By != "" {
			t.Errorf("pin of %s: %+v, %v; want %s approved on first use at %v", tc.tool, p, err, tc.hash, at)
		}
	}
	if _, err := s.PinnedTool(ctx, "notes", "empty"); err == nil {
		t.Error("an empty approved hash became a pin")
	}
	pend, err := s.PendingTools(ctx, "notes")
	if err != nil {
		t.Fatal(err)
	}
	if len(pend) != 1 || pend[0].Tool != "get_note" || pend[0].Hash != h2 || pend[0].ApprovedHash != h1 || !pend[0].Seen.Equal(ms(at)) ||
		string(pend[0].Def) != `{"name":"get_note","description":"Always include it."}` {
		t.Errorf("pending definitions = %+v; want get_note's only", pend)
	}

	// Version 22 drops the key-value table once every part of it moved.
	var tables []string
	if err := s.r.query(ctx, `SELECT name FROM sqlite_schema WHERE name = 'gate_state'`, nil, func(st *sqlite3.Stmt) error {
		tables = append(tables, st.ColumnText(0))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(tables) != 0 {
		t.Error("gate_state is still there after version 22")
	}
}
