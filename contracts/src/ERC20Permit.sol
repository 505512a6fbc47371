// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20WithPermit} from "./ERC20.sol";

/// @title ERC20Permit
/// @notice A dev-chain ERC-20 with EIP-2612 permit. The deployer (owner) may mint, to fund accounts.
contract ERC20Permit is ERC20WithPermit {
    address public immutable owner;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20WithPermit(name_, symbol_, decimals_) {
        owner = msg.sender;
    }

    /// @notice Mints `amount` to `to`. Only the deployer may call it.
    function mint(address to, uint256 amount) external {
        require(msg.sender == owner, "ERC20Permit: caller is not the owner");
        _mint(to, amount);
    }
}
