package policy

import (
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/tool"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func TestSpendWindowsSlide(t *testing.T) {
	tr := NewTracker()
	// 4000c at 10:50 and 4000c at 11:05: a calendar-hour bucket would see
	// 4000 in each hour; the sliding hour at 11:10 sees both.
	tr.RecordSpend("transfer", 4000, t0.Add(50*time.Minute))
	tr.RecordSpend("transfer", 4000, t0.Add(65*time.Minute))
	tr.RecordSpend("x402", 300, t0.Add(65*time.Minute))
	for _, tc := range []struct {
		name   string
		at     time.Time
		window time.Duration
		want   int64
	}{
		{"across the hour boundary", t0.Add(70 * time.Minute), time.Hour, 8000},
		{"first entry leaves the hour", t0.Add(110*time.Minute + time.Nanosecond), time.Hour, 4000},
		{"exactly 60 minutes old is outside", t0.Add(110 * time.Minute), time.Hour, 4000},
		{"just inside", t0.Add(110*time.Minute - time.Nanosecond), time.Hour, 8000},
		{"day window", t0.Add(23 * time.Hour), 24 * time.Hour, 8000},
		{"day window after a day", t0.Add(25*time.Hour + 5*time.Minute), 24 * time.Hour, 0},
		{"before anything", t0, time.Hour, 0},
		{"future spend not counted yet", t0.Add(55 * time.Minute), time.Hour, 4000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tr.Spent("transfer", tc.window, tc.at); got != tc.want {
				t.Errorf("Spent = %d, want %d", got, tc.want)
			}
		})
	}
	if got := tr.Spent("x402", time.Hour, t0.Add(70*time.Minute)); got != 300 {
		t.Errorf("categories mix: x402 spent %d, want 300", got)
	}
}

func TestSpendOutOfOrder(t *testing.T) {
	tr := NewTracker()
	for _, m := range []int{30, 10, 50, 20, 40} {
		tr.RecordSpend("transfer", int64(m), t0.Add(time.Duration(m)*time.Minute))
	}
	if got := tr.Spent("transfer", 25*time.Minute, t0.Add(45*time.Minute)); got != 30+40 {
		t.Errorf("Spent = %d, want 70", got)
	}
}

func TestPruneKeepsSums(t *testing.T) {
	tr := NewTracker()
	// Far more entries than the pruning threshold, spread over 10 days.
	for i := range 10_000 {
		tr.RecordSpend("transfer", 1, t0.Add(time.Duration(i)*(10*24*time.Hour/10_000)))
	}
	end := t0.Add(10 * 24 * time.Hour)
	if got := tr.Spent("transfer", 24*time.Hour, end); got < 999 || got > 1001 {
		t.Errorf("last-day spend after pruning = %d, want about 1000", got)
	}
	if n := len(tr.spend["transfer"].at); n > 10_000*8/10 {
		t.Errorf("series kept %d entries, pruning did not run", n)
	}
}

func TestCounts(t *testing.T) {
	tr := NewTracker()
	transfer := tool.Ref{Name: "transfer_credits", Category: "financial"}
	sandbox := tool.Ref{Name: "create_sandbox", Category: "conway"}
	tr.Record(Execution{Tool: transfer, SessionID: "s1", TurnID: "t1", At: t0})
	tr.Record(Execution{Tool: transfer, SessionID: "s1", TurnID: "t1", At: t0.Add(time.Minute)})
	tr.Record(Execution{Tool: transfer, SessionID: "s1", TurnID: "t2", At: t0.Add(2 * time.Hour)})
	tr.Record(Execution{Tool: sandbox, SessionID: "s2", TurnID: "t3", At: t0.Add(2 * time.Hour)})
	now := t0.Add(2*time.Hour + time.Minute)
	for _, tc := range []struct {
		name string
		q    CountQuery
		want int
	}{
		{"per turn", CountQuery{Tools: []string{"transfer_credits"}, Scope: ScopeTurn, Key: "t1"}, 2},
		{"per other turn", CountQuery{Tools: []string{"transfer_credits"}, Scope: ScopeTurn, Key: "t2"}, 1},
		{"per session", CountQuery{Tools: []string{"transfer_credits"}, Scope: ScopeSession, Key: "s1"}, 3},
		{"window", CountQuery{Tools: []string{"transfer_credits"}, Scope: ScopeWindow, Window: time.Hour}, 1},
		{"by category", CountQuery{Categories: []tool.Category{"conway"}, Scope: ScopeSession, Key: "s2"}, 1},
		{"all tools in window", CountQuery{Scope: ScopeWindow, Window: 3 * time.Hour}, 4},
		{"empty turn key counts nothing", CountQuery{Tools: []string{"transfer_credits"}, Scope: ScopeTurn}, 0},
		{"unknown tool", CountQuery{Tools: []string{"nope"}, Scope: ScopeWindow, Window: time.Hour}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tr.Count(tc.q, now); got != tc.want {
				t.Errorf("Count = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestHolds(t *testing.T) {
	tr := NewTracker()
	ref := tool.Ref{Name: "transfer_credits", Category: "financial"}
	e := Execution{Tool: ref, SessionID: "s", TurnID: "t", At: t0, Spend: Spend{Category: "transfer", Cents: 700}}
	h := tr.Hold(e, time.Minute)
	q := CountQuery{Tools: []string{"transfer_credits"}, Scope: ScopeTurn, Key: "t"}
	if got := tr.Spent("transfer", time.Hour, t0); got != 700 {
		t.Errorf("held spend = %d, want 700", got)
	}
	if got := tr.Count(q, t0); got != 1 {
		t.Errorf("held count = %d, want 1", got)
	}
	if got := tr.HeldSpend(t0); got != 700 {
		t.Errorf("HeldSpend = %d, want 700", got)
	}
	// Settled for less than held: the executed amount counts.
	e.Spend.Cents = 650
	tr.Settle(h, e)
	if got := tr.Spent("transfer", time.Hour, t0); got != 650 {
		t.Errorf("settled spend = %d, want 650", got)
	}
	if got := tr.HeldSpend(t0); got != 0 {
		t.Errorf("HeldSpend after settle = %d, want 0", got)
	}
	// A released hold counts nothing; an expired one neither.
	h2 := tr.Hold(e, time.Minute)
	tr.Release(h2)
	tr.Hold(e, time.Minute)
	if got := tr.Spent("transfer", time.Hour, t0.Add(2*time.Minute)); got != 650 {
		t.Errorf("spend with a released and an expired hold = %d, want 650", got)
	}
	if got := tr.Count(q, t0.Add(2*time.Minute)); got != 1 {
		t.Errorf("count with an expired hold = %d, want 1", got)
	}
}

func TestNilTrackerIsEmpty(t *testing.T) {
	var tr *Tracker
	if tr.Spent("transfer", time.Hour, t0) != 0 || tr.Count(CountQuery{}, t0) != 0 || tr.HeldSpend(t0) != 0 {
		t.Error("nil tracker reports state")
	}
	if _, ok := tr.Balance(); ok {
		t.Error("nil tracker has a balance")
	}
}

func TestTrackerConcurrent(t *testing.T) {
	tr := NewTracker()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				at := t0.Add(time.Duration(i) * time.Second)
				tr.Record(Execution{Tool: tool.Ref{Name: "exec"}, TurnID: "t", At: at, Spend: Spend{Category: "x", Cents: 1}})
				h := tr.Hold(Execution{Tool: tool.Ref{Name: "exec"}, At: at, Spend: Spend{Category: "x", Cents: 1}}, time.Minute)
				tr.Spent("x", time.Hour, at)
				tr.Count(CountQuery{Tools: []string{"exec"}, Scope: ScopeTurn, Key: "t"}, at)
				tr.Release(h)
				_ = g
			}
		})
	}
	wg.Wait()
	if got := tr.Count(CountQuery{Tools: []string{"exec"}, Scope: ScopeTurn, Key: "t"}, t0); got != 8000 {
		t.Errorf("count = %d, want 8000", got)
	}
	if got := tr.Spent("x", 24*time.Hour, t0.Add(time.Hour)); got != 8000 {
		t.Errorf("spent = %d, want 8000", got)
	}
}
