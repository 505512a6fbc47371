package event

import (
	"errors"
	"slices"
	"sync"
	"time"
)

// DefaultBuffer is the buffer of a subscription made with buffer <= 0 when
// Config.DefaultBuffer is zero.
const DefaultBuffer = 256

// maxCachedKinds bounds a subscription's cache of filter answers.
const maxCachedKinds = 256

// Config configures a Bus. The zero Config is valid.
type Config struct {
	// DefaultBuffer is the buffer of subscriptions that ask for none
	// (DefaultBuffer when zero).
	DefaultBuffer int
}

// Bus fans events out to subscriptions. It starts no goroutines. It is
// safe for concurrent use.
//
// Publish holds the bus's lock only while it numbers the event and offers
// it to each subscription without waiting, so every subscriber sees its
// events in Seq order and no subscriber can slow a publisher down.
type Bus struct {
	defaultBuf int

	mu        sync.Mutex
	seq       uint64
	subs      []*Subscription
	closed    bool
	published uint64
	dropped   uint64 // over every subscription, closed ones included
}

// New validates cfg and returns an open Bus.
func New(cfg Config) (*Bus, error) {
	if cfg.DefaultBuffer < 0 {
		return nil, errors.New("event: negative default buffer")
	}
	b := &Bus{defaultBuf: cfg.DefaultBuffer}
	if b.defaultBuf == 0 {
		b.defaultBuf = DefaultBuffer
	}
	return b, nil
}

// Publish numbers e, stamps its Time when zero, and offers it to every
// subscription whose filter accepts its kind. It never blocks on a
// subscriber: a subscription whose buffer is full drops the event and
// counts the drop. Publishing on a closed bus does nothing.
func (b *Bus) Publish(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	b.seq++
	e.Seq = b.seq
	b.published++
	for _, s := range b.subs {
		if !s.wants(e.Kind) {
			continue
		}
		select {
		case s.ch <- e:
		default:
			s.dropped++
			b.dropped++
		}
	}
}

// Subscribe returns a subscription that receives the events whose kind
// filter accepts (every event when filter is nil), buffering up to buffer
// of them (the bus's default when buffer <= 0). The filter is called while
// an event is published, at most once per kind (its answer is
// remembered): it must be fast, must not block and must not call the bus.
// A filter that panics rejects the kind. Subscribing to a closed bus
// returns a closed subscription.
func (b *Bus) Subscribe(buffer int, filter func(Kind) bool) *Subscription {
	if buffer <= 0 {
		buffer = b.defaultBuf
	}
	s := &Subscription{bus: b, ch: make(chan Event, buffer), filter: filter}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		s.closed = true
		close(s.ch)
		return s
	}
	b.subs = append(b.subs, s)
	return s
}

// Close closes every subscription (their channels are closed after the
// events already buffered) and makes later Publish calls do nothing. It is
// idempotent.
func (b *Bus) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for _, s := range b.subs {
		s.closed = true
		close(s.ch)
	}
	b.subs = nil
}

// Stats are a bus's counters.
type Stats struct {
	Published   uint64 // events published
	Dropped     uint64 // deliveries dropped because a subscriber's buffer was full
	Subscribers int    // open subscriptions
}

// Stats returns the bus's counters.
func (b *Bus) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Stats{Published: b.published, Dropped: b.dropped, Subscribers: len(b.subs)}
}

// Subscription receives a bus's events. Its methods are safe for
// concurrent use.
type Subscription struct {
	bus    *Bus
	ch     chan Event
	filter func(Kind) bool

	// Guarded by bus.mu.
	kinds   map[Kind]bool
	dropped uint64
	closed  bool
}

// C returns the channel the subscription's events arrive on. It is closed
// by Close or by the bus's Close, after the events already buffered.
func (s *Subscription) C() <-chan Event { return s.ch }

// Dropped returns how many events were dropped for this subscription
// because its buffer was full.
func (s *Subscription) Dropped() uint64 {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	return s.dropped
}

// Close stops deliveries to the subscription and closes its channel. It is
// idempotent.
func (s *Subscription) Close() {
	b := s.bus
	b.mu.Lock()
	defer b.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	close(s.ch)
	for i, o := range b.subs {
		if o == s {
			b.subs = slices.Delete(b.subs, i, i+1)
			break
		}
	}
}

// wants reports whether s receives events of kind k. Called with bus.mu
// held.
func (s *Subscription) wants(k Kind) bool {
	if s.filter == nil {
		return true
	}
	if ok, seen := s.kinds[k]; seen {
		return ok
	}
	ok := s.ask(k)
	if len(s.kinds) < maxCachedKinds {
		if s.kinds == nil {
			s.kinds = make(map[Kind]bool)
		}
		s.kinds[k] = ok
	}
	return ok
}

func (s *Subscription) ask(k Kind) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return s.filter(k)
}
