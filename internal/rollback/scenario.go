package rollback

import (
	"fmt"
	"io"
	"math/rand/v2"
	"text/tabwriter"
)

// Kind is a kind of simulated agent history in the scenario suite.
type Kind uint8

// The kinds of history. Only Poisoned and Both should be rolled back.
const (
	_        Kind = iota
	Market        // a factor crash after first use; agent beta about 1; the source is used and harmless
	Poisoned      // a calm market; the agent's alpha turns negative after first use of the source
	Both          // a crash and a poisoned source together
	Noise         // nothing happens; the source is used
	Unused        // the agent's alpha falls, but the source influenced no decision
	kindEnd
)

var kindNames = [...]string{"unknown", "market", "poisoned", "both", "noise", "unused"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Kinds returns every kind of history, in order.
func Kinds() []Kind {
	ks := make([]Kind, 0, kindEnd-1)
	for k := Market; k < kindEnd; k++ {
		ks = append(ks, k)
	}
	return ks
}

// Scenario is one simulated history with its ground truth.
type Scenario struct {
	Kind  Kind
	Input Input
	// Poison is the drop in the agent's daily alpha after first use of the
	// source (0 when there is none); Crash the mean daily ETH return
	// during the crash (0 when there is none).
	Poison, Crash float64
	// Want is the right decision: rollback exactly when the poison is
	// present and the source was used.
	Want bool
}

// SuiteSource is the suspected source in simulated histories.
const SuiteSource = "0x5eed00000000000000000000000000000000bad1"

// Simulate returns the history of the given kind drawn from seed: the
// same kind and seed give the same history.
//
// A history is 50 to 70 days. The source is first used on a day between
// day 10 and 20 days before the end or, for one history in five, after a
// short baseline of 2 to 6 days (the peer comparison's case). The
// factors are ETH's daily return (σ 2–4 %), the daily change of a TVL
// index (0.6 × ETH plus noise), the daily log change of gas, and a
// volatility level. A crash starts within 3 days of first use, lasts 8 to
// 22 days, and brings ETH a mean daily return of −1 to −4 % with 1.5 times
// the volatility, a TVL outflow and a volatility jump. The agent has an
// ETH beta of 0.8 to 1.2, small TVL, gas and volatility loadings, an
// alpha of 0.05–0.15 % a day and idiosyncratic noise of 0.5–1.5 %; a
// poison lowers its alpha by 0.5 to 1.5 noise standard deviations from 0
// to 3 days after first use. Eight peers share the market, with betas
// around the agent's and their own alpha and noise. Two decisions a day
// use entries from three sources; after first use, when the source is
// used, each decision uses one of its entries with probability 0.4.
func Simulate(kind Kind, seed uint64) Scenario {
	r := rand.New(rand.NewPCG(seed, uint64(kind)))
	n := 50 + r.IntN(21)
	first := 10 + r.IntN(n-20-10+1)
	if r.IntN(5) == 0 {
		first = 2 + r.IntN(5)
	}
	crash := kind == Market || kind == Both
	poison := kind == Poisoned || kind == Both || kind == Unused
	used := kind != Unused

	s := Scenario{Kind: kind, Want: poison && used}
	crashFrom, crashTo := n, n
	if crash {
		crashFrom = max(1, first+r.IntN(7)-3)
		crashTo = min(n, crashFrom+8+r.IntN(15))
		s.Crash = -uniform(r, 0.01, 0.04)
	}
	m := simulateMarket(r, n, crashFrom, crashTo, s.Crash)
	agent := drawLoadings(r, uniform(r, 0.8, 1.2))
	if poison {
		s.Poison = agent.noise * uniform(r, 0.5, 1.5)
	}
	s.Input = Input{
		Returns:  m.returns(r, agent, first+r.IntN(4), s.Poison),
		Factors:  []Factor{{"eth", m.eth}, {"tvl", m.tvl}, {"gas", m.gas}, {"volatility", m.vol}},
		Source:   SuiteSource,
		FirstUse: first,
	}
	for range 8 {
		s.Input.Peers = append(s.Input.Peers, m.returns(r, drawLoadings(r, agent.eth+0.1*r.NormFloat64()), n, 0))
	}
	s.Input.Decisions = simulateDecisions(r, n, first, used)
	return s
}

// uniform draws from [lo, hi).
func uniform(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

// market is a history's daily factors (see Simulate).
type market struct{ eth, tvl, gas, vol []float64 }

// simulateMarket draws n days of factors, with a crash on the days from
// crashFrom to crashTo (none when they are n) of mean daily ETH return
// crashMean.
func simulateMarket(r *rand.Rand, n, crashFrom, crashTo int, crashMean float64) market {
	ethSD := uniform(r, 0.02, 0.04)
	m := market{make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)}
	for t := range n {
		in := t >= crashFrom && t < crashTo
		if in {
			m.eth[t] = crashMean + 1.5*ethSD*r.NormFloat64()
			m.tvl[t] = 0.6*m.eth[t] - 0.005 + 0.01*r.NormFloat64()
			m.vol[t] = 0.8 + 0.05*r.NormFloat64()
		} else {
			m.eth[t] = ethSD * r.NormFloat64()
			m.tvl[t] = 0.6*m.eth[t] + 0.01*r.NormFloat64()
			m.vol[t] = 0.5 + 0.05*r.NormFloat64()
		}
		m.gas[t] = 0.05 * r.NormFloat64()
		if in && t == crashFrom {
			m.gas[t] += 0.5
		}
	}
	return m
}

// loadings are a portfolio's exposures to the factors, its daily alpha
// and its idiosyncratic noise.
type loadings struct{ eth, tvl, gas, vol, alpha, noise float64 }

// drawLoadings draws a portfolio of ETH beta beta.
func drawLoadings(r *rand.Rand, beta float64) loadings {
	return loadings{
		eth: beta, tvl: uniform(r, 0, 0.2), gas: uniform(r, -0.01, 0), vol: uniform(r, -0.01, 0),
		alpha: uniform(r, 0.0005, 0.0015), noise: uniform(r, 0.005, 0.015),
	}
}

// returns draws the daily returns of the portfolio l in m, its alpha
// lowered by poison from day poisonFrom.
func (m market) returns(r *rand.Rand, l loadings, poisonFrom int, poison float64) []float64 {
	out := make([]float64, len(m.eth))
	for t := range out {
		a := l.alpha
		if t >= poisonFrom {
			a -= poison
		}
		out[t] = a + l.eth*m.eth[t] + l.tvl*m.tvl[t] + l.gas*m.gas[t] + l.vol*(m.vol[t]-0.5) + l.noise*r.NormFloat64()
	}
	return out
}

// simulateDecisions draws two decisions a day for n days, each using
// entries of two other sources and, from day first when the source is
// used, one of its entries with probability 0.4.
func simulateDecisions(r *rand.Rand, n, first int, used bool) []Record {
	others := []string{"0x0ther00000000000000000000000000000000001", "0x0ther00000000000000000000000000000000002"}
	var out []Record
	for t := range n {
		for j := range 2 {
			rec := Record{Day: t, ID: fmt.Sprintf("d%d.%d", t, j)}
			for range r.IntN(3) {
				rec.Used = append(rec.Used, Influence{EntryID: fmt.Sprintf("e%d", r.IntN(50)), Source: others[r.IntN(2)]})
			}
			if used && t >= first && r.Float64() < 0.4 {
				rec.Used = append(rec.Used, Influence{EntryID: fmt.Sprintf("s%d", r.IntN(10)), Source: SuiteSource})
			}
			out = append(out, rec)
		}
	}
	return out
}

// Result is how Decide did on the histories of one kind.
type Result struct {
	Kind      Kind
	Histories int
	Correct   int
	Rollbacks int
	Errors    int // counted as wrong
	Reasons   map[Reason]int
}

// Accuracy is the share of histories decided right.
func (r Result) Accuracy() float64 {
	if r.Histories == 0 {
		return 0
	}
	return float64(r.Correct) / float64(r.Histories)
}

// Suite simulates perKind histories of every kind, history i of a kind
// drawn from seed+i, decides each, and reports how often the decision is
// right per kind.
func Suite(perKind int, seed uint64) []Result {
	var out []Result
	for _, k := range Kinds() {
		res := Result{Kind: k, Reasons: map[Reason]int{}}
		for i := range perKind {
			s := Simulate(k, seed+uint64(i))
			res.Histories++
			d, err := Decide(s.Input)
			if err != nil {
				res.Errors++
				continue
			}
			res.Reasons[d.Reason]++
			if d.Rollback {
				res.Rollbacks++
			}
			if d.Rollback == s.Want {
				res.Correct++
			}
		}
		out = append(out, res)
	}
	return out
}

// WriteTable writes results as a table: kind, histories, accuracy,
// rollbacks, errors and the count of each reason.
func WriteTable(w io.Writer, results []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "kind\thistories\taccuracy\trollbacks\terrors")
	reasons := make([]Reason, 0, len(reasonNames)-1)
	for r := NeverUsed; int(r) < len(reasonNames); r++ {
		reasons = append(reasons, r)
		fmt.Fprintf(tw, "\t%s", r)
	}
	fmt.Fprintln(tw)
	for _, res := range results {
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%d\t%d", res.Kind, res.Histories, 100*res.Accuracy(), res.Rollbacks, res.Errors)
		for _, r := range reasons {
			fmt.Fprintf(tw, "\t%d", res.Reasons[r])
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
