package ingest

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/rollback"
	"github.com/wardhq/ward/internal/store"
)

// seriesDay0 is the first day of the tests' samples.
var seriesDay0 = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)

func seriesDay(i int) time.Time { return seriesDay0.AddDate(0, 0, i) }

// newSeriesHarness is a pipeline with a state store.
func newSeriesHarness(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, knowledge.Standard)
	h.p.cfg.State = h.st
	return h
}

func (h *harness) samples(t *testing.T) []DaySample {
	t.Helper()
	ss, err := h.p.Samples(h.ctx)
	if err != nil {
		t.Fatalf("samples: %v", err)
	}
	return ss
}

// rawSeries is what the store holds of the samples, as text.
func (h *harness) rawSeries(t *testing.T) string {
	t.Helper()
	ss, err := h.st.Samples(h.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(ss)
}

func sameSample(a, b DaySample) bool { return a.Day.Equal(b.Day) && maps.Equal(a.Values, b.Values) }

func TestSeriesRecordAndRead(t *testing.T) {
	h := newSeriesHarness(t)
	if got := h.samples(t); len(got) != 0 {
		t.Fatalf("samples before any record = %v", got)
	}
	nyc := time.FixedZone("UTC-5", -5*3600)
	records := []struct {
		at time.Time
		v  map[string]float64
	}{
		// Recorded out of order; 21:00 at UTC-5 is the next UTC day.
		{seriesDay(2).Add(9 * time.Hour), map[string]float64{"portfolio_usd": 1010.25, "eth_usd": 3000}},
		{seriesDay(0).Add(12 * time.Hour), map[string]float64{"portfolio_usd": 1000, "gas_gwei": 0.000000007}},
		{time.Date(2026, 10, 1, 21, 0, 0, 0, nyc), map[string]float64{"portfolio_usd": 990.5, "tvl_usd": -0.5}},
	}
	for _, r := range records {
		if err := h.p.RecordSample(h.ctx, r.at, r.v); err != nil {
			t.Fatalf("record %v: %v", r.at, err)
		}
	}
	want := []DaySample{
		{seriesDay(0), records[1].v},
		{seriesDay(1), records[2].v},
		{seriesDay(2), records[0].v},
	}
	got := h.samples(t)
	if len(got) != len(want) {
		t.Fatalf("samples = %v, want %v", got, want)
	}
	for i := range want {
		if !sameSample(got[i], want[i]) || got[i].Day.Location() != time.UTC {
			t.Errorf("sample %d = %v, want %v", i, got[i], want[i])
		}
	}
	// The caller's map is copied.
	records[0].v["portfolio_usd"] = 0
	if got := h.samples(t)[2].Values["portfolio_usd"]; got != 1010.25 {
		t.Errorf("a recorded sample changed with the caller's map: %v", got)
	}
}

func TestSeriesLastOfDayWins(t *testing.T) {
	h := newSeriesHarness(t)
	for i, v := range []map[string]float64{{"portfolio_usd": 1, "eth_usd": 2}, {"portfolio_usd": 3}} {
		if err := h.p.RecordSample(h.ctx, seriesDay(4).Add(time.Duration(8+i*12)*time.Hour), v); err != nil {
			t.Fatal(err)
		}
	}
	// An earlier hour recorded later still replaces the day's sample.
	if err := h.p.RecordSample(h.ctx, seriesDay(5).Add(23*time.Hour), map[string]float64{"eth_usd": 9}); err != nil {
		t.Fatal(err)
	}
	if err := h.p.RecordSample(h.ctx, seriesDay(5).Add(time.Hour), map[string]float64{"eth_usd": 10}); err != nil {
		t.Fatal(err)
	}
	got := h.samples(t)
	want := []DaySample{{seriesDay(4), map[string]float64{"portfolio_usd": 3}}, {seriesDay(5), map[string]float64{"eth_usd": 10}}}
	if len(got) != 2 || !sameSample(got[0], want[0]) || !sameSample(got[1], want[1]) {
		t.Errorf("samples = %v, want %v", got, want)
	}
}

func TestSeriesCapped(t *testing.T) {
	h := newSeriesHarness(t)
	for i := range MaxRollbackDays {
		if err := h.st.PutSample(h.ctx, store.Sample{Day: seriesDay(i), Values: map[string]float64{"portfolio_usd": float64(1000 + i)}}, MaxRollbackDays); err != nil {
			t.Fatal(err)
		}
	}
	// A new day drops the oldest.
	if err := h.p.RecordSample(h.ctx, seriesDay(MaxRollbackDays), map[string]float64{"portfolio_usd": 1}); err != nil {
		t.Fatal(err)
	}
	got := h.samples(t)
	if len(got) != MaxRollbackDays || !got[0].Day.Equal(seriesDay(1)) || !got[len(got)-1].Day.Equal(seriesDay(MaxRollbackDays)) {
		t.Fatalf("%d samples from %v to %v, want %d from %v", len(got), got[0].Day, got[len(got)-1].Day, MaxRollbackDays, seriesDay(1))
	}
	// A day older than all the kept ones is the one dropped.
	before := h.rawSeries(t)
	if err := h.p.RecordSample(h.ctx, seriesDay(0), map[string]float64{"portfolio_usd": 1}); err != nil {
		t.Fatal(err)
	}
	if h.rawSeries(t) != before {
		t.Error("a day older than the kept window was kept")
	}
	// Replacing a kept day keeps the count.
	if err := h.p.RecordSample(h.ctx, seriesDay(500), map[string]float64{"eth_usd": 1}); err != nil {
		t.Fatal(err)
	}
	if got := h.samples(t); len(got) != MaxRollbackDays || !sameSample(got[499], DaySample{seriesDay(500), map[string]float64{"eth_usd": 1}}) {
		t.Errorf("after replacing day 500: %d samples, day 500 = %v", len(got), got[499])
	}
}

func TestSeriesRefuses(t *testing.T) {
	h := newSeriesHarness(t)
	if err := h.p.RecordSample(h.ctx, seriesDay(0), map[string]float64{"portfolio_usd": 100}); err != nil {
		t.Fatal(err)
	}
	before := h.rawSeries(t)
	many := map[string]float64{}
	for i := range MaxSeriesNames + 1 {
		many[fmt.Sprintf("f%d", i)] = 1
	}
	atMost := maps.Clone(many)
	delete(atMost, "f0")
	for _, tc := range []struct {
		name string
		v    map[string]float64
		want error
	}{
		{"NaN", map[string]float64{"portfolio_usd": math.NaN()}, ErrSampleValue},
		{"+Inf", map[string]float64{"eth_usd": 1, "portfolio_usd": math.Inf(1)}, ErrSampleValue},
		{"-Inf", map[string]float64{"portfolio_usd": math.Inf(-1)}, ErrSampleValue},
		{"uppercase", map[string]float64{"Portfolio_usd": 1}, ErrSampleName},
		{"space", map[string]float64{"portfolio usd": 1}, ErrSampleName},
		{"dash", map[string]float64{"portfolio-usd": 1}, ErrSampleName},
		{"empty name", map[string]float64{"": 1}, ErrSampleName},
		{"65 bytes", map[string]float64{strings.Repeat("a", 65): 1}, ErrSampleName},
		{"non-ASCII", map[string]float64{"prix_é": 1}, ErrSampleName},
		{"17 names", many, ErrSampleSize},
		{"no names", map[string]float64{}, ErrSampleSize},
		{"nil", nil, ErrSampleSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := h.p.RecordSample(h.ctx, seriesDay(0), tc.v)
			if !errors.Is(err, tc.want) {
				t.Errorf("error = %v, want %v", err, tc.want)
			}
			if got := h.rawSeries(t); got != before {
				t.Errorf("a refused sample changed the store: %s", got)
			}
		})
	}
	t.Run("limits accepted", func(t *testing.T) {
		for _, v := range []map[string]float64{atMost, {strings.Repeat("z", 64): -1, "a_0": 0}} {
			if err := h.p.RecordSample(h.ctx, seriesDay(1), v); err != nil {
				t.Errorf("record %v: %v", v, err)
			}
		}
	})
	t.Run("no state", func(t *testing.T) {
		h2 := newHarness(t, knowledge.Standard)
		if err := h2.p.RecordSample(h2.ctx, seriesDay(0), map[string]float64{"portfolio_usd": 1}); !errors.Is(err, ErrNoState) {
			t.Errorf("record without a state store: %v, want ErrNoState", err)
		}
		if _, err := h2.p.Samples(h2.ctx); !errors.Is(err, ErrNoState) {
			t.Errorf("samples without a state store: %v, want ErrNoState", err)
		}
	})
	t.Run("store failure", func(t *testing.T) {
		if err := h.st.Close(); err != nil {
			t.Fatal(err)
		}
		if err := h.p.RecordSample(h.ctx, seriesDay(2), map[string]float64{"portfolio_usd": 1}); !errors.Is(err, store.ErrClosed) {
			t.Errorf("record on a closed store: %v, want ErrClosed", err)
		}
		if _, err := h.p.Samples(h.ctx); !errors.Is(err, store.ErrClosed) {
			t.Errorf("samples of a closed store: %v, want ErrClosed", err)
		}
	})
}

// Goroutines recording at once lose no day.
func TestSeriesConcurrent(t *testing.T) {
	h := newSeriesHarness(t)
	const writers, days = 6, 8
	var wg sync.WaitGroup
	errs := make(chan error, writers*days)
	for w := range writers {
		wg.Go(func() {
			for d := range days {
				// Every writer also records day 0: one of them wins.
				for _, day := range []int{1 + w*days + d, 0} {
					if err := h.p.RecordSample(h.ctx, seriesDay(day), map[string]float64{"portfolio_usd": float64(w)}); err != nil {
						errs <- err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := h.samples(t)
	if len(got) != 1+writers*days {
		t.Fatalf("%d samples, want %d", len(got), 1+writers*days)
	}
	for i, s := range got {
		if !s.Day.Equal(seriesDay(i)) {
			t.Errorf("sample %d is of %v, want %v", i, s.Day, seriesDay(i))
		}
		if w := (i - 1) / days; i > 0 && s.Values["portfolio_usd"] != float64(w) {
			t.Errorf("day %d = %v, want writer %d's", i, s.Values, w)
		}
	}
}

// daySamples are samples of consecutive days from seriesDay(first).
func daySamples(first int, vs ...map[string]float64) []DaySample {
	out := make([]DaySample, len(vs))
	for i, v := range vs {
		out[i] = DaySample{Day: seriesDay(first + i), Values: v}
	}
	return out
}

func nearAll(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			return false
		}
	}
	return true
}

func factorOf(fs []rollback.Factor, name string) ([]float64, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f.Values, true
		}
	}
	return nil, false
}

func TestRollbackSeriesByHand(t *testing.T) {
	s := daySamples(0,
		map[string]float64{"portfolio_usd": 100, "eth_usd": 2000, "gas_gwei": 10, "tvl_usd": 5e6},
		map[string]float64{"portfolio_usd": 110, "eth_usd": 2200, "gas_gwei": 20, "tvl_usd": 5.5e6},
		// tvl_usd is missing on one day of the run: no tvl factor.
		map[string]float64{"portfolio_usd": 99, "eth_usd": 2200, "gas_gwei": 10},
		map[string]float64{"portfolio_usd": 99, "eth_usd": 1980, "gas_gwei": 10, "tvl_usd": 5e6},
		map[string]float64{"portfolio_usd": 108.9, "eth_usd": 1980, "gas_gwei": 40, "tvl_usd": 5e6},
	)
	// Given newest first: the order of the input does not matter.
	rev := []DaySample{s[4], s[3], s[2], s[1], s[0]}
	returns, factors, days, err := RollbackSeries(rev)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0.1, -0.1, 0, 0.1}; !nearAll(returns, want) {
		t.Errorf("returns = %v, want %v", returns, want)
	}
	if len(days) != 4 || !days[0].Equal(seriesDay(1)) || !days[3].Equal(seriesDay(4)) {
		t.Errorf("days = %v, want days 1 to 4", days)
	}
	ln2 := math.Ln2
	want := map[string][]float64{
		"eth": {0.1, 0, -0.1, 0},
		"gas": {ln2, -ln2, 0, 2 * ln2},
		// Population standard deviation of the ETH returns so far:
		// {0.1}, {0.1, 0}, {0.1, 0, -0.1}, {0.1, 0, -0.1, 0}.
		"volatility": {0, 0.05, math.Sqrt(0.02 / 3), math.Sqrt(0.005)},
	}
	if len(factors) != len(want) {
		t.Errorf("factors = %v, want %d (no tvl)", factors, len(want))
	}
	for name, w := range want {
		if got, ok := factorOf(factors, name); !ok || !nearAll(got, w) {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	if _, ok := factorOf(factors, "tvl"); ok {
		t.Error("tvl factor kept though tvl_usd is missing on a day")
	}
	// With tvl_usd on every day, tvl is the relative change; the
	// series is accepted by rollback.
	s[2].Values = maps.Clone(s[2].Values)
	s[2].Values["tvl_usd"] = 4.4e6
	returns, factors, _, err = RollbackSeries(s)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := factorOf(factors, "tvl"); !ok || !nearAll(got, []float64{0.1, -0.2, 1.0/0.88 - 1, 0}) {
		t.Errorf("tvl = %v", got)
	}
	if _, err := rollback.Decide(rollback.Input{Source: "0x00000000000000000000000000000000000000ab", Returns: returns, Factors: factors, FirstUse: 1}); errors.Is(err, rollback.ErrInvalid) {
		t.Errorf("rollback refuses the series: %v", err)
	}
}

func TestRollbackSeriesVolatilityWindow(t *testing.T) {
	vs := make([]map[string]float64, 10)
	for i := range vs {
		vs[i] = map[string]float64{"portfolio_usd": float64(100 + i), "eth_usd": 3000}
	}
	vs[0]["eth_usd"] = 2000 // the first ETH return is 0.5, the others 0
	_, factors, _, err := RollbackSeries(daySamples(0, vs...))
	if err != nil {
		t.Fatal(err)
	}
	vol, ok := factorOf(factors, "volatility")
	if !ok || len(vol) != 9 {
		t.Fatalf("volatility = %v", vol)
	}
	// Day 7's window (returns 0 to 6) holds the 0.5; day 8's does not.
	if want := 0.5 * math.Sqrt(6) / 7; math.Abs(vol[6]-want) > 1e-12 || vol[7] != 0 || vol[8] != 0 {
		t.Errorf("volatility = %v, want %v then 0", vol, want)
	}
	if _, ok := factorOf(factors, "gas"); ok {
		t.Error("gas factor without gas_gwei")
	}
}

func TestRollbackSeriesRun(t *testing.T) {
	p := func(v float64) map[string]float64 { return map[string]float64{"portfolio_usd": v, "eth_usd": 3000} }
	gap := append(daySamples(0, p(1), p(2), p(3), p(4), p(5)), daySamples(6, p(10), p(11), p(12), p(13))...)
	noPortfolio := append(daySamples(0, p(1), p(2), p(4), p(8), p(16)), DaySample{seriesDay(5), map[string]float64{"eth_usd": 1}})
	zero := daySamples(0, p(7), p(9), p(0), p(1), p(2), p(4), p(8))
	for _, tc := range []struct {
		name    string
		s       []DaySample
		returns []float64
		first   time.Time
	}{
		{"after a gap", gap, []float64{0.1, 12.0/11 - 1, 13.0/12 - 1}, seriesDay(7)},
		{"last day without portfolio", noPortfolio, []float64{1, 1, 1, 1}, seriesDay(1)},
		{"a zero portfolio breaks the run", zero, []float64{1, 1, 1}, seriesDay(4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			returns, _, days, err := RollbackSeries(tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if !nearAll(returns, tc.returns) || len(days) != len(returns) || !days[0].Equal(tc.first) {
				t.Errorf("returns %v from %v, want %v from %v", returns, days, tc.returns, tc.first)
			}
		})
	}
}

func TestRollbackSeriesRefuses(t *testing.T) {
	p := func(v float64) map[string]float64 { return map[string]float64{"portfolio_usd": v} }
	for _, tc := range []struct {
		name  string
		s     []DaySample
		short bool
	}{
		{"none", nil, true},
		{"three days", daySamples(0, p(1), p(2), p(3)), true},
		{"gap leaves three", append(daySamples(0, p(1), p(2), p(3), p(4)), daySamples(5, p(1), p(2), p(3))...), true},
		{"no portfolio", daySamples(0, map[string]float64{"eth_usd": 1}, map[string]float64{"eth_usd": 2}), true},
		{"two samples of a day", append(daySamples(0, p(1), p(2), p(3), p(4)), DaySample{seriesDay(2).Add(time.Hour), p(5)}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := RollbackSeries(tc.s)
			if err == nil || errors.Is(err, ErrShortSeries) != tc.short {
				t.Errorf("error = %v, want short %v", err, tc.short)
			}
		})
	}
}
