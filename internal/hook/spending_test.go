package hook_test

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

func spendCall(session string, tick uint64, at time.Time, cents int64) *hook.Call {
	c := writeCall()
	c.SessionID, c.Tick, c.Now = session, tick, at
	c.Plan = hooktest.Plan(1, cents)
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
			// Reserve agrees with Check when nothing is held.
			id, rv := s.Reserve(tt.call, time.Minute)
			if rv.Code != tt.code {
				t.Errorf("Reserve = %s, Check %s", rv.Code, tt.code)
			}
			if (id != 0) != (tt.code == "" && tt.call.Plan.ValueCents > 0) {
				t.Errorf("Reserve hold id %d for verdict %q", id, rv.Code)
			}
		})
	}
}

func TestSpendingHoldLifecycle(t *testing.T) {
	now := hooktest.Now
	s, err := hook.NewSpendingLimiter(hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000})
	if err != nil {
		t.Fatal(err)
	}
	first := spendCall("s1", 1, now, 700)
	id, v := s.Reserve(first, time.Minute)
	if v.Veto || id == 0 {
		t.Fatalf("first Reserve = %d, %+v", id, v)
	}
	second := spendCall("s2", 1, now.Add(time.Second), 400)
	if _, v := s.Reserve(second, time.Minute); v.Code != reason.SpendDailyLimit || !strings.Contains(v.Message, "spent or held") {
		t.Errorf("Reserve over a hold = %s %q, want SPEND_DAILY_LIMIT_EXCEEDED", v.Code, v.Message)
	}
	if v := s.Check(context.Background(), second); v.Veto {
		t.Errorf("Check counts holds: %+v", v)
	}
	// Releasing frees the room.
	s.Release(id)
	id2, v := s.Reserve(second, time.Minute)
	if v.Veto {
		t.Fatalf("Reserve after Release = %+v", v)
	}
	// Settling records the executed spend: Check now sees it.
	s.Settle(id2, "s2", 1, now.Add(2*time.Second), 400)
	if v := s.Check(context.Background(), spendCall("s3", 1, now.Add(3*time.Second), 601)); v.Code != reason.SpendDailyLimit {
		t.Errorf("after Settle, Check = %s, want the settled 400 counted", v.Code)
	}
	// A hold expires ttl after the Now of the call that took it.
	id3, v := s.Reserve(spendCall("s4", 1, now.Add(3*time.Second), 600), time.Minute)
	if v.Veto {
		t.Fatalf("Reserve = %+v", v)
	}
	if _, v := s.Reserve(spendCall("s5", 1, now.Add(3*time.Second+time.Minute-1), 100), time.Minute); !v.Veto {
		t.Error("a hold stopped counting before its expiry")
	}
	if _, v := s.Reserve(spendCall("s5", 1, now.Add(3*time.Second+time.Minute), 100), time.Minute); v.Veto {
		t.Errorf("an expired hold still counts: %+v", v)
	}
	// Settling an expired hold still records the spend.
	s.Settle(id3, "s4", 1, now.Add(2*time.Minute), 600)
	if v := s.Check(context.Background(), spendCall("s6", 1, now.Add(2*time.Minute), 1)); v.Code != reason.SpendDailyLimit {
		t.Errorf("Settle of an expired hold recorded nothing: %s", v.Code)
	}
	s.Release(0) // the zero id is harmless
	s.Settle(0, "s7", 1, now, 0)
}

func TestSpendingHoldScopes(t *testing.T) {
	now := hooktest.Now
	s, _ := hook.NewSpendingLimiter(hook.SpendingConfig{PerTickCents: 500, PerSessionCents: 800, DailyCents: hook.Unlimited})
	if _, v := s.Reserve(spendCall("s1", 1, now, 500), 0); v.Veto {
		t.Fatal(v)
	}
	for _, tc := range []struct {
		name string
		c    *hook.Call
		code reason.Code
	}{
		{"same tick", spendCall("s1", 1, now, 1), reason.SpendTickLimit},
		{"next tick, session room", spendCall("s1", 2, now, 300), ""},
		{"next tick, over session", spendCall("s1", 2, now, 301), reason.SpendSessionLimit},
		{"other session", spendCall("s2", 1, now, 500), ""},
	} {
		// Probe with Reserve and release at once, so cases stay independent.
		id, v := s.Reserve(tc.c, 0)
		s.Release(id)
		if v.Code != tc.code {
			t.Errorf("%s: %s, want %q", tc.name, v.Code, tc.code)
		}
	}
}

// TestSpendingReserveHammer: of many concurrent Reserves that together
// exceed the limit, exactly as many as fit succeed.
func TestSpendingReserveHammer(t *testing.T) {
	s, _ := hook.NewSpendingLimiter(hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000})
	var ok atomic.Int64
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			c := spendCall("s"+string(rune('a'+i%8)), uint64(i), hooktest.Now, 100)
			_ = s.Check(context.Background(), c) // races with Settle: run with -race
			if id, v := s.Reserve(c, time.Minute); !v.Veto {
				ok.Add(1)
				if i%3 == 0 {
					s.Settle(id, c.SessionID, c.Tick, c.Now, 100)
				}
			}
		})
	}
	wg.Wait()
	if n := ok.Load(); n != 10 {
		t.Errorf("%d Reserves of $1 succeeded under a $10 daily limit, want 10", n)
	}
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
	if id, v := s.Reserve(read, 0); id != 0 || v.Veto {
		t.Errorf("Reserve for a read = %d, %+v", id, v)
	}
}
