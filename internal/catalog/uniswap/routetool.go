package uniswap

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// routeParams are the parameters both routing tools share. There is no
// parameter naming an intermediate token: connectors come from ward's
// configuration only (see connectorsOf).
func routeParams() []string {
	return []string{
		native.PAddress("token_in", "The ERC-20 token to sell (WETH for ether: wrap ETH first)"),
		native.PAddress("token_out", "The ERC-20 token to buy"),
		native.PAmount("amount_in", "Exact amount of token_in to sell (give this or amount_out, not both)"),
		native.PAmount("amount_out", "Exact amount of token_out to buy (give this or amount_in, not both)"),
		`"max_hops":{"type":"integer","enum":[1,2],"description":"Most pools a route may pass through: 1 (direct only) or 2 (through one of ward's configured tokens; default)"}`,
		native.PClaims("token_in", "token_in"),
		native.PClaims("token_out", "token_out"),
		native.PChain,
	}
}

var routeRead = native.ReadTool{
	Name: "uniswap_get_route",
	Description: "Find the best Uniswap route for a swap, exact input (amount_in) or exact output (amount_out): the V2 direct pair, V2 two-hop paths, " +
		"V3 pools at every fee tier and V3 two-hop paths with any fee tier per hop, quoted with V3's QuoterV2 (or ward's exact pool arithmetic where the chain has none) and V2's Router02. " +
		"Two-hop routes pass only through tokens ward is configured with (WETH and the chain's priced tokens, at most four); a route never mixes V2 and V3. " +
		"Returns the chosen route (venue, hops with token, fee and pool, amounts) and every alternative quoted. Sends nothing and does not weigh gas; " +
		"to trade the route use uniswap_execute_routed_swap.",
	Category: tool.CatTrading, Budget: tool.Medium,
	Steps:   []string{"Finding pools", "Quoting routes", "Ranking routes"},
	Snippet: "uniswap_get_route finds the best V2 or V3 route, direct or two-hop, for an exact input or output.",
	Params:  routeParams(),
	Result: []string{
		native.RProp("kind", "string", "exact_input or exact_output"),
		native.RTokenProp("token_in", "token sold"), native.RTokenProp("token_out", "token bought"),
		`"route":` + routeSchema("the best route"),
		`"alternatives":{"type":"array","description":"every route quoted, best first","items":` + routeSchema("a route") + `}`,
		`"connectors":{"type":"array","items":{"type":"string"},"description":"the configured tokens two-hop routes may pass through"}`,
		`"unavailable":{"type":"array","items":{"type":"string"},"description":"why a venue or path gave no quote"}`},
	Action: "route", Venue: "uniswap",
	Run: uniRoute,
}

func routeSchema(desc string) string {
	return `{"type":"object","description":"` + desc + `","properties":{"venue":{"type":"string"},"path":{"type":"string"},` +
		`"hops":{"type":"array","items":{"type":"object","properties":{"token_in":{"type":"string"},"token_out":{"type":"string"},"fee":{"type":"integer"},"pool":{"type":"string"}}}},` +
		`"amount_in":` + native.RAmount + `,"amount_out":` + native.RAmount + `,"method":{"type":"string"}}}`
}

type hopOut struct {
	TokenIn  string `json:"token_in"`
	TokenOut string `json:"token_out"`
	Fee      int64  `json:"fee"`
	Pool     string `json:"pool"`
}

type routeOut struct {
	Venue     string           `json:"venue"`
	Path      string           `json:"path"`
	Hops      []hopOut         `json:"hops"`
	AmountIn  native.AmountOut `json:"amount_in"`
	AmountOut native.AmountOut `json:"amount_out"`
	Method    string           `json:"method"`
}

func routeOutOf(env *native.Env, r route, mi, mo native.TokenInfo) routeOut {
	o := routeOut{Venue: r.venue, Path: pathText(env, r.tokens, r.fees), Method: r.method,
		AmountIn: native.AmountOf(r.amountIn, mi.Decimals), AmountOut: native.AmountOf(r.amountOut, mo.Decimals)}
	for i, p := range r.pools {
		o.Hops = append(o.Hops, hopOut{TokenIn: r.tokens[i].Hex(), TokenOut: r.tokens[i+1].Hex(), Fee: r.fees[i], Pool: p.Hex()})
	}
	return o
}

// routeArgs reads a routing request: two different tokens, exactly one
// of amount_in and amount_out (positive), and max_hops.
func routeArgs(args *native.Args) routeRequest {
	in, out := args.Pair("token_in", "token_out")
	req := routeRequest{in: in, out: out, kind: exactInput, maxHops: int(args.Int("max_hops", 2))}
	switch hasIn, hasOut := args.Has("amount_in"), args.Has("amount_out"); {
	case hasIn == hasOut:
		args.Check(errors.New("give exactly one of amount_in (sell an exact amount) and amount_out (buy an exact amount)"))
	case hasIn:
		req.amount = args.Positive("amount_in")
	default:
		req.kind, req.amount = exactOutput, args.Positive("amount_out")
	}
	if req.maxHops != 1 && req.maxHops != 2 {
		args.Check(errors.New("max_hops must be 1 or 2"))
	}
	return req
}

func uniRoute(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	args := native.ArgsOf(in)
	req := routeArgs(args)
	if err := args.Err(); err != nil {
		return nil, err
	}
	mi, mo, err := native.TokenInfoPair(ctx, env, req.in, req.out)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	req.v2, req.v3 = true, true
	in.Step(1)
	s, err := findRoute(ctx, env, req)
	if err != nil {
		return nil, err
	}
	in.Step(2)
	alts := sortRoutes(s.considered, req.kind)
	outs := make([]routeOut, len(alts))
	for i, r := range alts {
		outs[i] = routeOutOf(env, r, mi, mo)
	}
	cs := make([]string, len(s.connectors))
	for i, c := range s.connectors {
		cs[i] = c.Hex()
	}
	return map[string]any{
		"kind": req.kind.String(), "token_in": mi, "token_out": mo,
		"route": routeOutOf(env, s.best, mi, mo), "alternatives": outs,
		"connectors": cs, "unavailable": nonNil(s.unavailable),
	}, nil
}

// sortRoutes returns rs best first (a stable insertion sort: a handful of
// routes).
func sortRoutes(rs []route, k tradeKind) []route {
	out := make([]route, 0, len(rs))
	for _, r := range rs {
		i := len(out)
		for i > 0 && r.better(out[i-1], k) {
			i--
		}
		out = append(out[:i], append([]route{r}, out[i:]...)...)
	}
	return out
}

var routeSwap = native.WriteTool{
	Name: "uniswap_execute_routed_swap",
	Description: "Swap through the best Uniswap route, received by the agent's wallet: exact input (amount_in: sell exactly this, receive at least the quote less slippage) " +
		"or exact output (amount_out: receive exactly this, spend at most the quote plus slippage). The route is the one uniswap_get_route finds: " +
		"a V2 pair or V3 pool, directly or through one of ward's configured tokens, never mixing V2 and V3. " +
		"The plan approves the router for exactly the amount it may spend, then swaps through SwapRouter02 (deadline in its multicall), the original SwapRouter, or V2 Router02. " +
		"Does not take native ETH (wrap it to WETH first), route through tokens you name, split a trade across routes, or send the output to another address.",
	Category: tool.CatTrading, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:      []string{"Routing", "Checking balance and allowance", "Sending approve and swap", "Confirming"},
	Snippet:    "uniswap_execute_routed_swap swaps an exact input or output over the best V2 or V3 route, direct or two-hop.",
	Guidelines: []string{"Call uniswap_get_route first to see the route and its alternatives.", "Keep slippage_bps small (50 or less) on deep pools."},
	Required:   []string{"token_in", "token_out"},
	Params: append(routeParams(),
		native.PSlippage,
		native.PAmount("min_amount_out", "With amount_in: optional floor on the output; the plan uses the larger of this and the slippage-derived minimum"),
		native.PAmount("max_amount_in", "With amount_out: optional ceiling on the input; the plan uses the smaller of this and the slippage-derived maximum, and refuses when the quote exceeds it"),
		native.PDeadline),
	Action: "swap", Venue: "uniswap",
	When: func(env *native.Env) bool {
		return env.Venues.UniswapV2Router != (common.Address{}) || v3RouterOf(env) != (common.Address{})
	},
	Plan: planRoutedSwap,
}

// slippageMax returns x raised by bps basis points, rounded up.
func slippageMax(x *big.Int, bps int64) *big.Int {
	v := new(big.Int).Mul(x, big.NewInt(10000+bps))
	v.Add(v, big.NewInt(9999))
	return v.Quo(v, big.NewInt(10000))
}

func planRoutedSwap(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	args := native.ArgsOf(in)
	req := routeArgs(args)
	minOut, maxIn := args.OptionalAmount("min_amount_out"), args.OptionalAmount("max_amount_in")
	if err := args.Err(); err != nil {
		return nil, err
	}
	if (minOut != nil && req.kind != exactInput) || (maxIn != nil && req.kind != exactOutput) {
		return nil, errors.New("min_amount_out goes with amount_in, max_amount_in with amount_out")
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	mi, mo, err := native.TokenInfoPair(ctx, env, req.in, req.out)
	if err != nil {
		return nil, err
	}
	// Only venues with a router the plan can send to are routed over.
	req.v2, req.v3 = env.Venues.UniswapV2Router != (common.Address{}), v3RouterOf(env) != (common.Address{})
	if !req.v2 && !req.v3 {
		return nil, errors.New("no Uniswap router is configured for this chain")
	}
	in.Step(0)
	s, err := findRoute(ctx, env, req)
	if err != nil {
		return nil, err
	}
	r := s.best
	spend, receive, what, err := routedBounds(req, r, args.Int("slippage_bps", native.DefaultSlippageBps), minOut, maxIn, mi, mo)
	if err != nil {
		return nil, err
	}
	router := env.Venues.UniswapV2Router
	if r.venue == "uniswap_v3" {
		router = v3RouterOf(env)
	}
	in.Step(1)
	txs, err := native.Spend(ctx, env, mi, router, spend)
	if err != nil {
		return nil, err
	}
	dl, err := native.Deadline(ctx, env, in)
	if err != nil {
		return nil, err
	}
	swap, err := routedSwapTx(env, r, req.kind, router, owner, spend, receive, dl)
	if err != nil {
		return nil, err
	}
	txs = append(txs, swap)
	return native.NewPlan(ctx, env, txs,
		[]tool.TokenUse{native.Claimed(in, req.in, spend, true, "token_in"), native.Claimed(in, req.out, receive, false, "token_out")},
		native.ValueCents(ctx, env, req.in, spend),
		routedSummary(env, r, what)), nil
}

// routedBounds returns what the swap on route r may spend of mi and must
// receive of mo, slippage bps included, and describes it: for an exact
// input, at least the quote less slippage or minOut, whichever is more;
// for an exact output, at most the quote plus slippage, capped by maxIn,
// which the quote itself must not pass.
func routedBounds(req routeRequest, r route, bps int64, minOut, maxIn *big.Int, mi, mo native.TokenInfo) (spend, receive *big.Int, what string, err error) {
	if req.kind == exactInput {
		spend, receive = req.amount, native.SlippageMin(r.amountOut, bps)
		if minOut != nil && minOut.Cmp(receive) > 0 {
			receive = minOut
		}
		if receive.Sign() == 0 {
			return nil, nil, "", fmt.Errorf("the swap would return nothing: %s %s buys less than one unit of %s", native.FormatUnits(spend, mi.Decimals), mi.Symbol, mo.Symbol)
		}
		what = fmt.Sprintf("swap %s %s for at least %s %s (quoted %s)", native.FormatUnits(spend, mi.Decimals), mi.Symbol,
			native.FormatUnits(receive, mo.Decimals), mo.Symbol, native.FormatUnits(r.amountOut, mo.Decimals))
		return spend, receive, what, nil
	}
	spend, receive = slippageMax(r.amountIn, bps), req.amount
	if maxIn != nil {
		if r.amountIn.Cmp(maxIn) > 0 {
			return nil, nil, "", fmt.Errorf("the best route needs %s %s for %s %s, more than max_amount_in (%s)", native.FormatUnits(r.amountIn, mi.Decimals), mi.Symbol,
				native.FormatUnits(receive, mo.Decimals), mo.Symbol, native.FormatUnits(maxIn, mi.Decimals))
		}
		if maxIn.Cmp(spend) < 0 {
			spend = maxIn
		}
	}
	what = fmt.Sprintf("buy exactly %s %s for at most %s %s (quoted %s)", native.FormatUnits(receive, mo.Decimals), mo.Symbol,
		native.FormatUnits(spend, mi.Decimals), mi.Symbol, native.FormatUnits(r.amountIn, mi.Decimals))
	return spend, receive, what, nil
}

// routedSummary is the plan's summary: what the swap does, on which
// venue, along which path and pools.
func routedSummary(env *native.Env, r route, what string) string {
	pools := make([]string, len(r.pools))
	for i, p := range r.pools {
		pools[i] = p.Hex()
	}
	venue := map[string]string{"uniswap_v2": "Uniswap V2", "uniswap_v3": "Uniswap V3"}[r.venue]
	return fmt.Sprintf("%s on %s via %s (pools %s)", what, venue, pathText(env, r.tokens, r.fees), strings.Join(pools, ", "))
}

// The routers' path swap parameters (IV3SwapRouter for SwapRouter02,
// ISwapRouter for the original, whose params carry a deadline).
type (
	exactInputParams02 struct {
		Path             []byte
		Recipient        common.Address
		AmountIn         *big.Int
		AmountOutMinimum *big.Int
	}
	exactOutputParams02 struct {
		Path            []byte
		Recipient       common.Address
		AmountOut       *big.Int
		AmountInMaximum *big.Int
	}
	exactInputParams struct {
		Path             []byte
		Recipient        common.Address
		Deadline         *big.Int
		AmountIn         *big.Int
		AmountOutMinimum *big.Int
	}
	exactOutputParams struct {
		Path            []byte
		Recipient       common.Address
		Deadline        *big.Int
		AmountOut       *big.Int
		AmountInMaximum *big.Int
	}
)

// routedSwapTx is the swap of route r through router: spend is the exact
// input or the most input, receive the least output or the exact output.
func routedSwapTx(env *native.Env, r route, k tradeKind, router, owner common.Address, spend, receive, deadline *big.Int) (tool.Tx, error) {
	switch {
	case r.venue == "uniswap_v2" && k == exactInput:
		return native.Tx(chain.UniswapV2Router02ABI(), router, "swap", "swapExactTokensForTokens", spend, receive, r.tokens, owner, deadline)
	case r.venue == "uniswap_v2":
		return native.Tx(chain.UniswapV2Router02ABI(), router, "swap", "swapTokensForExactTokens", receive, spend, r.tokens, owner, deadline)
	case r.venue != "uniswap_v3":
		return tool.Tx{}, fmt.Errorf("route on unknown venue %q", r.venue)
	case router == env.Venues.UniswapV3Router:
		if k == exactInput {
			return native.Tx(chain.UniswapV3SwapRouterABI(), router, "swap", "exactInput", exactInputParams{
				Path: v3Path(r.tokens, r.fees, false), Recipient: owner, Deadline: deadline, AmountIn: spend, AmountOutMinimum: receive})
		}
		return native.Tx(chain.UniswapV3SwapRouterABI(), router, "swap", "exactOutput", exactOutputParams{
			Path: v3Path(r.tokens, r.fees, true), Recipient: owner, Deadline: deadline, AmountOut: receive, AmountInMaximum: spend})
	}
	a := chain.UniswapV3SwapRouter02ABI()
	var inner []byte
	var err error
	if k == exactInput {
		inner, err = a.Pack("exactInput", exactInputParams02{Path: v3Path(r.tokens, r.fees, false), Recipient: owner, AmountIn: spend, AmountOutMinimum: receive})
	} else {
		inner, err = a.Pack("exactOutput", exactOutputParams02{Path: v3Path(r.tokens, r.fees, true), Recipient: owner, AmountOut: receive, AmountInMaximum: spend})
	}
	if err != nil {
		return tool.Tx{}, err
	}
	return native.Tx(a, router, "swap", "multicall", deadline, [][]byte{inner})
}
