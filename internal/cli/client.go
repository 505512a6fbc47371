package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/daemon"
)

const clientConfigHelp = `Print the JSON that connects an MCP client to ward, in that client's own
configuration format:

  claude  Claude Code (.mcp.json) and, with --stdio, Claude Desktop
          (claude_desktop_config.json): "mcpServers"
  cursor  Cursor (.cursor/mcp.json or ~/.cursor/mcp.json): "mcpServers"
  vscode  VS Code (.vscode/mcp.json): "servers"

By default the client reaches 'ward serve' over streamable HTTP at --url
(http://ADDR/mcp) and sends Authorization: Bearer <token>, where the token
is read from the environment variable named by --token-env when the client
starts: the snippet names the variable, never the token. Create the token
with 'ward token create --role agent' and export it in the client's
environment. With --stdio the client starts 'ward mcp' itself (no token:
the process is the agent's), with --data and --config made absolute.`

// clientKinds are the clients ward writes a configuration for.
var clientKinds = []string{"claude", "cursor", "vscode"}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)

func clientConfig(_ context.Context, io IO, args []string) int {
	fs := flags(io, "client config", "claude|cursor|vscode", clientConfigHelp)
	tokenEnv := fs.String("token-env", "WARD_TOKEN", "environment variable the client reads the bearer token from")
	addr := fs.String("addr", daemon.DefaultAddr, "address of ward serve (HOST:PORT)")
	url := fs.String("url", "", "MCP endpoint of ward serve (default: http://ADDR/mcp)")
	name := fs.String("name", "ward", "the server's name in the client's configuration")
	stdio := fs.Bool("stdio", false, "start 'ward mcp' over standard input and output instead")
	command := fs.String("command", "ward", "with --stdio: the ward executable the client starts")
	data := dataFlag(fs, "with --stdio: data directory of 'ward mcp'")
	cfgPath := fs.String("config", "", "with --stdio: ward.toml for 'ward mcp' (default: none, the embedded defaults)")
	input := fs.Bool("prompt", false, "vscode: ask for the token once (an input of type promptString) instead of reading --token-env")
	if st, ok := parseInterleaved(fs, args); !ok {
		return st
	}
	if fs.NArg() != 1 {
		return usageErr(io, "client config: name one client: %s", strings.Join(clientKinds, ", "))
	}
	kind := fs.Arg(0)
	switch {
	case !slices.Contains(clientKinds, kind):
		return usageErr(io, "client config: unknown client %q (want %s)", kind, strings.Join(clientKinds, ", "))
	case !envName.MatchString(*tokenEnv):
		return usageErr(io, "client config: --token-env %q is not an environment variable name", *tokenEnv)
	case !envName.MatchString(strings.ReplaceAll(*name, "-", "_")):
		return usageErr(io, "client config: --name must be letters, digits, '_' or '-'")
	case *input && kind != "vscode":
		return usageErr(io, "client config: --prompt is for vscode only")
	}
	var server map[string]any
	var inputs []any
	if *stdio {
		var err error
		if server, err = stdioServer(kind, *command, *data, *cfgPath); err != nil {
			return fail(io, "%v", err)
		}
	} else {
		endpoint := *url
		if endpoint == "" {
			endpoint = "http://" + *addr + "/mcp"
		}
		if !strings.HasPrefix(endpoint, "http://") && !strings.HasPrefix(endpoint, "https://") {
			return usageErr(io, "client config: --url must be an http(s) URL")
		}
		server, inputs = httpServer(kind, endpoint, *tokenEnv, *input)
	}
	doc := clientDoc(kind, *name, server, inputs)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fail(io, "%v", err)
	}
	fmt.Fprintln(io.Out, string(b))
	return exitOK
}

// stdioServer is the entry of a client that starts 'ward mcp' itself, with
// data and cfgPath ("" for none) made absolute.
func stdioServer(kind, command, data, cfgPath string) (map[string]any, error) {
	absData, err := filepath.Abs(data)
	if err != nil {
		return nil, err
	}
	cmdArgs := []string{"mcp", "--data", absData}
	if cfgPath != "" {
		abs, err := filepath.Abs(cfgPath)
		if err != nil {
			return nil, err
		}
		cmdArgs = append(cmdArgs, "--config", abs)
	}
	server := map[string]any{"command": command, "args": cmdArgs}
	if kind == "vscode" {
		server["type"] = "stdio" // Claude and Cursor take a command as stdio
	}
	return server, nil
}

// httpServer is the entry of a client that reaches ward serve at endpoint
// with the bearer token from tokenEnv, or with prompt (vscode) from an
// input it asks for once, which it also returns.
func httpServer(kind, endpoint, tokenEnv string, prompt bool) (server map[string]any, inputs []any) {
	// Each client's own syntax for a value taken from the environment
	// when it starts the connection.
	var secret string
	switch kind {
	case "claude":
		secret = "${" + tokenEnv + "}"
	case "cursor", "vscode":
		secret = "${env:" + tokenEnv + "}"
	}
	if prompt {
		secret = "${input:ward-token}"
		inputs = []any{map[string]any{"type": "promptString", "id": "ward-token", "description": "ward bearer token (ward token create --role agent)", "password": true}}
	}
	server = map[string]any{"url": endpoint, "headers": map[string]string{"Authorization": "Bearer " + secret}}
	if kind != "cursor" {
		server["type"] = "http"
	}
	return server, inputs
}

// clientDoc is the configuration document of kind naming server name.
func clientDoc(kind, name string, server map[string]any, inputs []any) map[string]any {
	switch kind {
	case "claude", "cursor":
		return map[string]any{"mcpServers": map[string]any{name: server}}
	case "vscode":
		doc := map[string]any{"servers": map[string]any{name: server}}
		if inputs != nil {
			doc["inputs"] = inputs
		}
		return doc
	}
	return nil
}
