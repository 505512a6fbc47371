package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/wardhq/ward/internal/event"
)

func TestReadSSE(t *testing.T) {
	stream := ": keep-alive\n\n" +
		"id: 1\nevent: tool:start\ndata: {\"kind\":\"tool:start\",\"seq\":1,\"tool\":\"a\"}\n\n" +
		"event: tool:update\ndata: {\"seq\":2,\"tool\":\"a\",\n" + "data: \"step\":\"s\",\"step_index\":1,\"total_steps\":2}\nid: 2\n\n" +
		"data: not json\n\n" +
		"id: 3\ndata: {\"kind\":\"tool:end\",\"seq\":3,\"success\":true}\n\n" +
		"data: {\"kind\":\"tool:error\"}\n" // no blank line: never dispatched
	var got []event.Event
	last, err := readSSE(strings.NewReader(stream), "", func(e event.Event) { got = append(got, e) })
	if !errors.Is(err, io.EOF) {
		t.Fatalf("err = %v, want io.EOF", err)
	}
	if last != "3" {
		t.Errorf("last id = %q, want 3", last)
	}
	want := []string{"tool:start 1 a", "tool:update 2 a s 1/2", "tool:end 3  true"}
	if len(got) != len(want) {
		t.Fatalf("got %d events %+v, want %d", len(got), got, len(want))
	}
	for i, e := range got {
		s := fmt.Sprintf("%s %d %s", e.Kind, e.Seq, e.Tool)
		if e.Step != "" {
			s += fmt.Sprintf(" %s %d/%d", e.Step, e.StepIndex, e.TotalSteps)
		}
		if e.Kind == event.ToolEnd {
			s += fmt.Sprintf(" %v", e.Success)
		}
		if s != want[i] {
			t.Errorf("event %d = %q, want %q", i, s, want[i])
		}
	}
}

func TestReadSSEBounds(t *testing.T) {
	big := strings.Repeat("x", maxFrame+10)
	for name, stream := range map[string]string{
		"long line":  "data: " + big + "\n\n",
		"long event": strings.Repeat("data: "+strings.Repeat("y", 1000)+"\n", maxFrame/1000+2) + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			n := 0
			_, err := readSSE(strings.NewReader(stream), "", func(event.Event) { n++ })
			if err == nil || errors.Is(err, io.EOF) || n != 0 {
				t.Errorf("err = %v, %d events; want an error and none", err, n)
			}
		})
	}
}

func FuzzReadSSE(f *testing.F) {
	f.Add("id: 1\ndata: {\"kind\":\"tool:start\"}\n\n")
	f.Add("event: x\ndata: {}\ndata: {}\n\n: c\n\n")
	f.Add("data\n\nid\x00: 3\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = readSSE(strings.NewReader(s), "", func(event.Event) {})
	})
}

// flakyStreamer fails its first opens, then serves one event and ends.
type flakyStreamer struct {
	fails   int
	mu      sync.Mutex
	opens   int
	lastIDs []string
}

func (s *flakyStreamer) Stream(ctx context.Context, lastID string, opened func(), fn func(event.Event)) (string, error) {
	s.mu.Lock()
	s.opens++
	n := s.opens
	s.lastIDs = append(s.lastIDs, lastID)
	s.mu.Unlock()
	if n <= s.fails {
		return lastID, errors.New("dial tcp 127.0.0.1:8787: connection refused")
	}
	opened()
	fn(event.Event{Kind: event.ToolStart, Seq: uint64(n)})
	return fmt.Sprint(n), io.EOF
}

func TestFollowReconnectsWithBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		s := &flakyStreamer{fails: 3}
		var mu sync.Mutex
		var msgs []tea.Msg
		var at []time.Duration
		start := time.Now()
		send := func(m tea.Msg) {
			mu.Lock()
			defer mu.Unlock()
			msgs = append(msgs, m)
			at = append(at, time.Since(start))
		}
		done := make(chan struct{})
		go func() { follow(ctx, s, send); close(done) }()
		time.Sleep(3 * time.Second) // fake time: 3 failures (0.25+0.5+1 s) then a stream
		cancel()
		<-done

		mu.Lock()
		defer mu.Unlock()
		var waits []time.Duration
		live := 0
		for _, m := range msgs {
			if c, ok := m.(connMsg); ok {
				switch c.state {
				case connDown:
					waits = append(waits, c.retryIn)
					if c.err == "" {
						t.Error("a down state without its reason")
					}
				case connLive:
					live++
				}
			}
		}
		if len(waits) < 4 {
			t.Fatalf("got waits %v, want at least 4", waits)
		}
		for i, base := range []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second} {
			if w := waits[i]; w < base || w > base+base/4 {
				t.Errorf("wait %d = %v, want %v plus at most a quarter", i, w, base)
			}
		}
		// Once a stream opened the backoff starts again.
		if w := waits[3]; w > 250*time.Millisecond+250*time.Millisecond/4 {
			t.Errorf("wait after a stream opened = %v, want the minimum again", w)
		}
		if live == 0 {
			t.Error("never reported live")
		}
		if len(s.lastIDs) < 5 || s.lastIDs[4] != "4" {
			t.Errorf("last ids sent = %v, want the fifth open to resume from 4", s.lastIDs)
		}
	})
}

// newAPI is a fake API: an SSE stream the test feeds, and the snapshot and
// quarantine endpoints.
type fakeAPI struct {
	events  chan string
	mu      sync.Mutex
	decided []string
	auth    []string
}

func (f *fakeAPI) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/events", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		for {
			select {
			case <-r.Context().Done():
				return
			case s, ok := <-f.events:
				if !ok {
					return
				}
				fmt.Fprint(w, s)
				w.(http.Flusher).Flush()
			}
		}
	})
	mux.HandleFunc("GET /v1/gate", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"phase":"stable","halted":false}`)
	})
	mux.HandleFunc("GET /v1/quarantine", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"items":[{"id":"q1","tool":"uniswap_swap_exact","reason":"QUARANTINED","message":"held"}]}`)
	})
	mux.HandleFunc("POST /v1/quarantine/{id}/{verb}", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.decided = append(f.decided, r.PathValue("verb")+" "+r.PathValue("id"))
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.mu.Unlock()
		fmt.Fprint(w, `{"id":"q1","status":"approved","outcome":{"ok":true,"permit":{"permit_id":"p-9"}}}`)
	})
	return mux
}

func TestClientAgainstFakeAPI(t *testing.T) {
	api := &fakeAPI{events: make(chan string, 4)}
	srv := httptest.NewServer(api.handler())
	defer srv.Close()
	c, err := NewClient(srv.URL, "tok", false)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := c.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if snap.Gate.Phase != "stable" || len(snap.Held) != 1 || snap.Held[0].ID != "q1" {
		t.Errorf("snapshot = %+v", snap)
	}
	if len(snap.Missing) != 1 || snap.Missing[0] != "decisions" {
		t.Errorf("missing = %v, want [decisions]", snap.Missing)
	}
	sum, err := c.Decide(t.Context(), "q/1", true)
	if err != nil {
		t.Fatal(err)
	}
	if want := "approved; permit p-9 is the agent's to commit"; sum != want {
		t.Errorf("Decide = %q, want %q", sum, want)
	}
	if api.decided[0] != "approve q/1" || api.auth[0] != "Bearer tok" {
		t.Errorf("server saw %v with %v", api.decided, api.auth)
	}

	api.events <- "id: 7\ndata: {\"kind\":\"tool:start\",\"seq\":7,\"tool\":\"a\"}\n\n"
	close(api.events)
	var got []event.Event
	opened := false
	last, err := c.Stream(t.Context(), "", func() { opened = true }, func(e event.Event) { got = append(got, e) })
	if !errors.Is(err, io.EOF) || !opened || last != "7" || len(got) != 1 || got[0].Tool != "a" {
		t.Errorf("stream: err %v opened %v last %q events %+v", err, opened, last, got)
	}
}

func TestNewClient(t *testing.T) {
	for _, tc := range []struct {
		addr, token string
		insecure    bool
		ok          bool
	}{
		{"http://127.0.0.1:8787", "t", false, true},
		{"127.0.0.1:8787", "t", false, true},
		{"http://localhost:8787/", "t", false, true},
		{"http://[::1]:8787", "t", false, true},
		{"https://ward.example:8787", "t", false, true},
		{"http://ward.example:8787", "t", false, false},
		{"http://ward.example:8787", "t", true, true},
		{"http://127.0.0.1:8787", "", false, false},
		{"ftp://127.0.0.1", "t", false, false},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			_, err := NewClient(tc.addr, tc.token, tc.insecure)
			if (err == nil) != tc.ok {
				t.Errorf("NewClient(%q, token %q, insecure %v): err %v, want ok %v", tc.addr, tc.token, tc.insecure, err, tc.ok)
			}
		})
	}
}
