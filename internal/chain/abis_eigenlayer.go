package chain

import "sync"

// The EigenLayer fragments follow the core contracts' slashing release
// (v1.x, on mainnet since 2025), whose QueuedWithdrawalParams carry
// depositShares and whose completeQueuedWithdrawal has no
// middlewareTimesIndex. Strategies and tokens are plain addresses, as
// the ABI encodes IStrategy and IERC20.

// EigenStrategyManagerABI is EigenLayer's StrategyManager: deposits into
// strategies and the deposit shares they give.
func EigenStrategyManagerABI() *ABI { return eigenStrategyManagerABI() }

// EigenDelegationManagerABI is EigenLayer's DelegationManager: operators,
// delegation, and the withdrawal queue.
func EigenDelegationManagerABI() *ABI { return eigenDelegationManagerABI() }

// EigenStrategyABI is an EigenLayer strategy (StrategyBase): its
// underlying token and the conversion between shares and the underlying.
func EigenStrategyABI() *ABI { return eigenStrategyABI() }

var (
	eigenStrategyManagerABI   = sync.OnceValue(func() *ABI { return mustParseABI(eigenStrategyManagerJSON) })
	eigenDelegationManagerABI = sync.OnceValue(func() *ABI { return mustParseABI(eigenDelegationManagerJSON) })
	eigenStrategyABI          = sync.OnceValue(func() *ABI { return mustParseABI(eigenStrategyJSON) })
)

const eigenStrategyManagerJSON = `[
{"type":"event","name":"Deposit","anonymous":false,"inputs":[{"name":"staker","type":"address","indexed":false},{"name":"strategy","type":"address","indexed":false},{"name":"shares","type":"uint256","indexed":false}]},
{"type":"function","name":"delegation","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"depositIntoStrategy","stateMutability":"nonpayable","inputs":[{"name":"strategy","type":"address"},{"name":"token","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[{"name":"depositShares","type":"uint256"}]},
{"type":"function","name":"getDeposits","stateMutability":"view","inputs":[{"name":"staker","type":"address"}],"outputs":[{"name":"","type":"address[]"},{"name":"","type":"uint256[]"}]},
{"type":"function","name":"getStakerStrategyList","stateMutability":"view","inputs":[{"name":"staker","type":"address"}],"outputs":[{"name":"","type":"address[]"}]},
{"type":"function","name":"stakerDepositShares","stateMutability":"view","inputs":[{"name":"","type":"address"},{"name":"","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"stakerStrategyListLength","stateMutability":"view","inputs":[{"name":"staker","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"strategyIsWhitelistedForDeposit","stateMutability":"view","inputs":[{"name":"","type":"address"}],"outputs":[{"name":"","type":"bool"}]}
]`

const eigenDelegationManagerJSON = `[
{"type":"event","name":"OperatorRegistered","anonymous":false,"inputs":[{"name":"operator","type":"address","indexed":true},{"name":"delegationApprover","type":"address","indexed":false}]},
{"type":"event","name":"SlashingWithdrawalCompleted","anonymous":false,"inputs":[{"name":"withdrawalRoot","type":"bytes32","indexed":false}]},
{"type":"event","name":"SlashingWithdrawalQueued","anonymous":false,"inputs":[{"name":"withdrawalRoot","type":"bytes32","indexed":false},{"name":"withdrawal","type":"tuple","indexed":false,"components":[{"name":"staker","type":"address"},{"name":"delegatedTo","type":"address"},{"name":"withdrawer","type":"address"},{"name":"nonce","type":"uint256"},{"name":"startBlock","type":"uint32"},{"name":"strategies","type":"address[]"},{"name":"scaledShares","type":"uint256[]"}]},{"name":"sharesToWithdraw","type":"uint256[]","indexed":false}]},
{"type":"event","name":"StakerDelegated","anonymous":false,"inputs":[{"name":"staker","type":"address","indexed":true},{"name":"operator","type":"address","indexed":true}]},
{"type":"event","name":"StakerUndelegated","anonymous":false,"inputs":[{"name":"staker","type":"address","indexed":true},{"name":"operator","type":"address","indexed":true}]},
{"type":"function","name":"calculateWithdrawalRoot","stateMutability":"pure","inputs":[{"name":"withdrawal","type":"tuple","components":[{"name":"staker","type":"address"},{"name":"delegatedTo","type":"address"},{"name":"withdrawer","type":"address"},{"name":"nonce","type":"uint256"},{"name":"startBlock","type":"uint32"},{"name":"strategies","type":"address[]"},{"name":"scaledShares","type":"uint256[]"}]}],"outputs":[{"name":"","type":"bytes32"}]},
{"type":"function","name":"completeQueuedWithdrawal","stateMutability":"nonpayable","inputs":[{"name":"withdrawal","type":"tuple","components":[{"name":"staker","type":"address"},{"name":"delegatedTo","type":"address"},{"name":"withdrawer","type":"address"},{"name":"nonce","type":"uint256"},{"name":"startBlock","type":"uint32"},{"name":"strategies","type":"address[]"},{"name":"scaledShares","type":"uint256[]"}]},{"name":"tokens","type":"address[]"},{"name":"receiveAsTokens","type":"bool"}],"outputs":[]},
{"type":"function","name":"cumulativeWithdrawalsQueued","stateMutability":"view","inputs":[{"name":"","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"delegateTo","stateMutability":"nonpayable","inputs":[{"name":"operator","type":"address"},{"name":"","type":"tuple","components":[{"name":"signature","type":"bytes"},{"name":"expiry","type":"uint256"}]},{"name":"","type":"bytes32"}],"outputs":[]},
{"type":"function","name":"delegatedTo","stateMutability":"view","inputs":[{"name":"","type":"address"}],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"delegationApprover","stateMutability":"view","inputs":[{"name":"operator","type":"address"}],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"getQueuedWithdrawalRoots","stateMutability":"view","inputs":[{"name":"staker","type":"address"}],"outputs":[{"name":"","type":"bytes32[]"}]},
{"type":"function","name":"getQueuedWithdrawals","stateMutability":"view","inputs":[{"name":"staker","type":"address"}],"outputs":[{"name":"withdrawals","type":"tuple[]","components":[{"name":"staker","type":"address"},{"name":"delegatedTo","type":"address"},{"name":"withdrawer","type":"address"},{"name":"nonce","type":"uint256"},{"name":"startBlock","type":"uint32"},{"name":"strategies","type":"address[]"},{"name":"scaledShares","type":"uint256[]"}]},{"name":"shares","type":"uint256[][]"}]},
{"type":"function","name":"getWithdrawableShares","stateMutability":"view","inputs":[{"name":"staker","type":"address"},{"name":"strategies","type":"address[]"}],"outputs":[{"name":"withdrawableShares","type":"uint256[]"},{"name":"depositShares","type":"uint256[]"}]},
{"type":"function","name":"isDelegated","stateMutability":"view","inputs":[{"name":"staker","type":"address"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"isOperator","stateMutability":"view","inputs":[{"name":"operator","type":"address"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"minWithdrawalDelayBlocks","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint32"}]},
{"type":"function","name":"operatorShares","stateMutability":"view","inputs":[{"name":"","type":"address"},{"name":"","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"pendingWithdrawals","stateMutability":"view","inputs":[{"name":"","type":"bytes32"}],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"queueWithdrawals","stateMutability":"nonpayable","inputs":[{"name":"params","type":"tuple[]","components":[{"name":"strategies","type":"address[]"},{"name":"depositShares","type":"uint256[]"},{"name":"__deprecated_withdrawer","type":"address"}]}],"outputs":[{"name":"roots","type":"bytes32[]"}]},
{"type":"function","name":"registerAsOperator","stateMutability":"nonpayable","inputs":[{"name":"initDelegationApprover","type":"address"},{"name":"","type":"uint32"},{"name":"metadataURI","type":"string"}],"outputs":[]},
{"type":"function","name":"strategyManager","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]}
]`

const eigenStrategyJSON = `[
{"type":"function","name":"explanation","stateMutability":"pure","inputs":[],"outputs":[{"name":"","type":"string"}]},
{"type":"function","name":"shares","stateMutability":"view","inputs":[{"name":"user","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"sharesToUnderlyingView","stateMutability":"view","inputs":[{"name":"amountShares","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"totalShares","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"underlyingToSharesView","stateMutability":"view","inputs":[{"name":"amountUnderlying","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"underlyingToken","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"userUnderlyingView","stateMutability":"view","inputs":[{"name":"user","type":"address"}],"outputs":[{"name":"","type":"uint256"}]}
]`
