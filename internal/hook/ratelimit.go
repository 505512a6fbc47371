package hook

import (
	"context"
	"errors"
	"fmt"
	"sync"
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
// counts executed writes, recorded by the gate with Record or Settle
// after a commit has run, with the same Check / Reserve semantics as
// SpendingLimiter: Check vetoes when the executed writes in the window
// before the call's Now plus this one exceed Max; Reserve atomically
// counts live holds too and holds a slot until Settle, Release or ttl
// after the call's Now. Reads and previews without a plan pass; a preview
// with a plan is checked (it would fail at commit anyway) but never
// holds unless the gate reserves for it. RateLimiter is safe for
// concurrent use.
type RateLimiter struct {
	max    int
	window time.Duration

	mu     sync.Mutex
	writes []time.Time
	latest time.Time
	holds  map[HoldID]time.Time // expiry
	next   HoldID
}

var _ Hook = (*RateLimiter)(nil)

// NewRateLimiter validates cfg and returns a RateLimiter.
func NewRateLimiter(cfg RateConfig) (*RateLimiter, error) {
	switch {
	case cfg.Max < 0:
		return nil, errors.New("rate limiter: negative Max")
	case cfg.Window < 0 || (cfg.Max > 0 && cfg.Window == 0):
		return nil, errors.New("rate limiter: a positive Max needs a positive Window")
	}
	return &RateLimiter{max: cfg.Max, window: cfg.Window, holds: map[HoldID]time.Time{}}, nil
}

const rateName = "rate_limiter"

// Name returns "rate_limiter".
func (*RateLimiter) Name() string { return rateName }

// Check implements Hook.
func (r *RateLimiter) Check(_ context.Context, c *Call) Verdict {
	if v, ok := r.applies(c); !ok {
		return v
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.judge(c, r.countLocked(c.Now), "executed")
}

// Reserve atomically checks the call against executed writes plus live
// holds and, if a slot is free, holds it. It returns the zero HoldID when
// the call needs no slot or is vetoed. ttl <= 0 means DefaultHoldTTL.
func (r *RateLimiter) Reserve(c *Call, ttl time.Duration) (HoldID, Verdict) {
	if v, ok := r.applies(c); !ok {
		return 0, v
	}
	if ttl <= 0 {
		ttl = DefaultHoldTTL
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, exp := range r.holds {
		if !c.Now.Before(exp) {
			delete(r.holds, id)
		}
	}
	if v := r.judge(c, r.countLocked(c.Now)+len(r.holds), "executed or held"); v.Veto {
		return 0, v
	}
	r.next++
	r.holds[r.next] = c.Now.Add(ttl)
	return r.next, Verdict{}
}

// Release drops a hold without recording a write.
func (r *RateLimiter) Release(id HoldID) {
	r.mu.Lock()
	delete(r.holds, id)
	r.mu.Unlock()
}

// Settle atomically drops the hold (if it still exists) and records a
// write executed at at.
func (r *RateLimiter) Settle(id HoldID, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.holds, id)
	r.recordLocked(at)
}

// Record records a write executed at at. It has the spending limiter's
// signature so the gate can record an executed write with both alike;
// only at counts here.
func (r *RateLimiter) Record(_ string, _ uint64, at time.Time, _ int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recordLocked(at)
}

func (r *RateLimiter) recordLocked(at time.Time) {
	if at.After(r.latest) {
		r.latest = at
	}
	r.writes = append(r.writes, at)
	cut := r.latest.Add(-r.window)
	i := 0
	for i < len(r.writes) && !r.writes[i].After(cut) {
		i++
	}
	if i > 0 && i >= len(r.writes)/2 {
		r.writes = append(r.writes[:0], r.writes[i:]...)
	}
}

// countLocked counts the writes executed in the window before now (and
// any recorded later than now).
func (r *RateLimiter) countLocked(now time.Time) int {
	cut := now.Add(-r.window)
	n := 0
	for _, at := range r.writes {
		if at.After(cut) {
			n++
		}
	}
	return n
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

func (r *RateLimiter) judge(c *Call, n int, counted string) Verdict {
	if n+1 <= r.max {
		return Verdict{}
	}
	return veto(rateName, reason.HookRateLimit,
		fmt.Sprintf("%d writes already %s in the last %s; the limit is %d", n, counted, r.window, r.max),
		fmt.Sprintf("%s: %d + 1 > %d in %s", c.Def.Name, n, r.max, r.window))
}
