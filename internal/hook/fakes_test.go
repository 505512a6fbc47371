package hook_test

import (
	"context"
	"errors"
	"math/big"
	"sync/atomic"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/tool"
)

// fakeSim is a Simulator with a canned answer: res and err, or, when
// block is set, nothing until ctx ends. It reports the deltas of plan
// tokens from deltas (watch order), and counts its calls.
type fakeSim struct {
	res    hook.SimResult
	deltas map[tool.Address]int64
	err    error
	block  bool
	calls  atomic.Int64
}

func (f *fakeSim) Simulate(ctx context.Context, chainID uint64, from tool.Address, txs []tool.Tx, watch []tool.Address) (hook.SimResult, error) {
	f.calls.Add(1)
	if f.block {
		<-ctx.Done()
		return hook.SimResult{}, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return hook.SimResult{}, err
	}
	if f.err != nil {
		return hook.SimResult{}, f.err
	}
	r := f.res
	r.Deltas = nil
	for _, w := range watch {
		d, ok := f.deltas[w]
		if !ok {
			continue
		}
		r.Deltas = append(r.Deltas, hook.BalanceDelta{Token: w, Before: big.NewInt(1_000_000), After: big.NewInt(1_000_000 + d), Delta: big.NewInt(d)})
	}
	return r, nil
}

// okSim simulates the default plans successfully: TKN leaves by exactly
// the amount the caller says, ETH arrives.
func okSim(out int64) *fakeSim {
	return &fakeSim{
		res:    hook.SimResult{OK: true, GasUsed: []uint64{46000, 120000}, TotalGas: 166000},
		deltas: map[tool.Address]int64{hooktest.Token: -out, {}: 1},
	}
}

// token is what fakeReader knows of one token.
type token struct {
	symbol   string
	decimals uint8
	balance  *big.Int
}

// fakeReader is a ChainReader over fixed state. Addresses in code have
// contract code; err fails every read.
type fakeReader struct {
	code   map[tool.Address]bool
	tokens map[tool.Address]token
	err    error
	reads  atomic.Int64
}

var errNoToken = errors.New("no such token")

func (f *fakeReader) Code(ctx context.Context, chainID uint64, addr tool.Address) ([]byte, error) {
	f.reads.Add(1)
	if err := f.fail(ctx); err != nil {
		return nil, err
	}
	if f.code[addr] {
		return []byte{0x60, 0x80}, nil
	}
	return nil, nil
}

func (f *fakeReader) TokenMeta(ctx context.Context, chainID uint64, t tool.Address) (string, uint8, error) {
	f.reads.Add(1)
	if err := f.fail(ctx); err != nil {
		return "", 0, err
	}
	tok, ok := f.tokens[t]
	if !ok {
		return "", 0, errNoToken
	}
	return tok.symbol, tok.decimals, nil
}

func (f *fakeReader) BalanceOf(ctx context.Context, chainID uint64, t, owner tool.Address) (*big.Int, error) {
	f.reads.Add(1)
	if err := f.fail(ctx); err != nil {
		return nil, err
	}
	tok, ok := f.tokens[t]
	if !ok {
		return nil, errNoToken
	}
	return new(big.Int).Set(tok.balance), nil
}

func (f *fakeReader) fail(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return f.err
}

// chainState is a reader that agrees with the default plans: Token and
// Router have code, TKN has 18 decimals and the wallet holds balance.
func chainState(balance int64) *fakeReader {
	return &fakeReader{
		code: map[tool.Address]bool{hooktest.Token: true, hooktest.Router: true},
		tokens: map[tool.Address]token{
			hooktest.Token: {"TKN", 18, big.NewInt(balance)},
			{}:             {"ETH", 18, big.NewInt(1e18)},
		},
	}
}
