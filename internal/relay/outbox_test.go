package relay_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/relay"
)

// restartable is one standalone server that can be stopped and started
// again on the same port and storage, as a server that crashed and came
// back.
type restartable struct {
	t     *testing.T
	addr  string
	store string
	srv   *relay.Server
}

func newRestartable(t *testing.T) *restartable {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := &restartable{t: t, addr: addr, store: t.TempDir()}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *restartable) url() string { return "nats://" + s.addr }

func (s *restartable) start() {
	s.t.Helper()
	srv, err := relay.StartServer(relay.ServerConfig{Name: "outbox", Listen: s.addr, StoreDir: s.store})
	if err != nil {
		s.t.Fatal(err)
	}
	s.srv = srv
}

func (s *restartable) stop() {
	if s.srv != nil {
		s.srv.Shutdown()
		s.srv = nil
	}
}

// order returns the bodies s accepted, in the order it accepted them.
func (s *sink) order() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, m := range s.got {
		out = append(out, string(m.Body))
	}
	return out
}

// TestOutboxDeliversWhatAnOutageHeld: the attack on the sequence numbers
// is an outage. A message whose publish fails while the server is down was
// dropped before this outbox, and its number was burnt: a retry after any
// later message got through is a replay every receiver drops. Now a
// publish that cannot reach the cluster returns ErrQueued with the message
// on disk; the relay's sender delivers it once the server is back, before
// anything numbered after it, and a restart of the sending member in the
// middle of an outage delivers what it had queued. The receiver gets every
// message once, in order, and drops none as a replay.
func TestOutboxDeliversWhatAnOutageHeld(t *testing.T) {
	srv := newRestartable(t)
	everyone := func(common.Address) bool { return true }
	aDir := t.TempDir()
	cfg := func(dir string) relay.Config {
		return relay.Config{URLs: []string{srv.url()}, Clade: clade, Key: nil, Members: everyone, DataDir: dir, MaxBytes: 64 << 20}
	}
	ac := cfg(aDir)
	ac.Key = key(t)
	a, err := relay.Open(t.Context(), ac)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { a.Close() }()
	bc := cfg(t.TempDir())
	bc.Key = key(t)
	b, err := relay.Open(t.Context(), bc)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got := newSink()
	if err := b.Subscribe(t.Context(), got.handle); err != nil {
		t.Fatal(err)
	}
	publish := func(body string, d time.Duration) error {
		ctx, cancel := context.WithTimeout(t.Context(), d)
		defer cancel()
		return a.Publish(ctx, relay.KindReport, []byte(body))
	}
	if err := publish("m1", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	got.wait(t, "b", "m1")

	// The server goes down: the publish is queued, not lost.
	srv.stop()
	if err := publish("m2", 300*time.Millisecond); !errors.Is(err, relay.ErrQueued) {
		t.Fatalf("publish during the outage = %v, want ErrQueued", err)
	}
	if p := a.Stats().Pending; p != 1 {
		t.Fatalf("pending = %d, want 1", p)
	}
	// It comes back: the sender delivers m2 with no further publish, and
	// a publish made meanwhile goes after it.
	srv.start()
	if err := publish("m3", 20*time.Second); err != nil {
		t.Fatalf("publish after the outage: %v", err)
	}
	got.wait(t, "b", "m2", "m3")
	if p := a.Stats().Pending; p != 0 {
		t.Fatalf("pending after delivery = %d, want 0", p)
	}

	// Down again, two queued, and the member restarts before the server
	// is back: the new process delivers them from its outbox.
	srv.stop()
	for _, m := range []string{"m4", "m5"} {
		if err := publish(m, 200*time.Millisecond); !errors.Is(err, relay.ErrQueued) {
			t.Fatalf("publish %s during the outage = %v, want ErrQueued", m, err)
		}
	}
	a.Close()
	if n := outboxFiles(t, aDir); n != 2 {
		t.Fatalf("%d messages in the outbox on disk, want 2", n)
	}
	srv.start()
	if a, err = relay.Open(t.Context(), ac); err != nil {
		t.Fatal(err)
	}
	if err := publish("m6", 20*time.Second); err != nil {
		t.Fatal(err)
	}
	got.wait(t, "b", "m4", "m5", "m6")
	if n := outboxFiles(t, aDir); n != 0 {
		t.Fatalf("%d messages left in the outbox on disk, want 0", n)
	}
	want := []string{"m1", "m2", "m3", "m4", "m5", "m6"}
	if o := got.order(); strings.Join(o, ",") != strings.Join(want, ",") {
		t.Fatalf("b accepted %v, want %v once each, in order", o, want)
	}
	if s := b.Stats(); s.Dropped[relay.CauseReplay] != 0 {
		t.Fatalf("b dropped %d messages as replays", s.Dropped[relay.CauseReplay])
	}
}

func outboxFiles(t *testing.T, dir string) int {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "relay-outbox"))
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// TestOutboxRefusesWhatIsNotItsOwn: the outbox is sent under the member's
// name only because the member signed it. A file another key signed, a
// corrupt file, or a stray name makes Open fail rather than be skipped or
// sent; a temporary file of a write that never completed was never queued
// and is removed.
func TestOutboxRefusesWhatIsNotItsOwn(t *testing.T) {
	srv := newRestartable(t)
	everyone := func(common.Address) bool { return true }
	open := func(dir string, k func() relay.Config) (*relay.Relay, error) {
		c := k()
		c.DataDir = dir
		return relay.Open(t.Context(), c)
	}
	mine := relay.Config{URLs: []string{srv.url()}, Clade: clade, Key: key(t), Members: everyone, MaxBytes: 64 << 20}
	other := mine
	other.Key = key(t)

	// A message the other member queued during an outage.
	otherDir := t.TempDir()
	o, err := open(otherDir, func() relay.Config { return other })
	if err != nil {
		t.Fatal(err)
	}
	srv.stop()
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	if err := o.Publish(ctx, relay.KindReport, []byte("theirs")); !errors.Is(err, relay.ErrQueued) {
		t.Fatalf("publish = %v, want ErrQueued", err)
	}
	cancel()
	o.Close()
	ents, err := os.ReadDir(filepath.Join(otherDir, "relay-outbox"))
	if err != nil || len(ents) != 1 {
		t.Fatalf("the other's outbox: %v, %v", ents, err)
	}
	theirs, err := os.ReadFile(filepath.Join(otherDir, "relay-outbox", ents[0].Name()))
	if err != nil {
		t.Fatal(err)
	}
	srv.start()

	for _, tc := range []struct {
		name, file string
		data       []byte
		want       string
	}{
		{"signed by another key", ents[0].Name(), theirs, "not this member's"},
		{"corrupt", "00000000000000000001.env", []byte("not an envelope"), "outbox"},
		{"stray name", "notes.txt", []byte("x"), "unexpected file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "relay-outbox"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "relay-outbox", tc.file), tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			r, err := open(dir, func() relay.Config { return mine })
			if err == nil {
				r.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open = %v, want an error about %q", err, tc.want)
			}
		})
	}
	t.Run("temporary file", func(t *testing.T) {
		dir := t.TempDir()
		tmp := filepath.Join(dir, "relay-outbox", "00000000000000000001.env.12345")
		if err := os.MkdirAll(filepath.Dir(tmp), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tmp, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := open(dir, func() relay.Config { return mine })
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("temporary file left: %v", err)
		}
	})
}

// TestOutboxBounded: during a long outage the outbox stops taking
// messages at Config.MaxPending, and a refused publish queues nothing.
func TestOutboxBounded(t *testing.T) {
	srv := newRestartable(t)
	dir := t.TempDir()
	r, err := relay.Open(t.Context(), relay.Config{URLs: []string{srv.url()}, Clade: clade, Key: key(t),
		Members: func(common.Address) bool { return true }, DataDir: dir, MaxBytes: 64 << 20, MaxPending: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv.stop()
	done, cancel := context.WithCancel(t.Context())
	cancel() // every publish returns as soon as it is queued
	for i := range 16 {
		if err := r.Publish(done, relay.KindReport, []byte{byte(i), byte(i >> 8)}); !errors.Is(err, relay.ErrQueued) {
			t.Fatalf("publish %d = %v, want ErrQueued", i, err)
		}
	}
	err = r.Publish(done, relay.KindReport, []byte("one too many"))
	if err == nil || errors.Is(err, relay.ErrQueued) || !strings.Contains(err.Error(), "MaxPending") {
		t.Fatalf("publish beyond MaxPending = %v, want a refusal", err)
	}
	if n := outboxFiles(t, dir); n != 16 {
		t.Fatalf("%d files in the outbox, want 16", n)
	}
}
