package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
)

// commandCase is one line of testdata/command.jsonl: a call, the schema of
// its tool's parameters if ward knows it, and the decision wanted. Kind is
// the kind of finding the deny message must name.
type commandCase struct {
	Name    string          `json:"name"`
	Schema  json.RawMessage `json:"schema"`
	Request struct {
		Tool struct {
			Name string `json:"name"`
		} `json:"tool"`
		Args json.RawMessage `json:"args"`
	} `json:"request"`
	Want struct {
		Action string      `json:"action"`
		Code   reason.Code `json:"reason_code"`
		Rule   string      `json:"rule"`
		Kind   string      `json:"kind"`
	} `json:"want"`
}

// commandConfig is the policy testdata/command.jsonl is decided under: the
// agent's root /work/agent, home /home/agent, ward's data directory and
// configuration file elsewhere (/srv/ward), and two paths the operator
// protects.
func commandConfig(schemas map[string]json.RawMessage) Config {
	cfg := DefaultConfig()
	cfg.Paths.Root = "/work/agent"
	cfg.Paths.Home = "/home/agent"
	cfg.Commands.Protect = []string{"prompts/system.md", "~/agent-src"}
	cfg.Self = Self{DataDir: "/srv/ward/state", Files: []string{"/srv/ward/ward.toml"}}
	cfg.ToolParams = func(name string) json.RawMessage { return schemas[name] }
	return cfg
}

func loadCommandCases(t *testing.T) []commandCase {
	t.Helper()
	data, err := os.ReadFile("testdata/command.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var cases []commandCase
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c commandCase
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("testdata/command.jsonl:%d: %v", n, err)
		}
		cases = append(cases, c)
	}
	return cases
}

// TestCommandCorpus decides every call of testdata/command.jsonl: the gaps
// command safety closes (ward's own files wherever the configuration puts
// them, mass deletion, credentials, exfiltration, SQL, the agent's own
// files), their benign neighbours, and tools that carry commands found by
// the role of their parameters.
func TestCommandCorpus(t *testing.T) {
	cases := loadCommandCases(t)
	schemas := map[string]json.RawMessage{}
	for _, c := range cases {
		if c.Schema == nil {
			continue
		}
		name := c.Request.Tool.Name
		if old, ok := schemas[name]; ok && !bytes.Equal(old, c.Schema) {
			t.Fatalf("%s: tool %s has two schemas in the corpus", c.Name, name)
		}
		schemas[name] = c.Schema
	}
	s := compile(t, commandConfig(schemas))
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			d := eval(t, s, c.Request.Tool.Name, string(c.Request.Args))
			if got := d.Action().String(); got != c.Want.Action {
				t.Fatalf("action = %s (%s: %s), want %s", got, d.Code(), d.Message(), c.Want.Action)
			}
			if c.Want.Code != "" && d.Code() != c.Want.Code {
				t.Errorf("code = %s (%s), want %s", d.Code(), d.Message(), c.Want.Code)
			}
			if c.Want.Kind != "" && !strings.Contains(d.Message(), "("+c.Want.Kind+")") {
				t.Errorf("message = %q, want the kind %s", d.Message(), c.Want.Kind)
			}
			if c.Want.Rule != "" && d.Rule() != c.Want.Rule {
				t.Errorf("rule = %q, want %q", d.Rule(), c.Want.Rule)
			}
		})
	}
}

// TestCommandSelfFollowsConfig checks that ward's own files are protected
// where the running ward says they are, not by their usual names.
func TestCommandSelfFollowsConfig(t *testing.T) {
	for _, tc := range []struct {
		dataDir, cmd string
		deny         bool
	}{
		{"/work/agent/ward-data", "rm -rf ward-data", true},
		{"/work/agent/state", "rm -rf ward-data", false},
		{"/work/agent/state", "rm -rf state", true},
		{"/work/agent/state", "rm -rf ./st?te/", true},
		{"", "rm -rf ward-data", false},
	} {
		t.Run(tc.dataDir+" "+tc.cmd, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Paths.Root = "/work/agent"
			cfg.Self = Self{DataDir: tc.dataDir}
			d := eval(t, compile(t, cfg), "exec", `{"command":`+quoteJSON(tc.cmd)+`}`)
			if got := d.Action() == policy.Deny; got != tc.deny {
				t.Errorf("%q with the data directory %q: %s %s, want deny %v", tc.cmd, tc.dataDir, d.Action(), d.Message(), tc.deny)
			}
		})
	}
}

// TestCommandSelfInvalid checks the validation of Self and Commands.Protect.
func TestCommandSelfInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		mod  func(*Config)
		path string
	}{
		{"relative data directory", func(c *Config) { c.Self.DataDir = "ward-data" }, "self.data_dir"},
		{"root as data directory", func(c *Config) { c.Self.DataDir = "/" }, "self.data_dir"},
		{"relative file", func(c *Config) { c.Self.Files = []string{"ward.toml"} }, "self.files.0"},
		{"empty protect", func(c *Config) { c.Commands.Protect = []string{"x", ""} }, "commands.protect.1"},
		{"~user protect", func(c *Config) { c.Commands.Protect = []string{"~bob/x"} }, "commands.protect.0"},
		{"protect /", func(c *Config) { c.Commands.Protect = []string{"/"} }, "commands.protect.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Paths.Root = t.TempDir()
			tc.mod(&cfg)
			_, err := Compile(cfg)
			es, ok := err.(Errors)
			if !ok || len(es) != 1 || es[0].Path != tc.path {
				t.Errorf("Compile error = %v, want one at %s", err, tc.path)
			}
		})
	}
}

// TestCommandSelfNotHashed checks that where ward runs does not change the
// policy's hash, and that the protected list does.
func TestCommandSelfNotHashed(t *testing.T) {
	a, b := DefaultConfig(), DefaultConfig()
	b.Self = Self{DataDir: "/srv/ward", Files: []string{"/srv/ward.toml"}}
	b.ToolParams = func(string) json.RawMessage { return nil }
	if Hash(a) != Hash(b) {
		t.Error("Self or ToolParams changed the policy hash")
	}
	b.Commands.Protect = []string{"/srv/agent"}
	if Hash(a) == Hash(b) {
		t.Error("commands.protect did not change the policy hash")
	}
}

// TestCommandParamsCached checks that a tool's schema is classified once.
func TestCommandParamsCached(t *testing.T) {
	calls := 0
	cfg := DefaultConfig()
	cfg.ToolParams = func(name string) json.RawMessage {
		calls++
		if name == "mcp_x_run" {
			return json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`)
		}
		return nil
	}
	s := compile(t, cfg)
	for range 3 {
		if d := eval(t, s, "mcp_x_run", `{"command":"rm -rf /"}`); d.Action() != policy.Deny {
			t.Fatalf("mcp_x_run rm -rf /: %s", d.Action())
		}
	}
	if calls != 1 {
		t.Errorf("the schema was read %d times, want 1", calls)
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestWordFuncsFollowTheBase: the word classifiers kept from the last
// command are reused only under the same base; a command under another
// base classifies its relative words against its own base.
func TestWordFuncsFollowTheBase(t *testing.T) {
	b := newBuilder(Config{Paths: Paths{Root: "/r1", Home: "/home/u", WriteProtected: []string{"/r1/keep.txt"}}})
	ps := b.compilePaths()
	if len(b.errs) > 0 {
		t.Fatal(b.errs)
	}
	for i, tc := range []struct {
		base string
		want bool
	}{{"/r1", true}, {"/r2", false}, {"/r2", false}, {"/r1", true}, {"/r1", true}, {"/r2", false}} {
		w := ps.wordFuncsFor(tc.base)
		if got := w.protected("keep.txt"); got != tc.want {
			t.Errorf("step %d, base %s: keep.txt protected = %v, want %v", i, tc.base, got, tc.want)
		}
	}
}
