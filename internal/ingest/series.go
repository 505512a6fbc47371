package ingest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/wardhq/ward/internal/rollback"
	"github.com/wardhq/ward/internal/store"
)

// Daily samples for causal rollback: figures read from the chain once a
// day (catalog.Sample), kept in Config.State, one row per figure and day,
// and turned into rollback series by RollbackSeries.

// MaxSeriesNames bounds the figures per sample; names are 1..64 bytes of
// [a-z0-9_].
const MaxSeriesNames = store.MaxSampleFigures

// maxSeriesName is the longest figure name.
const maxSeriesName = store.MaxSampleName

// The names RollbackSeries reads.
const (
	seriesPortfolio = "portfolio_usd"
	seriesETH       = "eth_usd"
	seriesTVL       = "tvl_usd"
	seriesGas       = "gas_gwei"
)

// volatilityWindow is the number of daily ETH returns the volatility
// factor's rolling standard deviation covers.
const volatilityWindow = 7

// Errors of RecordSample's checks, wrapped with the offending name.
var (
	ErrSampleName  = errors.New("invalid sample name")
	ErrSampleValue = errors.New("sample value is not finite")
	ErrSampleSize  = errors.New("invalid number of sample figures")
)

// ErrNoState is wrapped by RecordSample's and Samples' errors when the pipeline
// has no state store.
var ErrNoState = errors.New("no state store is configured")

// ErrShortSeries is returned by RollbackSeries when the run of samples
// is too short for rollback (three daily returns, four days).
var ErrShortSeries = errors.New("ingest: too few consecutive daily samples for rollback")

// DaySample is the sample of one UTC day.
type DaySample struct {
	Day    time.Time          `json:"day"`
	Values map[string]float64 `json:"values"`
}

// RecordSample durably stores v as the sample of at's UTC day (the last
// sample of a day replaces earlier ones), keeping the latest
// MaxRollbackDays days, in one write of the State. An empty sample, more
// than MaxSeriesNames figures, a bad name (ErrSampleSize, ErrSampleName)
// or a value that is not finite (ErrSampleValue) is refused and changes
// nothing. It is safe for concurrent use, by any number of processes.
func (p *Pipeline) RecordSample(ctx context.Context, at time.Time, v map[string]float64) error {
	if p.cfg.State == nil {
		return fmt.Errorf("ingest: record sample: %w", ErrNoState)
	}
	if err := checkSample(v); err != nil {
		return fmt.Errorf("ingest: record sample: %w", err)
	}
	if err := p.cfg.State.PutSample(ctx, store.Sample{Day: utcDay(at), Values: maps.Clone(v)}, MaxRollbackDays); err != nil {
		return fmt.Errorf("ingest: record sample: %w", err)
	}
	return nil
}

// Samples returns the recorded daily samples, oldest first (none before
// the first RecordSample).
func (p *Pipeline) Samples(ctx context.Context) ([]DaySample, error) {
	if p.cfg.State == nil {
		return nil, fmt.Errorf("ingest: samples: %w", ErrNoState)
	}
	ss, err := p.cfg.State.Samples(ctx)
	if err != nil {
		return nil, fmt.Errorf("ingest: samples: %w", err)
	}
	out := make([]DaySample, len(ss))
	for i, s := range ss {
		out[i] = DaySample{Day: utcDay(s.Day), Values: s.Values}
	}
	return out, nil
}

// checkSample checks a sample's size, names and values.
func checkSample(v map[string]float64) error {
	if len(v) == 0 || len(v) > MaxSeriesNames {
		return fmt.Errorf("%w: %d, want 1 to %d", ErrSampleSize, len(v), MaxSeriesNames)
	}
	for k, x := range v {
		if !store.SampleName(k) {
			return fmt.Errorf("%w: %.64q (want 1 to %d bytes of a-z, 0-9 and _)", ErrSampleName, k, maxSeriesName)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%w: %s", ErrSampleValue, k)
		}
	}
	return nil
}

func utcDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// RollbackSeries turns daily samples into rollback series. It takes the
// run of consecutive UTC days that ends at the last sample with a
// positive portfolio_usd and reaches back as far as every day has one.
// Returns are the run's daily relative changes of portfolio_usd
// (0.01 is 1%); days[i] is the day of Returns[i] (the run's second day
// onwards). The factors, each kept only when its figure is present (and
// positive) on every day of the run, are "eth" (the daily ETH return from
// eth_usd), "tvl" (the daily relative change of tvl_usd), "gas" (the
// daily log change of gas_gwei) and "volatility" (with eth: the
// population standard deviation of the ETH returns of the last 7 days of
// the run, or of those there are at its start). Samples may be in any
// order; two for one day are an error. A run with fewer than 3 returns
// is ErrShortSeries.
func RollbackSeries(samples []DaySample) (returns []float64, factors []rollback.Factor, days []time.Time, err error) {
	ss := slices.Clone(samples)
	for i := range ss {
		ss[i].Day = utcDay(ss[i].Day)
	}
	slices.SortStableFunc(ss, func(a, b DaySample) int { return a.Day.Compare(b.Day) })
	for i := 1; i < len(ss); i++ {
		if ss[i].Day.Equal(ss[i-1].Day) {
			return nil, nil, nil, fmt.Errorf("ingest: rollback series: two samples for %s", ss[i].Day.Format(time.DateOnly))
		}
	}
	end := len(ss) - 1
	for end >= 0 && !positive(ss[end], seriesPortfolio) {
		end--
	}
	start := end
	for start > 0 && positive(ss[start-1], seriesPortfolio) && ss[start].Day.Sub(ss[start-1].Day) == 24*time.Hour {
		start--
	}
	run := ss[max(start, 0) : end+1]
	if len(run)-1 < 3 {
		return nil, nil, nil, fmt.Errorf("%w: %d daily returns from %d consecutive days with %s, want at least 3",
			ErrShortSeries, max(len(run)-1, 0), len(run), seriesPortfolio)
	}
	returns = changes(run, seriesPortfolio, relChange)
	for _, d := range run[1:] {
		days = append(days, d.Day)
	}
	eth := changes(run, seriesETH, relChange)
	for _, f := range []rollback.Factor{
		{Name: "eth", Values: eth},
		{Name: "tvl", Values: changes(run, seriesTVL, relChange)},
		{Name: "gas", Values: changes(run, seriesGas, logChange)},
		{Name: "volatility", Values: rollingStd(eth, volatilityWindow)},
	} {
		if f.Values != nil {
			factors = append(factors, f)
		}
	}
	return returns, factors, days, nil
}

func positive(s DaySample, name string) bool {
	v, ok := s.Values[name]
	return ok && v > 0
}

func relChange(a, b float64) float64 { return b/a - 1 }

func logChange(a, b float64) float64 { return math.Log(b / a) }

// changes returns change(previous, next) of the figure over the run, or
// nil when a day of the run lacks a positive value of it.
func changes(run []DaySample, name string, change func(a, b float64) float64) []float64 {
	for _, s := range run {
		if !positive(s, name) {
			return nil
		}
	}
	out := make([]float64, len(run)-1)
	for i := range out {
		out[i] = change(run[i].Values[name], run[i+1].Values[name])
	}
	return out
}

// rollingStd returns, for each i, the population standard deviation of
// xs[i-window+1 .. i] (clipped at the start); nil for nil xs.
func rollingStd(xs []float64, window int) []float64 {
	if xs == nil {
		return nil
	}
	out := make([]float64, len(xs))
	for i := range xs {
		w := xs[max(0, i-window+1) : i+1]
		var mean float64
		for _, x := range w {
			mean += x
		}
		mean /= float64(len(w))
		var ss float64
		for _, x := range w {
			ss += (x - mean) * (x - mean)
		}
		out[i] = math.Sqrt(ss / float64(len(w)))
	}
	return out
}
