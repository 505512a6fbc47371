package native

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Wad is 1e18, the fixed-point scale of the lending markets' factors,
// rates and health factors.
var Wad = Pow10(18)

// WadPercent writes a wad fraction as a percentage.
func WadPercent(v *big.Int) string {
	return RatString(new(big.Rat).SetFrac(new(big.Int).Mul(v, big.NewInt(100)), Wad), 6)
}

// FormatHealth writes a wad health factor; nil or 2^256-1 (no debt, as
// Aave's getUserAccountData reports it) is "infinite".
func FormatHealth(h *big.Int) string {
	if h == nil || h.Cmp(MaxUint256) == 0 {
		return "infinite"
	}
	return RatString(new(big.Rat).SetFrac(h, Wad), 6)
}

// HealthChange is the suffix a lending plan's summary gets when it knows
// the health factor before and after: " (health factor 2 -> 1.5)".
func HealthChange(before, after *big.Int) string {
	return fmt.Sprintf(" (health factor %s -> %s)", FormatHealth(before), FormatHealth(after))
}

// Lending is what a lending write does, for its plan: its transactions,
// the token it moves out of the wallet (Out) or into it, the amount of it
// claimed under "token" (Claim), the amount the plan is valued at (Value;
// nil is Claim), the summary, and the health factor before and after
// when HealthKnown. A write that pays Claim of Token into a contract names
// it as Pay: the plan then refuses more than the wallet holds and puts
// the approvals the contract needs before Txs (Spend), and Out is implied.
type Lending struct {
	Txs           []tool.Tx
	Token         TokenInfo
	Out           bool
	Pay           common.Address
	Claim, Value  *big.Int
	Summary       string
	Before, After *big.Int
	HealthKnown   bool
}

// Plan makes the lending write's plan; market is what its summary says
// of the market after the action (" on the Compound III USDC market ...").
// It fails only where Pay is set and Spend does.
func (l Lending) Plan(ctx context.Context, env *Env, in *registry.Input, market string) (*tool.Plan, error) {
	if l.Pay != (common.Address{}) {
		approvals, err := Spend(ctx, env, l.Token, l.Pay, l.Claim)
		if err != nil {
			return nil, err
		}
		l.Txs, l.Out = append(approvals, l.Txs...), true
	}
	summary := l.Summary + market
	if l.HealthKnown {
		summary += HealthChange(l.Before, l.After)
	}
	value := l.Value
	if value == nil {
		value = l.Claim
	}
	return NewPlan(ctx, env, l.Txs, []tool.TokenUse{Claimed(in, l.Token.Address, l.Claim, l.Out, "token")},
		ValueCents(ctx, env, l.Token.Address, value), summary), nil
}

// Health sets the health factor before and after the write, known when
// err (of working them out) is nil.
func (l Lending) Health(before, after *big.Int, err error) Lending {
	l.Before, l.After, l.HealthKnown = before, after, err == nil
	return l
}

// LendingStart is what a lending protocol's planners read first (the
// call's amount, the market, the wallet's account in it): it says what a
// plan's summary says of the market.
type LendingStart interface {
	Where() string
}

// LendingPlanner returns the planner of a lending write: begin reads the
// call's arguments, the market and the account (reporting step 0), write
// checks the call against them and says what it does, and the plan is
// made of that (Lending.Plan).
func LendingPlanner[S LendingStart](begin func(context.Context, *Env, *registry.Input) (S, error),
	write func(context.Context, *Env, *registry.Input, S) (Lending, error)) func(context.Context, *Env, *registry.Input) (*tool.Plan, error) {
	return func(ctx context.Context, env *Env, in *registry.Input) (*tool.Plan, error) {
		s, err := begin(ctx, env, in)
		if err != nil {
			return nil, err
		}
		l, err := write(ctx, env, in, s)
		if err != nil {
			return nil, err
		}
		return l.Plan(ctx, env, in, s.Where())
	}
}

// Lending is the lending write that repays r by call: r's approvals, then
// call, paying r.Pay of t and valued at what it repays.
func (r Repayment) Lending(t TokenInfo, call tool.Tx) Lending {
	return Lending{Txs: append(r.Approvals, call), Token: t, Out: true, Claim: r.Pay, Value: r.Repaid, Summary: "repay " + t.Format(r.Repaid)}
}

// MulDiv is x*y/d rounded down.
func MulDiv(x, y, d *big.Int) *big.Int {
	v := new(big.Int).Mul(x, y)
	return v.Quo(v, d)
}

// Repayment is the token side of repaying a lending debt from the
// wallet (see Repay).
type Repayment struct {
	// All says the whole debt is repaid: the call repays by its max
	// (type(uint256).max, or all the shares), which clears the debt as it
	// stands at execution.
	All bool
	// Repaid is what the repay clears: the debt with All, else the amount.
	Repaid *big.Int
	// Pay is what the wallet is approved to pay: Repaid, or with All the
	// debt plus a 0.01 % margin for interest accruing until execution, at
	// most the wallet's balance.
	Pay *big.Int
	// Approvals are the approve steps for Pay (SpendApprovals).
	Approvals []tool.Tx
}

// Repay plans repaying amount (nil: "max") of a debt in t to spender from
// owner's wallet; an amount at or above the debt repays all of it. It
// refuses when the wallet holds less than it would repay.
func Repay(ctx context.Context, env *Env, t TokenInfo, spender, owner common.Address, amount, debt *big.Int) (Repayment, error) {
	r := Repayment{Repaid: amount, Pay: amount}
	if amount == nil || amount.Cmp(debt) >= 0 {
		r.All, r.Repaid = true, debt
		r.Pay = new(big.Int).Add(debt, new(big.Int).Quo(debt, big.NewInt(10_000)))
		r.Pay.Add(r.Pay, BigOne)
	}
	bal, err := env.Chain.TokenBalance(ctx, t.Address, owner)
	if err != nil {
		return r, err
	}
	if bal.Cmp(r.Repaid) < 0 {
		return r, fmt.Errorf("the wallet holds %s %s, less than the %s to repay", FormatUnits(bal, t.Decimals), t.Symbol, FormatUnits(r.Repaid, t.Decimals))
	}
	if bal.Cmp(r.Pay) < 0 {
		r.Pay = bal
	}
	r.Approvals, err = SpendApprovals(ctx, env, t.Address, spender, r.Pay)
	return r, err
}
