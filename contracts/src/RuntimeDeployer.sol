// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title RuntimeDeployer
/// @notice Creates an account whose code is exactly the `code` passed to the constructor: the
/// constructor returns those bytes as the runtime code, so nothing of RuntimeDeployer remains.
/// ward chain deploy uses it for a contract whose package publishes only its runtime code
/// (Permit2, which the npm package uniswap/v4-periphery ships as the bytes its tests etch at the canonical
/// address), and checks the deployed code equals those bytes.
contract RuntimeDeployer {
    constructor(bytes memory code) {
        assembly ("memory-safe") {
            return(add(code, 0x20), mload(code))
        }
    }
}
