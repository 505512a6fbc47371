package chain

import (
	"context"
	"math/big"
)

// Block pinning. A read that makes several calls (an account's data, then
// each reserve's, then their prices) must see one state: read at "latest"
// one by one, a block mined between two calls mixes two states. A pinned
// context names the block every state read of a Provider answers at:
// Call, CallAt with a nil block, BalanceOf, TokenBalance, Code and
// HeaderLatest read block n instead of the latest. Pins are per chain, so
// a read that spans chains pins each one. The catalogue pins each read
// tool's execution and each write's plan once, at its start
// (Provider.PinLatest); whatever the tool calls underneath inherits it.

type pinKey struct{}

// pins maps chain id to pinned block. It is never changed once in a
// context: Pin copies it.
type pins map[uint64]uint64

// Pin returns ctx with block n of chain chainID pinned.
func Pin(ctx context.Context, chainID, n uint64) context.Context {
	old, _ := ctx.Value(pinKey{}).(pins)
	next := make(pins, len(old)+1)
	for k, v := range old {
		next[k] = v
	}
	next[chainID] = n
	return context.WithValue(ctx, pinKey{}, next)
}

// Pinned returns the block of chain chainID ctx is pinned to, if any.
func Pinned(ctx context.Context, chainID uint64) (uint64, bool) {
	ps, _ := ctx.Value(pinKey{}).(pins)
	n, ok := ps[chainID]
	return n, ok
}

// PinLatest returns ctx pinned to the latest block of p's chain, asked
// of the node once now, and that block's number. A ctx already pinned on this chain
// is returned as it is, with its block: a read within a read, or within a
// preview pinned to its block, stays on the outer one.
func (p *Provider) PinLatest(ctx context.Context) (context.Context, uint64, error) {
	if n, ok := Pinned(ctx, p.chainID); ok {
		return ctx, n, nil
	}
	// Asked afresh, not the cached latest header: a read made right after
	// a transaction must see it, as an unpinned read at "latest" did.
	var n uint64
	if err := p.do(ctx, "block number", func(ctx context.Context, e *endpoint) (err error) {
		n, err = e.ec.BlockNumber(ctx)
		return err
	}); err != nil {
		return ctx, 0, err
	}
	return Pin(ctx, p.chainID, n), n, nil
}

// at is the block a state read with ctx answers at: the pinned one, or
// nil (the latest).
func (p *Provider) at(ctx context.Context) *big.Int {
	if n, ok := Pinned(ctx, p.chainID); ok {
		return new(big.Int).SetUint64(n)
	}
	return nil
}

// Unpinned returns ctx without any pin: for work that outlives the read
// that started it (a subscription's later polls), which must pin blocks
// of its own.
func Unpinned(ctx context.Context) context.Context {
	if _, ok := ctx.Value(pinKey{}).(pins); !ok {
		return ctx
	}
	return context.WithValue(ctx, pinKey{}, pins(nil))
}
