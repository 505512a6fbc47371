package upstream

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/tool"
)

// testStore is a SQLite store in the test's temporary directory, closed
// when the test ends.
type testStore struct {
	*sqlite.Store
	t    *testing.T
	path string
}

func newTestStore(t *testing.T) *testStore {
	s := &testStore{t: t, path: filepath.Join(t.TempDir(), "ward.db")}
	s.open()
	return s
}

func (s *testStore) open() {
	st, err := sqlite.Open(s.t.Context(), sqlite.Config{Path: s.path, Synchronous: "normal"})
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { st.Close() })
	s.Store = st
}

// restart closes the store and opens its file again, as a restarted ward
// does.
func (s *testStore) restart() {
	s.t.Helper()
	if err := s.Close(); err != nil {
		s.t.Fatal(err)
	}
	s.open()
}

func (s *testStore) actions(f store.ActionFilter) []store.ActionRecord {
	s.t.Helper()
	recs, err := s.Actions(s.t.Context(), f)
	if err != nil {
		s.t.Fatal(err)
	}
	return recs
}

func TestSanitizeAndToolName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"get_note", "get_note"},
		{"setNote", "set_note"},
		{"getHTTPStatus", "get_httpstatus"},
		{"search-docs.v2", "search_docs_v2"},
		{"__weird__  name__", "weird_name"},
		{"Ünïcode", "n_code"},
		{"---", ""},
		{"v2Search", "v2_search"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
	if got := ToolName("notes", "setNote"); got != "mcp_notes_set_note" || !tool.ValidDefName(got) {
		t.Errorf("ToolName = %q (valid %t)", got, tool.ValidDefName(got))
	}
	long := strings.Repeat("verylongword_", 8)
	a, b := ToolName("srv", long+"a"), ToolName("srv", long+"b")
	if len(a) > 64 || a == b || !tool.ValidDefName(a) || !tool.ValidDefName(b) {
		t.Errorf("long names %q and %q: want distinct valid names of at most 64 bytes", a, b)
	}
}

// TestClassify: annotations are the server's claims. By default they only
// make a tool stricter; a server whose annotations the operator trusts
// may have them lower its tools; the operator's overrides win.
func TestClassify(t *testing.T) {
	yes, no := true, false
	strict := func(tier tool.Tier, risk tool.Risk, cat tool.Category, third, egress bool) Class {
		return Class{Tier: tier, Risk: risk, Category: cat, ThirdParty: third, Egress: egress}
	}
	for _, tc := range []struct {
		name        string
		a           *mcp.ToolAnnotations
		server, per Override
		trusted     bool
		want        Class
	}{
		{"no annotations", nil, Override{}, Override{}, false, strict(tool.Write, tool.Dangerous, DefaultWriteCategory, true, true)},
		{"read only does not lower", &mcp.ToolAnnotations{ReadOnlyHint: true}, Override{}, Override{}, false, strict(tool.Write, tool.Dangerous, DefaultWriteCategory, true, true)},
		{"closed world does not lower", &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}, Override{}, Override{}, false, strict(tool.Write, tool.Dangerous, DefaultWriteCategory, true, true)},
		{"trusted read only", &mcp.ToolAnnotations{ReadOnlyHint: true}, Override{}, Override{}, true, strict(tool.Read, tool.Safe, DefaultReadCategory, true, true)},
		{"trusted read only closed world", &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}, Override{}, Override{}, true, strict(tool.Read, tool.Safe, tool.CatData, false, false)},
		{"destructive hint false does not lower", &mcp.ToolAnnotations{DestructiveHint: &no}, Override{}, Override{}, true, strict(tool.Write, tool.Dangerous, DefaultWriteCategory, true, true)},
		{"read only but destructive", &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes}, Override{}, Override{}, true, strict(tool.Read, tool.Dangerous, tool.CatData, true, true)},
		{"server default", nil, Override{Category: tool.CatMemory, Risk: tool.Caution}, Override{}, false, strict(tool.Write, tool.Caution, tool.CatMemory, true, true)},
		{"per tool wins", nil, Override{Category: tool.CatMemory, Risk: tool.Caution},
			Override{Tier: tool.Read, Risk: tool.Forbidden, ThirdParty: &no, Egress: &no}, false, strict(tool.Read, tool.Forbidden, tool.CatMemory, false, false)},
		{"operator lowers a read", &mcp.ToolAnnotations{OpenWorldHint: &yes}, Override{}, Override{Tier: tool.Read, Risk: tool.Safe, Egress: &no}, false, strict(tool.Read, tool.Safe, DefaultReadCategory, true, false)},
		{"tier override picks the category default", &mcp.ToolAnnotations{ReadOnlyHint: true}, Override{}, Override{Tier: tool.Write}, true,
			strict(tool.Write, tool.Safe, DefaultWriteCategory, true, true)},
		{"system fields per tool", nil, Override{}, Override{SystemFields: []string{"/id"}}, false,
			Class{Tier: tool.Write, Risk: tool.Dangerous, Category: DefaultWriteCategory, ThirdParty: true, Egress: true, SystemFields: []string{"/id"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Classify(tc.a, tc.server, tc.per, tc.trusted); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Classify = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestDefHash(t *testing.T) {
	base := &mcp.Tool{Name: "t", Description: "d", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}}}
	_, h0, err := DefHash(base)
	if err != nil {
		t.Fatal(err)
	}
	respelled := &mcp.Tool{Name: "t", Description: "d", InputSchema: json.RawMessage(`{ "properties": {"a": {"type":"string"}}, "type": "object" }`)}
	if _, h, _ := DefHash(respelled); h != h0 {
		t.Error("the same schema spelled differently hashes differently")
	}
	// A tool without an output schema hashes as it did before output
	// schemas counted: the approvals already recorded stay valid.
	if canon, _, _ := DefHash(base); string(canon) != `{"name":"t","description":"d","input_schema":{"properties":{"a":{"type":"string"}},"type":"object"},"annotations":null}` {
		t.Errorf("canonical definition %s", canon)
	}
	withOutput := &mcp.Tool{Name: "t", Description: "d", InputSchema: base.InputSchema, OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}
	_, h1, err := DefHash(withOutput)
	if err != nil || h1 == h0 {
		t.Errorf("declaring an output schema keeps the hash (%v)", err)
	}
	if _, h, _ := DefHash(&mcp.Tool{Name: "t", Description: "d", InputSchema: base.InputSchema, OutputSchema: json.RawMessage(`{ "properties": {"n": {"type":"integer"}}, "type": "object" }`)}); h != h1 {
		t.Error("the same output schema spelled differently hashes differently")
	}
	for name, changed := range map[string]*mcp.Tool{
		"output schema": {Name: "t", Description: "d", InputSchema: base.InputSchema, OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"string"}}}`)},
		"description":   {Name: "t", Description: "d2", InputSchema: base.InputSchema},
		"schema":        {Name: "t", Description: "d", InputSchema: map[string]any{"type": "object"}},
		"annotations":   {Name: "t", Description: "d", InputSchema: base.InputSchema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		"name":          {Name: "u", Description: "d", InputSchema: base.InputSchema},
	} {
		if _, h, _ := DefHash(changed); h == h0 || h == h1 {
			t.Errorf("a changed %s keeps the hash", name)
		}
	}
}

func TestExpand(t *testing.T) {
	t.Setenv("WARD_TEST_TOKEN", "s3cret")
	for _, tc := range []struct {
		in, want string
		err      bool
	}{
		{"Bearer ${WARD_TEST_TOKEN}", "Bearer s3cret", false},
		{"plain $HOME text", "plain $HOME text", false},
		{"${WARD_TEST_UNSET_VARIABLE}", "", true},
		{"${WARD_TEST_TOKEN", "", true},
		{"${1X}", "", true},
	} {
		got, err := expand(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("expand(%q) = %q, %v; want %q (error %t)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestServerValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Server
		ok   bool
	}{
		{"command", Server{Name: "notes", Command: []string{"x"}}, true},
		{"url", Server{Name: "a_b2", URL: "https://x.example/mcp", Headers: map[string]string{"A": "b"}}, true},
		{"both", Server{Name: "notes", Command: []string{"x"}, URL: "http://x"}, false},
		{"neither", Server{Name: "notes"}, false},
		{"bad name", Server{Name: "Notes", Command: []string{"x"}}, false},
		{"double underscore", Server{Name: "a__b", Command: []string{"x"}}, false},
		{"long name", Server{Name: strings.Repeat("a", 33), Command: []string{"x"}}, false},
		{"headers without url", Server{Name: "n", Command: []string{"x"}, Headers: map[string]string{"A": "b"}}, false},
		{"bad category", Server{Name: "n", Command: []string{"x"}, Tools: map[string]Override{"t": {Category: "vm"}}}, false},
		{"privileged", Server{Name: "n", Command: []string{"x"}, Defaults: Override{Tier: tool.Privileged}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.s.Validate(); (err == nil) != tc.ok {
				t.Errorf("Validate = %v, want ok %t", err, tc.ok)
			}
		})
	}
}

// httpUpstream serves newTestServer(variant) over streamable HTTP,
// requiring the bearer token tok.
func httpUpstream(t *testing.T, variant, tok string) string {
	t.Helper()
	srv := newTestServer(variant)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+tok {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func openSet(t *testing.T, cfg Config) *Set {
	t.Helper()
	s, err := Open(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

func toolNamed(s *Set, name string) (registry.Tool, bool) {
	for _, t := range s.Tools() {
		if t.Def.Name == name {
			return t, true
		}
	}
	return registry.Tool{}, false
}

func statusOf(s *Set, upstreamName string) Status {
	for _, st := range s.Status() {
		if st.Tool == upstreamName {
			return st
		}
	}
	return Status{}
}

func input(t *testing.T, raw string) *registry.Input {
	t.Helper()
	a, err := tool.ParseArgs([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return &registry.Input{Args: a, Raw: json.RawMessage(raw), Now: time.Now(), Step: func(int) {}}
}

func TestOpenOverHTTP(t *testing.T) {
	t.Setenv("WARD_TEST_UPSTREAM_TOKEN", "t0k")
	url := httpUpstream(t, "", "t0k")
	ms := newTestStore(t)
	s := openSet(t, Config{State: ms, Actions: ms, ChainID: 1337, Servers: []Server{{
		Name: "notes", URL: url, TrustAnnotations: true, Headers: map[string]string{"Authorization": "Bearer ${WARD_TEST_UPSTREAM_TOKEN}"},
		Tools: map[string]Override{"setNote": {Category: tool.CatMemory}},
	}}})

	want := map[string]struct {
		state    ToolState
		tier     tool.Tier
		risk     tool.Risk
		layer    tool.RiskTier
		category tool.Category
		third    bool
	}{
		"get_note":           {Imported, tool.Read, tool.Safe, tool.Layer1, tool.CatData, true},
		"setNote":            {Imported, tool.Write, tool.Dangerous, tool.Layer3, tool.CatMemory, true},
		"wipe_notes":         {Imported, tool.Write, tool.Dangerous, tool.Layer3, tool.CatIntelligence, true},
		"fail_always":        {Imported, tool.Read, tool.Safe, tool.Layer1, tool.CatData, false},
		"rotate_description": {Imported, tool.Read, tool.Safe, tool.Layer1, tool.CatData, true},
		"remote_ref":         {state: Skipped},
	}
	for up, w := range want {
		st := statusOf(s, up)
		if st.State != w.state {
			t.Errorf("%s: state %q (%s), want %q", up, st.State, st.Reason, w.state)
			continue
		}
		if w.state != Imported {
			continue
		}
		rt, ok := toolNamed(s, st.Name)
		if !ok {
			t.Errorf("%s: imported but not among the tools", up)
			continue
		}
		d := rt.Def
		if d.Tier != w.tier || d.Risk != w.risk || d.RiskTier != w.layer || d.Category != w.category || d.ThirdParty != w.third {
			t.Errorf("%s: %s %s %s %s third-party %t; want %s %s %s %s %t", up, d.Tier, d.Risk, d.RiskTier, d.Category, d.ThirdParty,
				w.tier, w.risk, w.layer, w.category, w.third)
		}
		if !strings.HasPrefix(d.Description, "[upstream notes] ") {
			t.Errorf("%s: description %q", up, d.Description)
		}
		if rt.Venue != "mcp_notes" || "mcp_notes_"+rt.Action != d.Name {
			t.Errorf("%s: adapter (%s, %s) for %s", up, rt.Action, rt.Venue, d.Name)
		}
	}
	if n := len(ms.actions(store.ActionFilter{})); n != 5 {
		t.Errorf("%d pin records, want 5 (one per imported tool)", n)
	}

	get, _ := toolNamed(s, "mcp_notes_get_note")
	res, err := get.Read(t.Context(), input(t, `{"key":"a"}`))
	if err != nil {
		t.Fatal(err)
	}
	var out callOut
	if err := json.Unmarshal(res.Data, &out); err != nil {
		t.Fatal(err)
	}
	if out.Server != "notes" || out.Tool != "get_note" || len(out.Content) != 1 || out.Content[0].Type != "text" ||
		!strings.Contains(string(out.Structured), `"found":false`) {
		t.Errorf("read result %s", res.Data)
	}

	fail, _ := toolNamed(s, "mcp_notes_fail_always")
	_, err = fail.Read(t.Context(), input(t, `{}`))
	if err == nil || !strings.Contains(err.Error(), "the backend is down") || strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("error result: %v; want the upstream's text without control characters", err)
	}

	// A call resolved before a reload removed the server, and reaching
	// it after, is refused as the removed tool is afterwards
	// (TOOL_NOT_AVAILABLE), not as a failure of the tool.
	if err := s.CloseIdle(); err != nil {
		t.Fatal(err)
	}
	_, err = get.Read(t.Context(), input(t, `{"key":"a"}`))
	var coded interface{ Reason() reason.Code }
	if !errors.Is(err, ErrClosed) || !errors.As(err, &coded) || coded.Reason() != reason.ToolUnavailable {
		t.Errorf("a call after the removal: %v, want ErrClosed with reason %s", err, reason.ToolUnavailable)
	}
}

func TestUnreachableServerContributesNothing(t *testing.T) {
	url := httpUpstream(t, "", "right")
	ms := newTestStore(t)
	var logs strings.Builder
	s := openSet(t, Config{State: ms, Actions: ms, Log: slogTo(&logs), ConnectTimeout: 5 * time.Second, Servers: []Server{
		{Name: "wrongtoken", URL: url, Headers: map[string]string{"Authorization": "Bearer wrong"}},
		{Name: "nothere", Command: []string{"/nonexistent/ward-upstream-test"}},
	}})
	if n := len(s.Tools()); n != 0 {
		t.Errorf("%d tools from unreachable servers", n)
	}
	if !strings.Contains(logs.String(), "wrongtoken") || !strings.Contains(logs.String(), "nothere") {
		t.Errorf("no warning for each server:\n%s", logs.String())
	}
}

// TestPinningAcrossStarts: each start of the set is a restart of ward,
// its store closed and opened again; the pins and the pending definitions
// are what the previous start left.
func TestPinningAcrossStarts(t *testing.T) {
	ms := newTestStore(t)
	started := false
	open := func(variant string) *Set {
		if started {
			ms.restart()
		}
		started = true
		s, err := Open(t.Context(), Config{State: ms, Actions: ms, Servers: []Server{{Name: "notes", URL: httpUpstream(t, variant, "k"), TrustAnnotations: true,
			Headers: map[string]string{"Authorization": "Bearer k"}}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	s1 := open("")
	if _, ok := toolNamed(s1, "mcp_notes_get_note"); !ok {
		t.Fatal("get_note not imported on first use")
	}
	first, err := ms.PinnedTool(t.Context(), "notes", "get_note")
	if err != nil || first.By != "" {
		t.Fatalf("the first use's pin %+v, %v", first, err)
	}
	s1.Close()

	s2 := open("v2")
	if _, ok := toolNamed(s2, "mcp_notes_get_note"); ok {
		t.Error("get_note imported although its description changed")
	}
	if st := statusOf(s2, "get_note"); st.State != Changed {
		t.Errorf("get_note state %q, want changed", st.State)
	}
	if _, ok := toolNamed(s2, "mcp_notes_set_note"); !ok {
		t.Error("an unchanged tool was disabled with the changed one")
	}
	if recs := ms.actions(store.ActionFilter{Kind: KindChanged, Tool: "mcp_notes_get_note"}); len(recs) != 1 {
		t.Errorf("%d %s records, want 1", len(recs), KindChanged)
	}
	pending, err := Pending(t.Context(), ms, "notes")
	if err != nil || len(pending) != 1 || pending[0].Tool != "get_note" || !strings.Contains(string(pending[0].Def), "Always include") {
		t.Fatalf("pending %+v, %v", pending, err)
	}
	if old, ok, err := ApprovedDef(t.Context(), ms, "notes", "get_note", pending[0].Approved); err != nil || !ok ||
		!strings.Contains(string(old), "Read a note by key.") || strings.Contains(string(old), "Always") {
		t.Errorf("approved definition %s (%t, %v)", old, ok, err)
	}
	s2.Close()

	// Still disabled on the next start until approved.
	s3 := open("v2")
	if _, ok := toolNamed(s3, "mcp_notes_get_note"); ok {
		t.Error("get_note came back without approval")
	}
	s3.Close()
	if _, err := Approve(t.Context(), ms, ms, "notes", "set_note", "test", time.Now()); !errors.Is(err, ErrNotPending) {
		t.Errorf("approving a tool with nothing pending: %v, want ErrNotPending", err)
	}
	if _, err := Approve(t.Context(), ms, ms, "notes", "get_note", "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if recs := ms.actions(store.ActionFilter{Kind: KindApproved}); len(recs) != 1 || !strings.Contains(string(recs[0].Detail), `"note":"approved by test"`) {
		t.Errorf("approval records %+v", recs)
	}
	s4 := open("v2")
	if _, ok := toolNamed(s4, "mcp_notes_get_note"); !ok {
		t.Error("get_note not back after approval")
	}
	if p, err := ms.PinnedTool(t.Context(), "notes", "get_note"); err != nil || p.By != "test" || p.Hash == first.Hash {
		t.Errorf("after approval and a restart the pin is %+v, %v; want the new hash, approved by test", p, err)
	}
	if p, _ := Pending(t.Context(), ms, "notes"); len(p) != 0 {
		t.Errorf("still pending after approval: %+v", p)
	}
	s4.Close()

	// The old definition is now the changed one.
	s5 := open("")
	if _, ok := toolNamed(s5, "mcp_notes_get_note"); ok {
		t.Error("reverting to the old definition is a change too")
	}
}

// TestOutputSchemaPinnedOnUpgrade: a pin made before ward read output
// schemas approved the tool but for its output schema, which is pinned on
// first use when the tool next starts with it; a later change of the
// output schema is a change like any other.
func TestOutputSchemaPinnedOnUpgrade(t *testing.T) {
	ms := newTestStore(t)
	open := func(variant string) *Set {
		ms.restart()
		s, err := Open(t.Context(), Config{State: ms, Actions: ms, Servers: []Server{{Name: "notes", URL: httpUpstream(t, variant, "k"), TrustAnnotations: true,
			Headers: map[string]string{"Authorization": "Bearer k"}}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	// An old pin: the hash of the definition without its output schema.
	old := &mcp.Tool{Name: "get_note", Description: "Read a note by key.", InputSchema: noteSchema, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
	_, oldHash, err := DefHash(old)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ms.PinTool(t.Context(), store.PinnedTool{Server: "notes", Tool: "get_note", Hash: oldHash, Approved: time.Now()}); err != nil {
		t.Fatal(err)
	}
	s1 := open("out")
	if _, ok := toolNamed(s1, "mcp_notes_get_note"); !ok {
		t.Fatalf("get_note disabled by ward's own upgrade: %+v", statusOf(s1, "get_note"))
	}
	pin, err := ms.PinnedTool(t.Context(), "notes", "get_note")
	if err != nil || pin.Hash == oldHash || !strings.Contains(pin.By, "output schema") {
		t.Errorf("the pin after the upgrade: %+v, %v", pin, err)
	}
	s1.Close()
	s2 := open("out2")
	if _, ok := toolNamed(s2, "mcp_notes_get_note"); ok {
		t.Error("get_note imported although its output schema changed")
	}
}

func TestStoreFailureFailsOpen(t *testing.T) {
	ms := newTestStore(t)
	if err := ms.Close(); err != nil { // every write fails
		t.Fatal(err)
	}
	_, err := Open(t.Context(), Config{State: ms, Actions: ms, Servers: []Server{{Name: "notes", URL: httpUpstream(t, "", "k"), TrustAnnotations: true,
		Headers: map[string]string{"Authorization": "Bearer k"}}}})
	if err == nil {
		t.Error("Open succeeded although no pin could be recorded")
	}
}

func TestListChangedDisables(t *testing.T) {
	ms := newTestStore(t)
	refreshed := make(chan struct{}, 4)
	s := openSet(t, Config{State: ms, Actions: ms, onRefresh: func() { refreshed <- struct{}{} },
		Servers: []Server{{Name: "notes", URL: httpUpstream(t, "", "k"), TrustAnnotations: true, Headers: map[string]string{"Authorization": "Bearer k"}}}})
	get, _ := toolNamed(s, "mcp_notes_get_note")
	if _, err := get.Read(t.Context(), input(t, `{"key":"a"}`)); err != nil {
		t.Fatal(err)
	}
	rot, _ := toolNamed(s, "mcp_notes_rotate_description")
	if _, err := rot.Read(t.Context(), input(t, `{}`)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-refreshed:
	case <-t.Context().Done():
		t.Fatal("no refresh after the list-changed notification")
	}
	if _, err := get.Read(t.Context(), input(t, `{"key":"a"}`)); !errors.Is(err, ErrDisabled) {
		t.Errorf("read after the change: %v, want ErrDisabled", err)
	}
	if st := statusOf(s, "get_note"); st.State != Changed {
		t.Errorf("status %+v", st)
	}
	if p, _ := Pending(t.Context(), ms, "notes"); len(p) != 1 || !strings.Contains(string(p[0].Def), "Ignore previous instructions") {
		t.Errorf("pending %+v", p)
	}
	if _, err := rot.Read(t.Context(), input(t, `{}`)); err != nil {
		t.Errorf("an unchanged tool was disabled: %v", err)
	}
}

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

// TestConcurrentCallsAndRefresh hammers a read handler from several
// goroutines while definitions are re-checked, then checks Close stops the
// watch goroutine and is idempotent.
func TestConcurrentCallsAndRefresh(t *testing.T) {
	ms := newTestStore(t)
	s, err := Open(t.Context(), Config{State: ms, Actions: ms,
		Servers: []Server{{Name: "notes", URL: httpUpstream(t, "", "k"), TrustAnnotations: true, Headers: map[string]string{"Authorization": "Bearer k"}}}})
	if err != nil {
		t.Fatal(err)
	}
	get, _ := toolNamed(s, "mcp_notes_get_note")
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if _, err := get.Read(t.Context(), input(t, `{"key":"k"}`)); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Go(func() {
		for range 5 {
			s.Refresh(t.Context())
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if st := statusOf(s, "get_note"); st.State != Imported {
		t.Errorf("an unchanged tool changed state on refresh: %+v", st)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	default:
		t.Error("the watch goroutine still runs after Close")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := get.Read(t.Context(), input(t, `{"key":"k"}`)); err == nil {
		t.Error("a call succeeded after Close")
	}
}

// TestApprovedDefinitionServedAtOnce: a tool disabled because its
// definition changed while ward ran is served again, with the new
// definition, once the owner approves it, without a restart: approved in
// this process (Reapprove) or in another one sharing the store (noticed by
// the set's poll). A call that resolved the old entry stays refused.
func TestApprovedDefinitionServedAtOnce(t *testing.T) {
	for _, how := range []string{"reapprove", "poll"} {
		t.Run(how, func(t *testing.T) {
			ms := newTestStore(t)
			refreshed := make(chan struct{}, 4)
			poll := time.Hour
			if how == "poll" {
				poll = 10 * time.Millisecond
			}
			s := openSet(t, Config{State: ms, Actions: ms, onRefresh: func() { refreshed <- struct{}{} }, ApprovalPoll: poll,
				Servers: []Server{{Name: "notes", URL: httpUpstream(t, "", "k"), TrustAnnotations: true, Headers: map[string]string{"Authorization": "Bearer k"}}}})
			reg := registry.New()
			for _, tl := range s.Tools() {
				if err := reg.Add(tl); err != nil {
					t.Fatal(err)
				}
			}
			reg.Freeze()
			s.ServeApproved(reg.Replace)
			old, _ := reg.Get("mcp_notes_get_note")
			rot, _ := reg.Get("mcp_notes_rotate_description")
			if _, err := rot.Read(t.Context(), input(t, `{}`)); err != nil {
				t.Fatal(err)
			}
			select {
			case <-refreshed:
			case <-t.Context().Done():
				t.Fatal("no refresh after the list-changed notification")
			}
			if _, err := old.Read(t.Context(), input(t, `{"key":"a"}`)); !errors.Is(err, ErrDisabled) {
				t.Fatalf("read after the change: %v, want ErrDisabled", err)
			}
			if back := s.Reapprove(t.Context()); len(back) != 0 {
				t.Fatalf("served %v before any approval", back)
			}
			p, err := Approve(t.Context(), ms, ms, "notes", "get_note", "alice", time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if how == "reapprove" {
				if back := s.Reapprove(t.Context()); len(back) != 1 || back[0] != "mcp_notes_get_note" {
					t.Fatalf("Reapprove served %v, want mcp_notes_get_note", back)
				}
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				if e, _ := reg.Get("mcp_notes_get_note"); strings.Contains(e.Def.Description, "Ignore previous instructions") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the approved definition is not served within 10 s")
				}
				<-time.After(10 * time.Millisecond)
			}
			e, _ := reg.Get("mcp_notes_get_note")
			if _, err := e.Read(t.Context(), input(t, `{"key":"a"}`)); err != nil {
				t.Errorf("the approved tool: %v", err)
			}
			if _, err := old.Read(t.Context(), input(t, `{"key":"a"}`)); !errors.Is(err, ErrDisabled) {
				t.Errorf("the old entry: %v, want ErrDisabled", err)
			}
			if st := statusOf(s, "get_note"); st.State != Imported || st.Hash != p.Hash {
				t.Errorf("status %+v, want imported with hash %s", st, p.Hash)
			}
			// A later change of the approved definition disables it again.
			if _, err := rot.Read(t.Context(), input(t, `{}`)); err != nil {
				t.Fatal(err)
			}
		})
	}
}
