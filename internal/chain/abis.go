package chain

import "sync"

// The well-known ABIs below are fragments of the mainnet interfaces
// (selectors checked against mainnet in abis_test.go). Each is parsed on
// first use and shared.

// ERC20ABI is ERC-20 with EIP-2612 (permit, nonces, DOMAIN_SEPARATOR),
// the optional version() and EIP-5267 eip712Domain().
func ERC20ABI() *ABI { return erc20ABI() }

// WETH9ABI is the canonical wrapped ether (ERC-20 plus deposit/withdraw).
func WETH9ABI() *ABI { return weth9ABI() }

// AggregatorV3ABI is a Chainlink price feed (AggregatorV3Interface plus
// the V2 latestAnswer/latestTimestamp).
func AggregatorV3ABI() *ABI { return aggregatorV3ABI() }

// UniswapV2FactoryABI is the Uniswap V2 factory.
func UniswapV2FactoryABI() *ABI { return uniV2FactoryABI() }

// UniswapV2PairABI is a Uniswap V2 pair (reserves, swap, and its LP token).
func UniswapV2PairABI() *ABI { return uniV2PairABI() }

// UniswapV2Router02ABI is the Uniswap V2 Router02.
func UniswapV2Router02ABI() *ABI { return uniV2RouterABI() }

// UniswapV3FactoryABI is the Uniswap V3 factory.
func UniswapV3FactoryABI() *ABI { return uniV3FactoryABI() }

// UniswapV3PoolABI is a Uniswap V3 pool (state, swap, mint).
func UniswapV3PoolABI() *ABI { return uniV3PoolABI() }

// UniswapV3SwapRouterABI is the original V3 SwapRouter
// (0xE592427A0AEce92De3Edee1F18E0157C05861564), whose params carry a
// deadline.
func UniswapV3SwapRouterABI() *ABI { return uniV3RouterABI() }

// UniswapV3SwapRouter02ABI is SwapRouter02
// (0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45), whose V3 params have no
// deadline.
func UniswapV3SwapRouter02ABI() *ABI { return uniV3Router02ABI() }

// UniswapV3QuoterV2ABI is v3-periphery's QuoterV2
// (0x61fFE014bA17989E743c5F6cB21bF9697530B21e on mainnet): exact-input and
// exact-output quotes over an encoded path, read with eth_call.
func UniswapV3QuoterV2ABI() *ABI { return uniV3QuoterV2ABI() }

// UniswapV3PositionManagerABI is the V3 NonfungiblePositionManager
// (positions as ERC-721 tokens: mint, increaseLiquidity,
// decreaseLiquidity, collect, multicall, and the ERC-721 reads that find
// an owner's positions).
func UniswapV3PositionManagerABI() *ABI { return uniV3PositionsABI() }

// ERC4626ABI is a tokenised vault (ERC-4626 over ERC-20).
func ERC4626ABI() *ABI { return erc4626ABI() }

// AaveV3PoolABI is the Aave V3 Pool (supply, withdraw, borrow, repay,
// liquidationCall, account and reserve data).
func AaveV3PoolABI() *ABI { return aaveV3PoolABI() }

// Permit2ABI is Uniswap's Permit2 (0x000000000022D473030F116dDEE9F6B43aC78BA3
// on every chain): the AllowanceTransfer reads and writes ward uses
// (allowance, approve with an expiration, lockdown) and its errors.
func Permit2ABI() *ABI { return permit2ABI() }

// knownErrors are custom errors decoded in every revert: ERC-6093 token
// errors, SafeERC20, Ownable, ERC-2612 and Permit2's allowance errors.
func knownErrors() *ABI { return knownErrorsABI() }

var (
	erc20ABI          = sync.OnceValue(func() *ABI { return mustParseABI(erc20JSON) })
	weth9ABI          = sync.OnceValue(func() *ABI { return mustParseABI(weth9JSON) })
	aggregatorV3ABI   = sync.OnceValue(func() *ABI { return mustParseABI(aggregatorV3JSON) })
	uniV2FactoryABI   = sync.OnceValue(func() *ABI { return mustParseABI(uniV2FactoryJSON) })
	uniV2PairABI      = sync.OnceValue(func() *ABI { return mustParseABI(uniV2PairJSON) })
	uniV2RouterABI    = sync.OnceValue(func() *ABI { return mustParseABI(uniV2RouterJSON) })
	uniV3FactoryABI   = sync.OnceValue(func() *ABI { return mustParseABI(uniV3FactoryJSON) })
	uniV3PoolABI      = sync.OnceValue(func() *ABI { return mustParseABI(uniV3PoolJSON) })
	uniV3RouterABI    = sync.OnceValue(func() *ABI { return mustParseABI(uniV3RouterJSON) })
	uniV3Router02ABI  = sync.OnceValue(func() *ABI { return mustParseABI(uniV3Router02JSON) })
	uniV3QuoterV2ABI  = sync.OnceValue(func() *ABI { return mustParseABI(uniV3QuoterV2JSON) })
	erc4626ABI        = sync.OnceValue(func() *ABI { return mustParseABI(erc4626JSON) })
	aaveV3PoolABI     = sync.OnceValue(func() *ABI { return mustParseABI(aaveV3PoolJSON) })
	knownErrorsABI    = sync.OnceValue(func() *ABI { return mustParseABI(knownErrorsJSON) })
	uniV3PositionsABI = sync.OnceValue(func() *ABI { return mustParseABI(uniV3PositionsJSON) })
	permit2ABI        = sync.OnceValue(func() *ABI { return mustParseABI(permit2JSON) })
)

// permit2JSON: an allowance's amount is a uint160 (type(uint160).max never
// decreases), its expiration a uint48 unix time; approve with expiration 0
// sets it to the current block's timestamp.
const permit2JSON = `[
{"type":"function","name":"DOMAIN_SEPARATOR","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"bytes32"}]},
{"type":"function","name":"allowance","stateMutability":"view","inputs":[{"name":"user","type":"address"},{"name":"token","type":"address"},{"name":"spender","type":"address"}],"outputs":[{"name":"amount","type":"uint160"},{"name":"expiration","type":"uint48"},{"name":"nonce","type":"uint48"}]},
{"type":"function","name":"approve","stateMutability":"nonpayable","inputs":[{"name":"token","type":"address"},{"name":"spender","type":"address"},{"name":"amount","type":"uint160"},{"name":"expiration","type":"uint48"}],"outputs":[]},
{"type":"function","name":"lockdown","stateMutability":"nonpayable","inputs":[{"name":"approvals","type":"tuple[]","components":[{"name":"token","type":"address"},{"name":"spender","type":"address"}]}],"outputs":[]},
{"type":"event","name":"Approval","anonymous":false,"inputs":[{"name":"owner","type":"address","indexed":true},{"name":"token","type":"address","indexed":true},{"name":"spender","type":"address","indexed":true},{"name":"amount","type":"uint160","indexed":false},{"name":"expiration","type":"uint48","indexed":false}]},
{"type":"event","name":"Lockdown","anonymous":false,"inputs":[{"name":"owner","type":"address","indexed":true},{"name":"token","type":"address","indexed":false},{"name":"spender","type":"address","indexed":false}]},
{"type":"error","name":"AllowanceExpired","inputs":[{"name":"deadline","type":"uint256"}]},
{"type":"error","name":"InsufficientAllowance","inputs":[{"name":"amount","type":"uint256"}]}
]`

// erc20Items are the ERC-20 functions and events, shared by the token-like
// ABIs below.
const erc20Items = `
{"type":"function","name":"name","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"string"}]},
{"type":"function","name":"symbol","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"string"}]},
{"type":"function","name":"decimals","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint8"}]},
{"type":"function","name":"totalSupply","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"allowance","stateMutability":"view","inputs":[{"name":"owner","type":"address"},{"name":"spender","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"transfer","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"},{"name":"value","type":"uint256"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"approve","stateMutability":"nonpayable","inputs":[{"name":"spender","type":"address"},{"name":"value","type":"uint256"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"transferFrom","stateMutability":"nonpayable","inputs":[{"name":"from","type":"address"},{"name":"to","type":"address"},{"name":"value","type":"uint256"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"event","name":"Transfer","anonymous":false,"inputs":[{"name":"from","type":"address","indexed":true},{"name":"to","type":"address","indexed":true},{"name":"value","type":"uint256","indexed":false}]},
{"type":"event","name":"Approval","anonymous":false,"inputs":[{"name":"owner","type":"address","indexed":true},{"name":"spender","type":"address","indexed":true},{"name":"value","type":"uint256","indexed":false}]}`

const erc20JSON = `[` + erc20Items + `,
{"type":"function","name":"permit","stateMutability":"nonpayable","inputs":[{"name":"owner","type":"address"},{"name":"spender","type":"address"},{"name":"value","type":"uint256"},{"name":"deadline","type":"uint256"},{"name":"v","type":"uint8"},{"name":"r","type":"bytes32"},{"name":"s","type":"bytes32"}],"outputs":[]},
{"type":"function","name":"nonces","stateMutability":"view","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"DOMAIN_SEPARATOR","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"bytes32"}]},
{"type":"function","name":"version","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"string"}]},
{"type":"function","name":"eip712Domain","stateMutability":"view","inputs":[],"outputs":[{"name":"fields","type":"bytes1"},{"name":"name","type":"string"},{"name":"version","type":"string"},{"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"},{"name":"salt","type":"bytes32"},{"name":"extensions","type":"uint256[]"}]}
]`

const weth9JSON = `[` + erc20Items + `,
{"type":"function","name":"deposit","stateMutability":"payable","inputs":[],"outputs":[]},
{"type":"function","name":"withdraw","stateMutability":"nonpayable","inputs":[{"name":"wad","type":"uint256"}],"outputs":[]},
{"type":"event","name":"Deposit","anonymous":false,"inputs":[{"name":"dst","type":"address","indexed":true},{"name":"wad","type":"uint256","indexed":false}]},
{"type":"event","name":"Withdrawal","anonymous":false,"inputs":[{"name":"src","type":"address","indexed":true},{"name":"wad","type":"uint256","indexed":false}]}
]`

const roundOutputs = `[{"name":"roundId","type":"uint80"},{"name":"answer","type":"int256"},{"name":"startedAt","type":"uint256"},{"name":"updatedAt","type":"uint256"},{"name":"answeredInRound","type":"uint80"}]`

const aggregatorV3JSON = `[
{"type":"function","name":"decimals","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint8"}]},
{"type":"function","name":"description","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"string"}]},
{"type":"function","name":"version","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getRoundData","stateMutability":"view","inputs":[{"name":"_roundId","type":"uint80"}],"outputs":` + roundOutputs + `},
{"type":"function","name":"latestRoundData","stateMutability":"view","inputs":[],"outputs":` + roundOutputs + `},
{"type":"function","name":"latestAnswer","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"int256"}]},
{"type":"function","name":"latestTimestamp","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]}
]`

const uniV2FactoryJSON = `[
{"type":"function","name":"getPair","stateMutability":"view","inputs":[{"name":"tokenA","type":"address"},{"name":"tokenB","type":"address"}],"outputs":[{"name":"pair","type":"address"}]},
{"type":"function","name":"allPairs","stateMutability":"view","inputs":[{"name":"","type":"uint256"}],"outputs":[{"name":"pair","type":"address"}]},
{"type":"function","name":"allPairsLength","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"createPair","stateMutability":"nonpayable","inputs":[{"name":"tokenA","type":"address"},{"name":"tokenB","type":"address"}],"outputs":[{"name":"pair","type":"address"}]},
{"type":"function","name":"feeTo","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"feeToSetter","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"event","name":"PairCreated","anonymous":false,"inputs":[{"name":"token0","type":"address","indexed":true},{"name":"token1","type":"address","indexed":true},{"name":"pair","type":"address","indexed":false},{"name":"","type":"uint256","indexed":false}]}
]`

const uniV2PairJSON = `[` + erc20Items + `,
{"type":"function","name":"factory","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"token0","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"token1","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"getReserves","stateMutability":"view","inputs":[],"outputs":[{"name":"reserve0","type":"uint112"},{"name":"reserve1","type":"uint112"},{"name":"blockTimestampLast","type":"uint32"}]},
{"type":"function","name":"price0CumulativeLast","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"price1CumulativeLast","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"kLast","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"mint","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"}],"outputs":[{"name":"liquidity","type":"uint256"}]},
{"type":"function","name":"burn","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"}],"outputs":[{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]},
{"type":"function","name":"swap","stateMutability":"nonpayable","inputs":[{"name":"amount0Out","type":"uint256"},{"name":"amount1Out","type":"uint256"},{"name":"to","type":"address"},{"name":"data","type":"bytes"}],"outputs":[]},
{"type":"function","name":"skim","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"}],"outputs":[]},
{"type":"function","name":"sync","stateMutability":"nonpayable","inputs":[],"outputs":[]},
{"type":"event","name":"Swap","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"amount0In","type":"uint256","indexed":false},{"name":"amount1In","type":"uint256","indexed":false},{"name":"amount0Out","type":"uint256","indexed":false},{"name":"amount1Out","type":"uint256","indexed":false},{"name":"to","type":"address","indexed":true}]},
{"type":"event","name":"Sync","anonymous":false,"inputs":[{"name":"reserve0","type":"uint112","indexed":false},{"name":"reserve1","type":"uint112","indexed":false}]},
{"type":"event","name":"Mint","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"amount0","type":"uint256","indexed":false},{"name":"amount1","type":"uint256","indexed":false}]},
{"type":"event","name":"Burn","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"amount0","type":"uint256","indexed":false},{"name":"amount1","type":"uint256","indexed":false},{"name":"to","type":"address","indexed":true}]}
]`

const (
	pathIn     = `{"name":"path","type":"address[]"}`
	amountsOut = `[{"name":"amounts","type":"uint256[]"}]`
	toDeadline = `{"name":"to","type":"address"},{"name":"deadline","type":"uint256"}`
)

const uniV2RouterJSON = `[
{"type":"function","name":"factory","stateMutability":"pure","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"WETH","stateMutability":"pure","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"addLiquidity","stateMutability":"nonpayable","inputs":[{"name":"tokenA","type":"address"},{"name":"tokenB","type":"address"},{"name":"amountADesired","type":"uint256"},{"name":"amountBDesired","type":"uint256"},{"name":"amountAMin","type":"uint256"},{"name":"amountBMin","type":"uint256"},` + toDeadline + `],"outputs":[{"name":"amountA","type":"uint256"},{"name":"amountB","type":"uint256"},{"name":"liquidity","type":"uint256"}]},
{"type":"function","name":"addLiquidityETH","stateMutability":"payable","inputs":[{"name":"token","type":"address"},{"name":"amountTokenDesired","type":"uint256"},{"name":"amountTokenMin","type":"uint256"},{"name":"amountETHMin","type":"uint256"},` + toDeadline + `],"outputs":[{"name":"amountToken","type":"uint256"},{"name":"amountETH","type":"uint256"},{"name":"liquidity","type":"uint256"}]},
{"type":"function","name":"removeLiquidity","stateMutability":"nonpayable","inputs":[{"name":"tokenA","type":"address"},{"name":"tokenB","type":"address"},{"name":"liquidity","type":"uint256"},{"name":"amountAMin","type":"uint256"},{"name":"amountBMin","type":"uint256"},` + toDeadline + `],"outputs":[{"name":"amountA","type":"uint256"},{"name":"amountB","type":"uint256"}]},
{"type":"function","name":"removeLiquidityETH","stateMutability":"nonpayable","inputs":[{"name":"token","type":"address"},{"name":"liquidity","type":"uint256"},{"name":"amountTokenMin","type":"uint256"},{"name":"amountETHMin","type":"uint256"},` + toDeadline + `],"outputs":[{"name":"amountToken","type":"uint256"},{"name":"amountETH","type":"uint256"}]},
{"type":"function","name":"swapExactTokensForTokens","stateMutability":"nonpayable","inputs":[{"name":"amountIn","type":"uint256"},{"name":"amountOutMin","type":"uint256"},` + pathIn + `,` + toDeadline + `],"outputs":` + amountsOut + `},
{"type":"function","name":"swapTokensForExactTokens","stateMutability":"nonpayable","inputs":[{"name":"amountOut","type":"uint256"},{"name":"amountInMax","type":"uint256"},` + pathIn + `,` + toDeadline + `],"outputs":` + amountsOut + `},
{"type":"function","name":"swapExactETHForTokens","stateMutability":"payable","inputs":[{"name":"amountOutMin","type":"uint256"},` + pathIn + `,` + toDeadline + `],"outputs":` + amountsOut + `},
{"type":"function","name":"swapTokensForExactETH","stateMutability":"nonpayable","inputs":[{"name":"amountOut","type":"uint256"},{"name":"amountInMax","type":"uint256"},` + pathIn + `,` + toDeadline + `],"outputs":` + amountsOut + `},
{"type":"function","name":"swapExactTokensForETH","stateMutability":"nonpayable","inputs":[{"name":"amountIn","type":"uint256"},{"name":"amountOutMin","type":"uint256"},` + pathIn + `,` + toDeadline + `],"outputs":` + amountsOut + `},
{"type":"function","name":"swapETHForExactTokens","stateMutability":"payable","inputs":[{"name":"amountOut","type":"uint256"},` + pathIn + `,` + toDeadline + `],"outputs":` + amountsOut + `},
{"type":"function","name":"quote","stateMutability":"pure","inputs":[{"name":"amountA","type":"uint256"},{"name":"reserveA","type":"uint256"},{"name":"reserveB","type":"uint256"}],"outputs":[{"name":"amountB","type":"uint256"}]},
{"type":"function","name":"getAmountOut","stateMutability":"pure","inputs":[{"name":"amountIn","type":"uint256"},{"name":"reserveIn","type":"uint256"},{"name":"reserveOut","type":"uint256"}],"outputs":[{"name":"amountOut","type":"uint256"}]},
{"type":"function","name":"getAmountIn","stateMutability":"pure","inputs":[{"name":"amountOut","type":"uint256"},{"name":"reserveIn","type":"uint256"},{"name":"reserveOut","type":"uint256"}],"outputs":[{"name":"amountIn","type":"uint256"}]},
{"type":"function","name":"getAmountsOut","stateMutability":"view","inputs":[{"name":"amountIn","type":"uint256"},` + pathIn + `],"outputs":` + amountsOut + `},
{"type":"function","name":"getAmountsIn","stateMutability":"view","inputs":[{"name":"amountOut","type":"uint256"},` + pathIn + `],"outputs":` + amountsOut + `}
]`

const uniV3FactoryJSON = `[
{"type":"function","name":"getPool","stateMutability":"view","inputs":[{"name":"tokenA","type":"address"},{"name":"tokenB","type":"address"},{"name":"fee","type":"uint24"}],"outputs":[{"name":"pool","type":"address"}]},
{"type":"function","name":"createPool","stateMutability":"nonpayable","inputs":[{"name":"tokenA","type":"address"},{"name":"tokenB","type":"address"},{"name":"fee","type":"uint24"}],"outputs":[{"name":"pool","type":"address"}]},
{"type":"function","name":"feeAmountTickSpacing","stateMutability":"view","inputs":[{"name":"fee","type":"uint24"}],"outputs":[{"name":"","type":"int24"}]},
{"type":"function","name":"owner","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"event","name":"PoolCreated","anonymous":false,"inputs":[{"name":"token0","type":"address","indexed":true},{"name":"token1","type":"address","indexed":true},{"name":"fee","type":"uint24","indexed":true},{"name":"tickSpacing","type":"int24","indexed":false},{"name":"pool","type":"address","indexed":false}]}
]`

const uniV3PoolJSON = `[
{"type":"function","name":"factory","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"token0","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"token1","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"fee","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint24"}]},
{"type":"function","name":"tickSpacing","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"int24"}]},
{"type":"function","name":"maxLiquidityPerTick","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint128"}]},
{"type":"function","name":"slot0","stateMutability":"view","inputs":[],"outputs":[{"name":"sqrtPriceX96","type":"uint160"},{"name":"tick","type":"int24"},{"name":"observationIndex","type":"uint16"},{"name":"observationCardinality","type":"uint16"},{"name":"observationCardinalityNext","type":"uint16"},{"name":"feeProtocol","type":"uint8"},{"name":"unlocked","type":"bool"}]},
{"type":"function","name":"liquidity","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint128"}]},
{"type":"function","name":"feeGrowthGlobal0X128","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"feeGrowthGlobal1X128","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"ticks","stateMutability":"view","inputs":[{"name":"tick","type":"int24"}],"outputs":[{"name":"liquidityGross","type":"uint128"},{"name":"liquidityNet","type":"int128"},{"name":"feeGrowthOutside0X128","type":"uint256"},{"name":"feeGrowthOutside1X128","type":"uint256"},{"name":"tickCumulativeOutside","type":"int56"},{"name":"secondsPerLiquidityOutsideX128","type":"uint160"},{"name":"secondsOutside","type":"uint32"},{"name":"initialized","type":"bool"}]},
{"type":"function","name":"observe","stateMutability":"view","inputs":[{"name":"secondsAgos","type":"uint32[]"}],"outputs":[{"name":"tickCumulatives","type":"int56[]"},{"name":"secondsPerLiquidityCumulativeX128s","type":"uint160[]"}]},
{"type":"function","name":"initialize","stateMutability":"nonpayable","inputs":[{"name":"sqrtPriceX96","type":"uint160"}],"outputs":[]},
{"type":"function","name":"mint","stateMutability":"nonpayable","inputs":[{"name":"recipient","type":"address"},{"name":"tickLower","type":"int24"},{"name":"tickUpper","type":"int24"},{"name":"amount","type":"uint128"},{"name":"data","type":"bytes"}],"outputs":[{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]},
{"type":"function","name":"swap","stateMutability":"nonpayable","inputs":[{"name":"recipient","type":"address"},{"name":"zeroForOne","type":"bool"},{"name":"amountSpecified","type":"int256"},{"name":"sqrtPriceLimitX96","type":"uint160"},{"name":"data","type":"bytes"}],"outputs":[{"name":"amount0","type":"int256"},{"name":"amount1","type":"int256"}]},
{"type":"event","name":"Swap","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"recipient","type":"address","indexed":true},{"name":"amount0","type":"int256","indexed":false},{"name":"amount1","type":"int256","indexed":false},{"name":"sqrtPriceX96","type":"uint160","indexed":false},{"name":"liquidity","type":"uint128","indexed":false},{"name":"tick","type":"int24","indexed":false}]}
]`

const uniV3RouterJSON = `[
{"type":"function","name":"factory","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"WETH9","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"exactInputSingle","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"tokenIn","type":"address"},{"name":"tokenOut","type":"address"},{"name":"fee","type":"uint24"},{"name":"recipient","type":"address"},{"name":"deadline","type":"uint256"},{"name":"amountIn","type":"uint256"},{"name":"amountOutMinimum","type":"uint256"},{"name":"sqrtPriceLimitX96","type":"uint160"}]}],"outputs":[{"name":"amountOut","type":"uint256"}]},
{"type":"function","name":"exactInput","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"path","type":"bytes"},{"name":"recipient","type":"address"},{"name":"deadline","type":"uint256"},{"name":"amountIn","type":"uint256"},{"name":"amountOutMinimum","type":"uint256"}]}],"outputs":[{"name":"amountOut","type":"uint256"}]},
{"type":"function","name":"exactOutputSingle","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"tokenIn","type":"address"},{"name":"tokenOut","type":"address"},{"name":"fee","type":"uint24"},{"name":"recipient","type":"address"},{"name":"deadline","type":"uint256"},{"name":"amountOut","type":"uint256"},{"name":"amountInMaximum","type":"uint256"},{"name":"sqrtPriceLimitX96","type":"uint160"}]}],"outputs":[{"name":"amountIn","type":"uint256"}]},
{"type":"function","name":"exactOutput","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"path","type":"bytes"},{"name":"recipient","type":"address"},{"name":"deadline","type":"uint256"},{"name":"amountOut","type":"uint256"},{"name":"amountInMaximum","type":"uint256"}]}],"outputs":[{"name":"amountIn","type":"uint256"}]},
{"type":"function","name":"multicall","stateMutability":"payable","inputs":[{"name":"data","type":"bytes[]"}],"outputs":[{"name":"results","type":"bytes[]"}]},
{"type":"function","name":"refundETH","stateMutability":"payable","inputs":[],"outputs":[]},
{"type":"function","name":"unwrapWETH9","stateMutability":"payable","inputs":[{"name":"amountMinimum","type":"uint256"},{"name":"recipient","type":"address"}],"outputs":[]}
]`

const uniV3Router02JSON = `[
{"type":"function","name":"factory","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"WETH9","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"exactInputSingle","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"tokenIn","type":"address"},{"name":"tokenOut","type":"address"},{"name":"fee","type":"uint24"},{"name":"recipient","type":"address"},{"name":"amountIn","type":"uint256"},{"name":"amountOutMinimum","type":"uint256"},{"name":"sqrtPriceLimitX96","type":"uint160"}]}],"outputs":[{"name":"amountOut","type":"uint256"}]},
{"type":"function","name":"exactInput","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"path","type":"bytes"},{"name":"recipient","type":"address"},{"name":"amountIn","type":"uint256"},{"name":"amountOutMinimum","type":"uint256"}]}],"outputs":[{"name":"amountOut","type":"uint256"}]},
{"type":"function","name":"exactOutputSingle","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"tokenIn","type":"address"},{"name":"tokenOut","type":"address"},{"name":"fee","type":"uint24"},{"name":"recipient","type":"address"},{"name":"amountOut","type":"uint256"},{"name":"amountInMaximum","type":"uint256"},{"name":"sqrtPriceLimitX96","type":"uint160"}]}],"outputs":[{"name":"amountIn","type":"uint256"}]},
{"type":"function","name":"exactOutput","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"path","type":"bytes"},{"name":"recipient","type":"address"},{"name":"amountOut","type":"uint256"},{"name":"amountInMaximum","type":"uint256"}]}],"outputs":[{"name":"amountIn","type":"uint256"}]},
{"type":"function","name":"multicall","stateMutability":"payable","inputs":[{"name":"deadline","type":"uint256"},{"name":"data","type":"bytes[]"}],"outputs":[{"name":"","type":"bytes[]"}]}
]`

// QuoterV2's functions are not views (each runs the swap and reverts to
// read its result) but are meant for eth_call.
const uniV3QuoterV2JSON = `[
{"type":"function","name":"factory","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"quoteExactInput","stateMutability":"nonpayable","inputs":[{"name":"path","type":"bytes"},{"name":"amountIn","type":"uint256"}],"outputs":[{"name":"amountOut","type":"uint256"},{"name":"sqrtPriceX96AfterList","type":"uint160[]"},{"name":"initializedTicksCrossedList","type":"uint32[]"},{"name":"gasEstimate","type":"uint256"}]},
{"type":"function","name":"quoteExactOutput","stateMutability":"nonpayable","inputs":[{"name":"path","type":"bytes"},{"name":"amountOut","type":"uint256"}],"outputs":[{"name":"amountIn","type":"uint256"},{"name":"sqrtPriceX96AfterList","type":"uint160[]"},{"name":"initializedTicksCrossedList","type":"uint32[]"},{"name":"gasEstimate","type":"uint256"}]}
]`

const uniV3PositionsJSON = `[
{"type":"function","name":"factory","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"WETH9","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"ownerOf","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"tokenOfOwnerByIndex","stateMutability":"view","inputs":[{"name":"owner","type":"address"},{"name":"index","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"positions","stateMutability":"view","inputs":[{"name":"tokenId","type":"uint256"}],"outputs":[{"name":"nonce","type":"uint96"},{"name":"operator","type":"address"},{"name":"token0","type":"address"},{"name":"token1","type":"address"},{"name":"fee","type":"uint24"},{"name":"tickLower","type":"int24"},{"name":"tickUpper","type":"int24"},{"name":"liquidity","type":"uint128"},{"name":"feeGrowthInside0LastX128","type":"uint256"},{"name":"feeGrowthInside1LastX128","type":"uint256"},{"name":"tokensOwed0","type":"uint128"},{"name":"tokensOwed1","type":"uint128"}]},
{"type":"function","name":"mint","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"token0","type":"address"},{"name":"token1","type":"address"},{"name":"fee","type":"uint24"},{"name":"tickLower","type":"int24"},{"name":"tickUpper","type":"int24"},{"name":"amount0Desired","type":"uint256"},{"name":"amount1Desired","type":"uint256"},{"name":"amount0Min","type":"uint256"},{"name":"amount1Min","type":"uint256"},{"name":"recipient","type":"address"},{"name":"deadline","type":"uint256"}]}],"outputs":[{"name":"tokenId","type":"uint256"},{"name":"liquidity","type":"uint128"},{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]},
{"type":"function","name":"increaseLiquidity","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"tokenId","type":"uint256"},{"name":"amount0Desired","type":"uint256"},{"name":"amount1Desired","type":"uint256"},{"name":"amount0Min","type":"uint256"},{"name":"amount1Min","type":"uint256"},{"name":"deadline","type":"uint256"}]}],"outputs":[{"name":"liquidity","type":"uint128"},{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]},
{"type":"function","name":"decreaseLiquidity","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"tokenId","type":"uint256"},{"name":"liquidity","type":"uint128"},{"name":"amount0Min","type":"uint256"},{"name":"amount1Min","type":"uint256"},{"name":"deadline","type":"uint256"}]}],"outputs":[{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]},
{"type":"function","name":"collect","stateMutability":"payable","inputs":[{"name":"params","type":"tuple","components":[{"name":"tokenId","type":"uint256"},{"name":"recipient","type":"address"},{"name":"amount0Max","type":"uint128"},{"name":"amount1Max","type":"uint128"}]}],"outputs":[{"name":"amount0","type":"uint256"},{"name":"amount1","type":"uint256"}]},
{"type":"function","name":"multicall","stateMutability":"payable","inputs":[{"name":"data","type":"bytes[]"}],"outputs":[{"name":"results","type":"bytes[]"}]},
{"type":"function","name":"transferFrom","stateMutability":"nonpayable","inputs":[{"name":"from","type":"address"},{"name":"to","type":"address"},{"name":"tokenId","type":"uint256"}],"outputs":[]}
]`

const erc4626JSON = `[` + erc20Items + `,
{"type":"function","name":"asset","stateMutability":"view","inputs":[],"outputs":[{"name":"assetTokenAddress","type":"address"}]},
{"type":"function","name":"totalAssets","stateMutability":"view","inputs":[],"outputs":[{"name":"totalManagedAssets","type":"uint256"}]},
{"type":"function","name":"convertToShares","stateMutability":"view","inputs":[{"name":"assets","type":"uint256"}],"outputs":[{"name":"shares","type":"uint256"}]},
{"type":"function","name":"convertToAssets","stateMutability":"view","inputs":[{"name":"shares","type":"uint256"}],"outputs":[{"name":"assets","type":"uint256"}]},
{"type":"function","name":"maxDeposit","stateMutability":"view","inputs":[{"name":"receiver","type":"address"}],"outputs":[{"name":"maxAssets","type":"uint256"}]},
{"type":"function","name":"previewDeposit","stateMutability":"view","inputs":[{"name":"assets","type":"uint256"}],"outputs":[{"name":"shares","type":"uint256"}]},
{"type":"function","name":"deposit","stateMutability":"nonpayable","inputs":[{"name":"assets","type":"uint256"},{"name":"receiver","type":"address"}],"outputs":[{"name":"shares","type":"uint256"}]},
{"type":"function","name":"maxMint","stateMutability":"view","inputs":[{"name":"receiver","type":"address"}],"outputs":[{"name":"maxShares","type":"uint256"}]},
{"type":"function","name":"previewMint","stateMutability":"view","inputs":[{"name":"shares","type":"uint256"}],"outputs":[{"name":"assets","type":"uint256"}]},
{"type":"function","name":"mint","stateMutability":"nonpayable","inputs":[{"name":"shares","type":"uint256"},{"name":"receiver","type":"address"}],"outputs":[{"name":"assets","type":"uint256"}]},
{"type":"function","name":"maxWithdraw","stateMutability":"view","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"maxAssets","type":"uint256"}]},
{"type":"function","name":"previewWithdraw","stateMutability":"view","inputs":[{"name":"assets","type":"uint256"}],"outputs":[{"name":"shares","type":"uint256"}]},
{"type":"function","name":"withdraw","stateMutability":"nonpayable","inputs":[{"name":"assets","type":"uint256"},{"name":"receiver","type":"address"},{"name":"owner","type":"address"}],"outputs":[{"name":"shares","type":"uint256"}]},
{"type":"function","name":"maxRedeem","stateMutability":"view","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"maxShares","type":"uint256"}]},
{"type":"function","name":"previewRedeem","stateMutability":"view","inputs":[{"name":"shares","type":"uint256"}],"outputs":[{"name":"assets","type":"uint256"}]},
{"type":"function","name":"redeem","stateMutability":"nonpayable","inputs":[{"name":"shares","type":"uint256"},{"name":"receiver","type":"address"},{"name":"owner","type":"address"}],"outputs":[{"name":"assets","type":"uint256"}]},
{"type":"event","name":"Deposit","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"owner","type":"address","indexed":true},{"name":"assets","type":"uint256","indexed":false},{"name":"shares","type":"uint256","indexed":false}]},
{"type":"event","name":"Withdraw","anonymous":false,"inputs":[{"name":"sender","type":"address","indexed":true},{"name":"receiver","type":"address","indexed":true},{"name":"owner","type":"address","indexed":true},{"name":"assets","type":"uint256","indexed":false},{"name":"shares","type":"uint256","indexed":false}]}
]`

const aaveV3PoolJSON = `[
{"type":"function","name":"supply","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"amount","type":"uint256"},{"name":"onBehalfOf","type":"address"},{"name":"referralCode","type":"uint16"}],"outputs":[]},
{"type":"function","name":"withdraw","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"amount","type":"uint256"},{"name":"to","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"borrow","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"amount","type":"uint256"},{"name":"interestRateMode","type":"uint256"},{"name":"referralCode","type":"uint16"},{"name":"onBehalfOf","type":"address"}],"outputs":[]},
{"type":"function","name":"repay","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"amount","type":"uint256"},{"name":"interestRateMode","type":"uint256"},{"name":"onBehalfOf","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"liquidationCall","stateMutability":"nonpayable","inputs":[{"name":"collateralAsset","type":"address"},{"name":"debtAsset","type":"address"},{"name":"user","type":"address"},{"name":"debtToCover","type":"uint256"},{"name":"receiveAToken","type":"bool"}],"outputs":[]},
{"type":"function","name":"setUserUseReserveAsCollateral","stateMutability":"nonpayable","inputs":[{"name":"asset","type":"address"},{"name":"useAsCollateral","type":"bool"}],"outputs":[]},
{"type":"function","name":"getUserAccountData","stateMutability":"view","inputs":[{"name":"user","type":"address"}],"outputs":[{"name":"totalCollateralBase","type":"uint256"},{"name":"totalDebtBase","type":"uint256"},{"name":"availableBorrowsBase","type":"uint256"},{"name":"currentLiquidationThreshold","type":"uint256"},{"name":"ltv","type":"uint256"},{"name":"healthFactor","type":"uint256"}]},
{"type":"function","name":"getReserveData","stateMutability":"view","inputs":[{"name":"asset","type":"address"}],"outputs":[{"name":"","type":"tuple","components":[{"name":"configuration","type":"tuple","components":[{"name":"data","type":"uint256"}]},{"name":"liquidityIndex","type":"uint128"},{"name":"currentLiquidityRate","type":"uint128"},{"name":"variableBorrowIndex","type":"uint128"},{"name":"currentVariableBorrowRate","type":"uint128"},{"name":"currentStableBorrowRate","type":"uint128"},{"name":"lastUpdateTimestamp","type":"uint40"},{"name":"id","type":"uint16"},{"name":"aTokenAddress","type":"address"},{"name":"stableDebtTokenAddress","type":"address"},{"name":"variableDebtTokenAddress","type":"address"},{"name":"interestRateStrategyAddress","type":"address"},{"name":"accruedToTreasury","type":"uint128"},{"name":"unbacked","type":"uint128"},{"name":"isolationModeTotalDebt","type":"uint128"}]}]},
{"type":"function","name":"getReservesList","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address[]"}]},
{"type":"event","name":"Supply","anonymous":false,"inputs":[{"name":"reserve","type":"address","indexed":true},{"name":"user","type":"address","indexed":false},{"name":"onBehalfOf","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false},{"name":"referralCode","type":"uint16","indexed":true}]},
{"type":"event","name":"Withdraw","anonymous":false,"inputs":[{"name":"reserve","type":"address","indexed":true},{"name":"user","type":"address","indexed":true},{"name":"to","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false}]},
{"type":"event","name":"Borrow","anonymous":false,"inputs":[{"name":"reserve","type":"address","indexed":true},{"name":"user","type":"address","indexed":false},{"name":"onBehalfOf","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false},{"name":"interestRateMode","type":"uint8","indexed":false},{"name":"borrowRate","type":"uint256","indexed":false},{"name":"referralCode","type":"uint16","indexed":true}]},
{"type":"event","name":"Repay","anonymous":false,"inputs":[{"name":"reserve","type":"address","indexed":true},{"name":"user","type":"address","indexed":true},{"name":"repayer","type":"address","indexed":true},{"name":"amount","type":"uint256","indexed":false},{"name":"useATokens","type":"bool","indexed":false}]}
]`

const knownErrorsJSON = `[
{"type":"error","name":"ERC20InsufficientBalance","inputs":[{"name":"sender","type":"address"},{"name":"balance","type":"uint256"},{"name":"needed","type":"uint256"}]},
{"type":"error","name":"ERC20InvalidSender","inputs":[{"name":"sender","type":"address"}]},
{"type":"error","name":"ERC20InvalidReceiver","inputs":[{"name":"receiver","type":"address"}]},
{"type":"error","name":"ERC20InsufficientAllowance","inputs":[{"name":"spender","type":"address"},{"name":"allowance","type":"uint256"},{"name":"needed","type":"uint256"}]},
{"type":"error","name":"ERC20InvalidApprover","inputs":[{"name":"approver","type":"address"}]},
{"type":"error","name":"ERC20InvalidSpender","inputs":[{"name":"spender","type":"address"}]},
{"type":"error","name":"SafeERC20FailedOperation","inputs":[{"name":"token","type":"address"}]},
{"type":"error","name":"OwnableUnauthorizedAccount","inputs":[{"name":"account","type":"address"}]},
{"type":"error","name":"ERC2612ExpiredSignature","inputs":[{"name":"deadline","type":"uint256"}]},
{"type":"error","name":"ERC2612InvalidSigner","inputs":[{"name":"signer","type":"address"},{"name":"owner","type":"address"}]},
{"type":"error","name":"AllowanceExpired","inputs":[{"name":"deadline","type":"uint256"}]},
{"type":"error","name":"InsufficientAllowance","inputs":[{"name":"amount","type":"uint256"}]}
]`
