// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC4626Base} from "./ERC4626Base.sol";
import {FullMath} from "./UniswapV3Math.sol";

/// @title Pot
/// @notice Maker's DSR accumulator with the Pot's getters: dsr (per-second rate, ray), chi (the
/// accumulated rate, ray), rho (last drip), drip() and file("dsr", rate). It holds no DAI: ward's
/// SavingsDai keeps its DAI itself.
contract Pot {
    uint256 private constant RAY = 1e27;

    uint256 public dsr;
    uint256 public chi = RAY;
    uint256 public rho;
    uint256 public live = 1;
    address public immutable owner;

    /// @param dsr_ The starting rate (Maker's Pot starts at one and is filed later; taking it here
    /// lets a deployment set it without a drip in the same block).
    constructor(uint256 dsr_) {
        require(dsr_ >= RAY, "Pot/dsr-below-one");
        owner = msg.sender;
        rho = block.timestamp;
        dsr = dsr_;
    }

    /// @notice Sets the DSR (what = "dsr"); as on Maker, only right after a drip.
    function file(bytes32 what, uint256 data) external {
        require(msg.sender == owner, "Pot/not-authorized");
        require(block.timestamp == rho, "Pot/rho-not-updated");
        require(what == "dsr", "Pot/file-unrecognized-param");
        require(data >= RAY, "Pot/dsr-below-one");
        dsr = data;
    }

    function drip() external returns (uint256 tmp) {
        require(block.timestamp >= rho, "Pot/invalid-now");
        tmp = rmul(rpow(dsr, block.timestamp - rho), chi);
        chi = tmp;
        rho = block.timestamp;
    }

    /// @notice x^n in ray, by squaring, each product rounded half up (Maker's rpow).
    function rpow(uint256 x, uint256 n) internal pure returns (uint256 z) {
        z = n % 2 != 0 ? x : RAY;
        for (n /= 2; n != 0; n /= 2) {
            x = rmul(x, x);
            if (n % 2 != 0) z = rmul(z, x);
        }
    }

    function rmul(uint256 x, uint256 y) internal pure returns (uint256) {
        return (x * y + RAY / 2) / RAY;
    }
}

interface IPot {
    function dsr() external view returns (uint256);
    function chi() external view returns (uint256);
    function rho() external view returns (uint256);
    function drip() external returns (uint256);
}

/// @title SavingsDai
/// @notice sDAI: an ERC-4626 vault over DAI whose share price is the Pot's chi, as Maker's
/// SavingsDai (dai(), pot(), the ERC-4626 functions, permit). Conversions are Maker's:
/// shares = assets * RAY / chi, assets = shares * chi / RAY, with chi brought up to date in views
/// and dripped on every deposit and withdrawal. The DAI stays in this contract (no Vat, DaiJoin or
/// pie): the interest it pays comes from DAI the deployer sends it beforehand.
contract SavingsDai is ERC4626Base {
    uint256 private constant RAY = 1e27;

    address public immutable pot;

    constructor(address dai_, address pot_) ERC4626Base(dai_, "Savings Dai", "sDAI") {
        pot = pot_;
    }

    function dai() external view returns (address) {
        return asset;
    }

    function totalAssets() public view override returns (uint256) {
        return convertToAssets(totalSupply);
    }

    function convertToShares(uint256 assets) public view override returns (uint256) {
        return assets * RAY / _chi();
    }

    function convertToAssets(uint256 shares) public view override returns (uint256) {
        return shares * _chi() / RAY;
    }

    function previewDeposit(uint256 assets) public view override returns (uint256) {
        return convertToShares(assets);
    }

    function previewMint(uint256 shares) public view override returns (uint256) {
        return FullMath.mulDivRoundingUp(shares, _chi(), RAY);
    }

    function previewWithdraw(uint256 assets) public view override returns (uint256) {
        return FullMath.mulDivRoundingUp(assets, RAY, _chi());
    }

    function previewRedeem(uint256 shares) public view override returns (uint256) {
        return convertToAssets(shares);
    }

    function _beforeConvert() internal override {
        if (block.timestamp > IPot(pot).rho()) IPot(pot).drip();
    }

    /// @dev The Pot's chi as drip would set it now (the same rpow, rounding for rounding).
    function _chi() internal view returns (uint256) {
        uint256 rho = IPot(pot).rho();
        uint256 chi = IPot(pot).chi();
        if (block.timestamp <= rho) return chi;
        uint256 x = IPot(pot).dsr();
        uint256 n = block.timestamp - rho;
        uint256 z = n % 2 != 0 ? x : RAY;
        for (n /= 2; n != 0; n /= 2) {
            x = (x * x + RAY / 2) / RAY;
            if (n % 2 != 0) z = (z * x + RAY / 2) / RAY;
        }
        return (z * chi + RAY / 2) / RAY;
    }
}
