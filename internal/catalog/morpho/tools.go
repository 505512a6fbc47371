package morpho

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"regexp"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// Tools are the Morpho Blue tools, registered only where the chain's
// venues name a Morpho Blue contract.
func Tools() []native.Maker {
	return []native.Maker{marketRead, positionRead, marketIDRead, supply, withdraw, supplyCollateral, withdrawCollateral, borrow, repay}
}

func configured(env *native.Env) bool { return env.Venues.MorphoBlue != (common.Address{}) }

var (
	pMarketID = `"market_id":{"type":"string","pattern":"^0x[0-9a-fA-F]{64}$","description":"The Morpho Blue market id: keccak256 of the market's parameters (0x-prefixed 32 bytes; see morpho_get_market_id)"}`
	marketIDs = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
)

// argMarket reads the market_id argument.
func argMarket(in *registry.Input) (common.Hash, error) {
	s := native.ArgString(in, "market_id", "")
	if !marketIDs.MatchString(s) {
		return common.Hash{}, errors.New("market_id: want a 0x-prefixed 32-byte hex market id")
	}
	return common.HexToHash(s), nil
}

var marketRead = native.ReadTool{
	Name: "morpho_get_market",
	Description: "Read a Morpho Blue market by id: its loan and collateral tokens, oracle, interest rate model and LLTV (the loan-to-value at which positions become liquidatable), " +
		"total supplied and borrowed (interest accrued to the latest block), liquidity left to borrow or withdraw, utilization, the borrow and supply APR, " +
		"and the oracle's collateral price in loan tokens. Use before lending to or borrowing from a market; a market's oracle decides every position's health. Does not read any account (morpho_get_position).",
	Category: tool.CatLending, Budget: tool.Medium,
	Steps:    []string{"Reading the market", "Reading the oracle"},
	Snippet:  "morpho_get_market reads a Morpho Blue market's parameters, totals, liquidity, rates and oracle price.",
	Required: []string{"market_id"}, Params: []string{pMarketID},
	Result: []string{native.RProp("market_id", "string", "the market id"),
		native.RTokenProp("loan_token", "what is lent and borrowed"), native.RTokenProp("collateral_token", "what secures borrows"),
		native.RProp("oracle", "string", "the price oracle"), native.RProp("irm", "string", "the interest rate model (zero: no interest)"),
		native.RProp("lltv_percent", "string", "liquidation loan-to-value"),
		native.RAmountProp("total_supplied", "loan token supplied"), native.RAmountProp("total_borrowed", "loan token borrowed"),
		native.RAmountProp("liquidity", "loan token available to borrow or withdraw"),
		native.RProp("utilization_percent", "string", "borrowed / supplied"), native.RProp("borrow_apr_percent", "string", "current borrow rate, simple annual"),
		native.RProp("supply_apr_percent", "string", "current supply rate, simple annual, after the fee"),
		native.RProp("collateral_price", "string", "loan tokens per whole collateral token, from the oracle"),
		native.RProp("oracle_error", "string", "why the oracle could not be read, when it could not")},
	Action: "lending_market", Venue: "morpho",
	When: configured,
	Run:  readMarketTool,
}

func readMarketTool(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	id, err := argMarket(in)
	if err != nil {
		return nil, err
	}
	in.Step(0)
	m, err := readMarket(ctx, env, env.Venues.MorphoBlue, id)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	out := map[string]any{
		"market_id": id.Hex(), "morpho": env.Venues.MorphoBlue.Hex(), "loan_token": m.loan, "collateral_token": m.collateral,
		"oracle": m.params.Oracle.Hex(), "irm": m.params.Irm.Hex(), "lltv_percent": native.WadPercent(m.params.Lltv),
		"total_supplied": native.AmountOf(m.supplyAssets, m.loan.Decimals), "total_borrowed": native.AmountOf(m.borrowAssets, m.loan.Decimals),
		"liquidity": native.AmountOf(m.liquidity(), m.loan.Decimals), "utilization_percent": native.WadPercent(m.utilization()),
		"borrow_apr_percent": native.WadPercent(m.borrowAPR()), "supply_apr_percent": native.WadPercent(m.supplyAPR()),
	}
	if p, err := m.price(ctx, env); err == nil {
		out["collateral_price"] = m.collateralPrice(p)
	} else {
		out["oracle_error"] = "the oracle reverted or reported 0"
	}
	return out, nil
}

var positionRead = native.ReadTool{
	Name: "morpho_get_position",
	Description: "Read an account's position in a Morpho Blue market (default: the agent's wallet): loan token supplied, borrowed (interest included), collateral, " +
		"how much more it may borrow, its health factor (borrowing capacity at the market's LLTV over debt; below 1 is liquidatable, \"infinite\" without debt), " +
		"its current loan-to-value and the collateral price at which it becomes liquidatable. Use before borrowing, withdrawing collateral or repaying, and to watch liquidation risk. Does not read the market's rates (morpho_get_market).",
	Category: tool.CatLending, Budget: tool.Medium,
	Steps:    []string{"Reading the market", "Reading the position and oracle"},
	Snippet:  "morpho_get_position reads a Morpho Blue position's supply, debt, collateral and health factor.",
	Required: []string{"market_id"},
	Params:   []string{pMarketID, native.PAddress("user", "The account (default: the agent's wallet)")},
	Result: []string{native.RProp("user", "string", "the account"),
		native.RAmountProp("supplied", "loan token supplied"), native.RAmountProp("borrowed", "loan token owed"),
		native.RAmountProp("collateral", "collateral token posted"), native.RAmountProp("borrowable", "loan token it may still borrow"),
		native.RProp("health_factor", "string", "decimal; below 1 is liquidatable; infinite without debt"),
		native.RProp("ltv_percent", "string", "debt / collateral value"), native.RProp("lltv_percent", "string", "the market's liquidation LTV"),
		native.RProp("liquidation_price", "string", "collateral price (loan tokens per whole collateral token) at which the position becomes liquidatable"),
		native.RProp("liquidatable", "boolean", "health factor below 1"), native.RProp("block_number", "integer", "the block every figure was read at")},
	Action: "lending_account", Venue: "morpho",
	When: configured,
	Run:  readPositionTool,
}

func readPositionTool(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	id, err := argMarket(in)
	if err != nil {
		return nil, err
	}
	a := native.ArgsOf(in)
	user := a.Whose(env, "user")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	m, err := readMarket(ctx, env, env.Venues.MorphoBlue, id)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	p, err := readPosition(ctx, env, env.Venues.MorphoBlue, id, user)
	if err != nil {
		return nil, err
	}
	price, err := m.price(ctx, env)
	if err != nil {
		return nil, err
	}
	borrowed, capacity := m.borrowed(p), m.maxBorrow(p.collateral, price)
	borrowable := new(big.Int).Sub(capacity, borrowed)
	if borrowable.Sign() < 0 {
		borrowable.SetInt64(0)
	}
	out := map[string]any{
		"user": user.Hex(), "market_id": id.Hex(),
		"supplied": native.AmountOf(m.supplied(p), m.loan.Decimals), "borrowed": native.AmountOf(borrowed, m.loan.Decimals),
		"collateral": native.AmountOf(p.collateral, m.collateral.Decimals), "borrowable": native.AmountOf(borrowable, m.loan.Decimals),
		"health_factor": native.FormatHealth(health(capacity, borrowed)), "lltv_percent": native.WadPercent(m.params.Lltv),
		"liquidatable": borrowed.Cmp(capacity) > 0, "ltv_percent": "0", "block_number": native.Block(ctx, env),
	}
	if value := native.MulDiv(p.collateral, price, oracleScale); value.Sign() > 0 {
		out["ltv_percent"] = native.WadPercent(mulDivUp(borrowed, wad, value))
	}
	if borrowed.Sign() > 0 && p.collateral.Sign() > 0 {
		// The price at which collateral * price / 1e36 * lltv equals the debt.
		liq := mulDivUp(mulDivUp(borrowed, wad, m.params.Lltv), oracleScale, p.collateral)
		out["liquidation_price"] = m.collateralPrice(liq)
	}
	return out, nil
}

var marketIDRead = native.ReadTool{
	Name: "morpho_get_market_id",
	Description: "Compute a Morpho Blue market id from its parameters (keccak256 of loan token, collateral token, oracle, IRM and LLTV) and say whether that market exists on the chain's Morpho Blue. " +
		"Use to find the id the other morpho_ tools take; two markets with the same tokens but another oracle or LLTV are different markets with different risks. Does not create a market.",
	Category: tool.CatLending, Budget: tool.Fast,
	Steps:    []string{"Computing the id"},
	Snippet:  "morpho_get_market_id computes a Morpho Blue market id from its parameters.",
	Required: []string{"loan_token", "collateral_token", "oracle", "irm", "lltv"},
	Params: []string{native.PAddress("loan_token", "The token lent and borrowed"), native.PAddress("collateral_token", "The collateral token"),
		native.PAddress("oracle", "The market's oracle"), native.PAddress("irm", "The market's interest rate model (the zero address for none)"),
		native.PAmount("lltv", "The liquidation LTV scaled by 1e18, e.g. 860000000000000000 for 86%")},
	Result: []string{native.RProp("market_id", "string", "the market id"), native.RProp("created", "boolean", "whether the market exists")},
	Action: "lending_market_id", Venue: "morpho",
	When: configured,
	Run: func(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
		a := native.ArgsOf(in)
		p := chain.MorphoMarketParams{LoanToken: a.Address("loan_token"), CollateralToken: a.Address("collateral_token"),
			Oracle: a.Address("oracle"), Irm: a.Address("irm"), Lltv: a.Positive("lltv")}
		if err := a.Err(); err != nil {
			return nil, err
		}
		if p.Lltv.Cmp(wad) >= 0 {
			return nil, errors.New("lltv must be below 1e18 (100%)")
		}
		in.Step(0)
		id := chain.MorphoMarketID(p)
		v, err := native.Call(ctx, env.Chain, chain.MorphoBlueABI(), env.Venues.MorphoBlue, "market", id)
		if err != nil {
			return nil, err
		}
		return map[string]any{"market_id": id.Hex(), "created": v[4].(*big.Int).Sign() > 0}, nil
	},
}

// ---- writes ----

// start is what every Morpho planner reads first: the market, the
// wallet's position in it, and the amount argument (nil for "max" when
// orMax).
type start struct {
	morpho, owner common.Address
	m             market
	pos           position
	amount        *big.Int
}

// begin returns the prologue of a Morpho planner: the market id, the
// amount (which may be "max" with orMax), the wallet, the market and the
// wallet's position in it.
func begin(orMax bool) func(context.Context, *native.Env, *registry.Input) (start, error) {
	return func(ctx context.Context, env *native.Env, in *registry.Input) (start, error) {
		var s start
		id, err := argMarket(in)
		if err != nil {
			return s, err
		}
		a := native.ArgsOf(in)
		s.amount = a.Spent("amount", orMax)
		s.owner = a.Wallet(env)
		if err := a.Err(); err != nil {
			return s, err
		}
		s.morpho = env.Venues.MorphoBlue
		in.Step(0)
		if s.m, err = readMarket(ctx, env, s.morpho, id); err != nil {
			return s, err
		}
		if s.pos, err = readPosition(ctx, env, s.morpho, id, s.owner); err != nil {
			return s, err
		}
		return s, nil
	}
}

// healthAfter is the position's health factor now and after its
// collateral and debt change by the given deltas. It fails when the
// oracle cannot be read.
func (s start) healthAfter(ctx context.Context, env *native.Env, collDelta, debtDelta *big.Int) (now, after *big.Int, capacity, debt *big.Int, err error) {
	price, err := s.m.price(ctx, env)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	borrowed := s.m.borrowed(s.pos)
	now = health(s.m.maxBorrow(s.pos.collateral, price), borrowed)
	coll := new(big.Int).Add(s.pos.collateral, collDelta)
	debt = new(big.Int).Add(borrowed, debtDelta)
	if debt.Sign() < 0 {
		debt.SetInt64(0)
	}
	capacity = s.m.maxBorrow(coll, price)
	return now, health(capacity, debt), capacity, debt, nil
}

// Where is what a plan's summary says of the market.
func (s start) Where() string {
	return fmt.Sprintf(" in Morpho Blue market %s (%s/%s, LLTV %s%%)", s.m.id.Hex(), s.m.collateral.Symbol, s.m.loan.Symbol, native.WadPercent(s.m.params.Lltv))
}

func txOf(s start, label, method string, args ...any) (tool.Tx, error) {
	return native.Tx(chain.MorphoBlueABI(), s.morpho, label, method, append([]any{s.m.params}, args...)...)
}

var pClaims = native.PClaims("token", "the market's token this call moves")

var supply = native.WriteTool{
	Name: "morpho_supply_market",
	Description: "Lend the loan token of a Morpho Blue market from the agent's wallet (Morpho.supply by assets, on behalf of the wallet): it earns the market's supply rate and can be borrowed by others. " +
		"The plan adds an exact approve of Morpho when the allowance is short. Supplied loan tokens are not collateral and carry the market's risk (its oracle and LLTV decide whether borrowers can leave bad debt); " +
		"read morpho_get_market first. Does not post collateral (morpho_supply_collateral).",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the market", "Checking balance and allowance", "Sending approve and supply", "Confirming"},
	Snippet:  "morpho_supply_market lends a Morpho Blue market's loan token.",
	Required: []string{"market_id", "amount"},
	Params:   []string{pMarketID, native.PAmount("amount", "Amount of the loan token to supply"), pClaims},
	Action:   "supply", Venue: "morpho",
	When: configured,
	Plan: native.LendingPlanner(begin(false), func(_ context.Context, _ *native.Env, in *registry.Input, s start) (native.Lending, error) {
		in.Step(1)
		t, err := txOf(s, "supply", "supply", s.amount, new(big.Int), s.owner, []byte{})
		if err != nil {
			return native.Lending{}, err
		}
		return native.Lending{Txs: []tool.Tx{t}, Token: s.m.loan, Pay: s.morpho, Claim: s.amount, Summary: "supply " + s.m.loan.Format(s.amount)}, nil
	}),
}

var withdraw = native.WriteTool{
	Name: "morpho_withdraw_market",
	Description: "Withdraw supplied loan tokens from a Morpho Blue market to the agent's wallet (Morpho.withdraw); \"max\" withdraws the whole supply by shares, interest included. " +
		"The plan refuses more than the wallet has supplied or than the market's liquidity (what is not borrowed). Use to stop lending. Does not withdraw collateral (morpho_withdraw_collateral).",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market and position", "Checking supply and liquidity", "Sending withdraw", "Confirming"},
	Snippet:  "morpho_withdraw_market takes supplied loan tokens back from a Morpho Blue market.",
	Required: []string{"market_id", "amount"},
	Params:   []string{pMarketID, native.PAmountMax("amount", "Amount of the loan token to withdraw"), pClaims},
	Action:   "withdraw", Venue: "morpho",
	When: configured,
	Plan: native.LendingPlanner(begin(true), func(_ context.Context, _ *native.Env, in *registry.Input, s start) (native.Lending, error) {
		in.Step(1)
		supplied := s.m.supplied(s.pos)
		if supplied.Sign() == 0 {
			return native.Lending{}, fmt.Errorf("the wallet has no %s supplied to this market", s.m.loan.Symbol)
		}
		amount, assets, shares := s.amount, s.amount, new(big.Int)
		if amount == nil {
			assets, shares, amount = new(big.Int), s.pos.supplyShares, supplied
		} else if amount.Cmp(supplied) > 0 {
			return native.Lending{}, fmt.Errorf("the wallet has %s supplied to this market, less than %s", s.m.loan.Format(supplied), native.FormatUnits(amount, s.m.loan.Decimals))
		}
		if liq := s.m.liquidity(); amount.Cmp(liq) > 0 {
			return native.Lending{}, fmt.Errorf("the market has only %s of liquidity (the rest is borrowed); withdraw at most that", s.m.loan.Format(liq))
		}
		t, err := txOf(s, "withdraw", "withdraw", assets, shares, s.owner, s.owner)
		if err != nil {
			return native.Lending{}, err
		}
		return native.Lending{Txs: []tool.Tx{t}, Token: s.m.loan, Claim: amount, Summary: "withdraw " + s.m.loan.Format(amount)}, nil
	}),
}

var supplyCollateral = native.WriteTool{
	Name: "morpho_supply_collateral",
	Description: "Post the collateral token of a Morpho Blue market from the agent's wallet (Morpho.supplyCollateral on behalf of the wallet) so the position can borrow the loan token up to the market's LLTV. " +
		"Collateral earns nothing. The plan adds an exact approve of Morpho when needed and reports the health factor after. Use before morpho_borrow_asset. Does not borrow.",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the market and position", "Checking balance and allowance", "Sending approve and supplyCollateral", "Confirming"},
	Snippet:  "morpho_supply_collateral posts collateral in a Morpho Blue market.",
	Required: []string{"market_id", "amount"},
	Params:   []string{pMarketID, native.PAmount("amount", "Amount of the collateral token to post"), pClaims},
	Action:   "supply_collateral", Venue: "morpho",
	When: configured,
	Plan: native.LendingPlanner(begin(false), func(ctx context.Context, env *native.Env, in *registry.Input, s start) (native.Lending, error) {
		in.Step(1)
		t, err := txOf(s, "supply collateral", "supplyCollateral", s.amount, s.owner, []byte{})
		if err != nil {
			return native.Lending{}, err
		}
		// Posting collateral never lowers health: an unreadable oracle
		// only leaves the health factor out of the summary.
		now, after, _, _, herr := s.healthAfter(ctx, env, s.amount, new(big.Int))
		return native.Lending{Txs: []tool.Tx{t}, Token: s.m.collateral, Pay: s.morpho, Claim: s.amount,
			Summary: "post " + s.m.collateral.Format(s.amount) + " as collateral"}.Health(now, after, herr), nil
	}),
}

var withdrawCollateral = native.WriteTool{
	Name: "morpho_withdraw_collateral",
	Description: "Take collateral back from a Morpho Blue position to the agent's wallet (Morpho.withdrawCollateral); \"max\" withdraws all of it. " +
		"The plan predicts the health factor from the market's oracle and LLTV and refuses a withdrawal that would leave the debt above the borrowing capacity, saying how much can be withdrawn; " +
		"it refuses too when the oracle cannot be read. Repay first (morpho_repay_debt) to free more. Does not repay.",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market and position", "Predicting the health factor", "Sending withdrawCollateral", "Confirming"},
	Snippet:  "morpho_withdraw_collateral takes Morpho Blue collateral back if the position stays healthy.",
	Required: []string{"market_id", "amount"},
	Params:   []string{pMarketID, native.PAmountMax("amount", "Amount of the collateral token to withdraw"), pClaims},
	Action:   "withdraw_collateral", Venue: "morpho",
	When:    configured,
	Plan:    planWithdrawCollateral,
	Recheck: native.Replan(planWithdrawCollateral),
}

// planWithdrawCollateral plans morpho_withdraw_collateral.
var planWithdrawCollateral = native.LendingPlanner(begin(true), func(ctx context.Context, env *native.Env, in *registry.Input, s start) (native.Lending, error) {
	in.Step(1)
	amount := s.amount
	if amount == nil {
		amount = s.pos.collateral
	}
	if s.pos.collateral.Sign() == 0 {
		return native.Lending{}, fmt.Errorf("the wallet has no %s collateral in this market", s.m.collateral.Symbol)
	}
	if amount.Cmp(s.pos.collateral) > 0 {
		return native.Lending{}, fmt.Errorf("the wallet has %s of collateral in this market, less than %s", s.m.collateral.Format(s.pos.collateral), native.FormatUnits(amount, s.m.collateral.Decimals))
	}
	now, after, capacity, debt, err := s.healthAfter(ctx, env, new(big.Int).Neg(amount), new(big.Int))
	if err != nil {
		return native.Lending{}, err
	}
	if debt.Cmp(capacity) > 0 {
		return native.Lending{}, fmt.Errorf("withdrawing %s would leave the position unhealthy (health factor %s -> %s, below 1: liquidatable); withdraw at most about %s or repay first",
			s.m.collateral.Format(amount), native.FormatHealth(now), native.FormatHealth(after), s.m.collateral.Format(s.safeCollateralWithdraw(ctx, env)))
	}
	t, err := txOf(s, "withdraw collateral", "withdrawCollateral", amount, s.owner, s.owner)
	if err != nil {
		return native.Lending{}, err
	}
	return native.Lending{Txs: []tool.Tx{t}, Token: s.m.collateral, Claim: amount,
		Summary: "withdraw " + s.m.collateral.Format(amount) + " of collateral"}.Health(now, after, nil), nil
})

// safeCollateralWithdraw is about the most collateral the position can
// take out and stay healthy (0.1 % short, for interest and rounding).
func (s start) safeCollateralWithdraw(ctx context.Context, env *native.Env) *big.Int {
	price, err := s.m.price(ctx, env)
	if err != nil {
		return new(big.Int)
	}
	borrowed := s.m.borrowed(s.pos)
	// collateral needed = borrowed * 1e18 / lltv * 1e36 / price
	need := mulDivUp(mulDivUp(borrowed, wad, s.m.params.Lltv), oracleScale, price)
	free := new(big.Int).Sub(s.pos.collateral, need)
	if free.Sign() <= 0 {
		return new(big.Int)
	}
	return native.SlippageMin(free, 10)
}

var borrow = native.WriteTool{
	Name: "morpho_borrow_asset",
	Description: "Borrow the loan token of a Morpho Blue market against the wallet's collateral in it (Morpho.borrow by assets, to the wallet); debt accrues at the market's rate. " +
		"This is leverage: the plan predicts the health factor from the market's oracle and LLTV (interest accrued) and refuses a borrow that would leave it below 1 (liquidatable) or exceed the market's liquidity, " +
		"and refuses when the oracle cannot be read. Use only with collateral posted (morpho_supply_collateral) and a health factor you can defend; check morpho_get_position first.",
	Category: tool.CatLending, Risk: tool.Layer3, Effect: tool.EffectOpen,
	Steps:      []string{"Reading the market and position", "Checking borrowing capacity and liquidity", "Sending borrow", "Confirming"},
	Snippet:    "morpho_borrow_asset borrows from a Morpho Blue market against posted collateral (leverage).",
	Guidelines: []string{"Keep the health factor well above 1 (1.5 or more): the oracle's price moves and Morpho Blue liquidates at the LLTV without a buffer."},
	Required:   []string{"market_id", "amount"},
	Params:     []string{pMarketID, native.PAmount("amount", "Amount of the loan token to borrow"), pClaims},
	Action:     "borrow", Venue: "morpho",
	When:    configured,
	Plan:    planBorrow,
	Recheck: native.Replan(planBorrow),
}

// planBorrow plans morpho_borrow_asset.
var planBorrow = native.LendingPlanner(begin(false), func(ctx context.Context, env *native.Env, in *registry.Input, s start) (native.Lending, error) {
	in.Step(1)
	if s.pos.collateral.Sign() == 0 {
		return native.Lending{}, fmt.Errorf("the wallet has no %s collateral in this market: post some first (morpho_supply_collateral)", s.m.collateral.Symbol)
	}
	if liq := s.m.liquidity(); s.amount.Cmp(liq) > 0 {
		return native.Lending{}, fmt.Errorf("the market has only %s available to borrow", s.m.loan.Format(liq))
	}
	// The debt the contract will record: new shares rounded up.
	shares := toSharesUp(s.amount, s.m.borrowAssets, s.m.borrowShares)
	after := position{supplyShares: s.pos.supplyShares, borrowShares: new(big.Int).Add(s.pos.borrowShares, shares), collateral: s.pos.collateral}
	bAfter := toAssetsUp(after.borrowShares, new(big.Int).Add(s.m.borrowAssets, s.amount), new(big.Int).Add(s.m.borrowShares, shares))
	now, hf, capacity, debt, err := s.healthAfter(ctx, env, new(big.Int), new(big.Int).Sub(bAfter, s.m.borrowed(s.pos)))
	if err != nil {
		return native.Lending{}, err
	}
	if debt.Cmp(capacity) > 0 {
		room := new(big.Int).Sub(capacity, s.m.borrowed(s.pos))
		if room.Sign() < 0 {
			room.SetInt64(0)
		}
		return native.Lending{}, fmt.Errorf("borrowing %s would leave the position unhealthy (health factor %s -> %s, below 1: liquidatable); it can borrow at most about %s",
			s.m.loan.Format(s.amount), native.FormatHealth(now), native.FormatHealth(hf), s.m.loan.Format(native.SlippageMin(room, 10)))
	}
	t, err := txOf(s, "borrow", "borrow", s.amount, new(big.Int), s.owner, s.owner)
	if err != nil {
		return native.Lending{}, err
	}
	return native.Lending{Txs: []tool.Tx{t}, Token: s.m.loan, Claim: s.amount,
		Summary: "borrow " + s.m.loan.Format(s.amount)}.Health(now, hf, nil), nil
})

var repay = native.WriteTool{
	Name: "morpho_repay_debt",
	Description: "Repay the wallet's debt in a Morpho Blue market with the loan token from the wallet (Morpho.repay); \"max\" (or an amount at or above the debt) repays all of it by shares, " +
		"the approve carrying a 0.01% margin for interest accruing until execution. The plan adds the approve when needed and reports the health factor after. " +
		"Use to reduce leverage or before withdrawing collateral. Does not repay on behalf of another account.",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the market and debt", "Checking balance and allowance", "Sending approve and repay", "Confirming"},
	Snippet:  "morpho_repay_debt repays Morpho Blue debt from the wallet.",
	Required: []string{"market_id", "amount"},
	Params:   []string{pMarketID, native.PAmountMax("amount", "Amount of debt to repay in the loan token"), pClaims},
	Action:   "repay", Venue: "morpho",
	When: configured,
	Plan: native.LendingPlanner(begin(true), func(ctx context.Context, env *native.Env, in *registry.Input, s start) (native.Lending, error) {
		in.Step(1)
		debt := s.m.borrowed(s.pos)
		if debt.Sign() == 0 {
			return native.Lending{}, fmt.Errorf("the wallet owes no %s in this market", s.m.loan.Symbol)
		}
		r, err := native.Repay(ctx, env, s.m.loan, s.morpho, s.owner, s.amount, debt)
		if err != nil {
			return native.Lending{}, err
		}
		assets, shares := r.Repaid, new(big.Int)
		if r.All {
			assets, shares = new(big.Int), s.pos.borrowShares
		}
		t, err := txOf(s, "repay", "repay", assets, shares, s.owner, []byte{})
		if err != nil {
			return native.Lending{}, err
		}
		now, after, _, _, herr := s.healthAfter(ctx, env, new(big.Int), new(big.Int).Neg(r.Repaid))
		return r.Lending(s.m.loan, t).Health(now, after, herr), nil
	}),
}
