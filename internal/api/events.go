package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/event"
)

const (
	// ringSize is how many recent events a reconnecting client can get
	// back.
	ringSize = 1024
	// recorderBuffer is the recorder's subscription: it only copies, so
	// it drops only under a burst this large.
	recorderBuffer = 4096
	// streamBuffer is each client's subscription: a client that falls
	// further behind loses events.
	streamBuffer = 256
	// streamWriteTimeout bounds one write to a client.
	streamWriteTimeout = 10 * time.Second
	// GapKind is the kind of the stream's own event saying events are
	// missing: "dropped" were dropped for a slow client, or a reconnect
	// asked for events "after" a sequence number the ring no longer holds
	// ("next" is the first it has; "reset": the id was of another run of
	// ward, whose sequence numbers this run's do not continue).
	GapKind event.Kind = "stream:gap"
)

// ring holds the most recent events. Safe for concurrent use.
type ring struct {
	mu   sync.Mutex
	buf  []event.Event
	next int // where the next event goes
	n    int // events held
}

func newRing(size int) *ring { return &ring{buf: make([]event.Event, size)} }

func (r *ring) add(e event.Event) {
	r.mu.Lock()
	r.buf[r.next] = e
	r.next = (r.next + 1) % len(r.buf)
	r.n = min(r.n+1, len(r.buf))
	r.mu.Unlock()
}

// since returns the held events with a sequence number above seq, oldest
// first, and whether some such events are no longer held.
func (r *ring) since(seq uint64) ([]event.Event, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []event.Event
	for i := range r.n {
		if e := r.buf[(r.next-r.n+i+len(r.buf))%len(r.buf)]; e.Seq > seq {
			out = append(out, e)
		}
	}
	return out, len(out) > 0 && out[0].Seq > seq+1
}

// record copies every event into the ring and the metrics until the
// subscription closes (Close, or the bus's Close).
func (a *Server) record() {
	defer close(a.recorded)
	for e := range a.sub.C() {
		a.ring.add(e)
		a.metrics.event(e)
	}
}

// watchShutdown makes the serving http.Server's Shutdown end the event
// streams: they never go idle, so Shutdown would otherwise wait for them
// until its deadline.
func (a *Server) watchShutdown(r *http.Request) {
	srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server)
	if !ok {
		return
	}
	if _, loaded := a.watched.LoadOrStore(srv, struct{}{}); !loaded {
		srv.RegisterOnShutdown(a.endStreams)
	}
}

// eventID is an event's SSE id: the server's epoch and the sequence
// number, so that a client reconnecting to a restarted ward (whose
// sequence numbers start again from 1) is recognised.
func (a *Server) eventID(seq uint64) string { return a.epoch + "-" + strconv.FormatUint(seq, 10) }

// lastEventID parses a Last-Event-ID: the sequence number to replay after;
// replay is false if the id is not usable (then nothing is replayed);
// reset is true for an id of another run, which replays every held event.
func (a *Server) lastEventID(s string) (seq uint64, replay, reset bool) {
	epoch, num, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		num = epoch
	}
	n, err := strconv.ParseUint(num, 10, 64)
	switch {
	case err != nil:
		return 0, false, false
	case ok && epoch != a.epoch:
		return 0, true, true
	}
	return n, true, false
}

// events answers GET /v1/events with Server-Sent Events: "id" is the
// event's id (see eventID), "event" its kind, "data" its JSON. Query:
// kinds (comma-separated kinds or families: "tool,permit:created"),
// session (one session's events), since (replay from the ring the events
// after this sequence number; the Last-Event-ID header does the same).
func (a *Server) events(w http.ResponseWriter, r *http.Request) {
	q, err := a.streamQuery(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if n := a.streams.Add(1); n > int64(a.cfg.MaxStreams) {
		a.streams.Add(-1)
		writeError(w, &Error{Status: http.StatusServiceUnavailable, Code: CodeTooManyStreams, Message: "too many event streams are open"})
		return
	}
	defer a.streams.Add(-1)
	select {
	case <-a.streamsDone:
		writeError(w, &Error{Status: http.StatusServiceUnavailable, Code: CodeUnavailable, Message: "ward is shutting down"})
		return
	default:
	}
	a.watchShutdown(r)

	sub := a.cfg.Bus.Subscribe(streamBuffer, q.wants)
	defer sub.Close()
	sw := a.openStream(w, q)
	if q.replay {
		sw.replay(a.ring.since(q.since))
	}
	if !sw.flush() {
		return
	}
	beat := time.NewTicker(a.cfg.Heartbeat)
	defer beat.Stop()
	var dropped uint64
	for {
		select {
		case <-r.Context().Done():
			return
		case <-a.streamsDone:
			return
		case <-beat.C:
			sw.buf = append(sw.buf, ": keep-alive\n\n"...)
		case e, ok := <-sub.C():
			if !ok {
				return
			}
			sw.drain(e, sub.C())
			if d := sub.Dropped(); d > dropped {
				sw.gap(map[string]any{"dropped": d - dropped})
				dropped = d
			}
		}
		if !sw.flush() {
			return
		}
	}
}

// streamQuery is what a client asks of an event stream.
type streamQuery struct {
	kinds   []string // kinds or families; none for all
	session string   // only this session's events, if set
	since   uint64   // replay what came after this sequence number
	replay  bool
	reset   bool // the client's Last-Event-ID is from another ward process
}

func (a *Server) streamQuery(r *http.Request) (*streamQuery, *Error) {
	v := r.URL.Query()
	q := &streamQuery{session: v.Get("session")}
	if ks := v.Get("kinds"); ks != "" {
		q.kinds = strings.Split(ks, ",")
		if len(ks) > 1024 || len(q.kinds) > 32 {
			return nil, badRequest("kinds lists at most 32 kinds in at most 1024 bytes")
		}
	}
	if len(q.session) > maxParam {
		return nil, badRequest("session is longer than %d bytes", maxParam)
	}
	if s := v.Get("since"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, badRequest("since must be an event sequence number")
		}
		q.since, q.replay = n, true
	} else if s := r.Header.Get("Last-Event-ID"); s != "" {
		q.since, q.replay, q.reset = a.lastEventID(s) // best effort: a bad id replays nothing
	}
	return q, nil
}

// wants reports whether the stream carries events of kind k.
func (q *streamQuery) wants(k event.Kind) bool {
	if len(q.kinds) == 0 {
		return true
	}
	for _, x := range q.kinds {
		if x == string(k) || x == k.Family() {
			return true
		}
	}
	return false
}

// sseStream writes Server-Sent Events to one client, buffered between
// flushes.
type sseStream struct {
	a    *Server
	w    http.ResponseWriter
	rc   *http.ResponseController
	q    *streamQuery
	buf  []byte
	last uint64 // the last sequence number sent
}

// openStream answers the request with the stream's headers and its retry
// hint.
func (a *Server) openStream(w http.ResponseWriter, q *streamQuery) *sseStream {
	rc := http.NewResponseController(w)
	// The server's read timeout would cancel a stream's context; writes
	// have their own deadline.
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return &sseStream{a: a, w: w, rc: rc, q: q, last: q.since, buf: []byte("retry: 2000\n\n")}
}

func (s *sseStream) flush() bool {
	_ = s.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	if _, err := s.w.Write(s.buf); err != nil {
		return false
	}
	s.buf = s.buf[:0]
	return s.rc.Flush() == nil
}

func (s *sseStream) add(e event.Event) {
	if s.q.session != "" && e.SessionID != s.q.session {
		return
	}
	data, err := json.Marshal(e)
	if err != nil {
		return
	}
	s.buf = append(s.buf, "id: "...)
	s.buf = append(s.buf, s.a.eventID(e.Seq)...)
	s.buf = append(s.buf, "\nevent: "...)
	s.buf = append(s.buf, sanitizeLine(string(e.Kind))...)
	s.buf = append(s.buf, "\ndata: "...)
	s.buf = append(s.buf, data...)
	s.buf = append(s.buf, "\n\n"...)
}

func (s *sseStream) gap(v map[string]any) {
	v["kind"], v["time"] = GapKind, s.a.cfg.Now()
	data, _ := json.Marshal(v)
	s.buf = append(s.buf, "event: "+string(GapKind)+"\ndata: "...)
	s.buf = append(s.buf, data...)
	s.buf = append(s.buf, "\n\n"...)
}

// replay adds the held events after the client's last one, with a gap
// first if some are no longer held or the id was another process's.
func (s *sseStream) replay(held []event.Event, missing bool) {
	if missing || s.q.reset {
		next := uint64(0)
		if len(held) > 0 {
			next = held[0].Seq
		}
		s.gap(map[string]any{"after": s.q.since, "next": next, "reset": s.q.reset})
	}
	for _, e := range held {
		if s.q.wants(e.Kind) {
			s.add(e)
		}
		s.last = e.Seq
	}
}

// drain adds e and whatever else is waiting on c, up to 64 KiB, to be
// written at once.
func (s *sseStream) drain(e event.Event, c <-chan event.Event) {
	for {
		if e.Seq > s.last {
			s.add(e)
			s.last = e.Seq
		}
		if len(s.buf) > 64<<10 {
			return
		}
		var more bool
		select {
		case e, more = <-c:
		default:
		}
		if !more {
			return
		}
	}
}

// sanitizeLine keeps a field on one line.
func sanitizeLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
