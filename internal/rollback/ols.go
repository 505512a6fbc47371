package rollback

import (
	"fmt"
	"math"
)

// ridge is the relative ridge penalty added to the least-squares problem.
// The columns are scaled to unit norm first, so it is relative to each
// column's own size: it makes a rank-deficient design (a constant factor,
// two identical factors) solvable, with the minimum-norm split between the
// collinear columns, and changes a well-conditioned fit by about 1e-12.
const ridge = 1e-12

// lsFit is a least-squares fit: the coefficients and the triangular factor
// of the scaled design, from which their covariance follows.
type lsFit struct {
	coef  []float64
	r     [][]float64 // columns of the upper-triangular R of the scaled, augmented design
	scale []float64
}

// leastSquares returns the coefficients b that minimise
// |y − Xb|² + ridge·|Sb|² where X is given by its columns and S scales
// each column to unit norm. It solves the augmented system with
// Householder QR rather than the normal equations, so the condition number
// is not squared. Every column must have len(y) values.
func leastSquares(cols [][]float64, y []float64) (lsFit, error) {
	n, p := len(y), len(cols)
	if p == 0 {
		return lsFit{}, nil
	}
	if n == 0 {
		return lsFit{}, fmt.Errorf("least squares: %w: no observations", ErrInvalid)
	}
	m := n + p
	scale := make([]float64, p)
	a := make([][]float64, p)
	for j, c := range cols {
		if len(c) != n {
			return lsFit{}, fmt.Errorf("least squares: %w: column %d has %d values, want %d", ErrInvalid, j, len(c), n)
		}
		s := norm(c)
		if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
			if math.IsInf(s, 0) || math.IsNaN(s) {
				return lsFit{}, fmt.Errorf("least squares: %w: column %d is not finite", ErrInvalid, j)
			}
			s = 1
		}
		scale[j] = s
		col := make([]float64, m)
		for i, v := range c {
			col[i] = v / s
		}
		col[n+j] = math.Sqrt(ridge)
		a[j] = col
	}
	rhs := make([]float64, m)
	copy(rhs, y)

	v := make([]float64, m)
	for k := range p {
		x := a[k][k:]
		nx := norm(x)
		if nx == 0 {
			continue
		}
		alpha := -math.Copysign(nx, x[0])
		hv := v[:len(x)]
		copy(hv, x)
		hv[0] -= alpha
		vv := dot(hv, hv)
		if vv == 0 {
			continue
		}
		for j := k; j < p; j++ {
			householder(a[j][k:], hv, vv)
		}
		householder(rhs[k:], hv, vv)
	}
	b := make([]float64, p)
	for i := p - 1; i >= 0; i-- {
		s := rhs[i]
		for j := i + 1; j < p; j++ {
			s -= a[j][i] * b[j]
		}
		if a[i][i] == 0 {
			return lsFit{}, fmt.Errorf("least squares: %w: singular design", ErrDegenerate)
		}
		b[i] = s / a[i][i]
	}
	for j := range b {
		b[j] /= scale[j]
		if math.IsNaN(b[j]) || math.IsInf(b[j], 0) {
			return lsFit{}, fmt.Errorf("least squares: %w: coefficient %d is not finite", ErrDegenerate, j)
		}
	}
	return lsFit{coef: b, r: a, scale: scale}, nil
}

// inverseForm returns dᵀ(XᵀX)⁻¹d for the fitted design X (with the ridge
// added), so that dᵀ Cov(b) d = σ²·inverseForm(d): it solves Rᵀw = S⁻¹d
// by forward substitution and returns |w|².
func (f lsFit) inverseForm(d []float64) float64 {
	w := make([]float64, len(f.coef))
	for i := range w {
		s := d[i] / f.scale[i]
		for j := range i {
			s -= f.r[i][j] * w[j]
		}
		w[i] = s / f.r[i][i]
	}
	return dot(w, w)
}

// householder applies the Householder reflection I − 2vvᵀ/(vᵀv) to x in place.
func householder(x, v []float64, vv float64) {
	s := 2 * dot(v, x) / vv
	for i := range x {
		x[i] -= s * v[i]
	}
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// norm is the Euclidean norm of x, scaled so that neither very large nor
// very small values overflow or underflow.
func norm(x []float64) float64 {
	var mx float64
	for _, v := range x {
		mx = max(mx, math.Abs(v))
	}
	if mx == 0 || math.IsInf(mx, 0) || math.IsNaN(mx) {
		return mx
	}
	var s float64
	for _, v := range x {
		s += (v / mx) * (v / mx)
	}
	return mx * math.Sqrt(s)
}
