package validate

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// MechanicKind is the protocol number a Mechanic states.
type MechanicKind uint8

// Kinds of mechanic. The zero value names none.
const (
	MechNone                 MechanicKind = iota
	MechDecimals                          // a token's decimals
	MechTickSpacing                       // a Uniswap V3 fee tier's tick spacing
	MechLTV                               // a lending market's loan-to-value, in percent
	MechLiquidationThreshold              // a lending market's liquidation threshold, in percent
	MechReserveFactor                     // a lending market's reserve factor, in percent
	MechLiquidationBonus                  // a lending market's liquidation bonus over the repaid debt, in percent
)

var mechanicNames = [...]string{MechNone: "none", MechDecimals: "decimals", MechTickSpacing: "tick_spacing",
	MechLTV: "ltv", MechLiquidationThreshold: "liquidation_threshold", MechReserveFactor: "reserve_factor",
	MechLiquidationBonus: "liquidation_bonus"}

// String returns the kind's stable name.
func (k MechanicKind) String() string {
	if int(k) < len(mechanicNames) {
		return mechanicNames[k]
	}
	return "mechanic(" + strconv.Itoa(int(k)) + ")"
}

// Mechanic is a number of a protocol's mechanics a text states.
type Mechanic struct {
	Kind MechanicKind
	// Symbol is the token the number is about, as written ("" for a fee
	// tier's tick spacing, or a lending number with no asset named).
	Symbol  string
	ChainID uint64
	// Value is the decimals, the tick spacing, or the percentage.
	Value float64
	// FeePips is the fee tier of MechTickSpacing in hundredths of a basis
	// point, as Uniswap V3 writes it (500 is 0.05 %).
	FeePips uint32
	// Clause numbers the clause the number is in: the lending numbers of
	// one clause are checked against one another.
	Clause     int
	Start, End int
}

// MaxMechanics bounds how many numbers ExtractMechanics returns.
const MaxMechanics = 64

var (
	reDecimals     = regexp.MustCompile(`\b(\d{1,2})[\s-]*(?:token\s+)?decimals?\b|\bdecimals?\s*(?:count\s*)?(?:is|are|=|:|of|equals?|to)?\s*(\d{1,2})\b`)
	reFeePct       = regexp.MustCompile(`(\d+(?:\.\d+)?)\s*%|(\d+(?:\.\d+)?)\s*(?:bps|bp|basis\s+points?)\b|\bfee(?:\s*tier)?\s*(?:of|=|:)?\s*(100|500|3000|10000)\b`)
	reTickSpacing  = regexp.MustCompile(`\btick[\s-]*spacing\s*(?:of|=|:|is|equals?|to)?\s*(\d{1,5})\b|\b(\d{1,5})[\s-]*tick[\s-]*spacing\b|\bspacing\s*(?:of\s*)?(\d{1,5})\s*ticks?\b`)
	rePct          = `(\d+(?:\.\d+)?)\s*%`
	reOfAsset      = `(?:(?:of|for|on)\s+[a-z][a-z0-9.]*\s*){0,2}`
	reLTV          = regexp.MustCompile(`\b(?:max(?:imum)?\s+)?(?:ltv|loan[\s-]to[\s-]value)(?:\s+ratio)?\s*` + reOfAsset + `(?:of|is|=|:|at|set\s+(?:to|at))?\s*` + rePct + `|` + rePct + `\s*(?:max(?:imum)?\s+)?(?:ltv|loan[\s-]to[\s-]value)\b`)
	reLiqThreshold = regexp.MustCompile(`\bliquidation\s+threshold\s*` + reOfAsset + `(?:of|is|=|:|at|set\s+(?:to|at))?\s*` + rePct + `|` + rePct + `\s*liquidation\s+threshold\b`)
	reLiqBonus     = regexp.MustCompile(`\bliquidation\s+(?:bonus|penalty|incentive)\s*` + reOfAsset + `(?:of|is|=|:|at|set\s+(?:to|at))?\s*` + rePct + `|` + rePct + `\s*liquidation\s+(?:bonus|penalty|incentive)\b`)
	reReserveFac   = regexp.MustCompile(`\breserve\s+factor\s*` + reOfAsset + `(?:of|is|=|:|at|set\s+(?:to|at))?\s*` + rePct + `|` + rePct + `\s*reserve\s+factor\b`)
)

// hedgeWords make a clause's numbers no positive claim: negations,
// comparisons and reports of others' mistakes ("bots wrongly assume USDC
// has 18 decimals", "unlike Ethereum's 6").
var hedgeWords = []string{"not ", "n't", "never", "unlike", "instead", "rather than", "wrong", "mistak", "assum", "bug",
	"incorrect", "misconception", "myth", "error", "if ", "suppose", "pretend", "fake", "scam", "peg", "bsc", "bnb",
	"hypothetical", "example", "e.g.", "such as", "could", "might", "would", "vs", "versus", "compared"}

// decimalsElsewhere name things whose decimals are not their token's:
// a price feed's answer, a vault's or pool's shares.
var decimalsElsewhere = []string{"feed", "oracle", "aggregator", "answer", "chainlink", "latestrounddata", "sqrtprice", "x96",
	"vault", "share", "lp token", "receipt", "atoken", "debt token", "wrapper", "display", "round", "precision", "scaled"}

func hasPrefixAny(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// forkPools name AMMs whose fee tiers and tick spacings differ from
// Uniswap V3's, or are set per pool.
var forkPools = []string{"v4", "pancake", "aerodrome", "velodrome", "slipstream", "algebra", "curve", "maverick", "trader joe",
	"traderjoe", "custom", "hook", "balancer", "camelot", "quickswap", "ramses", "thena"}

// ExtractMechanics returns the protocol numbers text states, in order, at
// most MaxMechanics: token decimals bound to the nearest symbol of their
// clause, Uniswap V3 tick spacings bound to the nearest fee tier, and
// lending markets' LTV, liquidation threshold and reserve factor. A
// clause that negates, compares or hedges states none. It is
// deterministic and never fails.
func ExtractMechanics(text string) []Mechanic {
	var out []Mechanic
	entryChain := onlyChain(text)
	for ci, cl := range clauses(text) {
		if len(out) >= MaxMechanics {
			break
		}
		low := cl.lower
		if containsAny(low, hedgeWords) {
			continue
		}
		chain := firstChain(cl.words)
		if chain == 0 {
			chain = cl.chain
		}
		if chain == 0 {
			chain = entryChain
		}
		add := func(m Mechanic, start, end int) {
			m.ChainID, m.Clause = chain, ci
			m.Start, m.End = cl.span(start, end)
			if len(out) < MaxMechanics {
				out = append(out, m)
			}
		}
		for _, m := range reDecimals.FindAllStringSubmatchIndex(low, MaxMechanics) {
			if containsAny(low, decimalsElsewhere) || hasPrefixAny(strings.TrimLeft(low[m[1]:], " "), "place", "point", "digit") {
				continue
			}
			n := atoi(low, m[2], m[3])
			if n < 0 {
				n = atoi(low, m[4], m[5])
			}
			sym := nearestSymbol(cl.words, m[0], m[1])
			if n < 0 || sym == "" {
				continue
			}
			add(Mechanic{Kind: MechDecimals, Symbol: sym, Value: float64(n)}, m[0], m[1])
		}
		if strings.Contains(low, "spacing") && !containsAny(low, forkPools) {
			fees := reFeePct.FindAllStringSubmatchIndex(low, 4*MaxMechanics)
			prev := 0
			for _, m := range reTickSpacing.FindAllStringSubmatchIndex(low, MaxMechanics) {
				sp := -1
				for g := 2; g < len(m) && sp < 0; g += 2 {
					if !fraction(low, m[g+1]) { // "tick spacing: 0.01% → 1" states no spacing of 0
						sp = atoi(low, m[g], m[g+1])
					}
				}
				pips, ok := nearestFee(low, fees, prev, m[0], m[1])
				prev = m[1]
				if sp < 0 || !ok {
					continue
				}
				add(Mechanic{Kind: MechTickSpacing, Value: float64(sp), FeePips: pips}, m[0], m[1])
			}
		}
		for _, lm := range []struct {
			re   *regexp.Regexp
			kind MechanicKind
		}{{reLTV, MechLTV}, {reLiqThreshold, MechLiquidationThreshold}, {reReserveFac, MechReserveFactor}, {reLiqBonus, MechLiquidationBonus}} {
			for _, m := range lm.re.FindAllStringSubmatchIndex(low, MaxMechanics) {
				v, ok := atof(low, m[2], m[3])
				if !ok {
					v, ok = atof(low, m[4], m[5])
				}
				if !ok {
					continue
				}
				add(Mechanic{Kind: lm.kind, Symbol: nearestSymbol(cl.words, m[0], m[1]), Value: v}, m[0], m[1])
			}
		}
	}
	return out
}

// fraction reports whether the number ending at s[j] goes on as a
// decimal fraction or a percentage: its integer part is not the number.
func fraction(s string, j int) bool {
	if j < 0 || j >= len(s) {
		return false
	}
	return s[j] == '%' || s[j] == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9'
}

func atoi(s string, i, j int) int {
	if i < 0 {
		return -1
	}
	n, err := strconv.Atoi(s[i:j])
	if err != nil {
		return -1
	}
	return n
}

func atof(s string, i, j int) (float64, bool) {
	if i < 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(s[i:j], 64)
	return v, err == nil && !math.IsInf(v, 0)
}

// nearestSymbol returns the symbol-like word nearest to the span [i, j)
// of its clause, the one before on a tie; "" when none.
func nearestSymbol(ws []word, i, j int) string {
	best, dist := "", math.MaxInt
	for _, w := range ws {
		if w.kind != wordSymbol {
			continue
		}
		d := i - w.end
		if w.start >= j {
			d = w.start - j + 1
		}
		if d < 0 {
			d = 0
		}
		if d < dist {
			best, dist = w.text, d
		}
	}
	return best
}

// nearestFee returns the Uniswap V3 fee tier (in hundredths of a basis
// point) of the fee mention that a tick spacing at [i, j) is about, when
// it is one of the four: the nearest one before it and after the
// previous spacing (from), else the nearest one after it.
func nearestFee(low string, fees [][]int, from, i, j int) (uint32, bool) {
	best, dist := uint32(0), math.MaxInt
	for _, m := range fees {
		if m[0] < from {
			continue
		}
		var pips float64
		switch {
		case m[2] >= 0:
			v, _ := strconv.ParseFloat(low[m[2]:m[3]], 64)
			pips = v * 10000
		case m[4] >= 0:
			v, _ := strconv.ParseFloat(low[m[4]:m[5]], 64)
			pips = v * 100
		default:
			v, _ := strconv.ParseFloat(low[m[6]:m[7]], 64)
			pips = v
		}
		d := i - m[1]
		if m[0] >= j {
			d = len(low) + m[0] - j // after: only when none is before
		}
		if d < 0 {
			d = 0
		}
		if d < dist {
			best, dist = uint32(math.Round(pips)), d
		}
	}
	_, ok := tickSpacings[best]
	return best, ok
}

// tickSpacings are Uniswap V3's fee tiers and their tick spacings, fixed
// by the factory (feeAmountTickSpacing: 500 and 3000 and 10000 in its
// constructor, 100 enabled by governance in 2021); once enabled a fee's
// spacing can never change.
var tickSpacings = map[uint32]int{100: 1, 500: 10, 3000: 60, 10000: 200}

func feeName(pips uint32) string {
	return strconv.FormatFloat(float64(pips)/10000, 'f', -1, 64) + " %"
}

// mechanic returns why the book or the protocol's fixed rules contradict
// m ("" when they do not), or what they confirm.
func (v *BookVerifier) mechanic(m Mechanic) (bad, ok string) {
	switch m.Kind {
	case MechDecimals:
		if stopSymbol(m.Symbol) || len(m.Symbol) < 3 {
			return "", ""
		}
		if _, verifiable := v.scope(m.ChainID); !verifiable {
			return "", ""
		}
		var listed []string
		for _, s := range v.symbols[strings.ToUpper(m.Symbol)] {
			if m.ChainID != 0 && s.chain.ID != m.ChainID {
				continue
			}
			if float64(s.token.Decimals) == m.Value {
				return "", fmt.Sprintf("%s has %d decimals", s.token.Symbol, s.token.Decimals)
			}
			listed = append(listed, fmt.Sprintf("%s has %d decimals on %s", s.token.Symbol, s.token.Decimals, chainName(s.chain)))
		}
		if len(listed) == 0 {
			return "", ""
		}
		if len(listed) > 2 {
			listed = listed[:2]
		}
		return fmt.Sprintf("%s in ward's address book, not %g", strings.Join(listed, "; "), m.Value), ""
	case MechTickSpacing:
		want := tickSpacings[m.FeePips]
		if float64(want) == m.Value {
			return "", fmt.Sprintf("the %s fee tier has tick spacing %d", feeName(m.FeePips), want)
		}
		return fmt.Sprintf("Uniswap V3's %s fee tier has tick spacing %d, fixed by its factory, not %g", feeName(m.FeePips), want, m.Value), ""
	case MechLTV, MechLiquidationThreshold, MechReserveFactor, MechLiquidationBonus:
		// A loan-to-value at or above 100 % lends more than the
		// collateral; a liquidation threshold must leave room for the
		// liquidation bonus (Aave: threshold × bonus ≤ 100 %); a reserve
		// factor is a share of interest.
		if m.Value >= 100 && m.Kind != MechReserveFactor && m.Kind != MechLiquidationBonus || m.Value > 100 {
			return fmt.Sprintf("a %s of %g %% is impossible: it must stay below 100 %%", strings.ReplaceAll(m.Kind.String(), "_", " "), m.Value), ""
		}
	}
	return "", ""
}

// collateralPairs returns why the LTV and liquidation threshold one
// clause states for one asset contradict each other: a market lends at
// most up to its liquidation threshold (Aave V3 refuses ltv >
// liquidationThreshold), or "".
func collateralPairs(ms []Mechanic) []string {
	var out []string
	for i, a := range ms {
		// A liquidation pays the debt plus the bonus out of collateral
		// worth the debt over the threshold: threshold × (1 + bonus)
		// above 100 % pays more collateral than the position holds
		// (Aave V3's configurator refuses it).
		if a.Kind == MechLiquidationThreshold || a.Kind == MechLiquidationBonus {
			for _, b := range ms[i+1:] {
				if b.Kind == a.Kind || b.Clause != a.Clause || !strings.EqualFold(a.Symbol, b.Symbol) ||
					b.Kind != MechLiquidationThreshold && b.Kind != MechLiquidationBonus {
					continue
				}
				lt, bonus := a.Value, b.Value
				if a.Kind == MechLiquidationBonus {
					lt, bonus = b.Value, a.Value
				}
				if lt*(100+bonus) > 100*100 {
					out = append(out, fmt.Sprintf("a liquidation threshold of %g %% with a liquidation bonus of %g %% is impossible: a liquidation would pay out more collateral than the position holds", lt, bonus))
				}
			}
		}
		if a.Kind != MechLTV {
			continue
		}
		for _, b := range ms[i+1:] {
			if b.Kind == MechLiquidationThreshold && b.Clause == a.Clause && strings.EqualFold(a.Symbol, b.Symbol) && a.Value > b.Value {
				out = append(out, fmt.Sprintf("an LTV of %g %% above a liquidation threshold of %g %% is impossible: a position would be liquidatable as soon as it is opened", a.Value, b.Value))
			}
		}
	}
	return out
}
