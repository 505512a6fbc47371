package hook_test

import (
	"context"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/reason"
)

// TestSetLimits: new limits apply to the next check, recorded spend and
// writes stay counted, and invalid limits change nothing.
func TestSetLimits(t *testing.T) {
	ctx := context.Background()
	now := hooktest.Now
	s, err := hook.NewLimits(hook.SpendingConfig{PerTickCents: 1000, PerSessionCents: 1000, DailyCents: 1000},
		hook.RateConfig{Max: 1, Window: time.Hour}, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := spendCall("s1", 1, now, 800)
	if began, v := s.Begin(ctx, first, "p1", 800); !began || v.Veto {
		t.Fatalf("first write: began %v, verdict %+v", began, v)
	}
	if err := s.Finish(ctx, "p1", true, 800); err != nil {
		t.Fatal(err)
	}
	second := spendCall("s1", 1, now.Add(time.Minute), 800)
	if v := s.Reserve(ctx, second, "p2", time.Minute); v.Code != reason.SpendTickLimit {
		t.Fatalf("before the change: got %q, want %s", v.Code, reason.SpendTickLimit)
	}
	if err := s.Spending.SetLimits(hook.SpendingConfig{PerTickCents: -1}); err == nil {
		t.Fatal("a negative limit was accepted")
	}
	if err := s.Rate.SetLimits(hook.RateConfig{Max: 5}); err == nil {
		t.Fatal("a rate limit without a window was accepted")
	}
	if got := s.Spending.Limits().PerTickCents; got != 1000 {
		t.Fatalf("a refused change changed the limit to %d", got)
	}
	if err := s.Spending.SetLimits(hook.SpendingConfig{PerTickCents: 2000, PerSessionCents: 2000, DailyCents: 2000}); err != nil {
		t.Fatal(err)
	}
	// The spend limit now fits, the rate limit (1 write, counted) still refuses.
	if v := s.Reserve(ctx, second, "p2", time.Minute); v.Code != reason.HookRateLimit {
		t.Fatalf("after raising the spend limits: got %q, want %s (the first write still counts)", v.Code, reason.HookRateLimit)
	}
	if err := s.Rate.SetLimits(hook.RateConfig{Max: 2, Window: time.Hour}); err != nil {
		t.Fatal(err)
	}
	if v := s.Reserve(ctx, second, "p2", time.Hour); v.Veto {
		t.Fatalf("after raising both limits: %+v", v)
	}
	third := spendCall("s1", 1, now.Add(2*time.Minute), 500)
	if v := s.Reserve(ctx, third, "p3", time.Minute); v.Code != reason.SpendTickLimit && v.Code != reason.HookRateLimit {
		t.Fatalf("the hold of p2 does not count: got %q", v.Code)
	}
}
