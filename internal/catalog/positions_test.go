package catalog_test

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/catalog/uniswap"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/deploy"
	"github.com/wardhq/ward/internal/chain/simtest"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// These tests drive the V3 position tools against the published
// NonfungiblePositionManager, factory, pools and SwapRouter bytecode,
// deployed by `ward chain deploy`'s code (deploy.Deploy) on an in-process
// chain, with the catalogue configured from the deployment's address book
// as on a real chain. A separate deployer key holds the deployment's own
// full-range positions: "someone else's" positions for the ownership
// checks.

const (
	npmDeployerKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	npmAgentKey    = "8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f"
)

type npmFixture struct {
	*baseFixture
	b        *simulated.Backend
	sealing  *sync.Mutex // held by whoever seals a block: the miner or adjustTime
	r        *deploy.Result
	wallet   *chain.Wallet // the agent's
	deployer *chain.Wallet
	npm      common.Address
	weth     common.Address
	usdc     common.Address
}

func newNPMFixture(t *testing.T) *npmFixture {
	t.Helper()
	ctx := t.Context()
	signer, err := chain.NewLocalSigner(npmDeployerKey)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { signer.Close() })
	agent, err := chain.NewLocalSigner(npmAgentKey)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agent.Close() })
	b := simulated.NewBackend(types.GenesisAlloc{
		signer.Address(): {Balance: units(1_000, 18)},
		agent.Address():  {Balance: units(100, 18)},
	}, simulated.WithBlockGasLimit(60_000_000))
	t.Cleanup(func() { b.Close() })
	rc, err := simtest.RPC(b.Client())
	if err != nil {
		t.Fatal(err)
	}
	sealing := new(sync.Mutex)
	stopMining, err := simtest.Mine(ctx, b, rc, sealing)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopMining)
	p, err := chain.NewProvider(ctx, rc, chain.ProviderConfig{ChainID: 1337, PollMin: 200 * time.Microsecond, PollMax: 5 * time.Millisecond, Attempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	r, err := deploy.Deploy(ctx, ethclient.NewClient(rc), deploy.Config{Signer: signer, ReceiptPoll: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	book, err := addrbook.Shipped().With(r.Book())
	if err != nil {
		t.Fatal(err)
	}
	ch, ok := book.Chain(r.ChainID)
	if !ok {
		t.Fatalf("chain %d missing from the deployment's book", r.ChainID)
	}
	wallet, err := chain.NewWallet(agent, p, chain.WalletConfig{})
	if err != nil {
		t.Fatal(err)
	}
	deployer, err := chain.NewWallet(signer, p, chain.WalletConfig{})
	if err != nil {
		t.Fatal(err)
	}
	tokens, venues := catalog.FromBook(ch)
	env := &catalog.Env{Chain: p, Wallet: wallet, Tokens: tokens, Venues: venues}
	reg := registry.New()
	if err := catalog.Register(reg, env); err != nil {
		t.Fatal(err)
	}
	reg.Freeze()
	weth, _ := r.Token("WETH")
	usdc, _ := r.Token("USDC")
	npm, _ := r.Contract(addrbook.UniswapV3PositionManager)
	f := &npmFixture{baseFixture: &baseFixture{env: env, reg: reg}, b: b, sealing: sealing, r: r, wallet: wallet, deployer: deployer, npm: npm, weth: weth.Address, usdc: usdc.Address}
	// The agent's wallet gets its tokens from the deployer.
	erc20 := chain.ERC20ABI()
	f.send(t, deployer,
		mustTx(t, erc20, f.weth, "transfer", agent.Address(), units(20, 18)),
		mustTx(t, erc20, f.usdc, "transfer", agent.Address(), units(100_000, 6)))
	return f
}

// adjustTime seals an empty block dt after the head. The simulated
// beacon does not serialise its own sealing, so each attempt holds the
// lock the miner seals under, and releases it between attempts so that
// the miner can seal a transaction still pending.
func (f *npmFixture) adjustTime(t *testing.T, dt time.Duration) {
	t.Helper()
	if err := chain.AdjustTime(lockedTime{f.b, f.sealing}, dt); err != nil {
		t.Fatal(err)
	}
}

type lockedTime struct {
	b  *simulated.Backend
	mu *sync.Mutex
}

func (l lockedTime) AdjustTime(dt time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.AdjustTime(dt)
}

func mustTx(t *testing.T, a *chain.ABI, to common.Address, method string, args ...any) tool.Tx {
	t.Helper()
	data, err := a.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Tx{To: tool.Address(to), Data: data, Label: method}
}

// send sends txs from w outside any tool, as the test's own account.
func (f *npmFixture) send(t *testing.T, w *chain.Wallet, txs ...tool.Tx) {
	t.Helper()
	in := input(t, `{}`)
	if _, err := w.Send(t.Context(), capFor("test_send", in), chain.Scope{Tool: "test_send", ArgsHash: in.Args.Hash(), Tick: in.Tick, Now: in.Now}, txs); err != nil {
		t.Fatal(err)
	}
}

func (f *npmFixture) balance(t *testing.T, tok common.Address) *big.Int {
	t.Helper()
	b, err := f.env.Chain.TokenBalance(t.Context(), tok, f.wallet.Address())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// onChain reads position id straight from the NPM (independently of the
// tools): owner, ticks, liquidity and tokensOwed.
type onChainPosition struct {
	owner        common.Address
	lo, hi       int64
	liquidity    *big.Int
	owed0, owed1 *big.Int
}

func (f *npmFixture) onChain(t *testing.T, id *big.Int) onChainPosition {
	t.Helper()
	a := chain.UniswapV3PositionManagerABI()
	call := func(method string, args ...any) []any {
		data, err := a.Pack(method, args...)
		if err != nil {
			t.Fatal(err)
		}
		out, err := f.env.Chain.Call(t.Context(), ethereum.CallMsg{To: &f.npm, Data: data})
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		v, err := a.Unpack(method, out)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	p := call("positions", id)
	return onChainPosition{
		owner: call("ownerOf", id)[0].(common.Address),
		lo:    p[5].(*big.Int).Int64(), hi: p[6].(*big.Int).Int64(),
		liquidity: p[7].(*big.Int), owed0: p[10].(*big.Int), owed1: p[11].(*big.Int),
	}
}

type listedPosition struct {
	TokenID      string   `json:"token_id"`
	Owner        string   `json:"owner"`
	Token0       tokenOut `json:"token0"`
	Token1       tokenOut `json:"token1"`
	Fee          int64    `json:"fee"`
	TickLower    int64    `json:"tick_lower"`
	TickUpper    int64    `json:"tick_upper"`
	PriceLower   string   `json:"price_lower"`
	PriceUpper   string   `json:"price_upper"`
	CurrentPrice string   `json:"current_price"`
	Liquidity    string   `json:"liquidity"`
	InRange      bool     `json:"in_range"`
	Amount0      amt      `json:"amount0"`
	Amount1      amt      `json:"amount1"`
	Fees0        amt      `json:"fees0"`
	Fees1        amt      `json:"fees1"`
	FeesExact    bool     `json:"fees_exact"`
	ValueUSD     *float64 `json:"value_usd"`
}

type positionList struct {
	Owner     string           `json:"owner"`
	Total     int64            `json:"total"`
	Truncated bool             `json:"truncated"`
	Positions []listedPosition `json:"positions"`
}

// planned returns the amount a plan says of tok, and whether it goes out.
func planned(t *testing.T, p *tool.Plan, tok common.Address) (*big.Int, bool) {
	t.Helper()
	for _, u := range p.Tokens {
		if common.Address(u.Token) == tok {
			return u.Amount, u.Out
		}
	}
	t.Fatalf("plan has no amount of %s: %+v", tok.Hex(), p.Tokens)
	return nil, false
}

func bigOf(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("not an integer: %q", s)
	}
	return v
}

func TestUniswapV3Positions(t *testing.T) {
	f := newNPMFixture(t)
	ctx := t.Context()
	wallet := f.wallet.Address()
	wethIs0 := f.weth.Cmp(f.usdc) < 0
	tok0, tok1 := f.usdc, f.weth
	if wethIs0 {
		tok0, tok1 = f.weth, f.usdc
	}

	t.Run("registered from the book", func(t *testing.T) {
		if f.env.Venues.UniswapV3PositionManager != f.npm || f.npm == (common.Address{}) {
			t.Fatalf("venue %s, deployed %s", f.env.Venues.UniswapV3PositionManager, f.npm)
		}
		for _, name := range []string{"uniswap_v3_list_positions", "uniswap_v3_mint_position", "uniswap_v3_increase_liquidity", "uniswap_v3_decrease_liquidity", "uniswap_v3_collect_fees"} {
			d := f.entry(t, name).Def
			if err := d.Validate(); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if len(d.Description) < 200 || !strings.Contains(d.Description, "not") || d.PromptSnippet == "" {
				t.Errorf("%s: description too thin for a model (say what it does not do): %q", name, d.Description)
			}
		}
		if _, ok := f.reg.Get("uniswap_add_v3_liquidity"); ok {
			t.Error("the helper tool registered on a chain without the dev helper")
		}
		env := *f.env
		env.Venues.UniswapV3PositionManager = common.Address{}
		for _, tl := range catalog.Tools(&env) {
			if strings.HasPrefix(tl.Def.Name, "uniswap_v3_") {
				t.Errorf("%s registered without a position manager", tl.Def.Name)
			}
		}
	})

	var theirs *big.Int // a position of the deployer's
	t.Run("list someone else's positions", func(t *testing.T) {
		var got positionList
		f.read(t, "uniswap_v3_list_positions", argsOf("owner", f.r.Deployer), &got)
		if got.Total != 3 || len(got.Positions) != 3 || got.Truncated {
			t.Fatalf("deployer positions: total %d, listed %d, truncated %v; want the deployment's 3", got.Total, len(got.Positions), got.Truncated)
		}
		var limited positionList
		f.read(t, "uniswap_v3_list_positions", argsOf("owner", f.r.Deployer, "limit", 2), &limited)
		if limited.Total != 3 || len(limited.Positions) != 2 || !limited.Truncated {
			t.Errorf("limit 2: total %d, listed %d, truncated %v", limited.Total, len(limited.Positions), limited.Truncated)
		}
		for _, p := range got.Positions {
			if common.HexToAddress(p.Owner) != f.r.Deployer || !p.InRange || p.Liquidity == "0" || !p.FeesExact {
				t.Errorf("position %+v", p)
			}
			if p.Fee != 500 || common.HexToAddress(p.Token0.Address) != tok0 || common.HexToAddress(p.Token1.Address) != tok1 {
				continue
			}
			theirs = bigOf(t, p.TokenID)
			// The deployer is the pool's only LP: its full-range position is
			// worth what the pool holds, less rounding.
			pool := f.poolOf(t, 500)
			for _, x := range []struct {
				tok common.Address
				got amt
			}{{tok0, p.Amount0}, {tok1, p.Amount1}} {
				held, err := f.env.Chain.TokenBalance(ctx, x.tok, pool)
				if err != nil {
					t.Fatal(err)
				}
				diff := new(big.Int).Sub(held, x.got.big(t))
				if diff.Sign() < 0 || diff.Cmp(big.NewInt(2)) > 0 {
					t.Errorf("%s: position worth %s, pool holds %s", x.tok.Hex(), x.got.Raw, held)
				}
			}
			if p.ValueUSD == nil || !near(*p.ValueUSD, 600_000, 0.01) {
				t.Errorf("value %v, want about $600,000", p.ValueUSD)
			}
		}
		if theirs == nil {
			t.Fatalf("no WETH/USDC 0.05%% position among %+v", got.Positions)
		}
	})

	t.Run("bad ranges are refused", func(t *testing.T) {
		base := []any{"token_a", f.weth, "token_b", f.usdc, "fee", 500, "amount_a_desired", units(1, 18), "amount_b_desired", units(3000, 6)}
		for name, rng := range map[string][]any{
			"off spacing":             {"tick_lower", -200005, "tick_upper", -190000},
			"inverted ticks":          {"tick_lower", -190000, "tick_upper", -200000},
			"empty ticks":             {"tick_lower", -190000, "tick_upper", -190000},
			"inverted prices":         {"price_lower", "3500", "price_upper", "2500"},
			"both forms":              {"tick_lower", -200000, "tick_upper", -190000, "price_lower", "2500", "price_upper", "3500"},
			"one end only":            {"price_lower", "2500"},
			"no range":                {},
			"narrower than a spacing": {"price_lower", "3000", "price_upper", "3000.01"},
		} {
			t.Run(name, func(t *testing.T) {
				_, _, err := f.plan(t, "uniswap_v3_mint_position", argsOf(append(append([]any{}, base...), rng...)...))
				if !errors.Is(err, uniswap.ErrBadRange) {
					t.Errorf("err = %v, want ErrBadRange", err)
				}
			})
		}
	})

	var mine *big.Int
	t.Run("mint", func(t *testing.T) {
		w0, u0 := f.balance(t, f.weth), f.balance(t, f.usdc)
		args := argsOf("token_a", f.weth, "token_b", f.usdc, "fee", 500, "price_lower", "2500", "price_upper", "3500",
			"amount_a_desired", units(2, 18), "amount_b_desired", units(10_000, 6), "token_a_symbol", "WETH", "token_b_symbol", "USDC")
		p := f.commit(t, "uniswap_v3_mint_position", args, nil)
		pw, outW := planned(t, p, f.weth)
		pu, outU := planned(t, p, f.usdc)
		if !outW || !outU || pw.Sign() <= 0 || pu.Sign() <= 0 || pw.Cmp(units(2, 18)) > 0 || pu.Cmp(units(10_000, 6)) > 0 {
			t.Fatalf("planned %s WETH and %s USDC", pw, pu)
		}
		if p.ValueCents <= 0 {
			t.Errorf("value %d cents", p.ValueCents)
		}
		// Nothing moved the price: the NPM took exactly what the plan said.
		if d := new(big.Int).Sub(w0, f.balance(t, f.weth)); d.Cmp(pw) != 0 {
			t.Errorf("WETH spent %s, planned %s", d, pw)
		}
		if d := new(big.Int).Sub(u0, f.balance(t, f.usdc)); d.Cmp(pu) != 0 {
			t.Errorf("USDC spent %s, planned %s", d, pu)
		}
		var got positionList
		f.read(t, "uniswap_v3_list_positions", `{}`, &got)
		if got.Total != 1 || len(got.Positions) != 1 || common.HexToAddress(got.Owner) != wallet {
			t.Fatalf("wallet positions %+v", got)
		}
		lp := got.Positions[0]
		mine = bigOf(t, lp.TokenID)
		oc := f.onChain(t, mine)
		if oc.owner != wallet || oc.lo != lp.TickLower || oc.hi != lp.TickUpper || oc.liquidity.String() != lp.Liquidity || oc.liquidity.Sign() == 0 {
			t.Errorf("on chain %+v, listed %+v", oc, lp)
		}
		if oc.lo%10 != 0 || oc.hi%10 != 0 {
			t.Errorf("ticks [%d, %d] not on the 0.05%% tier's spacing 10", oc.lo, oc.hi)
		}
		// The snapped range spans USDC 2,500 to 3,500 per WETH to within
		// half a tick spacing (0.05 %).
		lo, hi := 2500.0, 3500.0
		if !wethIs0 {
			lo, hi = 1/3500.0, 1/2500.0
		}
		if !near(fl(lp.PriceLower), lo, 0.0006) || !near(fl(lp.PriceUpper), hi, 0.0006) {
			t.Errorf("range %s to %s, want about %g to %g", lp.PriceLower, lp.PriceUpper, lo, hi)
		}
		wantLo := nearestTick(math.Log(lo*1e6/1e18)/math.Log(1.0001), 10)
		if !wethIs0 {
			wantLo = nearestTick(math.Log(lo*1e18/1e6)/math.Log(1.0001), 10)
		}
		if oc.lo != wantLo {
			t.Errorf("tick_lower %d, want %d", oc.lo, wantLo)
		}
		// The listed amounts are what was deposited, less rounding.
		for _, x := range []struct {
			got  amt
			want *big.Int
		}{{lp.Amount0, map[bool]*big.Int{true: pw, false: pu}[wethIs0]}, {lp.Amount1, map[bool]*big.Int{true: pu, false: pw}[wethIs0]}} {
			d := new(big.Int).Sub(x.want, x.got.big(t))
			if d.Sign() < 0 || d.Cmp(big.NewInt(2)) > 0 {
				t.Errorf("listed %s, deposited %s", x.got.Raw, x.want)
			}
		}
		if !lp.InRange || lp.Fees0.Raw != "0" || lp.Fees1.Raw != "0" {
			t.Errorf("new position %+v", lp)
		}
	})
	if mine == nil {
		t.Fatal("no position minted")
	}

	t.Run("increase", func(t *testing.T) {
		before := f.onChain(t, mine)
		w0, u0 := f.balance(t, f.weth), f.balance(t, f.usdc)
		a0, a1 := units(1, 18), units(3_000, 6)
		if !wethIs0 {
			a0, a1 = a1, a0
		}
		p := f.commit(t, "uniswap_v3_increase_liquidity", argsOf("token_id", mine, "amount0_desired", a0, "amount1_desired", a1), nil)
		pw, _ := planned(t, p, f.weth)
		pu, _ := planned(t, p, f.usdc)
		if d := new(big.Int).Sub(w0, f.balance(t, f.weth)); d.Cmp(pw) != 0 || d.Sign() == 0 {
			t.Errorf("WETH spent %s, planned %s", d, pw)
		}
		if d := new(big.Int).Sub(u0, f.balance(t, f.usdc)); d.Cmp(pu) != 0 || d.Sign() == 0 {
			t.Errorf("USDC spent %s, planned %s", d, pu)
		}
		if after := f.onChain(t, mine); after.liquidity.Cmp(before.liquidity) <= 0 {
			t.Errorf("liquidity %s after, %s before", after.liquidity, before.liquidity)
		}
	})

	t.Run("fees accrue and are collected", func(t *testing.T) {
		f.commit(t, "uniswap_execute_swap", argsOf("token_in", f.weth, "token_out", f.usdc, "amount_in", units(1, 18)), nil)
		var got positionList
		f.read(t, "uniswap_v3_list_positions", argsOf("token_id", mine), &got)
		if len(got.Positions) != 1 {
			t.Fatalf("list by token id: %+v", got)
		}
		lp := got.Positions[0]
		fees := map[bool]amt{true: lp.Fees0, false: lp.Fees1}[wethIs0]
		// The swap paid 0.05 % of 1 WETH to the in-range liquidity; this
		// position holds part of it.
		if fw := fees.big(t); fw.Sign() <= 0 || fw.Cmp(units(5, 14)) >= 0 || !lp.FeesExact {
			t.Fatalf("WETH fees %s (exact %v), want between 0 and 0.0005 WETH", fees.Raw, lp.FeesExact)
		}
		w0 := f.balance(t, f.weth)
		p := f.commit(t, "uniswap_v3_collect_fees", argsOf("token_id", mine), nil)
		pw, out := planned(t, p, f.weth)
		if out || pw.Cmp(fees.big(t)) != 0 {
			t.Errorf("planned to collect %s WETH (out %v), listed %s", pw, out, fees.Raw)
		}
		if d := new(big.Int).Sub(f.balance(t, f.weth), w0); d.Cmp(pw) != 0 {
			t.Errorf("WETH collected %s, planned %s", d, pw)
		}
		if oc := f.onChain(t, mine); oc.owed0.Sign() != 0 || oc.owed1.Sign() != 0 {
			t.Errorf("owed after collect %s, %s", oc.owed0, oc.owed1)
		}
		if _, _, err := f.plan(t, "uniswap_v3_collect_fees", argsOf("token_id", mine)); err == nil || !strings.Contains(err.Error(), "nothing to collect") {
			t.Errorf("second collect: %v, want nothing to collect", err)
		}
	})

	t.Run("decrease collects everything", func(t *testing.T) {
		// Fees to collect along with the freed tokens.
		f.commit(t, "uniswap_execute_swap", argsOf("token_in", f.usdc, "token_out", f.weth, "amount_in", units(1_000, 6)), nil)
		before := f.onChain(t, mine)
		w0, u0 := f.balance(t, f.weth), f.balance(t, f.usdc)
		p := f.commit(t, "uniswap_v3_decrease_liquidity", argsOf("token_id", mine, "percent", 50), nil)
		if len(p.Txs) != 1 {
			t.Errorf("%d transactions, want one multicall", len(p.Txs))
		}
		after := f.onChain(t, mine)
		half := new(big.Int).Sub(before.liquidity, new(big.Int).Quo(new(big.Int).Mul(before.liquidity, big.NewInt(50)), big.NewInt(100)))
		if after.liquidity.Cmp(half) != 0 {
			t.Errorf("liquidity %s after removing half of %s", after.liquidity, before.liquidity)
		}
		if after.owed0.Sign() != 0 || after.owed1.Sign() != 0 {
			t.Errorf("left owed %s, %s", after.owed0, after.owed1)
		}
		pw, outW := planned(t, p, f.weth)
		pu, outU := planned(t, p, f.usdc)
		gotW, gotU := new(big.Int).Sub(f.balance(t, f.weth), w0), new(big.Int).Sub(f.balance(t, f.usdc), u0)
		if outW || outU || gotW.Cmp(pw) < 0 || gotU.Cmp(pu) < 0 {
			t.Errorf("received %s WETH and %s USDC, planned at least %s and %s", gotW, gotU, pw, pu)
		}
		// The minima are 0.5 % under the redemption: the wallet got no
		// more than that margin above them.
		if lim := new(big.Int).Quo(new(big.Int).Mul(pw, big.NewInt(10_100)), big.NewInt(10_000)); gotW.Cmp(lim) > 0 {
			t.Errorf("received %s WETH, far above the planned %s", gotW, pw)
		}

		p = f.commit(t, "uniswap_v3_decrease_liquidity", argsOf("token_id", mine, "liquidity", "max"), nil)
		if oc := f.onChain(t, mine); oc.liquidity.Sign() != 0 || oc.owed0.Sign() != 0 || oc.owed1.Sign() != 0 || oc.owner != wallet {
			t.Errorf("after removing everything: %+v", oc)
		}
		if _, _, err := f.plan(t, "uniswap_v3_decrease_liquidity", argsOf("token_id", mine, "percent", 10)); err == nil {
			t.Error("decreased an empty position")
		}
		if _, _, err := f.plan(t, "uniswap_v3_decrease_liquidity", argsOf("token_id", mine, "percent", 10, "liquidity", "max")); err == nil {
			t.Error("accepted both liquidity and percent")
		}
	})

	t.Run("someone else's position is refused before anything is sent", func(t *testing.T) {
		nonce, err := f.env.Chain.Nonce(ctx, wallet)
		if err != nil {
			t.Fatal(err)
		}
		a0, a1 := units(1, 18), units(3_000, 6)
		if !wethIs0 {
			a0, a1 = a1, a0
		}
		for name, args := range map[string]string{
			"uniswap_v3_increase_liquidity": argsOf("token_id", theirs, "amount0_desired", a0, "amount1_desired", a1),
			"uniswap_v3_decrease_liquidity": argsOf("token_id", theirs, "liquidity", "max"),
			"uniswap_v3_collect_fees":       argsOf("token_id", theirs),
		} {
			if _, _, err := f.plan(t, name, args); !errors.Is(err, uniswap.ErrNotPositionOwner) {
				t.Errorf("%s on the deployer's position: %v, want ErrNotPositionOwner", name, err)
			}
		}
		if _, _, err := f.plan(t, "uniswap_v3_collect_fees", argsOf("token_id", "999999")); err == nil || errors.Is(err, uniswap.ErrNotPositionOwner) {
			t.Errorf("unknown token id: %v", err)
		}
		if n, _ := f.env.Chain.Nonce(ctx, wallet); n != nonce {
			t.Errorf("nonce %d after refusals, was %d", n, nonce)
		}
	})

	t.Run("a position that changed hands after the preview is refused at commit", func(t *testing.T) {
		a0, a1 := units(1, 18), units(3_000, 6)
		if !wethIs0 {
			a0, a1 = a1, a0
		}
		p, in, err := f.plan(t, "uniswap_v3_increase_liquidity", argsOf("token_id", mine, "amount0_desired", a0, "amount1_desired", a1))
		if err != nil {
			t.Fatal(err)
		}
		// The wallet hands the position to the deployer (outside the tools).
		f.send(t, f.wallet, mustTx(t, chain.UniswapV3PositionManagerABI(), f.npm, "transferFrom", wallet, f.r.Deployer, mine))
		nonce, _ := f.env.Chain.Nonce(ctx, wallet)
		w0 := f.balance(t, f.weth)
		_, err = f.entry(t, "uniswap_v3_increase_liquidity").Write(ctx, in, p, capFor("uniswap_v3_increase_liquidity", in))
		if !errors.Is(err, uniswap.ErrNotPositionOwner) {
			t.Errorf("commit after the transfer: %v, want ErrNotPositionOwner", err)
		}
		if n, _ := f.env.Chain.Nonce(ctx, wallet); n != nonce || f.balance(t, f.weth).Cmp(w0) != 0 {
			t.Errorf("something was sent: nonce %d (was %d)", n, nonce)
		}
	})
}

// poolOf is the deployment's WETH/USDC pool at fee.
func (f *npmFixture) poolOf(t *testing.T, fee int64) common.Address {
	t.Helper()
	factory := f.env.Venues.UniswapV3Factory
	data, err := chain.UniswapV3FactoryABI().Pack("getPool", f.weth, f.usdc, big.NewInt(fee))
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.env.Chain.Call(t.Context(), ethereum.CallMsg{To: &factory, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return common.BytesToAddress(out)
}

// nearestTick rounds a fractional tick down to a whole tick, then to the
// nearest multiple of spacing.
func nearestTick(x float64, spacing int64) int64 {
	t := int64(math.Floor(x))
	return int64(math.Floor(float64(t)/float64(spacing)+0.5)) * spacing
}
