package relay_test

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/nats-io/nats.go"

	"github.com/wardhq/ward/internal/relay"
)

const clade = "tide"

// sink records what one member's handler accepted.
type sink struct {
	mu     sync.Mutex
	got    []relay.Message
	at     []time.Time
	notify chan struct{}
}

func newSink() *sink { return &sink{notify: make(chan struct{}, 1)} }

func (s *sink) handle(_ context.Context, m relay.Message) error {
	s.mu.Lock()
	s.got = append(s.got, m)
	s.at = append(s.at, time.Now())
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default:
	}
	return nil
}

// count returns how many accepted messages carry body.
func (s *sink) count(body string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range s.got {
		if string(m.Body) == body {
			n++
		}
	}
	return n
}

// wait blocks until every body has arrived at least once, or fails.
func (s *sink) wait(t *testing.T, who string, bodies ...string) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		missing := ""
		for _, b := range bodies {
			if s.count(b) == 0 {
				missing = b
				break
			}
		}
		if missing == "" {
			return
		}
		select {
		case <-s.notify:
		case <-deadline:
			t.Fatalf("%s: %q not delivered within 20s", who, missing)
		}
	}
}

// member is one ward member of the clade: a key, a data dir, a relay.
type member struct {
	name string
	key  *ecdsa.PrivateKey
	dir  string
	urls []string
	r    *relay.Relay
	sink *sink
}

type fleet struct {
	// ctx is the whole test's: a member reopened inside a subtest must keep
	// consuming after that subtest ends.
	ctx     context.Context
	cluster *relay.Cluster
	members []*member
	roster  map[common.Address]bool
}

func (f *fleet) isMember(a common.Address) bool { return f.roster[a] }

func (f *fleet) open(t *testing.T, m *member) {
	t.Helper()
	r, err := relay.Open(f.ctx, relay.Config{
		URLs: m.urls, Clade: clade, Key: m.key, Members: f.isMember,
		DataDir: m.dir, Replicas: 3, MaxBytes: 64 << 20,
	})
	if err != nil {
		t.Fatalf("open %s: %v", m.name, err)
	}
	m.r, m.sink = r, newSink()
	if err := r.Subscribe(f.ctx, m.sink.handle); err != nil {
		t.Fatalf("subscribe %s: %v", m.name, err)
	}
}

func key(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// newFleet starts a 3-node cluster and 5 members spread over its nodes.
func newFleet(t *testing.T) *fleet {
	t.Helper()
	c, err := relay.StartCluster(t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	f := &fleet{ctx: t.Context(), cluster: c, roster: map[common.Address]bool{}}
	urls := c.URLs()
	for i := range 5 {
		m := &member{name: fmt.Sprintf("m%d", i), key: key(t), dir: t.TempDir(), urls: []string{urls[i%3]}}
		f.roster[crypto.PubkeyToAddress(m.key.PublicKey)] = true
		f.members = append(f.members, m)
	}
	for _, m := range f.members {
		f.open(t, m)
		t.Cleanup(func() { m.r.Close() })
	}
	return f
}

// barrier publishes a marker from m and waits until every other member
// has it. Each consumer delivers in stream order, one at a time, so when
// the marker has arrived, everything published before it has been
// delivered or dropped: counts taken after a barrier are final.
func (f *fleet) barrier(t *testing.T, from *member, skip ...*member) string {
	t.Helper()
	body := "barrier-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := from.r.Publish(t.Context(), relay.KindFilter, []byte(body)); err != nil {
		t.Fatalf("barrier publish: %v", err)
	}
	for _, m := range f.members {
		if m != from && !slices.Contains(skip, m) {
			m.sink.wait(t, m.name, body)
		}
	}
	return body
}

// awaitInterest returns once every server of the cluster forwards to nc
// what nc subscribed to before the call. Flush confirms only nc's own
// server: the others learn of a subscription over their routes, later,
// and until then drop what their clients publish on it (seen on a loaded
// machine: a captured subject got nothing). A probe subscription made
// after the others travels the same route behind them, so a probe
// published on a server that nc receives shows that server knows them all.
func (f *fleet) awaitInterest(t *testing.T, nc *nats.Conn) {
	t.Helper()
	const probe = "wardtest.interest"
	got := make(chan *nats.Msg, 64)
	sub, err := nc.ChanSubscribe(probe, got)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for _, u := range f.cluster.URLs() {
		pub, err := nats.Connect(u)
		if err != nil {
			t.Fatal(err)
		}
		for seen := false; !seen; {
			if err := pub.Publish(probe, []byte(u)); err != nil {
				t.Fatal(err)
			}
			if err := pub.Flush(); err != nil {
				t.Fatal(err)
			}
			wait := time.After(20 * time.Millisecond)
		drain:
			for {
				select {
				case m := <-got:
					if string(m.Data) == u {
						seen = true
					}
				case <-wait:
					break drain
				case <-deadline:
					pub.Close()
					t.Fatalf("the subscription never reached %s", u)
				}
				if seen {
					break drain
				}
			}
		}
		pub.Close()
	}
}

func TestCluster(t *testing.T) {
	f := newFleet(t)
	m := f.members

	t.Run("fan-out exactly once, not to self", func(t *testing.T) {
		if err := m[0].r.Publish(t.Context(), relay.KindEntry, []byte("entry-1")); err != nil {
			t.Fatal(err)
		}
		f.barrier(t, m[0])
		f.barrier(t, m[1]) // m0 has now also processed its own two
		for _, o := range m[1:] {
			if got := o.sink.count("entry-1"); got != 1 {
				t.Errorf("%s got entry-1 %d times, want 1", o.name, got)
			}
		}
		if got := m[0].sink.count("entry-1"); got != 0 {
			t.Errorf("sender got its own message %d times, want 0", got)
		}
		if got := m[0].r.Stats().Own; got != 2 {
			t.Errorf("sender Own = %d, want 2 (its entry and barrier skipped)", got)
		}
		o := m[1].sink
		o.mu.Lock()
		msg := o.got[0]
		o.mu.Unlock()
		if msg.Kind != relay.KindEntry || msg.Clade != clade || msg.From != m[0].r.Addr() || msg.Seq == 0 || msg.ID == "" {
			t.Errorf("message = %+v, want an entry from %s of clade %s", msg, m[0].r.Addr(), clade)
		}
	})

	t.Run("announcement updates last seen", func(t *testing.T) {
		if err := m[2].r.Announce(t.Context()); err != nil {
			t.Fatal(err)
		}
		f.barrier(t, m[2])
		for _, o := range []*member{m[0], m[1], m[3], m[4]} {
			seen := o.r.Members()
			i := slices.IndexFunc(seen, func(s relay.Seen) bool { return s.Addr == m[2].r.Addr() })
			if i < 0 || seen[i].Clade != clade || time.Since(seen[i].Announced) > time.Minute {
				t.Errorf("%s: last seen = %+v, want m2's announcement", o.name, seen)
			}
		}
	})

	t.Run("attacks dropped and counted by cause", func(t *testing.T) {
		spy, err := nats.Connect(f.cluster.URLs()[1])
		if err != nil {
			t.Fatal(err)
		}
		defer spy.Close()
		raw := make(chan *nats.Msg, 16)
		sub, err := spy.ChanSubscribe("ward.relay.>", raw)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		f.awaitInterest(t, spy)
		capture := func(subject string) []byte {
			t.Helper()
			timeout := time.After(10 * time.Second)
			for {
				select {
				case msg := <-raw:
					if msg.Subject == subject {
						return msg.Data
					}
				case <-timeout:
					t.Fatalf("nothing captured on %s", subject)
				}
			}
		}
		before := make([]relay.Stats, len(m))
		for i, o := range m {
			before[i] = o.r.Stats()
		}

		// A legitimate message, captured on the wire for the attacks below.
		if err := m[0].r.Publish(t.Context(), relay.KindVerdict, []byte("verdict-reject")); err != nil {
			t.Fatal(err)
		}
		subject := "ward.relay.clade." + clade + ".verdict"
		legit := capture(subject)

		// Replayed: the same bytes again, by a plain client.
		if err := spy.Publish(subject, legit); err != nil {
			t.Fatal(err)
		}
		// Forged: a member's envelope with one body byte altered.
		altered := slices.Clone(legit)
		altered[len(altered)-65-1] ^= 0x01
		if err := spy.Publish(subject, altered); err != nil {
			t.Fatal(err)
		}
		// Unknown member: a relay with a key that is not on the roster.
		outsider, err := relay.Open(t.Context(), relay.Config{
			URLs: f.cluster.URLs()[2:], Clade: clade, Key: key(t),
			Members: f.isMember, DataDir: t.TempDir(), Replicas: 3, MaxBytes: 64 << 20,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer outsider.Close()
		if err := outsider.Publish(t.Context(), relay.KindVerdict, []byte("verdict-outsider")); err != nil {
			t.Fatal(err)
		}
		// Wrong clade: m1's own signed message for clade "other", moved onto
		// this clade's subject.
		elsewhere, err := relay.Open(t.Context(), relay.Config{
			URLs: f.cluster.URLs(), Clade: "other", Key: m[1].key,
			Members: f.isMember, DataDir: t.TempDir(), Replicas: 3, MaxBytes: 64 << 20,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer elsewhere.Close()
		if err := elsewhere.Publish(t.Context(), relay.KindVerdict, []byte("verdict-other")); err != nil {
			t.Fatal(err)
		}
		if err := spy.Publish(subject, capture("ward.relay.clade.other.verdict")); err != nil {
			t.Fatal(err)
		}
		// Wrong kind: a verdict moved onto the filter subject.
		if err := spy.Publish("ward.relay.clade."+clade+".filter", legit); err != nil {
			t.Fatal(err)
		}
		// Malformed: not an envelope; truncated; trailing bytes.
		for _, b := range [][]byte{[]byte("hello"), legit[:len(legit)-1], append(slices.Clone(legit), 0)} {
			if err := spy.Publish(subject, b); err != nil {
				t.Fatal(err)
			}
		}
		// Oversized: the stream refuses it outright.
		js, err := spy.JetStream()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := js.Publish(subject, make([]byte, relay.MaxEnvelope+1)); err == nil {
			t.Error("the stream stored an oversized message")
		}

		f.barrier(t, m[0])
		want := map[relay.Cause]uint64{
			relay.CauseReplay:    1,
			relay.CauseForged:    1,
			relay.CauseMember:    1,
			relay.CauseClade:     2,
			relay.CauseMalformed: 3,
		}
		for i, o := range m[1:] {
			got := o.r.Stats()
			for c, n := range want {
				if d := got.Dropped[c] - before[i+1].Dropped[c]; d != n {
					t.Errorf("%s: dropped %s = %d, want %d", o.name, c, d, n)
				}
			}
			if d := got.Dropped[relay.CauseOversized] - before[i+1].Dropped[relay.CauseOversized]; d != 0 {
				t.Errorf("%s: oversized reached the consumer %d times", o.name, d)
			}
			for _, body := range []string{"verdict-outsider", "verdict-other"} {
				if n := o.sink.count(body); n != 0 {
					t.Errorf("%s: accepted %q %d times", o.name, body, n)
				}
			}
			if n := o.sink.count("verdict-reject"); n != 1 {
				t.Errorf("%s: verdict-reject delivered %d times, want 1", o.name, n)
			}
		}
	})

	t.Run("offline member catches up; restarted sender keeps its seq", func(t *testing.T) {
		away, sender := m[4], m[0]
		away.r.Close()
		var bodies []string
		for i := range 20 {
			b := fmt.Sprintf("missed-%d", i)
			bodies = append(bodies, b)
			if err := sender.r.Publish(t.Context(), relay.KindFilter, []byte(b)); err != nil {
				t.Fatal(err)
			}
		}
		last := lastSeq(m[1].sink, sender.r.Addr())
		sender.r.Close()
		f.open(t, sender)
		if err := sender.r.Publish(t.Context(), relay.KindReport, []byte("after-restart")); err != nil {
			t.Fatal(err)
		}
		m[1].sink.wait(t, m[1].name, "after-restart")
		if got := lastSeq(m[1].sink, sender.r.Addr()); got <= last {
			t.Errorf("restarted sender's seq = %d, want > %d", got, last)
		}
		if d := m[1].r.Stats().Dropped[relay.CauseReplay]; d != 1 {
			t.Errorf("after the sender's restart, replay drops = %d, want 1 (the attack's)", d)
		}

		f.open(t, away)
		away.sink.wait(t, away.name, append(bodies, "after-restart")...)
		f.barrier(t, m[1])
		for _, b := range append(bodies, "after-restart") {
			if n := away.sink.count(b); n != 1 {
				t.Errorf("%s: %q delivered %d times after catch-up, want 1", away.name, b, n)
			}
		}
		for _, b := range []string{"entry-1", "verdict-reject"} {
			if n := away.sink.count(b); n != 0 {
				t.Errorf("%s: %q, acked before it left, redelivered %d times", away.name, b, n)
			}
		}
	})

	t.Run("latency", func(t *testing.T) {
		// One message in flight at a time: publish on m0 (node 0), wait
		// until m1 (node 1) has it. This is latency, not queueing.
		const n = 500
		lat := make([]time.Duration, 0, n)
		start := time.Now()
		for i := range n {
			b := fmt.Sprintf("lat-%d", i)
			sent := time.Now()
			if err := m[0].r.Publish(t.Context(), relay.KindSignature, []byte(b)); err != nil {
				t.Fatal(err)
			}
			m[1].sink.wait(t, m[1].name, b)
			lat = append(lat, time.Since(sent))
		}
		total := time.Since(start)
		slices.Sort(lat)
		t.Logf("publish→deliver, %d messages, 3-node cluster, R3, one in flight: p50 %v p99 %v max %v (%.0f msg/s)",
			n, lat[n/2], lat[n*99/100], lat[n-1], float64(n)/total.Seconds())
		f.barrier(t, m[0])
		for _, o := range m[1:] {
			for i := range n {
				if c := o.sink.count(fmt.Sprintf("lat-%d", i)); c != 1 {
					t.Fatalf("%s: lat-%d delivered %d times, want 1", o.name, i, c)
				}
			}
		}
	})

	t.Run("a node dies mid-run: nothing lost, nothing doubled", func(t *testing.T) {
		const n = 60
		var bodies []string
		for i := range n {
			bodies = append(bodies, fmt.Sprintf("kill-%d", i))
		}
		errc := make(chan error, 1)
		halfway := make(chan struct{})
		go func() {
			for i, b := range bodies {
				if i == n/2 {
					close(halfway)
				}
				if err := m[1].r.Publish(t.Context(), relay.KindFilter, []byte(b)); err != nil {
					errc <- fmt.Errorf("publish %s: %w", b, err)
					return
				}
			}
			errc <- nil
		}()
		<-halfway
		f.cluster.Stop(0) // m0 and m3 were connected to node 0
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
		for _, o := range []*member{m[0], m[2], m[3], m[4]} {
			o.sink.wait(t, o.name, bodies...)
		}
		f.barrier(t, m[1])
		for _, o := range []*member{m[0], m[2], m[3], m[4]} {
			for _, b := range bodies {
				if c := o.sink.count(b); c != 1 {
					t.Errorf("%s: %s delivered %d times, want 1", o.name, b, c)
				}
			}
		}
	})
}

func lastSeq(s *sink, from common.Address) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var max uint64
	for _, m := range s.got {
		if m.From == from && m.Seq > max {
			max = m.Seq
		}
	}
	return max
}
