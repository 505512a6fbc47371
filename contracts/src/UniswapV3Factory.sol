// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IUniswapV3PoolDeployer, UniswapV3Pool} from "./UniswapV3Pool.sol";

/// @title UniswapV3Factory
/// @notice Deploys one UniswapV3Pool per (token pair, fee) with CREATE2, salt
/// keccak256(abi.encode(token0, token1, fee)) and no constructor arguments, as mainnet does, so
/// pool addresses follow the usual formula with poolCodeHash() as the init code hash. Fee tiers
/// enabled at deployment: 100 (spacing 1), 500 (10), 3000 (60), 10000 (200).
contract UniswapV3Factory is IUniswapV3PoolDeployer {
    struct Parameters {
        address factory;
        address token0;
        address token1;
        uint24 fee;
        int24 tickSpacing;
    }

    event OwnerChanged(address indexed oldOwner, address indexed newOwner);
    event PoolCreated(
        address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool
    );
    event FeeAmountEnabled(uint24 indexed fee, int24 indexed tickSpacing);

    address public owner;
    mapping(uint24 => int24) public feeAmountTickSpacing;
    mapping(address => mapping(address => mapping(uint24 => address))) public getPool;

    Parameters private params;

    constructor() {
        owner = msg.sender;
        emit OwnerChanged(address(0), msg.sender);
        _enableFeeAmount(100, 1);
        _enableFeeAmount(500, 10);
        _enableFeeAmount(3000, 60);
        _enableFeeAmount(10000, 200);
    }

    /// @notice The deployment parameters of the pool being created; zero outside createPool.
    function parameters()
        external
        view
        returns (address factory, address token0, address token1, uint24 fee, int24 tickSpacing)
    {
        Parameters memory p = params;
        return (p.factory, p.token0, p.token1, p.fee, p.tickSpacing);
    }

    /// @notice The keccak256 of UniswapV3Pool's creation code, for computing pool addresses offline.
    function poolCodeHash() external pure returns (bytes32) {
        return keccak256(type(UniswapV3Pool).creationCode);
    }

    function createPool(address tokenA, address tokenB, uint24 fee) external returns (address pool) {
        require(tokenA != tokenB, "UniswapV3Factory: identical tokens");
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "UniswapV3Factory: zero address");
        int24 tickSpacing = feeAmountTickSpacing[fee];
        require(tickSpacing != 0, "UniswapV3Factory: fee tier not enabled");
        require(getPool[token0][token1][fee] == address(0), "UniswapV3Factory: pool exists");
        params = Parameters(address(this), token0, token1, fee, tickSpacing);
        pool = address(new UniswapV3Pool{salt: keccak256(abi.encode(token0, token1, fee))}());
        delete params;
        getPool[token0][token1][fee] = pool;
        getPool[token1][token0][fee] = pool;
        emit PoolCreated(token0, token1, fee, tickSpacing, pool);
    }

    function setOwner(address owner_) external {
        require(msg.sender == owner, "UniswapV3Factory: caller is not the owner");
        emit OwnerChanged(owner, owner_);
        owner = owner_;
    }

    function enableFeeAmount(uint24 fee, int24 tickSpacing) external {
        require(msg.sender == owner, "UniswapV3Factory: caller is not the owner");
        require(fee < 1000000, "UniswapV3Factory: fee too high");
        require(tickSpacing > 0 && tickSpacing < 16384, "UniswapV3Factory: invalid tick spacing");
        require(feeAmountTickSpacing[fee] == 0, "UniswapV3Factory: fee tier already enabled");
        _enableFeeAmount(fee, tickSpacing);
    }

    function _enableFeeAmount(uint24 fee, int24 tickSpacing) private {
        feeAmountTickSpacing[fee] = tickSpacing;
        emit FeeAmountEnabled(fee, tickSpacing);
    }
}
