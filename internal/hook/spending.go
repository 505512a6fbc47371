package hook

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// Unlimited as a spending limit lifts it.
const Unlimited int64 = math.MaxInt64

// Day is the length of the daily spending window. It slides: "daily" is
// the 24 hours before the call, not the calendar day.
const Day = 24 * time.Hour

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

// SpendingLimiter limits the USD value of writes (plan.ValueCents) per
// tick, per session and per sliding day. It counts spend recorded in its
// Windows when a write begins to execute (Set.Begin); what was merely
// previewed or allowed costs nothing, beyond the hold a preview takes.
//
// Semantics, exactly:
//
//   - A plan whose ValueCents is negative is unpriced and refused
//     (VALUE_UNPRICED); a plan worth 0 always passes the spending limits
//     (it still takes a write slot, see RateLimiter). Reads and previews
//     without a plan pass.
//   - The windows are WindowTotals': the session's spend in its latest
//     tick (a call from an older tick counts against it), the session's
//     spend over its life, and every session's spend in the 24 hours
//     before the call's Now (later records count too).
//   - Check (the hook) vetoes when recorded spend plus the plan's value
//     exceeds a limit; reaching a limit exactly is allowed. Holds are not
//     counted by Check.
//   - Reserve (through Set.Reserve, with the rate limit) is the atomic
//     check-and-hold: it vetoes when recorded spend plus the live holds
//     plus the plan's value exceeds a limit, and otherwise holds the
//     value under the permit's key until ttl after the call's Now. Of two
//     concurrent Reserves that only one fits, exactly one succeeds, in
//     every process sharing the Windows. A hold counts in the daily
//     window, its session's window and, in its own tick, the tick window.
//   - Begin (Set.Begin, at commit) atomically drops the permit's hold,
//     checks recorded spend plus the other live holds plus the value, and
//     records the spend; Finish settles it once the write ran (or removes
//     it if it did not run). Release drops a hold (a cancel, an expiry).
//
// SpendingLimiter is safe for concurrent use.
type SpendingLimiter struct {
	cfg      atomic.Pointer[SpendingConfig]
	override atomic.Pointer[SpendingOverride]
	win      Windows
}

// SpendingOverride reads the owner's override of the spending limits,
// which wins over the configured ones (SetLimits) while ok is true. It is
// read on every check, so an override set by another process sharing the
// store is in force at the next check; an error refuses the check.
type SpendingOverride func(ctx context.Context) (limits SpendingConfig, ok bool, err error)

// SetOverride makes f the source of the owner's override (nil: none).
func (s *SpendingLimiter) SetOverride(f SpendingOverride) {
	if f == nil {
		s.override.Store(nil)
		return
	}
	s.override.Store(&f)
}

// effective returns the limits a check starting now judges by: the
// owner's override when one is set, else the configured limits. An
// override that cannot be read, or is negative, is an error.
func (s *SpendingLimiter) effective(ctx context.Context) (SpendingConfig, error) {
	f := s.override.Load()
	if f == nil {
		return *s.cfg.Load(), nil
	}
	o, ok, err := (*f)(ctx)
	if err != nil {
		return SpendingConfig{}, fmt.Errorf("spending limiter: read the owner's override: %w", err)
	}
	if !ok {
		return *s.cfg.Load(), nil
	}
	if o.PerTickCents < 0 || o.PerSessionCents < 0 || o.DailyCents < 0 {
		return SpendingConfig{}, errors.New("spending limiter: the owner's override has a negative limit")
	}
	return o, nil
}

// Effective returns the limits in force for a check starting now: the
// owner's override when one is set, else the configured limits.
func (s *SpendingLimiter) Effective(ctx context.Context) (SpendingConfig, error) {
	return s.effective(ctx)
}

var _ Hook = (*SpendingLimiter)(nil)

// NewSpendingLimiter validates cfg and returns a SpendingLimiter counting
// in windows of its own in memory (NewSet shares the set's Windows).
func NewSpendingLimiter(cfg SpendingConfig) (*SpendingLimiter, error) {
	s := &SpendingLimiter{win: NewMemWindows()}
	if err := s.SetLimits(cfg); err != nil {
		return nil, err
	}
	return s, nil
}

// SetLimits validates cfg and makes it the limits of every check that
// starts from now on (a reload of the configuration); checks in flight
// finish with the limits they read. Recorded spend and live holds stay
// counted. On error the limits are unchanged.
func (s *SpendingLimiter) SetLimits(cfg SpendingConfig) error {
	if cfg.PerTickCents < 0 || cfg.PerSessionCents < 0 || cfg.DailyCents < 0 {
		return errors.New("spending limiter: negative limit")
	}
	s.cfg.Store(&cfg)
	return nil
}

// Limits returns the configured limits (SetLimits), not the owner's
// override (Effective).
func (s *SpendingLimiter) Limits() SpendingConfig { return *s.cfg.Load() }

const spendingName = "spending_limiter"

// Name returns "spending_limiter".
func (*SpendingLimiter) Name() string { return spendingName }

// Check implements Hook: recorded spend plus the plan's value must fit
// every limit. A Windows that cannot be read vetoes.
func (s *SpendingLimiter) Check(ctx context.Context, c *Call) Verdict {
	cents, v, ok := s.value(c)
	if !ok {
		return v
	}
	cfg, err := s.effective(ctx)
	if err != nil {
		return windowsFailed(spendingName, err)
	}
	t, err := s.win.Totals(ctx, WindowQuery{Session: c.SessionID, Tick: c.Tick, Now: c.Now})
	if err != nil {
		return windowsFailed(spendingName, err)
	}
	return s.judge(cfg, cents, t.Tick, t.Session, t.Day, "spent")
}

// judgeHeld judges cents against recorded spend plus live holds.
func (s *SpendingLimiter) judgeHeld(cfg SpendingConfig, cents int64, t WindowTotals) Verdict {
	return s.judge(cfg, cents, addSat(t.Tick, t.TickHeld), addSat(t.Session, t.SessionHeld), addSat(t.Day, t.DayHeld), "spent or held")
}

// Record records executed spend of cents by the session in the tick at
// time at, outside any permit (history seeded into a limiter, tests).
// Non-positive amounts are ignored. It works on in-memory windows only.
func (s *SpendingLimiter) Record(sessionID string, tick uint64, at time.Time, cents int64) {
	if m, ok := s.win.(*MemWindows); ok && cents > 0 {
		m.record(WindowSpend{Session: sessionID, Tick: tick, Cents: cents, At: at})
	}
}

// windowsFailed is the veto of a limiter whose windows cannot be read or
// written: fail closed.
func windowsFailed(hook string, err error) Verdict {
	v := veto(hook, reason.HookError, "the spending and rate windows could not be read, so the action is refused", err.Error())
	v.Err = err
	return v
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
			"no price feed values this action, so spending limits cannot be checked and it is refused"+unpricedWhy(p),
			fmt.Sprintf("%s: plan value %d", c.Def.Name, p.ValueCents)), false
	case p.ValueCents == 0:
		return 0, Verdict{}, false
	case c.Now.IsZero():
		return 0, veto(spendingName, reason.HookError, "the safety checks could not complete, so the action is refused", "call without a time"), false
	}
	return p.ValueCents, Verdict{}, true
}

func (*SpendingLimiter) judge(cfg SpendingConfig, cents, tick, session, day int64, counted string) Verdict {
	for _, w := range []struct {
		spent, limit     int64
		code             reason.Code
		scope, limitName string
	}{
		{tick, cfg.PerTickCents, reason.SpendTickLimit, "this tick", "per-tick"},
		{session, cfg.PerSessionCents, reason.SpendSessionLimit, "this session", "per-session"},
		{day, cfg.DailyCents, reason.SpendDailyLimit, "the last 24 hours", "daily"},
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

// unpricedWhy names the plan's tokens that have no usable price and what
// the operator can configure (the catalogue's symbols and reasons: ward's
// own text, never the agent's or a token's).
func unpricedWhy(p *tool.Plan) string {
	var b strings.Builder
	for i, u := range p.Unpriced {
		if i == 3 {
			fmt.Fprintf(&b, "; and %d more", len(p.Unpriced)-3)
			break
		}
		b.WriteString("; token ")
		if u.Symbol != "" {
			b.WriteString(cleanText(u.Symbol) + " ")
		}
		fmt.Fprintf(&b, "%s: %s", u.Token, truncText(cleanText(u.Why), 300))
	}
	return b.String()
}

var errLimitUSD = errors.New(`must be dollars with at most two decimals, or "unlimited"`)

// ParseLimitUSD reads a spending limit as the owner gives it to the API
// and the privileged tool: "unlimited" is Unlimited, "12.34" is 1234
// cents (at most two decimals, no sign, no exponent).
func ParseLimitUSD(s string) (int64, error) {
	if s == "unlimited" {
		return Unlimited, nil
	}
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || len(whole) > 13 || (dot && (frac == "" || len(frac) > 2)) {
		return 0, errLimitUSD
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err1 := strconv.ParseUint(whole, 10, 63)
	f, err2 := strconv.ParseUint(frac, 10, 63)
	if err1 != nil || err2 != nil {
		return 0, errLimitUSD
	}
	return int64(w*100 + f), nil
}

// FormatLimitUSD formats a limit in cents as ParseLimitUSD reads it.
func FormatLimitUSD(cents int64) string {
	if cents == Unlimited {
		return "unlimited"
	}
	return fmt.Sprintf("%d.%02d", cents/100, cents%100)
}
