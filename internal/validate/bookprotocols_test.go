package validate

import (
	"strings"
	"testing"
)

// TestBookProtocolLookalikes: an address that copies the ends of a
// deployment the book lists from Pendle's, Curve's, Stargate's,
// LayerZero's or 1inch's package is named as a look-alike of that role,
// written in lower case so that no checksum gives it away; the real
// address is not contradicted.
func TestBookProtocolLookalikes(t *testing.T) {
	v := NewBookVerifier(nil)
	tests := []struct {
		name, real, fake, role string
	}{
		{"pendle router", "Pendle's router on Arbitrum is 0x888888888889758F76e7103c6CbF23ABbF58F946.",
			"Pendle's router on Arbitrum is 0x8888a1b2c3d4e5f60718293a4b5c6d7e8f58f946.", "pendle_router"},
		{"curve 3pool", "Swap stables through the Curve 3pool on Ethereum at 0xbEbc44782C7dB0a1A60Cb6fe97d0b483032FF1C7.",
			"Swap stables through the Curve 3pool on Ethereum at 0xbebc44782c7db0a1a60cb6fe97d0b483032fa1c7.", "curve_pool_3pool"},
		{"stargate usdc pool", "The Stargate USDC pool on Ethereum is 0xc026395860Db2d07ee33e05fE50ed7bD583189C7.",
			"The Stargate USDC pool on Ethereum is 0xc0263958a0db2d07ee33e05fe50ed7bd583189c7.", "stargate_pool_usdc"},
		{"layerzero endpoint", "The LayerZero endpoint on OP Mainnet is 0x1a44076050125825900e736c501f859c50fE728c.",
			"The LayerZero endpoint on OP Mainnet is 0x1a44fedcba9876543210fedcba9876543210728c.", "layerzero_endpoint_v2"},
		{"1inch router", "1inch's router on Polygon is 0x111111125421cA6dc452d289314280a0f8842A65.",
			"1inch's router on Polygon is 0x1111deadbeefdeadbeefdeadbeefdeadbeef2a65.", "oneinch_aggregation_router_v6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r := v.Check(tt.real); len(r.False) != 0 {
				t.Errorf("Check(real) False = %q, want none", r.False)
			}
			r := v.Check(tt.fake)
			if len(r.False) != 1 || !strings.Contains(r.False[0], "look-alike of "+tt.role) {
				t.Errorf("Check(look-alike) False = %q, want one naming a look-alike of %s", r.False, tt.role)
			}
		})
	}
}
