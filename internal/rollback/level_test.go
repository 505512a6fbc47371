package rollback

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestFilterLevelConstantLevel(t *testing.T) {
	// With q = 0 the local level is a constant: the filter's level is the
	// sample mean and its variance σ²/n, σ² the sample variance.
	y := []float64{1, 3, 2, 4, 0, 2}
	f := filterLevel(y, 0)
	n := float64(len(y))
	if want := mean(y); math.Abs(f.Level-want) > 1e-12 {
		t.Errorf("level = %v, want the mean %v", f.Level, want)
	}
	if want := stddev(y) * stddev(y); math.Abs(f.NoiseVar-want) > 1e-12 {
		t.Errorf("noise variance = %v, want the sample variance %v", f.NoiseVar, want)
	}
	if want := f.NoiseVar / n; math.Abs(f.StateVar-want) > 1e-12 {
		t.Errorf("state variance = %v, want σ²/n = %v", f.StateVar, want)
	}
	if f.LevelVar != 0 {
		t.Errorf("level variance = %v, want 0", f.LevelVar)
	}
}

func TestLevelForecastPureLocalLevel(t *testing.T) {
	// A simulated local level with σ_η = σ_ε: the filter's last level is
	// close to the true one, and the forecast variance has the closed form.
	r := rand.New(rand.NewPCG(3, 4))
	const n = 300
	y, mu := make([]float64, n), make([]float64, n+1)
	for i := range n {
		y[i] = mu[i] + r.NormFloat64()
		mu[i+1] = mu[i] + r.NormFloat64()
	}
	f := filterLevel(y, 1)
	// The steady-state predicted variance of the local level with q = 1 is
	// P = q(1+√(1+4/q))/2 = (1+√5)/2 in units of σ²_ε.
	if p := f.StateVar / f.NoiseVar; math.Abs(p-(1+math.Sqrt(5))/2) > 1e-6 {
		t.Errorf("steady state P/σ²_ε = %v, want the golden ratio", p)
	}
	if d := math.Abs(f.Level - mu[n]); d > 4*math.Sqrt(f.StateVar) {
		t.Errorf("level %v, true %v: off by %v, more than 4 sd", f.Level, mu[n], d)
	}
	for _, h := range []int{1, 2, 5} {
		m, v := f.forecastSum(h)
		hf := float64(h)
		var walk float64
		for j := 1; j < h; j++ {
			walk += float64((h - j) * (h - j))
		}
		if want := hf * f.Level; math.Abs(m-want) > 1e-12 {
			t.Errorf("h=%d: mean %v, want %v", h, m, want)
		}
		if want := hf*hf*f.StateVar + walk*f.LevelVar + hf*f.NoiseVar; math.Abs(v-want) > 1e-12 {
			t.Errorf("h=%d: variance %v, want %v", h, v, want)
		}
	}
	if _, v := f.forecastSum(1); math.Abs(v-(f.StateVar+f.NoiseVar)) > 1e-12 {
		t.Errorf("one-step variance %v, want P + σ²_ε = %v", v, f.StateVar+f.NoiseVar)
	}
}

func TestFitLevel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	t.Run("white noise keeps a nearly constant level", func(t *testing.T) {
		y := make([]float64, 60)
		for i := range y {
			y[i] = 0.01 * r.NormFloat64()
		}
		f, err := fitLevel(y)
		if err != nil {
			t.Fatal(err)
		}
		if q := f.LevelVar / f.NoiseVar; q > 1e-2 {
			t.Errorf("q = %v, want at most 1e-2 for white noise", q)
		}
		if math.Abs(f.Level-mean(y)) > 0.005 {
			t.Errorf("level %v, want near the mean %v", f.Level, mean(y))
		}
	})
	t.Run("a long random walk overcomes the prior", func(t *testing.T) {
		const n = 2000
		y := make([]float64, n)
		var mu float64
		for i := range y {
			y[i] = mu + r.NormFloat64()
			mu += r.NormFloat64()
		}
		f, err := fitLevel(y)
		if err != nil {
			t.Fatal(err)
		}
		if q := f.LevelVar / f.NoiseVar; q < 0.1 {
			t.Errorf("q = %v, want the walk recognised (≥ 0.1; true 1)", q)
		}
	})
	t.Run("constant series", func(t *testing.T) {
		f, err := fitLevel([]float64{0.002, 0.002, 0.002})
		if err != nil {
			t.Fatal(err)
		}
		if f.Level != 0.002 || f.NoiseVar != 0 || f.StateVar != 0 {
			t.Errorf("fit = %+v, want level 0.002 with no variance", f)
		}
	})
	t.Run("too short", func(t *testing.T) {
		if _, err := fitLevel([]float64{1}); !errors.Is(err, ErrDegenerate) {
			t.Errorf("err = %v, want ErrDegenerate", err)
		}
	})
	t.Run("not finite", func(t *testing.T) {
		if _, err := fitLevel([]float64{1, math.NaN(), 2}); !errors.Is(err, ErrInvalid) {
			t.Errorf("err = %v, want ErrInvalid", err)
		}
	})
}

func TestCounterfactualCalibration(t *testing.T) {
	// On white noise the counterfactual rolls back about 5 % of the time
	// at the 0.95 threshold: a little more with a short baseline, where
	// the normal approximation ignores the uncertainty of σ̂².
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		baseline int
		max      float64
	}{{7, 0.10}, {20, 0.08}, {40, 0.08}} {
		const runs = 2000
		fp := 0
		for range runs {
			y := make([]float64, tc.baseline+30)
			for i := range y {
				y[i] = r.NormFloat64()
			}
			cf, err := counterfactual(y[:tc.baseline], y[tc.baseline:], 0)
			if err != nil {
				t.Fatal(err)
			}
			if cf.ProbNegative > CounterfactualProbability {
				fp++
			}
		}
		if rate := float64(fp) / runs; rate > tc.max || rate < 0.02 {
			t.Errorf("baseline %d: false rollback rate %.3f, want in [0.02, %.2f]", tc.baseline, rate, tc.max)
		}
	}
}
