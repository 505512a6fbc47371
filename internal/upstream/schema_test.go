package upstream

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/schema"
	"github.com/wardhq/ward/internal/store"
)

// schemaServer is an upstream whose tools have the schemas generators
// write ($defs, nullable unions, output schemas) and two that ward cannot
// use: an input schema whose $ref points nowhere, and an output schema
// whose $ref points nowhere.
func schemaServer(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "schemas", Version: "1"}, nil)
	ok := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}, StructuredContent: map[string]any{"sent": true}}, nil
	}
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	srv.AddTool(&mcp.Tool{Name: "send", Description: "Send a message.", Annotations: ro, InputSchema: json.RawMessage(`{
"$defs":{"Address":{"type":"object","properties":{"email":{"type":"string","description":"Mailbox"}},"required":["email"]},
 "Priority":{"enum":["low","high"],"type":"string"}},
"type":"object","required":["to"],
"properties":{"to":{"$ref":"#/$defs/Address","description":"Recipient"},
 "cc":{"anyOf":[{"items":{"$ref":"#/$defs/Address"},"type":"array"},{"type":"null"}],"default":null},
 "priority":{"$ref":"#/$defs/Priority"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sent":{"type":"boolean"}},"required":["sent"]}`)}, ok)
	srv.AddTool(&mcp.Tool{Name: "broken_input", Description: "Refers to a definition it does not have.", Annotations: ro,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"to":{"$ref":"#/$defs/Address"}},"$defs":{"Adress":{"type":"string"}}}`)}, ok)
	srv.AddTool(&mcp.Tool{Name: "broken_output", Description: "Its output schema refers nowhere.", Annotations: ro,
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"r":{"$ref":"#/definitions/R"}}}`)}, ok)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestSchemasRefusedAlone: of an upstream's tools, the one whose input
// schema ward cannot compile is skipped alone, with a warning and a
// status naming the place in its schema; the one whose output schema ward
// cannot compile is imported without it; the others are imported with
// their $defs and output schemas, and register without refusal.
func TestSchemasRefusedAlone(t *testing.T) {
	ms := newTestStore(t)
	var logs strings.Builder
	s := openSet(t, Config{State: ms, Actions: ms, Log: slogTo(&logs), Servers: []Server{{Name: "mail", URL: schemaServer(t), TrustAnnotations: true}}})

	st := statusOf(s, "broken_input")
	if st.State != Skipped || !strings.Contains(st.Reason, "/properties/to/$ref") {
		t.Errorf("broken_input: %+v, want skipped with a reason naming /properties/to/$ref", st)
	}
	if !strings.Contains(logs.String(), "tool=broken_input") || !strings.Contains(logs.String(), "/properties/to/$ref") {
		t.Errorf("no warning naming broken_input and the schema path:\n%s", logs.String())
	}
	if _, ok := toolNamed(s, "mcp_mail_broken_input"); ok {
		t.Error("broken_input was imported")
	}

	st = statusOf(s, "broken_output")
	if st.State != Imported || !strings.Contains(st.Reason, "output schema") || !strings.Contains(st.Reason, "/properties/r/$ref") {
		t.Errorf("broken_output: %+v, want imported with a reason naming its output schema's /properties/r/$ref", st)
	}
	if !strings.Contains(logs.String(), "tool=broken_output") {
		t.Errorf("no warning naming broken_output:\n%s", logs.String())
	}
	bo, ok := toolNamed(s, "mcp_mail_broken_output")
	if !ok || len(bo.Def.OutputSchema) != 0 {
		t.Errorf("broken_output: imported %t, output schema %s; want imported without it", ok, bo.Def.OutputSchema)
	}

	send, ok := toolNamed(s, "mcp_mail_send")
	if !ok {
		t.Fatalf("send not imported: %+v", statusOf(s, "send"))
	}
	out, err := schema.Compile(send.Def.OutputSchema)
	if err != nil {
		t.Fatalf("send's output schema %s: %v", send.Def.OutputSchema, err)
	}
	if out.Validate(json.RawMessage(`{"sent":true}`)) != nil || out.Validate(json.RawMessage(`{"sent":"yes"}`)) == nil {
		t.Error("send's output schema does not validate its output")
	}

	reg := registry.New()
	for _, rt := range s.Tools() {
		if err := reg.Add(rt); err != nil {
			t.Fatal(err)
		}
	}
	if r := reg.Refused(); len(r) != 0 {
		t.Errorf("the registry refused imported tools: %+v", r)
	}
	e, _ := reg.Get("mcp_mail_send")
	if err := e.Validate(json.RawMessage(`{"to":{"email":"a@example.com"},"cc":[{"email":"b@example.com"}],"priority":"high"}`)); err != nil {
		t.Errorf("valid arguments: %v", err)
	}
	if err := e.Validate(json.RawMessage(`{"to":{},"cc":[{"mail":"b"}],"priority":"urgent"}`)); err == nil ||
		!strings.Contains(err.Error(), "/to/email: is required") || !strings.Contains(err.Error(), "/cc/0/email: is required") ||
		!strings.Contains(err.Error(), `/priority: must be one of: "low", "high"`) {
		t.Errorf("invalid arguments: %v", err)
	}
	res, err := send.Read(t.Context(), input(t, `{"to":{"email":"a@example.com"}}`))
	if err != nil || !strings.Contains(string(res.Data), `"structured_content":{"sent":true}`) {
		t.Errorf("send: %v, %v", res, err)
	}
	if n := len(ms.actions(store.ActionFilter{Kind: KindPinned})); n != 2 {
		t.Errorf("%d pins, want 2 (send and broken_output)", n)
	}
}
