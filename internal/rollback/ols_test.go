package rollback

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestLeastSquaresRecoversBetas(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	want := []float64{0.001, -0.004, 1.1, 0.25, -0.01}
	n := 400
	cols := make([][]float64, len(want))
	for j := range cols {
		cols[j] = make([]float64, n)
	}
	y := make([]float64, n)
	for i := range n {
		cols[0][i] = 1
		if i >= n/2 {
			cols[1][i] = 1
		}
		cols[2][i] = 0.03 * r.NormFloat64()
		cols[3][i] = 0.6*cols[2][i] + 0.01*r.NormFloat64() // correlated with the first factor
		cols[4][i] = 0.5 + 0.05*r.NormFloat64()            // a level, nearly collinear with the intercept
	}
	for _, tc := range []struct {
		name  string
		noise float64
		tol   []float64
	}{
		{"exact", 0, []float64{1e-8, 1e-8, 1e-8, 1e-8, 1e-8}},
		{"noisy", 0.005, []float64{0.01, 0.002, 0.05, 0.1, 0.02}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range n {
				y[i] = tc.noise * r.NormFloat64()
				for j, b := range want {
					y[i] += b * cols[j][i]
				}
			}
			fit, err := leastSquares(cols, y)
			if err != nil {
				t.Fatal(err)
			}
			for j, b := range want {
				if got := fit.coef[j]; math.Abs(got-b) > tc.tol[j] {
					t.Errorf("coefficient %d = %v, want %v ± %v", j, got, b, tc.tol[j])
				}
			}
		})
	}
}

func TestLeastSquaresRankDeficient(t *testing.T) {
	// Two identical columns and a zero column: the ridge splits the first
	// evenly and zeroes the second.
	x := []float64{1, 2, 3, 4, 5}
	y := []float64{2, 4, 6, 8, 10}
	fit, err := leastSquares([][]float64{x, x, make([]float64, 5)}, y)
	if err != nil {
		t.Fatal(err)
	}
	if c := fit.coef; math.Abs(c[0]-1) > 1e-6 || math.Abs(c[1]-1) > 1e-6 || c[2] != 0 {
		t.Errorf("coefficients = %v, want [1 1 0]", c)
	}
}

func TestLeastSquaresInverseForm(t *testing.T) {
	// For an intercept alone, (XᵀX)⁻¹ = 1/n.
	fit, err := leastSquares([][]float64{{1, 1, 1, 1}}, []float64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := fit.coef[0]; math.Abs(got-2.5) > 1e-9 {
		t.Errorf("mean = %v, want 2.5", got)
	}
	if got := fit.inverseForm([]float64{1}); math.Abs(got-0.25) > 1e-6 {
		t.Errorf("inverse form = %v, want 0.25", got)
	}
	// Two orthogonal columns: diag(1/|x₁|², 1/|x₂|²).
	fit, err = leastSquares([][]float64{{1, 1, 1, 1}, {1, -1, 1, -1}}, []float64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := fit.inverseForm([]float64{2, 4}); math.Abs(got-(4.0/4+16.0/4)) > 1e-6 {
		t.Errorf("inverse form = %v, want 5", got)
	}
}

func TestLeastSquaresInvalid(t *testing.T) {
	for _, tc := range []struct {
		name string
		cols [][]float64
		y    []float64
	}{
		{"no observations", [][]float64{{}}, nil},
		{"short column", [][]float64{{1, 2}}, []float64{1, 2, 3}},
		{"infinite column", [][]float64{{1, math.Inf(1), 3}}, []float64{1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := leastSquares(tc.cols, tc.y); !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}
