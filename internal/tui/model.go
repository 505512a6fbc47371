package tui

import (
	"context"
	"maps"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/wardhq/ward/internal/event"
)

// Bounds on what the model keeps: the view shows the newest that fit.
const (
	maxCalls     = 100
	maxDecisions = 100
	maxHeld      = 500
	maxText      = 160 // runes kept of any API string
	maxName      = 64  // runes kept of names and ids
)

// How long a success or failure flash shows, how often the model
// refreshes the gate, the quarantine queue and the decisions, and how long
// it waits for the API.
// An approval runs the held call (the API allows it 3 minutes).
const (
	flashFor      = 1500 * time.Millisecond
	pollEvery     = 2 * time.Second
	fetchTimeout  = 10 * time.Second
	decideTimeout = 3*time.Minute + 10*time.Second
)

// Backend is what the model asks of ward's API besides the event stream.
// *Client implements it; tests use a fake.
type Backend interface {
	// Snapshot returns the gate's status, the quarantine queue and the
	// recent decisions.
	Snapshot(ctx context.Context) (Snapshot, error)
	// Decide approves (approve true) or rejects the quarantined item id
	// and says what the review did.
	Decide(ctx context.Context, id string, approve bool) (string, error)
}

var _ Backend = (*Client)(nil)

// Snapshot is the polled part of the view, as the API returned it
// (strings uncleaned: the model cleans them).
type Snapshot struct {
	Gate      Gate
	Held      []Held
	Decisions []Decision
	// Reviews maps decision ids to the review status of the call they
	// held (GET /v1/quarantine?status=all).
	Reviews map[string]string
	// Missing names the parts the API does not serve (404), shown as such.
	Missing []string
}

// Gate is the gate's status.
type Gate struct {
	Phase      string
	Halted     bool
	HaltReason string
	Spend      []Spend
}

// Spend is one spending window against its limit.
type Spend struct {
	Name       string // "tick", "daily", ...
	UsedCents  int64  // spent
	HeldCents  int64  // held by pending permits
	LimitCents int64  // 0: no limit
}

// Held is one quarantined call awaiting the owner.
type Held struct {
	ID      string
	Tool    string
	Tier    string // read, write, privileged
	Session string
	Code    string // reason code
	Reason  string
	Rule    string
	Time    time.Time
	Expires time.Time
	// Description is what the call would do (nil when the daemon sent
	// none).
	Description *Description
}

// Decision is one recent decision or veto.
type Decision struct {
	ID       string // the decision record's id ("" for a veto)
	Time     time.Time
	Tool     string
	Decision string // allow, deny, quarantine, vetoed, ...
	Code     string
	Message  string
	// Review is, for a decision that held the call, what the owner made
	// of it: pending, approved, rejected or expired ("" when unknown).
	Review string
}

// connState is the event stream's state.
type connState uint8

const (
	connConnecting connState = iota
	connLive
	connDown
)

// Messages the model receives besides keys and window sizes.
type (
	eventMsg event.Event
	connMsg  struct {
		state   connState
		err     string
		retryIn time.Duration
	}
	snapshotMsg struct {
		snap Snapshot
		err  error
	}
	decidedMsg struct {
		id      string
		approve bool
		summary string
		err     error
	}
	pollMsg  struct{}
	flashMsg struct{ gen int }
)

// sprite is the agent's state as the view draws it.
type sprite uint8

const (
	spriteIdle sprite = iota
	spriteThinking
	spriteExecuting
	spriteSuccess
	spriteFailure
)

func (s sprite) String() string {
	return [...]string{"idle", "thinking", "executing", "success", "failure"}[s]
}

// callState is a call's state in the list.
type callState uint8

const (
	callRunning callState = iota
	callOK
	callFailed
	callLost // its end was not seen (the stream dropped)
)

type call struct {
	session, tool, hash string
	write               bool
	step                string
	index, total        int // index of the step entered, from 0; total 0: none yet
	state               callState
	durationMS          int64
	code, message       string
}

// Model is the TUI's state. Update and View are pure functions of it and
// the message: it does no I/O itself, but returns commands that do it
// through its Backend. The zero Model is not usable; make one with
// NewModel.
type Model struct {
	backend Backend
	// do wraps the backend call f in a command (with the program's
	// context and the timeout).
	do   func(timeout time.Duration, f func(context.Context) tea.Msg) tea.Cmd
	addr string

	width, height int

	conn        connMsg
	everLive    bool
	gate        Gate
	gateKnown   bool
	missing     []string
	snapErr     string
	calls       []call
	decisions   []Decision // from the API, newest first
	vetoes      []Decision // from gate:vetoed events since the last snapshot
	held        []Held
	selected    string // id of the selected quarantined item
	detail      bool   // the selected item's detail view is shown
	confirm     string // "approve" or "reject" of the selected item, awaiting y or n
	flash       sprite
	flashGen    int
	writesDue   map[string]int // session\x00tool → consumed permits not yet started
	status      string
	help        bool
	fetching    bool
	fetchAgain  bool
	deciding    string
	eventsTotal uint64
	gaps        int // stream:gap events: the daemon dropped events for us
}

var _ tea.Model = Model{}

// gapKind is the API's event saying the stream lost events.
const gapKind event.Kind = "stream:gap"

// NewModel returns a model that shows addr and talks to b through do.
// do must return a command that runs f with a bounded context; Run builds
// it from its context.
func NewModel(addr string, b Backend, do func(timeout time.Duration, f func(context.Context) tea.Msg) tea.Cmd) Model {
	return Model{backend: b, do: do, addr: clean(addr, maxText), width: 100, height: 32,
		writesDue: map[string]int{}}
}

// Init starts the first snapshot and the polling clock.
func (m Model) Init() tea.Cmd {
	return tea.Batch(m.fetch(), poll())
}

func poll() tea.Cmd {
	return tea.Tick(pollEvery, func(time.Time) tea.Msg { return pollMsg{} })
}

func (m Model) fetch() tea.Cmd {
	b := m.backend
	return m.do(fetchTimeout, func(ctx context.Context) tea.Msg {
		s, err := b.Snapshot(ctx)
		return snapshotMsg{snap: s, err: err}
	})
}

// refresh asks for a snapshot, or for another one after the one in flight.
func (m *Model) refresh() tea.Cmd {
	if m.fetching {
		m.fetchAgain = true
		return nil
	}
	m.fetching = true
	return m.fetch()
}

// Update applies msg.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case eventMsg:
		return m.event(event.Event(msg))
	case connMsg:
		msg.err = clean(msg.err, maxText)
		if msg.state == connLive && m.everLive {
			// Events may have been missed while the stream was down (the
			// daemon replays what it still holds, and the replay can
			// bring these calls' ends).
			m.calls = slices.Clone(m.calls)
			m.loseRunning()
		}
		if msg.state == connLive {
			m.everLive = true
		}
		m.conn = msg
		if msg.state == connLive {
			return m, m.refresh()
		}
		return m, nil
	case snapshotMsg:
		m.fetching = false
		if msg.err != nil {
			m.snapErr = clean(msg.err.Error(), maxText)
		} else {
			m.snapErr = ""
			m.applySnapshot(msg.snap)
		}
		if m.fetchAgain {
			m.fetchAgain = false
			m.fetching = true
			return m, m.fetch()
		}
		return m, nil
	case pollMsg:
		return m, tea.Batch(m.refresh(), poll())
	case flashMsg:
		if msg.gen == m.flashGen {
			m.flash = spriteIdle
		}
		return m, nil
	case decidedMsg:
		m.deciding = ""
		verb, done := "approve", "approved"
		if !msg.approve {
			verb, done = "reject", "rejected"
		}
		if msg.err != nil {
			m.status = "could not " + verb + " " + msg.id + ": " + clean(msg.err.Error(), maxText)
		} else {
			m.status = done + " " + msg.id
			if msg.summary != "" {
				m.status += ": " + clean(msg.summary, maxText)
			}
			was := m.selectedIndex()
			m.held = slices.DeleteFunc(slices.Clone(m.held), func(h Held) bool { return h.ID == msg.id })
			if m.selected == msg.id {
				m.detail = false
			}
			m.fixSelection(was)
		}
		return m, m.refresh()
	}
	return m, nil
}

func (m Model) key(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	key := k.String()
	if m.confirm != "" {
		// A decision waits for its confirmation: only y, n, esc and quit.
		switch key {
		case "y", "Y":
			return m.decide()
		case "n", "N", "esc":
			m.status = "not " + past(m.confirm) + ": " + m.selected + " still waits"
			m.confirm = ""
		case "q", "ctrl+c":
			return m, tea.Quit
		default:
			m.status = m.confirm + " " + m.selected + "? y yes · n no"
		}
		return m, nil
	}
	switch key {
	case "q", "ctrl+c":
		return m, tea.Quit
	case "?":
		m.help = !m.help
	case "esc":
		m.help = false
		m.detail = false
	case "enter":
		if m.selected == "" {
			m.status = "the quarantine queue is empty"
			return m, nil
		}
		m.help, m.detail = false, true
	case "up", "k":
		m.move(-1)
	case "down", "j":
		m.move(1)
	case "a", "r":
		if m.selected == "" {
			m.status = "the quarantine queue is empty"
			return m, nil
		}
		if m.deciding != "" {
			m.status = "waiting for the answer about " + m.deciding
			return m, nil
		}
		// Nothing is decided on one key: the detail shows what the call
		// would do, and y confirms.
		m.confirm = "approve"
		if key == "r" {
			m.confirm = "reject"
		}
		m.help, m.detail = false, true
		m.status = m.confirm + " " + m.selected + "? y yes · n no"
	}
	return m, nil
}

// decide sends the confirmed decision about the selected item.
func (m Model) decide() (tea.Model, tea.Cmd) {
	approve := m.confirm == "approve"
	m.confirm = ""
	if m.selected == "" {
		return m, nil
	}
	id, b := m.selected, m.backend
	m.deciding = id
	if approve {
		m.status = "approving " + id + "…"
	} else {
		m.status = "rejecting " + id + "…"
	}
	return m, m.do(decideTimeout, func(ctx context.Context) tea.Msg {
		sum, err := b.Decide(ctx, id, approve)
		return decidedMsg{id: id, approve: approve, summary: sum, err: err}
	})
}

func past(verb string) string { return verb + "d" }

// move moves the selection by d items in the quarantine queue.
func (m *Model) move(d int) {
	if len(m.held) == 0 {
		return
	}
	i := m.selectedIndex()
	if i < 0 {
		i = 0
	} else {
		i = min(max(i+d, 0), len(m.held)-1)
	}
	m.selected = m.held[i].ID
}

func (m *Model) selectedIndex() int {
	return slices.IndexFunc(m.held, func(h Held) bool { return h.ID == m.selected })
}

// fixSelection keeps the selection on the same item (by id, so a refresh
// that inserts items above it does not move it onto another call), or on
// the item now at index was (the one after a removed item), or the first.
func (m *Model) fixSelection(was int) {
	if len(m.held) == 0 {
		m.selected = ""
		return
	}
	if m.selectedIndex() >= 0 {
		return
	}
	m.selected = m.held[min(max(was, 0), len(m.held)-1)].ID
}

func (m *Model) applySnapshot(s Snapshot) {
	m.missing = nil
	for _, x := range s.Missing {
		m.missing = append(m.missing, clean(x, maxName))
	}
	g := s.Gate
	m.gate = Gate{Phase: clean(g.Phase, maxName), Halted: g.Halted, HaltReason: clean(g.HaltReason, maxText)}
	for _, sp := range g.Spend {
		sp.Name = clean(sp.Name, maxName)
		m.gate.Spend = append(m.gate.Spend, sp)
	}
	m.gateKnown = !slices.Contains(s.Missing, "gate")
	m.decisions = nil
	for _, d := range s.Decisions[:min(len(s.Decisions), maxDecisions)] {
		d.Review = s.Reviews[d.ID]
		m.decisions = append(m.decisions, cleanDecision(d))
	}
	// Vetoes are not decisions of the trail: they stay until the
	// decisions shown are all newer than them.
	if n := len(m.decisions); n > 0 && n >= maxDecisions {
		oldest := m.decisions[n-1].Time
		m.vetoes = slices.DeleteFunc(slices.Clone(m.vetoes), func(v Decision) bool { return v.Time.Before(oldest) })
	}
	was := m.selectedIndex()
	m.held = nil
	seen := map[string]bool{}
	for _, h := range s.Held[:min(len(s.Held), maxHeld)] {
		h = Held{ID: clean(h.ID, maxName), Tool: clean(h.Tool, maxName), Tier: clean(h.Tier, 12), Session: clean(h.Session, maxName),
			Code: clean(h.Code, maxName), Reason: clean(h.Reason, maxText), Rule: clean(h.Rule, maxName), Time: h.Time, Expires: h.Expires,
			Description: h.Description.cleaned()}
		if h.ID == "" || seen[h.ID] {
			continue // an item without a distinct id cannot be decided safely
		}
		seen[h.ID] = true
		m.held = append(m.held, h)
	}
	before := m.selected
	m.fixSelection(was)
	if m.selected != before {
		// The item shown or about to be decided is gone (decided
		// elsewhere, expired): never carry the view or the confirmation
		// over to another item.
		m.detail, m.confirm = false, ""
	}
}

func cleanDecision(d Decision) Decision {
	return Decision{ID: clean(d.ID, maxName), Time: d.Time, Tool: clean(d.Tool, maxName), Decision: clean(d.Decision, maxName),
		Code: clean(d.Code, maxName), Message: clean(d.Message, maxText), Review: clean(d.Review, 12)}
}

func writeKey(session, tool string) string { return session + "\x00" + tool }

func (m Model) event(e event.Event) (tea.Model, tea.Cmd) {
	// The model is a value: copy what this event may change, so that
	// earlier values of it stay as they were.
	m.calls = slices.Clone(m.calls)
	m.writesDue = maps.Clone(m.writesDue)
	m.eventsTotal++
	session, tool, hash := clean(e.SessionID, maxName), clean(e.Tool, maxName), clean(e.ParamsHash, maxName)
	switch e.Kind {
	case event.PermitConsumed:
		// A consumed permit is a write about to run: the next tool:start
		// of this tool in this session is its execution.
		if len(m.writesDue) < 1000 {
			m.writesDue[writeKey(session, tool)]++
		}
		return m, m.refresh()
	case event.ToolStart:
		m.toolStart(session, tool, hash)
		return m, nil
	case event.ToolUpdate:
		if c := m.running(session, tool, hash); c != nil {
			c.state = callRunning
			c.step = clean(e.Step, maxName)
			c.index = min(max(e.StepIndex, 0), 9999)
			c.total = min(max(e.TotalSteps, 0), 9999)
		}
		return m, nil
	case event.ToolEnd, event.ToolError:
		gen := m.toolEnd(e, session, tool, hash)
		return m, tea.Batch(tea.Tick(flashFor, func(time.Time) tea.Msg { return flashMsg{gen: gen} }), m.refresh())
	case event.GateVetoed:
		m.vetoed(e)
		return m, m.refresh()
	case event.GatePhase:
		m.gate.Phase = clean(e.Message, maxName)
		return m, m.refresh()
	case event.GateHalted:
		m.gate.Halted, m.gate.HaltReason = true, clean(e.Message, maxText)
		return m, m.refresh()
	case event.GateResumed:
		m.gate.Halted, m.gate.HaltReason = false, ""
		return m, m.refresh()
	}
	if e.Kind == gapKind {
		// The daemon dropped events for this client: calls running may
		// have ended unseen.
		m.gaps++
		m.loseRunning()
		return m, m.refresh()
	}
	if e.Kind.Family() == "permit" || e.Kind.Family() == "quarantine" {
		return m, m.refresh()
	}
	return m, nil
}

// toolStart appends a running call, a write when a consumed permit of the
// same session and tool is due, keeping the newest maxCalls.
func (m *Model) toolStart(session, tool, hash string) {
	c := call{session: session, tool: tool, hash: hash}
	if k := writeKey(session, tool); m.writesDue[k] > 0 {
		c.write = true
		if m.writesDue[k]--; m.writesDue[k] == 0 {
			delete(m.writesDue, k)
		}
	}
	m.calls = append(m.calls, c)
	if len(m.calls) > maxCalls {
		m.calls = slices.Delete(m.calls, 0, len(m.calls)-maxCalls)
	}
}

// toolEnd records the outcome of a tool:end or tool:error on its call and
// starts a success or failure flash; it returns the flash's generation.
func (m *Model) toolEnd(e event.Event, session, tool, hash string) (flashGen int) {
	ok := e.Kind == event.ToolEnd && e.Success
	c := m.running(session, tool, hash)
	if c == nil && e.Kind == event.ToolError {
		// An error after the call ended (its outcome could not be
		// recorded): it amends the last call of the tool.
		c = m.last(session, tool)
	}
	if c != nil {
		c.state = callFailed
		if c.total > 0 && ok {
			c.index = c.total - 1
		}
		if ok {
			c.state = callOK
		}
		if e.Kind == event.ToolEnd {
			c.durationMS = max(e.DurationMS, 0)
		}
		c.code, c.message = clean(e.Code, maxName), clean(e.Message, maxText)
	}
	m.flashGen++
	m.flash = spriteFailure
	if ok {
		m.flash = spriteSuccess
	}
	return m.flashGen
}

// vetoed puts a gate veto first among the vetoes shown, keeping
// maxDecisions.
func (m *Model) vetoed(e event.Event) {
	d := cleanDecision(Decision{Time: e.Time, Tool: e.Tool, Decision: "vetoed", Code: e.Code, Message: e.Message})
	veto, _ := e.Payload.(event.Veto)
	if st := clean(veto.Stage, maxName); st != "" {
		d.Message = "(" + st + ") " + d.Message
	}
	m.vetoes = append([]Decision{d}, m.vetoes[:min(len(m.vetoes), maxDecisions-1)]...)
}

// running returns the newest running call matching session, tool and (when
// both are known) params hash. A call whose end was not seen counts: the
// events replayed after a reconnection may still bring it.
func (m *Model) running(session, tool, hash string) *call {
	for i := len(m.calls) - 1; i >= 0; i-- {
		c := &m.calls[i]
		if (c.state == callRunning || c.state == callLost) && c.session == session && c.tool == tool && (hash == "" || c.hash == "" || c.hash == hash) {
			return c
		}
	}
	return nil
}

// loseRunning marks the running calls as lost: their end may have been
// missed. m.calls must not be shared with an earlier model.
func (m *Model) loseRunning() {
	for i := range m.calls {
		if m.calls[i].state == callRunning {
			m.calls[i].state = callLost
		}
	}
	m.writesDue = map[string]int{}
}

func (m *Model) last(session, tool string) *call {
	for i := len(m.calls) - 1; i >= 0; i-- {
		if c := &m.calls[i]; c.session == session && c.tool == tool {
			return c
		}
	}
	return nil
}

// sprite returns the agent's state: a flash after a call ends, else
// executing while a write runs, thinking while a read runs, else idle.
func (m Model) sprite() (sprite, string) {
	if m.flash != spriteIdle {
		for i := len(m.calls) - 1; i >= 0; i-- {
			if m.calls[i].state != callRunning {
				return m.flash, m.calls[i].tool
			}
		}
		return m.flash, ""
	}
	s, tool := spriteIdle, ""
	for i := len(m.calls) - 1; i >= 0; i-- {
		c := m.calls[i]
		if c.state != callRunning {
			continue
		}
		if c.write {
			return spriteExecuting, c.tool
		}
		if s == spriteIdle {
			s, tool = spriteThinking, c.tool
		}
	}
	return s, tool
}
