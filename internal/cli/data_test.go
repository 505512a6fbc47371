package cli

import (
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestDefaultDataDir: with no flags, the commands that read ward's store
// find the database ward serve and ward token create wrote, in the same
// default data directory; --db still names a file.
func TestDefaultDataDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	out, errOut, code := run(t, "", "token", "create", "--role", "agent", "--name", "bot")
	if code != 0 {
		t.Fatalf("token create: exit %d: %s", code, errOut)
	}
	token := strings.TrimSpace(out)
	if _, err := os.Stat(defaultData + "/ward.db"); err != nil {
		t.Fatalf("token create with no --data: %v", err)
	}

	c := startServeIn(t, dir)
	req, _ := http.NewRequest("POST", c.base+"/v1/call/query_state", strings.NewReader(`{"kind":"balances"}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	c.stop(syscall.SIGTERM)

	out, errOut, code = run(t, "", "audit", "query", "--json")
	if code != 0 {
		t.Fatalf("audit query with no flags after serve: exit %d: %s", code, errOut)
	}
	found := false
	for _, rec := range decodeLines(t, out) {
		if rec["origin"] == "gate" {
			found = true
		}
	}
	if !found {
		t.Fatalf("audit query with no flags does not show the decision on serve's query_state call (HTTP %d):\n%s", resp.StatusCode, out)
	}
	if _, errOut, code := run(t, "", "audit", "verify"); code != 0 {
		t.Errorf("audit verify with no flags: exit %d: %s", code, errOut)
	}

	// --db names the file itself, as before; --data names another directory.
	if out2, errOut, code := run(t, "", "audit", "query", "--json", "--db", defaultData+"/ward.db"); code != 0 || out2 != out {
		t.Errorf("audit query --db: exit %d, %d bytes (want the same %d bytes): %s", code, len(out2), len(out), errOut)
	}
	if _, errOut, code := run(t, "", "audit", "query", "--data", "elsewhere"); code != 1 || !strings.Contains(errOut, "no database at elsewhere/ward.db") {
		t.Errorf("audit query --data elsewhere: exit %d, %q", code, errOut)
	}
}

// TestConfigErrorsEveryCommand: every command that loads ward.toml prints
// all of its problems in the user's words, and starts nothing.
func TestConfigErrorsEveryCommand(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	bad := "ward.toml"
	if err := os.WriteFile(bad, []byte("[gate]\npermit_ttl = 300\nquarantine_tl = \"1h\"\n\n[[policy.rules]]\nid = \"r\"\naction = \"deny\"\nwhen = 'args.amount_cents >'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`ward.toml:2:14: gate.permit_ttl: expected a duration like "5m", found the integer 300`,
		`ward.toml:3:1: gate.quarantine_tl: unknown key; did you mean "quarantine_ttl"?`,
		`ward.toml:8:`,
	}
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0"},
		{"mcp"},
		{"policy", "lint", bad},
		{"policy", "check"},
		{"policy", "show"},
		{"audit", "query"},
		{"tools", "list", "--config", bad},
	} {
		out, errOut, code := run(t, "", args...)
		if code == 0 {
			t.Errorf("ward %s: exit 0 with a bad ward.toml", strings.Join(args, " "))
		}
		for _, w := range want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("ward %s does not say %q:\n%s%s", strings.Join(args, " "), w, out, errOut)
			}
		}
		if strings.Contains(out+errOut, "gateTOML") || strings.Contains(out+errOut, "*string") {
			t.Errorf("ward %s names Go types:\n%s%s", strings.Join(args, " "), out, errOut)
		}
	}
	if _, err := os.Stat(defaultData); err == nil {
		t.Errorf("a command created %s with a bad ward.toml", defaultData)
	}
}
