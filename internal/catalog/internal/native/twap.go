package native

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
)

// PriceConfig is how the catalogue prices a token from an on-chain pool
// and how far a feed may stray from that pool. The zero value selects the
// defaults, which are the strict ones; Validate refuses values that would
// make a pool price worthless.
type PriceConfig struct {
	// TWAPWindow is the span of the pool's arithmetic-mean tick (default
	// 30 minutes, at least 5 minutes, at most 24 hours). A pool whose
	// oracle cannot look back that far prices nothing.
	TWAPWindow time.Duration
	// MaxDeviationBps is how far, in basis points of the lower price, a
	// feed and a pool's TWAP may disagree before the token is unpriced
	// (default 500, at most 5000).
	MaxDeviationBps int64
	// MinTWAPLiquidityUSD is the least value, in US dollars, of a pool's
	// in-range liquidity (its harmonic mean over the window, valued at
	// the TWAP on the priced token's side, both sides counted) for the
	// pool to price or cross-check anything (default 1,000,000).
	MinTWAPLiquidityUSD int64
}

// The defaults and bounds of PriceConfig.
const (
	DefaultTWAPWindow          = 30 * time.Minute
	DefaultMaxDeviationBps     = 500
	DefaultMinTWAPLiquidityUSD = 1_000_000

	MinTWAPWindow      = 5 * time.Minute
	MaxTWAPWindow      = 24 * time.Hour
	MaxMaxDeviationBps = 5000
)

// Validate reports a value out of its bounds; zero fields are defaults.
func (c PriceConfig) Validate() error {
	var errs []error
	if c.TWAPWindow != 0 && (c.TWAPWindow < MinTWAPWindow || c.TWAPWindow > MaxTWAPWindow) {
		errs = append(errs, fmt.Errorf("twap_window %s must be between %s and %s", c.TWAPWindow, MinTWAPWindow, MaxTWAPWindow))
	}
	if c.TWAPWindow%time.Second != 0 {
		errs = append(errs, fmt.Errorf("twap_window %s must be whole seconds", c.TWAPWindow))
	}
	if c.MaxDeviationBps < 0 || c.MaxDeviationBps > MaxMaxDeviationBps {
		errs = append(errs, fmt.Errorf("max_price_deviation_bps %d must be between 1 and %d", c.MaxDeviationBps, MaxMaxDeviationBps))
	}
	if c.MinTWAPLiquidityUSD < 0 {
		errs = append(errs, fmt.Errorf("min_twap_liquidity_usd %d must be positive", c.MinTWAPLiquidityUSD))
	}
	return errors.Join(errs...)
}

// withDefaults fills zero fields. An invalid config (which Validate would
// have refused at load) is replaced by the defaults rather than used.
func (c PriceConfig) withDefaults() PriceConfig {
	if c.Validate() != nil {
		return PriceConfig{DefaultTWAPWindow, DefaultMaxDeviationBps, DefaultMinTWAPLiquidityUSD}
	}
	if c.TWAPWindow == 0 {
		c.TWAPWindow = DefaultTWAPWindow
	}
	if c.MaxDeviationBps == 0 {
		c.MaxDeviationBps = DefaultMaxDeviationBps
	}
	if c.MinTWAPLiquidityUSD == 0 {
		c.MinTWAPLiquidityUSD = DefaultMinTWAPLiquidityUSD
	}
	return c
}

// v3FeeTiers are the fee tiers the factory enables on every chain.
var v3FeeTiers = []uint32{100, 500, 3000, 10000}

// TWAP is a token's price from a Uniswap V3 pool's time-weighted mean
// tick against a token priced by a fresh feed.
type TWAP struct {
	Pool        common.Address
	Fee         uint32
	Quote       common.Address
	QuoteSymbol string
	Window      time.Duration
	MeanTick    int64
	// LiquidityUSD is the pool's harmonic-mean in-range liquidity over the
	// window, valued at the TWAP (both sides).
	LiquidityUSD float64
	// perUnit is the USD price of one base unit of the token.
	perUnit *big.Rat
}

// poolPrice is the pool TWAP that prices token best, or why none does.
// The best pool is the one with the most liquidity over the window (the
// harmonic mean from observe, which a deposit in the last block cannot
// inflate), across the fee tiers and every quote token with a fresh
// latestRoundData feed. Only observe is read: the pool's spot price
// (slot0), which a flash loan moves within one block, is never used.
func poolPrice(ctx context.Context, env *Env, blk *blockPrices, token common.Address) (*TWAP, string) {
	cfg := env.Price.withDefaults()
	factory := env.Venues.UniswapV3Factory
	if token == (common.Address{}) {
		token = env.Venues.WETH
	}
	if factory == (common.Address{}) || token == (common.Address{}) {
		return nil, "no Uniswap V3 factory is configured for this chain"
	}
	var best *TWAP
	var why []string
	pools := 0
	for _, q := range quoteTokens(env) {
		if q.Address == token {
			continue
		}
		// The pools first: their addresses are cached across blocks, so a
		// quote token without a pool costs no feed read.
		var found []common.Address
		var fees []uint32
		for _, fee := range v3FeeTiers {
			pool, err := env.Prices.pool(ctx, env, factory, token, q.Address, fee, cfg.TWAPWindow)
			if err == nil && pool != (common.Address{}) {
				found, fees = append(found, pool), append(fees, fee)
			}
		}
		if len(found) == 0 {
			continue
		}
		qp, err := blk.feed(ctx, env, q.Feed)
		if err != nil || qp.Stale {
			why = append(why, fmt.Sprintf("the feed of %s, which its pools price against, is not fresh", q.Symbol))
			continue
		}
		for i, pool := range found {
			fee := fees[i]
			pools++
			tw, err := observeTWAP(ctx, env, blk.number, pool, token, q, qp, cfg.TWAPWindow)
			if err != nil {
				why = append(why, fmt.Sprintf("pool %s (%s, %s) %v", pool.Hex(), q.Symbol, feePct(fee), err))
				continue
			}
			tw.Fee = fee
			if best == nil || tw.LiquidityUSD > best.LiquidityUSD {
				best = tw
			}
		}
	}
	switch {
	case best != nil && best.LiquidityUSD >= float64(cfg.MinTWAPLiquidityUSD):
		return best, ""
	case best != nil:
		return nil, fmt.Sprintf("its deepest Uniswap V3 pool %s (%s, %s) holds $%.0f of liquidity over the last %s, less than the $%d min_twap_liquidity_usd a pool needs to price anything",
			best.Pool.Hex(), best.QuoteSymbol, feePct(best.Fee), best.LiquidityUSD, cfg.TWAPWindow, cfg.MinTWAPLiquidityUSD)
	case pools == 0 && len(why) == 0:
		return nil, "no Uniswap V3 pool pairs it with a token priced by a feed"
	}
	if len(why) > 3 {
		why = append(why[:3], fmt.Sprintf("and %d more", len(why)-3))
	}
	return nil, "no Uniswap V3 pool can price it: " + joinSemi(why)
}

func joinSemi(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += "; "
		}
		out += v
	}
	return out
}

func feePct(fee uint32) string {
	return new(big.Rat).SetFrac64(int64(fee), 10_000).FloatString(2) + " %"
}

// quoteTokens are the tokens a pool may price against: those with a
// feed, and WETH with the ETH feed.
func quoteTokens(env *Env) []Token {
	var out []Token
	seen := map[common.Address]bool{}
	for _, t := range env.Tokens {
		if t.Feed != (common.Address{}) && t.Address != (common.Address{}) && !seen[t.Address] {
			seen[t.Address] = true
			out = append(out, t)
		}
	}
	if w := env.Venues.WETH; w != (common.Address{}) && env.Venues.ETHFeed != (common.Address{}) && !seen[w] {
		out = append(out, Token{Address: w, Symbol: "WETH", Decimals: 18, Feed: env.Venues.ETHFeed})
	}
	return out
}

var (
	errObserveOld = errors.New("cannot observe that far back (its oracle history is too short: the pool is too new, or its observation cardinality is too small)")
	two160        = new(big.Int).Lsh(BigOne, 160)
	q96           = new(big.Int).Lsh(BigOne, 96)
)

// observeTWAP prices token from pool over window at block number, with
// quote q priced at qp.
func observeTWAP(ctx context.Context, env *Env, number *big.Int, pool, token common.Address, q Token, qp Price, window time.Duration) (*TWAP, error) {
	secs := uint32(window / time.Second)
	out, err := CallAt(ctx, env.Chain, chain.UniswapV3PoolABI(), pool, number, "observe", []uint32{secs, 0})
	if err != nil {
		var re *chain.RevertError
		if errors.As(err, &re) && re.Reason == "OLD" {
			return nil, fmt.Errorf("%w over %s", errObserveOld, window)
		}
		if errors.Is(err, chain.ErrReverted) {
			return nil, fmt.Errorf("cannot observe %s back (observe reverted)", window)
		}
		return nil, fmt.Errorf("could not be read: %w", err)
	}
	ticks, ok1 := out[0].([]*big.Int)
	spl, ok2 := out[1].([]*big.Int)
	if !ok1 || !ok2 || len(ticks) != 2 || len(spl) != 2 {
		return nil, errors.New("answered observe with a malformed result")
	}
	// OracleLibrary.consult: the mean tick rounds toward negative infinity.
	s := big.NewInt(int64(secs))
	dt := new(big.Int).Sub(ticks[1], ticks[0])
	mean, rem := new(big.Int).QuoRem(dt, s, new(big.Int))
	if dt.Sign() < 0 && rem.Sign() != 0 {
		mean.Sub(mean, BigOne)
	}
	if !mean.IsInt64() || mean.Int64() < MinTick || mean.Int64() > MaxTick {
		return nil, errors.New("has a mean tick out of range")
	}
	// The harmonic-mean liquidity: secondsAgo * (2^160-1) / (delta << 32);
	// the cumulative is a uint160 that wraps.
	dl := new(big.Int).Sub(spl[1], spl[0])
	dl.Mod(dl, two160)
	if dl.Sign() == 0 {
		return nil, errors.New("has no liquidity history")
	}
	liq := new(big.Int).Mul(s, new(big.Int).Sub(two160, BigOne))
	liq.Quo(liq, dl.Lsh(dl, 32))
	if liq.Sign() == 0 {
		return nil, errors.New("held no liquidity over the window")
	}
	sqrtP, err := SqrtRatioAtTick(mean.Int64())
	if err != nil {
		return nil, err
	}
	// price is token1 base units per token0 base unit.
	price := new(big.Rat).SetFrac(new(big.Int).Mul(sqrtP, sqrtP), new(big.Int).Lsh(BigOne, 192))
	tokenIs0 := bytes.Compare(token[:], q.Address[:]) < 0
	// The quote side's virtual reserve: L*sqrtP (token1) or L/sqrtP (token0).
	var reserve *big.Rat
	if tokenIs0 {
		reserve = new(big.Rat).SetFrac(new(big.Int).Mul(liq, sqrtP), q96)
	} else {
		reserve = new(big.Rat).SetFrac(new(big.Int).Mul(liq, q96), sqrtP)
	}
	qUnit := feedPerUnit(qp, q.Decimals)
	if qUnit == nil {
		return nil, errors.New("prices against a token without a positive feed answer")
	}
	liqUSD, _ := new(big.Rat).Mul(new(big.Rat).Mul(reserve, qUnit), big.NewRat(2, 1)).Float64()
	per := new(big.Rat).Mul(price, qUnit)
	if !tokenIs0 {
		if price.Sign() == 0 {
			return nil, errors.New("has a zero price")
		}
		per = new(big.Rat).Quo(qUnit, price)
	}
	return &TWAP{Pool: pool, Quote: q.Address, QuoteSymbol: q.Symbol, Window: window, MeanTick: mean.Int64(),
		LiquidityUSD: liqUSD, perUnit: per}, nil
}

// feedPerUnit is a feed price in USD per base unit of a token with
// decimals; nil when the answer is not positive.
func feedPerUnit(p Price, decimals uint8) *big.Rat {
	if p.Answer == nil || p.Answer.Sign() <= 0 {
		return nil
	}
	return new(big.Rat).SetFrac(p.Answer, Pow10(int(p.Decimals)+int(decimals)))
}

// CallAt is Call at block number (nil: the latest block).
func CallAt(ctx context.Context, p *chain.Provider, a *chain.ABI, to common.Address, number *big.Int, method string, args ...any) ([]any, error) {
	data, err := a.Pack(method, args...)
	if err != nil {
		return nil, err
	}
	out, err := p.CallAt(ctx, ethereum.CallMsg{To: &to, Data: data}, number)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	vals, err := a.Unpack(method, out)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	return vals, nil
}

// deviationBps is |a-b| in basis points of the lower of a and b, rounded
// up (saturating).
func deviationBps(a, b *big.Rat) int64 {
	lo := a
	if b.Cmp(a) < 0 {
		lo = b
	}
	if lo.Sign() <= 0 {
		return 1 << 62
	}
	d := new(big.Rat).Sub(a, b)
	d.Abs(d).Mul(d, big.NewRat(10_000, 1)).Quo(d, lo)
	n, r := new(big.Int).QuoRem(d.Num(), d.Denom(), new(big.Int))
	if r.Sign() > 0 {
		n.Add(n, BigOne)
	}
	if !n.IsInt64() {
		return 1 << 62
	}
	return n.Int64()
}
