package chain

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

var pendleViews = onceABI(`[
{"type":"function","name":"readTokens","stateMutability":"view","inputs":[],"outputs":[{"name":"_SY","type":"address"},{"name":"_PT","type":"address"},{"name":"_YT","type":"address"}]},
{"type":"function","name":"expiry","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"isExpired","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"ptToSyRate","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]}
]`)

// TestDevChainPendle: the dev chain's Pendle market names its SY, PT and
// YT, holds the seeded PT and SY, prices PT at a discount before its
// maturity (about DevPendleMaturity away) and at par once the clock has
// moved past it.
func TestDevChainPendle(t *testing.T) {
	d, c := startDev(t)
	p := d.Provider()
	tokens := view(t, p, c.PendleMarketDAI, pendleViews(), "readTokens")
	if tokens[0].(common.Address) != c.PendleSYDAI || tokens[1].(common.Address) != c.PendlePTDAI || tokens[2].(common.Address) != c.PendleYTDAI {
		t.Fatalf("market tokens %v, deployed SY %s PT %s YT %s", tokens, c.PendleSYDAI, c.PendlePTDAI, c.PendleYTDAI)
	}
	wantBig(t, "market PT", tokenBalance(t, p, c.PendlePTDAI, c.PendleMarketDAI), pendleSeed)
	wantBig(t, "market SY", tokenBalance(t, p, c.PendleSYDAI, c.PendleMarketDAI), pendleSeed)
	expiry := view(t, p, c.PendleMarketDAI, pendleViews(), "expiry")[0].(*big.Int).Int64()
	if left := time.Until(time.Unix(expiry, 0)); left < DevPendleMaturity-25*time.Hour || left > DevPendleMaturity {
		t.Errorf("PT matures in %v, want about %v", left, DevPendleMaturity)
	}
	// 90 days at 8 % a year: about 0.981 SY per PT.
	r := view(t, p, c.PendleMarketDAI, pendleViews(), "ptToSyRate")[0].(*big.Int)
	if r.Cmp(big.NewInt(978e15)) < 0 || r.Cmp(big.NewInt(985e15)) > 0 {
		t.Errorf("SY per PT = %s, want about 0.981e18", r)
	}
	if err := d.AdjustTime(DevPendleMaturity + 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if !view(t, p, c.PendleMarketDAI, pendleViews(), "isExpired")[0].(bool) {
		t.Error("the market is not expired after its maturity")
	}
	wantBig(t, "SY per PT at maturity", view(t, p, c.PendleMarketDAI, pendleViews(), "ptToSyRate")[0].(*big.Int), big.NewInt(1e18))
}
