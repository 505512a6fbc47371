// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {SafeTransfer} from "./IERC20.sol";
import {FullMath, TickMath} from "./UniswapV3Math.sol";
import {IUniswapV3MintCallback, UniswapV3Pool} from "./UniswapV3Pool.sol";
import {UniswapV3Factory} from "./UniswapV3Factory.sol";

/// @title LiquidityHelper
/// @notice Lets an externally owned account add full-range liquidity to a UniswapV3Pool, which
/// only accepts liquidity through a callback. It stands in for mainnet's
/// NonfungiblePositionManager but mints no NFT: the position is owned in the pool by the caller
/// (positions(keccak256(abi.encodePacked(caller, tickLower, tickUpper)))), so the caller removes
/// liquidity by calling pool.burn and pool.collect directly. Tokens are pulled from the caller,
/// who approves this contract for both tokens.
contract LiquidityHelper is IUniswapV3MintCallback {
    uint256 private constant Q96 = 0x1000000000000000000000000;

    address public immutable factory;

    event LiquidityAdded(address indexed pool, address indexed owner, uint128 liquidity, uint256 amount0, uint256 amount1);

    constructor(address factory_) {
        factory = factory_;
    }

    /// @notice Adds the most full-range liquidity that amount0Max of token0 and amount1Max of
    /// token1 can pay for at the current price, owned by the caller.
    function addLiquidity(address pool, uint256 amount0Max, uint256 amount1Max)
        external
        returns (uint128 liquidity, uint256 amount0, uint256 amount1)
    {
        UniswapV3Pool p = UniswapV3Pool(pool);
        require(
            UniswapV3Factory(factory).getPool(p.token0(), p.token1(), p.fee()) == pool,
            "LiquidityHelper: not a pool of this factory"
        );
        (uint160 sqrtP,,,,,,) = p.slot0();
        require(sqrtP != 0, "LiquidityHelper: pool not initialized");
        (int24 tickLower, int24 tickUpper) = p.fullRange();
        liquidity = liquidityForAmounts(pool, sqrtP, amount0Max, amount1Max);
        require(liquidity > 0, "LiquidityHelper: amounts too small for any liquidity");
        (amount0, amount1) = p.mint(msg.sender, tickLower, tickUpper, liquidity, abi.encode(msg.sender));
        require(amount0 <= amount0Max && amount1 <= amount1Max, "LiquidityHelper: price moved beyond the maximum amounts");
        emit LiquidityAdded(pool, msg.sender, liquidity, amount0, amount1);
    }

    /// @notice The full-range liquidity that the given amounts buy at price sqrtP (rounded down).
    function liquidityForAmounts(address pool, uint160 sqrtP, uint256 amount0, uint256 amount1)
        public
        view
        returns (uint128)
    {
        (int24 tickLower, int24 tickUpper) = UniswapV3Pool(pool).fullRange();
        uint160 sqrtA = TickMath.getSqrtRatioAtTick(tickLower);
        uint160 sqrtB = TickMath.getSqrtRatioAtTick(tickUpper);
        // amount0 = L * (sqrtB - sqrtP) / (sqrtP * sqrtB), amount1 = L * (sqrtP - sqrtA), prices in Q64.96.
        uint256 l0 = FullMath.mulDiv(amount0, FullMath.mulDiv(sqrtP, sqrtB, Q96), sqrtB - sqrtP);
        uint256 l1 = FullMath.mulDiv(amount1, Q96, sqrtP - sqrtA);
        uint256 l = l0 < l1 ? l0 : l1;
        return l > type(uint128).max ? type(uint128).max : uint128(l);
    }

    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external {
        UniswapV3Pool p = UniswapV3Pool(msg.sender);
        address token0 = p.token0();
        address token1 = p.token1();
        require(
            UniswapV3Factory(factory).getPool(token0, token1, p.fee()) == msg.sender,
            "LiquidityHelper: callback from an unknown pool"
        );
        address payer = abi.decode(data, (address));
        if (amount0Owed > 0) SafeTransfer.safeTransferFrom(token0, payer, msg.sender, amount0Owed);
        if (amount1Owed > 0) SafeTransfer.safeTransferFrom(token1, payer, msg.sender, amount1Owed);
    }
}
