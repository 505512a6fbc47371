package chain

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

var namedVaultViews = onceABI(`[
{"type":"function","name":"pot","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"dsr","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"chi","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"rho","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"cooldownDuration","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint24"}]},
{"type":"function","name":"silo","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"totalIdle","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"totalDebt","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"maxWithdraw","stateMutability":"view","inputs":[{"name":"o","type":"address"}],"outputs":[{"name":"","type":"uint256"}]}
]`)

// rpowRay is Maker's rpow (x^n in ray, each product rounded half up), the
// reference for ward's Pot and sDAI.
func rpowRay(x *big.Int, n uint64) *big.Int {
	ray := new(big.Int).Exp(big.NewInt(10), big.NewInt(27), nil)
	half := new(big.Int).Rsh(ray, 1)
	rmul := func(a, b *big.Int) *big.Int {
		p := new(big.Int).Mul(a, b)
		return p.Add(p, half).Quo(p, ray)
	}
	z := new(big.Int).Set(ray)
	if n%2 != 0 {
		z.Set(x)
	}
	x = new(big.Int).Set(x)
	for n /= 2; n != 0; n /= 2 {
		x = rmul(x, x)
		if n%2 != 0 {
			z = rmul(z, x)
		}
	}
	return z
}

// TestDevChainNamedVaults: sDAI's price follows the Pot's chi compounded
// by Maker's rpow (5 % over a year), sUSDe has its cooldown and silo and
// the wallet its USDe, and the Yearn vault pays a withdrawal larger than
// its idle assets by freeing debt from its strategy.
func TestDevChainNamedVaults(t *testing.T) {
	d, c := startDev(t)
	p, ctx := d.Provider(), t.Context()
	v := namedVaultViews()

	if pot := view(t, p, c.SavingsDai, v, "pot")[0].(common.Address); pot != c.MakerPot {
		t.Fatalf("sDAI's pot is %s, deployed %s", pot, c.MakerPot)
	}
	wantBig(t, "dsr", view(t, p, c.MakerPot, v, "dsr")[0].(*big.Int), DevDSR)
	ray := new(big.Int).Exp(big.NewInt(10), big.NewInt(27), nil)
	chi0 := view(t, p, c.MakerPot, v, "chi")[0].(*big.Int)
	rho := view(t, p, c.MakerPot, v, "rho")[0].(*big.Int).Uint64()
	if err := d.AdjustTime(365 * 24 * time.Hour); err != nil {
		t.Fatal(err)
	}
	h, err := p.HeaderLatest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := rpowRay(DevDSR, h.Time-rho)
	want.Mul(want, chi0).Add(want, new(big.Int).Rsh(ray, 1)).Quo(want, ray)
	wantBig(t, "sDAI's chi a year on", view(t, p, c.SavingsDai, ERC4626ABI(), "convertToAssets", ray)[0].(*big.Int), want)
	if g, _ := new(big.Rat).SetFrac(want, chi0).Float64(); g < 1.05 || g > 1.0501 {
		t.Errorf("a year of the DSR grew chi by %v, want 5 %%", g)
	}

	if cd := view(t, p, c.EthenaSUSDe, v, "cooldownDuration")[0].(*big.Int); cd.Int64() != int64(DevUSDeCooldown/time.Second) {
		t.Errorf("sUSDe cooldown %s s, want %v", cd, DevUSDeCooldown)
	}
	if silo := view(t, p, c.EthenaSUSDe, v, "silo")[0].(common.Address); silo == (common.Address{}) {
		t.Error("sUSDe has no silo")
	}
	wantBig(t, "wallet USDe", tokenBalance(t, p, c.USDe, d.WalletAddress()), units(10_000, 18))
	wantBig(t, "operator sUSDe", tokenBalance(t, p, c.EthenaSUSDe, d.operator.Address()), units(100_000, 18))

	// The operator withdraws 120,000 USDC: 50,000 idle, 70,000 freed from the strategy.
	op := d.operator.Address()
	wantBig(t, "yearn idle", view(t, p, c.YearnVaultUSDC, v, "totalIdle")[0].(*big.Int), units(50_000, 6))
	usdc0 := tokenBalance(t, p, c.USDC, op)
	debt0 := view(t, p, c.YearnVaultUSDC, v, "totalDebt")[0].(*big.Int)
	b, err := newBatch(ctx, d, d.operator)
	if err != nil {
		t.Fatal(err)
	}
	b.call("yearn withdraw", c.YearnVaultUSDC, nil, ERC4626ABI(), "withdraw", units(120_000, 6), op, op)
	if err := b.run(ctx); err != nil {
		t.Fatal(err)
	}
	wantBig(t, "USDC withdrawn", new(big.Int).Sub(tokenBalance(t, p, c.USDC, op), usdc0), units(120_000, 6))
	wantBig(t, "yearn idle after", view(t, p, c.YearnVaultUSDC, v, "totalIdle")[0].(*big.Int), new(big.Int))
	wantBig(t, "yearn debt freed", new(big.Int).Sub(debt0, view(t, p, c.YearnVaultUSDC, v, "totalDebt")[0].(*big.Int)), units(70_000, 6))
}
