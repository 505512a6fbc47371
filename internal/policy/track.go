package policy

import (
	"slices"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/tool"
)

// MaxWindow is the longest sliding window a rule may count over; the
// tracker keeps executions for this long.
const MaxWindow = 7 * 24 * time.Hour

// Idle entries are forgotten after these periods once a map grows past
// pruneAt: per-turn counts after a day, per-session counts after 30 days.
const (
	turnIdle    = 24 * time.Hour
	sessionIdle = 30 * 24 * time.Hour
	pruneAt     = 4096
)

// DefaultHoldTTL is how long an admitted call's hold counts against limits
// when the caller neither settles nor releases it.
const DefaultHoldTTL = 5 * time.Minute

// Execution is one executed call, recorded by the caller after its effect
// happened (or, as a hold, at admission).
type Execution struct {
	Tool      tool.Ref // Name and Category are used
	SessionID string
	TurnID    string
	At        time.Time
	Spend     Spend // empty Category: the call spent nothing
}

// Scope is what a count is over.
type Scope uint8

// Count scopes.
const (
	ScopeTurn Scope = iota
	ScopeSession
	ScopeWindow
)

// CountQuery selects executed calls to count. With neither Tools nor
// Categories it counts calls of every tool.
type CountQuery struct {
	Tools      []string
	Categories []tool.Category
	Scope      Scope
	Key        string        // the turn or session id for ScopeTurn and ScopeSession
	Window     time.Duration // for ScopeWindow
}

// HoldID identifies a hold.
type HoldID uint64

// Tracker is the tracked state rules read: executed spend per category in
// sliding windows, executed calls per tool and category (per turn, per
// session and in sliding windows), the last known balance, and holds for
// admitted calls that have not finished yet. Windows slide: "hourly" is the
// 60 minutes before the evaluation time, not the calendar hour. A nil
// *Tracker is valid and empty. Tracker is safe for concurrent use.
type Tracker struct {
	admit sync.Mutex

	mu         sync.Mutex
	spend      map[string]*series
	byTool     map[string]*counter
	byCategory map[tool.Category]*counter
	all        *counter
	balance    int64
	hasBalance bool
	holds      map[HoldID]*hold
	nextHold   HoldID
	latest     int64
}

type hold struct {
	e       Execution
	expires time.Time
}

// NewTracker returns an empty tracker.
func NewTracker() *Tracker {
	return &Tracker{
		spend:      make(map[string]*series),
		byTool:     make(map[string]*counter),
		byCategory: make(map[tool.Category]*counter),
		all:        newCounter(),
		holds:      make(map[HoldID]*hold),
	}
}

// Admit runs fn under the tracker's admission lock. The gate evaluates a
// call that stateful rules apply to and takes its hold inside Admit, so that
// two concurrent calls cannot both pass a limit that only one fits under.
func (t *Tracker) Admit(fn func()) {
	t.admit.Lock()
	defer t.admit.Unlock()
	fn()
}

// SetBalance records the last known balance in cents.
func (t *Tracker) SetBalance(cents int64) {
	t.mu.Lock()
	t.balance, t.hasBalance = cents, true
	t.mu.Unlock()
}

// Balance returns the last known balance in cents, if one was recorded.
func (t *Tracker) Balance() (int64, bool) {
	if t == nil {
		return 0, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.balance, t.hasBalance
}

// RecordSpend adds executed spend that is not tied to a tracked call (prior
// spend seeded into a what-if evaluation, say).
func (t *Tracker) RecordSpend(category string, cents int64, at time.Time) {
	if category == "" || cents == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	ns := at.UnixNano()
	if ns > t.latest {
		t.latest = ns
	}
	s := t.spend[category]
	if s == nil {
		s = &series{}
		t.spend[category] = s
	}
	s.add(ns, cents)
	s.prune(t.latest - int64(MaxWindow))
}

// Record adds an executed call (and its spend) to the tracked state.
func (t *Tracker) Record(e Execution) {
	t.mu.Lock()
	t.record(e)
	t.mu.Unlock()
}

func (t *Tracker) record(e Execution) {
	at := e.At.UnixNano()
	if at > t.latest {
		t.latest = at
	}
	if e.Spend.Category != "" && e.Spend.Cents != 0 {
		s := t.spend[e.Spend.Category]
		if s == nil {
			s = &series{}
			t.spend[e.Spend.Category] = s
		}
		s.add(at, e.Spend.Cents)
		s.prune(t.latest - int64(MaxWindow))
	}
	t.counterFor(e.Tool.Name, "").add(e, t.latest)
	if e.Tool.Category != "" {
		t.counterFor("", e.Tool.Category).add(e, t.latest)
	}
	t.all.add(e, t.latest)
}

func (t *Tracker) counterFor(name string, cat tool.Category) *counter {
	if name != "" {
		c := t.byTool[name]
		if c == nil {
			c = newCounter()
			t.byTool[name] = c
		}
		return c
	}
	c := t.byCategory[cat]
	if c == nil {
		c = newCounter()
		t.byCategory[cat] = c
	}
	return c
}

// Hold counts an admitted call against limits until it is settled, released
// or ttl passes (DefaultHoldTTL if ttl <= 0).
func (t *Tracker) Hold(e Execution, ttl time.Duration) HoldID {
	if ttl <= 0 {
		ttl = DefaultHoldTTL
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.nextHold++
	t.holds[t.nextHold] = &hold{e: e, expires: e.At.Add(ttl)}
	return t.nextHold
}

// Release drops a hold: the call did not execute.
func (t *Tracker) Release(id HoldID) {
	t.mu.Lock()
	delete(t.holds, id)
	t.mu.Unlock()
}

// Settle replaces a hold by the executed call e (whose spend may differ from
// what was held).
func (t *Tracker) Settle(id HoldID, e Execution) {
	t.mu.Lock()
	delete(t.holds, id)
	t.record(e)
	t.mu.Unlock()
}

// activeHolds calls fn for every unexpired hold, dropping expired ones.
// t.mu must be held.
func (t *Tracker) activeHolds(now time.Time, fn func(*hold)) {
	for id, h := range t.holds {
		if !now.Before(h.expires) {
			delete(t.holds, id)
			continue
		}
		fn(h)
	}
}

// Spent returns the cents spent in category during the window ending at now
// (executed spend plus active holds).
func (t *Tracker) Spent(category string, window time.Duration, now time.Time) int64 {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	to := now.UnixNano()
	from := to - int64(window)
	var sum int64
	if s := t.spend[category]; s != nil {
		sum = s.sum(from, to)
	}
	if len(t.holds) > 0 {
		t.activeHolds(now, func(h *hold) {
			if h.e.Spend.Category == category {
				sum += h.e.Spend.Cents
			}
		})
	}
	return sum
}

// Count returns the number of executed calls (plus active holds) matching q,
// as of now.
func (t *Tracker) Count(q CountQuery, now time.Time) int {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	to := now.UnixNano()
	count := func(c *counter) {
		if c != nil {
			n += c.count(q, to)
		}
	}
	switch {
	case len(q.Tools) > 0:
		for _, name := range q.Tools {
			count(t.byTool[name])
		}
	case len(q.Categories) > 0:
		for _, cat := range q.Categories {
			count(t.byCategory[cat])
		}
	default:
		count(t.all)
	}
	if len(t.holds) > 0 {
		t.activeHolds(now, func(h *hold) {
			if q.matches(h.e, to) {
				n++
			}
		})
	}
	return n
}

func (q *CountQuery) matches(e Execution, to int64) bool {
	switch {
	case len(q.Tools) > 0:
		if !slices.Contains(q.Tools, e.Tool.Name) {
			return false
		}
	case len(q.Categories) > 0:
		if !slices.Contains(q.Categories, e.Tool.Category) {
			return false
		}
	}
	switch q.Scope {
	case ScopeTurn:
		return e.TurnID == q.Key
	case ScopeSession:
		return e.SessionID == q.Key
	default:
		at := e.At.UnixNano()
		return at > to-int64(q.Window) && at <= to
	}
}

type counter struct {
	times    series
	turns    map[string]*tally
	sessions map[string]*tally
}

type tally struct {
	n    int
	last int64
}

func newCounter() *counter {
	return &counter{turns: make(map[string]*tally), sessions: make(map[string]*tally)}
}

func (c *counter) add(e Execution, latest int64) {
	at := e.At.UnixNano()
	c.times.add(at, 1)
	c.times.prune(latest - int64(MaxWindow))
	bump(c.turns, e.TurnID, at, latest-int64(turnIdle))
	bump(c.sessions, e.SessionID, at, latest-int64(sessionIdle))
}

func bump(m map[string]*tally, key string, at, idleBefore int64) {
	if key == "" {
		return
	}
	t := m[key]
	if t == nil {
		if len(m) >= pruneAt {
			for k, v := range m {
				if v.last < idleBefore {
					delete(m, k)
				}
			}
		}
		t = &tally{}
		m[key] = t
	}
	t.n++
	if at > t.last {
		t.last = at
	}
}

func (c *counter) count(q CountQuery, to int64) int {
	switch q.Scope {
	case ScopeTurn:
		if t := c.turns[q.Key]; t != nil && q.Key != "" {
			return t.n
		}
		return 0
	case ScopeSession:
		if t := c.sessions[q.Key]; t != nil && q.Key != "" {
			return t.n
		}
		return 0
	default:
		return int(c.times.sum(to-int64(q.Window), to))
	}
}

// series is a time-ordered list of amounts with prefix sums, so that the
// sum over any window is two binary searches.
type series struct {
	at  []int64 // unix nanoseconds, ascending
	cum []int64 // cum[i] = amount[0] + ... + amount[i]
}

func (s *series) add(at, v int64) {
	n := len(s.at)
	if n == 0 || s.at[n-1] <= at {
		prev := int64(0)
		if n > 0 {
			prev = s.cum[n-1]
		}
		s.at = append(s.at, at)
		s.cum = append(s.cum, prev+v)
		return
	}
	// Out of order (restored or seeded history): insert and fix the sums.
	i, _ := slices.BinarySearch(s.at, at+1)
	prev := int64(0)
	if i > 0 {
		prev = s.cum[i-1]
	}
	s.at = slices.Insert(s.at, i, at)
	s.cum = slices.Insert(s.cum, i, prev+v)
	for j := i + 1; j < len(s.cum); j++ {
		s.cum[j] += v
	}
}

// sum returns the total of amounts with from < at <= to.
func (s *series) sum(from, to int64) int64 {
	lo, _ := slices.BinarySearch(s.at, from+1)
	hi, _ := slices.BinarySearch(s.at, to+1)
	if hi <= lo {
		return 0
	}
	total := s.cum[hi-1]
	if lo > 0 {
		total -= s.cum[lo-1]
	}
	return total
}

// prune drops entries older than before once they are a quarter of the
// series, keeping appends amortised O(1).
func (s *series) prune(before int64) {
	if len(s.at) < 64 || s.at[0] >= before {
		return
	}
	k, _ := slices.BinarySearch(s.at, before)
	if k < len(s.at)/4 {
		return
	}
	base := s.cum[k-1]
	n := copy(s.at, s.at[k:])
	s.at = s.at[:n]
	copy(s.cum, s.cum[k:])
	s.cum = s.cum[:n]
	for i := range s.cum {
		s.cum[i] -= base
	}
}

// HeldSpend returns the cents held by admitted calls that have not been
// settled or released, in every category.
func (t *Tracker) HeldSpend(now time.Time) int64 {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var sum int64
	t.activeHolds(now, func(h *hold) { sum += h.e.Spend.Cents })
	return sum
}
