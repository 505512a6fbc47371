package taint

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"sync"
)

// Errors returned by String. They are wrapped; test with errors.Is.
var (
	ErrForbidden = errors.New("taint: flow forbidden")
	ErrReleased  = errors.New("taint: value released")
	ErrDecode    = errors.New("taint: tainted value cannot be decoded")
)

// String is a sensitive value with labels. Make one with [New] or [FromBytes]
// and hold it by pointer; a copy is flagged by go vet (copylocks, through the
// noCopy field). The zero String behaves as released. All methods are safe for
// concurrent use and accept a nil receiver, which behaves as released.
type String struct {
	_ noCopy
	// st is behind a pointer so that a String reached by reflection (fmt on
	// a struct that holds a String by value) shows an address, not the bytes.
	st *state
}

type state struct {
	mu       sync.RWMutex
	b        []byte
	labels   Labels
	released bool
}

// noCopy makes go vet's copylocks check report a copied String.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// New returns a String holding a copy of value. The caller's value cannot be
// zeroed; prefer FromBytes for key material.
func New(value string, labels ...Label) *String {
	return FromBytes([]byte(value), labels...)
}

// FromBytes returns a String that takes ownership of b: the caller must not
// use b afterwards, and Release zeroes it.
func FromBytes(b []byte, labels ...Label) *String {
	return newString(b, Labels(0).With(labels...), false)
}

func newString(b []byte, ls Labels, released bool) *String {
	st := &state{b: b, labels: ls, released: released}
	if released {
		clear(b)
		st.b = nil
	}
	s := &String{st: st}
	runtime.AddCleanup(s, (*state).release, st)
	return s
}

func (st *state) release() {
	st.mu.Lock()
	defer st.mu.Unlock()
	clear(st.b)
	st.b = nil
	st.released = true
}

func (s *String) state() *state {
	if s == nil {
		return nil
	}
	return s.st
}

// Labels returns the value's labels. It stays valid after Release.
func (s *String) Labels() Labels {
	st := s.state()
	if st == nil {
		return 0
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	return st.labels
}

// Len returns the length of the value in bytes, or 0 once released.
func (s *String) Len() int {
	st := s.state()
	if st == nil {
		return 0
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	return len(st.b)
}

// Reveal returns the value if its labels allow flowing to sink. It fails with
// an error wrapping ErrForbidden (naming the sink and the forbidding labels,
// never the value) or ErrReleased. The returned string cannot be zeroed.
func (s *String) Reveal(sink Sink) (string, error) {
	st := s.state()
	if st == nil {
		return "", fmt.Errorf("reveal to %s: %w", sink, ErrReleased)
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.released {
		return "", fmt.Errorf("reveal to %s: %w", sink, ErrReleased)
	}
	if f := st.labels.Forbidden(sink); f != 0 {
		return "", fmt.Errorf("reveal to %s: %w by %s", sink, ErrForbidden, f)
	}
	return string(st.b), nil
}

// Use calls fn with the value's bytes for in-process use, such as signing,
// whatever the labels. fn must not retain or modify the slice and must not
// call Release on s; Release waits until fn returns. Use returns fn's error,
// or an error wrapping ErrReleased without calling fn.
func (s *String) Use(fn func([]byte) error) error {
	st := s.state()
	if st == nil {
		return fmt.Errorf("use: %w", ErrReleased)
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.released {
		return fmt.Errorf("use: %w", ErrReleased)
	}
	return fn(st.b)
}

// Release zeroes the value. Later Reveal and Use fail with ErrReleased. It is
// idempotent and waits for calls to Use in progress.
func (s *String) Release() {
	if st := s.state(); st != nil {
		st.release()
	}
}

func (s *String) redacted() string { return "[redacted:" + s.Labels().String() + "]" }

// String returns "[redacted:LABELS]".
func (s *String) String() string { return s.redacted() }

// GoString returns "[redacted:LABELS]".
func (s *String) GoString() string { return s.redacted() }

// Format writes "[redacted:LABELS]" for every verb and flag.
func (s *String) Format(f fmt.State, _ rune) { io.WriteString(f, s.redacted()) }

// LogValue returns the redacted form for log/slog.
func (s *String) LogValue() slog.Value { return slog.StringValue(s.redacted()) }

// MarshalText returns "[redacted:LABELS]".
func (s *String) MarshalText() ([]byte, error) { return []byte(s.redacted()), nil }

// MarshalJSON returns the JSON string "[redacted:LABELS]".
func (s *String) MarshalJSON() ([]byte, error) { return json.Marshal(s.redacted()) }

// UnmarshalJSON fails with ErrDecode: see the package comment.
func (s *String) UnmarshalJSON([]byte) error { return ErrDecode }

// UnmarshalText fails with ErrDecode: see the package comment.
func (s *String) UnmarshalText([]byte) error { return ErrDecode }

var (
	_ fmt.Formatter            = (*String)(nil)
	_ fmt.GoStringer           = (*String)(nil)
	_ slog.LogValuer           = (*String)(nil)
	_ json.Marshaler           = (*String)(nil)
	_ json.Unmarshaler         = (*String)(nil)
	_ encoding.TextMarshaler   = (*String)(nil)
	_ encoding.TextUnmarshaler = (*String)(nil)
)
