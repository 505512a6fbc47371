// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, SafeTransfer} from "./IERC20.sol";

/// @notice Morpho Blue's market parameters; a market's id is keccak256(abi.encode(params)).
struct MarketParams {
    address loanToken;
    address collateralToken;
    address oracle;
    address irm;
    uint256 lltv;
}

/// @notice Morpho Blue's market state, in the order of Morpho's `market(Id)` getter.
struct Market {
    uint128 totalSupplyAssets;
    uint128 totalSupplyShares;
    uint128 totalBorrowAssets;
    uint128 totalBorrowShares;
    uint128 lastUpdate;
    uint128 fee;
}

/// @notice Morpho Blue's oracle interface: the price of one collateral unit in loan units, scaled by 1e36.
interface IMorphoOracle {
    function price() external view returns (uint256);
}

/// @notice Morpho Blue's interest rate model interface (rates per second, scaled by 1e18).
interface IIrm {
    function borrowRate(MarketParams memory marketParams, Market memory market) external returns (uint256);
    function borrowRateView(MarketParams memory marketParams, Market memory market) external view returns (uint256);
}

/// @notice The part of Chainlink's AggregatorV3Interface the oracle reads.
interface IMorphoFeed {
    function decimals() external view returns (uint8);
    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80);
}

/// @title Morpho
/// @notice Morpho Blue's external interface (markets by MarketParams, supply/withdraw/borrow/repay by assets
/// or shares, collateral, per-market health checked against the market's oracle and LLTV), written for ward.
/// Shares use Morpho's virtual shares (1e6) and virtual assets (1); interest accrues through the market's IRM
/// with Morpho's three-term Taylor expansion of e^(rate*elapsed) - 1. No fee, liquidation, flash loans, callbacks
/// or signed authorizations.
contract Morpho {
    uint256 internal constant WAD = 1e18;
    uint256 internal constant ORACLE_PRICE_SCALE = 1e36;
    uint256 internal constant VIRTUAL_SHARES = 1e6;
    uint256 internal constant VIRTUAL_ASSETS = 1;

    address public owner;
    mapping(address => bool) public isIrmEnabled;
    mapping(uint256 => bool) public isLltvEnabled;
    mapping(address => mapping(address => bool)) public isAuthorized;
    mapping(bytes32 => Market) public market;
    mapping(bytes32 => MarketParams) public idToMarketParams;

    struct Position {
        uint256 supplyShares;
        uint128 borrowShares;
        uint128 collateral;
    }

    mapping(bytes32 => mapping(address => Position)) public position;

    event EnableIrm(address indexed irm);
    event EnableLltv(uint256 lltv);
    event CreateMarket(bytes32 indexed id, MarketParams marketParams);
    event Supply(bytes32 indexed id, address indexed caller, address indexed onBehalf, uint256 assets, uint256 shares);
    event Withdraw(
        bytes32 indexed id,
        address caller,
        address indexed onBehalf,
        address indexed receiver,
        uint256 assets,
        uint256 shares
    );
    event Borrow(
        bytes32 indexed id,
        address caller,
        address indexed onBehalf,
        address indexed receiver,
        uint256 assets,
        uint256 shares
    );
    event Repay(bytes32 indexed id, address indexed caller, address indexed onBehalf, uint256 assets, uint256 shares);
    event SupplyCollateral(bytes32 indexed id, address indexed caller, address indexed onBehalf, uint256 assets);
    event WithdrawCollateral(
        bytes32 indexed id, address caller, address indexed onBehalf, address indexed receiver, uint256 assets
    );
    event SetAuthorization(
        address indexed caller, address indexed authorizer, address indexed authorized, bool newIsAuthorized
    );
    event AccrueInterest(bytes32 indexed id, uint256 prevBorrowRate, uint256 interest, uint256 feeShares);

    constructor(address newOwner) {
        require(newOwner != address(0), "zero address");
        owner = newOwner;
    }

    function enableIrm(address irm) external {
        require(msg.sender == owner, "not owner");
        require(!isIrmEnabled[irm], "already set");
        isIrmEnabled[irm] = true;
        emit EnableIrm(irm);
    }

    function enableLltv(uint256 lltv) external {
        require(msg.sender == owner, "not owner");
        require(!isLltvEnabled[lltv], "already set");
        require(lltv < WAD, "max LLTV exceeded");
        isLltvEnabled[lltv] = true;
        emit EnableLltv(lltv);
    }

    function createMarket(MarketParams memory marketParams) external {
        bytes32 id = keccak256(abi.encode(marketParams));
        require(isIrmEnabled[marketParams.irm], "IRM not enabled");
        require(isLltvEnabled[marketParams.lltv], "LLTV not enabled");
        require(market[id].lastUpdate == 0, "market already created");
        market[id].lastUpdate = uint128(block.timestamp);
        idToMarketParams[id] = marketParams;
        emit CreateMarket(id, marketParams);
        if (marketParams.irm != address(0)) IIrm(marketParams.irm).borrowRate(marketParams, market[id]);
    }

    function setAuthorization(address authorized, bool newIsAuthorized) external {
        require(newIsAuthorized != isAuthorized[msg.sender][authorized], "already set");
        isAuthorized[msg.sender][authorized] = newIsAuthorized;
        emit SetAuthorization(msg.sender, msg.sender, authorized, newIsAuthorized);
    }

    function supply(MarketParams memory marketParams, uint256 assets, uint256 shares, address onBehalf, bytes memory data)
        external
        returns (uint256, uint256)
    {
        bytes32 id = _created(marketParams);
        _exactlyOneZero(assets, shares);
        require(onBehalf != address(0), "zero address");
        require(data.length == 0, "callbacks not supported");
        _accrueInterest(marketParams, id);
        Market storage m = market[id];
        if (assets > 0) shares = _toSharesDown(assets, m.totalSupplyAssets, m.totalSupplyShares);
        else assets = _toAssetsUp(shares, m.totalSupplyAssets, m.totalSupplyShares);
        position[id][onBehalf].supplyShares += shares;
        m.totalSupplyShares += uint128(shares);
        m.totalSupplyAssets += uint128(assets);
        emit Supply(id, msg.sender, onBehalf, assets, shares);
        SafeTransfer.safeTransferFrom(marketParams.loanToken, msg.sender, address(this), assets);
        return (assets, shares);
    }

    function withdraw(
        MarketParams memory marketParams,
        uint256 assets,
        uint256 shares,
        address onBehalf,
        address receiver
    ) external returns (uint256, uint256) {
        bytes32 id = _created(marketParams);
        _exactlyOneZero(assets, shares);
        require(receiver != address(0), "zero address");
        require(_isSenderAuthorized(onBehalf), "unauthorized");
        _accrueInterest(marketParams, id);
        Market storage m = market[id];
        if (assets > 0) shares = _toSharesUp(assets, m.totalSupplyAssets, m.totalSupplyShares);
        else assets = _toAssetsDown(shares, m.totalSupplyAssets, m.totalSupplyShares);
        position[id][onBehalf].supplyShares -= shares;
        m.totalSupplyShares -= uint128(shares);
        m.totalSupplyAssets -= uint128(assets);
        require(m.totalBorrowAssets <= m.totalSupplyAssets, "insufficient liquidity");
        emit Withdraw(id, msg.sender, onBehalf, receiver, assets, shares);
        SafeTransfer.safeTransfer(marketParams.loanToken, receiver, assets);
        return (assets, shares);
    }

    function borrow(
        MarketParams memory marketParams,
        uint256 assets,
        uint256 shares,
        address onBehalf,
        address receiver
    ) external returns (uint256, uint256) {
        bytes32 id = _created(marketParams);
        _exactlyOneZero(assets, shares);
        require(receiver != address(0), "zero address");
        require(_isSenderAuthorized(onBehalf), "unauthorized");
        _accrueInterest(marketParams, id);
        Market storage m = market[id];
        if (assets > 0) shares = _toSharesUp(assets, m.totalBorrowAssets, m.totalBorrowShares);
        else assets = _toAssetsDown(shares, m.totalBorrowAssets, m.totalBorrowShares);
        position[id][onBehalf].borrowShares += uint128(shares);
        m.totalBorrowShares += uint128(shares);
        m.totalBorrowAssets += uint128(assets);
        require(_isHealthy(marketParams, id, onBehalf), "insufficient collateral");
        require(m.totalBorrowAssets <= m.totalSupplyAssets, "insufficient liquidity");
        emit Borrow(id, msg.sender, onBehalf, receiver, assets, shares);
        SafeTransfer.safeTransfer(marketParams.loanToken, receiver, assets);
        return (assets, shares);
    }

    function repay(MarketParams memory marketParams, uint256 assets, uint256 shares, address onBehalf, bytes memory data)
        external
        returns (uint256, uint256)
    {
        bytes32 id = _created(marketParams);
        _exactlyOneZero(assets, shares);
        require(onBehalf != address(0), "zero address");
        require(data.length == 0, "callbacks not supported");
        _accrueInterest(marketParams, id);
        Market storage m = market[id];
        if (assets > 0) shares = _toSharesDown(assets, m.totalBorrowAssets, m.totalBorrowShares);
        else assets = _toAssetsUp(shares, m.totalBorrowAssets, m.totalBorrowShares);
        position[id][onBehalf].borrowShares -= uint128(shares);
        m.totalBorrowShares -= uint128(shares);
        m.totalBorrowAssets = uint128(m.totalBorrowAssets > assets ? m.totalBorrowAssets - assets : 0);
        emit Repay(id, msg.sender, onBehalf, assets, shares);
        SafeTransfer.safeTransferFrom(marketParams.loanToken, msg.sender, address(this), assets);
        return (assets, shares);
    }

    function supplyCollateral(MarketParams memory marketParams, uint256 assets, address onBehalf, bytes memory data)
        external
    {
        bytes32 id = _created(marketParams);
        require(assets != 0, "zero assets");
        require(onBehalf != address(0), "zero address");
        require(data.length == 0, "callbacks not supported");
        position[id][onBehalf].collateral += uint128(assets);
        emit SupplyCollateral(id, msg.sender, onBehalf, assets);
        SafeTransfer.safeTransferFrom(marketParams.collateralToken, msg.sender, address(this), assets);
    }

    function withdrawCollateral(MarketParams memory marketParams, uint256 assets, address onBehalf, address receiver)
        external
    {
        bytes32 id = _created(marketParams);
        require(assets != 0, "zero assets");
        require(receiver != address(0), "zero address");
        require(_isSenderAuthorized(onBehalf), "unauthorized");
        _accrueInterest(marketParams, id);
        position[id][onBehalf].collateral -= uint128(assets);
        require(_isHealthy(marketParams, id, onBehalf), "insufficient collateral");
        emit WithdrawCollateral(id, msg.sender, onBehalf, receiver, assets);
        SafeTransfer.safeTransfer(marketParams.collateralToken, receiver, assets);
    }

    function accrueInterest(MarketParams memory marketParams) external {
        _accrueInterest(marketParams, _created(marketParams));
    }

    function _created(MarketParams memory marketParams) internal view returns (bytes32 id) {
        id = keccak256(abi.encode(marketParams));
        require(market[id].lastUpdate != 0, "market not created");
    }

    function _exactlyOneZero(uint256 a, uint256 b) internal pure {
        require((a == 0) != (b == 0), "inconsistent input");
    }

    function _isSenderAuthorized(address onBehalf) internal view returns (bool) {
        return msg.sender == onBehalf || isAuthorized[onBehalf][msg.sender];
    }

    function _accrueInterest(MarketParams memory marketParams, bytes32 id) internal {
        Market storage m = market[id];
        uint256 elapsed = block.timestamp - m.lastUpdate;
        if (elapsed == 0) return;
        if (marketParams.irm != address(0)) {
            uint256 rate = IIrm(marketParams.irm).borrowRate(marketParams, m);
            uint256 x = rate * elapsed;
            uint256 second = x * x / (2 * WAD);
            uint256 third = second * x / (3 * WAD);
            uint256 interest = uint256(m.totalBorrowAssets) * (x + second + third) / WAD;
            m.totalBorrowAssets += uint128(interest);
            m.totalSupplyAssets += uint128(interest);
            emit AccrueInterest(id, rate, interest, 0);
        }
        m.lastUpdate = uint128(block.timestamp);
    }

    function _isHealthy(MarketParams memory marketParams, bytes32 id, address borrower) internal view returns (bool) {
        Position storage p = position[id][borrower];
        if (p.borrowShares == 0) return true;
        Market storage m = market[id];
        uint256 borrowed = _toAssetsUp(p.borrowShares, m.totalBorrowAssets, m.totalBorrowShares);
        uint256 maxBorrow =
            uint256(p.collateral) * IMorphoOracle(marketParams.oracle).price() / ORACLE_PRICE_SCALE * marketParams.lltv / WAD;
        return maxBorrow >= borrowed;
    }

    function _toSharesDown(uint256 assets, uint256 totalAssets, uint256 totalShares) internal pure returns (uint256) {
        return assets * (totalShares + VIRTUAL_SHARES) / (totalAssets + VIRTUAL_ASSETS);
    }

    function _toSharesUp(uint256 assets, uint256 totalAssets, uint256 totalShares) internal pure returns (uint256) {
        uint256 d = totalAssets + VIRTUAL_ASSETS;
        return (assets * (totalShares + VIRTUAL_SHARES) + d - 1) / d;
    }

    function _toAssetsDown(uint256 shares, uint256 totalAssets, uint256 totalShares) internal pure returns (uint256) {
        return shares * (totalAssets + VIRTUAL_ASSETS) / (totalShares + VIRTUAL_SHARES);
    }

    function _toAssetsUp(uint256 shares, uint256 totalAssets, uint256 totalShares) internal pure returns (uint256) {
        uint256 d = totalShares + VIRTUAL_SHARES;
        return (shares * (totalAssets + VIRTUAL_ASSETS) + d - 1) / d;
    }
}

/// @title MorphoChainlinkOracle
/// @notice A Morpho Blue oracle over two Chainlink-interface USD feeds, as MorphoChainlinkOracleV2 does with one
/// base and one quote feed and no vaults: price() = SCALE_FACTOR * base answer / quote answer, one collateral unit
/// in loan units scaled by 1e36. Reverts on a non-positive answer; no staleness check (as on Morpho).
contract MorphoChainlinkOracle is IMorphoOracle {
    // solhint-disable var-name-mixedcase
    address public immutable BASE_FEED_1;
    address public immutable QUOTE_FEED_1;
    uint256 public immutable SCALE_FACTOR;
    // solhint-enable var-name-mixedcase

    constructor(address baseFeed, uint256 baseTokenDecimals, address quoteFeed, uint256 quoteTokenDecimals) {
        BASE_FEED_1 = baseFeed;
        QUOTE_FEED_1 = quoteFeed;
        SCALE_FACTOR = 10
            ** (36 + quoteTokenDecimals + IMorphoFeed(quoteFeed).decimals() - IMorphoFeed(baseFeed).decimals()
                - baseTokenDecimals);
    }

    function price() external view returns (uint256) {
        (, int256 base,,,) = IMorphoFeed(BASE_FEED_1).latestRoundData();
        (, int256 quote,,,) = IMorphoFeed(QUOTE_FEED_1).latestRoundData();
        require(base > 0 && quote > 0, "negative answer");
        return SCALE_FACTOR * uint256(base) / uint256(quote);
    }
}

/// @title FixedRateIrm
/// @notice An interest rate model with one borrow rate per second (1e18 scale) for every market, set at deployment.
contract FixedRateIrm is IIrm {
    uint256 public immutable RATE;

    constructor(uint256 ratePerSecond) {
        RATE = ratePerSecond;
    }

    function borrowRate(MarketParams memory, Market memory) external view returns (uint256) {
        return RATE;
    }

    function borrowRateView(MarketParams memory, Market memory) external view returns (uint256) {
        return RATE;
    }
}
