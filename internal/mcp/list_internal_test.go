package mcp

import (
	"encoding/json"
	"errors"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/registry/registrytest"
)

// TestListFlood checks that tools/list over a flood of upstream tools with
// large schemas answers in bounded pages, facades first, every tool once.
func TestListFlood(t *testing.T) {
	const n = 500
	g := facade.NewSession(&gate.Session{ID: "flood", View: registrytest.Flood(t, n, 4<<10)})
	seen := map[string]bool{}
	cursor, pages := "", 0
	for {
		res, err := list(g, cursor)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		b, _ := json.Marshal(res)
		if len(b) > MaxListBytes+1<<10 {
			t.Errorf("page %d is %d bytes, want at most about %d", pages, len(b), MaxListBytes)
		}
		if pages == 1 && (len(res.Tools) == 0 || res.Tools[0].Name != "emergency_halt") {
			t.Errorf("the first page does not start with the facades")
		}
		for _, tl := range res.Tools {
			if seen[tl.Name] {
				t.Errorf("%s listed twice", tl.Name)
			}
			seen[tl.Name] = true
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
		if pages > n {
			t.Fatal("the pages never end")
		}
	}
	if want := n + len(facade.Defs(g.View())); len(seen) != want || pages < 2 {
		t.Errorf("%d tools in %d pages, want %d in several", len(seen), pages, want)
	}
	total := strconv.Itoa(n + len(facade.Defs(g.View())))
	for _, bad := range []string{"0", "-1", "01", "x", total, "99999999999999999999", " 1"} {
		_, err := list(g, bad)
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("cursor %q: %v, want an invalid-params error", bad, err)
		}
	}
}
