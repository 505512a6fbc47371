package event

import (
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func newBus(t testing.TB, cfg Config) *Bus {
	t.Helper()
	b, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// drain returns the events buffered in s without blocking.
func drain(s *Subscription) []Event {
	var out []Event
	for {
		select {
		case e, ok := <-s.C():
			if !ok {
				return out
			}
			out = append(out, e)
		default:
			return out
		}
	}
}

func TestNewRejectsNegativeBuffer(t *testing.T) {
	if _, err := New(Config{DefaultBuffer: -1}); err == nil {
		t.Fatal("New accepted a negative default buffer")
	}
}

func TestPublishDeliversInOrderWithFilter(t *testing.T) {
	b := newBus(t, Config{})
	all := b.Subscribe(16, nil)
	permits := b.Subscribe(16, func(k Kind) bool { return k.Family() == "permit" })
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	b.Publish(Event{Kind: ToolStart, Tool: "uniswap_swap_exact", Time: at})
	b.Publish(Event{Kind: PermitCreated, PermitID: "p1"})
	b.Publish(Event{Kind: ToolEnd, Success: true})
	b.Publish(Event{Kind: PermitConsumed, PermitID: "p1"})

	got := drain(all)
	if len(got) != 4 {
		t.Fatalf("all: got %d events, want 4", len(got))
	}
	for i, e := range got {
		if e.Seq != uint64(i+1) {
			t.Errorf("all[%d].Seq = %d, want %d", i, e.Seq, i+1)
		}
		if e.Time.IsZero() {
			t.Errorf("all[%d].Time is zero: Publish must stamp it", i)
		}
	}
	if !got[0].Time.Equal(at) {
		t.Errorf("Publish replaced a given Time: got %v, want %v", got[0].Time, at)
	}
	var kinds []Kind
	for _, e := range drain(permits) {
		kinds = append(kinds, e.Kind)
	}
	if want := []Kind{PermitCreated, PermitConsumed}; !slices.Equal(kinds, want) {
		t.Errorf("filtered kinds = %v, want %v", kinds, want)
	}
}

func TestFilterAskedOncePerKindAndPanicRejects(t *testing.T) {
	b := newBus(t, Config{})
	asked := map[Kind]int{}
	counting := b.Subscribe(64, func(k Kind) bool { asked[k]++; return true })
	panicky := b.Subscribe(64, func(k Kind) bool {
		if k == ToolError {
			panic("filter bug")
		}
		return true
	})
	for range 3 {
		b.Publish(Event{Kind: ToolStart})
		b.Publish(Event{Kind: ToolError})
	}
	if asked[ToolStart] != 1 || asked[ToolError] != 1 {
		t.Errorf("filter asked %v times, want once per kind", asked)
	}
	if n := len(drain(counting)); n != 6 {
		t.Errorf("counting subscriber got %d events, want 6", n)
	}
	for _, e := range drain(panicky) {
		if e.Kind == ToolError {
			t.Fatal("a kind whose filter panicked was delivered")
		}
	}
}

// TestSlowSubscriberDrops: a subscriber that never reads loses what does
// not fit its buffer, its counter says so, a fast subscriber loses
// nothing, and Publish never waits for either. Inside a synctest bubble a
// Publish that blocked on the full channel would be a deadlock the test
// reports instead of hanging.
func TestSlowSubscriberDrops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBus(t, Config{})
		slow := b.Subscribe(4, nil)
		fast := b.Subscribe(1000, nil)
		const n = 100
		for i := range n {
			b.Publish(Event{Kind: ToolUpdate, StepIndex: i})
		}
		got := drain(slow)
		if len(got) != 4 || got[0].Seq != 1 || got[3].Seq != 4 {
			t.Errorf("slow subscriber kept %d events (%v), want the first 4", len(got), got)
		}
		if d := slow.Dropped(); d != n-4 {
			t.Errorf("slow.Dropped() = %d, want %d", d, n-4)
		}
		if d := fast.Dropped(); d != 0 {
			t.Errorf("fast.Dropped() = %d, want 0", d)
		}
		if got := len(drain(fast)); got != n {
			t.Errorf("fast subscriber got %d events, want %d", got, n)
		}
		st := b.Stats()
		if st != (Stats{Published: n, Dropped: n - 4, Subscribers: 2}) {
			t.Errorf("Stats() = %+v, want published %d dropped %d subscribers 2", st, n, n-4)
		}
		// Room again after draining: deliveries resume.
		b.Publish(Event{Kind: ToolEnd})
		if got := drain(slow); len(got) != 1 || got[0].Seq != n+1 {
			t.Errorf("after draining, slow got %v, want the event with seq %d", got, n+1)
		}
	})
}

func TestClose(t *testing.T) {
	b := newBus(t, Config{DefaultBuffer: 2})
	s := b.Subscribe(0, nil)
	other := b.Subscribe(0, nil)
	b.Publish(Event{Kind: ToolStart})
	s.Close()
	s.Close() // idempotent
	b.Publish(Event{Kind: ToolEnd})
	got := drain(s)
	if len(got) != 1 || got[0].Kind != ToolStart {
		t.Errorf("closed subscription yielded %v, want only the event buffered before Close", got)
	}
	if _, ok := <-s.C(); ok {
		t.Error("channel of a closed subscription is open")
	}
	if st := b.Stats(); st.Subscribers != 1 {
		t.Errorf("Subscribers = %d after one Close, want 1", st.Subscribers)
	}

	b.Close()
	b.Close() // idempotent
	if got := drain(other); len(got) != 2 {
		t.Errorf("bus Close lost buffered events: got %d, want 2", len(got))
	}
	if _, ok := <-other.C(); ok {
		t.Error("bus Close left a subscription open")
	}
	b.Publish(Event{Kind: ToolStart}) // no effect, no panic
	if st := b.Stats(); st.Published != 2 {
		t.Errorf("Published = %d after Close, want 2", st.Published)
	}
	late := b.Subscribe(1, nil)
	if _, ok := <-late.C(); ok {
		t.Error("Subscribe on a closed bus returned an open subscription")
	}
	late.Close()
}

// TestHammer publishes from several goroutines while subscribers read,
// subscribe and close; run with -race. Every subscriber must see strictly
// increasing Seq, and for the subscribers that live throughout, received
// plus dropped must equal published.
func TestHammer(t *testing.T) {
	b := newBus(t, Config{})
	const publishers, perPublisher = 8, 2000
	type result struct {
		got     int
		dropped uint64
	}
	var (
		wg      sync.WaitGroup
		results = make(chan result, 4)
	)
	for i := range 4 {
		s := b.Subscribe(8<<i, nil) // buffers 8 to 64: some drop, some may not
		wg.Go(func() {
			var last uint64
			n := 0
			for e := range s.C() {
				if e.Seq <= last {
					t.Errorf("seq went from %d to %d", last, e.Seq)
				}
				last = e.Seq
				n++
			}
			results <- result{n, s.Dropped()}
		})
	}
	var pubs sync.WaitGroup
	for p := range publishers {
		pubs.Go(func() {
			for i := range perPublisher {
				b.Publish(Event{Kind: ToolUpdate, StepIndex: i, SessionID: string(rune('a' + p))})
			}
		})
	}
	// Churn: short-lived subscriptions come and go meanwhile.
	pubs.Go(func() {
		for range 200 {
			s := b.Subscribe(1, func(k Kind) bool { return k == ToolUpdate })
			_ = s.Dropped()
			s.Close()
		}
	})
	pubs.Wait()
	b.Close()
	wg.Wait()
	close(results)
	for r := range results {
		if total := uint64(r.got) + r.dropped; total != publishers*perPublisher {
			t.Errorf("received %d + dropped %d = %d, want %d", r.got, r.dropped, total, publishers*perPublisher)
		}
	}
	if st := b.Stats(); st.Published != publishers*perPublisher {
		t.Errorf("Published = %d, want %d", st.Published, publishers*perPublisher)
	}
}

// TestNoGoroutineLeak: the bus starts no goroutines, and subscribers that
// range over C() end when the bus closes. synctest.Test fails if any
// goroutine of the bubble is still blocked when the function returns.
func TestNoGoroutineLeak(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBus(t, Config{})
		var wg sync.WaitGroup
		for range 5 {
			s := b.Subscribe(4, nil)
			wg.Go(func() {
				for range s.C() {
				}
			})
		}
		for range 50 {
			b.Publish(Event{Kind: GatePhase})
		}
		b.Close()
		wg.Wait()
	})
}

func TestEventJSON(t *testing.T) {
	e := Event{
		Kind: GateVetoed, Seq: 7, Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		SessionID: "s", Tool: "uniswap_swap_exact", ParamsHash: "ab", PermitID: "p",
		Step: "simulate", StepIndex: 1, TotalSteps: 3, Success: false, DurationMS: 12,
		Code: "PHASE_BLOCKED", Message: "m", Payload: Veto{Stage: "sum"},
	}
	raw, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"kind", "seq", "time", "session_id", "tool", "params_hash", "permit_id",
		"step", "step_index", "total_steps", "success", "duration_ms", "code", "message", "summary"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, raw)
		}
	}
	var back Event
	if err := json.Unmarshal(raw, &back); err != nil || back != e {
		t.Errorf("round trip: got %+v (%v), want %+v", back, err, e)
	}
}

func TestKindFamily(t *testing.T) {
	for k, want := range map[Kind]string{ToolStart: "tool", PolicyReloaded: "policy", "grimoire:adopted": "grimoire", "bare": "bare"} {
		if got := k.Family(); got != want {
			t.Errorf("%q.Family() = %q, want %q", k, got, want)
		}
	}
}

func BenchmarkPublish(b *testing.B) {
	for _, n := range []int{0, 1, 8} {
		b.Run(benchName(n, "reading"), func(b *testing.B) {
			bus := newBus(b, Config{})
			var wg sync.WaitGroup
			for range n { // each drained by its own goroutine
				s := bus.Subscribe(1024, nil)
				wg.Go(func() {
					for range s.C() {
					}
				})
			}
			e := Event{Kind: ToolUpdate, Tool: "uniswap_swap_exact", Step: "simulate", Time: time.Unix(1, 0)}
			for b.Loop() {
				bus.Publish(e)
			}
			b.StopTimer()
			bus.Close()
			wg.Wait()
			b.ReportMetric(float64(bus.Stats().Dropped)/float64(b.N), "drops/op")
		})
	}
	// Subscribers that never read: every delivery takes the drop path.
	b.Run(benchName(8, "full"), func(b *testing.B) {
		bus := newBus(b, Config{})
		for range 8 {
			bus.Subscribe(1, nil)
		}
		e := Event{Kind: ToolUpdate, Time: time.Unix(1, 0)}
		for b.Loop() {
			bus.Publish(e)
		}
	})
}

func benchName(n int, mode string) string {
	return "subs=" + string(rune('0'+n)) + "/" + mode
}
