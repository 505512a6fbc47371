package chain

// Uniswap V4: fragments of the mainnet interfaces of StateView
// (0x7fFE42C4a5DEeA5b0feC41C94C136Cf115597227), V4Quoter
// (0x52F0E24D1c21C8A0cB1e5a5dD6198556BD9E1203) and the Universal Router
// (v2, 0x66a9893cC07D91D95644AEDD05D03f95e1dBA8Af), checked against the
// ABIs their npm packages publish in abi_test.go. A pool is named by its
// PoolKey (currency0, currency1, fee, tickSpacing, hooks), its id is
// keccak256(abi.encode(key)).

const poolKeyTuple = `{"name":"poolKey","type":"tuple","components":[{"name":"currency0","type":"address"},{"name":"currency1","type":"address"},{"name":"fee","type":"uint24"},{"name":"tickSpacing","type":"int24"},{"name":"hooks","type":"address"}]}`

// UniswapV4StateViewABI is v4-periphery's StateView: a pool's slot0 and
// liquidity by pool id.
func UniswapV4StateViewABI() *ABI { return uniV4StateViewABI() }

// UniswapV4QuoterABI is v4-periphery's V4Quoter: an exact-input quote
// through one pool, read with eth_call (the quoter simulates the swap and
// reverts with the result).
func UniswapV4QuoterABI() *ABI { return uniV4QuoterABI() }

// UniversalRouterABI is the Universal Router's execute with a deadline
// and the errors a V4 swap through it raises.
func UniversalRouterABI() *ABI { return universalRouterABI() }

// UniswapV4ActionsABI holds the encodings of the V4 router's action
// parameters as pseudo-functions, whose calldata after the selector is
// abi.encode of the arguments: exactInSingle(ExactInputSingleParams) for
// SWAP_EXACT_IN_SINGLE, currencyAmount(currency, amount) for SETTLE_ALL and
// TAKE_ALL, and actions(actions, params) for the V4_SWAP command's input.
func UniswapV4ActionsABI() *ABI { return uniV4ActionsABI() }

var (
	uniV4ActionsABI = onceABI(`[
{"type":"function","name":"exactInSingle","inputs":[{"name":"params","type":"tuple","components":[` + poolKeyTuple + `,{"name":"zeroForOne","type":"bool"},{"name":"amountIn","type":"uint128"},{"name":"amountOutMinimum","type":"uint128"},{"name":"hookData","type":"bytes"}]}],"outputs":[]},
{"type":"function","name":"currencyAmount","inputs":[{"name":"currency","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[]},
{"type":"function","name":"actions","inputs":[{"name":"actions","type":"bytes"},{"name":"params","type":"bytes[]"}],"outputs":[]}]`)
	uniV4StateViewABI = onceABI(`[
{"type":"function","name":"getSlot0","stateMutability":"view","inputs":[{"name":"poolId","type":"bytes32"}],"outputs":[{"name":"sqrtPriceX96","type":"uint160"},{"name":"tick","type":"int24"},{"name":"protocolFee","type":"uint24"},{"name":"lpFee","type":"uint24"}]},
{"type":"function","name":"getLiquidity","stateMutability":"view","inputs":[{"name":"poolId","type":"bytes32"}],"outputs":[{"name":"liquidity","type":"uint128"}]},
{"type":"function","name":"poolManager","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]}]`)
	uniV4QuoterABI = onceABI(`[
{"type":"function","name":"quoteExactInputSingle","stateMutability":"nonpayable","inputs":[{"name":"params","type":"tuple","components":[` + poolKeyTuple + `,{"name":"zeroForOne","type":"bool"},{"name":"exactAmount","type":"uint128"},{"name":"hookData","type":"bytes"}]}],"outputs":[{"name":"amountOut","type":"uint256"},{"name":"gasEstimate","type":"uint256"}]},
{"type":"function","name":"poolManager","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]}]`)
	universalRouterABI = onceABI(`[
{"type":"function","name":"execute","stateMutability":"payable","inputs":[{"name":"commands","type":"bytes"},{"name":"inputs","type":"bytes[]"},{"name":"deadline","type":"uint256"}],"outputs":[]},
{"type":"error","name":"V4TooLittleReceived","inputs":[{"name":"minAmountOutReceived","type":"uint256"},{"name":"amountReceived","type":"uint256"}]},
{"type":"error","name":"TransactionDeadlinePassed","inputs":[]},
{"type":"error","name":"ExecutionFailed","inputs":[{"name":"commandIndex","type":"uint256"},{"name":"message","type":"bytes"}]}]`)
)
