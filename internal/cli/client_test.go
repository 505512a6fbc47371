package cli

import (
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// snippet runs ward client config and decodes its JSON.
func snippet(t *testing.T, args ...string) map[string]any {
	t.Helper()
	out, errOut, code := run(t, "", append([]string{"client", "config"}, args...)...)
	if code != 0 {
		t.Fatalf("client config %v: exit %d: %s", args, code, errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("client config %v is not JSON: %v\n%s", args, err, out)
	}
	return doc
}

// server returns the one server entry under key (mcpServers or servers).
func server(t *testing.T, doc map[string]any, key string) map[string]any {
	t.Helper()
	servers, ok := doc[key].(map[string]any)
	if !ok || len(servers) != 1 {
		t.Fatalf("want one server under %q: %v", key, doc)
	}
	s, ok := servers["ward"].(map[string]any)
	if !ok {
		t.Fatalf("no server named ward under %q: %v", key, doc)
	}
	return s
}

// headerTransport sends the snippet's headers, as the client would.
type headerTransport map[string]string

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestClientConfigHTTP: each client's HTTP snippet has that client's shape,
// names the token's environment variable (never the token), and its URL
// and header, expanded as the client expands them, connect to a running
// ward serve: an MCP initialize and a tools/list succeed. Without the
// token the same URL is refused.
func TestClientConfigHTTP(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	out, errOut, code := run(t, "", "token", "create", "--role", "agent")
	if code != 0 {
		t.Fatalf("token create: %s", errOut)
	}
	token := strings.TrimSpace(out)
	t.Setenv("WARD_AGENT_TOKEN", token)
	c := startServeIn(t, dir)
	addr := strings.TrimPrefix(c.base, "http://")

	for _, tc := range []struct {
		client, key, typ string
		ref              *regexp.Regexp // how the client names an environment variable
	}{
		{"claude", "mcpServers", "http", regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)},
		{"cursor", "mcpServers", "", regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)},
		{"vscode", "servers", "http", regexp.MustCompile(`\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}`)},
	} {
		t.Run(tc.client, func(t *testing.T) {
			raw, _, _ := run(t, "", "client", "config", tc.client, "--addr", addr, "--token-env", "WARD_AGENT_TOKEN")
			if strings.Contains(raw, token) {
				t.Fatalf("the snippet contains the token itself:\n%s", raw)
			}
			s := server(t, snippet(t, tc.client, "--addr", addr, "--token-env", "WARD_AGENT_TOKEN"), tc.key)
			if typ, _ := s["type"].(string); typ != tc.typ {
				t.Errorf("type %q, want %q", typ, tc.typ)
			}
			url, _ := s["url"].(string)
			if url != c.base+"/mcp" {
				t.Errorf("url %q, want %s/mcp", url, c.base)
			}
			hs, _ := s["headers"].(map[string]any)
			auth, _ := hs["Authorization"].(string)
			m := tc.ref.FindStringSubmatch(auth)
			if len(hs) != 1 || m == nil || m[1] != "WARD_AGENT_TOKEN" {
				t.Fatalf("headers %v: want Authorization naming WARD_AGENT_TOKEN in %s's syntax", hs, tc.client)
			}
			headers := map[string]string{"Authorization": tc.ref.ReplaceAllStringFunc(auth, func(ref string) string {
				return os.Getenv(tc.ref.FindStringSubmatch(ref)[1])
			})}
			connect := func(h map[string]string) (*mcp.ClientSession, error) {
				client := mcp.NewClient(&mcp.Implementation{Name: "client-config-test", Version: "1"}, nil)
				return client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url,
					HTTPClient: &http.Client{Transport: headerTransport(h), Timeout: 20 * time.Second}, DisableStandaloneSSE: true}, nil)
			}
			sess, err := connect(headers)
			if err != nil {
				t.Fatalf("MCP initialize with the snippet's URL and header: %v", err)
			}
			defer sess.Close()
			if sess.InitializeResult().ServerInfo == nil {
				t.Fatal("no server info after initialize")
			}
			tools, err := sess.ListTools(t.Context(), nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list: %v, %d tools", err, len(tools.Tools))
			}
			if s, err := connect(map[string]string{"Authorization": "Bearer ward_forged"}); err == nil {
				s.Close()
				t.Error("a forged token connected")
			}
		})
	}
}

// TestClientConfigStdio: each client's stdio snippet starts ward mcp with
// an absolute data directory, and running its command and arguments gives
// an MCP server that initializes and lists tools.
func TestClientConfigStdio(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, tc := range []struct{ client, key, typ string }{
		{"claude", "mcpServers", ""}, {"cursor", "mcpServers", ""}, {"vscode", "servers", "stdio"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			s := server(t, snippet(t, tc.client, "--stdio", "--command", os.Args[0]), tc.key)
			if typ, _ := s["type"].(string); typ != tc.typ {
				t.Errorf("type %q, want %q", typ, tc.typ)
			}
			if _, ok := s["url"]; ok {
				t.Errorf("a stdio snippet with a url: %v", s)
			}
			var args []string
			for _, a := range s["args"].([]any) {
				args = append(args, a.(string))
			}
			if len(args) != 3 || args[0] != "mcp" || args[1] != "--data" || args[2] != dir+"/"+defaultData {
				t.Fatalf("args %q, want mcp --data %s/%s", args, dir, defaultData)
			}
			cmd := exec.Command(s["command"].(string), args...)
			cmd.Env = append(os.Environ(), "WARD_TEST_MAIN=1")
			cmd.Dir = t.TempDir() // a client starts it anywhere
			client := mcp.NewClient(&mcp.Implementation{Name: "client-config-test", Version: "1"}, nil)
			sess, err := client.Connect(t.Context(), &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
			if err != nil {
				t.Fatalf("start %s %v: %v", s["command"], args, err)
			}
			defer sess.Close()
			tools, err := sess.ListTools(t.Context(), nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list over stdio: %v", err)
			}
		})
	}
}

func TestClientConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "name one client"},
		{[]string{"emacs"}, `unknown client "emacs"`},
		{[]string{"claude", "cursor"}, "name one client"},
		{[]string{"claude", "--token-env", "WARD TOKEN"}, "not an environment variable name"},
		{[]string{"claude", "--token-env", "${x}"}, "not an environment variable name"},
		{[]string{"claude", "--url", "ftp://x/mcp"}, "http(s) URL"},
		{[]string{"cursor", "--prompt"}, "vscode only"},
		{[]string{"vscode", "--name", "a\"b"}, "--name"},
	} {
		out, errOut, code := run(t, "", append([]string{"client", "config"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("client config %q: exit %d, out %q, err %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	doc := snippet(t, "vscode", "--prompt")
	s := server(t, doc, "servers")
	inputs, _ := doc["inputs"].([]any)
	if len(inputs) != 1 || s["headers"].(map[string]any)["Authorization"] != "Bearer ${input:ward-token}" {
		t.Errorf("vscode --prompt: %v", doc)
	}
	if in, _ := inputs[0].(map[string]any); in["id"] != "ward-token" || in["password"] != true || in["type"] != "promptString" {
		t.Errorf("vscode input: %v", inputs[0])
	}
}
