package hook

import (
	"context"
	"errors"
	"time"

	"github.com/wardhq/ward/internal/reason"
)

// Config configures every hook of the set.
type Config struct {
	Phase         PhaseGateConfig
	Allowlist     AllowlistConfig
	Spending      SpendingConfig
	Rate          RateConfig
	Simulation    SimulationConfig
	Hallucination HallucinationConfig
	Filter        FilterConfig
	// Windows is where the spending and rate limiters count; nil: in
	// memory (NewMemWindows), which a restart forgets.
	Windows Windows
}

// Set holds one of each hook. The gate keeps it to reach the stateful
// hooks, through Reserve, Begin, Finish and Release (the spending and rate
// limiters share the set's Windows, and a hold counts against both), and
// the result filter.
type Set struct {
	Phase         *PhaseGate
	Allowlist     *Allowlist
	Spending      *SpendingLimiter
	Rate          *RateLimiter
	Simulation    *Simulation
	Hallucination *Hallucination
	Filter        *ResultFilter

	win Windows
}

// NewSet validates cfg and builds each hook.
func NewSet(cfg Config) (*Set, error) {
	var s Set
	var err error
	if s.Phase, err = NewPhaseGate(cfg.Phase); err != nil {
		return nil, err
	}
	if s.Allowlist, err = NewAllowlist(cfg.Allowlist); err != nil {
		return nil, err
	}
	if s.Spending, err = NewSpendingLimiter(cfg.Spending); err != nil {
		return nil, err
	}
	if s.Rate, err = NewRateLimiter(cfg.Rate); err != nil {
		return nil, err
	}
	s.win = cfg.Windows
	if s.win == nil {
		s.win = NewMemWindows()
	}
	s.Spending.win, s.Rate.win = s.win, s.win
	if s.Simulation, err = NewSimulation(cfg.Simulation); err != nil {
		return nil, err
	}
	if s.Hallucination, err = NewHallucination(cfg.Hallucination); err != nil {
		return nil, err
	}
	if s.Filter, err = NewResultFilter(cfg.Filter); err != nil {
		return nil, err
	}
	return &s, nil
}

// NewLimits returns a Set of the spending and rate limiters alone,
// counting in w (NewMemWindows when nil): what Reserve, Begin, Finish and
// Release need, without the rest of the chain (the conformance suite of
// Windows, what-if tools).
func NewLimits(spending SpendingConfig, rate RateConfig, w Windows) (*Set, error) {
	var s Set
	var err error
	if s.Spending, err = NewSpendingLimiter(spending); err != nil {
		return nil, err
	}
	if s.Rate, err = NewRateLimiter(rate); err != nil {
		return nil, err
	}
	if w == nil {
		w = NewMemWindows()
	}
	s.win = w
	s.Spending.win, s.Rate.win = w, w
	return &s, nil
}

// windowError carries a limiter's veto out of a Windows call.
type windowError struct{ v Verdict }

func (e *windowError) Error() string { return string(e.v.Code) + ": " + e.v.Message }

// verdictOf turns what a Windows call returned into a verdict: the veto
// fits returned, or a veto for a Windows that failed (fail closed).
func verdictOf(hook string, err error) Verdict {
	if err == nil {
		return Verdict{}
	}
	var we *windowError
	if errors.As(err, &we) {
		return we.v
	}
	if errors.Is(err, ErrSpendRecorded) {
		return veto(hook, reason.PermitConsumed, "the permit was already committed", "its spend is recorded: another commit of it began")
	}
	return windowsFailed(hook, err)
}

// fits returns the check of c's value against recorded spend, live holds
// and write slots (under the rate limit rc, whose window the totals were
// read for), for Reserve and Begin.
func (s *Set) fits(c *Call, sc SpendingConfig, rc *RateConfig, cents int64, spends, counts bool) func(WindowTotals) error {
	return func(t WindowTotals) error {
		if spends {
			if v := s.Spending.judgeHeld(sc, cents, t); v.Veto {
				return &windowError{v}
			}
		}
		if counts {
			if v := judgeRate(rc, c, t.Writes+t.WritesHeld, "executed or held"); v.Veto {
				return &windowError{v}
			}
		}
		return nil
	}
}

// applies says whether the spending and the rate limits count c, or
// returns the veto of a call they refuse (an unpriced plan).
func (s *Set) applies(c *Call) (cents int64, spends, counts bool, v Verdict) {
	cents, v, spends = s.Spending.value(c)
	if !spends && v.Veto {
		return 0, false, false, v
	}
	if v, counts = s.Rate.applies(c); !counts && v.Veto {
		return 0, false, false, v
	}
	return cents, spends, counts, Verdict{}
}

// Reserve atomically checks c (a preview with its plan) against recorded
// spend, live holds and write slots and, if it fits, holds its value and a
// write slot under key (the permit's id) until ttl after c.Now
// (DefaultHoldTTL when ttl <= 0). A call neither limit counts holds
// nothing. Of concurrent Reserves that only one fits, one succeeds.
func (s *Set) Reserve(ctx context.Context, c *Call, key string, ttl time.Duration) Verdict {
	cents, spends, counts, v := s.applies(c)
	if v.Veto || (!spends && !counts) {
		return v
	}
	if ttl <= 0 {
		ttl = DefaultHoldTTL
	}
	sc, err := s.Spending.effective(ctx)
	if err != nil {
		return windowsFailed(spendingName, err)
	}
	h := WindowHold{Key: key, Session: c.SessionID, Tick: c.Tick, Cents: cents, At: c.Now, Expires: c.Now.Add(ttl)}
	rc := s.Rate.cfg.Load()
	q := WindowQuery{Session: c.SessionID, Tick: c.Tick, Now: c.Now, RateWindow: rc.Window}
	return verdictOf(spendingName, s.win.Reserve(ctx, h, q, s.fits(c, sc, rc, cents, spends, counts)))
}

// Begin, at commit and before the write runs, atomically drops key's hold,
// checks c's value against recorded spend and the other live holds and
// write slots, and records it as spend under key. Recorded spend is never
// forgotten: a crash after Begin leaves it counted. began reports whether
// anything was recorded (Finish settles it). Of concurrent Begins of one
// key, in any processes, one records; the others are vetoed with
// PERMIT_ALREADY_CONSUMED, so Begin also serialises the commits of one
// permit.
func (s *Set) Begin(ctx context.Context, c *Call, key string, cents int64) (began bool, v Verdict) {
	_, spends, counts, v := s.applies(c)
	if v.Veto || (!spends && !counts) {
		return false, v
	}
	sc, err := s.Spending.effective(ctx)
	if err != nil {
		return false, windowsFailed(spendingName, err)
	}
	e := WindowSpend{Key: key, Session: c.SessionID, Tick: c.Tick, Cents: max(cents, 0), At: c.Now}
	rc := s.Rate.cfg.Load()
	q := WindowQuery{Session: c.SessionID, Tick: c.Tick, Now: c.Now, RateWindow: rc.Window}
	v = verdictOf(spendingName, s.win.Begin(ctx, e, q, s.fits(c, sc, rc, e.Cents, spends, counts)))
	return !v.Veto, v
}

// Finish settles what Begin recorded under key: executed, the write counts
// with cents as its value; not executed, it is removed.
func (s *Set) Finish(ctx context.Context, key string, executed bool, cents int64) error {
	return s.win.Finish(ctx, key, executed, cents)
}

// Release drops the hold key (a cancelled or failed permit).
func (s *Set) Release(ctx context.Context, key string) error {
	return s.win.Release(ctx, key)
}
