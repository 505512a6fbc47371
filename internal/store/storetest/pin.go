package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// hash64 is a definition hash as upstream makes them: hex SHA-256.
func hash64(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func pending(server, tool, def string, n int) store.PendingTool {
	return store.PendingTool{Server: server, Tool: tool, Hash: hash64(def), ApprovedHash: hash64(tool), Seen: tl.Add(time.Duration(n) * time.Minute),
		Def: json.RawMessage(`{"name":"` + tool + `","description":"` + def + `"}`)}
}

func samePending(a, b store.PendingTool) bool {
	return a.Server == b.Server && a.Tool == b.Tool && a.Hash == b.Hash && a.ApprovedHash == b.ApprovedHash && sameTime(a.Seen, b.Seen) &&
		string(a.Def) == string(b.Def)
}

func testPins(t *testing.T, h *harness) {
	p := pinOnFirstUse(t, h)
	ps := setPending(t, h)
	h.reopen()
	listPins(t, h, p, ps)
	approvePending(t, h, ps[0])
	clearPending(t, h)
	repinFromHash(t, h)
}

// pinOnFirstUse pins notes/get_note at v1 and checks that a second
// definition does not replace it (trust on first use); it returns the pin.
func pinOnFirstUse(t *testing.T, h *harness) store.PinnedTool {
	ctx := t.Context()
	p := store.PinnedTool{Server: "notes", Tool: "get_note", Hash: hash64("v1"), Approved: tl}
	got, created, err := h.s.PinTool(ctx, p)
	if err != nil || !created || got != p {
		t.Fatalf("first PinTool = %+v, %v, %v; want it created", got, created, err)
	}
	// Trust on first use: a second definition does not replace the first.
	other := p
	other.Hash, other.Approved = hash64("v2"), tl.Add(time.Hour)
	if got, created, err := h.s.PinTool(ctx, other); err != nil || created || got != p {
		t.Errorf("second PinTool = %+v, %v, %v; want the first pin, not created", got, created, err)
	}
	if _, err := h.s.PinnedTool(ctx, "notes", "set_note"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("PinnedTool of an unpinned tool: %v, want ErrNotFound", err)
	}
	return p
}

// setPending sets two pending definitions of notes (get_note at v2 and
// a_tool) and one of other, and returns notes' two.
func setPending(t *testing.T, h *harness) []store.PendingTool {
	ctx := t.Context()
	ps := []store.PendingTool{pending("notes", "get_note", "v2", 1), pending("notes", "a_tool", "x", 2)}
	if err := h.s.SetPendingTools(ctx, "notes", ps); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetPendingTools(ctx, "other", []store.PendingTool{pending("other", "get_note", "y", 3)}); err != nil {
		t.Fatal(err)
	}
	return ps
}

// listPins checks, after a reopen, the pin p and the pending definitions
// ps, and that pins list by server and tool.
func listPins(t *testing.T, h *harness, p store.PinnedTool, ps []store.PendingTool) {
	ctx := t.Context()
	if got, err := h.s.PinnedTool(ctx, "notes", "get_note"); err != nil || got != p {
		t.Errorf("PinnedTool after reopening = %+v, %v; want %+v", got, err, p)
	}
	second := store.PinnedTool{Server: "notes", Tool: "a_tool", Hash: hash64("a"), Approved: tl}
	if _, _, err := h.s.PinTool(ctx, second); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.s.PinTool(ctx, store.PinnedTool{Server: "other", Tool: "b_tool", Hash: hash64("b"), Approved: tl}); err != nil {
		t.Fatal(err)
	}
	if pins, err := h.s.PinnedTools(ctx, "notes"); err != nil || !slices.Equal(pins, []store.PinnedTool{second, p}) {
		t.Errorf("PinnedTools = %+v, %v; want the server's two, by tool", pins, err)
	}
	if pins, err := h.s.PinnedTools(ctx, "none"); err != nil || len(pins) != 0 {
		t.Errorf("PinnedTools of a server with none = %+v, %v", pins, err)
	}
	list, err := h.s.PendingTools(ctx, "notes")
	if err != nil || !slices.EqualFunc(list, []store.PendingTool{ps[1], ps[0]}, samePending) {
		t.Errorf("PendingTools = %+v, %v; want both, by tool", list, err)
	}
}

// approvePending approves the pending definition get_note (want), which
// becomes the pin and leaves the pending list.
func approvePending(t *testing.T, h *harness, want store.PendingTool) {
	ctx := t.Context()
	appr, err := h.s.ApproveTool(ctx, "notes", "get_note", "alice", tl.Add(2*time.Hour))
	if err != nil || !samePending(appr, want) {
		t.Fatalf("ApproveTool = %+v, %v", appr, err)
	}
	pin := store.PinnedTool{Server: "notes", Tool: "get_note", Hash: hash64("v2"), Approved: tl.Add(2 * time.Hour), By: "alice"}
	if got, err := h.s.PinnedTool(ctx, "notes", "get_note"); err != nil || got != pin {
		t.Errorf("after approval the pin is %+v, %v; want %+v", got, err, pin)
	}
	if _, err := h.s.ApproveTool(ctx, "notes", "get_note", "alice", tl); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("approving again: %v, want ErrNotFound", err)
	}
	if list, err := h.s.PendingTools(ctx, "notes"); err != nil || len(list) != 1 || list[0].Tool != "a_tool" {
		t.Errorf("pending after approval: %+v, %v", list, err)
	}
}

// clearPending checks that replacing a server's pending definitions
// leaves other servers'.
func clearPending(t *testing.T, h *harness) {
	ctx := t.Context()
	if err := h.s.SetPendingTools(ctx, "notes", nil); err != nil {
		t.Fatal(err)
	}
	if list, err := h.s.PendingTools(ctx, "other"); err != nil || len(list) != 1 {
		t.Errorf("another server's pending definitions: %+v, %v", list, err)
	}
	if list, err := h.s.PendingTools(ctx, "notes"); err != nil || len(list) != 0 {
		t.Errorf("cleared pending definitions: %+v, %v", list, err)
	}
}

// repinFromHash checks that a repin moves the pin only from the hash it
// names, durably.
func repinFromHash(t *testing.T, h *harness) {
	ctx := t.Context()
	v3 := store.PinnedTool{Server: "notes", Tool: "get_note", Hash: hash64("v3"), Approved: tl.Add(3 * time.Hour), By: "ward upgrade"}
	if ok, err := h.s.RepinTool(ctx, v3, hash64("v1")); err != nil || ok {
		t.Errorf("RepinTool from a hash that is not the pin's = %v, %v; want false", ok, err)
	}
	if ok, err := h.s.RepinTool(ctx, store.PinnedTool{Server: "notes", Tool: "nope", Hash: hash64("v3"), Approved: tl}, hash64("v2")); err != nil || ok {
		t.Errorf("RepinTool of an unpinned tool = %v, %v; want false", ok, err)
	}
	if ok, err := h.s.RepinTool(ctx, v3, hash64("v2")); err != nil || !ok {
		t.Fatalf("RepinTool = %v, %v", ok, err)
	}
	h.reopen()
	if got, err := h.s.PinnedTool(ctx, "notes", "get_note"); err != nil || got != v3 {
		t.Errorf("after the repin the pin is %+v, %v; want %+v", got, err, v3)
	}
}

func testPinsInvalid(t *testing.T, h *harness) {
	ctx := t.Context()
	good := store.PinnedTool{Server: "notes", Tool: "get_note", Hash: hash64("v1"), Approved: tl}
	for _, tc := range []struct {
		name string
		mut  func(p *store.PinnedTool)
	}{
		{"no server", func(p *store.PinnedTool) { p.Server = "" }},
		{"long server", func(p *store.PinnedTool) { p.Server = strings.Repeat("s", store.MaxPinServer+1) }},
		{"no tool", func(p *store.PinnedTool) { p.Tool = "" }},
		{"short hash", func(p *store.PinnedTool) { p.Hash = "aa" }},
		{"upper-case hash", func(p *store.PinnedTool) { p.Hash = strings.ToUpper(p.Hash) }},
		{"no time", func(p *store.PinnedTool) { p.Approved = time.Time{} }},
	} {
		p := good
		tc.mut(&p)
		if _, _, err := h.s.PinTool(ctx, p); !errors.Is(err, store.ErrInvalidState) {
			t.Errorf("PinTool with %s: %v, want ErrInvalidState", tc.name, err)
		}
	}
	if _, err := h.s.PinnedTool(ctx, "notes", "get_note"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused pin was stored: %v", err)
	}
	ok := pending("notes", "fine", "x", 0)
	if err := h.s.SetPendingTools(ctx, "notes", []store.PendingTool{ok}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		mut  func(p *store.PendingTool)
	}{
		{"another server", func(p *store.PendingTool) { p.Server = "other" }},
		{"not JSON", func(p *store.PendingTool) { p.Def = json.RawMessage(`{"name":`) }},
		{"bad approved hash", func(p *store.PendingTool) { p.ApprovedHash = "zz" }},
		{"twice one tool", func(p *store.PendingTool) { p.Tool = "first" }},
		{"no time", func(p *store.PendingTool) { p.Seen = time.Time{} }},
	} {
		p := pending("notes", "second", "y", 1)
		tc.mut(&p)
		if err := h.s.SetPendingTools(ctx, "notes", []store.PendingTool{pending("notes", "first", "z", 2), p}); !errors.Is(err, store.ErrInvalidState) {
			t.Errorf("SetPendingTools with %s: %v, want ErrInvalidState", tc.name, err)
		}
	}
	if list, err := h.s.PendingTools(ctx, "notes"); err != nil || !slices.EqualFunc(list, []store.PendingTool{ok}, samePending) {
		t.Errorf("refused pending definitions changed the stored ones: %+v, %v", list, err)
	}
}

// Of many processes' worth of writers pinning one tool with different
// definitions at once, exactly one pin is created and everyone gets it.
func testPinsConcurrent(t *testing.T, h *harness) {
	ctx := t.Context()
	var (
		wg      sync.WaitGroup
		created atomic.Int32
		mu      sync.Mutex
		seen    = map[string]bool{}
	)
	for i := range 16 {
		wg.Go(func() {
			got, ok, err := h.s.PinTool(ctx, store.PinnedTool{Server: "notes", Tool: "get_note", Hash: hash64(fmt.Sprint(i)), Approved: tl})
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				created.Add(1)
			}
			mu.Lock()
			seen[got.Hash] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if created.Load() != 1 || len(seen) != 1 {
		t.Errorf("%d pins created, %d distinct approved hashes returned; want 1 and 1", created.Load(), len(seen))
	}
}
