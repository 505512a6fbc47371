package compound

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Tools are the Compound III tools, registered only where the chain's
// venues name a Comet. A call cannot name another Comet: approvals go
// only to the configured one.
func Tools() []native.Maker {
	return []native.Maker{marketRead, accountRead, supplyBase, withdrawBase, supplyCollateral, withdrawCollateral, borrowBase, repayBase}
}

func configured(env *native.Env) bool { return env.Venues.Comet != (common.Address{}) }

var marketRead = native.ReadTool{
	Name: "compound_get_market",
	Description: "Read the Compound III (Comet) market: its base asset (the one supplied and borrowed) and price, total supplied and borrowed, utilization, " +
		"the supply and borrow APR at that utilization, the minimum borrow, and each collateral asset with its borrow and liquidation collateral factors, liquidation penalty, supply cap and price. " +
		"Use before supplying, posting collateral or borrowing. Does not read any account (compound_get_account).",
	Category: tool.CatLending, Budget: tool.Medium,
	Steps:   []string{"Reading the market", "Reading the collateral assets"},
	Snippet: "compound_get_market reads the Compound III market's rates, utilization and collateral assets.",
	Result: []string{native.RProp("comet", "string", "the Comet"), native.RTokenProp("base_token", "the asset supplied and borrowed"),
		native.RProp("base_price_usd", "string", "the base asset's price"),
		native.RAmountProp("total_supplied", "base supplied"), native.RAmountProp("total_borrowed", "base borrowed"),
		native.RProp("utilization_percent", "string", "borrowed / supplied"), native.RProp("supply_apr_percent", "string", "simple annual"),
		native.RProp("borrow_apr_percent", "string", "simple annual"), native.RAmountProp("min_borrow", "the smallest debt an account may have"),
		`"collateral":{"type":"array","items":{"type":"object","properties":{"asset":` + native.RToken + `,"borrow_collateral_factor_percent":{"type":"string"},` +
			`"liquidate_collateral_factor_percent":{"type":"string"},"liquidation_penalty_percent":{"type":"string"},"supply_cap":` + native.RAmount + `,"price_usd":{"type":"string"}}}}`},
	Action: "lending_reserve", Venue: "compound",
	When: configured,
	Run:  readMarketTool,
}

type collateralOut struct {
	Asset       native.TokenInfo `json:"asset"`
	BorrowCF    string           `json:"borrow_collateral_factor_percent"`
	LiquidateCF string           `json:"liquidate_collateral_factor_percent"`
	Penalty     string           `json:"liquidation_penalty_percent"`
	SupplyCap   native.AmountOut `json:"supply_cap"`
	PriceUSD    string           `json:"price_usd,omitempty"`
}

func readMarketTool(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	in.Step(0)
	m, err := readMarket(ctx, env, env.Venues.Comet)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	coll := []collateralOut{}
	for _, a := range m.assets {
		o := collateralOut{Asset: a.info, BorrowCF: native.WadPercent(a.borrowCF), LiquidateCF: native.WadPercent(a.liquidateCF),
			Penalty: native.WadPercent(new(big.Int).Sub(factorScale, a.liquidationFactor)), SupplyCap: native.AmountOf(a.supplyCap, a.info.Decimals)}
		if a.price != nil {
			o.PriceUSD = formatUSD(a.price)
		}
		coll = append(coll, o)
	}
	out := map[string]any{
		"comet": m.comet.Hex(), "base_token": m.base,
		"total_supplied": native.AmountOf(m.supply, m.base.Decimals), "total_borrowed": native.AmountOf(m.borrow, m.base.Decimals),
		"utilization_percent": native.WadPercent(m.utilization), "supply_apr_percent": apr(m.supplyRate), "borrow_apr_percent": apr(m.borrowRate),
		"min_borrow": native.AmountOf(m.borrowMin, m.base.Decimals), "collateral": coll,
	}
	if m.basePrice != nil {
		out["base_price_usd"] = formatUSD(m.basePrice)
	}
	return out, nil
}

var accountRead = native.ReadTool{
	Name: "compound_get_account",
	Description: "Read an account in the Compound III (Comet) market (default: the agent's wallet): base supplied (earning), base borrowed (interest included), collateral per asset, " +
		"the collateral's value, how much more base it may borrow, its health factor (liquidation-weighted collateral over debt; below 1 is liquidatable, \"infinite\" without debt), " +
		"and Comet's own isBorrowCollateralized and isLiquidatable. Use before borrowing, withdrawing collateral or repaying, and to watch liquidation risk. Does not read market rates (compound_get_market).",
	Category: tool.CatLending, Budget: tool.Medium,
	Steps:   []string{"Reading the market", "Reading the account"},
	Snippet: "compound_get_account reads a Compound III account's supply, debt, collateral and health factor.",
	Params:  []string{native.PAddress("user", "The account (default: the agent's wallet)")},
	Result: []string{native.RProp("user", "string", "the account"),
		native.RAmountProp("supplied", "base supplied"), native.RAmountProp("borrowed", "base owed"),
		`"collateral":{"type":"array","items":{"type":"object","properties":{"asset":` + native.RToken + `,"amount":` + native.RAmount + `}}}`,
		native.RProp("borrow_capacity_usd", "string", "collateral value weighted by the borrow collateral factors"),
		native.RProp("debt_usd", "string", "the debt's value"), native.RAmountProp("borrowable", "base it may still borrow"),
		native.RProp("health_factor", "string", "decimal; below 1 is liquidatable; infinite without debt"),
		native.RProp("borrow_collateralized", "boolean", "Comet's isBorrowCollateralized"), native.RProp("liquidatable", "boolean", "Comet's isLiquidatable"),
		native.RProp("block_number", "integer", "the block every figure was read at")},
	Action: "lending_account", Venue: "compound",
	When: configured,
	Run:  readAccountTool,
}

type collateralAmount struct {
	Asset  native.TokenInfo `json:"asset"`
	Amount native.AmountOut `json:"amount"`
}

func readAccountTool(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	user := a.Whose(env, "user")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	m, err := readMarket(ctx, env, env.Venues.Comet)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	acct, err := readAccount(ctx, env, m, user)
	if err != nil {
		return nil, err
	}
	st, err := m.standingOf(acct, nil, new(big.Int))
	if err != nil {
		return nil, err
	}
	coll := []collateralAmount{}
	for _, as := range m.assets {
		if amt := acct.collateral[as.info.Address]; amt.Sign() > 0 {
			coll = append(coll, collateralAmount{Asset: as.info, Amount: native.AmountOf(amt, as.info.Decimals)})
		}
	}
	collateralized, err := call(ctx, env, m.comet, "isBorrowCollateralized", user)
	if err != nil {
		return nil, err
	}
	liquidatable, err := call(ctx, env, m.comet, "isLiquidatable", user)
	if err != nil {
		return nil, err
	}
	borrowable := new(big.Int)
	if room := new(big.Int).Sub(st.borrowCapacity, st.debtValue); room.Sign() > 0 && m.basePrice != nil {
		borrowable = native.MulDiv(room, native.Pow10(int(m.base.Decimals)), m.basePrice)
	}
	return map[string]any{
		"user": user.Hex(), "comet": m.comet.Hex(),
		"supplied": native.AmountOf(acct.supplied, m.base.Decimals), "borrowed": native.AmountOf(acct.borrowed, m.base.Decimals),
		"collateral": coll, "borrow_capacity_usd": formatUSD(st.borrowCapacity), "debt_usd": formatUSD(st.debtValue),
		"borrowable": native.AmountOf(borrowable, m.base.Decimals), "health_factor": native.FormatHealth(st.health()),
		"borrow_collateralized": collateralized[0].(bool), "liquidatable": liquidatable[0].(bool),
		"block_number": native.Block(ctx, env),
	}, nil
}

// ---- writes ----

// start is what every Comet planner reads first.
type start struct {
	owner  common.Address
	m      market
	acct   account
	amount *big.Int // nil for "max"
}

// begin returns the prologue of a Comet planner: the amount (which may
// be "max" with orMax), the wallet, the market and the wallet's account.
func begin(orMax bool) func(context.Context, *native.Env, *registry.Input) (start, error) {
	return func(ctx context.Context, env *native.Env, in *registry.Input) (start, error) {
		var s start
		a := native.ArgsOf(in)
		s.amount = a.Spent("amount", orMax)
		s.owner = a.Wallet(env)
		if err := a.Err(); err != nil {
			return s, err
		}
		in.Step(0)
		var err error
		if s.m, err = readMarket(ctx, env, env.Venues.Comet); err != nil {
			return s, err
		}
		if s.acct, err = readAccount(ctx, env, s.m, s.owner); err != nil {
			return s, err
		}
		return s, nil
	}
}

// collateralArg reads the asset argument, which must be one of the
// market's collateral assets.
func (s start) collateralArg(in *registry.Input) (asset, error) {
	a := native.ArgsOf(in)
	addr := a.Address("asset")
	if err := a.Err(); err != nil {
		return asset{}, err
	}
	as, ok := s.m.asset(addr)
	if !ok {
		if addr == s.m.base.Address {
			return asset{}, fmt.Errorf("%s is this Comet's base asset, not collateral: use the compound_ base tools", s.m.base.Symbol)
		}
		return asset{}, fmt.Errorf("%s is not a collateral asset of the Comet %s (see compound_get_market)", addr.Hex(), s.m.comet.Hex())
	}
	return as, nil
}

func (s start) tx(label, method string, args ...any) (tool.Tx, error) {
	return native.Tx(chain.CometABI(), s.m.comet, label, method, args...)
}

// Where is what a plan's summary says of the market.
func (s start) Where() string {
	return fmt.Sprintf(" on the Compound III %s market %s", s.m.base.Symbol, s.m.comet.Hex())
}

// healthChange is the account's health factor now and after a change;
// ok is false when the change would leave it unable to borrow what it
// owes (not collateralized). It fails when a price cannot be read.
func (s start) healthChange(collDelta map[common.Address]*big.Int, debtDelta *big.Int) (before, after *big.Int, ok bool, st standing, err error) {
	now, err := s.m.standingOf(s.acct, nil, new(big.Int))
	if err != nil {
		return nil, nil, false, st, err
	}
	st, err = s.m.standingOf(s.acct, collDelta, debtDelta)
	if err != nil {
		return nil, nil, false, st, err
	}
	return now.health(), st.health(), st.collateralized(), st, nil
}

var (
	pAsset  = native.PAddress("asset", "The collateral asset (one of compound_get_market's collateral)")
	pClaims = native.PClaims("token", "the token this call moves")
)

var supplyBase = native.WriteTool{
	Name: "compound_supply_base",
	Description: "Supply the Compound III market's base asset (e.g. USDC) from the agent's wallet to earn the supply rate (Comet.supply). " +
		"Refused while the account has base debt: supplying would repay it, so use compound_repay_base for that. The plan adds an exact approve of the Comet when needed. " +
		"Use to lend the base asset. Does not post collateral (compound_supply_collateral).",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the market and account", "Checking balance and allowance", "Sending approve and supply", "Confirming"},
	Snippet:  "compound_supply_base lends the Compound III market's base asset.",
	Required: []string{"amount"},
	Params:   []string{native.PAmount("amount", "Amount of the base asset to supply"), pClaims},
	Action:   "supply", Venue: "compound",
	When: configured,
	Plan: native.LendingPlanner(begin(false), func(_ context.Context, _ *native.Env, in *registry.Input, s start) (native.Lending, error) {
		in.Step(1)
		if s.acct.borrowed.Sign() > 0 {
			return native.Lending{}, fmt.Errorf("the account owes %s: supplying would repay that debt first; use compound_repay_base", s.m.base.Format(s.acct.borrowed))
		}
		t, err := s.tx("supply", "supply", s.m.base.Address, s.amount)
		if err != nil {
			return native.Lending{}, err
		}
		return native.Lending{Txs: []tool.Tx{t}, Token: s.m.base, Pay: s.m.comet, Claim: s.amount, Summary: "supply " + s.m.base.Format(s.amount)}, nil
	}),
}

var withdrawBase = native.WriteTool{
	Name: "compound_withdraw_base",
	Description: "Withdraw supplied base asset from the Compound III market to the agent's wallet (Comet.withdraw); \"max\" withdraws the whole supplied balance, interest included. " +
		"It does not borrow: the plan refuses more than the supplied balance (borrowing is compound_borrow_base) and more than the Comet holds. Use to stop lending. Does not withdraw collateral (compound_withdraw_collateral).",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market and account", "Checking the supplied balance", "Sending withdraw", "Confirming"},
	Snippet:  "compound_withdraw_base takes supplied base asset back from Compound III, never into debt.",
	Required: []string{"amount"},
	Params:   []string{native.PAmountMax("amount", "Amount of the base asset to withdraw"), pClaims},
	Action:   "withdraw", Venue: "compound",
	When: configured,
	Plan: native.LendingPlanner(begin(true), func(ctx context.Context, env *native.Env, in *registry.Input, s start) (native.Lending, error) {
		in.Step(1)
		if s.acct.supplied.Sign() == 0 {
			return native.Lending{}, fmt.Errorf("the account has no %s supplied", s.m.base.Symbol)
		}
		amount, onChain := s.amount, s.amount
		if amount == nil {
			// type(uint256).max withdraws the balance as it stands at
			// execution, never more: it cannot open a borrow.
			amount, onChain = s.acct.supplied, new(big.Int).Set(native.MaxUint256)
		} else if amount.Cmp(s.acct.supplied) > 0 {
			return native.Lending{}, fmt.Errorf("the account has %s supplied, less than %s; borrowing is compound_borrow_base",
				s.m.base.Format(s.acct.supplied), native.FormatUnits(amount, s.m.base.Decimals))
		}
		if err := s.needReserves(ctx, env, amount); err != nil {
			return native.Lending{}, err
		}
		t, err := s.tx("withdraw", "withdraw", s.m.base.Address, onChain)
		if err != nil {
			return native.Lending{}, err
		}
		return native.Lending{Txs: []tool.Tx{t}, Token: s.m.base, Claim: amount, Summary: "withdraw " + s.m.base.Format(amount)}, nil
	}),
}

// needReserves refuses to take out more base than the Comet holds.
func (s start) needReserves(ctx context.Context, env *native.Env, amount *big.Int) error {
	held, err := env.Chain.TokenBalance(ctx, s.m.base.Address, s.m.comet)
	if err != nil {
		return err
	}
	if held.Cmp(amount) < 0 {
		return fmt.Errorf("the Comet holds only %s", s.m.base.Format(held))
	}
	return nil
}

var supplyCollateral = native.WriteTool{
	Name: "compound_supply_collateral",
	Description: "Post a collateral asset (e.g. WETH) from the agent's wallet to the Compound III market (Comet.supply of a collateral asset) so the account can borrow the base asset. " +
		"Collateral earns nothing. The plan refuses an asset the market does not list or a supply over its cap, adds an exact approve when needed and reports the health factor after. Use before compound_borrow_base.",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the market and account", "Checking the asset, cap, balance and allowance", "Sending approve and supply", "Confirming"},
	Snippet:  "compound_supply_collateral posts collateral in Compound III.",
	Required: []string{"asset", "amount"},
	Params:   []string{pAsset, native.PAmount("amount", "Amount of the collateral to post"), pClaims},
	Action:   "supply_collateral", Venue: "compound",
	When: configured,
	Plan: native.LendingPlanner(begin(false), func(ctx context.Context, env *native.Env, in *registry.Input, s start) (native.Lending, error) {
		as, err := s.collateralArg(in)
		if err != nil {
			return native.Lending{}, err
		}
		in.Step(1)
		v, err := call(ctx, env, s.m.comet, "totalsCollateral", as.info.Address)
		if err != nil {
			return native.Lending{}, err
		}
		if total := new(big.Int).Add(v[0].(*big.Int), s.amount); total.Cmp(as.supplyCap) > 0 {
			return native.Lending{}, fmt.Errorf("the Comet's %s supply cap is %s and %s is already posted", as.info.Symbol,
				native.FormatUnits(as.supplyCap, as.info.Decimals), native.FormatUnits(v[0].(*big.Int), as.info.Decimals))
		}
		t, err := s.tx("supply collateral", "supply", as.info.Address, s.amount)
		if err != nil {
			return native.Lending{}, err
		}
		// More collateral never lowers health: an unreadable price only
		// leaves the health factor out of the summary.
		before, after, _, _, herr := s.healthChange(map[common.Address]*big.Int{as.info.Address: s.amount}, new(big.Int))
		return native.Lending{Txs: []tool.Tx{t}, Token: as.info, Pay: s.m.comet, Claim: s.amount,
			Summary: "post " + as.info.Format(s.amount) + " as collateral"}.Health(before, after, herr), nil
	}),
}

var withdrawCollateral = native.WriteTool{
	Name: "compound_withdraw_collateral",
	Description: "Take a collateral asset back from the Compound III market to the agent's wallet (Comet.withdraw of a collateral asset); \"max\" withdraws all of it. " +
		"The plan values the account with Comet's price feeds and borrow collateral factors and refuses a withdrawal that would leave the debt above the borrowing capacity (Comet would revert NotCollateralized), " +
		"or any withdrawal with debt when a price cannot be read. Repay first (compound_repay_base) to free more.",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market and account", "Checking collateralization after", "Sending withdraw", "Confirming"},
	Snippet:  "compound_withdraw_collateral takes Compound III collateral back if the account stays collateralized.",
	Required: []string{"asset", "amount"},
	Params:   []string{pAsset, native.PAmountMax("amount", "Amount of the collateral to withdraw"), pClaims},
	Action:   "withdraw_collateral", Venue: "compound",
	When:    configured,
	Plan:    planWithdrawCollateral,
	Recheck: native.Replan(planWithdrawCollateral),
}

// planWithdrawCollateral plans compound_withdraw_collateral.
var planWithdrawCollateral = native.LendingPlanner(begin(true), func(_ context.Context, _ *native.Env, in *registry.Input, s start) (native.Lending, error) {
	as, err := s.collateralArg(in)
	if err != nil {
		return native.Lending{}, err
	}
	in.Step(1)
	held := s.acct.collateral[as.info.Address]
	if held.Sign() == 0 {
		return native.Lending{}, fmt.Errorf("the account has no %s collateral", as.info.Symbol)
	}
	amount := s.amount
	if amount == nil {
		amount = held
	} else if amount.Cmp(held) > 0 {
		return native.Lending{}, fmt.Errorf("the account has %s of collateral, less than %s", as.info.Format(held), native.FormatUnits(amount, as.info.Decimals))
	}
	before, after, ok, _, err := s.healthChange(map[common.Address]*big.Int{as.info.Address: new(big.Int).Neg(amount)}, new(big.Int))
	if err != nil {
		return native.Lending{}, err
	}
	if !ok {
		return native.Lending{}, fmt.Errorf("withdrawing %s would leave the debt above what the remaining collateral may borrow (health factor %s -> %s); repay first",
			as.info.Format(amount), native.FormatHealth(before), native.FormatHealth(after))
	}
	t, err := s.tx("withdraw collateral", "withdraw", as.info.Address, amount)
	if err != nil {
		return native.Lending{}, err
	}
	return native.Lending{Txs: []tool.Tx{t}, Token: as.info, Claim: amount,
		Summary: "withdraw " + as.info.Format(amount) + " of collateral"}.Health(before, after, nil), nil
})

var borrowBase = native.WriteTool{
	Name: "compound_borrow_base",
	Description: "Borrow the Compound III market's base asset against the account's collateral (Comet.withdraw of the base asset beyond the supplied balance; any supplied balance is withdrawn first). " +
		"This is leverage: the plan values the account with Comet's price feeds and borrow collateral factors and refuses a borrow it could not collateralize, one below the market's minimum borrow, " +
		"more than the Comet holds, or any borrow when a price cannot be read; it reports the health factor after. Check compound_get_account first.",
	Category: tool.CatLending, Risk: tool.Layer3, Effect: tool.EffectOpen,
	Steps:      []string{"Reading the market and account", "Checking collateralization and the minimum borrow", "Sending withdraw", "Confirming"},
	Snippet:    "compound_borrow_base borrows the Compound III base asset against collateral (leverage).",
	Guidelines: []string{"Keep the health factor well above 1 (1.5 or more): prices move and Comet absorbs liquidatable accounts whole."},
	Required:   []string{"amount"},
	Params:     []string{native.PAmount("amount", "Amount of the base asset to receive"), pClaims},
	Action:     "borrow", Venue: "compound",
	When:    configured,
	Plan:    planBorrow,
	Recheck: native.Replan(planBorrow),
}

// planBorrow plans compound_borrow_base.
var planBorrow = native.LendingPlanner(begin(false), func(ctx context.Context, env *native.Env, in *registry.Input, s start) (native.Lending, error) {
	in.Step(1)
	newDebt := new(big.Int).Sub(s.amount, s.acct.supplied)
	if newDebt.Sign() <= 0 {
		return native.Lending{}, fmt.Errorf("the account has %s supplied, enough to cover this without borrowing: use compound_withdraw_base", s.m.base.Format(s.acct.supplied))
	}
	if total := new(big.Int).Add(s.acct.borrowed, newDebt); total.Cmp(s.m.borrowMin) < 0 {
		return native.Lending{}, fmt.Errorf("the Comet's minimum borrow is %s (BorrowTooSmall)", s.m.base.Format(s.m.borrowMin))
	}
	before, after, ok, st, err := s.healthChange(nil, newDebt)
	if err != nil {
		return native.Lending{}, err
	}
	if !ok {
		most := new(big.Int)
		if room := new(big.Int).Sub(st.borrowCapacity, native.MulDiv(s.acct.borrowed, s.m.basePrice, native.Pow10(int(s.m.base.Decimals)))); room.Sign() > 0 {
			most = native.SlippageMin(native.MulDiv(room, native.Pow10(int(s.m.base.Decimals)), s.m.basePrice), 10)
		}
		return native.Lending{}, fmt.Errorf("borrowing %s is more than the collateral may borrow (health factor %s -> %s, Comet would revert NotCollateralized); it can borrow at most about %s",
			s.m.base.Format(newDebt), native.FormatHealth(before), native.FormatHealth(after), s.m.base.Format(most))
	}
	if err := s.needReserves(ctx, env, s.amount); err != nil {
		return native.Lending{}, err
	}
	t, err := s.tx("borrow", "withdraw", s.m.base.Address, s.amount)
	if err != nil {
		return native.Lending{}, err
	}
	return native.Lending{Txs: []tool.Tx{t}, Token: s.m.base, Claim: s.amount,
		Summary: "borrow " + s.m.base.Format(newDebt)}.Health(before, after, nil), nil
})

var repayBase = native.WriteTool{
	Name: "compound_repay_base",
	Description: "Repay the account's base-asset debt in the Compound III market from the agent's wallet (Comet.supply of the base asset); \"max\" (or an amount at or above the debt) repays all of it " +
		"with type(uint256).max, which repays exactly the debt at execution, the approve carrying a 0.01% margin for interest accruing until then. " +
		"Never supplies beyond the debt. Use to reduce leverage or before withdrawing collateral. Does not repay on behalf of another account.",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market and debt", "Checking balance and allowance", "Sending approve and supply", "Confirming"},
	Snippet:  "compound_repay_base repays Compound III debt from the wallet.",
	Required: []string{"amount"},
	Params:   []string{native.PAmountMax("amount", "Amount of debt to repay in the base asset"), pClaims},
	Action:   "repay", Venue: "compound",
	When: configured,
	Plan: native.LendingPlanner(begin(true), func(ctx context.Context, env *native.Env, in *registry.Input, s start) (native.Lending, error) {
		in.Step(1)
		debt := s.acct.borrowed
		if debt.Sign() == 0 {
			return native.Lending{}, fmt.Errorf("the account owes no %s", s.m.base.Symbol)
		}
		r, err := native.Repay(ctx, env, s.m.base, s.m.comet, s.owner, s.amount, debt)
		if err != nil {
			return native.Lending{}, err
		}
		onChain := r.Repaid
		if r.All {
			onChain = new(big.Int).Set(native.MaxUint256)
		}
		t, err := s.tx("repay", "supply", s.m.base.Address, onChain)
		if err != nil {
			return native.Lending{}, err
		}
		before, after, _, _, herr := s.healthChange(nil, new(big.Int).Neg(r.Repaid))
		return r.Lending(s.m.base, t).Health(before, after, herr), nil
	}),
}
