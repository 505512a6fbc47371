package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/id"
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
	if upstreamExtra(f, "", nil) != nil {
		t.Error("an Extra hook without upstreams")
	}
	f, err = config.Parse("w.toml", []byte("[[upstream]]\nname = \"bad\"\ncommand = [\"/nonexistent/mcp-server\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if upstreamExtra(f, "", nil) == nil {
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

func TestUpstreamList(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ward.toml")
	toml := `[[upstream]]
name = "notes"
url = "https://user:hunter2@notes.example/mcp?key=s3cret"

[[upstream]]
name = "files"
command = ["/usr/local/bin/files-mcp", "--token", "s3cret-arg"]
env = { FILES_TOKEN = "${FILES_TOKEN}" }
`
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	// Before any ward ran on the data directory: the servers, nothing pinned.
	out, _, code := run(t, "", "upstream", "list", "--data", filepath.Join(dir, "none"), "--config", cfg, "--json")
	var empty []upstream.ServerInfo
	if code != exitOK || json.Unmarshal([]byte(out), &empty) != nil || len(empty) != 2 || len(empty[0].Tools) != 0 {
		t.Fatalf("without a database: code %d, output:\n%s", code, out)
	}

	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	aa, bb, cc := strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64)
	at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	for _, p := range []store.PinnedTool{{Server: "notes", Tool: "get_note", Hash: aa, Approved: at}, {Server: "notes", Tool: "listNotes", Hash: cc, Approved: at, By: "alice"}} {
		if _, _, err := st.PinTool(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetPendingTools(t.Context(), "notes", []store.PendingTool{{Server: "notes", Tool: "get_note", Hash: bb, ApprovedHash: aa,
		Seen: at.Add(time.Hour), Def: json.RawMessage(`{"name":"get_note","description":"Read a note. Always include it.","input_schema":{"type":"object"}}`)}}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	out, _, code = run(t, "", "upstream", "list", "--data", dir, "--config", cfg, "--json")
	if code != exitOK {
		t.Fatalf("--json: code %d", code)
	}
	var list []upstream.ServerInfo
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("--json is not an array of servers: %v\n%s", err, out)
	}
	if len(list) != 2 || list[0].Name != "notes" || list[1].Name != "files" {
		t.Fatalf("servers %+v; want notes then files, in the file's order", list)
	}
	notes := list[0]
	if notes.Transport != "http" || notes.Target != "https://notes.example/mcp" {
		t.Errorf("notes is reached at %s %q; want http and the URL without user info or query", notes.Transport, notes.Target)
	}
	if len(notes.Tools) != 2 || notes.Tools[0].Tool != "get_note" || notes.Tools[0].PinnedHash != aa || notes.Tools[0].Name != "mcp_notes_get_note" ||
		notes.Tools[1].Name != "mcp_notes_list_notes" || notes.Tools[1].ApprovedBy != "alice" || !notes.Tools[1].ApprovedAt.Equal(at) {
		t.Errorf("notes' tools %+v", notes.Tools)
	}
	if len(notes.Pending) != 1 || notes.Pending[0].Hash != bb || notes.Pending[0].Approved != aa || !strings.Contains(string(notes.Pending[0].Def), "Always include it") {
		t.Errorf("notes' pending definitions %+v", notes.Pending)
	}
	if f := list[1]; f.Transport != "stdio" || f.Target != "files-mcp" || len(f.Tools) != 0 || f.Pending == nil {
		t.Errorf("files: %+v", f)
	}

	table, _, code := run(t, "", "upstream", "list", "--data", dir, "--config", cfg)
	if code != exitOK {
		t.Fatalf("table: code %d", code)
	}
	for _, want := range []string{"SERVER", "PINNED HASH", "get_note", "mcp_notes_list_notes", aa[:12], bb[:12], "first use", "alice", "files (stdio files-mcp)",
		"notes has 1 changed definition(s) waiting: ward upstream approve --data " + dir + " notes"} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
	for _, out := range []string{out, table} {
		for _, secret := range []string{"hunter2", "s3cret", "FILES_TOKEN"} {
			if strings.Contains(out, secret) {
				t.Errorf("the listing shows %q:\n%s", secret, out)
			}
		}
	}
	if _, _, code := run(t, "", "upstream", "list", "--data", dir, "--config", cfg, "extra"); code != exitUsage {
		t.Errorf("an extra argument: code %d, want %d", code, exitUsage)
	}
}

// pinUpstream records what ward serve records when it first sees an
// upstream tool: its pin and the pinning action record with the
// canonical definition.
func pinUpstream(t *testing.T, st *sqlite.Store, server string, tl *mcp.Tool) string {
	t.Helper()
	canon, hash, err := upstream.DefHash(tl)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if _, _, err := st.PinTool(t.Context(), store.PinnedTool{Server: server, Tool: tl.Name, Hash: hash, Approved: now}); err != nil {
		t.Fatal(err)
	}
	detail, _ := json.Marshal(map[string]any{"server": server, "tool": tl.Name, "hash": hash, "note": "trust on first use", "definition": json.RawMessage(canon)})
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: upstream.KindPinned, Tool: upstream.ToolName(server, tl.Name), Detail: detail}
	if err := st.AppendAction(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	return hash
}

// ward policy check resolves a tool of a configured upstream server named
// alone from its approved, pinned definition, classified as ward serve
// registers it; an upstream tool without an approved definition stays
// unknown (fail closed).
func TestCheckUpstreamTool(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	cfg := `[[upstream]]
name = "notes"
url = "http://127.0.0.1:9/mcp"
trust_annotations = true
`
	if err := os.WriteFile("ward.toml", []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	// ward policy check reads the default data directory, as serve does.
	if err := os.MkdirAll(filepath.Join(dir, "ward-data"), 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward-data", "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{"type": "object"}
	pinUpstream(t, st, "notes", &mcp.Tool{Name: "getNote", Description: "Read a note.", InputSchema: obj, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}})
	pinUpstream(t, st, "notes", &mcp.Tool{Name: "set_note", Description: "Write a note.", InputSchema: obj})
	// A pin whose record holds another definition than the pinned hash.
	forged := &mcp.Tool{Name: "drop_all", Description: "Harmless.", InputSchema: obj, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
	pinUpstream(t, st, "notes", forged)
	if ok, err := st.RepinTool(t.Context(), store.PinnedTool{Server: "notes", Tool: "drop_all", Hash: strings.Repeat("e", 64), Approved: time.Now()}, mustHash(t, forged)); err != nil || !ok {
		t.Fatal(ok, err)
	}
	// A server that is not configured (any more) resolves nothing.
	pinUpstream(t, st, "gone", &mcp.Tool{Name: "peek", Description: "Read.", InputSchema: obj, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}})
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, line, action, code string
	}{
		{"an approved read is safe even from outside", `{"tool":{"name":"mcp_notes_get_note"},"args":{},"turn":{"input_source":"external"}}`, "allow", "ALLOWED"},
		{"an approved write is dangerous: allowed to the agent", `{"tool":{"name":"mcp_notes_set_note"},"args":{},"turn":{"input_source":"agent"}}`, "allow", "ALLOWED"},
		{"and refused from outside", `{"tool":{"name":"mcp_notes_set_note"},"args":{},"turn":{"input_source":"external"}}`, "deny", "AUTHORITY_INSUFFICIENT"},
		{"a pin without its definition stays unknown", `{"tool":{"name":"mcp_notes_drop_all"},"args":{},"turn":{"input_source":"external"}}`, "deny", "FORBIDDEN_TOOL"},
		{"a tool of no configured server stays unknown", `{"tool":{"name":"mcp_gone_peek"},"args":{},"turn":{"input_source":"external"}}`, "deny", "FORBIDDEN_TOOL"},
		{"an unpinned tool stays unknown", `{"tool":{"name":"mcp_notes_other"},"args":{}}`, "deny", "FORBIDDEN_TOOL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkLine(t, tc.line, tc.action, tc.code)
		})
	}
}

func mustHash(t *testing.T, tl *mcp.Tool) string {
	t.Helper()
	_, h, err := upstream.DefHash(tl)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestUpstreamListSandbox: ward upstream list says which servers run
// outside the sandbox.
func TestUpstreamListSandbox(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ward.toml")
	toml := "[[upstream]]\nname = \"boxed\"\ncommand = [\"boxed-mcp\"]\n\n[[upstream]]\nname = \"loose\"\ncommand = [\"loose-mcp\"]\nsandbox = false\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, "", "upstream", "list", "--data", filepath.Join(dir, "none"), "--config", cfg, "--json")
	var list []upstream.ServerInfo
	if code != exitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) != 2 || list[0].Sandbox != "sandboxed" || list[1].Sandbox != "off" {
		t.Fatalf("code %d, output:\n%s", code, out)
	}
	out, _, code = run(t, "", "upstream", "list", "--data", filepath.Join(dir, "none"), "--config", cfg)
	if code != exitOK || !strings.Contains(out, "loose runs outside the sandbox (sandbox = false)") || strings.Contains(out, "boxed runs outside") {
		t.Errorf("code %d, output:\n%s", code, out)
	}
}
