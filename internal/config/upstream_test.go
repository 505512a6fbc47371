package config

import (
	"os"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/tool"
)

func TestUpstreamSection(t *testing.T) {
	f, err := Parse("w.toml", []byte(`
[[upstream]]
name = "notes"
command = ["notes-mcp", "--stdio"]
env = { NOTES_DIR = "/srv/notes", NOTES_TOKEN = "${NOTES_TOKEN}" }
category = "memory"
risk = "caution"

[upstream.tools.wipe_notes]
risk = "forbidden"

[upstream.tools.search]
tier = "read"
third_party = false

[[upstream]]
name = "web_search"
url = "https://search.example/mcp"
headers = { Authorization = "Bearer ${SEARCH_TOKEN}" }
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Upstream) != 2 {
		t.Fatalf("%d upstreams, want 2", len(f.Upstream))
	}
	n, w := f.Upstream[0], f.Upstream[1]
	if n.Name != "notes" || strings.Join(n.Command, " ") != "notes-mcp --stdio" || n.Env["NOTES_TOKEN"] != "${NOTES_TOKEN}" ||
		n.Defaults.Category != tool.CatMemory || n.Defaults.Risk != tool.Caution {
		t.Errorf("notes: %+v", n)
	}
	if n.Tools["wipe_notes"].Risk != tool.Forbidden || n.Tools["search"].Tier != tool.Read || n.Tools["search"].ThirdParty == nil || *n.Tools["search"].ThirdParty {
		t.Errorf("notes tools: %+v", n.Tools)
	}
	if w.URL != "https://search.example/mcp" || w.Headers["Authorization"] != "Bearer ${SEARCH_TOKEN}" || len(w.Command) != 0 {
		t.Errorf("web_search: %+v", w)
	}
	for _, s := range f.Upstream {
		if err := s.Validate(); err != nil {
			t.Errorf("a parsed upstream does not validate: %v", err)
		}
	}
	if def, _ := Default(); len(def.Upstream) != 0 {
		t.Errorf("default upstreams: %+v", def.Upstream)
	}
}

func TestUpstreamSectionErrors(t *testing.T) {
	for _, tc := range []struct{ name, toml, want string }{
		{"no name", "[[upstream]]\ncommand = [\"x\"]\n", "1:3: upstream.0.name"},
		{"bad name", "[[upstream]]\nname = \"Notes\"\ncommand = [\"x\"]\n", "2:8: upstream.0.name"},
		{"twice", "[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\n[[upstream]]\nname = \"a\"\ncommand = [\"y\"]\n", "5:8: upstream.1.name"},
		{"both", "[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\nurl = \"http://h/mcp\"\n", "4:7: upstream.0.url"},
		{"neither", "[[upstream]]\nname = \"a\"\n", "upstream.0: set command"},
		{"bad url", "[[upstream]]\nname = \"a\"\nurl = \"ftp://h\"\n", "3:7: upstream.0.url"},
		{"headers on command", "[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\nheaders = { A = \"b\" }\n", "upstream.0.headers"},
		{"category", "[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\n[upstream.tools.t]\ncategory = \"vm\"\n", "5:12: upstream.0.tools.t.category"},
		{"risk", "[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\nrisk = \"scary\"\n", "4:8: upstream.0.risk"},
		{"tier", "[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\ntier = \"privileged\"\n", "4:8: upstream.0.tier"},
		{"unknown key", "[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\ntimeout = 3\n", "4:1: upstream.0.timeout: unknown key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("w.toml", []byte(tc.toml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestUpstreamDocExample keeps the [[upstream]] example of
// docs/configuration.md valid.
func TestUpstreamDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(doc), "## `[[upstream]]`")
	if !ok {
		t.Fatal("no [[upstream]] section in docs/configuration.md")
	}
	// The section's full example: the TOML block with [[upstream]] tables.
	var block string
	for rest := sec; ; {
		var b string
		if _, b, ok = strings.Cut(rest, "```toml\n"); !ok {
			t.Fatal("no TOML example with [[upstream]] in the [[upstream]] section")
		}
		b, rest, _ = strings.Cut(b, "```")
		if strings.Contains(b, "[[upstream]]") {
			block = b
			break
		}
	}
	f, err := Parse("configuration.md", []byte(block))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Upstream) != 2 || f.Upstream[0].Tools["wipe_notes"].Risk != tool.Forbidden || f.Upstream[0].Tools["get_note"].Tier != tool.Read ||
		!f.Upstream[1].TrustAnnotations || f.Upstream[0].TrustAnnotations {
		t.Errorf("parsed %+v", f.Upstream)
	}
}

func TestUpstreamSystemFields(t *testing.T) {
	f, err := Parse("t.toml", []byte(`[[upstream]]
name = "chat"
url = "https://chat.example/mcp"
[upstream.tools.list_messages]
system_fields = ["/messages/*/id", "/messages/*/sender"]
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Upstream[0].Tools["list_messages"].SystemFields; len(got) != 2 || got[1] != "/messages/*/sender" {
		t.Errorf("system fields %v", got)
	}
	for _, bad := range []string{
		"[[upstream]]\nname = \"c\"\nurl = \"https://c.example\"\nsystem_fields = [\"/id\"]\n",
		"[[upstream]]\nname = \"c\"\nurl = \"https://c.example\"\n[upstream.tools.x]\nsystem_fields = [\"id\"]\n",
		"[[upstream]]\nname = \"c\"\nurl = \"https://c.example\"\n[upstream.tools.x]\nsystem_fields = [\"/a//b\"]\n",
	} {
		if _, err := Parse("t.toml", []byte(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestUpstreamSandboxKeys: the confinement keys reach upstream.Server,
// and a bad value is an error naming its key.
func TestUpstreamSandboxKeys(t *testing.T) {
	f, err := Parse("w.toml", []byte("[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\nnetwork = true\nhosts = [\"api.example.com\", \"10.0.0.5:8080\"]\npaths = [\"/opt/notes\"]\nmemory = \"512MiB\"\nprocesses = 16\ncpu = 0.5\n"+
		"[[upstream]]\nname = \"b\"\ncommand = [\"y\"]\nsandbox = false\n"+
		"[[upstream]]\nname = \"c\"\ncommand = [\"z\"]\nmemory = 67108864\ncpu = 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := f.Upstream[0].Sandbox, f.Upstream[1].Sandbox, f.Upstream[2].Sandbox
	if a.Off || !a.Network || len(a.Hosts) != 2 || len(a.Paths) != 1 || a.Memory != 512<<20 || a.Processes != 16 || a.CPU != 0.5 {
		t.Errorf("a: %+v", a)
	}
	if !b.Off || c.Off || c.Memory != 64<<20 || c.CPU != 2 || b.CPU != 0 {
		t.Errorf("b: %+v, c: %+v", b, c)
	}
	for _, tc := range []struct{ name, toml, want string }{
		{"hosts without network", "hosts = [\"api.example.com:443\"]\n", "upstream.0.hosts: hosts are what network = true reaches"},
		{"hosts URL", "network = true\nhosts = [\"https://api.example.com\"]\n", "upstream.0.hosts"},
		{"hosts port", "network = true\nhosts = [\"api.example.com:0\"]\n", "upstream.0.hosts"},
		{"memory unit", "memory = \"512MB\"\n", "upstream.0.memory"},
		{"cpu percent", "cpu = \"50%\"\n", "upstream.0.cpu: 50%: want a number of cores"},
		{"cpu zero", "cpu = 0.0\n", "upstream.0.cpu"},
		{"cpu negative", "cpu = -1\n", "upstream.0.cpu"},
		{"cpu tiny", "cpu = 0.001\n", "upstream.0.cpu"},
		{"cpu opted out", "sandbox = false\ncpu = 1\n", "upstream.0.sandbox"},
		{"memory small", "memory = 1024\n", "upstream.0.memory"},
		{"memory type", "memory = true\n", "upstream.0.memory"},
		{"processes", "processes = 0\n", "upstream.0.processes"},
		{"relative path", "paths = [\"notes\"]\n", "upstream.0.paths"},
		{"root path", "paths = [\"/\"]\n", "upstream.0.paths"},
		{"opted out", "sandbox = false\nnetwork = true\n", "upstream.0.sandbox"},
		{"sandbox type", "sandbox = \"no\"\n", "upstream.0.sandbox"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("w.toml", []byte("[[upstream]]\nname = \"a\"\ncommand = [\"x\"]\n"+tc.toml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := Parse("w.toml", []byte("[[upstream]]\nname = \"a\"\nurl = \"http://h/mcp\"\nnetwork = true\n")); err == nil || !strings.Contains(err.Error(), "command upstream only") {
		t.Errorf("network on a url: %v", err)
	}
}
