package catalog

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Impermanent loss and loss-versus-rebalancing of a liquidity position,
// full range (Uniswap V2) or concentrated (Uniswap V3).

const secondsPerYear = 365 * 24 * 3600

var lvrTool = native.ReadTool{
	Name: "intel_compute_lvr",
	Description: "Compute the impermanent loss and the loss-versus-rebalancing (LVR) of a liquidity position, full range (Uniswap V2, " +
		"or V3 without price_lower/price_upper) or a Uniswap V3 range [price_lower, price_upper]. Prices are of the first token in the " +
		"second (the unit of account). Impermanent loss: the position's value at current_price over the value of holding the tokens " +
		"it held at entry_price, minus one (constant-product amounts: x = L(1/√P - 1/√Pb), y = L(√P - √Pa), the price clamped to the range). " +
		"LVR: the standard rate for a constant-product pool, σ²/8 · V a year for a full-range position of value V (σ the annualised " +
		"volatility), and σ²/4 · L·√P for a V3 position in range (zero out of range). The volatility is volatility_annual when given, " +
		"else the realised volatility of the first token's USD price feed over its last feed_rounds rounds (sum of squared log returns " +
		"over the time they span, zero mean assumed, annualised over 365 days); the result says which. Assumes a frictionless " +
		"arbitrageur and a geometric Brownian price; fees earned are not included (the pool's fees must exceed LVR for the position to pay). " +
		"Reads only the price feed.",
	Category: tool.CatIntelligence, Budget: tool.Medium,
	Steps:    []string{"Reading the volatility", "Computing"},
	Snippet:  "intel_compute_lvr: impermanent loss and LVR (σ²/8·V) of a V2 or V3 liquidity position.",
	Required: []string{"value_usd", "entry_price", "current_price"},
	Params: []string{
		native.PNumber("value_usd", "The position's value now, in the second token's unit (e.g. USD)", 0, 1e15),
		native.PNumber("entry_price", "Price of the first token when the position was opened", 0, 1e18),
		native.PNumber("current_price", "Price of the first token now", 0, 1e18),
		native.PNumber("price_lower", "Lower price of a V3 range (with price_upper)", 0, 1e18),
		native.PNumber("price_upper", "Upper price of a V3 range (with price_lower)", 0, 1e18),
		native.PNumber("volatility_annual", "Annualised volatility to assume (0.8 = 80%); omit to measure it from token's feed", 0, 100),
		native.PAddress("token", "The first token, whose USD feed gives the volatility when volatility_annual is omitted"),
		native.PInt("feed_rounds", "Feed rounds to measure the volatility over (default 24)", 3, 500)},
	Result: []string{native.RProp("impermanent_loss", "number", "Position value over hold value minus one"),
		native.RProp("lvr_usd_per_day", "number", "Expected loss to arbitrageurs a day"),
		native.RProp("volatility_source", "string", "Where the volatility came from")},
	Action: "lvr",
	Run:    readLVR,
}

type lvrOut struct {
	Range            string   `json:"range"`
	InRange          bool     `json:"in_range"`
	PriceRatio       float64  `json:"price_ratio"`
	IL               float64  `json:"impermanent_loss"`
	ILPercent        float64  `json:"impermanent_loss_percent"`
	Volatility       float64  `json:"volatility_annual"`
	VolatilitySource string   `json:"volatility_source"`
	FeedRounds       int      `json:"feed_rounds_used,omitempty"`
	LVRPerYear       float64  `json:"lvr_usd_per_year"`
	LVRPerDay        float64  `json:"lvr_usd_per_day"`
	LVRFractionYear  float64  `json:"lvr_fraction_of_value_per_year"`
	Assumptions      []string `json:"assumptions"`
}

// positionAmounts are the token amounts per unit of liquidity of a
// constant-product position over [pa, pb] at price p (pb = +Inf, pa = 0
// for full range).
func positionAmounts(p, pa, pb float64) (x, y float64) {
	s := math.Min(math.Max(p, pa), pb)
	return 1/math.Sqrt(s) - 1/math.Sqrt(pb), math.Sqrt(s) - math.Sqrt(pa)
}

// rangeIL is the impermanent loss of a position over [pa, pb] opened at
// p0, at p1: its value over the value of holding its entry amounts, minus
// one. For pa = 0, pb = +Inf it is 2√r/(1+r) - 1.
func rangeIL(p0, p1, pa, pb float64) float64 {
	x0, y0 := positionAmounts(p0, pa, pb)
	x1, y1 := positionAmounts(p1, pa, pb)
	return (x1*p1+y1)/(x0*p1+y0) - 1
}

// lvrRate is the LVR a year of a position of value v at price p over
// [pa, pb] with annualised volatility sigma: σ²/4 · L√P with L the
// liquidity giving value v (σ²/8 · v at full range), zero out of range.
func lvrRate(v, p, pa, pb, sigma float64) float64 {
	if p <= pa || p >= pb {
		return 0
	}
	x, y := positionAmounts(p, pa, pb)
	l := v / (x*p + y)
	return sigma * sigma / 4 * l * math.Sqrt(p)
}

// realisedVolatility annualises the variance of log returns over time:
// Σ ln(pᵢ/pᵢ₋₁)² / Σ Δtᵢ (seconds), zero mean assumed. prices and times
// are oldest first.
func realisedVolatility(prices []float64, times []int64) (float64, error) {
	if len(prices) < 3 || len(prices) != len(times) {
		return 0, errors.New("fewer than three price points")
	}
	var sq float64
	for i := 1; i < len(prices); i++ {
		if prices[i] <= 0 || prices[i-1] <= 0 {
			return 0, errors.New("a price is not positive")
		}
		r := math.Log(prices[i] / prices[i-1])
		sq += r * r
	}
	span := times[len(times)-1] - times[0]
	if span <= 0 {
		return 0, errors.New("the price points span no time")
	}
	return math.Sqrt(sq / float64(span) * secondsPerYear), nil
}

func readLVR(ctx context.Context, env *Env, in *registry.Input) (any, error) {
	v, _ := native.ArgFloat(in, "value_usd")
	p0, _ := native.ArgFloat(in, "entry_price")
	p1, _ := native.ArgFloat(in, "current_price")
	pa, hasLo := native.ArgFloat(in, "price_lower")
	pb, hasHi := native.ArgFloat(in, "price_upper")
	if !(v > 0 && p0 > 0 && p1 > 0) {
		return nil, errors.New("value_usd, entry_price and current_price must be positive")
	}
	out := lvrOut{Range: "full", PriceRatio: p1 / p0, InRange: true}
	switch {
	case hasLo != hasHi:
		return nil, errors.New("give price_lower with price_upper, or neither for a full-range position")
	case hasLo && !(pa < pb):
		return nil, errors.New("price_lower must be below price_upper")
	case hasLo:
		out.Range = fmt.Sprintf("[%g, %g]", pa, pb)
		out.InRange = p1 > pa && p1 < pb
	default:
		pa, pb = 0, math.Inf(1)
	}
	in.Step(0)
	sigma, hasSigma := native.ArgFloat(in, "volatility_annual")
	if hasSigma {
		out.VolatilitySource = "volatility_annual as given"
	} else {
		var err error
		if sigma, out.FeedRounds, out.VolatilitySource, err = feedVolatility(ctx, env, in); err != nil {
			return nil, err
		}
	}
	in.Step(1)
	out.IL = rangeIL(p0, p1, pa, pb)
	out.ILPercent = out.IL * 100
	out.Volatility = sigma
	out.LVRPerYear = lvrRate(v, p1, pa, pb, sigma)
	out.LVRPerDay = out.LVRPerYear / 365
	out.LVRFractionYear = out.LVRPerYear / v
	out.Assumptions = []string{
		"constant-product liquidity (Uniswap V2, or V3 within its range); fees earned are not included",
		"LVR is the expected loss to a frictionless arbitrageur under a geometric Brownian price, at the current price and value; it changes as they do",
		"prices are of the first token in the second, which is the unit of account",
	}
	return out, nil
}

// feedVolatility measures the realised volatility of token's USD feed
// over its last feed_rounds rounds.
func feedVolatility(ctx context.Context, env *Env, in *registry.Input) (float64, int, string, error) {
	tok, err := native.ArgAddressOr(in, "token", common.Address{})
	if err != nil {
		return 0, 0, "", err
	}
	if tok == (common.Address{}) {
		return 0, 0, "", errors.New("give volatility_annual, or token to measure the volatility from its price feed")
	}
	t, ok := env.Token(tok)
	if !ok || t.Feed == (common.Address{}) {
		return 0, 0, "", fmt.Errorf("token %s has no USD price feed to measure the volatility from; give volatility_annual", tok.Hex())
	}
	prices, times, err := feedSeries(ctx, env, t.Feed, int(native.ArgInt(in, "feed_rounds", 24)))
	if err != nil {
		return 0, 0, "", err
	}
	sigma, err := realisedVolatility(prices, times)
	if err != nil {
		return 0, 0, "", fmt.Errorf("feed %s: %w over its %d readable rounds; give volatility_annual", t.Feed.Hex(), err, len(prices))
	}
	return sigma, len(prices), fmt.Sprintf("realised volatility of feed %s over its last %d rounds", t.Feed.Hex(), len(prices)), nil
}

func ratFloat(x *big.Int) float64 { f, _ := new(big.Float).SetInt(x).Float64(); return f }

// feedSeries reads a feed's last n rounds' answers and update times,
// oldest first, stopping early where the feed keeps no older round.
func feedSeries(ctx context.Context, env *Env, feed common.Address, n int) ([]float64, []int64, error) {
	p, err := native.FeedRound(ctx, env, feed, nil)
	if err != nil {
		return nil, nil, err
	}
	prices := []float64{ratFloat(p.Answer)}
	times := []int64{p.UpdatedAt.Unix()}
	for id := new(big.Int).Set(p.RoundID); len(prices) < n && id.Cmp(native.BigOne) > 0; {
		id = new(big.Int).Sub(id, native.BigOne)
		r, err := native.FeedRound(ctx, env, feed, id)
		if err != nil || r.UpdatedAt.Unix() <= 0 || r.Answer.Sign() <= 0 {
			break // the feed keeps no older round (or a new phase began)
		}
		prices = append([]float64{ratFloat(r.Answer)}, prices...)
		times = append([]int64{r.UpdatedAt.Unix()}, times...)
	}
	return prices, times, nil
}
