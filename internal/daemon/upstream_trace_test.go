package daemon_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/telemetry/telemetrytest"
)

// TestUpstreamCallIsTraced: a call to an upstream MCP server is a
// ward.upstream.call span under the call's execution, naming the server and
// its tool, whose trace the upstream continues (_meta traceparent); a held write is a hold; and neither the arguments nor the
// upstream's result are exported.
func TestUpstreamCallIsTraced(t *testing.T) {
	col := telemetrytest.New(t)
	s := openStackWith(t, t.TempDir(), "", telemetry.Config{Endpoint: col.URL})
	agent := s.session(t, "agent-1", policy.Agent)
	const key, value = "canary-key-5f1d", "canary-value-8c2e"
	// The test server answers the note "_traceparent" with the trace
	// context its call carried in _meta.
	out, rf := callFacade(t, s, s.session(t, "creator-1", policy.Creator), "query_state", `{"kind":"get_note","venue":"mcp_notes","params":{"key":"_traceparent"}}`)
	if rf != nil {
		t.Fatalf("get_note: %v", rf)
	}
	var seen struct {
		Data struct {
			Structured struct{ Value string } `json:"structured_content"`
		} `json:"data"`
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatal(err)
	}
	if _, rf := callFacade(t, s, agent, "query_state", `{"kind":"get_note","venue":"mcp_notes","params":{"key":"`+key+`"}}`); rf != nil {
		t.Fatalf("get_note: %v", rf)
	}
	// Having read an upstream's output, the session's write of a value
	// from it is held for the owner.
	_, rf = callFacade(t, s, agent, "preview_action", `{"action_type":"set_note","venue":"mcp_notes","params":{"key":"`+key+`","value":"`+value+`"}}`)
	if rf == nil || rf.Quarantine == "" {
		t.Fatalf("set_note preview after a read: %v, want held", rf)
	}
	if err := s.Close(); err != nil { // flushes the spans
		t.Fatal(err)
	}
	spans := col.Spans(t)
	calls := spans.Named("ward.upstream.call")
	if len(calls) != 2 {
		t.Fatalf("%d ward.upstream.call spans, want 2 (the reads; a preview calls nothing)", len(calls))
	}
	// The upstream continued the trace of its call's span.
	var continued bool
	for _, c := range calls {
		continued = continued || seen.Data.Structured.Value == "00-"+hex.EncodeToString(c.TraceId)+"-"+hex.EncodeToString(c.SpanId)+"-01"
	}
	if !continued {
		t.Errorf("the upstream saw traceparent %q, not one of its calls' spans", seen.Data.Structured.Value)
	}
	c := calls[0]
	if got := telemetrytest.Attr(c, "ward.upstream.server"); got != "notes" {
		t.Errorf("server %q, want notes", got)
	}
	if got := telemetrytest.Attr(c, "ward.upstream.tool"); got != "get_note" {
		t.Errorf("tool %q, want get_note", got)
	}
	exec := spans.Parent(c)
	if exec == nil || exec.Name != "ward.execute" || spans.Parent(exec) == nil || spans.Parent(exec).Name != "ward.read" {
		t.Errorf("the upstream call is not under ward.execute under ward.read: %v", exec)
	}
	if read := spans.Parent(exec); read != nil && telemetrytest.Attr(read, "ward.tool.name") != "mcp_notes_get_note" {
		t.Errorf("read tool %q", telemetrytest.Attr(read, "ward.tool.name"))
	}
	previews := spans.Named("ward.preview")
	if len(previews) != 1 || telemetrytest.Attr(previews[0], "ward.decision") != "hold" || telemetrytest.Attr(previews[0], "ward.reason") != string(rf.Code) {
		t.Errorf("the held preview's span: %v", previews)
	}
	for _, b := range col.Raw() {
		for _, v := range []string{key, value} {
			if bytes.Contains(b, []byte(v)) {
				t.Errorf("an export carries the argument %q", v)
			}
		}
	}
}
