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
