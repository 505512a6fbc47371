package uniswap

import (
	"context"
	"errors"
	"math"
	"math/big"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

var (
	q96        = new(big.Int).Lsh(native.BigOne, 96)
	two160     = new(big.Int).Lsh(native.BigOne, 160)
	maxUint128 = new(big.Int).Sub(new(big.Int).Lsh(native.BigOne, 128), native.BigOne)
	// minSqrtRatio and maxSqrtRatio are getSqrtRatioAtTick(minTick) and
	// getSqrtRatioAtTick(maxTick).
	minSqrtRatio    = big.NewInt(4295128739)
	maxSqrtRatio, _ = new(big.Int).SetString("1461446703485210103287273052203988822378723970342", 10)
)

// The tick range of Uniswap V3.
const (
	minTick = native.MinTick
	maxTick = native.MaxTick
)

// sqrtRatioAtTick is TickMath.getSqrtRatioAtTick (see native).
var sqrtRatioAtTick = native.SqrtRatioAtTick

var (
	errV2Liquidity = errors.New("the pair has no liquidity")
	errV2Input     = errors.New("the input amount must be greater than 0")
)

// v2Quote is UniswapV2Library.quote: amountA of token A at the pair's
// reserve ratio, in token B.
func v2Quote(amountA, reserveA, reserveB *big.Int) (*big.Int, error) {
	if amountA.Sign() <= 0 {
		return nil, errV2Input
	}
	if reserveA.Sign() <= 0 || reserveB.Sign() <= 0 {
		return nil, errV2Liquidity
	}
	v := new(big.Int).Mul(amountA, reserveB)
	return v.Quo(v, reserveA), nil
}

// v2AddAmounts is UniswapV2Router02._addLiquidity without the minimums:
// the amounts the router takes for the desired amounts at the reserves.
func v2AddAmounts(desiredA, desiredB, reserveA, reserveB *big.Int) (*big.Int, *big.Int, error) {
	if reserveA.Sign() == 0 && reserveB.Sign() == 0 {
		return new(big.Int).Set(desiredA), new(big.Int).Set(desiredB), nil
	}
	optB, err := v2Quote(desiredA, reserveA, reserveB)
	if err != nil {
		return nil, nil, err
	}
	if optB.Cmp(desiredB) <= 0 {
		return new(big.Int).Set(desiredA), optB, nil
	}
	optA, err := v2Quote(desiredB, reserveB, reserveA)
	if err != nil {
		return nil, nil, err
	}
	return optA, new(big.Int).Set(desiredB), nil
}

// v2Minted is the liquidity a V2 pair mints for amounts a and b added at
// reserves ra, rb with totalSupply ts (without the protocol fee's mint).
func v2Minted(a, b, ra, rb, ts *big.Int) *big.Int {
	if ts.Sign() == 0 {
		l := new(big.Int).Sqrt(new(big.Int).Mul(a, b))
		return l.Sub(l, big.NewInt(1000))
	}
	la := new(big.Int).Mul(a, ts)
	la.Quo(la, ra)
	lb := new(big.Int).Mul(b, ts)
	lb.Quo(lb, rb)
	if la.Cmp(lb) < 0 {
		return la
	}
	return lb
}

// mulDiv is FullMath.mulDiv: floor(a*b/d), failing when the result does
// not fit 256 bits or d is zero.
func mulDiv(a, b, d *big.Int) (*big.Int, error) {
	if d.Sign() == 0 {
		return nil, errors.New("mulDiv: division by zero")
	}
	r := new(big.Int).Mul(a, b)
	r.Quo(r, d)
	if r.Cmp(native.MaxUint256) > 0 {
		return nil, errors.New("mulDiv: overflow")
	}
	return r, nil
}

// mulDivUp is FullMath.mulDivRoundingUp.
func mulDivUp(a, b, d *big.Int) (*big.Int, error) {
	if d.Sign() == 0 {
		return nil, errors.New("mulDiv: division by zero")
	}
	p := new(big.Int).Mul(a, b)
	q, m := new(big.Int).QuoRem(p, d, new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, native.BigOne)
	}
	if q.Cmp(native.MaxUint256) > 0 {
		return nil, errors.New("mulDiv: overflow")
	}
	return q, nil
}

// divUp is UnsafeMath.divRoundingUp.
func divUp(x, y *big.Int) *big.Int {
	q, m := new(big.Int).QuoRem(x, y, new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, native.BigOne)
	}
	return q
}

// tickAtSqrtRatio is TickMath.getTickAtSqrtRatio: the greatest tick whose
// sqrt ratio is at most sqrtP.
func tickAtSqrtRatio(sqrtP *big.Int) (int64, error) {
	if sqrtP.Cmp(minSqrtRatio) < 0 || sqrtP.Cmp(maxSqrtRatio) >= 0 {
		return 0, errors.New("sqrt price out of range")
	}
	lo, hi := int64(minTick), int64(maxTick)
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		r, _ := sqrtRatioAtTick(mid)
		if r.Cmp(sqrtP) <= 0 {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, nil
}

func toUint160(x *big.Int) (*big.Int, error) {
	if x.Cmp(two160) >= 0 {
		return nil, errors.New("sqrt price overflow")
	}
	return x, nil
}

// nextSqrtPriceFromAmount0Up is SqrtPriceMath's
// getNextSqrtPriceFromAmount0RoundingUp with add = true (input of token0).
func nextSqrtPriceFromAmount0Up(sqrtP, liquidity, amount *big.Int) (*big.Int, error) {
	if amount.Sign() == 0 {
		return new(big.Int).Set(sqrtP), nil
	}
	num := new(big.Int).Lsh(liquidity, 96)
	product := new(big.Int).Mul(amount, sqrtP)
	if product.Cmp(native.MaxUint256) <= 0 {
		den := new(big.Int).Add(num, product)
		if den.Cmp(native.MaxUint256) <= 0 {
			r, err := mulDivUp(num, sqrtP, den)
			if err != nil {
				return nil, err
			}
			return r, nil
		}
	}
	d := new(big.Int).Quo(num, sqrtP)
	d.Add(d, amount)
	return toUint160(divUp(num, d))
}

// nextSqrtPriceFromAmount1Down is SqrtPriceMath's
// getNextSqrtPriceFromAmount1RoundingDown with add = true (input of
// token1).
func nextSqrtPriceFromAmount1Down(sqrtP, liquidity, amount *big.Int) (*big.Int, error) {
	q := new(big.Int).Lsh(amount, 96)
	q.Quo(q, liquidity)
	return toUint160(q.Add(q, sqrtP))
}

// amount0Delta is SqrtPriceMath.getAmount0Delta.
func amount0Delta(a, b, liquidity *big.Int, up bool) (*big.Int, error) {
	if a.Cmp(b) > 0 {
		a, b = b, a
	}
	if a.Sign() <= 0 {
		return nil, errors.New("zero sqrt price")
	}
	n1 := new(big.Int).Lsh(liquidity, 96)
	n2 := new(big.Int).Sub(b, a)
	if up {
		v, err := mulDivUp(n1, n2, b)
		if err != nil {
			return nil, err
		}
		return divUp(v, a), nil
	}
	v, err := mulDiv(n1, n2, b)
	if err != nil {
		return nil, err
	}
	return v.Quo(v, a), nil
}

// amount1Delta is SqrtPriceMath.getAmount1Delta.
func amount1Delta(a, b, liquidity *big.Int, up bool) (*big.Int, error) {
	if a.Cmp(b) > 0 {
		a, b = b, a
	}
	d := new(big.Int).Sub(b, a)
	if up {
		return mulDivUp(liquidity, d, q96)
	}
	return mulDiv(liquidity, d, q96)
}

// swapStep is the result of one SwapMath.computeSwapStep.
type swapStep struct {
	sqrtNext, amountIn, amountOut, fee *big.Int
}

// computeSwapStepExactIn is SwapMath.computeSwapStep for an exact input
// (amountRemaining > 0) with the fee in hundredths of a bip.
func computeSwapStepExactIn(sqrtCur, sqrtTarget, liquidity, remaining *big.Int, feePips int64) (swapStep, error) {
	var s swapStep
	zeroForOne := sqrtCur.Cmp(sqrtTarget) >= 0
	lessFee, err := mulDiv(remaining, big.NewInt(1e6-feePips), big.NewInt(1e6))
	if err != nil {
		return s, err
	}
	var toTarget *big.Int
	if zeroForOne {
		toTarget, err = amount0Delta(sqrtTarget, sqrtCur, liquidity, true)
	} else {
		toTarget, err = amount1Delta(sqrtCur, sqrtTarget, liquidity, true)
	}
	if err != nil {
		return s, err
	}
	if lessFee.Cmp(toTarget) >= 0 {
		s.sqrtNext = new(big.Int).Set(sqrtTarget)
	} else {
		if liquidity.Sign() == 0 {
			return s, errors.New("no liquidity")
		}
		if zeroForOne {
			s.sqrtNext, err = nextSqrtPriceFromAmount0Up(sqrtCur, liquidity, lessFee)
		} else {
			s.sqrtNext, err = nextSqrtPriceFromAmount1Down(sqrtCur, liquidity, lessFee)
		}
		if err != nil {
			return s, err
		}
	}
	reached := s.sqrtNext.Cmp(sqrtTarget) == 0
	if zeroForOne {
		if reached {
			s.amountIn = toTarget
		} else if s.amountIn, err = amount0Delta(s.sqrtNext, sqrtCur, liquidity, true); err != nil {
			return s, err
		}
		if s.amountOut, err = amount1Delta(s.sqrtNext, sqrtCur, liquidity, false); err != nil {
			return s, err
		}
	} else {
		if reached {
			s.amountIn = toTarget
		} else if s.amountIn, err = amount1Delta(sqrtCur, s.sqrtNext, liquidity, true); err != nil {
			return s, err
		}
		if s.amountOut, err = amount0Delta(sqrtCur, s.sqrtNext, liquidity, false); err != nil {
			return s, err
		}
	}
	if !reached {
		s.fee = new(big.Int).Sub(remaining, s.amountIn)
	} else if s.fee, err = mulDivUp(s.amountIn, big.NewInt(feePips), big.NewInt(1e6-feePips)); err != nil {
		return s, err
	}
	return s, nil
}

// tickSource reads the tick state a multi-range V3 swap crosses.
type tickSource interface {
	// bitmapWord returns tickBitmap(word).
	bitmapWord(ctx context.Context, word int16) (*big.Int, error)
	// liquidityNet returns ticks(tick).liquidityNet.
	liquidityNet(ctx context.Context, tick int64) (*big.Int, error)
}

// nextInitializedTick is TickBitmap.nextInitializedTickWithinOneWord.
func nextInitializedTick(ctx context.Context, src tickSource, tick, spacing int64, lte bool) (int64, bool, error) {
	compressed := tick / spacing
	if tick < 0 && tick%spacing != 0 {
		compressed--
	}
	if lte {
		word, bit := int16(compressed>>8), uint(uint8(compressed&0xff))
		w, err := src.bitmapWord(ctx, word)
		if err != nil {
			return 0, false, err
		}
		mask := new(big.Int).Sub(new(big.Int).Lsh(native.BigOne, bit+1), native.BigOne)
		masked := mask.And(mask, w)
		if masked.Sign() != 0 {
			msb := int64(masked.BitLen() - 1)
			return (compressed - (int64(bit) - msb)) * spacing, true, nil
		}
		return (compressed - int64(bit)) * spacing, false, nil
	}
	next := compressed + 1
	word, bit := int16(next>>8), uint(uint8(next&0xff))
	w, err := src.bitmapWord(ctx, word)
	if err != nil {
		return 0, false, err
	}
	masked := new(big.Int).Rsh(w, bit)
	if masked.Sign() != 0 {
		lsb := int64(masked.TrailingZeroBits())
		return (next + lsb) * spacing, true, nil
	}
	return (next + int64(255-bit)) * spacing, false, nil
}

// v3Pool is the state of a V3 pool a quote starts from.
type v3Pool struct {
	sqrtP     *big.Int
	tick      int64
	liquidity *big.Int
	fee       int64 // hundredths of a bip
	spacing   int64
	// fullRange is set for ward's dev pools, which hold only full-range
	// liquidity and swap in one step towards the range's edge; ticks is
	// then unused.
	fullRange *[2]int64
	ticks     tickSource
}

// v3Swap is a quoted exact-input swap.
type v3Swap struct {
	amountIn  *big.Int // input consumed (less than asked when the price limit was reached)
	amountOut *big.Int
	sqrtAfter *big.Int
	steps     int
	crossed   int // initialized ticks crossed
}

// errV3TooManySteps is returned for a swap that would cross more tick
// ranges than a quote may read.
var errV3TooManySteps = errors.New("the swap crosses too many tick ranges to quote; split it into smaller swaps")

// quoteV3ExactIn runs UniswapV3Pool.swap's loop for an exact input with
// the SwapRouter's default price limit, reading tick state from p.ticks
// as it goes, and returns what the pool would pay out. It is exact: it
// performs the same steps with the same rounding as the pool, crossing
// initialized ticks with their liquidityNet. maxSteps bounds the reads.
func quoteV3ExactIn(ctx context.Context, p v3Pool, zeroForOne bool, amountIn *big.Int, maxSteps int) (v3Swap, error) {
	out := v3Swap{amountIn: new(big.Int), amountOut: new(big.Int)}
	if amountIn.Sign() <= 0 {
		return out, errors.New("the input amount must be greater than 0")
	}
	limit := new(big.Int).Add(minSqrtRatio, native.BigOne)
	if !zeroForOne {
		limit = new(big.Int).Sub(maxSqrtRatio, native.BigOne)
	}
	if p.fullRange != nil {
		return quoteV3FullRange(p, zeroForOne, amountIn, out)
	}
	remaining := new(big.Int).Set(amountIn)
	sqrtP, tick, liq := new(big.Int).Set(p.sqrtP), p.tick, new(big.Int).Set(p.liquidity)
	for remaining.Sign() != 0 && sqrtP.Cmp(limit) != 0 {
		if out.steps == maxSteps {
			return out, errV3TooManySteps
		}
		out.steps++
		next, initialized, err := nextInitializedTick(ctx, p.ticks, tick, p.spacing, zeroForOne)
		if err != nil {
			return out, err
		}
		next = min(max(next, minTick), maxTick)
		sqrtNext, err := sqrtRatioAtTick(next)
		if err != nil {
			return out, err
		}
		target := sqrtNext
		if (zeroForOne && sqrtNext.Cmp(limit) < 0) || (!zeroForOne && sqrtNext.Cmp(limit) > 0) {
			target = limit
		}
		start := sqrtP
		st, err := computeSwapStepExactIn(sqrtP, target, liq, remaining, p.fee)
		if err != nil {
			return out, err
		}
		sqrtP = st.sqrtNext
		remaining.Sub(remaining, st.amountIn)
		remaining.Sub(remaining, st.fee)
		out.amountOut.Add(out.amountOut, st.amountOut)
		if sqrtP.Cmp(sqrtNext) == 0 {
			if initialized {
				net, err := p.ticks.liquidityNet(ctx, next)
				if err != nil {
					return out, err
				}
				if zeroForOne {
					net = new(big.Int).Neg(net)
				}
				liq.Add(liq, net)
				if liq.Sign() < 0 {
					return out, errors.New("pool liquidity went negative while crossing ticks")
				}
				out.crossed++
			}
			if zeroForOne {
				tick = next - 1
			} else {
				tick = next
			}
		} else if sqrtP.Cmp(start) != 0 {
			if tick, err = tickAtSqrtRatio(sqrtP); err != nil {
				return out, err
			}
		}
	}
	out.amountIn.Sub(amountIn, remaining)
	out.sqrtAfter = sqrtP
	return out, nil
}

// quoteV3FullRange is ward's dev pool's swap: one step at constant
// liquidity towards one unit inside the full range's edge.
func quoteV3FullRange(p v3Pool, zeroForOne bool, amountIn *big.Int, out v3Swap) (v3Swap, error) {
	lower, err := sqrtRatioAtTick(p.fullRange[0])
	if err != nil {
		return out, err
	}
	upper, err := sqrtRatioAtTick(p.fullRange[1])
	if err != nil {
		return out, err
	}
	target := new(big.Int).Add(lower, native.BigOne)
	if !zeroForOne {
		target = new(big.Int).Sub(upper, native.BigOne)
	}
	if (zeroForOne && target.Cmp(p.sqrtP) >= 0) || (!zeroForOne && target.Cmp(p.sqrtP) <= 0) {
		return out, errors.New("the pool's price is at the edge of its liquidity range")
	}
	if p.liquidity.Sign() == 0 {
		return out, errors.New("the pool has no liquidity")
	}
	st, err := computeSwapStepExactIn(p.sqrtP, target, p.liquidity, amountIn, p.fee)
	if err != nil {
		return out, err
	}
	out.steps = 1
	out.amountIn.Add(st.amountIn, st.fee)
	out.amountOut.Set(st.amountOut)
	out.sqrtAfter = st.sqrtNext
	return out, nil
}

// priceFromSqrtX96 is the price of one whole token0 in token1 at a V3
// sqrt price: (sqrtP / 2^96)^2 * 10^(decimals0 - decimals1).
func priceFromSqrtX96(sqrtP *big.Int, dec0, dec1 uint8) *big.Rat {
	num := new(big.Int).Mul(sqrtP, sqrtP)
	num.Mul(num, native.Pow10(int(dec0)))
	den := new(big.Int).Lsh(native.Pow10(int(dec1)), 192)
	return new(big.Rat).SetFrac(num, den)
}

// priceFromReserves is the price of one whole token0 in token1 at V2
// reserves.
func priceFromReserves(r0, r1 *big.Int, dec0, dec1 uint8) *big.Rat {
	if r0.Sign() == 0 {
		return new(big.Rat)
	}
	num := new(big.Int).Mul(r1, native.Pow10(int(dec0)))
	den := new(big.Int).Mul(r0, native.Pow10(int(dec1)))
	return new(big.Rat).SetFrac(num, den)
}

// bpsOf returns (a - b) / a in basis points, to two decimals (0 when a is
// zero).
func bpsOf(a, b *big.Rat) float64 {
	if a.Sign() == 0 {
		return 0
	}
	d := new(big.Rat).Sub(a, b)
	d.Quo(d, a)
	d.Mul(d, big.NewRat(10000, 1))
	f, _ := d.Float64()
	return math.Round(f*100) / 100
}

// sqrtRatios returns the sqrt prices at the ends of the tick range [lo, hi].
func sqrtRatios(lo, hi int64) (*big.Int, *big.Int, error) {
	sa, err := sqrtRatioAtTick(lo)
	if err != nil {
		return nil, nil, err
	}
	sb, err := sqrtRatioAtTick(hi)
	if err != nil {
		return nil, nil, err
	}
	return sa, sb, nil
}
