// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20WithPermit} from "./ERC20.sol";
import {IERC20, SafeTransfer} from "./IERC20.sol";
import {FullMath} from "./UniswapV3Math.sol";

/// @title ERC4626Vault
/// @notice A full ERC-4626 vault over one ERC-20 asset. totalAssets is the vault's asset balance,
/// so any asset sent to the vault is yield for all holders; the deployer may also call harvest to
/// pull asset from itself. Shares have the asset's decimals and permit. Conversions use one
/// virtual share and one virtual asset (shares = assets * (supply + 1) / (totalAssets + 1)),
/// which blunts the first-depositor inflation attack. Rounding is as EIP-4626 requires: towards
/// the vault (down for deposit/redeem/convert*, up for mint/withdraw). No deposit limits.
contract ERC4626Vault is ERC20WithPermit {
    event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares);
    event Withdraw(
        address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares
    );
    event Harvest(uint256 assets);

    address public immutable asset;
    address public immutable owner;

    constructor(address asset_, string memory name_, string memory symbol_)
        ERC20WithPermit(name_, symbol_, IERC20(asset_).decimals())
    {
        asset = asset_;
        owner = msg.sender;
    }

    /// @notice Moves `assets` of the asset from the deployer into the vault, raising the share price.
    function harvest(uint256 assets) external {
        require(msg.sender == owner, "ERC4626Vault: caller is not the owner");
        SafeTransfer.safeTransferFrom(asset, msg.sender, address(this), assets);
        emit Harvest(assets);
    }

    function totalAssets() public view returns (uint256) {
        return IERC20(asset).balanceOf(address(this));
    }

    function convertToShares(uint256 assets) public view returns (uint256) {
        return _toShares(assets, false);
    }

    function convertToAssets(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, false);
    }

    function maxDeposit(address) public pure returns (uint256) {
        return type(uint256).max;
    }

    function maxMint(address) public pure returns (uint256) {
        return type(uint256).max;
    }

    function maxWithdraw(address owner_) public view returns (uint256) {
        return _toAssets(balanceOf[owner_], false);
    }

    function maxRedeem(address owner_) public view returns (uint256) {
        return balanceOf[owner_];
    }

    function previewDeposit(uint256 assets) public view returns (uint256) {
        return _toShares(assets, false);
    }

    function previewMint(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, true);
    }

    function previewWithdraw(uint256 assets) public view returns (uint256) {
        return _toShares(assets, true);
    }

    function previewRedeem(uint256 shares) public view returns (uint256) {
        return _toAssets(shares, false);
    }

    function deposit(uint256 assets, address receiver) external returns (uint256 shares) {
        shares = previewDeposit(assets);
        require(shares > 0, "ERC4626Vault: deposit too small for one share");
        _deposit(receiver, assets, shares);
    }

    function mint(uint256 shares, address receiver) external returns (uint256 assets) {
        require(shares > 0, "ERC4626Vault: zero shares");
        assets = previewMint(shares);
        _deposit(receiver, assets, shares);
    }

    function withdraw(uint256 assets, address receiver, address owner_) external returns (uint256 shares) {
        require(assets <= maxWithdraw(owner_), "ERC4626Vault: withdraw more than max");
        shares = previewWithdraw(assets);
        _withdraw(receiver, owner_, assets, shares);
    }

    function redeem(uint256 shares, address receiver, address owner_) external returns (uint256 assets) {
        require(shares <= maxRedeem(owner_), "ERC4626Vault: redeem more than max");
        assets = previewRedeem(shares);
        require(assets > 0, "ERC4626Vault: redeem too small for any assets");
        _withdraw(receiver, owner_, assets, shares);
    }

    function _deposit(address receiver, uint256 assets, uint256 shares) private {
        SafeTransfer.safeTransferFrom(asset, msg.sender, address(this), assets);
        _mint(receiver, shares);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function _withdraw(address receiver, address owner_, uint256 assets, uint256 shares) private {
        if (msg.sender != owner_) _spendAllowance(owner_, msg.sender, shares);
        _burn(owner_, shares);
        SafeTransfer.safeTransfer(asset, receiver, assets);
        emit Withdraw(msg.sender, receiver, owner_, assets, shares);
    }

    function _toShares(uint256 assets, bool roundUp) private view returns (uint256) {
        return roundUp
            ? FullMath.mulDivRoundingUp(assets, totalSupply + 1, totalAssets() + 1)
            : FullMath.mulDiv(assets, totalSupply + 1, totalAssets() + 1);
    }

    function _toAssets(uint256 shares, bool roundUp) private view returns (uint256) {
        return roundUp
            ? FullMath.mulDivRoundingUp(shares, totalAssets() + 1, totalSupply + 1)
            : FullMath.mulDiv(shares, totalAssets() + 1, totalSupply + 1);
    }
}
