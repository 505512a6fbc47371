// Package windowstest is the conformance suite of hook.Windows, in the
// manner of testing/slogtest: a backend's test calls Run with an opener of
// a fresh backend, and the suite checks, through the spending and rate
// limiters of a hook.Set over it, exactly what the limiters count:
//
//   - recorded spend in the session's latest tick, the session and the
//     sliding day, and writes in the rate window; live holds on top for
//     Reserve and Begin, never for Check;
//   - a hold lives until it is released, turned into spend by Begin, or
//     its expiry; Begin records a key's spend once, and a Begin the
//     limits refuse leaves the hold as it was; Finish keeps or removes
//     the spend;
//   - of concurrent Reserves that only some fit, exactly those succeed;
//   - what was recorded survives reopening the backend (a restart);
//   - after any sequence of Begin and Finish over sessions, ticks and
//     times around minute and day boundaries, the totals are those of
//     hook.MemWindows, before and after a reopen (a backend that keeps
//     running totals keeps them exact).
package windowstest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
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

// Run runs the suite. newBackend is called once per subtest and returns
// an opener of that subtest's backend; calling the opener again must
// close the previous backend (if it can be closed) and open the same
// data, as a restart does. A backend in memory returns itself.
func Run(t *testing.T, newBackend func(t *testing.T) func() hook.Windows) {
	tests := []struct {
		name string
		fn   func(t *testing.T, nb func(t *testing.T) func() hook.Windows)
	}{
		{"Windows", testWindows},
		{"HoldLifecycle", testHoldLifecycle},
		{"HoldScopes", testHoldScopes},
		{"BeginOnce", testBeginOnce},
		{"BeginRefusedKeepsHold", testBeginRefused},
		{"Rate", testRate},
		{"Stats", testStats},
		{"ReserveHammer", testHammer},
		{"Reopen", testReopen},
		{"TotalsAgree", testTotalsAgree},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, newBackend) })
	}
}

// Now is the suite's reference time.
var Now = hooktest.Now

var unlimitedRate = hook.RateConfig{Max: 1 << 30, Window: time.Hour}

func limits(t *testing.T, w hook.Windows, spending hook.SpendingConfig, rate hook.RateConfig) *hook.Set {
	t.Helper()
	s, err := hook.NewLimits(spending, rate, w)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Call is a write of cents by session in tick at at.
func Call(session string, tick uint64, at time.Time, cents int64) *hook.Call {
	return &hook.Call{
		Def:  hooktest.Def("uniswap_swap_exact", tool.Write, tool.Layer2, tool.EffectOpen),
		Args: tool.EmptyArgs(), Plan: hooktest.Plan(1000, cents), Phase: hook.Thriving,
		SessionID: session, Tick: tick, Now: at, Preview: true,
	}
}

var seq atomic.Int64

// seed records executed spend directly in w, as earlier commits did.
func seed(t *testing.T, w hook.Windows, session string, tick uint64, at time.Time, cents int64) {
	t.Helper()
	key := fmt.Sprintf("seed-%d", seq.Add(1))
	q := hook.WindowQuery{Session: session, Tick: tick, Now: at}
	if err := w.Begin(context.Background(), hook.WindowSpend{Key: key, Session: session, Tick: tick, Cents: cents, At: at}, q,
		func(hook.WindowTotals) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(context.Background(), key, true, cents); err != nil {
		t.Fatal(err)
	}
}

func key() string { return fmt.Sprintf("permit-%d", seq.Add(1)) }

type rec struct {
	session string
	tick    uint64
	ago     time.Duration
	cents   int64
}

func testWindows(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	lim := hook.SpendingConfig{PerTickCents: 1000, PerSessionCents: 5000, DailyCents: 10000}
	for _, tt := range []struct {
		name    string
		records []rec
		call    *hook.Call
		code    reason.Code
		msg     []string
	}{
		{"fits", nil, Call("s1", 7, Now, 1000), "", nil},
		{"tick exactly at the limit", []rec{{"s1", 7, time.Minute, 600}}, Call("s1", 7, Now, 400), "", nil},
		{"tick one cent over", []rec{{"s1", 7, time.Minute, 600}}, Call("s1", 7, Now, 401),
			reason.SpendTickLimit, []string{"$4.01", "$6.00", "per-tick limit of $10.00"}},
		{"next tick starts afresh", []rec{{"s1", 7, time.Minute, 1000}}, Call("s1", 8, Now, 1000), "", nil},
		{"older tick counts against the latest", []rec{{"s1", 8, time.Minute, 900}}, Call("s1", 7, Now, 200), reason.SpendTickLimit, nil},
		{"another session's tick does not count", []rec{{"s2", 7, time.Minute, 1000}}, Call("s1", 7, Now, 1000), "", nil},
		{"session over several ticks", []rec{{"s1", 1, time.Hour, 1000}, {"s1", 2, time.Hour, 1000}, {"s1", 3, time.Hour, 1000}, {"s1", 4, time.Hour, 1000}, {"s1", 5, time.Hour, 500}},
			Call("s1", 7, Now, 501), reason.SpendSessionLimit, []string{"$45.00", "per-session limit of $50.00"}},
		{"session limit survives the day", []rec{{"s1", 1, 48 * time.Hour, 4900}}, Call("s1", 7, Now, 101), reason.SpendSessionLimit, nil},
		{"daily across sessions", []rec{{"a", 1, 23 * time.Hour, 4000}, {"b", 1, time.Hour, 4000}, {"c", 1, time.Minute, 1500}},
			Call("s1", 7, Now, 501), reason.SpendDailyLimit, []string{"$95.00", "the last 24 hours", "daily limit of $100.00"}},
		{"daily slides: 24h ago is out", []rec{{"a", 1, 24 * time.Hour, 4000}, {"b", 1, 24 * time.Hour, 4000}, {"c", 1, time.Minute, 1500}},
			Call("s1", 7, Now, 1000), "", nil},
		{"daily slides: just inside 24h", []rec{{"a", 1, 24*time.Hour - time.Nanosecond, 4000}, {"b", 1, time.Hour, 4000}, {"c", 1, time.Minute, 1500}},
			Call("s1", 7, Now, 1000), reason.SpendDailyLimit, nil},
		{"future records count", []rec{{"a", 1, -time.Hour, 4000}, {"b", 1, 0, 4000}, {"c", 1, 0, 1500}},
			Call("s1", 7, Now, 1000), reason.SpendDailyLimit, nil},
		{"unpriced", nil, Call("s1", 7, Now, -1), reason.ValueUnpriced, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := nb(t)()
			s := limits(t, w, lim, unlimitedRate)
			for _, r := range tt.records {
				seed(t, w, r.session, r.tick, Now.Add(-r.ago), r.cents)
			}
			c := *tt.call
			v := s.Spending.Check(context.Background(), &c)
			if v.Code != tt.code || v.Veto != (tt.code != "") {
				t.Fatalf("Check = %s %q, want %q", v.Code, v.Message, tt.code)
			}
			for _, m := range tt.msg {
				if !strings.Contains(v.Message, m) {
					t.Errorf("message %q lacks %q", v.Message, m)
				}
			}
			// Reserve agrees with Check when nothing is held.
			k := key()
			rv := s.Reserve(context.Background(), &c, k, time.Minute)
			if rv.Code != tt.code {
				t.Errorf("Reserve = %s %q, Check %s", rv.Code, rv.Message, tt.code)
			}
			if err := s.Release(context.Background(), k); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func testHoldLifecycle(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	ctx := context.Background()
	w := open()
	s := limits(t, w, hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000}, unlimitedRate)
	first, k1 := Call("s1", 1, Now, 700), key()
	if v := s.Reserve(ctx, first, k1, time.Minute); v.Veto {
		t.Fatalf("first Reserve = %+v", v)
	}
	second, k2 := Call("s2", 1, Now.Add(time.Second), 400), key()
	if v := s.Reserve(ctx, second, k2, time.Minute); v.Code != reason.SpendDailyLimit || !strings.Contains(v.Message, "spent or held") {
		t.Errorf("Reserve over a hold = %s %q, want SPEND_DAILY_LIMIT_EXCEEDED", v.Code, v.Message)
	}
	if v := s.Spending.Check(ctx, second); v.Veto {
		t.Errorf("Check counts holds: %+v", v)
	}
	// Releasing frees the room.
	if err := s.Release(ctx, k1); err != nil {
		t.Fatal(err)
	}
	if v := s.Reserve(ctx, second, k2, time.Minute); v.Veto {
		t.Fatalf("Reserve after Release = %+v", v)
	}
	// Begin turns the hold into spend: Check now sees it, and it is not
	// counted twice.
	commit := Call("s2", 1, Now.Add(2*time.Second), 400)
	commit.Preview = false
	if began, v := s.Begin(ctx, commit, k2, 400); !began || v.Veto {
		t.Fatalf("Begin = %v, %+v", began, v)
	}
	if v := s.Reserve(ctx, Call("s3", 1, Now.Add(3*time.Second), 600), key(), time.Minute); v.Veto {
		t.Errorf("the begun spend counts twice: %+v", v)
	}
	if v := s.Spending.Check(ctx, Call("s4", 1, Now.Add(3*time.Second), 601)); v.Code != reason.SpendDailyLimit {
		t.Errorf("after Begin, Check = %s, want the 400 counted", v.Code)
	}
	// Finish(not executed) removes it, by the time a later Release
	// returns.
	if err := s.Finish(ctx, k2, false, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(ctx, key()); err != nil {
		t.Fatal(err)
	}
	if v := s.Spending.Check(ctx, Call("s4", 1, Now.Add(3*time.Second), 1000)); v.Veto {
		t.Errorf("a write that did not run still counts: %+v", v)
	}
	// A hold expires ttl after the Now of the call that took it.
	w2 := nb(t)()
	s2 := limits(t, w2, hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000}, unlimitedRate)
	base := Now.Add(time.Hour)
	if v := s2.Reserve(ctx, Call("e1", 1, base, 1000), key(), time.Minute); v.Veto {
		t.Fatal(v)
	}
	if v := s2.Reserve(ctx, Call("e2", 1, base.Add(time.Minute-1), 1), key(), time.Minute); !v.Veto {
		t.Error("a hold stopped counting before its expiry")
	}
	if v := s2.Reserve(ctx, Call("e2", 1, base.Add(time.Minute), 1), key(), time.Minute); v.Veto {
		t.Errorf("an expired hold still counts: %+v", v)
	}
}

func testHoldScopes(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	ctx := context.Background()
	s := limits(t, open(), hook.SpendingConfig{PerTickCents: 500, PerSessionCents: 800, DailyCents: hook.Unlimited}, unlimitedRate)
	if v := s.Reserve(ctx, Call("s1", 1, Now, 500), key(), 0); v.Veto {
		t.Fatal(v)
	}
	for _, tc := range []struct {
		name string
		c    *hook.Call
		code reason.Code
	}{
		{"same tick", Call("s1", 1, Now, 1), reason.SpendTickLimit},
		{"next tick, session room", Call("s1", 2, Now, 300), ""},
		{"next tick, over session", Call("s1", 2, Now, 301), reason.SpendSessionLimit},
		{"other session", Call("s2", 1, Now, 500), ""},
	} {
		k := key()
		v := s.Reserve(ctx, tc.c, k, 0)
		if err := s.Release(ctx, k); err != nil {
			t.Fatal(err)
		}
		if v.Code != tc.code {
			t.Errorf("%s: %s, want %q", tc.name, v.Code, tc.code)
		}
	}
}

func testBeginOnce(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	w := open()
	ctx := context.Background()
	e := hook.WindowSpend{Key: key(), Session: "s1", Tick: 1, Cents: 5, At: Now}
	q := hook.WindowQuery{Session: "s1", Tick: 1, Now: Now}
	ok := func(hook.WindowTotals) error { return nil }
	if err := w.Begin(ctx, e, q, ok); err != nil {
		t.Fatal(err)
	}
	if err := w.Begin(ctx, e, q, ok); !errors.Is(err, hook.ErrSpendRecorded) {
		t.Errorf("a second Begin of one key: %v, want ErrSpendRecorded", err)
	}
	if got, _ := w.Totals(ctx, q); got.Session != 5 {
		t.Errorf("spend after two Begins = %d, want 5", got.Session)
	}
	_ = w.Finish(ctx, key(), true, 1) // an unknown key: an error or nothing, never spend
	if err := w.Release(ctx, key()); err != nil {
		t.Errorf("Release of an unknown key: %v", err)
	}
	if got, _ := w.Totals(ctx, q); got.Session != 5 || got.Day != 5 {
		t.Errorf("after a Finish of an unknown key: %+v", got)
	}
}

func testBeginRefused(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	ctx := context.Background()
	w := open()
	s := limits(t, w, hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000}, unlimitedRate)
	k := key()
	if v := s.Reserve(ctx, Call("s1", 1, Now, 600), k, time.Minute); v.Veto {
		t.Fatal(v)
	}
	// Past the hold's expiry another write took the room: the commit is
	// refused, and nothing is recorded for it.
	later := Now.Add(2 * time.Minute)
	seed(t, w, "s2", 1, later, 900)
	c := Call("s1", 1, later, 600)
	c.Preview = false
	if began, v := s.Begin(ctx, c, k, 600); began || v.Code != reason.SpendDailyLimit {
		t.Fatalf("Begin over the limit = %v, %s", began, v.Code)
	}
	if got, _ := w.Totals(ctx, hook.WindowQuery{Session: "s1", Tick: 1, Now: later}); got.Session != 0 || got.Day != 900 {
		t.Errorf("a refused Begin recorded spend: %+v", got)
	}
	// A refused Begin of a live hold leaves the hold.
	k2 := key()
	if v := s.Reserve(ctx, Call("s3", 1, later, 100), k2, time.Minute); v.Veto {
		t.Fatal(v)
	}
	big := Call("s3", 1, later, 200)
	big.Preview = false
	if _, v := s.Begin(ctx, big, k2, 200); !v.Veto {
		t.Fatal("Begin of more than the limit leaves passed")
	}
	if got, _ := w.Totals(ctx, hook.WindowQuery{Session: "s3", Tick: 1, Now: later}); got.SessionHeld != 100 {
		t.Errorf("after a refused Begin the hold is %d, want 100", got.SessionHeld)
	}
}

func testRate(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	ctx := context.Background()
	w := open()
	s := limits(t, w, hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
		hook.RateConfig{Max: 3, Window: time.Minute})
	seed(t, w, "r", 1, Now.Add(-10*time.Second), 0)
	seed(t, w, "r", 1, Now.Add(-time.Minute), 0) // slid out
	k := key()
	if v := s.Reserve(ctx, Call("r", 1, Now, 0), k, time.Minute); v.Veto {
		t.Fatalf("a write worth nothing still takes a slot: %+v", v)
	}
	if v := s.Reserve(ctx, Call("r", 1, Now, 0), key(), time.Minute); v.Veto {
		t.Fatal(v)
	}
	if v := s.Reserve(ctx, Call("r", 1, Now, 0), key(), time.Minute); v.Code != reason.HookRateLimit {
		t.Errorf("a fourth write in a minute: %s, want WRITE_RATE_LIMIT_EXCEEDED", v.Code)
	}
	if v := s.Rate.Check(ctx, Call("r", 1, Now, 0)); v.Veto {
		t.Errorf("Check counts holds: %+v", v)
	}
	if err := s.Release(ctx, k); err != nil {
		t.Fatal(err)
	}
	if v := s.Reserve(ctx, Call("r", 1, Now, 0), key(), time.Minute); v.Veto {
		t.Errorf("after a release: %+v", v)
	}
}

func testStats(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	ctx := context.Background()
	w := open()
	lim := hook.SpendingConfig{PerTickCents: 1000, PerSessionCents: hook.Unlimited, DailyCents: 10000}
	s := limits(t, w, lim, unlimitedRate)
	seed(t, w, "s1", 6, Now.Add(-30*time.Hour), 700) // out of the day
	seed(t, w, "s1", 7, Now.Add(-time.Minute), 300)
	seed(t, w, "s2", 7, Now.Add(-time.Minute), 500)
	for _, c := range []*hook.Call{Call("s1", 7, Now, 100), Call("s1", 6, Now, 40)} {
		if v := s.Reserve(ctx, c, key(), time.Minute); v.Veto {
			t.Fatal(v)
		}
	}
	for _, tc := range []struct {
		name    string
		session string
		tick    uint64
		want    hook.SpendingStats
	}{
		{"s1 in its tick", "s1", 7, hook.SpendingStats{Limits: lim, DailyCents: 800, DailyHeldCents: 140, SessionCents: 1000, SessionHeldCents: 140, TickCents: 300, TickHeldCents: 100}},
		{"s1 in a later tick", "s1", 8, hook.SpendingStats{Limits: lim, DailyCents: 800, DailyHeldCents: 140, SessionCents: 1000, SessionHeldCents: 140}},
		{"no session", "", 7, hook.SpendingStats{Limits: lim, DailyCents: 800, DailyHeldCents: 140}},
	} {
		got, err := s.Spending.Stats(ctx, tc.session, tc.tick, Now)
		if err != nil || got != tc.want {
			t.Errorf("%s: Stats = %+v, %v\nwant %+v", tc.name, got, err, tc.want)
		}
	}
}

// testHammer: of many concurrent Reserves that together exceed the
// limit, exactly as many as fit succeed.
func testHammer(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	s := limits(t, open(), hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000}, unlimitedRate)
	var ok atomic.Int64
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			c := Call(fmt.Sprint("h", i%8), uint64(i), Now, 100)
			_ = s.Spending.Check(context.Background(), c)
			k := key()
			if v := s.Reserve(context.Background(), c, k, time.Minute); !v.Veto {
				ok.Add(1)
				if i%3 == 0 {
					c.Preview = false
					if began, v := s.Begin(context.Background(), c, k, 100); !began || v.Veto {
						t.Errorf("Begin of a held write: %v %+v", began, v)
					}
				}
			}
		})
	}
	wg.Wait()
	if n := ok.Load(); n != 10 {
		t.Errorf("%d Reserves of $1 succeeded under a $10 daily limit, want 10", n)
	}
}

// testReopen: recorded spend and live holds survive a restart.
func testReopen(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	ctx := context.Background()
	w := open()
	s := limits(t, w, hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000}, unlimitedRate)
	seed(t, w, "s1", 1, Now.Add(-time.Hour), 600)
	if v := s.Reserve(ctx, Call("s1", 1, Now, 300), key(), time.Hour); v.Veto {
		t.Fatal(v)
	}
	w = open()
	s = limits(t, w, hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000}, unlimitedRate)
	if v := s.Reserve(ctx, Call("s2", 1, Now.Add(time.Minute), 101), key(), time.Hour); v.Code != reason.SpendDailyLimit {
		t.Errorf("after a restart the day's spend and hold are forgotten: %s %q", v.Code, v.Message)
	}
	if v := s.Reserve(ctx, Call("s2", 1, Now.Add(time.Minute), 100), key(), time.Hour); v.Veto {
		t.Errorf("after a restart: %+v", v)
	}
}

// testTotalsAgree records random spend (begun, settled at another value
// or released) over three sessions and two days, at times on and around
// minute boundaries, and compares the backend's totals with MemWindows'
// at query times on and around the day window's edges.
func testTotalsAgree(t *testing.T, nb func(t *testing.T) func() hook.Windows) {
	open := nb(t)
	ctx := context.Background()
	w, model := open(), hook.NewMemWindows()
	r := rand.New(rand.NewPCG(22, 29))
	fits := func(hook.WindowTotals) error { return nil }
	at := func() time.Time {
		base := Now.Add(-time.Duration(r.IntN(2*24*60)) * time.Minute)
		return base.Add([]time.Duration{0, 1, -1, time.Second, 59 * time.Second}[r.IntN(5)])
	}
	check := func(stage string) {
		t.Helper()
		for i := range 40 {
			now := at().Add(hook.Day)
			if i%2 == 0 {
				now = at().Add(24 * time.Hour)
			}
			q := hook.WindowQuery{Session: fmt.Sprintf("s%d", r.IntN(3)), Tick: uint64(r.IntN(4)), Now: now, RateWindow: time.Duration(1+r.IntN(120)) * time.Minute}
			got, err := w.Totals(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := model.Totals(ctx, q)
			if got != want {
				t.Errorf("%s: totals %+v\n got %+v\nwant %+v", stage, q, got, want)
			}
		}
	}
	var begun []string
	for i := range 300 {
		e := hook.WindowSpend{Key: key(), Session: fmt.Sprintf("s%d", r.IntN(3)), Tick: uint64(r.IntN(4)), Cents: int64(r.IntN(10_000)), At: at()}
		q := hook.WindowQuery{Session: e.Session, Tick: e.Tick, Now: e.At, RateWindow: time.Hour}
		for _, b := range []hook.Windows{w, model} {
			if err := b.Begin(ctx, e, q, fits); err != nil {
				t.Fatalf("begin %d: %v", i, err)
			}
		}
		begun = append(begun, e.Key)
		if r.IntN(2) == 0 {
			j := r.IntN(len(begun))
			k := begun[j]
			begun = append(begun[:j], begun[j+1:]...) // settled once
			executed, cents := r.IntN(4) != 0, int64(r.IntN(10_000))
			errB, errM := w.Finish(ctx, k, executed, cents), model.Finish(ctx, k, executed, cents)
			if (errB == nil) != (errM == nil) {
				t.Fatalf("finish %s: backend %v, model %v", k, errB, errM)
			}
		}
		if i%100 == 99 {
			check(fmt.Sprintf("after %d", i+1))
		}
	}
	w = open()
	check("after a reopen")
}
