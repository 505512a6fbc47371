package stream_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/stream"
)

// recorder keeps the events a hub publishes.
type recorder struct {
	mu     sync.Mutex
	events []event.Event
}

func (r *recorder) publish(e event.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *recorder) of(kind event.Kind, session string) []event.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []event.Event
	for _, e := range r.events {
		if e.Kind == kind && e.SessionID == session {
			out = append(out, e)
		}
	}
	return out
}

// value is a watched thing whose reads are counted.
type value struct {
	mu    sync.Mutex
	v     int
	err   error
	reads atomic.Int64
}

func (v *value) set(n int) { v.mu.Lock(); v.v = n; v.mu.Unlock() }
func (v *value) fail(err error) {
	v.mu.Lock()
	v.err = err
	v.mu.Unlock()
}

func (v *value) probe(context.Context) (json.RawMessage, error) {
	v.reads.Add(1)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.err != nil {
		return nil, v.err
	}
	return json.RawMessage(fmt.Sprintf(`{"v":%d}`, v.v)), nil
}

func newHub(t *testing.T, cfg stream.Config) (*stream.Hub, *recorder) {
	t.Helper()
	r := &recorder{}
	cfg.Publish = r.publish
	h, err := stream.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h, r
}

var price = stream.Key{Kind: "price", Target: "0xfeed"}

func TestHubPublishesChangesOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, r := newHub(t, stream.Config{MinInterval: time.Second})
		v := &value{v: 1}
		s, err := h.Subscribe(t.Context(), "s1", price, 0, json.RawMessage(`{"v":1}`), v.probe, allow)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Second) // fake time: five polls of an unchanged value
		synctest.Wait()
		if got := r.of(event.SubscriptionUpdate, "s1"); len(got) != 0 {
			t.Fatalf("an unchanged value was published %d times", len(got))
		}
		if n := v.reads.Load(); n < 4 {
			t.Fatalf("polled %d times in 5 intervals", n)
		}
		v.set(2)
		time.Sleep(time.Second)
		synctest.Wait()
		got := r.of(event.SubscriptionUpdate, "s1")
		if len(got) != 1 {
			t.Fatalf("got %d updates after one change, want 1", len(got))
		}
		d, ok := got[0].Payload.(event.StreamData)
		if !ok || d.ID != s.ID || string(d.Value) != `{"v":2}` || !got[0].Success || got[0].Tool != "stream_subscribe_price" {
			t.Fatalf("update = %+v, payload %+v", got[0], got[0].Payload)
		}
		// A failure is said once, then the next change is published.
		v.fail(errors.New("node down"))
		time.Sleep(3 * time.Second)
		synctest.Wait()
		got = r.of(event.SubscriptionUpdate, "s1")
		if len(got) != 2 || got[1].Code != "STREAM_READ_FAILED" || got[1].Success {
			t.Fatalf("after failing reads: %+v", got)
		}
		v.fail(nil)
		v.set(3)
		time.Sleep(time.Second)
		synctest.Wait()
		if got = r.of(event.SubscriptionUpdate, "s1"); len(got) != 3 || string(got[2].Payload.(event.StreamData).Value) != `{"v":3}` {
			t.Fatalf("after recovery: %+v", got)
		}
	})
}

func TestHubSharesOnePollerPerKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, r := newHub(t, stream.Config{MinInterval: time.Second})
		v, other := &value{}, &value{}
		for _, owner := range []string{"s1", "s2", "s3"} {
			if _, err := h.Subscribe(t.Context(), owner, price, 4*time.Second, nil, v.probe, allow); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := h.Subscribe(t.Context(), "s1", price, 2*time.Second, nil, other.probe, allow); err != nil {
			t.Fatal(err)
		}
		if st := h.Stats(); st.Pollers != 1 || st.Subscriptions != 4 {
			t.Fatalf("stats = %+v, want one poller for four subscriptions", st)
		}
		time.Sleep(10*time.Second + time.Millisecond)
		synctest.Wait()
		// The shortest interval asked (2 s) wins; the later probe is unused.
		if n := v.reads.Load(); n != 5 {
			t.Fatalf("shared poller read %d times in 10 s at 2 s, want 5", n)
		}
		if n := other.reads.Load(); n != 0 {
			t.Fatalf("a second probe for the same key ran %d times", n)
		}
		// The first read differs from the (nil) initial value: every
		// subscription is told, s1 twice.
		for owner, want := range map[string]int{"s1": 2, "s2": 1, "s3": 1} {
			if got := len(r.of(event.SubscriptionUpdate, owner)); got != want {
				t.Errorf("%s got %d updates, want %d", owner, got, want)
			}
		}
	})
}

func TestHubRefusals(t *testing.T) {
	h, _ := newHub(t, stream.Config{MaxPerSession: 2, MinInterval: time.Second})
	v := &value{}
	key := func(i int) stream.Key { return stream.Key{Kind: "pool", Target: fmt.Sprint(i)} }
	a, err := h.Subscribe(t.Context(), "s1", key(1), 0, nil, v.probe, allow)
	if err != nil {
		t.Fatal(err)
	}
	if a.Interval != time.Second {
		t.Errorf("zero interval became %v, want the minimum", a.Interval)
	}
	if _, err := h.Subscribe(t.Context(), "s1", key(2), time.Minute, nil, v.probe, allow); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		owner    string
		interval time.Duration
		want     *stream.Error
		code     string
	}{
		{"over the session's limit", "s1", time.Second, stream.ErrLimit, "STREAM_LIMIT_EXCEEDED"},
		{"interval under the minimum", "s2", 999 * time.Millisecond, stream.ErrInterval, "STREAM_INTERVAL_TOO_SHORT"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := h.Stats()
			_, err := h.Subscribe(t.Context(), tc.owner, key(3), tc.interval, nil, v.probe, allow)
			var se *stream.Error
			if !errors.Is(err, tc.want) || !errors.As(err, &se) || string(se.Reason()) != tc.code {
				t.Fatalf("err = %v, want %v (%s)", err, tc.want, tc.code)
			}
			if after := h.Stats(); after != before {
				t.Fatalf("a refusal changed the hub: %+v -> %+v", before, after)
			}
		})
	}
	// Another session may still subscribe: the limit is per session.
	if _, err := h.Subscribe(t.Context(), "s2", key(3), 0, nil, v.probe, allow); err != nil {
		t.Fatalf("another session's subscription: %v", err)
	}
}

func TestHubOwnership(t *testing.T) {
	h, r := newHub(t, stream.Config{})
	v := &value{}
	mine, err := h.Subscribe(t.Context(), "alice", price, 0, nil, v.probe, allow)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.List("mallory"); len(got) != 0 {
		t.Fatalf("another session lists %+v", got)
	}
	if _, err := h.Cancel("mallory", mine.ID); !errors.Is(err, stream.ErrNotFound) {
		t.Fatalf("another session's cancel: err = %v, want ErrNotFound", err)
	}
	if got := h.List("alice"); len(got) != 1 || got[0].ID != mine.ID {
		t.Fatalf("after another's cancel the owner lists %+v", got)
	}
	if _, err := h.Cancel("alice", mine.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Cancel("alice", mine.ID); !errors.Is(err, stream.ErrNotFound) {
		t.Fatalf("second cancel: err = %v, want ErrNotFound", err)
	}
	if st := h.Stats(); st != (stream.Stats{}) {
		t.Fatalf("after the last cancel: %+v", st)
	}
	ended := r.of(event.SubscriptionEnded, "alice")
	if len(ended) != 1 || ended[0].Message != "cancelled" {
		t.Fatalf("ended events = %+v", ended)
	}
}

func TestHubEndsWithSessionAndClose(t *testing.T) {
	before := runtime.NumGoroutine()
	r := &recorder{}
	h, err := stream.New(stream.Config{MinInterval: 10 * time.Millisecond, Publish: r.publish})
	if err != nil {
		t.Fatal(err)
	}
	v := &value{}
	for i := range 8 {
		owner := fmt.Sprint("s", i%2)
		if _, err := h.Subscribe(t.Context(), owner, stream.Key{Kind: "pool", Target: fmt.Sprint(i)}, 0, nil, v.probe, allow); err != nil {
			t.Fatal(err)
		}
	}
	if n := h.EndSession("s0"); n != 4 {
		t.Fatalf("EndSession ended %d, want 4", n)
	}
	if got := h.List("s0"); len(got) != 0 {
		t.Fatalf("after EndSession: %+v", got)
	}
	if got := len(r.of(event.SubscriptionEnded, "s0")); got != 4 {
		t.Fatalf("%d subscription:ended events for s0, want 4", got)
	}
	h.Close()
	h.Close()
	if st := h.Stats(); st != (stream.Stats{}) {
		t.Fatalf("after Close: %+v", st)
	}
	if _, err := h.Subscribe(t.Context(), "s1", price, 0, nil, v.probe, allow); !errors.Is(err, stream.ErrClosed) {
		t.Fatalf("Subscribe after Close: %v", err)
	}
	// Close waited for every poller: no goroutine is left behind.
	noneLeft(t, before)
}

// noneLeft fails t unless the goroutines are back to before within a
// second: a goroutine that has called its WaitGroup's Done (wg.Go) may
// still be on its way out when Wait returns, but a leaked poller stays.
func noneLeft(t *testing.T, before int) {
	t.Helper()
	after := runtime.NumGoroutine()
	for deadline := time.Now().Add(time.Second); after > before && time.Now().Before(deadline); after = runtime.NumGoroutine() {
		time.Sleep(time.Millisecond)
	}
	if after > before {
		t.Fatalf("goroutines: %d before, %d after Close", before, after)
	}
}

func TestHubHammer(t *testing.T) {
	before := runtime.NumGoroutine()
	r := &recorder{}
	h, err := stream.New(stream.Config{MinInterval: time.Millisecond, MaxPerSession: 4, Publish: r.publish})
	if err != nil {
		t.Fatal(err)
	}
	v := &value{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			owner := fmt.Sprint("s", g)
			for i := range 200 {
				k := stream.Key{Kind: "price", Target: fmt.Sprint(i % 3)}
				s, err := h.Subscribe(context.Background(), owner, k, 0, nil, v.probe, allow)
				if err != nil && !errors.Is(err, stream.ErrLimit) {
					t.Error(err)
					return
				}
				if i%2 == 0 && err == nil {
					if _, err := h.Cancel(owner, s.ID); err != nil {
						t.Error(err)
					}
				}
				if got := len(h.List(owner)); got > 4 {
					t.Errorf("%s holds %d subscriptions, limit 4", owner, got)
				}
				v.set(i)
			}
		})
	}
	wg.Wait()
	h.Close()
	noneLeft(t, before)
}

func TestNewRefusesBadConfig(t *testing.T) {
	for name, cfg := range map[string]stream.Config{
		"no publisher":     {},
		"negative limit":   {Publish: func(event.Event) {}, MaxPerSession: -1},
		"negative minimum": {Publish: func(event.Event) {}, MinInterval: -time.Second},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := stream.New(cfg); err == nil {
				t.Fatal("New accepted it")
			}
		})
	}
}

// allow is a Check that always lets the subscription go on.
func allow(context.Context) error { return nil }

// coded is a refusal with a reason code, as the gate's.
type coded struct{ code, msg string }

func (c *coded) Error() string      { return c.msg }
func (c *coded) ReasonCode() string { return c.code }

// gateSwitch is a Check whose answer a test changes, counting the asks.
type gateSwitch struct {
	mu   sync.Mutex
	err  error
	asks atomic.Int64
}

func (g *gateSwitch) deny(err error) { g.mu.Lock(); g.err = err; g.mu.Unlock() }

func (g *gateSwitch) check(context.Context) error {
	g.asks.Add(1)
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}

// TestHubEndsSubscriptionItsCheckRefuses: every poll asks each
// subscription's check; a refused one ends with subscription:ended,
// carrying the refusal's code and text, and receives nothing after, while
// another session's subscription on the same poller goes on.
func TestHubEndsSubscriptionItsCheckRefuses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, r := newHub(t, stream.Config{MinInterval: time.Second})
		v := &value{v: 1}
		alice, bob := &gateSwitch{}, &gateSwitch{}
		a, err := h.Subscribe(t.Context(), "alice", price, 0, json.RawMessage(`{"v":1}`), v.probe, alice.check)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.Subscribe(t.Context(), "bob", price, 0, json.RawMessage(`{"v":1}`), v.probe, bob.check); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if n := alice.asks.Load(); n < 2 {
			t.Fatalf("alice's check was asked %d times in 3 polls", n)
		}
		alice.deny(&coded{code: "FORBIDDEN_TOOL", msg: "FORBIDDEN_TOOL: the policy denies it"})
		time.Sleep(time.Second)
		synctest.Wait()
		ended := r.of(event.SubscriptionEnded, "alice")
		if len(ended) != 1 {
			t.Fatalf("alice's subscription:ended events = %d, want 1", len(ended))
		}
		if d := ended[0].Payload.(event.StreamData); d.ID != a.ID || ended[0].Code != "FORBIDDEN_TOOL" ||
			ended[0].Message != "the subscription's read is no longer allowed: FORBIDDEN_TOOL: the policy denies it" {
			t.Fatalf("ended = %+v", ended[0])
		}
		v.set(2)
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if got := r.of(event.SubscriptionUpdate, "alice"); len(got) != 0 {
			t.Fatalf("alice received %d updates after her read was refused", len(got))
		}
		if got := r.of(event.SubscriptionUpdate, "bob"); len(got) != 1 {
			t.Fatalf("bob received %d updates of one change, want 1", len(got))
		}
		if l := h.List("alice"); len(l) != 0 {
			t.Fatalf("alice still lists %+v", l)
		}
		// A refusal without a code ends with STREAM_UNAVAILABLE, and the
		// poller stops with its last subscriber.
		bob.deny(errors.New("the session has ended"))
		time.Sleep(time.Second)
		synctest.Wait()
		if e := r.of(event.SubscriptionEnded, "bob"); len(e) != 1 || e[0].Code != "STREAM_UNAVAILABLE" {
			t.Fatalf("bob's end = %+v", e)
		}
		if st := h.Stats(); st.Subscriptions != 0 || st.Pollers != 0 {
			t.Fatalf("stats after both ended = %+v", st)
		}
	})
}

// TestHubRecheckEndsAtOnce: Recheck (a policy reload) ends the refused
// subscriptions without waiting for a poll, and keeps the others.
func TestHubRecheckEndsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, r := newHub(t, stream.Config{MinInterval: time.Hour})
		v := &value{v: 1}
		denied, kept := &gateSwitch{}, &gateSwitch{}
		if _, err := h.Subscribe(t.Context(), "s1", price, 0, nil, v.probe, denied.check); err != nil {
			t.Fatal(err)
		}
		if _, err := h.Subscribe(t.Context(), "s2", price, 0, nil, v.probe, kept.check); err != nil {
			t.Fatal(err)
		}
		denied.deny(&coded{code: "FORBIDDEN_TOOL", msg: "FORBIDDEN_TOOL: denied"})
		if n := h.Recheck(t.Context()); n != 1 {
			t.Fatalf("Recheck ended %d, want 1", n)
		}
		if e := r.of(event.SubscriptionEnded, "s1"); len(e) != 1 || e[0].Code != "FORBIDDEN_TOOL" {
			t.Fatalf("s1's end = %+v", e)
		}
		if e := r.of(event.SubscriptionEnded, "s2"); len(e) != 0 || len(h.List("s2")) != 1 {
			t.Fatalf("s2 ended (%+v) though its check allows it", e)
		}
		if n := v.reads.Load(); n != 0 {
			t.Fatalf("Recheck read the value %d times", n)
		}
	})
}

func TestHubSubscribeNeedsCheck(t *testing.T) {
	h, _ := newHub(t, stream.Config{})
	v := &value{}
	if _, err := h.Subscribe(t.Context(), "s1", price, 0, nil, v.probe, nil); err == nil {
		t.Fatal("a subscription without a check was accepted")
	}
}
