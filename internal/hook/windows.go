package hook

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"
)

// Windows keeps what the spending and rate limiters count: every write
// that began to execute (its spend, its session, its tick, its time) and
// the holds of previewed writes not yet committed. A limiter decides
// nothing from memory: it reads the totals from its Windows, and takes a
// hold or records spend through it, atomically with the check that
// allowed it.
//
// The default is in memory (NewMemWindows); ward serve gives the limiters
// the store's (internal/store/sqlite), so that the windows survive a
// restart or a crash and every ward process on the database counts the
// same spend: a hold is a row of its own, keyed by its permit; a write
// that begins to execute is recorded, keyed by the same permit, before it
// runs (so a crash mid-way leaves the spend counted, never forgotten, and
// a retry never counts it twice).
type Windows interface {
	// Totals returns what counts for q.
	Totals(ctx context.Context, q WindowQuery) (WindowTotals, error)
	// Reserve atomically reads the totals for q (expired holds left out
	// and dropped), calls fits with them, and stores h if fits returns
	// nil; fits's error is returned otherwise. A key that is held already
	// is replaced. A backend may return before the hold survives a power
	// loss (not a crash of the process) provided the caller's next
	// durable write to it makes it survive one too.
	Reserve(ctx context.Context, h WindowHold, q WindowQuery, fits func(WindowTotals) error) error
	// Begin atomically drops the hold e.Key (if any), reads the totals
	// for q without it, calls fits, and if fits returns nil records e as
	// spend that began to execute. A key already recorded is not recorded
	// again (ErrSpendRecorded). Its durability is Reserve's.
	Begin(ctx context.Context, e WindowSpend, q WindowQuery, fits func(WindowTotals) error) error
	// Finish settles the spend key that Begin recorded: executed, it
	// keeps it with cents as its amount; otherwise it deletes it (the
	// write did not happen). It may return before it is durable or even
	// applied (it is applied before any later Reserve, Begin or Release
	// returns), and report no error for a key it finds nothing under: a
	// Finish lost leaves the spend counted as Begin recorded it.
	Finish(ctx context.Context, key string, executed bool, cents int64) error
	// Release drops the hold key; an unknown key is no error.
	Release(ctx context.Context, key string) error
}

// ErrSpendRecorded is returned by Begin for a key whose spend is recorded.
var ErrSpendRecorded = errors.New("hook: this write's spend is recorded already")

// WindowHold is a previewed write's hold: its value (0 for a write worth
// nothing, which still takes a write slot) in its session's tick, until
// Expires.
type WindowHold struct {
	Key     string
	Session string
	Tick    uint64
	Cents   int64
	At      time.Time
	Expires time.Time
}

// WindowSpend is a write that begins to execute.
type WindowSpend struct {
	Key     string
	Session string
	Tick    uint64
	Cents   int64
	At      time.Time
}

// WindowQuery says what totals to read: for a session in a tick, at Now,
// with writes counted over RateWindow.
type WindowQuery struct {
	Session    string
	Tick       uint64
	Now        time.Time
	RateWindow time.Duration
}

// WindowTotals is what counts against the limits, in cents and writes:
// recorded spend (executed or executing) and live holds, each for the
// session's tick, the session, and every session over the sliding day;
// recorded writes in the rate window and live holds.
//
// Tick is the session's spend in its latest tick with spend when that is
// at or after the query's tick (a call from an older tick counts against
// the latest tick's spend), else 0. The day is the 24 hours before Now,
// and spend recorded later than Now counts too. Sums saturate at
// math.MaxInt64.
type WindowTotals struct {
	Tick, Session, Day             int64
	TickHeld, SessionHeld, DayHeld int64
	Writes, WritesHeld             int
}

// MemWindows is Windows in memory: what a limiter counts when nothing
// durable is given (tests, what-if evaluations). Safe for concurrent use.
type MemWindows struct {
	mu    sync.Mutex
	spent map[string]WindowSpend // by key
	holds map[string]WindowHold
	seq   uint64 // keys of Record
}

// NewMemWindows returns empty windows in memory.
func NewMemWindows() *MemWindows {
	return &MemWindows{spent: map[string]WindowSpend{}, holds: map[string]WindowHold{}}
}

var _ Windows = (*MemWindows)(nil)

// Totals implements Windows.
func (m *MemWindows) Totals(_ context.Context, q WindowQuery) (WindowTotals, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.totalsLocked(q, false), nil
}

func (m *MemWindows) totalsLocked(q WindowQuery, drop bool) WindowTotals {
	var t WindowTotals
	var latest uint64
	var seen bool
	dayCut, rateCut := q.Now.Add(-Day), q.Now.Add(-q.RateWindow)
	for _, s := range m.spent {
		if s.Session == q.Session {
			t.Session = addSat(t.Session, s.Cents)
			if !seen || s.Tick > latest {
				latest, seen = s.Tick, true
			}
		}
		if s.At.After(dayCut) {
			t.Day = addSat(t.Day, s.Cents)
		}
		if s.At.After(rateCut) {
			t.Writes++
		}
	}
	if seen && q.Tick <= latest {
		for _, s := range m.spent {
			if s.Session == q.Session && s.Tick == latest {
				t.Tick = addSat(t.Tick, s.Cents)
			}
		}
	}
	for k, h := range m.holds {
		if !q.Now.Before(h.Expires) {
			if drop {
				delete(m.holds, k)
			}
			continue
		}
		t.DayHeld = addSat(t.DayHeld, h.Cents)
		t.WritesHeld++
		if h.Session == q.Session {
			t.SessionHeld = addSat(t.SessionHeld, h.Cents)
			if h.Tick == q.Tick {
				t.TickHeld = addSat(t.TickHeld, h.Cents)
			}
		}
	}
	return t
}

// Reserve implements Windows.
func (m *MemWindows) Reserve(_ context.Context, h WindowHold, q WindowQuery, fits func(WindowTotals) error) error {
	if err := h.Check(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.holds, h.Key)
	if err := fits(m.totalsLocked(q, true)); err != nil {
		return err
	}
	m.holds[h.Key] = h
	return nil
}

// Begin implements Windows.
func (m *MemWindows) Begin(_ context.Context, e WindowSpend, q WindowQuery, fits func(WindowTotals) error) error {
	if err := e.Check(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.spent[e.Key]; ok {
		return ErrSpendRecorded
	}
	h, held := m.holds[e.Key]
	delete(m.holds, e.Key)
	if err := fits(m.totalsLocked(q, true)); err != nil {
		if held {
			m.holds[e.Key] = h
		}
		return err
	}
	m.spent[e.Key] = e
	return nil
}

// Finish implements Windows.
func (m *MemWindows) Finish(_ context.Context, key string, executed bool, cents int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.spent[key]
	switch {
	case !ok:
		return fmt.Errorf("hook: no spend recorded for %q", key)
	case !executed:
		delete(m.spent, key)
	default:
		s.Cents = max(cents, 0)
		m.spent[key] = s
	}
	return nil
}

// Release implements Windows.
func (m *MemWindows) Release(_ context.Context, key string) error {
	m.mu.Lock()
	delete(m.holds, key)
	m.mu.Unlock()
	return nil
}

// record adds executed spend under a key of its own (Record of the
// limiters).
func (m *MemWindows) record(e WindowSpend) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	e.Key = fmt.Sprintf("\x00record-%d", m.seq)
	m.spent[e.Key] = e
}

// Keys returns the keys of the live holds at now, sorted (for tests).
func (m *MemWindows) Keys(now time.Time) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for k, h := range m.holds {
		if now.Before(h.Expires) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// Check returns why h cannot be held, or nil: it needs its key and
// session, a value of 0 or more, its time and a later expiry, and a tick
// an int64 holds. Every Windows refuses what it refuses.
func (h *WindowHold) Check() error {
	switch {
	case h.Key == "" || h.Session == "":
		return errors.New("hook: a hold needs its key and session")
	case h.Cents < 0:
		return fmt.Errorf("hook: a hold of %d cents", h.Cents)
	case h.At.IsZero() || !h.Expires.After(h.At):
		return errors.New("hook: a hold needs its time and a later expiry")
	case h.Tick > math.MaxInt64:
		return fmt.Errorf("hook: tick %d out of range", h.Tick)
	}
	return nil
}

// Check returns why e cannot be recorded, or nil: it needs its key and
// session, a value of 0 or more, its time, and a tick an int64 holds.
func (e *WindowSpend) Check() error {
	switch {
	case e.Key == "" || e.Session == "":
		return errors.New("hook: spend needs its key and session")
	case e.Cents < 0:
		return fmt.Errorf("hook: spend of %d cents", e.Cents)
	case e.At.IsZero():
		return errors.New("hook: spend needs its time")
	case e.Tick > math.MaxInt64:
		return fmt.Errorf("hook: tick %d out of range", e.Tick)
	}
	return nil
}
