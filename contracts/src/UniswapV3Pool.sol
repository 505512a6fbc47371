// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, SafeTransfer} from "./IERC20.sol";
import {FullMath, Oracle, SqrtPriceMath, SwapMath, TickMath} from "./UniswapV3Math.sol";

interface IUniswapV3MintCallback {
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata data) external;
}

interface IUniswapV3SwapCallback {
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// @notice Implemented by the contract that deploys pools (UniswapV3Factory); read by the pool's constructor.
interface IUniswapV3PoolDeployer {
    function parameters()
        external
        view
        returns (address factory, address token0, address token1, uint24 fee, int24 tickSpacing);
}

/// @title UniswapV3Pool
/// @notice A Uniswap V3 pool restricted to full-range liquidity: positions must span
/// [minUsableTick, maxUsableTick] (MIN_TICK and MAX_TICK rounded towards zero to the tick spacing).
/// Within that one range the pool is exact Uniswap V3: constant-L square-root price math, the fee
/// taken from the input, fee growth per unit of liquidity, the mint/swap callbacks and their
/// balance checks, the observation ring buffer (observe, increaseObservationCardinalityNext), and
/// slot0/ticks/tickBitmap/positions/observations getters with the mainnet return types.
/// The price stays strictly inside the range: a swap stops one unit of sqrt price short of either
/// boundary, so the boundary ticks are never crossed. Not provided: flash, protocol fees
/// (setFeeProtocol, collectProtocol; feeProtocol is always 0) and snapshotCumulativesInside.
/// Revert reasons are readable; the mainnet code is given in parentheses where there is one.
contract UniswapV3Pool {
    using Oracle for Oracle.Observation[65535];

    struct Slot0 {
        uint160 sqrtPriceX96;
        int24 tick;
        uint16 observationIndex;
        uint16 observationCardinality;
        uint16 observationCardinalityNext;
        uint8 feeProtocol;
        bool unlocked;
    }

    struct TickInfo {
        uint128 liquidityGross;
        int128 liquidityNet;
        uint256 feeGrowthOutside0X128;
        uint256 feeGrowthOutside1X128;
        int56 tickCumulativeOutside;
        uint160 secondsPerLiquidityOutsideX128;
        uint32 secondsOutside;
        bool initialized;
    }

    struct PositionInfo {
        uint128 liquidity;
        uint256 feeGrowthInside0LastX128;
        uint256 feeGrowthInside1LastX128;
        uint128 tokensOwed0;
        uint128 tokensOwed1;
    }

    struct ProtocolFees {
        uint128 token0;
        uint128 token1;
    }

    event Initialize(uint160 sqrtPriceX96, int24 tick);
    event Mint(
        address sender,
        address indexed owner,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount,
        uint256 amount0,
        uint256 amount1
    );
    event Collect(
        address indexed owner,
        address recipient,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount0,
        uint128 amount1
    );
    event Burn(
        address indexed owner,
        int24 indexed tickLower,
        int24 indexed tickUpper,
        uint128 amount,
        uint256 amount0,
        uint256 amount1
    );
    event Swap(
        address indexed sender,
        address indexed recipient,
        int256 amount0,
        int256 amount1,
        uint160 sqrtPriceX96,
        uint128 liquidity,
        int24 tick
    );
    event IncreaseObservationCardinalityNext(
        uint16 observationCardinalityNextOld, uint16 observationCardinalityNextNew
    );

    uint256 private constant Q128 = 1 << 128;

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;
    uint24 public immutable fee;
    int24 public immutable tickSpacing;
    uint128 public immutable maxLiquidityPerTick;

    int24 private immutable minUsableTick;
    int24 private immutable maxUsableTick;
    uint160 private immutable sqrtPriceLower;
    uint160 private immutable sqrtPriceUpper;

    Slot0 public slot0;
    uint256 public feeGrowthGlobal0X128;
    uint256 public feeGrowthGlobal1X128;
    ProtocolFees public protocolFees;
    uint128 public liquidity;

    mapping(int24 => TickInfo) public ticks;
    mapping(int16 => uint256) public tickBitmap;
    mapping(bytes32 => PositionInfo) public positions;
    Oracle.Observation[65535] public observations;

    modifier lock() {
        _lock();
        _;
        slot0.unlocked = true;
    }

    constructor() {
        int24 spacing;
        (factory, token0, token1, fee, spacing) = IUniswapV3PoolDeployer(msg.sender).parameters();
        tickSpacing = spacing;
        int24 lower = (TickMath.MIN_TICK / spacing) * spacing;
        int24 upper = (TickMath.MAX_TICK / spacing) * spacing;
        minUsableTick = lower;
        maxUsableTick = upper;
        sqrtPriceLower = TickMath.getSqrtRatioAtTick(lower);
        sqrtPriceUpper = TickMath.getSqrtRatioAtTick(upper);
        uint24 numTicks = uint24((upper - lower) / spacing) + 1;
        maxLiquidityPerTick = type(uint128).max / numTicks;
    }

    /// @notice The only tick range positions may use.
    function fullRange() external view returns (int24 tickLower, int24 tickUpper) {
        return (minUsableTick, maxUsableTick);
    }

    /// @notice Sets the first price. It must lie strictly inside the full range.
    function initialize(uint160 sqrtPriceX96) external {
        require(slot0.sqrtPriceX96 == 0, "UniswapV3Pool: already initialized (AI)");
        require(
            sqrtPriceX96 > sqrtPriceLower && sqrtPriceX96 < sqrtPriceUpper,
            "UniswapV3Pool: price outside the full tick range"
        );
        int24 tick = TickMath.getTickAtSqrtRatio(sqrtPriceX96);
        (uint16 cardinality, uint16 cardinalityNext) = observations.initialize(_blockTimestamp());
        slot0 = Slot0({
            sqrtPriceX96: sqrtPriceX96,
            tick: tick,
            observationIndex: 0,
            observationCardinality: cardinality,
            observationCardinalityNext: cardinalityNext,
            feeProtocol: 0,
            unlocked: true
        });
        emit Initialize(sqrtPriceX96, tick);
    }

    function observe(uint32[] calldata secondsAgos)
        external
        view
        returns (int56[] memory tickCumulatives, uint160[] memory secondsPerLiquidityCumulativeX128s)
    {
        Slot0 memory s = slot0;
        return observations.observe(
            _blockTimestamp(), secondsAgos, s.tick, s.observationIndex, liquidity, s.observationCardinality
        );
    }

    function increaseObservationCardinalityNext(uint16 observationCardinalityNext) external lock {
        uint16 oldNext = slot0.observationCardinalityNext;
        uint16 newNext = observations.grow(oldNext, observationCardinalityNext);
        slot0.observationCardinalityNext = newNext;
        if (oldNext != newNext) emit IncreaseObservationCardinalityNext(oldNext, newNext);
    }

    /// @notice Adds `amount` liquidity to recipient's full-range position; the caller pays through
    /// uniswapV3MintCallback.
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        lock
        returns (uint256 amount0, uint256 amount1)
    {
        _checkRange(tickLower, tickUpper);
        require(amount > 0 && amount <= uint128(type(int128).max), "UniswapV3Pool: invalid liquidity amount");
        (amount0, amount1) = _modifyPosition(recipient, int128(amount));

        uint256 balance0Before = amount0 > 0 ? _balance0() : 0;
        uint256 balance1Before = amount1 > 0 ? _balance1() : 0;
        IUniswapV3MintCallback(msg.sender).uniswapV3MintCallback(amount0, amount1, data);
        if (amount0 > 0) require(balance0Before + amount0 <= _balance0(), "UniswapV3Pool: token0 not paid (M0)");
        if (amount1 > 0) require(balance1Before + amount1 <= _balance1(), "UniswapV3Pool: token1 not paid (M1)");

        emit Mint(msg.sender, recipient, tickLower, tickUpper, amount, amount0, amount1);
    }

    /// @notice Removes liquidity from the caller's position; the tokens become owed and are sent by collect.
    function burn(int24 tickLower, int24 tickUpper, uint128 amount)
        external
        lock
        returns (uint256 amount0, uint256 amount1)
    {
        _checkRange(tickLower, tickUpper);
        require(amount <= uint128(type(int128).max), "UniswapV3Pool: invalid liquidity amount");
        (amount0, amount1) = _modifyPosition(msg.sender, -int128(amount));
        if (amount0 > 0 || amount1 > 0) {
            PositionInfo storage p = positions[_positionKey(msg.sender, tickLower, tickUpper)];
            unchecked {
                p.tokensOwed0 += uint128(amount0);
                p.tokensOwed1 += uint128(amount1);
            }
        }
        emit Burn(msg.sender, tickLower, tickUpper, amount, amount0, amount1);
    }

    /// @notice Sends up to the requested amounts of the caller's owed tokens (burned liquidity and fees).
    function collect(
        address recipient,
        int24 tickLower,
        int24 tickUpper,
        uint128 amount0Requested,
        uint128 amount1Requested
    ) external lock returns (uint128 amount0, uint128 amount1) {
        PositionInfo storage p = positions[_positionKey(msg.sender, tickLower, tickUpper)];
        amount0 = amount0Requested > p.tokensOwed0 ? p.tokensOwed0 : amount0Requested;
        amount1 = amount1Requested > p.tokensOwed1 ? p.tokensOwed1 : amount1Requested;
        if (amount0 > 0) {
            p.tokensOwed0 -= amount0;
            SafeTransfer.safeTransfer(token0, recipient, amount0);
        }
        if (amount1 > 0) {
            p.tokensOwed1 -= amount1;
            SafeTransfer.safeTransfer(token1, recipient, amount1);
        }
        emit Collect(msg.sender, recipient, tickLower, tickUpper, amount0, amount1);
    }

    /// @notice Swaps token0 for token1 (zeroForOne) or back. amountSpecified > 0 is exact input,
    /// < 0 exact output. Returns the pool's balance deltas: positive is paid in by the caller
    /// through uniswapV3SwapCallback, negative is sent to recipient.
    function swap(
        address recipient,
        bool zeroForOne,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96,
        bytes calldata data
    ) external returns (int256 amount0, int256 amount1) {
        require(amountSpecified != 0, "UniswapV3Pool: amountSpecified is zero (AS)");
        Slot0 memory start = slot0;
        _lock();
        require(
            zeroForOne
                ? sqrtPriceLimitX96 < start.sqrtPriceX96 && sqrtPriceLimitX96 > TickMath.MIN_SQRT_RATIO
                : sqrtPriceLimitX96 > start.sqrtPriceX96 && sqrtPriceLimitX96 < TickMath.MAX_SQRT_RATIO,
            "UniswapV3Pool: sqrtPriceLimitX96 out of range (SPL)"
        );
        uint128 liq = liquidity;
        require(liq > 0, "UniswapV3Pool: no liquidity");

        uint160 sqrtNext;
        (sqrtNext, amount0, amount1) = _computeSwap(start.sqrtPriceX96, zeroForOne, amountSpecified, sqrtPriceLimitX96, liq);
        require(amount0 != 0 || amount1 != 0, "UniswapV3Pool: swap too small");

        int24 tickNext = TickMath.getTickAtSqrtRatio(sqrtNext);
        if (tickNext != start.tick) {
            (uint16 index, uint16 cardinality) = observations.write(
                start.observationIndex,
                _blockTimestamp(),
                start.tick,
                liq,
                start.observationCardinality,
                start.observationCardinalityNext
            );
            (slot0.sqrtPriceX96, slot0.tick, slot0.observationIndex, slot0.observationCardinality) =
                (sqrtNext, tickNext, index, cardinality);
        } else {
            slot0.sqrtPriceX96 = sqrtNext;
        }

        if (zeroForOne) {
            if (amount1 < 0) SafeTransfer.safeTransfer(token1, recipient, uint256(-amount1));
            uint256 balance0Before = _balance0();
            IUniswapV3SwapCallback(msg.sender).uniswapV3SwapCallback(amount0, amount1, data);
            require(balance0Before + uint256(amount0) <= _balance0(), "UniswapV3Pool: token0 not paid (IIA)");
        } else {
            if (amount0 < 0) SafeTransfer.safeTransfer(token0, recipient, uint256(-amount0));
            uint256 balance1Before = _balance1();
            IUniswapV3SwapCallback(msg.sender).uniswapV3SwapCallback(amount0, amount1, data);
            require(balance1Before + uint256(amount1) <= _balance1(), "UniswapV3Pool: token1 not paid (IIA)");
        }

        emit Swap(msg.sender, recipient, amount0, amount1, sqrtNext, liq, tickNext);
        slot0.unlocked = true;
    }

    // One constant-liquidity step towards the limit, kept one unit inside the full range.
    // Accrues the fee to the input token's fee growth.
    function _computeSwap(uint160 sqrtP, bool zeroForOne, int256 amountSpecified, uint160 limit, uint128 liq)
        private
        returns (uint160 sqrtNext, int256 amount0, int256 amount1)
    {
        uint160 target;
        if (zeroForOne) {
            target = limit > sqrtPriceLower + 1 ? limit : sqrtPriceLower + 1;
            require(target < sqrtP, "UniswapV3Pool: price is at the edge of the liquidity range");
        } else {
            target = limit < sqrtPriceUpper - 1 ? limit : sqrtPriceUpper - 1;
            require(target > sqrtP, "UniswapV3Pool: price is at the edge of the liquidity range");
        }
        uint256 amountIn;
        uint256 amountOut;
        uint256 feeAmount;
        (sqrtNext, amountIn, amountOut, feeAmount) = SwapMath.computeSwapStep(sqrtP, target, liq, amountSpecified, fee);

        uint256 growth = FullMath.mulDiv(feeAmount, Q128, liq);
        unchecked {
            if (zeroForOne) feeGrowthGlobal0X128 += growth;
            else feeGrowthGlobal1X128 += growth;
        }

        int256 paid = int256(amountIn + feeAmount);
        int256 received = -int256(amountOut);
        (amount0, amount1) = zeroForOne ? (paid, received) : (received, paid);
    }

    function _modifyPosition(address owner, int128 liquidityDelta) private returns (uint256 amount0, uint256 amount1) {
        Slot0 memory s = slot0;
        uint32 time = _blockTimestamp();
        _updateTick(minUsableTick, liquidityDelta, false, s, time);
        _updateTick(maxUsableTick, liquidityDelta, true, s, time);

        PositionInfo storage p = positions[_positionKey(owner, minUsableTick, maxUsableTick)];
        if (liquidityDelta == 0) require(p.liquidity > 0, "UniswapV3Pool: position has no liquidity (NP)");
        (uint256 inside0, uint256 inside1) = _feeGrowthInside();
        unchecked {
            p.tokensOwed0 += uint128(FullMath.mulDiv(inside0 - p.feeGrowthInside0LastX128, p.liquidity, Q128));
            p.tokensOwed1 += uint128(FullMath.mulDiv(inside1 - p.feeGrowthInside1LastX128, p.liquidity, Q128));
        }
        p.feeGrowthInside0LastX128 = inside0;
        p.feeGrowthInside1LastX128 = inside1;

        uint128 absDelta = liquidityDelta < 0 ? uint128(-liquidityDelta) : uint128(liquidityDelta);
        if (liquidityDelta < 0) {
            require(p.liquidity >= absDelta, "UniswapV3Pool: burn exceeds the position's liquidity");
            p.liquidity -= absDelta;
        } else {
            p.liquidity += absDelta;
        }

        if (liquidityDelta != 0) {
            (slot0.observationIndex, slot0.observationCardinality) = observations.write(
                s.observationIndex, time, s.tick, liquidity, s.observationCardinality, s.observationCardinalityNext
            );
            liquidity = liquidityDelta < 0 ? liquidity - absDelta : liquidity + absDelta;
        }

        bool up = liquidityDelta > 0;
        amount0 = SqrtPriceMath.getAmount0Delta(s.sqrtPriceX96, sqrtPriceUpper, absDelta, up);
        amount1 = SqrtPriceMath.getAmount1Delta(sqrtPriceLower, s.sqrtPriceX96, absDelta, up);
    }

    function _updateTick(int24 tick, int128 liquidityDelta, bool upper, Slot0 memory s, uint32 time) private {
        TickInfo storage info = ticks[tick];
        uint128 grossBefore = info.liquidityGross;
        uint128 absDelta = liquidityDelta < 0 ? uint128(-liquidityDelta) : uint128(liquidityDelta);
        require(liquidityDelta >= 0 || grossBefore >= absDelta, "UniswapV3Pool: burn exceeds the position's liquidity");
        uint128 grossAfter = liquidityDelta < 0 ? grossBefore - absDelta : grossBefore + absDelta;
        require(grossAfter <= maxLiquidityPerTick, "UniswapV3Pool: liquidity above the per-tick maximum (LO)");

        if (grossBefore == 0 && grossAfter > 0) {
            // By convention all growth so far happened below a tick at or below the current tick.
            if (tick <= s.tick) {
                info.feeGrowthOutside0X128 = feeGrowthGlobal0X128;
                info.feeGrowthOutside1X128 = feeGrowthGlobal1X128;
                (info.tickCumulativeOutside, info.secondsPerLiquidityOutsideX128) = observations.observeSingle(
                    time, 0, s.tick, s.observationIndex, liquidity, s.observationCardinality
                );
                info.secondsOutside = time;
            }
            info.initialized = true;
        }
        info.liquidityGross = grossAfter;
        info.liquidityNet = upper ? info.liquidityNet - liquidityDelta : info.liquidityNet + liquidityDelta;

        if ((grossBefore == 0) != (grossAfter == 0)) {
            int24 compressed = tick / tickSpacing;
            int16 wordPos = int16(compressed >> 8);
            uint8 bitPos = uint8(uint24(compressed) & 0xff);
            tickBitmap[wordPos] ^= uint256(1) << bitPos;
            if (grossAfter == 0) delete ticks[tick];
        }
    }

    // The price is always strictly inside [minUsableTick, maxUsableTick], so nothing lies above the
    // upper tick and the lower tick's outside value is everything below it.
    function _feeGrowthInside() private view returns (uint256 inside0, uint256 inside1) {
        TickInfo storage lower = ticks[minUsableTick];
        TickInfo storage upper = ticks[maxUsableTick];
        unchecked {
            inside0 = feeGrowthGlobal0X128 - lower.feeGrowthOutside0X128 - upper.feeGrowthOutside0X128;
            inside1 = feeGrowthGlobal1X128 - lower.feeGrowthOutside1X128 - upper.feeGrowthOutside1X128;
        }
    }

    function _checkRange(int24 tickLower, int24 tickUpper) private view {
        require(
            tickLower == minUsableTick && tickUpper == maxUsableTick,
            "UniswapV3Pool: only full-range positions are supported (see fullRange())"
        );
    }

    function _lock() private {
        if (!slot0.unlocked) {
            if (slot0.sqrtPriceX96 == 0) revert("UniswapV3Pool: not initialized");
            revert("UniswapV3Pool: locked (LOK)");
        }
        slot0.unlocked = false;
    }

    function _positionKey(address owner, int24 tickLower, int24 tickUpper) private pure returns (bytes32) {
        return keccak256(abi.encodePacked(owner, tickLower, tickUpper));
    }

    function _balance0() private view returns (uint256) {
        return IERC20(token0).balanceOf(address(this));
    }

    function _balance1() private view returns (uint256) {
        return IERC20(token1).balanceOf(address(this));
    }

    function _blockTimestamp() private view returns (uint32) {
        return uint32(block.timestamp);
    }
}
