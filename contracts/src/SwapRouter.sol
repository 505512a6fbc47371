// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IERC20, IWETH9, SafeTransfer} from "./IERC20.sol";
import {TickMath} from "./UniswapV3Math.sol";
import {IUniswapV3SwapCallback, UniswapV3Pool} from "./UniswapV3Pool.sol";
import {UniswapV3Factory} from "./UniswapV3Factory.sol";

/// @title SwapRouter
/// @notice Single-pool swaps with the Uniswap V3 SwapRouter surface: exactInputSingle and
/// exactOutputSingle (mainnet parameter structs, including deadline), multicall, and the ETH
/// helpers unwrapWETH9 and refundETH. ETH sent with a swap whose input token is WETH9 is wrapped
/// to pay for it; leftover ETH stays here until refundETH (as on mainnet). Not provided: the
/// multi-hop exactInput/exactOutput (path-encoded) swaps, sweepToken and the permit helpers.
/// Revert reasons are the mainnet strings ("Transaction too old", "Too little received",
/// "Too much requested") or readable ones.
contract SwapRouter is IUniswapV3SwapCallback {
    struct ExactInputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 deadline;
        uint256 amountIn;
        uint256 amountOutMinimum;
        uint160 sqrtPriceLimitX96;
    }

    struct ExactOutputSingleParams {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address recipient;
        uint256 deadline;
        uint256 amountOut;
        uint256 amountInMaximum;
        uint160 sqrtPriceLimitX96;
    }

    struct SwapCallbackData {
        address tokenIn;
        address tokenOut;
        uint24 fee;
        address payer;
    }

    address public immutable factory;
    // solhint-disable-next-line var-name-mixedcase
    address public immutable WETH9;

    modifier checkDeadline(uint256 deadline) {
        require(block.timestamp <= deadline, "Transaction too old");
        _;
    }

    constructor(address factory_, address weth9_) {
        factory = factory_;
        WETH9 = weth9_;
    }

    receive() external payable {
        require(msg.sender == WETH9, "SwapRouter: ETH only from WETH9");
    }

    function exactInputSingle(ExactInputSingleParams calldata params)
        external
        payable
        checkDeadline(params.deadline)
        returns (uint256 amountOut)
    {
        require(params.amountIn <= uint256(type(int256).max), "SwapRouter: amountIn too large");
        (bool zeroForOne, int256 amount0, int256 amount1) = _swap(
            params.tokenIn, params.tokenOut, params.fee, params.recipient, int256(params.amountIn), params.sqrtPriceLimitX96
        );
        amountOut = uint256(-(zeroForOne ? amount1 : amount0));
        require(amountOut >= params.amountOutMinimum, "Too little received");
    }

    function exactOutputSingle(ExactOutputSingleParams calldata params)
        external
        payable
        checkDeadline(params.deadline)
        returns (uint256 amountIn)
    {
        require(params.amountOut <= uint256(type(int256).max), "SwapRouter: amountOut too large");
        (bool zeroForOne, int256 amount0, int256 amount1) = _swap(
            params.tokenIn, params.tokenOut, params.fee, params.recipient, -int256(params.amountOut), params.sqrtPriceLimitX96
        );
        uint256 amountOutReceived;
        (amountIn, amountOutReceived) = zeroForOne
            ? (uint256(amount0), uint256(-amount1))
            : (uint256(amount1), uint256(-amount0));
        // Without a price limit the full output must be delivered.
        if (params.sqrtPriceLimitX96 == 0) {
            require(amountOutReceived == params.amountOut, "SwapRouter: not enough liquidity for the output");
        }
        require(amountIn <= params.amountInMaximum, "Too much requested");
    }

    /// @notice Calls this contract once per item, reverting with the first failure's reason.
    function multicall(bytes[] calldata data) external payable returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i; i < data.length; i++) {
            (bool ok, bytes memory result) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly ("memory-safe") {
                    revert(add(result, 32), mload(result))
                }
            }
            results[i] = result;
        }
    }

    /// @notice Unwraps this contract's WETH9 balance and sends it as ETH to `recipient`.
    function unwrapWETH9(uint256 amountMinimum, address recipient) external payable {
        uint256 balance = IWETH9(WETH9).balanceOf(address(this));
        require(balance >= amountMinimum, "Insufficient WETH9");
        if (balance > 0) {
            IWETH9(WETH9).withdraw(balance);
            SafeTransfer.safeTransferETH(recipient, balance);
        }
    }

    /// @notice Returns this contract's ETH balance to the caller.
    function refundETH() external payable {
        if (address(this).balance > 0) SafeTransfer.safeTransferETH(msg.sender, address(this).balance);
    }

    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        require(amount0Delta > 0 || amount1Delta > 0, "SwapRouter: nothing to pay");
        SwapCallbackData memory cb = abi.decode(data, (SwapCallbackData));
        require(
            msg.sender == UniswapV3Factory(factory).getPool(cb.tokenIn, cb.tokenOut, cb.fee),
            "SwapRouter: callback from an unknown pool"
        );
        _pay(cb.tokenIn, cb.payer, msg.sender, uint256(amount0Delta > 0 ? amount0Delta : amount1Delta));
    }

    function _swap(
        address tokenIn,
        address tokenOut,
        uint24 fee,
        address recipient,
        int256 amountSpecified,
        uint160 sqrtPriceLimitX96
    ) private returns (bool zeroForOne, int256 amount0, int256 amount1) {
        address pool = UniswapV3Factory(factory).getPool(tokenIn, tokenOut, fee);
        require(pool != address(0), "SwapRouter: pool does not exist");
        zeroForOne = tokenIn < tokenOut;
        uint160 limit = sqrtPriceLimitX96 != 0
            ? sqrtPriceLimitX96
            : (zeroForOne ? TickMath.MIN_SQRT_RATIO + 1 : TickMath.MAX_SQRT_RATIO - 1);
        bytes memory data = abi.encode(SwapCallbackData(tokenIn, tokenOut, fee, msg.sender));
        (amount0, amount1) = UniswapV3Pool(pool).swap(recipient, zeroForOne, amountSpecified, limit, data);
    }

    function _pay(address token, address payer, address recipient, uint256 value) private {
        if (token == WETH9 && address(this).balance >= value) {
            IWETH9(WETH9).deposit{value: value}();
            require(IWETH9(WETH9).transfer(recipient, value), "SwapRouter: WETH9 transfer failed");
        } else if (payer == address(this)) {
            SafeTransfer.safeTransfer(token, recipient, value);
        } else {
            SafeTransfer.safeTransferFrom(token, payer, recipient, value);
        }
    }
}
