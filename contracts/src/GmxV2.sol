// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, SafeTransfer} from "./IERC20.sol";

interface IFeed {
    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80);
}

/// @title GmxV2
/// @notice A dev-chain subset of GMX Synthetics (V2) written for ward: one contract that answers
/// as the ExchangeRouter (multicall, sendTokens, createOrder, cancelOrder), the Router
/// (the address tokens are approved to), the OrderVault, the DataStore (getUint,
/// getBytes32Count, getBytes32ValuesAt with GMX's key derivations) and the Reader (getPosition,
/// getMarket). One market (index and long token WETH, short token USDC) takes the short token
/// as collateral. Market orders wait for the keeper (executeOrder, the deployer only), which fills
/// them at the Chainlink-style feed's price. Orders pay an execution fee as GMX's do: native ETH
/// sent with sendWnt in the same multicall, at least GasUtils.adjustGasLimitForEstimate of the
/// order's gas limit times tx.gasprice, read from this DataStore's values under GMX's keys
/// (ward's dev values, set at construction); the keeper is paid its gas and the rest refunded to
/// the order's receiver, and a cancel refunds it. There is no price impact, no borrowing or
/// funding accrual, no swaps and no liquidation keeper.
contract GmxV2 {
    using SafeTransfer for address;

    struct CreateOrderParamsAddresses {
        address receiver;
        address cancellationReceiver;
        address callbackContract;
        address uiFeeReceiver;
        address market;
        address initialCollateralToken;
        address[] swapPath;
    }

    struct CreateOrderParamsNumbers {
        uint256 sizeDeltaUsd;
        uint256 initialCollateralDeltaAmount;
        uint256 triggerPrice;
        uint256 acceptablePrice;
        uint256 executionFee;
        uint256 callbackGasLimit;
        uint256 minOutputAmount;
        uint256 validFromTime;
    }

    struct CreateOrderParams {
        CreateOrderParamsAddresses addresses;
        CreateOrderParamsNumbers numbers;
        uint8 orderType;
        uint8 decreasePositionSwapType;
        bool isLong;
        bool shouldUnwrapNativeToken;
        bool autoCancel;
        bytes32 referralCode;
        bytes32[] dataList;
    }

    struct PositionAddresses {
        address account;
        address market;
        address collateralToken;
    }

    struct PositionNumbers {
        uint256 sizeInUsd;
        uint256 sizeInTokens;
        uint256 collateralAmount;
        uint256 pendingImpactAmount;
        uint256 borrowingFactor;
        uint256 fundingFeeAmountPerSize;
        uint256 longTokenClaimableFundingAmountPerSize;
        uint256 shortTokenClaimableFundingAmountPerSize;
        uint256 increasedAtTime;
        uint256 decreasedAtTime;
    }

    struct PositionFlags {
        bool isLong;
    }

    struct PositionProps {
        PositionAddresses addresses;
        PositionNumbers numbers;
        PositionFlags flags;
    }

    struct MarketProps {
        address marketToken;
        address indexToken;
        address longToken;
        address shortToken;
    }

    struct Order {
        address account;
        address receiver;
        address market;
        address collateralToken;
        uint8 orderType;
        bool isLong;
        uint256 sizeDeltaUsd;
        uint256 collateralDelta;
        uint256 acceptablePrice;
        uint256 executionFee;
    }

    error InsufficientWntAmountForExecutionFee(uint256 wntAmount, uint256 executionFee);
    error InsufficientExecutionFee(uint256 minExecutionFee, uint256 executionFee);

    uint8 constant MARKET_INCREASE = 2;
    uint8 constant MARKET_DECREASE = 4;
    uint256 constant FLOAT = 1e30;

    bytes32 public constant OPEN_INTEREST = keccak256(abi.encode("OPEN_INTEREST"));
    bytes32 public constant OPEN_INTEREST_IN_TOKENS = keccak256(abi.encode("OPEN_INTEREST_IN_TOKENS"));
    bytes32 public constant MIN_COLLATERAL_FACTOR = keccak256(abi.encode("MIN_COLLATERAL_FACTOR"));
    bytes32 public constant FUNDING_FACTOR = keccak256(abi.encode("FUNDING_FACTOR"));
    bytes32 public constant ACCOUNT_ORDER_LIST = keccak256(abi.encode("ACCOUNT_ORDER_LIST"));
    bytes32 public constant ACCOUNT_POSITION_LIST = keccak256(abi.encode("ACCOUNT_POSITION_LIST"));
    // Execution fee keys, as @gmx-io/sdk's configs/dataStore reads them (the order gas limit keys
    // are the hashed names themselves).
    bytes32 public constant ESTIMATED_GAS_FEE_BASE_AMOUNT_V2_1 = keccak256(abi.encode("ESTIMATED_GAS_FEE_BASE_AMOUNT_V2_1"));
    bytes32 public constant ESTIMATED_GAS_FEE_PER_ORACLE_PRICE = keccak256(abi.encode("ESTIMATED_GAS_FEE_PER_ORACLE_PRICE"));
    bytes32 public constant ESTIMATED_GAS_FEE_MULTIPLIER_FACTOR = keccak256(abi.encode("ESTIMATED_GAS_FEE_MULTIPLIER_FACTOR"));
    bytes32 public constant INCREASE_ORDER_GAS_LIMIT = keccak256(abi.encode("INCREASE_ORDER_GAS_LIMIT"));
    bytes32 public constant DECREASE_ORDER_GAS_LIMIT = keccak256(abi.encode("DECREASE_ORDER_GAS_LIMIT"));
    bytes32 public constant SINGLE_SWAP_GAS_LIMIT = keccak256(abi.encode("SINGLE_SWAP_GAS_LIMIT"));

    event OrderCreated(bytes32 indexed key, address indexed account, uint8 orderType, bool isLong, uint256 sizeDeltaUsd, uint256 collateralDelta);
    event OrderExecuted(bytes32 indexed key, address indexed account, uint256 executionPrice);
    event OrderCancelled(bytes32 indexed key, address indexed account);
    event PositionIncrease(bytes32 indexed positionKey, address indexed account, uint256 sizeDeltaUsd, uint256 executionPrice);
    event PositionDecrease(bytes32 indexed positionKey, address indexed account, uint256 sizeDeltaUsd, int256 pnlUsd, uint256 paidOut);

    address public immutable keeper;
    address public immutable market;
    address public immutable indexToken;
    address public immutable shortToken;
    IFeed public immutable indexFeed;
    IFeed public immutable shortFeed;
    uint8 private immutable indexDecimals;
    uint8 private immutable shortDecimals;

    mapping(bytes32 => uint256) private uints;
    mapping(bytes32 => bytes32[]) private sets;
    mapping(bytes32 => Order) private orders;
    mapping(bytes32 => PositionProps) private positions;
    mapping(address => uint256) private sent; // tokens sent to the vault in the current multicall
    uint256 private wntSent; // native ETH recorded by sendWnt and not yet taken by an order
    uint256 private nonce;

    constructor(address indexToken_, address shortToken_, address indexFeed_, address shortFeed_, uint256 minCollateralFactor) {
        keeper = msg.sender;
        market = address(uint160(uint256(keccak256(abi.encode("GMX_MARKET", indexToken_, shortToken_)))));
        indexToken = indexToken_;
        shortToken = shortToken_;
        indexFeed = IFeed(indexFeed_);
        shortFeed = IFeed(shortFeed_);
        indexDecimals = IERC20(indexToken_).decimals();
        shortDecimals = IERC20(shortToken_).decimals();
        uints[keccak256(abi.encode(MIN_COLLATERAL_FACTOR, market))] = minCollateralFactor;
        uints[ESTIMATED_GAS_FEE_BASE_AMOUNT_V2_1] = 500_000;
        uints[ESTIMATED_GAS_FEE_PER_ORACLE_PRICE] = 50_000;
        uints[ESTIMATED_GAS_FEE_MULTIPLIER_FACTOR] = 12e29; // 1.2
        uints[INCREASE_ORDER_GAS_LIMIT] = 1_500_000;
        uints[DECREASE_ORDER_GAS_LIMIT] = 1_500_000;
        uints[SINGLE_SWAP_GAS_LIMIT] = 500_000;
    }

    // ExchangeRouter

    function multicall(bytes[] calldata data) external payable returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool ok, bytes memory r) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly {
                    revert(add(r, 32), mload(r))
                }
            }
            results[i] = r;
        }
        sent[shortToken] = 0;
        wntSent = 0;
    }

    /// @notice GMX's sendWnt: wraps amount of the call's ETH into the vault's execution fee
    /// balance. Within a multicall every call sees the multicall's msg.value, so the amounts sent
    /// may not add up to more than it.
    function sendWnt(address receiver, uint256 amount) external payable {
        require(receiver == address(this), "GmxV2: receiver is not the order vault");
        require(wntSent + amount <= msg.value, "GmxV2: sendWnt exceeds the value sent");
        wntSent += amount;
    }

    function sendTokens(address token, address receiver, uint256 amount) external payable {
        require(receiver == address(this), "GmxV2: receiver is not the order vault");
        token.safeTransferFrom(msg.sender, address(this), amount);
        sent[token] += amount;
    }

    function createOrder(CreateOrderParams calldata p) external payable returns (bytes32 key) {
        require(p.addresses.market == market, "GmxV2: unknown market");
        require(p.addresses.initialCollateralToken == shortToken, "GmxV2: collateral must be the short token");
        require(p.addresses.swapPath.length == 0, "GmxV2: swaps are not supported");
        require(p.orderType == MARKET_INCREASE || p.orderType == MARKET_DECREASE, "GmxV2: only market increase and decrease");
        require(p.addresses.receiver != address(0), "GmxV2: empty receiver");
        uint256 collateral = p.numbers.initialCollateralDeltaAmount;
        if (p.orderType == MARKET_INCREASE) {
            collateral = sent[shortToken];
            sent[shortToken] = 0;
            require(collateral > 0 || p.numbers.sizeDeltaUsd > 0, "GmxV2: empty order");
        } else {
            require(p.numbers.sizeDeltaUsd > 0 || collateral > 0, "GmxV2: empty order");
        }
        // OrderUtils.createOrder: the WNT in the vault is the fee, and must cover the fee named
        // and the keeper's estimated cost (GasUtils.validateExecutionFee).
        uint256 fee = wntSent;
        wntSent = 0;
        if (fee < p.numbers.executionFee) revert InsufficientWntAmountForExecutionFee(fee, p.numbers.executionFee);
        uint256 minFee = minExecutionFee(p.orderType, p.addresses.swapPath.length) * tx.gasprice;
        if (fee < minFee) revert InsufficientExecutionFee(minFee, fee);
        key = keccak256(abi.encode(address(this), ++nonce));
        orders[key] = Order(msg.sender, p.addresses.receiver, market, shortToken, p.orderType, p.isLong,
            p.numbers.sizeDeltaUsd, collateral, p.numbers.acceptablePrice, fee);
        sets[keccak256(abi.encode(ACCOUNT_ORDER_LIST, msg.sender))].push(key);
        emit OrderCreated(key, msg.sender, p.orderType, p.isLong, p.numbers.sizeDeltaUsd, collateral);
    }

    function cancelOrder(bytes32 key) external payable {
        Order memory o = orders[key];
        require(o.account != address(0), "GmxV2: no such order");
        require(o.account == msg.sender, "GmxV2: not the order's account");
        _removeOrder(key, o.account);
        if (o.orderType == MARKET_INCREASE && o.collateralDelta > 0) {
            o.collateralToken.safeTransfer(o.account, o.collateralDelta);
        }
        // GMX pays the cancelling account its gas as keeper and the receiver the rest: for an
        // order whose account is its receiver, the whole fee.
        _sendEth(o.receiver, o.executionFee);
        emit OrderCancelled(key, o.account);
    }

    /// @notice GasUtils.adjustGasLimitForEstimate of an order's estimated execution gas: the base
    /// amount, plus the amount per oracle price (3 + swaps), plus the order type's gas limit (and
    /// a swap's per hop) times the multiplier factor. Times tx.gasprice it is the smallest fee.
    function minExecutionFee(uint8 orderType, uint256 swaps) public view returns (uint256) {
        uint256 limit = orderType == MARKET_INCREASE ? uints[INCREASE_ORDER_GAS_LIMIT] : uints[DECREASE_ORDER_GAS_LIMIT];
        limit += uints[SINGLE_SWAP_GAS_LIMIT] * swaps;
        return uints[ESTIMATED_GAS_FEE_BASE_AMOUNT_V2_1] + uints[ESTIMATED_GAS_FEE_PER_ORACLE_PRICE] * (3 + swaps)
            + limit * uints[ESTIMATED_GAS_FEE_MULTIPLIER_FACTOR] / FLOAT;
    }

    function _sendEth(address to, uint256 amount) private {
        if (amount == 0) return;
        (bool ok,) = to.call{value: amount}("");
        require(ok, "GmxV2: ETH transfer failed");
    }

    // The keeper's OrderHandler.executeOrder, without oracle parameters: the feed is the oracle.

    function executeOrder(bytes32 key) external {
        uint256 startingGas = gasleft();
        require(msg.sender == keeper, "GmxV2: not the keeper");
        Order memory o = orders[key];
        require(o.account != address(0), "GmxV2: no such order");
        uint256 price = indexPrice();
        _removeOrder(key, o.account);
        bytes32 pk = keccak256(abi.encode(o.account, o.market, o.collateralToken, o.isLong));
        if (o.orderType == MARKET_INCREASE) {
            require(o.isLong ? price <= o.acceptablePrice : price >= o.acceptablePrice, "GmxV2: price worse than acceptable");
            _increase(pk, o, price);
        } else {
            require(o.isLong ? price >= o.acceptablePrice : price <= o.acceptablePrice, "GmxV2: price worse than acceptable");
            _decrease(pk, o, price);
        }
        // GasUtils.payExecutionFee: the keeper is paid the gas it used (with the intrinsic gas of
        // its transaction), at most the fee; the rest is refunded to the receiver.
        uint256 keeperFee = (startingGas - gasleft() + 21_000) * tx.gasprice;
        if (keeperFee > o.executionFee) keeperFee = o.executionFee;
        _sendEth(msg.sender, keeperFee);
        _sendEth(o.receiver, o.executionFee - keeperFee);
        emit OrderExecuted(key, o.account, price);
    }

    function _increase(bytes32 pk, Order memory o, uint256 price) private {
        PositionProps storage p = positions[pk];
        if (p.addresses.account == address(0)) {
            p.addresses = PositionAddresses(o.account, o.market, o.collateralToken);
            p.flags.isLong = o.isLong;
            sets[keccak256(abi.encode(ACCOUNT_POSITION_LIST, o.account))].push(pk);
        }
        uint256 tokens = o.isLong ? o.sizeDeltaUsd / price : (o.sizeDeltaUsd + price - 1) / price;
        p.numbers.sizeInUsd += o.sizeDeltaUsd;
        p.numbers.sizeInTokens += tokens;
        p.numbers.collateralAmount += o.collateralDelta;
        p.numbers.increasedAtTime = block.timestamp;
        _checkCollateral(p, price);
        uints[keccak256(abi.encode(OPEN_INTEREST, o.market, o.collateralToken, o.isLong))] += o.sizeDeltaUsd;
        uints[keccak256(abi.encode(OPEN_INTEREST_IN_TOKENS, o.market, o.collateralToken, o.isLong))] += tokens;
        emit PositionIncrease(pk, o.account, o.sizeDeltaUsd, price);
    }

    function _decrease(bytes32 pk, Order memory o, uint256 price) private {
        PositionProps storage p = positions[pk];
        require(p.numbers.sizeInUsd > 0, "GmxV2: no position");
        uint256 size = o.sizeDeltaUsd > p.numbers.sizeInUsd ? p.numbers.sizeInUsd : o.sizeDeltaUsd;
        uint256 tokens = size == p.numbers.sizeInUsd ? p.numbers.sizeInTokens : p.numbers.sizeInTokens * size / p.numbers.sizeInUsd;
        int256 pnl = _pnl(o.isLong, tokens * price, size);
        int256 collateral = int256(p.numbers.collateralAmount) + pnl / int256(shortPrice());
        require(collateral >= 0, "GmxV2: position is insolvent");
        uint256 out = size == p.numbers.sizeInUsd ? uint256(collateral) : o.collateralDelta;
        require(out <= uint256(collateral), "GmxV2: withdrawal exceeds collateral");
        p.numbers.sizeInUsd -= size;
        p.numbers.sizeInTokens -= tokens;
        p.numbers.collateralAmount = uint256(collateral) - out;
        p.numbers.decreasedAtTime = block.timestamp;
        uints[keccak256(abi.encode(OPEN_INTEREST, o.market, o.collateralToken, o.isLong))] -= size;
        uints[keccak256(abi.encode(OPEN_INTEREST_IN_TOKENS, o.market, o.collateralToken, o.isLong))] -= tokens;
        if (p.numbers.sizeInUsd == 0) {
            out += p.numbers.collateralAmount;
            delete positions[pk];
            _remove(keccak256(abi.encode(ACCOUNT_POSITION_LIST, o.account)), pk);
        } else {
            _checkCollateral(p, price);
        }
        if (out > 0) {
            o.collateralToken.safeTransfer(o.receiver, out);
        }
        emit PositionDecrease(pk, o.account, size, pnl, out);
    }

    function _pnl(bool isLong, uint256 valueNow, uint256 sizeUsd) private pure returns (int256) {
        return isLong ? int256(valueNow) - int256(sizeUsd) : int256(sizeUsd) - int256(valueNow);
    }

    function _checkCollateral(PositionProps storage p, uint256 price) private view {
        int256 pnl = _pnl(p.flags.isLong, p.numbers.sizeInTokens * price, p.numbers.sizeInUsd);
        int256 remaining = int256(p.numbers.collateralAmount * shortPrice()) + pnl;
        uint256 minUsd = p.numbers.sizeInUsd * uints[keccak256(abi.encode(MIN_COLLATERAL_FACTOR, market))] / FLOAT;
        require(remaining > 0 && uint256(remaining) >= minUsd, "GmxV2: insufficient collateral");
    }

    function _removeOrder(bytes32 key, address account) private {
        delete orders[key];
        _remove(keccak256(abi.encode(ACCOUNT_ORDER_LIST, account)), key);
    }

    function _remove(bytes32 setKey, bytes32 v) private {
        bytes32[] storage s = sets[setKey];
        for (uint256 i = 0; i < s.length; i++) {
            if (s[i] == v) {
                s[i] = s[s.length - 1];
                s.pop();
                return;
            }
        }
    }

    /// @notice The index token's price per base unit, 30 decimals of USD (GMX's price unit).
    function indexPrice() public view returns (uint256) {
        return _price(indexFeed, indexDecimals);
    }

    function shortPrice() public view returns (uint256) {
        return _price(shortFeed, shortDecimals);
    }

    function _price(IFeed f, uint8 dec) private view returns (uint256) {
        (, int256 answer,,,) = f.latestRoundData();
        require(answer > 0, "GmxV2: bad price");
        return uint256(answer) * 10 ** (30 - 8 - dec);
    }

    // DataStore

    function getUint(bytes32 key) external view returns (uint256) {
        return uints[key];
    }

    function setUint(bytes32 key, uint256 value) external returns (uint256) {
        require(msg.sender == keeper, "GmxV2: not the controller");
        uints[key] = value;
        return value;
    }

    function getBytes32Count(bytes32 setKey) external view returns (uint256) {
        return sets[setKey].length;
    }

    function getBytes32ValuesAt(bytes32 setKey, uint256 start, uint256 end) external view returns (bytes32[] memory out) {
        bytes32[] storage s = sets[setKey];
        if (end > s.length) end = s.length;
        if (start > end) start = end;
        out = new bytes32[](end - start);
        for (uint256 i = start; i < end; i++) {
            out[i - start] = s[i];
        }
    }

    // Reader

    function getPosition(address, bytes32 key) external view returns (PositionProps memory) {
        return positions[key];
    }

    function getMarket(address, address key) external view returns (MarketProps memory m) {
        if (key == market) {
            m = MarketProps(market, indexToken, indexToken, shortToken);
        }
    }
}
