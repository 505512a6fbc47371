package validate

import (
	"fmt"
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

// TestBookProtocolNames: the names of the deployments the book lists for
// Across, Curve, LayerZero, Stargate, 1inch, Pendle, Linea and the OP
// Stack bind an address: the book's own is confirmed, an address it does
// not know (nothing like the real one) is false where the name is
// specific, or specific on the chain the text names, and nothing is said
// where the name is loose or the chain unnamed for a per-chain name.
func TestBookProtocolNames(t *testing.T) {
	v := NewBookVerifier(nil)
	const other = "0x9b3f6a2c4d1e8f7a0b5c6d9e2f1a4b7c8d0e3f6a"
	tests := []struct {
		text      string
		wantFalse bool // with other in place of the real address
		real      string
	}{
		{"Deposits to Across on Base go to the Across SpokePool on Base at %s.", true, "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64"},
		{"The Across HubPool is %s.", true, "0xc186fA914353c44b2E33eBE05f21846F1048bEda"},
		{"Curve's address provider is %s on every chain.", true, "0x0000000022D53366457F9d5E68Ec105046FC4383"},
		{"veCRV is %s.", true, "0x5f3b5DfEb7B28CDbD7FAba78963EE202a494e2A2"},
		{"The Curve 3pool on Ethereum is %s.", true, "0xbEbc44782C7dB0a1A60Cb6fe97d0b483032FF1C7"},
		{"The Curve steth pool on Ethereum: %s.", true, "0xDC24316b9AE028F1497c275EB9192a3Ea0f67022"},
		{"The LayerZero EndpointV2 on Ethereum is %s.", true, "0x1a44076050125825900e736c501f859c50fE728c"},
		{"1inch AggregationRouterV6: %s.", true, "0x111111125421cA6dc452d289314280a0f8842A65"},
		// Loose and per-chain names say nothing of an address the book
		// does not know: an older router, a chain it does not cover.
		{"The 1inch router is %s.", false, "0x111111125421cA6dc452d289314280a0f8842A65"},
		{"The Curve 3pool is %s.", false, "0xbEbc44782C7dB0a1A60Cb6fe97d0b483032FF1C7"},
	}
	for _, tt := range tests {
		real := fmt.Sprintf(tt.text, tt.real)
		if r := v.Check(real); len(r.False) != 0 || len(r.Confirmed) != 1 {
			t.Errorf("Check(%q): False %q, Confirmed %v; want the address confirmed", real, r.False, r.Confirmed)
		}
		fake := fmt.Sprintf(tt.text, other)
		if r := v.Check(fake); (len(r.False) != 0) != tt.wantFalse {
			t.Errorf("Check(%q): False %q, want false: %v", fake, r.False, tt.wantFalse)
		}
	}
}

// TestOPStackPredeployNames: an OP Stack predeploy has one address on
// every OP Stack chain, so a name given another is false on any of them.
func TestOPStackPredeployNames(t *testing.T) {
	v := NewBookVerifier(nil)
	if r := v.Check("On Base, withdrawals start at the L2ToL1MessagePasser, 0x4200000000000000000000000000000000000016."); len(r.False) != 0 {
		t.Errorf("real predeploy: False %q", r.False)
	}
	if r := v.Check("On Base, withdrawals start at the L2ToL1MessagePasser, 0x4200000000000000000000000000000000000061."); len(r.False) != 1 {
		t.Errorf("wrong predeploy: False %q, want one", r.False)
	}
}
