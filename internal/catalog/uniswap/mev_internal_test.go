package uniswap

import (
	"math/big"
	"testing"
)

// TestSandwichAt plays a sandwich worked by hand on a fee-less pool of
// 1000/1000: a front-run of 100 buys 100·1000/1100 = 90; the victim's
// 100 then buys 100·910/1200 = 75 (90 unsandwiched); selling the 90 back
// into 835/1200 returns 90·1200/925 = 116: a profit of 16.
func TestSandwichAt(t *testing.T) {
	p := cpPool{rIn: big.NewInt(1000), rOut: big.NewInt(1000)}
	s := sandwichAt(p, big.NewInt(100), big.NewInt(100))
	if s.frontOut.Int64() != 90 || s.victimOut.Int64() != 75 || s.back.Int64() != 116 || s.profit.Int64() != 16 {
		t.Errorf("sandwich = front out %v victim %v back %v profit %v, want 90 75 116 16", s.frontOut, s.victimOut, s.back, s.profit)
	}
	if q := p.out(big.NewInt(100)); q.Int64() != 90 {
		t.Errorf("unsandwiched output %v, want 90", q)
	}
}

// TestCPOutIsV2 checks the fee arithmetic at 3000 against V2's getAmountOut.
func TestCPOutIsV2(t *testing.T) {
	rIn, rOut := new(big.Int).Mul(big.NewInt(1000), big.NewInt(1e18)), new(big.Int).Mul(big.NewInt(3_000_000), big.NewInt(1e6))
	for _, a := range []int64{1, 12345, 1e18} {
		want, _ := v2AmountOut(big.NewInt(a), rIn, rOut)
		if got := (cpPool{rIn: rIn, rOut: rOut, fee: 3000}).out(big.NewInt(a)); got.Cmp(want) != 0 {
			t.Errorf("out(%d) = %v, V2 gives %v", a, got, want)
		}
	}
}

// TestMaxSandwich: the front-run found is the largest that leaves the
// victim its minimum, and a looser tolerance gives the attacker more.
func TestMaxSandwich(t *testing.T) {
	p := cpPool{rIn: big.NewInt(1_000_000_000), rOut: big.NewInt(1_000_000_000), fee: 3000}
	v := big.NewInt(10_000_000)
	q := p.out(v)
	var last *big.Int
	for _, bps := range []int64{10, 50, 100, 300} {
		minOut := new(big.Int).Quo(new(big.Int).Mul(q, big.NewInt(10_000-bps)), big.NewInt(10_000))
		s := maxSandwich(p, v, minOut)
		if s.victimOut.Cmp(minOut) < 0 {
			t.Errorf("%d bps: victim gets %v below its minimum %v", bps, s.victimOut, minOut)
		}
		if next := sandwichAt(p, new(big.Int).Add(s.front, big.NewInt(1)), v); next.victimOut.Cmp(minOut) >= 0 {
			t.Errorf("%d bps: a front-run of %v+1 still leaves the minimum", bps, s.front)
		}
		// The attacker takes at most what the victim loses (the LPs keep
		// the fees of all three trades).
		if loss := new(big.Int).Sub(q, s.victimOut); s.profit.Cmp(loss) > 0 {
			t.Errorf("%d bps: profit %v above the victim's loss %v", bps, s.profit, loss)
		}
		if last != nil && s.profit.Cmp(last) <= 0 {
			t.Errorf("%d bps: profit %v not above the tighter tolerance's %v", bps, s.profit, last)
		}
		last = s.profit
	}
}

// TestImpactBps: at a mid price of 1 and a 0.3% fee, 1000 in should buy
// 997; 997 is no impact, 897.3 is 10% (1000 bps) short.
func TestImpactBps(t *testing.T) {
	one := big.NewRat(1, 1)
	if got := impactBps(big.NewInt(997), big.NewInt(1000), one, 3000); got != 0 {
		t.Errorf("impact at the fee-net mid price = %v, want 0", got)
	}
	if got := impactBps(big.NewInt(8973), big.NewInt(10000), one, 3000); got < 999.999 || got > 1000.001 {
		t.Errorf("impact of 8973 for 10000 = %v, want 1000 bps", got)
	}
}
