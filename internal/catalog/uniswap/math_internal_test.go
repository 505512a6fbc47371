package uniswap

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

func e18(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), native.Pow10(18)) }

// v2AmountOut is UniswapV2Library.getAmountOut: the output of an exact
// input with the 0.3 % fee. The MEV estimate prices through cpPool.out;
// this is the reference the tests hold it to.
func v2AmountOut(amountIn, reserveIn, reserveOut *big.Int) (*big.Int, error) {
	if amountIn.Sign() <= 0 {
		return nil, errV2Input
	}
	if reserveIn.Sign() <= 0 || reserveOut.Sign() <= 0 {
		return nil, errV2Liquidity
	}
	withFee := new(big.Int).Mul(amountIn, big.NewInt(997))
	num := new(big.Int).Mul(withFee, reserveOut)
	den := new(big.Int).Mul(reserveIn, big.NewInt(1000))
	den.Add(den, withFee)
	return num.Quo(num, den), nil
}

func TestV2AmountOut(t *testing.T) {
	for _, c := range []struct {
		name          string
		in, rIn, rOut *big.Int
		want          string
		wantErr       error
	}{
		// floor(997e18 * 3e12 / (1000e18 * 1000 + 997e18))
		{"1 WETH into 1000 WETH / 3M USDC", e18(1), e18(1000), big.NewInt(3_000_000e6), "2988020943", nil},
		// floor(997000 * 1e6 / (1e9 + 997000)) = floor(996.007)
		{"balanced 1:1", big.NewInt(1000), big.NewInt(1_000_000), big.NewInt(1_000_000), "996", nil},
		{"tiny input rounds to zero", big.NewInt(1), big.NewInt(1_000_000), big.NewInt(1_000_000), "0", nil},
		{"zero input", big.NewInt(0), big.NewInt(1), big.NewInt(1), "", errV2Input},
		{"empty pair", big.NewInt(1), big.NewInt(0), big.NewInt(1), "", errV2Liquidity},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := v2AmountOut(c.in, c.rIn, c.rOut)
			if err != c.wantErr {
				t.Fatalf("err = %v, want %v", err, c.wantErr)
			}
			if err == nil && got.String() != c.want {
				t.Errorf("getAmountOut = %s, want %s", got, c.want)
			}
			if err == nil {
				// Independent check: the largest out with (rIn*1000 + in*997)(rOut - out) >= rIn*rOut*1000.
				k := new(big.Int).Mul(c.rIn, c.rOut)
				k.Mul(k, big.NewInt(1000))
				lhs := func(out *big.Int) *big.Int {
					a := new(big.Int).Add(new(big.Int).Mul(c.rIn, big.NewInt(1000)), new(big.Int).Mul(c.in, big.NewInt(997)))
					return a.Mul(a, new(big.Int).Sub(c.rOut, out))
				}
				if lhs(got).Cmp(k) < 0 || lhs(new(big.Int).Add(got, native.BigOne)).Cmp(k) >= 0 {
					t.Errorf("output %s is not the largest that keeps the fee-adjusted product", got)
				}
			}
		})
	}
}

func TestV2AddAmounts(t *testing.T) {
	// Pair at 3000 USDC (6) per WETH (18).
	rA, rB := big.NewInt(3_000_000e6), e18(1000)
	for _, c := range []struct {
		name         string
		desA, desB   *big.Int
		wantA, wantB string
	}{
		{"B is the binding side", big.NewInt(6_000e6), e18(1), "3000000000", "1000000000000000000"},
		{"A is the binding side", big.NewInt(3_000e6), e18(5), "3000000000", "1000000000000000000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b, err := v2AddAmounts(c.desA, c.desB, rA, rB)
			if err != nil {
				t.Fatal(err)
			}
			if a.String() != c.wantA || b.String() != c.wantB {
				t.Errorf("amounts = %s, %s; want %s, %s", a, b, c.wantA, c.wantB)
			}
		})
	}
	a, b, _ := v2AddAmounts(big.NewInt(7), big.NewInt(9), new(big.Int), new(big.Int))
	if a.Int64() != 7 || b.Int64() != 9 {
		t.Errorf("an empty pair takes the desired amounts, got %s, %s", a, b)
	}
	if got := v2Minted(big.NewInt(4000), big.NewInt(9000), new(big.Int), new(big.Int), new(big.Int)); got.Int64() != 6000-1000 {
		t.Errorf("first mint = %s, want sqrt(4000*9000) - 1000", got)
	}
	if got := v2Minted(big.NewInt(10), big.NewInt(30), big.NewInt(100), big.NewInt(200), big.NewInt(50)); got.Int64() != 5 {
		t.Errorf("mint = %s, want min(10*50/100, 30*50/200) = 5", got)
	}
}

func TestSqrtRatioAtTick(t *testing.T) {
	for _, c := range []struct {
		tick int64
		want *big.Int
	}{
		{0, q96},
		{minTick, minSqrtRatio},
		{maxTick, maxSqrtRatio},
	} {
		got, err := sqrtRatioAtTick(c.tick)
		if err != nil || got.Cmp(c.want) != 0 {
			t.Errorf("sqrtRatioAtTick(%d) = %v, %v; want %s", c.tick, got, err, c.want)
		}
	}
	for _, tick := range []int64{minTick - 1, maxTick + 1} {
		if _, err := sqrtRatioAtTick(tick); err == nil {
			t.Errorf("sqrtRatioAtTick(%d) accepted an out-of-range tick", tick)
		}
	}
	// Against sqrt(1.0001^tick) * 2^96 in floating point.
	for _, tick := range []int64{1, -1, 10, -10, 50, 887, -8870, 20000, -200000, 500000, -500000} {
		got, err := sqrtRatioAtTick(tick)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := new(big.Float).SetInt(got).Float64()
		want := math.Pow(1.0001, float64(tick)/2) * math.Pow(2, 96)
		if rel := math.Abs(f-want) / want; rel > 1e-9 {
			t.Errorf("sqrtRatioAtTick(%d) = %g, want about %g (relative error %g)", tick, f, want, rel)
		}
		back, err := tickAtSqrtRatio(got)
		if err != nil || back != tick {
			t.Errorf("tickAtSqrtRatio(sqrtRatioAtTick(%d)) = %d, %v", tick, back, err)
		}
		below := new(big.Int).Sub(got, native.BigOne)
		if back, _ := tickAtSqrtRatio(below); back != tick-1 {
			t.Errorf("tickAtSqrtRatio(sqrtRatioAtTick(%d) - 1) = %d, want %d", tick, back, tick-1)
		}
	}
}

// encodePriceSqrt is v3-core's test helper: floor(sqrt(r1/r0) * 2^96).
func encodePriceSqrt(r1, r0 int64) *big.Int {
	v := new(big.Int).Lsh(big.NewInt(r1), 192)
	v.Quo(v, big.NewInt(r0))
	return v.Sqrt(v)
}

// TestComputeSwapStep uses vectors of v3-core's SwapMath tests.
func TestComputeSwapStep(t *testing.T) {
	for _, c := range []struct {
		name                     string
		target                   *big.Int
		wantIn, wantOut, wantFee string
		reached                  bool
	}{
		{"capped at the price target", encodePriceSqrt(101, 100), "9975124224178055", "9925619580021728", "5988667735148", true},
		{"fully spent", encodePriceSqrt(1000, 100), "999400000000000000", "666399946655997866", "600000000000000", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := computeSwapStepExactIn(encodePriceSqrt(1, 1), c.target, e18(2), e18(1), 600)
			if err != nil {
				t.Fatal(err)
			}
			if st.amountIn.String() != c.wantIn || st.amountOut.String() != c.wantOut || st.fee.String() != c.wantFee {
				t.Errorf("in %s out %s fee %s; want %s %s %s", st.amountIn, st.amountOut, st.fee, c.wantIn, c.wantOut, c.wantFee)
			}
			if (st.sqrtNext.Cmp(c.target) == 0) != c.reached {
				t.Errorf("reached target = %v, want %v", !c.reached, c.reached)
			}
			spent := new(big.Int).Add(st.amountIn, st.fee)
			if !c.reached && spent.Cmp(e18(1)) != 0 {
				t.Errorf("input not fully spent: %s", spent)
			}
		})
	}
}

func TestPriceFromSqrtX96(t *testing.T) {
	// A WETH (18) / USDC (6) pool at 3000 USDC per WETH, with either token
	// as token0.
	wethFirst := encodeRaw(big.NewInt(3_000_000e6), e18(1000)) // token1/token0 = USDC/WETH
	usdcFirst := encodeRaw(e18(1000), big.NewInt(3_000_000e6))
	for _, c := range []struct {
		name       string
		sqrtP      *big.Int
		dec0, dec1 uint8
		want       float64
	}{
		{"WETH is token0", wethFirst, 18, 6, 3000},
		{"USDC is token0", usdcFirst, 6, 18, 1.0 / 3000},
		{"equal decimals at par", q96, 18, 18, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, _ := priceFromSqrtX96(c.sqrtP, c.dec0, c.dec1).Float64()
			if math.Abs(f-c.want)/c.want > 1e-12 {
				t.Errorf("price = %g, want %g", f, c.want)
			}
		})
	}
	if s := native.RatString(priceFromSqrtX96(q96, 18, 18), 18); s != "1" {
		t.Errorf("ratString = %q, want 1", s)
	}
	r0, r1 := big.NewInt(3_000_000e6), e18(1000)
	if f, _ := priceFromReserves(r0, r1, 6, 18).Float64(); math.Abs(f-1.0/3000) > 1e-15 {
		t.Errorf("priceFromReserves = %g", f)
	}
}

// encodeRaw is the sqrt price at which amount0 of token0 is worth amount1
// of token1.
func encodeRaw(amount1, amount0 *big.Int) *big.Int {
	v := new(big.Int).Lsh(amount1, 192)
	v.Quo(v, amount0)
	return v.Sqrt(v)
}

func TestRatString(t *testing.T) {
	for _, c := range []struct {
		r    *big.Rat
		sig  int
		want string
	}{
		{big.NewRat(3000, 1), 18, "3000"},
		{big.NewRat(1, 3000), 6, "0.000333333"},
		{big.NewRat(1, 3), 4, "0.3333"},
		{big.NewRat(-5, 2), 6, "-2.5"},
		{new(big.Rat), 6, "0"},
		{new(big.Rat).SetFrac(big.NewInt(1), native.Pow10(30)), 3, "0.000000000000000000000000000001"},
	} {
		if got := native.RatString(c.r, c.sig); got != c.want {
			t.Errorf("ratString(%s, %d) = %q, want %q", c.r, c.sig, got, c.want)
		}
	}
}

// bitmap is a tick bitmap held in memory, for the TickBitmap tests.
type bitmap struct {
	spacing int64
	words   map[int16]*big.Int
	net     map[int64]*big.Int
	reads   int
}

func newBitmap(spacing int64) *bitmap {
	return &bitmap{spacing: spacing, words: map[int16]*big.Int{}, net: map[int64]*big.Int{}}
}

func (b *bitmap) init(tick int64, net *big.Int) {
	c := tick / b.spacing
	w, bit := int16(c>>8), uint(uint8(c&0xff))
	if b.words[w] == nil {
		b.words[w] = new(big.Int)
	}
	b.words[w].SetBit(b.words[w], int(bit), 1)
	b.net[tick] = net
}

func (b *bitmap) bitmapWord(_ context.Context, w int16) (*big.Int, error) {
	b.reads++
	if v := b.words[w]; v != nil {
		return v, nil
	}
	return new(big.Int), nil
}

func (b *bitmap) liquidityNet(_ context.Context, tick int64) (*big.Int, error) {
	if v := b.net[tick]; v != nil {
		return v, nil
	}
	return new(big.Int), nil
}

// TestNextInitializedTick uses the cases of v3-core's TickBitmap tests.
func TestNextInitializedTick(t *testing.T) {
	b := newBitmap(1)
	for _, tick := range []int64{-200, -55, -4, 70, 78, 84, 139, 240, 535} {
		b.init(tick, new(big.Int))
	}
	for _, c := range []struct {
		tick     int64
		lte      bool
		want     int64
		wantInit bool
	}{
		{78, false, 84, true},
		{-55, false, -4, true},
		{77, false, 78, true},
		{-56, false, -55, true},
		{255, false, 511, false},
		{-257, false, -200, true},
		{78, true, 78, true},
		{79, true, 78, true},
		{258, true, 256, false},
		{256, true, 256, false},
		{72, true, 70, true},
		{-257, true, -512, false},
		{1023, true, 768, false},
		{900, true, 768, false},
	} {
		got, init, err := nextInitializedTick(t.Context(), b, c.tick, 1, c.lte)
		if err != nil || got != c.want || init != c.wantInit {
			t.Errorf("next(%d, lte %v) = %d, %v, %v; want %d, %v", c.tick, c.lte, got, init, err, c.want, c.wantInit)
		}
	}
}

// TestQuoteV3 checks the multi-range quote against the one-step
// full-range quote (they agree while the swap stays within one bitmap
// word) and its tick crossing.
func TestQuoteV3(t *testing.T) {
	liq := new(big.Int).Mul(big.NewInt(1_000_000), native.Pow10(18))
	lo, hi := int64(-887220), int64(887220)
	full := newBitmap(60)
	full.init(lo, liq)
	full.init(hi, new(big.Int).Neg(liq))
	base := v3Pool{sqrtP: q96, tick: 0, liquidity: liq, fee: 3000, spacing: 60, ticks: full}
	oneStep := base
	oneStep.fullRange = &[2]int64{lo, hi}
	for _, zf1 := range []bool{true, false} {
		amount := e18(1000)
		multi, err := quoteV3ExactIn(t.Context(), base, zf1, amount, 64)
		if err != nil {
			t.Fatal(err)
		}
		single, err := quoteV3ExactIn(t.Context(), oneStep, zf1, amount, 64)
		if err != nil {
			t.Fatal(err)
		}
		if multi.amountOut.Cmp(single.amountOut) != 0 || multi.amountIn.Cmp(amount) != 0 || single.amountIn.Cmp(amount) != 0 {
			t.Errorf("zeroForOne %v: multi-range %s (in %s), one step %s (in %s)", zf1, multi.amountOut, multi.amountIn, single.amountOut, single.amountIn)
		}
		// At price 1 with 0.3 % fee and 0.1 % of the depth, the output is about 996.
		f, _ := new(big.Float).Quo(new(big.Float).SetInt(multi.amountOut), new(big.Float).SetInt(native.Pow10(18))).Float64()
		if f < 995 || f > 997 {
			t.Errorf("zeroForOne %v: output %g, want about 996", zf1, f)
		}
	}

	// A narrow range [-60, 60] over the full range: a swap that leaves it
	// crosses tick -60 and continues with the full range's liquidity only.
	narrow := newBitmap(60)
	narrowLiq := new(big.Int).Mul(liq, big.NewInt(10))
	narrow.init(lo, liq)
	narrow.init(hi, new(big.Int).Neg(liq))
	narrow.init(-60, narrowLiq)
	narrow.init(60, new(big.Int).Neg(narrowLiq))
	p := v3Pool{sqrtP: q96, tick: 0, liquidity: new(big.Int).Add(liq, narrowLiq), fee: 3000, spacing: 60, ticks: narrow}
	small, err := quoteV3ExactIn(t.Context(), p, true, e18(1), 64)
	if err != nil || small.crossed != 0 {
		t.Fatalf("small swap: crossed %d, err %v", small.crossed, err)
	}
	big1, err := quoteV3ExactIn(t.Context(), p, true, e18(1_000_000), 64)
	if err != nil {
		t.Fatal(err)
	}
	if big1.crossed != 1 || big1.amountIn.Cmp(e18(1_000_000)) != 0 {
		t.Errorf("large swap crossed %d ticks, consumed %s; want 1 tick and all the input", big1.crossed, big1.amountIn)
	}
	after, _ := tickAtSqrtRatio(big1.sqrtAfter)
	if after >= -60 {
		t.Errorf("price after the large swap is at tick %d, want below -60", after)
	}
	// Without the narrow range's liquidity beyond tick -60 the output must
	// be less than with it everywhere.
	everywhere := v3Pool{sqrtP: q96, tick: 0, liquidity: new(big.Int).Add(liq, narrowLiq), fee: 3000, spacing: 60,
		fullRange: &[2]int64{lo, hi}}
	deep, _ := quoteV3ExactIn(t.Context(), everywhere, true, e18(1_000_000), 64)
	if big1.amountOut.Cmp(deep.amountOut) >= 0 {
		t.Errorf("crossing out of the narrow range paid %s, not less than %s with its liquidity everywhere", big1.amountOut, deep.amountOut)
	}
	if _, err := quoteV3ExactIn(t.Context(), p, true, e18(1_000_000), 1); err != errV3TooManySteps {
		t.Errorf("a one-step budget: err = %v, want errV3TooManySteps", err)
	}
}

func TestV3LiquidityAndAmounts(t *testing.T) {
	sa, _ := sqrtRatioAtTick(-887220)
	sb, _ := sqrtRatioAtTick(887220)
	sqrtP := encodeRaw(big.NewInt(3_000_000e6), e18(1000))
	max0, max1 := e18(2), big.NewInt(10_000e6)
	l, err := v3LiquidityFor(sqrtP, sa, sb, max0, max1)
	if err != nil || l.Sign() == 0 {
		t.Fatalf("liquidity = %v, %v", l, err)
	}
	a0, a1, err := v3Amounts(sqrtP, sa, sb, l, true)
	if err != nil {
		t.Fatal(err)
	}
	if a0.Cmp(max0) > 0 || a1.Cmp(max1) > 0 {
		t.Errorf("amounts %s, %s exceed the maxima", a0, a1)
	}
	// 2 WETH are worth 6000 USDC, so WETH binds and about 6000 USDC go in.
	if a0.Cmp(native.SlippageMin(max0, 1)) < 0 || a1.Cmp(big.NewInt(5_990e6)) < 0 || a1.Cmp(big.NewInt(6_010e6)) > 0 {
		t.Errorf("amounts %s, %s; want about 2 WETH and 6000 USDC", a0, a1)
	}
	r0, r1, _ := v3Amounts(sqrtP, sa, sb, l, false)
	if r0.Cmp(a0) > 0 || r1.Cmp(a1) > 0 || new(big.Int).Sub(a0, r0).Cmp(big.NewInt(2)) > 0 {
		t.Errorf("removal %s, %s is not adding %s, %s rounded down", r0, r1, a0, a1)
	}
}

func TestV3PositionKey(t *testing.T) {
	owner := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	// abi.encodePacked(address, int24, int24): 20 + 3 + 3 bytes, ticks in
	// two's complement.
	want := crypto.Keccak256(append(owner.Bytes(), 0xf2, 0x76, 0x74, 0x0d, 0x89, 0x8c))
	got := v3PositionKey(owner, -887180, 887180)
	if string(got[:]) != string(want) {
		t.Errorf("key = %x, want %x", got, want)
	}
}
