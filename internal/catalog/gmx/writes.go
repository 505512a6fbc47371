package gmx

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// stateCheck is what an Observe returns: the check run after the write.
type stateCheck = func(context.Context) (string, string, bool, error)

var (
	pIsLong   = native.PBool("is_long", "true for a long position, false for a short")
	pSlippage = native.PInt("slippage_bps", "How far from the current price the keeper may fill, in basis points (default 50)", 1, 500)
)

// Order params of GMX's ExchangeRouter (IBaseOrderUtils.CreateOrderParams).
type createOrderAddresses struct {
	Receiver               common.Address
	CancellationReceiver   common.Address
	CallbackContract       common.Address
	UiFeeReceiver          common.Address
	Market                 common.Address
	InitialCollateralToken common.Address
	SwapPath               []common.Address
}

type createOrderNumbers struct {
	SizeDeltaUsd                 *big.Int
	InitialCollateralDeltaAmount *big.Int
	TriggerPrice                 *big.Int
	AcceptablePrice              *big.Int
	ExecutionFee                 *big.Int
	CallbackGasLimit             *big.Int
	MinOutputAmount              *big.Int
	ValidFromTime                *big.Int
}

type createOrderParams struct {
	Addresses                createOrderAddresses
	Numbers                  createOrderNumbers
	OrderType                uint8
	DecreasePositionSwapType uint8
	IsLong                   bool
	ShouldUnwrapNativeToken  bool
	AutoCancel               bool
	ReferralCode             [32]byte
	DataList                 [][32]byte
}

// orderParams is a market order of the wallet's on m, paid to the wallet.
func orderParams(me common.Address, m *market, orderType uint8, isLong bool, size, collateral, acceptable *big.Int) createOrderParams {
	zero := new(big.Int)
	return createOrderParams{
		Addresses: createOrderAddresses{Receiver: me, CancellationReceiver: me, Market: m.MarketToken, InitialCollateralToken: m.ShortToken, SwapPath: []common.Address{}},
		Numbers: createOrderNumbers{SizeDeltaUsd: size, InitialCollateralDeltaAmount: collateral, TriggerPrice: zero, AcceptablePrice: acceptable,
			ExecutionFee: zero, CallbackGasLimit: zero, MinOutputAmount: zero, ValidFromTime: zero},
		OrderType: orderType, IsLong: isLong, DataList: [][32]byte{},
	}
}

// acceptable is the worst price the keeper may fill at: above the
// current price when buying (opening a long, closing a short), below
// when selling.
func acceptable(price *big.Int, buying bool, bps int64) *big.Int {
	f := int64(10_000) - bps
	if buying {
		f = 10_000 + bps
	}
	p := new(big.Int).Mul(price, big.NewInt(f))
	return p.Quo(p, big.NewInt(10_000))
}

// checkHealth refuses a resulting position above the leverage cap or
// with no collateral left.
func checkHealth(m *market, h health, what string) error {
	if h.remaining.Sign() <= 0 {
		return fmt.Errorf("%s would leave the position with no collateral (PnL %s USD): it would be liquidated", what, usd(h.pnl))
	}
	if limit := maxLeverage(m); h.leverage > limit {
		return fmt.Errorf("%s would leave the position at %.2fx leverage, above the cap of %.0fx", what, h.leverage, limit)
	}
	return nil
}

var open = native.WriteTool{
	Name: "gmx_open_position",
	Description: "Open or increase a leveraged GMX V2 perpetual position with a market order (ExchangeRouter.multicall of sendWnt, sendTokens and createOrder, MarketIncrease): " +
		"collateral in the market's short token goes to the OrderVault and a keeper fills the order at the oracle price within slippage_bps. " +
		"The wallet pays GMX's execution fee in ETH (the keeper's estimated gas from the DataStore times the gas price plus 20 %; GMX refunds what the keeper does not use). " +
		"The plan refuses leverage (size over collateral left after PnL) above ward's cap of 10x or the market's limit, and a position left without collateral; " +
		"it approves the Router exactly when needed. The order is pending until the keeper executes it (gmx_get_positions lists it; gmx_cancel_order cancels it). " +
		"A leveraged position can lose all its collateral. Does not swap into the collateral token.",
	Category: tool.CatDerivatives, Risk: tool.Layer3, Effect: tool.EffectOpen,
	Steps:      []string{"Reading the market and the position", "Checking leverage", "Sending approve and createOrder", "Confirming"},
	Snippet:    "gmx_open_position opens or increases a leveraged GMX perpetual (market order, filled by a keeper).",
	Guidelines: []string{"Open leverage only when the owner asked for a leveraged position; say the liquidation price from the preview."},
	Required:   []string{"is_long", "size_usd", "collateral"},
	Params: []string{pMarket, pIsLong, native.PDecimal("size_usd", "How much the position's size grows, in US dollars"),
		native.PAmount("collateral", "Collateral to add, in base units of the market's short token (may be 0 to grow an existing position)"), pSlippage},
	Action: "perp_open", Venue: "gmx",
	When:    configured,
	Plan:    planOpen,
	Observe: observeOrders,
}

// readMarketPosition reads market mk and owner's long or short position
// in it, what the open and decrease plans start from.
func readMarketPosition(ctx context.Context, env *native.Env, mk, owner common.Address, isLong bool) (*market, *position, error) {
	m, err := readMarket(ctx, env, mk)
	if err != nil {
		return m, nil, err
	}
	p, err := readPositionAt(ctx, env, positionKey(owner, mk, m.ShortToken, isLong))
	return m, p, err
}

func planOpen(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	mk, isLong, size, coll := argMarket(env, a), a.Bool("is_long", false), parseUSD(a, "size_usd"), a.Amount("collateral")
	bps := a.Int("slippage_bps", 50)
	me := a.Wallet(env)
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	m, p, err := readMarketPosition(ctx, env, mk, me, isLong)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	tokens := new(big.Int).Quo(size, m.price)
	if tokens.Sign() == 0 {
		return nil, errors.New("size_usd is below one base unit of the index token")
	}
	n := p.Numbers
	h := assess(m, isLong, new(big.Int).Add(n.SizeInUsd, size), new(big.Int).Add(n.SizeInTokens, tokens), new(big.Int).Add(n.CollateralAmount, coll))
	if err := checkHealth(m, h, "the order"); err != nil {
		return nil, err
	}
	f, err := executionFee(ctx, env, true)
	if err != nil {
		return nil, err
	}
	calls := [][]byte{}
	var txs []tool.Tx
	if coll.Sign() > 0 {
		if txs, err = native.Spend(ctx, env, m.short, env.Venues.GmxRouter, coll); err != nil {
			return nil, err
		}
		c, err := chain.GmxExchangeRouterABI().Pack("sendTokens", m.ShortToken, env.Venues.GmxOrderVault, coll)
		if err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	o := orderParams(me, m, orderMarketIncrease, isLong, size, new(big.Int), acceptable(m.price, isLong, bps))
	t, err := orderTx(env, f, calls, o)
	if err != nil {
		return nil, err
	}
	side := map[bool]string{true: "long", false: "short"}[isLong]
	// The value at stake is the exposure the order adds and the fee, in
	// cents.
	cents := native.SumCents(new(big.Int).Quo(size, pow10(28)).Int64(), native.ETHCents(ctx, env, f.amount))
	return native.NewPlan(ctx, env, append(txs, t), []tool.TokenUse{native.Claimed(in, m.ShortToken, coll, true), native.ETHUse(f.amount, true)}, cents,
		fmt.Sprintf("open GMX %s %s +%s USD with %s %s collateral at %s USD (acceptable %s): %.2fx leverage, liquidation at %s USD; %s",
			m.index.Symbol, side, usd(size), native.FormatUnits(coll, m.short.Decimals), m.short.Symbol, tokenPrice(m.price, m.index.Decimals),
			tokenPrice(o.Numbers.AcceptablePrice, m.index.Decimals), h.leverage, tokenPrice(h.liquidation, m.index.Decimals), f)), nil
}

// observeOrders checks the write left one more pending order.
func observeOrders(ctx context.Context, env *native.Env, in *registry.Input) (stateCheck, error) {
	me, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	before, err := orderKeys(ctx, env, me)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (string, string, bool, error) {
		after, err := orderKeys(ctx, env, me)
		if err != nil {
			return "", "", false, err
		}
		return fmt.Sprintf("%d pending GMX orders", len(before)+1), fmt.Sprintf("%d pending GMX orders", len(after)), len(after) == len(before)+1, nil
	}, nil
}

var decrease = native.WriteTool{
	Name: "gmx_close_position",
	Description: "Decrease or close the wallet's GMX V2 perpetual position with a market order (ExchangeRouter.multicall of sendWnt and createOrder, MarketDecrease): size_usd \"max\" closes it, " +
		"paying the collateral and realized PnL to the wallet in the market's short token; a partial decrease may also withdraw collateral. " +
		"The keeper fills it at the oracle price within slippage_bps, for an execution fee in ETH sent with the order (sendWnt; the unused part is refunded). " +
		"The plan refuses a partial decrease that would leave leverage above the cap. " +
		"The order is pending until executed (gmx_get_positions; gmx_cancel_order).",
	Category: tool.CatDerivatives, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market and the position", "Checking the position left", "Sending createOrder", "Confirming"},
	Snippet:  "gmx_close_position decreases or closes a GMX perpetual position (market order).",
	Required: []string{"is_long", "size_usd"},
	Params: []string{pMarket, pIsLong, native.PString("size_usd", "How much to reduce the size, in US dollars (decimal), or \"max\" to close"),
		native.PAmount("collateral", "Collateral to withdraw on a partial decrease, in base units of the short token (default 0)"), pSlippage},
	Action: "perp_close", Venue: "gmx",
	When:    configured,
	Plan:    planDecrease,
	Observe: observeOrders,
}

func planDecrease(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	mk, isLong := argMarket(env, a), a.Bool("is_long", false)
	all := a.String("size_usd", "") == "max"
	var size *big.Int
	if !all {
		size = parseUSD(a, "size_usd")
	}
	coll := new(big.Int)
	if a.Has("collateral") {
		coll = a.Amount("collateral")
	}
	bps := a.Int("slippage_bps", 50)
	me := a.Wallet(env)
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	m, p, err := readMarketPosition(ctx, env, mk, me, isLong)
	if err != nil {
		return nil, err
	}
	n := p.Numbers
	if n.SizeInUsd.Sign() == 0 {
		return nil, native.ErrNoPosition
	}
	in.Step(1)
	if all || size.Cmp(n.SizeInUsd) >= 0 {
		all, size, coll = true, new(big.Int).Set(n.SizeInUsd), new(big.Int)
	}
	cur := assess(m, isLong, n.SizeInUsd, n.SizeInTokens, n.CollateralAmount)
	if !all {
		tokens := new(big.Int).Quo(new(big.Int).Mul(n.SizeInTokens, size), n.SizeInUsd)
		left := new(big.Int).Sub(n.SizeInUsd, size)
		// Realized PnL moves into the collateral, as GMX does.
		realized := new(big.Int).Quo(new(big.Int).Mul(cur.pnl, size), n.SizeInUsd)
		shortPrice := unitPrice(big.NewInt(1e8), 8, m.short.Decimals)
		c := new(big.Int).Add(n.CollateralAmount, new(big.Int).Quo(realized, shortPrice))
		c.Sub(c, coll)
		if c.Sign() < 0 {
			return nil, fmt.Errorf("collateral %s exceeds what the position holds after PnL", native.FormatUnits(coll, m.short.Decimals))
		}
		h := assess(m, isLong, left, new(big.Int).Sub(n.SizeInTokens, tokens), c)
		if err := checkHealth(m, h, "the decrease"); err != nil {
			return nil, err
		}
	} else if cur.remaining.Sign() <= 0 {
		return nil, fmt.Errorf("the position has no collateral left (PnL %s USD): it can only be liquidated", usd(cur.pnl))
	}
	f, err := executionFee(ctx, env, false)
	if err != nil {
		return nil, err
	}
	o := orderParams(me, m, orderMarketDecrease, isLong, size, coll, acceptable(m.price, !isLong, bps))
	t, err := orderTx(env, f, nil, o)
	if err != nil {
		return nil, err
	}
	side := map[bool]string{true: "long", false: "short"}[isLong]
	what := "decrease"
	if all {
		what = "close"
	}
	return native.NewPlan(ctx, env, []tool.Tx{t}, []tool.TokenUse{native.ETHUse(f.amount, true)}, native.ETHCents(ctx, env, f.amount),
		fmt.Sprintf("%s GMX %s %s by %s USD of %s USD at %s USD (acceptable %s), unrealized PnL %s USD; %s",
			what, m.index.Symbol, side, usd(size), usd(n.SizeInUsd), tokenPrice(m.price, m.index.Decimals),
			tokenPrice(o.Numbers.AcceptablePrice, m.index.Decimals), usd(cur.pnl), f)), nil
}

var cancel = native.WriteTool{
	Name: "gmx_cancel_order",
	Description: "Cancel one of the wallet's pending GMX V2 orders (ExchangeRouter.cancelOrder) before a keeper executes it; an increase order's collateral and the order's execution fee return to the wallet. " +
		"Give order_key from gmx_get_positions. Cancelling never grows a position.",
	Category: tool.CatDerivatives, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the wallet's pending orders", "Sending cancelOrder", "Confirming"},
	Snippet:  "gmx_cancel_order cancels a pending GMX order.",
	Required: []string{"order_key"},
	Params:   []string{native.PHex("order_key", "The pending order's key (gmx_get_positions lists them)", 32)},
	Action:   "perp_cancel", Venue: "gmx",
	When:    configured,
	Plan:    planCancel,
	Observe: observeCancel,
}

func argOrder(in *registry.Input) (common.Hash, error) {
	k, err := native.ArgHex(in, "order_key")
	if err != nil {
		return common.Hash{}, err
	}
	if len(k) != 32 {
		return common.Hash{}, errors.New("order_key must be 32 bytes")
	}
	return common.BytesToHash(k), nil
}

func planCancel(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	k, err := argOrder(in)
	if err != nil {
		return nil, err
	}
	me, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	keys, err := orderKeys(ctx, env, me)
	if err != nil {
		return nil, err
	}
	found := false
	for _, o := range keys {
		found = found || o == k
	}
	if !found {
		return nil, fmt.Errorf("the wallet has no pending GMX order %s (it may have been executed or cancelled)", k.Hex())
	}
	t, err := native.Tx(chain.GmxExchangeRouterABI(), env.Venues.GmxExchangeRouter, "cancelOrder", "cancelOrder", [32]byte(k))
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, []tool.Tx{t}, nil, 0, "cancel pending GMX order "+k.Hex()), nil
}

func observeCancel(ctx context.Context, env *native.Env, in *registry.Input) (stateCheck, error) {
	k, err := argOrder(in)
	if err != nil {
		return nil, err
	}
	me, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) (string, string, bool, error) {
		keys, err := orderKeys(ctx, env, me)
		if err != nil {
			return "", "", false, err
		}
		for _, o := range keys {
			if o == k {
				return "order " + k.Hex() + " cancelled", "order still pending", false, nil
			}
		}
		return "order " + k.Hex() + " cancelled", "order no longer pending", true, nil
	}, nil
}
