package hook

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/reason"
)

// Unlimited as a spending limit lifts it.
const Unlimited int64 = math.MaxInt64

// Day is the length of the daily spending window. It slides: "daily" is
// the 24 hours before the call, not the calendar day.
const Day = 24 * time.Hour

// Idle sessions are forgotten after sessionIdle once more than pruneAt are
// tracked.
const (
	sessionIdle = 30 * Day
	pruneAt     = 4096
)

// DefaultHoldTTL is how long a hold counts when Reserve is given no TTL.
const DefaultHoldTTL = 5 * time.Minute

// SpendingConfig sets USD limits in cents. A limit of 0 allows only
// actions worth nothing (the zero config is the strictest); Unlimited
// lifts a limit; negative limits are an error.
type SpendingConfig struct {
	PerTickCents    int64 // per session per tick
	PerSessionCents int64 // per session, over its lifetime
	DailyCents      int64 // over all sessions, in the sliding 24 hours
}

// HoldID identifies a hold taken by Reserve. The zero HoldID is "no
// hold": Settle and Release accept it and do nothing with it.
type HoldID uint64

// SpendingLimiter limits the USD value of writes (plan.ValueCents) per
// tick, per session and per sliding day. It counts executed spend, which
// the gate reports with Record or Settle after a commit has run; what was
// merely previewed or allowed costs nothing.
//
// Semantics, exactly:
//
//   - A plan whose ValueCents is negative is unpriced and refused
//     (VALUE_UNPRICED); a plan worth 0 always passes and holds nothing.
//     Reads and previews without a plan pass.
//   - The tick window is the spend of the call's session in the call's
//     tick (a call from an older tick than the session's latest is
//     counted against the latest tick's spend). The session window is the
//     session's spend since the limiter started. The daily window is every
//     session's spend in the 24 hours before the call's Now (Record times
//     in the future count too).
//   - Check (the hook) vetoes when executed spend plus the plan's value
//     exceeds a limit; reaching a limit exactly is allowed. Holds are not
//     counted by Check, so the chain can run again at commit without the
//     permit's own hold counting against it.
//   - Reserve is the atomic check-and-hold: under one lock it vetoes when
//     executed spend plus the live holds plus the plan's value exceeds a
//     limit, and otherwise holds the value. Of two concurrent Reserves
//     that only one fits, exactly one succeeds. A hold counts in the daily
//     window, its session's window and, in its own tick, the tick window.
//   - A hold lives until Settle or Release, or until ttl after the Now of
//     the call that took it; expiry is judged against the Now of later
//     calls. The gate reserves when it mints a permit (ttl = the permit's
//     lifetime) and settles after the commit executes, or releases on
//     cancel, expiry or a failed execution.
//   - Settle atomically drops the hold and records the executed spend
//     (even if the hold had expired); Record records spend that had no
//     hold.
//
// SpendingLimiter is safe for concurrent use.
type SpendingLimiter struct {
	cfg SpendingConfig

	mu       sync.Mutex
	sessions map[string]*sessionSpend
	day      []spend // executed spend, pruned to the day before latest
	latest   time.Time
	holds    map[HoldID]spendHold
	next     HoldID
}

type sessionSpend struct {
	total     int64
	tick      uint64 // the latest tick with spend
	tickCents int64
	last      time.Time
}

type spend struct {
	at    time.Time
	cents int64
}

type spendHold struct {
	session string
	tick    uint64
	cents   int64
	expires time.Time
}

var _ Hook = (*SpendingLimiter)(nil)

// NewSpendingLimiter validates cfg and returns a SpendingLimiter with no
// recorded spend.
func NewSpendingLimiter(cfg SpendingConfig) (*SpendingLimiter, error) {
	if cfg.PerTickCents < 0 || cfg.PerSessionCents < 0 || cfg.DailyCents < 0 {
		return nil, errors.New("spending limiter: negative limit")
	}
	return &SpendingLimiter{cfg: cfg, sessions: map[string]*sessionSpend{}, holds: map[HoldID]spendHold{}}, nil
}

const spendingName = "spending_limiter"

// Name returns "spending_limiter".
func (*SpendingLimiter) Name() string { return spendingName }

// Check implements Hook: executed spend plus the plan's value must fit
// every limit.
func (s *SpendingLimiter) Check(_ context.Context, c *Call) Verdict {
	cents, v, ok := s.value(c)
	if !ok {
		return v
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	tick, session, day := s.spentLocked(c, false)
	return s.judge(cents, tick, session, day, "spent")
}

// Reserve atomically checks the call's plan against executed spend plus
// live holds and, if it fits, holds its value (see SpendingLimiter). It
// returns the zero HoldID when nothing needs holding (a read, a preview
// without a plan, a plan worth 0) or when it vetoes. ttl <= 0 means
// DefaultHoldTTL.
func (s *SpendingLimiter) Reserve(c *Call, ttl time.Duration) (HoldID, Verdict) {
	cents, v, ok := s.value(c)
	if !ok {
		return 0, v
	}
	if ttl <= 0 {
		ttl = DefaultHoldTTL
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expireLocked(c.Now)
	tick, session, day := s.spentLocked(c, true)
	if v := s.judge(cents, tick, session, day, "spent or held"); v.Veto {
		return 0, v
	}
	s.next++
	s.holds[s.next] = spendHold{session: c.SessionID, tick: c.Tick, cents: cents, expires: c.Now.Add(ttl)}
	return s.next, Verdict{}
}

// Release drops a hold without recording spend. Unknown, expired and zero
// ids are ignored.
func (s *SpendingLimiter) Release(id HoldID) {
	s.mu.Lock()
	delete(s.holds, id)
	s.mu.Unlock()
}

// Settle atomically drops the hold (if it still exists) and records
// executed spend of cents by the session in the tick at time at.
func (s *SpendingLimiter) Settle(id HoldID, sessionID string, tick uint64, at time.Time, cents int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.holds, id)
	s.recordLocked(sessionID, tick, at, cents)
}

// Record records executed spend of cents by the session in the tick at
// time at. Non-positive amounts are ignored.
func (s *SpendingLimiter) Record(sessionID string, tick uint64, at time.Time, cents int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recordLocked(sessionID, tick, at, cents)
}

func (s *SpendingLimiter) recordLocked(sessionID string, tick uint64, at time.Time, cents int64) {
	if cents <= 0 {
		return
	}
	if at.After(s.latest) {
		s.latest = at
	}
	ss := s.sessions[sessionID]
	if ss == nil {
		if len(s.sessions) >= pruneAt {
			s.pruneSessionsLocked()
		}
		ss = &sessionSpend{tick: tick}
		s.sessions[sessionID] = ss
	}
	ss.total = addSat(ss.total, cents)
	switch {
	case tick > ss.tick:
		ss.tick, ss.tickCents = tick, cents
	case tick == ss.tick:
		ss.tickCents = addSat(ss.tickCents, cents)
	}
	if at.After(ss.last) {
		ss.last = at
	}
	s.day = append(s.day, spend{at: at, cents: cents})
	cut := s.latest.Add(-Day)
	i := 0
	for i < len(s.day) && !s.day[i].at.After(cut) {
		i++
	}
	if i > 0 && i >= len(s.day)/2 {
		s.day = append(s.day[:0], s.day[i:]...)
	}
}

func (s *SpendingLimiter) pruneSessionsLocked() {
	for id, ss := range s.sessions {
		if s.latest.Sub(ss.last) > sessionIdle {
			delete(s.sessions, id)
		}
	}
}

func (s *SpendingLimiter) expireLocked(now time.Time) {
	for id, h := range s.holds {
		if !now.Before(h.expires) {
			delete(s.holds, id)
		}
	}
}

// value classifies the call: ok is false when there is nothing to count
// (v passes) or the call is refused (v vetoes).
func (s *SpendingLimiter) value(c *Call) (int64, Verdict, bool) {
	p, v, ok := planOf(spendingName, c)
	if !ok {
		return 0, v, false
	}
	switch {
	case p.ValueCents < 0:
		return 0, veto(spendingName, reason.ValueUnpriced,
			"no price feed values this action, so spending limits cannot be checked and it is refused",
			fmt.Sprintf("%s: plan value %d", c.Def.Name, p.ValueCents)), false
	case p.ValueCents == 0:
		return 0, Verdict{}, false
	case c.Now.IsZero():
		return 0, veto(spendingName, reason.HookError, "the safety checks could not complete, so the action is refused", "call without a time"), false
	}
	return p.ValueCents, Verdict{}, true
}

// spentLocked returns the spend that counts against c in its tick, its
// session and the day, with live holds when holds is true.
func (s *SpendingLimiter) spentLocked(c *Call, holds bool) (tick, session, day int64) {
	if ss := s.sessions[c.SessionID]; ss != nil {
		session = ss.total
		if c.Tick <= ss.tick {
			tick = ss.tickCents
		}
	}
	cut := c.Now.Add(-Day)
	for _, sp := range s.day {
		if sp.at.After(cut) {
			day = addSat(day, sp.cents)
		}
	}
	if holds {
		for _, h := range s.holds {
			day = addSat(day, h.cents)
			if h.session == c.SessionID {
				session = addSat(session, h.cents)
				if h.tick == c.Tick {
					tick = addSat(tick, h.cents)
				}
			}
		}
	}
	return tick, session, day
}

func (s *SpendingLimiter) judge(cents, tick, session, day int64, counted string) Verdict {
	for _, w := range []struct {
		spent, limit     int64
		code             reason.Code
		scope, limitName string
	}{
		{tick, s.cfg.PerTickCents, reason.SpendTickLimit, "this tick", "per-tick"},
		{session, s.cfg.PerSessionCents, reason.SpendSessionLimit, "this session", "per-session"},
		{day, s.cfg.DailyCents, reason.SpendDailyLimit, "the last 24 hours", "daily"},
	} {
		if w.limit == Unlimited {
			continue
		}
		if total := addSat(w.spent, cents); total > w.limit {
			return veto(spendingName, w.code,
				fmt.Sprintf("this action's %s plus %s already %s in %s exceeds the %s limit of %s",
					usd(cents), usd(w.spent), counted, w.scope, w.limitName, usd(w.limit)),
				fmt.Sprintf("value %d + spent %d > %s limit %d (cents)", cents, w.spent, w.limitName, w.limit))
		}
	}
	return Verdict{}
}

// addSat adds non-negative amounts, saturating at math.MaxInt64.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// usd formats cents as dollars: $1234.05.
func usd(cents int64) string {
	return fmt.Sprintf("$%d.%02d", cents/100, cents%100)
}
