package hook

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/reason"
)

// RateConfig limits writes to Max in any sliding Window. Max 0 allows no
// write at all (the zero config is the strictest); a positive Max needs a
// positive Window.
type RateConfig struct {
	Max    int
	Window time.Duration
}

// RateLimiter limits how many writes execute in a sliding window. It
// counts the writes recorded in its Windows (the same Windows as the
// spending limiter's, in a Set), with the same Check and Reserve semantics
// as SpendingLimiter: Check vetoes when the writes recorded in the window
// before the call's Now plus this one exceed Max; Reserve (Set.Reserve)
// counts live holds too and holds a slot under the permit's key. Reads and
// previews without a plan pass. RateLimiter is safe for concurrent use.
type RateLimiter struct {
	cfg atomic.Pointer[RateConfig]
	win Windows
}

var _ Hook = (*RateLimiter)(nil)

// NewRateLimiter validates cfg and returns a RateLimiter counting in
// windows of its own in memory (NewSet shares the set's Windows).
func NewRateLimiter(cfg RateConfig) (*RateLimiter, error) {
	r := &RateLimiter{win: NewMemWindows()}
	if err := r.SetLimits(cfg); err != nil {
		return nil, err
	}
	return r, nil
}

// SetLimits validates cfg and makes it the limit of every check that
// starts from now on (a reload of the configuration); checks in flight
// finish with the limit they read. The writes already counted stay
// counted. On error the limit is unchanged.
func (r *RateLimiter) SetLimits(cfg RateConfig) error {
	switch {
	case cfg.Max < 0:
		return errors.New("rate limiter: negative Max")
	case cfg.Window < 0 || (cfg.Max > 0 && cfg.Window == 0):
		return errors.New("rate limiter: a positive Max needs a positive Window")
	}
	r.cfg.Store(&cfg)
	return nil
}

// Limits returns the limit in force.
func (r *RateLimiter) Limits() RateConfig { return *r.cfg.Load() }

const rateName = "rate_limiter"

// Name returns "rate_limiter".
func (*RateLimiter) Name() string { return rateName }

// Check implements Hook. A Windows that cannot be read vetoes.
func (r *RateLimiter) Check(ctx context.Context, c *Call) Verdict {
	if v, ok := r.applies(c); !ok {
		return v
	}
	rc := r.cfg.Load()
	t, err := r.win.Totals(ctx, WindowQuery{Session: c.SessionID, Tick: c.Tick, Now: c.Now, RateWindow: rc.Window})
	if err != nil {
		return windowsFailed(rateName, err)
	}
	return judgeRate(rc, c, t.Writes, "executed")
}

// Record records a write executed at at, outside any permit (history
// seeded into a limiter, tests). It works on in-memory windows only.
func (r *RateLimiter) Record(sessionID string, tick uint64, at time.Time, _ int64) {
	if m, ok := r.win.(*MemWindows); ok {
		m.record(WindowSpend{Session: sessionID, Tick: tick, At: at})
	}
}

func (r *RateLimiter) applies(c *Call) (Verdict, bool) {
	switch {
	case c == nil || c.Def == nil:
		return veto(rateName, reason.HookError, "the safety checks could not complete, so the action is refused", "call without a tool definition"), false
	case isRead(c), c.Plan == nil && c.Preview:
		return Verdict{}, false
	case c.Now.IsZero():
		return veto(rateName, reason.HookError, "the safety checks could not complete, so the action is refused", "call without a time"), false
	}
	return Verdict{}, true
}

func judgeRate(rc *RateConfig, c *Call, n int, counted string) Verdict {
	if n+1 <= rc.Max {
		return Verdict{}
	}
	return veto(rateName, reason.HookRateLimit,
		fmt.Sprintf("%d writes already %s in the last %s; the limit is %d", n, counted, rc.Window, rc.Max),
		fmt.Sprintf("%s: %d + 1 > %d in %s", c.Def.Name, n, rc.Max, rc.Window))
}
