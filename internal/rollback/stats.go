package rollback

import (
	"fmt"
	"math"
	"slices"
)

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// stddev is the sample standard deviation (n − 1 in the denominator); it
// is 0 for fewer than two values.
func stddev(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	m := mean(x)
	var s float64
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

// Sharpe returns the daily Sharpe ratio of a series of daily returns (or
// residuals): its mean divided by its sample standard deviation, with no
// risk-free rate and no annualisation (multiply by √365 for an annual
// figure on a market that trades every day). It fails with ErrDegenerate
// for fewer than two values or a series with no variance, and with
// ErrInvalid for a value that is not finite.
func Sharpe(x []float64) (float64, error) {
	if err := finite(x); err != nil {
		return 0, fmt.Errorf("sharpe: %w", err)
	}
	if len(x) < 2 {
		return 0, fmt.Errorf("sharpe: %w: %d values, need 2", ErrDegenerate, len(x))
	}
	sd := stddev(x)
	if sd == 0 || constant(x) {
		return 0, fmt.Errorf("sharpe: %w: no variance", ErrDegenerate)
	}
	return mean(x) / sd, nil
}

// constant reports whether every value of x equals the first. (The
// computed standard deviation of equal values need not be exactly 0.)
func constant(x []float64) bool {
	return !slices.ContainsFunc(x, func(v float64) bool { return v != x[0] })
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// normalCDF is Φ(x), the standard normal distribution function.
func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func finite(x []float64) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: value %d is %v", ErrInvalid, i, v)
		}
	}
	return nil
}
