// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./ERC20.sol";

/// @notice Lido's stETH with the mainnet external interface: a rebasing ERC-20 whose balances are
/// shares times the pooled ether per share. `submit` stakes ETH for shares; the owner stands in
/// for the accounting oracle (`reportRewards` adds rewards, `finalizeWithdrawals` finalizes the
/// withdrawal queue at the current share rate and burns the queue's shares). Staked ETH stays in
/// this contract (no beacon-chain deposits), so it pays the finalized withdrawals.
contract Lido {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event TransferShares(address indexed from, address indexed to, uint256 sharesValue);
    event Submitted(address indexed sender, uint256 amount, address referral);
    event SharesBurnt(
        address indexed account, uint256 preRebaseTokenAmount, uint256 postRebaseTokenAmount, uint256 sharesAmount
    );
    event TokenRebased(
        uint256 indexed reportTimestamp,
        uint256 timeElapsed,
        uint256 preTotalShares,
        uint256 preTotalEther,
        uint256 postTotalShares,
        uint256 postTotalEther,
        uint256 sharesMintedAsFees
    );
    event StakingPaused();
    event StakingResumed();

    address public immutable owner;
    address public withdrawalQueue;
    bool private stakingPaused;
    uint256 private totalPooledEther;
    uint256 private totalShares;
    mapping(address => uint256) private shares;
    mapping(address => mapping(address => uint256)) private allowances;

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "APP_AUTH_FAILED");
        _;
    }

    function name() external pure returns (string memory) {
        return "Liquid staked Ether 2.0";
    }

    function symbol() external pure returns (string memory) {
        return "stETH";
    }

    function decimals() external pure returns (uint8) {
        return 18;
    }

    function totalSupply() external view returns (uint256) {
        return totalPooledEther;
    }

    function getTotalPooledEther() external view returns (uint256) {
        return totalPooledEther;
    }

    function getTotalShares() external view returns (uint256) {
        return totalShares;
    }

    function sharesOf(address account) external view returns (uint256) {
        return shares[account];
    }

    function balanceOf(address account) external view returns (uint256) {
        return getPooledEthByShares(shares[account]);
    }

    function getSharesByPooledEth(uint256 ethAmount) public view returns (uint256) {
        if (totalPooledEther == 0) return ethAmount;
        return ethAmount * totalShares / totalPooledEther;
    }

    function getPooledEthByShares(uint256 sharesAmount) public view returns (uint256) {
        if (totalShares == 0) return 0;
        return sharesAmount * totalPooledEther / totalShares;
    }

    function allowance(address holder, address spender) external view returns (uint256) {
        return allowances[holder][spender];
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        _approve(msg.sender, spender, amount);
        return true;
    }

    function transfer(address recipient, uint256 amount) external returns (bool) {
        _transfer(msg.sender, recipient, amount);
        return true;
    }

    function transferFrom(address sender, address recipient, uint256 amount) external returns (bool) {
        _spendAllowance(sender, msg.sender, amount);
        _transfer(sender, recipient, amount);
        return true;
    }

    function transferShares(address recipient, uint256 sharesAmount) external returns (uint256) {
        _transferShares(msg.sender, recipient, sharesAmount);
        uint256 amount = getPooledEthByShares(sharesAmount);
        emit Transfer(msg.sender, recipient, amount);
        emit TransferShares(msg.sender, recipient, sharesAmount);
        return amount;
    }

    function transferSharesFrom(address sender, address recipient, uint256 sharesAmount) external returns (uint256) {
        uint256 amount = getPooledEthByShares(sharesAmount);
        _spendAllowance(sender, msg.sender, amount);
        _transferShares(sender, recipient, sharesAmount);
        emit Transfer(sender, recipient, amount);
        emit TransferShares(sender, recipient, sharesAmount);
        return amount;
    }

    /// @notice Stakes msg.value and mints the shares it buys at the current rate to the sender.
    function submit(address referral) public payable returns (uint256) {
        require(msg.value != 0, "ZERO_DEPOSIT");
        require(!stakingPaused, "STAKING_PAUSED");
        uint256 sharesAmount = getSharesByPooledEth(msg.value);
        require(sharesAmount != 0, "ZERO_SHARES");
        totalShares += sharesAmount;
        shares[msg.sender] += sharesAmount;
        totalPooledEther += msg.value;
        emit Submitted(msg.sender, msg.value, referral);
        emit Transfer(address(0), msg.sender, getPooledEthByShares(sharesAmount));
        emit TransferShares(address(0), msg.sender, sharesAmount);
        return sharesAmount;
    }

    receive() external payable {
        submit(address(0));
    }

    function isStakingPaused() external view returns (bool) {
        return stakingPaused;
    }

    /// @notice The ETH that may be staked now: 0 while paused, unlimited (no daily limit) otherwise.
    function getCurrentStakeLimit() external view returns (uint256) {
        return stakingPaused ? 0 : type(uint256).max;
    }

    function pauseStaking() external onlyOwner {
        stakingPaused = true;
        emit StakingPaused();
    }

    function resumeStaking() external onlyOwner {
        stakingPaused = false;
        emit StakingResumed();
    }

    /// @notice Sets the withdrawal queue once (the owner's deployment step).
    function setWithdrawalQueue(address queue) external onlyOwner {
        require(withdrawalQueue == address(0), "QUEUE_ALREADY_SET");
        withdrawalQueue = queue;
    }

    /// @notice The oracle's report of rewards earned over timeElapsed seconds: msg.value joins the
    /// pool, raising every holder's balance.
    function reportRewards(uint256 timeElapsed) external payable onlyOwner {
        require(timeElapsed != 0, "ZERO_TIME_ELAPSED");
        uint256 preEther = totalPooledEther;
        totalPooledEther += msg.value;
        emit TokenRebased(block.timestamp, timeElapsed, totalShares, preEther, totalShares, totalPooledEther, 0);
    }

    /// @notice Finalizes the queue's requests up to lastRequestId at the current share rate, sends
    /// the queue the ether they lock and burns the shares the queue holds for them.
    function finalizeWithdrawals(uint256 lastRequestId) external onlyOwner {
        WithdrawalQueueERC721 queue = WithdrawalQueueERC721(payable(withdrawalQueue));
        uint256 shareRate = totalPooledEther * 1e27 / totalShares;
        uint256[] memory batches = new uint256[](1);
        batches[0] = lastRequestId;
        (uint256 ethToLock, uint256 sharesToBurn) = queue.prefinalize(batches, shareRate);
        uint256 pre = getPooledEthByShares(sharesToBurn);
        shares[withdrawalQueue] -= sharesToBurn;
        totalShares -= sharesToBurn;
        totalPooledEther -= ethToLock;
        emit SharesBurnt(withdrawalQueue, pre, ethToLock, sharesToBurn);
        queue.finalize{value: ethToLock}(lastRequestId, shareRate);
    }

    function _approve(address holder, address spender, uint256 amount) internal {
        require(holder != address(0), "APPROVE_FROM_ZERO_ADDR");
        require(spender != address(0), "APPROVE_TO_ZERO_ADDR");
        allowances[holder][spender] = amount;
        emit Approval(holder, spender, amount);
    }

    function _spendAllowance(address holder, address spender, uint256 amount) internal {
        uint256 current = allowances[holder][spender];
        if (current != type(uint256).max) {
            require(current >= amount, "ALLOWANCE_EXCEEDED");
            _approve(holder, spender, current - amount);
        }
    }

    function _transfer(address sender, address recipient, uint256 amount) internal {
        uint256 sharesToTransfer = getSharesByPooledEth(amount);
        _transferShares(sender, recipient, sharesToTransfer);
        emit Transfer(sender, recipient, amount);
        emit TransferShares(sender, recipient, sharesToTransfer);
    }

    function _transferShares(address sender, address recipient, uint256 sharesAmount) internal {
        require(sender != address(0), "TRANSFER_FROM_ZERO_ADDR");
        require(recipient != address(0), "TRANSFER_TO_ZERO_ADDR");
        require(recipient != address(this), "TRANSFER_TO_STETH_CONTRACT");
        uint256 current = shares[sender];
        require(sharesAmount <= current, "BALANCE_EXCEEDED");
        shares[sender] = current - sharesAmount;
        shares[recipient] += sharesAmount;
    }
}

/// @notice Lido's wstETH: a non-rebasing ERC-20 (with permit) over stETH shares. One wstETH is
/// one stETH share.
contract WstETH is ERC20WithPermit {
    Lido public immutable stETH;

    constructor(Lido stETH_) ERC20WithPermit("Wrapped liquid staked Ether 2.0", "wstETH", 18) {
        stETH = stETH_;
    }

    function wrap(uint256 _stETHAmount) external returns (uint256) {
        require(_stETHAmount > 0, "wstETH: can't wrap zero stETH");
        uint256 wstETHAmount = stETH.getSharesByPooledEth(_stETHAmount);
        _mint(msg.sender, wstETHAmount);
        stETH.transferFrom(msg.sender, address(this), _stETHAmount);
        return wstETHAmount;
    }

    function unwrap(uint256 _wstETHAmount) external returns (uint256) {
        require(_wstETHAmount > 0, "wstETH: zero amount unwrap not allowed");
        uint256 stETHAmount = stETH.getPooledEthByShares(_wstETHAmount);
        _burn(msg.sender, _wstETHAmount);
        stETH.transfer(msg.sender, stETHAmount);
        return stETHAmount;
    }

    receive() external payable {
        uint256 shares = stETH.submit{value: msg.value}(address(0));
        _mint(msg.sender, shares);
    }

    function getWstETHByStETH(uint256 _stETHAmount) external view returns (uint256) {
        return stETH.getSharesByPooledEth(_stETHAmount);
    }

    function getStETHByWstETH(uint256 _wstETHAmount) external view returns (uint256) {
        return stETH.getPooledEthByShares(_wstETHAmount);
    }

    function stEthPerToken() external view returns (uint256) {
        return stETH.getPooledEthByShares(1 ether);
    }

    function tokensPerStEth() external view returns (uint256) {
        return stETH.getSharesByPooledEth(1 ether);
    }
}

/// @notice Lido's withdrawal queue with the mainnet request, status, hint and claim interface.
/// Requests lock stETH (or wstETH, unwrapped) in the queue; Lido finalizes them in order at a
/// share rate recorded as a checkpoint; an owner claims min(stETH requested, shares x rate).
/// Requests are numbered from 1 and owned by an account (ownerOf, balanceOf), but are not
/// transferable NFTs.
contract WithdrawalQueueERC721 {
    struct WithdrawalRequestStatus {
        uint256 amountOfStETH;
        uint256 amountOfShares;
        address owner;
        uint256 timestamp;
        bool isFinalized;
        bool isClaimed;
    }

    struct Request {
        uint256 amountOfStETH;
        uint256 amountOfShares;
        address owner;
        uint256 timestamp;
        bool claimed;
    }

    struct Checkpoint {
        uint256 fromRequestId;
        uint256 maxShareRate;
    }

    event WithdrawalRequested(
        uint256 indexed requestId,
        address indexed requestor,
        address indexed owner,
        uint256 amountOfStETH,
        uint256 amountOfShares
    );
    event WithdrawalsFinalized(
        uint256 indexed from, uint256 indexed to, uint256 amountOfETHLocked, uint256 sharesToBurn, uint256 timestamp
    );
    event WithdrawalClaimed(
        uint256 indexed requestId, address indexed owner, address indexed receiver, uint256 amountOfETH
    );

    uint256 public constant MIN_STETH_WITHDRAWAL_AMOUNT = 100;
    uint256 public constant MAX_STETH_WITHDRAWAL_AMOUNT = 1000 ether;
    uint256 private constant E27 = 1e27;

    Lido public immutable STETH;
    WstETH public immutable WSTETH;

    mapping(uint256 => Request) private requests;
    uint256 private lastRequestId;
    uint256 private lastFinalizedRequestId;
    uint256 private lockedEther;
    Checkpoint[] private checkpoints; // index 0 is a sentinel: hints start at 1
    mapping(address => uint256[]) private owned;
    mapping(uint256 => uint256) private ownedIndex; // request id => position in owned[owner] + 1

    constructor(WstETH wstETH) {
        WSTETH = wstETH;
        STETH = wstETH.stETH();
        checkpoints.push(Checkpoint(0, 0));
    }

    function name() external pure returns (string memory) {
        return "Lido: stETH Withdrawal NFT";
    }

    function symbol() external pure returns (string memory) {
        return "unstETH";
    }

    function isPaused() external pure returns (bool) {
        return false;
    }

    function requestWithdrawals(uint256[] calldata _amounts, address _owner)
        external
        returns (uint256[] memory requestIds)
    {
        if (_owner == address(0)) _owner = msg.sender;
        requestIds = new uint256[](_amounts.length);
        for (uint256 i = 0; i < _amounts.length; ++i) {
            _checkAmount(_amounts[i]);
            STETH.transferFrom(msg.sender, address(this), _amounts[i]);
            requestIds[i] = _enqueue(_amounts[i], STETH.getSharesByPooledEth(_amounts[i]), _owner);
        }
    }

    function requestWithdrawalsWstETH(uint256[] calldata _amounts, address _owner)
        external
        returns (uint256[] memory requestIds)
    {
        if (_owner == address(0)) _owner = msg.sender;
        requestIds = new uint256[](_amounts.length);
        for (uint256 i = 0; i < _amounts.length; ++i) {
            WSTETH.transferFrom(msg.sender, address(this), _amounts[i]);
            uint256 amountOfStETH = WSTETH.unwrap(_amounts[i]);
            _checkAmount(amountOfStETH);
            requestIds[i] = _enqueue(amountOfStETH, STETH.getSharesByPooledEth(amountOfStETH), _owner);
        }
    }

    function getWithdrawalRequests(address _owner) external view returns (uint256[] memory) {
        return owned[_owner];
    }

    function getWithdrawalStatus(uint256[] calldata _requestIds)
        external
        view
        returns (WithdrawalRequestStatus[] memory statuses)
    {
        statuses = new WithdrawalRequestStatus[](_requestIds.length);
        for (uint256 i = 0; i < _requestIds.length; ++i) {
            uint256 id = _requestIds[i];
            require(id != 0 && id <= lastRequestId, "InvalidRequestId");
            Request storage r = requests[id];
            statuses[i] = WithdrawalRequestStatus(
                r.amountOfStETH, r.amountOfShares, r.owner, r.timestamp, id <= lastFinalizedRequestId, r.claimed
            );
        }
    }

    function ownerOf(uint256 _requestId) external view returns (address) {
        require(_requestId != 0 && _requestId <= lastRequestId, "InvalidRequestId");
        require(!requests[_requestId].claimed, "RequestAlreadyClaimed");
        return requests[_requestId].owner;
    }

    function balanceOf(address _owner) external view returns (uint256) {
        return owned[_owner].length;
    }

    function getLastRequestId() external view returns (uint256) {
        return lastRequestId;
    }

    function getLastFinalizedRequestId() external view returns (uint256) {
        return lastFinalizedRequestId;
    }

    function getLastCheckpointIndex() external view returns (uint256) {
        return checkpoints.length - 1;
    }

    function getLockedEtherAmount() external view returns (uint256) {
        return lockedEther;
    }

    function unfinalizedRequestNumber() external view returns (uint256) {
        return lastRequestId - lastFinalizedRequestId;
    }

    function unfinalizedStETH() external view returns (uint256 total) {
        for (uint256 id = lastFinalizedRequestId + 1; id <= lastRequestId; ++id) {
            total += requests[id].amountOfStETH;
        }
    }

    /// @notice For each request id (ascending), the checkpoint index within [first, last] that
    /// finalized it, or 0 when it is not finalized.
    function findCheckpointHints(uint256[] calldata _requestIds, uint256 _firstIndex, uint256 _lastIndex)
        external
        view
        returns (uint256[] memory hintIds)
    {
        hintIds = new uint256[](_requestIds.length);
        uint256 prev;
        for (uint256 i = 0; i < _requestIds.length; ++i) {
            require(_requestIds[i] > prev, "RequestIdsNotSorted");
            prev = _requestIds[i];
            hintIds[i] = _findCheckpointHint(_requestIds[i], _firstIndex, _lastIndex);
        }
    }

    function getClaimableEther(uint256[] calldata _requestIds, uint256[] calldata _hints)
        external
        view
        returns (uint256[] memory claimableEthValues)
    {
        require(_requestIds.length == _hints.length, "ArraysLengthMismatch");
        claimableEthValues = new uint256[](_requestIds.length);
        for (uint256 i = 0; i < _requestIds.length; ++i) {
            uint256 id = _requestIds[i];
            require(id != 0 && id <= lastRequestId, "InvalidRequestId");
            if (id > lastFinalizedRequestId || requests[id].claimed) continue;
            claimableEthValues[i] = _claimable(id, _hints[i]);
        }
    }

    function claimWithdrawals(uint256[] calldata _requestIds, uint256[] calldata _hints) external {
        require(_requestIds.length == _hints.length, "ArraysLengthMismatch");
        for (uint256 i = 0; i < _requestIds.length; ++i) {
            _claim(_requestIds[i], _hints[i], msg.sender);
        }
    }

    function claimWithdrawal(uint256 _requestId) external {
        _claim(_requestId, _findCheckpointHint(_requestId, 1, checkpoints.length - 1), msg.sender);
    }

    /// @notice The ether and shares that finalizing up to the last of _batches at _maxShareRate
    /// (ether per share, 1e27) locks and burns.
    function prefinalize(uint256[] calldata _batches, uint256 _maxShareRate)
        external
        view
        returns (uint256 ethToLock, uint256 sharesToBurn)
    {
        require(_batches.length > 0, "EmptyBatches");
        uint256 last = _batches[_batches.length - 1];
        require(last > lastFinalizedRequestId && last <= lastRequestId, "InvalidRequestId");
        for (uint256 id = lastFinalizedRequestId + 1; id <= last; ++id) {
            Request storage r = requests[id];
            ethToLock += _min(r.amountOfStETH, r.amountOfShares * _maxShareRate / E27);
            sharesToBurn += r.amountOfShares;
        }
    }

    function finalize(uint256 _lastRequestIdToBeFinalized, uint256 _maxShareRate) external payable {
        require(msg.sender == address(STETH), "NotLido");
        require(
            _lastRequestIdToBeFinalized > lastFinalizedRequestId && _lastRequestIdToBeFinalized <= lastRequestId,
            "InvalidRequestId"
        );
        uint256 from = lastFinalizedRequestId + 1;
        uint256 shares;
        uint256 eth;
        for (uint256 id = from; id <= _lastRequestIdToBeFinalized; ++id) {
            Request storage r = requests[id];
            eth += _min(r.amountOfStETH, r.amountOfShares * _maxShareRate / E27);
            shares += r.amountOfShares;
        }
        require(msg.value == eth, "TooMuchEtherToFinalize");
        checkpoints.push(Checkpoint(from, _maxShareRate));
        lastFinalizedRequestId = _lastRequestIdToBeFinalized;
        lockedEther += eth;
        emit WithdrawalsFinalized(from, _lastRequestIdToBeFinalized, eth, shares, block.timestamp);
    }

    function _checkAmount(uint256 amount) private pure {
        require(amount >= MIN_STETH_WITHDRAWAL_AMOUNT, "RequestAmountTooSmall");
        require(amount <= MAX_STETH_WITHDRAWAL_AMOUNT, "RequestAmountTooLarge");
    }

    function _enqueue(uint256 amountOfStETH, uint256 amountOfShares, address _owner) private returns (uint256 id) {
        id = ++lastRequestId;
        requests[id] = Request(amountOfStETH, amountOfShares, _owner, block.timestamp, false);
        owned[_owner].push(id);
        ownedIndex[id] = owned[_owner].length;
        emit WithdrawalRequested(id, msg.sender, _owner, amountOfStETH, amountOfShares);
    }

    function _findCheckpointHint(uint256 id, uint256 first, uint256 last) private view returns (uint256) {
        require(id != 0 && id <= lastRequestId, "InvalidRequestId");
        require(first != 0 && last < checkpoints.length, "InvalidRequestIdRange");
        if (id > lastFinalizedRequestId) return 0;
        for (uint256 i = last; i >= first; --i) {
            if (checkpoints[i].fromRequestId <= id) return i;
            if (i == first) break;
        }
        return 0;
    }

    function _claimable(uint256 id, uint256 hint) private view returns (uint256) {
        require(hint != 0 && hint < checkpoints.length, "InvalidHint");
        Checkpoint storage c = checkpoints[hint];
        require(c.fromRequestId <= id, "InvalidHint");
        require(hint + 1 == checkpoints.length || checkpoints[hint + 1].fromRequestId > id, "InvalidHint");
        Request storage r = requests[id];
        return _min(r.amountOfStETH, r.amountOfShares * c.maxShareRate / E27);
    }

    function _claim(uint256 id, uint256 hint, address recipient) private {
        require(id != 0 && id <= lastRequestId, "InvalidRequestId");
        require(id <= lastFinalizedRequestId, "RequestNotFoundOrNotFinalized");
        Request storage r = requests[id];
        require(!r.claimed, "RequestAlreadyClaimed");
        require(r.owner == msg.sender, "NotOwner");
        uint256 eth = _claimable(id, hint);
        r.claimed = true;
        lockedEther -= eth;
        _removeOwned(r.owner, id);
        (bool ok,) = recipient.call{value: eth}("");
        require(ok, "CantSendValueRecipientMayHaveReverted");
        emit WithdrawalClaimed(id, r.owner, recipient, eth);
    }

    function _removeOwned(address _owner, uint256 id) private {
        uint256[] storage list = owned[_owner];
        uint256 pos = ownedIndex[id] - 1;
        uint256 lastId = list[list.length - 1];
        list[pos] = lastId;
        ownedIndex[lastId] = pos + 1;
        list.pop();
        delete ownedIndex[id];
    }

    function _min(uint256 a, uint256 b) private pure returns (uint256) {
        return a < b ? a : b;
    }
}
