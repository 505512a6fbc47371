package gmx

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/tool"
)

// GasPriceMarginBps is the margin ward adds to the gas price it reads
// when it pays an execution fee, in basis points: GMX checks the fee
// against tx.gasprice of the createOrder transaction, which may be mined
// at a higher price than the preview read. The margin is fixed, so the
// fee is at most this much above GMX's minimum; GMX refunds what the
// keeper does not use.
const GasPriceMarginBps = 2_000

// The DataStore keys of GMX's execution fee estimate, as @gmx-io/sdk
// 1.4.0's configs/dataStore reads them: each is the hashed name itself
// (its increaseOrderGasLimitKey is hashString("INCREASE_ORDER_GAS_LIMIT")).
var (
	keyFeeBase       = hashString("ESTIMATED_GAS_FEE_BASE_AMOUNT_V2_1")
	keyFeePerPrice   = hashString("ESTIMATED_GAS_FEE_PER_ORACLE_PRICE")
	keyFeeMultiplier = hashString("ESTIMATED_GAS_FEE_MULTIPLIER_FACTOR")
	keyIncreaseGas   = hashString("INCREASE_ORDER_GAS_LIMIT")
	keyDecreaseGas   = hashString("DECREASE_ORDER_GAS_LIMIT")
	keySingleSwapGas = hashString("SINGLE_SWAP_GAS_LIMIT")
)

// oraclePricesFixed is GasUtils.estimateOrderOraclePriceCount without
// swaps: an order needs 3 + swaps oracle prices.
const oraclePricesFixed = 3

// gasLimits are the DataStore values the fee estimate reads.
type gasLimits struct {
	base, perOraclePrice, multiplier, increase, decrease, singleSwap *big.Int
}

func readGasLimits(ctx context.Context, env *native.Env) (gasLimits, error) {
	var g gasLimits
	for _, f := range []struct {
		dst *(*big.Int)
		key common.Hash
	}{{&g.base, keyFeeBase}, {&g.perOraclePrice, keyFeePerPrice}, {&g.multiplier, keyFeeMultiplier},
		{&g.increase, keyIncreaseGas}, {&g.decrease, keyDecreaseGas}, {&g.singleSwap, keySingleSwapGas}} {
		v, err := getUint(ctx, env, f.key)
		if err != nil {
			return gasLimits{}, err
		}
		*f.dst = v
	}
	return g, nil
}

// adjustedGasLimit is GMX's GasUtils.adjustGasLimitForEstimate of an
// order's estimated execution gas (estimateExecuteIncreaseOrderGasLimit
// or estimateExecuteDecreaseOrderGasLimit, no callback, decrease orders
// without a swap of the output): the base amount, plus the amount per
// oracle price times 3 + swaps, plus the order type's gas limit and the
// single-swap gas per swap hop, times the multiplier factor (30
// decimals).
func (g gasLimits) adjustedGasLimit(increase bool, swaps int64) *big.Int {
	order := new(big.Int).Set(g.decrease)
	if increase {
		order.Set(g.increase)
	}
	order.Add(order, new(big.Int).Mul(g.singleSwap, big.NewInt(swaps)))
	limit := new(big.Int).Mul(g.perOraclePrice, big.NewInt(oraclePricesFixed+swaps))
	limit.Add(limit, g.base)
	return limit.Add(limit, new(big.Int).Quo(order.Mul(order, g.multiplier), float))
}

// fee is an order's execution fee: what the wallet sends with sendWnt.
type fee struct {
	gasLimit, gasPrice, amount *big.Int
}

// executionFee is the fee ward pays for an order: the adjusted gas limit
// times the chain's gas price raised by GasPriceMarginBps. It refuses a
// DataStore whose estimate is zero (the real one never is: a zero there
// means the keys are not GMX's) and a wallet that cannot pay it.
func executionFee(ctx context.Context, env *native.Env, increase bool) (fee, error) {
	g, err := readGasLimits(ctx, env)
	if err != nil {
		return fee{}, err
	}
	f := fee{gasLimit: g.adjustedGasLimit(increase, 0)}
	if f.gasLimit.Sign() == 0 {
		return fee{}, fmt.Errorf("the GMX DataStore %s has no execution gas estimate: ward cannot compute the execution fee", env.Venues.GmxDataStore.Hex())
	}
	price, err := env.Chain.SuggestGasPrice(ctx)
	if err != nil {
		return fee{}, fmt.Errorf("the gas price for the GMX execution fee: %w", err)
	}
	f.gasPrice = new(big.Int).Mul(price, big.NewInt(10_000+GasPriceMarginBps))
	f.gasPrice.Quo(f.gasPrice, big.NewInt(10_000))
	f.amount = new(big.Int).Mul(f.gasLimit, f.gasPrice)
	if err := native.NeedETH(ctx, env, env.Wallet.Address(), f.amount, "the GMX execution fee"); err != nil {
		return fee{}, err
	}
	return f, nil
}

// orderTx is the ExchangeRouter multicall that pays the fee and creates
// the order: sendWnt(OrderVault, fee), then calls (sendTokens), then
// createOrder, with the fee as the transaction's value.
func orderTx(env *native.Env, f fee, calls [][]byte, o createOrderParams) (tool.Tx, error) {
	a := chain.GmxExchangeRouterABI()
	o.Numbers.ExecutionFee = f.amount
	wnt, err := a.Pack("sendWnt", env.Venues.GmxOrderVault, f.amount)
	if err != nil {
		return tool.Tx{}, err
	}
	c, err := a.Pack("createOrder", o)
	if err != nil {
		return tool.Tx{}, err
	}
	all := append(append([][]byte{wnt}, calls...), c)
	t, err := native.Tx(a, env.Venues.GmxExchangeRouter, "createOrder", "multicall", all)
	if err != nil {
		return tool.Tx{}, err
	}
	t.Value = f.amount
	return t, nil
}

// String says what the fee is, for a plan's summary.
func (f fee) String() string {
	return fmt.Sprintf("execution fee %s ETH (%s gas at %s gwei; GMX refunds what the keeper does not use)",
		native.FormatUnits(f.amount, 18), f.gasLimit, native.FormatUnits(f.gasPrice, 9))
}
