package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/wardhq/ward/internal/event"
)

// fakeBackend records decisions and serves a fixed snapshot.
type fakeBackend struct {
	mu      sync.Mutex
	snap    Snapshot
	decided []string // "approve id" / "reject id"
	err     error
}

func (f *fakeBackend) Snapshot(context.Context) (Snapshot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.snap, nil
}

func (f *fakeBackend) Decide(_ context.Context, id string, approve bool) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	verb := "reject"
	if approve {
		verb = "approve"
	}
	f.decided = append(f.decided, verb+" "+id)
	if f.err != nil {
		return "", f.err
	}
	return verb + "d; the call ran", nil
}

func newModel(t *testing.T, b Backend) Model {
	t.Helper()
	do := func(_ time.Duration, f func(context.Context) tea.Msg) tea.Cmd {
		return func() tea.Msg { return f(t.Context()) }
	}
	m := NewModel("http://127.0.0.1:8787", b, do)
	m.width, m.height = 120, 40
	return m
}

// feed applies msgs in order and returns the model and the last command.
func feed(t *testing.T, m Model, msgs ...tea.Msg) (Model, tea.Cmd) {
	t.Helper()
	var cmd tea.Cmd
	for _, msg := range msgs {
		var tm tea.Model
		tm, cmd = m.Update(msg)
		m = tm.(Model)
	}
	return m, cmd
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// plain returns the view's text without its colours.
func plain(m Model) string { return sgr.ReplaceAllString(m.Render(), "") }

// line returns the first line of the plain view containing s, other than
// the agent's line.
func line(t *testing.T, m Model, s string) string {
	t.Helper()
	for l := range strings.SplitSeq(plain(m), "\n") {
		if strings.Contains(l, s) && (!strings.HasPrefix(l, "agent ") || strings.HasPrefix(s, "agent ")) {
			return l
		}
	}
	t.Fatalf("no line contains %q in view:\n%s", s, plain(m))
	return ""
}

func key(s string) tea.KeyPressMsg {
	switch s {
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func ev(kind event.Kind, tool string, f func(*event.Event)) eventMsg {
	e := event.Event{Kind: kind, SessionID: "s1", Tool: tool, ParamsHash: "ab12"}
	if f != nil {
		f(&e)
	}
	return eventMsg(e)
}

func update(tool, step string, i, n int) eventMsg {
	return ev(event.ToolUpdate, tool, func(e *event.Event) { e.Step, e.StepIndex, e.TotalSteps = step, i, n })
}

func TestProgressAdvancesWithSteps(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	m, _ = feed(t, m, ev(event.ToolStart, "uniswap_get_pool_info", nil))
	if l := line(t, m, "uniswap_get_pool_info"); !strings.Contains(l, "starting") || !strings.Contains(l, "read") {
		t.Errorf("started call: got %q, want a read that is starting", l)
	}
	filled := func(l string) int { return strings.Count(l, "█") }
	prev := 0
	for i, step := range []string{"fetching slot0", "fetching liquidity", "decoding"} {
		m, _ = feed(t, m, update("uniswap_get_pool_info", step, i, 3))
		l := line(t, m, "uniswap_get_pool_info")
		if want := step; !strings.Contains(l, want) {
			t.Errorf("step %d: got %q, want the step name %q", i, l, want)
		}
		if want := []string{"1/3", "2/3", "3/3"}[i]; !strings.Contains(l, want) {
			t.Errorf("step %d: got %q, want %q", i, l, want)
		}
		if n := filled(l); n <= prev {
			t.Errorf("step %d: %d cells filled, want more than %d", i, n, prev)
		} else {
			prev = n
		}
	}
	m, _ = feed(t, m, ev(event.ToolEnd, "uniswap_get_pool_info", func(e *event.Event) { e.Success, e.DurationMS = true, 42 }))
	l := line(t, m, "uniswap_get_pool_info")
	if !strings.Contains(l, "✓") || !strings.Contains(l, "42ms") {
		t.Errorf("ended call: got %q, want ✓ and 42ms", l)
	}
	if strings.Contains(l, "░") {
		t.Errorf("ended call: got %q, want a full bar", l)
	}
}

func TestUpdateMatchesItsCall(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	m, _ = feed(t, m,
		ev(event.ToolStart, "erc20_balance_of", func(e *event.Event) { e.SessionID = "a" }),
		ev(event.ToolStart, "erc20_balance_of", func(e *event.Event) { e.SessionID = "b" }),
		ev(event.ToolUpdate, "erc20_balance_of", func(e *event.Event) { e.SessionID, e.Step, e.StepIndex, e.TotalSteps = "a", "reading", 1, 2 }),
		ev(event.ToolEnd, "erc20_balance_of", func(e *event.Event) { e.SessionID, e.Success = "b", true }),
	)
	if len(m.calls) != 2 {
		t.Fatalf("got %d calls, want 2", len(m.calls))
	}
	a, b := m.calls[0], m.calls[1]
	if a.state != callRunning || a.step != "reading" || a.index != 1 || a.total != 2 {
		t.Errorf("session a's call = %+v, want running at step 2/2 reading", a)
	}
	if b.state != callOK || b.step != "" {
		t.Errorf("session b's call = %+v, want ended without steps", b)
	}
}

func TestSprite(t *testing.T) {
	consumed := ev(event.PermitConsumed, "uniswap_swap_exact", func(e *event.Event) { e.PermitID = "p1" })
	failed := ev(event.ToolError, "uniswap_swap_exact", func(e *event.Event) { e.Code, e.Message = "EXECUTION_FAILED", "uniswap_swap_exact failed" })
	for _, tc := range []struct {
		name string
		msgs []tea.Msg
		want sprite
	}{
		{"idle", nil, spriteIdle},
		{"read runs", []tea.Msg{ev(event.ToolStart, "chain_get_balance", nil)}, spriteThinking},
		{"write runs", []tea.Msg{consumed, ev(event.ToolStart, "uniswap_swap_exact", nil)}, spriteExecuting},
		{"write beside a read", []tea.Msg{consumed, ev(event.ToolStart, "uniswap_swap_exact", nil), ev(event.ToolStart, "chain_get_balance", nil)}, spriteExecuting},
		{"permit of another session", []tea.Msg{consumed, ev(event.ToolStart, "uniswap_swap_exact", func(e *event.Event) { e.SessionID = "s2" })}, spriteThinking},
		{"success", []tea.Msg{ev(event.ToolStart, "chain_get_balance", nil), ev(event.ToolEnd, "chain_get_balance", func(e *event.Event) { e.Success = true })}, spriteSuccess},
		{"result is an error", []tea.Msg{ev(event.ToolStart, "chain_get_balance", nil), ev(event.ToolEnd, "chain_get_balance", nil)}, spriteFailure},
		{"failure", []tea.Msg{consumed, ev(event.ToolStart, "uniswap_swap_exact", nil), failed}, spriteFailure},
		{"flash over", []tea.Msg{ev(event.ToolStart, "chain_get_balance", nil), ev(event.ToolEnd, "chain_get_balance", func(e *event.Event) { e.Success = true }), flashMsg{gen: 1}}, spriteIdle},
		{"older flash timer", []tea.Msg{
			ev(event.ToolStart, "a", nil), ev(event.ToolEnd, "a", func(e *event.Event) { e.Success = true }),
			ev(event.ToolStart, "b", nil), failed, ev(event.ToolError, "b", nil), flashMsg{gen: 1},
		}, spriteFailure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := feed(t, newModel(t, &fakeBackend{}), tc.msgs...)
			if got, _ := m.sprite(); got != tc.want {
				t.Errorf("sprite = %v, want %v", got, tc.want)
			}
			if l := line(t, m, "agent "); !strings.Contains(l, tc.want.String()) {
				t.Errorf("view: got %q, want it to say %q", l, tc.want)
			}
		})
	}
}

func TestEndStartsFlashTimerAndRefresh(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	m, _ = feed(t, m, ev(event.ToolStart, "x", nil))
	m, cmd := feed(t, m, ev(event.ToolEnd, "x", func(e *event.Event) { e.Success = true }))
	if cmd == nil {
		t.Fatal("tool:end returned no command: want the flash timer and a refresh")
	}
	if !m.fetching {
		t.Error("tool:end did not ask for a snapshot")
	}
}

func held(ids ...string) Snapshot {
	var s Snapshot
	for _, id := range ids {
		s.Held = append(s.Held, Held{ID: id, Tool: "tool_" + id, Code: "QUARANTINED", Reason: "held for review"})
	}
	return s
}

func TestQuarantineSelectApproveReject(t *testing.T) {
	b := &fakeBackend{}
	m := newModel(t, b)
	m, _ = feed(t, m, snapshotMsg{snap: held("q1", "q2", "q3")})
	if l := line(t, m, "q1"); !strings.HasPrefix(l, "> ") {
		t.Errorf("first item not selected: %q", l)
	}
	for _, tc := range []struct {
		key, want string
	}{
		{"down", "q2"}, {"j", "q3"}, {"j", "q3"}, {"up", "q2"}, {"k", "q1"}, {"k", "q1"}, {"down", "q2"},
	} {
		m, _ = feed(t, m, key(tc.key))
		if m.selected != tc.want {
			t.Fatalf("after %s: selected %q, want %q", tc.key, m.selected, tc.want)
		}
		if l := line(t, m, tc.want); !strings.HasPrefix(l, "> ") {
			t.Errorf("after %s: view does not mark %s: %q", tc.key, tc.want, l)
		}
	}

	m, cmd := feed(t, m, key("a"))
	if cmd != nil || m.confirm != "approve" || !m.detail {
		t.Fatalf("a alone: command %v, confirm %q, detail %v; want a confirmation asked in the detail view", cmd != nil, m.confirm, m.detail)
	}
	m, cmd = feed(t, m, key("y"))
	if cmd == nil {
		t.Fatal("a then y returned no command")
	}
	if got := line(t, m, "approving"); !strings.Contains(got, "q2") {
		t.Errorf("status = %q, want approving q2", got)
	}
	// A second key while the first decision is in flight is refused.
	if m2, cmd2 := feed(t, m, key("r")); cmd2 != nil || !strings.Contains(m2.status, "waiting") {
		t.Errorf("r during a decision: cmd %v, status %q; want no command and a wait notice", cmd2 != nil, m2.status)
	}
	msg := cmd()
	if !slices.Equal(b.decided, []string{"approve q2"}) {
		t.Fatalf("backend got %v, want [approve q2]", b.decided)
	}
	b.snap = held("q1", "q3")
	m, cmd = feed(t, m, msg)
	if !strings.Contains(plain(m), "approved q2: approved; the call ran") {
		t.Errorf("view lacks the status 'approved q2' with the outcome:\n%s", plain(m))
	}
	if m.selected != "q3" {
		t.Errorf("after approving q2 selected %q, want the next item q3", m.selected)
	}
	if cmd == nil {
		t.Fatal("a decision did not refresh the queue")
	}
	m, _ = feed(t, m, cmd())

	m, _ = feed(t, m, key("r"))
	m, cmd = feed(t, m, key("y"))
	_ = cmd()
	if !slices.Equal(b.decided, []string{"approve q2", "reject q3"}) {
		t.Fatalf("backend got %v, want [approve q2 reject q3]", b.decided)
	}
}

func TestDecideFailureShown(t *testing.T) {
	b := &fakeBackend{err: errors.New("403 Forbidden: FORBIDDEN: the agent role may not do this")}
	m, _ := feed(t, newModel(t, b), snapshotMsg{snap: held("q1")})
	m, cmd := feed(t, m, key("a"), key("y"))
	m, _ = feed(t, m, cmd())
	if got := line(t, m, "could not approve"); !strings.Contains(got, "FORBIDDEN") {
		t.Errorf("status = %q, want the API's error", got)
	}
	if len(m.held) != 1 || m.selected != "q1" {
		t.Errorf("a failed approval removed the item: held %v, selected %q", m.held, m.selected)
	}
}

func TestDecideOnEmptyQueue(t *testing.T) {
	b := &fakeBackend{}
	m, cmd := feed(t, newModel(t, b), key("a"))
	if cmd != nil || !strings.Contains(m.status, "empty") {
		t.Errorf("a on an empty queue: command %v, status %q", cmd != nil, m.status)
	}
}

// The selection is an id: a refresh that adds items above it must not
// move the owner's next a onto another call.
func TestSelectionFollowsItemAcrossRefresh(t *testing.T) {
	m, _ := feed(t, newModel(t, &fakeBackend{}), snapshotMsg{snap: held("q1", "q2")}, key("j"))
	m, _ = feed(t, m, snapshotMsg{snap: held("q0", "qa", "q1", "q2")})
	if m.selected != "q2" {
		t.Errorf("selected %q after a refresh, want q2", m.selected)
	}
	m, _ = feed(t, m, snapshotMsg{snap: held("q0", "qa", "q1")})
	if m.selected != "q1" {
		t.Errorf("selected %q after q2 left, want q1 (the item now at its place)", m.selected)
	}
	m, _ = feed(t, m, snapshotMsg{snap: Snapshot{}})
	if m.selected != "" || !strings.Contains(plain(m), "Quarantine (0)") {
		t.Errorf("empty queue: selected %q, view:\n%s", m.selected, plain(m))
	}
	// Items without an id, or repeating one, cannot be decided and are
	// not shown.
	m, _ = feed(t, m, snapshotMsg{snap: Snapshot{Held: []Held{{ID: ""}, {ID: "x"}, {ID: "x"}}}})
	if len(m.held) != 1 {
		t.Errorf("kept %d items, want 1", len(m.held))
	}
}

func TestVetoesAndDecisions(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	m, _ = feed(t, m, snapshotMsg{snap: Snapshot{Decisions: []Decision{
		{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Tool: "uniswap_swap_exact", Decision: "deny", Code: "SPEND_LIMIT", Message: "daily spend exceeded"},
	}}})
	m, _ = feed(t, m, ev(event.GateVetoed, "erc20_approve", func(e *event.Event) {
		e.Code, e.Message, e.Payload = "APPROVAL_UNLIMITED", "unlimited approvals are refused", event.Veto{Stage: "allowlist"}
	}))
	view := plain(m)
	v, d := strings.Index(view, "APPROVAL_UNLIMITED"), strings.Index(view, "SPEND_LIMIT")
	if v < 0 || d < 0 || v > d {
		t.Errorf("want the veto (newest) above the decision, both with codes:\n%s", view)
	}
	if l := line(t, m, "APPROVAL_UNLIMITED"); !strings.Contains(l, "vetoed") || !strings.Contains(l, "(allowlist)") {
		t.Errorf("veto line = %q, want vetoed and its stage", l)
	}
}

func TestHeader(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	m, _ = feed(t, m, snapshotMsg{snap: Snapshot{Gate: Gate{Phase: "stable", Spend: []Spend{
		{Name: "hour", UsedCents: 1200, LimitCents: 5000},
		{Name: "day", UsedCents: 19000, HeldCents: 500, LimitCents: 20000},
		{Name: "gas", UsedCents: 7},
	}}}})
	if l := line(t, m, "phase"); !strings.Contains(l, "stable") || !strings.Contains(l, "running") {
		t.Errorf("phase line = %q", l)
	}
	for _, want := range []string{"$12.00 / $50.00   24%", "$190.00 / $200.00   95% + $5.00 held by permits", "$0.07 (no limit)"} {
		if !strings.Contains(plain(m), want) {
			t.Errorf("view lacks %q:\n%s", want, plain(m))
		}
	}
	m, _ = feed(t, m, eventMsg{Kind: event.GateHalted, Message: "owner pressed the button"})
	if l := line(t, m, "phase"); !strings.Contains(l, "HALTED") || !strings.Contains(l, "owner pressed the button") {
		t.Errorf("halted: phase line = %q", l)
	}
	m, _ = feed(t, m, eventMsg{Kind: event.GateResumed}, eventMsg{Kind: event.GatePhase, Message: "conservation"})
	if l := line(t, m, "phase"); strings.Contains(l, "HALTED") || !strings.Contains(l, "conservation") {
		t.Errorf("resumed in conservation: phase line = %q", l)
	}
}

func TestConnection(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	if l := line(t, m, "ward"); !strings.Contains(l, "connecting") {
		t.Errorf("initial state: %q", l)
	}
	m, _ = feed(t, m, connMsg{state: connLive}, ev(event.ToolStart, "slow_read", nil))
	if l := line(t, m, "ward"); !strings.Contains(l, "live") {
		t.Errorf("live: %q", l)
	}
	m, _ = feed(t, m, connMsg{state: connDown, err: "connection refused\x1b[2J", retryIn: 2 * time.Second})
	if l := line(t, m, "ward"); !strings.Contains(l, "disconnected (retry in 2s)") || !strings.Contains(l, "connection refused") {
		t.Errorf("down: %q", l)
	}
	if got, _ := m.sprite(); got != spriteThinking {
		t.Errorf("while down the running read shows %v, want thinking", got)
	}
	m, _ = feed(t, m, connMsg{state: connConnecting}, connMsg{state: connLive})
	if l := line(t, m, "slow_read"); !strings.Contains(l, "end not seen") {
		t.Errorf("a call running across a reconnect: %q, want it marked as lost", l)
	}
	if got, _ := m.sprite(); got != spriteIdle {
		t.Errorf("after a reconnect the sprite is %v, want idle", got)
	}
	// The daemon replays what it holds: the call's end revives it.
	m, _ = feed(t, m, ev(event.ToolEnd, "slow_read", func(e *event.Event) { e.Success, e.DurationMS = true, 9000 }))
	if l := line(t, m, "slow_read"); !strings.Contains(l, "✓") || !strings.Contains(l, "9000ms") {
		t.Errorf("a lost call whose end was replayed: %q", l)
	}
}

func TestGapLosesRunningCalls(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	m, _ = feed(t, m, connMsg{state: connLive},
		ev(event.PermitConsumed, "weth_wrap_eth", nil), ev(event.ToolStart, "weth_wrap_eth", nil),
		eventMsg{Kind: gapKind})
	if l := line(t, m, "weth_wrap_eth"); !strings.Contains(l, "end not seen") {
		t.Errorf("after a gap: %q, want the call marked lost", l)
	}
	if l := line(t, m, "ward"); !strings.Contains(l, "1 gaps") {
		t.Errorf("header after a gap: %q", l)
	}
	// The consumed permit was forgotten with the gap: a later start of
	// the tool is not taken for the write.
	m, _ = feed(t, m, ev(event.PermitConsumed, "weth_wrap_eth", nil), eventMsg{Kind: gapKind}, ev(event.ToolStart, "weth_wrap_eth", nil))
	if got, _ := m.sprite(); got != spriteThinking {
		t.Errorf("sprite = %v, want thinking", got)
	}
}

func TestKeys(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	m, _ = feed(t, m, key("?"))
	if !strings.Contains(plain(m), "approve the selected call") {
		t.Errorf("? did not show help:\n%s", plain(m))
	}
	m, _ = feed(t, m, key("esc"))
	if strings.Contains(plain(m), "approve the selected call") {
		t.Error("esc did not hide help")
	}
	for _, k := range []tea.KeyPressMsg{key("q"), {Code: 'c', Mod: tea.ModCtrl}} {
		_, cmd := feed(t, m, k)
		if cmd == nil {
			t.Fatalf("%s returned no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok {
			t.Errorf("%s did not quit", k)
		}
	}
}

func TestSnapshotCoalesces(t *testing.T) {
	b := &fakeBackend{}
	m := newModel(t, b)
	m, c1 := feed(t, m, pollMsg{})
	if c1 == nil || !m.fetching {
		t.Fatal("poll did not fetch")
	}
	m, c2 := feed(t, m, ev(event.GateVetoed, "x", nil))
	if c2 != nil {
		t.Error("a second refresh while one is in flight started another fetch")
	}
	m, c3 := feed(t, m, snapshotMsg{})
	if c3 == nil || !m.fetching {
		t.Error("the queued refresh did not run after the first")
	}
	m, c4 := feed(t, m, snapshotMsg{err: errors.New("GET /v1/gate: 500 Internal Server Error")})
	if c4 != nil || m.fetching {
		t.Error("a fetch ran with nothing queued")
	}
	if !strings.Contains(plain(m), "api: GET /v1/gate: 500") {
		t.Errorf("snapshot error not shown:\n%s", plain(m))
	}
}

func TestViewFitsWindow(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	var msgs []tea.Msg
	for i := range 50 {
		msgs = append(msgs, ev(event.ToolStart, strings.Repeat("long_tool_name_", 3)+string(rune('a'+i%26)), nil))
	}
	snap := held()
	for i := range 40 {
		snap.Held = append(snap.Held, Held{ID: fmt.Sprintf("q%02d", i), Tool: "t", Reason: strings.Repeat("why ", 40)})
	}
	msgs = append(msgs, snapshotMsg{snap: snap}, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = feed(t, m, msgs...)
	for range 39 {
		m, _ = feed(t, m, key("j"))
	}
	lines := strings.Split(plain(m), "\n")
	if len(lines) > 24 {
		t.Errorf("view has %d lines, want at most 24", len(lines))
	}
	for _, l := range lines {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("line of %d columns: %q", w, l)
		}
	}
	if l := line(t, m, "q39"); !strings.HasPrefix(l, "> ") {
		t.Errorf("the selected last item is not visible: %q", l)
	}
}

// Strings from the API are the attacker's: none of their control
// sequences may reach the terminal. The only escapes in the view are the
// view's own colours (SGR).
func TestHostileStringsCannotReachTerminal(t *testing.T) {
	evil := "evil\x1b]0;owned\x07\x1b[2J\x1b[1;1H\x9b31m\u202eexe.txt\r\ndone\x1bPq#0\x1b\\\x00\x7f\xc2\x9b2J\xff"
	m := newModel(t, &fakeBackend{})
	m, _ = feed(t, m,
		connMsg{state: connDown, err: evil},
		eventMsg{Kind: event.PermitConsumed, SessionID: evil, Tool: evil},
		eventMsg{Kind: event.ToolStart, SessionID: evil, Tool: evil, ParamsHash: evil},
		eventMsg{Kind: event.ToolUpdate, SessionID: evil, Tool: evil, Step: evil, StepIndex: -5, TotalSteps: 1 << 40},
		eventMsg{Kind: event.ToolError, SessionID: evil, Tool: evil, Code: evil, Message: evil},
		eventMsg{Kind: event.GateVetoed, Tool: evil, Code: evil, Message: evil, Payload: event.Veto{Stage: evil}},
		eventMsg{Kind: event.GateHalted, Message: evil},
		eventMsg{Kind: event.GatePhase, Message: evil},
		snapshotMsg{snap: Snapshot{
			Gate: Gate{Phase: evil, HaltReason: evil, Spend: []Spend{{Name: evil, UsedCents: -1, LimitCents: 3}}},
			Held: []Held{{ID: evil, Tool: evil, Session: evil, Code: evil, Reason: evil, Rule: evil, Description: &Description{
				Summary: evil, Value: evil, Unpriced: []string{evil}, Args: evil, Rule: evil, Taint: evil, Provenance: []string{evil},
				Balances: []string{evil}, Tokens: []TokenLine{{Direction: evil, Amount: evil, Symbol: evil, Token: evil, Claimed: evil, Mismatch: true, Spender: evil}},
				Parties: []PartyLine{{Role: evil, Address: evil, Name: evil}},
			}}},
			Decisions: []Decision{{Tool: evil, Decision: evil, Code: evil, Message: evil, Review: evil}},
			Missing:   []string{evil},
		}},
		snapshotMsg{err: errors.New(evil)},
	)
	m, _ = feed(t, m, key("enter"), key("a"))
	detail := sgr.ReplaceAllString(m.Render(), "") // the detail view, asking for the confirmation
	m, cmd := feed(t, m, key("y"))
	m, _ = feed(t, m, cmd())
	view := m.Render()
	rest := detail + "\n" + sgr.ReplaceAllString(view, "")
	for i, r := range rest {
		if r == '\n' {
			continue
		}
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u202e' {
			t.Fatalf("control character %U at byte %d of the view (SGR removed):\n%q", r, i, rest)
		}
	}
	if !strings.Contains(rest, "evil") || !strings.Contains(rest, "exe.txt  done") {
		t.Errorf("the printable text was lost:\n%s", rest)
	}
}

// describedHeld is a held transfer with the description the gate makes.
func describedHeld() Snapshot {
	return Snapshot{Held: []Held{{ID: "q1", Tool: "erc20_transfer_token", Tier: "write", Session: "s1", Code: "VALUE_REVIEW",
		Reason: "transfers above $100 to unknown addresses wait", Rule: "ward.value.unknown-recipient",
		Description: &Description{Summary: "transfer 250 USDC", Value: "$250.00", Taint: "tainted", Provenance: []string{"to=untrusted"},
			Tokens: []TokenLine{
				{Direction: "out", Amount: "250", Symbol: "USDC", Token: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", Listed: true},
				{Direction: "out", Amount: "1", Symbol: "USDT", Token: "0xdEAD000000000000000000000000000000000000", Claimed: "USDT", Mismatch: true},
			},
			Parties:  []PartyLine{{Role: "recipient", Address: "0x52908400098527886E0F7030069857D2E4169EE7", Name: "treasury", Known: true}},
			Balances: []string{"-250 USDC"},
			Args:     `{"amount":"250","to":"0x52908400098527886E0F7030069857D2E4169EE7"}`}}}}
}

// TestDetailAndConfirmation: enter shows the selected call in full; a and
// r ask before deciding; n and esc decide nothing; y decides the item
// shown, once.
func TestDetailAndConfirmation(t *testing.T) {
	b := &fakeBackend{}
	m, _ := feed(t, newModel(t, b), snapshotMsg{snap: describedHeld()})
	if l := line(t, m, "q1"); !strings.Contains(l, "$250.00 · out 250 USDC · out 1 USDT") {
		t.Errorf("queue row = %q, want the value and tokens in brief", l)
	}
	m, _ = feed(t, m, key("enter"))
	view := plain(m)
	for _, want := range []string{
		"Held call q1", "erc20_transfer_token (write)", "VALUE_REVIEW", "ward.value.unknown-recipient", "$250.00",
		"250 USDC  0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
		"recipient   0x52908400098527886E0F7030069857D2E4169EE7  treasury",
		`! not in the address book`, "balance     -250 USDC", "tainted; not trusted: to=untrusted", `"amount":"250"`,
	} {
		if !strings.Contains(view, want) {
			t.Errorf("detail view lacks %q:\n%s", want, view)
		}
	}
	m, cmd := feed(t, m, key("a"))
	if cmd != nil || !regexp.MustCompile(`Approve q1\? +y yes · n no`).MatchString(plain(m)) {
		t.Fatalf("a: command %v; want the question:\n%s", cmd != nil, plain(m))
	}
	// Other keys do not decide, nor move the selection under the question.
	m, cmd = feed(t, m, key("j"), key("a"), key("enter"))
	if cmd != nil || m.confirm != "approve" {
		t.Fatalf("keys under the question: command %v, confirm %q", cmd != nil, m.confirm)
	}
	m, cmd = feed(t, m, key("n"))
	if cmd != nil || m.confirm != "" || !m.detail || len(b.decided) != 0 || !strings.Contains(m.status, "not approved") {
		t.Fatalf("n: command %v, confirm %q, detail %v, decided %v, status %q", cmd != nil, m.confirm, m.detail, b.decided, m.status)
	}
	m, _ = feed(t, m, key("esc"))
	if m.detail || !strings.Contains(plain(m), "Quarantine (1)") {
		t.Fatalf("esc did not go back to the lists:\n%s", plain(m))
	}
	// An item that goes away while its question is open takes the
	// question with it: y then decides nothing.
	m, _ = feed(t, m, key("r"), snapshotMsg{snap: held("q9")})
	if m.confirm != "" {
		t.Fatalf("the question outlived its item: confirm %q on %s", m.confirm, m.selected)
	}
	if _, cmd = feed(t, m, key("y")); cmd != nil || len(b.decided) != 0 {
		t.Fatalf("y without a question decided %v", b.decided)
	}
	m, _ = feed(t, m, snapshotMsg{snap: describedHeld()})
	m, _ = feed(t, m, key("r"))
	m, cmd = feed(t, m, key("y"))
	if cmd == nil {
		t.Fatal("r then y returned no command")
	}
	cmd()
	if !slices.Equal(b.decided, []string{"reject q1"}) {
		t.Errorf("backend got %v, want [reject q1]", b.decided)
	}
}

// TestVetoesStayAndReviewsShow: a veto stays in the decisions across
// snapshots (it is no decision of the trail), and a decision that held a
// call says what the owner made of it.
func TestVetoesStayAndReviewsShow(t *testing.T) {
	m := newModel(t, &fakeBackend{})
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m, _ = feed(t, m, ev(event.GateVetoed, "erc20_transfer_token", func(e *event.Event) {
		e.Time, e.Code, e.Message, e.Payload = at.Add(time.Minute), "REJECTED_BY_OWNER", "the owner rejected this same call", event.Veto{Stage: "quarantine"}
	}))
	snap := Snapshot{Decisions: []Decision{
		{ID: "d1", Time: at, Tool: "erc20_transfer_token", Decision: "quarantine", Code: "VALUE_REVIEW"},
		{ID: "d2", Time: at.Add(-time.Minute), Tool: "uniswap_execute_swap", Decision: "quarantine", Code: "SWAP_REVIEW"},
		{ID: "d3", Time: at.Add(-2 * time.Minute), Tool: "data_get_portfolio_snapshot", Decision: "quarantine", Code: "READ_REVIEW"},
	}, Reviews: map[string]string{"d1": "rejected", "d2": "approved"}}
	m, _ = feed(t, m, snapshotMsg{snap: snap}, snapshotMsg{snap: snap})
	view := plain(m)
	if v, d := strings.Index(view, "REJECTED_BY_OWNER"), strings.Index(view, "VALUE_REVIEW"); v < 0 || d < 0 || v > d {
		t.Fatalf("want the veto, newest, above the decisions after two snapshots:\n%s", view)
	}
	for code, want := range map[string]string{"VALUE_REVIEW": "rejected", "SWAP_REVIEW": "approved"} {
		if l := line(t, m, code); !strings.Contains(l, "quarantine "+want) {
			t.Errorf("decision row %q, want it marked %s", l, want)
		}
	}
	if l := line(t, m, "READ_REVIEW"); strings.Contains(l, "approved") || strings.Contains(l, "rejected") {
		t.Errorf("an unreviewed decision is marked: %q", l)
	}
}

// TestAgentMeters: the header's meters are the day's and each agent
// session's, not the TUI's own tick and session.
func TestAgentMeters(t *testing.T) {
	var w gateWire
	if err := json.Unmarshal([]byte(`{"phase":"stable","spend":[
		{"window":"tick","spent_cents":0,"limit_cents":5000},{"window":"session","spent_cents":0,"limit_cents":100000},
		{"window":"daily","spent_cents":4200,"limit_cents":200000}],
		"agent_spend":[{"session_id":"s-1","name":"trader","spend":[{"window":"tick","spent_cents":700,"limit_cents":5000},
		{"window":"session","spent_cents":2500,"held_cents":900,"limit_cents":100000}]}]}`), &w); err != nil {
		t.Fatal(err)
	}
	m, _ := feed(t, newModel(t, &fakeBackend{}), snapshotMsg{snap: Snapshot{Gate: w.gate()}})
	if l := line(t, m, "agent trader"); !strings.Contains(l, "$25.00 / $1000.00") || !strings.Contains(l, "$9.00 held") {
		t.Errorf("agent meter = %q, want the agent session's $25.00 of $1000.00 and its $9.00 held", l)
	}
	if l := line(t, m, "daily"); !strings.Contains(l, "$42.00 / $2000.00") {
		t.Errorf("daily meter = %q", l)
	}
	if strings.Contains(plain(m), "spend tick") || strings.Contains(plain(m), "spend session") {
		t.Errorf("the TUI's own session's meters are shown:\n%s", plain(m))
	}
}
