package hook_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/hook/windowstest"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

func spendCall(session string, tick uint64, at time.Time, cents int64) *hook.Call {
	c := writeCall()
	c.SessionID, c.Tick, c.Now = session, tick, at
	c.Plan = hooktest.Plan(1, cents)
	return c
}

func unpricedCall(at time.Time) *hook.Call {
	c := spendCall("s1", 7, at, -1)
	c.Plan.Unpriced = []tool.Unpriced{{Token: tool.Address{19: 7}, Symbol: "WETH", Why: "its USD feed is stale"}, {Token: tool.Address{19: 8}, Why: "not listed"}}
	return c
}

type rec struct {
	session string
	tick    uint64
	ago     time.Duration
	cents   int64
}

func TestSpendingWindows(t *testing.T) {
	now := hooktest.Now
	limits := hook.SpendingConfig{PerTickCents: 1000, PerSessionCents: 5000, DailyCents: 10000}
	tests := []struct {
		name    string
		cfg     hook.SpendingConfig
		records []rec
		call    *hook.Call
		code    reason.Code
		msg     []string // fragments of the message
	}{
		{"fits", limits, nil, spendCall("s1", 7, now, 1000), "", nil},
		{"tick exactly at the limit", limits, []rec{{"s1", 7, time.Minute, 600}}, spendCall("s1", 7, now, 400), "", nil},
		{"tick one cent over", limits, []rec{{"s1", 7, time.Minute, 600}}, spendCall("s1", 7, now, 401),
			reason.SpendTickLimit, []string{"$4.01", "$6.00", "per-tick limit of $10.00"}},
		{"next tick starts afresh", limits, []rec{{"s1", 7, time.Minute, 1000}}, spendCall("s1", 8, now, 1000), "", nil},
		{"older tick counts against the latest", limits, []rec{{"s1", 8, time.Minute, 900}}, spendCall("s1", 7, now, 200), reason.SpendTickLimit, nil},
		{"another session's tick does not count", limits, []rec{{"s2", 7, time.Minute, 1000}}, spendCall("s1", 7, now, 1000), "", nil},
		{"session over several ticks", limits, []rec{{"s1", 1, time.Hour, 1000}, {"s1", 2, time.Hour, 1000}, {"s1", 3, time.Hour, 1000}, {"s1", 4, time.Hour, 1000}, {"s1", 5, time.Hour, 500}},
			spendCall("s1", 7, now, 501), reason.SpendSessionLimit, []string{"$45.00", "per-session limit of $50.00"}},
		{"session limit survives the day", limits, []rec{{"s1", 1, 48 * time.Hour, 4900}}, spendCall("s1", 7, now, 101), reason.SpendSessionLimit, nil},
		{"daily across sessions", limits, []rec{{"a", 1, 23 * time.Hour, 4000}, {"b", 1, time.Hour, 4000}, {"c", 1, time.Minute, 1500}},
			spendCall("s1", 7, now, 501), reason.SpendDailyLimit, []string{"$95.00", "the last 24 hours", "daily limit of $100.00"}},
		{"daily slides: 24h ago is out", limits, []rec{{"a", 1, 24 * time.Hour, 4000}, {"b", 1, 24 * time.Hour, 4000}, {"c", 1, time.Minute, 1500}},
			spendCall("s1", 7, now, 1000), "", nil},
		{"daily slides: just inside 24h", limits, []rec{{"a", 1, 24*time.Hour - time.Nanosecond, 4000}, {"b", 1, time.Hour, 4000}, {"c", 1, time.Minute, 1500}},
			spendCall("s1", 7, now, 1000), reason.SpendDailyLimit, nil},
		{"future records count", limits, []rec{{"a", 1, -time.Hour, 4000}, {"b", 1, 0, 4000}, {"c", 1, 0, 1500}},
			spendCall("s1", 7, now, 1000), reason.SpendDailyLimit, nil},
		{"zero config refuses any value", hook.SpendingConfig{}, nil, spendCall("s1", 7, now, 1), reason.SpendTickLimit, nil},
		{"zero value passes the zero config", hook.SpendingConfig{}, nil, spendCall("s1", 7, now, 0), "", nil},
		{"unpriced", limits, nil, spendCall("s1", 7, now, -1), reason.ValueUnpriced, nil},
		{"unpriced says which token and why", limits, nil, unpricedCall(now), reason.ValueUnpriced,
			[]string{"token WETH 0x0000000000000000000000000000000000000007: its USD feed is stale", "; token 0x0000000000000000000000000000000000000008: not listed"}},
		{"unlimited", hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			[]rec{{"s1", 7, 0, 1 << 62}, {"s1", 7, 0, 1 << 62}}, spendCall("s1", 7, now, 1<<62), "", nil},
		{"saturating sums", hook.SpendingConfig{PerTickCents: hook.Unlimited - 1, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			[]rec{{"s1", 7, 0, 1 << 62}, {"s1", 7, 0, 1 << 62}}, spendCall("s1", 7, now, 1<<62), reason.SpendTickLimit, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := hook.NewSpendingLimiter(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range tt.records {
				s.Record(r.session, r.tick, now.Add(-r.ago), r.cents)
			}
			v := s.Check(context.Background(), tt.call)
			if v.Code != tt.code || v.Veto != (tt.code != "") {
				t.Fatalf("Check = %s %q, want %q", v.Code, v.Message, tt.code)
			}
			for _, m := range tt.msg {
				if !strings.Contains(v.Message, m) {
					t.Errorf("message %q lacks %q", v.Message, m)
				}
			}
		})
	}
}

// TestMemWindows runs the Windows conformance suite on the in-memory
// windows every limiter counts in by default.
func TestMemWindows(t *testing.T) {
	windowstest.Run(t, func(t *testing.T) func() hook.Windows {
		w := hook.NewMemWindows()
		return func() hook.Windows { return w }
	})
}

func TestSpendingErrors(t *testing.T) {
	if _, err := hook.NewSpendingLimiter(hook.SpendingConfig{DailyCents: -1}); err == nil {
		t.Error("negative limit accepted")
	}
	s, _ := hook.NewSpendingLimiter(hook.SpendingConfig{DailyCents: 100})
	c := spendCall("s1", 1, time.Time{}, 10)
	if v := s.Check(context.Background(), c); v.Code != reason.HookError {
		t.Errorf("call without time: %s, want HOOK_ERROR", v.Code)
	}
	read := writeCall()
	read.Def = hooktest.Def("uniswap_get_quote", tool.Read, tool.Layer1, tool.EffectNone)
	w := hook.NewMemWindows()
	set, err := hook.NewLimits(hook.SpendingConfig{DailyCents: 100}, hook.RateConfig{Max: 1, Window: time.Minute}, w)
	if err != nil {
		t.Fatal(err)
	}
	if v := set.Reserve(context.Background(), read, "k", 0); v.Veto || len(w.Keys(hooktest.Now)) != 0 {
		t.Errorf("Reserve for a read = %+v, holds %v", v, w.Keys(hooktest.Now))
	}
	unpriced := spendCall("s1", 1, hooktest.Now, -5)
	if v := set.Reserve(context.Background(), unpriced, "k", 0); v.Code != reason.ValueUnpriced || len(w.Keys(hooktest.Now)) != 0 {
		t.Errorf("Reserve for an unpriced plan = %+v, holds %v", v, w.Keys(hooktest.Now))
	}
}
