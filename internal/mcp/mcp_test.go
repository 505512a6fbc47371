package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/mcp"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
)

// The tests share one ward serve (the real stack on the dev chain, its
// authentication and its session table) with MCP mounted as ward serve
// mounts it, on a loopback port.
var (
	ward       *daemon.Server
	endpoint   string // http://127.0.0.1:port/mcp
	agentToken string
	otherToken string // a second agent token
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir, err := os.MkdirTemp("", "ward-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	f, err := config.Default()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// The served ward fronts a real upstream MCP server (journal), as a
	// [[upstream]] entry of ward.toml would.
	jr, stopJournal := startJournal()
	defer stopJournal()
	journalEntries = jr.added
	// An upstream write is Layer3: a short announce delay, which the
	// clients wait out, keeps the tests quick.
	f.Gate.AnnounceDelay = 2 * time.Second
	// Subscriptions polled often, and few per session, keep the stream
	// tests quick.
	f.Streaming.MinInterval, f.Streaming.MaxPerSession = 500*time.Millisecond, 3
	var served <-chan error
	if ward, served, err = startWard(ctx, dir, f, journalExtra(jr)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	endpoint = "http://" + ward.Addr.String() + "/mcp"
	for i, tok := range []*string{&agentToken, &otherToken} {
		if *tok, _, err = auth.Create(ctx, ward.Stack.Store, auth.Spec{Role: auth.Agent, Name: fmt.Sprintf("mcp-test-%d", i)}, time.Now()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	code := m.Run()
	cancel()
	if err := <-served; err != nil {
		fmt.Fprintln(os.Stderr, "ward serve:", err)
		code = 1
	}
	return code
}

// startWard runs ward serve on a loopback port with MCP mounted as ward
// serve mounts it, until ctx ends; served receives what Serve returned.
func startWard(ctx context.Context, dir string, f *config.File, extra func(context.Context, *daemon.Stack) ([]registry.Tool, func() error, error)) (*daemon.Server, <-chan error, error) {
	ready := &readyWriter{ch: make(chan struct{})}
	served := make(chan error, 1)
	mounted := make(chan *daemon.Server, 1)
	go func() {
		served <- daemon.Serve(ctx, daemon.ServeConfig{Addr: "127.0.0.1:0", Data: dir, File: f, Out: ready, Extra: extra, Mount: func(s *daemon.Server) error {
			srv, err := mcp.New(mcp.Config{Tools: s.Stack.Facade, Session: mcp.NamedSessions(s.Session, s.NamedSession), Version: "test",
				Updates: s.Stack.Bus, EndStreams: s.Stack.Streams.EndSession, StreamSweep: 100 * time.Millisecond})
			if err != nil {
				return err
			}
			s.Background(srv.Deliver)
			s.Mux.Handle("/mcp", s.Authenticate(srv.Handler()))
			mounted <- s
			return nil
		}})
	}()
	select {
	case <-ready.ch:
		return <-mounted, served, nil
	case err := <-served:
		return nil, nil, fmt.Errorf("ward serve: %w", err)
	}
}

// readyWriter closes ch once ward serve printed its ready line.
type readyWriter struct {
	once sync.Once
	ch   chan struct{}
}

func (w *readyWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "ready") {
		w.once.Do(func() { close(w.ch) })
	}
	return len(p), nil
}

// bearer adds a token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// progressLog collects the progress notifications a client receives. The
// client may handle a notification after the call's result has returned,
// so tests wait for the steps they expect.
type progressLog struct {
	mu      sync.Mutex
	steps   []*sdk.ProgressNotificationParams
	arrived chan struct{} // receives after each step, without blocking
}

func newProgressLog() *progressLog { return &progressLog{arrived: make(chan struct{}, 1)} }

func (p *progressLog) add(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
	p.mu.Lock()
	p.steps = append(p.steps, r.Params)
	p.mu.Unlock()
	select {
	case p.arrived <- struct{}{}:
	default:
	}
}

// wait returns the steps of token once there are n of them, or what
// arrived within 5 s.
func (p *progressLog) wait(token string, n int) []*sdk.ProgressNotificationParams {
	deadline := time.After(5 * time.Second)
	for {
		got := p.of(token)
		if len(got) >= n {
			return got
		}
		select {
		case <-p.arrived:
		case <-deadline:
			return got
		}
	}
}

func (p *progressLog) of(token string) []*sdk.ProgressNotificationParams {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*sdk.ProgressNotificationParams
	for _, s := range p.steps {
		if s.ProgressToken == token {
			out = append(out, s)
		}
	}
	return out
}

func newClient(progress *progressLog) *sdk.Client {
	opts := &sdk.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = progress.add
	}
	return sdk.NewClient(&sdk.Implementation{Name: "ward-test", Version: "1"}, opts)
}

// overHTTP connects to ward serve's /mcp with a bearer token.
func overHTTP(t testing.TB, token string, progress *progressLog) *sdk.ClientSession {
	t.Helper()
	tr := &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearer{token}}, MaxRetries: -1}
	cs, err := newClient(progress).Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatalf("connect over HTTP: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// overStdio runs a Server's stdio loop over in-memory pipes for session
// sess and connects a client to it.
func overStdio(t testing.TB, sess *gate.Session, progress *progressLog) *sdk.ClientSession {
	t.Helper()
	srv, err := mcp.New(mcp.Config{Tools: ward.Stack.Facade, Version: "test",
		Session: func(context.Context, string) (*facade.Session, error) { return facade.NewSession(sess), nil }})
	if err != nil {
		t.Fatal(err)
	}
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- srv.RunStdio(context.Background(), toServer, fromServer)
		fromServer.Close()
	}()
	cs, err := newClient(progress).Connect(context.Background(), &sdk.IOTransport{Reader: toClient, Writer: fromClient}, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v", err)
	}
	t.Cleanup(func() {
		cs.Close() // closes fromClient: the server reads EOF
		if err := <-done; err != nil {
			t.Errorf("RunStdio after the client closed: %v", err)
		}
	})
	return cs
}

func session(t testing.TB, id, profiles string) *gate.Session {
	t.Helper()
	s, err := ward.Stack.Session(t.Context(), id, policy.Agent, profiles)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func callTool(t testing.TB, cs *sdk.ClientSession, name, args string, progressToken string) *sdk.CallToolResult {
	t.Helper()
	p := &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)}
	if progressToken != "" {
		p.SetProgressToken(progressToken)
	}
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return res
}

func text(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// ok decodes a successful result's JSON text into v.
func ok(t testing.TB, res *sdk.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	if err := json.Unmarshal([]byte(text(res)), v); err != nil {
		t.Fatalf("result is not JSON: %v: %s", err, text(res))
	}
	if res.StructuredContent == nil {
		t.Errorf("no structured content next to %s", text(res))
	}
}

func swapArgs(amount string) string {
	dc := ward.Stack.Dev.Contracts()
	return fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":%q}}`,
		dc.USDC.Hex(), dc.WETH.Hex(), amount)
}

func TestListTools(t *testing.T) {
	for _, tc := range []struct {
		name    string
		connect func(t *testing.T) *sdk.ClientSession
		profile string // the session's profile, for the expected facades
		writes  bool
		// upstream are the journal's tools the profile lists.
		upstream []string
	}{
		{"http agent token (config profile active)", func(t *testing.T) *sdk.ClientSession { return overHTTP(t, agentToken, nil) }, "active", true,
			[]string{"mcp_journal_add_entry", "mcp_journal_find_entries"}},
		{"stdio data", func(t *testing.T) *sdk.ClientSession { return overStdio(t, session(t, "list-data", "data"), nil) }, "data", false, nil},
		{"stdio trader", func(t *testing.T) *sdk.ClientSession { return overStdio(t, session(t, "list-trader", "trader"), nil) }, "trader", true,
			[]string{"mcp_journal_find_entries"}},
		{"stdio vault", func(t *testing.T) *sdk.ClientSession { return overStdio(t, session(t, "list-vault", "vault"), nil) }, "vault", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := tc.connect(t)
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := facade.Listed(session(t, "want-"+tc.profile, tc.profile).View)
			if len(res.Tools) != len(want) {
				t.Fatalf("got %d tools %v, want %d", len(res.Tools), names(res.Tools), len(want))
			}
			for i, f := range want {
				got := res.Tools[i]
				if got.Name != f.Name {
					t.Errorf("tool %d: got %s, want %s", i, got.Name, f.Name)
				}
				if !strings.HasPrefix(got.Description, f.Description) {
					t.Errorf("%s: description %q does not start with the facade's", f.Name, got.Description)
				}
				for _, g := range f.PromptGuidelines {
					if !strings.Contains(got.Description, g) {
						t.Errorf("%s: description lacks the guideline %q", f.Name, g)
					}
				}
				gotSchema, _ := json.Marshal(got.InputSchema)
				if !sameJSON(t, gotSchema, f.Params) {
					t.Errorf("%s: schema %s, want %s", f.Name, gotSchema, f.Params)
				}
				a := got.Annotations
				if a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil || got.Title == "" || a.Title != got.Title {
					t.Fatalf("%s: annotations %+v, title %q: want every hint and a title", f.Name, a, got.Title)
				}
				h := facade.Hints{Title: a.Title, ReadOnly: a.ReadOnlyHint, Destructive: *a.DestructiveHint, Idempotent: a.IdempotentHint, OpenWorld: *a.OpenWorldHint}
				if h != f.Hints {
					t.Errorf("%s: annotations %+v, want %+v", f.Name, h, f.Hints)
				}
			}
			var up []string
			for _, tl := range res.Tools {
				if strings.HasPrefix(tl.Name, "mcp_") {
					up = append(up, tl.Name)
				}
			}
			if !slices.Equal(up, tc.upstream) {
				t.Errorf("upstream tools listed %v, want %v", up, tc.upstream)
			}
			writes := false
			for _, tl := range res.Tools {
				if tl.Name == "preview_action" || tl.Name == "commit_action" || tl.Name == "cancel_action" {
					writes = true
				}
			}
			if writes != tc.writes {
				t.Errorf("write facades listed: %v, want %v (%v)", writes, tc.writes, names(res.Tools))
			}
		})
	}
}

func names(ts []*sdk.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func sameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return string(xa) == string(ya)
}

func TestReadFacades(t *testing.T) {
	weth := ward.Stack.Dev.Contracts().WETH.Hex()
	for _, tc := range []struct {
		name    string
		connect func(t *testing.T, p *progressLog) *sdk.ClientSession
	}{
		{"http", func(t *testing.T, p *progressLog) *sdk.ClientSession { return overHTTP(t, agentToken, p) }},
		{"stdio data", func(t *testing.T, p *progressLog) *sdk.ClientSession {
			return overStdio(t, session(t, "read-data", "data"), p)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			progress := newProgressLog()
			cs := tc.connect(t, progress)
			var g struct {
				Phase  string `json:"phase"`
				Halted bool   `json:"halted"`
			}
			ok(t, callTool(t, cs, "query_state", `{"kind":"gate"}`, ""), &g)
			if g.Phase != "thriving" || g.Halted {
				t.Errorf("query_state gate: got %+v, want thriving and not halted", g)
			}
			var price struct {
				Data struct {
					Priced   bool    `json:"priced"`
					PriceUSD float64 `json:"price_usd"`
					Symbol   string  `json:"symbol"`
				} `json:"data"`
			}
			ok(t, callTool(t, cs, "search_context", fmt.Sprintf(`{"kind":"price","params":{"token":%q}}`, weth), "price-1"), &price)
			if !price.Data.Priced || price.Data.PriceUSD <= 0 || price.Data.Symbol != "WETH" {
				t.Errorf("search_context price: got %+v", price.Data)
			}
			steps := progress.wait("price-1", 1)
			if len(steps) != 1 || steps[0].Message != "Reading the price feed" || steps[0].Progress != 1 || steps[0].Total != 1 {
				t.Errorf("progress of the price read: got %s, want one step \"Reading the price feed\" 1/1", dump(steps))
			}
		})
	}
}

func dump(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestSwapPreviewCommit(t *testing.T) {
	progress := newProgressLog()
	cs := overHTTP(t, agentToken, progress)
	var pv struct {
		PermitID   string `json:"permit_id"`
		Status     string `json:"status"`
		ValueCents int64  `json:"value_cents"`
	}
	ok(t, callTool(t, cs, "preview_action", swapArgs("10000000"), "preview"), &pv)
	if pv.PermitID == "" || pv.Status != "pending" {
		t.Fatalf("preview: got %+v, want a pending permit", pv)
	}
	var cm struct {
		Data struct {
			TxHashes []string `json:"tx_hashes"`
			Verified bool     `json:"verified"`
		} `json:"data"`
		IsError bool `json:"is_error"`
	}
	ok(t, callTool(t, cs, "commit_action", fmt.Sprintf(`{"permit_id":%q}`, pv.PermitID), "commit"), &cm)
	if len(cm.Data.TxHashes) == 0 || cm.IsError {
		t.Errorf("commit: got %+v, want transactions", cm)
	}
	for _, h := range cm.Data.TxHashes {
		if len(h) != 66 || !strings.HasPrefix(h, "0x") {
			t.Errorf("commit: tx hash %q, want the agent to see the real hash", h)
		}
	}
	steps := progress.wait("commit", 2)
	if len(steps) < 2 {
		t.Fatalf("commit progress: got %s, want the sending and confirming steps", dump(steps))
	}
	for i, s := range steps {
		if s.Message == "" || s.Total < s.Progress || (i > 0 && s.Progress <= steps[i-1].Progress) {
			t.Errorf("commit progress step %d: %s (steps must have text and increase)", i, dump(s))
		}
	}
	if last := steps[len(steps)-1]; last.Progress != last.Total {
		t.Errorf("commit progress ends at %v of %v", last.Progress, last.Total)
	}
	// The permit is spent: the refusal is a tool error with its code.
	res := callTool(t, cs, "commit_action", fmt.Sprintf(`{"permit_id":%q}`, pv.PermitID), "")
	if !res.IsError || !strings.HasPrefix(text(res), string(reason.PermitConsumed)+": ") {
		t.Errorf("second commit: got error=%v %q, want %s", res.IsError, text(res), reason.PermitConsumed)
	}
}

// TestRefusals checks that refusals are tool errors carrying exactly the
// gate's code and agent-safe message, never its detail or the arguments.
func TestRefusals(t *testing.T) {
	cs := overHTTP(t, agentToken, nil)
	// A permit of this session, to commit twice (the gate's refusal of the
	// second commit has an internal detail).
	var pv struct {
		PermitID string `json:"permit_id"`
	}
	ok(t, callTool(t, cs, "preview_action", swapArgs("1000000"), ""), &pv)
	ok(t, callTool(t, cs, "commit_action", fmt.Sprintf(`{"permit_id":%q}`, pv.PermitID), ""), &struct{}{})
	const marker = "MARKER-9f2c"
	for _, tc := range []struct {
		name, tool, args string
		code             reason.Code
	}{
		{"forged permit", "commit_action", `{"permit_id":"01JD3K7ZQ4Y7K3M9XW2V5T8R00"}`, reason.PermitNotFound},
		{"spent permit", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, pv.PermitID), reason.PermitConsumed},
		{"wrong argument type", "query_state", `{"kind":42}`, reason.SchemaInvalid},
		{"unknown property", "search_context", `{"kind":"price","note":"` + marker + `"}`, reason.SchemaInvalid},
		{"arguments not an object", "query_state", `["` + marker + `"]`, reason.SchemaInvalid},
		{"unknown kind", "search_context", `{"kind":"` + marker + `"}`, reason.ToolUnavailable},
		{"over the spending limit", "preview_action", swapArgs("900000000000"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := callTool(t, cs, tc.tool, tc.args, "")
			got := text(res)
			if !res.IsError {
				t.Fatalf("got a success %q, want a refusal", got)
			}
			code, msg, found := strings.Cut(got, ": ")
			if !found || (tc.code != "" && reason.Code(code) != tc.code) {
				t.Errorf("got %q, want %s: message", got, tc.code)
			}
			// The gate itself refuses the same call the same way; its
			// detail must not have reached the agent.
			_, err := ward.Stack.Facade.Call(context.Background(), gateSessionOf(t, cs), tc.tool, json.RawMessage(tc.args))
			var r *gate.Refusal
			if !errors.As(err, &r) {
				t.Fatalf("the gate did not refuse: %v", err)
			}
			if code != string(r.Code) || msg != r.Message {
				t.Errorf("got %q, want %q", got, string(r.Code)+": "+r.Message)
			}
			// Beyond the message: nothing of the detail, nothing of the
			// arguments (where the gate's message does not quote them).
			if r.Detail != "" && !strings.Contains(r.Message, r.Detail) && strings.Contains(got, r.Detail) {
				t.Errorf("the refusal's detail %q reached the agent", r.Detail)
			}
			if !strings.Contains(r.Message, marker) && strings.Contains(got, marker) {
				t.Errorf("the agent's argument came back: %q", got)
			}
			sc, _ := json.Marshal(res.StructuredContent)
			if !strings.Contains(string(sc), `"code":"`+code+`"`) {
				t.Errorf("structured content %s lacks the code", sc)
			}
		})
	}
	t.Run("data session previews", func(t *testing.T) {
		data := overStdio(t, session(t, "refuse-data", "data"), nil)
		_, err := data.CallTool(context.Background(), &sdk.CallToolParams{Name: "preview_action", Arguments: json.RawMessage(swapArgs("1000000"))})
		if err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("preview_action in a data session: got %v, want an unknown tool error", err)
		}
	})
}

// gateSessionOf returns the gate session ward serve keeps for an HTTP
// client session of the agent token.
func gateSessionOf(t testing.TB, cs *sdk.ClientSession) *facade.Session {
	t.Helper()
	p, err := ward.Verifier.Verify(context.Background(), agentToken, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	s, err := ward.Session(t.Context(), p, cs.ID())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStdioEnds checks how a stdio session ends: at the end of its input,
// cleanly and after answering every call read (even when the whole input
// arrives at once), or at a message over the size bound or a malformed
// one, without hanging.
func TestStdioEnds(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}` + "\n"
	const calls = `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"query_state","arguments":{"kind":"gate"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope","arguments":{}}}` + "\n"
	sess := session(t, "stdio-ends", "data")
	newServer := func(t *testing.T) *mcp.Server {
		srv, err := mcp.New(mcp.Config{Tools: ward.Stack.Facade, Session: func(context.Context, string) (*facade.Session, error) { return facade.NewSession(sess), nil }})
		if err != nil {
			t.Fatal(err)
		}
		return srv
	}
	t.Run("end of input", func(t *testing.T) {
		var out syncBuffer
		if err := newServer(t).RunStdio(context.Background(), strings.NewReader(initialize+calls), &out); err != nil {
			t.Errorf("RunStdio: %v", err)
		}
		for _, want := range []string{`"id":1,"result"`, `"id":2,"result":{`, `"id":3,"result":{"content"`, `"id":4,"error"`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("no %s in %.400q", want, out.String())
			}
		}
	})
	for _, tc := range []struct{ name, tail string }{
		{"oversized message", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"query_grimoire","arguments":{"query":"` +
			strings.Repeat("x", mcp.MaxMessageBytes) + `"}}}` + "\n"},
		{"malformed message", "{{{\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, toServer := io.Pipe()
			fromServer, out := io.Pipe()
			done := make(chan error, 1)
			go func() {
				done <- newServer(t).RunStdio(context.Background(), in, out)
				out.Close()
			}()
			lines := make(chan string, 16)
			go func() {
				sc := bufio.NewScanner(fromServer)
				sc.Buffer(nil, 4<<20)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			io.WriteString(toServer, initialize+calls)
			for range 4 {
				if l, ok := <-lines; !ok || !strings.Contains(l, `"id":`) {
					t.Fatalf("got %q before the bad message, want the 4 answers", l)
				}
			}
			go func() {
				io.WriteString(toServer, tc.tail)
				toServer.Close()
			}()
			select {
			case err := <-done:
				if err == nil {
					t.Error("RunStdio ended without an error")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("RunStdio did not end")
			}
			in.Close() // the writer of the tail may still be blocked
			for range lines {
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for the server's writer goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
