package a2a

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	spec "github.com/a2aproject/a2a-go/a2a"

	"github.com/wardhq/ward/internal/auth"
)

// serveStream answers message/stream and tasks/resubscribe with Server-Sent
// Events, one JSON-RPC response per event; an error is an event too.
func (h *Handler) serveStream(ctx context.Context, w http.ResponseWriter, p auth.Principal, req request) {
	s := startStream(w, req.id)
	defer s.stop()
	switch req.method {
	case "message/stream":
		in, rerr := parseSend(req.params)
		if rerr != nil {
			s.fail(rerr)
			return
		}
		if _, rerr := h.send(ctx, p, in, s.event); rerr != nil {
			s.fail(rerr)
		}
	case "tasks/resubscribe":
		var q spec.TaskIDParams
		if rerr := decodeParams(req.params, &q); rerr != nil {
			s.fail(rerr)
			return
		}
		if rerr := h.lookup(ctx, p); rerr != nil {
			s.fail(rerr)
			return
		}
		h.refresh(ctx, p, q.ID)
		t, done, ok := h.tasks.watch(p.ID, q.ID)
		if !ok {
			s.fail(h.unknownTask(ctx, p, q.ID))
			return
		}
		s.event(&t, false)
		if done != nil {
			select {
			case <-done:
			case <-ctx.Done():
				return
			}
			if t, ok = h.tasks.get(p.ID, q.ID); !ok {
				s.fail(taskNotFound()) // evicted meanwhile
				return
			}
			for _, a := range t.Artifacts {
				s.event(&spec.TaskArtifactUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Artifact: a, LastChunk: true}, false)
			}
		}
		s.event(statusEvent(t, true), false)
	}
}

// stream writes events to a client from its own goroutine, so a client
// that reads slowly never blocks a call: events queue in a bounded buffer
// (progress events are dropped when it is full). The goroutine is started
// by startStream and ended by stop, within one request.
type stream struct {
	w    http.ResponseWriter
	rc   *http.ResponseController
	id   json.RawMessage
	ch   chan response
	done chan struct{}

	mu     sync.Mutex
	closed bool
}

func startStream(w http.ResponseWriter, id json.RawMessage) *stream {
	s := &stream{w: w, rc: http.NewResponseController(w), id: id, ch: make(chan response, 64), done: make(chan struct{})}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	go s.drain()
	return s
}

// event queues ev; a droppable event is dropped rather than waited for
// when the buffer is full. Events after stop are dropped.
func (s *stream) event(ev spec.Event, droppable bool) {
	s.send(response{ID: s.id, Result: ev}, droppable)
}

func (s *stream) fail(e *rpcError) { s.send(response{ID: s.id, Error: e}, false) }

func (s *stream) send(r response, droppable bool) {
	if !droppable {
		s.mu.Lock()
	} else if !s.mu.TryLock() {
		return // another event is being queued: never wait for it
	}
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	if droppable {
		select {
		case s.ch <- r:
		default:
		}
		return
	}
	s.ch <- r // drain always consumes, so this returns
}

// stop ends the stream once the queued events are written (or dropped)
// and waits for its goroutine.
func (s *stream) stop() {
	s.mu.Lock()
	s.closed = true
	close(s.ch)
	s.mu.Unlock()
	<-s.done
}

func (s *stream) drain() {
	defer close(s.done)
	broken := false
	for r := range s.ch {
		if broken {
			continue
		}
		b, err := json.Marshal(r)
		if err != nil {
			b, _ = json.Marshal(response{ID: s.id, Error: &rpcError{Code: codeInternal, Message: "an event could not be encoded"}})
		}
		_ = s.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := s.w.Write(append(append([]byte("data: "), b...), '\n', '\n')); err != nil {
			broken = true
			continue
		}
		if err := s.rc.Flush(); err != nil {
			broken = true
		}
	}
	_ = s.rc.SetWriteDeadline(time.Time{})
}
