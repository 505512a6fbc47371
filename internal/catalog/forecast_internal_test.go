package catalog

import (
	"math"
	"math/big"
	"testing"
)

// TestNextBaseFee checks EIP-1559's rule against values worked by hand
// (gas limit 30M, target 15M).
func TestNextBaseFee(t *testing.T) {
	gwei := big.NewInt(1_000_000_000)
	for _, c := range []struct {
		name        string
		base        *big.Int
		used, limit uint64
		want        int64
	}{
		{"at target", gwei, 15_000_000, 30_000_000, 1_000_000_000},
		{"full block: +1/8", gwei, 30_000_000, 30_000_000, 1_125_000_000},
		{"empty block: -1/8", gwei, 0, 30_000_000, 875_000_000},
		// 1e9 · 5M/15M = 333333333, /8 = 41666666.
		{"a third below target", gwei, 10_000_000, 30_000_000, 958_333_334},
		// 7 · 5M/15M / 8 rounds to 0: the rise is at least 1 wei.
		{"tiny base fee rises by 1", big.NewInt(7), 20_000_000, 30_000_000, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := nextBaseFee(c.base, c.used, c.limit); got.Int64() != c.want {
				t.Errorf("nextBaseFee(%v, %d, %d) = %v, want %d", c.base, c.used, c.limit, got, c.want)
			}
		})
	}
}

func TestMedianBig(t *testing.T) {
	xs := []*big.Int{big.NewInt(9), big.NewInt(1), big.NewInt(5), big.NewInt(3)}
	if got := medianBig(xs); got.Int64() != 3 {
		t.Errorf("median of 9,1,5,3 = %v, want 3 (the lower middle)", got)
	}
	if xs[0].Int64() != 9 {
		t.Error("medianBig reordered its input")
	}
}

// TestRangeIL checks the impermanent loss against hand-worked positions.
// Range [0.25, 4] opened at 1: x0 = 1/1 - 1/2 = 0.5, y0 = 1 - 0.5 = 0.5.
func TestRangeIL(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name           string
		p0, p1, pa, pb float64
		want           float64
	}{
		{"full range 4x is the V2 loss", 1, 4, 0, inf, -0.2},
		{"full range unchanged", 2000, 2000, 0, inf, 0},
		// At 4: x = 0, y = 2 - 0.5 = 1.5; hold = 0.5·4 + 0.5 = 2.5.
		{"range, price at the upper bound", 1, 4, 0.25, 4, 1.5/2.5 - 1},
		// At 9 the amounts stay as at 4; hold = 0.5·9 + 0.5 = 5.
		{"range, price above it", 1, 9, 0.25, 4, 1.5/5 - 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := rangeIL(c.p0, c.p1, c.pa, c.pb); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("rangeIL = %v, want %v", got, c.want)
			}
			if c.pb == inf {
				if v2 := impermanentLossV2(c.p1 / c.p0); math.Abs(v2-c.want) > 1e-12 {
					t.Errorf("full range disagrees with the V2 formula: %v", v2)
				}
			}
		})
	}
}

// TestLVRRate checks σ²/8·V at full range, and σ²/4·L√P in a range: at
// P = 1 in [0.25, 4] one unit of liquidity is worth 0.5 + 0.5 = 1, so
// V = 1000 is L = 1000 and LVR = 0.64/4 · 1000 = 160.
func TestLVRRate(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name              string
		v, p, pa, pb, sig float64
		want              float64
	}{
		{"full range", 1000, 2000, 0, inf, 0.8, 80},
		{"full range at another price", 1000, 1, 0, inf, 0.8, 80},
		{"range in range", 1000, 1, 0.25, 4, 0.8, 160},
		{"out of range", 1000, 5, 0.25, 4, 0.8, 0},
		{"no volatility", 1000, 1, 0, inf, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := lvrRate(c.v, c.p, c.pa, c.pb, c.sig); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("lvrRate = %v, want %v", got, c.want)
			}
		})
	}
}

// TestRealisedVolatility: log returns +0.1 and -0.1 over a hundredth of
// a year: variance 0.02 / 0.01 = 2 a year, volatility √2.
func TestRealisedVolatility(t *testing.T) {
	span := int64(secondsPerYear / 100)
	got, err := realisedVolatility([]float64{1, math.Exp(0.1), 1}, []int64{0, span / 2, span})
	if err != nil || math.Abs(got-math.Sqrt2) > 1e-9 {
		t.Errorf("realisedVolatility = %v, %v; want √2", got, err)
	}
	if _, err := realisedVolatility([]float64{1, 2}, []int64{0, 1}); err == nil {
		t.Error("two points were accepted")
	}
	if _, err := realisedVolatility([]float64{1, 2, 3}, []int64{5, 5, 5}); err == nil {
		t.Error("points spanning no time were accepted")
	}
}

// TestClassifyRegime checks the fixed thresholds on hand-made series
// spanning a year (so the variance is annual as it stands).
func TestClassifyRegime(t *testing.T) {
	year := int64(secondsPerYear)
	ts := func(n int) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = year * int64(i) / int64(n-1)
		}
		return out
	}
	e := math.Exp
	for _, c := range []struct {
		name   string
		prices []float64
		want   string
		er     float64
	}{
		// Three steps of +0.05: ER 1, move 0.15, variance 0.0075: σ ≈ 0.087.
		{"steady rise", []float64{1, e(0.05), e(0.10), e(0.15)}, "trend_up", 1},
		{"steady fall", []float64{1, e(-0.05), e(-0.10), e(-0.15)}, "trend_down", 1},
		// +0.05, -0.05, +0.05: ER 0.05/0.15 = 1/3.
		{"back and forth", []float64{1, e(0.05), 1, e(0.05)}, "range", 1.0 / 3},
		// Steps of ±0.7: variance 1.47 a year, σ ≈ 1.21 > 1.
		{"wild", []float64{1, e(0.7), 1, e(0.7)}, "volatile", 1.0 / 3},
		// One direction but only 1.5% in all: too small a move for a trend.
		{"small drift", []float64{1, e(0.005), e(0.010), e(0.015)}, "range", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := classifyRegime(c.prices, ts(len(c.prices)))
			if err != nil || g.Regime != c.want || math.Abs(g.ER-c.er) > 1e-9 {
				t.Errorf("classifyRegime = %+v, %v; want %s with ER %v", g, err, c.want, c.er)
			}
		})
	}
}
