package facade

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/registry/registrytest"
	"github.com/wardhq/ward/internal/tool"
)

// TestToolsPageFlood checks that query_state {"kind":"tools"} over a
// flood of large upstream schemas answers in bounded pages that together
// hold every action once.
func TestToolsPageFlood(t *testing.T) {
	const n = 300
	v := registrytest.Flood(t, n, 2<<10)
	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		params := json.RawMessage(`{}`)
		if cursor != "" {
			params = json.RawMessage(`{"cursor":"` + cursor + `"}`)
		}
		p, err := toolsPage(v, params)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		b, _ := json.Marshal(p)
		if len(b) > MaxToolsPageBytes+4<<10 {
			t.Errorf("page %d is %d bytes, want about %d at most", pages, len(b), MaxToolsPageBytes)
		}
		if len(p.Actions) == 0 {
			t.Fatalf("page %d is empty", pages)
		}
		for _, a := range p.Actions {
			if seen[a.Tool] {
				t.Errorf("%s listed twice", a.Tool)
			}
			seen[a.Tool] = true
		}
		if p.NextCursor == "" {
			break
		}
		cursor = p.NextCursor
		if pages > n {
			t.Fatal("the pages never end")
		}
	}
	if len(seen) != n || pages < 2 {
		t.Errorf("%d actions in %d pages, want %d in several", len(seen), pages, n)
	}
	// One schema larger than a page still gets a page of its own.
	big := registrytest.Flood(t, 2, MaxToolsPageBytes+1)
	p, err := toolsPage(big, nil)
	if err != nil || len(p.Actions) != 1 || p.NextCursor != "1" {
		t.Errorf("oversized schemas: %d actions, next %q, %v: want one per page", len(p.Actions), p.NextCursor, err)
	}
}

// TestChoicesBounded checks that a refusal listing the kinds of a flood
// stays short and points to the full list.
func TestChoicesBounded(t *testing.T) {
	v := registrytest.Flood(t, 1000, 10)
	_, rf := resolve(v, false, "teleport", "")
	if rf == nil {
		t.Fatal("an unknown kind resolved")
	}
	if len(rf.Message) > 4<<10 || !strings.Contains(rf.Message, "more (query_state") || !strings.Contains(rf.Message, "tool_0000") {
		t.Errorf("message of %d bytes: %.300q", len(rf.Message), rf.Message)
	}
}

// TestShadowedKind checks that an upstream read whose kind query_state
// answers itself is listed as called by its own name, not through
// query_state (which would answer the gate's kind instead).
func TestShadowedKind(t *testing.T) {
	r := registry.New()
	for _, kind := range []string{"tools", "lookup"} {
		d := &tool.Def{Name: "mcp_x_" + kind, Description: "[upstream x] a read", Category: tool.CatData,
			Tier: tool.Read, RiskTier: tool.Layer1, Budget: tool.Medium, SchemaVersion: 1, Params: json.RawMessage(`{"type":"object"}`)}
		if err := r.Add(registry.Tool{Def: d, Action: kind, Venue: "mcp_x",
			Read: func(context.Context, *registry.Input) (*tool.Result, error) { return &tool.Result{}, nil }}); err != nil {
			t.Fatal(err)
		}
	}
	r.Freeze()
	v, err := r.Select(registry.Selection{Profiles: []string{"data"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := toolsPage(v, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]string{}
	for _, a := range p.Actions {
		calls[a.Kind] = a.Call
	}
	if calls["tools"] != "mcp_x_tools" || calls["lookup"] != "query_state" {
		t.Errorf("calls %v, want tools by its own name and lookup through query_state", calls)
	}
}

// FuzzDiscovery feeds query_state {"kind":"tools"} arbitrary params and
// preview_action and query_state arbitrary kinds and venues: each is a
// page or a refusal, never a panic, and a refusal's message stays short
// and free of control characters whatever the agent sent.
func FuzzDiscovery(f *testing.F) {
	for _, seed := range []struct{ params, kind, venue string }{
		{`{}`, "swap", ""},
		{`{"kind":"tool_0001"}`, "tool_0001", "mcp_flood"},
		{`{"cursor":"3"}`, "tool_0001", "nowhere"},
		{`{"cursor":"-1"}`, "", ""},
		{`{"kind":"x","venue":"y","cursor":"01"}`, "\x1b[31m", "\u202e"},
		{`{"cursor":3}`, strings.Repeat("k", 200), strings.Repeat("v", 200)},
		{`[]`, "gate", "mcp_flood"},
		{`null`, "tools", ""},
	} {
		f.Add(seed.params, seed.kind, seed.venue)
	}
	v := registrytest.Flood(f, 50, 64)
	f.Fuzz(func(t *testing.T, params, kind, venue string) {
		if p, err := toolsPage(v, json.RawMessage(params)); err == nil {
			if b, _ := json.Marshal(p); len(b) > MaxToolsPageBytes+4<<10 {
				t.Errorf("a page of %d bytes", len(b))
			}
		} else if rf, ok := err.(*Refusal); !ok || len(rf.Message) > 4<<10 {
			t.Errorf("toolsPage(%q): %v", params, err)
		}
		for _, writes := range []bool{true, false} {
			e, rf := resolve(v, writes, kind, venue)
			if (e == nil) == (rf == nil) {
				t.Fatalf("resolve(%q, %q) = %v, %v", kind, venue, e, rf)
			}
			if rf != nil && (len(rf.Message) > 4<<10 || strings.ContainsFunc(rf.Message, func(r rune) bool { return r < 0x20 || r == 0x7f })) {
				t.Errorf("resolve(%q, %q) message %q", kind, venue, rf.Message)
			}
		}
	})
}
