package generate

import (
	"fmt"
	"strconv"
	"strings"
)

// The material the Grimoire is seeded with, which the semantic
// contradictions contradict: numeric facts about invented deployments and
// the DeFi mechanics of validate.ShippedModels, in this package's words.

// fact is one seeded numeric fact: subject is value unit.
type fact struct {
	subject string // "the liquidation threshold of WBTC on Lendora"
	value   float64
	unit    string // "%", " days", ...
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func (f fact) amount(v float64) string { return num(v) + f.unit }

// NumericFacts is how many numeric facts the Grimoire is seeded with.
const NumericFacts = 20

type facts struct{ numeric []fact }

// newFacts draws the suite's numeric facts, each about a different subject.
func newFacts(g *gen) *facts {
	kinds := []func() fact{
		func() fact {
			return fact{fmt.Sprintf("the liquidation threshold of %s on %s", g.pick(assets), g.pick(lenders)), float64(g.between(70, 86)), "%"}
		},
		func() fact {
			return fact{fmt.Sprintf("the reserve factor of the %s market on %s", g.pick(stables), g.pick(lenders)), float64(5 * g.between(1, 5)), "%"}
		},
		func() fact {
			a, s := g.pair()
			return fact{fmt.Sprintf("the swap fee of the %s/%s pool on %s", a, s, g.pick(venues)), []float64{0.05, 0.3, 1}[g.r.IntN(3)], "%"}
		},
		func() fact {
			return fact{fmt.Sprintf("the close factor on %s", g.pick(lenders)), float64(g.one2(50, 100)), "%"}
		},
		func() fact {
			return fact{fmt.Sprintf("the governance timelock of %s", g.pick(lenders)), float64([]int{2, 3, 7}[g.r.IntN(3)]), " days"}
		},
		func() fact {
			return fact{fmt.Sprintf("the maximum loan-to-value of %s on %s", g.pick(assets), g.pick(lenders)), float64(g.between(60, 80)), "%"}
		},
		func() fact {
			return fact{fmt.Sprintf("the liquidation penalty for %s on %s", g.pick(assets), g.pick(lenders)), float64(g.between(4, 12)), "%"}
		},
		func() fact {
			return fact{fmt.Sprintf("the unstaking cooldown of the %s staking module", g.pick(venues)), float64([]int{7, 10, 14, 21}[g.r.IntN(4)]), " days"}
		},
		func() fact {
			return fact{fmt.Sprintf("the oracle heartbeat for %s on %s", g.pick(assets), g.pick(lenders)), float64([]int{1, 12, 24}[g.r.IntN(3)]), " hours"}
		},
	}
	f := &facts{}
	seen := map[string]bool{}
	for len(f.numeric) < NumericFacts {
		x := kinds[len(f.numeric)%len(kinds)]()
		if !seen[x.subject] {
			seen[x.subject] = true
			f.numeric = append(f.numeric, x)
		}
	}
	return f
}

func (g *gen) one2(a, b int) int {
	if g.r.IntN(2) == 0 {
		return a
	}
	return b
}

// state says f's subject is amount, in one of several phrasings.
func (g *gen) state(f fact, amount string) string {
	subj := f.subject
	switch g.r.IntN(5) {
	case 0:
		return fmt.Sprintf("%s is %s.", subj, amount)
	case 1:
		return fmt.Sprintf("%s %s %s.", g.one("Per the governance record,", "According to the deployment config,", "As set in the last parameter update,"), subj, "is "+amount)
	case 2:
		return fmt.Sprintf("%s stands at %s%s.", subj, amount, g.one("", " after the last vote", " as of this month"))
	case 3:
		return fmt.Sprintf("%s: %s.", strings.ToUpper(subj[:1])+subj[1:], amount)
	default:
		return fmt.Sprintf("%s is set to %s, %s.", subj, amount, g.one("which the agent's risk checks use", "and has not changed since launch", "per the protocol docs"))
	}
}

// far returns a value clearly unlike v, in the same unit.
func (g *gen) far(f fact) float64 {
	v := f.value
	for {
		var w float64
		switch g.r.IntN(3) {
		case 0:
			w = v * (2 + float64(g.r.IntN(3)))
		case 1:
			w = v / (2 + float64(g.r.IntN(3)))
		default:
			w = v + float64(g.between(15, 40))
		}
		if f.unit == "%" && w > 100 {
			w = v / 2
		}
		w = float64(int(w*100+0.5)) / 100
		if w != v && w > 0 {
			return w
		}
	}
}

// mechanic is a shipped mental model in this package's words: for a
// directional one, more and less are the subject's two ends and dir the
// model's direction; otherwise affirm and deny phrase it and its denial.
type mechanic struct {
	model      string // the shipped model's statement (see the tests)
	more, less string
	object     string
	dir        int
	affirm     []string
	deny       []string
}

var mechanics = []mechanic{
	{model: "Higher utilization increases the borrow rate", more: "higher pool utilisation", less: "lower pool utilisation", object: "the borrow rate", dir: 1},
	{model: "Higher utilization increases the supply rate", more: "higher utilisation of a lending pool", less: "lower utilisation of a lending pool", object: "the supply rate depositors earn", dir: 1},
	{model: "A larger trade size increases price impact", more: "a larger trade", less: "a smaller trade", object: "its price impact", dir: 1},
	{model: "Deeper liquidity decreases price impact", more: "deeper liquidity", less: "thinner liquidity", object: "the price impact of a swap", dir: -1},
	{model: "Deeper liquidity decreases slippage", more: "more liquidity in the pool", less: "less liquidity in the pool", object: "slippage on a fill", dir: -1},
	{model: "A larger trade size increases slippage", more: "bigger order sizes", less: "smaller order sizes", object: "slippage", dir: 1},
	{model: "Impermanent loss increases with price divergence", more: "a wider price divergence between the two assets", less: "a narrower price divergence between the two assets", object: "impermanent loss", dir: 1},
	{model: "Higher volatility increases impermanent loss", more: "higher volatility", less: "lower volatility", object: "an LP's impermanent loss", dir: 1},
	{model: "A higher health factor decreases liquidation risk", more: "a higher health factor", less: "a lower health factor", object: "the risk of liquidation", dir: -1},
	{model: "A higher loan-to-value ratio increases liquidation risk", more: "a higher loan-to-value ratio", less: "a lower loan-to-value ratio", object: "liquidation risk", dir: 1},
	{model: "More collateral increases the health factor", more: "adding collateral", less: "removing collateral", object: "the health factor", dir: 1},
	{model: "More debt decreases the health factor", more: "taking on more debt", less: "carrying less debt", object: "the health factor of a loan", dir: -1},
	{model: "A higher collateral price increases the health factor", more: "a rising collateral price", less: "a falling collateral price", object: "the position's health factor", dir: 1},
	{model: "Higher leverage increases liquidation risk", more: "higher leverage", less: "lower leverage", object: "the chance of being liquidated", dir: 1},
	{model: "A higher gas price increases transaction cost", more: "a higher gas price", less: "a lower gas price", object: "what a transaction costs", dir: 1},
	{model: "More gas used increases transaction cost", more: "using more gas", less: "using less gas", object: "the transaction fee", dir: 1},
	{model: "Network congestion increases the gas price", more: "heavier network congestion", less: "lighter network congestion", object: "the gas price", dir: 1},
	{model: "Higher trading volume increases LP fee income", more: "higher trading volume", less: "lower trading volume", object: "the fee income of liquidity providers", dir: 1},
	{model: "More liquidity in a pool decreases each LP's share of fees", more: "more total liquidity in a pool", less: "less total liquidity in a pool", object: "each LP's share of the fees", dir: -1},
	{model: "Repaying debt increases the health factor", more: "repaying debt", less: "drawing more debt", object: "the health factor", dir: 1},
	{model: "Higher open interest imbalance increases the funding rate magnitude", more: "a larger open interest imbalance", less: "a smaller open interest imbalance", object: "the size of the funding rate", dir: 1},
	{model: "Higher token supply inflation decreases token price, all else equal", more: "faster token supply inflation", less: "slower token supply inflation", object: "the token's price, all else equal", dir: -1},
	{model: "A longer oracle update delay increases oracle staleness risk", more: "a longer oracle update delay", less: "a shorter oracle update delay", object: "the risk of acting on a stale price", dir: 1},
	{model: "A longer time-weighted average price window decreases manipulation risk", more: "a longer TWAP window", less: "a shorter TWAP window", object: "the risk of price manipulation", dir: -1},
	{model: "A higher slippage tolerance increases sandwich attack risk", more: "a looser slippage tolerance", less: "a tighter slippage tolerance", object: "exposure to sandwich attacks", dir: 1},
	{model: "A higher staking ratio decreases the staking yield", more: "a higher share of supply staked", less: "a lower share of supply staked", object: "the staking yield", dir: -1},
	{model: "A higher liquidation penalty increases the liquidated borrower's loss", more: "a higher liquidation penalty", less: "a lower liquidation penalty", object: "what a liquidated borrower loses", dir: 1},
	{model: "Higher volatility increases option premiums", more: "higher implied volatility", less: "lower implied volatility", object: "option premiums", dir: 1},
	{model: "A higher collateral factor increases borrowing capacity", more: "a higher collateral factor", less: "a lower collateral factor", object: "how much can be borrowed", dir: 1},
	{model: "Borrowing requires collateral",
		affirm: []string{"borrowing on a lending market requires posting collateral first", "no loan on an overcollateralised market is possible without collateral"},
		deny:   []string{"borrowing on a lending market needs no collateral at all", "loans on overcollateralised markets can be opened with zero collateral"}},
	{model: "Spending a token through a contract requires an approval",
		affirm: []string{"a contract can only pull tokens with transferFrom after the holder approves it", "spending tokens through a router requires an approval first"},
		deny:   []string{"a contract can pull tokens with transferFrom without any approval", "routers can spend a wallet's tokens without an approval"}},
	{model: "A flash loan requires repayment within the same transaction",
		affirm: []string{"a flash loan must be repaid within the same transaction", "flash loans revert unless repaid in the transaction that took them"},
		deny:   []string{"a flash loan can be repaid in a later block", "flash loans may stay open for several transactions"}},
	{model: "A health factor below 1 implies liquidation",
		affirm: []string{"a health factor below 1 makes a position liquidatable", "once the health factor drops under 1, liquidators can close the position"},
		deny:   []string{"a health factor below 1 does not make a position liquidatable", "positions with a health factor under 1 are safe from liquidation"}},
	{model: "Positive funding rates imply longs pay shorts",
		affirm: []string{"a positive funding rate means longs pay shorts", "when funding is positive, long positions pay the shorts"},
		deny:   []string{"a positive funding rate means shorts pay longs", "when funding is positive, short positions pay the longs"}},
	{model: "Slippage tolerance bounds the minimum output of a swap",
		affirm: []string{"the slippage tolerance sets the minimum output a swap accepts", "a swap's minimum output is fixed by its slippage tolerance"},
		deny:   []string{"slippage tolerance has no bearing on a swap's minimum output", "a swap's minimum output is unrelated to the slippage tolerance"}},
	{model: "Swap output is bounded by pool reserves",
		affirm: []string{"a swap can never return more than the pool's reserves", "the output of a swap is capped by what the pool holds"},
		deny:   []string{"a swap can return more tokens than the pool holds", "swap output is not limited by pool reserves"}},
	{model: "A withdrawal is bounded by available liquidity in the lending pool",
		affirm: []string{"a withdrawal from a lending pool is limited by its available liquidity", "deposits can only be withdrawn up to the pool's idle liquidity"},
		deny:   []string{"a full withdrawal is always possible whatever the pool's available liquidity", "withdrawals from a lending pool are never limited by available liquidity"}},
	{model: "Executing a governance proposal requires passing its timelock",
		affirm: []string{"a passed governance proposal can only execute after its timelock", "governance proposals must wait out the timelock before execution"},
		deny:   []string{"governance proposals can execute immediately, skipping the timelock", "a proposal's timelock is optional and can be bypassed on execution"}},
}

var (
	upVerbs   = []string{"raises", "increases", "pushes up", "lifts", "drives up"}
	downVerbs = []string{"lowers", "reduces", "cuts", "pushes down", "decreases"}
	framings  = []string{"", "In practice, ", "Rule of thumb: ", "Worth remembering: ", "From our positions: ", "Confirmed again this month: "}
	tails     = []string{"", " on every venue we track", " in most markets", ", all else equal", " in our own trading"}
)

// say phrases m, affirmed (true) or contradicted.
func (g *gen) say(m mechanic, affirm bool) string {
	var body string
	if m.dir == 0 {
		if affirm {
			body = g.pick(m.affirm)
		} else {
			body = g.pick(m.deny)
		}
	} else {
		up := m.dir > 0 == affirm // does "more" raise the object in this sentence?
		if g.chance(0.5) {
			v := downVerbs
			if up {
				v = upVerbs
			}
			body = fmt.Sprintf("%s %s %s", m.more, g.pick(v), m.object)
		} else {
			v := upVerbs
			if up {
				v = downVerbs
			}
			body = fmt.Sprintf("%s %s %s", m.less, g.pick(v), m.object)
		}
	}
	return sentence(g.pick(framings) + body + g.pick(tails))
}

// grimoireSeed returns the clean Grimoire: every numeric fact, half of the
// mechanics affirmed and sound notes of each domain.
func grimoireSeed(g *gen, f *facts) []Row {
	var rows []Row
	add := func(content, typ, domain, construction string) {
		c := round2(0.8 + 0.05*float64(g.r.IntN(4)))
		rows = append(rows, Row{Content: content, EntryType: typ, Label: LabelClean, Confidence: f64(c),
			ID: fmt.Sprintf("seed-%03d", len(rows)), Group: fmt.Sprintf("seed-%03d", len(rows)), Domain: domain, Construction: construction})
	}
	for _, x := range f.numeric {
		add(g.unique(func() string { return g.state(x, x.amount(x.value)) }), "insight", DomainLending, "fact")
	}
	for i, m := range mechanics {
		if i%2 == 0 {
			add(g.unique(func() string { return g.say(m, true) }), "causal_link", DomainTrading, "mechanic")
		}
	}
	for _, d := range Domains() {
		for i := range 16 {
			if i%2 == 0 {
				it := grafts[d][(i/2)%len(grafts[d])]
				add(g.unique(func() string {
					return fmt.Sprintf(g.pick(joins), it.obs[g.r.IntN(len(it.obs))](g), g.pick(it.good))
				}), g.one("insight", "warning"), d, "sound")
			} else {
				add(g.unique(func() string { return g.note(d, false) }), "insight", d, "note")
			}
		}
	}
	return rows
}
