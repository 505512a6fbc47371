// Package uniswap holds the catalogue's Uniswap V2 and V3 tools: pool
// discovery and state, exact quotes (the pools' own arithmetic, across
// tick crossings), swaps, routing over V2 and V3 (direct and two-hop, see
// route.go), V2 and full-range V3 liquidity (ward's dev-chain helper), and
// V3 position NFTs through the NonfungiblePositionManager (list, mint,
// increase, decrease, collect).
package uniswap

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

// Tools are the Uniswap V2 and V3 tools: pool discovery and state, quotes,
// swaps, routing and liquidity.
func Tools() []native.Maker {
	return []native.Maker{
		// Pool discovery and state (data), quotes (trading).
		pools, poolInfo, reserves, quoteTool, impact, lpPosition, routeRead,
		// Intelligence over the pools.
		mevExposure, compareVenues,
		// Writes.
		swapV3, swapV2, addV2, removeV2, addV3, removeV3, routeSwap,
		// Positions through the NonfungiblePositionManager.
		listPositions, mintPosition, increaseLiquidity, decreaseLiquidity, collectFees,
	}
}

// hasV3Helper reports whether the environment names a Uniswap V3
// liquidity helper (ward's dev chain has one; real chains use the
// NonfungiblePositionManager, see positions.go).
func hasV3Helper(env *native.Env) bool {
	return env.Venues.UniswapV3LiquidityHelper != (common.Address{})
}
