package chain

import (
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// MorphoBlueABI is Morpho Blue (0xBBBBBbbBBb9cC5e90e3b3Af64bdAF62C37EEFFCb
// on Ethereum and Base): supply, withdraw, borrow, repay by assets or
// shares, collateral, setAuthorization, and the market, position and
// idToMarketParams getters, with its events. Markets are identified by
// MarketParams; their id is MorphoMarketID.
func MorphoBlueABI() *ABI { return morphoBlueABI() }

// MorphoOracleABI is Morpho's IOracle (price of one collateral unit in
// loan units, scaled by 1e36) and Morpho's IIrm view (borrow rate per
// second, scaled by 1e18), the two contracts a market names.
func MorphoOracleABI() *ABI { return morphoOracleABI() }

// CometABI is Compound III's Comet (one proxy per base asset, e.g. cUSDCv3
// 0xc3d688B66703497DAA19211EEdff47f25384cdc3 on Ethereum): supply and
// withdraw of the base and collateral assets, balances, collateral
// checks, utilization and rates.
func CometABI() *ABI { return cometABI() }

// MorphoMarketParams is Morpho Blue's MarketParams, in the field names
// the ABI packs a tuple from.
type MorphoMarketParams struct {
	LoanToken       common.Address
	CollateralToken common.Address
	Oracle          common.Address
	Irm             common.Address
	Lltv            *big.Int
}

// MorphoMarket is Morpho Blue's Market state (an IRM's argument).
type MorphoMarket struct {
	TotalSupplyAssets *big.Int
	TotalSupplyShares *big.Int
	TotalBorrowAssets *big.Int
	TotalBorrowShares *big.Int
	LastUpdate        *big.Int
	Fee               *big.Int
}

// MorphoMarketID is a market's id: keccak256(abi.encode(params)).
func MorphoMarketID(p MorphoMarketParams) common.Hash {
	buf := make([]byte, 0, 5*32)
	for _, a := range []common.Address{p.LoanToken, p.CollateralToken, p.Oracle, p.Irm} {
		buf = append(buf, common.LeftPadBytes(a.Bytes(), 32)...)
	}
	lltv := p.Lltv
	if lltv == nil {
		lltv = new(big.Int)
	}
	buf = append(buf, common.LeftPadBytes(lltv.Bytes(), 32)...)
	return crypto.Keccak256Hash(buf)
}

var (
	morphoBlueABI   = sync.OnceValue(func() *ABI { return mustParseABI(morphoBlueJSON) })
	morphoOracleABI = sync.OnceValue(func() *ABI { return mustParseABI(morphoOracleJSON) })
	cometABI        = sync.OnceValue(func() *ABI { return mustParseABI(cometJSON) })
)

const morphoBlueJSON = `[
{"type":"event","name":"AccrueInterest","anonymous":false,"inputs":[{"name":"id","type":"bytes32","indexed":true},{"name":"prevBorrowRate","type":"uint256","indexed":false},{"name":"interest","type":"uint256","indexed":false},{"name":"feeShares","type":"uint256","indexed":false}]},
{"type":"event","name":"Borrow","anonymous":false,"inputs":[{"name":"id","type":"bytes32","indexed":true},{"name":"caller","type":"address","indexed":false},{"name":"onBehalf","type":"address","indexed":true},{"name":"receiver","type":"address","indexed":true},{"name":"assets","type":"uint256","indexed":false},{"name":"shares","type":"uint256","indexed":false}]},
{"type":"event","name":"CreateMarket","anonymous":false,"inputs":[{"name":"id","type":"bytes32","indexed":true},{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}],"indexed":false}]},
{"type":"event","name":"Repay","anonymous":false,"inputs":[{"name":"id","type":"bytes32","indexed":true},{"name":"caller","type":"address","indexed":true},{"name":"onBehalf","type":"address","indexed":true},{"name":"assets","type":"uint256","indexed":false},{"name":"shares","type":"uint256","indexed":false}]},
{"type":"event","name":"SetAuthorization","anonymous":false,"inputs":[{"name":"caller","type":"address","indexed":true},{"name":"authorizer","type":"address","indexed":true},{"name":"authorized","type":"address","indexed":true},{"name":"newIsAuthorized","type":"bool","indexed":false}]},
{"type":"event","name":"Supply","anonymous":false,"inputs":[{"name":"id","type":"bytes32","indexed":true},{"name":"caller","type":"address","indexed":true},{"name":"onBehalf","type":"address","indexed":true},{"name":"assets","type":"uint256","indexed":false},{"name":"shares","type":"uint256","indexed":false}]},
{"type":"event","name":"SupplyCollateral","anonymous":false,"inputs":[{"name":"id","type":"bytes32","indexed":true},{"name":"caller","type":"address","indexed":true},{"name":"onBehalf","type":"address","indexed":true},{"name":"assets","type":"uint256","indexed":false}]},
{"type":"event","name":"Withdraw","anonymous":false,"inputs":[{"name":"id","type":"bytes32","indexed":true},{"name":"caller","type":"address","indexed":false},{"name":"onBehalf","type":"address","indexed":true},{"name":"receiver","type":"address","indexed":true},{"name":"assets","type":"uint256","indexed":false},{"name":"shares","type":"uint256","indexed":false}]},
{"type":"event","name":"WithdrawCollateral","anonymous":false,"inputs":[{"name":"id","type":"bytes32","indexed":true},{"name":"caller","type":"address","indexed":false},{"name":"onBehalf","type":"address","indexed":true},{"name":"receiver","type":"address","indexed":true},{"name":"assets","type":"uint256","indexed":false}]},
{"type":"function","name":"accrueInterest","stateMutability":"nonpayable","inputs":[{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]}],"outputs":[]},
{"type":"function","name":"borrow","stateMutability":"nonpayable","inputs":[{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]},{"name":"assets","type":"uint256"},{"name":"shares","type":"uint256"},{"name":"onBehalf","type":"address"},{"name":"receiver","type":"address"}],"outputs":[{"name":"","type":"uint256"},{"name":"","type":"uint256"}]},
{"type":"function","name":"idToMarketParams","stateMutability":"view","inputs":[{"name":"","type":"bytes32"}],"outputs":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]},
{"type":"function","name":"isAuthorized","stateMutability":"view","inputs":[{"name":"","type":"address"},{"name":"","type":"address"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"market","stateMutability":"view","inputs":[{"name":"","type":"bytes32"}],"outputs":[{"name":"totalSupplyAssets","type":"uint128"},{"name":"totalSupplyShares","type":"uint128"},{"name":"totalBorrowAssets","type":"uint128"},{"name":"totalBorrowShares","type":"uint128"},{"name":"lastUpdate","type":"uint128"},{"name":"fee","type":"uint128"}]},
{"type":"function","name":"position","stateMutability":"view","inputs":[{"name":"","type":"bytes32"},{"name":"","type":"address"}],"outputs":[{"name":"supplyShares","type":"uint256"},{"name":"borrowShares","type":"uint128"},{"name":"collateral","type":"uint128"}]},
{"type":"function","name":"repay","stateMutability":"nonpayable","inputs":[{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]},{"name":"assets","type":"uint256"},{"name":"shares","type":"uint256"},{"name":"onBehalf","type":"address"},{"name":"data","type":"bytes"}],"outputs":[{"name":"","type":"uint256"},{"name":"","type":"uint256"}]},
{"type":"function","name":"setAuthorization","stateMutability":"nonpayable","inputs":[{"name":"authorized","type":"address"},{"name":"newIsAuthorized","type":"bool"}],"outputs":[]},
{"type":"function","name":"supply","stateMutability":"nonpayable","inputs":[{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]},{"name":"assets","type":"uint256"},{"name":"shares","type":"uint256"},{"name":"onBehalf","type":"address"},{"name":"data","type":"bytes"}],"outputs":[{"name":"","type":"uint256"},{"name":"","type":"uint256"}]},
{"type":"function","name":"supplyCollateral","stateMutability":"nonpayable","inputs":[{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]},{"name":"assets","type":"uint256"},{"name":"onBehalf","type":"address"},{"name":"data","type":"bytes"}],"outputs":[]},
{"type":"function","name":"withdraw","stateMutability":"nonpayable","inputs":[{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]},{"name":"assets","type":"uint256"},{"name":"shares","type":"uint256"},{"name":"onBehalf","type":"address"},{"name":"receiver","type":"address"}],"outputs":[{"name":"","type":"uint256"},{"name":"","type":"uint256"}]},
{"type":"function","name":"withdrawCollateral","stateMutability":"nonpayable","inputs":[{"name":"marketParams","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]},{"name":"assets","type":"uint256"},{"name":"onBehalf","type":"address"},{"name":"receiver","type":"address"}],"outputs":[]}
]`

const morphoOracleJSON = `[
{"type":"function","name":"price","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"borrowRateView","stateMutability":"view","inputs":[{"name":"","type":"tuple","components":[{"name":"loanToken","type":"address"},{"name":"collateralToken","type":"address"},{"name":"oracle","type":"address"},{"name":"irm","type":"address"},{"name":"lltv","type":"uint256"}]},{"name":"","type":"tuple","components":[{"name":"totalSupplyAssets","type":"uint128"},{"name":"totalSupplyShares","type":"uint128"},{"name":"totalBorrowAssets","type":"uint128"},{"name":"totalBorrowShares","type":"uint128"},{"name":"lastUpdate","type":"uint128"},{"name":"fee","type":"uint128"}]}],"outputs":[{"name":"","type":"uint256"}]}
]`

const cometJSON = `[
{"type":"event","name":"Supply","anonymous":false,"inputs":[{"name":"from","type":"address","indexed":true},{"name":"dst","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false}]},
{"type":"event","name":"SupplyCollateral","anonymous":false,"inputs":[{"name":"from","type":"address","indexed":true},{"name":"dst","type":"address","indexed":true},{"name":"asset","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false}]},
{"type":"event","name":"Withdraw","anonymous":false,"inputs":[{"name":"src","type":"address","indexed":true},{"name":"to","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false}]},
{"type":"event","name":"WithdrawCollateral","anonymous":false,"inputs":[{"name":"src","type":"address","indexed":true},{"name":"to","type":"address","indexed":true},{"name":"asset","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false}]},
{"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"account","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"baseBorrowIndex","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"baseBorrowMin","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint104"}]},
{"type":"function","name":"baseScale","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"baseSupplyIndex","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"baseToken","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"baseTokenPriceFeed","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"borrowBalanceOf","stateMutability":"view","inputs":[{"name":"account","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"borrowKink","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"borrowPerSecondInterestRateBase","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"borrowPerSecondInterestRateSlopeHigh","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"borrowPerSecondInterestRateSlopeLow","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"collateralBalanceOf","stateMutability":"view","inputs":[{"name":"account","type":"address"},{"name":"asset","type":"address"}],"outputs":[{"name":"","type":"uint128"}]},
{"type":"function","name":"decimals","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint8"}]},
{"type":"function","name":"getAssetInfo","stateMutability":"view","inputs":[{"name":"i","type":"uint8"}],"outputs":[{"name":"","type":"tuple","components":[{"name":"offset","type":"uint8"},{"name":"asset","type":"address"},{"name":"priceFeed","type":"address"},{"name":"scale","type":"uint64"},{"name":"borrowCollateralFactor","type":"uint64"},{"name":"liquidateCollateralFactor","type":"uint64"},{"name":"liquidationFactor","type":"uint64"},{"name":"supplyCap","type":"uint128"}]}]},
{"type":"function","name":"getAssetInfoByAddress","stateMutability":"view","inputs":[{"name":"asset","type":"address"}],"outputs":[{"name":"","type":"tuple","components":[{"name":"offset","type":"uint8"},{"name":"asset","type":"address"},{"name":"priceFeed","type":"address"},{"name":"scale","type":"uint64"},{"name":"borrowCollateralFactor","type":"uint64"},{"name":"liquidateCollateralFactor","type":"uint64"},{"name":"liquidationFactor","type":"uint64"},{"name":"supplyCap","type":"uint128"}]}]},
{"type":"function","name":"getBorrowRate","stateMutability":"view","inputs":[{"name":"utilization","type":"uint256"}],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"getPrice","stateMutability":"view","inputs":[{"name":"priceFeed","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getSupplyRate","stateMutability":"view","inputs":[{"name":"utilization","type":"uint256"}],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"getUtilization","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"isBorrowCollateralized","stateMutability":"view","inputs":[{"name":"account","type":"address"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"isLiquidatable","stateMutability":"view","inputs":[{"name":"account","type":"address"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"lastAccrualTime","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint40"}]},
{"type":"function","name":"numAssets","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint8"}]},
{"type":"function","name":"supply","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[]},
{"type":"function","name":"supplyKink","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"supplyPerSecondInterestRateBase","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"supplyPerSecondInterestRateSlopeHigh","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"supplyPerSecondInterestRateSlopeLow","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint64"}]},
{"type":"function","name":"supplyTo","stateMutability":"nonpayable","inputs":[{"name":"dst","type":"address"},{"name":"asset","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[]},
{"type":"function","name":"totalBorrow","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"totalBorrowBase","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint104"}]},
{"type":"function","name":"totalSupply","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"totalSupplyBase","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint104"}]},
{"type":"function","name":"totalsCollateral","stateMutability":"view","inputs":[{"name":"","type":"address"}],"outputs":[{"name":"totalSupplyAsset","type":"uint128"},{"name":"_reserved","type":"uint128"}]},
{"type":"function","name":"userBasic","stateMutability":"view","inputs":[{"name":"","type":"address"}],"outputs":[{"name":"principal","type":"int104"},{"name":"baseTrackingIndex","type":"uint64"},{"name":"baseTrackingAccrued","type":"uint64"},{"name":"assetsIn","type":"uint16"},{"name":"_reserved","type":"uint8"}]},
{"type":"function","name":"withdraw","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[]},
{"type":"function","name":"withdrawTo","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"},{"name":"asset","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[]}
]`
