package native

import (
	"math"
	"math/big"
)

// Uniswap arithmetic ported from the mainnet contracts, so that quotes
// match what the contracts compute to the last unit: V2's getAmountOut and
// quote, and V3's TickMath.getSqrtRatioAtTick, SqrtPriceMath,
// SwapMath.computeSwapStep and TickBitmap.nextInitializedTickWithinOneWord.
// Values are *big.Int; where a contract branches on 256-bit overflow the
// overflow is emulated.
//
// A V3 quote runs the pool's swap loop over the pool's own tick state
// (bitmap words and liquidityNet, read as the loop needs them), so it is
// exact for any pool with the mainnet code, across tick crossings, and
// needs no wallet, balance or allowance (simulating exactInputSingle from
// the wallet would). ward's dev pools hold only full-range liquidity and
// swap in one step; they are recognised by their fullRange() getter and
// quoted with that one step, which is exact for them too.

var BigOne = big.NewInt(1)

var Two256 = new(big.Int).Lsh(BigOne, 256)

var MaxUint256 = new(big.Int).Sub(Two256, BigOne)

// ratString writes r in plain decimal notation with about sig significant
// digits (never an exponent), trailing zeros removed.
func RatString(r *big.Rat, sig int) string {
	if r.Sign() == 0 {
		return "0"
	}
	f, _ := new(big.Float).SetRat(new(big.Rat).Abs(r)).Float64()
	places := sig
	if f > 0 && !math.IsInf(f, 0) {
		places = max(0, sig-1-int(math.Floor(math.Log10(f))))
	}
	s := r.FloatString(places)
	if places > 0 {
		for s[len(s)-1] == '0' {
			s = s[:len(s)-1]
		}
		if s[len(s)-1] == '.' {
			s = s[:len(s)-1]
		}
	}
	return s
}
