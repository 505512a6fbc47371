package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/mcp"
)

// TestHTTPBadInput sends what a broken or hostile client might and checks
// the status of each; the server must keep serving the session after all
// of it.
func TestHTTPBadInput(t *testing.T) {
	cs := overHTTP(t, agentToken, nil)
	sid := cs.ID()
	if sid == "" {
		t.Fatal("the HTTP session has no id")
	}
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	const list = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, tc := range []struct {
		name        string
		token       string
		session     string
		contentType string
		body        string
		want        int
	}{
		{"no token", "", "", "", initialize, http.StatusUnauthorized},
		{"invalid token", "ward_" + strings.Repeat("A", 43), "", "", initialize, http.StatusUnauthorized},
		{"not a ward token", "abc", sid, "", list, http.StatusUnauthorized},
		{"another token's session", otherToken, sid, "", list, http.StatusForbidden},
		{"unknown session", agentToken, "no-such-session", "", list, http.StatusNotFound},
		{"malformed JSON in a session", agentToken, sid, "", `{"jsonrpc":"2.0","id":3,"method":`, http.StatusBadRequest},
		{"malformed JSON, no session", agentToken, "", "", `{{{`, http.StatusBadRequest},
		{"not JSON-RPC", agentToken, sid, "", `{"hello":"world"}`, http.StatusBadRequest},
		{"unknown method", agentToken, sid, "", `{"jsonrpc":"2.0","id":4,"method":"tools/explode"}`, http.StatusBadRequest},
		{"empty body", agentToken, sid, "", ``, http.StatusBadRequest},
		{"wrong content type", agentToken, sid, "text/plain", list, http.StatusUnsupportedMediaType},
		{"oversized body", agentToken, sid, "", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"query_grimoire","arguments":{"query":"` +
			strings.Repeat("x", 1<<20) + `"}}}`, http.StatusRequestEntityTooLarge},
		{"oversized body, no session", agentToken, "", "", strings.Repeat(" ", 1<<20+1) + initialize, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := post(t, tc.token, tc.session, tc.contentType, tc.body)
			if status != tc.want {
				t.Errorf("got %d %.200q, want %d", status, body, tc.want)
			}
		})
	}
	t.Run("unknown tool", func(t *testing.T) {
		_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "transfer_everything", Arguments: map[string]any{}})
		if err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("got %v, want an unknown tool error", err)
		}
	})
	t.Run("still serving", func(t *testing.T) {
		var g map[string]any
		ok(t, callTool(t, cs, "query_state", `{"kind":"gate"}`, ""), &g)
		status, body := post(t, agentToken, sid, "", list)
		if status != http.StatusOK || !strings.Contains(body, `"query_state"`) {
			t.Errorf("tools/list by hand: got %d %.200q", status, body)
		}
	})
}

func post(t *testing.T, token, session, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType == "" {
		contentType = "application/json"
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b)
}

// TestHTTPUnauthenticatedHandler checks the handler refuses a request that
// did not come through ward's authentication, whatever header it carries.
func TestHTTPUnauthenticatedHandler(t *testing.T) {
	srv, err := mcp.New(mcp.Config{Tools: ward.Stack.Facade, Session: mcp.NamedSessions(ward.Session, ward.NamedSession)})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	req.Header.Set("Authorization", "Bearer "+agentToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	srv.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("got %d %q, want 401", rec.Code, rec.Body.String())
	}
}

// TestHTTPSessionPerRole checks that each MCP session over HTTP runs in the
// gate session ward serve keeps for its token and MCP session id, with the
// input source of the token's role.
func TestHTTPSessionPerRole(t *testing.T) {
	for _, role := range []auth.Role{auth.Owner, auth.Agent, auth.Peer} {
		t.Run(string(role), func(t *testing.T) {
			tok, p, err := auth.Create(context.Background(), ward.Stack.Store, auth.Spec{Role: role, Name: "role-test-" + string(role)}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			cs := overHTTP(t, tok, nil)
			directive := "directive of the " + string(role)
			ok(t, callTool(t, cs, "update_directive", `{"directive":"`+directive+`"}`, ""), &struct{}{})
			g, err := ward.Session(t.Context(), p, cs.ID())
			if err != nil {
				t.Fatal(err)
			}
			if g.Source() != role.Source() {
				t.Errorf("session source %v, want %v", g.Source(), role.Source())
			}
			rec, err := ward.Stack.Store.Session(context.Background(), g.ID())
			if err != nil || rec.Directive != directive || rec.PrincipalID != p.ID {
				t.Errorf("stored gate session %s: %+v, %v; want directive %q of principal %s", g.ID(), rec, err, directive, p.ID)
			}
		})
	}
}

// TestHTTPConcurrentClients hammers ward serve's /mcp with clients calling
// reads (with progress) at once, on shared and separate sessions.
func TestHTTPConcurrentClients(t *testing.T) {
	weth := ward.Stack.Dev.Contracts().WETH.Hex()
	shared := overHTTP(t, agentToken, nil)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 8 {
		cs := shared
		if i%2 == 1 {
			cs = overHTTP(t, agentToken, newProgressLog())
		}
		wg.Go(func() {
			for j := range 25 {
				p := &sdk.CallToolParams{Name: "search_context", Arguments: json.RawMessage(`{"kind":"price","params":{"token":"` + weth + `"}}`)}
				p.SetProgressToken(fmt.Sprintf("c%d-%d", i, j))
				res, err := cs.CallTool(context.Background(), p)
				if err == nil && res.IsError {
					err = errors.New(text(res))
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// FuzzHTTPBody posts arbitrary bodies to the MCP handler as an
// authenticated agent: whatever arrives, the handler answers with a status
// (never a panic or a 5xx) and keeps serving.
func FuzzHTTPBody(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"query_state","arguments":{"kind":"gate"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"query_state","arguments":[1,2]}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"commit_action","arguments":{"permit_id":"x"},"_meta":{"progressToken":{}}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":null}`,
		`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"1.0","id":null}`, `null`, `{`, ``,
	} {
		f.Add(seed)
	}
	srv, err := mcp.New(mcp.Config{Tools: ward.Stack.Facade, Session: mcp.NamedSessions(ward.Session, ward.NamedSession)})
	if err != nil {
		f.Fatal(err)
	}
	h := srv.Handler()
	p, err := ward.Verifier.Verify(context.Background(), agentToken, time.Now())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string) {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req = req.WithContext(auth.WithPrincipal(req.Context(), p))
		req.Header.Set("Authorization", "Bearer "+agentToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Errorf("%q: got %d %q", body, rec.Code, rec.Body.String())
		}
	})
}

// TestHTTPShutdownWithOpenStream checks that a client holding its event
// stream open does not hold up ward serve's graceful shutdown (4 s at most,
// an error when exceeded).
func TestHTTPShutdownWithOpenStream(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	w, served, err := startWard(ctx, t.TempDir(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, _, err := auth.Create(ctx, w.Stack.Store, auth.Spec{Role: auth.Agent, Name: "shutdown"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	tr := &sdk.StreamableClientTransport{Endpoint: "http://" + w.Addr.String() + "/mcp", HTTPClient: &http.Client{Transport: bearer{tok}}, MaxRetries: -1}
	cs, err := newClient(nil).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var g map[string]any
	ok(t, callTool(t, cs, "query_state", `{"kind":"gate"}`, ""), &g)
	start := time.Now()
	cancel()
	if err := <-served; err != nil {
		t.Errorf("ward serve with an MCP client connected: %v after %v", err, time.Since(start))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("shutdown took %v with an MCP client connected", d)
	}
}
