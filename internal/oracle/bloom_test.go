package oracle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"testing"
)

func TestNewBloomDefaults(t *testing.T) {
	b, err := NewBloom(DefaultItems, DefaultFPR)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Bits() / 8; got < 4000 || got > 4200 {
		t.Errorf("default filter is %d bytes, want about 4 KB", got)
	}
	if got := b.Hashes(); got != 7 {
		t.Errorf("default filter has %d hashes, want 7", got)
	}
}

func TestNewBloomRejects(t *testing.T) {
	for _, tc := range []struct {
		n int
		p float64
	}{{0, 0.01}, {-1, 0.01}, {10, 0}, {10, 1}, {10, math.NaN()}, {100_000_000, 0.0001}} {
		if _, err := NewBloom(tc.n, tc.p); err == nil {
			t.Errorf("NewBloom(%d, %v) succeeded, want an error", tc.n, tc.p)
		}
	}
}

func TestBloomFalsePositiveRate(t *testing.T) {
	b, err := NewBloom(DefaultItems, DefaultFPR)
	if err != nil {
		t.Fatal(err)
	}
	for i := range DefaultItems {
		b.Add(fmt.Appendf(nil, "member-%d", i))
	}
	for i := range DefaultItems {
		if !b.Has(fmt.Appendf(nil, "member-%d", i)) {
			t.Fatalf("false negative for member %d", i)
		}
	}
	const trials = 100_000
	fp := 0
	for i := range trials {
		if b.Has(fmt.Appendf(nil, "stranger-%d", i)) {
			fp++
		}
	}
	rate := float64(fp) / trials
	t.Logf("measured FPR %.4f, estimated %.4f", rate, b.EstimatedFPR())
	if rate > 0.02 {
		t.Errorf("false positive rate %.4f over %d non-members, want at most 0.02", rate, trials)
	}
	if est := b.EstimatedFPR(); math.Abs(est-rate) > 0.01 {
		t.Errorf("EstimatedFPR %.4f, measured %.4f: want within 0.01", est, rate)
	}
}

func TestBloomMerge(t *testing.T) {
	a, _ := NewBloom(100, 0.01)
	b, _ := NewBloom(100, 0.01)
	a.Add([]byte("a"))
	b.Add([]byte("b"))
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	if !a.Has([]byte("a")) || !a.Has([]byte("b")) {
		t.Error("merged filter lost a member")
	}
	if a.Count() != 2 {
		t.Errorf("Count = %d, want 2", a.Count())
	}
	other, _ := NewBloom(1000, 0.01)
	if err := a.Merge(other); !errors.Is(err, ErrMismatch) {
		t.Errorf("Merge of another size: err = %v, want ErrMismatch", err)
	}
	if err := a.Merge(nil); !errors.Is(err, ErrMismatch) {
		t.Errorf("Merge(nil): err = %v, want ErrMismatch", err)
	}
}

func TestBloomBinaryRoundTrip(t *testing.T) {
	b, _ := NewBloom(500, 0.01)
	for i := range 500 {
		b.Add(fmt.Appendf(nil, "%d", i))
	}
	data, err := b.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Bloom
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if got.Bits() != b.Bits() || got.Hashes() != b.Hashes() || got.Count() != b.Count() {
		t.Errorf("round trip: m=%d k=%d n=%d, want m=%d k=%d n=%d", got.Bits(), got.Hashes(), got.Count(), b.Bits(), b.Hashes(), b.Count())
	}
	for i := range 500 {
		if !got.Has(fmt.Appendf(nil, "%d", i)) {
			t.Fatalf("round trip lost member %d", i)
		}
	}
}

func TestBloomUnmarshalRejects(t *testing.T) {
	b, _ := NewBloom(100, 0.01)
	good, _ := b.MarshalBinary()
	edit := func(f func([]byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"short header", good[:10]},
		{"truncated body", good[:len(good)-1]},
		{"trailing byte", append(append([]byte(nil), good...), 0)},
		{"oversized", make([]byte, bloomHeaderSize+MaxFilterBytes+8)},
		{"wrong magic", edit(func(d []byte) []byte { d[0] = 'X'; return d })},
		{"version", edit(func(d []byte) []byte { binary.BigEndian.PutUint16(d[4:], 9); return d })},
		{"zero hashes", edit(func(d []byte) []byte { binary.BigEndian.PutUint16(d[6:], 0); return d })},
		{"too many hashes", edit(func(d []byte) []byte { binary.BigEndian.PutUint16(d[6:], 99); return d })},
		{"bits not a word multiple", edit(func(d []byte) []byte { binary.BigEndian.PutUint64(d[8:], 100); return d })},
		{"zero bits", edit(func(d []byte) []byte { binary.BigEndian.PutUint64(d[8:], 0); return d })},
		{"bits disagree with body", edit(func(d []byte) []byte { binary.BigEndian.PutUint64(d[8:], 64); return d })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target, _ := NewBloom(10, 0.5)
			target.Add([]byte("kept"))
			err := target.UnmarshalBinary(tc.data)
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("err = %v, want ErrMalformed", err)
			}
			if !target.Has([]byte("kept")) || target.Bits() == b.Bits() {
				t.Error("failed UnmarshalBinary changed the filter")
			}
		})
	}
}

func FuzzBloomUnmarshal(f *testing.F) {
	b, _ := NewBloom(10, 0.01)
	b.Add([]byte("x"))
	good, _ := b.MarshalBinary()
	f.Add(good)
	f.Add([]byte("WBLM"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got Bloom
		if err := got.UnmarshalBinary(data); err != nil {
			return
		}
		again, err := got.MarshalBinary()
		if err != nil || string(again) != string(data) {
			t.Fatalf("accepted input does not re-encode to itself")
		}
		got.Has([]byte("x"))
	})
}
