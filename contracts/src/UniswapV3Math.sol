// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice 512-bit intermediate multiply-then-divide, exact (no overflow of the product).
library FullMath {
    /// @notice floor(a * b / denominator). Reverts if denominator is zero or the result overflows 256 bits.
    function mulDiv(uint256 a, uint256 b, uint256 denominator) internal pure returns (uint256 result) {
        unchecked {
            // The product as a 512-bit number hi * 2^256 + lo, via the Chinese remainder theorem on
            // mod 2^256 and mod 2^256 - 1.
            uint256 lo;
            uint256 hi;
            assembly ("memory-safe") {
                let mm := mulmod(a, b, not(0))
                lo := mul(a, b)
                hi := sub(sub(mm, lo), lt(mm, lo))
            }
            if (hi == 0) {
                require(denominator > 0, "FullMath: division by zero");
                return lo / denominator;
            }
            require(denominator > hi, "FullMath: result overflows uint256");

            // Subtract the remainder so the division is exact.
            uint256 remainder;
            assembly ("memory-safe") {
                remainder := mulmod(a, b, denominator)
                hi := sub(hi, gt(remainder, lo))
                lo := sub(lo, remainder)
            }

            // Divide out the largest power of two dividing the denominator.
            uint256 twos = denominator & (~denominator + 1);
            assembly ("memory-safe") {
                denominator := div(denominator, twos)
                lo := div(lo, twos)
                // 2^256 / twos, computed as (0 - twos) / twos + 1.
                twos := add(div(sub(0, twos), twos), 1)
            }
            lo |= hi * twos;

            // The denominator is now odd, so it has an inverse mod 2^256. (3d) xor 2 is an inverse of
            // d mod 2^4; each Newton-Raphson step x *= 2 - d*x doubles the number of correct bits.
            uint256 inverse = (3 * denominator) ^ 2;
            inverse *= 2 - denominator * inverse; // 8 bits
            inverse *= 2 - denominator * inverse; // 16
            inverse *= 2 - denominator * inverse; // 32
            inverse *= 2 - denominator * inverse; // 64
            inverse *= 2 - denominator * inverse; // 128
            inverse *= 2 - denominator * inverse; // 256
            result = lo * inverse;
        }
    }

    /// @notice ceil(a * b / denominator).
    function mulDivRoundingUp(uint256 a, uint256 b, uint256 denominator) internal pure returns (uint256 result) {
        result = mulDiv(a, b, denominator);
        if (mulmod(a, b, denominator) > 0) {
            require(result < type(uint256).max, "FullMath: result overflows uint256");
            unchecked {
                result++;
            }
        }
    }

    function divRoundingUp(uint256 x, uint256 y) internal pure returns (uint256 z) {
        require(y > 0, "FullMath: division by zero");
        unchecked {
            z = x / y + (x % y > 0 ? 1 : 0);
        }
    }
}

/// @notice Conversions between ticks and Q64.96 square-root prices: sqrtPriceX96(tick) =
/// sqrt(1.0001^tick) * 2^96, with the same rounding as Uniswap V3, so the same (tick, price)
/// pairs hold on this chain as on mainnet.
library TickMath {
    int24 internal constant MIN_TICK = -887272;
    int24 internal constant MAX_TICK = 887272;
    /// @dev getSqrtRatioAtTick(MIN_TICK) and getSqrtRatioAtTick(MAX_TICK).
    uint160 internal constant MIN_SQRT_RATIO = 4295128739;
    uint160 internal constant MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342;

    /// @notice sqrt(1.0001^tick) as Q64.96, rounded up from the Q128.128 intermediate.
    /// @dev The factors are round(2^128 / sqrt(1.0001)^(2^i)) for i = 0..19; the intermediate is the
    /// product of the factors for the set bits of |tick|, inverted for positive ticks.
    function getSqrtRatioAtTick(int24 tick) internal pure returns (uint160 sqrtPriceX96) {
        uint256 absTick = tick < 0 ? uint256(-int256(tick)) : uint256(int256(tick));
        require(absTick <= uint256(int256(MAX_TICK)), "TickMath: tick out of range");
        unchecked {
            uint256 ratio = absTick & 0x1 != 0 ? 0xfffcb933bd6fad37aa2d162d1a594001 : 0x100000000000000000000000000000000;
            if (absTick & 0x2 != 0) ratio = (ratio * 0xfff97272373d413259a46990580e213a) >> 128;
            if (absTick & 0x4 != 0) ratio = (ratio * 0xfff2e50f5f656932ef12357cf3c7fdcc) >> 128;
            if (absTick & 0x8 != 0) ratio = (ratio * 0xffe5caca7e10e4e61c3624eaa0941cd0) >> 128;
            if (absTick & 0x10 != 0) ratio = (ratio * 0xffcb9843d60f6159c9db58835c926644) >> 128;
            if (absTick & 0x20 != 0) ratio = (ratio * 0xff973b41fa98c081472e6896dfb254c0) >> 128;
            if (absTick & 0x40 != 0) ratio = (ratio * 0xff2ea16466c96a3843ec78b326b52861) >> 128;
            if (absTick & 0x80 != 0) ratio = (ratio * 0xfe5dee046a99a2a811c461f1969c3053) >> 128;
            if (absTick & 0x100 != 0) ratio = (ratio * 0xfcbe86c7900a88aedcffc83b479aa3a4) >> 128;
            if (absTick & 0x200 != 0) ratio = (ratio * 0xf987a7253ac413176f2b074cf7815e54) >> 128;
            if (absTick & 0x400 != 0) ratio = (ratio * 0xf3392b0822b70005940c7a398e4b70f3) >> 128;
            if (absTick & 0x800 != 0) ratio = (ratio * 0xe7159475a2c29b7443b29c7fa6e889d9) >> 128;
            if (absTick & 0x1000 != 0) ratio = (ratio * 0xd097f3bdfd2022b8845ad8f792aa5825) >> 128;
            if (absTick & 0x2000 != 0) ratio = (ratio * 0xa9f746462d870fdf8a65dc1f90e061e5) >> 128;
            if (absTick & 0x4000 != 0) ratio = (ratio * 0x70d869a156d2a1b890bb3df62baf32f7) >> 128;
            if (absTick & 0x8000 != 0) ratio = (ratio * 0x31be135f97d08fd981231505542fcfa6) >> 128;
            if (absTick & 0x10000 != 0) ratio = (ratio * 0x9aa508b5b7a84e1c677de54f3e99bc9) >> 128;
            if (absTick & 0x20000 != 0) ratio = (ratio * 0x5d6af8dedb81196699c329225ee604) >> 128;
            if (absTick & 0x40000 != 0) ratio = (ratio * 0x2216e584f5fa1ea926041bedfe98) >> 128;
            if (absTick & 0x80000 != 0) ratio = (ratio * 0x48a170391f7dc42444e8fa2) >> 128;

            if (tick > 0) ratio = type(uint256).max / ratio;
            sqrtPriceX96 = uint160((ratio >> 32) + (ratio % (1 << 32) == 0 ? 0 : 1));
        }
    }

    /// @notice The greatest tick whose sqrt price is at most `sqrtPriceX96`, found by binary search
    /// over getSqrtRatioAtTick (which is strictly increasing), so the two functions always agree.
    function getTickAtSqrtRatio(uint160 sqrtPriceX96) internal pure returns (int24 tick) {
        require(
            sqrtPriceX96 >= MIN_SQRT_RATIO && sqrtPriceX96 < MAX_SQRT_RATIO, "TickMath: sqrt price out of range"
        );
        int256 lo = MIN_TICK;
        int256 hi = MAX_TICK;
        while (lo < hi) {
            int256 mid = lo + (hi - lo + 1) / 2;
            if (getSqrtRatioAtTick(int24(mid)) <= sqrtPriceX96) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        tick = int24(lo);
    }
}

/// @notice Price movement and token amounts for a constant liquidity L between two sqrt prices:
/// amount0 = L * (1/sqrtA - 1/sqrtB), amount1 = L * (sqrtB - sqrtA), prices as Q64.96.
/// Rounding always favours the pool.
library SqrtPriceMath {
    uint256 internal constant Q96 = 0x1000000000000000000000000;

    function toUint160(uint256 x) private pure returns (uint160) {
        require(x <= type(uint160).max, "SqrtPriceMath: price overflow");
        return uint160(x);
    }

    /// @notice The price after adding (or removing) `amount` of token0: L*sqrtP / (L + amount*sqrtP), rounded up.
    function getNextSqrtPriceFromAmount0RoundingUp(uint160 sqrtP, uint128 liquidity, uint256 amount, bool add)
        internal
        pure
        returns (uint160)
    {
        if (amount == 0) return sqrtP;
        uint256 numerator = uint256(liquidity) << 96;
        uint256 product;
        bool exact;
        unchecked {
            product = amount * sqrtP;
            exact = product / amount == sqrtP;
        }
        if (add) {
            if (exact) {
                uint256 denominator;
                unchecked {
                    denominator = numerator + product;
                }
                if (denominator >= numerator) {
                    return uint160(FullMath.mulDivRoundingUp(numerator, sqrtP, denominator));
                }
            }
            // The same value as numerator / (numerator / sqrtP + amount), which cannot overflow.
            return toUint160(FullMath.divRoundingUp(numerator, numerator / sqrtP + amount));
        }
        require(exact && numerator > product, "SqrtPriceMath: not enough liquidity for the output");
        return toUint160(FullMath.mulDivRoundingUp(numerator, sqrtP, numerator - product));
    }

    /// @notice The price after adding (or removing) `amount` of token1: sqrtP +- amount / L, rounded down.
    function getNextSqrtPriceFromAmount1RoundingDown(uint160 sqrtP, uint128 liquidity, uint256 amount, bool add)
        internal
        pure
        returns (uint160)
    {
        if (add) {
            uint256 quotient = amount <= type(uint160).max
                ? (amount << 96) / liquidity
                : FullMath.mulDiv(amount, Q96, liquidity);
            return toUint160(uint256(sqrtP) + quotient);
        }
        uint256 q = amount <= type(uint160).max
            ? FullMath.divRoundingUp(amount << 96, liquidity)
            : FullMath.mulDivRoundingUp(amount, Q96, liquidity);
        require(sqrtP > q, "SqrtPriceMath: not enough liquidity for the output");
        unchecked {
            return uint160(sqrtP - q);
        }
    }

    function getNextSqrtPriceFromInput(uint160 sqrtP, uint128 liquidity, uint256 amountIn, bool zeroForOne)
        internal
        pure
        returns (uint160)
    {
        require(sqrtP > 0 && liquidity > 0, "SqrtPriceMath: no liquidity");
        return zeroForOne
            ? getNextSqrtPriceFromAmount0RoundingUp(sqrtP, liquidity, amountIn, true)
            : getNextSqrtPriceFromAmount1RoundingDown(sqrtP, liquidity, amountIn, true);
    }

    function getNextSqrtPriceFromOutput(uint160 sqrtP, uint128 liquidity, uint256 amountOut, bool zeroForOne)
        internal
        pure
        returns (uint160)
    {
        require(sqrtP > 0 && liquidity > 0, "SqrtPriceMath: no liquidity");
        return zeroForOne
            ? getNextSqrtPriceFromAmount1RoundingDown(sqrtP, liquidity, amountOut, false)
            : getNextSqrtPriceFromAmount0RoundingUp(sqrtP, liquidity, amountOut, false);
    }

    /// @notice Token0 between two prices: L * 2^96 * (sqrtB - sqrtA) / (sqrtA * sqrtB).
    function getAmount0Delta(uint160 sqrtA, uint160 sqrtB, uint128 liquidity, bool roundUp)
        internal
        pure
        returns (uint256)
    {
        if (sqrtA > sqrtB) (sqrtA, sqrtB) = (sqrtB, sqrtA);
        require(sqrtA > 0, "SqrtPriceMath: zero price");
        uint256 numerator1 = uint256(liquidity) << 96;
        uint256 numerator2 = sqrtB - sqrtA;
        return roundUp
            ? FullMath.divRoundingUp(FullMath.mulDivRoundingUp(numerator1, numerator2, sqrtB), sqrtA)
            : FullMath.mulDiv(numerator1, numerator2, sqrtB) / sqrtA;
    }

    /// @notice Token1 between two prices: L * (sqrtB - sqrtA) / 2^96.
    function getAmount1Delta(uint160 sqrtA, uint160 sqrtB, uint128 liquidity, bool roundUp)
        internal
        pure
        returns (uint256)
    {
        if (sqrtA > sqrtB) (sqrtA, sqrtB) = (sqrtB, sqrtA);
        return roundUp
            ? FullMath.mulDivRoundingUp(liquidity, sqrtB - sqrtA, Q96)
            : FullMath.mulDiv(liquidity, sqrtB - sqrtA, Q96);
    }
}

/// @notice One swap step at constant liquidity towards a target price, as Uniswap V3 computes it:
/// the fee (in hundredths of a bip) is taken from the input.
library SwapMath {
    function computeSwapStep(
        uint160 sqrtCurrent,
        uint160 sqrtTarget,
        uint128 liquidity,
        int256 amountRemaining,
        uint24 feePips
    ) internal pure returns (uint160 sqrtNext, uint256 amountIn, uint256 amountOut, uint256 feeAmount) {
        bool zeroForOne = sqrtCurrent >= sqrtTarget;
        bool exactIn = amountRemaining >= 0;

        if (exactIn) {
            uint256 remainingLessFee = FullMath.mulDiv(uint256(amountRemaining), 1e6 - feePips, 1e6);
            amountIn = zeroForOne
                ? SqrtPriceMath.getAmount0Delta(sqrtTarget, sqrtCurrent, liquidity, true)
                : SqrtPriceMath.getAmount1Delta(sqrtCurrent, sqrtTarget, liquidity, true);
            sqrtNext = remainingLessFee >= amountIn
                ? sqrtTarget
                : SqrtPriceMath.getNextSqrtPriceFromInput(sqrtCurrent, liquidity, remainingLessFee, zeroForOne);
        } else {
            amountOut = zeroForOne
                ? SqrtPriceMath.getAmount1Delta(sqrtTarget, sqrtCurrent, liquidity, false)
                : SqrtPriceMath.getAmount0Delta(sqrtCurrent, sqrtTarget, liquidity, false);
            sqrtNext = uint256(-amountRemaining) >= amountOut
                ? sqrtTarget
                : SqrtPriceMath.getNextSqrtPriceFromOutput(sqrtCurrent, liquidity, uint256(-amountRemaining), zeroForOne);
        }

        bool reachedTarget = sqrtTarget == sqrtNext;
        if (zeroForOne) {
            if (!(reachedTarget && exactIn)) {
                amountIn = SqrtPriceMath.getAmount0Delta(sqrtNext, sqrtCurrent, liquidity, true);
            }
            if (!(reachedTarget && !exactIn)) {
                amountOut = SqrtPriceMath.getAmount1Delta(sqrtNext, sqrtCurrent, liquidity, false);
            }
        } else {
            if (!(reachedTarget && exactIn)) {
                amountIn = SqrtPriceMath.getAmount1Delta(sqrtCurrent, sqrtNext, liquidity, true);
            }
            if (!(reachedTarget && !exactIn)) {
                amountOut = SqrtPriceMath.getAmount0Delta(sqrtCurrent, sqrtNext, liquidity, false);
            }
        }

        // Never send out more than was asked for.
        if (!exactIn && amountOut > uint256(-amountRemaining)) amountOut = uint256(-amountRemaining);

        if (exactIn && sqrtNext != sqrtTarget) {
            // The target was not reached: all remaining input beyond amountIn is fee.
            feeAmount = uint256(amountRemaining) - amountIn;
        } else {
            feeAmount = FullMath.mulDivRoundingUp(amountIn, feePips, 1e6 - feePips);
        }
    }
}

/// @notice The Uniswap V3 price oracle: a ring buffer of (timestamp, tick cumulative, seconds per
/// liquidity cumulative) observations, written at most once per block, grown on request.
library Oracle {
    struct Observation {
        uint32 blockTimestamp;
        int56 tickCumulative;
        uint160 secondsPerLiquidityCumulativeX128;
        bool initialized;
    }

    function transform(Observation memory last, uint32 blockTimestamp, int24 tick, uint128 liquidity)
        private
        pure
        returns (Observation memory)
    {
        unchecked {
            uint32 delta = blockTimestamp - last.blockTimestamp;
            return Observation({
                blockTimestamp: blockTimestamp,
                tickCumulative: last.tickCumulative + int56(tick) * int56(uint56(delta)),
                secondsPerLiquidityCumulativeX128: last.secondsPerLiquidityCumulativeX128
                    + ((uint160(delta) << 128) / (liquidity > 0 ? liquidity : 1)),
                initialized: true
            });
        }
    }

    function initialize(Observation[65535] storage self, uint32 time)
        internal
        returns (uint16 cardinality, uint16 cardinalityNext)
    {
        self[0] = Observation(time, 0, 0, true);
        return (1, 1);
    }

    /// @notice Records the state before a change; a second write in the same block is ignored.
    function write(
        Observation[65535] storage self,
        uint16 index,
        uint32 blockTimestamp,
        int24 tick,
        uint128 liquidity,
        uint16 cardinality,
        uint16 cardinalityNext
    ) internal returns (uint16 indexUpdated, uint16 cardinalityUpdated) {
        Observation memory last = self[index];
        if (last.blockTimestamp == blockTimestamp) return (index, cardinality);
        cardinalityUpdated = (cardinalityNext > cardinality && index == cardinality - 1) ? cardinalityNext : cardinality;
        indexUpdated = (index + 1) % cardinalityUpdated;
        self[indexUpdated] = transform(last, blockTimestamp, tick, liquidity);
    }

    /// @notice Pre-pays storage for slots [current, next) so later writes cost the same.
    function grow(Observation[65535] storage self, uint16 current, uint16 next) internal returns (uint16) {
        require(current > 0, "UniswapV3Pool: not initialized");
        if (next <= current) return current;
        for (uint16 i = current; i < next; i++) {
            self[i].blockTimestamp = 1;
        }
        return next;
    }

    // a <= b, for 32-bit timestamps that may have wrapped, both at or before time.
    function lte(uint32 time, uint32 a, uint32 b) private pure returns (bool) {
        if (a <= time && b <= time) return a <= b;
        uint256 aAdjusted = a > time ? a : a + 2 ** 32;
        uint256 bAdjusted = b > time ? b : b + 2 ** 32;
        return aAdjusted <= bAdjusted;
    }

    function binarySearch(Observation[65535] storage self, uint32 time, uint32 target, uint16 index, uint16 cardinality)
        private
        view
        returns (Observation memory beforeOrAt, Observation memory atOrAfter)
    {
        uint256 l = (index + 1) % cardinality;
        uint256 r = l + cardinality - 1;
        while (true) {
            uint256 i = (l + r) / 2;
            beforeOrAt = self[i % cardinality];
            if (!beforeOrAt.initialized) {
                l = i + 1;
                continue;
            }
            atOrAfter = self[(i + 1) % cardinality];
            bool targetAtOrAfter = lte(time, beforeOrAt.blockTimestamp, target);
            if (targetAtOrAfter && lte(time, target, atOrAfter.blockTimestamp)) break;
            if (!targetAtOrAfter) r = i - 1;
            else l = i + 1;
        }
    }

    function getSurroundingObservations(
        Observation[65535] storage self,
        uint32 time,
        uint32 target,
        int24 tick,
        uint16 index,
        uint128 liquidity,
        uint16 cardinality
    ) private view returns (Observation memory beforeOrAt, Observation memory atOrAfter) {
        beforeOrAt = self[index];
        if (lte(time, beforeOrAt.blockTimestamp, target)) {
            if (beforeOrAt.blockTimestamp == target) return (beforeOrAt, atOrAfter);
            return (beforeOrAt, transform(beforeOrAt, target, tick, liquidity));
        }
        beforeOrAt = self[(index + 1) % cardinality];
        if (!beforeOrAt.initialized) beforeOrAt = self[0];
        require(lte(time, beforeOrAt.blockTimestamp, target), "UniswapV3Pool: observation too old (OLD)");
        return binarySearch(self, time, target, index, cardinality);
    }

    function observeSingle(
        Observation[65535] storage self,
        uint32 time,
        uint32 secondsAgo,
        int24 tick,
        uint16 index,
        uint128 liquidity,
        uint16 cardinality
    ) internal view returns (int56 tickCumulative, uint160 secondsPerLiquidityCumulativeX128) {
        unchecked {
            if (secondsAgo == 0) {
                Observation memory last = self[index];
                if (last.blockTimestamp != time) last = transform(last, time, tick, liquidity);
                return (last.tickCumulative, last.secondsPerLiquidityCumulativeX128);
            }
            uint32 target = time - secondsAgo;
            (Observation memory beforeOrAt, Observation memory atOrAfter) =
                getSurroundingObservations(self, time, target, tick, index, liquidity, cardinality);
            if (target == beforeOrAt.blockTimestamp) {
                return (beforeOrAt.tickCumulative, beforeOrAt.secondsPerLiquidityCumulativeX128);
            }
            if (target == atOrAfter.blockTimestamp) {
                return (atOrAfter.tickCumulative, atOrAfter.secondsPerLiquidityCumulativeX128);
            }
            uint56 span = atOrAfter.blockTimestamp - beforeOrAt.blockTimestamp;
            uint56 into = target - beforeOrAt.blockTimestamp;
            tickCumulative = beforeOrAt.tickCumulative
                + ((atOrAfter.tickCumulative - beforeOrAt.tickCumulative) / int56(span)) * int56(into);
            secondsPerLiquidityCumulativeX128 = beforeOrAt.secondsPerLiquidityCumulativeX128
                + uint160(
                    (uint256(atOrAfter.secondsPerLiquidityCumulativeX128 - beforeOrAt.secondsPerLiquidityCumulativeX128) * into)
                        / span
                );
        }
    }

    function observe(
        Observation[65535] storage self,
        uint32 time,
        uint32[] memory secondsAgos,
        int24 tick,
        uint16 index,
        uint128 liquidity,
        uint16 cardinality
    ) internal view returns (int56[] memory tickCumulatives, uint160[] memory secondsPerLiquidityCumulativeX128s) {
        require(cardinality > 0, "UniswapV3Pool: not initialized");
        tickCumulatives = new int56[](secondsAgos.length);
        secondsPerLiquidityCumulativeX128s = new uint160[](secondsAgos.length);
        for (uint256 i; i < secondsAgos.length; i++) {
            (tickCumulatives[i], secondsPerLiquidityCumulativeX128s[i]) =
                observeSingle(self, time, secondsAgos[i], tick, index, liquidity, cardinality);
        }
    }
}
