package gmx

import (
	"math/big"
	"testing"
)

// TestFeeKeys checks the DataStore keys against the values @gmx-io/sdk
// 1.4.0's configs/dataStore computes (ESTIMATED_GAS_FEE_*,
// increaseOrderGasLimitKey, decreaseOrderGasLimitKey,
// singleSwapGasLimitKey).
func TestFeeKeys(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"ESTIMATED_GAS_FEE_BASE_AMOUNT_V2_1", keyFeeBase.Hex(), "0x39288f227e5db9a793e9f4afb15aa22b77dbb7e410ffc973c816a19a6ed921cd"},
		{"ESTIMATED_GAS_FEE_PER_ORACLE_PRICE", keyFeePerPrice.Hex(), "0xf95915378e4358fb5f51ae0fd75853a15a29a978eb14b73d5c5b7d69d3b9fccc"},
		{"ESTIMATED_GAS_FEE_MULTIPLIER_FACTOR", keyFeeMultiplier.Hex(), "0xce135f2a886cf6d862269f215b1e64498fa09cb04f90b771b163399df2a82b81"},
		{"increaseOrderGasLimitKey", keyIncreaseGas.Hex(), "0x983e0a7f5307213e84497f2543331fe5e404db14ddf98f98dc956e0ee3ab6875"},
		{"decreaseOrderGasLimitKey", keyDecreaseGas.Hex(), "0xfce7a3444b72c2d30987163c1f2e6c00cffa03bf0b6ca2f077e8db006b4cae8b"},
		{"singleSwapGasLimitKey", keySingleSwapGas.Hex(), "0x3be28fb346f7abc4a956a16d3739c8c4bfcca9385988c64bf86cdd16638c1f81"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %s, want %s", tc.name, tc.got, tc.want)
		}
	}
}

// TestAdjustedGasLimit checks GasUtils.adjustGasLimitForEstimate against
// @gmx-io/sdk's getExecutionFee test (base 600,000, 250,000 per oracle
// price, multiplier 1, an order of 5,000,000 gas with 4 oracle prices:
// 6,600,000) and the dev chain's values.
func TestAdjustedGasLimit(t *testing.T) {
	n := func(v int64) *big.Int { return big.NewInt(v) }
	one := new(big.Int).Set(float)
	sdk := gasLimits{base: n(600_000), perOraclePrice: n(250_000), multiplier: one, increase: n(4_500_000), decrease: n(5_000_000), singleSwap: n(500_000)}
	dev := gasLimits{base: n(500_000), perOraclePrice: n(50_000), multiplier: new(big.Int).Quo(new(big.Int).Mul(float, n(12)), n(10)),
		increase: n(1_500_000), decrease: n(1_000_000), singleSwap: n(500_000)}
	for _, tc := range []struct {
		name     string
		g        gasLimits
		increase bool
		swaps    int64
		want     int64
	}{
		{"sdk increase with one swap", sdk, true, 1, 6_600_000},
		{"sdk decrease", sdk, false, 0, 600_000 + 750_000 + 5_000_000},
		{"dev increase", dev, true, 0, 500_000 + 150_000 + 1_800_000},
		{"dev decrease", dev, false, 0, 500_000 + 150_000 + 1_200_000},
		{"zero store", gasLimits{base: n(0), perOraclePrice: n(0), multiplier: n(0), increase: n(0), decrease: n(0), singleSwap: n(0)}, true, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.g.adjustedGasLimit(tc.increase, tc.swaps); got.Cmp(n(tc.want)) != 0 {
				t.Errorf("adjustedGasLimit = %s, want %d", got, tc.want)
			}
		})
	}
}
