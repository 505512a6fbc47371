package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/daemon"
	wardfacade "github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/upstream"
	"github.com/wardhq/ward/internal/upstream/upstreamtest"
)

// notesServer is the test binary as the stdio upstream name, serving
// upstreamtest's notes server (TestMain).
func notesServer(tb testing.TB, name, variant string) upstream.Server {
	tb.Helper()
	cmd, env := upstreamtest.Command(tb, variant)
	return upstream.Server{Name: name, Command: cmd, Env: env, TrustAnnotations: true}
}

// stack is a running ward (on the embedded dev chain) fronting the test
// binary as the stdio upstream "notes", with the capabilities its upstream
// writes received.
type stack struct {
	*daemon.Stack
	set *upstream.Set

	mu   sync.Mutex
	caps []*capability.Capability
}

func openStack(t testing.TB, dir, variant string) *stack {
	t.Helper()
	return openStackWith(t, dir, variant, telemetry.Config{})
}

// openStackWith is openStack exporting its traces as tel says.
func openStackWith(t testing.TB, dir, variant string, tel telemetry.Config) *stack {
	t.Helper()
	snap, err := rules.Compile(rules.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := &stack{}
	st, err := daemon.Open(t.Context(), daemon.Config{
		DB: daemon.DefaultDB(dir), Policy: snap, DevSeed: "ward-upstream-test", AnnounceDelay: -1, Telemetry: tel,
		Hooks: hook.Config{
			Spending: hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			Rate:     hook.RateConfig{Max: 1 << 20, Window: time.Hour},
		},
		Extra: func(ctx context.Context, st *daemon.Stack) ([]registry.Tool, func() error, error) {
			srv := notesServer(t, "notes", variant)
			srv.Tools = map[string]upstream.Override{"wipe_notes": {Risk: tool.Forbidden}}
			set, err := upstream.Open(ctx, upstream.Config{Servers: []upstream.Server{srv}, State: st.Store, Actions: st.Store,
				ChainID: st.Provider.ChainID(), From: tool.Address(st.Wallet.Address())})
			if err != nil {
				return nil, nil, err
			}
			s.set = set
			tools := set.Tools()
			for i := range tools {
				if w := tools[i].Write; w != nil {
					tools[i].Write = func(ctx context.Context, in *registry.Input, p *tool.Plan, c *capability.Capability) (*tool.Result, error) {
						s.mu.Lock()
						s.caps = append(s.caps, c)
						s.mu.Unlock()
						return w(ctx, in, p, c)
					}
				}
			}
			return tools, set.Close, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	s.Stack = st
	return s
}

func (s *stack) session(t testing.TB, id string, src policy.InputSource) *gate.Session {
	t.Helper()
	sess, err := s.Session(t.Context(), id, src, "active")
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func callFacade(t testing.TB, s *stack, sess *gate.Session, name, args string) (json.RawMessage, *gate.Refusal) {
	t.Helper()
	out, err := s.Facade.Call(t.Context(), wardfacade.NewSession(sess), name, json.RawMessage(args))
	if err == nil {
		return out, nil
	}
	var rf *gate.Refusal
	if !errors.As(err, &rf) {
		t.Fatalf("%s: %v is not a refusal", name, err)
	}
	return nil, rf
}

// noteValue reads the note key through query_state.
func noteValue(t *testing.T, s *stack, sess *gate.Session, key string) (string, bool) {
	t.Helper()
	out, rf := callFacade(t, s, sess, "query_state", `{"kind":"get_note","venue":"mcp_notes","params":{"key":"`+key+`"}}`)
	if rf != nil {
		t.Fatalf("get_note refused: %v (%s)", rf, rf.Detail)
	}
	var res struct {
		Data struct {
			Structured struct {
				Value string `json:"value"`
				Found bool   `json:"found"`
			} `json:"structured_content"`
		} `json:"data"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	return res.Data.Structured.Value, res.Data.Structured.Found
}

// TestGateFrontsUpstream drives a real stdio MCP server through ward's
// gate: reads through query_state, writes through preview_action and
// commit_action, the policy, the audit trail and the capability, then
// pinning across restarts.
func TestGateFrontsUpstream(t *testing.T) {
	dir := t.TempDir()
	s := openStack(t, dir, "")
	agent := s.session(t, "agent-1", policy.Agent)
	// The notes server is third-party content by default: reading it
	// taints the session, so the owner names the note the agent writes.
	if _, err := s.Tools.SetDirective(t.Context(), agent, "keep the greeting note up to date", true); err != nil {
		t.Fatal(err)
	}

	if _, found := noteValue(t, s, agent, "greeting"); found {
		t.Fatal("a note exists before any write")
	}

	// A write: preview (policy, hooks, permit), then commit (capability).
	out, rf := callFacade(t, s, agent, "preview_action", `{"action_type":"set_note","venue":"mcp_notes","params":{"key":"greeting","value":"hello"}}`)
	if rf != nil {
		t.Fatalf("preview refused: %v (%s)", rf, rf.Detail)
	}
	var pv gate.PermitView
	if err := json.Unmarshal(out, &pv); err != nil {
		t.Fatal(err)
	}
	if pv.Tool != "mcp_notes_set_note" || pv.ValueCents != 0 || len(pv.Plan.Txs) != 0 || len(pv.Hooks) != 7 || pv.RiskTier != tool.High {
		t.Errorf("permit %+v: want set_note's, no value, no transactions, all 7 hooks run, risk high (layer 3)", pv)
	}
	if len(s.caps) != 0 {
		t.Fatal("a capability was minted at preview")
	}
	out, rf = callFacade(t, s, agent, "commit_action", `{"permit_id":"`+pv.PermitID+`"}`)
	if rf != nil {
		t.Fatalf("commit refused: %v (%s)", rf, rf.Detail)
	}
	if !strings.Contains(string(out), "stored greeting") || !strings.Contains(string(out), "upstream_report") {
		t.Errorf("commit result %s", out)
	}
	if len(s.caps) != 1 || !s.caps[0].Used() {
		t.Errorf("capabilities %v: want one, consumed by the handler", s.caps)
	}
	if _, rf = callFacade(t, s, agent, "commit_action", `{"permit_id":"`+pv.PermitID+`"}`); rf == nil || rf.Code != reason.PermitConsumed {
		t.Errorf("second commit: %v, want %s", rf, reason.PermitConsumed)
	}
	if v, found := noteValue(t, s, agent, "greeting"); !found || v != "hello" {
		t.Errorf("after the commit the upstream has %q (found %t), want hello", v, found)
	}
	calls, err := s.Store.Actions(t.Context(), store.ActionFilter{Kind: store.ActionToolCall, Tool: "mcp_notes_set_note"})
	if err != nil || len(calls) != 1 || calls[0].Status != store.StatusExecuted || calls[0].Verified {
		t.Errorf("tool_call records %+v, %v: want one executed, not verified (the upstream's own report)", calls, err)
	}

	// The policy: a peer may not call a dangerous tool; a forbidden one is
	// refused to everyone.
	peer := s.session(t, "peer-1", policy.Peer)
	if _, rf = callFacade(t, s, peer, "preview_action", `{"action_type":"set_note","venue":"mcp_notes","params":{"key":"k","value":"v"}}`); rf == nil ||
		rf.Code != reason.AuthorityInsufficient || rf.Stage != "policy" {
		t.Errorf("peer preview: %v, want %s at the policy", rf, reason.AuthorityInsufficient)
	}
	if _, rf = callFacade(t, s, agent, "preview_action", `{"action_type":"wipe_notes","venue":"mcp_notes","params":{}}`); rf == nil || rf.Code != reason.ForbiddenTool {
		t.Errorf("forbidden wipe: %v, want %s", rf, reason.ForbiddenTool)
	}
	// Schema: the upstream's input schema is enforced before anything.
	if _, rf = callFacade(t, s, agent, "query_state", `{"kind":"get_note","venue":"mcp_notes","params":{"key":""}}`); rf == nil || rf.Code != reason.SchemaInvalid {
		t.Errorf("empty key: %v, want %s", rf, reason.SchemaInvalid)
	}
	// An upstream error is a refusal.
	if _, rf = callFacade(t, s, agent, "search_context", `{"kind":"fail_always","venue":"mcp_notes"}`); rf == nil || rf.Code != reason.ExecutionFailed ||
		!strings.Contains(rf.Message, "the backend is down") {
		t.Errorf("failing upstream: %v, want %s with its text", rf, reason.ExecutionFailed)
	}
	// A write cannot be called as a read.
	if _, rf = callFacade(t, s, agent, "query_state", `{"kind":"set_note","venue":"mcp_notes","params":{"key":"k","value":"v"}}`); rf == nil {
		t.Error("a write ran through query_state")
	}

	// The audit trail has every decision. A read's decision is queued
	// without waiting for its commit; a durable write commits after
	// everything queued before it, so it is the barrier before reading.
	if err := s.Store.SetPendingTools(t.Context(), "test_barrier", nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tool     string
		decision store.Verdict
		reason   string
		n        int
	}{
		{"mcp_notes_get_note", store.VerdictAllow, "", 2}, // the empty key failed its schema before the policy
		{"mcp_notes_fail_always", store.VerdictAllow, "", 1},
		{"mcp_notes_set_note", store.VerdictAllow, "", 1},
		{"mcp_notes_set_note", store.VerdictDeny, string(reason.AuthorityInsufficient), 1},
		{"mcp_notes_wipe_notes", store.VerdictDeny, string(reason.ForbiddenTool), 1},
	} {
		recs, err := s.Store.QueryDecisions(t.Context(), store.DecisionFilter{Tool: tc.tool, Decision: tc.decision, Reason: tc.reason})
		if err != nil || len(recs) != tc.n {
			t.Errorf("%s %s %s: %d decision rows (%v), want %d", tc.tool, tc.decision, tc.reason, len(recs), err, tc.n)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// A changed description disables the tool on the next start.
	s = openStack(t, dir, "v2")
	if _, ok := s.Registry.Get("mcp_notes_get_note"); ok {
		t.Error("get_note registered although its definition changed")
	}
	if _, ok := s.Registry.Get("mcp_notes_set_note"); !ok {
		t.Error("set_note not registered")
	}
	agent = s.session(t, "agent-2", policy.Agent)
	if _, rf = callFacade(t, s, agent, "query_state", `{"kind":"get_note","venue":"mcp_notes","params":{"key":"greeting"}}`); rf == nil || rf.Code != reason.ToolUnavailable {
		t.Errorf("changed get_note: %v, want %s", rf, reason.ToolUnavailable)
	}
	if recs, err := s.Store.Actions(t.Context(), store.ActionFilter{Kind: upstream.KindChanged}); err != nil || len(recs) != 1 || recs[0].Tool != "mcp_notes_get_note" {
		t.Errorf("change records %+v, %v", recs, err)
	}
	// The owner approves (ward upstream approve does this); the tool is
	// back after a restart.
	if _, err := upstream.Approve(t.Context(), s.Store, s.Store, "notes", "get_note", "owner", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openStack(t, dir, "v2")
	defer s.Close()
	agent = s.session(t, "agent-3", policy.Agent)
	// The principal read third-party notes in agent-1: a fresh session of
	// it is decided as tainted too, so the owner names the note again.
	if _, err := s.Tools.SetDirective(t.Context(), agent, "read the greeting note", true); err != nil {
		t.Fatal(err)
	}
	if _, found := noteValue(t, s, agent, "greeting"); found {
		t.Error("a fresh upstream process has the old note")
	}
	if d, ok := s.Registry.Get("mcp_notes_get_note"); !ok || !strings.Contains(d.Def.Description, "Always include") {
		t.Error("the approved definition is not registered")
	}
}
