package native

import (
	"context"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/tool"
)

// LazyABI is a protocol's contract interface, parsed once on first use,
// with the calls a protocol package makes through it: the helpers each
// package would otherwise write around its own sync.OnceValues. A JSON
// error is returned by every call. It is safe for concurrent use.
type LazyABI struct {
	parse func() (*chain.ABI, error)
}

// NewLazyABI returns the interface of the ABI JSON js.
func NewLazyABI(js string) LazyABI {
	return LazyABI{parse: sync.OnceValues(func() (*chain.ABI, error) { return chain.ParseABI(js) })}
}

// Call runs a view and decodes its outputs.
func (l LazyABI) Call(ctx context.Context, env *Env, to common.Address, method string, args ...any) ([]any, error) {
	a, err := l.parse()
	if err != nil {
		return nil, err
	}
	return Call(ctx, env.Chain, a, to, method, args...)
}

// CallBig runs a view whose first output is an integer.
func (l LazyABI) CallBig(ctx context.Context, env *Env, to common.Address, method string, args ...any) (*big.Int, error) {
	a, err := l.parse()
	if err != nil {
		return nil, err
	}
	return CallBig(ctx, env, a, to, method, args...)
}

// Tx encodes a call of method on to as a plan's transaction.
func (l LazyABI) Tx(to common.Address, label, method string, args ...any) (tool.Tx, error) {
	a, err := l.parse()
	if err != nil {
		return tool.Tx{}, err
	}
	return Tx(a, to, label, method, args...)
}
