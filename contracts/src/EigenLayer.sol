// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, SafeTransfer} from "./IERC20.sol";

interface IEigenStrategy {
    function deposit(address token, uint256 amount) external returns (uint256);
    function withdraw(address recipient, address token, uint256 amountShares) external;
    function underlyingToken() external view returns (address);
}

interface IEigenDelegation {
    function increaseDelegatedShares(address staker, address strategy, uint256 shares) external;
}

/// @title StrategyBase
/// @notice An EigenLayer strategy holding one ERC-20 (the slashing release's StrategyBase
/// interface): only the StrategyManager deposits and withdraws; shares convert to the underlying
/// with EigenLayer's virtual offsets (1e3 shares and 1e3 wei of balance), so the first depositor
/// cannot inflate the share price.
contract StrategyBase {
    uint256 private constant SHARES_OFFSET = 1e3;
    uint256 private constant BALANCE_OFFSET = 1e3;

    address public immutable strategyManager;
    address public immutable underlyingToken;
    uint256 public totalShares;

    event ExchangeRateEmitted(uint256 rate);

    constructor(address strategyManager_, address underlyingToken_) {
        strategyManager = strategyManager_;
        underlyingToken = underlyingToken_;
    }

    modifier onlyStrategyManager() {
        require(msg.sender == strategyManager, "StrategyBase: caller is not the StrategyManager");
        _;
    }

    /// @notice Mints shares for `amount` the StrategyManager has already transferred in.
    function deposit(address token, uint256 amount) external onlyStrategyManager returns (uint256 newShares) {
        require(token == underlyingToken, "StrategyBase: can only deposit underlyingToken");
        uint256 priorBalance = IERC20(token).balanceOf(address(this)) - amount + BALANCE_OFFSET;
        newShares = amount * (totalShares + SHARES_OFFSET) / priorBalance;
        require(newShares != 0, "StrategyBase: new shares cannot be zero");
        totalShares += newShares;
        emit ExchangeRateEmitted(_rate());
    }

    function withdraw(address recipient, address token, uint256 amountShares) external onlyStrategyManager {
        require(token == underlyingToken, "StrategyBase: can only withdraw the strategy token");
        require(amountShares <= totalShares, "StrategyBase: amountShares must be <= totalShares");
        uint256 amount = sharesToUnderlyingView(amountShares);
        totalShares -= amountShares;
        SafeTransfer.safeTransfer(token, recipient, amount);
        emit ExchangeRateEmitted(_rate());
    }

    function sharesToUnderlyingView(uint256 amountShares) public view returns (uint256) {
        return (IERC20(underlyingToken).balanceOf(address(this)) + BALANCE_OFFSET) * amountShares
            / (totalShares + SHARES_OFFSET);
    }

    function sharesToUnderlying(uint256 amountShares) external view returns (uint256) {
        return sharesToUnderlyingView(amountShares);
    }

    function underlyingToSharesView(uint256 amountUnderlying) public view returns (uint256) {
        return amountUnderlying * (totalShares + SHARES_OFFSET)
            / (IERC20(underlyingToken).balanceOf(address(this)) + BALANCE_OFFSET);
    }

    function underlyingToShares(uint256 amountUnderlying) external view returns (uint256) {
        return underlyingToSharesView(amountUnderlying);
    }

    function shares(address user) public view returns (uint256) {
        return StrategyManager(strategyManager).stakerDepositShares(user, address(this));
    }

    function userUnderlyingView(address user) external view returns (uint256) {
        return sharesToUnderlyingView(shares(user));
    }

    function explanation() external pure returns (string memory) {
        return "Base strategy implementation to inherit from for more complex implementations";
    }

    function _rate() private view returns (uint256) {
        return sharesToUnderlyingView(1e18);
    }
}

/// @title StrategyManager
/// @notice EigenLayer's StrategyManager (slashing release interface): stakers deposit an ERC-20
/// into a whitelisted strategy for deposit shares, which the DelegationManager delegates, removes
/// when a withdrawal is queued and pays out (or re-adds) when it completes. No deposit signatures
/// (depositIntoStrategyWithSignature), no third-party transfer flags, no pausing, and no burnable
/// shares: nothing is ever slashed.
contract StrategyManager {
    event Deposit(address staker, address strategy, uint256 shares);
    event StrategyAddedToDepositWhitelist(address strategy);

    address public immutable delegation;
    address public immutable owner;

    mapping(address => mapping(address => uint256)) public stakerDepositShares;
    mapping(address => address[]) private _strategies;
    mapping(address => bool) public strategyIsWhitelistedForDeposit;

    constructor(address delegation_) {
        delegation = delegation_;
        owner = msg.sender;
    }

    modifier onlyDelegationManager() {
        require(msg.sender == delegation, "StrategyManager: caller is not the DelegationManager");
        _;
    }

    function addStrategiesToDepositWhitelist(address[] calldata strategies) external {
        require(msg.sender == owner, "StrategyManager: caller is not the owner");
        for (uint256 i = 0; i < strategies.length; i++) {
            if (!strategyIsWhitelistedForDeposit[strategies[i]]) {
                strategyIsWhitelistedForDeposit[strategies[i]] = true;
                emit StrategyAddedToDepositWhitelist(strategies[i]);
            }
        }
    }

    function depositIntoStrategy(address strategy, address token, uint256 amount)
        external
        returns (uint256 depositShares)
    {
        require(strategyIsWhitelistedForDeposit[strategy], "StrategyManager: strategy not whitelisted");
        SafeTransfer.safeTransferFrom(token, msg.sender, strategy, amount);
        depositShares = IEigenStrategy(strategy).deposit(token, amount);
        _add(msg.sender, strategy, depositShares);
        IEigenDelegation(delegation).increaseDelegatedShares(msg.sender, strategy, depositShares);
        emit Deposit(msg.sender, strategy, depositShares);
    }

    function getDeposits(address staker) external view returns (address[] memory, uint256[] memory) {
        address[] memory list = _strategies[staker];
        uint256[] memory amounts = new uint256[](list.length);
        for (uint256 i = 0; i < list.length; i++) {
            amounts[i] = stakerDepositShares[staker][list[i]];
        }
        return (list, amounts);
    }

    function getStakerStrategyList(address staker) external view returns (address[] memory) {
        return _strategies[staker];
    }

    function stakerStrategyListLength(address staker) external view returns (uint256) {
        return _strategies[staker].length;
    }

    function removeDepositShares(address staker, address strategy, uint256 depositSharesToRemove)
        external
        onlyDelegationManager
        returns (uint256)
    {
        uint256 have = stakerDepositShares[staker][strategy];
        require(depositSharesToRemove != 0, "StrategyManager: shares amount is zero");
        require(depositSharesToRemove <= have, "StrategyManager: shares amount too high");
        uint256 left = have - depositSharesToRemove;
        stakerDepositShares[staker][strategy] = left;
        if (left == 0) {
            address[] storage list = _strategies[staker];
            for (uint256 i = 0; i < list.length; i++) {
                if (list[i] == strategy) {
                    list[i] = list[list.length - 1];
                    list.pop();
                    break;
                }
            }
        }
        return left;
    }

    function addShares(address staker, address strategy, uint256 shares) external onlyDelegationManager {
        _add(staker, strategy, shares);
    }

    function withdrawSharesAsTokens(address staker, address strategy, address token, uint256 shares)
        external
        onlyDelegationManager
    {
        IEigenStrategy(strategy).withdraw(staker, token, shares);
    }

    function _add(address staker, address strategy, uint256 shares) private {
        require(shares != 0, "StrategyManager: shares should not be zero");
        if (stakerDepositShares[staker][strategy] == 0) {
            _strategies[staker].push(strategy);
        }
        stakerDepositShares[staker][strategy] += shares;
    }
}

/// @title DelegationManager
/// @notice EigenLayer's DelegationManager (slashing release interface): operators register,
/// stakers delegate all their deposit shares to one operator, and withdraw by queueing a
/// withdrawal that completes after minWithdrawalDelayBlocks (block.number must exceed startBlock
/// plus the delay). Without slashing every scaling factor is one, so a withdrawal's scaledShares
/// are the shares withdrawn. Operators whose delegationApprover is set cannot be delegated to here
/// (no approver signatures); there are no allocations, AVS registrations, undelegation by
/// operators, or pausing. setStrategyManager is the deployer's one-time wiring.
contract DelegationManager {
    struct SignatureWithExpiry {
        bytes signature;
        uint256 expiry;
    }

    struct QueuedWithdrawalParams {
        address[] strategies;
        uint256[] depositShares;
        address __deprecated_withdrawer;
    }

    struct Withdrawal {
        address staker;
        address delegatedTo;
        address withdrawer;
        uint256 nonce;
        uint32 startBlock;
        address[] strategies;
        uint256[] scaledShares;
    }

    event OperatorRegistered(address indexed operator, address delegationApprover);
    event OperatorMetadataURIUpdated(address indexed operator, string metadataURI);
    event StakerDelegated(address indexed staker, address indexed operator);
    event StakerUndelegated(address indexed staker, address indexed operator);
    event OperatorSharesIncreased(address indexed operator, address staker, address strategy, uint256 shares);
    event OperatorSharesDecreased(address indexed operator, address staker, address strategy, uint256 shares);
    event SlashingWithdrawalQueued(bytes32 withdrawalRoot, Withdrawal withdrawal, uint256[] sharesToWithdraw);
    event SlashingWithdrawalCompleted(bytes32 withdrawalRoot);

    uint32 public immutable minWithdrawalDelayBlocks;
    address private immutable deployer;
    address public strategyManager;

    mapping(address => address) public delegatedTo;
    mapping(address => address) private _approvers;
    mapping(address => bool) private _operators;
    mapping(address => mapping(address => uint256)) public operatorShares;
    mapping(address => uint256) public cumulativeWithdrawalsQueued;
    mapping(bytes32 => bool) public pendingWithdrawals;
    mapping(address => bytes32[]) private _roots;
    mapping(bytes32 => Withdrawal) private _withdrawals;

    constructor(uint32 minWithdrawalDelayBlocks_) {
        minWithdrawalDelayBlocks = minWithdrawalDelayBlocks_;
        deployer = msg.sender;
    }

    function setStrategyManager(address sm) external {
        require(msg.sender == deployer && strategyManager == address(0), "DelegationManager: already wired");
        strategyManager = sm;
    }

    function registerAsOperator(address initDelegationApprover, uint32, string calldata metadataURI) external {
        require(!_operators[msg.sender], "DelegationManager: operator already registered");
        require(delegatedTo[msg.sender] == address(0), "DelegationManager: caller is delegated");
        _operators[msg.sender] = true;
        _approvers[msg.sender] = initDelegationApprover;
        emit OperatorRegistered(msg.sender, initDelegationApprover);
        _delegate(msg.sender, msg.sender);
        emit OperatorMetadataURIUpdated(msg.sender, metadataURI);
    }

    function isOperator(address operator) public view returns (bool) {
        return _operators[operator];
    }

    function isDelegated(address staker) public view returns (bool) {
        return delegatedTo[staker] != address(0);
    }

    function delegationApprover(address operator) external view returns (address) {
        return _approvers[operator];
    }

    function delegateTo(address operator, SignatureWithExpiry memory, bytes32) external {
        require(!isDelegated(msg.sender), "DelegationManager: staker is already delegated");
        require(isOperator(operator), "DelegationManager: operator is not registered");
        require(_approvers[operator] == address(0), "DelegationManager: approver signatures are not supported here");
        _delegate(msg.sender, operator);
    }

    function queueWithdrawals(QueuedWithdrawalParams[] calldata params) external returns (bytes32[] memory roots) {
        roots = new bytes32[](params.length);
        for (uint256 i = 0; i < params.length; i++) {
            require(
                params[i].strategies.length == params[i].depositShares.length,
                "DelegationManager: input length mismatch"
            );
            require(params[i].strategies.length > 0, "DelegationManager: no strategies");
            roots[i] = _queue(msg.sender, params[i].strategies, params[i].depositShares);
        }
    }

    function completeQueuedWithdrawal(Withdrawal calldata withdrawal, address[] calldata tokens, bool receiveAsTokens)
        external
    {
        bytes32 root = calculateWithdrawalRoot(withdrawal);
        require(pendingWithdrawals[root], "DelegationManager: withdrawal is not pending");
        require(msg.sender == withdrawal.withdrawer, "DelegationManager: caller is not the withdrawer");
        require(
            block.number > uint256(withdrawal.startBlock) + minWithdrawalDelayBlocks,
            "DelegationManager: withdrawal delay not elapsed"
        );
        require(tokens.length == withdrawal.strategies.length, "DelegationManager: input length mismatch");
        delete pendingWithdrawals[root];
        _dropRoot(withdrawal.staker, root);
        address op = delegatedTo[withdrawal.staker];
        for (uint256 i = 0; i < withdrawal.strategies.length; i++) {
            address strategy = withdrawal.strategies[i];
            uint256 shares = withdrawal.scaledShares[i];
            if (receiveAsTokens) {
                require(tokens[i] == IEigenStrategy(strategy).underlyingToken(), "DelegationManager: token mismatch");
                StrategyManager(strategyManager).withdrawSharesAsTokens(withdrawal.staker, strategy, tokens[i], shares);
            } else {
                StrategyManager(strategyManager).addShares(withdrawal.staker, strategy, shares);
                if (op != address(0)) _increase(op, withdrawal.staker, strategy, shares);
            }
        }
        emit SlashingWithdrawalCompleted(root);
    }

    function increaseDelegatedShares(address staker, address strategy, uint256 shares) external {
        require(msg.sender == strategyManager, "DelegationManager: caller is not the StrategyManager");
        address op = delegatedTo[staker];
        if (op != address(0)) _increase(op, staker, strategy, shares);
    }

    function getQueuedWithdrawalRoots(address staker) external view returns (bytes32[] memory) {
        return _roots[staker];
    }

    function getQueuedWithdrawals(address staker)
        external
        view
        returns (Withdrawal[] memory withdrawals, uint256[][] memory shares)
    {
        bytes32[] storage roots = _roots[staker];
        withdrawals = new Withdrawal[](roots.length);
        shares = new uint256[][](roots.length);
        for (uint256 i = 0; i < roots.length; i++) {
            withdrawals[i] = _withdrawals[roots[i]];
            shares[i] = withdrawals[i].scaledShares;
        }
    }

    function getWithdrawableShares(address staker, address[] calldata strategies)
        external
        view
        returns (uint256[] memory withdrawableShares, uint256[] memory depositShares)
    {
        withdrawableShares = new uint256[](strategies.length);
        depositShares = new uint256[](strategies.length);
        for (uint256 i = 0; i < strategies.length; i++) {
            depositShares[i] = StrategyManager(strategyManager).stakerDepositShares(staker, strategies[i]);
            withdrawableShares[i] = depositShares[i];
        }
    }

    function calculateWithdrawalRoot(Withdrawal memory withdrawal) public pure returns (bytes32) {
        return keccak256(abi.encode(withdrawal));
    }

    function _delegate(address staker, address operator) private {
        delegatedTo[staker] = operator;
        emit StakerDelegated(staker, operator);
        if (strategyManager == address(0)) return;
        (address[] memory strategies, uint256[] memory amounts) = StrategyManager(strategyManager).getDeposits(staker);
        for (uint256 i = 0; i < strategies.length; i++) {
            _increase(operator, staker, strategies[i], amounts[i]);
        }
    }

    function _increase(address op, address staker, address strategy, uint256 shares) private {
        operatorShares[op][strategy] += shares;
        emit OperatorSharesIncreased(op, staker, strategy, shares);
    }

    function _queue(address staker, address[] calldata strategies, uint256[] calldata amounts)
        private
        returns (bytes32 root)
    {
        address op = delegatedTo[staker];
        for (uint256 j = 0; j < strategies.length; j++) {
            StrategyManager(strategyManager).removeDepositShares(staker, strategies[j], amounts[j]);
            if (op != address(0)) {
                operatorShares[op][strategies[j]] -= amounts[j];
                emit OperatorSharesDecreased(op, staker, strategies[j], amounts[j]);
            }
        }
        Withdrawal memory w = Withdrawal({
            staker: staker,
            delegatedTo: op,
            withdrawer: staker,
            nonce: cumulativeWithdrawalsQueued[staker]++,
            startBlock: uint32(block.number),
            strategies: strategies,
            scaledShares: amounts
        });
        root = calculateWithdrawalRoot(w);
        pendingWithdrawals[root] = true;
        _withdrawals[root] = w;
        _roots[staker].push(root);
        emit SlashingWithdrawalQueued(root, w, amounts);
    }

    function _dropRoot(address staker, bytes32 root) private {
        bytes32[] storage list = _roots[staker];
        for (uint256 i = 0; i < list.length; i++) {
            if (list[i] == root) {
                list[i] = list[list.length - 1];
                list.pop();
                return;
            }
        }
    }
}
