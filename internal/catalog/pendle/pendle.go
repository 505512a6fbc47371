// Package pendle holds the catalogue's Pendle V2 yield tools: buying a
// principal token (PT) with the SY's underlying, selling PT back for it,
// redeeming PT at maturity, and a read of a market with its implied APY
// and the wallet's PT and YT.
//
// What they rely on in Pendle's contracts (the mainnet interfaces):
//   - a market names its SY, PT and YT (readTokens) and its maturity
//     (expiry); its _storage() holds lastLnImpliedRate, ln(1 + implied
//     APY) in 18 decimals, from which a PT's price in SY before maturity
//     is exp(-lnImpliedRate x time to maturity / 365 days);
//   - the router (V4) buys PT with a token the SY accepts
//     (swapExactTokenForPt), sells PT for one (swapExactPtForToken) and
//     redeems PT, with as much YT before maturity, for one
//     (redeemPyToToken); ward sends no aggregator swap (pendleSwap zero,
//     token in/out = the SY's yieldToken), default ApproxParams and no
//     limit orders.
//
// Simplifications: the plans price at the market's implied rate and
// accept a slippage bound (slippage_bps) below it, rather than running
// Pendle's AMM math; the SY's exchange rate is read (exchangeRate) and
// applied; a market must be one ward's configuration lists (Venues
// PendleMarkets), so a call cannot be steered to another contract.
package pendle

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
)

// Tools are the Pendle reads and writes, registered where the chain has a
// Pendle router and at least one market.
func Tools() []native.Maker {
	return []native.Maker{market, buyPT, sellPT, redeemPT}
}

func hasPendle(env *native.Env) bool {
	return env.Venues.PendleRouter != (common.Address{}) && len(env.Venues.PendleMarkets) > 0
}

const tokenIO = `{"name":"swapData","type":"tuple","components":[{"name":"swapType","type":"uint8"},{"name":"extRouter","type":"address"},{"name":"extCalldata","type":"bytes"},{"name":"needScale","type":"bool"}]}`
const approx = `{"name":"guessPtOut","type":"tuple","components":[{"name":"guessMin","type":"uint256"},{"name":"guessMax","type":"uint256"},{"name":"guessOffchain","type":"uint256"},{"name":"maxIteration","type":"uint256"},{"name":"eps","type":"uint256"}]}`
const limit = `{"name":"limit","type":"tuple","components":[{"name":"limitRouter","type":"address"},{"name":"epsSkipMarket","type":"uint256"},` +
	`{"name":"normalFills","type":"tuple[]","components":` + fill + `},{"name":"flashFills","type":"tuple[]","components":` + fill + `},{"name":"optData","type":"bytes"}]}`
const fill = `[{"name":"order","type":"tuple","components":[{"name":"salt","type":"uint256"},{"name":"expiry","type":"uint256"},{"name":"nonce","type":"uint256"},` +
	`{"name":"orderType","type":"uint8"},{"name":"token","type":"address"},{"name":"YT","type":"address"},{"name":"maker","type":"address"},{"name":"receiver","type":"address"},` +
	`{"name":"makingAmount","type":"uint256"},{"name":"lnImpliedRate","type":"uint256"},{"name":"failSafeRate","type":"uint256"},{"name":"permit","type":"bytes"}]},` +
	`{"name":"signature","type":"bytes"},{"name":"makingAmount","type":"uint256"}]`

// pendleJSON is the part of Pendle's mainnet interfaces the tools use:
// the market, SY, PT/YT and router V4, in one ABI.
const pendleJSON = `[
{"type":"function","name":"readTokens","stateMutability":"view","inputs":[],"outputs":[{"name":"_SY","type":"address"},{"name":"_PT","type":"address"},{"name":"_YT","type":"address"}]},
{"type":"function","name":"expiry","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"_storage","stateMutability":"view","inputs":[],"outputs":[{"name":"totalPt","type":"int128"},{"name":"totalSy","type":"int128"},{"name":"lastLnImpliedRate","type":"uint96"},{"name":"observationIndex","type":"uint16"},{"name":"observationCardinality","type":"uint16"},{"name":"observationCardinalityNext","type":"uint16"}]},
{"type":"function","name":"yieldToken","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"exchangeRate","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"account","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"decimals","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint8"}]},
{"type":"function","name":"symbol","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"string"}]},
{"type":"function","name":"swapExactTokenForPt","stateMutability":"payable","inputs":[{"name":"receiver","type":"address"},{"name":"market","type":"address"},{"name":"minPtOut","type":"uint256"},` + approx + `,` +
	`{"name":"input","type":"tuple","components":[{"name":"tokenIn","type":"address"},{"name":"netTokenIn","type":"uint256"},{"name":"tokenMintSy","type":"address"},{"name":"pendleSwap","type":"address"},` + tokenIO + `]},` + limit + `],` +
	`"outputs":[{"name":"netPtOut","type":"uint256"},{"name":"netSyFee","type":"uint256"},{"name":"netSyInterm","type":"uint256"}]},
{"type":"function","name":"swapExactPtForToken","stateMutability":"nonpayable","inputs":[{"name":"receiver","type":"address"},{"name":"market","type":"address"},{"name":"exactPtIn","type":"uint256"},` +
	`{"name":"output","type":"tuple","components":[{"name":"tokenOut","type":"address"},{"name":"minTokenOut","type":"uint256"},{"name":"tokenRedeemSy","type":"address"},{"name":"pendleSwap","type":"address"},` + tokenIO + `]},` + limit + `],` +
	`"outputs":[{"name":"netTokenOut","type":"uint256"},{"name":"netSyFee","type":"uint256"},{"name":"netSyInterm","type":"uint256"}]},
{"type":"function","name":"redeemPyToToken","stateMutability":"nonpayable","inputs":[{"name":"receiver","type":"address"},{"name":"YT","type":"address"},{"name":"netPyIn","type":"uint256"},` +
	`{"name":"output","type":"tuple","components":[{"name":"tokenOut","type":"address"},{"name":"minTokenOut","type":"uint256"},{"name":"tokenRedeemSy","type":"address"},{"name":"pendleSwap","type":"address"},` + tokenIO + `]}],` +
	`"outputs":[{"name":"netTokenOut","type":"uint256"},{"name":"netSyInterm","type":"uint256"}]}
]`

var pendleABI = native.NewABI(pendleJSON)

var (
	call    = pendleABI.CallBig
	callAny = pendleABI.Call
	tx      = pendleABI.Tx
)

// The router's struct arguments, packed by field name.
type swapData struct {
	SwapType    uint8
	ExtRouter   common.Address
	ExtCalldata []byte
	NeedScale   bool
}

type tokenInput struct {
	TokenIn     common.Address
	NetTokenIn  *big.Int
	TokenMintSy common.Address
	PendleSwap  common.Address
	SwapData    swapData
}

type tokenOutput struct {
	TokenOut      common.Address
	MinTokenOut   *big.Int
	TokenRedeemSy common.Address
	PendleSwap    common.Address
	SwapData      swapData
}

type approxParams struct {
	GuessMin, GuessMax, GuessOffchain, MaxIteration, Eps *big.Int
}

type order struct {
	Salt, Expiry, Nonce *big.Int
	OrderType           uint8
	Token, YT, Maker    common.Address
	Receiver            common.Address
	MakingAmount        *big.Int
	LnImpliedRate       *big.Int
	FailSafeRate        *big.Int
	Permit              []byte
}

type fillOrder struct {
	Order        order
	Signature    []byte
	MakingAmount *big.Int
}

type limitOrderData struct {
	LimitRouter   common.Address
	EpsSkipMarket *big.Int
	NormalFills   []fillOrder
	FlashFills    []fillOrder
	OptData       []byte
}

// defaultApprox is Pendle's SDK default: search the whole range, 256
// iterations, 0.01 % precision.
func defaultApprox() approxParams {
	maxU := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	return approxParams{new(big.Int), maxU, new(big.Int), big.NewInt(256), big.NewInt(1e14)}
}

func noLimit() limitOrderData { return limitOrderData{EpsSkipMarket: new(big.Int)} }

// state is a market as read from chain.
type state struct {
	market, sy, pt, yt, underlying common.Address
	expiry                         time.Time
	lnRate                         *big.Int
	syRate                         *big.Int // underlying per SY, 18 decimals
	decimals                       uint8
	symbol                         string
	now                            time.Time
}

const year = 365 * 24 * time.Hour

// expired says whether the PT has matured.
func (s state) expired() bool { return !s.now.Before(s.expiry) }

// impliedAPY is exp(lnImpliedRate) - 1.
func (s state) impliedAPY() float64 {
	f, _ := new(big.Rat).SetFrac(s.lnRate, native.Pow10(18)).Float64()
	return math.Expm1(f)
}

// ptPrice is the SY one PT is worth at the implied rate: 1 at maturity.
func (s state) ptPrice() float64 {
	if s.expired() {
		return 1
	}
	f, _ := new(big.Rat).SetFrac(s.lnRate, native.Pow10(18)).Float64()
	return math.Exp(-f * float64(s.expiry.Sub(s.now)) / float64(year))
}

// marketArg reads the optional market argument: one of the configured
// markets (the first by default).
func marketArg(in *registry.Input, env *native.Env) (common.Address, error) {
	a := native.ArgsOf(in)
	m := a.AddressOr("market", env.Venues.PendleMarkets[0])
	if err := a.Err(); err != nil {
		return m, err
	}
	if !slices.Contains(env.Venues.PendleMarkets, m) {
		return m, fmt.Errorf("market %s is not a Pendle market ward knows on this chain (known: %v)", m.Hex(), env.Venues.PendleMarkets)
	}
	return m, nil
}

func read(ctx context.Context, env *native.Env, m common.Address) (state, error) {
	s := state{market: m, now: time.Now()}
	toks, err := callAny(ctx, env, m, "readTokens")
	if err != nil || len(toks) != 3 {
		return s, fmt.Errorf("%s is not a Pendle market: %v", m.Hex(), err)
	}
	s.sy, s.pt, s.yt = toks[0].(common.Address), toks[1].(common.Address), toks[2].(common.Address)
	exp, err := call(ctx, env, m, "expiry")
	if err != nil {
		return s, err
	}
	s.expiry = time.Unix(exp.Int64(), 0)
	st, err := callAny(ctx, env, m, "_storage")
	if err != nil || len(st) != 6 {
		return s, fmt.Errorf("read the state of market %s: %v", m.Hex(), err)
	}
	s.lnRate = st[2].(*big.Int)
	if s.syRate, err = call(ctx, env, s.sy, "exchangeRate"); err != nil {
		return s, err
	}
	if s.syRate.Sign() == 0 {
		return s, fmt.Errorf("the SY %s reports an exchange rate of 0", s.sy.Hex())
	}
	a, err := pendleABI()
	if err != nil {
		return s, err
	}
	if s.underlying, err = native.CallAddress(ctx, env, a, s.sy, "yieldToken"); err != nil {
		return s, err
	}
	dec, err := callAny(ctx, env, s.pt, "decimals")
	if err != nil {
		return s, err
	}
	s.decimals = dec[0].(uint8)
	sym, err := callAny(ctx, env, s.underlying, "symbol")
	if err != nil {
		return s, err
	}
	s.symbol = sym[0].(string)
	h, err := native.Head(ctx, env)
	if err != nil {
		return s, err
	}
	s.now = time.Unix(int64(h.Time), 0)
	return s, nil
}
