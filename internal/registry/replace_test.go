package registry

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/wardhq/ward/internal/tool"
)

// TestReplace: a replaced tool is what every view resolves from then on;
// a definition that would move the tool between views is refused and
// changes nothing.
func TestReplace(t *testing.T) {
	r := New()
	orig := readTool("mcp_notes_get_note", tool.CatData, "get_note")
	orig.Venue = "mcp_notes"
	if err := r.Add(orig); err != nil {
		t.Fatal(err)
	}
	r.Freeze()
	v, err := r.Select(Selection{Profiles: []string{"data"}})
	if err != nil {
		t.Fatal(err)
	}
	next := readTool("mcp_notes_get_note", tool.CatData, "get_note")
	next.Venue = "mcp_notes"
	next.Def.Description = "the approved new definition"
	next.Def.Params = json.RawMessage(`{"type":"object","properties":{"key":{"type":"string"}},"required":["key"]}`)

	for _, tc := range []struct {
		name string
		edit func(*Tool)
	}{
		{"another tier", func(x *Tool) {
			x.Def.Tier, x.Def.Effect, x.Read = tool.Write, tool.EffectOpen, nil
			x.Plan = func(context.Context, *Input) (*tool.Plan, error) { return nil, nil }
			x.Write = writeTool("w", tool.CatData, tool.Layer2, "", "").Write
		}},
		{"another category", func(x *Tool) { x.Def.Category = tool.CatWallet }},
		{"another venue", func(x *Tool) { x.Venue = "mcp_other" }},
		{"another risk tier", func(x *Tool) { x.Def.RiskTier = tool.Layer2 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := next
			d := *next.Def
			bad.Def = &d
			tc.edit(&bad)
			if err := r.Replace(bad); !errors.Is(err, ErrNotReplaceable) {
				t.Errorf("Replace = %v, want ErrNotReplaceable", err)
			}
			if e, _ := v.Get(orig.Def.Name); e.Def != orig.Def {
				t.Error("a refused replacement changed the entry")
			}
		})
	}
	if err := r.Replace(Tool{Def: def("mcp_notes_unknown", tool.CatData, tool.Read, tool.Layer1)}); err == nil {
		t.Error("replacing a tool that is not registered succeeded")
	}
	broken := next
	d := *next.Def
	d.Params = json.RawMessage(`{"type":"object","properties":{"x":{"$ref":"https://example.com/x.json"}}}`)
	broken.Def = &d
	if err := r.Replace(broken); err == nil {
		t.Error("a replacement whose schema does not compile succeeded")
	}

	// Readers resolve the tool while it is replaced (go test -race).
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 200 {
				if e, ok := v.Get(orig.Def.Name); !ok || e.Def.Name != orig.Def.Name {
					t.Error("the tool went missing during a replacement")
					return
				}
			}
		})
	}
	if err := r.Replace(next); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	e, ok := v.Get(orig.Def.Name)
	if !ok || e.Def.Description != "the approved new definition" {
		t.Fatalf("the view resolves %+v", e)
	}
	if err := e.Validate(json.RawMessage(`{}`)); err == nil {
		t.Error("the new schema is not the one validating")
	}
	if got := r.All(); len(got) != 1 || got[0].Def != next.Def {
		t.Errorf("All = %v", got)
	}
}
