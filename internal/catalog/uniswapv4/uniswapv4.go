// Package uniswapv4 holds the catalogue's Uniswap V4 tools: a pool's
// state by its key (uniswap_get_v4_pool, through StateView), an exact
// input quote (uniswap_get_v4_quote, through V4Quoter), and exact-input
// swaps through the Universal Router's V4_SWAP command, paid through
// Permit2 (uniswap_execute_v4_swap, uniswap_execute_v4_hooked_swap).
//
// A V4 pool is named by its key: the two currencies, the fee, the tick
// spacing and the hooks contract. A pool with a hook runs that contract's
// code around its actions, which can take fees, change amounts or revert
// at will: ward treats every such pool as high risk. The swap of a pool
// without a hook is a bounded write (Layer2); a pool whose key names a
// hook can be swapped only with uniswap_execute_v4_hooked_swap, a Layer3
// tool, which the gate gives the permit risk tier high, the phase gate
// blocks from conservation down and the conservative profile does not
// load. Each refuses the other's pools.
//
// The swap plan approves exactly the amount in to Permit2 on the token,
// gives the router a Permit2 allowance of exactly that amount expiring
// with the swap's deadline, and calls execute(V4_SWAP, [SWAP_EXACT_IN_SINGLE,
// SETTLE_ALL, TAKE_ALL], deadline), so the router pulls the input from
// the wallet through Permit2 and pays the output to it, never less than
// the minimum.
//
// Native ETH is V4's currency 0, the zero address, and the tools take it
// as a token argument the same way (0x0000000000000000000000000000000000000000):
// most of V4's ETH liquidity is in native pools, not WETH ones. Selling
// ETH sends it as the execute call's value, which the router settles
// with the PoolManager (no approval, no Permit2 allowance); buying ETH
// takes it from the PoolManager straight to the wallet. The write checks
// the wallet's ETH moved by the amount, gas accounted.
package uniswapv4

import (
	"bytes"
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

// Tools are the Uniswap V4 reads and swaps.
func Tools() []native.Maker { return []native.Maker{poolRead, quoteRead, swap, hookedSwap} }

func hasV4(env *native.Env) bool { return env.Venues.UniswapV4StateView != (common.Address{}) }

func hasQuoter(env *native.Env) bool {
	return hasV4(env) && env.Venues.UniswapV4Quoter != (common.Address{})
}

func hasRouter(env *native.Env) bool {
	return hasQuoter(env) && env.Venues.UniversalRouter != (common.Address{}) && env.Venues.Permit2 != (common.Address{})
}

// Pool key bounds: V4's fee is at most 100 % in hundredths of a bip, or
// the dynamic-fee flag (hooked pools only); tick spacing is 1 to 32767.
const (
	maxFee         = 1_000_000
	dynamicFeeFlag = 0x800000
	maxTickSpacing = 32767
)

// hookFlags name V4's hook permissions, by bit of the hooks address.
var hookFlags = [14]string{
	"after_remove_liquidity_returns_delta", "after_add_liquidity_returns_delta", "after_swap_returns_delta",
	"before_swap_returns_delta", "after_donate", "before_donate", "after_swap", "before_swap",
	"after_remove_liquidity", "before_remove_liquidity", "after_add_liquidity", "before_add_liquidity",
	"after_initialize", "before_initialize",
}

// hookPermissions lists the permissions a hooks address carries.
func hookPermissions(h common.Address) []string {
	bits := uint16(h[18])<<8 | uint16(h[19])
	var out []string
	for i := len(hookFlags) - 1; i >= 0; i-- {
		if bits&(1<<i) != 0 {
			out = append(out, hookFlags[i])
		}
	}
	return out
}

// poolKey is V4's PoolKey.
type poolKey chain.UniswapV4PoolKey

func (k poolKey) id() common.Hash { return chain.UniswapV4PoolKey(k).ID() }

func (k poolKey) hooked() bool { return k.Hooks != (common.Address{}) }

// Parameter fragments of a pool key.
var pKey = []string{
	native.PInt("fee", "The pool's LP fee in hundredths of a bip (3000 = 0.3%), or 8388608 (0x800000) for a hook-managed dynamic fee", 0, dynamicFeeFlag),
	native.PInt("tick_spacing", "The pool's tick spacing (60 for the usual 0.3% pools)", 1, maxTickSpacing),
}

// keyArgs reads the pool key of two tokens (any order), fee, tick_spacing
// and hooks, and checks it as V4 would. hooks is from the "hooks"
// argument unless the tool has none (then zero).
func keyArgs(a *native.Args, tokA, tokB common.Address) (poolKey, error) {
	fee, spacing := a.Int("fee", -1), a.Int("tick_spacing", -1)
	hooks := a.AddressOr("hooks", common.Address{})
	if err := a.Err(); err != nil {
		return poolKey{}, err
	}
	switch {
	case tokA == tokB:
		return poolKey{}, fmt.Errorf("a pool has two different currencies, both are %s", tokA.Hex())
	case fee < 0 || (fee > maxFee && fee != dynamicFeeFlag):
		return poolKey{}, fmt.Errorf("fee must be 0 to %d hundredths of a bip, or %d for a dynamic fee", maxFee, dynamicFeeFlag)
	case fee == dynamicFeeFlag && hooks == (common.Address{}):
		return poolKey{}, errors.New("a dynamic fee (8388608) needs a hook to set it: a pool without hooks has a fixed fee")
	case spacing < 1 || spacing > maxTickSpacing:
		return poolKey{}, fmt.Errorf("tick_spacing must be 1 to %d", maxTickSpacing)
	case hooks != (common.Address{}) && len(hookPermissions(hooks)) == 0 && fee != dynamicFeeFlag:
		return poolKey{}, fmt.Errorf("hooks %s carries no permission bits (the low 14 bits of its address) and the fee is not dynamic: V4 refuses such a pool", hooks.Hex())
	}
	if bytes.Compare(tokA[:], tokB[:]) > 0 {
		tokA, tokB = tokB, tokA
	}
	return poolKey{Currency0: tokA, Currency1: tokB, Fee: big.NewInt(fee), TickSpacing: big.NewInt(spacing), Hooks: hooks}, nil
}

// slot0 is a pool's state as StateView reads it.
type slot0 struct {
	sqrtPriceX96 *big.Int
	tick         int64
	protocolFee  uint32
	lpFee        uint32
	liquidity    *big.Int
}

// readPool reads the pool's slot0 and liquidity; a pool never initialised
// (sqrtPriceX96 of 0) is an error naming its id.
func readPool(ctx context.Context, env *native.Env, k poolKey) (slot0, error) {
	id := k.id()
	sv := chain.UniswapV4StateViewABI()
	v, err := native.Call(ctx, env.Chain, sv, env.Venues.UniswapV4StateView, "getSlot0", id)
	if err != nil {
		return slot0{}, fmt.Errorf("read V4 pool %s: %w", id.Hex(), err)
	}
	sqrtP, ok1 := v[0].(*big.Int)
	tick, ok2 := v[1].(*big.Int)
	pf, ok3 := v[2].(*big.Int)
	lf, ok4 := v[3].(*big.Int)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return slot0{}, fmt.Errorf("read V4 pool %s: unexpected result", id.Hex())
	}
	if sqrtP.Sign() == 0 {
		return slot0{}, fmt.Errorf("no Uniswap V4 pool with this key is initialized (pool id %s): check the tokens, fee, tick_spacing and hooks", id.Hex())
	}
	l, err := native.CallBig(ctx, env, sv, env.Venues.UniswapV4StateView, "getLiquidity", id)
	if err != nil {
		return slot0{}, fmt.Errorf("read V4 pool %s liquidity: %w", id.Hex(), err)
	}
	return slot0{sqrtPriceX96: sqrtP, tick: tick.Int64(), protocolFee: uint32(pf.Uint64()), lpFee: uint32(lf.Uint64()), liquidity: l}, nil
}

// price1Per0 is the pool's price of currency0 in currency1, in whole
// tokens: (sqrtPriceX96 / 2^96)^2 * 10^(dec0 - dec1).
func price1Per0(sqrtP *big.Int, dec0, dec1 uint8) *big.Rat {
	num := new(big.Int).Mul(sqrtP, sqrtP)
	den := new(big.Int).Lsh(big.NewInt(1), 192)
	if dec0 >= dec1 {
		num.Mul(num, native.Pow10(int(dec0-dec1)))
	} else {
		den.Mul(den, native.Pow10(int(dec1-dec0)))
	}
	return new(big.Rat).SetFrac(num, den)
}

var poolRead = native.ReadTool{
	Name: "uniswap_get_v4_pool",
	Description: "Read a Uniswap V4 pool by its key (the two tokens in any order, fee, tick spacing and hooks contract): its id, sqrt price, tick, LP and protocol fees, in-range liquidity, " +
		"the price of token0 in token1, and whether it has a hook and with which permissions. A pool with a hook runs that contract's code on its actions and is high risk: " +
		"swapping it needs uniswap_execute_v4_hooked_swap. Use it before quoting or swapping on V4, or to check a key. Native ETH is the zero address (most V4 ETH pools are native, not WETH). Moves nothing.",
	Category: tool.CatData, Budget: tool.Fast,
	Steps:    []string{"Reading the pool"},
	Snippet:  "uniswap_get_v4_pool reads a Uniswap V4 pool's price, fees, liquidity and hook by its key.",
	Required: []string{"token_a", "token_b", "fee", "tick_spacing"},
	Params: append([]string{
		native.PAddress("token_a", "One token of the pool: an ERC-20, or the zero address for native ETH"),
		native.PAddress("token_b", "The other token of the pool (ERC-20 or the zero address for native ETH)")}, append(pKey,
		native.PAddress("hooks", "The pool's hooks contract (default: none, the zero address)"))...),
	Result: []string{
		native.RProp("pool_id", "string", "keccak256 of the pool key"),
		native.RProp("currency0", "string", "The lower-sorted token"), native.RProp("currency1", "string", "The higher-sorted token"),
		native.RProp("fee", "integer", "The key's fee"), native.RProp("tick_spacing", "integer", "The key's tick spacing"),
		native.RProp("hooks", "string", "The hooks contract (zero address: none)"),
		native.RProp("hooked", "boolean", "The pool has a hook: its swaps are high risk"),
		`"hook_permissions":{"type":"array","items":{"type":"string"},"description":"The hook callbacks the hooks address enables"}`,
		native.RProp("sqrt_price_x96", "string", "The pool's sqrt price, Q64.96"), native.RProp("tick", "integer", "The current tick"),
		native.RProp("lp_fee", "integer", "The LP fee in force, in hundredths of a bip"), native.RProp("protocol_fee", "integer", "The protocol fee, packed per direction"),
		native.RProp("liquidity", "string", "In-range liquidity"),
		native.RProp("price", "string", "Price of one currency0 in currency1 (whole tokens)"),
		native.RProp("risk", "string", "high for a hooked pool, standard otherwise")},
	Action: "pool", Venue: "uniswap_v4",
	When: hasV4,
	Run:  runPool,
}

type poolOut struct {
	PoolID          string   `json:"pool_id"`
	Currency0       string   `json:"currency0"`
	Currency1       string   `json:"currency1"`
	Fee             int64    `json:"fee"`
	TickSpacing     int64    `json:"tick_spacing"`
	Hooks           string   `json:"hooks"`
	Hooked          bool     `json:"hooked"`
	HookPermissions []string `json:"hook_permissions"`
	SqrtPriceX96    string   `json:"sqrt_price_x96"`
	Tick            int64    `json:"tick"`
	LPFee           uint32   `json:"lp_fee"`
	ProtocolFee     uint32   `json:"protocol_fee"`
	Liquidity       string   `json:"liquidity"`
	Price           string   `json:"price"`
	Risk            string   `json:"risk"`
}

func runPool(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	ta, tb := a.Address("token_a"), a.Address("token_b")
	if err := a.Err(); err != nil {
		return nil, err
	}
	k, err := keyArgs(a, ta, tb)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	s, err := readPool(ctx, env, k)
	if err != nil {
		return nil, err
	}
	m0, m1, err := infoPair(ctx, env, k.Currency0, k.Currency1)
	if err != nil {
		return nil, err
	}
	out := poolOut{
		PoolID: k.id().Hex(), Currency0: k.Currency0.Hex(), Currency1: k.Currency1.Hex(),
		Fee: k.Fee.Int64(), TickSpacing: k.TickSpacing.Int64(), Hooks: k.Hooks.Hex(), Hooked: k.hooked(),
		HookPermissions: hookPermissions(k.Hooks), SqrtPriceX96: s.sqrtPriceX96.String(), Tick: s.tick,
		LPFee: s.lpFee, ProtocolFee: s.protocolFee, Liquidity: s.liquidity.String(),
		Price: native.RatString(price1Per0(s.sqrtPriceX96, m0.Decimals, m1.Decimals), 8), Risk: riskOf(k),
	}
	if out.HookPermissions == nil {
		out.HookPermissions = []string{}
	}
	return out, nil
}

// ether is native ETH as a V4 currency: the zero address, 18 decimals.
var ether = native.TokenInfo{Symbol: "ETH", Decimals: 18}

// info is a currency's symbol and decimals: the token's, or native ETH's
// for the zero address.
func info(ctx context.Context, env *native.Env, c common.Address) (native.TokenInfo, error) {
	if c == (common.Address{}) {
		return ether, nil
	}
	return native.TokenInfoOf(ctx, env, c)
}

func infoPair(ctx context.Context, env *native.Env, a, b common.Address) (native.TokenInfo, native.TokenInfo, error) {
	ma, err := info(ctx, env, a)
	if err != nil {
		return ma, native.TokenInfo{}, err
	}
	mb, err := info(ctx, env, b)
	return ma, mb, err
}

func riskOf(k poolKey) string {
	if k.hooked() {
		return "high"
	}
	return "standard"
}

// swapArgs are the arguments of a quote or a swap: the tokens, the amount
// in and the pool key.
func swapArgs(a *native.Args) (tokIn, tokOut common.Address, amount *big.Int, k poolKey, err error) {
	tokIn, tokOut, amount = a.Address("token_in"), a.Address("token_out"), a.Positive("amount_in")
	if err = a.Err(); err != nil {
		return
	}
	if amount.BitLen() > 128 {
		err = errors.New("amount_in must fit in 128 bits (V4 swaps take a uint128)")
		return
	}
	k, err = keyArgs(a, tokIn, tokOut)
	return
}

// quote asks V4Quoter for the output of selling amount of tokIn in k.
func quote(ctx context.Context, env *native.Env, k poolKey, tokIn common.Address, amount *big.Int) (*big.Int, uint64, error) {
	type params struct {
		PoolKey     poolKey
		ZeroForOne  bool
		ExactAmount *big.Int
		HookData    []byte
	}
	v, err := native.Call(ctx, env.Chain, chain.UniswapV4QuoterABI(), env.Venues.UniswapV4Quoter, "quoteExactInputSingle",
		params{PoolKey: k, ZeroForOne: tokIn == k.Currency0, ExactAmount: amount, HookData: []byte{}})
	if err != nil {
		return nil, 0, fmt.Errorf("quote the V4 swap (pool id %s): %w", k.id().Hex(), err)
	}
	out, ok1 := v[0].(*big.Int)
	gas, ok2 := v[1].(*big.Int)
	if !ok1 || !ok2 {
		return nil, 0, errors.New("quote the V4 swap: unexpected result")
	}
	return out, gas.Uint64(), nil
}

func swapParamsOf(withHooks bool) []string {
	hooks := native.PAddress("hooks", "The pool's hooks contract (required: this tool swaps only pools with a hook)")
	if !withHooks {
		hooks = native.PAddress("hooks", "Must be omitted or the zero address: this tool swaps only pools without a hook (use uniswap_execute_v4_hooked_swap for those)")
	}
	return append([]string{
		native.PAddress("token_in", "The token to sell: an ERC-20, or the zero address for native ETH (in a native ETH pool)"),
		native.PAddress("token_out", "The token to buy: an ERC-20, or the zero address for native ETH"),
		native.PAmount("amount_in", "Exact amount of token_in to sell")}, append(pKey, hooks,
		native.PSlippage,
		native.PAmount("min_amount_out", "Optional floor on the output in token_out base units; the plan uses the larger of this and the slippage-derived minimum"),
		native.PDeadline,
		native.PClaims("token_in", "token_in"),
		native.PClaims("token_out", "token_out"))...)
}

var quoteRead = native.ReadTool{
	Name: "uniswap_get_v4_quote",
	Description: "Quote an exact-input swap through one Uniswap V4 pool named by its key, with the chain's V4Quoter (which simulates the swap, hook included): the output amount, " +
		"the pool id, whether it has a hook, and the quoter's gas estimate. Use it before uniswap_execute_v4_swap or uniswap_execute_v4_hooked_swap, or to compare V4 with V2/V3 quotes. " +
		"Native ETH is the zero address. Moves nothing; does not route over several pools.",
	Category: tool.CatTrading, Budget: tool.Fast,
	Steps:    []string{"Reading the pool", "Quoting"},
	Snippet:  "uniswap_get_v4_quote quotes an exact input through one Uniswap V4 pool.",
	Required: []string{"token_in", "token_out", "amount_in", "fee", "tick_spacing"},
	Params: append([]string{
		native.PAddress("token_in", "The token to sell (the zero address for native ETH)"),
		native.PAddress("token_out", "The token to buy (the zero address for native ETH)"),
		native.PAmount("amount_in", "Exact amount of token_in to sell")}, append(pKey,
		native.PAddress("hooks", "The pool's hooks contract (default: none)"))...),
	Result: []string{
		native.RProp("pool_id", "string", "The pool's id"),
		native.RProp("amount_in", "string", "Amount sold, base units"), native.RProp("amount_out", "string", "Amount bought, base units"),
		native.RProp("amount_out_formatted", "string", "Amount bought in whole tokens"),
		native.RProp("hooked", "boolean", "The pool has a hook: swapping it is high risk"),
		native.RProp("gas_estimate", "integer", "The quoter's estimate of the swap's gas")},
	Action: "quote", Venue: "uniswap_v4",
	When: hasQuoter,
	Run:  runQuote,
}

type quoteOut struct {
	PoolID       string `json:"pool_id"`
	AmountIn     string `json:"amount_in"`
	AmountOut    string `json:"amount_out"`
	AmountOutFmt string `json:"amount_out_formatted"`
	Hooked       bool   `json:"hooked"`
	GasEstimate  uint64 `json:"gas_estimate"`
}

func runQuote(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	tokIn, tokOut, amount, k, err := swapArgs(native.ArgsOf(in))
	if err != nil {
		return nil, err
	}
	in.Step(0)
	if _, err := readPool(ctx, env, k); err != nil {
		return nil, err
	}
	mo, err := info(ctx, env, tokOut)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	out, gas, err := quote(ctx, env, k, tokIn, amount)
	if err != nil {
		return nil, err
	}
	return quoteOut{PoolID: k.id().Hex(), AmountIn: amount.String(), AmountOut: out.String(),
		AmountOutFmt: native.FormatUnits(out, mo.Decimals), Hooked: k.hooked(), GasEstimate: gas}, nil
}

var swap = native.WriteTool{
	Name: "uniswap_execute_v4_swap",
	Description: "Swap an exact amount of one token for another through one Uniswap V4 pool without a hook, via the Universal Router (V4_SWAP), received by the agent's wallet. " +
		"The plan checks the pool exists, quotes it with V4Quoter, sets the minimum output to the quote less slippage_bps (default 0.5%), approves exactly amount_in to Permit2 on the token, " +
		"gives the router a Permit2 allowance of exactly amount_in that expires with the deadline, then executes the swap; native ETH (the zero address) is sent as the call's value instead, with no approval. " +
		"Use it for V4 pools (check one with uniswap_get_v4_pool). Refuses a pool whose key names a hook (use uniswap_execute_v4_hooked_swap, a high-risk tool), multi-pool routes and other recipients.",
	Category: tool.CatTrading, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:      []string{"Quoting the pool", "Checking balance and allowances", "Sending approvals and swap", "Confirming"},
	Snippet:    "uniswap_execute_v4_swap swaps an exact input through a hookless Uniswap V4 pool via the Universal Router and Permit2.",
	Guidelines: []string{"Read the pool with uniswap_get_v4_pool first; keep slippage_bps small (50 or less) on deep pools."},
	Required:   []string{"token_in", "token_out", "amount_in", "fee", "tick_spacing"},
	Params:     swapParamsOf(false),
	Action:     "swap", Venue: "uniswap_v4",
	When: hasRouter,
	Plan: planSwap(false),
}

var hookedSwap = native.WriteTool{
	Name: "uniswap_execute_v4_hooked_swap",
	Description: "Swap an exact amount of one ERC-20 token for another through one Uniswap V4 pool whose key names a hooks contract, via the Universal Router (V4_SWAP) and Permit2, received by the agent's wallet. " +
		"A hook runs its own code around the swap and can take fees, change the amounts or revert: this tool is high risk (Layer3, blocked in the conservation phase and below, not in the conservative profile), " +
		"and the plan protects the output only by the quoted minimum less slippage_bps. Otherwise it plans as uniswap_execute_v4_swap does. " +
		"Use it only for a hooked pool you have read with uniswap_get_v4_pool and trust. Refuses a pool without a hook and multi-pool routes.",
	Category: tool.CatTrading, Risk: tool.Layer3, Effect: tool.EffectOpen,
	Steps:      []string{"Quoting the pool", "Checking balance and allowances", "Sending approvals and swap", "Confirming"},
	Snippet:    "uniswap_execute_v4_hooked_swap swaps through a Uniswap V4 pool with a hook (high risk) via the Universal Router.",
	Guidelines: []string{"Prefer a pool without a hook when one exists (uniswap_execute_v4_swap).", "Check the hook's permissions with uniswap_get_v4_pool: a hook with before_swap_returns_delta or after_swap_returns_delta can change what you receive."},
	Required:   []string{"token_in", "token_out", "amount_in", "fee", "tick_spacing", "hooks"},
	Params:     swapParamsOf(true),
	Action:     "swap_hooked", Venue: "uniswap_v4",
	When: hasRouter,
	Plan: planSwap(true),
}

// V4 actions and Universal Router commands (v4-periphery's Actions,
// universal-router's Commands).
const (
	actionSwapExactInSingle = 0x06
	actionSettleAll         = 0x0c
	actionTakeAll           = 0x0f
	commandV4Swap           = 0x10
)

// encode abi.encodes one V4 router action parameter (see
// chain.UniswapV4ActionsABI): the packed call without its selector.
func encode(method string, args ...any) ([]byte, error) {
	b, err := chain.UniswapV4ActionsABI().Pack(method, args...)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", method, err)
	}
	return b[4:], nil
}

// exactInputSingleParams is IV4Router.ExactInputSingleParams.
type exactInputSingleParams struct {
	PoolKey          poolKey
	ZeroForOne       bool
	AmountIn         *big.Int
	AmountOutMinimum *big.Int
	HookData         []byte
}

// v4SwapInput is the V4_SWAP command's input: the actions sell exactly
// amount of tokIn in k (SWAP_EXACT_IN_SINGLE), pay the pool what it is
// owed from the caller through Permit2 (SETTLE_ALL, at most amount) and
// send the output to the caller (TAKE_ALL, at least minOut).
func v4SwapInput(k poolKey, tokIn, tokOut common.Address, amount, minOut *big.Int) ([]byte, error) {
	sw, err := encode("exactInSingle", exactInputSingleParams{PoolKey: k, ZeroForOne: tokIn == k.Currency0, AmountIn: amount, AmountOutMinimum: minOut, HookData: []byte{}})
	if err != nil {
		return nil, err
	}
	settle, err := encode("currencyAmount", tokIn, amount)
	if err != nil {
		return nil, err
	}
	take, err := encode("currencyAmount", tokOut, minOut)
	if err != nil {
		return nil, err
	}
	return encode("actions", []byte{actionSwapExactInSingle, actionSettleAll, actionTakeAll}, [][]byte{sw, settle, take})
}

// maxUint128 bounds a V4 amount.
var maxUint128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))

// planSwap is the planner of the swap of a pool with (hooked) or without
// a hook.
func planSwap(hooked bool) func(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	return func(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
		a := native.ArgsOf(in)
		tokIn, tokOut, amount, k, err := swapArgs(a)
		if err != nil {
			return nil, err
		}
		switch {
		case hooked && !k.hooked():
			return nil, errors.New("hooks is the zero address: this tool is for pools with a hook; use uniswap_execute_v4_swap")
		case !hooked && k.hooked():
			return nil, fmt.Errorf("the pool's key names hooks %s: a hooked pool is high risk; use uniswap_execute_v4_hooked_swap", k.Hooks.Hex())
		}
		mi, mo, err := infoPair(ctx, env, tokIn, tokOut)
		if err != nil {
			return nil, err
		}
		in.Step(0)
		s, err := readPool(ctx, env, k)
		if err != nil {
			return nil, err
		}
		if s.liquidity.Sign() == 0 {
			return nil, fmt.Errorf("V4 pool %s has no in-range liquidity", k.id().Hex())
		}
		quoted, _, err := quote(ctx, env, k, tokIn, amount)
		if err != nil {
			return nil, err
		}
		minOut, err := minimumOut(a, quoted, amount, mi, mo)
		if err != nil {
			return nil, err
		}
		in.Step(1)
		dl, err := native.Deadline(ctx, env, in)
		if err != nil {
			return nil, err
		}
		txs, err := swapTxs(ctx, env, k, tokIn, mi, tokOut, amount, minOut, dl)
		if err != nil {
			return nil, err
		}
		p := native.NewPlan(ctx, env, txs,
			[]tool.TokenUse{native.Claimed(in, tokIn, amount, true, "token_in"), native.Claimed(in, tokOut, minOut, false, "token_out")},
			native.ValueCents(ctx, env, tokIn, amount),
			fmt.Sprintf("swap %s %s for at least %s %s (quoted %s) on %s) through the Universal Router, %s",
				native.FormatUnits(amount, mi.Decimals), mi.Symbol, native.FormatUnits(minOut, mo.Decimals), mo.Symbol,
				native.FormatUnits(quoted, mo.Decimals), k.where(), paidBy(tokIn)))
		if tokIn != (common.Address{}) {
			p.Grants = []tool.Grant{{Token: tool.Address(tokIn), Spender: tool.Address(env.Venues.UniversalRouter), Amount: amount, Supply: native.TotalSupply(ctx, env, tokIn)}}
		}
		return p, nil
	}
}

// minimumOut is the least a swap of amount of mi accepts of mo: the
// quote less slippage_bps, or min_amount_out when that is higher. It
// refuses a minimum of nothing and one that does not fit in 128 bits.
func minimumOut(a *native.Args, quoted, amount *big.Int, mi, mo native.TokenInfo) (*big.Int, error) {
	minOut := native.SlippageMin(quoted, a.Int("slippage_bps", native.DefaultSlippageBps))
	if floor := a.OptionalAmount("min_amount_out"); a.Err() != nil {
		return nil, a.Err()
	} else if floor != nil && floor.Cmp(minOut) > 0 {
		minOut = floor
	}
	if minOut.Sign() == 0 {
		return nil, fmt.Errorf("the swap would return nothing: %s %s buys less than one unit of %s", native.FormatUnits(amount, mi.Decimals), mi.Symbol, mo.Symbol)
	}
	if minOut.Cmp(maxUint128) > 0 {
		return nil, errors.New("min_amount_out must fit in 128 bits")
	}
	return minOut, nil
}

// swapTxs are the transactions of a swap of amount of tokIn (native ETH
// when zero; mi says what it is) for at least minOut of tokOut in the pool k,
// through the Universal Router until dl: ETH is paid as the call's value
// (refused when the wallet lacks it), a token through Permit2 (its
// approve when short, then Permit2's allowance for the router).
func swapTxs(ctx context.Context, env *native.Env, k poolKey, tokIn common.Address, mi native.TokenInfo, tokOut common.Address, amount, minOut, dl *big.Int) ([]tool.Tx, error) {
	p2, router := env.Venues.Permit2, env.Venues.UniversalRouter
	input, err := v4SwapInput(k, tokIn, tokOut, amount, minOut)
	if err != nil {
		return nil, err
	}
	sw, err := native.Tx(chain.UniversalRouterABI(), router, "swap", "execute", []byte{commandV4Swap}, [][]byte{input}, dl)
	if err != nil {
		return nil, err
	}
	if tokIn == (common.Address{}) {
		owner, err := native.Owner(env)
		if err != nil {
			return nil, err
		}
		if err := native.NeedETH(ctx, env, owner, amount, "the swap"); err != nil {
			return nil, err
		}
		sw.Value = amount
		return []tool.Tx{sw}, nil
	}
	txs, err := native.Spend(ctx, env, mi, p2, amount)
	if err != nil {
		return nil, err
	}
	allow, err := native.Tx(chain.Permit2ABI(), p2, "permit2 approve", "approve", tokIn, router, amount, dl)
	if err != nil {
		return nil, err
	}
	return append(txs, allow, sw), nil
}

// where is how a plan's summary names the pool: its id and fee, and its
// hook with the hook's permissions (without the closing parenthesis).
func (k poolKey) where() string {
	w := fmt.Sprintf("Uniswap V4 pool %s (fee %s%%", k.id().Hex(), native.RatString(big.NewRat(k.Fee.Int64(), 10000), 6))
	if k.hooked() {
		w += fmt.Sprintf(", HOOK %s: %s", k.Hooks.Hex(), strings.Join(hookPermissions(k.Hooks), ", "))
	}
	return w
}

func paidBy(tokIn common.Address) string {
	if tokIn == (common.Address{}) {
		return "paid in ETH as the call's value"
	}
	return "paid through Permit2"
}
