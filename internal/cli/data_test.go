package cli

import (
	"io"
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
	respBody, _ := io.ReadAll(resp.Body)
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
		t.Fatalf("audit query with no flags does not show the decision on serve's query_state call (HTTP %d %s):\n%s", resp.StatusCode, respBody, out)
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

// TestLintOnePassTyped: ward policy lint reports a wrong type in the
// file, a CEL syntax error and a CEL type error against the parameters of
// ward's own tools together; ward serve refuses to start on the same file
// instead of denying every transfer at run time.
func TestLintOnePassTyped(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := `[gate]
permit_ttl = 300

[[policy.rules]]
id = "big-transfer"
action = "quarantine"
applies_to = { by = "name", names = ["erc20_transfer_token"] }
when = 'args.amount > 1000000'

[[policy.rules]]
id = "broken"
action = "deny"
when = 'args.'

[[policy.rules]]
id = "fine"
action = "deny"
applies_to = { by = "name", names = ["erc20_transfer_token"] }
when = 'args.amount.size() > 30 && args.decimals > 18'
`
	if err := os.WriteFile("ward.toml", []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, "", "policy", "lint", "--json", "ward.toml")
	diags := decodeLines(t, out)
	if code != 1 || len(diags) != 3 {
		t.Fatalf("lint: exit %d, %d problems, want 1 and 3:\n%s", code, len(diags), out)
	}
	for i, want := range []struct {
		line int
		key  string
		msg  string
	}{
		{2, "gate.permit_ttl", `expected a duration like "5m", found the integer 300`},
		{8, "policy.rules.0.when", "no matching overload for '_>_' applied to '(string, int)' (with the parameter types of erc20_transfer_token)"},
		{13, "policy.rules.1.when", "Syntax error"},
	} {
		d := diags[i]
		if d["line"] != float64(want.line) || d["key"] != want.key || !strings.Contains(d["message"].(string), want.msg) {
			t.Errorf("problem %d: %v, want line %d, %s, %q", i, d, want.line, want.key, want.msg)
		}
	}
	_, errOut, code := run(t, "", "serve", "--addr", "127.0.0.1:0")
	if code != 2 || !strings.Contains(errOut, "policy.rules.0.when") || !strings.Contains(errOut, "(string, int)") {
		t.Errorf("serve with a rule that fails type-checking: exit %d, %q", code, errOut)
	}
}

// TestLintUnknownTools: a rule naming a tool ward does not know is a
// warning, with the closest known name, reported with the file's errors;
// alone it leaves lint's status 0 and the file loads.
func TestLintUnknownTools(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	rules := `[[upstream]]
name = "notes"
command = ["notes-server"]

[[policy.rules]]
id = "typo"
action = "deny"
applies_to = { by = "name", names = ["erc20_transfer_tokn", "mcp_notes_get_note", "exec"] }
when = 'true'
`
	os.WriteFile("warn.toml", []byte(rules), 0o600)
	os.WriteFile("both.toml", []byte(rules+"\n[gate]\npermit_ttl = 300\n"), 0o600)
	out, _, code := run(t, "", "policy", "lint", "warn.toml")
	want := `warn.toml:8:38: warning: policy.rules.0.applies_to.names.0: no tool "erc20_transfer_tokn" is known`
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, `did you mean "erc20_transfer_token"?`) || !strings.Contains(out, "warn.toml: ok") {
		t.Errorf("lint warn.toml: exit %d, want 0 and %q:\n%s", code, want, out)
	}
	if strings.Contains(out, "mcp_notes_get_note") || strings.Contains(out, `"exec"`) {
		t.Errorf("a known tool is reported:\n%s", out)
	}
	out, _, code = run(t, "", "policy", "lint", "--json", "both.toml")
	diags := decodeLines(t, out)
	if code != 1 || len(diags) != 2 || diags[0]["severity"] != "warning" || diags[1]["severity"] != "error" || diags[1]["key"] != "gate.permit_ttl" {
		t.Errorf("lint --json both.toml: exit %d, %v", code, diags)
	}
}
