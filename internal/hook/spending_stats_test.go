package hook_test

import (
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
)

func TestSpendingStats(t *testing.T) {
	now := hooktest.Now
	limits := hook.SpendingConfig{PerTickCents: 1000, PerSessionCents: hook.Unlimited, DailyCents: 10000}
	s, err := hook.NewSpendingLimiter(limits)
	if err != nil {
		t.Fatal(err)
	}
	s.Record("s1", 6, now.Add(-30*time.Hour), 700) // out of the day
	s.Record("s1", 7, now.Add(-time.Minute), 300)
	s.Record("s2", 7, now.Add(-time.Minute), 500)
	if _, v := s.Reserve(spendCall("s1", 7, now, 100), time.Minute); v.Veto { // live, in the tick
		t.Fatal(v)
	}
	if _, v := s.Reserve(spendCall("s1", 6, now, 40), time.Minute); v.Veto { // live, another tick
		t.Fatal(v)
	}
	if _, v := s.Reserve(spendCall("s2", 7, now.Add(-time.Hour), 9), time.Minute); v.Veto { // expired at now
		t.Fatal(v)
	}
	for _, tc := range []struct {
		name    string
		session string
		tick    uint64
		want    hook.SpendingStats
	}{
		{"s1 in its tick", "s1", 7, hook.SpendingStats{Limits: limits, DailyCents: 800, DailyHeldCents: 140,
			SessionCents: 1000, SessionHeldCents: 140, TickCents: 300, TickHeldCents: 100}},
		{"s1 in a later tick", "s1", 8, hook.SpendingStats{Limits: limits, DailyCents: 800, DailyHeldCents: 140,
			SessionCents: 1000, SessionHeldCents: 140}},
		{"no session", "", 7, hook.SpendingStats{Limits: limits, DailyCents: 800, DailyHeldCents: 140}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := s.Stats(tc.session, tc.tick, now); got != tc.want {
				t.Errorf("Stats = %+v\nwant    %+v", got, tc.want)
			}
		})
	}
	// Read-only: Stats left the hold expired at now in place, so an hour
	// earlier it still counts.
	if got := s.Stats("s2", 7, now.Add(-time.Hour)); got.DailyHeldCents != 149 {
		t.Errorf("held an hour ago = %d, want 149", got.DailyHeldCents)
	}
}
