package native

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Fragments of mainnet interfaces the chain package's ABIs leave out,
// and the dev chain's own additions (fullRange, LiquidityHelper).
const defiExtraJSON = `[
{"type":"function","name":"tickBitmap","stateMutability":"view","inputs":[{"name":"wordPosition","type":"int16"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"positions","stateMutability":"view","inputs":[{"name":"key","type":"bytes32"}],"outputs":[{"name":"liquidity","type":"uint128"},{"name":"feeGrowthInside0LastX128","type":"uint256"},{"name":"feeGrowthInside1LastX128","type":"uint256"},{"name":"tokensOwed0","type":"uint128"},{"name":"tokensOwed1","type":"uint128"}]},
{"type":"function","name":"burn","stateMutability":"nonpayable","inputs":[{"name":"tickLower","type":"int24"},{"name":"tickUpper","type":"int24"},{"name":"amount","type":"uint128"}],"outputs":[{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]},
{"type":"function","name":"collect","stateMutability":"nonpayable","inputs":[{"name":"recipient","type":"address"},{"name":"tickLower","type":"int24"},{"name":"tickUpper","type":"int24"},{"name":"amount0Requested","type":"uint128"},{"name":"amount1Requested","type":"uint128"}],"outputs":[{"name":"amount0","type":"uint128"},{"name":"amount1","type":"uint128"}]},
{"type":"function","name":"fullRange","stateMutability":"view","inputs":[],"outputs":[{"name":"tickLower","type":"int24"},{"name":"tickUpper","type":"int24"}]},
{"type":"function","name":"addLiquidity","stateMutability":"nonpayable","inputs":[{"name":"pool","type":"address"},{"name":"amount0Max","type":"uint256"},{"name":"amount1Max","type":"uint256"}],"outputs":[{"name":"liquidity","type":"uint128"},{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]},
{"type":"function","name":"factory","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"ADDRESSES_PROVIDER","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"getPriceOracle","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"getAssetPrice","stateMutability":"view","inputs":[{"name":"asset","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"UNDERLYING_ASSET_ADDRESS","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]}
]`

var defiExtra = NewABI(defiExtraJSON)

// extraCall is call with the extra ABI.
func ExtraCall(ctx context.Context, env *Env, to common.Address, method string, args ...any) ([]any, error) {
	return defiExtra.Call(ctx, env, to, method, args...)
}

// extraTx is tx with the extra ABI.
func ExtraTx(to common.Address, label, method string, args ...any) (tool.Tx, error) {
	return defiExtra.Tx(to, label, method, args...)
}

// errNoPosition is a close with nothing to close.
var ErrNoPosition = errors.New("the wallet has no position to close")

// tokenInfo is what the DeFi tools say about a token: its address, a
// sanitised symbol and its decimals.
type TokenInfo struct {
	Address  common.Address `json:"address"`
	Symbol   string         `json:"symbol"`
	Decimals uint8          `json:"decimals"`
}

// tokenInfoOf returns a token's symbol and decimals: a catalogue token's
// from the list read at start, any other's from the chain. The symbol is
// third-party text, so it is cut to letters, digits and a little
// punctuation (see safeSymbol).
func TokenInfoOf(ctx context.Context, env *Env, tok common.Address) (TokenInfo, error) {
	if t, ok := env.Token(tok); ok && tok != (common.Address{}) {
		return TokenInfo{Address: tok, Symbol: safeSymbol(t.Symbol), Decimals: t.Decimals}, nil
	}
	a := chain.ERC20ABI()
	dec, err := Call(ctx, env.Chain, a, tok, "decimals")
	if err != nil {
		return TokenInfo{}, fmt.Errorf("%s is not an ERC-20 token: %w", tok.Hex(), err)
	}
	out := TokenInfo{Address: tok, Decimals: dec[0].(uint8)}
	if v, err := Call(ctx, env.Chain, a, tok, "symbol"); err == nil {
		out.Symbol = safeSymbol(v[0].(string))
	}
	return out, nil
}

// safeSymbol keeps at most 16 characters of a token symbol among ASCII
// letters, digits and ".-_+", so that a hostile token cannot write
// instructions into a tool result.
func safeSymbol(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() == 16 {
			break
		}
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') || strings.ContainsRune(".-_+", r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// amountOut is an amount in a result: base units and whole tokens.
type AmountOut struct {
	Raw       string `json:"raw"`
	Formatted string `json:"formatted"`
}

// Format writes amount of t in whole tokens with its symbol: "1.5 USDC".
func (t TokenInfo) Format(amount *big.Int) string {
	return FormatUnits(amount, t.Decimals) + " " + t.Symbol
}

func AmountOf(v *big.Int, decimals uint8) AmountOut {
	return AmountOut{Raw: v.String(), Formatted: FormatUnits(v, decimals)}
}

// Owner returns the wallet's address.
func Owner(env *Env) (common.Address, error) {
	if env.Wallet == nil {
		return common.Address{}, errNoWallet
	}
	return env.Wallet.Address(), nil
}

// Approvals returns the transactions that give spender an allowance of
// at least amount of token from the wallet: none when it has one already,
// else an exact approve (see approvals).
func Approvals(ctx context.Context, env *Env, token, spender common.Address, amount *big.Int) ([]tool.Tx, error) {
	return approvals(ctx, env, token, spender, amount, amount)
}

// SpendApprovals returns the approval steps of a plan that itself spends
// amount of token through spender: an exact approve (preceded by an
// approve of zero when a non-zero allowance is left, as in Approvals),
// whatever the allowance now is, unless it is unlimited (at least 2^255,
// which standard tokens never decrement).
//
// Planning against the allowance now would race: concurrent previews of
// the wallet would each see the same allowance (or one an in-flight
// commit is about to spend) and plan no approval, and their commits
// would then fail each other. With its own approval, each plan sets the
// allowance it then spends, and the wallet sends a plan's transactions
// under one lock, so no other plan of the wallet runs between them. The
// plan's spend is unchanged; a finite allowance left by someone else is
// replaced (the router may then spend less, never more).
func SpendApprovals(ctx context.Context, env *Env, token, spender common.Address, amount *big.Int) ([]tool.Tx, error) {
	return approvals(ctx, env, token, spender, amount, unlimitedAllowance)
}

// approvals plans an approval of amount of token to spender unless the
// wallet's allowance is already at least enough: an approve, preceded by
// an approve of zero when a non-zero allowance is left (tokens such as
// USDT refuse to change one non-zero allowance into another).
func approvals(ctx context.Context, env *Env, token, spender common.Address, amount, enough *big.Int) ([]tool.Tx, error) {
	if amount.Sign() == 0 {
		return nil, nil
	}
	owner, err := Owner(env)
	if err != nil {
		return nil, err
	}
	a := chain.ERC20ABI()
	v, err := Call(ctx, env.Chain, a, token, "allowance", owner, spender)
	if err != nil {
		return nil, err
	}
	have := v[0].(*big.Int)
	if have.Cmp(enough) >= 0 {
		return nil, nil
	}
	var out []tool.Tx
	if have.Sign() > 0 {
		t, err := Tx(a, token, "reset approval", "approve", spender, new(big.Int))
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	t, err := Tx(a, token, "approve", "approve", spender, amount)
	if err != nil {
		return nil, err
	}
	return append(out, t), nil
}

// unlimitedAllowance is where an allowance counts as unlimited: 2^255.
var unlimitedAllowance = new(big.Int).Lsh(big.NewInt(1), 255)

// needBalance refuses a plan that would spend more of token than the
// wallet holds.
func NeedBalance(ctx context.Context, env *Env, t TokenInfo, amount *big.Int) error {
	owner, err := Owner(env)
	if err != nil {
		return err
	}
	bal, err := env.Chain.TokenBalance(ctx, t.Address, owner)
	if err != nil {
		return err
	}
	if bal.Cmp(amount) < 0 {
		return fmt.Errorf("the wallet holds %s %s but the action needs %s", FormatUnits(bal, t.Decimals), t.Symbol, FormatUnits(amount, t.Decimals))
	}
	return nil
}

// Held resolves an amount argument that may be "max" (nil) against bal,
// the wallet's balance of a token with symbol and decimals: "max" is the
// whole balance. It refuses an empty balance ("the wallet holds no " +
// none), an amount of 0, and more than the balance.
func Held(amount, bal *big.Int, symbol string, decimals uint8, none string) (*big.Int, error) {
	if amount == nil {
		amount = bal
	}
	switch {
	case amount.Sign() == 0 && bal.Sign() == 0:
		return nil, errors.New("the wallet holds no " + none)
	case amount.Sign() == 0:
		return nil, errors.New("amount must be greater than 0")
	case amount.Cmp(bal) > 0:
		return nil, fmt.Errorf("the wallet holds %s %s but the action needs %s", FormatUnits(bal, decimals), symbol, FormatUnits(amount, decimals))
	}
	return amount, nil
}

// NeedETH refuses a plan that pays more native ETH than owner holds,
// leaving room for gas; what names the payment in the refusal ("staking",
// "the deposit").
func NeedETH(ctx context.Context, env *Env, owner common.Address, amount *big.Int, what string) error {
	bal, err := env.Chain.BalanceOf(ctx, owner)
	if err != nil {
		return err
	}
	if bal.Cmp(amount) < 0 {
		return fmt.Errorf("insufficient ETH: the wallet holds %s ETH and %s needs %s ETH plus gas", FormatUnits(bal, 18), what, FormatUnits(amount, 18))
	}
	return nil
}

// ETHUse is a plan's use of native ETH: paid out of the wallet (out) or
// into it, its symbol and decimals left for the chain to tell.
func ETHUse(amount *big.Int, out bool) tool.TokenUse {
	return tool.TokenUse{Token: tool.Address{}, Decimals: -1, Amount: amount, Out: out}
}

// Swap and liquidity arguments shared by the Uniswap writes.
var (
	PSlippage = PInt("slippage_bps", "Largest price movement accepted between this preview and execution, in basis points (default 50 = 0.5%, at most 500). The minimum received is derived from the quote with it.", 0, 500)
	PDeadline = PInt("deadline_seconds", "How long after this preview the transaction stays valid on chain, in seconds (default 1800, 60 to 3600). After it the router refuses it.", 60, 3600)
)

const DefaultSlippageBps = 50

// slippageMin returns x reduced by bps basis points, rounded down.
func SlippageMin(x *big.Int, bps int64) *big.Int {
	v := new(big.Int).Mul(x, big.NewInt(10000-bps))
	return v.Quo(v, big.NewInt(10000))
}

// deadline returns the unix time after which the plan's transactions
// revert: deadline_seconds after the later of the clock and the latest
// block (a dev chain may run ahead of the clock).
func Deadline(ctx context.Context, env *Env, in *registry.Input) (*big.Int, error) {
	h, err := Head(ctx, env)
	if err != nil {
		return nil, err
	}
	now := in.Now
	if now.IsZero() {
		now = env.Clock()
	}
	if bt := time.Unix(int64(h.Time), 0); bt.After(now) {
		now = bt
	}
	secs := ArgInt(in, "deadline_seconds", 1800)
	return big.NewInt(now.Unix() + secs), nil
}

// sumCents adds USD values in cents; any unpriced (-1) value makes the
// sum unpriced.
func SumCents(vs ...int64) int64 {
	var s int64
	for _, v := range vs {
		if v < 0 {
			return -1
		}
		s += v
	}
	return s
}

// NewPlan returns a plan from the wallet on the connected chain. An
// unpriced plan (cents < 0) says which of its tokens has no usable price
// and why, so the refusal can tell the operator what to configure.
func NewPlan(ctx context.Context, env *Env, txs []tool.Tx, tokens []tool.TokenUse, cents int64, summary string) *tool.Plan {
	p := &tool.Plan{
		Chain: env.Chain.ChainID(), From: tool.Address(env.Wallet.Address()), Txs: txs,
		Tokens: tokens, ValueCents: cents, Summary: summary,
	}
	if cents < 0 {
		seen := map[tool.Address]bool{}
		for _, t := range tokens {
			if seen[t.Token] {
				continue
			}
			seen[t.Token] = true
			if why := UnpricedWhy(ctx, env, common.Address(t.Token)); why != "" {
				sym := ""
				if k, ok := env.Token(common.Address(t.Token)); ok {
					sym = k.Symbol
				}
				p.Unpriced = append(p.Unpriced, tool.Unpriced{Token: t.Token, Symbol: sym, Why: why})
			}
		}
	}
	return p
}

// pClaims are the optional symbol and decimals the agent believes a token
// has; the hallucination hook checks them against the chain.
func PClaims(prefix, what string) string {
	return PString(prefix+"_symbol", "The symbol you believe "+what+" has (optional; checked against the chain)") + "," +
		PInt(prefix+"_decimals", "The decimals you believe "+what+" has (optional; checked against the chain)", 0, 255)
}

// pAmountMax is an amount that may also be "max".
func PAmountMax(name, desc string) string {
	return fmt.Sprintf(`%q:{"type":"string","pattern":"^([0-9]{1,78}|max)$","description":%q}`, name, desc+" (decimal string in base units, or \"max\")")
}

// argAmountMax reads an amount that may be "max" (returned as nil).
func ArgAmountMax(in *registry.Input, name string) (*big.Int, error) {
	if ArgString(in, name, "") == "max" {
		return nil, nil
	}
	return ArgAmount(in, name)
}

// positive refuses a zero amount.
func Positive(name string, v *big.Int) error {
	if v.Sign() <= 0 {
		return fmt.Errorf("%s must be greater than 0", name)
	}
	return nil
}

// needVenue reports a missing default venue.
func NeedVenue(a common.Address, what, arg string) error {
	if a == (common.Address{}) {
		return fmt.Errorf("no %s is configured for this chain: pass %s", what, arg)
	}
	return nil
}

// Result schema fragments shared by the DeFi reads.
var (
	RToken  = `{"type":"object","properties":{"address":{"type":"string"},"symbol":{"type":"string"},"decimals":{"type":"integer"}}}`
	RAmount = `{"type":"object","description":"raw: base units; formatted: whole tokens","properties":{"raw":{"type":"string"},"formatted":{"type":"string"}}}`
)

func RTokenProp(name, desc string) string {
	return fmt.Sprintf(`%q:{"description":%q,"allOf":[%s]}`, name, desc, RToken)
}

func RAmountProp(name, desc string) string {
	return fmt.Sprintf(`%q:{"description":%q,"allOf":[%s]}`, name, desc, RAmount)
}

// TokenInfoPair is TokenInfoOf for two tokens, a then b.
func TokenInfoPair(ctx context.Context, env *Env, a, b common.Address) (TokenInfo, TokenInfo, error) {
	ma, err := TokenInfoOf(ctx, env, a)
	if err != nil {
		return TokenInfo{}, TokenInfo{}, err
	}
	mb, err := TokenInfoOf(ctx, env, b)
	if err != nil {
		return TokenInfo{}, TokenInfo{}, err
	}
	return ma, mb, nil
}

// Spend refuses a plan that would spend more of t than the wallet holds
// (NeedBalance) and returns the approvals spender needs to spend amount
// in the plan (SpendApprovals).
func Spend(ctx context.Context, env *Env, t TokenInfo, spender common.Address, amount *big.Int) ([]tool.Tx, error) {
	if err := NeedBalance(ctx, env, t, amount); err != nil {
		return nil, err
	}
	return SpendApprovals(ctx, env, t.Address, spender, amount)
}
