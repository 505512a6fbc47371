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
	q := r.URL.Query()
	var wants []string
	if ks := q.Get("kinds"); ks != "" {
		wants = strings.Split(ks, ",")
		if len(ks) > 1024 || len(wants) > 32 {
			writeError(w, badRequest("kinds lists at most 32 kinds in at most 1024 bytes"))
			return
		}
	}
	session := q.Get("session")
	if len(session) > maxParam {
		writeError(w, badRequest("session is longer than %d bytes", maxParam))
		return
	}
	var since uint64
	replay, reset := false, false
	if s := q.Get("since"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			writeError(w, badRequest("since must be an event sequence number"))
			return
		}
		since, replay = n, true
	} else if s := r.Header.Get("Last-Event-ID"); s != "" {
		since, replay, reset = a.lastEventID(s) // best effort: a bad id replays nothing
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

	filter := func(k event.Kind) bool {
		if len(wants) == 0 {
			return true
		}
		for _, x := range wants {
			if x == string(k) || x == k.Family() {
				return true
			}
		}
		return false
	}
	sub := a.cfg.Bus.Subscribe(streamBuffer, filter)
	defer sub.Close()

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

	var buf []byte
	flush := func() bool {
		_ = rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
		if _, err := w.Write(buf); err != nil {
			return false
		}
		buf = buf[:0]
		return rc.Flush() == nil
	}
	last := since
	add := func(e event.Event) {
		if session != "" && e.SessionID != session {
			return
		}
		data, err := json.Marshal(e)
		if err != nil {
			return
		}
		buf = append(buf, "id: "...)
		buf = append(buf, a.eventID(e.Seq)...)
		buf = append(buf, "\nevent: "...)
		buf = append(buf, sanitizeLine(string(e.Kind))...)
		buf = append(buf, "\ndata: "...)
		buf = append(buf, data...)
		buf = append(buf, "\n\n"...)
	}
	gap := func(v map[string]any) {
		v["kind"], v["time"] = GapKind, a.cfg.Now()
		data, _ := json.Marshal(v)
		buf = append(buf, "event: "+string(GapKind)+"\ndata: "...)
		buf = append(buf, data...)
		buf = append(buf, "\n\n"...)
	}
	buf = append(buf, "retry: 2000\n\n"...)
	if replay {
		held, missing := a.ring.since(since)
		if missing || reset {
			next := uint64(0)
			if len(held) > 0 {
				next = held[0].Seq
			}
			gap(map[string]any{"after": since, "next": next, "reset": reset})
		}
		for _, e := range held {
			if filter(e.Kind) {
				add(e)
			}
			last = e.Seq
		}
	}
	if !flush() {
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
			buf = append(buf, ": keep-alive\n\n"...)
		case e, ok := <-sub.C():
			if !ok {
				return
			}
			// Take what else is waiting, then write it at once.
			for {
				if e.Seq > last {
					add(e)
					last = e.Seq
				}
				if len(buf) > 64<<10 {
					break
				}
				var more bool
				select {
				case e, more = <-sub.C():
				default:
				}
				if !more {
					break
				}
			}
			if d := sub.Dropped(); d > dropped {
				gap(map[string]any{"dropped": d - dropped})
				dropped = d
			}
		}
		if !flush() {
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
