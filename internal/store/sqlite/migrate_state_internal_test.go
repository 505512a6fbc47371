package sqlite

import (
	"encoding/hex"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3"
)

// A version 7 database kept tokens, held calls, the phase and the halt as
// JSON in gate_state. Versions 8 to 12 move each into its table with what a
// decision needs (a token's hash, role and id; a held call's session,
// principal, arguments and status; the phase and the halt) and leave no
// such key behind; keys that are not JSON, or lack what a row needs, are
// dropped rather than moved half.
func TestMigrateGateStateToTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:7] {
		if err := applyMigration(c, m); err != nil {
			t.Fatal(err)
		}
	}
	h1, h2, h3, h4 := strings.Repeat("a1", 32), strings.Repeat("b2", 32), strings.Repeat("c3", 32), strings.Repeat("d4", 32)
	held := `{"id":"01KA0000000000000000000000","status":"approved","time":"2026-11-20T10:00:00.5Z","expires_at":"2026-11-21T10:00:00Z",` +
		`"session_id":"tok-a1a1a1a1a1a1-work","input_source":"agent","tool":"erc20_transfer_token","tier":"write",` +
		`"args":{"to":"0x01","amount":"5"},"args_hash":"ff","reason":"UNTRUSTED_PROVENANCE","message":"held",` +
		`"decided_at":"2026-11-20T11:00:00Z","decided_by":"owner:x","note":"ok"}`
	if err := c.Exec(`INSERT INTO gate_state (key, value, set_ns) VALUES
  ('token:` + h1 + `', '{"id":"a1a1a1a1a1a1","role":"owner","name":"alice","created":"2026-11-01T00:00:00Z"}', 10),
  ('token:` + h2 + `', '{"id":"b2b2b2b2b2b2","role":"agent","name":"","created":"2026-11-01T00:00:00Z"}', 11),
  ('token:` + h3 + `', '', 12),
  ('token:` + h4 + `', '{"id":"d4d4d4d4d4d4","role":"agent","name":"alice"}', 13),
  ('token:zz', 'not json', 14),
  ('quarantine:01KA0000000000000000000000', '` + held + `', 20),
  ('quarantine:broken', '{"id":"broken"}', 21),
  ('directive:tok-a1a1a1a1a1a1-work', 'buy the dip', 22),
  ('phase', 'conservation', 30),
  ('halt', 'runaway loop', 31),
  ('lessons', '[]', 40);`); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	s := testStore(t, Config{Path: path})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c, err = sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	rows := func(q string) []string {
		t.Helper()
		st, _, err := c.Prepare(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer st.Close()
		var out []string
		for st.Step() {
			var cols []string
			for i := range st.ColumnCount() {
				cols = append(cols, st.ColumnText(i))
			}
			out = append(out, strings.Join(cols, "|"))
		}
		if err := st.Err(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return out
	}
	got := rows(`SELECT id, name, role, hex(token_hash), created_ns, coalesce(revoked_ns, '') FROM principals ORDER BY id`)
	want := []string{
		"a1a1a1a1a1a1|owner-a1a1a1a1a1a1|owner|" + strings.ToUpper(h1) + "|10|",
		"b2b2b2b2b2b2|agent-b2b2b2b2b2b2|agent|" + strings.ToUpper(h2) + "|11|",
		"d4d4d4d4d4d4|agent-d4d4d4d4d4d4|agent|" + strings.ToUpper(h4) + "|13|",
	}
	if !slices.Equal(got, want) {
		t.Errorf("principals:\n got %q\nwant %q", got, want)
	}
	if _, err := hex.DecodeString(h1); err != nil {
		t.Fatal(err)
	}
	got = rows(`SELECT id, principal_id, session_id, time_ns, tool, tier, json(args), status, decided_by, note FROM held_calls`)
	want = []string{`01KA0000000000000000000000|a1a1a1a1a1a1|tok-a1a1a1a1a1a1-work|1795168800500000000|erc20_transfer_token|write|{"to":"0x01","amount":"5"}|approved|owner:x|ok`}
	if !slices.Equal(got, want) {
		t.Errorf("held_calls:\n got %q\nwant %q", got, want)
	}
	if got := rows(`SELECT phase, phase_ns, halted, halt_reason, halt_ns FROM gate_control`); !slices.Equal(got, []string{"conservation|30|1|runaway loop|31"}) {
		t.Errorf("gate_control = %q", got)
	}
	if got := rows(`SELECT name FROM sqlite_schema WHERE name = 'gate_state'`); len(got) != 0 {
		t.Errorf("gate_state is still there after version 22")
	}
}

// A database that never set the phase or the halt gets the defaults.
func TestMigrateGateControlDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := testStore(t, Config{Path: path})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, _, err := c.Prepare(`SELECT phase, halted, coalesce(halt_reason, '') FROM gate_control`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if !st.Step() || st.ColumnText(0) != "thriving" || st.ColumnInt(1) != 0 || st.ColumnText(2) != "" {
		t.Fatalf("gate_control of a new database: %v", st.Err())
	}
}
