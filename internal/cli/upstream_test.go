package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/upstream"
)

func TestUpstreamApprove(t *testing.T) {
	dir := t.TempDir()
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	// What ward serve records when an upstream's definition changed.
	aa, bb := strings.Repeat("a", 64), strings.Repeat("b", 64)
	if err := st.SetPendingTools(t.Context(), "notes", []store.PendingTool{{Server: "notes", Tool: "get_note", Hash: bb, ApprovedHash: aa,
		Seen: time.Now(), Def: json.RawMessage(`{"name":"get_note","description":"Read a note. Always include it.","input_schema":{"type":"object"}}`)}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	out, _, code := run(t, "", "upstream", "approve", "--data", dir, "notes")
	if code != exitOK || !strings.Contains(out, "Always include it") || !strings.Contains(out, "new hash      "+bb) {
		t.Errorf("listing: code %d, output:\n%s", code, out)
	}
	if _, errOut, code := run(t, "", "upstream", "approve", "--data", dir, "notes", "set_note"); code != exitFail || !strings.Contains(errOut, "no changed definition") {
		t.Errorf("approving nothing pending: code %d, %s", code, errOut)
	}
	out, _, code = run(t, "", "upstream", "approve", "--data", dir, "--by", "alice", "notes", "get_note")
	if code != exitOK || !strings.Contains(out, "approved mcp_notes_get_note ("+bb+")") {
		t.Errorf("approve: code %d, output:\n%s", code, out)
	}
	if _, _, code := run(t, "", "upstream", "approve", "--data", dir, "Not-A-Name"); code != exitUsage {
		t.Errorf("bad server name: code %d, want %d", code, exitUsage)
	}

	st, err = sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if p, err := st.PinnedTool(t.Context(), "notes", "get_note"); err != nil || p.Hash != bb || p.By != "alice" {
		t.Errorf("approved pin %+v, %v; want %s approved by alice", p, err, bb)
	}
	recs, err := st.Actions(t.Context(), store.ActionFilter{Kind: upstream.KindApproved})
	if err != nil || len(recs) != 1 || !strings.Contains(string(recs[0].Detail), `"note":"approved by alice"`) || recs[0].Tool != "mcp_notes_get_note" {
		t.Errorf("approval records %+v, %v", recs, err)
	}
	if p, err := upstream.Pending(t.Context(), st, "notes"); err != nil || len(p) != 0 {
		t.Errorf("still pending: %+v, %v", p, err)
	}
}

func TestUpstreamExtra(t *testing.T) {
	f, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	if upstreamExtra(f, nil) != nil {
		t.Error("an Extra hook without upstreams")
	}
	f, err = config.Parse("w.toml", []byte("[[upstream]]\nname = \"bad\"\ncommand = [\"/nonexistent/mcp-server\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if upstreamExtra(f, nil) == nil {
		t.Error("no Extra hook for an upstream")
	}
}

// TestLintUpstreamPinnedSchema: ward policy lint type-checks a rule naming
// an upstream tool against the input schema of its approved definition in
// the data directory's database; without that database the rule keeps
// dynamic typing.
func TestLintUpstreamPinnedSchema(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	data := filepath.Join(dir, "ward-data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(data, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	// What ward serve records when the server's tool changed; approving it
	// records the definition with the pin.
	if err := st.SetPendingTools(t.Context(), "notes", []store.PendingTool{{Server: "notes", Tool: "list_notes", Hash: strings.Repeat("b", 64),
		ApprovedHash: strings.Repeat("a", 64), Seen: time.Now(),
		Def: json.RawMessage(`{"name":"list_notes","description":"List notes.","input_schema":{"type":"object","properties":{"limit":{"type":"integer"}},"additionalProperties":false}}`)}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, errOut, code := run(t, "", "upstream", "approve", "notes", "list_notes"); code != 0 {
		t.Fatalf("upstream approve: %s", errOut)
	}
	file := "[[upstream]]\nname = \"notes\"\ncommand = [\"notes-server\"]\n\n[[policy.rules]]\nid = \"few\"\naction = \"deny\"\n" +
		"applies_to = { by = \"name\", names = [\"mcp_notes_list_notes\"] }\nwhen = 'args.limit > \"5\"'\n"
	if err := os.WriteFile("ward.toml", []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, "", "policy", "lint", "ward.toml")
	if code != 1 || !strings.Contains(out, "ward.toml:9:") || !strings.Contains(out, "(int, string)") || !strings.Contains(out, "mcp_notes_list_notes") {
		t.Errorf("lint with the pinned schema: exit %d:\n%s", code, out)
	}
	if out, _, code := run(t, "", "policy", "lint", "--data", filepath.Join(dir, "none"), "ward.toml"); code != 0 {
		t.Errorf("lint without a database: exit %d, want 0 (dynamic typing):\n%s", code, out)
	}
	os.WriteFile("ward.toml", []byte(strings.Replace(file, `args.limit > "5"`, `args.limit > 5`, 1)), 0o600)
	if out, _, code := run(t, "", "policy", "lint", "ward.toml"); code != 0 {
		t.Errorf("lint of a well-typed rule: exit %d:\n%s", code, out)
	}
}
