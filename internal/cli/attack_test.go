package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// The attacker's side of issue 14: what a client holding a valid token
// (its own, not the victim's) tries against a real `ward serve` (every
// surface mounted, its store, its dev chain), and what a restart, a kill
// -9 or a revocation must not undo. These tests run over HTTP, as an
// attacker would.

// attackPolicy quarantines swaps above 100 USDC (the held calls of the
// tests) and bounds each principal to 100 live sessions.
const attackPolicy = `
[store]
synchronous = "normal"

[sessions]
max_per_principal = 100

[[policy.rules]]
id = "custom.review-big-swaps"
applies_to = { by = "name", names = ["uniswap_execute_swap"] }
when = 'int(args.amount_in) > 100000000'
action = "quarantine"
reason_code = "SWAP_REVIEW"
message = "swaps above 100 USDC wait for the owner"
`

// served is a running ward serve in this process.
type served struct {
	t      *testing.T
	base   string
	srv    *daemon.Server
	data   string
	client *http.Client
	usdc   string
	weth   string
}

func serveFor(t *testing.T, policy string) *served {
	t.Helper()
	f, err := config.Parse("ward.toml", []byte(policy))
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	st, err := daemon.Start(context.Background(), daemon.ServeConfig{Addr: "127.0.0.1:0", Data: data, File: f, Mount: daemon.MountSurfaces, Version: Version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := st.Stop(); err != nil {
			t.Errorf("ward serve: %v", err)
		}
	})
	dc := st.Stack.Dev.Contracts()
	return &served{t: t, base: st.URL, srv: st.Server, data: data, client: &http.Client{Timeout: time.Minute},
		usdc: dc.USDC.Hex(), weth: dc.WETH.Hex()}
}

// token makes a token of role named name (ttl 0: never expires).
func (s *served) token(role auth.Role, name string, ttl time.Duration) (string, auth.Principal) {
	s.t.Helper()
	tok, p, err := auth.Create(s.t.Context(), s.srv.Stack.Store, auth.Spec{Role: role, Name: name, TTL: ttl}, time.Now())
	if err != nil {
		s.t.Fatal(err)
	}
	return tok, p
}

// reply is a finished request.
type reply struct {
	status int
	body   []byte
}

func (r *reply) code() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	json.Unmarshal(r.body, &e)
	return e.Error.Code
}

func (r *reply) get(key string) string {
	var m map[string]any
	json.Unmarshal(r.body, &m)
	if e, ok := m["error"].(map[string]any); ok {
		m = e
	}
	v, _ := m[key].(string)
	return v
}

// do sends a request with token, in session (the X-Ward-Session header;
// "" for none).
func (s *served) do(method, path, token, session, body string) *reply {
	s.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if session != "" {
		req.Header.Set("X-Ward-Session", session)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return &reply{status: resp.StatusCode, body: b}
}

func (s *served) call(token, session, facade, args string) *reply {
	s.t.Helper()
	return s.do("POST", "/v1/call/"+facade, token, session, args)
}

func (s *served) swap(usdc int64) string {
	return fmt.Sprintf(`{"action_type":"swap","venue":"uniswap_v3","params":{"token_in":%q,"token_out":%q,"amount_in":"%d"}}`,
		s.usdc, s.weth, usdc*1_000_000)
}

func (s *served) want(r *reply, status int, code string) {
	s.t.Helper()
	if r.status != status || (code != "" && r.code() != code) {
		s.t.Fatalf("got %d %s, want %d %s", r.status, r.body, status, code)
	}
}

// errorOf is a refusal's code and message: what a client can tell from it.
func errorOf(r *reply) string {
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	json.Unmarshal(r.body, &e)
	return fmt.Sprintf("%d %s %s", r.status, e.Error.Code, e.Error.Message)
}

// TestAttackOtherPrincipalsIDs: another principal commits, cancels, reads
// and polls a victim's permit, quarantined call, withheld output and A2A
// task. Each is refused exactly as an id that never existed is (no
// oracle), and the victim can still commit its permit.
func TestAttackOtherPrincipalsIDs(t *testing.T) {
	s := serveFor(t, attackPolicy)
	victim, _ := s.token(auth.Agent, "victim", 0)
	unknown := id.Opaque(time.Now())
	// Each comparison is made by an attacker of its own, so that the
	// guessing limit (a few failures per principal) stays out of it; the
	// limit has its own test.
	var attackers []string
	n := 0
	fresh := func() string {
		n++
		tok, p := s.token(auth.Agent, fmt.Sprint("attacker-", n), 0)
		attackers = append(attackers, p.ID)
		return tok
	}

	pv := s.call(victim, "", "preview_action", s.swap(1))
	s.want(pv, http.StatusOK, "")
	permit := pv.get("permit_id")
	held := s.call(victim, "", "preview_action", s.swap(200))
	s.want(held, http.StatusForbidden, "SWAP_REVIEW")
	item := held.get("quarantine_id")

	same := func(what string, got, ref *reply) {
		t.Helper()
		if errorOf(got) != errorOf(ref) {
			t.Errorf("%s: another principal's id answers %q, an unknown id %q", what, errorOf(got), errorOf(ref))
		}
		if got.status < 400 {
			t.Errorf("%s: another principal's id was accepted: %s", what, got.body)
		}
	}
	for _, c := range []struct {
		what, facade, args string
	}{
		{"commit", "commit_action", `{"permit_id":%q}`},
		{"cancel", "cancel_action", `{"permit_id":%q}`},
		{"poll a permit", "query_state", `{"kind":"permit","params":{"permit_id":%q}}`},
	} {
		attacker := fresh()
		same(c.what, s.call(attacker, "", c.facade, fmt.Sprintf(c.args, permit)), s.call(attacker, "", c.facade, fmt.Sprintf(c.args, unknown)))
	}
	attacker := fresh()
	same("poll a held call", s.call(attacker, "", "query_state", fmt.Sprintf(`{"kind":"quarantine","params":{"id":%q}}`, item)),
		s.call(attacker, "", "query_state", fmt.Sprintf(`{"kind":"quarantine","params":{"id":%q}}`, unknown)))
	// The victim's own session, but another of its sessions: the same.
	same("commit from another session of the victim", s.call(victim, "other", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, permit)),
		s.call(victim, "other", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, unknown)))

	// A withheld output of the victim's isolated orchestration.
	s.want(s.do("POST", "/v1/sessions", victim, "", `{"name":"orch","isolated":true}`), http.StatusOK, "")
	s.want(s.do("POST", "/v1/sessions", victim, "", `{"name":"worker","parent":"orch","reviewers":["rules-reviewer"],"judge":"rules-judge"}`), http.StatusOK, "")
	d := s.do("POST", "/v1/sessions/orch/delegate", victim, "", fmt.Sprintf(`{"child":"worker","tool":"data_get_token_info","args":{"token":%q}}`, s.usdc))
	s.want(d, http.StatusOK, "")
	key := d.get("output_key")
	attacker = fresh()
	same("read an output", s.do("GET", "/v1/outputs/"+key, attacker, "", ""), s.do("GET", "/v1/outputs/"+unknown, attacker, "", ""))

	// An A2A task.
	a2a := func(token, method, params string) *reply {
		return s.do("POST", "/a2a", token, "", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, params))
	}
	sent := a2a(victim, "message/send", `{"message":{"messageId":"m1","role":"user","parts":[{"kind":"data","data":{"tool":"query_state","arguments":{"kind":"gate"}}}]}}`)
	var task struct {
		Result struct{ ID string } `json:"result"`
	}
	if json.Unmarshal(sent.body, &task) != nil || task.Result.ID == "" {
		t.Fatalf("a2a message/send: %s", sent.body)
	}
	rpcErr := func(r *reply) string {
		var e struct {
			Error struct {
				Code    int
				Message string
			} `json:"error"`
		}
		json.Unmarshal(r.body, &e)
		return fmt.Sprintf("%d %s", e.Error.Code, e.Error.Message)
	}
	for _, m := range []string{"tasks/get", "tasks/cancel"} {
		attacker := fresh()
		got, ref := a2a(attacker, m, fmt.Sprintf(`{"id":%q}`, task.Result.ID)), a2a(attacker, m, `{"id":"`+unknown+`"}`)
		if rpcErr(got) != rpcErr(ref) || !strings.Contains(rpcErr(got), "no task") {
			t.Errorf("a2a %s of another principal's task: %q, of an unknown one %q", m, rpcErr(got), rpcErr(ref))
		}
	}
	if got := a2a(victim, "tasks/get", fmt.Sprintf(`{"id":%q}`, task.Result.ID)); strings.Contains(string(got.body), `"error"`) {
		t.Errorf("the victim cannot read its own task: %s", got.body)
	}

	// The victim still commits its permit: none of the above touched it.
	if r := s.call(victim, "", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, permit)); r.status != http.StatusOK {
		t.Errorf("the victim's commit after the attempts: %s", r.body)
	}
	// And every failed lookup is in the audit trail, with the attacker.
	owner, _ := s.token(auth.Owner, "owner", 0)
	var acts struct {
		Actions []struct {
			PrincipalID string `json:"principal_id"`
		}
	}
	json.Unmarshal(s.do("GET", "/v1/actions?kind=lookup_failed&limit=100", owner, "", "").body, &acts)
	byAttacker := 0
	for _, a := range acts.Actions {
		if slices.Contains(attackers, a.PrincipalID) {
			byAttacker++
		}
	}
	if want := 2 * len(attackers); byAttacker != want {
		t.Errorf("%d failed lookups of the attackers audited, want every one of %d (%d records)", byAttacker, want, len(acts.Actions))
	}
}

// TestAttackGuessingIDs: ids issued back to back share nothing guessable
// but their time, and a principal that guesses is slowed to a few tries
// before it is refused (429), every try audited.
func TestAttackGuessingIDs(t *testing.T) {
	s := serveFor(t, attackPolicy)
	agent, p := s.token(auth.Agent, "agent", 0)
	var ids []string
	for range 8 {
		r := s.call(agent, "", "preview_action", s.swap(1))
		s.want(r, http.StatusOK, "")
		ids = append(ids, r.get("permit_id"))
	}
	for i := 1; i < len(ids); i++ {
		a, b := ids[i-1], ids[i]
		common := 0
		for j := 10; j < len(a) && j < len(b); j++ {
			if a[j] == b[j] {
				common++
			}
		}
		if !id.ValidOpaque(a) || common > 8 {
			t.Errorf("permits %s and %s issued back to back share %d of 22 random characters", a, b, common)
		}
	}
	// Guess neighbours of the last id: the 6th try is refused before it
	// is looked up.
	last := ids[len(ids)-1]
	var codes []string
	for _, c := range "0123456789ABCDEF" {
		guess := last[:len(last)-1] + string(c)
		if guess == last {
			continue // a guess of the id itself is no guess
		}
		codes = append(codes, s.call(agent, "", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, guess)).code())
		if len(codes) == 8 {
			break
		}
	}
	want := "PERMIT_NOT_FOUND PERMIT_NOT_FOUND PERMIT_NOT_FOUND PERMIT_NOT_FOUND PERMIT_NOT_FOUND TOO_MANY_FAILED_LOOKUPS TOO_MANY_FAILED_LOOKUPS TOO_MANY_FAILED_LOOKUPS"
	if strings.Join(codes, " ") != want {
		t.Errorf("a guessing loop was answered %v", codes)
	}
	r := s.call(agent, "", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, ids[0]))
	if r.status != http.StatusTooManyRequests {
		t.Errorf("even its own permit is refused while it is slowed: got %d %s, want 429", r.status, r.body)
	}
	recs, err := s.srv.Stack.Store.Actions(t.Context(), store.ActionFilter{Kind: store.ActionLookupFailed, PrincipalID: p.ID})
	if err != nil || len(recs) != 5 {
		t.Errorf("%d failed lookups audited for the guesser, want the 5 it was allowed (%v)", len(recs), err)
	}
	// Another principal is not slowed by it.
	other, _ := s.token(auth.Agent, "other", 0)
	if got := s.call(other, "", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, last)).code(); got != "PERMIT_NOT_FOUND" {
		t.Errorf("another principal's lookup: %s", got)
	}
}

// TestAttackSessionFlood: a client sends ten thousand fresh session names.
// Nothing is evicted to make room: past its limit the principal is refused
// new sessions (429), and the tainted, isolated and under-review sessions of
// the victim keep their state; a session name the reviewed principal
// never used is held as the reviewed one is.
func TestAttackSessionFlood(t *testing.T) {
	s := serveFor(t, attackPolicy)
	victim, _ := s.token(auth.Agent, "victim", 0)
	flooder, _ := s.token(auth.Agent, "flooder", 0)
	owner, _ := s.token(auth.Owner, "owner", 0)
	// tainted: it read third-party content.
	s.want(s.call(victim, "tainted", "search_context", fmt.Sprintf(`{"kind":"token","params":{"token":%q}}`, s.usdc)), http.StatusOK, "")
	// isolated: an orchestrator.
	s.want(s.do("POST", "/v1/sessions", victim, "", `{"name":"orch","isolated":true}`), http.StatusOK, "")
	// under review: tainted, then put under review by the owner.
	s.want(s.call(victim, "reviewed", "search_context", fmt.Sprintf(`{"kind":"token","params":{"token":%q}}`, s.usdc)), http.StatusOK, "")
	reviewedID := s.do("GET", "/v1/gate", victim, "reviewed", "").get("session_id")
	s.want(s.do("POST", "/v1/sessions/"+reviewedID+"/level", owner, "", `{"level":"review"}`), http.StatusOK, "")

	const flood = 10_000
	var limited, ok atomic.Int64
	var wg sync.WaitGroup
	names := make(chan string)
	for range 8 {
		wg.Go(func() {
			for name := range names {
				tok := flooder
				if strings.HasSuffix(name, "v") {
					tok = victim // the victim's own client floods too
				}
				r := s.do("GET", "/v1/gate", tok, name, "")
				switch {
				case r.status == http.StatusOK:
					ok.Add(1)
				case r.status == http.StatusTooManyRequests && r.code() == "SESSION_LIMIT":
					limited.Add(1)
				default:
					t.Errorf("flood request: %d %s", r.status, r.body)
				}
			}
		})
	}
	for i := range flood {
		suffix := "f"
		if i%2 == 0 {
			suffix = "v"
		}
		names <- fmt.Sprintf("flood-%d-%s", i, suffix)
	}
	close(names)
	wg.Wait()
	if limited.Load() < flood-200 {
		t.Errorf("%d of %d fresh names were refused, %d served: want all past each principal's 100", limited.Load(), flood, ok.Load())
	}

	// The victim's sessions are as they were.
	sessions := map[string]string{}
	var list struct {
		Sessions []struct {
			SessionID string  `json:"session_id"`
			Name      *string `json:"name"`
			Taint     string  `json:"taint"`
			Isolated  bool    `json:"isolated"`
		}
	}
	json.Unmarshal(s.do("GET", "/v1/sessions?limit=1000", owner, "", "").body, &list)
	for _, x := range list.Sessions {
		if x.Name != nil && (*x.Name == "tainted" || *x.Name == "orch" || *x.Name == "reviewed") {
			sessions[*x.Name] = fmt.Sprintf("%s isolated=%t", x.Taint, x.Isolated)
		}
	}
	for name, want := range map[string]string{"tainted": "tainted isolated=false", "orch": "clean isolated=true", "reviewed": "review isolated=false"} {
		if sessions[name] != want {
			t.Errorf("after the flood %s is %q, want %q", name, sessions[name], want)
		}
	}
	// And they act on it: the tainted session's transfer to an address
	// nobody vouched for is held; the orchestrator may not read
	// third-party content; the reviewed principal's writes wait, under a
	// name it used before the review or one it never used.
	stranger := "0x" + strings.Repeat("5a", 20)
	transfer := fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":"1000000"}}`, s.usdc, stranger)
	if r := s.call(victim, "tainted", "preview_action", transfer); r.get("quarantine_id") == "" {
		t.Errorf("the tainted session's transfer to a stranger: %d %s, want held", r.status, r.body)
	}
	s.want(s.call(victim, "orch", "search_context", fmt.Sprintf(`{"kind":"token","params":{"token":%q}}`, s.usdc)), http.StatusForbidden, "TAINT_ISOLATION")
	for _, name := range []string{"reviewed", "flood-0-v"} {
		if r := s.call(victim, name, "preview_action", s.swap(1)); r.status == http.StatusOK {
			t.Errorf("a write of the reviewed principal in session %q went ahead: %s", name, r.body)
		}
	}
	// Another principal is not under the victim's review.
	if r := s.call(owner, "", "preview_action", s.swap(1)); r.status != http.StatusOK {
		t.Errorf("the owner's own preview: %s", r.body)
	}
}

// TestAttackRevokedToken: a token revoked by another process on the same
// database (`ward token revoke`) is refused within a second on the HTTP
// API, on an MCP session opened before the revocation, and on event
// streams opened before it; an expiring token likewise once it expires.
func TestAttackRevokedToken(t *testing.T) {
	s := serveFor(t, attackPolicy)
	agent, _ := s.token(auth.Agent, "agent", 0)
	owner, _ := s.token(auth.Owner, "watcher", 0)
	short, _ := s.token(auth.Owner, "short", 3*time.Second)

	// An MCP session opened before: initialize, then its stream.
	mcpPost := func(token, sid, body string) *http.Response {
		req, _ := http.NewRequest("POST", s.base+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if sid != "" {
			req.Header.Set("Mcp-Session-Id", sid)
		}
		resp, err := s.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	open := func(token string) string {
		init := mcpPost(token, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		io.Copy(io.Discard, init.Body)
		init.Body.Close()
		sid := init.Header.Get("Mcp-Session-Id")
		if init.StatusCode != http.StatusOK || sid == "" {
			t.Fatalf("MCP initialize: %d, session %q", init.StatusCode, sid)
		}
		notif := mcpPost(token, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		notif.Body.Close()
		return sid
	}
	callWith := func(token, sid string) int {
		r := mcpPost(token, sid, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"query_state","arguments":{"kind":"gate"}}}`)
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r.StatusCode
	}
	sid, shortSID := open(agent), open(short)
	call := func() int { return callWith(agent, sid) }
	if got := call(); got != http.StatusOK {
		t.Fatalf("an MCP tool call before the revocation: %d", got)
	}
	stream := func(path, token string, headers ...string) chan time.Time {
		req, _ := http.NewRequest("GET", s.base+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Accept", "text/event-stream")
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := (&http.Client{}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		ended := make(chan time.Time, 1)
		go func() {
			defer resp.Body.Close()
			io.Copy(io.Discard, resp.Body)
			ended <- time.Now()
		}()
		return ended
	}
	mcpStream := stream("/mcp", agent, "Mcp-Session-Id", sid)
	events := stream("/v1/events", owner)
	shortEvents := stream("/v1/events", short)
	shortMCPStream := stream("/mcp", short, "Mcp-Session-Id", shortSID)

	// Revoke both by name, from another process's view of the database.
	// Each stream is timed from the start of its own token's revocation
	// (the revocation commits somewhere before the command returns).
	revokedAt := map[string]time.Time{}
	for _, name := range []string{"agent", "watcher"} {
		revokedAt[name] = time.Now()
		if _, errOut, code := run(t, "", "token", "revoke", name, "--data", s.data); code != 0 {
			t.Fatalf("ward token revoke %s: %s", name, errOut)
		}
	}
	revoked := revokedAt["agent"]
	within := func(what string, ch chan time.Time, from time.Time, limit time.Duration) {
		t.Helper()
		select {
		case at := <-ch:
			if d := at.Sub(from); d > limit {
				t.Errorf("%s ended %v after, want within %v", what, d, limit)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s is still open 10 s after", what)
		}
	}
	// A second, the bound; the race detector on a loaded machine
	// gets more.
	limit := time.Second
	if raceEnabled {
		limit = 3 * time.Second
	}
	within("the MCP session's stream", mcpStream, revokedAt["agent"], limit)
	within("the event stream", events, revokedAt["watcher"], limit)
	deadline := revoked.Add(time.Second)
	for time.Now().Before(deadline) && call() == http.StatusOK {
		time.Sleep(50 * time.Millisecond)
	}
	if got := call(); got != http.StatusUnauthorized {
		t.Errorf("an MCP tool call a second after the revocation: %d, want 401", got)
	}
	for _, tok := range []string{agent, owner} {
		if r := s.do("GET", "/v1/gate", tok, "", ""); r.status != http.StatusUnauthorized {
			t.Errorf("the HTTP API a second after the revocation: %d", r.status)
		}
	}
	// The short-lived token: served until it expires, refused from then on,
	// its stream ended.
	p, _ := auth.Find(t.Context(), s.srv.Stack.Store, "short")
	if r := s.do("GET", "/v1/gate", short, "", ""); time.Now().Before(p.Expires) && r.status != http.StatusOK {
		t.Errorf("the short-lived token before its expiry: %d", r.status)
	}
	if got := callWith(short, shortSID); time.Now().Before(p.Expires) && got != http.StatusOK {
		t.Errorf("the short-lived token's MCP session before its expiry: %d", got)
	}
	within("the expiring token's event stream", shortEvents, p.Expires, limit)
	within("the expiring token's MCP stream", shortMCPStream, p.Expires, limit)
	for time.Now().Before(p.Expires) {
		time.Sleep(50 * time.Millisecond)
	}
	if r := s.do("GET", "/v1/gate", short, "", ""); r.status != http.StatusUnauthorized {
		t.Errorf("the expired token: %d, want 401", r.status)
	}
	if got := callWith(short, shortSID); got != http.StatusUnauthorized {
		t.Errorf("the expired token's MCP session: %d, want 401", got)
	}
}

// child is a ward serve in a process of its own (this test binary
// re-executed as ward), to be killed.
type child struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	done chan struct{}
}

func startChild(t *testing.T, data, cfg string) *child {
	t.Helper()
	return startServeIn(t, "", "--data", data, "--config", cfg)
}

// startServeIn starts a ward serve child in the working directory dir (""
// for this one) with the given flags after --addr.
func startServeIn(t *testing.T, dir string, flags ...string) *child {
	t.Helper()
	c, _, stderr := spawnServe(t, dir, nil, flags...)
	if c == nil {
		t.Fatalf("the ward serve child did not start: %s", stderr)
	}
	return c
}

// spawnServe starts a ward serve child in the working directory dir with
// env added to this process's environment and the given flags after
// --addr, and waits for it to serve. When the child exits before it
// serves, c is nil and state and stderr say how it ended.
func spawnServe(t *testing.T, dir string, env []string, flags ...string) (c *child, state *os.ProcessState, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0"}, flags...)...)
	cmd.Env = append(append(os.Environ(), "WARD_TEST_MAIN=1"), env...)
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c = &child{t: t, cmd: cmd, done: make(chan struct{})}
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if after, ok := strings.CutPrefix(sc.Text(), "ward ready on "); ok {
			c.base, _, _ = strings.Cut(after, " ")
			break
		}
	}
	if c.base == "" {
		// stdout closed: the child is gone (killing it again does nothing
		// to its exit status).
		cmd.Process.Kill()
		cmd.Wait()
		return nil, cmd.ProcessState, errb.String()
	}
	go func() {
		io.Copy(io.Discard, stdout)
		cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-c.done
	})
	return c, nil, ""
}

func (c *child) stop(sig os.Signal) {
	c.t.Helper()
	if err := c.cmd.Process.Signal(sig); err != nil {
		c.t.Fatal(err)
	}
	select {
	case <-c.done:
	case <-time.After(20 * time.Second):
		c.t.Fatal("the ward serve child did not stop")
	}
}

// restartPolicy adds tight spending and rate limits: $60 a day, two writes
// an hour.
const restartPolicy = attackPolicy + `
[hooks.spending]
per_tick_usd = 1000
per_session_usd = 1000
daily_usd = 60

[hooks.rate]
max_writes = 2
window = "1h"
`

// TestAttackRestart: everything a decision depends on is on disk the
// moment it is acknowledged. A ward serve process is killed (SIGKILL, and
// in a second run stopped cleanly); the next one holds the same taint,
// review, spend, holds, write slots, held calls, phase and halt.
func TestAttackRestart(t *testing.T) {
	for _, stop := range []struct {
		name string
		sig  os.Signal
	}{{"kill -9", syscall.SIGKILL}, {"SIGTERM", syscall.SIGTERM}} {
		t.Run(stop.name, func(t *testing.T) { restartScenario(t, stop.sig) })
	}
}

func restartScenario(t *testing.T, sig os.Signal) {
	data := t.TempDir()
	cfg := filepath.Join(data, "ward.toml")
	if err := os.WriteFile(cfg, []byte(restartPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	tok := func(role, name string) string {
		out, errOut, code := run(t, "", "token", "create", "--role", role, "--name", name, "--data", data)
		if code != 0 {
			t.Fatalf("token create: %s", errOut)
		}
		return strings.TrimSpace(out)
	}
	owner, agent, agent2 := tok("owner", "owner"), tok("agent", "agent"), tok("agent", "agent2")

	c := startChild(t, data, cfg)
	s := &served{t: t, base: c.base, client: &http.Client{Timeout: time.Minute}}
	g := s.do("GET", "/v1/gate", owner, "", "")
	s.want(g, http.StatusOK, "")
	// The dev chain's addresses are the same at every start (its seed).
	var dc struct{ USDC, WETH string }
	if err := json.Unmarshal([]byte(devContracts(t, s, agent)), &dc); err != nil {
		t.Fatal(err)
	}
	s.usdc, s.weth = dc.USDC, dc.WETH

	s.want(s.do("POST", "/v1/gate/phase", owner, "", `{"phase":"stable"}`), http.StatusOK, "")
	// Taint: the agent's session "work" reads third-party content.
	s.want(s.call(agent, "work", "search_context", fmt.Sprintf(`{"kind":"token","params":{"token":%q}}`, s.usdc)), http.StatusOK, "")
	// Review: agent2's session "rev" is put under review by the owner.
	s.want(s.call(agent2, "rev", "search_context", fmt.Sprintf(`{"kind":"token","params":{"token":%q}}`, s.usdc)), http.StatusOK, "")
	rev := s.do("GET", "/v1/gate", agent2, "rev", "").get("session_id")
	s.want(s.do("POST", "/v1/sessions/"+rev+"/level", owner, "", `{"level":"review"}`), http.StatusOK, "")
	// Spend: $50 executed; a hold of $5 (a permit not yet committed).
	pv := s.call(agent, "", "preview_action", s.swap(50))
	s.want(pv, http.StatusOK, "")
	s.want(s.call(agent, "", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, pv.get("permit_id"))), http.StatusOK, "")
	hold := s.call(agent, "", "preview_action", s.swap(5))
	s.want(hold, http.StatusOK, "")
	// A held call.
	held := s.call(agent, "", "preview_action", s.swap(200))
	s.want(held, http.StatusForbidden, "SWAP_REVIEW")
	item := held.get("quarantine_id")
	// The halt, last: the agent stops every write.
	s.want(s.do("POST", "/v1/gate/halt", agent, "", `{"reason":"looks wrong"}`), http.StatusOK, "")

	c.stop(sig)
	c = startChild(t, data, cfg)
	s.base = c.base

	var gate struct {
		Phase      string `json:"phase"`
		Halted     bool   `json:"halted"`
		HaltReason string `json:"halt_reason"`
		Spend      []struct {
			Window     string `json:"window"`
			SpentCents int64  `json:"spent_cents"`
			HeldCents  int64  `json:"held_cents"`
		} `json:"spend"`
	}
	json.Unmarshal(s.do("GET", "/v1/gate", agent, "", "").body, &gate)
	if gate.Phase != "stable" || !gate.Halted || gate.HaltReason != "looks wrong" {
		t.Errorf("after the restart: phase %q, halted %v (%q); want stable, halted", gate.Phase, gate.Halted, gate.HaltReason)
	}
	for _, w := range gate.Spend {
		if w.Window == "daily" && (w.SpentCents < 4900 || w.HeldCents < 490) {
			t.Errorf("after the restart the day has spent %d and holds %d cents, want the $50 and the $5", w.SpentCents, w.HeldCents)
		}
	}
	s.want(s.call(agent, "", "preview_action", s.swap(1)), http.StatusLocked, "EMERGENCY_HALT")
	s.want(s.do("POST", "/v1/gate/resume", owner, "", `{}`), http.StatusOK, "")

	// The day's $50 and the $5 hold still count: $6 more does not fit $60.
	s.want(s.call(agent, "", "preview_action", s.swap(6)), http.StatusForbidden, "SPEND_DAILY_LIMIT_EXCEEDED")
	// One write executed and one held fill the two an hour.
	s.want(s.call(agent, "", "preview_action", s.swap(1)), http.StatusTooManyRequests, "WRITE_RATE_LIMIT_EXCEEDED")
	// The hold is the permit's: its commit goes through, once.
	s.want(s.call(agent, "", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, hold.get("permit_id"))), http.StatusOK, "")
	s.want(s.call(agent, "", "commit_action", fmt.Sprintf(`{"permit_id":%q}`, hold.get("permit_id"))), http.StatusConflict, "PERMIT_ALREADY_CONSUMED")
	// Taint: the tainted session's transfer to an address nobody vouched
	// for is held, where a fresh session's is not.
	stranger := "0x" + strings.Repeat("5a", 20)
	transfer := fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":"1000000"}}`, s.usdc, stranger)
	if r := s.call(agent, "work", "preview_action", transfer); r.get("quarantine_id") == "" {
		t.Errorf("after the restart the tainted session's transfer: %d %s, want held", r.status, r.body)
	}
	// Review: agent2's writes wait, in the reviewed session and any other.
	for _, name := range []string{"rev", "another"} {
		if r := s.call(agent2, name, "preview_action", s.swap(1)); r.status == http.StatusOK {
			t.Errorf("after the restart agent2's write in %q went ahead: %s", name, r.body)
		}
	}
	// The held call waits for the owner, and is the agent's to read.
	r := s.call(agent, "", "query_state", fmt.Sprintf(`{"kind":"quarantine","params":{"id":%q}}`, item))
	if r.status != http.StatusOK || r.get("status") != "pending" {
		t.Errorf("after the restart the held call reads %d %s", r.status, r.body)
	}
	var queue struct {
		Items []struct{ ID string } `json:"items"`
	}
	json.Unmarshal(s.do("GET", "/v1/quarantine", owner, "", "").body, &queue)
	if len(queue.Items) == 0 || queue.Items[0].ID != item {
		t.Errorf("after the restart the owner's queue is %+v, want item %s first (the calls held since follow)", queue.Items, item)
	}
	c.stop(syscall.SIGTERM)
}

// devContracts returns the dev chain's USDC and WETH as JSON, read from
// the catalogue through the gate (a read the agent may make).
func devContracts(t *testing.T, s *served, token string) string {
	t.Helper()
	r := s.call(token, "setup", "query_state", `{"kind":"balances","params":{}}`)
	if r.status != http.StatusOK {
		t.Fatalf("balances: %s", r.body)
	}
	var out struct {
		Data struct {
			Balances []struct {
				Symbol string `json:"symbol"`
				Token  string `json:"token"`
			} `json:"balances"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, b := range out.Data.Balances {
		m[b.Symbol] = b.Token
	}
	if m["USDC"] == "" || m["WETH"] == "" {
		t.Fatalf("no USDC or WETH among the balances: %s", r.body)
	}
	b, _ := json.Marshal(map[string]string{"USDC": m["USDC"], "WETH": m["WETH"]})
	return string(b)
}
