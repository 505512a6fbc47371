// Package morpho holds the catalogue's Morpho Blue lending tools: market,
// position and market-id reads, and supply, withdraw, borrow, repay and
// collateral plans against the one Morpho Blue contract the chain's
// venues name. A call names a market by its id; the market's tokens,
// oracle, IRM and LLTV are read from the contract, never taken from the
// caller. Plans predict the position's health from the market's own
// oracle and LLTV (interest accrued to the latest block, as the contract
// will) and refuse a borrow or a collateral withdrawal that would leave
// the position unhealthy, or any such plan when the oracle cannot be
// read.
package morpho

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
)

// Morpho Blue's scales: the oracle price is scaled by 1e36, the LLTV, the
// fee and rates by 1e18; shares carry 1e6 virtual shares and one virtual
// asset.
var (
	wad            = native.Pow10(18)
	oracleScale    = native.Pow10(36)
	virtualShares  = native.Pow10(6)
	virtualAssets  = big.NewInt(1)
	secondsPerYear = big.NewInt(365 * 24 * 3600)
)

// market is a Morpho Blue market read at the latest block, its totals
// accrued to that block's time as the contract accrues them.
type market struct {
	id                                                     common.Hash
	params                                                 chain.MorphoMarketParams
	supplyAssets, supplyShares, borrowAssets, borrowShares *big.Int
	fee                                                    *big.Int
	rate                                                   *big.Int // borrow rate per second (wad); 0 without an IRM
	loan, collateral                                       native.TokenInfo
}

// readMarket reads market id on morpho. It fails when the market does
// not exist or its IRM cannot be read.
func readMarket(ctx context.Context, env *native.Env, morpho common.Address, id common.Hash) (market, error) {
	m := market{id: id}
	mb := chain.MorphoBlueABI()
	p, err := native.Call(ctx, env.Chain, mb, morpho, "idToMarketParams", id)
	if err != nil {
		return m, fmt.Errorf("%s is not a Morpho Blue contract: %w", morpho.Hex(), err)
	}
	m.params = chain.MorphoMarketParams{LoanToken: p[0].(common.Address), CollateralToken: p[1].(common.Address),
		Oracle: p[2].(common.Address), Irm: p[3].(common.Address), Lltv: p[4].(*big.Int)}
	if m.params.LoanToken == (common.Address{}) {
		return m, fmt.Errorf("no Morpho Blue market has id %s (see morpho_get_market_id)", id.Hex())
	}
	s, err := native.Call(ctx, env.Chain, mb, morpho, "market", id)
	if err != nil {
		return m, err
	}
	m.supplyAssets, m.supplyShares, m.borrowAssets, m.borrowShares = s[0].(*big.Int), s[1].(*big.Int), s[2].(*big.Int), s[3].(*big.Int)
	lastUpdate, fee := s[4].(*big.Int), s[5].(*big.Int)
	m.fee, m.rate = fee, new(big.Int)
	if m.params.Irm != (common.Address{}) {
		r, err := native.Call(ctx, env.Chain, chain.MorphoOracleABI(), m.params.Irm, "borrowRateView", m.params, chain.MorphoMarket{
			TotalSupplyAssets: m.supplyAssets, TotalSupplyShares: m.supplyShares, TotalBorrowAssets: m.borrowAssets,
			TotalBorrowShares: m.borrowShares, LastUpdate: lastUpdate, Fee: fee})
		if err != nil {
			return m, fmt.Errorf("the market's interest rate model %s cannot be read: %w", m.params.Irm.Hex(), err)
		}
		m.rate = r[0].(*big.Int)
	}
	h, err := native.Head(ctx, env)
	if err != nil {
		return m, err
	}
	if elapsed := int64(h.Time) - lastUpdate.Int64(); elapsed > 0 {
		m.accrue(big.NewInt(elapsed))
	}
	if m.loan, err = native.TokenInfoOf(ctx, env, m.params.LoanToken); err != nil {
		return m, err
	}
	if m.collateral, err = native.TokenInfoOf(ctx, env, m.params.CollateralToken); err != nil {
		return m, err
	}
	return m, nil
}

// accrue adds elapsed seconds of interest as Morpho Blue does: the borrow
// rate compounded with the three-term Taylor expansion of e^(rt) - 1, the
// fee paid to the fee recipient in new supply shares.
func (m *market) accrue(elapsed *big.Int) {
	if m.rate.Sign() == 0 {
		return
	}
	x := new(big.Int).Mul(m.rate, elapsed)
	second := new(big.Int).Mul(x, x)
	second.Quo(second, new(big.Int).Mul(big.NewInt(2), wad))
	third := new(big.Int).Mul(second, x)
	third.Quo(third, new(big.Int).Mul(big.NewInt(3), wad))
	growth := new(big.Int).Add(x, second)
	growth.Add(growth, third)
	interest := native.MulDiv(m.borrowAssets, growth, wad)
	m.borrowAssets = new(big.Int).Add(m.borrowAssets, interest)
	m.supplyAssets = new(big.Int).Add(m.supplyAssets, interest)
	if m.fee.Sign() > 0 {
		feeAmount := native.MulDiv(interest, m.fee, wad)
		feeShares := toSharesDown(feeAmount, new(big.Int).Sub(m.supplyAssets, feeAmount), m.supplyShares)
		m.supplyShares = new(big.Int).Add(m.supplyShares, feeShares)
	}
}

// price reads the market's oracle: one collateral unit in loan units,
// scaled by 1e36. A failing or zero oracle is an error: plans that depend
// on the position's health refuse.
func (m market) price(ctx context.Context, env *native.Env) (*big.Int, error) {
	v, err := native.Call(ctx, env.Chain, chain.MorphoOracleABI(), m.params.Oracle, "price")
	if err != nil {
		return nil, fmt.Errorf("the market's oracle %s cannot be read, so the position's health is unknown: %w", m.params.Oracle.Hex(), err)
	}
	p := v[0].(*big.Int)
	if p.Sign() == 0 {
		return nil, fmt.Errorf("the market's oracle %s reports a price of 0, so the position's health is unknown", m.params.Oracle.Hex())
	}
	return p, nil
}

// position is an account's position in a market.
type position struct {
	supplyShares, borrowShares, collateral *big.Int
}

func readPosition(ctx context.Context, env *native.Env, morpho common.Address, id common.Hash, user common.Address) (position, error) {
	v, err := native.Call(ctx, env.Chain, chain.MorphoBlueABI(), morpho, "position", id, user)
	if err != nil {
		return position{}, err
	}
	return position{supplyShares: v[0].(*big.Int), borrowShares: v[1].(*big.Int), collateral: v[2].(*big.Int)}, nil
}

func (m market) supplied(p position) *big.Int {
	return toAssetsDown(p.supplyShares, m.supplyAssets, m.supplyShares)
}

func (m market) borrowed(p position) *big.Int {
	return toAssetsUp(p.borrowShares, m.borrowAssets, m.borrowShares)
}

// liquidity is what the market can still lend or pay out to suppliers.
func (m market) liquidity() *big.Int {
	l := new(big.Int).Sub(m.supplyAssets, m.borrowAssets)
	if l.Sign() < 0 {
		l.SetInt64(0)
	}
	return l
}

// maxBorrow is the most an amount of collateral lets a position owe at
// price: collateral * price / 1e36 * lltv / 1e18, rounded down as Morpho
// Blue rounds it.
func (m market) maxBorrow(collateral, price *big.Int) *big.Int {
	return native.MulDiv(native.MulDiv(collateral, price, oracleScale), m.params.Lltv, wad)
}

// health is maxBorrow / borrowed in wad: below 1 the position is
// unhealthy (liquidatable, and Morpho Blue refuses to let it get there).
// It returns nil for no debt (infinite).
func health(maxBorrow, borrowed *big.Int) *big.Int {
	if borrowed.Sign() == 0 {
		return nil
	}
	return native.MulDiv(maxBorrow, wad, borrowed)
}

// utilization is borrowed / supplied in wad.
func (m market) utilization() *big.Int {
	if m.supplyAssets.Sign() == 0 {
		return new(big.Int)
	}
	return native.MulDiv(m.borrowAssets, wad, m.supplyAssets)
}

// borrowAPR and supplyAPR are the current rates, simple annual, in wad.
func (m market) borrowAPR() *big.Int { return new(big.Int).Mul(m.rate, secondsPerYear) }

func (m market) supplyAPR() *big.Int {
	r := native.MulDiv(m.borrowAPR(), m.utilization(), wad)
	return native.MulDiv(r, new(big.Int).Sub(wad, m.fee), wad)
}

// collateralPrice writes the oracle price as loan tokens per whole
// collateral token.
func (m market) collateralPrice(price *big.Int) string {
	num := new(big.Int).Mul(price, native.Pow10(int(m.collateral.Decimals)))
	den := new(big.Int).Mul(oracleScale, native.Pow10(int(m.loan.Decimals)))
	return native.RatString(new(big.Rat).SetFrac(num, den), 8)
}

func mulDivUp(x, y, d *big.Int) *big.Int {
	v := new(big.Int).Mul(x, y)
	v.Add(v, new(big.Int).Sub(d, native.BigOne))
	return v.Quo(v, d)
}

func toSharesDown(assets, totalAssets, totalShares *big.Int) *big.Int {
	return native.MulDiv(assets, new(big.Int).Add(totalShares, virtualShares), new(big.Int).Add(totalAssets, virtualAssets))
}

func toSharesUp(assets, totalAssets, totalShares *big.Int) *big.Int {
	return mulDivUp(assets, new(big.Int).Add(totalShares, virtualShares), new(big.Int).Add(totalAssets, virtualAssets))
}

func toAssetsDown(shares, totalAssets, totalShares *big.Int) *big.Int {
	return native.MulDiv(shares, new(big.Int).Add(totalAssets, virtualAssets), new(big.Int).Add(totalShares, virtualShares))
}

func toAssetsUp(shares, totalAssets, totalShares *big.Int) *big.Int {
	return mulDivUp(shares, new(big.Int).Add(totalAssets, virtualAssets), new(big.Int).Add(totalShares, virtualShares))
}
