// Package rollback decides whether knowledge from one source caused an
// agent's performance to fall and should be rolled back: seed 001's causal
// rollback (section 7), as a pure function of values.
//
// Decide runs the checks in a fixed order and stops at the first that
// clears the source: source attribution (were the source's entries used at
// all?), factor decomposition (is the drop mostly the market's?), residual
// Sharpe change (is what is left big enough to matter?), and a
// counterfactual, a Bayesian structural time-series forecast of the
// factor-adjusted returns when there are at least MinBaselineDays of
// baseline, a comparison with peer agents otherwise. Every step's numbers
// are recorded in the Decision. The thresholds are the seed's, fixed as
// constants. The formulas are in docs/rollback.md.
//
// The package decides and does nothing else: moving the source's entries
// back to quarantine, lessons, PLAYBOOK reverts, the confidence cascade
// and reputation belong to the caller. It uses the standard library only,
// and every function is safe for concurrent use.
package rollback

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The thresholds of the decision (seed 001, section 7).
const (
	// MarketExplained is the share of the drop in mean daily return that,
	// once explained by factor moves, clears the source.
	MarketExplained = 0.70
	// MinResidualSharpeDelta is the smallest change of the residual daily
	// Sharpe ratio, baseline to post window, that counts.
	MinResidualSharpeDelta = 0.3
	// MinBaselineDays is the baseline needed for the counterfactual; with
	// less, peers decide.
	MinBaselineDays = 7
	// CounterfactualProbability is the posterior probability that the
	// cumulative effect is negative above which the counterfactual rolls
	// back.
	CounterfactualProbability = 0.95
	// PeerSigmas is how many peer standard deviations below the peer
	// median the agent must be for the peer comparison to roll back.
	PeerSigmas = 2.0
	// MinPeers is the fewest peers a peer comparison uses.
	MinPeers = 3
)

// ErrInvalid is wrapped by Decide's errors for malformed input: a value
// that is not finite, series of different lengths, a window out of range.
var ErrInvalid = errors.New("invalid rollback input")

// ErrDegenerate is wrapped by errors for well-formed input the statistics
// cannot use, such as a window of returns with no variance.
var ErrDegenerate = errors.New("degenerate rollback input")

// Factor is one market factor's daily series, aligned with the agent's
// returns: ETH returns for the ETH beta, changes of a TVL index, gas,
// volatility. Use stationary series (returns or changes rather than
// index levels) where the factor trends.
type Factor struct {
	Name   string    `json:"name"`
	Values []float64 `json:"values"`
}

// Influence is one external entry that influenced a decision: the entry and
// its source agent.
type Influence struct {
	EntryID string `json:"entry_id"`
	Source  string `json:"source"`
}

// Record is one decision of the agent on a day (an index into the
// aligned series) with the external entries that influenced it (seed 6.2,
// A/B decision tracking).
type Record struct {
	Day  int         `json:"day"`
	ID   string      `json:"id"`
	Used []Influence `json:"used,omitempty"`
}

// Input is everything Decide looks at. Day i is index i of Returns, of
// every factor's Values and of every peer's series; the baseline is days
// [0, FirstUse) and the post window days [FirstUse, len(Returns)).
type Input struct {
	Returns   []float64   `json:"returns"` // the agent's daily returns
	Factors   []Factor    `json:"factors,omitempty"`
	Decisions []Record    `json:"decisions,omitempty"`
	Source    string      `json:"source"`          // the suspected source agent; compared case-insensitively
	FirstUse  int         `json:"first_use"`       // the first day the source's knowledge was in use
	Peers     [][]float64 `json:"peers,omitempty"` // peer agents' daily returns, not using the source
}

// Reason says which step settled a Decision.
type Reason uint8

// The reasons. The zero Reason is no decision at all.
const (
	Undecided           Reason = iota
	NeverUsed                  // the source influenced no decision in the window
	MarketExplainedDrop        // factor moves explain the drop
	SmallResidualChange        // the residual Sharpe change is below MinResidualSharpeDelta
	Counterfactual             // the counterfactual finds a negative effect: rollback
	PeerComparison             // the agent trails its peers: rollback
	NoEvidence                 // the last check found no effect
)

var reasonNames = [...]string{
	Undecided:           "undecided",
	NeverUsed:           "never_used",
	MarketExplainedDrop: "market_explained",
	SmallResidualChange: "small_residual_change",
	Counterfactual:      "counterfactual",
	PeerComparison:      "peer_comparison",
	NoEvidence:          "no_evidence",
}

func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// MarshalText encodes r as its name.
func (r Reason) MarshalText() ([]byte, error) {
	if int(r) >= len(reasonNames) {
		return nil, fmt.Errorf("rollback: unknown reason %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText decodes a reason name.
func (r *Reason) UnmarshalText(b []byte) error {
	i := slices.Index(reasonNames[:], string(b))
	if i < 0 {
		return fmt.Errorf("rollback: unknown reason %.32q", b)
	}
	*r = Reason(i)
	return nil
}

// Decision is the outcome of Decide with the numbers of every step it ran;
// a step it did not reach is nil. The zero Decision keeps the knowledge.
type Decision struct {
	Rollback       bool                `json:"rollback"`
	Reason         Reason              `json:"reason"`
	Attribution    Attribution         `json:"attribution"`
	Factors        *Decomposition      `json:"factors,omitempty"`
	Residual       *Residual           `json:"residual,omitempty"`
	Counterfactual *CounterfactualStep `json:"counterfactual,omitempty"`
	Peers          *PeerStep           `json:"peers,omitempty"`
}

// Attribution is step a: the decisions of the post window and those the
// source influenced.
type Attribution struct {
	Decisions  int      `json:"decisions"`         // decisions in the post window
	Influenced int      `json:"influenced"`        // of which the source influenced
	Entries    []string `json:"entries,omitempty"` // the source's entries that did, sorted, once each
}

// Decomposition is step b: the regression
//
//	r_t = α + s·post_t + Σ_k β_k f_{k,t} + ε_t
//
// over the whole series, where post_t is 1 in the post window, and the
// share of the drop in mean return that the factors' moves explain.
type Decomposition struct {
	Alpha  float64   `json:"alpha"`
	Step   float64   `json:"step"`  // s, the post-window shift of the agent's own return
	Betas  []float64 `json:"betas"` // β_k in the order of Input.Factors
	R2     float64   `json:"r2"`
	Drop   float64   `json:"drop"`   // mean(r, baseline) − mean(r, post); positive when returns fell
	Market float64   `json:"market"` // −Σ_k β_k·Δf̄_k, the part of the drop the factors' moves explain
	Share  float64   `json:"share"`  // Market/Drop clamped to [0, 1]; 0 when nothing dropped
}

// Residual is step c: the daily Sharpe ratios of the factor-adjusted
// returns r_t − Σ_k β_k (f_{k,t} − f̄_k) in each window, f̄_k the factor's
// baseline mean.
type Residual struct {
	BaselineSharpe float64 `json:"baseline_sharpe"`
	PostSharpe     float64 `json:"post_sharpe"`
	Delta          float64 `json:"delta"` // PostSharpe − BaselineSharpe
}

// CounterfactualStep is step d with a baseline of at least MinBaselineDays:
// a local-level model of the factor-adjusted returns fitted on the
// baseline forecasts the post window; the effect is what was observed
// minus that forecast, summed over the window.
type CounterfactualStep struct {
	NoiseVar     float64 `json:"noise_var"` // σ²_ε of the fitted model
	LevelVar     float64 `json:"level_var"` // σ²_η
	CoefVar      float64 `json:"coef_var"`  // the effect's variance due to the estimated betas
	Days         int     `json:"days"`      // the post window's length
	Effect       float64 `json:"effect"`    // cumulative effect, in return units
	EffectSD     float64 `json:"effect_sd"`
	ProbNegative float64 `json:"prob_negative"` // P(effect < 0), normal approximation
}

// PeerStep is step d with a short baseline: the agent's mean daily return
// over the post window against its peers'.
type PeerStep struct {
	Peers  int     `json:"peers"`
	Agent  float64 `json:"agent"`
	Median float64 `json:"median"`
	SD     float64 `json:"sd"`
	Z      float64 `json:"z"` // (Agent − Median)/SD
}

// Decide runs the causal rollback checks on in and returns the decision.
// It fails with ErrInvalid for malformed input (no returns, a value that
// is not finite, a factor or peer series of another length, a window out
// of range, a negative decision day, an empty source) and with
// ErrDegenerate when a window's residuals have no variance; a failed
// Decide rolls nothing back.
func Decide(in Input) (Decision, error) {
	if err := in.validate(); err != nil {
		return Decision{}, fmt.Errorf("rollback: %w", err)
	}
	var d Decision
	d.Attribution = attribute(in)
	if d.Attribution.Influenced == 0 {
		d.Reason = NeverUsed
		return d, nil
	}
	n, first := len(in.Returns), in.FirstUse
	var adjusted []float64
	var coefVar float64
	if first >= 2 {
		dec, adj, cv, err := decompose(in)
		if err != nil {
			return Decision{}, fmt.Errorf("rollback: factor decomposition: %w", err)
		}
		d.Factors = &dec
		if dec.Share > MarketExplained {
			d.Reason = MarketExplainedDrop
			return d, nil
		}
		res, err := residual(adj, first)
		if err != nil {
			return Decision{}, fmt.Errorf("rollback: residual: %w", err)
		}
		d.Residual = &res
		if math.Abs(res.Delta) < MinResidualSharpeDelta {
			d.Reason = SmallResidualChange
			return d, nil
		}
		adjusted, coefVar = adj, cv
	}
	if first >= MinBaselineDays {
		cf, err := counterfactual(adjusted[:first], adjusted[first:], coefVar)
		if err != nil {
			return Decision{}, fmt.Errorf("rollback: counterfactual: %w", err)
		}
		d.Counterfactual = &cf
		d.Rollback = cf.ProbNegative > CounterfactualProbability
		d.Reason = NoEvidence
		if d.Rollback {
			d.Reason = Counterfactual
		}
		return d, nil
	}
	p := peers(in.Returns[first:n], in.Peers, first)
	d.Peers = &p
	d.Reason = NoEvidence
	if p.Peers >= MinPeers && p.SD > 0 && p.Z < -PeerSigmas {
		d.Rollback, d.Reason = true, PeerComparison
	}
	return d, nil
}

func (in Input) validate() error {
	n := len(in.Returns)
	if n == 0 {
		return fmt.Errorf("%w: no returns", ErrInvalid)
	}
	if err := finite(in.Returns); err != nil {
		return fmt.Errorf("returns: %w", err)
	}
	if strings.TrimSpace(in.Source) == "" {
		return fmt.Errorf("%w: empty source", ErrInvalid)
	}
	if in.FirstUse < 0 || in.FirstUse > n-2 {
		return fmt.Errorf("%w: first use day %d outside [0, %d]: the post window needs 2 days", ErrInvalid, in.FirstUse, n-2)
	}
	for i, f := range in.Factors {
		if len(f.Values) != n {
			return fmt.Errorf("%w: factor %d (%.32q) has %d days, returns have %d", ErrInvalid, i, f.Name, len(f.Values), n)
		}
		if err := finite(f.Values); err != nil {
			return fmt.Errorf("factor %d (%.32q): %w", i, f.Name, err)
		}
	}
	if in.FirstUse >= 2 && n < len(in.Factors)+3 {
		return fmt.Errorf("%w: %d days cannot fit %d factors, an intercept and a step", ErrInvalid, n, len(in.Factors))
	}
	for i, p := range in.Peers {
		if len(p) != n {
			return fmt.Errorf("%w: peer %d has %d days, returns have %d", ErrInvalid, i, len(p), n)
		}
		if err := finite(p); err != nil {
			return fmt.Errorf("peer %d: %w", i, err)
		}
	}
	for _, r := range in.Decisions {
		if r.Day < 0 {
			return fmt.Errorf("%w: decision %.64q on day %d", ErrInvalid, r.ID, r.Day)
		}
	}
	return nil
}

// attribute counts the decisions of the post window and those influenced
// by the source. Decisions outside the post window are not counted.
func attribute(in Input) Attribution {
	var a Attribution
	for _, r := range in.Decisions {
		if r.Day < in.FirstUse || r.Day >= len(in.Returns) {
			continue
		}
		a.Decisions++
		used := false
		for _, u := range r.Used {
			if !strings.EqualFold(u.Source, in.Source) {
				continue
			}
			used = true
			if u.EntryID != "" && !slices.Contains(a.Entries, u.EntryID) {
				a.Entries = append(a.Entries, u.EntryID)
			}
		}
		if used {
			a.Influenced++
		}
	}
	slices.Sort(a.Entries)
	return a
}

// decompose fits the factor regression over the whole series and returns
// it, the variance that the betas' sampling error adds to the post
// window's sum of adjusted returns (σ̂²·dᵀ(XᵀX)⁻¹d with d_k = Σ_post
// (f_{k,t} − f̄_k)), and the factor-adjusted returns r_t − Σ_k β_k (f_{k,t} − f̄_k), f̄_k
// the factor's baseline mean: the returns with the factors' moves since
// the baseline taken out. (Centring matters for the Sharpe ratio: a
// factor that sits at a level, such as volatility, trades off against the
// intercept, and an uncentred adjustment would add an arbitrary constant
// to the residuals' mean.)
func decompose(in Input) (Decomposition, []float64, float64, error) {
	n, first, k := len(in.Returns), in.FirstUse, len(in.Factors)
	cols := make([][]float64, 0, k+2)
	one, step := make([]float64, n), make([]float64, n)
	for i := range n {
		one[i] = 1
		if i >= first {
			step[i] = 1
		}
	}
	cols = append(cols, one, step)
	for _, f := range in.Factors {
		cols = append(cols, f.Values)
	}
	fit, err := leastSquares(cols, in.Returns)
	if err != nil {
		return Decomposition{}, nil, 0, err
	}
	b := fit.coef
	dec := Decomposition{Alpha: b[0], Step: b[1], Betas: b[2:]}

	adj := slices.Clone(in.Returns)
	base := make([]float64, k)
	for j, f := range in.Factors {
		base[j] = mean(f.Values[:first])
	}
	var sse, sst float64
	m := mean(in.Returns)
	for i := range n {
		fit := b[0] + b[1]*step[i]
		for j, f := range in.Factors {
			fit += b[j+2] * f.Values[i]
			adj[i] -= b[j+2] * (f.Values[i] - base[j])
		}
		e := in.Returns[i] - fit
		sse += e * e
		sst += (in.Returns[i] - m) * (in.Returns[i] - m)
	}
	if sst > 0 {
		dec.R2 = 1 - sse/sst
	}

	dec.Drop = mean(in.Returns[:first]) - mean(in.Returns[first:])
	for j, f := range in.Factors {
		dec.Market -= b[j+2] * (mean(f.Values[first:]) - mean(f.Values[:first]))
	}
	if dec.Drop > 0 {
		dec.Share = min(max(dec.Market/dec.Drop, 0), 1)
	}
	d := make([]float64, k+2)
	for j, f := range in.Factors {
		for _, v := range f.Values[first:] {
			d[j+2] += v - base[j]
		}
	}
	coefVar := sse / float64(n-k-2) * fit.inverseForm(d)
	return dec, adj, coefVar, nil
}

func residual(adj []float64, first int) (Residual, error) {
	base, err := Sharpe(adj[:first])
	if err != nil {
		return Residual{}, fmt.Errorf("baseline: %w", err)
	}
	post, err := Sharpe(adj[first:])
	if err != nil {
		return Residual{}, fmt.Errorf("post window: %w", err)
	}
	return Residual{BaselineSharpe: base, PostSharpe: post, Delta: post - base}, nil
}

// counterfactual fits a local-level model on the baseline and compares the
// post window's sum with the model's forecast of it, whose variance is the
// model's plus coefVar, the part due to the estimated betas.
func counterfactual(base, post []float64, coefVar float64) (CounterfactualStep, error) {
	fit, err := fitLevel(base)
	if err != nil {
		return CounterfactualStep{}, err
	}
	want, v := fit.forecastSum(len(post))
	v += coefVar
	var got float64
	for _, x := range post {
		got += x
	}
	cf := CounterfactualStep{
		NoiseVar: fit.NoiseVar,
		LevelVar: fit.LevelVar,
		CoefVar:  coefVar,
		Days:     len(post),
		Effect:   got - want,
		EffectSD: math.Sqrt(v),
	}
	switch {
	case cf.EffectSD > 0:
		cf.ProbNegative = normalCDF(-cf.Effect / cf.EffectSD)
	case cf.Effect < 0:
		cf.ProbNegative = 1
	case cf.Effect == 0:
		cf.ProbNegative = 0.5
	}
	return cf, nil
}

// peers compares the agent's mean return over the post window with the
// peers' over the same days.
func peers(agent []float64, all [][]float64, first int) PeerStep {
	means := make([]float64, len(all))
	for i, p := range all {
		means[i] = mean(p[first:])
	}
	s := PeerStep{Peers: len(all), Agent: mean(agent), Median: median(means), SD: stddev(means)}
	if s.SD > 0 {
		s.Z = (s.Agent - s.Median) / s.SD
	}
	return s
}
