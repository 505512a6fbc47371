package rollback

import (
	"fmt"
	"math"
)

// levelRatios is the grid of signal-to-noise ratios q = σ²_level/σ²_noise
// searched by fitLevel: 10^-6 … 10^1 in steps of 10^0.2.
var levelRatios = func() []float64 {
	var qs []float64
	for i := 0; i <= 35; i++ {
		qs = append(qs, math.Pow(10, -6+0.2*float64(i)))
	}
	return qs
}()

// The prior on the level's variance is CausalImpact's default
// (Brodersen et al., 2015; the R package's prior.level.sd = 0.01): an
// inverse gamma on σ²_η worth levelPriorN observations with its guess at
// (levelPriorSD·sd(y))². It keeps a short baseline's noise from being
// read as a wandering level, whose random walk would make any long
// forecast uninformative.
const (
	levelPriorSD = 0.01
	levelPriorN  = 32
)

// levelFit is a local-level model y_t = μ_t + ε_t, μ_{t+1} = μ_t + η_t,
// ε ~ N(0, NoiseVar), η ~ N(0, LevelVar), fitted to a series by maximum
// likelihood, with the one-step-ahead state after its last observation.
type levelFit struct {
	NoiseVar float64 // σ²_ε
	LevelVar float64 // σ²_η
	Level    float64 // E[μ_{T+1} | y_1..y_T]
	StateVar float64 // Var[μ_{T+1} | y_1..y_T]
	LogLik   float64 // concentrated log-likelihood, up to a constant
}

// fitLevel fits a local-level model to y: the ratio q = σ²_η/σ²_ε is
// chosen from levelRatios to maximise the concentrated likelihood (σ²_ε
// concentrated out) plus the log prior density of σ²_η = q·σ̂²_ε, the
// posterior mode on the grid. The initial level is diffuse, so the first
// observation only initialises the filter (Durbin & Koopman, 2012,
// §2.10). It needs two observations.
func fitLevel(y []float64) (levelFit, error) {
	if len(y) < 2 {
		return levelFit{}, fmt.Errorf("local level: %w: %d observations, need 2", ErrDegenerate, len(y))
	}
	if err := finite(y); err != nil {
		return levelFit{}, fmt.Errorf("local level: %w", err)
	}
	if constant(y) {
		// A constant series: every ratio fits it exactly with no noise.
		return levelFit{Level: y[0]}, nil
	}
	shape := levelPriorN / 2.0
	guess := levelPriorSD * stddev(y)
	scale := shape * guess * guess
	var best levelFit
	bestScore := math.Inf(-1)
	for _, q := range levelRatios {
		f := filterLevel(y, q)
		score := f.LogLik - (shape+1)*math.Log(f.LevelVar) - scale/f.LevelVar
		if score > bestScore {
			best, bestScore = f, score
		}
	}
	return best, nil
}

// filterLevel runs the Kalman filter of the local-level model with ratio q
// on y in units of σ²_ε, estimates σ²_ε from the standardised
// innovations, and scales the result back. y must not be constant.
func filterLevel(y []float64, q float64) levelFit {
	a, p := y[0], 1+q // predicted state for t = 1 after the diffuse start
	var ss, logF float64
	for _, v := range y[1:] {
		f := p + 1
		e := v - a
		ss += e * e / f
		logF += math.Log(f)
		k := p / f
		a += k * e
		p = p*(1-k) + q
	}
	m := float64(len(y) - 1)
	s2 := ss / m
	return levelFit{NoiseVar: s2, LevelVar: q * s2, Level: a, StateVar: p * s2, LogLik: -0.5 * (m*math.Log(s2) + logF)}
}

// forecastSum returns the mean and variance of the sum of the next h
// observations: h·μ̂ and
// h²·P + σ²_η·Σ_{j=1}^{h−1} (h−j)² + h·σ²_ε,
// the level's uncertainty, the level's random walk over the horizon and
// the observation noise.
func (f levelFit) forecastSum(h int) (mean, variance float64) {
	hf := float64(h)
	var walk float64
	for j := 1; j < h; j++ {
		d := float64(h - j)
		walk += d * d
	}
	return hf * f.Level, hf*hf*f.StateVar + f.LevelVar*walk + hf*f.NoiseVar
}
