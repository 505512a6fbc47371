package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/daemon"
)

// header adds a header to every request.
type header struct {
	next        http.RoundTripper
	name, value string
}

func (h header) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return h.next.RoundTrip(r)
}

// An MCP client working in an isolated orchestrator session (named with
// X-Ward-Session) that reads third-party content itself gets a tool error
// that says why; in its own session the same read works.
func TestIsolatedSessionOverMCP(t *testing.T) {
	tok, p, err := auth.Create(t.Context(), ward.Stack.Store, auth.Spec{Role: auth.Agent, Name: "orchestrator"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ward.CreateSession(t.Context(), p, daemon.SessionOptions{Name: "orch", Isolated: true}); err != nil {
		t.Fatal(err)
	}
	read := fmt.Sprintf(`{"kind":"token","params":{"token":%q}}`, ward.Stack.Dev.Contracts().USDC.Hex())

	tr := &sdk.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: header{next: bearer{tok}, name: "X-Ward-Session", value: "orch"}}}
	cs, err := newClient(nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res := callTool(t, cs, "search_context", read, "")
	if !res.IsError || !strings.Contains(text(res), "TAINT_ISOLATION") || !strings.Contains(text(res), "isolated orchestrator") {
		t.Fatalf("isolated read over MCP: error %v: %s", res.IsError, text(res))
	}

	own := overHTTP(t, tok, nil)
	defer own.Close()
	if res := callTool(t, own, "search_context", read, ""); res.IsError {
		t.Fatalf("the same read in the token's own session: %s", text(res))
	}
}
