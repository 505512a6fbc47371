package ingest

import (
	"context"
	"errors"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/validate/onchain"
)

var _ onchain.Reader = (*chain.Provider)(nil)

// OnChain returns Stage 2's deterministic layer L3 (seed 4.3) as a
// validator: onchain.Checker over r (nil: the book alone decides), its
// contracts called through internal/chain's interfaces (cfg.Contracts is
// replaced). The validator is safe for concurrent use.
func OnChain(r onchain.Reader, cfg onchain.Config) Validator {
	cfg.Contracts = onchain.Contracts{ERC20: chain.ERC20ABI(), Aggregator: chain.AggregatorV3ABI(),
		UniswapV2Pair: chain.UniswapV2PairABI(), UniswapV3Pool: chain.UniswapV3PoolABI(), AaveV3Pool: chain.AaveV3PoolABI(),
		Reverted: chain.ErrReverted}
	return onChainLayer{c: onchain.New(r, cfg)}
}

// onChainLayer adapts an onchain.Checker to a Validator.
type onChainLayer struct{ c *onchain.Checker }

func (onChainLayer) Layer() knowledge.Layer { return knowledge.LayerOnChain }

func (l onChainLayer) Validate(ctx context.Context, c *Candidate, _ *Grimoire) (Vote, error) {
	if c == nil || c.Entry == nil {
		return Vote{}, errors.New("on-chain: no entry")
	}
	v, code, err := l.c.Vote(ctx, c.Entry)
	if err != nil {
		return Vote{}, err
	}
	return Vote{Layer: v.Layer, Pass: v.Pass, Skipped: v.Skipped, Score: v.Score, Reasons: v.Reasons, Decisive: v.Decisive,
		Scrutiny: v.Scrutiny, Signals: v.Signals, Code: code}, nil
}
