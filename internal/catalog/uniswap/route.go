package uniswap

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
)

// Routing finds the best Uniswap route for a trade among the V2 direct
// pair, V2 two-hop paths, V3 pools at every fee tier and V3 two-hop paths
// (any tier per hop). A route stays on one protocol. The intermediate
// token of a two-hop path is one of ward's own configured tokens
// (connectors), never one the agent names: a path through a token of the
// caller's choosing could pass the wallet's money through a
// fee-on-transfer or honeypot token. At most maxConnectors are tried, so a
// search costs a bounded number of calls: for each connector two V2
// getPair reads and one router quote, and for V3 eight getPool reads and
// at most eight quotes (the best tier of each hop, chosen one hop at a
// time: a hop's output grows with its input, so the best first hop feeds
// the best second hop). Routes are compared by amount only, not by gas.

// maxConnectors bounds the intermediate tokens a search tries.
const maxConnectors = 4

// tradeKind says which side of a trade is fixed.
type tradeKind uint8

const (
	exactInput  tradeKind = iota + 1 // amount is what is sold
	exactOutput                      // amount is what is bought
)

func (k tradeKind) String() string {
	switch k {
	case exactInput:
		return "exact_input"
	case exactOutput:
		return "exact_output"
	}
	return "unknown"
}

// ErrNoRoute is returned when no pool or pair joins the two tokens,
// directly or through a connector.
var ErrNoRoute = errors.New("no Uniswap route")

// routeRequest is one trade to route.
type routeRequest struct {
	in, out common.Address
	amount  *big.Int // sold (exactInput) or bought (exactOutput)
	kind    tradeKind
	maxHops int // 1 or 2
	v2, v3  bool
}

// route is one path and its quote.
type route struct {
	venue     string           // "uniswap_v2" or "uniswap_v3"
	tokens    []common.Address // len(pools)+1
	fees      []int64          // per hop, hundredths of a bip
	pools     []common.Address // per hop
	amountIn  *big.Int
	amountOut *big.Int
	method    string
}

func (r route) hops() int { return len(r.pools) }

// better reports whether r beats o for a trade of kind k: more out for an
// exact input, less in for an exact output; on a tie, fewer hops.
func (r route) better(o route, k tradeKind) bool {
	if o.amountIn == nil {
		return true
	}
	var c int
	if k == exactInput {
		c = r.amountOut.Cmp(o.amountOut)
	} else {
		c = o.amountIn.Cmp(r.amountIn)
	}
	return c > 0 || (c == 0 && r.hops() < o.hops())
}

// v3Path encodes tokens and fees as Uniswap V3's packed path: token, fee
// (3 bytes), token, ... An exact-output path runs from the output back to
// the input, as the router and quoter expect.
func v3Path(tokens []common.Address, fees []int64, reverse bool) []byte {
	ts, fs := slices.Clone(tokens), slices.Clone(fees)
	if reverse {
		slices.Reverse(ts)
		slices.Reverse(fs)
	}
	b := make([]byte, 0, 20*len(ts)+3*len(fs))
	for i, t := range ts {
		if i > 0 {
			f := fs[i-1]
			b = append(b, byte(f>>16), byte(f>>8), byte(f))
		}
		b = append(b, t.Bytes()...)
	}
	return b
}

// routeSearch is the result of findRoute: the best route, every route
// quoted (the best among them), and why venues or paths gave none.
type routeSearch struct {
	best        route
	considered  []route
	unavailable []string
	connectors  []common.Address
}

// connectorsOf returns the tokens a two-hop route may pass through: WETH,
// then the configured priced tokens in configuration order, without the
// trade's own tokens, at most maxConnectors. They come from ward's
// configuration only.
func connectorsOf(env *native.Env, in, out common.Address) []common.Address {
	var cs []common.Address
	add := func(a common.Address) {
		if len(cs) == maxConnectors || a == (common.Address{}) || a == in || a == out {
			return
		}
		for _, c := range cs {
			if c == a {
				return
			}
		}
		cs = append(cs, a)
	}
	add(env.Venues.WETH)
	for _, t := range env.Tokens {
		if t.Feed != (common.Address{}) {
			add(t.Address)
		}
	}
	return cs
}

// findRoute quotes every candidate route of req and returns the best. It
// fails with ErrNoRoute when none could be quoted; pools that do not exist
// are skipped quietly, pools that could not quote are listed in
// unavailable.
func findRoute(ctx context.Context, env *native.Env, req routeRequest) (routeSearch, error) {
	s := routeSearch{}
	if req.maxHops >= 2 {
		s.connectors = connectorsOf(env, req.in, req.out)
	}
	if req.v2 {
		if err := routeV2(ctx, env, req, &s); err != nil {
			s.unavailable = append(s.unavailable, "uniswap_v2: "+err.Error())
		}
	}
	if req.v3 {
		if err := routeV3(ctx, env, req, &s); err != nil {
			s.unavailable = append(s.unavailable, "uniswap_v3: "+err.Error())
		}
	}
	for _, r := range s.considered {
		if r.better(s.best, req.kind) {
			s.best = r
		}
	}
	if s.best.amountIn == nil {
		via := "directly"
		if len(s.connectors) > 0 {
			syms := make([]string, len(s.connectors))
			for i, c := range s.connectors {
				syms[i] = c.Hex()
				if t, ok := env.Token(c); ok && t.Symbol != "" {
					syms[i] = t.Symbol
				}
			}
			via = "directly or through " + strings.Join(syms, ", ")
		}
		return s, fmt.Errorf("%w from %s to %s: no Uniswap pool with liquidity joins them %s (within %d hops)",
			ErrNoRoute, req.in.Hex(), req.out.Hex(), via, req.maxHops)
	}
	return s, nil
}

// paths returns the token paths of req: direct, then through each
// connector.
func (s *routeSearch) paths(req routeRequest) [][]common.Address {
	ps := [][]common.Address{{req.in, req.out}}
	for _, c := range s.connectors {
		ps = append(ps, []common.Address{req.in, c, req.out})
	}
	return ps
}

// routeV2 quotes the V2 paths of req with Router02's getAmountsOut or
// getAmountsIn, after checking each hop's pair exists.
func routeV2(ctx context.Context, env *native.Env, req routeRequest, s *routeSearch) error {
	router := env.Venues.UniswapV2Router
	if router == (common.Address{}) {
		return errors.New("no Uniswap V2 router is configured")
	}
	factory, err := v2FactoryOf(ctx, env, router)
	if err != nil {
		return err
	}
	pairs := map[[2]common.Address]common.Address{}
	pairOf := func(a, b common.Address) (common.Address, error) {
		k := [2]common.Address{a, b}
		if p, ok := pairs[k]; ok {
			return p, nil
		}
		p, err := native.CallAddress(ctx, env, chain.UniswapV2FactoryABI(), factory, "getPair", a, b)
		if err != nil {
			return p, err
		}
		pairs[k], pairs[[2]common.Address{b, a}] = p, p
		return p, nil
	}
	a := chain.UniswapV2Router02ABI()
next:
	for _, path := range s.paths(req) {
		r := route{venue: "uniswap_v2", tokens: path}
		for i := range len(path) - 1 {
			p, err := pairOf(path[i], path[i+1])
			if err != nil {
				return err
			}
			if p == (common.Address{}) {
				continue next
			}
			r.pools, r.fees = append(r.pools, p), append(r.fees, v2Fee)
		}
		method := "getAmountsOut"
		if req.kind == exactOutput {
			method = "getAmountsIn"
		}
		v, err := native.Call(ctx, env.Chain, a, router, method, req.amount, path)
		if err != nil {
			// A pair without reserves reverts (INSUFFICIENT_LIQUIDITY).
			s.unavailable = append(s.unavailable, "uniswap_v2 "+pathText(env, path, nil)+": the router cannot quote it")
			continue
		}
		amounts, _ := v[0].([]*big.Int)
		if len(amounts) != len(path) {
			return fmt.Errorf("router %s returned %d amounts for a %d-token path", router.Hex(), len(amounts), len(path))
		}
		r.amountIn, r.amountOut, r.method = amounts[0], amounts[len(amounts)-1], "router "+method
		if r.amountIn.Sign() <= 0 || r.amountOut.Sign() <= 0 {
			continue
		}
		s.considered = append(s.considered, r)
	}
	return nil
}

// v3PoolAt is a V3 pool and its fee tier.
type v3PoolAt struct {
	fee  int64
	pool common.Address
}

// routeV3 quotes the V3 paths of req: with QuoterV2 where the chain has
// one, else (exact input only) with ward's own pool arithmetic.
func routeV3(ctx context.Context, env *native.Env, req routeRequest, s *routeSearch) error {
	q, err := newV3Quotes(ctx, env, req.kind)
	if err != nil {
		return err
	}
	for _, path := range s.paths(req) {
		hops := make([][]v3PoolAt, len(path)-1)
		for i := range hops {
			if hops[i], err = q.poolsOf(ctx, path[i], path[i+1]); err != nil {
				return err
			}
		}
		if len(path) == 2 {
			// Every tier of a direct route is an alternative of its own.
			for _, p := range hops[0] {
				amt := q.hop(ctx, path[0], path[1], p, req.amount)
				if amt == nil {
					s.unavailable = append(s.unavailable, fmt.Sprintf("uniswap_v3 %s: the pool at fee %d cannot fill the trade", pathText(env, path, nil), p.fee))
					continue
				}
				s.considered = append(s.considered, v3Route(path, []v3PoolAt{p}, req, amt, q.method()))
			}
			continue
		}
		if len(hops[0]) == 0 || len(hops[1]) == 0 {
			continue
		}
		chosen, amt := q.bestTiers(ctx, path, hops, req.amount)
		if amt == nil {
			s.unavailable = append(s.unavailable, "uniswap_v3 "+pathText(env, path, nil)+": no pool of a hop can fill the trade")
			continue
		}
		s.considered = append(s.considered, v3Route(path, chosen, req, amt, q.method()))
	}
	return nil
}

// v3Quotes quotes one request's hops through Uniswap V3's pools: with the
// QuoterV2 when one is configured, else by the exact swap computation over
// the pools' tick state (exact inputs only). It keeps the pools it found
// by pair; it is not safe for concurrent use.
type v3Quotes struct {
	env             *native.Env
	factory, quoter common.Address
	kind            tradeKind
	pools           map[[2]common.Address][]v3PoolAt
}

// newV3Quotes finds the factory (configured, or the router's) and the
// quoter; an exact output needs a quoter.
func newV3Quotes(ctx context.Context, env *native.Env, kind tradeKind) (*v3Quotes, error) {
	factory := env.Venues.UniswapV3Factory
	if factory == (common.Address{}) {
		router := v3RouterOf(env)
		if router == (common.Address{}) {
			return nil, errors.New("no Uniswap V3 factory is configured")
		}
		var err error
		if factory, err = v3FactoryOf(ctx, env, router); err != nil {
			return nil, err
		}
	}
	quoter := env.Venues.UniswapV3QuoterV2
	if quoter == (common.Address{}) && kind == exactOutput {
		return nil, errors.New("no QuoterV2 is configured to quote exact outputs")
	}
	return &v3Quotes{env: env, factory: factory, quoter: quoter, kind: kind, pools: map[[2]common.Address][]v3PoolAt{}}, nil
}

// poolsOf returns the pools of a and b, a fee tier each.
func (q *v3Quotes) poolsOf(ctx context.Context, a, b common.Address) ([]v3PoolAt, error) {
	k := [2]common.Address{a, b}
	if ps, ok := q.pools[k]; ok {
		return ps, nil
	}
	var ps []v3PoolAt
	for _, fee := range FeeTiers {
		p, err := native.CallAddress(ctx, q.env, chain.UniswapV3FactoryABI(), q.factory, "getPool", a, b, big.NewInt(fee))
		if err != nil {
			return nil, err
		}
		if p != (common.Address{}) {
			ps = append(ps, v3PoolAt{fee, p})
		}
	}
	q.pools[k], q.pools[[2]common.Address{b, a}] = ps, ps
	return ps, nil
}

// hop quotes one hop from a to b through pool p: amount is sold (exact
// input) or bought (exact output); it returns the other side, or nil when
// the pool cannot fill it.
func (q *v3Quotes) hop(ctx context.Context, a, b common.Address, p v3PoolAt, amount *big.Int) *big.Int {
	if q.quoter == (common.Address{}) {
		r, err := quoteV3(ctx, q.env, q.factory, a, b, p.fee, amount)
		if err != nil {
			return nil
		}
		return r.out
	}
	method, path := "quoteExactInput", v3Path([]common.Address{a, b}, []int64{p.fee}, false)
	if q.kind == exactOutput {
		method, path = "quoteExactOutput", v3Path([]common.Address{a, b}, []int64{p.fee}, true)
	}
	v, err := native.Call(ctx, q.env.Chain, chain.UniswapV3QuoterV2ABI(), q.quoter, method, path, amount)
	if err != nil {
		return nil
	}
	n, _ := v[0].(*big.Int)
	if n == nil || n.Sign() <= 0 {
		return nil
	}
	return n
}

// bestTiers picks the best tier of a two-hop path hop by hop, forwards for
// an exact input and backwards for an exact output, and returns the pools
// and the route's quote; amt is nil when a hop has no pool that fills it.
func (q *v3Quotes) bestTiers(ctx context.Context, path []common.Address, hops [][]v3PoolAt, amount *big.Int) (chosen []v3PoolAt, amt *big.Int) {
	order := []int{0, 1}
	if q.kind == exactOutput {
		order = []int{1, 0}
	}
	chosen = make([]v3PoolAt, 2)
	amt = amount
	for _, h := range order {
		var best *big.Int
		for _, p := range hops[h] {
			got := q.hop(ctx, path[h], path[h+1], p, amt)
			if got == nil {
				continue
			}
			if best == nil || (q.kind == exactInput && got.Cmp(best) > 0) || (q.kind == exactOutput && got.Cmp(best) < 0) {
				best, chosen[h] = got, p
			}
		}
		if best == nil {
			return nil, nil
		}
		amt = best
	}
	return chosen, amt
}

// method names how the quotes were made, for the route's description.
func (q *v3Quotes) method() string {
	if q.quoter == (common.Address{}) {
		return "exact V3 swap computation over the pools' tick state"
	}
	return "QuoterV2 " + map[tradeKind]string{exactInput: "quoteExactInput", exactOutput: "quoteExactOutput"}[q.kind]
}

// v3Route is the route through pools along path, with req's fixed amount
// and the quoted other side.
func v3Route(path []common.Address, ps []v3PoolAt, req routeRequest, quoted *big.Int, method string) route {
	r := route{venue: "uniswap_v3", tokens: path, method: method, amountIn: req.amount, amountOut: quoted}
	if req.kind == exactOutput {
		r.amountIn, r.amountOut = quoted, req.amount
	}
	for _, p := range ps {
		r.pools, r.fees = append(r.pools, p.pool), append(r.fees, p.fee)
	}
	return r
}

// pathText names a path by its tokens' configured symbols (addresses for
// others), with fees when given.
func pathText(env *native.Env, tokens []common.Address, fees []int64) string {
	var b strings.Builder
	for i, t := range tokens {
		if i > 0 {
			if fees != nil {
				fmt.Fprintf(&b, " -%s%%-> ", native.RatString(big.NewRat(fees[i-1], 10000), 4))
			} else {
				b.WriteString(" -> ")
			}
		}
		if k, ok := env.Token(t); ok && k.Symbol != "" {
			b.WriteString(k.Symbol)
		} else {
			b.WriteString(t.Hex())
		}
	}
	return b.String()
}

// v3RouterOf is the V3 router swaps go through: the original SwapRouter
// where configured, else SwapRouter02.
func v3RouterOf(env *native.Env) common.Address {
	if env.Venues.UniswapV3Router != (common.Address{}) {
		return env.Venues.UniswapV3Router
	}
	return env.Venues.UniswapV3SwapRouter02
}
