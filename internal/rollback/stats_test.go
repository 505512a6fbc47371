package rollback

import (
	"errors"
	"math"
	"testing"
)

func TestSharpe(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    []float64
		want float64
		err  error
	}{
		{"positive", []float64{0.01, 0.03}, 0.02 / math.Sqrt(0.0002), nil},
		{"negative", []float64{-0.02, 0, -0.04}, -0.02 / 0.02, nil},
		{"zero mean", []float64{1, -1, 1, -1}, 0, nil},
		{"one value", []float64{0.01}, 0, ErrDegenerate},
		{"no variance", []float64{0.01, 0.01, 0.01}, 0, ErrDegenerate},
		{"NaN", []float64{0.01, math.NaN()}, 0, ErrInvalid},
		{"infinite", []float64{math.Inf(-1), 0.01}, 0, ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Sharpe(tc.x)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Sharpe(%v) = %v, want %v", tc.x, got, tc.want)
			}
		})
	}
}

func TestMedianAndNormal(t *testing.T) {
	for _, tc := range []struct {
		x    []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.x); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
	for _, tc := range []struct{ x, want float64 }{{0, 0.5}, {1.6448536269514722, 0.95}, {-1.959963984540054, 0.025}} {
		if got := normalCDF(tc.x); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Φ(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}
