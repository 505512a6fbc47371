package embed

import (
	"math"
	"testing"
)

func TestCosine(t *testing.T) {
	tests := []struct {
		name string
		a, b []float32
		want float32
	}{
		{"same direction", []float32{1, 2, 3}, []float32{2, 4, 6}, 1},
		{"opposite", []float32{1, 0}, []float32{-3, 0}, -1},
		{"orthogonal", []float32{1, 0}, []float32{0, 1}, 0},
		{"45 degrees", []float32{1, 0}, []float32{1, 1}, float32(1 / math.Sqrt2)},
		{"zero vector", []float32{0, 0}, []float32{1, 1}, 0},
		{"length mismatch", []float32{1, 0}, []float32{1, 0, 0}, 0},
		{"empty", nil, nil, 0},
		{"odd length", []float32{1, 1, 1, 1, 1}, []float32{1, 1, 1, 1, 1}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Cosine(tc.a, tc.b); math.Abs(float64(got-tc.want)) > 1e-6 {
				t.Errorf("Cosine(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	v := []float32{3, 4}
	Normalize(v)
	if math.Abs(float64(v[0]-0.6)) > 1e-6 || math.Abs(float64(v[1]-0.8)) > 1e-6 {
		t.Errorf("Normalize([3 4]) = %v, want [0.6 0.8]", v)
	}
	z := []float32{0, 0, 0}
	Normalize(z)
	if z[0] != 0 || z[1] != 0 || z[2] != 0 {
		t.Errorf("Normalize(zero) = %v, want zero", z)
	}
}

// FuzzHashedEmbed checks that any text embeds to a unit or zero vector,
// the same way twice, and that observing it does not fail.
func FuzzHashedEmbed(f *testing.F) {
	for _, s := range corpus {
		f.Add(s)
	}
	f.Add("ＬＩＱＵＩＤＩＴＹ \xff\xfe ΣΟΦΙΑ ǅ ß ﬁ 0xdeadbeef")
	f.Add("")
	h := NewHashed(HashedConfig{Dim: 64})
	h.Fit(corpus)
	f.Fuzz(func(t *testing.T, s string) {
		a := embedOne(t, h, s)
		b := embedOne(t, h, s)
		n := dot(a, a)
		if n != 0 && math.Abs(float64(n)-1) > 1e-4 {
			t.Errorf("squared norm = %v, want 0 or 1", n)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("not deterministic at %d: %v != %v", i, a[i], b[i])
			}
		}
		h.Observe(s)
	})
}
