// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC4626Base} from "./ERC4626Base.sol";
import {IERC20, SafeTransfer} from "./IERC20.sol";

/// @title USDeSilo
/// @notice Holds the USDe of cooling-down sUSDe until unstake; only the staking vault moves it.
contract USDeSilo {
    address public immutable STAKING_VAULT;
    address public immutable USDE;

    constructor(address stakingVault, address usde) {
        STAKING_VAULT = stakingVault;
        USDE = usde;
    }

    function withdraw(address to, uint256 amount) external {
        require(msg.sender == STAKING_VAULT, "OnlyStakingVault");
        SafeTransfer.safeTransfer(USDE, to, amount);
    }
}

/// @title StakedUSDeV2
/// @notice sUSDe: Ethena's staked USDe, an ERC-4626 vault over USDe with StakedUSDeV2's cooldown.
/// While cooldownDuration is non-zero, withdraw and redeem revert (OperationNotAllowed) and an exit
/// is cooldownShares or cooldownAssets (the USDe goes to the silo, credited to the caller's
/// cooldowns entry with cooldownEnd = now + cooldownDuration) followed, once cooldownEnd is reached,
/// by unstake(receiver). Rewards sent with transferInRewards vest linearly over VESTING_PERIOD
/// (8 hours): totalAssets is the USDe balance less the unvested part. The owner stands in for every
/// Ethena role (rewarder, admin); there is no blacklisting, redistribution or MIN_SHARES check.
contract StakedUSDeV2 is ERC4626Base {
    struct UserCooldown {
        uint104 cooldownEnd;
        uint152 underlyingAmount;
    }

    event RewardsReceived(uint256 amount);
    event CooldownDurationUpdated(uint24 previousDuration, uint24 newDuration);

    uint24 public constant MAX_COOLDOWN_DURATION = 90 days;
    uint256 public constant VESTING_PERIOD = 8 hours;

    address public immutable owner;
    USDeSilo public immutable silo;
    uint24 public cooldownDuration;
    uint256 public vestingAmount;
    uint256 public lastDistributionTimestamp;
    mapping(address => UserCooldown) public cooldowns;

    constructor(address usde) ERC4626Base(usde, "Staked USDe", "sUSDe") {
        owner = msg.sender;
        silo = new USDeSilo(address(this), usde);
        cooldownDuration = MAX_COOLDOWN_DURATION;
    }

    modifier ensureCooldownOff() {
        require(cooldownDuration == 0, "OperationNotAllowed");
        _;
    }

    modifier ensureCooldownOn() {
        require(cooldownDuration != 0, "OperationNotAllowed");
        _;
    }

    function setCooldownDuration(uint24 duration) external {
        require(msg.sender == owner, "OnlyOwner");
        require(duration <= MAX_COOLDOWN_DURATION, "InvalidCooldown");
        emit CooldownDurationUpdated(cooldownDuration, duration);
        cooldownDuration = duration;
    }

    /// @notice Sends amount of USDe from the owner into the vault, vesting over VESTING_PERIOD.
    function transferInRewards(uint256 amount) external {
        require(msg.sender == owner, "OnlyOwner");
        require(amount > 0, "InvalidAmount");
        require(getUnvestedAmount() == 0, "StillVesting");
        vestingAmount = amount;
        lastDistributionTimestamp = block.timestamp;
        SafeTransfer.safeTransferFrom(asset, msg.sender, address(this), amount);
        emit RewardsReceived(amount);
    }

    function getUnvestedAmount() public view returns (uint256) {
        uint256 elapsed = block.timestamp - lastDistributionTimestamp;
        if (elapsed >= VESTING_PERIOD) return 0;
        return (VESTING_PERIOD - elapsed) * vestingAmount / VESTING_PERIOD;
    }

    function totalAssets() public view override returns (uint256) {
        return IERC20(asset).balanceOf(address(this)) - getUnvestedAmount();
    }

    function withdraw(uint256 assets, address receiver, address owner_)
        public
        override
        ensureCooldownOff
        returns (uint256)
    {
        return super.withdraw(assets, receiver, owner_);
    }

    function redeem(uint256 shares, address receiver, address owner_)
        public
        override
        ensureCooldownOff
        returns (uint256)
    {
        return super.redeem(shares, receiver, owner_);
    }

    /// @notice Starts the cooldown of assets worth of the caller's shares.
    function cooldownAssets(uint256 assets) external ensureCooldownOn returns (uint256 shares) {
        require(assets <= maxWithdraw(msg.sender), "ExcessiveWithdrawAmount");
        shares = previewWithdraw(assets);
        _cooldown(assets, shares);
    }

    /// @notice Starts the cooldown of shares of the caller's sUSDe.
    function cooldownShares(uint256 shares) external ensureCooldownOn returns (uint256 assets) {
        require(shares <= maxRedeem(msg.sender), "ExcessiveRedeemAmount");
        assets = previewRedeem(shares);
        _cooldown(assets, shares);
    }

    /// @notice Pays the caller's cooled-down USDe to receiver once its cooldown has ended.
    function unstake(address receiver) external {
        UserCooldown storage c = cooldowns[msg.sender];
        uint256 assets = c.underlyingAmount;
        require(block.timestamp >= c.cooldownEnd || cooldownDuration == 0, "InvalidCooldown");
        c.cooldownEnd = 0;
        c.underlyingAmount = 0;
        silo.withdraw(receiver, assets);
    }

    function _cooldown(uint256 assets, uint256 shares) private {
        UserCooldown storage c = cooldowns[msg.sender];
        c.cooldownEnd = uint104(block.timestamp) + cooldownDuration;
        c.underlyingAmount += uint152(assets);
        _withdraw(address(silo), msg.sender, assets, shares);
    }
}
