package upstream

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/schema"
	"github.com/wardhq/ward/internal/testenv"
)

// nodeModules is where `npm ci` in testdata/npm installs the official MCP
// reference servers (pinned in its package.json).
var nodeModules = filepath.Join("..", "..", "testdata", "npm", "node_modules")

// referenceServers returns the official MCP reference servers as stdio
// upstreams run by node. Where node or the packages are missing the test
// is skipped, except under CI (CI set), where it fails: there `.ci/run`
// installs them.
func referenceServers(t *testing.T) []Server {
	t.Helper()
	missing := func(what string) {
		testenv.Missing(t, what+": run `cd testdata/npm && npm ci` (node and npm are needed)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed")
	}
	src, err := filepath.Abs(nodeModules)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"server-everything", "server-filesystem", "server-memory"} {
		if _, err := os.Stat(filepath.Join(src, "@modelcontextprotocol", pkg, "dist", "index.js")); err != nil {
			missing("@modelcontextprotocol/" + pkg + " is not installed")
		}
	}
	// The servers run sandboxed, as they would for an operator, as a uid
	// that owns nothing: everything they read must be reachable by
	// anyone. A clone may sit below a directory only root can search
	// (t.TempDir's parent, mktemp -d), so the test links node_modules
	// (hard links, no copy) into a world-searchable directory and grants
	// it, read-only, the way docs/sandbox.md says.
	shared, err := os.MkdirTemp("", "ward-reference-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(shared) })
	if err := os.Chmod(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	modules := filepath.Join(shared, "node_modules")
	if out, err := exec.Command("cp", "-al", src, modules).CombinedOutput(); err != nil {
		t.Fatalf("link node_modules: %v: %s", err, out)
	}
	tmp := filepath.Join(shared, "files")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	main := func(pkg string) string {
		return filepath.Join(modules, "@modelcontextprotocol", pkg, "dist", "index.js")
	}
	box := Confinement{Paths: []string{modules, tmp}}
	return []Server{
		{Name: "everything", Command: []string{node, main("server-everything"), "stdio"}, Sandbox: box},
		{Name: "filesystem", Command: []string{node, main("server-filesystem"), tmp}, Sandbox: box},
		{Name: "memory", Command: []string{node, main("server-memory")}, Env: map[string]string{"MEMORY_FILE_PATH": filepath.Join(tmp, "memory.jsonl")}, Sandbox: box},
	}
}

// referenceArgs are realistic arguments for each reference server tool:
// valid ones, and invalid ones with the errors they must get (path and
// message fragment). Every tool the servers list must be here.
var referenceArgs = map[string]struct {
	valid   []string
	invalid string
	want    [][2]string
}{
	"everything/echo":                           {[]string{`{"message":"hello"}`}, `{"message":42}`, [][2]string{{"/message", "must be a string, not an integer"}}},
	"everything/get-annotated-message":          {[]string{`{"messageType":"error","includeImage":true}`, `{"messageType":"debug"}`}, `{"messageType":"warning"}`, [][2]string{{"/messageType", `must be one of: "error", "success", "debug"`}}},
	"everything/get-env":                        {[]string{`{}`}, `[]`, [][2]string{{"", "not one JSON object"}}},
	"everything/get-resource-links":             {[]string{`{"count":5}`, `{}`}, `{"count":11}`, [][2]string{{"/count", "must be <= 10"}}},
	"everything/get-resource-reference":         {[]string{`{"resourceId":2,"resourceType":"Blob"}`}, `{"resourceType":"Image"}`, [][2]string{{"/resourceType", `must be one of: "Text", "Blob"`}}},
	"everything/get-structured-content":         {[]string{`{"location":"Chicago"}`}, `{}`, [][2]string{{"/location", "is required"}}},
	"everything/get-sum":                        {[]string{`{"a":1.5,"b":-2}`}, `{"a":"1","b":2}`, [][2]string{{"/a", "must be a number, not a string"}}},
	"everything/get-tiny-image":                 {[]string{`{}`}, `{"x":`, [][2]string{{"", "not one JSON object"}}},
	"everything/gzip-file-as-resource":          {[]string{`{"name":"notes.txt.gz","data":"data:text/plain;base64,aGVsbG8=","outputType":"resource"}`}, `{"outputType":"file"}`, [][2]string{{"/outputType", `must be one of: "resourceLink", "resource"`}}},
	"everything/simulate-research-query":        {[]string{`{"topic":"tides","ambiguous":true}`}, `{"ambiguous":"no"}`, [][2]string{{"/topic", "is required"}, {"/ambiguous", "must be a boolean, not a string"}}},
	"everything/toggle-simulated-logging":       {[]string{`{}`}, `[1]`, [][2]string{{"", "not one JSON object"}}},
	"everything/toggle-subscriber-updates":      {[]string{`{}`}, `"on"`, [][2]string{{"", "not one JSON object"}}},
	"everything/trigger-long-running-operation": {[]string{`{"duration":2,"steps":4}`}, `{"duration":"10s"}`, [][2]string{{"/duration", "must be a number, not a string"}}},
	"filesystem/create_directory":               {[]string{`{"path":"/tmp/x/new"}`}, `{"path":["a"]}`, [][2]string{{"/path", "must be a string, not an array"}}},
	"filesystem/directory_tree":                 {[]string{`{"path":"/tmp/x","excludePatterns":["node_modules","*.log"]}`}, `{"path":"/tmp/x","excludePatterns":"*.log"}`, [][2]string{{"/excludePatterns", "must be an array, not a string"}}},
	"filesystem/edit_file":                      {[]string{`{"path":"/tmp/x/a.txt","edits":[{"oldText":"foo","newText":"bar"}],"dryRun":true}`}, `{"path":"/tmp/x/a.txt","edits":[{"oldText":"foo"},{"newText":1,"oldText":"b"}]}`, [][2]string{{"/edits/0/newText", "is required"}, {"/edits/1/newText", "must be a string, not an integer"}}},
	"filesystem/get_file_info":                  {[]string{`{"path":"/tmp/x/a.txt"}`}, `{}`, [][2]string{{"/path", "is required"}}},
	"filesystem/list_allowed_directories":       {[]string{`{}`}, `[{}]`, [][2]string{{"", "not one JSON object"}}},
	"filesystem/list_directory":                 {[]string{`{"path":"/tmp/x"}`}, `{"path":null}`, [][2]string{{"/path", "must be a string, not null"}}},
	"filesystem/list_directory_with_sizes":      {[]string{`{"path":"/tmp/x","sortBy":"size"}`}, `{"path":"/tmp/x","sortBy":"date"}`, [][2]string{{"/sortBy", `must be one of: "name", "size"`}}},
	"filesystem/move_file":                      {[]string{`{"source":"/tmp/x/a","destination":"/tmp/x/b"}`}, `{"source":"/tmp/x/a"}`, [][2]string{{"/destination", "is required"}}},
	"filesystem/read_file":                      {[]string{`{"path":"/tmp/x/a.txt","head":10}`}, `{"path":"/tmp/x/a.txt","tail":"5"}`, [][2]string{{"/tail", "must be a number, not a string"}}},
	"filesystem/read_media_file":                {[]string{`{"path":"/tmp/x/a.png"}`}, `{"path":7}`, [][2]string{{"/path", "must be a string, not an integer"}}},
	"filesystem/read_multiple_files":            {[]string{`{"paths":["/tmp/x/a","/tmp/x/b"]}`}, `{"paths":[]}`, [][2]string{{"/paths", "must have at least 1 items (it has 0)"}}},
	"filesystem/read_text_file":                 {[]string{`{"path":"/tmp/x/a.txt","tail":3}`}, `{"head":1}`, [][2]string{{"/path", "is required"}}},
	"filesystem/search_files":                   {[]string{`{"path":"/tmp/x","pattern":"*.go","excludePatterns":["vendor"]}`}, `{"path":"/tmp/x","pattern":"*.go","excludePatterns":[1]}`, [][2]string{{"/excludePatterns/0", "must be a string, not an integer"}}},
	"filesystem/write_file":                     {[]string{`{"path":"/tmp/x/a.txt","content":"hi"}`}, `{"path":"/tmp/x/a.txt","content":{"text":"hi"}}`, [][2]string{{"/content", "must be a string, not an object"}}},
	"memory/add_observations":                   {[]string{`{"observations":[{"entityName":"Ada","contents":["wrote the first program"]}]}`}, `{"observations":[{"entityName":"Ada","contents":"wrote"}]}`, [][2]string{{"/observations/0/contents", "must be an array, not a string"}}},
	"memory/create_entities":                    {[]string{`{"entities":[{"name":"Ada","entityType":"person","observations":["mathematician"]}]}`}, `{"entities":[{"name":"Ada","observations":[]}]}`, [][2]string{{"/entities/0/entityType", "is required"}}},
	"memory/create_relations":                   {[]string{`{"relations":[{"from":"Ada","to":"Charles","relationType":"worked_with"}]}`}, `{"relations":[{"from":"Ada","to":"Charles"}]}`, [][2]string{{"/relations/0/relationType", "is required"}}},
	"memory/delete_entities":                    {[]string{`{"entityNames":["Ada"]}`}, `{"entityNames":"Ada"}`, [][2]string{{"/entityNames", "must be an array, not a string"}}},
	"memory/delete_observations":                {[]string{`{"deletions":[{"entityName":"Ada","observations":["mathematician"]}]}`}, `{"deletions":[{"observations":[2]}]}`, [][2]string{{"/deletions/0/entityName", "is required"}, {"/deletions/0/observations/0", "must be a string, not an integer"}}},
	"memory/delete_relations":                   {[]string{`{"relations":[{"from":"Ada","to":"Charles","relationType":"worked_with"}]}`}, `{"relations":[{"from":"Ada","to":5,"relationType":"x"}]}`, [][2]string{{"/relations/0/to", "must be a string, not an integer"}}},
	"memory/open_nodes":                         {[]string{`{"names":["Ada","Charles"]}`}, `{"names":[["Ada"]]}`, [][2]string{{"/names/0", "must be a string, not an array"}}},
	"memory/read_graph":                         {[]string{`{}`}, `7`, [][2]string{{"", "not one JSON object"}}},
	"memory/search_nodes":                       {[]string{`{"query":"Ada"}`}, `{"query":true}`, [][2]string{{"/query", "must be a string, not a boolean"}}},
}

// TestReferenceServers runs the official MCP reference servers as real
// processes, imports their tools through Open (ward's MCP client), and
// checks that every tool is imported with its input schema compiled and
// its declared output schema kept, that realistic arguments pass and
// invalid ones fail with a specific error, that a missing required
// parameter and a parameter of the wrong type are refused at the
// parameter, and that Params reads every property.
func TestReferenceServers(t *testing.T) {
	servers := referenceServers(t)
	ms := newTestStore(t)
	var logs strings.Builder
	s := openSet(t, Config{State: ms, Actions: ms, Log: slogTo(&logs), ConnectTimeout: time.Minute, Servers: servers})
	statuses := s.Status()
	for _, srv := range servers {
		if !slices.ContainsFunc(statuses, func(st Status) bool { return st.Server == srv.Name }) {
			t.Fatalf("server %s listed no tools:\n%s", srv.Name, logs.String())
		}
	}
	reg := registry.New()
	for _, rt := range s.Tools() {
		if err := reg.Add(rt); err != nil {
			t.Fatal(err)
		}
	}
	if r := reg.Refused(); len(r) != 0 {
		t.Errorf("the registry refused %+v", r)
	}
	seen := map[string]bool{}
	outputs := 0
	for _, st := range statuses {
		key := st.Server + "/" + st.Tool
		seen[key] = true
		t.Run(key, func(t *testing.T) {
			if st.State != Imported || st.Reason != "" {
				t.Fatalf("status %+v, want imported with nothing to report", st)
			}
			e, ok := reg.Get(st.Name)
			if !ok {
				t.Fatalf("%s is not registered", st.Name)
			}
			if len(e.Def.OutputSchema) > 0 {
				if _, err := schema.Compile(e.Def.OutputSchema); err != nil {
					t.Errorf("output schema: %v", err)
				}
				outputs++
			}
			a, ok := referenceArgs[key]
			if !ok {
				t.Fatalf("no arguments for %s: add them to referenceArgs (input schema %s)", key, e.Def.Params)
			}
			for _, v := range a.valid {
				if err := e.Validate(json.RawMessage(v)); err != nil {
					t.Errorf("valid %s: %v", v, err)
				}
			}
			wantErrors(t, e.Validate(json.RawMessage(a.invalid)), a.invalid, a.want)

			var raw struct {
				Properties map[string]json.RawMessage `json:"properties"`
			}
			if err := json.Unmarshal(e.Def.Params, &raw); err != nil {
				t.Fatal(err)
			}
			ps := e.Schema().Params()
			if len(ps) != len(raw.Properties) {
				t.Errorf("Params has %d parameters, the schema %d", len(ps), len(raw.Properties))
			}
			var base map[string]any
			if err := json.Unmarshal([]byte(a.valid[0]), &base); err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if p.Type == "" || p.Schema == nil {
					t.Errorf("param %+v: no type or schema", p)
				}
				if p.Required {
					args := maps.Clone(base)
					delete(args, p.Name)
					wantErrors(t, e.Validate(mustJSON(t, args)), "without "+p.Name, [][2]string{{"/" + p.Name, "is required"}})
				}
				args := maps.Clone(base)
				args[p.Name] = map[string]any{"not": "a " + p.Type}
				if p.Type == "object" {
					args[p.Name] = "not an object"
				}
				wantErrors(t, e.Validate(mustJSON(t, args)), p.Name+" of another type", [][2]string{{"/" + p.Name, "must be "}})
			}
		})
	}
	for key := range referenceArgs {
		if !seen[key] {
			t.Errorf("%s is no longer listed", key)
		}
	}
	if outputs == 0 {
		t.Error("no reference tool kept an output schema")
	}
}

// wantErrors wants err to be exactly the schema errors given (path and
// message fragment), in any order.
func wantErrors(t *testing.T, err error, what string, want [][2]string) {
	t.Helper()
	var errs schema.Errors
	if !errors.As(err, &errs) {
		t.Errorf("%s: %v, want errors %v", what, err, want)
		return
	}
	for _, w := range want {
		if !slices.ContainsFunc(errs, func(e *schema.Error) bool { return e.Path == w[0] && strings.Contains(e.Message, w[1]) }) {
			t.Errorf("%s: no error at %q containing %q; got %v", what, w[0], w[1], err)
		}
	}
	if len(errs) != len(want) {
		t.Errorf("%s: %d errors, want %d: %v", what, len(errs), len(want), err)
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
