package chain

import (
	"context"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"
)

// Logs returns the logs q matches (eth_getLogs). Callers bound q's block
// range: public nodes refuse wide ones.
func (p *Provider) Logs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	var out []types.Log
	err := p.do(ctx, "logs", func(ctx context.Context, e *endpoint) (err error) {
		out, err = e.ec.FilterLogs(ctx, q)
		return err
	})
	return out, err
}
