package native

import (
	"fmt"
	"math/big"
)

// The tick range of Uniswap V3.
const (
	MinTick = -887272
	MaxTick = 887272
)

// tickFactors are TickMath's round(2^128 / sqrt(1.0001)^(2^i)).
var tickFactors = func() []*big.Int {
	hexes := []string{
		"fffcb933bd6fad37aa2d162d1a594001", "fff97272373d413259a46990580e213a", "fff2e50f5f656932ef12357cf3c7fdcc",
		"ffe5caca7e10e4e61c3624eaa0941cd0", "ffcb9843d60f6159c9db58835c926644", "ff973b41fa98c081472e6896dfb254c0",
		"ff2ea16466c96a3843ec78b326b52861", "fe5dee046a99a2a811c461f1969c3053", "fcbe86c7900a88aedcffc83b479aa3a4",
		"f987a7253ac413176f2b074cf7815e54", "f3392b0822b70005940c7a398e4b70f3", "e7159475a2c29b7443b29c7fa6e889d9",
		"d097f3bdfd2022b8845ad8f792aa5825", "a9f746462d870fdf8a65dc1f90e061e5", "70d869a156d2a1b890bb3df62baf32f7",
		"31be135f97d08fd981231505542fcfa6", "9aa508b5b7a84e1c677de54f3e99bc9", "5d6af8dedb81196699c329225ee604",
		"2216e584f5fa1ea926041bedfe98", "48a170391f7dc42444e8fa2",
	}
	out := make([]*big.Int, len(hexes))
	for i, h := range hexes {
		out[i], _ = new(big.Int).SetString(h, 16)
	}
	return out
}()

// SqrtRatioAtTick is TickMath.getSqrtRatioAtTick: sqrt(1.0001^tick) as a
// Q64.96, exactly as the contracts round it.
func SqrtRatioAtTick(tick int64) (*big.Int, error) {
	if tick < MinTick || tick > MaxTick {
		return nil, fmt.Errorf("tick %d out of range", tick)
	}
	abs := tick
	if abs < 0 {
		abs = -abs
	}
	ratio := new(big.Int)
	if abs&1 != 0 {
		ratio.Set(tickFactors[0])
	} else {
		ratio.Lsh(BigOne, 128)
	}
	for i := 1; i < len(tickFactors); i++ {
		if abs&(1<<i) != 0 {
			ratio.Mul(ratio, tickFactors[i])
			ratio.Rsh(ratio, 128)
		}
	}
	if tick > 0 {
		ratio.Quo(MaxUint256, ratio)
	}
	rem := new(big.Int).And(ratio, big.NewInt(1<<32-1))
	ratio.Rsh(ratio, 32)
	if rem.Sign() != 0 {
		ratio.Add(ratio, BigOne)
	}
	return ratio, nil
}
