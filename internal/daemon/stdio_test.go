package daemon

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
)

// TestServeStdio serves ward mcp's session over a reader and a buffer: it
// answers the handshake, lists the configured tools and runs a facade
// call, then returns at the end of the input.
func TestServeStdio(t *testing.T) {
	g := openGateStack(t, "")
	const in = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"query_state","arguments":{"kind":"gate"}}}` + "\n"
	var out syncBuffer
	err := g.ServeStdio(t.Context(), strings.NewReader(in), &out, StdioConfig{Tools: config.Tools{Profiles: []string{"dev"}}, Role: auth.Agent, Version: "test"})
	if err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	for _, want := range []string{`"id":1,"result"`, `"id":2,"result":{`, `"name":"preview_action"`, `"id":3,"result":{"content"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in %.600q", want, out.String())
		}
	}
	if strings.Contains(out.String(), `"isError":true`) {
		t.Errorf("a call failed: %.600q", out.String())
	}
}
