package native

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// Ether is an amount of ETH, or of an 18-decimal staking token or share
// count (stETH, wstETH, rETH), in a result.
func Ether(wei *big.Int) AmountOut { return AmountOf(wei, 18) }

// ETHCents values wei of ETH (or of a token that redeems one for one) in
// USD cents with the ETH/USD feed, -1 when unpriced.
func ETHCents(ctx context.Context, env *Env, wei *big.Int) int64 {
	return ValueCents(ctx, env, common.Address{}, wei)
}

// ETHUSD is ETHCents in dollars, nil when unpriced.
func ETHUSD(ctx context.Context, env *Env, wei *big.Int) *float64 {
	return USD(ctx, env, common.Address{}, wei)
}

// WadString writes num/1e18 (an exchange rate) in plain decimal notation.
func WadString(num *big.Int) string {
	return RatString(new(big.Rat).SetFrac(num, Wad), 18)
}
