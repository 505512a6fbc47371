package daemon

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/telemetry/telemetrytest"
)

var attr = telemetrytest.Attr

// serveTraced runs ward serve with every surface and [telemetry] sending
// to endpoint.
func serveTraced(t *testing.T, endpoint string) *Started {
	t.Helper()
	f, err := config.Parse("ward.toml", []byte(fmt.Sprintf("[telemetry]\notlp_endpoint = %q\n", endpoint)))
	if err != nil {
		t.Fatal(err)
	}
	st, err := Start(context.Background(), ServeConfig{Addr: "127.0.0.1:0", Data: t.TempDir(), File: f, Mount: MountSurfaces})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// apiCall posts a facade call as the agent token tok in client session
// name, with the extra headers h.
func apiCall(t *testing.T, base, tok, session, facade, body string, h http.Header) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/v1/call/"+facade, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("X-Ward-Session", session)
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

// TestTracesReachACollector: tool calls through the API export their
// spans to the configured OTLP endpoint, flushed when ward stops: a span
// per call with the policy and each hook under it, the decision, reason,
// permit and ward's session id on it, a client's traceparent continued,
// and nothing of the arguments anywhere in what was sent.
func TestTracesReachACollector(t *testing.T) {
	col := telemetrytest.New(t)
	st := serveTraced(t, col.URL)
	stopped := false
	defer func() {
		if !stopped {
			st.Stop()
		}
	}()
	tok, _, err := auth.Create(t.Context(), st.Stack.Store, auth.Spec{Role: auth.Agent, Name: "agent"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	usdc := st.Stack.Dev.Contracts().USDC.Hex()
	// Recognisable values an exported span must never carry: the
	// recipient, the amount, and a secret in a field the schema refuses.
	const (
		recipient = "0x5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2"
		amount    = "4242424"
		secret    = "sk-live-TELEMETRY-CANARY-9f8e7d"
		client    = "client-chosen-name"
	)
	traceID, parentID := "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	h := http.Header{"Traceparent": {"00-" + traceID + "-" + parentID + "-01"}}
	transfer := fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":%q}}`, usdc, recipient, amount)
	code, prev := apiCall(t, st.URL, tok, client, "preview_action", transfer, h)
	permit, _ := prev["permit_id"].(string)
	if code != http.StatusOK || permit == "" {
		t.Fatalf("preview: %d %v", code, prev)
	}
	if code, out := apiCall(t, st.URL, tok, client, "commit_action", fmt.Sprintf(`{"permit_id":%q}`, permit), nil); code != http.StatusOK {
		t.Fatalf("commit: %d %v", code, out)
	}
	bad := fmt.Sprintf(`{"action_type":"transfer","venue":"erc20","params":{"token":%q,"to":%q,"amount":%q,"memo":%q}}`, usdc, recipient, amount, secret)
	if code, out := apiCall(t, st.URL, tok, client, "preview_action", bad, nil); code == http.StatusOK {
		t.Fatalf("a transfer with an unknown parameter was previewed: %v", out)
	}
	// A tool name the agent makes up is its input too.
	apiCall(t, st.URL, tok, client, "preview_action", fmt.Sprintf(`{"action_type":%q,"params":{}}`, secret), nil)
	apiCall(t, st.URL, tok, client, "commit_action", fmt.Sprintf(`{"permit_id":%q}`, secret), nil)
	if code, out := apiCall(t, st.URL, tok, client, "query_state", fmt.Sprintf(`{"kind":"balance","params":{"token":%q}}`, usdc), nil); code != http.StatusOK {
		t.Logf("query_state: %d %v", code, out)
	}

	// No wait for the batch: stopping flushes it.
	if err := st.Stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	stopped = true
	got, raw := col.Spans(t), col.Raw()
	spans := got.All
	byName := map[string][]*tracepb.Span{}
	for _, s := range spans {
		byName[s.Name] = append(byName[s.Name], s)
	}
	for _, name := range []string{"ward.preview", "ward.commit", "ward.read", "ward.policy", "ward.plan", "ward.admit", "ward.execute",
		"ward.hook.phase_gate", "ward.hook.allowlist", "ward.hook.spending_limiter", "ward.hook.rate_limiter", "ward.hook.simulation", "ward.hook.hallucination"} {
		if len(byName[name]) == 0 {
			t.Errorf("no %s span among %d", name, len(spans))
		}
	}
	parent := got.Parent

	// The allowed preview: the client's trace, ward's session, the permit.
	var preview *tracepb.Span
	for _, s := range byName["ward.preview"] {
		if attr(s, "ward.permit.id") == permit {
			preview = s
		}
	}
	if preview == nil {
		t.Fatalf("no ward.preview span carries permit %s", permit)
	}
	if got := hex.EncodeToString(preview.TraceId); got != traceID {
		t.Errorf("preview trace %s, want the client's %s", got, traceID)
	}
	if got := hex.EncodeToString(preview.ParentSpanId); got != parentID {
		t.Errorf("preview parent %s, want the client's span %s", got, parentID)
	}
	for key, want := range map[string]string{"ward.decision": "allow", "ward.tool.name": "erc20_transfer_token", "ward.permit.risk": "standard"} {
		if got := attr(preview, key); got != want {
			t.Errorf("preview %s = %q, want %q", key, got, want)
		}
	}
	sid := attr(preview, "ward.session.id")
	if sid == "" || sid == client {
		t.Errorf("preview session %q: want ward's session id, not the client's name %q", sid, client)
	}
	// The policy and every hook of the chain are its children.
	kids := map[string]*tracepb.Span{}
	for _, s := range spans {
		if p := parent(s); p == preview {
			kids[s.Name] = s
		}
	}
	for _, name := range []string{"ward.policy", "ward.plan", "ward.hook.phase_gate", "ward.hook.allowlist", "ward.hook.spending_limiter",
		"ward.hook.rate_limiter", "ward.hook.simulation", "ward.hook.hallucination", "ward.hook.result_filter"} {
		k := kids[name]
		if k == nil {
			t.Errorf("no %s span under the preview (children: %v)", name, keys(kids))
			continue
		}
		if name != "ward.plan" && attr(k, "ward.decision") != "allow" {
			t.Errorf("%s decision %q, want allow", name, attr(k, "ward.decision"))
		}
	}

	// The commit: same permit and session, its execution under it.
	var commit *tracepb.Span
	for _, s := range byName["ward.commit"] {
		if attr(s, "ward.permit.id") == permit {
			commit = s
		}
	}
	if commit == nil {
		t.Fatalf("no ward.commit span carries permit %s", permit)
	}
	if attr(commit, "ward.decision") != "allow" || attr(commit, "ward.session.id") != sid || attr(commit, "ward.tool.name") != "erc20_transfer_token" {
		t.Errorf("commit attributes %v", commit.Attributes)
	}
	var executed bool
	for _, s := range byName["ward.execute"] {
		executed = executed || parent(s) == commit
	}
	if !executed {
		t.Error("no ward.execute span under the commit")
	}

	// The refusals: a deny with its reason and stage; no permit for a
	// made-up id (the agent's string is not a permit's).
	var schemaDeny, unknownPermit bool
	for _, s := range byName["ward.preview"] {
		if attr(s, "ward.reason") == "SCHEMA_VIOLATION" {
			schemaDeny = attr(s, "ward.decision") == "deny" && attr(s, "ward.stage") == "schema" && attr(s, "ward.tool.name") == "erc20_transfer_token"
		}
	}
	for _, s := range byName["ward.commit"] {
		if attr(s, "ward.reason") == "PERMIT_NOT_FOUND" {
			unknownPermit = attr(s, "ward.decision") == "deny" && attr(s, "ward.permit.id") == ""
		}
	}
	if !schemaDeny || !unknownPermit {
		t.Errorf("refusal spans: schema deny %v, unknown permit %v", schemaDeny, unknownPermit)
	}

	// Nothing of the arguments left the process, in any encoding.
	for _, v := range []string{secret, recipient[2:], common.HexToAddress(recipient).Hex()[2:], amount} {
		for _, b := range raw {
			if bytes.Contains(b, []byte(v)) {
				t.Errorf("an export carries %q", v)
				break
			}
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestDeadCollectorCostsCallsNothing: a collector that takes connections
// and never answers neither slows nor fails a call, and ward still stops
// within its flush bound.
func TestDeadCollectorCostsCallsNothing(t *testing.T) {
	release := make(chan struct{})
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hung.Close()
	defer close(release)
	st := serveTraced(t, hung.URL)
	tok, _, err := auth.Create(t.Context(), st.Stack.Store, auth.Spec{Role: auth.Agent, Name: "agent"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	usdc := st.Stack.Dev.Contracts().USDC.Hex()
	// Enough calls (three spans each) to fill a batch of 512, whose export
	// hangs for its timeout (10 s): a call that waited for it would show.
	start := time.Now()
	for i := range 250 {
		code, out := apiCall(t, st.URL, tok, "", "query_state", fmt.Sprintf(`{"kind":"balance","params":{"token":%q}}`, usdc), nil)
		if code != http.StatusOK {
			t.Fatalf("call %d with a dead collector: %d %v", i, code, out)
		}
	}
	calls := time.Since(start)
	start = time.Now()
	if err := st.Stop(); err != nil {
		t.Errorf("serve: %v (spans a collector did not take must not fail the shutdown)", err)
	}
	stop := time.Since(start)
	t.Logf("250 calls in %v, stop in %v", calls, stop)
	if calls > 8*time.Second {
		t.Errorf("250 calls took %v with a dead collector: export is on the call's path", calls)
	}
	if stop > 4*time.Second+TelemetryFlush+5*time.Second {
		t.Errorf("stop took %v with a dead collector", stop)
	}
}

// headers is an MCP client's HTTP transport: a bearer token and, when set,
// a traceparent on every request from then on.
type headers struct {
	token       string
	traceparent atomic.Pointer[string]
}

func (h *headers) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+h.token)
	if tp := h.traceparent.Load(); tp != nil && *tp != "" {
		r.Header.Set("traceparent", *tp)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPTraceContext: an MCP client's trace continues in ward's spans,
// from the HTTP request's traceparent header or, without one, from the
// tools/call's _meta; a malformed one starts a trace of ward's own.
func TestMCPTraceContext(t *testing.T) {
	col := telemetrytest.New(t)
	st := serveTraced(t, col.URL)
	stopped := false
	defer func() {
		if !stopped {
			st.Stop()
		}
	}()
	tok, _, err := auth.Create(t.Context(), st.Stack.Store, auth.Spec{Role: auth.Agent, Name: "agent"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	const (
		headerTrace, headerSpan = "11111111111111111111111111111111", "1111111111111111"
		metaTrace, metaSpan     = "22222222222222222222222222222222", "2222222222222222"
		openTrace               = "33333333333333333333333333333333"
	)
	// Each session opens under a trace of its own, which its calls must
	// not inherit: a call continues only the trace it carries.
	call := func(traceparent string, meta sdk.Meta) {
		t.Helper()
		h := &headers{token: tok}
		opening := "00-" + openTrace + "-" + headerSpan + "-01"
		h.traceparent.Store(&opening)
		tr := &sdk.StreamableClientTransport{Endpoint: st.URL + "/mcp", HTTPClient: &http.Client{Transport: h}, MaxRetries: -1}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "trace-test", Version: "1"}, nil).Connect(t.Context(), tr, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		h.traceparent.Store(&traceparent)
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "query_state", Meta: meta,
			Arguments: map[string]any{"kind": "balance", "params": map[string]any{"token": st.Stack.Dev.Contracts().USDC.Hex()}}})
		if err != nil || res.IsError {
			t.Fatalf("query_state over MCP: %v %v", err, res)
		}
	}
	call("00-"+headerTrace+"-"+headerSpan+"-01", nil)
	call("", sdk.Meta{"traceparent": "00-" + metaTrace + "-" + metaSpan + "-01"})
	call("00-not-a-trace-01", nil)
	if err := st.Stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	stopped = true
	spans := col.Spans(t).All
	parents := map[string]string{} // trace id → parent span id of its ward.read
	var reads int
	for _, s := range spans {
		if s.Name == "ward.read" {
			reads++
			parents[hex.EncodeToString(s.TraceId)] = hex.EncodeToString(s.ParentSpanId)
		}
	}
	if reads != 3 {
		t.Errorf("%d ward.read spans, want 3", reads)
	}
	if got, ok := parents[headerTrace]; !ok || got != headerSpan {
		t.Errorf("the header's trace: parent %q (found %v), want %s", got, ok, headerSpan)
	}
	if got, ok := parents[metaTrace]; !ok || got != metaSpan {
		t.Errorf("the _meta trace: parent %q (found %v), want %s", got, ok, metaSpan)
	}
	if _, ok := parents[openTrace]; ok {
		t.Error("a call continued the trace of the request that opened its session")
	}
}
