package skill

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
)

// JobName is the sandbox job that runs Job; cmd/ward and the tests of
// packages that evaluate register it with sandbox.Main.
const JobName = "skill-eval"

// Windows of the market state (see Variables).
const (
	ChangeWindow = 5
	VolWindow    = 10
	RSIWindow    = 14
)

// The simulated portfolio: 10 000 in quote currency, half of it in the
// asset; a trade costs gas (GasQuote per gwei: a 150 000-gas swap at an
// asset price near 3 300) plus price impact of value²/liquidity.
const (
	StartEquity = 10_000.0
	StartShare  = 0.5
	GasQuote    = 0.5
)

// Tolerance is how much worse than the baseline a strategy may do and
// still pass: Loss and Drawdown are absolute fractions of equity added to
// the baseline's worst-case loss and maximum drawdown; Return is how far
// the mean return may fall below the baseline's (trading costs make any
// active strategy pay something).
type Tolerance struct {
	Return   float64 `json:"return"`
	Drawdown float64 `json:"drawdown"`
	Loss     float64 `json:"loss"`
}

// DefaultTolerance: a strategy may add one point (of equity) of
// worst-case loss and five of maximum drawdown, and cost at most 0.1 point
// of mean return. Drawdown is looser than loss because it is path risk: a
// strategy that buys into a fall (mean reversion) deepens the fall it is in
// before the recovery it bets on, while the worst-case loss is what is left
// at the end.
var DefaultTolerance = Tolerance{Return: 0.001, Drawdown: 0.05, Loss: 0.01}

// Metrics summarise one strategy over a scenario set.
type Metrics struct {
	MeanReturn  float64 `json:"mean_return"`  // mean of final equity / start − 1
	MaxDrawdown float64 `json:"max_drawdown"` // the largest peak-to-trough fall of equity in any scenario
	Drawdown    float64 `json:"drawdown"`     // the mean over scenarios of each one's largest peak-to-trough fall
	WorstLoss   float64 `json:"worst_loss"`   // the largest loss of any scenario (0 if none lost)
	Turnover    float64 `json:"turnover"`     // mean traded value / start equity
	Triggers    int     `json:"triggers"`     // ticks at which every condition held, summed over scenarios
}

// Evaluation is the outcome of a strategy evaluation.
type Evaluation struct {
	Scenarios int       `json:"scenarios"`
	Ticks     int       `json:"ticks"` // of the longest scenario
	Baseline  Metrics   `json:"baseline"`
	Strategy  Metrics   `json:"strategy"`
	Tolerance Tolerance `json:"tolerance"`
	Pass      bool      `json:"pass"`
	Reasons   []string  `json:"reasons,omitempty"` // why it failed, one per breached threshold
	// Exceeded names a resource budget the strategy itself broke inside
	// the job ("cel_cost"); the evaluation is then void and the entry is
	// rejected like a sandbox breach. A WASM component stopped by one of
	// its limits is "wasm_cpu", "wasm_memory", "wasm_wall_clock" or
	// "wasm_output".
	Exceeded string `json:"exceeded,omitempty"`
	// Component names the WASM component that failed (a limit, a trap or
	// a result that is not its kind's); the evaluation is then void and
	// Reasons says why.
	Component string `json:"component,omitempty"`
}

// Request is the sandbox job's input.
type Request struct {
	Fragment *Fragment `json:"fragment"`
	// Baseline is the agent's own strategy, rule by rule; empty: the
	// baseline holds. With the entry, a tick at which the entry's rule
	// fires follows the entry (a wait then does nothing), and any other
	// tick the agent's rules.
	Baseline  []*Fragment `json:"baseline,omitempty"`
	Market    Market      `json:"market"`
	Recorded  []Scenario  `json:"recorded,omitempty"`   // evaluated besides the generated ones
	Tolerance *Tolerance  `json:"tolerance,omitempty"`  // nil: DefaultTolerance
	CostLimit uint64      `json:"cost_limit,omitempty"` // per condition per tick; 0: DefaultCostLimit
	// Components are the ward_v1 WASM components the fragment and the
	// baseline name, modules included: the caller takes them from its
	// library, never from the entry.
	Components []Component `json:"components,omitempty"`
}

// Job is the sandbox job JobName without WASM components (NewJob(nil)):
// it reads a JSON Request, evaluates it and writes the JSON Evaluation. A
// condition over its cost budget is reported in Evaluation.Exceeded, not
// as an error.
func Job(ctx context.Context, input []byte, output io.Writer) error {
	return NewJob(nil)(ctx, input, output)
}

// Evaluate is EvaluateWASM without WASM components.
func Evaluate(ctx context.Context, req *Request) (*Evaluation, error) {
	return EvaluateWASM(ctx, req, nil)
}

// EvaluateWASM simulates req's strategy and the hold baseline over the
// same scenarios and judges the strategy, running the WASM components of
// req.Components compiled by load. It runs in the caller's process: the
// pipeline calls it only inside the sandbox (NewJob). The error wraps
// ErrCostLimit when a condition exceeds its budget, is a *ComponentError
// when a WASM component fails, and wraps ctx's error when ctx ends.
func EvaluateWASM(ctx context.Context, req *Request, load Loader) (*Evaluation, error) {
	if req.Fragment == nil {
		return nil, errors.New("skill: no fragment")
	}
	if err := req.Fragment.check(); err != nil {
		return nil, err
	}
	comps, closeAll, err := components(ctx, req, load)
	if err != nil {
		return nil, err
	}
	defer closeAll()
	entry, err := compileRule(req.Fragment, req.CostLimit, comps)
	if err != nil {
		return nil, err
	}
	if len(req.Baseline) > MaxBaselineRules {
		return nil, fmt.Errorf("skill: %d baseline rules, at most %d", len(req.Baseline), MaxBaselineRules)
	}
	var own []rule
	for i, f := range req.Baseline {
		if f == nil {
			return nil, fmt.Errorf("skill: baseline rule %d is empty", i)
		}
		if err := f.check(); err != nil {
			return nil, fmt.Errorf("skill: baseline rule %d: %w", i, err)
		}
		r, err := compileRule(f, req.CostLimit, comps)
		if err != nil {
			return nil, fmt.Errorf("skill: baseline rule %d: %w", i, err)
		}
		own = append(own, r)
	}
	scs, err := req.Market.Generate()
	if err != nil {
		return nil, err
	}
	scs = append(scs, req.Recorded...)
	tol := DefaultTolerance
	if req.Tolerance != nil {
		tol = *req.Tolerance
	}
	ev := &Evaluation{Scenarios: len(scs), Tolerance: tol}
	var base, strat []run
	for _, sc := range scs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ev.Ticks = max(ev.Ticks, len(sc.Ticks))
		b, err := simulate(ctx, sc, nil, own)
		if ce := (*ComponentError)(nil); errors.As(err, &ce) {
			// The agent's own strategy failed, not the entry: no verdict on
			// the entry (the job fails and it stays pending).
			return nil, fmt.Errorf("skill: the agent's strategy: %s", ce.Error())
		}
		if err != nil {
			return nil, err
		}
		s, err := simulate(ctx, sc, &entry, own)
		if err != nil {
			return nil, err
		}
		base, strat = append(base, b), append(strat, s)
	}
	ev.Baseline, ev.Strategy = summarise(base), summarise(strat)
	b, s := ev.Baseline, ev.Strategy
	if s.WorstLoss > b.WorstLoss+tol.Loss {
		ev.Reasons = append(ev.Reasons, fmt.Sprintf("worst-case loss %.2f%% against the baseline's %.2f%%", 100*s.WorstLoss, 100*b.WorstLoss))
	}
	if s.MaxDrawdown > b.MaxDrawdown+tol.Drawdown {
		ev.Reasons = append(ev.Reasons, fmt.Sprintf("maximum drawdown %.2f%% against the baseline's %.2f%%", 100*s.MaxDrawdown, 100*b.MaxDrawdown))
	}
	if s.MeanReturn < b.MeanReturn-tol.Return {
		ev.Reasons = append(ev.Reasons, fmt.Sprintf("mean return %.2f%% against the baseline's %.2f%%", 100*s.MeanReturn, 100*b.MeanReturn))
	}
	ev.Pass = len(ev.Reasons) == 0
	return ev, nil
}

type run struct {
	ret, drawdown, turnover float64
	triggers                int
}

func summarise(rs []run) Metrics {
	var m Metrics
	for _, r := range rs {
		m.MeanReturn += r.ret
		m.Turnover += r.turnover
		m.Drawdown += r.drawdown
		m.MaxDrawdown = max(m.MaxDrawdown, r.drawdown)
		m.WorstLoss = max(m.WorstLoss, -r.ret)
		m.Triggers += r.triggers
	}
	if n := float64(len(rs)); n > 0 {
		m.MeanReturn /= n
		m.Turnover /= n
		m.Drawdown /= n
	}
	return m
}

// state is the market state of one tick, as conditions see it.
type state struct {
	price, ret, chg, vol, rsi, gas, liquidity, position float64
	tick                                                int
}

type book struct {
	cash, units, debt, traded float64
}

func (b *book) equity(p float64) float64 { return b.cash + b.units*p - b.debt }

// trade buys (v > 0) or sells (v < 0) v worth of the asset at tick k.
func (b *book) trade(k Tick, v float64) {
	if v > 0 {
		v = min(v, b.cash)
	} else {
		v = max(v, -b.units*k.Price)
	}
	if math.Abs(v) < 1e-9 {
		return
	}
	cost := GasQuote*k.Gas + v*v/k.Liquidity
	b.units += v / k.Price
	b.cash -= v + cost
	b.traded += math.Abs(v)
}

// MaxBaselineRules is the most rules the agent's own strategy may have.
const MaxBaselineRules = 32

// rule is a compiled fragment: when every condition holds, the actions,
// each sized by its sizer when it has one.
type rule struct {
	conds  []condition
	acts   []Action
	sizers []*wasmCondition // by action; nil: the action's Size
}

// condition is a compiled condition: a CEL program or a WASM component.
type condition interface {
	eval(ctx context.Context, s *state) (bool, error)
}

// compileRule compiles f's conditions, its CEL ones first: a WASM
// component (a fresh instance per run, milliseconds where CEL takes
// microseconds) runs only at ticks where every CEL condition holds.
func compileRule(f *Fragment, limit uint64, comps map[string]*component) (rule, error) {
	r := rule{acts: f.Actions, sizers: make([]*wasmCondition, len(f.Actions))}
	var wasms []condition
	for i, c := range f.Conditions {
		if c.Component != "" {
			w, ok := comps[c.Component]
			if !ok || w.kind != KindCondition {
				return rule{}, fmt.Errorf("skill: condition %d names a WASM condition component the request does not provide", i+1)
			}
			wasms = append(wasms, &wasmCondition{c: w, args: c.Args})
			continue
		}
		p, err := compile(c.Expr, limit)
		if err != nil {
			return rule{}, err
		}
		r.conds = append(r.conds, p)
	}
	r.conds = append(r.conds, wasms...)
	for i, a := range f.Actions {
		if math.IsNaN(a.Size) || a.Size < 0 || a.Size > 1 || a.Kind > ActHedge {
			return rule{}, fmt.Errorf("skill: action %s of size %v", a.Kind, a.Size)
		}
		if a.SizeFrom != "" {
			w, ok := comps[a.SizeFrom]
			if !ok || w.kind != KindSizing {
				return rule{}, fmt.Errorf("skill: action %d names a WASM sizing component the request does not provide", i+1)
			}
			r.sizers[i] = &wasmCondition{c: w, args: a.SizeArgs}
		}
	}
	return r, nil
}

// fires reports whether every condition of r holds in s.
func (r *rule) fires(ctx context.Context, s *state) (bool, error) {
	for _, c := range r.conds {
		ok, err := c.eval(ctx, s)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// act takes r's actions at tick k, sizing each by its component, if any,
// in market state s.
func (r *rule) act(ctx context.Context, b *book, k Tick, s *state) error {
	for i, a := range r.acts {
		if w := r.sizers[i]; w != nil {
			size, err := w.size(ctx, s)
			if err != nil {
				return err
			}
			a.Size = size
		}
		apply(b, k, a)
	}
	return nil
}

// simulate runs one scenario. Without an entry it is the baseline: the
// agent's own rules, or holding the starting allocation when there are
// none. With one, a tick at which the entry fires follows the entry alone
// (counted in triggers), any other tick the agent's rules.
func simulate(ctx context.Context, sc Scenario, entry *rule, own []rule) (run, error) {
	t0 := sc.Ticks[0]
	b := &book{cash: StartEquity * (1 - StartShare), units: StartEquity * StartShare / t0.Price}
	peak, r := StartEquity, run{}
	for t := 1; t < len(sc.Ticks); t++ {
		k := sc.Ticks[t]
		if entry != nil || len(own) > 0 {
			s := observe(sc.Ticks, t, b)
			followed := false
			if entry != nil {
				fire, err := entry.fires(ctx, &s)
				if err != nil {
					return run{}, err
				}
				if fire {
					r.triggers++
					followed = true
					if err := entry.act(ctx, b, k, &s); err != nil {
						return run{}, err
					}
				}
			}
			for i := 0; !followed && i < len(own); i++ {
				fire, err := own[i].fires(ctx, &s)
				if err != nil {
					return run{}, err
				}
				if fire {
					if err := own[i].act(ctx, b, k, &s); err != nil {
						return run{}, err
					}
				}
			}
		}
		eq := b.equity(k.Price)
		if eq <= 0 {
			r.ret, r.drawdown = -1, 1
			r.turnover = b.traded / StartEquity
			return r, nil
		}
		peak = max(peak, eq)
		r.drawdown = max(r.drawdown, (peak-eq)/peak)
	}
	r.ret = b.equity(sc.Ticks[len(sc.Ticks)-1].Price)/StartEquity - 1
	r.turnover = b.traded / StartEquity
	return r, nil
}

func apply(b *book, k Tick, a Action) {
	p := k.Price
	switch a.Kind {
	case ActBuy:
		b.trade(k, a.Size*b.cash)
	case ActSell, ActSwap, ActHedge:
		b.trade(k, -a.Size*b.units*p)
	case ActAddLiquidity:
		b.trade(k, a.Size*b.cash/2) // half the deposit is the asset side of the pool
	case ActRemoveLiquidity:
		b.trade(k, -a.Size*b.units*p/2)
	case ActBorrow:
		loan := a.Size * b.equity(p)
		if loan > 0 {
			b.debt += loan
			b.cash += loan
			b.trade(k, loan)
		}
	case ActRepay:
		due := a.Size * b.debt
		if short := due - b.cash; short > 0 {
			b.trade(k, -short)
		}
		pay := min(due, max(b.cash, 0))
		b.cash -= pay
		b.debt -= pay
	}
}

func observe(ticks []Tick, t int, b *book) state {
	k := ticks[t]
	s := state{price: k.Price, gas: k.Gas, liquidity: k.Liquidity, tick: t, rsi: 50}
	s.ret = k.Price/ticks[t-1].Price - 1
	s.chg = k.Price/ticks[max(0, t-ChangeWindow)].Price - 1
	var sum, sq float64
	n := 0
	for i := max(1, t-VolWindow+1); i <= t; i++ {
		x := ticks[i].Price/ticks[i-1].Price - 1
		sum += x
		sq += x * x
		n++
	}
	if n > 1 {
		mean := sum / float64(n)
		s.vol = math.Sqrt(max(0, sq/float64(n)-mean*mean))
	}
	var up, down float64
	n = 0
	for i := max(1, t-RSIWindow+1); i <= t; i++ {
		d := ticks[i].Price - ticks[i-1].Price
		if d > 0 {
			up += d
		} else {
			down -= d
		}
		n++
	}
	if n >= 2 {
		if down == 0 {
			s.rsi = 100
		} else {
			s.rsi = 100 - 100/(1+up/down)
		}
	}
	if eq := b.equity(k.Price); eq > 0 {
		s.position = b.units * k.Price / eq
	}
	return s
}
