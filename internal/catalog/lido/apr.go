package lido

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

// Lido's APR is not a getter: Lido computes it from its oracle reports,
// each of which stETH logs as TokenRebased(reportTimestamp, timeElapsed,
// preTotalShares, preTotalEther, postTotalShares, postTotalEther,
// sharesMintedAsFees). The stakers' APR of one report is the rise of the
// share rate (ether per share, after the protocol's fee shares) over the
// time the report covers, annualised: (post/pre - 1) x year / timeElapsed.
// ward reports the latest report's, found in a bounded window of recent
// blocks, and none when there is no such report there.

var tokenRebased = crypto.Keccak256Hash([]byte("TokenRebased(uint256,uint256,uint256,uint256,uint256,uint256,uint256)"))

// The window searched for the latest report: aprWindows ranges of
// aprWindowBlocks, newest first (Lido reports daily, about 7,200 blocks).
const (
	aprWindowBlocks = 5_000
	aprWindows      = 4
	secondsPerYear  = 365 * 24 * 60 * 60
)

// report is the APR of one oracle report.
type report struct {
	Block       uint64  `json:"block"`
	ElapsedSecs uint64  `json:"time_elapsed_seconds"`
	APRPercent  float64 `json:"apr_percent"`
}

// lastReport returns the APR of the latest oracle report of stETH within
// the window, and false when there is none (or the node refuses logs).
func lastReport(ctx context.Context, env *native.Env, stETH common.Address) (report, bool) {
	head, err := native.Head(ctx, env)
	if err != nil {
		return report{}, false
	}
	to := head.Number.Uint64()
	for range aprWindows {
		from := uint64(0)
		if to >= aprWindowBlocks {
			from = to - aprWindowBlocks + 1
		}
		logs, err := env.Chain.Logs(ctx, ethereum.FilterQuery{FromBlock: new(big.Int).SetUint64(from), ToBlock: new(big.Int).SetUint64(to),
			Addresses: []common.Address{stETH}, Topics: [][]common.Hash{{tokenRebased}}})
		if err != nil {
			return report{}, false
		}
		for i := len(logs) - 1; i >= 0; i-- {
			if r, ok := aprOf(logs[i].Data); ok {
				r.Block = logs[i].BlockNumber
				return r, true
			}
		}
		if from == 0 {
			break
		}
		to = from - 1
	}
	return report{}, false
}

// aprOf reads a TokenRebased log's data (six words after the indexed
// timestamp); false for a report over no time or an empty pool.
func aprOf(data []byte) (report, bool) {
	if len(data) != 6*32 {
		return report{}, false
	}
	word := func(i int) *big.Int { return new(big.Int).SetBytes(data[i*32 : (i+1)*32]) }
	elapsed, preShares, preEther, postShares, postEther := word(0), word(1), word(2), word(3), word(4)
	if elapsed.Sign() == 0 || !elapsed.IsUint64() || preShares.Sign() == 0 || preEther.Sign() == 0 || postShares.Sign() == 0 {
		return report{}, false
	}
	// post/pre = postEther x preShares / (postShares x preEther)
	ratio := new(big.Rat).SetFrac(new(big.Int).Mul(postEther, preShares), new(big.Int).Mul(postShares, preEther))
	ratio.Sub(ratio, big.NewRat(1, 1))
	ratio.Mul(ratio, big.NewRat(secondsPerYear*100, 1))
	ratio.Quo(ratio, new(big.Rat).SetInt(elapsed))
	pct, _ := ratio.Float64()
	return report{ElapsedSecs: elapsed.Uint64(), APRPercent: pct}, true
}
