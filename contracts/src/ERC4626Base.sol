// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20WithPermit} from "./ERC20.sol";
import {IERC20, SafeTransfer} from "./IERC20.sol";
import {FullMath} from "./UniswapV3Math.sol";

/// @notice The ERC-4626 surface shared by the named yield vaults (SavingsDai, StakedUSDeV2,
/// YearnV3Vault): shares with permit and the asset's decimals, the standard functions and events,
/// EIP rounding (down for deposit/redeem/convert, up for mint/withdraw), and the hooks each vault
/// fills in: totalAssets, the conversions, the limits, and where assets go on deposit and come from
/// on withdrawal. The default conversions use one virtual share and one virtual asset.
abstract contract ERC4626Base is ERC20WithPermit {
    event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares);
    event Withdraw(
        address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares
    );

    address public immutable asset;

    constructor(address asset_, string memory name_, string memory symbol_)
        ERC20WithPermit(name_, symbol_, IERC20(asset_).decimals())
    {
        asset = asset_;
    }

    function totalAssets() public view virtual returns (uint256);

    function convertToShares(uint256 assets) public view virtual returns (uint256) {
        return _toShares(assets, false);
    }

    function convertToAssets(uint256 shares) public view virtual returns (uint256) {
        return _toAssets(shares, false);
    }

    function maxDeposit(address) public view virtual returns (uint256) {
        return type(uint256).max;
    }

    function maxMint(address receiver) public view virtual returns (uint256) {
        uint256 m = maxDeposit(receiver);
        return m == type(uint256).max ? m : convertToShares(m);
    }

    function maxWithdraw(address owner_) public view virtual returns (uint256) {
        return previewRedeem(balanceOf[owner_]);
    }

    function maxRedeem(address owner_) public view virtual returns (uint256) {
        return balanceOf[owner_];
    }

    function previewDeposit(uint256 assets) public view virtual returns (uint256) {
        return _toShares(assets, false);
    }

    function previewMint(uint256 shares) public view virtual returns (uint256) {
        return _toAssets(shares, true);
    }

    function previewWithdraw(uint256 assets) public view virtual returns (uint256) {
        return _toShares(assets, true);
    }

    function previewRedeem(uint256 shares) public view virtual returns (uint256) {
        return _toAssets(shares, false);
    }

    function deposit(uint256 assets, address receiver) public virtual returns (uint256 shares) {
        _beforeConvert();
        require(assets <= maxDeposit(receiver), "ERC4626: deposit more than max");
        shares = previewDeposit(assets);
        require(shares > 0, "ERC4626: deposit too small for one share");
        _deposit(receiver, assets, shares);
    }

    function mint(uint256 shares, address receiver) public virtual returns (uint256 assets) {
        _beforeConvert();
        require(shares > 0 && shares <= maxMint(receiver), "ERC4626: mint zero or more than max");
        assets = previewMint(shares);
        _deposit(receiver, assets, shares);
    }

    function withdraw(uint256 assets, address receiver, address owner_) public virtual returns (uint256 shares) {
        _beforeConvert();
        require(assets <= maxWithdraw(owner_), "ERC4626: withdraw more than max");
        shares = previewWithdraw(assets);
        _withdraw(receiver, owner_, assets, shares);
    }

    function redeem(uint256 shares, address receiver, address owner_) public virtual returns (uint256 assets) {
        _beforeConvert();
        require(shares <= maxRedeem(owner_), "ERC4626: redeem more than max");
        assets = previewRedeem(shares);
        require(assets > 0, "ERC4626: redeem too small for any assets");
        _withdraw(receiver, owner_, assets, shares);
    }

    /// @dev Runs before a deposit or withdrawal converts (sDAI drips the pot here).
    function _beforeConvert() internal virtual {}

    /// @dev Receives assets already in the vault (Yearn keeps them idle).
    function _afterDeposit(uint256 assets) internal virtual {}

    /// @dev Makes assets available in the vault before they are paid out (Yearn frees debt).
    function _beforeWithdraw(uint256 assets) internal virtual {}

    function _deposit(address receiver, uint256 assets, uint256 shares) internal {
        SafeTransfer.safeTransferFrom(asset, msg.sender, address(this), assets);
        _mint(receiver, shares);
        _afterDeposit(assets);
        emit Deposit(msg.sender, receiver, assets, shares);
    }

    function _withdraw(address receiver, address owner_, uint256 assets, uint256 shares) internal {
        if (msg.sender != owner_) _spendAllowance(owner_, msg.sender, shares);
        _burn(owner_, shares);
        _beforeWithdraw(assets);
        SafeTransfer.safeTransfer(asset, receiver, assets);
        emit Withdraw(msg.sender, receiver, owner_, assets, shares);
    }

    function _toShares(uint256 assets, bool roundUp) internal view returns (uint256) {
        return roundUp
            ? FullMath.mulDivRoundingUp(assets, totalSupply + 1, totalAssets() + 1)
            : FullMath.mulDiv(assets, totalSupply + 1, totalAssets() + 1);
    }

    function _toAssets(uint256 shares, bool roundUp) internal view returns (uint256) {
        return roundUp
            ? FullMath.mulDivRoundingUp(shares, totalAssets() + 1, totalSupply + 1)
            : FullMath.mulDiv(shares, totalAssets() + 1, totalSupply + 1);
    }
}
