package shell

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCommandParams classifies the parameter schemas of real MCP servers'
// tools (testdata/schemas, written from the servers' definitions) and of
// tools that carry no command.
func TestCommandParams(t *testing.T) {
	want := map[string][]CommandParam{
		// wonderwhy-er/DesktopCommanderMCP: the shell to run it with is
		// analysed as a command line too (it is one word, or an attack).
		"desktop-commander_execute_command": {{Name: "command"}, {Name: "shell"}},
		// Its REPL input carries no description: not recognised.
		"desktop-commander_interact_with_process": nil,
		// g0t4/mcp-server-commands: the command, and text for its stdin.
		"mcp-server-commands_run_command": {{Name: "command", Stdin: "stdin"}},
		"mcp-server-commands_run_script":  {{Name: "interpreter", Stdin: "script"}},
		// tumf/mcp-shell-server: an argument vector; the directory's
		// description mentions the command but names a directory.
		"mcp-shell-server_shell_execute": {{Name: "command", Stdin: "stdin"}},
		// Flux159/mcp-server-kubernetes.
		"mcp-server-kubernetes_exec_in_pod":     {{Name: "command"}, {Name: "shell"}},
		"mcp-server-kubernetes_kubectl_generic": {{Name: "args", Program: "command"}},
		"anthropic_bash":                        {{Name: "command"}},
		"codex_shell":                           {{Name: "command"}},
		"iterm-mcp_write_to_terminal":           {{Name: "command"}},
		"process-runner_run_process":            {{Name: "arguments", Program: "executable"}},
		// Recognised by the description alone.
		"sandbox_run":  {{Name: "input"}},
		"ci_run_steps": {{Name: "steps", Each: true}},
		// No command.
		"puppeteer_puppeteer_evaluate": nil,
		"filesystem_write_file":        nil,
		"postgres_query":               nil,
		"git_git_commit":               nil,
		"github_create_issue":          nil,
		"scheduler_set_timeouts":       nil,
	}
	files, err := filepath.Glob("testdata/schemas/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			w, ok := want[name]
			if !ok {
				t.Fatalf("no expectation for %s", f)
			}
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := CommandParams(raw); !slices.Equal(got, w) {
				t.Errorf("CommandParams(%s) = %+v, want %+v", name, got, w)
			}
		})
	}
}

func TestCommandParamsMalformed(t *testing.T) {
	for _, s := range []string{``, `null`, `[]`, `{"properties":[]}`, `{"type":"object"}`, `{"properties":{"command":7}}`, `{"properties":{"command":{"type":"object"}}}`} {
		if got := CommandParams(json.RawMessage(s)); got != nil {
			t.Errorf("CommandParams(%s) = %+v, want none", s, got)
		}
	}
}

func TestParamRoles(t *testing.T) {
	for _, tc := range []struct {
		names, kinds []string
		want         []CommandParam
	}{
		{[]string{"cmd"}, []string{"string"}, []CommandParam{{Name: "cmd"}}},
		{[]string{"command", "stdin"}, []string{"array", "string"}, []CommandParam{{Name: "command", Stdin: "stdin"}}},
		{[]string{"commands"}, []string{"array"}, []CommandParam{{Name: "commands", Each: true}}},
		{[]string{"program", "args"}, []string{"string", "array"}, []CommandParam{{Name: "args", Program: "program"}}},
		{[]string{"shellCommand"}, []string{"string"}, []CommandParam{{Name: "shellCommand"}}},
		{[]string{"command_line"}, []string{"string"}, []CommandParam{{Name: "command_line"}}},
		{[]string{"command"}, []string{"number"}, nil},
		{[]string{"command_id"}, []string{"string"}, nil},
		{[]string{"subCommand"}, []string{"string"}, nil},
		{[]string{"text", "title"}, []string{"string", "string"}, nil},
	} {
		if got := ParamRoles(tc.names, tc.kinds); !slices.Equal(got, tc.want) {
			t.Errorf("ParamRoles(%v, %v) = %+v, want %+v", tc.names, tc.kinds, got, tc.want)
		}
	}
}

// FuzzCommandParams checks that any schema (an upstream server's, so
// untrusted) is classified without panicking, the same way twice, into
// parameters the schema names.
func FuzzCommandParams(f *testing.F) {
	files, _ := filepath.Glob("testdata/schemas/*.json")
	for _, file := range files {
		if raw, err := os.ReadFile(file); err == nil {
			f.Add(raw)
		}
	}
	f.Add([]byte(`{"properties":{"a":{"anyOf":[{"anyOf":[{"type":"string"}]}]}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := CommandParams(raw)
		if again := CommandParams(raw); !slices.Equal(got, again) {
			t.Fatalf("CommandParams not deterministic: %+v then %+v", got, again)
		}
		var sch struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		_ = json.Unmarshal(raw, &sch)
		for _, p := range got {
			if _, ok := sch.Properties[p.Name]; !ok {
				t.Fatalf("CommandParams = %+v, names a parameter %q the schema lacks", got, p.Name)
			}
			for _, n := range []string{p.Program, p.Stdin} {
				if _, ok := sch.Properties[n]; n != "" && !ok {
					t.Fatalf("CommandParams = %+v, names a parameter %q the schema lacks", got, n)
				}
			}
		}
	})
}
