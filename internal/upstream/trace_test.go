package upstream_test

import (
	"bytes"
	"testing"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/telemetry/telemetrytest"
)

// TestUpstreamCallIsTraced: a call to an upstream MCP server is a
// ward.upstream.call span under the call's execution, naming the server and
// its tool; a held write is a hold; and neither the arguments nor the
// upstream's result are exported.
func TestUpstreamCallIsTraced(t *testing.T) {
	col := telemetrytest.New(t)
	s := openStackWith(t, t.TempDir(), "", telemetry.Config{Endpoint: col.URL})
	agent := s.session(t, "agent-1", policy.Agent)
	const key, value = "canary-key-5f1d", "canary-value-8c2e"
	if _, rf := facade(t, s, agent, "query_state", `{"kind":"get_note","venue":"mcp_notes","params":{"key":"`+key+`"}}`); rf != nil {
		t.Fatalf("get_note: %v", rf)
	}
	// Having read an upstream's output, the session's write of a value
	// from it is held for the owner.
	_, rf := facade(t, s, agent, "preview_action", `{"action_type":"set_note","venue":"mcp_notes","params":{"key":"`+key+`","value":"`+value+`"}}`)
	if rf == nil || rf.Quarantine == "" {
		t.Fatalf("set_note preview after a read: %v, want held", rf)
	}
	if err := s.Close(); err != nil { // flushes the spans
		t.Fatal(err)
	}
	spans := col.Spans(t)
	calls := spans.Named("ward.upstream.call")
	if len(calls) != 1 {
		t.Fatalf("%d ward.upstream.call spans, want 1 (the read; a preview calls nothing)", len(calls))
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
