package native

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/deploy"
)

// The price tests run on go-ethereum's simulated backend with the
// published Uniswap V3 bytecode that chain/deploy puts there: WETH, USDC
// and DAI with USD feeds, WETH/USDC pools at 0.05 % and 0.3 % ($600k of
// full-range liquidity each) and a USDC/DAI pool at 0.05 % ($2M). Time is
// moved with AdjustTime to give the pools' oracles history.

const priceTestKey = "8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"

// minedClient mines a block after every transaction, as a dev node does.
type minedClient struct {
	simulated.Client
	b *simulated.Backend
}

func (m *minedClient) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if err := m.Client.SendTransaction(ctx, tx); err != nil {
		return err
	}
	m.b.Commit()
	return nil
}

type priceSim struct {
	t   testing.TB
	b   *simulated.Backend
	c   *minedClient
	key *ecdsa.PrivateKey
	r   *deploy.Result
	env *Env
}

func newPriceSim(t testing.TB) *priceSim {
	t.Helper()
	ctx := context.Background()
	signer, err := chain.NewLocalSigner(priceTestKey)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { signer.Close() })
	key, err := crypto.HexToECDSA(priceTestKey)
	if err != nil {
		t.Fatal(err)
	}
	funded := new(big.Int).Mul(big.NewInt(10_000), Pow10(18))
	b := simulated.NewBackend(types.GenesisAlloc{signer.Address(): {Balance: funded}}, simulated.WithBlockGasLimit(60_000_000))
	t.Cleanup(func() { b.Close() })
	c := &minedClient{Client: b.Client(), b: b}
	r, err := deploy.Deploy(ctx, c, deploy.Config{Signer: signer, ReceiptPoll: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rc, ok := rpcOf(b.Client())
	if !ok {
		t.Fatal("no rpc client in the simulated backend")
	}
	p, err := chain.NewProvider(ctx, rc, chain.ProviderConfig{Attempts: 1, HeaderTTL: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	weth, _ := r.Token("WETH")
	factory, _ := r.Contract("uniswap_v3_factory")
	if factory == (common.Address{}) {
		t.Fatalf("no V3 factory in %+v", r.Contracts)
	}
	env := &Env{Chain: p, MaxFeedAge: 24 * time.Hour,
		Venues: Venues{WETH: weth.Address, UniswapV3Factory: factory, ETHFeed: weth.Feed}}
	for _, tk := range r.Tokens {
		env.Tokens = append(env.Tokens, Token{Address: tk.Address, Symbol: tk.Symbol, Decimals: tk.Decimals, Feed: tk.Feed})
	}
	return &priceSim{t: t, b: b, c: c, key: key, r: r, env: env}
}

// rpcOf digs the in-process *rpc.Client out of the simulated client (see
// catalog/upstream's harness: the embedded field shadows the method).
func rpcOf(c simulated.Client) (*rpc.Client, bool) {
	if rc, ok := c.(interface{ Client() *rpc.Client }); ok {
		return rc.Client(), true
	}
	v := reflect.ValueOf(c)
	if v.Kind() != reflect.Struct {
		return nil, false
	}
	f := v.FieldByName("Client")
	if !f.IsValid() || !f.CanInterface() {
		return nil, false
	}
	ec, ok := f.Interface().(*ethclient.Client)
	if !ok || ec == nil {
		return nil, false
	}
	return ec.Client(), true
}

func (s *priceSim) tok(sym string) common.Address {
	tk, ok := s.r.Token(sym)
	if !ok {
		s.t.Fatalf("no %s", sym)
	}
	return tk.Address
}

// setFeed sets the feed of sym in the env (zero: none).
func (s *priceSim) setFeed(sym string, feed common.Address) {
	for i := range s.env.Tokens {
		if s.env.Tokens[i].Symbol == sym {
			s.env.Tokens[i].Feed = feed
		}
	}
}

// sendRaw sends a transaction from the key and mines it.
func (s *priceSim) sendRaw(to *common.Address, data []byte) *types.Receipt {
	s.t.Helper()
	ctx := context.Background()
	from := crypto.PubkeyToAddress(s.key.PublicKey)
	nonce, err := s.c.PendingNonceAt(ctx, from)
	if err != nil {
		s.t.Fatal(err)
	}
	head, err := s.c.HeaderByNumber(ctx, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	tip, err := s.c.SuggestGasTipCap(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	fee := new(big.Int).Mul(head.BaseFee, big.NewInt(2))
	tx, err := types.SignNewTx(s.key, types.LatestSignerForChainID(big.NewInt(int64(s.r.ChainID))), &types.DynamicFeeTx{
		ChainID: big.NewInt(int64(s.r.ChainID)), Nonce: nonce, GasTipCap: tip, GasFeeCap: fee.Add(fee, tip),
		Gas: 8_000_000, To: to, Data: data,
	})
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.c.SendTransaction(ctx, tx); err != nil {
		s.t.Fatal(err)
	}
	rcpt, err := s.env.Chain.WaitReceipt(ctx, tx.Hash())
	if err != nil {
		s.t.Fatal(err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		s.t.Fatalf("transaction to %v reverted", to)
	}
	return rcpt
}

func (s *priceSim) send(art string, to common.Address, method string, args ...any) {
	s.t.Helper()
	a, err := deploy.ABI(art)
	if err != nil {
		s.t.Fatal(err)
	}
	data, err := a.Pack(method, args...)
	if err != nil {
		s.t.Fatal(err)
	}
	s.sendRaw(&to, data)
}

func (s *priceSim) call(art string, to common.Address, method string, args ...any) []any {
	s.t.Helper()
	a, err := deploy.ABI(art)
	if err != nil {
		s.t.Fatal(err)
	}
	data, err := a.Pack(method, args...)
	if err != nil {
		s.t.Fatal(err)
	}
	out, err := s.env.Chain.Call(context.Background(), ethereum.CallMsg{To: &to, Data: data})
	if err != nil {
		s.t.Fatal(err)
	}
	vals, err := a.Unpack(method, out)
	if err != nil {
		s.t.Fatal(err)
	}
	return vals
}

// pool returns the V3 pool of a and b at fee.
func (s *priceSim) pool(a, b string, fee uint32) common.Address {
	s.t.Helper()
	for _, p := range s.r.Pools {
		if p.Protocol == "uniswap_v3" && p.Fee == fee && (p.Tokens == [2]string{a, b} || p.Tokens == [2]string{b, a}) {
			return p.Address
		}
	}
	s.t.Fatalf("no %s/%s pool at %d", a, b, fee)
	return common.Address{}
}

// wait mines an empty block d later.
func (s *priceSim) wait(d time.Duration) {
	s.t.Helper()
	if err := chain.AdjustTime(s.b, d); err != nil {
		s.t.Fatal(err)
	}
}

// swap sells amountIn of tokIn for tokOut through the V3 SwapRouter.
func (s *priceSim) swap(tokIn, tokOut string, fee uint32, amountIn *big.Int) {
	s.t.Helper()
	router, _ := s.r.Contract("uniswap_v3_swap_router")
	s.send("ward:ERC20Permit", s.tok(tokIn), "approve", router, MaxUint256)
	type params struct {
		TokenIn, TokenOut                                       common.Address
		Fee                                                     *big.Int
		Recipient                                               common.Address
		Deadline, AmountIn, AmountOutMinimum, SqrtPriceLimitX96 *big.Int
	}
	s.send("published:SwapRouter", router, "exactInputSingle", params{
		TokenIn: s.tok(tokIn), TokenOut: s.tok(tokOut), Fee: big.NewInt(int64(fee)), Recipient: s.r.Deployer,
		Deadline: big.NewInt(1 << 40), AmountIn: amountIn, AmountOutMinimum: new(big.Int), SqrtPriceLimitX96: new(big.Int),
	})
}

// spotPerUnit is the pool's spot price (slot0) of base in quote base
// units: what the pricer must never use, read here only to show it moved.
func (s *priceSim) spotPerUnit(pool, base, quote common.Address) *big.Rat {
	sq := s.call("published:UniswapV3Pool", pool, "slot0")[0].(*big.Int)
	p := new(big.Rat).SetFrac(new(big.Int).Mul(sq, sq), new(big.Int).Lsh(BigOne, 192))
	if strings.Compare(strings.ToLower(base.Hex()), strings.ToLower(quote.Hex())) > 0 {
		p.Inv(p)
	}
	return p
}

// answerOnlyAdapter deploys a price source that answers only
// latestAnswer() (answer) and decimals() (dec), and reverts on everything
// else, latestRoundData included: the shape of several of Aave's
// adapters.
func (s *priceSim) answerOnlyAdapter(answer *big.Int, dec uint8) common.Address {
	s.t.Helper()
	rt := []byte{
		0x60, 0x00, 0x35, 0x60, 0xe0, 0x1c, // selector
		0x80, 0x63, 0x50, 0xd2, 0x5b, 0xcd, 0x14, 0x60, 0x1d, 0x57, // latestAnswer() → 0x1d
		0x63, 0x31, 0x3c, 0xe5, 0x67, 0x14, 0x60, 0x47, 0x57, // decimals() → 0x47
		0x60, 0x00, 0x80, 0xfd, // revert
		0x5b, 0x7f, // 0x1d: push32 answer
	}
	rt = append(rt, common.LeftPadBytes(answer.Bytes(), 32)...)
	rt = append(rt, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3,
		0x5b, 0x60, dec, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3) // 0x47: decimals
	if len(rt) != 0x52 {
		s.t.Fatalf("adapter runtime is %d bytes", len(rt))
	}
	initCode := []byte{0x60, byte(len(rt)), 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3}
	rcpt := s.sendRaw(nil, append(initCode, rt...))
	return rcpt.ContractAddress
}

func usdOf(v Valuation, decimals uint8) float64 {
	if v.perUnit == nil {
		return 0
	}
	f, _ := new(big.Rat).Mul(v.perUnit, new(big.Rat).SetInt(Pow10(int(decimals)))).Float64()
	return f
}

func within(got, want, pct float64) bool {
	return got >= want*(1-pct/100) && got <= want*(1+pct/100)
}

// TestTWAPPricesFeedlessToken: DAI without a feed is priced from the
// USDC/DAI pool, only once the pool's oracle can look back a full window,
// and only above the liquidity floor.
func TestTWAPPricesFeedlessToken(t *testing.T) {
	s := newPriceSim(t)
	ctx := t.Context()
	dai := s.tok("DAI")
	s.setFeed("DAI", common.Address{})

	v := Valuate(ctx, s.env, dai)
	if v.Priced() || !strings.Contains(v.Why, "cannot observe that far back") || !strings.Contains(v.Why, "set usd_feed") {
		t.Fatalf("a pool without %s of history: source %v, why %q; want unpriced for want of history", DefaultTWAPWindow, v.Source, v.Why)
	}
	if c := ValueCents(ctx, s.env, dai, Pow10(18)); c != -1 {
		t.Errorf("ValueCents without history = %d, want -1", c)
	}

	s.wait(DefaultTWAPWindow + time.Minute)
	v = Valuate(ctx, s.env, dai)
	if v.Source != FromTWAP || !within(usdOf(v, 18), 1, 0.5) {
		t.Fatalf("after a window: source %v, $%.6f (why %q); want the pool TWAP ≈ $1", v.Source, usdOf(v, 18), v.Why)
	}
	if v.TWAP.Pool != s.pool("USDC", "DAI", 500) || v.TWAP.LiquidityUSD < 1_900_000 || v.TWAP.LiquidityUSD > 2_100_000 {
		t.Errorf("TWAP pool %s with $%.0f of liquidity, want the USDC/DAI pool with ≈ $2M", v.TWAP.Pool, v.TWAP.LiquidityUSD)
	}
	if c := ValueCents(ctx, s.env, dai, new(big.Int).Mul(big.NewInt(1000), Pow10(18))); c < 99_500 || c > 100_500 {
		t.Errorf("1000 DAI = %d cents, want ≈ 100000", c)
	}

	t.Run("below the liquidity floor", func(t *testing.T) {
		s.env.Price = PriceConfig{MinTWAPLiquidityUSD: 5_000_000}
		defer func() { s.env.Price = PriceConfig{} }()
		v := Valuate(ctx, s.env, dai)
		if v.Priced() || !strings.Contains(v.Why, "less than the $5000000 min_twap_liquidity_usd") {
			t.Errorf("a $2M pool under a $5M floor: source %v, why %q", v.Source, v.Why)
		}
	})
	t.Run("a token no pool pairs", func(t *testing.T) {
		stray := common.HexToAddress("0x00000000000000000000000000000000000000aa")
		v := Valuate(ctx, s.env, stray)
		if v.Priced() || !strings.Contains(v.Why, "not in the chain's token list") || !strings.Contains(v.Why, "no Uniswap V3 pool pairs it with a token priced by a feed") {
			t.Errorf("an unknown token: source %v, why %q", v.Source, v.Why)
		}
	})
	t.Run("no factory", func(t *testing.T) {
		f := s.env.Venues.UniswapV3Factory
		s.env.Venues.UniswapV3Factory = common.Address{}
		defer func() { s.env.Venues.UniswapV3Factory = f }()
		if v := Valuate(ctx, s.env, dai); v.Priced() || !strings.Contains(v.Why, "no Uniswap V3 factory") {
			t.Errorf("no factory: source %v, why %q", v.Source, v.Why)
		}
	})
}

// TestTWAPResistsManipulation: a swap that moves the USDC/DAI spot price
// by ~70 % in the last block barely moves the price ward uses, whether
// the valuation is in that block or a block later.
func TestTWAPResistsManipulation(t *testing.T) {
	s := newPriceSim(t)
	ctx := t.Context()
	dai, usdc := s.tok("DAI"), s.tok("USDC")
	s.setFeed("DAI", common.Address{})
	pool := s.pool("USDC", "DAI", 500)
	// Room for the swap's observation next to the old one.
	s.send("published:UniswapV3Pool", pool, "increaseObservationCardinalityNext", uint16(16))
	s.wait(DefaultTWAPWindow + time.Minute)

	before := s.spotPerUnit(pool, dai, usdc)
	s.swap("DAI", "USDC", 500, new(big.Int).Mul(big.NewInt(900_000), Pow10(18)))
	after := s.spotPerUnit(pool, dai, usdc)
	moved, _ := new(big.Rat).Quo(after, before).Float64()
	if moved > 0.5 {
		t.Fatalf("the swap moved the spot price to %.3f of what it was; the test needs a large move", moved)
	}
	spotUSD, _ := new(big.Rat).Mul(after, big.NewRat(1e18, 1e6)).Float64()

	for _, tc := range []struct {
		name  string
		later time.Duration
		pct   float64
	}{
		{"in the swap's block", 0, 0.5},
		{"12 s later", 12 * time.Second, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.later > 0 {
				s.wait(tc.later)
			}
			v := Valuate(ctx, s.env, dai)
			if v.Source != FromTWAP || !within(usdOf(v, 18), 1, tc.pct) {
				t.Errorf("source %v, $%.6f (spot $%.4f; why %q); want the TWAP within %.1f %% of $1", v.Source, usdOf(v, 18), spotUSD, v.Why, tc.pct)
			}
		})
	}
}

// TestFeedDeviation: a feed that strays from a usable pool's TWAP beyond
// max_price_deviation_bps is refused with both prices; within it, the
// feed prices; without a usable pool, the feed stands alone.
func TestFeedDeviation(t *testing.T) {
	s := newPriceSim(t)
	ctx := t.Context()
	dai, weth := s.tok("DAI"), s.tok("WETH")
	daiFeed := func() common.Address { tk, _ := s.r.Token("DAI"); return tk.Feed }()
	s.wait(DefaultTWAPWindow + time.Minute)

	if v := Valuate(ctx, s.env, dai); v.Source != FromCheckedFeed || !within(usdOf(v, 18), 1, 0.01) {
		t.Errorf("DAI at $1 against a $1 pool: source %v, $%.4f, why %q", v.Source, usdOf(v, 18), v.Why)
	}
	// WETH's pools hold $600k each: under the $1M floor, they check nothing.
	if v := Valuate(ctx, s.env, weth); v.Source != FromFeed || !within(usdOf(v, 18), 3000, 0.01) {
		t.Errorf("WETH with only thin pools: source %v, $%.2f, why %q; want its feed alone", v.Source, usdOf(v, 18), v.Why)
	}
	s.env.Price = PriceConfig{MinTWAPLiquidityUSD: 100_000}
	if v := Valuate(ctx, s.env, weth); v.Source != FromCheckedFeed {
		t.Errorf("WETH with a $100k floor: source %v, why %q; want the feed checked by a pool", v.Source, v.Why)
	}
	s.env.Price = PriceConfig{}

	for _, tc := range []struct {
		answer int64
		source PriceSource
		why    string
	}{
		{102_000_000, FromCheckedFeed, ""},
		{120_000_000, Unpriced, "disagree by 2002 bps (feed $1.2, pool $0.999903)"},
		{80_000_000, Unpriced, "disagree by 2499 bps (feed $0.8, pool $0.999903)"},
	} {
		s.send("ward:PriceFeed", daiFeed, "updateAnswer", big.NewInt(tc.answer))
		v := Valuate(ctx, s.env, dai)
		if v.Source != tc.source || (tc.why != "" && !strings.Contains(v.Why, tc.why)) {
			t.Errorf("DAI feed at %d: source %v, why %q; want %v %q", tc.answer, v.Source, v.Why, tc.source, tc.why)
		}
		if tc.source == Unpriced && ValueCents(ctx, s.env, dai, Pow10(18)) != -1 {
			t.Errorf("DAI feed at %d: ValueCents priced a refused token", tc.answer)
		}
	}
	s.env.Price = PriceConfig{MaxDeviationBps: 3000}
	if v := Valuate(ctx, s.env, dai); v.Source != FromCheckedFeed {
		t.Errorf("a 2499 bps gap under a 3000 bps limit: source %v, why %q", v.Source, v.Why)
	}
}

// TestAnswerOnlySource: a latestAnswer-only source prices a token only
// when a pool TWAP confirms it.
func TestAnswerOnlySource(t *testing.T) {
	s := newPriceSim(t)
	ctx := t.Context()
	dai, weth := s.tok("DAI"), s.tok("WETH")
	s.wait(DefaultTWAPWindow + time.Minute)

	s.setFeed("DAI", s.answerOnlyAdapter(big.NewInt(100_000_000), 8))
	if v := Valuate(ctx, s.env, dai); v.Source != FromCheckedAnswer || !within(usdOf(v, 18), 1, 0.01) {
		t.Errorf("DAI from latestAnswer with a $2M pool: source %v, $%.4f, why %q", v.Source, usdOf(v, 18), v.Why)
	}
	s.setFeed("DAI", s.answerOnlyAdapter(big.NewInt(150_000_000), 8))
	if v := Valuate(ctx, s.env, dai); v.Priced() || !strings.Contains(v.Why, "disagree by 5002 bps (source $1.5, pool $0.999903)") {
		t.Errorf("DAI from a latestAnswer 50 %% off the pool: source %v, why %q", v.Source, v.Why)
	}
	s.setFeed("WETH", s.answerOnlyAdapter(big.NewInt(3000_00000000), 8))
	if v := Valuate(ctx, s.env, weth); v.Priced() || !strings.Contains(v.Why, "answers only latestAnswer()") || !strings.Contains(v.Why, "min_twap_liquidity_usd") {
		t.Errorf("WETH from latestAnswer with only thin pools: source %v, why %q", v.Source, v.Why)
	}
}

// TestPriceCache: a cached price is served only for the block it was
// read at; a new block reads afresh.
func TestPriceCache(t *testing.T) {
	s := newPriceSim(t)
	ctx := t.Context()
	s.env.Prices = &PriceCache{}
	weth := s.tok("WETH")
	feed := func() common.Address { tk, _ := s.r.Token("WETH"); return tk.Feed }()
	if v := Valuate(ctx, s.env, weth); !within(usdOf(v, 18), 3000, 0.01) {
		t.Fatalf("WETH = $%.2f (%q)", usdOf(v, 18), v.Why)
	}
	s.send("ward:PriceFeed", feed, "updateAnswer", big.NewInt(2000_00000000))
	if v := Valuate(ctx, s.env, weth); !within(usdOf(v, 18), 2000, 0.01) {
		t.Errorf("after a new round in a new block: WETH = $%.2f, want $2000 (a stale cached price)", usdOf(v, 18))
	}
}

// BenchmarkValuate measures a valuation with and without the per-block
// cache, on the simulated backend (no network latency: the figures are
// the RPC and EVM work a valuation costs).
func BenchmarkValuate(b *testing.B) {
	s := newPriceSim(b)
	s.wait(DefaultTWAPWindow + time.Minute)
	ctx := b.Context()
	dai := s.tok("DAI")
	for _, bc := range []struct {
		name     string
		cache    *PriceCache
		newBlock bool
	}{
		{"uncached", nil, false},           // every read, pool addresses included
		{"new block", &PriceCache{}, true}, // feeds and observe again; pool addresses cached
		{"same block", &PriceCache{}, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s.env.Prices = bc.cache
			for b.Loop() {
				if bc.newBlock {
					bc.cache.mu.Lock()
					bc.cache.cur = nil
					bc.cache.mu.Unlock()
				}
				if v := Valuate(ctx, s.env, dai); v.Source != FromCheckedFeed {
					b.Fatalf("source %v: %s", v.Source, v.Why)
				}
			}
		})
	}
}
