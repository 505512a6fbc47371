package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// The token commands as an operator uses them: create with a name and a
// ttl, list (text and one JSON object per token, never the secret), rotate
// and revoke by name or id, and the usage errors.
func TestTokenCommands(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	out, errOut, code := run(t, "", "token", "create", "--role", "agent", "--name", "bot", "--ttl", "720h", "--data", data)
	if code != 0 || !strings.HasPrefix(out, "ward_") || !strings.Contains(errOut, `named "bot"`) || !strings.Contains(errOut, "expires") {
		t.Fatalf("token create = %q, %q, %d", out, errOut, code)
	}
	botSecret := strings.TrimSpace(out)
	out, _, code = run(t, "", "token", "create", "--role", "owner", "--data", data, "--json")
	var created struct {
		Token     string `json:"token"`
		Principal struct {
			ID, Name, Role string
		} `json:"principal"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &created) != nil || !strings.HasPrefix(created.Token, "ward_") ||
		created.Principal.Role != "owner" || !strings.HasPrefix(created.Principal.Name, "owner-") {
		t.Fatalf("token create --json = %q, %d", out, code)
	}
	if _, errOut, code := run(t, "", "token", "create", "--role", "agent", "--name", "bot", "--data", data); code != 1 || !strings.Contains(errOut, `named "bot" exists`) {
		t.Errorf("a second bot = %q, %d; want exit 1 naming the clash", errOut, code)
	}

	list := func() map[string]map[string]any {
		t.Helper()
		out, _, code := run(t, "", "token", "list", "--json", "--data", data)
		if code != 0 {
			t.Fatalf("token list exit %d", code)
		}
		if strings.Contains(out, botSecret) || strings.Contains(out, created.Token) || strings.Contains(out, "ward_") {
			t.Fatalf("token list prints a secret: %s", out)
		}
		m := map[string]map[string]any{}
		for _, o := range decodeLines(t, out) {
			for _, k := range []string{"id", "name", "role", "created"} {
				if _, ok := o[k]; !ok {
					t.Errorf("a token's JSON lacks %q: %v", k, o)
				}
			}
			m[o["name"].(string)] = o
		}
		return m
	}
	before := list()
	if len(before) != 2 || before["bot"]["expires"] == nil || before["bot"]["revoked"] != nil {
		t.Fatalf("list = %v", before)
	}
	botID := before["bot"]["id"].(string)
	text, _, code := run(t, "", "token", "list", "--data", data)
	if code != 0 || !strings.Contains(text, "LAST USED") || !strings.Contains(text, botID) {
		t.Errorf("token list = %q", text)
	}

	out, _, code = run(t, "", "token", "rotate", "bot", "--data", data)
	if code != 0 || !strings.HasPrefix(out, "ward_") || strings.TrimSpace(out) == botSecret {
		t.Fatalf("token rotate = %q, %d", out, code)
	}
	if after := list(); after["bot"]["id"] != botID || after["bot"]["rotated"] == nil {
		t.Errorf("after rotate bot is %v: want the same id, rotated", after["bot"])
	}
	if _, errOut, code := run(t, "", "token", "revoke", botID, "--data", data); code != 0 || !strings.Contains(errOut, "revoked agent token") {
		t.Fatalf("token revoke ID = %q, %d", errOut, code)
	}
	if after := list(); after["bot"]["revoked"] == nil {
		t.Errorf("revoked bot lists as %v", after["bot"])
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"token", "revoke", "bot"}, 1, `no token has the id or name "bot"`},
		{[]string{"token", "revoke", botID}, 1, "already revoked"},
		{[]string{"token", "rotate", botID}, 1, "revoked or expired"},
		{[]string{"token", "revoke"}, 2, "give one token id or name"},
		{[]string{"token", "revoke", "a", "b"}, 2, "give one token id or name"},
		{[]string{"token", "create", "--role", "root"}, 2, "unknown role"},
		{[]string{"token", "create", "--role", "agent", "--ttl", "-1h"}, 2, "ttl"},
		{[]string{"token", "create", "--role", "agent", "--name", " x"}, 2, "--name"},
	} {
		_, errOut, code := run(t, "", append(tc.args, "--data", data)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("ward %s = %q, exit %d; want exit %d and %q", strings.Join(tc.args, " "), errOut, code, tc.code, tc.msg)
		}
	}
	if _, errOut, code := run(t, "", "token", "list", "--data", filepath.Join(t.TempDir(), "none")); code != 1 || !strings.Contains(errOut, "no ward database") {
		t.Errorf("token list on an empty directory = %q, %d", errOut, code)
	}
}
