package hook_test

import (
	"context"
	"errors"
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

// TestSpendingOverride: the owner's override wins over the configured
// limits on every path (Check, Reserve, Begin) while set, SetLimits (a
// reload) does not undo it, clearing it restores the configured limits,
// and an override that cannot be read refuses.
func TestSpendingOverride(t *testing.T) {
	ctx := context.Background()
	now := hooktest.Now
	s, err := hook.NewLimits(hook.SpendingConfig{PerTickCents: 1000, PerSessionCents: 1000, DailyCents: 1000},
		hook.RateConfig{Max: 100, Window: time.Hour}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var (
		set     bool
		readErr error
	)
	s.Spending.SetOverride(func(context.Context) (hook.SpendingConfig, bool, error) {
		return hook.SpendingConfig{PerTickCents: 300, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited}, set, readErr
	})
	c := spendCall("s1", 1, now, 500)
	if v := s.Spending.Check(ctx, c); v.Veto {
		t.Fatalf("no override, $5 under a $10 limit: %+v", v)
	}
	set = true
	if v := s.Spending.Check(ctx, c); v.Code != reason.SpendTickLimit {
		t.Fatalf("override of $3 per tick, Check: got %q, want %s", v.Code, reason.SpendTickLimit)
	}
	if v := s.Reserve(ctx, c, "p1", time.Minute); v.Code != reason.SpendTickLimit {
		t.Fatalf("override of $3 per tick, Reserve: got %q, want %s", v.Code, reason.SpendTickLimit)
	}
	if began, v := s.Begin(ctx, c, "p1", 500); began || v.Code != reason.SpendTickLimit {
		t.Fatalf("override of $3 per tick, Begin: began %v, got %q", began, v.Code)
	}
	if err := s.Spending.SetLimits(hook.SpendingConfig{PerTickCents: 5000, PerSessionCents: 5000, DailyCents: 5000}); err != nil {
		t.Fatal(err)
	}
	if v := s.Spending.Check(ctx, c); v.Code != reason.SpendTickLimit {
		t.Fatalf("a reload undid the override: got %q", v.Code)
	}
	if got, err := s.Spending.Effective(ctx); err != nil || got.PerTickCents != 300 {
		t.Fatalf("Effective = %+v, %v; want the override", got, err)
	}
	set = false
	if v := s.Spending.Check(ctx, c); v.Veto {
		t.Fatalf("override cleared: %+v", v)
	}
	readErr = errors.New("store down")
	if v := s.Spending.Check(ctx, c); !v.Veto || v.Code != reason.HookError {
		t.Fatalf("an unreadable override: got %+v, want a %s veto", v, reason.HookError)
	}
	if v := s.Reserve(ctx, c, "p2", time.Minute); !v.Veto {
		t.Fatal("an unreadable override: Reserve passed")
	}
}

func TestParseLimitUSD(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"5", 500, true}, {"0.5", 50, true}, {"12.34", 1234, true}, {"unlimited", hook.Unlimited, true},
		{"9999999999999.99", 999999999999999, true},
		{"", 0, false}, {"-1", 0, false}, {"1.234", 0, false}, {"1.", 0, false}, {".5", 0, false}, {"1e3", 0, false},
		{"+1", 0, false}, {"Unlimited", 0, false}, {"99999999999999", 0, false}, {"1.-5", 0, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := hook.ParseLimitUSD(tc.in)
			if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
				t.Fatalf("ParseLimitUSD(%q) = %d, %v; want %d, ok %t", tc.in, got, err, tc.want, tc.ok)
			}
			if tc.ok {
				if back, _ := hook.ParseLimitUSD(hook.FormatLimitUSD(got)); back != got {
					t.Errorf("round trip of %q: %d", tc.in, back)
				}
			}
		})
	}
}
