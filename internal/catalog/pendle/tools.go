package pendle

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

const pMarket = `"market":{"type":"string","pattern":"^0x[0-9a-fA-F]{40}$","description":"The Pendle market (optional: the first one ward knows on this chain)"}`
const pSlippage = `"slippage_bps":{"type":"integer","minimum":0,"maximum":500,"description":"How far below the implied-rate price the trade may fill, in basis points (default 50)"}`

var market = native.ReadTool{
	Name: "pendle_get_market",
	Description: "Describe a Pendle V2 market ward knows: its SY, PT and YT, the underlying the SY wraps, the PT's maturity and days left, the implied APY " +
		"(exp(lastLnImpliedRate) - 1, the fixed rate a PT bought now earns if held to maturity), the PT's price in the underlying at that rate, and the " +
		"agent's wallet PT and YT balances with the underlying the PT redeems for at maturity. Use it before pendle_buy_pt, pendle_sell_pt or pendle_redeem_pt. " +
		"The implied rate is the market's last traded rate, not a promise; a PT sold before maturity is priced by the market then.",
	Category: tool.CatYield, Budget: tool.Medium,
	Steps:   []string{"Reading the market", "Reading the wallet"},
	Snippet: "pendle_get_market reads a Pendle market's maturity, implied APY, PT price and the wallet's PT/YT.",
	Params:  []string{pMarket},
	Result: []string{
		native.RProp("market", "string", "the market"), native.RProp("sy", "string", "the SY"), native.RProp("pt", "string", "the PT"), native.RProp("yt", "string", "the YT"),
		native.RProp("underlying", "string", "the token the SY wraps"), native.RProp("underlying_symbol", "string", "its symbol"),
		native.RProp("expiry", "string", "the PT's maturity (RFC 3339)"), native.RProp("expired", "boolean", "whether the PT has matured"),
		native.RProp("days_to_maturity", "number", "days left"), native.RProp("implied_apy_percent", "number", "the market's implied APY"),
		native.RProp("pt_price", "number", "underlying per PT at the implied rate (1 at maturity)"),
		native.RAmountProp("wallet_pt", "the wallet's PT"), native.RAmountProp("wallet_yt", "the wallet's YT"),
	},
	Action: "market", Venue: "pendle", When: hasPendle,
	Run: readMarket,
}

func readMarket(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	m, err := marketArg(in, env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	s, err := read(ctx, env, m)
	if err != nil {
		return nil, err
	}
	days := 0.0
	if !s.expired() {
		days = s.expiry.Sub(s.now).Hours() / 24
	}
	out := map[string]any{
		"market": m.Hex(), "sy": s.sy.Hex(), "pt": s.pt.Hex(), "yt": s.yt.Hex(), "underlying": s.underlying.Hex(), "underlying_symbol": s.symbol,
		"expiry": s.expiry.UTC().Format("2006-01-02T15:04:05Z07:00"), "expired": s.expired(), "days_to_maturity": days,
		"implied_apy_percent": s.impliedAPY() * 100, "pt_price": s.ptPrice(),
	}
	in.Step(1)
	if owner, err := native.Owner(env); err == nil {
		pt, err := call(ctx, env, s.pt, "balanceOf", owner)
		if err != nil {
			return nil, err
		}
		yt, err := call(ctx, env, s.yt, "balanceOf", owner)
		if err != nil {
			return nil, err
		}
		out["wallet_pt"], out["wallet_yt"] = native.AmountOf(pt, s.decimals), native.AmountOf(yt, s.decimals)
	}
	return out, nil
}

var buyPT = native.WriteTool{
	Name: "pendle_buy_pt",
	Description: "Buy Pendle principal tokens (PT) with the SY's underlying through Pendle's router (swapExactTokenForPt): the underlying is wrapped into SY and " +
		"swapped for PT at the market's price, which locks in the implied APY if the PT is held to maturity, when each PT redeems for one underlying's worth of SY " +
		"(pendle_redeem_pt). Before maturity the PT's value moves with rates and the market's liquidity: selling early (pendle_sell_pt) can lose. The plan checks " +
		"the market is not expired and the wallet's balance, adds an exact approve of the router, and expects at least the PT the implied rate gives less slippage_bps.",
	Category: tool.CatYield, Risk: tool.Layer3, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the market", "Pricing the PT", "Sending approve and swapExactTokenForPt", "Confirming"},
	Snippet:  "pendle_buy_pt buys PT (fixed yield to maturity) with the underlying.",
	Required: []string{"amount"},
	Params:   []string{native.PAmount("amount", "How much of the underlying to spend, in base units"), pMarket, pSlippage},
	Action:   "buy_pt", Venue: "pendle", When: hasPendle,
	Plan: planBuy,
}

var sellPT = native.WriteTool{
	Name: "pendle_sell_pt",
	Description: "Sell Pendle principal tokens (PT) for the SY's underlying through Pendle's router (swapExactPtForToken) before maturity, at the market's price. " +
		"\"max\" sells the whole PT balance. The plan checks the market is not expired (a matured PT is redeemed with pendle_redeem_pt), the balance, adds an exact " +
		"approve of the router and expects at least the underlying the implied rate gives less slippage_bps.",
	Category: tool.CatYield, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market", "Pricing the PT", "Sending approve and swapExactPtForToken", "Confirming"},
	Snippet:  "pendle_sell_pt sells PT for the underlying before maturity.",
	Required: []string{"amount"},
	Params:   []string{native.PAmountMax("amount", "How much PT to sell, in base units"), pMarket, pSlippage},
	Action:   "sell_pt", Venue: "pendle", When: hasPendle,
	Plan: planSell,
}

var redeemPT = native.WriteTool{
	Name: "pendle_redeem_pt",
	Description: "Redeem matured Pendle principal tokens (PT) for the SY's underlying through Pendle's router (redeemPyToToken): after maturity each PT redeems " +
		"for one underlying's worth of SY, with no YT needed. \"max\" redeems the whole PT balance. Refused before maturity (sell with pendle_sell_pt instead).",
	Category: tool.CatYield, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market", "Checking maturity", "Sending approve and redeemPyToToken", "Confirming"},
	Snippet:  "pendle_redeem_pt redeems matured PT for the underlying.",
	Required: []string{"amount"},
	Params:   []string{native.PAmountMax("amount", "How much PT to redeem, in base units"), pMarket},
	Action:   "redeem_pt", Venue: "pendle", When: hasPendle,
	Plan: planRedeem,
}

// slippage reads slippage_bps (default 50).
func slippage(in *registry.Input) int64 { return native.ArgInt(in, "slippage_bps", 50) }

// scale multiplies v by f and by (10000 - bps) / 10000, rounding down.
func scale(v *big.Int, f float64, bps int64) *big.Int {
	r := new(big.Rat).SetFloat64(f)
	if r == nil {
		return new(big.Int)
	}
	r.Mul(r, new(big.Rat).SetFrac(v, big.NewInt(1)))
	r.Mul(r, big.NewRat(10_000-bps, 10_000))
	return new(big.Int).Quo(r.Num(), r.Denom())
}

// syPerUnderlying converts underlying to SY with the SY's exchange rate.
func (s state) sharesOf(underlying *big.Int) *big.Int {
	return new(big.Int).Quo(new(big.Int).Mul(underlying, native.Pow10(18)), s.syRate)
}

func (s state) assetsOf(sy *big.Int) *big.Int {
	return new(big.Int).Quo(new(big.Int).Mul(sy, s.syRate), native.Pow10(18))
}

// ptAmount reads an amount of PT that may be "max", bounded by the balance.
func ptAmount(ctx context.Context, env *native.Env, in *registry.Input, s state, owner common.Address) (*big.Int, error) {
	a := native.ArgsOf(in)
	amount := a.AmountOrMax("amount")
	if err := a.Err(); err != nil {
		return nil, err
	}
	bal, err := call(ctx, env, s.pt, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	return native.Held(amount, bal, "PT", s.decimals, "PT of this market")
}

func planBuy(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	a := native.ArgsOf(in)
	amount := a.Positive("amount")
	if err := a.Err(); err != nil {
		return nil, err
	}
	m, err := marketArg(in, env)
	if err != nil {
		return nil, err
	}
	owner, err := native.Owner(env)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	s, err := read(ctx, env, m)
	if err != nil {
		return nil, err
	}
	if s.expired() {
		return nil, fmt.Errorf("the PT of market %s matured on %s: the market no longer trades", m.Hex(), s.expiry.UTC().Format("2006-01-02"))
	}
	bal, err := call(ctx, env, s.underlying, "balanceOf", owner)
	if err != nil {
		return nil, err
	}
	if bal.Cmp(amount) < 0 {
		return nil, fmt.Errorf("insufficient %s: the wallet holds %s and the purchase needs %s", s.symbol, native.FormatUnits(bal, s.decimals), native.FormatUnits(amount, s.decimals))
	}
	in.Step(1)
	minPT := scale(s.sharesOf(amount), 1/s.ptPrice(), slippage(in))
	if minPT.Sign() == 0 {
		return nil, errors.New("the amount is too small to buy any PT")
	}
	txs, err := native.SpendApprovals(ctx, env, s.underlying, env.Venues.PendleRouter, amount)
	if err != nil {
		return nil, err
	}
	input := tokenInput{TokenIn: s.underlying, NetTokenIn: amount, TokenMintSy: s.underlying}
	b, err := tx(env.Venues.PendleRouter, "buy PT", "swapExactTokenForPt", owner, m, minPT, defaultApprox(), input, noLimit())
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, append(txs, b),
		[]tool.TokenUse{{Token: tool.Address(s.underlying), Decimals: -1, Amount: amount, Out: true}, {Token: tool.Address(s.pt), Decimals: -1, Amount: minPT}},
		native.ValueCents(ctx, env, s.underlying, amount),
		fmt.Sprintf("buy at least %s PT (%s, maturing %s) with %s %s at an implied APY of %.2f %%",
			native.FormatUnits(minPT, s.decimals), s.pt.Hex(), s.expiry.UTC().Format("2006-01-02"), native.FormatUnits(amount, s.decimals), s.symbol, s.impliedAPY()*100)), nil
}

func noSwap(s state, minOut *big.Int) tokenOutput {
	return tokenOutput{TokenOut: s.underlying, MinTokenOut: minOut, TokenRedeemSy: s.underlying}
}

// beginPT is what the plans that spend the wallet's PT read first: the
// market, the wallet, the market's state and the amount of PT.
func beginPT(ctx context.Context, env *native.Env, in *registry.Input) (m, owner common.Address, s state, amount *big.Int, err error) {
	if m, err = marketArg(in, env); err != nil {
		return
	}
	if owner, err = native.Owner(env); err != nil {
		return
	}
	in.Step(0)
	if s, err = read(ctx, env, m); err != nil {
		return
	}
	amount, err = ptAmount(ctx, env, in, s, owner)
	return
}

func planSell(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	m, owner, s, amount, err := beginPT(ctx, env, in)
	if err != nil {
		return nil, err
	}
	if s.expired() {
		return nil, fmt.Errorf("the PT of market %s has matured: redeem it with pendle_redeem_pt", m.Hex())
	}
	in.Step(1)
	minOut := s.assetsOf(scale(amount, s.ptPrice(), slippage(in)))
	if minOut.Sign() == 0 {
		return nil, errors.New("the amount is too small to sell for any underlying")
	}
	txs, err := native.SpendApprovals(ctx, env, s.pt, env.Venues.PendleRouter, amount)
	if err != nil {
		return nil, err
	}
	w, err := tx(env.Venues.PendleRouter, "sell PT", "swapExactPtForToken", owner, m, amount, noSwap(s, minOut), noLimit())
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, append(txs, w),
		[]tool.TokenUse{{Token: tool.Address(s.pt), Decimals: -1, Amount: amount, Out: true}, {Token: tool.Address(s.underlying), Decimals: -1, Amount: minOut}},
		native.ValueCents(ctx, env, s.underlying, minOut),
		fmt.Sprintf("sell %s PT (%s) for at least %s %s", native.FormatUnits(amount, s.decimals), s.pt.Hex(), native.FormatUnits(minOut, s.decimals), s.symbol)), nil
}

func planRedeem(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	m, owner, s, amount, err := beginPT(ctx, env, in)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	if !s.expired() {
		return nil, fmt.Errorf("the PT of market %s matures on %s: before then it redeems only with as much YT; sell it with pendle_sell_pt", m.Hex(), s.expiry.UTC().Format("2006-01-02 15:04 UTC"))
	}
	out := s.assetsOf(amount)
	txs, err := native.SpendApprovals(ctx, env, s.pt, env.Venues.PendleRouter, amount)
	if err != nil {
		return nil, err
	}
	w, err := tx(env.Venues.PendleRouter, "redeem PT", "redeemPyToToken", owner, s.yt, amount, noSwap(s, out))
	if err != nil {
		return nil, err
	}
	return native.NewPlan(ctx, env, append(txs, w),
		[]tool.TokenUse{{Token: tool.Address(s.pt), Decimals: -1, Amount: amount, Out: true}, {Token: tool.Address(s.underlying), Decimals: -1, Amount: out}},
		native.ValueCents(ctx, env, s.underlying, out),
		fmt.Sprintf("redeem %s matured PT (%s) for %s %s", native.FormatUnits(amount, s.decimals), s.pt.Hex(), native.FormatUnits(out, s.decimals), s.symbol)), nil
}
