package catalog

import (
	"context"
	"errors"
	"math"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// The intelligence tools: impermanent loss and gas cost arithmetic.

var impermanentLoss = native.ReadTool{
	Name: "intel_compute_impermanent_loss",
	Description: "Compute the impermanent loss of a 50/50 constant-product liquidity position (Uniswap V2 style) for a change in the " +
		"price of one token against the other: give price_ratio (new price / entry price), or entry_price and current_price. " +
		"Returns the loss as a fraction and a percentage of what simply holding the tokens would be worth, and, with deposit_value_usd " +
		"(measured in the second token, e.g. a stablecoin), the value of holding, of the LP position, and the difference. " +
		"Use it to judge whether providing liquidity pays for the price risk. Pure arithmetic: reads nothing from the chain. " +
		"Does not include fees earned, and does not model concentrated (V3) ranges, which lose more within their range.",
	Category: tool.CatIntelligence, Budget: tool.Fast,
	Steps:   []string{"Computing"},
	Snippet: "intel_compute_impermanent_loss: V2 impermanent loss for a price change.",
	Params: []string{
		native.PNumber("price_ratio", "New price divided by the entry price (e.g. 1.5 for a 50% rise); exclusive with entry_price/current_price", 0, 1e12),
		native.PNumber("entry_price", "Price when the position was opened (with current_price)", 0, 1e18),
		native.PNumber("current_price", "Price now (with entry_price)", 0, 1e18),
		native.PNumber("deposit_value_usd", "Value deposited, in the second token's unit (e.g. USD)", 0, 1e15)},
	Result: []string{native.RProp("impermanent_loss", "number", "LP value / hold value - 1 (zero or negative)"),
		native.RProp("impermanent_loss_percent", "number", "The same in percent"), native.RProp("lp_value_usd", "number", "LP position value"),
		native.RProp("hold_value_usd", "number", "Value had the tokens been held")},
	Action:  "impermanent_loss",
	Offline: true,
	Run:     readImpermanentLoss,
}

type ilOut struct {
	PriceRatio      float64  `json:"price_ratio"`
	IL              float64  `json:"impermanent_loss"`
	ILPercent       float64  `json:"impermanent_loss_percent"`
	LPOverHold      float64  `json:"lp_value_over_hold_value"`
	DepositValueUSD *float64 `json:"deposit_value_usd,omitempty"`
	HoldValueUSD    *float64 `json:"hold_value_usd,omitempty"`
	LPValueUSD      *float64 `json:"lp_value_usd,omitempty"`
	LossUSD         *float64 `json:"loss_usd,omitempty"`
	Note            string   `json:"note"`
}

// impermanentLossV2 returns the value of a 50/50 constant-product
// position relative to holding, minus one, after the price moves by ratio
// r: 2·√r / (1 + r) − 1.
func impermanentLossV2(r float64) float64 { return 2*math.Sqrt(r)/(1+r) - 1 }

func readImpermanentLoss(ctx context.Context, env *Env, in *registry.Input) (any, error) {
	r, hasRatio := native.ArgFloat(in, "price_ratio")
	entry, hasEntry := native.ArgFloat(in, "entry_price")
	cur, hasCur := native.ArgFloat(in, "current_price")
	switch {
	case hasRatio && (hasEntry || hasCur):
		return nil, errors.New("give price_ratio, or entry_price with current_price, not both")
	case !hasRatio && !(hasEntry && hasCur):
		return nil, errors.New("give price_ratio, or entry_price with current_price")
	case !hasRatio:
		r = cur / entry
	}
	if !(r > 0) || math.IsInf(r, 0) {
		return nil, errors.New("the price ratio must be a positive finite number")
	}
	in.Step(0)
	il := impermanentLossV2(r)
	out := ilOut{PriceRatio: r, IL: il, ILPercent: il * 100, LPOverHold: 1 + il,
		Note: "50/50 constant-product pool, fees excluded; the second token is the unit of account"}
	if v0, ok := native.ArgFloat(in, "deposit_value_usd"); ok {
		// Half the deposit is token A, whose price moves by r; half is
		// the unit of account.
		hold := v0 * (1 + r) / 2
		lp := v0 * math.Sqrt(r)
		loss := hold - lp
		out.DepositValueUSD, out.HoldValueUSD, out.LPValueUSD, out.LossUSD = &v0, &hold, &lp, &loss
	}
	return out, nil
}

var gasCost = native.ReadTool{
	Name: "intel_estimate_gas_cost",
	Description: "Estimate what a transaction of a given amount of gas costs: gas units times the expected gas price (base fee plus " +
		"tip, or a price you give in gwei) and times the most ward's wallet would bid, in wei, ETH and USD (from the ETH price feed, " +
		"flagged when stale). Use it to check an action is worth its gas, e.g. a small swap or a frequent rebalance. Typical gas: " +
		"ETH transfer 21000, ERC-20 transfer or approve 45000-65000, Uniswap swap 120000-200000. Does not estimate the gas of a " +
		"specific call (use safety_simulate_transaction for that).",
	Category: tool.CatIntelligence, Budget: tool.Fast,
	Steps:    []string{"Reading gas prices", "Reading the ETH price", "Computing"},
	Snippet:  "intel_estimate_gas_cost prices gas units in ETH and USD.",
	Required: []string{"gas_units"},
	Params: []string{
		native.PInt("gas_units", "Gas the transaction uses", 21000, 100_000_000),
		native.PNumber("gas_price_gwei", "Gas price to assume, in gwei; omit for the current one", 0, 1e6)},
	Result: []string{native.RProp("cost_eth", "string", "Expected cost in ETH"), native.RProp("cost_usd", "number", "Expected cost in USD"),
		native.RProp("max_cost_eth", "string", "Cost at the most the wallet would bid"), native.RProp("price_stale", "boolean", "The ETH price is stale")},
	Action: "gas_cost",
	Run:    readGasCost,
}

type gasCostOut struct {
	GasUnits       int64     `json:"gas_units"`
	GasPriceWei    string    `json:"gas_price_wei"`
	MaxGasPriceWei string    `json:"max_gas_price_wei"`
	CostWei        string    `json:"cost_wei"`
	CostETH        string    `json:"cost_eth"`
	MaxCostWei     string    `json:"max_cost_wei"`
	MaxCostETH     string    `json:"max_cost_eth"`
	Priced         bool      `json:"priced"`
	ETHUSD         float64   `json:"eth_usd,omitempty"`
	CostUSD        float64   `json:"cost_usd,omitempty"`
	MaxCostUSD     float64   `json:"max_cost_usd,omitempty"`
	PriceStale     bool      `json:"price_stale"`
	PriceUpdatedAt time.Time `json:"price_updated_at,omitzero"`
}

// ethFloat converts wei to ETH as a float (for display and USD values).
func ethFloat(wei *big.Int) float64 {
	f, _ := new(big.Float).Quo(new(big.Float).SetInt(wei), big.NewFloat(1e18)).Float64()
	return f
}

func mulUint(a *big.Int, n uint64) *big.Int { return new(big.Int).Mul(a, new(big.Int).SetUint64(n)) }

// gweiToWei converts a gwei amount to wei, rounding to the nearest wei.
func gweiToWei(g float64) *big.Int {
	f := new(big.Float).Mul(big.NewFloat(g), big.NewFloat(1e9))
	w, _ := f.Add(f, big.NewFloat(0.5)).Int(nil)
	return w
}

func readGasCost(ctx context.Context, env *Env, in *registry.Input) (any, error) {
	units := native.ArgInt(in, "gas_units", 0)
	if units <= 0 {
		return nil, errors.New("gas_units must be positive")
	}
	in.Step(0)
	var price, maxPrice *big.Int
	if g, ok := native.ArgFloat(in, "gas_price_gwei"); ok {
		price = gweiToWei(g)
		maxPrice = price
	} else {
		q, err := quoteGas(ctx, env)
		if err != nil {
			return nil, err
		}
		price, maxPrice = q.expected, q.max
	}
	cost, maxCost := mulUint(price, uint64(units)), mulUint(maxPrice, uint64(units))
	out := gasCostOut{GasUnits: units, GasPriceWei: price.String(), MaxGasPriceWei: maxPrice.String(),
		CostWei: cost.String(), CostETH: native.FormatUnits(cost, 18), MaxCostWei: maxCost.String(), MaxCostETH: native.FormatUnits(maxCost, 18)}
	in.Step(1)
	if p, err := native.PriceOf(ctx, env, common.Address{}); err == nil && p.Answer.Sign() > 0 {
		out.Priced, out.ETHUSD, out.PriceStale, out.PriceUpdatedAt = true, p.USD, p.Stale, p.UpdatedAt
		out.CostUSD, out.MaxCostUSD = ethFloat(cost)*p.USD, ethFloat(maxCost)*p.USD
	}
	in.Step(2)
	return out, nil
}
