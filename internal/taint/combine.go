package taint

import "fmt"

// snapshot copies s's bytes and labels. ok is false if s is released.
func (s *String) snapshot() (b []byte, ls Labels, ok bool) {
	st := s.state()
	if st == nil {
		return nil, 0, false
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.released {
		return nil, st.labels, false
	}
	return append([]byte(nil), st.b...), st.labels, true
}

// Concat returns a new String holding the parts' values joined, labelled with
// the union of their labels. If any part is released or nil, the result is
// released (still carrying the union of the labels).
func Concat(parts ...*String) *String {
	var (
		out      []byte
		ls       Labels
		released bool
	)
	for _, p := range parts {
		b, l, ok := p.snapshot()
		ls |= l
		if !ok {
			released = true
			continue
		}
		out = append(out, b...)
		clear(b)
	}
	return newString(out, ls, released)
}

// Format formats like fmt.Sprintf and returns the result as a new String.
// Each *String argument contributes its value (formatted with the verb as a
// Go string would be) and its labels; other arguments are formatted as usual,
// and a *String nested inside one stays redacted. If a *String argument is
// released or nil, the result is released. fmt's internal buffers are not
// zeroed, so Format is for assembling prompts and messages, not key material.
func Format(format string, args ...any) *String {
	var (
		ls       Labels
		released bool
		scratch  [][]byte
	)
	fargs := make([]any, len(args))
	for i, a := range args {
		s, ok := a.(*String)
		if !ok {
			fargs[i] = a
			continue
		}
		b, l, ok := s.snapshot()
		ls |= l
		if !ok {
			released = true
		}
		scratch = append(scratch, b)
		fargs[i] = revealed(b)
	}
	var out []byte
	if !released {
		out = fmt.Appendf(nil, format, fargs...)
	}
	for _, b := range scratch {
		clear(b)
	}
	return newString(out, ls, released)
}

// revealed formats a snapshot of a String's bytes as a Go string would be.
type revealed []byte

func (r revealed) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, fmt.FormatString(f, verb), string(r))
}
