package aave

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

// Aave V3 units: values in the base currency (USD with 8 decimals on
// Aave's V3 markets), percentages in basis points, the health factor and
// indexes scaled by 1e18 (wad) and 1e27 (ray).
var (
	wad = native.Pow10(18)
	ray = native.Pow10(27)
)

const (
	aaveVariableRate  = 2
	aaveBaseDecimals  = 8
	aaveCloseFactorHF = 950_000_000_000_000_000 // 0.95 in wad
	aavePercentFactor = 10000
	aaveDefaultClose  = 5000
	aaveMaxClose      = 10000
)

var errNotLiquidatable = errors.New("the position's health factor is not below 1: it cannot be liquidated")

// aaveReserve is a reserve's configuration and tokens (getReserveData).
type aaveReserve struct {
	asset                      common.Address
	ltv, threshold, bonus      int64 // bps; bonus is 10000 + the liquidator's premium
	decimals                   int64
	active, frozen, borrowable bool
	paused                     bool
	aToken, debtToken          common.Address
	stableDebtToken            common.Address
	liquidityRate, borrowRate  *big.Int // ray, per year
	liquidityIndex, debtIndex  *big.Int
}

func readAaveReserve(ctx context.Context, env *native.Env, pool, asset common.Address) (aaveReserve, error) {
	r := aaveReserve{asset: asset}
	v, err := native.Call(ctx, env.Chain, chain.AaveV3PoolABI(), pool, "getReserveData", asset)
	if err != nil {
		return r, fmt.Errorf("%s is not an Aave V3 pool: %w", pool.Hex(), err)
	}
	d := v[0]
	cfg, _ := native.StructField(native.StructField(d, "Configuration"), "Data").(*big.Int)
	aTok, _ := native.StructField(d, "ATokenAddress").(common.Address)
	if cfg == nil || aTok == (common.Address{}) {
		return r, fmt.Errorf("%s is not listed on the Aave pool %s", asset.Hex(), pool.Hex())
	}
	bitsOf := func(from, n uint) int64 {
		x := new(big.Int).Rsh(cfg, from)
		return x.And(x, big.NewInt(1<<n-1)).Int64()
	}
	r.ltv, r.threshold, r.bonus, r.decimals = bitsOf(0, 16), bitsOf(16, 16), bitsOf(32, 16), bitsOf(48, 8)
	r.active, r.frozen, r.borrowable, r.paused = bitsOf(56, 1) == 1, bitsOf(57, 1) == 1, bitsOf(58, 1) == 1, bitsOf(60, 1) == 1
	r.aToken = aTok
	r.debtToken, _ = native.StructField(d, "VariableDebtTokenAddress").(common.Address)
	r.stableDebtToken, _ = native.StructField(d, "StableDebtTokenAddress").(common.Address)
	r.liquidityRate, _ = native.StructField(d, "CurrentLiquidityRate").(*big.Int)
	r.borrowRate, _ = native.StructField(d, "CurrentVariableBorrowRate").(*big.Int)
	r.liquidityIndex, _ = native.StructField(d, "LiquidityIndex").(*big.Int)
	r.debtIndex, _ = native.StructField(d, "VariableBorrowIndex").(*big.Int)
	return r, nil
}

// aaveAccount is getUserAccountData.
type aaveAccount struct {
	collateral, debt, available *big.Int // base currency
	threshold, ltv              *big.Int // bps
	hf                          *big.Int // wad; 2^256-1 without debt
}

func readAaveAccount(ctx context.Context, env *native.Env, pool, user common.Address) (aaveAccount, error) {
	v, err := native.Call(ctx, env.Chain, chain.AaveV3PoolABI(), pool, "getUserAccountData", user)
	if err != nil {
		return aaveAccount{}, fmt.Errorf("%s is not an Aave V3 pool: %w", pool.Hex(), err)
	}
	return aaveAccount{collateral: v[0].(*big.Int), debt: v[1].(*big.Int), available: v[2].(*big.Int),
		threshold: v[3].(*big.Int), ltv: v[4].(*big.Int), hf: v[5].(*big.Int)}, nil
}

// aavePrice returns an asset's price in the pool's base currency: from the
// pool itself when it answers getAssetPrice (ward's dev pool), else from
// the market's oracle (ADDRESSES_PROVIDER().getPriceOracle()).
func aavePrice(ctx context.Context, env *native.Env, pool, asset common.Address) (*big.Int, error) {
	if v, err := native.ExtraCall(ctx, env, pool, "getAssetPrice", asset); err == nil {
		return v[0].(*big.Int), nil
	}
	prov, err := native.ExtraCall(ctx, env, pool, "ADDRESSES_PROVIDER")
	if err != nil {
		return nil, fmt.Errorf("the Aave pool %s reports no price oracle: %w", pool.Hex(), err)
	}
	oracle, err := native.ExtraCall(ctx, env, prov[0].(common.Address), "getPriceOracle")
	if err != nil {
		return nil, err
	}
	v, err := native.ExtraCall(ctx, env, oracle[0].(common.Address), "getAssetPrice", asset)
	if err != nil {
		return nil, err
	}
	return v[0].(*big.Int), nil
}

// baseValue is amount of an asset in the base currency (as the pool
// values it: amount * price / 10^decimals).
func baseValue(amount, price *big.Int, decimals int64) *big.Int {
	v := new(big.Int).Mul(amount, price)
	return v.Quo(v, native.Pow10(int(decimals)))
}

// healthAfter predicts the health factor (wad) after collateral and debt
// change by the given base-currency deltas, the collateral delta weighted
// by its reserve's liquidation threshold (bps). It returns nil for no
// debt (an infinite health factor). The account's weighted threshold is
// Aave's rounded-down average, so the prediction errs low by at most
// 0.01 % of the collateral.
func healthAfter(a aaveAccount, collDelta *big.Int, threshold int64, debtDelta *big.Int) *big.Int {
	debt := new(big.Int).Add(a.debt, debtDelta)
	if debt.Sign() <= 0 {
		return nil
	}
	weighted := new(big.Int).Mul(a.collateral, a.threshold)
	weighted.Add(weighted, new(big.Int).Mul(collDelta, big.NewInt(threshold)))
	if weighted.Sign() < 0 {
		weighted.SetInt64(0)
	}
	hf := new(big.Int).Mul(weighted, wad)
	return hf.Quo(hf, new(big.Int).Mul(debt, big.NewInt(aavePercentFactor)))
}

func formatBase(v *big.Int) string { return native.FormatUnits(v, aaveBaseDecimals) }

func bpsPercent(bps int64) string { return native.RatString(big.NewRat(bps, 100), 6) }

// rayPercent writes a ray annual rate as a percentage.
func rayPercent(r *big.Int) string {
	if r == nil {
		return "0"
	}
	return native.RatString(new(big.Rat).SetFrac(new(big.Int).Mul(r, big.NewInt(100)), ray), 6)
}

func percentMul(v *big.Int, p int64) *big.Int {
	x := new(big.Int).Mul(v, big.NewInt(p))
	x.Add(x, big.NewInt(aavePercentFactor/2))
	return x.Quo(x, big.NewInt(aavePercentFactor))
}

func percentDiv(v *big.Int, p int64) *big.Int {
	x := new(big.Int).Mul(v, big.NewInt(aavePercentFactor))
	x.Add(x, big.NewInt(p/2))
	return x.Quo(x, big.NewInt(p))
}

var (
	pAavePool = native.PAddress("pool", "Aave V3 Pool (default: the chain's configured one)")
	pAsset    = native.PAddress("asset", "The reserve's underlying ERC-20 token")
)

// argPool reads the pool argument, the chain's configured pool by default.
func argPool(env *native.Env, a *native.Args) common.Address {
	return a.Venue("pool", env.Venues.AavePool, "Aave pool")
}

var accountData = native.ReadTool{
	Name: "aave_get_account_data",
	Description: "Read an Aave V3 account (default: the agent's wallet): total collateral, total debt and available borrows in USD, the weighted LTV and liquidation threshold, " +
		"the health factor as a decimal (below 1 means liquidatable; \"infinite\" without debt), and what is supplied and borrowed per reserve. " +
		"Use before borrowing, withdrawing collateral or repaying, and to monitor liquidation risk. Does not read reserve rates (aave_get_reserve_data).",
	Category: tool.CatLending, Budget: tool.Medium,
	Steps:   []string{"Reading the account", "Reading positions per reserve"},
	Snippet: "aave_get_account_data reads collateral, debt, borrowing power and health factor.",
	Params:  []string{native.PAddress("user", "The account (default: the agent's wallet)"), pAavePool},
	Result: []string{native.RProp("user", "string", "the account"),
		native.RProp("total_collateral_usd", "string", "collateral in the base currency (USD)"),
		native.RProp("total_debt_usd", "string", "debt in USD"), native.RProp("available_borrows_usd", "string", "more that may be borrowed, USD"),
		native.RProp("ltv_percent", "string", "weighted loan-to-value"), native.RProp("liquidation_threshold_percent", "string", "weighted liquidation threshold"),
		native.RProp("health_factor", "string", "decimal; below 1 is liquidatable; infinite without debt"), native.RProp("liquidatable", "boolean", "health factor below 1"),
		native.RProp("block_number", "integer", "the block every figure was read at"),
		`"positions":{"type":"array","items":{"type":"object","properties":{"asset":` + native.RToken + `,"supplied":` + native.RAmount + `,"borrowed":` + native.RAmount + `,"collateral":{"type":"boolean"}}}}`},
	Action: "lending_account", Venue: "aave",
	Run: readAccountData,
}

type aavePositionOut struct {
	Asset      native.TokenInfo `json:"asset"`
	Supplied   native.AmountOut `json:"supplied"`
	Borrowed   native.AmountOut `json:"borrowed"`
	Collateral bool             `json:"collateral"`
}

func readAccountData(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	pool, user := argPool(env, a), a.Whose(env, "user")
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	acct, err := readAaveAccount(ctx, env, pool, user)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	v, err := native.Call(ctx, env.Chain, chain.AaveV3PoolABI(), pool, "getReservesList")
	if err != nil {
		return nil, err
	}
	positions := []aavePositionOut{}
	for _, asset := range v[0].([]common.Address) {
		r, err := readAaveReserve(ctx, env, pool, asset)
		if err != nil {
			return nil, err
		}
		sup, err := env.Chain.TokenBalance(ctx, r.aToken, user)
		if err != nil {
			return nil, err
		}
		bor, err := env.Chain.TokenBalance(ctx, r.debtToken, user)
		if err != nil {
			return nil, err
		}
		if sup.Sign() == 0 && bor.Sign() == 0 {
			continue
		}
		m, err := native.TokenInfoOf(ctx, env, asset)
		if err != nil {
			return nil, err
		}
		positions = append(positions, aavePositionOut{Asset: m, Supplied: native.AmountOf(sup, m.Decimals),
			Borrowed: native.AmountOf(bor, m.Decimals), Collateral: sup.Sign() > 0 && r.threshold > 0})
	}
	return map[string]any{
		"user": user.Hex(), "pool": pool.Hex(),
		"total_collateral_usd": formatBase(acct.collateral), "total_debt_usd": formatBase(acct.debt),
		"available_borrows_usd": formatBase(acct.available),
		"ltv_percent":           bpsPercent(acct.ltv.Int64()), "liquidation_threshold_percent": bpsPercent(acct.threshold.Int64()),
		"health_factor": native.FormatHealth(acct.hf), "liquidatable": acct.hf.Cmp(wad) < 0,
		"positions": positions, "block_number": native.Block(ctx, env),
	}, nil
}

var reserveData = native.ReadTool{
	Name: "aave_get_reserve_data",
	Description: "Read Aave V3 reserves: for one asset (or every listed asset when asset is omitted) its LTV, liquidation threshold and bonus, status flags, " +
		"supply and variable borrow APR, total supplied and borrowed, liquidity available to borrow or withdraw, the aToken and debt token addresses and the oracle price in USD. " +
		"Use to choose collateral and what to borrow, and to check there is liquidity. Does not read any account (aave_get_account_data).",
	Category: tool.CatLending, Budget: tool.Medium,
	Steps:   []string{"Reading reserves", "Reading supply, debt and prices"},
	Snippet: "aave_get_reserve_data reads an Aave reserve's risk parameters, rates and liquidity.",
	Params:  []string{native.PAddress("asset", "The reserve's underlying token; omit for every reserve"), pAavePool},
	Result: []string{`"reserves":{"type":"array","items":{"type":"object","properties":{"asset":` + native.RToken +
		`,"ltv_percent":{"type":"string"},"liquidation_threshold_percent":{"type":"string"},"liquidation_bonus_percent":{"type":"string"},` +
		`"active":{"type":"boolean"},"frozen":{"type":"boolean"},"paused":{"type":"boolean"},"borrowing_enabled":{"type":"boolean"},` +
		`"supply_apr_percent":{"type":"string"},"variable_borrow_apr_percent":{"type":"string"},"total_supplied":` + native.RAmount + `,"total_borrowed":` + native.RAmount +
		`,"available_liquidity":` + native.RAmount + `,"a_token":{"type":"string"},"variable_debt_token":{"type":"string"},"price_usd":{"type":"string"}}}}`},
	Action: "lending_reserve", Venue: "aave",
	Run: readReserveData,
}

type aaveReserveOut struct {
	Asset         native.TokenInfo `json:"asset"`
	LTV           string           `json:"ltv_percent"`
	Threshold     string           `json:"liquidation_threshold_percent"`
	Bonus         string           `json:"liquidation_bonus_percent"`
	Active        bool             `json:"active"`
	Frozen        bool             `json:"frozen"`
	Paused        bool             `json:"paused"`
	Borrowing     bool             `json:"borrowing_enabled"`
	SupplyAPR     string           `json:"supply_apr_percent"`
	BorrowAPR     string           `json:"variable_borrow_apr_percent"`
	TotalSupplied native.AmountOut `json:"total_supplied"`
	TotalBorrowed native.AmountOut `json:"total_borrowed"`
	Available     native.AmountOut `json:"available_liquidity"`
	AToken        string           `json:"a_token"`
	DebtToken     string           `json:"variable_debt_token"`
	PriceUSD      string           `json:"price_usd,omitempty"`
}

func readReserveData(ctx context.Context, env *native.Env, in *registry.Input) (any, error) {
	a := native.ArgsOf(in)
	pool := argPool(env, a)
	if err := a.Err(); err != nil {
		return nil, err
	}
	in.Step(0)
	var assets []common.Address
	if a.Has("asset") {
		asset := a.Address("asset")
		if err := a.Err(); err != nil {
			return nil, err
		}
		assets = []common.Address{asset}
	} else {
		v, err := native.Call(ctx, env.Chain, chain.AaveV3PoolABI(), pool, "getReservesList")
		if err != nil {
			return nil, err
		}
		assets = v[0].([]common.Address)
	}
	in.Step(1)
	erc := chain.ERC20ABI()
	outs := []aaveReserveOut{}
	for _, asset := range assets {
		r, err := readAaveReserve(ctx, env, pool, asset)
		if err != nil {
			return nil, err
		}
		m, err := native.TokenInfoOf(ctx, env, asset)
		if err != nil {
			return nil, err
		}
		sup, err := native.CallBig(ctx, env, erc, r.aToken, "totalSupply")
		if err != nil {
			return nil, err
		}
		bor, err := native.CallBig(ctx, env, erc, r.debtToken, "totalSupply")
		if err != nil {
			return nil, err
		}
		avail, err := env.Chain.TokenBalance(ctx, asset, r.aToken)
		if err != nil {
			return nil, err
		}
		o := aaveReserveOut{Asset: m, LTV: bpsPercent(r.ltv), Threshold: bpsPercent(r.threshold),
			Bonus: bpsPercent(max(r.bonus-aavePercentFactor, 0)), Active: r.active, Frozen: r.frozen, Paused: r.paused,
			Borrowing: r.borrowable, SupplyAPR: rayPercent(r.liquidityRate), BorrowAPR: rayPercent(r.borrowRate),
			TotalSupplied: native.AmountOf(sup, m.Decimals), TotalBorrowed: native.AmountOf(bor, m.Decimals), Available: native.AmountOf(avail, m.Decimals),
			AToken: r.aToken.Hex(), DebtToken: r.debtToken.Hex()}
		if p, err := aavePrice(ctx, env, pool, asset); err == nil {
			o.PriceUSD = formatBase(p)
		}
		outs = append(outs, o)
	}
	return map[string]any{"pool": pool.Hex(), "reserves": outs}, nil
}

// ---- writes ----

// aaveCtx is what every Aave planner reads first.
type aaveCtx struct {
	pool, owner common.Address
	asset       native.TokenInfo
	reserve     aaveReserve
	account     aaveAccount
	price       *big.Int // base currency per whole token
}

func aaveStart(ctx context.Context, env *native.Env, in *registry.Input, assetArg string) (aaveCtx, error) {
	var c aaveCtx
	a := native.ArgsOf(in)
	c.pool = argPool(env, a)
	asset := a.Address(assetArg)
	if err := a.Err(); err != nil {
		return c, err
	}
	var err error
	if c.owner, err = native.Owner(env); err != nil {
		return c, err
	}
	in.Step(0)
	if c.reserve, err = readAaveReserve(ctx, env, c.pool, asset); err != nil {
		return c, err
	}
	if !c.reserve.active || c.reserve.paused {
		return c, fmt.Errorf("the Aave reserve of %s is inactive or paused", asset.Hex())
	}
	if c.asset, err = native.TokenInfoOf(ctx, env, asset); err != nil {
		return c, err
	}
	if c.account, err = readAaveAccount(ctx, env, c.pool, c.owner); err != nil {
		return c, err
	}
	if c.price, err = aavePrice(ctx, env, c.pool, asset); err != nil {
		return c, err
	}
	return c, nil
}

func (c aaveCtx) value(amount *big.Int) *big.Int {
	return baseValue(amount, c.price, int64(c.asset.Decimals))
}

// aaveMove is what a single-asset Aave write plans once the pool is read:
// its transactions and token uses, the amount it moves (valued and
// summarised) and the health factor after it (nil for no debt).
type aaveMove struct {
	txs    []tool.Tx
	tokens []tool.TokenUse
	amount *big.Int
	hf     *big.Int
}

// aavePlanner returns the planner of a single-asset Aave write (supply,
// withdraw, borrow, repay): it reads the pool and the asset (aaveStart)
// and the amount (nil for "max" when orMax), lets move check and build
// the action, and summarises it with summary, a format of the amount, the
// symbol and the pool, followed by the health factor before and after.
func aavePlanner(orMax bool, summary string, move func(ctx context.Context, env *native.Env, in *registry.Input, c aaveCtx, amount *big.Int) (aaveMove, error)) func(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	return func(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
		c, err := aaveStart(ctx, env, in, "asset")
		if err != nil {
			return nil, err
		}
		a := native.ArgsOf(in)
		var amount *big.Int
		if orMax {
			amount = a.AmountOrMax("amount")
		} else {
			amount = a.Positive("amount")
		}
		if err := a.Err(); err != nil {
			return nil, err
		}
		m, err := move(ctx, env, in, c, amount)
		if err != nil {
			return nil, err
		}
		return native.NewPlan(ctx, env, m.txs, m.tokens, native.ValueCents(ctx, env, c.asset.Address, m.amount),
			fmt.Sprintf(summary+" (health factor %s -> %s)", native.FormatUnits(m.amount, c.asset.Decimals), c.asset.Symbol, c.pool.Hex(),
				native.FormatHealth(c.account.hf), native.FormatHealth(m.hf))), nil
	}
}

// assetParams are the parameters of a single-asset Aave write whose
// amount is the fragment amount.
func assetParams(amount string) []string {
	return []string{pAsset, amount, native.PClaims("asset", "the asset"), pAavePool}
}

var supply = native.WriteTool{
	Name: "aave_supply_collateral",
	Description: "Supply an exact amount of an ERC-20 asset to Aave V3 from the agent's wallet (Pool.supply on behalf of the wallet), receiving aTokens; " +
		"assets with a non-zero LTV count as collateral for borrowing. The plan adds an exact approve of the pool when the allowance is short and reports the health factor after. " +
		"Use to earn supply interest or post collateral before aave_borrow_asset; check the reserve with aave_get_reserve_data. Does not borrow or take native ETH (wrap it first).",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the reserve and account", "Checking balance and allowance", "Sending approve and supply", "Confirming"},
	Snippet:  "aave_supply_collateral supplies an asset to Aave V3 as collateral.",
	Required: []string{"asset", "amount"}, Params: assetParams(native.PAmount("amount", "Amount to supply")),
	Action: "supply", Venue: "aave",
	Plan: planAaveSupply,
}

var planAaveSupply = aavePlanner(false, "supply %s %s to Aave pool %s",
	func(ctx context.Context, env *native.Env, in *registry.Input, c aaveCtx, amount *big.Int) (aaveMove, error) {
		if c.reserve.frozen {
			return aaveMove{}, fmt.Errorf("the Aave reserve of %s is frozen: it accepts no new supply", c.asset.Symbol)
		}
		in.Step(1)
		txs, err := native.Spend(ctx, env, c.asset, c.pool, amount)
		if err != nil {
			return aaveMove{}, err
		}
		s, err := native.Tx(chain.AaveV3PoolABI(), c.pool, "supply", "supply", c.asset.Address, amount, c.owner, uint16(0))
		if err != nil {
			return aaveMove{}, err
		}
		// aToken balances are scaled by the liquidity index: on a market
		// with interest the minted balance may be one unit short.
		minA := new(big.Int).Sub(amount, native.BigOne)
		return aaveMove{txs: append(txs, s), amount: amount,
			tokens: []tool.TokenUse{native.Claimed(in, c.asset.Address, amount, true, "asset"), {Token: tool.Address(c.reserve.aToken), Decimals: -1, Amount: minA}},
			hf:     healthAfter(c.account, c.value(amount), c.reserve.threshold, new(big.Int))}, nil
	})

var withdraw = native.WriteTool{
	Name: "aave_withdraw_collateral",
	Description: "Withdraw a supplied asset from Aave V3 to the agent's wallet (Pool.withdraw, burning aTokens); \"max\" withdraws the whole supplied balance. " +
		"The plan predicts the health factor after the withdrawal and refuses one that would drop it below 1.0 (liquidatable), saying how much can be withdrawn safely; " +
		"it also refuses when the reserve lacks the liquidity. Use to take collateral or supplied funds back; repay debt first (aave_repay_debt) to free more. Does not repay debt.",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the reserve and account", "Predicting the health factor", "Sending withdraw", "Confirming"},
	Snippet:  "aave_withdraw_collateral withdraws supplied assets if the health factor stays at or above 1.",
	Required: []string{"asset", "amount"}, Params: assetParams(native.PAmountMax("amount", "Amount to withdraw")),
	Action: "withdraw", Venue: "aave",
	Plan: planAaveWithdraw,
}

var planAaveWithdraw = aavePlanner(true, "withdraw %s %s from Aave pool %s",
	func(ctx context.Context, env *native.Env, in *registry.Input, c aaveCtx, amount *big.Int) (aaveMove, error) {
		supplied, err := env.Chain.TokenBalance(ctx, c.reserve.aToken, c.owner)
		if err != nil {
			return aaveMove{}, err
		}
		if amount == nil {
			amount = supplied
		}
		if amount.Sign() == 0 {
			return aaveMove{}, native.ErrNoPosition
		}
		if amount.Cmp(supplied) > 0 {
			return aaveMove{}, fmt.Errorf("the wallet has %s %s supplied, less than %s", native.FormatUnits(supplied, c.asset.Decimals), c.asset.Symbol, native.FormatUnits(amount, c.asset.Decimals))
		}
		in.Step(1)
		if err := c.needLiquidity(ctx, env, amount, "withdraw"); err != nil {
			return aaveMove{}, err
		}
		hf := healthAfter(c.account, new(big.Int).Neg(c.value(amount)), c.reserve.threshold, new(big.Int))
		if hf != nil && hf.Cmp(wad) < 0 {
			return aaveMove{}, fmt.Errorf("withdrawing %s %s would drop the health factor from %s to %s, below 1.0 (liquidatable); withdraw at most about %s %s or repay debt first",
				native.FormatUnits(amount, c.asset.Decimals), c.asset.Symbol, native.FormatHealth(c.account.hf), native.FormatHealth(hf),
				native.FormatUnits(aaveSafeWithdraw(c), c.asset.Decimals), c.asset.Symbol)
		}
		w, err := native.Tx(chain.AaveV3PoolABI(), c.pool, "withdraw", "withdraw", c.asset.Address, amount, c.owner)
		if err != nil {
			return aaveMove{}, err
		}
		return aaveMove{txs: []tool.Tx{w}, amount: amount, hf: hf,
			tokens: []tool.TokenUse{{Token: tool.Address(c.reserve.aToken), Decimals: -1, Amount: amount, Out: true}, native.Claimed(in, c.asset.Address, amount, false, "asset")}}, nil
	})

// aaveSafeWithdraw is about the most of c's asset that can be withdrawn
// keeping the health factor at or above 1 (a little less, for rounding).
func aaveSafeWithdraw(c aaveCtx) *big.Int {
	if c.reserve.threshold == 0 || c.price.Sign() == 0 {
		return new(big.Int)
	}
	// collateral*threshold - debt*10000 = v*reserveThreshold
	room := new(big.Int).Mul(c.account.collateral, c.account.threshold)
	room.Sub(room, new(big.Int).Mul(c.account.debt, big.NewInt(aavePercentFactor)))
	if room.Sign() <= 0 {
		return new(big.Int)
	}
	v := room.Quo(room, big.NewInt(c.reserve.threshold))
	amt := new(big.Int).Mul(v, native.Pow10(int(c.asset.Decimals)))
	amt.Quo(amt, c.price)
	return native.SlippageMin(amt, 10) // 0.1 % margin
}

var borrow = native.WriteTool{
	Name: "aave_borrow_asset",
	Description: "Borrow an asset from Aave V3 at the variable rate against the wallet's collateral (Pool.borrow, interestRateMode 2, on behalf of the wallet); the asset arrives in the wallet and debt accrues. " +
		"This is leverage: the plan refuses a borrow beyond the account's available borrows or one that would put the health factor below 1, and reports the health factor after. " +
		"Use only with collateral supplied (aave_supply_collateral) and a health factor you can defend; check aave_get_account_data first. Does not supply collateral or use the stable rate.",
	Category: tool.CatLending, Risk: tool.Layer3, Effect: tool.EffectOpen,
	Steps:      []string{"Reading the reserve and account", "Checking borrowing power", "Sending borrow", "Confirming"},
	Snippet:    "aave_borrow_asset borrows against Aave collateral at the variable rate (leverage).",
	Guidelines: []string{"Keep the health factor well above 1 (1.5 or more); prices move."},
	Required:   []string{"asset", "amount"}, Params: assetParams(native.PAmount("amount", "Amount to borrow")),
	Action: "borrow", Venue: "aave",
	Plan: planAaveBorrow,
}

var planAaveBorrow = aavePlanner(false, "borrow %s %s from Aave pool %s at the variable rate",
	func(ctx context.Context, env *native.Env, in *registry.Input, c aaveCtx, amount *big.Int) (aaveMove, error) {
		if !c.reserve.borrowable || c.reserve.frozen {
			return aaveMove{}, fmt.Errorf("borrowing %s is not enabled on this Aave pool", c.asset.Symbol)
		}
		in.Step(1)
		v := c.value(amount)
		if v.Cmp(c.account.available) > 0 {
			most := new(big.Int).Mul(c.account.available, native.Pow10(int(c.asset.Decimals)))
			most.Quo(most, c.price)
			return aaveMove{}, fmt.Errorf("the account can borrow at most about %s %s (%s USD of borrowing power)",
				native.FormatUnits(most, c.asset.Decimals), c.asset.Symbol, formatBase(c.account.available))
		}
		hf := healthAfter(c.account, new(big.Int), 0, v)
		if hf != nil && hf.Cmp(wad) < 0 {
			return aaveMove{}, fmt.Errorf("borrowing would put the health factor at %s, below 1.0", native.FormatHealth(hf))
		}
		if err := c.needLiquidity(ctx, env, amount, "borrow"); err != nil {
			return aaveMove{}, err
		}
		b, err := native.Tx(chain.AaveV3PoolABI(), c.pool, "borrow", "borrow", c.asset.Address, amount, big.NewInt(aaveVariableRate), uint16(0), c.owner)
		if err != nil {
			return aaveMove{}, err
		}
		return aaveMove{txs: []tool.Tx{b}, amount: amount, hf: hf,
			tokens: []tool.TokenUse{native.Claimed(in, c.asset.Address, amount, false, "asset")}}, nil
	})

var repay = native.WriteTool{
	Name: "aave_repay_debt",
	Description: "Repay variable-rate Aave V3 debt of the agent's wallet with the borrowed asset from the wallet (Pool.repay); \"max\" repays all of it " +
		"(the approve then carries a 0.01% margin for interest accruing until execution). An amount above the debt is capped at the debt. " +
		"The plan adds an exact approve of the pool when needed and reports the health factor after. Use to reduce leverage or before withdrawing collateral. " +
		"Does not repay with aTokens or on behalf of another account.",
	Category: tool.CatLending, Risk: tool.Layer2, Effect: tool.EffectClose,
	Steps:    []string{"Reading the reserve and debt", "Checking balance and allowance", "Sending approve and repay", "Confirming"},
	Snippet:  "aave_repay_debt repays Aave variable debt from the wallet.",
	Required: []string{"asset", "amount"}, Params: assetParams(native.PAmountMax("amount", "Amount of debt to repay")),
	Action: "repay", Venue: "aave",
	Plan: planAaveRepay,
}

var planAaveRepay = aavePlanner(true, "repay %s %s of Aave debt on pool %s",
	func(ctx context.Context, env *native.Env, in *registry.Input, c aaveCtx, amount *big.Int) (aaveMove, error) {
		debt, err := env.Chain.TokenBalance(ctx, c.reserve.debtToken, c.owner)
		if err != nil {
			return aaveMove{}, err
		}
		if debt.Sign() == 0 {
			return aaveMove{}, fmt.Errorf("the wallet has no variable %s debt on this pool", c.asset.Symbol)
		}
		in.Step(1)
		bal, err := env.Chain.TokenBalance(ctx, c.asset.Address, c.owner)
		if err != nil {
			return aaveMove{}, err
		}
		// onChain is what repay is called with; pay is the most it takes.
		onChain, pay := amount, amount
		if amount == nil || amount.Cmp(debt) >= 0 {
			// All of it: type(uint256).max repays the debt as it stands at
			// execution, so the approve allows for interest accrued until
			// then (when the wallet can afford it).
			onChain = new(big.Int).Set(native.MaxUint256)
			pay = new(big.Int).Add(debt, new(big.Int).Quo(debt, big.NewInt(aavePercentFactor)))
			pay.Add(pay, native.BigOne)
			if bal.Cmp(debt) >= 0 && bal.Cmp(pay) < 0 {
				pay = bal
			}
		} else if err := native.Positive("amount", amount); err != nil {
			return aaveMove{}, err
		}
		if bal.Cmp(pay) < 0 {
			return aaveMove{}, fmt.Errorf("the wallet holds %s %s, less than the %s to repay", native.FormatUnits(bal, c.asset.Decimals), c.asset.Symbol, native.FormatUnits(pay, c.asset.Decimals))
		}
		txs, err := native.SpendApprovals(ctx, env, c.asset.Address, c.pool, pay)
		if err != nil {
			return aaveMove{}, err
		}
		r, err := native.Tx(chain.AaveV3PoolABI(), c.pool, "repay", "repay", c.asset.Address, onChain, big.NewInt(aaveVariableRate), c.owner)
		if err != nil {
			return aaveMove{}, err
		}
		repaid := pay
		if repaid.Cmp(debt) > 0 {
			repaid = debt
		}
		return aaveMove{txs: append(txs, r), amount: repaid,
			tokens: []tool.TokenUse{native.Claimed(in, c.asset.Address, pay, true, "asset")},
			hf:     healthAfter(c.account, new(big.Int), 0, new(big.Int).Neg(c.value(repaid)))}, nil
	})

var liquidate = native.WriteTool{
	Name: "aave_liquidate_position",
	Description: "Liquidate an unhealthy Aave V3 account (Pool.liquidationCall): repay part of its debt in debt_asset from the agent's wallet and receive its collateral_asset plus the liquidation bonus " +
		"(as the underlying, or as aTokens with receive_a_token). Only possible while the account's health factor is below 1; the plan refuses otherwise. " +
		"debt_to_cover is capped by the close factor (50% of the debt, all of it below a health factor of 0.95); \"max\" covers that cap. " +
		"Use for liquidation opportunities found with aave_get_account_data. Does not check the trade's profit after gas; it is a high-risk action.",
	Category: tool.CatLending, Risk: tool.Layer3, Effect: tool.EffectOpen,
	Steps:    []string{"Reading the account and reserves", "Computing the liquidation", "Sending approve and liquidationCall", "Confirming"},
	Snippet:  "aave_liquidate_position liquidates an Aave account whose health factor is below 1.",
	Required: []string{"user", "collateral_asset", "debt_asset", "debt_to_cover"},
	Params: []string{
		native.PAddress("user", "The account to liquidate (health factor below 1)"),
		native.PAddress("collateral_asset", "The collateral to receive"),
		native.PAddress("debt_asset", "The debt to repay"),
		native.PAmountMax("debt_to_cover", "Debt to repay in debt_asset"),
		native.PBool("receive_a_token", "Receive the collateral as aTokens instead of the underlying (default false)"),
		native.PClaims("debt_asset", "the debt asset"), native.PClaims("collateral_asset", "the collateral asset"),
		pAavePool},
	Action: "liquidate", Venue: "aave",
	Plan: planAaveLiquidate,
}

func planAaveLiquidate(ctx context.Context, env *native.Env, in *registry.Input) (*tool.Plan, error) {
	d, err := aaveStart(ctx, env, in, "debt_asset")
	if err != nil {
		return nil, err
	}
	a := native.ArgsOf(in)
	user, collAsset, cover := a.Address("user"), a.Address("collateral_asset"), a.AmountOrMax("debt_to_cover")
	if err := a.Err(); err != nil {
		return nil, err
	}
	receiveA := a.Bool("receive_a_token", false)
	acct, err := readAaveAccount(ctx, env, d.pool, user)
	if err != nil {
		return nil, err
	}
	if acct.hf.Cmp(wad) >= 0 {
		return nil, fmt.Errorf("%w (health factor %s)", errNotLiquidatable, native.FormatHealth(acct.hf))
	}
	cr, err := readAaveReserve(ctx, env, d.pool, collAsset)
	if err != nil {
		return nil, err
	}
	cm, err := native.TokenInfoOf(ctx, env, collAsset)
	if err != nil {
		return nil, err
	}
	cp, err := aavePrice(ctx, env, d.pool, collAsset)
	if err != nil {
		return nil, err
	}
	in.Step(1)
	userDebt, err := env.Chain.TokenBalance(ctx, d.reserve.debtToken, user)
	if err != nil {
		return nil, err
	}
	if userDebt.Sign() == 0 {
		return nil, fmt.Errorf("%s has no %s debt", user.Hex(), d.asset.Symbol)
	}
	userColl, err := env.Chain.TokenBalance(ctx, cr.aToken, user)
	if err != nil {
		return nil, err
	}
	if userColl.Sign() == 0 || cr.threshold == 0 {
		return nil, fmt.Errorf("%s has no %s collateral", user.Hex(), cm.Symbol)
	}
	q := liquidationQuote(acct.hf, userDebt, userColl, cover, d.price, cp, int64(d.asset.Decimals), int64(cm.Decimals), cr.bonus)
	if q.debt.Sign() == 0 || q.collateral.Sign() == 0 {
		return nil, errors.New("the liquidation is too small to repay or seize anything")
	}
	txs, err := native.Spend(ctx, env, d.asset, d.pool, q.debt)
	if err != nil {
		return nil, err
	}
	l, err := native.Tx(chain.AaveV3PoolABI(), d.pool, "liquidate", "liquidationCall", collAsset, d.asset.Address, user, q.debt, receiveA)
	if err != nil {
		return nil, err
	}
	// At least the collateral worth the debt repaid (without the bonus,
	// part of which Aave's protocol fee may take).
	minColl := percentDiv(q.collateral, max(cr.bonus, aavePercentFactor))
	got := native.Claimed(in, collAsset, minColl, false, "collateral_asset")
	if receiveA {
		// The claims are about the underlying, not its aToken.
		got = tool.TokenUse{Token: tool.Address(cr.aToken), Decimals: -1, Amount: minColl}
	}
	return native.NewPlan(ctx, env, append(txs, l),
		[]tool.TokenUse{native.Claimed(in, d.asset.Address, q.debt, true, "debt_asset"), got},
		native.ValueCents(ctx, env, d.asset.Address, q.debt),
		fmt.Sprintf("liquidate %s on Aave pool %s (health factor %s): repay up to %s %s for about %s %s of collateral",
			user.Hex(), d.pool.Hex(), native.FormatHealth(acct.hf), native.FormatUnits(q.debt, d.asset.Decimals), d.asset.Symbol,
			native.FormatUnits(q.collateral, cm.Decimals), cm.Symbol)), nil
}

// liquidation is what a liquidationCall repays and seizes.
type liquidation struct {
	debt       *big.Int // debtToCover to send: what the liquidator pays at most
	repaid     *big.Int // debt the pool will burn
	collateral *big.Int // collateral seized, bonus included
}

// liquidationQuote is Aave V3.0's liquidation arithmetic: the close factor
// caps the debt covered (50 %, or 100 % below a health factor of 0.95),
// the collateral seized is the debt's value plus the bonus, and when the
// user's collateral is short the repaid debt shrinks to match. cover nil
// means the cap.
func liquidationQuote(hf, userDebt, userColl, cover, debtPrice, collPrice *big.Int, debtDec, collDec, bonus int64) liquidation {
	cf := int64(aaveDefaultClose)
	if hf.Cmp(big.NewInt(aaveCloseFactorHF)) <= 0 {
		cf = aaveMaxClose
	}
	maxDebt := percentMul(userDebt, cf)
	debt := maxDebt
	if cover != nil && cover.Cmp(maxDebt) < 0 {
		debt = new(big.Int).Set(cover)
	}
	bonus = max(bonus, aavePercentFactor)
	du, cu := native.Pow10(int(debtDec)), native.Pow10(int(collDec))
	base := new(big.Int).Mul(debtPrice, debt)
	base.Mul(base, cu)
	base.Quo(base, new(big.Int).Mul(collPrice, du))
	coll := percentMul(base, bonus)
	out := liquidation{debt: debt, repaid: debt, collateral: coll}
	if coll.Cmp(userColl) > 0 {
		out.collateral = new(big.Int).Set(userColl)
		r := new(big.Int).Mul(collPrice, userColl)
		r.Mul(r, du)
		r.Quo(r, new(big.Int).Mul(debtPrice, cu))
		out.repaid = percentDiv(r, bonus)
	}
	return out
}

// needLiquidity refuses to take more of c's asset out of the reserve than
// it holds (to withdraw or to borrow).
func (c aaveCtx) needLiquidity(ctx context.Context, env *native.Env, amount *big.Int, verb string) error {
	liquid, err := env.Chain.TokenBalance(ctx, c.asset.Address, c.reserve.aToken)
	if err != nil {
		return err
	}
	if liquid.Cmp(amount) < 0 {
		return fmt.Errorf("the reserve holds only %s %s available to %s", native.FormatUnits(liquid, c.asset.Decimals), c.asset.Symbol, verb)
	}
	return nil
}
