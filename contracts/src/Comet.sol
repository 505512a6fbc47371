// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, SafeTransfer} from "./IERC20.sol";

/// @notice The part of Chainlink's AggregatorV3Interface Comet reads (8-decimal USD feeds).
interface ICometFeed {
    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80);
}

/// @title Comet
/// @notice Compound III's Comet external interface (one base asset that is supplied and borrowed, several
/// collateral assets, supply/withdraw for both, borrow = withdraw of base beyond the supplied balance, repay =
/// supply of base), written for ward. Base balances are principals scaled by supply and borrow indexes (1e15) that
/// accrue with Comet's kinked rate model; collateral is checked against borrow and liquidation collateral factors
/// at Chainlink-interface prices (8 decimals). No absorb, buyCollateral, reserves withdrawal, rewards tracking,
/// allow/permit managers, pause guardian or configurator: the assets are set by the constructor and addAsset.
contract Comet {
    struct AssetInfo {
        uint8 offset;
        address asset;
        address priceFeed;
        uint64 scale;
        uint64 borrowCollateralFactor;
        uint64 liquidateCollateralFactor;
        uint64 liquidationFactor;
        uint128 supplyCap;
    }

    struct UserBasic {
        int104 principal;
        uint64 baseTrackingIndex;
        uint64 baseTrackingAccrued;
        uint16 assetsIn;
        uint8 _reserved;
    }

    struct TotalsCollateral {
        uint128 totalSupplyAsset;
        uint128 _reserved;
    }

    uint64 internal constant BASE_INDEX_SCALE = 1e15;
    uint256 internal constant FACTOR_SCALE = 1e18;
    uint256 internal constant PRICE_SCALE = 1e8;
    uint8 internal constant MAX_ASSETS = 15;

    address public immutable governor;
    address public immutable baseToken;
    address public immutable baseTokenPriceFeed;
    uint8 public immutable decimals;
    uint64 public immutable baseScale;
    uint104 public immutable baseBorrowMin;
    uint64 public immutable supplyKink;
    uint64 public immutable supplyPerSecondInterestRateSlopeLow;
    uint64 public immutable supplyPerSecondInterestRateSlopeHigh;
    uint64 public immutable supplyPerSecondInterestRateBase;
    uint64 public immutable borrowKink;
    uint64 public immutable borrowPerSecondInterestRateSlopeLow;
    uint64 public immutable borrowPerSecondInterestRateSlopeHigh;
    uint64 public immutable borrowPerSecondInterestRateBase;

    uint64 public baseSupplyIndex = BASE_INDEX_SCALE;
    uint64 public baseBorrowIndex = BASE_INDEX_SCALE;
    uint40 public lastAccrualTime;
    uint104 public totalSupplyBase;
    uint104 public totalBorrowBase;
    uint8 public numAssets;

    AssetInfo[] internal assets;
    mapping(address => UserBasic) public userBasic;
    mapping(address => TotalsCollateral) public totalsCollateral;
    mapping(address => mapping(address => uint128)) internal collateral;

    event Supply(address indexed from, address indexed dst, uint256 amount);
    event Withdraw(address indexed src, address indexed to, uint256 amount);
    event SupplyCollateral(address indexed from, address indexed dst, address indexed asset, uint256 amount);
    event WithdrawCollateral(address indexed src, address indexed to, address indexed asset, uint256 amount);

    /// @param rates supplyKink, supply slope low, slope high, base, borrowKink, borrow slope low, slope high, base
    /// (per second, 1e18), as in Comet's Configuration.
    constructor(address base, address basePriceFeed, uint104 borrowMin, uint64[8] memory rates) {
        governor = msg.sender;
        baseToken = base;
        baseTokenPriceFeed = basePriceFeed;
        uint8 d = IERC20(base).decimals();
        decimals = d;
        baseScale = uint64(10 ** d);
        baseBorrowMin = borrowMin;
        (supplyKink, supplyPerSecondInterestRateSlopeLow, supplyPerSecondInterestRateSlopeHigh, supplyPerSecondInterestRateBase) =
            (rates[0], rates[1], rates[2], rates[3]);
        (borrowKink, borrowPerSecondInterestRateSlopeLow, borrowPerSecondInterestRateSlopeHigh, borrowPerSecondInterestRateBase) =
            (rates[4], rates[5], rates[6], rates[7]);
        lastAccrualTime = uint40(block.timestamp);
    }

    /// @notice Lists a collateral asset (governor only; on mainnet the Configurator deploys a new implementation).
    function addAsset(
        address asset,
        address priceFeed,
        uint64 borrowCollateralFactor,
        uint64 liquidateCollateralFactor,
        uint64 liquidationFactor,
        uint128 supplyCap
    ) external {
        require(msg.sender == governor, "Comet: unauthorized (Unauthorized)");
        require(numAssets < MAX_ASSETS, "Comet: too many assets (TooManyAssets)");
        require(borrowCollateralFactor < liquidateCollateralFactor && liquidateCollateralFactor < FACTOR_SCALE,
            "Comet: bad collateral factors (BorrowCFTooLarge)");
        assets.push(AssetInfo(numAssets, asset, priceFeed, uint64(10 ** IERC20(asset).decimals()),
            borrowCollateralFactor, liquidateCollateralFactor, liquidationFactor, supplyCap));
        numAssets++;
    }

    function getAssetInfo(uint8 i) public view returns (AssetInfo memory) {
        require(i < numAssets, "Comet: bad asset (BadAsset)");
        return assets[i];
    }

    function getAssetInfoByAddress(address asset) public view returns (AssetInfo memory) {
        for (uint8 i = 0; i < numAssets; i++) {
            if (assets[i].asset == asset) return assets[i];
        }
        revert("Comet: bad asset (BadAsset)");
    }

    function getPrice(address priceFeed) public view returns (uint256) {
        (, int256 price,,,) = ICometFeed(priceFeed).latestRoundData();
        require(price > 0, "Comet: bad price (BadPrice)");
        return uint256(price);
    }

    function totalSupply() external view returns (uint256) {
        (uint64 s,) = _accruedIndices(block.timestamp - lastAccrualTime);
        return uint256(totalSupplyBase) * s / BASE_INDEX_SCALE;
    }

    function totalBorrow() external view returns (uint256) {
        (, uint64 b) = _accruedIndices(block.timestamp - lastAccrualTime);
        return uint256(totalBorrowBase) * b / BASE_INDEX_SCALE;
    }

    function balanceOf(address account) external view returns (uint256) {
        int104 p = userBasic[account].principal;
        if (p <= 0) return 0;
        (uint64 s,) = _accruedIndices(block.timestamp - lastAccrualTime);
        return uint256(uint104(p)) * s / BASE_INDEX_SCALE;
    }

    function borrowBalanceOf(address account) external view returns (uint256) {
        int104 p = userBasic[account].principal;
        if (p >= 0) return 0;
        (, uint64 b) = _accruedIndices(block.timestamp - lastAccrualTime);
        return (uint256(uint104(-p)) * b + BASE_INDEX_SCALE - 1) / BASE_INDEX_SCALE;
    }

    function collateralBalanceOf(address account, address asset) external view returns (uint128) {
        return collateral[account][asset];
    }

    function getUtilization() public view returns (uint256) {
        (uint64 s, uint64 b) = _accruedIndices(block.timestamp - lastAccrualTime);
        return _utilization(s, b);
    }

    function getSupplyRate(uint256 utilization) public view returns (uint64) {
        if (utilization <= supplyKink) {
            return uint64(supplyPerSecondInterestRateBase + supplyPerSecondInterestRateSlopeLow * utilization / FACTOR_SCALE);
        }
        return uint64(supplyPerSecondInterestRateBase + supplyPerSecondInterestRateSlopeLow * supplyKink / FACTOR_SCALE
            + supplyPerSecondInterestRateSlopeHigh * (utilization - supplyKink) / FACTOR_SCALE);
    }

    function getBorrowRate(uint256 utilization) public view returns (uint64) {
        if (utilization <= borrowKink) {
            return uint64(borrowPerSecondInterestRateBase + borrowPerSecondInterestRateSlopeLow * utilization / FACTOR_SCALE);
        }
        return uint64(borrowPerSecondInterestRateBase + borrowPerSecondInterestRateSlopeLow * borrowKink / FACTOR_SCALE
            + borrowPerSecondInterestRateSlopeHigh * (utilization - borrowKink) / FACTOR_SCALE);
    }

    function isBorrowCollateralized(address account) public view returns (bool) {
        return _liquidity(account, true) >= 0;
    }

    function isLiquidatable(address account) public view returns (bool) {
        return _liquidity(account, false) < 0;
    }

    function accrueAccount(address) external {
        _accrue();
    }

    function supply(address asset, uint256 amount) external {
        _supply(msg.sender, msg.sender, asset, amount);
    }

    function supplyTo(address dst, address asset, uint256 amount) external {
        _supply(msg.sender, dst, asset, amount);
    }

    function withdraw(address asset, uint256 amount) external {
        _withdraw(msg.sender, msg.sender, asset, amount);
    }

    function withdrawTo(address to, address asset, uint256 amount) external {
        _withdraw(msg.sender, to, asset, amount);
    }

    function _supply(address from, address dst, address asset, uint256 amount) internal {
        _accrue();
        if (asset == baseToken) {
            int256 balance = _present(userBasic[dst].principal);
            if (amount == type(uint256).max) amount = balance < 0 ? uint256(-balance) : 0;
            SafeTransfer.safeTransferFrom(asset, from, address(this), amount);
            _setBase(dst, balance + int256(amount));
            emit Supply(from, dst, amount);
            return;
        }
        AssetInfo memory info = getAssetInfoByAddress(asset);
        SafeTransfer.safeTransferFrom(asset, from, address(this), amount);
        TotalsCollateral storage t = totalsCollateral[asset];
        t.totalSupplyAsset += uint128(amount);
        require(t.totalSupplyAsset <= info.supplyCap, "Comet: supply cap exceeded (SupplyCapExceeded)");
        collateral[dst][asset] += uint128(amount);
        userBasic[dst].assetsIn |= uint16(1) << info.offset;
        emit SupplyCollateral(from, dst, asset, amount);
    }

    function _withdraw(address src, address to, address asset, uint256 amount) internal {
        _accrue();
        if (asset == baseToken) {
            int256 balance = _present(userBasic[src].principal);
            if (amount == type(uint256).max) amount = balance > 0 ? uint256(balance) : 0;
            int256 after_ = balance - int256(amount);
            _setBase(src, after_);
            if (after_ < 0) {
                require(uint256(-after_) >= baseBorrowMin, "Comet: borrow too small (BorrowTooSmall)");
                require(isBorrowCollateralized(src), "Comet: not collateralized (NotCollateralized)");
            }
            require(IERC20(baseToken).balanceOf(address(this)) >= amount, "Comet: insufficient reserves (InsufficientReserves)");
            SafeTransfer.safeTransfer(asset, to, amount);
            emit Withdraw(src, to, amount);
            return;
        }
        AssetInfo memory info = getAssetInfoByAddress(asset);
        collateral[src][asset] -= uint128(amount);
        totalsCollateral[asset].totalSupplyAsset -= uint128(amount);
        if (collateral[src][asset] == 0) userBasic[src].assetsIn &= ~(uint16(1) << info.offset);
        require(isBorrowCollateralized(src), "Comet: not collateralized (NotCollateralized)");
        SafeTransfer.safeTransfer(asset, to, amount);
        emit WithdrawCollateral(src, to, asset, amount);
    }

    /// @dev Sets an account's base balance (present value), moving the totals by the change in principal.
    function _setBase(address account, int256 balance) internal {
        int104 old = userBasic[account].principal;
        int104 p = _principal(balance);
        if (old >= 0) totalSupplyBase -= uint104(old);
        else totalBorrowBase -= uint104(-old);
        if (p >= 0) totalSupplyBase += uint104(p);
        else totalBorrowBase += uint104(-p);
        userBasic[account].principal = p;
    }

    function _present(int104 principal) internal view returns (int256) {
        if (principal >= 0) return int256(uint256(uint104(principal)) * baseSupplyIndex / BASE_INDEX_SCALE);
        return -int256((uint256(uint104(-principal)) * baseBorrowIndex + BASE_INDEX_SCALE - 1) / BASE_INDEX_SCALE);
    }

    function _principal(int256 balance) internal view returns (int104) {
        if (balance >= 0) return int104(int256(uint256(balance) * BASE_INDEX_SCALE / baseSupplyIndex));
        return -int104(int256((uint256(-balance) * BASE_INDEX_SCALE + baseBorrowIndex - 1) / baseBorrowIndex));
    }

    function _accrue() internal {
        uint256 elapsed = block.timestamp - lastAccrualTime;
        if (elapsed == 0) return;
        (baseSupplyIndex, baseBorrowIndex) = _accruedIndices(elapsed);
        lastAccrualTime = uint40(block.timestamp);
    }

    function _accruedIndices(uint256 elapsed) internal view returns (uint64 s, uint64 b) {
        (s, b) = (baseSupplyIndex, baseBorrowIndex);
        if (elapsed == 0) return (s, b);
        uint256 u = _utilization(s, b);
        s += uint64(uint256(s) * getSupplyRate(u) * elapsed / FACTOR_SCALE);
        b += uint64(uint256(b) * getBorrowRate(u) * elapsed / FACTOR_SCALE);
    }

    function _utilization(uint64 s, uint64 b) internal view returns (uint256) {
        uint256 supplied = uint256(totalSupplyBase) * s / BASE_INDEX_SCALE;
        if (supplied == 0) return 0;
        return uint256(totalBorrowBase) * b / BASE_INDEX_SCALE * FACTOR_SCALE / supplied;
    }

    /// @dev The account's collateral value weighted by the borrow (or liquidation) factors, less its debt, in USD
    /// with 8 decimals.
    function _liquidity(address account, bool forBorrow) internal view returns (int256) {
        int104 p = userBasic[account].principal;
        if (p >= 0) return 0;
        (, uint64 b) = _accruedIndices(block.timestamp - lastAccrualTime);
        uint256 debt = (uint256(uint104(-p)) * b + BASE_INDEX_SCALE - 1) / BASE_INDEX_SCALE;
        int256 liquidity = -int256(debt * getPrice(baseTokenPriceFeed) / baseScale);
        uint16 assetsIn = userBasic[account].assetsIn;
        for (uint8 i = 0; i < numAssets; i++) {
            if (assetsIn & (uint16(1) << i) == 0) continue;
            AssetInfo memory info = assets[i];
            uint256 value = uint256(collateral[account][info.asset]) * getPrice(info.priceFeed) / info.scale;
            uint256 factor = forBorrow ? info.borrowCollateralFactor : info.liquidateCollateralFactor;
            liquidity += int256(value * factor / FACTOR_SCALE);
        }
        return liquidity;
    }
}
