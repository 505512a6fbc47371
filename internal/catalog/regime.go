package catalog

import (
	"context"
	"fmt"
	"math"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Regime classification of a token's price from its feed's recorded
// rounds, by fixed thresholds chosen a priori (not fitted to any data).
const (
	regimeVolatileAbove = 1.0  // annualised volatility above 100%: volatile
	regimeTrendER       = 0.5  // efficiency ratio at least 0.5 ...
	regimeTrendMove     = 0.02 // ... and a net move of at least 2%: trend
)

var regimeTool = native.ReadTool{
	Name: "intel_classify_regime",
	Description: "Classify a token's recent price regime as volatile, trend or range from the rounds its USD price feed recorded on " +
		"chain (the last feed_rounds rounds). Measures: the realised annualised volatility (sum of squared log returns over the time " +
		"the rounds span, zero mean), the net move ln(last/first), and the efficiency ratio |sum of log returns| / sum of |log returns| " +
		"(1: every step in one direction, near 0: back and forth). Fixed thresholds, not fitted to any data: volatile when the " +
		"volatility exceeds 100% a year; otherwise trend (up or down) when the efficiency ratio is at least 0.5 and the net move at " +
		"least 2%; otherwise range. A feed updates on deviation or heartbeat, so its rounds are an irregular sample; few rounds give a " +
		"weak answer. Ward's own recorded series are not read by this tool.",
	Category: tool.CatIntelligence, Budget: tool.Medium,
	Steps:    []string{"Reading feed rounds", "Classifying"},
	Snippet:  "intel_classify_regime: volatile / trend / range from a price feed's recent rounds, by fixed thresholds.",
	Required: []string{"token"},
	Params: []string{
		native.PAddress("token", "The token whose USD feed is classified"),
		native.PInt("feed_rounds", "Rounds to read (default 24)", 4, 500)},
	Result: []string{native.RProp("regime", "string", "volatile, trend_up, trend_down or range"),
		native.RProp("volatility_annual", "number", "Realised volatility"), native.RProp("efficiency_ratio", "number", "|Σr| / Σ|r|")},
	Action: "regime",
	Run:    readRegime,
}

type regime struct {
	Regime     string  `json:"regime"`
	Volatility float64 `json:"volatility_annual"`
	Move       float64 `json:"net_log_move"`
	ER         float64 `json:"efficiency_ratio"`
}

// classifyRegime applies the thresholds to prices and times (oldest
// first).
func classifyRegime(prices []float64, times []int64) (regime, error) {
	vol, err := realisedVolatility(prices, times)
	if err != nil {
		return regime{}, err
	}
	var sum, abs float64
	for i := 1; i < len(prices); i++ {
		r := math.Log(prices[i] / prices[i-1])
		sum += r
		abs += math.Abs(r)
	}
	g := regime{Volatility: vol, Move: sum}
	if abs > 0 {
		g.ER = math.Abs(sum) / abs
	}
	switch {
	case vol > regimeVolatileAbove:
		g.Regime = "volatile"
	case g.ER >= regimeTrendER && sum >= regimeTrendMove:
		g.Regime = "trend_up"
	case g.ER >= regimeTrendER && sum <= -regimeTrendMove:
		g.Regime = "trend_down"
	default:
		g.Regime = "range"
	}
	return g, nil
}

func readRegime(ctx context.Context, env *Env, in *registry.Input) (any, error) {
	tok, err := native.ArgAddressOr(in, "token", common.Address{})
	if err != nil {
		return nil, err
	}
	t, ok := env.Token(tok)
	if !ok || t.Feed == (common.Address{}) {
		return nil, fmt.Errorf("token %s has no USD price feed", tok.Hex())
	}
	in.Step(0)
	prices, times, err := feedSeries(ctx, env, t.Feed, int(native.ArgInt(in, "feed_rounds", 24)))
	if err != nil {
		return nil, err
	}
	in.Step(1)
	g, err := classifyRegime(prices, times)
	if err != nil {
		return nil, fmt.Errorf("feed %s: %w over %d rounds", t.Feed.Hex(), err, len(prices))
	}
	return map[string]any{"token": tok.Hex(), "feed": t.Feed.Hex(), "rounds": len(prices),
		"regime": g.Regime, "volatility_annual": g.Volatility, "net_log_move": g.Move, "efficiency_ratio": g.ER,
		"thresholds": map[string]float64{"volatile_above": regimeVolatileAbove, "trend_efficiency_ratio": regimeTrendER, "trend_move": regimeTrendMove},
	}, nil
}
