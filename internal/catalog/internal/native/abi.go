package native

import (
	"context"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/tool"
)

// LazyABI is a protocol's ABI fragment, parsed on first use and then
// kept. Its methods are Call, CallBig, CallAddress and Tx with that ABI;
// each fails with the parse error when the fragment does not parse.
// It is safe for concurrent use.
type LazyABI func() (*chain.ABI, error)

// NewABI returns the LazyABI of a JSON ABI fragment.
func NewABI(fragment string) LazyABI {
	return sync.OnceValues(func() (*chain.ABI, error) { return chain.ParseABI(fragment) })
}

// Call runs a view of to and decodes its outputs (see Call).
func (l LazyABI) Call(ctx context.Context, env *Env, to common.Address, method string, args ...any) ([]any, error) {
	a, err := l()
	if err != nil {
		return nil, err
	}
	return Call(ctx, env.Chain, a, to, method, args...)
}

// CallBig runs a view of to whose first output is an integer.
func (l LazyABI) CallBig(ctx context.Context, env *Env, to common.Address, method string, args ...any) (*big.Int, error) {
	a, err := l()
	if err != nil {
		return nil, err
	}
	return CallBig(ctx, env, a, to, method, args...)
}

// CallAddress runs a view of to whose first output is an address.
func (l LazyABI) CallAddress(ctx context.Context, env *Env, to common.Address, method string, args ...any) (common.Address, error) {
	a, err := l()
	if err != nil {
		return common.Address{}, err
	}
	return CallAddress(ctx, env, a, to, method, args...)
}

// Tx packs one transaction of a plan to to.
func (l LazyABI) Tx(to common.Address, label, method string, args ...any) (tool.Tx, error) {
	a, err := l()
	if err != nil {
		return tool.Tx{}, err
	}
	return Tx(a, to, label, method, args...)
}
