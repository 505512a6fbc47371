// Package compound holds the catalogue's Compound III (Comet) tools:
// market and account reads, and plans to supply and withdraw the base
// asset and collateral, borrow the base asset (a withdrawal beyond the
// supplied balance) and repay it (a supply of the base asset), against
// the one Comet the chain's venues name. Plans price the account with
// Comet's own price feeds and collateral factors and refuse a borrow or a
// collateral withdrawal that would leave the account under-collateralised,
// or any such plan when a price cannot be read.
package compound

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
)

// Comet's scales: prices have 8 decimals, factors and per-second rates
// 18.
var (
	factorScale    = native.Pow10(18)
	priceScale     = native.Pow10(8)
	secondsPerYear = big.NewInt(365 * 24 * 3600)
)

// asset is one of a Comet's collateral assets (getAssetInfo).
type asset struct {
	info                                     native.TokenInfo
	feed                                     common.Address
	scale                                    *big.Int
	borrowCF, liquidateCF, liquidationFactor *big.Int
	supplyCap                                *big.Int
	price                                    *big.Int // 8 decimals; nil when the feed could not be read
}

// market is a Comet's configuration and state.
type market struct {
	comet                  common.Address
	base                   native.TokenInfo
	baseFeed               common.Address
	basePrice              *big.Int // nil when the feed could not be read
	borrowMin              *big.Int
	assets                 []asset
	supply, borrow         *big.Int
	utilization            *big.Int
	supplyRate, borrowRate *big.Int // per second, 1e18
}

func call(ctx context.Context, env *native.Env, comet common.Address, method string, args ...any) ([]any, error) {
	return native.Call(ctx, env.Chain, chain.CometABI(), comet, method, args...)
}

func readMarket(ctx context.Context, env *native.Env, comet common.Address) (market, error) {
	m := market{comet: comet}
	v, err := call(ctx, env, comet, "baseToken")
	if err != nil {
		return m, fmt.Errorf("%s is not a Compound III Comet: %w", comet.Hex(), err)
	}
	if m.base, err = native.TokenInfoOf(ctx, env, v[0].(common.Address)); err != nil {
		return m, err
	}
	reads := []struct {
		method string
		args   []any
		into   **big.Int
	}{
		{"baseBorrowMin", nil, &m.borrowMin}, {"totalSupply", nil, &m.supply}, {"totalBorrow", nil, &m.borrow},
		{"getUtilization", nil, &m.utilization},
	}
	for _, r := range reads {
		v, err := call(ctx, env, comet, r.method, r.args...)
		if err != nil {
			return m, err
		}
		*r.into = v[0].(*big.Int)
	}
	sr, err := call(ctx, env, comet, "getSupplyRate", m.utilization)
	if err != nil {
		return m, err
	}
	br, err := call(ctx, env, comet, "getBorrowRate", m.utilization)
	if err != nil {
		return m, err
	}
	m.supplyRate, m.borrowRate = new(big.Int).SetUint64(sr[0].(uint64)), new(big.Int).SetUint64(br[0].(uint64))
	f, err := call(ctx, env, comet, "baseTokenPriceFeed")
	if err != nil {
		return m, err
	}
	m.baseFeed = f[0].(common.Address)
	m.basePrice = m.price(ctx, env, m.baseFeed)
	n, err := call(ctx, env, comet, "numAssets")
	if err != nil {
		return m, err
	}
	for i := range n[0].(uint8) {
		a, err := m.readAsset(ctx, env, i)
		if err != nil {
			return m, err
		}
		m.assets = append(m.assets, a)
	}
	return m, nil
}

func (m market) readAsset(ctx context.Context, env *native.Env, i uint8) (asset, error) {
	v, err := call(ctx, env, m.comet, "getAssetInfo", i)
	if err != nil {
		return asset{}, err
	}
	info := v[0]
	field := func(name string) any { return native.StructField(info, name) }
	var a asset
	addr, _ := field("Asset").(common.Address)
	a.feed, _ = field("PriceFeed").(common.Address)
	u64 := func(name string) *big.Int {
		x, _ := field(name).(uint64)
		return new(big.Int).SetUint64(x)
	}
	a.scale, a.borrowCF, a.liquidateCF, a.liquidationFactor = u64("Scale"), u64("BorrowCollateralFactor"), u64("LiquidateCollateralFactor"), u64("LiquidationFactor")
	a.supplyCap, _ = field("SupplyCap").(*big.Int)
	if addr == (common.Address{}) || a.supplyCap == nil {
		return asset{}, fmt.Errorf("the Comet %s returned an unreadable asset %d", m.comet.Hex(), i)
	}
	if a.info, err = native.TokenInfoOf(ctx, env, addr); err != nil {
		return asset{}, err
	}
	a.price = m.price(ctx, env, a.feed)
	return a, nil
}

// price is Comet's getPrice of a feed, nil when it reverts or is 0.
func (m market) price(ctx context.Context, env *native.Env, feed common.Address) *big.Int {
	v, err := call(ctx, env, m.comet, "getPrice", feed)
	if err != nil {
		return nil
	}
	p := v[0].(*big.Int)
	if p.Sign() <= 0 {
		return nil
	}
	return p
}

func (m market) asset(addr common.Address) (asset, bool) {
	for _, a := range m.assets {
		if a.info.Address == addr {
			return a, true
		}
	}
	return asset{}, false
}

// account is an account's balances in a Comet.
type account struct {
	supplied, borrowed *big.Int
	collateral         map[common.Address]*big.Int
}

func readAccount(ctx context.Context, env *native.Env, m market, user common.Address) (account, error) {
	a := account{collateral: map[common.Address]*big.Int{}}
	v, err := call(ctx, env, m.comet, "balanceOf", user)
	if err != nil {
		return a, err
	}
	a.supplied = v[0].(*big.Int)
	if v, err = call(ctx, env, m.comet, "borrowBalanceOf", user); err != nil {
		return a, err
	}
	a.borrowed = v[0].(*big.Int)
	for _, as := range m.assets {
		v, err := call(ctx, env, m.comet, "collateralBalanceOf", user, as.info.Address)
		if err != nil {
			return a, err
		}
		a.collateral[as.info.Address] = v[0].(*big.Int)
	}
	return a, nil
}

// standing is an account's collateral valued as Comet values it (USD
// with 8 decimals): weighted by the borrow collateral factors (what it
// may borrow) and by the liquidation factors (below the debt it is
// liquidatable), against its debt's value.
type standing struct {
	borrowCapacity, liquidationValue, debtValue *big.Int
}

// standingOf values a's collateral with the given changes (collateral
// delta by asset, base debt delta). It fails when a price it needs cannot
// be read: the account's health is then unknown.
func (m market) standingOf(a account, collDelta map[common.Address]*big.Int, debtDelta *big.Int) (standing, error) {
	s := standing{borrowCapacity: new(big.Int), liquidationValue: new(big.Int)}
	debt := new(big.Int).Add(a.borrowed, debtDelta)
	if debt.Sign() < 0 {
		debt.SetInt64(0)
	}
	if debt.Sign() > 0 && m.basePrice == nil {
		return s, fmt.Errorf("the Comet's %s price feed cannot be read, so the account's health is unknown", m.base.Symbol)
	}
	s.debtValue = new(big.Int)
	if debt.Sign() > 0 {
		s.debtValue = native.MulDiv(debt, m.basePrice, native.Pow10(int(m.base.Decimals)))
	}
	for _, as := range m.assets {
		amount := new(big.Int).Set(a.collateral[as.info.Address])
		if d := collDelta[as.info.Address]; d != nil {
			amount.Add(amount, d)
		}
		if amount.Sign() <= 0 {
			continue
		}
		if as.price == nil {
			return s, fmt.Errorf("the Comet's %s price feed cannot be read, so the account's health is unknown", as.info.Symbol)
		}
		value := native.MulDiv(amount, as.price, as.scale)
		s.borrowCapacity.Add(s.borrowCapacity, native.MulDiv(value, as.borrowCF, factorScale))
		s.liquidationValue.Add(s.liquidationValue, native.MulDiv(value, as.liquidateCF, factorScale))
	}
	return s, nil
}

// collateralized is Comet's isBorrowCollateralized.
func (s standing) collateralized() bool { return s.borrowCapacity.Cmp(s.debtValue) >= 0 }

// health is the liquidation-weighted collateral over the debt (wad); nil
// without debt. Below 1 the account is liquidatable.
func (s standing) health() *big.Int {
	if s.debtValue.Sign() == 0 {
		return nil
	}
	return native.MulDiv(s.liquidationValue, factorScale, s.debtValue)
}

func formatUSD(v *big.Int) string { return native.FormatUnits(v, 8) }

func apr(perSecond *big.Int) string {
	return native.WadPercent(new(big.Int).Mul(perSecond, secondsPerYear))
}
