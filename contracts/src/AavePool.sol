// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "./ERC20.sol";
import {IERC20, SafeTransfer} from "./IERC20.sol";

/// @notice The part of Chainlink's AggregatorV3Interface the pool reads.
interface IPriceFeed {
    function decimals() external view returns (uint8);
    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound);
}

/// @title AToken
/// @notice A reserve's interest-bearing token (without interest): balances are the supplied amounts
/// 1:1, and the contract holds the reserve's underlying, as Aave's aTokens do. Created by
/// Pool.initReserve. Transfers are checked by the pool: a holder with debt cannot transfer away
/// collateral that keeps its health factor at or above 1.
contract AToken is ERC20 {
    // solhint-disable var-name-mixedcase
    address public immutable POOL;
    address public immutable UNDERLYING_ASSET_ADDRESS;
    // solhint-enable var-name-mixedcase

    modifier onlyPool() {
        require(msg.sender == POOL, "AToken: caller is not the pool");
        _;
    }

    constructor(address underlying, string memory name_, string memory symbol_, uint8 decimals_)
        ERC20(name_, symbol_, decimals_)
    {
        POOL = msg.sender;
        UNDERLYING_ASSET_ADDRESS = underlying;
    }

    /// @notice Equal to balanceOf: the liquidity index is always 1 (no interest).
    function scaledBalanceOf(address user) external view returns (uint256) {
        return balanceOf[user];
    }

    function scaledTotalSupply() external view returns (uint256) {
        return totalSupply;
    }

    function mint(address to, uint256 amount) external onlyPool {
        _mint(to, amount);
    }

    /// @notice Burns `amount` from `from` and sends as much underlying to `receiverOfUnderlying`.
    function burn(address from, address receiverOfUnderlying, uint256 amount) external onlyPool {
        _burn(from, amount);
        _sendUnderlying(receiverOfUnderlying, amount);
    }

    function transferUnderlyingTo(address target, uint256 amount) external onlyPool {
        _sendUnderlying(target, amount);
    }

    /// @notice Moves collateral to a liquidator without the health-factor check.
    function transferOnLiquidation(address from, address to, uint256 amount) external onlyPool {
        ERC20._transfer(from, to, amount);
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        uint256 fromBefore = balanceOf[from];
        uint256 toBefore = balanceOf[to];
        super._transfer(from, to, amount);
        Pool(POOL).finalizeTransfer(UNDERLYING_ASSET_ADDRESS, from, to, amount, fromBefore, toBefore);
    }

    function _sendUnderlying(address to, uint256 amount) private {
        require(
            IERC20(UNDERLYING_ASSET_ADDRESS).balanceOf(address(this)) >= amount,
            "Pool: not enough liquidity in the reserve"
        );
        SafeTransfer.safeTransfer(UNDERLYING_ASSET_ADDRESS, to, amount);
    }
}

/// @title VariableDebtToken
/// @notice A reserve's variable-rate debt (without interest): balanceOf is the amount owed.
/// Created by Pool.initReserve. Not transferable; credit delegation is not supported.
contract VariableDebtToken {
    event Transfer(address indexed from, address indexed to, uint256 value);

    // solhint-disable var-name-mixedcase
    address public immutable POOL;
    address public immutable UNDERLYING_ASSET_ADDRESS;
    // solhint-enable var-name-mixedcase
    uint8 public immutable decimals;
    string public name;
    string public symbol;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;

    modifier onlyPool() {
        require(msg.sender == POOL, "VariableDebtToken: caller is not the pool");
        _;
    }

    constructor(address underlying, string memory name_, string memory symbol_, uint8 decimals_) {
        POOL = msg.sender;
        UNDERLYING_ASSET_ADDRESS = underlying;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
    }

    function scaledBalanceOf(address user) external view returns (uint256) {
        return balanceOf[user];
    }

    function mint(address onBehalfOf, uint256 amount) external onlyPool {
        totalSupply += amount;
        balanceOf[onBehalfOf] += amount;
        emit Transfer(address(0), onBehalfOf, amount);
    }

    function burn(address from, uint256 amount) external onlyPool {
        balanceOf[from] -= amount;
        totalSupply -= amount;
        emit Transfer(from, address(0), amount);
    }

    function allowance(address, address) external pure returns (uint256) {
        return 0;
    }

    function approve(address, uint256) external pure returns (bool) {
        revert("VariableDebtToken: debt tokens are not transferable");
    }

    function transfer(address, uint256) external pure returns (bool) {
        revert("VariableDebtToken: debt tokens are not transferable");
    }

    function transferFrom(address, address, uint256) external pure returns (bool) {
        revert("VariableDebtToken: debt tokens are not transferable");
    }
}

/// @title Pool
/// @notice An Aave V3 style lending pool with the mainnet Pool's function names and units:
/// values in the base currency (USD with 8 decimals), health factor scaled by 1e18, LTV and
/// liquidation threshold in basis points. Prices come from one Chainlink-interface feed per
/// reserve (answers rescaled to 8 decimals; no staleness check, like Aave's oracle).
/// Simplified: no interest accrual (indexes stay 1e27, rates 0), variable-rate debt only
/// (interestRateMode 2), every supplied asset with a non-zero LTV counts as collateral, no
/// isolation/e-mode/caps/flash loans/credit delegation/protocol fee, and the close factor is
/// Aave V3.0's (50 %, or 100 % once the health factor is below 0.95).
contract Pool {
    struct ReserveConfigurationMap {
        uint256 data;
    }

    /// @notice The layout getReserveData returns: Aave V3's ReserveDataLegacy (the same 15 words).
    struct ReserveDataLegacy {
        ReserveConfigurationMap configuration;
        uint128 liquidityIndex;
        uint128 currentLiquidityRate;
        uint128 variableBorrowIndex;
        uint128 currentVariableBorrowRate;
        uint128 currentStableBorrowRate;
        uint40 lastUpdateTimestamp;
        uint16 id;
        address aTokenAddress;
        address stableDebtTokenAddress;
        address variableDebtTokenAddress;
        address interestRateStrategyAddress;
        uint128 accruedToTreasury;
        uint128 unbacked;
        uint128 isolationModeTotalDebt;
    }

    struct Reserve {
        address aToken;
        address debtToken;
        address priceFeed;
        uint16 ltv;
        uint16 liquidationThreshold;
        uint16 liquidationBonus;
        uint8 decimals;
        uint16 id;
        uint40 initializedAt;
    }

    struct AccountData {
        uint256 totalCollateralBase;
        uint256 totalDebtBase;
        uint256 availableBorrowsBase;
        uint256 currentLiquidationThreshold;
        uint256 ltv;
        uint256 healthFactor;
    }

    event ReserveInitialized(
        address indexed asset,
        address indexed aToken,
        address stableDebtToken,
        address variableDebtToken,
        address interestRateStrategyAddress
    );
    event Supply(
        address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode
    );
    event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount);
    event Borrow(
        address indexed reserve,
        address user,
        address indexed onBehalfOf,
        uint256 amount,
        uint8 interestRateMode,
        uint256 borrowRate,
        uint16 indexed referralCode
    );
    event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens);
    event LiquidationCall(
        address indexed collateralAsset,
        address indexed debtAsset,
        address indexed user,
        uint256 debtToCover,
        uint256 liquidatedCollateralAmount,
        address liquidator,
        bool receiveAToken
    );

    uint256 public constant HEALTH_FACTOR_LIQUIDATION_THRESHOLD = 1e18;
    uint256 public constant CLOSE_FACTOR_HF_THRESHOLD = 0.95e18;
    uint256 private constant DEFAULT_CLOSE_FACTOR = 5000;
    uint256 private constant MAX_CLOSE_FACTOR = 10000;
    uint256 private constant PERCENTAGE_FACTOR = 10000;
    uint256 private constant RAY = 1e27;
    uint256 private constant VARIABLE_RATE = 2;

    address public immutable owner;
    mapping(address => Reserve) private reserves;
    address[] private reservesList;

    constructor() {
        owner = msg.sender;
    }

    /// @notice Lists `asset` with its price feed and risk parameters in basis points:
    /// ltvBps (e.g. 8000), liquidationThresholdBps (e.g. 8250) and liquidationBonusBps, the
    /// liquidator's premium (e.g. 500 for 5 %; Aave's configuration stores it as 10500).
    /// Creates the reserve's AToken ("Aave <symbol>", "a<symbol>") and VariableDebtToken.
    function initReserve(
        address asset,
        address priceFeed,
        uint256 ltvBps,
        uint256 liquidationThresholdBps,
        uint256 liquidationBonusBps
    ) external {
        require(msg.sender == owner, "Pool: caller is not the owner");
        require(asset != address(0) && priceFeed != address(0), "Pool: zero address");
        require(reserves[asset].aToken == address(0), "Pool: reserve already initialized");
        require(
            ltvBps <= liquidationThresholdBps && liquidationThresholdBps < PERCENTAGE_FACTOR
                && liquidationBonusBps < PERCENTAGE_FACTOR
                && liquidationThresholdBps * (PERCENTAGE_FACTOR + liquidationBonusBps) <= PERCENTAGE_FACTOR ** 2,
            "Pool: invalid risk parameters (need ltv <= threshold, threshold * (1 + bonus) <= 100%)"
        );
        require(reservesList.length < type(uint16).max, "Pool: too many reserves");
        uint8 decimals = IERC20(asset).decimals();
        string memory symbol = IERC20(asset).symbol();
        (, int256 answer,,,) = IPriceFeed(priceFeed).latestRoundData();
        require(answer > 0, "Pool: price feed has no positive answer");

        AToken aToken = new AToken(asset, string.concat("Aave ", symbol), string.concat("a", symbol), decimals);
        VariableDebtToken debtToken = new VariableDebtToken(
            asset, string.concat("Aave Variable Debt ", symbol), string.concat("variableDebt", symbol), decimals
        );
        reserves[asset] = Reserve({
            aToken: address(aToken),
            debtToken: address(debtToken),
            priceFeed: priceFeed,
            ltv: uint16(ltvBps),
            liquidationThreshold: uint16(liquidationThresholdBps),
            liquidationBonus: uint16(liquidationBonusBps),
            decimals: decimals,
            id: uint16(reservesList.length),
            initializedAt: uint40(block.timestamp)
        });
        reservesList.push(asset);
        emit ReserveInitialized(asset, address(aToken), address(0), address(debtToken), address(0));
    }

    // ---- user actions ----

    function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode) public {
        Reserve memory r = _reserve(asset);
        require(amount > 0, "Pool: amount must be greater than 0");
        require(onBehalfOf != address(0), "Pool: zero address");
        SafeTransfer.safeTransferFrom(asset, msg.sender, r.aToken, amount);
        AToken(r.aToken).mint(onBehalfOf, amount);
        emit Supply(asset, msg.sender, onBehalfOf, amount, referralCode);
    }

    /// @notice The pre-V3 name of supply.
    function deposit(address asset, uint256 amount, address onBehalfOf, uint16 referralCode) external {
        supply(asset, amount, onBehalfOf, referralCode);
    }

    /// @notice Withdraws `amount` (type(uint256).max for everything) of the caller's supply to `to`.
    /// Reverts if the caller has debt and its health factor would fall below 1.
    function withdraw(address asset, uint256 amount, address to) external returns (uint256) {
        Reserve memory r = _reserve(asset);
        uint256 balance = AToken(r.aToken).balanceOf(msg.sender);
        uint256 amountToWithdraw = amount == type(uint256).max ? balance : amount;
        require(amountToWithdraw > 0, "Pool: amount must be greater than 0");
        require(amountToWithdraw <= balance, "Pool: not enough available user balance");
        AToken(r.aToken).burn(msg.sender, to, amountToWithdraw);
        _requireHealthy(msg.sender);
        emit Withdraw(asset, msg.sender, to, amountToWithdraw);
        return amountToWithdraw;
    }

    /// @notice Borrows `amount` at the variable rate (interestRateMode 2) against the caller's
    /// collateral; the total debt must stay within the collateral's LTV. onBehalfOf must be the caller.
    function borrow(address asset, uint256 amount, uint256 interestRateMode, uint16 referralCode, address onBehalfOf)
        external
    {
        Reserve memory r = _reserve(asset);
        require(interestRateMode == VARIABLE_RATE, "Pool: only the variable rate (interestRateMode 2) is supported");
        require(onBehalfOf == msg.sender, "Pool: credit delegation is not supported (onBehalfOf must be the caller)");
        require(amount > 0, "Pool: amount must be greater than 0");
        VariableDebtToken(r.debtToken).mint(onBehalfOf, amount);
        AccountData memory a = _accountData(onBehalfOf);
        require(a.totalCollateralBase > 0, "Pool: the collateral balance is 0");
        require(
            a.totalDebtBase <= _percentMul(a.totalCollateralBase, a.ltv), "Pool: collateral cannot cover the new borrow"
        );
        AToken(r.aToken).transferUnderlyingTo(msg.sender, amount);
        emit Borrow(asset, msg.sender, onBehalfOf, amount, uint8(VARIABLE_RATE), 0, referralCode);
    }

    /// @notice Repays up to `amount` (type(uint256).max for all, only for one's own debt) of
    /// onBehalfOf's variable debt, paid by the caller. Returns the amount repaid.
    function repay(address asset, uint256 amount, uint256 interestRateMode, address onBehalfOf)
        external
        returns (uint256)
    {
        Reserve memory r = _reserve(asset);
        require(interestRateMode == VARIABLE_RATE, "Pool: only the variable rate (interestRateMode 2) is supported");
        require(amount > 0, "Pool: amount must be greater than 0");
        require(
            amount != type(uint256).max || msg.sender == onBehalfOf,
            "Pool: give an explicit amount to repay on behalf of another user"
        );
        uint256 debt = VariableDebtToken(r.debtToken).balanceOf(onBehalfOf);
        require(debt > 0, "Pool: no debt of this type to repay");
        uint256 payback = amount < debt ? amount : debt;
        VariableDebtToken(r.debtToken).burn(onBehalfOf, payback);
        SafeTransfer.safeTransferFrom(asset, msg.sender, r.aToken, payback);
        emit Repay(asset, onBehalfOf, msg.sender, payback, false);
        return payback;
    }

    /// @notice Repays up to `debtToCover` of `user`'s debt in debtAsset (capped by the close
    /// factor) and takes the equivalent collateral plus the reserve's liquidation bonus, as
    /// underlying or, with receiveAToken, as aTokens. Only while user's health factor is below 1.
    function liquidationCall(
        address collateralAsset,
        address debtAsset,
        address user,
        uint256 debtToCover,
        bool receiveAToken
    ) external {
        Reserve memory c = _reserve(collateralAsset);
        Reserve memory d = _reserve(debtAsset);
        (uint256 collateralAmount, uint256 debtRepaid) = _liquidationPlan(c, d, user, debtToCover);

        VariableDebtToken(d.debtToken).burn(user, debtRepaid);
        SafeTransfer.safeTransferFrom(debtAsset, msg.sender, d.aToken, debtRepaid);
        if (receiveAToken) {
            AToken(c.aToken).transferOnLiquidation(user, msg.sender, collateralAmount);
        } else {
            AToken(c.aToken).burn(user, msg.sender, collateralAmount);
        }
        emit LiquidationCall(collateralAsset, debtAsset, user, debtRepaid, collateralAmount, msg.sender, receiveAToken);
    }

    /// @notice Called by a reserve's AToken after a transfer; reverts if the sender is left with a
    /// health factor below 1.
    function finalizeTransfer(address asset, address from, address to, uint256, uint256, uint256) external view {
        require(msg.sender == reserves[asset].aToken, "Pool: caller is not the aToken of the reserve");
        if (from != to) _requireHealthy(from);
    }

    // ---- views ----

    /// @notice The account summary in Aave V3's units: collateral, debt and available borrows in
    /// the base currency (USD, 8 decimals), the weighted liquidation threshold and LTV in basis
    /// points, and the health factor scaled by 1e18 (type(uint256).max without debt).
    function getUserAccountData(address user)
        external
        view
        returns (
            uint256 totalCollateralBase,
            uint256 totalDebtBase,
            uint256 availableBorrowsBase,
            uint256 currentLiquidationThreshold,
            uint256 ltv,
            uint256 healthFactor
        )
    {
        AccountData memory a = _accountData(user);
        return (
            a.totalCollateralBase,
            a.totalDebtBase,
            a.availableBorrowsBase,
            a.currentLiquidationThreshold,
            a.ltv,
            a.healthFactor
        );
    }

    /// @notice The reserve in Aave V3's ReserveDataLegacy layout. configuration.data packs, as on
    /// Aave: bits 0-15 LTV, 16-31 liquidation threshold, 32-47 liquidation bonus (10000 + premium),
    /// 48-55 decimals, 56 active, 58 borrowing enabled. Indexes are 1e27, rates 0,
    /// stableDebtTokenAddress and interestRateStrategyAddress are zero.
    function getReserveData(address asset) external view returns (ReserveDataLegacy memory data) {
        Reserve memory r = reserves[asset];
        if (r.aToken == address(0)) return data;
        data.configuration = _configuration(r);
        data.liquidityIndex = uint128(RAY);
        data.variableBorrowIndex = uint128(RAY);
        data.lastUpdateTimestamp = r.initializedAt;
        data.id = r.id;
        data.aTokenAddress = r.aToken;
        data.variableDebtTokenAddress = r.debtToken;
    }

    function getConfiguration(address asset) external view returns (ReserveConfigurationMap memory) {
        Reserve memory r = reserves[asset];
        if (r.aToken == address(0)) return ReserveConfigurationMap(0);
        return _configuration(r);
    }

    function getReservesList() external view returns (address[] memory) {
        return reservesList;
    }

    function getReserveNormalizedIncome(address) external pure returns (uint256) {
        return RAY;
    }

    function getReserveNormalizedVariableDebt(address) external pure returns (uint256) {
        return RAY;
    }

    /// @notice The asset's price in the base currency (USD, 8 decimals), as AaveOracle.getAssetPrice reports it.
    function getAssetPrice(address asset) external view returns (uint256) {
        return _price(_reserve(asset));
    }

    // ---- internals ----

    function _reserve(address asset) private view returns (Reserve memory r) {
        r = reserves[asset];
        require(r.aToken != address(0), "Pool: reserve not initialized");
    }

    function _configuration(Reserve memory r) private pure returns (ReserveConfigurationMap memory) {
        uint256 data = uint256(r.ltv) | (uint256(r.liquidationThreshold) << 16)
            | ((PERCENTAGE_FACTOR + r.liquidationBonus) << 32) | (uint256(r.decimals) << 48) | (1 << 56) | (1 << 58);
        return ReserveConfigurationMap(data);
    }

    function _price(Reserve memory r) private view returns (uint256) {
        (, int256 answer,,,) = IPriceFeed(r.priceFeed).latestRoundData();
        require(answer > 0, "Pool: price feed answer is not positive");
        uint8 feedDecimals = IPriceFeed(r.priceFeed).decimals();
        if (feedDecimals == 8) return uint256(answer);
        if (feedDecimals > 8) return uint256(answer) / 10 ** (feedDecimals - 8);
        return uint256(answer) * 10 ** (8 - feedDecimals);
    }

    function _accountData(address user) private view returns (AccountData memory a) {
        uint256 weightedLtv;
        uint256 weightedThreshold;
        for (uint256 i; i < reservesList.length; i++) {
            Reserve memory r = reserves[reservesList[i]];
            uint256 supplied = AToken(r.aToken).balanceOf(user);
            uint256 borrowed = VariableDebtToken(r.debtToken).balanceOf(user);
            if (supplied == 0 && borrowed == 0) continue;
            uint256 price = _price(r);
            uint256 unit = 10 ** r.decimals;
            if (supplied > 0 && r.liquidationThreshold > 0) {
                uint256 value = (supplied * price) / unit;
                a.totalCollateralBase += value;
                weightedLtv += value * r.ltv;
                weightedThreshold += value * r.liquidationThreshold;
            }
            if (borrowed > 0) {
                a.totalDebtBase += (borrowed * price) / unit;
            }
        }
        if (a.totalCollateralBase > 0) {
            a.ltv = weightedLtv / a.totalCollateralBase;
            a.currentLiquidationThreshold = weightedThreshold / a.totalCollateralBase;
        }
        a.healthFactor = a.totalDebtBase == 0
            ? type(uint256).max
            : _wadDiv(_percentMul(a.totalCollateralBase, a.currentLiquidationThreshold), a.totalDebtBase);
        uint256 borrowable = _percentMul(a.totalCollateralBase, a.ltv);
        a.availableBorrowsBase = borrowable > a.totalDebtBase ? borrowable - a.totalDebtBase : 0;
    }

    function _requireHealthy(address user) private view {
        require(
            _accountData(user).healthFactor >= HEALTH_FACTOR_LIQUIDATION_THRESHOLD,
            "Pool: health factor would fall below 1 (liquidation threshold)"
        );
    }

    function _liquidationPlan(Reserve memory c, Reserve memory d, address user, uint256 debtToCover)
        private
        view
        returns (uint256 collateralAmount, uint256 debtRepaid)
    {
        uint256 healthFactor = _accountData(user).healthFactor;
        require(
            healthFactor < HEALTH_FACTOR_LIQUIDATION_THRESHOLD,
            "Pool: health factor is not below 1, the position cannot be liquidated"
        );
        uint256 userDebt = VariableDebtToken(d.debtToken).balanceOf(user);
        require(userDebt > 0, "Pool: the user has no debt in the debt asset");
        uint256 userCollateral = AToken(c.aToken).balanceOf(user);
        require(userCollateral > 0 && c.liquidationThreshold > 0, "Pool: the user has no collateral in the collateral asset");

        uint256 closeFactor = healthFactor > CLOSE_FACTOR_HF_THRESHOLD ? DEFAULT_CLOSE_FACTOR : MAX_CLOSE_FACTOR;
        uint256 maxDebt = _percentMul(userDebt, closeFactor);
        (collateralAmount, debtRepaid) =
            _liquidationAmounts(c, d, debtToCover < maxDebt ? debtToCover : maxDebt, userCollateral);
        require(debtRepaid > 0 && collateralAmount > 0, "Pool: liquidation amount too small");
    }

    // Collateral to seize for `debtAmount` plus the bonus, capped by the user's collateral, in
    // which case the debt repaid shrinks to match.
    function _liquidationAmounts(Reserve memory c, Reserve memory d, uint256 debtAmount, uint256 userCollateral)
        private
        view
        returns (uint256 collateralAmount, uint256 debtRepaid)
    {
        uint256 collateralPrice = _price(c);
        uint256 debtPrice = _price(d);
        uint256 collateralUnit = 10 ** c.decimals;
        uint256 debtUnit = 10 ** d.decimals;
        uint256 bonus = PERCENTAGE_FACTOR + c.liquidationBonus;
        uint256 baseCollateral = (debtPrice * debtAmount * collateralUnit) / (collateralPrice * debtUnit);
        uint256 maxCollateral = _percentMul(baseCollateral, bonus);
        if (maxCollateral > userCollateral) {
            collateralAmount = userCollateral;
            debtRepaid =
                _percentDiv((collateralPrice * collateralAmount * debtUnit) / (debtPrice * collateralUnit), bonus);
        } else {
            collateralAmount = maxCollateral;
            debtRepaid = debtAmount;
        }
    }

    // Aave's PercentageMath and WadRayMath, rounding half up.
    function _percentMul(uint256 value, uint256 percentage) private pure returns (uint256) {
        return (value * percentage + PERCENTAGE_FACTOR / 2) / PERCENTAGE_FACTOR;
    }

    function _percentDiv(uint256 value, uint256 percentage) private pure returns (uint256) {
        return (value * PERCENTAGE_FACTOR + percentage / 2) / percentage;
    }

    function _wadDiv(uint256 a, uint256 b) private pure returns (uint256) {
        return (a * 1e18 + b / 2) / b;
    }
}
