package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/lru"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/consensus/misc/eip4844"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
	"github.com/lmittmann/w3/w3types"
	"github.com/lmittmann/w3/w3vm"

	"github.com/wardhq/ward/internal/tool"
)

// SimConfig configures a Simulator. The zero value is usable.
type SimConfig struct {
	// Forks is how many forked block states are kept (default 8). A fork
	// is the state read so far at one block of one chain; simulations at
	// the same block share it, so only the first one pays for the reads.
	Forks int
}

// Simulator runs plans on forked chain state (w3vm: go-ethereum's EVM
// over state read from the provider at the latest block). It is safe for
// concurrent use.
type Simulator struct {
	ps *Providers

	mu    sync.Mutex
	forks lru.BasicLRU[forkKey, *fork]
	jumps map[uint64]*jumpCache // by chain
}

type forkKey struct{ chain, block uint64 }

// NewSimulator returns a simulator over the chains in ps.
func NewSimulator(ps *Providers, cfg SimConfig) (*Simulator, error) {
	if ps == nil {
		return nil, errors.New("new simulator: no providers")
	}
	if cfg.Forks < 0 {
		return nil, errors.New("new simulator: negative fork cache size")
	}
	if cfg.Forks == 0 {
		cfg.Forks = 8
	}
	return &Simulator{ps: ps, forks: lru.NewBasicLRU[forkKey, *fork](cfg.Forks), jumps: map[uint64]*jumpCache{}}, nil
}

// BalanceDelta is how a simulation changed the sender's balance of one
// token (the zero address is native ETH, excluding gas fees).
type BalanceDelta struct {
	Token  tool.Address `json:"token"`
	Before *big.Int     `json:"before"`
	After  *big.Int     `json:"after"`
	Delta  *big.Int     `json:"delta"`
}

// SimResult is what a plan's transactions would do if sent now.
type SimResult struct {
	// OK is true when every transaction succeeded.
	OK bool `json:"ok"`
	// Reverted is the index of the first failing transaction, -1 if none.
	Reverted int `json:"reverted"`
	// RevertReason is the decoded reason of the failure (contract text:
	// untrusted), or why the transaction could not be included.
	RevertReason string        `json:"revert_reason,omitempty"`
	RevertData   tool.HexBytes `json:"revert_data,omitempty"`
	// GasUsed is the gas of each transaction run (up to the failing one);
	// TotalGas is their sum.
	GasUsed  []uint64 `json:"gas_used"`
	TotalGas uint64   `json:"total_gas"`
	// Outputs are the return data of each transaction run.
	Outputs []tool.HexBytes `json:"outputs,omitempty"`
	// Deltas are the sender's balance changes of the watched tokens, in
	// the order asked, measured after the last transaction run.
	Deltas []BalanceDelta `json:"deltas"`
	// Block is the block whose state the simulation forked.
	Block uint64 `json:"block"`

	// peakGas is the gas each transaction run needed at its peak, before
	// refunds: the least gas limit it runs with (an ERC-4337 wallet's
	// callGasLimit, accountPlan).
	peakGas []uint64
}

// Simulate runs txs from `from` in sequence on one fork of chainID's
// latest state, so later transactions see earlier ones' effects (an
// approve, then a swap). watch lists tokens whose balance of `from` to
// diff; the zero address means native ETH. Gas is not charged (the base
// fee is ignored), so the ETH delta is the value moved; GasUsed reports
// the gas.
//
// A transaction that reverts or could not be included (insufficient
// funds) ends the run with OK false; that is a result. An error means the
// simulation could not run: unknown chain, state that could not be read,
// or a watched token that does not answer balanceOf.
func (s *Simulator) Simulate(ctx context.Context, chainID uint64, from tool.Address, txs []tool.Tx, watch []tool.Address) (SimResult, error) {
	res := SimResult{Reverted: -1}
	if len(txs) == 0 {
		return res, errors.New("simulate: no transactions")
	}
	f, err := s.fork(ctx, chainID)
	if err != nil {
		return res, fmt.Errorf("simulate: %w", err)
	}
	res.Block = f.block
	sender := common.Address(from)
	f.prefetch(ctx, sender, txs, watch)
	view := &fetchView{f: f, ctx: ctx}
	hdr := types.CopyHeader(f.next)
	hdr.Time = max(hdr.Time, uint64(time.Now().Unix()))
	opts := []w3vm.Option{w3vm.WithFetcher(view)}
	if asContract, err := contractSender(view, sender); err != nil {
		return res, fmt.Errorf("simulate: %w", err)
	} else if asContract {
		opts = append(opts, w3vm.WithState(w3types.State{sender: {Code: []byte{}}}))
	}
	evm, err := w3vm.New(append(opts,
		w3vm.WithHeader(hdr),
		w3vm.WithChainConfig(f.p.ChainConfig()),
		w3vm.WithNoBaseFee(),
		w3vm.WithJumpDestCache(f.jumps),
	)...)
	if err != nil {
		return res, fmt.Errorf("simulate: %w", err)
	}
	before := make([]*big.Int, len(watch))
	for i, tok := range watch {
		if before[i], err = balanceIn(evm, view, sender, tok); err != nil {
			return res, fmt.Errorf("simulate: %w", err)
		}
	}
	gasCap := min(hdr.GasLimit, params.MaxTxGas)
	res.OK = true
	for i, t := range txs {
		to := common.Address(t.To)
		r, err := evm.Apply(&w3types.Message{From: sender, To: &to, Value: t.Value, Input: t.Data, Gas: gasCap})
		if view.err != nil {
			return res, fmt.Errorf("simulate: tx %d: %w", i, view.err)
		}
		if r == nil {
			if err == nil || errors.Is(err, w3vm.ErrFetch) {
				return res, fmt.Errorf("simulate: tx %d: %w", i, err)
			}
			// A consensus error: the transaction could not be included.
			res.OK, res.Reverted, res.RevertReason = false, i, err.Error()
			break
		}
		res.GasUsed = append(res.GasUsed, r.GasUsed)
		res.peakGas = append(res.peakGas, max(r.MaxGasUsed, r.GasUsed))
		res.TotalGas += r.GasUsed
		res.Outputs = append(res.Outputs, tool.HexBytes(r.Output))
		if r.Err != nil {
			re := DecodeRevert(r.Output)
			res.OK, res.Reverted, res.RevertData = false, i, re.Data
			res.RevertReason = re.Reason
			if res.RevertReason == "" {
				res.RevertReason = "reverted without a reason"
			}
			break
		}
	}
	for i, tok := range watch {
		after, err := balanceIn(evm, view, sender, tok)
		if err != nil {
			return res, fmt.Errorf("simulate: %w", err)
		}
		res.Deltas = append(res.Deltas, BalanceDelta{Token: tok, Before: before[i], After: after,
			Delta: new(big.Int).Sub(after, before[i])})
	}
	return res, nil
}

// contractSender reports whether sender is a contract (other than an
// EIP-7702 delegated account): a Safe whose plan is simulated as calls
// from its address. The simulation then runs with the sender's code
// removed, since a transaction cannot come from a contract (EIP-3607):
// the calls see the Safe as msg.sender and its balances, as they will
// when execTransaction makes them, but not execTransaction's own
// signature check and gas, nor the Safe's code run on a call back to
// it (a receive of ETH, which the Safe accepts).
func contractSender(view *fetchView, sender common.Address) (bool, error) {
	acc, err := view.Account(sender)
	if err != nil {
		return false, err
	}
	if acc == nil || bytes.Equal(acc.CodeHash, types.EmptyCodeHash[:]) {
		return false, nil
	}
	code, err := view.Code(common.BytesToHash(acc.CodeHash))
	if err != nil {
		return false, err
	}
	_, delegated := types.ParseDelegation(code)
	return len(code) > 0 && !delegated, nil
}

// balanceIn reads owner's balance of token (zero: ETH) inside the VM.
func balanceIn(evm *w3vm.VM, view *fetchView, owner common.Address, token tool.Address) (*big.Int, error) {
	if token.IsZero() {
		b, err := evm.Balance(owner)
		if view.err != nil {
			err = view.err
		}
		return b, err
	}
	data, err := ERC20ABI().Pack("balanceOf", owner)
	if err != nil {
		return nil, err
	}
	to := common.Address(token)
	r, err := evm.Call(&w3types.Message{From: owner, To: &to, Input: data})
	if view.err != nil {
		return nil, view.err
	}
	if err != nil || r == nil || len(r.Output) < 32 {
		return nil, fmt.Errorf("watched token %s does not answer balanceOf", token)
	}
	return new(big.Int).SetBytes(r.Output[:32]), nil
}

// fork returns the fork of chainID's latest block, creating it if needed.
func (s *Simulator) fork(ctx context.Context, chainID uint64) (*fork, error) {
	p, err := s.ps.Get(chainID)
	if err != nil {
		return nil, err
	}
	latest, err := p.HeaderLatest(ctx)
	if err != nil {
		return nil, err
	}
	key := forkKey{chainID, latest.Number.Uint64()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.forks.Get(key); ok {
		return f, nil
	}
	jumps := s.jumps[chainID]
	if jumps == nil {
		jumps = &jumpCache{lru: lru.NewBasicLRU[common.Hash, vm.BitVec](4096)}
		s.jumps[chainID] = jumps
	}
	f := &fork{
		p: p, block: key.block, next: nextHeader(p.ChainConfig(), latest), jumps: jumps,
		accounts: map[common.Address]*types.StateAccount{},
		code:     map[common.Hash][]byte{},
		storage:  map[storageKey]common.Hash{},
		hashes:   map[uint64]common.Hash{key.block: latest.Hash()},
	}
	s.forks.Add(key, f)
	return f, nil
}

// nextHeader is the header of the block after parent as far as the EVM
// can see it: number, time, gas limit, base fee, blob fee, randomness.
func nextHeader(cfg *params.ChainConfig, parent *types.Header) *types.Header {
	h := &types.Header{
		ParentHash: parent.Hash(),
		Number:     new(big.Int).Add(parent.Number, big.NewInt(1)),
		Time:       parent.Time + 1,
		GasLimit:   parent.GasLimit,
		Coinbase:   parent.Coinbase,
		Difficulty: new(big.Int),
		MixDigest:  parent.MixDigest,
	}
	if cfg.IsLondon(h.Number) && parent.BaseFee != nil {
		h.BaseFee = eip1559.CalcBaseFee(cfg, parent)
	}
	if cfg.IsCancun(h.Number, h.Time) && parent.ExcessBlobGas != nil && parent.BlobGasUsed != nil {
		excess := eip4844.CalcExcessBlobGas(cfg, parent, h.Time)
		h.ExcessBlobGas = &excess
		var used uint64
		h.BlobGasUsed = &used
	}
	return h
}

// fork is the state of one block of one chain as read so far. Its maps
// only grow; reads that failed are not cached.
type fork struct {
	p     *Provider
	block uint64
	next  *types.Header
	jumps *jumpCache

	mu       sync.RWMutex
	accounts map[common.Address]*types.StateAccount // nil value: no such account
	code     map[common.Hash][]byte
	storage  map[storageKey]common.Hash
	hashes   map[uint64]common.Hash
}

type storageKey struct {
	addr common.Address
	slot common.Hash
}

// fetchView is one simulation's access to a fork: it implements
// w3vm.Fetcher, whose methods take no context, by carrying the
// simulation's ctx for the duration of the Simulate call that made it,
// and records the first read failure.
type fetchView struct {
	f   *fork
	ctx context.Context
	err error
}

var _ w3vm.Fetcher = (*fetchView)(nil)

func (v *fetchView) fail(err error) error {
	if v.err == nil {
		v.err = err
	}
	return err
}

func (v *fetchView) Account(addr common.Address) (*types.StateAccount, error) {
	f := v.f
	f.mu.RLock()
	acc, ok := f.accounts[addr]
	f.mu.RUnlock()
	if !ok {
		nonce, bal, code, err := f.p.account(v.ctx, addr, f.block)
		if err != nil {
			return nil, v.fail(fmt.Errorf("read account %s at block %d: %w", addr, f.block, err))
		}
		if nonce != 0 || bal.Sign() != 0 || len(code) != 0 {
			acc = &types.StateAccount{Nonce: nonce, Balance: uint256.MustFromBig(bal), CodeHash: types.EmptyCodeHash[:]}
			if len(code) > 0 {
				acc.CodeHash = crypto.Keccak256(code)
			}
		}
		f.mu.Lock()
		f.accounts[addr] = acc
		if acc != nil && len(code) > 0 {
			f.code[common.BytesToHash(acc.CodeHash)] = code
		}
		f.mu.Unlock()
	}
	if acc == nil {
		return nil, nil
	}
	return &types.StateAccount{Nonce: acc.Nonce, Balance: new(uint256.Int).Set(acc.Balance), Root: acc.Root, CodeHash: acc.CodeHash}, nil
}

func (v *fetchView) Code(h common.Hash) ([]byte, error) {
	if h == types.EmptyCodeHash {
		return nil, nil
	}
	v.f.mu.RLock()
	code, ok := v.f.code[h]
	v.f.mu.RUnlock()
	if !ok {
		// Code is read with its account, so this is a bug, not a node
		// failure.
		return nil, v.fail(fmt.Errorf("code %s asked for before its account", h))
	}
	return code, nil
}

func (v *fetchView) StorageAt(addr common.Address, slot common.Hash) (common.Hash, error) {
	f := v.f
	k := storageKey{addr, slot}
	f.mu.RLock()
	val, ok := f.storage[k]
	f.mu.RUnlock()
	if ok {
		return val, nil
	}
	val, err := f.p.storageAt(v.ctx, addr, slot, f.block)
	if err != nil {
		return common.Hash{}, v.fail(fmt.Errorf("read storage of %s at block %d: %w", addr, f.block, err))
	}
	f.mu.Lock()
	f.storage[k] = val
	f.mu.Unlock()
	return val, nil
}

func (v *fetchView) HeaderHash(n uint64) (common.Hash, error) {
	f := v.f
	f.mu.RLock()
	h, ok := f.hashes[n]
	f.mu.RUnlock()
	if ok {
		return h, nil
	}
	hdr, err := f.p.HeaderByNumber(v.ctx, n)
	if err != nil {
		// BLOCKHASH of an unknown block is zero; not a reason to fail.
		return common.Hash{}, nil
	}
	h = hdr.Hash()
	f.mu.Lock()
	f.hashes[n] = h
	f.mu.Unlock()
	return h, nil
}

// jumpCache keeps the jumpdest analysis of contract code by code hash
// for one chain; code is immutable, so the analysis outlives forks.
type jumpCache struct {
	mu  sync.Mutex
	lru lru.BasicLRU[common.Hash, vm.BitVec]
}

var _ vm.JumpDestCache = (*jumpCache)(nil)

func (c *jumpCache) Load(h common.Hash) (vm.BitVec, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Get(h)
}

func (c *jumpCache) Store(h common.Hash, v vm.BitVec) {
	c.mu.Lock()
	c.lru.Add(h, v)
	c.mu.Unlock()
}
