// Package uniswap holds the catalogue's Uniswap V2 and V3 tools: pool
// discovery and state, exact quotes (the pools' own arithmetic, across
// tick crossings), swaps, and V2 and full-range V3 liquidity.
package uniswap

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

// Tools are the Uniswap V2 and V3 tools: pool discovery and state, quotes,
// swaps and liquidity.
func Tools() []native.Maker {
	return []native.Maker{
		// Pool discovery and state (data), quotes (trading).
		native.At("uniswap", native.Read(defUniPools, "pools", uniPools)),
		native.At("uniswap", native.Read(defUniPoolInfo, "pool", uniPoolInfo)),
		native.At("uniswap_v2", native.Read(defUniReserves, "reserves", uniReserves)),
		native.At("uniswap", native.Read(defUniQuote, "quote", uniQuote)),
		native.At("uniswap", native.Read(defUniImpact, "price_impact", uniImpact)),
		native.At("uniswap", native.Read(defUniLPPosition, "lp_position", uniLPPosition)),
		// Writes.
		native.Write(defUniSwapV3, "swap", "uniswap_v3", planSwapV3),
		native.Write(defUniSwapV2, "swap", "uniswap_v2", planSwapV2),
		native.Write(defUniAddLiquidity, "add_liquidity", "uniswap_v2", planAddLiquidity),
		native.Write(defUniRemoveLiquidity, "remove_liquidity", "uniswap_v2", planRemoveLiquidity),
		native.When(hasV3Helper, native.Write(defUniAddV3Liquidity, "add_liquidity", "uniswap_v3", planAddV3Liquidity)),
		native.Write(defUniRemoveV3Liquidity, "remove_liquidity", "uniswap_v3", planRemoveV3Liquidity),
	}
}

// hasV3Helper reports whether the environment names a Uniswap V3
// liquidity helper (ward's dev chain has one; mainnet's
// NonfungiblePositionManager is not supported).
func hasV3Helper(env *native.Env) bool {
	return env.Venues.UniswapV3LiquidityHelper != (common.Address{})
}
