package registry

import (
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/wardhq/ward/internal/tool"
)

// TestApply: tools added and removed after Freeze are what every view,
// old or new, resolves from then on; an entry resolved before the change
// stays usable; a refused change leaves everything as it was.
func TestApply(t *testing.T) {
	r := testRegistry(t)
	trader, err := r.Select(Selection{Profiles: []string{"trader"}})
	if err != nil {
		t.Fatal(err)
	}
	data, err := r.Select(Selection{Profiles: []string{"data"}})
	if err != nil {
		t.Fatal(err)
	}
	swap, _ := trader.Get("uniswap_execute_swap")
	before := trader.Names()

	notes := readTool("mcp_notes_get_note", tool.CatData, "get_note")
	notes.Venue = "mcp_notes"
	put := writeTool("mcp_notes_put_note", tool.CatTrading, tool.Layer2, "put_note", "mcp_notes")

	for _, tc := range []struct {
		name   string
		add    []Tool
		remove []string
	}{
		{"remove unknown", nil, []string{"nope"}},
		{"name of a tool that stays", []Tool{readTool("data_get_token_price", tool.CatData, "")}, nil},
		{"twice in add", []Tool{notes, notes}, nil},
		{"adapter taken", []Tool{writeTool("other_swap", tool.CatTrading, tool.Layer2, "swap", "uniswap_v2")}, nil},
		{"bad handlers", []Tool{{Def: def("mcp_x", tool.CatData, tool.Read, tool.Layer1)}}, nil},
		{"no definition", []Tool{{}}, nil},
		{"valid add, bad remove", []Tool{notes}, []string{"nope"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := r.Apply(tc.add, tc.remove); !errors.Is(err, ErrApply) {
				t.Fatalf("Apply = %v, want ErrApply", err)
			}
			if got := trader.Names(); !slices.Equal(got, before) {
				t.Errorf("a refused change changed the view: %v, want %v", got, before)
			}
			if _, ok := r.Get("mcp_notes_get_note"); ok {
				t.Error("a refused change registered a tool")
			}
		})
	}

	if err := r.Apply([]Tool{notes, put}, []string{"uniswap_execute_swap"}); err != nil {
		t.Fatal(err)
	}
	if trader.Has("uniswap_execute_swap") {
		t.Error("a removed tool is still in the view")
	}
	if _, ok := trader.Adapter("swap", "uniswap_v2"); ok {
		t.Error("a removed tool still adapts its action")
	}
	if _, ok := r.Get("uniswap_execute_swap"); ok {
		t.Error("a removed tool is still registered")
	}
	if swap == nil || swap.Def.Name != "uniswap_execute_swap" || swap.Write == nil {
		t.Error("the entry resolved before the removal is not intact")
	}
	for _, v := range []*View{trader, data} {
		if e, ok := v.Get("mcp_notes_get_note"); !ok || e.Def != notes.Def {
			t.Errorf("an added read tool is not in the view: %v", v.Names())
		}
	}
	if e, ok := trader.Adapter("put_note", "mcp_notes"); !ok || e.Def != put.Def {
		t.Error("an added write tool does not adapt its action in the trader view")
	}
	if data.Has("mcp_notes_put_note") || data.CanWrite() {
		t.Error("an added write tool reached the data view")
	}
	fresh, err := r.Select(Selection{Profiles: []string{"trader"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fresh.Names(), trader.Names()) {
		t.Errorf("an old view %v differs from a new one %v", trader.Names(), fresh.Names())
	}
	if _, err := r.Select(Selection{Profiles: []string{"trader"}, Enable: []string{"uniswap_execute_swap"}}); err == nil {
		t.Error("a selection enabling a removed tool was accepted")
	}
}

// TestApplyConcurrent: readers resolve names while tools come and go (go
// test -race): a tool that is never removed is always found, and an entry
// read is always whole.
func TestApplyConcurrent(t *testing.T) {
	r := testRegistry(t)
	v, err := r.Select(Selection{Profiles: []string{"dev"}})
	if err != nil {
		t.Fatal(err)
	}
	notes := readTool("mcp_notes_get_note", tool.CatData, "get_note")
	notes.Venue = "mcp_notes"
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, ok := v.Get("data_get_token_price"); !ok {
					t.Error("a tool that stays went missing")
					return
				}
				for _, e := range v.Entries() {
					if e == nil || e.Def == nil {
						t.Error("a view listed a missing entry")
						return
					}
				}
			}
		})
	}
	for i := range 100 {
		var err error
		if i%2 == 0 {
			err = r.Apply([]Tool{notes}, nil)
		} else {
			err = r.Apply(nil, []string{"mcp_notes_get_note"})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if v.Has("mcp_notes_get_note") {
		t.Error("the last removal did not take")
	}
}

// TestChangeStale: a change checked before another one was made is
// refused at Commit and changes nothing.
func TestChangeStale(t *testing.T) {
	r := testRegistry(t)
	notes := readTool("mcp_notes_get_note", tool.CatData, "get_note")
	c, err := r.Prepare([]Tool{notes}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Get("mcp_notes_get_note"); ok {
		t.Fatal("Prepare registered the tool")
	}
	if err := r.Apply(nil, []string{"vault_deposit"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Commit(); !errors.Is(err, ErrApply) {
		t.Fatalf("Commit = %v, want ErrApply", err)
	}
	if _, ok := r.Get("mcp_notes_get_note"); ok {
		t.Error("a stale change registered the tool")
	}
	if _, ok := r.Get("vault_deposit"); ok {
		t.Error("a stale change undid the change made after it was checked")
	}
}
