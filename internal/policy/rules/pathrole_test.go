package rules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// TestPathRulesByRole: the path rules check tools they do not name, by the
// role of their parameters (a declared "format": "path", else the
// parameter's name), from the tool's schema or, without one, from the
// call's argument names.
func TestPathRulesByRole(t *testing.T) {
	schemas := map[string]json.RawMessage{
		// an upstream file server's tools, by their schemas
		"mcp_files_read_text_file": json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"head":{"type":"number"}}}`),
		"mcp_files_read_many":      json.RawMessage(`{"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"}}}}`),
		"mcp_files_copy":           json.RawMessage(`{"type":"object","properties":{"from":{"type":"string","format":"path"},"to":{"type":"string","format":"path"}}}`),
		// "file" here is a ticket's title, declared as text: no role, no
		// path (its name alone would make it one)
		"mcp_desk_file_ticket": json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"}}}`),
		"mcp_broken_read":      json.RawMessage(`{"properties":[]}`),
	}
	cfg := DefaultConfig()
	cfg.Paths.Root = "/work/agent"
	cfg.Paths.Home = "/home/agent"
	cfg.ToolParams = func(name string) json.RawMessage { return schemas[name] }
	s := compile(t, cfg)
	tier := func(tr tool.Tier) func(*policy.Request) {
		return func(r *policy.Request) { r.Tool.Tier = tr }
	}
	for _, tc := range []struct {
		name, tool, args string
		tier             tool.Tier
		action           policy.Action
		code             reason.Code
	}{
		{"schema: a read of a key", "mcp_files_read_text_file", `{"path":"/home/agent/.ssh/id_ed25519"}`, tool.Read, policy.Deny, reason.SensitiveFile},
		{"schema: a read of a plain file", "mcp_files_read_text_file", `{"path":"notes/today.md"}`, tool.Read, policy.Allow, reason.Allowed},
		{"schema: outside the root is the server's business", "mcp_files_read_text_file", `{"path":"/srv/share/report.txt"}`, tool.Read, policy.Allow, reason.Allowed},
		{"schema: one key among many paths", "mcp_files_read_many", `{"paths":["a.md","/home/agent/.aws/credentials"]}`, tool.Read, policy.Deny, reason.SensitiveFile},
		{"schema: a path that is not a string", "mcp_files_read_many", `{"paths":["a.md",7]}`, tool.Read, policy.Deny, reason.BadInput},
		{"declared format: a write onto ward's configuration", "mcp_files_copy", `{"from":"a.toml","to":"ward.toml"}`, tool.Write, policy.Deny, reason.ProtectedFile},
		{"declared format: a copy out of a key", "mcp_files_copy", `{"from":".env","to":"public/x"}`, tool.Write, policy.Deny, reason.SensitiveFile},
		{"declared format: a plain copy", "mcp_files_copy", `{"from":"a.md","to":"b.md"}`, tool.Write, policy.Allow, reason.Allowed},
		{"a read of a write-protected file is not a write", "mcp_files_read_text_file", `{"path":"ward.toml"}`, tool.Read, policy.Allow, reason.Allowed},
		{"no role in the schema: not a path", "mcp_desk_file_ticket", `{"title":".env","body":"x"}`, tool.Write, policy.Allow, reason.Allowed},
		{"schema: an argument it does not declare is judged by its name", "mcp_files_read_text_file", `{"path":"a.md","file_path":"/home/agent/.ssh/id_rsa"}`, tool.Read, policy.Deny, reason.SensitiveFile},
		{"schema: an undeclared argument not named as a path is not one", "mcp_files_read_text_file", `{"path":"a.md","note":".env"}`, tool.Read, policy.Allow, reason.Allowed},
		{"schema that does not decode: arguments by their names", "mcp_broken_read", `{"dir":"/home/agent/.gnupg/x"}`, tool.Read, policy.Deny, reason.SensitiveFile},
		{"no schema: the argument's name", "mcp_other_open_document", `{"file_path":"/home/agent/.ssh/id_rsa"}`, tool.Read, policy.Deny, reason.SensitiveFile},
		{"no schema: other names are not paths", "mcp_other_send_note", `{"text":"/home/agent/.ssh/id_rsa"}`, tool.Write, policy.Allow, reason.Allowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := eval(t, s, tc.tool, tc.args, tier(tc.tier))
			if d.Action() != tc.action || d.Code() != tc.code {
				t.Errorf("got %v %s (%s), want %v %s", d.Action(), d.Code(), d.Message(), tc.action, tc.code)
			}
		})
	}
}

// TestCommandRulesByDeclaredRole: a parameter declared "format": "command"
// is analysed as a command line in any tool, though neither its name nor
// its description says so; the same parameter without the role is not.
func TestCommandRulesByDeclaredRole(t *testing.T) {
	schemas := map[string]json.RawMessage{
		"mcp_ops_run_job":   json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","format":"command"}}}`),
		"mcp_ops_run_steps": json.RawMessage(`{"type":"object","properties":{"q":{"type":"array","items":{"type":"string","format":"command"}}}}`),
		"mcp_ops_search":    json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`),
	}
	cfg := DefaultConfig()
	cfg.Paths.Root = "/work/agent"
	cfg.ToolParams = func(name string) json.RawMessage { return schemas[name] }
	s := compile(t, cfg)
	for _, tc := range []struct {
		name, tool, args string
		action           policy.Action
		code             reason.Code
	}{
		{"declared: a destructive command", "mcp_ops_run_job", `{"q":"rm -rf /"}`, policy.Deny, reason.ForbiddenCommand},
		{"declared: a benign command", "mcp_ops_run_job", `{"q":"ls -la"}`, policy.Allow, reason.Allowed},
		{"declared items: one destructive line", "mcp_ops_run_steps", `{"q":["ls","rm -rf /"]}`, policy.Deny, reason.ForbiddenCommand},
		{"no role: text is text", "mcp_ops_search", `{"q":"rm -rf /"}`, policy.Allow, reason.Allowed},
		{"undeclared: a command argument the schema does not name", "mcp_ops_search", `{"q":"x","command":"rm -rf /"}`, policy.Deny, reason.ForbiddenCommand},
		{"undeclared: other names are not commands", "mcp_ops_search", `{"q":"x","note":"rm -rf /"}`, policy.Allow, reason.Allowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := eval(t, s, tc.tool, tc.args)
			if d.Action() != tc.action || d.Code() != tc.code {
				t.Errorf("got %v %s (%s), want %v %s", d.Action(), d.Code(), d.Message(), tc.action, tc.code)
			}
		})
	}
}

// FuzzPathName checks that pathName's in-place test of ASCII names agrees
// with the plain one (lower-case, drop separators, compare).
func FuzzPathName(f *testing.F) {
	for _, s := range []string{"path", "Source_Path", "destination-PATHS", "FILE", "file_name", "dir", "Directory",
		"fold-er", "command", "to_address", "paths_", "xpath", "pathx", "", "_", "ŞPATH", "\u212Apath", "PAT\u212A",
		strings.Repeat("a", 70) + "path", strings.Repeat("_", 80) + "file"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, n string) {
		if got, want := pathName(n, nil), pathNameSlow(n); got != want {
			t.Errorf("pathName(%q) = %v, want %v", n, got, want)
		}
	})
}
