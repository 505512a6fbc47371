// Package lido holds the catalogue's Lido liquid staking tools: staking
// ETH for stETH, wrapping stETH into wstETH and back, and the withdrawal
// queue (requesting withdrawals, reading their status, claiming finalized
// ones), with the reads an agent needs around them.
//
// What they rely on in Lido's contracts (the mainnet interfaces):
//   - stETH is rebasing: an account holds shares, and its balance is
//     shares x total pooled ether / total shares, rounded down. Moving an
//     amount of stETH moves the shares it buys, rounded down, so a sender's
//     balance falls by at most the amount and a receiver's rises by the
//     pooled ether of the shares received. The plans declare exactly
//     those bounds, computed with the contract's own getters
//     (getSharesByPooledEth, getPooledEthByShares), and the write checks
//     them against the measured balances.
//   - wstETH is one stETH share per token (getStETHByWstETH,
//     stEthPerToken).
//   - The withdrawal queue takes requests of MIN_STETH_WITHDRAWAL_AMOUNT
//     to MAX_STETH_WITHDRAWAL_AMOUNT stETH each (a larger amount is split
//     into several requests in one call), finalizes them in order, and
//     pays min(stETH requested, shares x the finalization's share rate):
//     rewards earned while waiting are not paid. A claim names each
//     request's checkpoint hint (findCheckpointHints).
//
// The deployment is named by the withdrawal queue alone (the address
// book's lido_withdrawal_queue); stETH and wstETH are read from it
// (STETH(), WSTETH()), so a call cannot be steered to another token.
// Lido has no APR getter; lido_get_staking_info gives the APR of its
// latest oracle report, from the TokenRebased event stETH logs (see
// apr.go). Values are the ETH the tokens redeem for on Lido, priced with
// the ETH/USD feed.
package lido

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

// Tools are the Lido reads and writes, registered where the chain has a
// Lido withdrawal queue.
func Tools() []native.Maker {
	return []native.Maker{info, position, requests, stake, wrap, unwrap, requestWithdrawal, claim}
}

func hasLido(env *native.Env) bool { return env.Venues.LidoWithdrawalQueue != (common.Address{}) }

// lidoJSON is the part of Lido's mainnet interfaces the tools use: stETH
// (Lido), wstETH and WithdrawalQueueERC721, in one ABI (their names do not
// clash).
const lidoJSON = `[
{"type":"function","name":"submit","stateMutability":"payable","inputs":[{"name":"_referral","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getSharesByPooledEth","stateMutability":"view","inputs":[{"name":"_ethAmount","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getPooledEthByShares","stateMutability":"view","inputs":[{"name":"_sharesAmount","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"sharesOf","stateMutability":"view","inputs":[{"name":"_account","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"_account","type":"address"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getTotalPooledEther","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getTotalShares","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"isStakingPaused","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"getCurrentStakeLimit","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"wrap","stateMutability":"nonpayable","inputs":[{"name":"_stETHAmount","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"unwrap","stateMutability":"nonpayable","inputs":[{"name":"_wstETHAmount","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getWstETHByStETH","stateMutability":"view","inputs":[{"name":"_stETHAmount","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getStETHByWstETH","stateMutability":"view","inputs":[{"name":"_wstETHAmount","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"stEthPerToken","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"STETH","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"WSTETH","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"address"}]},
{"type":"function","name":"MIN_STETH_WITHDRAWAL_AMOUNT","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"MAX_STETH_WITHDRAWAL_AMOUNT","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"isPaused","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"bool"}]},
{"type":"function","name":"getLastRequestId","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getLastFinalizedRequestId","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"getLastCheckpointIndex","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"unfinalizedStETH","stateMutability":"view","inputs":[],"outputs":[{"name":"","type":"uint256"}]},
{"type":"function","name":"requestWithdrawals","stateMutability":"nonpayable","inputs":[{"name":"_amounts","type":"uint256[]"},{"name":"_owner","type":"address"}],"outputs":[{"name":"requestIds","type":"uint256[]"}]},
{"type":"function","name":"getWithdrawalRequests","stateMutability":"view","inputs":[{"name":"_owner","type":"address"}],"outputs":[{"name":"requestsIds","type":"uint256[]"}]},
{"type":"function","name":"getWithdrawalStatus","stateMutability":"view","inputs":[{"name":"_requestIds","type":"uint256[]"}],"outputs":[{"name":"statuses","type":"tuple[]","components":[{"name":"amountOfStETH","type":"uint256"},{"name":"amountOfShares","type":"uint256"},{"name":"owner","type":"address"},{"name":"timestamp","type":"uint256"},{"name":"isFinalized","type":"bool"},{"name":"isClaimed","type":"bool"}]}]},
{"type":"function","name":"findCheckpointHints","stateMutability":"view","inputs":[{"name":"_requestIds","type":"uint256[]"},{"name":"_firstIndex","type":"uint256"},{"name":"_lastIndex","type":"uint256"}],"outputs":[{"name":"hintIds","type":"uint256[]"}]},
{"type":"function","name":"getClaimableEther","stateMutability":"view","inputs":[{"name":"_requestIds","type":"uint256[]"},{"name":"_hints","type":"uint256[]"}],"outputs":[{"name":"claimableEthValues","type":"uint256[]"}]},
{"type":"function","name":"claimWithdrawals","stateMutability":"nonpayable","inputs":[{"name":"_requestIds","type":"uint256[]"},{"name":"_hints","type":"uint256[]"}],"outputs":[]}
]`

var lidoABI = native.NewABI(lidoJSON)

// call reads a single integer from a Lido contract, callAddress a single
// address, callAny any outputs; tx packs one transaction of a plan to a
// Lido contract.
var (
	call        = lidoABI.CallBig
	callAddress = lidoABI.CallAddress
	callAny     = lidoABI.Call
	tx          = lidoABI.Tx
)

// deployment is a Lido deployment as its withdrawal queue names it.
type deployment struct {
	queue, stETH, wstETH common.Address
}

// resolve reads stETH and wstETH from the configured withdrawal queue.
func resolve(ctx context.Context, env *native.Env) (deployment, error) {
	d := deployment{queue: env.Venues.LidoWithdrawalQueue}
	var err error
	if d.stETH, err = callAddress(ctx, env, d.queue, "STETH"); err != nil {
		return d, fmt.Errorf("%s is not a Lido withdrawal queue: %w", d.queue.Hex(), err)
	}
	if d.wstETH, err = callAddress(ctx, env, d.queue, "WSTETH"); err != nil {
		return d, fmt.Errorf("%s is not a Lido withdrawal queue: %w", d.queue.Hex(), err)
	}
	if d.stETH == (common.Address{}) || d.wstETH == (common.Address{}) {
		return d, fmt.Errorf("the Lido withdrawal queue %s names no stETH or wstETH", d.queue.Hex())
	}
	return d, nil
}
