package catalog_test

import (
	"context"
	"maps"
	"math"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog"
)

// These tests sample the shared dev chain of base_test.go and check each
// figure against reads of the same state through the read tools and the
// chain.

var sampleKeys = []string{catalog.SampleETHUSD, catalog.SampleGasGwei, catalog.SamplePortfolioUSD, catalog.SampleTVLUSD}

func (f *baseFixture) sample(t *testing.T, env *catalog.Env) map[string]float64 {
	t.Helper()
	s, err := catalog.Sample(t.Context(), env)
	if err != nil {
		t.Fatalf("sample: %v", err)
	}
	return s
}

// usd values amount base units of a token at price.
func usd(amount *big.Int, decimals int, price float64) float64 {
	v, _ := new(big.Float).Quo(new(big.Float).SetInt(amount), new(big.Float).SetInt(units(1, decimals))).Float64()
	return v * price
}

// price reads a token's USD price with data_get_token_price (the zero
// address: ETH).
func (f *baseFixture) price(t *testing.T, tok common.Address) float64 {
	t.Helper()
	var p struct {
		Priced   bool    `json:"priced"`
		PriceUSD float64 `json:"price_usd"`
		Stale    bool    `json:"stale"`
	}
	args := `{}`
	if tok != (common.Address{}) {
		args = argsOf("token", tok)
	}
	f.read(t, "data_get_token_price", args, &p)
	if !p.Priced || p.Stale {
		t.Fatalf("price of %s = %+v", tok, p)
	}
	return p.PriceUSD
}

// portfolioCents reads the wallet's total with data_get_portfolio_snapshot.
func (f *baseFixture) portfolioCents(t *testing.T) int64 {
	t.Helper()
	var ps struct {
		TotalCents int64   `json:"total_cents"`
		StaleUSD   float64 `json:"stale_usd"`
	}
	f.read(t, "data_get_portfolio_snapshot", `{}`, &ps)
	if ps.StaleUSD != 0 {
		t.Fatalf("portfolio with stale prices: %+v", ps)
	}
	return ps.TotalCents
}

// tvl values the dev tokens held by every Uniswap pool between two of
// them, as found by uniswap_get_pools_by_token_pair; n is the number of
// token balances valued.
func (f *baseFixture) tvl(t *testing.T) (total float64, n int) {
	t.Helper()
	toks := f.dev.Tokens()
	for i, a := range toks {
		for _, b := range toks[i+1:] {
			var got struct {
				Pools []struct {
					Address string `json:"address"`
				} `json:"pools"`
			}
			f.read(t, "uniswap_get_pools_by_token_pair", argsOf("token_a", a.Address, "token_b", b.Address), &got)
			for _, p := range got.Pools {
				for _, tk := range []common.Address{a.Address, b.Address} {
					dec := 18
					for _, x := range toks {
						if x.Address == tk {
							dec = int(x.Decimals)
						}
					}
					total += usd(f.balance(t, tk, common.HexToAddress(p.Address)), dec, f.price(t, tk))
					n++
				}
			}
		}
	}
	return total, n
}

func TestSample(t *testing.T) {
	f := base(t)
	// The head may move while the sample is taken (a block sealed for an
	// earlier test's transaction, or the provider's cached head renewed):
	// the base fee sampled is that of a block between these two reads,
	// whose numbers the provider keeps monotonic.
	before, err := f.env.Chain.HeaderLatest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	s := f.sample(t, f.env)
	after, err := f.env.Chain.HeaderLatest(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(s)); !slices.Equal(got, slices.Sorted(slices.Values(sampleKeys))) {
		t.Fatalf("sample keys = %v, want %v", got, sampleKeys)
	}
	for k, v := range s {
		if !(v > 0) || math.IsInf(v, 0) {
			t.Errorf("%s = %v, want positive", k, v)
		}
	}
	if want := f.price(t, common.Address{}); s[catalog.SampleETHUSD] != want {
		t.Errorf("eth_usd = %v, want %v", s[catalog.SampleETHUSD], want)
	}
	var fees []float64
	for n := before.Number.Uint64(); n <= after.Number.Uint64(); n++ {
		h, err := f.env.Chain.HeaderByNumber(t.Context(), n)
		if err != nil {
			t.Fatal(err)
		}
		fee, _ := new(big.Float).Quo(new(big.Float).SetInt(h.BaseFee), big.NewFloat(1e9)).Float64()
		fees = append(fees, fee)
	}
	if !slices.Contains(fees, s[catalog.SampleGasGwei]) {
		t.Errorf("gas_gwei = %v, want the base fee of a block from %v to %v: %v", s[catalog.SampleGasGwei], before.Number, after.Number, fees)
	}
	if want := float64(f.portfolioCents(t)) / 100; s[catalog.SamplePortfolioUSD] != want {
		t.Errorf("portfolio_usd = %v, want the snapshot's %v", s[catalog.SamplePortfolioUSD], want)
	}
	// The sample sums whole cents per balance: within a cent of each.
	want, n := f.tvl(t)
	if n == 0 || math.Abs(s[catalog.SampleTVLUSD]-want) > 0.01*float64(n) {
		t.Errorf("tvl_usd = %v, want %v (%d balances)", s[catalog.SampleTVLUSD], want, n)
	}
}

// Funding the wallet and moving a price move the figures by what they
// should.
func TestSampleMoves(t *testing.T) {
	f := base(t)
	ctx := t.Context()
	before := f.sample(t, f.env)

	// 1,234.56 USDC into the wallet (the operator pays the gas).
	if err := f.dev.Fund(ctx, f.wallet(), f.c.USDC, big.NewInt(1_234_560_000)); err != nil {
		t.Fatal(err)
	}
	after := f.sample(t, f.env)
	if got := after[catalog.SamplePortfolioUSD] - before[catalog.SamplePortfolioUSD]; math.Abs(got-1234.56) > 1e-6 {
		t.Errorf("portfolio rose by %v after funding 1234.56 USDC", got)
	}
	if after[catalog.SampleTVLUSD] != before[catalog.SampleTVLUSD] || after[catalog.SampleETHUSD] != before[catalog.SampleETHUSD] {
		t.Errorf("funding the wallet moved the market: %v then %v", before, after)
	}

	// ETH from 3,000 to 3,300: ETH, WETH in the wallet and WETH in the
	// pools gain 10%.
	eth := f.price(t, common.Address{})
	t.Cleanup(func() {
		if err := f.dev.SetFeedAnswer(context.WithoutCancel(ctx), f.c.FeedETHUSD, big.NewInt(int64(eth*1e8))); err != nil {
			t.Errorf("restore the ETH price: %v", err)
		}
	})
	if err := f.dev.SetFeedAnswer(ctx, f.c.FeedETHUSD, big.NewInt(int64(eth*1.1*1e8))); err != nil {
		t.Fatal(err)
	}
	held := new(big.Int).Add(f.balance(t, common.Address{}, f.wallet()), f.balance(t, f.c.WETH, f.wallet()))
	var pooled float64
	for _, p := range []common.Address{f.c.UniswapV2PairUSDCWETH, f.c.UniswapV3PoolUSDCWETH} {
		pooled += usd(f.balance(t, f.c.WETH, p), 18, eth*0.1)
	}
	moved := f.sample(t, f.env)
	if got := moved[catalog.SampleETHUSD]; math.Abs(got-eth*1.1) > 1e-6 {
		t.Errorf("eth_usd = %v, want %v", got, eth*1.1)
	}
	if got, want := moved[catalog.SamplePortfolioUSD]-after[catalog.SamplePortfolioUSD], usd(held, 18, eth*0.1); math.Abs(got-want) > 0.02 {
		t.Errorf("portfolio rose by %v, want %v", got, want)
	}
	if got := moved[catalog.SampleTVLUSD] - after[catalog.SampleTVLUSD]; math.Abs(got-pooled) > 0.04 {
		t.Errorf("tvl rose by %v, want %v", got, pooled)
	}
	if want := float64(f.portfolioCents(t)) / 100; moved[catalog.SamplePortfolioUSD] != want {
		t.Errorf("portfolio_usd = %v, want the snapshot's %v", moved[catalog.SamplePortfolioUSD], want)
	}
}

func TestSampleLeavesOut(t *testing.T) {
	f := base(t)
	ctx := t.Context()
	keys := func(s map[string]float64) []string { return slices.Sorted(maps.Keys(s)) }

	t.Run("no wallet", func(t *testing.T) {
		env := *f.env
		env.Wallet = nil
		s := f.sample(t, &env)
		if got := keys(s); !slices.Equal(got, []string{catalog.SampleETHUSD, catalog.SampleGasGwei, catalog.SampleTVLUSD}) {
			t.Errorf("keys without a wallet = %v", got)
		}
	})
	t.Run("no ETH feed", func(t *testing.T) {
		env := *f.env
		env.Venues.ETHFeed = common.Address{}
		// WETH keeps the feed its token entry names: only eth_usd goes.
		if got := keys(f.sample(t, &env)); !slices.Equal(got, []string{catalog.SampleGasGwei, catalog.SamplePortfolioUSD, catalog.SampleTVLUSD}) {
			t.Errorf("keys without an ETH feed = %v", got)
		}
	})
	t.Run("all feeds stale", func(t *testing.T) {
		h, err := f.env.Chain.HeaderLatest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		later := time.Unix(int64(h.Time), 0).Add(3 * time.Hour)
		env := *f.env
		env.Now = func() time.Time { return later }
		s := f.sample(t, &env)
		if got := keys(s); !slices.Equal(got, []string{catalog.SampleGasGwei}) {
			t.Errorf("keys with stale feeds = %v, want only gas_gwei", got)
		}
	})
	t.Run("one feed stale", func(t *testing.T) {
		// The wallet holds DAI, whose feed goes stale; a DAI/USDC pair
		// is in the index.
		if err := f.dev.Fund(ctx, f.wallet(), f.c.DAI, units(10, 18)); err != nil {
			t.Fatal(err)
		}
		h, err := f.env.Chain.HeaderLatest(ctx)
		if err != nil {
			t.Fatal(err)
		}
		dai := big.NewInt(int64(f.price(t, f.c.DAI) * 1e8))
		t.Cleanup(func() {
			if err := f.dev.SetFeedAnswer(context.WithoutCancel(ctx), f.c.FeedDAIUSD, dai); err != nil {
				t.Errorf("restore the DAI price: %v", err)
			}
		})
		if err := f.dev.SetFeedRound(ctx, f.c.FeedDAIUSD, dai, time.Unix(int64(h.Time), 0).Add(-2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		s := f.sample(t, f.env)
		if got := keys(s); !slices.Equal(got, []string{catalog.SampleETHUSD, catalog.SampleGasGwei}) {
			t.Errorf("keys with DAI stale = %v, want eth_usd and gas_gwei", got)
		}
	})
	t.Run("nothing readable", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if s, err := catalog.Sample(cctx, f.env); err == nil {
			t.Errorf("sample with a cancelled context = %v, want an error", s)
		}
		if _, err := catalog.Sample(ctx, &catalog.Env{}); err == nil {
			t.Error("sample without a chain succeeded")
		}
	})
}
