// Package gmx holds the catalogue's perpetuals tools over GMX V2
// (Synthetics): opening or increasing a leveraged position and decreasing
// or closing it as market orders through the ExchangeRouter, cancelling a
// pending order, and reading positions (size, collateral, entry and mark
// price, PnL, liquidation price), pending orders and a market's open
// interest and funding factor.
//
// GMX fills orders in two steps: the wallet's transaction creates the
// order (the collateral goes to the OrderVault, with an execution fee in
// ETH that must cover the keeper's estimated gas: see fee.go), and a
// keeper executes it at the oracle's price within the order's acceptable
// price, refunding the fee it did not use. A committed
// write therefore leaves a pending order, which gmx_get_positions lists
// and gmx_cancel_order cancels.
//
// Opening is a Layer3 write: leverage multiplies losses and a position
// can be liquidated, so the phase gate refuses it from conservation down.
// Decreasing, closing and cancelling are Layer2 closes: they only reduce
// exposure, so they stay allowed while an agent winds down. Each plan
// refuses leverage above ward's cap (MaxLeverage, or the market's own
// when lower) and a resulting position the market would consider
// unhealthy.
package gmx

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// MaxLeverage is the highest leverage (position size over collateral
// value) ward lets a plan open or leave, whatever the market allows.
const MaxLeverage = 10

// GMX's order types (Order.OrderType).
const (
	orderMarketIncrease = 2
	orderMarketDecrease = 4
)

// Tools are the GMX tools, registered where the contracts and a market
// are configured.
func Tools() []native.Maker {
	return []native.Maker{positions, marketInfo, open, decrease, cancel}
}

func configured(env *native.Env) bool {
	v := env.Venues
	return v.GmxExchangeRouter != (common.Address{}) && v.GmxRouter != (common.Address{}) && v.GmxOrderVault != (common.Address{}) &&
		v.GmxDataStore != (common.Address{}) && v.GmxReader != (common.Address{}) && len(v.GmxMarkets) > 0
}

// float is GMX's fixed point: USD amounts and factors have 30 decimals.
var float = new(big.Int).Exp(big.NewInt(10), big.NewInt(30), nil)

// hashString is GMX's Keys: keccak256(abi.encode(name)).
func hashString(s string) common.Hash {
	enc := make([]byte, 64, 64+len(s)+31)
	enc[31] = 0x20
	big.NewInt(int64(len(s))).FillBytes(enc[32:64])
	enc = append(enc, s...)
	enc = append(enc, make([]byte, (32-len(s)%32)%32)...)
	return crypto.Keccak256Hash(enc)
}

// callInto calls a view of the Reader or DataStore and decodes its result
// into out.
func callInto(ctx context.Context, env *native.Env, a *chain.ABI, to common.Address, out any, method string, args ...any) error {
	data, err := a.Pack(method, args...)
	if err != nil {
		return err
	}
	raw, err := env.Chain.Call(ctx, ethereum.CallMsg{To: &to, Data: data})
	if err != nil {
		return fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	return a.UnpackInto(out, method, raw)
}

// encode is abi.encode of static values (bytes32, address, bool).
func encode(vals ...any) []byte {
	var out []byte
	for _, v := range vals {
		var w [32]byte
		switch x := v.(type) {
		case common.Hash:
			w = x
		case common.Address:
			copy(w[12:], x[:])
		case bool:
			if x {
				w[31] = 1
			}
		}
		out = append(out, w[:]...)
	}
	return out
}

func key(vals ...any) common.Hash { return crypto.Keccak256Hash(encode(vals...)) }

var pMarket = native.PAddress("market", "The GMX market token (default: the chain's configured market when there is exactly one; gmx_get_market reads it)")

// argMarket reads the market argument, which must be a configured market.
func argMarket(env *native.Env, a *native.Args) common.Address {
	list := env.Venues.GmxMarkets
	if a.Has("market") {
		m := a.Address("market")
		for _, c := range list {
			if c == m {
				return m
			}
		}
		a.Check(fmt.Errorf("market %s is not one of the configured GMX markets", m.Hex()))
		return common.Address{}
	}
	if len(list) != 1 {
		a.Check(errors.New("several GMX markets are configured: pass market"))
		return common.Address{}
	}
	return list[0]
}

// market is Market.Props with what ward derives from the chain.
type market struct {
	marketProps
	index, short native.TokenInfo
	// price is the index token's price per base unit (30 decimals).
	price *big.Int
	// minCollateral is MIN_COLLATERAL_FACTOR (30 decimals).
	minCollateral *big.Int
}

func readMarket(ctx context.Context, env *native.Env, m common.Address) (*market, error) {
	var err error
	// A single tuple output is decoded into the first field of a struct.
	var res struct{ M marketProps }
	if err := callInto(ctx, env, chain.GmxReaderABI(), env.Venues.GmxReader, &res, "getMarket", env.Venues.GmxDataStore, m); err != nil {
		return nil, fmt.Errorf("%s is not a GMX Reader: %w", env.Venues.GmxReader.Hex(), err)
	}
	out := market{marketProps: res.M}
	if out.MarketToken != m {
		return nil, fmt.Errorf("%s is not a GMX market", m.Hex())
	}
	if out.index, err = native.TokenInfoOf(ctx, env, out.IndexToken); err != nil {
		return nil, err
	}
	if out.short, err = native.TokenInfoOf(ctx, env, out.ShortToken); err != nil {
		return nil, err
	}
	p, err := native.PriceOf(ctx, env, out.IndexToken)
	if err != nil {
		return nil, fmt.Errorf("the index token %s: %w", out.index.Symbol, err)
	}
	if p.Stale || p.Answer == nil || p.Answer.Sign() <= 0 {
		return nil, fmt.Errorf("the price of %s is stale or not positive", out.index.Symbol)
	}
	out.price = unitPrice(p.Answer, p.Decimals, out.index.Decimals)
	if out.minCollateral, err = getUint(ctx, env, key(hashString("MIN_COLLATERAL_FACTOR"), m)); err != nil {
		return nil, err
	}
	return &out, nil
}

// unitPrice converts a feed answer to GMX's price unit: USD per base unit
// with 30 decimals.
func unitPrice(answer *big.Int, feedDec, tokenDec uint8) *big.Int {
	e := 30 - int64(feedDec) - int64(tokenDec)
	p := new(big.Int).Set(answer)
	if e >= 0 {
		return p.Mul(p, pow10(e))
	}
	return p.Quo(p, pow10(-e))
}

func pow10(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }

func getUint(ctx context.Context, env *native.Env, k common.Hash) (*big.Int, error) {
	v, err := native.CallBig(ctx, env, chain.GmxDataStoreABI(), env.Venues.GmxDataStore, "getUint", [32]byte(k))
	if err != nil {
		return nil, fmt.Errorf("%s is not a GMX DataStore: %w", env.Venues.GmxDataStore.Hex(), err)
	}
	return v, nil
}

func listKeys(ctx context.Context, env *native.Env, set common.Hash) ([]common.Hash, error) {
	v, err := native.Call(ctx, env.Chain, chain.GmxDataStoreABI(), env.Venues.GmxDataStore, "getBytes32ValuesAt", [32]byte(set), big.NewInt(0), big.NewInt(maxListed))
	if err != nil {
		return nil, err
	}
	raw, _ := v[0].([][32]byte)
	out := make([]common.Hash, len(raw))
	for i, r := range raw {
		out[i] = r
	}
	return out, nil
}

// maxListed bounds the positions and orders one read lists.
const maxListed = 50

func orderKeys(ctx context.Context, env *native.Env, account common.Address) ([]common.Hash, error) {
	return listKeys(ctx, env, key(hashString("ACCOUNT_ORDER_LIST"), account))
}

// marketProps is Market.Props.
type marketProps struct {
	MarketToken, IndexToken, LongToken, ShortToken common.Address
}

// position is Position.Props.
type position struct {
	Addresses struct {
		Account, Market, CollateralToken common.Address
	}
	Numbers struct {
		SizeInUsd, SizeInTokens, CollateralAmount, PendingImpactAmount, BorrowingFactor, FundingFeeAmountPerSize *big.Int
		LongTokenClaimableFundingAmountPerSize, ShortTokenClaimableFundingAmountPerSize                          *big.Int
		IncreasedAtTime, DecreasedAtTime                                                                         *big.Int
	}
	Flags struct{ IsLong bool }
}

// positionKey is GMX's Position.getPositionKey.
func positionKey(account, m, collateral common.Address, isLong bool) common.Hash {
	return key(account, m, collateral, isLong)
}

func readPositionAt(ctx context.Context, env *native.Env, k common.Hash) (*position, error) {
	var res struct{ P position }
	if err := callInto(ctx, env, chain.GmxReaderABI(), env.Venues.GmxReader, &res, "getPosition", env.Venues.GmxDataStore, [32]byte(k)); err != nil {
		return nil, err
	}
	return &res.P, nil
}

// health is a position's state at the market's price, in USD with 30
// decimals.
type health struct {
	collateralUSD, pnl, remaining *big.Int
	leverage                      float64 // size over remaining collateral; +Inf when none remains
	liquidation                   *big.Int
}

// assess values a position of size (USD), tokens and collateral (short
// token base units) on m: its PnL, the collateral left, its leverage and
// the price at which the remaining collateral falls to the market's
// minimum (GMX's liquidation condition, without fees).
func assess(m *market, isLong bool, size, tokens, collateral *big.Int) health {
	shortPrice := unitPrice(big.NewInt(1e8), 8, m.short.Decimals) // the short token is taken at $1, as the dev market's USDC feed
	h := health{collateralUSD: new(big.Int).Mul(collateral, shortPrice)}
	value := new(big.Int).Mul(tokens, m.price)
	if isLong {
		h.pnl = new(big.Int).Sub(value, size)
	} else {
		h.pnl = new(big.Int).Sub(size, value)
	}
	h.remaining = new(big.Int).Add(h.collateralUSD, h.pnl)
	h.leverage = math.Inf(1)
	if h.remaining.Sign() > 0 {
		h.leverage = ratio(size, h.remaining)
	}
	if tokens.Sign() > 0 {
		minUSD := new(big.Int).Quo(new(big.Int).Mul(size, m.minCollateral), float)
		// long: coll + tokens*P - size = min  → P = (size + min - coll) / tokens
		// short: coll + size - tokens*P = min → P = (coll + size - min) / tokens
		n := new(big.Int)
		if isLong {
			n.Add(size, minUSD).Sub(n, h.collateralUSD)
		} else {
			n.Add(h.collateralUSD, size).Sub(n, minUSD)
		}
		if n.Sign() > 0 {
			h.liquidation = n.Quo(n, tokens)
		} else {
			h.liquidation = new(big.Int)
		}
	}
	return h
}

func ratio(a, b *big.Int) float64 {
	f, _ := new(big.Rat).SetFrac(a, b).Float64()
	return f
}

// usd formats a 30-decimal USD amount as dollars.
func usd(v *big.Int) string {
	if v == nil {
		return ""
	}
	return native.FormatUnits(v, 30)
}

// tokenPrice formats a per-base-unit price as USD per whole token.
func tokenPrice(p *big.Int, dec uint8) string {
	if p == nil {
		return ""
	}
	return native.FormatUnits(new(big.Int).Mul(p, pow10(int64(dec))), 30)
}

// parseUSD reads a decimal dollar string into 30-decimal USD.
func parseUSD(a *native.Args, name string) *big.Int {
	s := a.String(name, "")
	whole, frac, _ := strings.Cut(s, ".")
	if s == "" || whole == "" || len(frac) > 30 || strings.Trim(whole+frac, "0123456789") != "" {
		a.Check(fmt.Errorf("%s must be a decimal number of US dollars, e.g. \"1500\" or \"1500.25\"", name))
		return nil
	}
	v, ok := new(big.Int).SetString(whole+frac+strings.Repeat("0", 30-len(frac)), 10)
	if !ok || v.Sign() <= 0 {
		a.Check(fmt.Errorf("%s must be positive", name))
		return nil
	}
	return v
}

var positions = native.ReadTool{
	Name: "gmx_get_positions",
	Description: "Read an account's GMX V2 perpetual positions (default: the agent's wallet) and its pending orders. For each position: market, long or short, " +
		"size in USD and in index tokens, collateral, entry price, mark price (the index token's feed), unrealized PnL, leverage and liquidation price " +
		"(the price at which the collateral left falls to the market's minimum, fees left out). Each pending order is listed by its key, for gmx_cancel_order. " +
		"Use before gmx_open_position, gmx_close_position or gmx_cancel_order.",
	Category: tool.CatDerivatives, Budget: tool.Medium,
	Steps:   []string{"Listing positions", "Reading each position", "Listing pending orders"},
	Snippet: "gmx_get_positions reads GMX perpetual positions (size, collateral, entry, PnL, liquidation price) and pending orders.",
	Params:  []string{native.PAddress("account", "Whose positions (default: the agent's wallet)")},
	Result: []string{native.RProp("account", "string", "the account"),
		`"positions":{"type":"array","items":{"type":"object","properties":{"key":{"type":"string"},"market":{"type":"string"},"is_long":{"type":"boolean"},` +
			`"size_usd":{"type":"string"},"size_in_tokens":` + native.RAmount + `,"collateral":` + native.RAmount + `,"entry_price_usd":{"type":"string"},"mark_price_usd":{"type":"string"},` +
			`"pnl_usd":{"type":"string"},"leverage":{"type":"number"},"liquidation_price_usd":{"type":"string"}}}}`,
		`"pending_orders":{"type":"array","items":{"type":"string"}}`},
	Action: "perp_positions", Venue: "gmx",
	When: configured,
	Run:  readPositions,
}

type positionOut struct {
	Key         string           `json:"key"`
	Market      string           `json:"market"`
	IsLong      bool             `json:"is_long"`
	SizeUSD     string           `json:"size_usd"`
	SizeTokens  native.AmountOut `json:"size_in_tokens"`
	Collateral  native.AmountOut `json:"collateral"`
	Entry       string           `json:"entry_price_usd"`
	Mark        string           `json:"mark_price_usd"`
	PnL         string           `json:"pnl_usd"`
	Leverage    float64          `json:"leverage"`
	Liquidation string           `json:"liquidation_price_usd"`
}

func readPositions(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	account := a.Whose(env, "account")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	keys, err := listKeys(ctx, env, key(hashString("ACCOUNT_POSITION_LIST"), account))
	if err != nil {
		return nil, fmt.Errorf("%s is not a GMX DataStore: %w", env.Venues.GmxDataStore.Hex(), err)
	}
	in.Step(1)
	markets := map[common.Address]*market{}
	outs := []positionOut{}
	for _, k := range keys {
		p, err := readPositionAt(ctx, env, k)
		if err != nil {
			return nil, err
		}
		if p.Numbers.SizeInUsd.Sign() == 0 {
			continue
		}
		m := markets[p.Addresses.Market]
		if m == nil {
			if m, err = readMarket(ctx, env, p.Addresses.Market); err != nil {
				return nil, err
			}
			markets[p.Addresses.Market] = m
		}
		outs = append(outs, describe(k, m, p))
	}
	in.Step(2)
	orders, err := orderKeys(ctx, env, account)
	if err != nil {
		return nil, err
	}
	hexes := make([]string, len(orders))
	for i, o := range orders {
		hexes[i] = o.Hex()
	}
	return map[string]any{"account": account.Hex(), "positions": outs, "pending_orders": hexes}, nil
}

func describe(k common.Hash, m *market, p *position) positionOut {
	n := p.Numbers
	h := assess(m, p.Flags.IsLong, n.SizeInUsd, n.SizeInTokens, n.CollateralAmount)
	o := positionOut{Key: k.Hex(), Market: p.Addresses.Market.Hex(), IsLong: p.Flags.IsLong, SizeUSD: usd(n.SizeInUsd),
		SizeTokens: native.AmountOf(n.SizeInTokens, m.index.Decimals), Collateral: native.AmountOf(n.CollateralAmount, m.short.Decimals),
		Mark: tokenPrice(m.price, m.index.Decimals), PnL: usd(h.pnl), Leverage: round2(h.leverage), Liquidation: tokenPrice(h.liquidation, m.index.Decimals)}
	if n.SizeInTokens.Sign() > 0 {
		o.Entry = tokenPrice(new(big.Int).Quo(n.SizeInUsd, n.SizeInTokens), m.index.Decimals)
	}
	return o
}

func round2(f float64) float64 {
	if math.IsInf(f, 0) {
		return -1
	}
	return math.Round(f*100) / 100
}

var marketInfo = native.ReadTool{
	Name: "gmx_get_market",
	Description: "Read a GMX V2 market: its index, long and short tokens, the index token's price, open interest long and short (USD and index tokens), " +
		"the funding factor, the minimum collateral factor and the highest leverage the market and ward's cap allow. Use before gmx_open_position.",
	Category: tool.CatDerivatives, Budget: tool.Medium,
	Steps:   []string{"Reading the market"},
	Snippet: "gmx_get_market reads a GMX market's open interest, funding factor and leverage limits.",
	Params:  []string{pMarket},
	Result: []string{native.RProp("market", "string", "the market token"), `"index_token":` + native.RToken, `"short_token":` + native.RToken,
		native.RProp("price_usd", "string", "the index token's price"),
		native.RProp("open_interest_long_usd", "string", ""), native.RProp("open_interest_short_usd", "string", ""),
		native.RProp("funding_factor", "string", "FUNDING_FACTOR, 30 decimals"), native.RProp("min_collateral_factor", "string", "30 decimals"),
		native.RProp("max_leverage", "number", "the lower of the market's limit and ward's")},
	Action: "perp_market", Venue: "gmx",
	When: configured,
	Run:  readMarketInfo,
}

func readMarketInfo(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	mk := argMarket(env, a)
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	m, err := readMarket(ctx, env, mk)
	if err != nil {
		return nil, err
	}
	// Open interest is kept per collateral token and side: sum both
	// collateral tokens.
	oi := func(h common.Hash, long bool) (*big.Int, error) {
		sum := new(big.Int)
		for _, c := range []common.Address{m.LongToken, m.ShortToken} {
			v, err := getUint(ctx, env, key(h, mk, c, long))
			if err != nil {
				return nil, err
			}
			sum.Add(sum, v)
			if m.LongToken == m.ShortToken {
				break
			}
		}
		return sum, nil
	}
	out := map[string]any{"market": mk.Hex(), "index_token": m.index, "short_token": m.short, "price_usd": tokenPrice(m.price, m.index.Decimals),
		"min_collateral_factor": m.minCollateral.String(), "max_leverage": maxLeverage(m)}
	for _, side := range []struct {
		name string
		long bool
	}{{"long", true}, {"short", false}} {
		u, err := oi(hashString("OPEN_INTEREST"), side.long)
		if err != nil {
			return nil, err
		}
		t, err := oi(hashString("OPEN_INTEREST_IN_TOKENS"), side.long)
		if err != nil {
			return nil, err
		}
		out["open_interest_"+side.name+"_usd"] = usd(u)
		out["open_interest_"+side.name+"_tokens"] = native.AmountOf(t, m.index.Decimals)
	}
	f, err := getUint(ctx, env, key(hashString("FUNDING_FACTOR"), mk))
	if err != nil {
		return nil, err
	}
	out["funding_factor"] = f.String()
	return out, nil
}

// maxLeverage is the lower of ward's cap and the market's own limit
// (one over MIN_COLLATERAL_FACTOR).
func maxLeverage(m *market) float64 {
	if m.minCollateral.Sign() == 0 {
		return MaxLeverage
	}
	return math.Min(MaxLeverage, ratio(float, m.minCollateral))
}
