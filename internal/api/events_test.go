package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/api"
	"github.com/wardhq/ward/internal/event"
)

// frame is one Server-Sent Events frame, or a comment.
type frame struct {
	id, event, data string
	comment         string
}

// stream is an open GET /v1/events.
type stream struct {
	resp   *http.Response
	frames chan frame
	cancel func()
}

// open opens the event stream with the owner's token.
func (h *harness) open(t *testing.T, query string, headers ...string) *stream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", h.base+"/v1/events"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+h.owner)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &stream{resp: resp, frames: make(chan frame, 1<<16), cancel: cancel}
	t.Cleanup(s.close)
	if resp.StatusCode != http.StatusOK {
		return s
	}
	go func() {
		defer close(s.frames)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		var f frame
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if f != (frame{}) {
					s.frames <- f
				}
				f = frame{}
			case strings.HasPrefix(line, ":"):
				s.frames <- frame{comment: strings.TrimSpace(line[1:])}
			default:
				k, v, _ := strings.Cut(line, ": ")
				switch k {
				case "id":
					f.id = v
				case "event":
					f.event = v
				case "data":
					f.data = v
				}
			}
		}
	}()
	return s
}

func (s *stream) close() {
	s.cancel()
	s.resp.Body.Close()
}

// next returns the next event frame of a kind in kinds (comments and other
// frames are skipped).
func (s *stream) next(t *testing.T, kinds ...string) (frame, event.Event) {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case f, ok := <-s.frames:
			if !ok {
				t.Fatalf("the stream ended while waiting for %v", kinds)
			}
			for _, k := range kinds {
				if f.event == k {
					var e event.Event
					if err := json.Unmarshal([]byte(f.data), &e); err != nil {
						t.Fatalf("event data %q: %v", f.data, err)
					}
					return f, e
				}
			}
		case <-timeout:
			t.Fatalf("no %v event within 30s", kinds)
		}
	}
}

func TestEvents(t *testing.T) {
	h := start(t, harnessOpts{heartbeat: 50 * time.Millisecond, maxStreams: 3})

	s := h.open(t, "?kinds=tool,permit:created")
	if s.resp.StatusCode != http.StatusOK || s.resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: %d %s", s.resp.StatusCode, s.resp.Header.Get("Content-Type"))
	}

	t.Run("stream limit", func(t *testing.T) {
		other := h.open(t, "")
		defer other.close()
		third := h.open(t, "")
		defer third.close()
		if other.resp.StatusCode != http.StatusOK || third.resp.StatusCode != http.StatusOK {
			t.Fatalf("streams 2 and 3: %d, %d", other.resp.StatusCode, third.resp.StatusCode)
		}
		over := h.open(t, "")
		if over.resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("a stream over the limit: %d", over.resp.StatusCode)
		}
	})

	t.Run("a live tool call's events", func(t *testing.T) {
		h.want(h.do("POST", "/v1/call/search_context", h.agent, `{"kind":"gas","params":{}}`), http.StatusOK, "")
		fs, start := s.next(t, "tool:start")
		_, end := s.next(t, "tool:end")
		if start.Tool == "" || end.Tool != start.Tool || !end.Success || end.Seq <= start.Seq || start.SessionID != h.sessionOf(h.agent, "") {
			t.Errorf("start %+v, end %+v", start, end)
		}
		if !strings.HasSuffix(fs.id, "-"+itoa(start.Seq)) {
			t.Errorf("frame id %q for seq %d", fs.id, start.Seq)
		}
		pr := h.do("POST", "/v1/call/preview_action", h.agent, h.swap(5))
		h.want(pr, http.StatusOK, "")
		if !strings.Contains(string(pr.body), "permit_id") {
			t.Fatalf("the preview issued no permit: %s", pr.body)
		}
		_, pc := s.next(t, "permit:created")
		if pc.PermitID == "" {
			t.Errorf("permit:created %+v", pc)
		}

		// A reconnect with Last-Event-ID gets what came after it.
		re := h.open(t, "?kinds=tool,permit", "Last-Event-ID", fs.id)
		_, got := re.next(t, "tool:end")
		if got.Seq != end.Seq {
			t.Errorf("replayed tool:end %d, want %d", got.Seq, end.Seq)
		}
		if _, got := re.next(t, "permit:created"); got.Seq != pc.Seq {
			t.Errorf("replayed permit:created %d, want %d", got.Seq, pc.Seq)
		}
		re.close()
		// An id from another run of ward replays what this one holds,
		// after a gap event.
		old := h.open(t, "?kinds=tool", "Last-Event-ID", "zzz-999999")
		old.next(t, string(api.GapKind))
		if _, got := old.next(t, "tool:start"); got.Seq != start.Seq {
			t.Errorf("after a restart the replay starts at %d, want %d", got.Seq, start.Seq)
		}
		old.close()
	})

	t.Run("heartbeat", func(t *testing.T) {
		deadline := time.After(10 * time.Second)
		for {
			select {
			case f := <-s.frames:
				if f.comment == "keep-alive" {
					return
				}
			case <-deadline:
				t.Fatal("no keep-alive comment")
			}
		}
	})

	t.Run("a slow client loses events, the bus is not slowed", func(t *testing.T) {
		slow := h.open(t, "?kinds=test")
		bus := h.srv.Stack.Bus
		before := bus.Stats().Dropped
		t0 := time.Now()
		const n = 200_000
		pad := strings.Repeat("x", 200)
		for i := range n {
			bus.Publish(event.Event{Kind: "test:flood", Message: pad, StepIndex: i})
		}
		if d := time.Since(t0); d > 5*time.Second {
			t.Errorf("publishing %d events took %v", n, d)
		}
		if bus.Stats().Dropped == before {
			t.Fatal("nothing was dropped: the client was not slow enough")
		}
		// The client catches up: it is told what it lost and gets events again.
		if f, _ := slow.next(t, string(api.GapKind)); !strings.Contains(f.data, `"dropped":`) {
			t.Errorf("gap event %s", f.data)
		}
		// Its buffer may still be full of the flood: publish until an
		// event gets through.
		deadline := time.After(30 * time.Second)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		bus.Publish(event.Event{Kind: "test:after"})
	wait:
		for {
			select {
			case f, ok := <-slow.frames:
				if !ok {
					t.Fatal("the stream ended")
				}
				if f.event == "test:after" {
					break wait
				}
			case <-tick.C:
				bus.Publish(event.Event{Kind: "test:after"})
			case <-deadline:
				t.Fatal("no event got through after the flood")
			}
		}
		slow.close()
	})

	t.Run("bad requests", func(t *testing.T) {
		h.want(h.do("GET", "/v1/events?since=x", h.owner, nil), http.StatusBadRequest, api.CodeBadRequest)
		h.want(h.do("GET", "/v1/events?kinds="+strings.Repeat("a,", 40), h.owner, nil), http.StatusBadRequest, api.CodeBadRequest)
	})

	// Shutting down with streams open is quick (the harness checks).
	h.shutdown()
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
