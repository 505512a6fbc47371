// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./ERC20.sol";

/// @notice Rocket Pool's storage with the mainnet lookup: network contracts are found with
/// getAddress(keccak256(abi.encodePacked("contract.address", name))). The deployer (the guardian)
/// registers them.
contract RocketStorage {
    address private guardian;
    mapping(bytes32 => address) private addresses;

    constructor() {
        guardian = msg.sender;
    }

    function getGuardian() external view returns (address) {
        return guardian;
    }

    function getAddress(bytes32 _key) external view returns (address) {
        return addresses[_key];
    }

    function setAddress(bytes32 _key, address _value) external {
        require(msg.sender == guardian, "Invalid or outdated network contract");
        addresses[_key] = _value;
    }
}

/// @notice The deposit settings Rocket Pool's DAO votes on (mainnet getters); the deployer sets
/// them directly.
contract RocketDAOProtocolSettingsDeposit {
    address private immutable guardian;
    bool private depositEnabled = true;
    uint256 private minimumDeposit = 0.01 ether;
    uint256 private maximumDepositPoolSize = 5000 ether;
    uint256 private depositFee = 0.0005 ether; // 0.05 % of 1e18

    constructor() {
        guardian = msg.sender;
    }

    function getDepositEnabled() external view returns (bool) {
        return depositEnabled;
    }

    function getMinimumDeposit() external view returns (uint256) {
        return minimumDeposit;
    }

    function getMaximumDepositPoolSize() external view returns (uint256) {
        return maximumDepositPoolSize;
    }

    function getDepositFee() external view returns (uint256) {
        return depositFee;
    }

    function setDepositEnabled(bool enabled) external {
        require(msg.sender == guardian, "Account is not a temporary guardian");
        depositEnabled = enabled;
    }
}

abstract contract RocketBase {
    RocketStorage internal immutable rocketStorage;

    constructor(RocketStorage storage_) {
        rocketStorage = storage_;
    }

    function getContractAddress(string memory _contractName) internal view returns (address a) {
        a = rocketStorage.getAddress(keccak256(abi.encodePacked("contract.address", _contractName)));
        require(a != address(0), "Contract not found");
    }
}

/// @notice Rocket Pool's deposit pool: deposit() mints rETH for the ETH less the deposit fee, within
/// the DAO's limits. Deposited ETH stays here (no minipools); rETH burns draw on it.
contract RocketDepositPool is RocketBase {
    event DepositReceived(address indexed from, uint256 amount, uint256 time);

    constructor(RocketStorage storage_) RocketBase(storage_) {}

    function getBalance() public view returns (uint256) {
        return address(this).balance;
    }

    function getExcessBalance() external view returns (uint256) {
        return address(this).balance;
    }

    function getMaximumDepositAmount() external view returns (uint256) {
        RocketDAOProtocolSettingsDeposit settings = _settings();
        if (!settings.getDepositEnabled()) return 0;
        uint256 maxSize = settings.getMaximumDepositPoolSize();
        uint256 balance = getBalance();
        return balance >= maxSize ? 0 : maxSize - balance;
    }

    function deposit() external payable {
        RocketDAOProtocolSettingsDeposit settings = _settings();
        require(settings.getDepositEnabled(), "Deposits into Rocket Pool are currently disabled");
        require(msg.value >= settings.getMinimumDeposit(), "The deposited amount is less than the minimum deposit size");
        require(
            getBalance() <= settings.getMaximumDepositPoolSize(),
            "The deposit pool size after depositing exceeds the maximum size"
        );
        uint256 fee = msg.value * settings.getDepositFee() / 1 ether;
        RocketTokenRETH(payable(getContractAddress("rocketTokenRETH"))).mint(msg.value - fee, msg.sender);
        emit DepositReceived(msg.sender, msg.value, block.timestamp);
    }

    /// @notice Sends rETH the ether a burn needs.
    function withdrawExcessBalance(uint256 _amount) external {
        require(msg.sender == getContractAddress("rocketTokenRETH"), "Invalid or outdated network contract");
        require(_amount <= address(this).balance, "Insufficient excess balance for withdrawal");
        (bool ok,) = msg.sender.call{value: _amount}("");
        require(ok, "ETH transfer failed");
    }

    function _settings() private view returns (RocketDAOProtocolSettingsDeposit) {
        return RocketDAOProtocolSettingsDeposit(getContractAddress("rocketDAOProtocolSettingsDeposit"));
    }
}

/// @notice Rocket Pool's rETH: minted by the deposit pool at the network exchange rate (total ETH
/// backing rETH over its supply), burned for ETH. The network's total ETH balance is kept here:
/// deposits and burns move it, and the guardian's depositRewards stands in for the oracle DAO's
/// balance reports (the rewards it sends back burns).
contract RocketTokenRETH is RocketBase, ERC20 {
    event EtherDeposited(address indexed from, uint256 amount, uint256 time);
    event TokensMinted(address indexed to, uint256 amount, uint256 ethAmount, uint256 time);
    event TokensBurned(address indexed from, uint256 amount, uint256 ethAmount, uint256 time);

    uint256 private totalEthBalance;

    constructor(RocketStorage storage_) RocketBase(storage_) ERC20("Rocket Pool ETH", "rETH", 18) {}

    receive() external payable {
        emit EtherDeposited(msg.sender, msg.value, block.timestamp);
    }

    function getEthValue(uint256 _rethAmount) public view returns (uint256) {
        if (totalSupply == 0) return _rethAmount;
        return _rethAmount * totalEthBalance / totalSupply;
    }

    function getRethValue(uint256 _ethAmount) public view returns (uint256) {
        if (totalSupply == 0 || totalEthBalance == 0) return _ethAmount;
        return _ethAmount * totalSupply / totalEthBalance;
    }

    function getExchangeRate() external view returns (uint256) {
        return getEthValue(1 ether);
    }

    function getTotalCollateral() public view returns (uint256) {
        return address(this).balance + RocketDepositPool(getContractAddress("rocketDepositPool")).getExcessBalance();
    }

    function getCollateralRate() external view returns (uint256) {
        if (totalEthBalance == 0) return 1 ether;
        return getTotalCollateral() * 1 ether / totalEthBalance;
    }

    function mint(uint256 _ethAmount, address _to) external {
        require(msg.sender == getContractAddress("rocketDepositPool"), "Invalid or outdated network contract");
        uint256 rethAmount = getRethValue(_ethAmount);
        require(rethAmount > 0, "Invalid token mint amount");
        totalEthBalance += _ethAmount;
        _mint(_to, rethAmount);
        emit TokensMinted(_to, rethAmount, _ethAmount, block.timestamp);
    }

    function burn(uint256 _rethAmount) external {
        require(_rethAmount > 0, "Invalid token burn amount");
        require(balanceOf[msg.sender] >= _rethAmount, "Insufficient rETH balance");
        uint256 ethAmount = getEthValue(_rethAmount);
        uint256 held = address(this).balance;
        require(held + RocketDepositPool(getContractAddress("rocketDepositPool")).getExcessBalance() >= ethAmount,
            "Insufficient ETH balance for exchange");
        _burn(msg.sender, _rethAmount);
        totalEthBalance -= ethAmount;
        if (held < ethAmount) {
            RocketDepositPool(getContractAddress("rocketDepositPool")).withdrawExcessBalance(ethAmount - held);
        }
        (bool ok,) = msg.sender.call{value: ethAmount}("");
        require(ok, "ETH transfer failed");
        emit TokensBurned(msg.sender, _rethAmount, ethAmount, block.timestamp);
    }

    /// @notice The guardian's stand-in for a balance report: msg.value is staking rewards backing rETH.
    function depositRewards() external payable {
        require(msg.sender == rocketStorage.getGuardian(), "Account is not a temporary guardian");
        totalEthBalance += msg.value;
        emit EtherDeposited(msg.sender, msg.value, block.timestamp);
    }
}
