package catalog

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/catalog/uniswap"
	"github.com/wardhq/ward/internal/chain"
)

// The figures of a Sample.
const (
	SamplePortfolioUSD = "portfolio_usd"
	SampleETHUSD       = "eth_usd"
	SampleGasGwei      = "gas_gwei"
	SampleTVLUSD       = "tvl_usd"
)

// Sample reads, at the latest block, the figures causal rollback needs:
//
//   - "portfolio_usd": the wallet's value in USD: native ETH plus every
//     token the catalogue knows (env.Tokens, and WETH) that it holds,
//     each priced by its feed, as data_get_portfolio_snapshot values
//     them (in whole cents). Tokens without a feed are not counted.
//   - "eth_usd": ETH's USD price from env.Venues.ETHFeed.
//   - "gas_gwei": the latest block's base fee in gwei.
//   - "tvl_usd": a TVL index, the USD value of the tokens held by the
//     Uniswap V2 pairs and V3 pools (every fee tier) of env.Venues'
//     factories between two known tokens that both have a feed.
//
// A figure that cannot be read is left out of the map rather than
// guessed: portfolio_usd without a wallet, or when a held token's feed is
// stale or does not answer; eth_usd when the ETH feed is unset or stale;
// gas_gwei before London; tvl_usd when no such pool exists or one of
// their feeds is stale. Each read is of the latest block at the time it
// is made. The error is non-nil only when nothing could be read; it then
// joins the reasons.
func Sample(ctx context.Context, env *Env) (map[string]float64, error) {
	if env == nil || env.Chain == nil {
		return nil, errors.New("catalog: sample: no chain")
	}
	// The chain may answer from a cached head without looking at ctx: a
	// sample for a caller who has gone is not taken.
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("catalog: sample: %w", err)
	}
	s := sampler{env: env, prices: map[common.Address]priceRead{}}
	out := map[string]float64{}
	var errs []error
	h, err := native.Head(ctx, env)
	switch {
	case err != nil:
		errs = append(errs, err)
	case h.BaseFee == nil:
		errs = append(errs, errors.New("gas_gwei: the latest block has no base fee"))
	default:
		g, _ := new(big.Float).Quo(new(big.Float).SetInt(h.BaseFee), big.NewFloat(1e9)).Float64()
		out[SampleGasGwei] = g
	}
	for _, f := range []struct {
		name string
		read func(context.Context) (float64, error)
	}{{SampleETHUSD, s.ethUSD}, {SamplePortfolioUSD, s.portfolioUSD}, {SampleTVLUSD, s.tvlUSD}} {
		v, err := f.read(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.name, err))
			continue
		}
		out[f.name] = v
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("catalog: sample: nothing could be read: %w", errors.Join(errs...))
	}
	return out, nil
}

// sampler reads one Sample, reading each feed once.
type sampler struct {
	env    *Env
	prices map[common.Address]priceRead
}

type priceRead struct {
	p   native.Price
	err error
}

// errStale is the reason a figure priced by a stale feed is left out.
var errStale = errors.New("the price feed is stale")

// price returns a feed's fresh price.
func (s *sampler) price(ctx context.Context, feed common.Address) (native.Price, error) {
	r, ok := s.prices[feed]
	if !ok {
		r.p, r.err = native.FeedPrice(ctx, s.env, feed)
		if r.err == nil && r.p.Stale {
			r.err = fmt.Errorf("%w: %s", errStale, feed.Hex())
		}
		s.prices[feed] = r
	}
	return r.p, r.err
}

func (s *sampler) ethUSD(ctx context.Context) (float64, error) {
	if s.env.Venues.ETHFeed == (common.Address{}) {
		return 0, native.ErrUnpriced
	}
	p, err := s.price(ctx, s.env.Venues.ETHFeed)
	if err != nil {
		return 0, err
	}
	return p.USD, nil
}

func (s *sampler) portfolioUSD(ctx context.Context) (float64, error) {
	owner, err := native.Owner(s.env)
	if err != nil {
		return 0, err
	}
	assets := append([]Token{{Symbol: "ETH", Decimals: 18, Feed: s.env.Venues.ETHFeed}}, s.env.KnownTokens()...)
	bals, err := native.Balances(ctx, s.env.Chain, owner, addressesOf(assets))
	if err != nil {
		return 0, err
	}
	var vals []*big.Int
	var feeds []Token
	for i, t := range assets {
		if bals[i].Sign() > 0 && t.Feed != (common.Address{}) {
			vals, feeds = append(vals, bals[i]), append(feeds, t)
		}
	}
	return s.value(ctx, feeds, vals)
}

// value values amounts of tokens at their feeds' fresh prices, summed in
// whole cents as the portfolio tool sums them.
func (s *sampler) value(ctx context.Context, tokens []Token, amounts []*big.Int) (float64, error) {
	var total int64
	for i, t := range tokens {
		p, err := s.price(ctx, t.Feed)
		if err != nil {
			return 0, err
		}
		c, ok := native.UsdCents(amounts[i], t.Decimals, p)
		if !ok || total+c < total {
			return 0, fmt.Errorf("the value of %s does not fit", t.Symbol)
		}
		total += c
	}
	return float64(total) / 100, nil
}

func (s *sampler) tvlUSD(ctx context.Context) (float64, error) {
	var priced []Token
	for _, t := range s.env.KnownTokens() {
		if t.Feed != (common.Address{}) {
			priced = append(priced, t)
		}
	}
	f2, f3 := s.env.Venues.UniswapV2Factory, s.env.Venues.UniswapV3Factory
	var tokens []Token
	var amounts []*big.Int
	pools := 0
	for i, a := range priced {
		for _, b := range priced[i+1:] {
			if a.Address == b.Address {
				continue
			}
			var found []common.Address
			if f2 != (common.Address{}) {
				pair, err := native.CallAddress(ctx, s.env, chain.UniswapV2FactoryABI(), f2, "getPair", a.Address, b.Address)
				if err != nil {
					return 0, err
				}
				found = append(found, pair)
			}
			if f3 != (common.Address{}) {
				for _, fee := range uniswap.FeeTiers {
					pool, err := native.CallAddress(ctx, s.env, chain.UniswapV3FactoryABI(), f3, "getPool", a.Address, b.Address, big.NewInt(fee))
					if err != nil {
						return 0, err
					}
					found = append(found, pool)
				}
			}
			for _, pool := range found {
				if pool == (common.Address{}) {
					continue
				}
				pools++
				for _, t := range []Token{a, b} {
					bal, err := s.env.Chain.TokenBalance(ctx, t.Address, pool)
					if err != nil {
						return 0, err
					}
					tokens, amounts = append(tokens, t), append(amounts, bal)
				}
			}
		}
	}
	if pools == 0 {
		return 0, errors.New("no Uniswap pool between priced tokens")
	}
	return s.value(ctx, tokens, amounts)
}
