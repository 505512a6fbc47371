package tool

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// parseArgsSeparate is ParseArgs as it was before newArgs: the Args and
// the copy of its text allocated separately. TestArgsInline compares the
// two.
func parseArgsSeparate(raw []byte) (*Args, error) {
	if err := checkSize(raw); err != nil {
		return nil, err
	}
	a := new(Args)
	a.text = string(raw)
	p := parserPool.Get().(*parser)
	defer p.release()
	p.s, p.top, p.topHash = a.text, &a.members, &a.hash
	kind, err := p.parse()
	if err != nil {
		return nil, err
	}
	switch kind {
	case Null:
		return emptyArgs, nil
	case Object:
		return a, nil
	}
	return nil, fmt.Errorf("%w: arguments must be a JSON object, not %s", ErrArgs, kind)
}

// argsView is everything a caller can read of an Args.
func argsView(a *Args, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "hash %x size %d len %d canonical %q map %v\n", a.Hash(), a.Size(), a.Len(), a.Canonical(), a.Map())
	for i := range a.Len() {
		f := a.Field(i)
		s, ok := f.Value.Str()
		fmt.Fprintf(&b, "%q %v %q %q %v\n", f.Key, f.Value.Kind(), f.Value.Raw(), s, ok)
	}
	return b.String()
}

// inlineInputs are the golden corpus plus inputs of every length from 0 to
// past argsInline, valid and not: each size of newArgs and its edges.
func inlineInputs() [][]byte {
	in := goldenInputs()
	r := rand.New(rand.NewPCG(23, 6))
	for n := range argsInline + 24 {
		// A valid object of exactly n bytes (n >= 8), padded inside a string.
		if n >= 8 {
			in = append(in, []byte(`{"a":"`+strings.Repeat("x", n-8)+`"}`))
			in = append(in, []byte(`{"b":1,"a":"`+strings.Repeat("\\u00e9", max(n-14, 0)/6)+`"}`))
			in = append(in, append([]byte(`{"a":1}`), bytes.Repeat([]byte(" "), n-7)...))
		}
		// Random bytes and a random object cut to n bytes.
		junk := make([]byte, n)
		for i := range junk {
			junk[i] = byte(r.IntN(256))
		}
		in = append(in, junk)
		obj := randomObject(r)
		for len(obj) < n {
			obj = append(obj, ' ')
		}
		in = append(in, obj[:n])
	}
	return in
}

// TestArgsInline checks that Args allocated with their text read exactly
// as Args allocated apart, for every size newArgs has; that the text is a
// copy (the caller may reuse its buffer) that survives collections; and
// that a short call allocates once.
func TestArgsInline(t *testing.T) {
	for i, raw := range inlineInputs() {
		a, err := ParseArgs(raw)
		want := argsView(parseArgsSeparate(raw))
		if got := argsView(a, err); got != want {
			t.Fatalf("input %d %q:\n got %s\nwant %s", i, raw, got, want)
		}
		if err != nil || a == emptyArgs {
			continue
		}
		for j := range raw {
			raw[j] = '!'
		}
		if i%512 == 0 {
			runtime.GC()
		}
		if got := argsView(a, nil); got != want {
			t.Fatalf("input %d after its buffer was overwritten:\n got %s\nwant %s", i, got, want)
		}
	}
	for _, n := range []int{9, 24, 25, 40, 41, 72, 73, 104, 105, 136, 137, argsInline} {
		raw := []byte(`{"a":"` + strings.Repeat("x", n-8) + `"}`)
		if allocs := testing.AllocsPerRun(100, func() { _, _ = ParseArgs(raw) }); allocs != 1 {
			t.Errorf("ParseArgs of %d bytes: %v allocations, want 1", n, allocs)
		}
	}
}

// TestArgsInlineSizes checks the arithmetic of newArgs's comment: an Args
// with each inline size is the size of an allocator class, so the copy in
// the same allocation costs no more memory than apart.
func TestArgsInlineSizes(t *testing.T) {
	if got := unsafe.Sizeof(Args{}); got != 216 {
		t.Errorf("Args is %d bytes; newArgs's sizes assume 216", got)
	}
	for _, tc := range []struct {
		got, want uintptr
	}{
		{unsafe.Sizeof(argsWith[[24]byte]{}), 240},
		{unsafe.Sizeof(argsWith[[40]byte]{}), 256},
		{unsafe.Sizeof(argsWith[[72]byte]{}), 288},
		{unsafe.Sizeof(argsWith[[104]byte]{}), 320},
		{unsafe.Sizeof(argsWith[[136]byte]{}), 352},
		{unsafe.Sizeof(argsWith[[argsInline]byte]{}), 384},
	} {
		if tc.got != tc.want {
			t.Errorf("size %d, want %d", tc.got, tc.want)
		}
	}
	if !reflect.DeepEqual(argsView(newArgs(nil), nil), argsView(new(Args), nil)) {
		t.Error("newArgs(nil) differs from a zero Args")
	}
}
