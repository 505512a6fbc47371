package skill

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Regime is a scenario's market regime.
type Regime uint8

const (
	RegimeRange    Regime = iota // no drift, mean-reverting noise
	RegimeTrend                  // steady drift, up or down
	RegimeCrash                  // calm, a crash of about 30 % over four ticks with thin liquidity and expensive gas, then a recovery
	RegimeRecovery               // after a fall: an upward drift with higher volatility
	RegimeRecorded               // read from a file
)

var regimeNames = [...]string{"range", "trend", "crash", "recovery", "recorded"}

func (r Regime) String() string {
	if int(r) < len(regimeNames) {
		return regimeNames[r]
	}
	return fmt.Sprintf("regime(%d)", uint8(r))
}

// MarshalText implements encoding.TextMarshaler.
func (r Regime) MarshalText() ([]byte, error) {
	if int(r) >= len(regimeNames) {
		return nil, fmt.Errorf("skill: unknown regime %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Regime) UnmarshalText(b []byte) error {
	for i, n := range regimeNames {
		if n == string(b) {
			*r = Regime(i)
			return nil
		}
	}
	return fmt.Errorf("skill: unknown regime %q", b)
}

// Tick is the market at one step.
type Tick struct {
	Price     float64 `json:"price"`
	Volume    float64 `json:"volume"`
	Gas       float64 `json:"gas"`       // gwei
	Liquidity float64 `json:"liquidity"` // pool depth in quote currency
}

// Scenario is one price path.
type Scenario struct {
	Name   string `json:"name"`
	Regime Regime `json:"regime"`
	Ticks  []Tick `json:"ticks"`
}

// Defaults of a scenario set (seed §5: 20 scenarios; seed §13: paranoid
// runs 100 ticks).
const (
	DefaultScenarios = 20
	DefaultTicks     = 30
	MaxScenarios     = 1000
	MaxTicks         = 10000
)

// Market configures generated scenarios. The zero value is 20 scenarios of
// 30 ticks cycling through every regime, seed 0.
type Market struct {
	Scenarios int      `json:"scenarios,omitempty"`
	Ticks     int      `json:"ticks,omitempty"`
	Seed      uint64   `json:"seed,omitempty"`
	Regimes   []Regime `json:"regimes,omitempty"` // cycled; nil: range, trend, crash, recovery
}

// Generate returns m's scenarios, the same for the same m.
func (m Market) Generate() ([]Scenario, error) {
	n, ticks := m.Scenarios, m.Ticks
	if n == 0 {
		n = DefaultScenarios
	}
	if ticks == 0 {
		ticks = DefaultTicks
	}
	if n < 0 || n > MaxScenarios || ticks < 10 || ticks > MaxTicks {
		return nil, fmt.Errorf("skill: %d scenarios of %d ticks: want 1-%d of 10-%d", n, ticks, MaxScenarios, MaxTicks)
	}
	regimes := m.Regimes
	if len(regimes) == 0 {
		regimes = []Regime{RegimeRange, RegimeTrend, RegimeCrash, RegimeRecovery}
	}
	out := make([]Scenario, n)
	for i := range out {
		r := regimes[i%len(regimes)]
		if r >= RegimeRecorded {
			return nil, fmt.Errorf("skill: cannot generate regime %s", r)
		}
		rng := rand.New(rand.NewPCG(m.Seed, uint64(i)))
		out[i] = Scenario{Name: fmt.Sprintf("%s-%d", r, i), Regime: r, Ticks: path(rng, r, ticks)}
	}
	return out, nil
}

// path draws a price path of one regime. Prices start at 100; base gas is
// 15-35 gwei; base liquidity 5 M, i.e. 500 times the simulated portfolio.
func path(rng *rand.Rand, r Regime, n int) []Tick {
	price := 100.0
	gas := 15 + 20*rng.Float64()
	liq := 5e6 * (0.8 + 0.4*rng.Float64())
	drift, sigma := 0.0, 0.01
	switch r {
	case RegimeTrend:
		drift = 0.004
		if rng.IntN(3) == 0 {
			drift = -0.004
		}
	case RegimeRecovery:
		drift, sigma = 0.006, 0.015
	}
	crashAt := n / 3
	out := make([]Tick, n)
	for t := range out {
		d, s, g, l := drift, sigma, gas, liq
		if r == RegimeCrash {
			switch {
			case t >= crashAt && t < crashAt+4:
				d, s, g, l = -0.085, 0.02, gas*8, liq*0.1
			case t >= crashAt+4:
				// recovering to about the level before the crash by the end
				d, s, g, l = -math.Log(0.7)/float64(max(n-crashAt-4, 1)), 0.015, gas*2, liq*0.5
			}
		}
		if r == RegimeRange {
			d = -0.2 * math.Log(price/100)
		}
		if t > 0 {
			price *= math.Exp(d + s*rng.NormFloat64())
		}
		out[t] = Tick{
			Price:     price,
			Volume:    l * (0.01 + 0.02*rng.Float64()),
			Gas:       math.Max(1, g*(1+0.2*rng.NormFloat64())),
			Liquidity: l * (0.9 + 0.2*rng.Float64()),
		}
	}
	return out
}

// ReadCSV reads a recorded scenario: a header line, then rows of
// timestamp,price,volume,gas (price and volume in quote currency, gas in
// gwei). Liquidity, which such files rarely carry, is taken as 100 times
// the row's volume. At most MaxTicks rows are read.
func ReadCSV(r io.Reader, name string) (Scenario, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = 4
	cr.ReuseRecord = true
	sc := Scenario{Name: name, Regime: RegimeRecorded}
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Scenario{}, fmt.Errorf("skill: %s: %w", name, err)
		}
		if line == 1 && strings.EqualFold(strings.TrimSpace(rec[0]), "timestamp") {
			continue
		}
		var v [3]float64
		for i := range v {
			x, err := strconv.ParseFloat(strings.TrimSpace(rec[i+1]), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || (i == 0 && x == 0) {
				return Scenario{}, fmt.Errorf("skill: %s line %d: bad number in column %d", name, line, i+2)
			}
			v[i] = x
		}
		if len(sc.Ticks) == MaxTicks {
			return Scenario{}, fmt.Errorf("skill: %s: more than %d rows", name, MaxTicks)
		}
		sc.Ticks = append(sc.Ticks, Tick{Price: v[0], Volume: v[1], Gas: v[2], Liquidity: math.Max(100*v[1], 1)})
	}
	if len(sc.Ticks) < 2 {
		return Scenario{}, fmt.Errorf("skill: %s: fewer than 2 rows", name)
	}
	return sc, nil
}
