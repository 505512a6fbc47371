package deploy

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/chain"
)

// deployUniswapV4 deploys the PoolManager (owned by the key), StateView,
// V4Quoter and the Universal Router over V2, V3, V4 and Permit2 (no V4
// position manager, no Across spoke pool), initialises the two WETH/USDC
// pools (chain.DevV4Pools) and the native ETH/USDC pool
// (chain.DevV4NativePool) at $3,000 per ETH and adds full-range liquidity to each through
// v4-core's PoolModifyLiquidityTest router. It runs after deployPermit2:
// the router pulls tokens through Permit2, so without Permit2 in the book
// it is left out too.
func deployUniswapV4(ctx context.Context, s *sender, r *Result) {
	p2, ok := r.Contract(addrbook.Permit2)
	if !ok {
		s.report("Uniswap V4 and the Universal Router are left out: no usable Permit2")
		return
	}
	weth, usdc := r.tok("WETH"), r.tok("USDC")
	pm := s.deploy(ctx, "Uniswap V4 PoolManager", artV4PoolManager, s.from)
	view := s.deploy(ctx, "Uniswap V4 StateView", artV4StateView, pm)
	quoter := s.deploy(ctx, "Uniswap V4 V4Quoter", artV4Quoter, pm)
	v2, _ := r.Contract(addrbook.UniswapV2Factory)
	v3, _ := r.Contract(addrbook.UniswapV3Factory)
	npm, _ := r.Contract(addrbook.UniswapV3PositionManager)
	router := s.deploy(ctx, "Uniswap Universal Router", artURouter, chain.UniversalRouterParameters{
		Permit2: p2, Weth9: weth, V2Factory: v2, V3Factory: v3,
		PairInitCodeHash: v2InitCodeHash, PoolInitCodeHash: v3InitCodeHash,
		V4PoolManager: pm, V3NFTPositionManager: npm,
	})
	liq := s.deploy(ctx, "Uniswap V4 PoolModifyLiquidityTest", artV4Liquidity, pm)
	for _, t := range []common.Address{weth, usdc} {
		s.send(ctx, "approved the V4 liquidity router", nil, artERC20, t, "approve", liq, maxUint)
	}
	keys := chain.DevV4Pools(weth, usdc)
	amt0, amt1 := units(wethPerV4Pool*3_000, 6), units(wethPerV4Pool, 18)
	if keys[0].Currency0 == weth {
		amt0, amt1 = amt1, amt0
	}
	sqrtP := new(big.Int).Sqrt(new(big.Int).Div(new(big.Int).Lsh(amt1, 192), amt0))
	position := chain.DevV4FullRange(amt0, amt1)
	for _, key := range keys {
		name := "Uniswap V4 WETH/USDC 0.30 %"
		if key.Hooks != (common.Address{}) {
			name += " (hooked)"
		}
		s.send(ctx, "initialized "+name, nil, artV4PoolManager, pm, "initialize", key, sqrtP)
		// modifyLiquidity0 is go-ethereum's name for the 3-argument overload.
		s.send(ctx, "added full-range liquidity to "+name, nil, artV4Liquidity, liq, "modifyLiquidity0", key,
			position, []byte{})
		out := s.call(ctx, artV4StateView, view, "getLiquidity", key.ID())
		if s.err == nil {
			if got, ok := out[0].(*big.Int); !ok || got.Sign() == 0 {
				s.fail(fmt.Errorf("%s (id %s) has no liquidity after the deposit", name, key.ID().Hex()))
			}
		}
	}
	// The native ETH/USDC pool, ETH as currency0 paid as the call's value.
	native := chain.DevV4NativePool(usdc)
	amtETH, amtUSDC := units(wethPerV4Pool, 18), units(wethPerV4Pool*3_000, 6)
	name := "Uniswap V4 ETH/USDC 0.30 % (native ETH)"
	s.send(ctx, "initialized "+name, nil, artV4PoolManager, pm, "initialize", native, new(big.Int).Sqrt(new(big.Int).Div(new(big.Int).Lsh(amtUSDC, 192), amtETH)))
	s.send(ctx, "added full-range liquidity to "+name, amtETH, artV4Liquidity, liq, "modifyLiquidity0", native,
		chain.DevV4FullRange(amtETH, amtUSDC), []byte{})
	r.addContract(addrbook.UniswapV4PoolManager, pm)
	r.addContract(addrbook.UniswapV4StateView, view)
	r.addContract(addrbook.UniswapV4Quoter, quoter)
	r.addContract(addrbook.UniversalRouter, router)
}
