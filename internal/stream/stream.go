// Package stream is ward's live data subscriptions (seed 002's stream_
// tools): a session subscribes to a value read from the chain (a token's
// price, a pool's state, a position's health), and every change of that
// value is published as a subscription:update event on ward's event bus,
// with the session's id, for the surfaces to deliver (the API's event
// stream, MCP notifications).
//
// The Hub polls each watched thing once, however many sessions watch it:
// one poller per (kind, target), at the shortest interval its subscribers
// asked for, fanning each change out to them. A poller publishes only when
// the value it reads differs from the last one, and stops when its last
// subscriber leaves.
//
// Subscriptions are bounded and owned: at most Config.MaxPerSession per
// session, none polled more often than Config.MinInterval, and only the
// session that made a subscription sees it or cancels it. They end when
// cancelled, when their session ends (EndSession), when the Hub closes
// (Close returns after every poller has returned), and when their Check
// refuses: every poll first asks each subscription's Check (the gate's
// read decision for its session, under the policy of the moment) and ends,
// with a subscription:ended event carrying the refusal's code and text,
// each subscription it refuses, so nothing is delivered to a session that
// may no longer read the value. Recheck asks them all at once (on a policy
// reload).
//
// The package depends on the standard library, event and reason only.
package stream

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/reason"
)

// Defaults of Config.
const (
	DefaultMaxPerSession = 16
	DefaultMinInterval   = 2 * time.Second
	// DefaultReadTimeout bounds one poll when Config.ReadTimeout is zero.
	DefaultReadTimeout = 5 * time.Second
)

// Config configures a Hub.
type Config struct {
	// MaxPerSession bounds the subscriptions one session holds at once
	// (DefaultMaxPerSession when zero).
	MaxPerSession int
	// MinInterval is the shortest polling interval a subscription may ask
	// for (DefaultMinInterval when zero).
	MinInterval time.Duration
	// ReadTimeout bounds one poll (DefaultReadTimeout when zero).
	ReadTimeout time.Duration
	// Publish receives the stream events (required): event.Bus.Publish.
	// It must not block.
	Publish func(event.Event)
}

// Probe reads the current value of a watched thing. Two reads of an
// unchanged thing must return the same bytes: a poller publishes when they
// differ.
type Probe func(ctx context.Context) (json.RawMessage, error)

// Check decides again whether a subscription may still receive its
// value; an error ends the subscription, its text (fit to show the
// agent) the reason, and its ReasonCode, when it has one, the code.
type Check func(ctx context.Context) error

// Key names a watched thing: what kind of value (price, pool, health) and
// of what (a feed, a pool, a position), in a form equal for equal targets.
type Key struct {
	Kind   string
	Target string
}

// Sub is one subscription as its session sees it.
type Sub struct {
	ID       string        `json:"subscription_id"`
	Kind     string        `json:"kind"`
	Target   string        `json:"target"`
	Interval time.Duration `json:"-"`
	Created  time.Time     `json:"created_at"`
}

// Errors of Subscribe and Cancel. Each carries a reason code (Code) for
// the gate to refuse with.
var (
	ErrLimit    = &Error{code: reason.StreamLimit, msg: "this session holds the most subscriptions it may: cancel one (stream_cancel_subscription) first"}
	ErrNotFound = &Error{code: reason.StreamNotFound, msg: "this session has no subscription by that id (stream_list_subscriptions lists them)"}
	ErrInterval = &Error{code: reason.StreamInterval, msg: "the polling interval is shorter than the minimum this ward allows"}
	ErrClosed   = &Error{code: reason.StreamUnavailable, msg: "streaming has stopped (ward is shutting down)"}
)

// Error is a refusal of the Hub with its reason code; its message is
// fixed text, fit to show an agent.
type Error struct {
	code reason.Code
	msg  string
}

func (e *Error) Error() string { return e.msg }

// Reason returns the refusal's reason code.
func (e *Error) Reason() reason.Code { return e.code }

// Hub runs the subscriptions. It is safe for concurrent use.
type Hub struct {
	max     int
	min     time.Duration
	timeout time.Duration
	publish func(event.Event)

	wg sync.WaitGroup // the pollers

	mu      sync.Mutex
	closed  bool
	next    uint64
	subs    map[string]*sub            // by id
	owners  map[string]map[string]bool // session → ids
	pollers map[Key]*poller
}

type sub struct {
	Sub
	owner string
	check Check
	p     *poller
}

// New validates cfg and returns an open Hub. It starts no goroutine until
// the first subscription.
func New(cfg Config) (*Hub, error) {
	switch {
	case cfg.Publish == nil:
		return nil, errors.New("stream: the hub needs somewhere to publish")
	case cfg.MaxPerSession < 0 || cfg.MinInterval < 0 || cfg.ReadTimeout < 0:
		return nil, errors.New("stream: negative limit")
	}
	cfg.MaxPerSession = cmp.Or(cfg.MaxPerSession, DefaultMaxPerSession)
	cfg.MinInterval = cmp.Or(cfg.MinInterval, DefaultMinInterval)
	cfg.ReadTimeout = cmp.Or(cfg.ReadTimeout, DefaultReadTimeout)
	return &Hub{max: cfg.MaxPerSession, min: cfg.MinInterval, timeout: cfg.ReadTimeout, publish: cfg.Publish,
		subs: map[string]*sub{}, owners: map[string]map[string]bool{}, pollers: map[Key]*poller{}}, nil
}

// MinInterval returns the shortest interval a subscription may ask for.
func (h *Hub) MinInterval() time.Duration { return h.min }

// MaxPerSession returns how many subscriptions one session may hold.
func (h *Hub) MaxPerSession() int { return h.max }

// Subscribe makes session owner a subscription to k, polled every
// interval (MinInterval when zero) with probe, whose first value is
// initial (what the caller just read; the subscription's updates are the
// changes from it). The poller outlives ctx (the subscribing call's) and
// keeps only its values. A poller already watching k is shared, and probe is
// then unused. check is asked before every poll delivers to this
// subscription (see Check). It fails with ErrInterval, ErrLimit or
// ErrClosed, changing nothing.
func (h *Hub) Subscribe(ctx context.Context, owner string, k Key, interval time.Duration, initial json.RawMessage, probe Probe, check Check) (Sub, error) {
	if owner == "" || k.Kind == "" || k.Target == "" || probe == nil || check == nil {
		return Sub{}, errors.New("stream: a subscription needs its session, kind, target, probe and check")
	}
	if interval == 0 {
		interval = h.min
	}
	if interval < h.min {
		return Sub{}, ErrInterval
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return Sub{}, ErrClosed
	}
	if len(h.owners[owner]) >= h.max {
		return Sub{}, ErrLimit
	}
	h.next++
	s := &sub{Sub: Sub{ID: "sub_" + strconv.FormatUint(h.next, 10), Kind: k.Kind, Target: k.Target, Interval: interval, Created: time.Now()}, owner: owner, check: check}
	p := h.pollers[k]
	if p == nil {
		p = &poller{h: h, key: k, probe: probe, last: bytes.Clone(initial), wake: make(chan struct{}, 1), subs: map[string]*sub{}}
		pctx, stop := context.WithCancel(context.WithoutCancel(ctx))
		p.stop = stop
		h.pollers[k] = p
		h.wg.Go(func() { p.run(pctx) })
	}
	p.subs[s.ID] = s
	s.p = p
	select {
	case p.wake <- struct{}{}: // a shorter interval takes effect now
	default:
	}
	h.subs[s.ID] = s
	if h.owners[owner] == nil {
		h.owners[owner] = map[string]bool{}
	}
	h.owners[owner][s.ID] = true
	return s.Sub, nil
}

// List returns session owner's subscriptions, oldest first.
func (h *Hub) List(owner string) []Sub {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []Sub{}
	for id := range h.owners[owner] {
		out = append(out, h.subs[id].Sub)
	}
	slices.SortFunc(out, func(a, b Sub) int {
		return cmpID(a.ID, b.ID)
	})
	return out
}

func cmpID(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return bytes.Compare([]byte(a), []byte(b))
}

// Cancel ends session owner's subscription id: ErrNotFound when the
// session has none by that id (another session's is not found either).
func (h *Hub) Cancel(owner, id string) (Sub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.subs[id]
	if s == nil || s.owner != owner {
		return Sub{}, ErrNotFound
	}
	h.remove(s, "", "cancelled")
	return s.Sub, nil
}

// EndSession ends every subscription of session owner (its session or
// stream ended) and returns how many there were.
func (h *Hub) EndSession(owner string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for id := range h.owners[owner] {
		h.remove(h.subs[id], "", "session ended")
		n++
	}
	return n
}

// Sessions returns the sessions that hold subscriptions.
func (h *Hub) Sessions() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.owners))
	for o := range h.owners {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}

// Stats are a hub's counts.
type Stats struct {
	Subscriptions int
	Pollers       int
}

// Stats returns the hub's counts.
func (h *Hub) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return Stats{Subscriptions: len(h.subs), Pollers: len(h.pollers)}
}

// remove ends s, and its poller with its last subscriber, with the reason
// code and text of the subscription:ended event. Called with h.mu held.
func (h *Hub) remove(s *sub, code reason.Code, why string) {
	delete(h.subs, s.ID)
	delete(h.owners[s.owner], s.ID)
	if len(h.owners[s.owner]) == 0 {
		delete(h.owners, s.owner)
	}
	p := s.p
	delete(p.subs, s.ID)
	if len(p.subs) == 0 {
		p.stop()
		delete(h.pollers, p.key)
	}
	h.publish(event.Event{Kind: event.SubscriptionEnded, SessionID: s.owner, Tool: toolOf(s.Kind), Code: string(code), Message: why,
		Payload: event.StreamData{ID: s.ID, Kind: s.Kind, Target: s.Target}})
}

// Recheck asks every subscription's Check now and ends those it refuses
// (after a policy reload, so a subscription the new policy denies ends
// without waiting for its next poll). It returns how many it ended.
func (h *Hub) Recheck(ctx context.Context) int {
	h.mu.Lock()
	all := make([]*sub, 0, len(h.subs))
	for _, s := range h.subs {
		all = append(all, s)
	}
	h.mu.Unlock()
	return h.recheck(ctx, all)
}

// recheck asks each of subs its Check, outside h.mu (a check does I/O),
// and ends those refused that have not ended meanwhile.
func (h *Hub) recheck(ctx context.Context, subs []*sub) int {
	n := 0
	for _, s := range subs {
		cctx, cancel := context.WithTimeout(ctx, h.timeout)
		err := s.check(cctx)
		cancel()
		if err == nil {
			continue
		}
		if ctx.Err() != nil {
			return n // stopping: the subscription ends as the hub closes
		}
		var coded interface{ ReasonCode() string }
		code := reason.StreamUnavailable
		if errors.As(err, &coded) {
			code = reason.Code(coded.ReasonCode())
		}
		h.mu.Lock()
		if h.subs[s.ID] == s {
			h.remove(s, code, "the subscription's read is no longer allowed: "+err.Error())
			n++
		}
		h.mu.Unlock()
	}
	return n
}

// Close ends every subscription and returns when every poller has
// returned. It is idempotent; Subscribe fails with ErrClosed after it.
func (h *Hub) Close() {
	h.mu.Lock()
	if !h.closed {
		h.closed = true
		for _, s := range h.subs {
			h.remove(s, "", "ward stopped")
		}
	}
	h.mu.Unlock()
	h.wg.Wait()
}

// toolOf is the subscribe tool of a kind, for the events' Tool field.
func toolOf(kind string) string { return "stream_subscribe_" + kind }

// poller watches one Key for its subscribers.
type poller struct {
	h     *Hub
	key   Key
	probe Probe
	wake  chan struct{}
	stop  context.CancelFunc

	// Guarded by h.mu.
	subs map[string]*sub

	// Owned by run.
	last    json.RawMessage
	failing bool
}

// interval is the shortest interval of p's subscribers.
func (p *poller) interval() time.Duration {
	p.h.mu.Lock()
	defer p.h.mu.Unlock()
	d := time.Duration(0)
	for _, s := range p.subs {
		if d == 0 || s.Interval < d {
			d = s.Interval
		}
	}
	if d == 0 {
		d = p.h.min
	}
	return d
}

func (p *poller) run(ctx context.Context) {
	t := time.NewTimer(p.interval())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
			t.Reset(p.interval())
			continue
		case <-t.C:
		}
		p.poll(ctx)
		t.Reset(p.interval())
	}
}

// poll decides again each subscriber's read (Check), ending those
// refused, then reads the value once and publishes a change, or the first
// failure after a success, to every subscriber left.
func (p *poller) poll(ctx context.Context) {
	p.h.mu.Lock()
	subs := make([]*sub, 0, len(p.subs))
	for _, s := range p.subs {
		subs = append(subs, s)
	}
	p.h.mu.Unlock()
	p.h.recheck(ctx, subs)
	if ctx.Err() != nil {
		return // the last subscriber left: nothing to read for
	}
	rctx, cancel := context.WithTimeout(ctx, p.h.timeout)
	v, err := p.probe(rctx)
	cancel()
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		if p.failing {
			return
		}
		p.failing = true
		p.fanOut(func(s *sub) event.Event {
			return event.Event{Kind: event.SubscriptionUpdate, SessionID: s.owner, Tool: toolOf(s.Kind), Code: string(reason.StreamReadFailed),
				Message: fmt.Sprintf("the %s of %s could not be read; the subscription goes on", s.Kind, s.Target),
				Payload: event.StreamData{ID: s.ID, Kind: s.Kind, Target: s.Target}}
		})
		return
	}
	p.failing = false
	if bytes.Equal(v, p.last) {
		return
	}
	p.last = bytes.Clone(v)
	p.fanOut(func(s *sub) event.Event {
		return event.Event{Kind: event.SubscriptionUpdate, SessionID: s.owner, Tool: toolOf(s.Kind), Success: true,
			Payload: event.StreamData{ID: s.ID, Kind: s.Kind, Target: s.Target, Value: p.last}}
	})
}

// fanOut publishes one event per subscriber of p.
func (p *poller) fanOut(mk func(*sub) event.Event) {
	p.h.mu.Lock()
	defer p.h.mu.Unlock()
	if p.h.closed {
		return
	}
	for _, s := range p.subs {
		p.h.publish(mk(s))
	}
}
