// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice The ERC-20 surface (including the optional metadata getters) that the dev contracts call.
interface IERC20 {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function name() external view returns (string memory);
    function symbol() external view returns (string memory);
    function decimals() external view returns (uint8);
    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 value) external returns (bool);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @notice WETH9's wrapping surface.
interface IWETH9 is IERC20 {
    function deposit() external payable;
    function withdraw(uint256 wad) external;
}

/// @notice Token calls that tolerate tokens returning no boolean, reverting with readable reasons.
library SafeTransfer {
    function safeTransfer(address token, address to, uint256 value) internal {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20.transfer, (to, value)));
        require(ok && (data.length == 0 || abi.decode(data, (bool))) && token.code.length > 0, "SafeTransfer: transfer failed");
    }

    function safeTransferFrom(address token, address from, address to, uint256 value) internal {
        (bool ok, bytes memory data) = token.call(abi.encodeCall(IERC20.transferFrom, (from, to, value)));
        require(
            ok && (data.length == 0 || abi.decode(data, (bool))) && token.code.length > 0,
            "SafeTransfer: transferFrom failed (check balance and allowance)"
        );
    }

    function safeTransferETH(address to, uint256 value) internal {
        (bool ok,) = to.call{value: value}("");
        require(ok, "SafeTransfer: ETH transfer failed");
    }
}
