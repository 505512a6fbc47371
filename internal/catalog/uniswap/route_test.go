package uniswap_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/chain/deploy"
	"github.com/wardhq/ward/internal/chain/simtest"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// These tests run the routing tools against the published Uniswap
// bytecode that internal/chain/deploy puts on go-ethereum's simulated
// backend: WETH/USDC V2 pair and V3 pools at 0.05 % and 0.3 %, DAI/USDC V2
// pair and V3 pool at 0.05 %, QuoterV2 and the original SwapRouter, so
// WETH → DAI routes only through USDC. The catalogue is configured from
// the deployment's address book (catalog.FromBook), as ward serve
// configures it against a node. Expected amounts come from the protocols'
// own quoters and routers, called directly, never from ward's code.

const testKey = "8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"

type world struct {
	b      *simulated.Backend
	r      *deploy.Result
	env    *catalog.Env
	reg    *registry.Registry
	me     common.Address
	weth   common.Address
	usdc   common.Address
	dai    common.Address
	quoter common.Address
	v2     common.Address

	mu     *sync.Mutex // serialises Commit
	stop   func()      // stops the miner
	permit int
}

var (
	worldOnce sync.Once
	theWorld  *world
	worldErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if theWorld != nil {
		theWorld.close()
	}
	os.Exit(code)
}

// need returns the shared deployment, building it on first use.
func need(tb testing.TB) *world {
	tb.Helper()
	worldOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		theWorld, worldErr = newWorld(ctx)
	})
	if worldErr != nil {
		tb.Fatalf("deploy the published protocols: %v", worldErr)
	}
	return theWorld
}

// minedClient commits a block after each transaction the deployment
// sends.
type minedClient struct {
	simulated.Client
	w *world
}

func (m minedClient) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if err := m.Client.SendTransaction(ctx, tx); err != nil {
		return err
	}
	m.w.mineBlock()
	return nil
}

func newWorld(ctx context.Context) (*world, error) {
	signer, err := chain.NewLocalSigner(testKey)
	if err != nil {
		return nil, err
	}
	eth := new(big.Int).Mul(big.NewInt(10_000), big.NewInt(1e18))
	w := &world{b: simulated.NewBackend(types.GenesisAlloc{signer.Address(): {Balance: eth}}, simulated.WithBlockGasLimit(60_000_000)), me: signer.Address(), mu: new(sync.Mutex)}
	fail := func(err error) (*world, error) {
		w.close()
		return nil, err
	}
	if w.r, err = deploy.Deploy(ctx, minedClient{w.b.Client(), w}, deploy.Config{Signer: signer, ReceiptPoll: time.Millisecond}); err != nil {
		return fail(err)
	}
	book, err := addrbook.Shipped().With(w.r.Book())
	if err != nil {
		return fail(err)
	}
	ch, ok := book.Chain(w.r.ChainID)
	if !ok {
		return fail(errors.New("the deployment's chain is not in its book"))
	}
	tokens, venues := catalog.FromBook(ch)
	rc, err := simtest.RPC(w.b.Client())
	if err != nil {
		return fail(err)
	}
	if w.stop, err = simtest.Mine(ctx, w.b, rc, w.mu); err != nil {
		return fail(err)
	}
	p, err := chain.NewProvider(ctx, rc, chain.ProviderConfig{ChainID: w.r.ChainID, PollMax: 5 * time.Millisecond, Attempts: 1})
	if err != nil {
		return fail(err)
	}
	wallet, err := chain.NewWallet(signer, p, chain.WalletConfig{})
	if err != nil {
		return fail(err)
	}
	w.env = &catalog.Env{Chain: p, Wallet: wallet, Tokens: tokens, Venues: venues}
	w.reg = registry.New()
	if err := catalog.Register(w.reg, w.env); err != nil {
		return fail(err)
	}
	w.reg.Freeze()
	for sym, dst := range map[string]*common.Address{"WETH": &w.weth, "USDC": &w.usdc, "DAI": &w.dai} {
		t, _ := w.r.Token(sym)
		*dst = t.Address
	}
	w.quoter, _ = w.r.Contract(addrbook.UniswapV3QuoterV2)
	w.v2, _ = w.r.Contract(addrbook.UniswapV2Router02)
	return w, nil
}

func (w *world) mineBlock() {
	w.mu.Lock()
	w.b.Commit()
	w.mu.Unlock()
}

func (w *world) close() {
	if w.stop != nil {
		w.stop()
	}
	w.b.Close()
}

// input validates args against the tool's schema and wraps them as the
// gate would.
func (w *world) input(tb testing.TB, name string, args map[string]any) (*registry.Entry, *registry.Input) {
	tb.Helper()
	e, ok := w.reg.Get(name)
	if !ok {
		tb.Fatalf("tool %s is not registered", name)
	}
	raw, err := json.Marshal(args)
	if err != nil {
		tb.Fatal(err)
	}
	if err := e.Validate(raw); err != nil {
		tb.Fatalf("%s: arguments %s rejected by the schema: %v", name, raw, err)
	}
	a, err := tool.ParseArgs(raw)
	if err != nil {
		tb.Fatal(err)
	}
	return e, &registry.Input{Args: a, Raw: raw, SessionID: "route-test", Tick: 1, Now: time.Now(), Step: func(int) {}}
}

type amount struct {
	Raw string `json:"raw"`
}

func (a amount) big(tb testing.TB) *big.Int {
	tb.Helper()
	v, ok := new(big.Int).SetString(a.Raw, 10)
	if !ok {
		tb.Fatalf("amount %q", a.Raw)
	}
	return v
}

type routeOut struct {
	Venue string `json:"venue"`
	Path  string `json:"path"`
	Hops  []struct {
		TokenIn  string `json:"token_in"`
		TokenOut string `json:"token_out"`
		Fee      int64  `json:"fee"`
		Pool     string `json:"pool"`
	} `json:"hops"`
	AmountIn  amount `json:"amount_in"`
	AmountOut amount `json:"amount_out"`
}

type routeResult struct {
	Kind         string     `json:"kind"`
	Route        routeOut   `json:"route"`
	Alternatives []routeOut `json:"alternatives"`
	Connectors   []string   `json:"connectors"`
}

func (w *world) route(t *testing.T, args map[string]any) (routeResult, error) {
	t.Helper()
	e, in := w.input(t, "uniswap_get_route", args)
	res, err := e.Read(t.Context(), in)
	if err != nil {
		return routeResult{}, err
	}
	var out routeResult
	if err := json.Unmarshal(res.Data, &out); err != nil {
		t.Fatalf("decode %s: %v", res.Data, err)
	}
	return out, nil
}

// call runs a read of the chain with ward's ABIs, outside the tools.
func (w *world) call(t testing.TB, a *chain.ABI, to common.Address, method string, args ...any) ([]any, error) {
	t.Helper()
	data, err := a.Pack(method, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := w.env.Chain.Call(t.Context(), ethereum.CallMsg{To: &to, Data: data})
	if err != nil {
		return nil, err
	}
	return a.Unpack(method, out)
}

// path packs a V3 path: token, fee, token, ...
func path(tokens []common.Address, fees []int64) []byte {
	var b []byte
	for i, t := range tokens {
		if i > 0 {
			f := fees[i-1]
			b = append(b, byte(f>>16), byte(f>>8), byte(f))
		}
		b = append(b, t.Bytes()...)
	}
	return b
}

func reversed[T any](s []T) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

// candidate is a route quoted independently, with the protocols' own
// contracts.
type candidate struct {
	name   string
	venue  string
	tokens []common.Address
	fees   []int64
}

// quote quotes c for an exact input (amount sold) or exact output
// (amount bought) and returns the other side, or nil when it cannot.
func (w *world) quote(t *testing.T, c candidate, exactIn bool, amt *big.Int) *big.Int {
	t.Helper()
	if c.venue == "uniswap_v2" {
		method := "getAmountsOut"
		if !exactIn {
			method = "getAmountsIn"
		}
		v, err := w.call(t, chain.UniswapV2Router02ABI(), w.v2, method, amt, c.tokens)
		if err != nil {
			return nil
		}
		as := v[0].([]*big.Int)
		if exactIn {
			return as[len(as)-1]
		}
		return as[0]
	}
	method, p := "quoteExactInput", path(c.tokens, c.fees)
	if !exactIn {
		method, p = "quoteExactOutput", path(reversed(c.tokens), reversed(c.fees))
	}
	v, err := w.call(t, chain.UniswapV3QuoterV2ABI(), w.quoter, method, p, amt)
	if err != nil {
		return nil
	}
	return v[0].(*big.Int)
}

func units(n int64, dec int) *big.Int {
	return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(dec)), nil))
}

func (w *world) balance(t testing.TB, tok common.Address) *big.Int {
	t.Helper()
	b, err := w.env.Chain.TokenBalance(t.Context(), tok, w.me)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// send plans and sends a write tool with a freshly minted capability.
func (w *world) send(t *testing.T, name string, args map[string]any) (*tool.Plan, writeResult) {
	t.Helper()
	e, in := w.input(t, name, args)
	plan, err := e.Plan(t.Context(), in)
	if err != nil {
		t.Fatalf("%s: plan: %v", name, err)
	}
	w.permit++
	c := mint.Capability(mint.Fields{PermitID: fmt.Sprintf("route-%d", w.permit), Tool: name, ArgsHash: in.Args.Hash(),
		ValueCents: plan.ValueCents, ExpiresAt: time.Now().Add(time.Minute), ExpiryTick: in.Tick + 1})
	res, err := e.Write(t.Context(), in, plan, c)
	if err != nil {
		t.Fatalf("%s: execute %q: %v", name, plan.Summary, err)
	}
	var out writeResult
	if err := json.Unmarshal(res.Data, &out); err != nil {
		t.Fatalf("decode %s: %v", res.Data, err)
	}
	return plan, out
}

type writeResult struct {
	Summary  string            `json:"summary"`
	TxHashes []string          `json:"tx_hashes"`
	Deltas   map[string]string `json:"balance_deltas"`
	Verified bool              `json:"verified"`
}

func sameAddr(s string, a common.Address) bool { return strings.EqualFold(s, a.Hex()) }

// TestRouteIsTheBest checks the chosen route against every candidate
// quoted separately with QuoterV2 (full path) and Router02, for exact
// inputs and outputs, direct and two-hop.
func TestRouteIsTheBest(t *testing.T) {
	w := need(t)
	weth, usdc, dai := w.weth, w.usdc, w.dai
	direct := []candidate{
		{"v2 WETH-USDC", "uniswap_v2", []common.Address{weth, usdc}, nil},
		{"v3 WETH-USDC 0.05%", "uniswap_v3", []common.Address{weth, usdc}, []int64{500}},
		{"v3 WETH-USDC 0.3%", "uniswap_v3", []common.Address{weth, usdc}, []int64{3000}},
	}
	twoHop := []candidate{
		{"v2 WETH-USDC-DAI", "uniswap_v2", []common.Address{weth, usdc, dai}, nil},
		{"v3 WETH-USDC-DAI 0.05/0.05", "uniswap_v3", []common.Address{weth, usdc, dai}, []int64{500, 500}},
		{"v3 WETH-USDC-DAI 0.3/0.05", "uniswap_v3", []common.Address{weth, usdc, dai}, []int64{3000, 500}},
	}
	for _, tc := range []struct {
		name       string
		out        common.Address
		exactIn    bool
		amount     *big.Int
		candidates []candidate
	}{
		// 50 WETH moves the 0.05 % pool enough that the 0.3 % pool or V2
		// may win: the choice is a real one.
		{"WETH to USDC exact input, small", usdc, true, units(1, 18), direct},
		{"WETH to USDC exact input, large", usdc, true, units(50, 18), direct},
		{"WETH to USDC exact output", usdc, false, units(100_000, 6), direct},
		{"WETH to DAI exact input, two-hop only", dai, true, units(2, 18), twoHop},
		{"WETH to DAI exact output, two-hop only", dai, false, units(10_000, 18), twoHop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"token_in": weth.Hex(), "token_out": tc.out.Hex()}
			if tc.exactIn {
				args["amount_in"] = tc.amount.String()
			} else {
				args["amount_out"] = tc.amount.String()
			}
			got, err := w.route(t, args)
			if err != nil {
				t.Fatal(err)
			}
			var best *big.Int
			var bestName string
			quoted := 0
			for _, c := range tc.candidates {
				q := w.quote(t, c, tc.exactIn, tc.amount)
				if q == nil {
					continue
				}
				quoted++
				if best == nil || (tc.exactIn && q.Cmp(best) > 0) || (!tc.exactIn && q.Cmp(best) < 0) {
					best, bestName = q, c.name
				}
				// Each candidate is among the alternatives, with the same quote.
				found := false
				for _, a := range got.Alternatives {
					if a.Venue != c.venue || len(a.Hops) != len(c.tokens)-1 {
						continue
					}
					same := true
					for i, h := range a.Hops {
						if !sameAddr(h.TokenIn, c.tokens[i]) || (c.fees != nil && h.Fee != c.fees[i]) {
							same = false
						}
					}
					if !same {
						continue
					}
					found = true
					side := a.AmountOut
					if !tc.exactIn {
						side = a.AmountIn
					}
					if side.big(t).Cmp(q) != 0 {
						t.Errorf("%s: alternative quotes %s, the protocol %s", c.name, side.Raw, q)
					}
				}
				// A two-hop V3 alternative is the best tier per hop, so only
				// the best V3 combination must appear.
				if !found && (c.venue == "uniswap_v2" || len(c.tokens) == 2) {
					t.Errorf("%s (quoted %s) is missing from the alternatives %+v", c.name, q, got.Alternatives)
				}
			}
			if quoted < 2 {
				t.Fatalf("only %d candidates quote: the deployment does not test a choice", quoted)
			}
			side := got.Route.AmountOut
			if !tc.exactIn {
				side = got.Route.AmountIn
			}
			if side.big(t).Cmp(best) != 0 {
				t.Errorf("route %s (%s) gives %s; the best candidate %s gives %s", got.Route.Path, got.Route.Venue, side.Raw, bestName, best)
			}
			if tc.out == dai && len(got.Route.Hops) != 2 {
				t.Errorf("route %+v: want two hops through USDC", got.Route)
			}
			if tc.out == dai && !sameAddr(got.Route.Hops[0].TokenOut, usdc) {
				t.Errorf("route through %s, want USDC", got.Route.Hops[0].TokenOut)
			}
		})
	}
}

// TestRouteRefuses checks the errors: an unknown pair, a two-hop-only
// pair with max_hops 1, both or neither amount, and a connector named by
// the agent (the schema has no such parameter).
func TestRouteRefuses(t *testing.T) {
	w := need(t)
	aUSDC := w.r.ATokens["USDC"]
	t.Run("unknown pair", func(t *testing.T) {
		_, err := w.route(t, map[string]any{"token_in": w.weth.Hex(), "token_out": aUSDC.Hex(), "amount_in": "1000"})
		if err == nil || !strings.Contains(err.Error(), "no Uniswap route") || !strings.Contains(err.Error(), "USDC") {
			t.Errorf("err = %v, want no Uniswap route naming the connectors tried", err)
		}
	})
	t.Run("two-hop pair with max_hops 1", func(t *testing.T) {
		_, err := w.route(t, map[string]any{"token_in": w.weth.Hex(), "token_out": w.dai.Hex(), "amount_in": "1000", "max_hops": 1})
		if err == nil || !strings.Contains(err.Error(), "no Uniswap route") {
			t.Errorf("err = %v, want no Uniswap route", err)
		}
	})
	t.Run("both amounts", func(t *testing.T) {
		_, err := w.route(t, map[string]any{"token_in": w.weth.Hex(), "token_out": w.usdc.Hex(), "amount_in": "1000", "amount_out": "1000"})
		if err == nil || !strings.Contains(err.Error(), "exactly one") {
			t.Errorf("err = %v, want exactly one of the amounts", err)
		}
	})
	t.Run("no amount", func(t *testing.T) {
		_, err := w.route(t, map[string]any{"token_in": w.weth.Hex(), "token_out": w.usdc.Hex()})
		if err == nil || !strings.Contains(err.Error(), "exactly one") {
			t.Errorf("err = %v, want exactly one of the amounts", err)
		}
	})
	t.Run("agent-named connector", func(t *testing.T) {
		for _, name := range []string{"uniswap_get_route", "uniswap_execute_routed_swap"} {
			e, _ := w.reg.Get(name)
			for _, p := range []string{"connector", "connectors", "via", "path", "intermediate"} {
				raw := fmt.Sprintf(`{"token_in":%q,"token_out":%q,"amount_in":"1000",%q:[%q]}`, w.weth.Hex(), w.dai.Hex(), p, aUSDC.Hex())
				if err := e.Validate(json.RawMessage(raw)); err == nil {
					t.Errorf("%s accepts a %q parameter", name, p)
				}
			}
		}
	})
}

// TestRoutedSwap commits routed swaps and checks the chain: an exact
// output delivers exactly amount_out for at most max_amount_in, an exact
// input two-hop delivers the quote, and the measured balances match.
func TestRoutedSwap(t *testing.T) {
	w := need(t)
	t.Run("exact output WETH to DAI", func(t *testing.T) {
		want := units(1_000, 18)
		route, err := w.route(t, map[string]any{"token_in": w.weth.Hex(), "token_out": w.dai.Hex(), "amount_out": want.String()})
		if err != nil {
			t.Fatal(err)
		}
		quoted := route.Route.AmountIn.big(t)
		maxIn := new(big.Int).Add(quoted, new(big.Int).Div(quoted, big.NewInt(100)))
		wethBefore, daiBefore := w.balance(t, w.weth), w.balance(t, w.dai)
		plan, res := w.send(t, "uniswap_execute_routed_swap", map[string]any{
			"token_in": w.weth.Hex(), "token_out": w.dai.Hex(), "amount_out": want.String(), "max_amount_in": maxIn.String(),
			"token_out_symbol": "DAI", "token_out_decimals": 18,
		})
		spent := new(big.Int).Sub(wethBefore, w.balance(t, w.weth))
		got := new(big.Int).Sub(w.balance(t, w.dai), daiBefore)
		if got.Cmp(want) != 0 {
			t.Errorf("received %s DAI units, want exactly %s", got, want)
		}
		if spent.Cmp(maxIn) > 0 || spent.Cmp(quoted) != 0 {
			t.Errorf("spent %s WETH units; quoted %s, max_amount_in %s", spent, quoted, maxIn)
		}
		if !res.Verified || len(res.TxHashes) == 0 {
			t.Errorf("result %+v: want verified with tx hashes", res)
		}
		if !strings.Contains(plan.Summary, "USDC") || !strings.Contains(plan.Summary, "exactly 1000") {
			t.Errorf("summary %q does not say the route", plan.Summary)
		}
		if plan.ValueCents <= 0 {
			t.Errorf("value %d cents: the input is priced", plan.ValueCents)
		}
	})
	t.Run("exact input two-hop WETH to DAI", func(t *testing.T) {
		amt := units(1, 18)
		route, err := w.route(t, map[string]any{"token_in": w.weth.Hex(), "token_out": w.dai.Hex(), "amount_in": amt.String()})
		if err != nil {
			t.Fatal(err)
		}
		daiBefore, wethBefore := w.balance(t, w.dai), w.balance(t, w.weth)
		_, res := w.send(t, "uniswap_execute_routed_swap", map[string]any{"token_in": w.weth.Hex(), "token_out": w.dai.Hex(), "amount_in": amt.String()})
		got := new(big.Int).Sub(w.balance(t, w.dai), daiBefore)
		if got.Cmp(route.Route.AmountOut.big(t)) != 0 {
			t.Errorf("received %s DAI units, the route quoted %s", got, route.Route.AmountOut.Raw)
		}
		if spent := new(big.Int).Sub(wethBefore, w.balance(t, w.weth)); spent.Cmp(amt) != 0 {
			t.Errorf("spent %s WETH units, want %s", spent, amt)
		}
		if !res.Verified {
			t.Errorf("result %+v not verified", res)
		}
	})
	t.Run("exact output over the cap is refused", func(t *testing.T) {
		e, in := w.input(t, "uniswap_execute_routed_swap", map[string]any{
			"token_in": w.weth.Hex(), "token_out": w.usdc.Hex(), "amount_out": units(3_000, 6).String(), "max_amount_in": units(1, 17).String()})
		if _, err := e.Plan(t.Context(), in); err == nil || !strings.Contains(err.Error(), "max_amount_in") {
			t.Errorf("err = %v, want a refusal naming max_amount_in", err)
		}
	})
}

// BenchmarkRoutedPreview previews a routed exact-input swap WETH → DAI:
// five pools (V2 WETH/USDC and DAI/USDC, V3 WETH/USDC at two tiers and
// USDC/DAI), routed through USDC.
func BenchmarkRoutedPreview(b *testing.B) {
	w := need(b)
	e, in := w.input(b, "uniswap_execute_routed_swap", map[string]any{"token_in": w.weth.Hex(), "token_out": w.dai.Hex(), "amount_in": units(1, 18).String()})
	for b.Loop() {
		if _, err := e.Plan(b.Context(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// registryFor registers the catalogue for a variant of the deployment's
// environment.
func (w *world) registryFor(t *testing.T, edit func(*catalog.Env)) *world {
	t.Helper()
	env := *w.env
	edit(&env)
	v := *w
	v.env, v.reg = &env, registry.New()
	if err := catalog.Register(v.reg, v.env); err != nil {
		t.Fatal(err)
	}
	v.reg.Freeze()
	return &v
}

// TestRouteWithoutQuoter checks the fallback where the book lists no
// QuoterV2: exact inputs are quoted with ward's own pool arithmetic and
// agree with the quoter; exact outputs route over V2 only.
func TestRouteWithoutQuoter(t *testing.T) {
	w := need(t)
	bare := w.registryFor(t, func(e *catalog.Env) { e.Venues.UniswapV3QuoterV2 = common.Address{} })
	args := map[string]any{"token_in": w.weth.Hex(), "token_out": w.dai.Hex(), "amount_in": units(1, 18).String()}
	got, err := bare.route(t, args)
	if err != nil {
		t.Fatal(err)
	}
	want, err := w.route(t, args)
	if err != nil {
		t.Fatal(err)
	}
	if got.Route.Path != want.Route.Path || got.Route.AmountOut.Raw != want.Route.AmountOut.Raw {
		t.Errorf("without a quoter: %s gives %s; with QuoterV2: %s gives %s", got.Route.Path, got.Route.AmountOut.Raw, want.Route.Path, want.Route.AmountOut.Raw)
	}
	out, err := bare.route(t, map[string]any{"token_in": w.weth.Hex(), "token_out": w.dai.Hex(), "amount_out": units(100, 18).String()})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range append(out.Alternatives, out.Route) {
		if a.Venue != "uniswap_v2" {
			t.Errorf("exact output quoted on %s without a quoter: %+v", a.Venue, a)
		}
	}
}

// publicChain is the deployment as a public chain's book describes it:
// SwapRouter02 but not the original SwapRouter (no public chain's book
// lists it). V2's Router02 is left out too, so that routes go over V3 and
// through SwapRouter02 whatever the pools' state.
func (w *world) publicChain(t *testing.T) *world {
	t.Helper()
	o := w.r.Book()
	for _, c := range o.Chains {
		c.Contracts = slices.DeleteFunc(c.Contracts, func(k addrbook.Contract) bool {
			return k.Role == addrbook.UniswapV3SwapRouter || k.Role == addrbook.UniswapV2Router02
		})
	}
	book, err := addrbook.Shipped().With(o)
	if err != nil {
		t.Fatal(err)
	}
	ch, ok := book.Chain(w.r.ChainID)
	if !ok {
		t.Fatal("the deployment's chain is not in its book")
	}
	tokens, venues := catalog.FromBook(ch)
	return w.registryFor(t, func(e *catalog.Env) { e.Tokens, e.Venues = tokens, venues })
}

// TestSwapRouter02 commits swaps on a chain whose book lists only
// SwapRouter02 (as the public chains' do), against the published
// SwapRouter02 bytecode: uniswap_execute_swap (exactInputSingle) and the
// routed swap, exact input and exact output over two hops (exactInput,
// exactOutput), each inside multicall(deadline, [swap]). The amounts
// received and spent are the protocol's own quotes (QuoterV2 and the
// route, read just before the swap) and the router keeps nothing.
func TestSwapRouter02(t *testing.T) {
	w := need(t)
	r02, ok := w.r.Contract(addrbook.UniswapV3SwapRouter02)
	if !ok {
		t.Fatal("the deployment has no SwapRouter02")
	}
	pub := w.publicChain(t)
	if v := pub.env.Venues; v.UniswapV3Router != (common.Address{}) || v.UniswapV3SwapRouter02 != r02 {
		t.Fatalf("venues %+v: want SwapRouter02 %s and no original SwapRouter", v, r02)
	}
	a := chain.UniswapV3SwapRouter02ABI()
	for _, tc := range []struct {
		name, tool string
		out        common.Address
		exactIn    bool
		amount     *big.Int
		inner      string
	}{
		{"exact input single WETH to USDC", "uniswap_execute_swap", w.usdc, true, units(1, 18), "exactInputSingle"},
		{"exact input two-hop WETH to DAI", "uniswap_execute_routed_swap", w.dai, true, units(1, 18), "exactInput"},
		{"exact output two-hop WETH to DAI", "uniswap_execute_routed_swap", w.dai, false, units(100, 18), "exactOutput"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"token_in": w.weth.Hex(), "token_out": tc.out.Hex()}
			if tc.exactIn {
				args["amount_in"] = tc.amount.String()
			} else {
				args["amount_out"] = tc.amount.String()
			}
			// What the protocol says the swap gives (exact input) or costs
			// (exact output), in the state the swap runs against.
			var want *big.Int
			if tc.tool == "uniswap_execute_swap" {
				for _, fee := range []int64{500, 3000} {
					q := w.quote(t, candidate{venue: "uniswap_v3", tokens: []common.Address{w.weth, tc.out}, fees: []int64{fee}}, true, tc.amount)
					if q != nil && (want == nil || q.Cmp(want) > 0) {
						want = q
					}
				}
			} else {
				route, err := pub.route(t, args)
				if err != nil {
					t.Fatal(err)
				}
				if route.Route.Venue != "uniswap_v3" || len(route.Route.Hops) != 2 {
					t.Fatalf("route %+v: want two V3 hops", route.Route)
				}
				if want = route.Route.AmountOut.big(t); !tc.exactIn {
					want = route.Route.AmountIn.big(t)
				}
			}
			if want == nil || want.Sign() == 0 {
				t.Fatal("the protocol quotes nothing")
			}
			inBefore, outBefore := w.balance(t, w.weth), w.balance(t, tc.out)
			plan, res := pub.send(t, tc.tool, args)
			spent := new(big.Int).Sub(inBefore, w.balance(t, w.weth))
			got := new(big.Int).Sub(w.balance(t, tc.out), outBefore)

			swap := plan.Txs[len(plan.Txs)-1]
			if common.Address(swap.To) != r02 {
				t.Fatalf("swap sent to %s, want SwapRouter02 %s", common.Address(swap.To), r02)
			}
			m, margs, err := a.UnpackArgs(swap.Data)
			if err != nil || m != "multicall" {
				t.Fatalf("swap calls %s (%v), want multicall", m, err)
			}
			if calls := margs[1].([][]byte); len(calls) != 1 {
				t.Errorf("%d calls in the multicall, want 1", len(calls))
			} else if m, _, err := a.UnpackArgs(calls[0]); err != nil || m != tc.inner {
				t.Errorf("multicall runs %s (%v), want %s", m, err, tc.inner)
			}
			if tc.exactIn {
				if spent.Cmp(tc.amount) != 0 || got.Cmp(want) != 0 {
					t.Errorf("spent %s WETH units for %s; want %s for the quoted %s", spent, got, tc.amount, want)
				}
			} else if got.Cmp(tc.amount) != 0 || spent.Cmp(want) != 0 {
				t.Errorf("received %s for %s WETH units; want exactly %s for the quoted %s", got, spent, tc.amount, want)
			}
			if !res.Verified || len(res.TxHashes) == 0 {
				t.Errorf("result %+v: want verified with tx hashes", res)
			}
			for _, tok := range []common.Address{w.weth, w.usdc, w.dai} {
				if b, err := w.env.Chain.TokenBalance(t.Context(), tok, r02); err != nil || b.Sign() != 0 {
					t.Errorf("SwapRouter02 holds %s of %s (%v) after the swap, want nothing", b, tok, err)
				}
			}
		})
	}
}
