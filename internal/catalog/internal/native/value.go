package native

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
)

// How the catalogue values a token in USD (ValueCents, and so the spending
// limits):
//
//  1. A token with a Chainlink-style feed (latestRoundData) is priced by
//     it when the round is fresh (see FeedRound). When a Uniswap V3 pool
//     pairs it with another feed-priced token and that pool can price
//     (poolPrice), the feed must agree with the pool's TWAP within
//     MaxDeviationBps, or the token is unpriced: a depeg, a misconfigured
//     or compromised feed, or a manipulated pool must not set what the
//     agent may spend. Without such a pool, the feed stands alone.
//  2. A source that only answers latestAnswer (no round, no update time,
//     as several of Aave's price adapters) cannot be checked for
//     staleness: it is accepted only when a pool TWAP agrees with it.
//  3. A token without a feed is priced by the TWAP of its deepest pool
//     against a feed-priced token, if that pool has the history and the
//     liquidity PriceConfig asks for.
//  4. Anything else is unpriced, and Valuation.Why says which step
//     failed and what the operator can configure.
//
// A stale feed is never replaced by a pool: staleness is a sign of
// trouble that a TWAP cannot rule out.

// PriceSource says where a token's USD price came from. The zero value is
// Unpriced.
type PriceSource uint8

const (
	Unpriced          PriceSource = iota
	FromFeed                      // a fresh feed, with no pool to cross-check it
	FromCheckedFeed               // a fresh feed that a pool TWAP agrees with
	FromCheckedAnswer             // a latestAnswer-only source that a pool TWAP agrees with
	FromTWAP                      // no feed: a pool TWAP against a feed-priced token
)

func (s PriceSource) String() string {
	switch s {
	case FromFeed:
		return "feed"
	case FromCheckedFeed:
		return "feed checked against a pool TWAP"
	case FromCheckedAnswer:
		return "latestAnswer checked against a pool TWAP"
	case FromTWAP:
		return "pool TWAP"
	}
	return "unpriced"
}

func (s PriceSource) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Valuation is a token's USD price at one block, or why it has none.
type Valuation struct {
	Token  common.Address
	Source PriceSource
	// Why says, for an unpriced token, why, and what the operator can
	// configure.
	Why string
	// Feed is the feed's price, when one was read; TWAP the pool's.
	Feed *Price
	TWAP *TWAP
	// perUnit is USD per base unit (nil: unpriced).
	perUnit *big.Rat
}

// Priced reports whether v has a price.
func (v Valuation) Priced() bool {
	return v.Source != Unpriced && v.perUnit != nil && v.perUnit.Sign() > 0
}

// Cents values amount base units in US cents, rounded up (a positive
// amount is worth at least a cent, so many tiny actions cannot pass as
// free); false when unpriced or the value does not fit an int64.
func (v Valuation) Cents(amount *big.Int) (int64, bool) {
	if !v.Priced() || amount == nil || amount.Sign() < 0 {
		return 0, false
	}
	c := new(big.Rat).Mul(new(big.Rat).SetInt(amount), v.perUnit)
	c.Mul(c, big.NewRat(100, 1))
	q, r := new(big.Int).QuoRem(c.Num(), c.Denom(), new(big.Int))
	if r.Sign() > 0 {
		q.Add(q, BigOne)
	}
	if !q.IsInt64() {
		return 0, false
	}
	return q.Int64(), true
}

// Valuate prices the token at addr (the zero address is native ETH) at the
// latest block. See the comment above PriceSource for the order of the
// sources. Results are cached for the block (see priceCache).
func Valuate(ctx context.Context, env *Env, addr common.Address) Valuation {
	blk, err := env.Prices.block(ctx, env)
	if err != nil {
		return Valuation{Token: addr, Why: "the chain's latest block could not be read, so no price can be checked"}
	}
	return blk.value(addr, func() Valuation { return valuate(ctx, env, blk, addr) })
}

func valuate(ctx context.Context, env *Env, blk *blockPrices, addr common.Address) Valuation {
	cfg := env.Price.withDefaults()
	v := Valuation{Token: addr}
	t, known := env.Token(addr)
	if !known || t.Feed == (common.Address{}) {
		tw, why := poolPrice(ctx, env, blk, addr)
		if tw == nil {
			what := "no USD price feed is configured for it: set usd_feed on its [[chain.tokens]] entry"
			if !known {
				what = "it is not in the chain's token list: add it, with a usd_feed, as a [[chain.tokens]] entry of the chain in ward.toml or its address_book file"
			}
			v.Why = fmt.Sprintf("%s; nor can a pool price it: %s (see twap_window and min_twap_liquidity_usd)", what, why)
			return v
		}
		v.Source, v.TWAP, v.perUnit = FromTWAP, tw, tw.perUnit
		return v
	}
	p, err := blk.feed(ctx, env, t.Feed)
	if err != nil {
		return answerOnly(ctx, env, blk, v, t, cfg)
	}
	v.Feed = &p
	if p.Stale {
		v.Why = fmt.Sprintf("its USD feed %s is stale: %s", t.Feed.Hex(), strings.Join(p.StaleReasons, "; "))
		return v
	}
	per := feedPerUnit(p, t.Decimals)
	if per == nil {
		v.Why = fmt.Sprintf("its USD feed %s has no positive answer", t.Feed.Hex())
		return v
	}
	tw, _ := poolPrice(ctx, env, blk, addr)
	if tw == nil {
		v.Source, v.perUnit = FromFeed, per
		return v
	}
	v.TWAP = tw
	if d := deviationBps(per, tw.perUnit); d > cfg.MaxDeviationBps {
		v.Why = fmt.Sprintf("its USD feed %s and the %s TWAP of Uniswap V3 pool %s disagree by %d bps (feed %s, pool %s), more than the %d max_price_deviation_bps: a depeg, a wrong or manipulated feed, or a manipulated pool",
			t.Feed.Hex(), tw.Window, tw.Pool.Hex(), d, usd(per, t.Decimals), usd(tw.perUnit, t.Decimals), cfg.MaxDeviationBps)
		return v
	}
	v.Source, v.perUnit = FromCheckedFeed, per
	return v
}

// answerOnly prices t from a source without latestRoundData: its
// latestAnswer, accepted only when a pool TWAP agrees with it.
func answerOnly(ctx context.Context, env *Env, blk *blockPrices, v Valuation, t Token, cfg PriceConfig) Valuation {
	a := chain.AggregatorV3ABI()
	dec, err := CallAt(ctx, env.Chain, a, t.Feed, blk.number, "decimals")
	if err != nil {
		v.Why = fmt.Sprintf("its USD feed %s could not be read (is usd_feed a Chainlink-style AggregatorV3 feed on this chain?)", t.Feed.Hex())
		return v
	}
	ans, err := CallAt(ctx, env.Chain, a, t.Feed, blk.number, "latestAnswer")
	if err != nil {
		v.Why = fmt.Sprintf("its USD feed %s could not be read (is usd_feed a Chainlink-style AggregatorV3 feed on this chain?)", t.Feed.Hex())
		return v
	}
	d, ok1 := dec[0].(uint8)
	n, ok2 := ans[0].(*big.Int)
	if !ok1 || !ok2 || n.Sign() <= 0 {
		v.Why = fmt.Sprintf("its USD price source %s has no positive latestAnswer", t.Feed.Hex())
		return v
	}
	per := feedPerUnit(Price{Answer: n, Decimals: d}, t.Decimals)
	tw, why := poolPrice(ctx, env, blk, v.Token)
	if tw == nil {
		v.Why = fmt.Sprintf("its USD price source %s answers only latestAnswer(), which carries no update time and so cannot be checked for staleness; such a source is accepted only when a Uniswap V3 TWAP confirms it, and none can: %s (give it a latestRoundData feed as usd_feed, or see min_twap_liquidity_usd)", t.Feed.Hex(), why)
		return v
	}
	v.TWAP = tw
	if dv := deviationBps(per, tw.perUnit); dv > cfg.MaxDeviationBps {
		v.Why = fmt.Sprintf("its latestAnswer-only USD price source %s and the %s TWAP of Uniswap V3 pool %s disagree by %d bps (source %s, pool %s), more than the %d max_price_deviation_bps",
			t.Feed.Hex(), tw.Window, tw.Pool.Hex(), dv, usd(per, t.Decimals), usd(tw.perUnit, t.Decimals), cfg.MaxDeviationBps)
		return v
	}
	v.Source, v.perUnit = FromCheckedAnswer, per
	return v
}

// usd writes a per-base-unit price as dollars per whole token.
func usd(per *big.Rat, decimals uint8) string {
	return "$" + RatString(new(big.Rat).Mul(per, new(big.Rat).SetInt(Pow10(int(decimals)))), 6)
}

// priceCacheTTL bounds how long a block's prices are reused: on a chain
// that mines rarely (a dev chain) the block stays the latest while a
// feed's round ages past its limit.
const priceCacheTTL = 10 * time.Second

// PriceCache keeps the valuations and feed rounds of one block, keyed by
// the block's hash (so a reorg, even to the same height, starts afresh)
// and for at most priceCacheTTL, and the pools the factory returned. It
// belongs to one Env: the Env's tokens, venues and PriceConfig are not
// part of its keys. The zero value is ready; it is safe for concurrent
// use.
type PriceCache struct {
	mu    sync.Mutex
	cur   *blockPrices
	pools map[poolKey]poolEntry
}

type poolKey struct {
	factory, a, b common.Address
	fee           uint32
}

type poolEntry struct {
	addr common.Address
	at   time.Time
}

// blockPrices are the prices of one block.
type blockPrices struct {
	hash   common.Hash
	number *big.Int
	at     time.Time

	mu    sync.Mutex
	vals  map[common.Address]Valuation
	feeds map[common.Address]feedResult
}

type feedResult struct {
	p   Price
	err error
}

// block returns the prices of the latest block; a nil cache returns an
// empty one each time.
func (c *PriceCache) block(ctx context.Context, env *Env) (*blockPrices, error) {
	h, err := env.Chain.HeaderLatest(ctx)
	if err != nil {
		return nil, err
	}
	now := env.Clock()
	fresh := &blockPrices{hash: h.Hash(), number: new(big.Int).Set(h.Number), at: now,
		vals: map[common.Address]Valuation{}, feeds: map[common.Address]feedResult{}}
	if c == nil {
		return fresh, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if b := c.cur; b != nil && b.hash == h.Hash() && now.Sub(b.at) < priceCacheTTL && !now.Before(b.at) {
		return b, nil
	}
	c.cur = fresh
	return c.cur, nil
}

// value returns the cached valuation of addr, or computes it.
func (b *blockPrices) value(addr common.Address, compute func() Valuation) Valuation {
	b.mu.Lock()
	v, ok := b.vals[addr]
	b.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	b.mu.Lock()
	b.vals[addr] = v
	b.mu.Unlock()
	return v
}

// feed reads a feed's latest round at the block, once.
func (b *blockPrices) feed(ctx context.Context, env *Env, feed common.Address) (Price, error) {
	b.mu.Lock()
	r, ok := b.feeds[feed]
	b.mu.Unlock()
	if ok {
		return r.p, r.err
	}
	r.p, r.err = feedRoundAt(ctx, env, feed, nil, b.number)
	b.mu.Lock()
	b.feeds[feed] = r
	b.mu.Unlock()
	return r.p, r.err
}

// pool returns the factory's pool of a and b at fee. A pool, once
// created, never moves, so an address is kept for good; "no pool" is
// kept for one window (a pool created since could not price anything
// before a window of history anyway).
func (c *PriceCache) pool(ctx context.Context, env *Env, factory, a, b common.Address, fee uint32, window time.Duration) (common.Address, error) {
	if strings.Compare(a.Hex(), b.Hex()) > 0 {
		a, b = b, a
	}
	if c == nil {
		return CallAddress(ctx, env, chain.UniswapV3FactoryABI(), factory, "getPool", a, b, new(big.Int).SetUint64(uint64(fee)))
	}
	k := poolKey{factory, a, b, fee}
	now := env.Clock()
	c.mu.Lock()
	e, ok := c.pools[k]
	c.mu.Unlock()
	if ok && (e.addr != (common.Address{}) || (now.Sub(e.at) < window && !now.Before(e.at))) {
		return e.addr, nil
	}
	addr, err := CallAddress(ctx, env, chain.UniswapV3FactoryABI(), factory, "getPool", a, b, new(big.Int).SetUint64(uint64(fee)))
	if err != nil {
		return common.Address{}, err
	}
	c.mu.Lock()
	if c.pools == nil {
		c.pools = map[poolKey]poolEntry{}
	}
	c.pools[k] = poolEntry{addr: addr, at: now}
	c.mu.Unlock()
	return addr, nil
}
