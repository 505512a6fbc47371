package chain

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/wardhq/ward/internal/tool"
)

// maxBatch bounds one JSON-RPC batch (providers commonly cap batches at
// 100 to 1,000 requests).
const maxBatch = 100

// prefetch warms a fork before the EVM runs on it: it asks the node for
// the access list of each transaction (eth_createAccessList) and reads
// every account and slot listed in a few batch requests, instead of one
// round trip per read during execution. It runs only when the fork has
// not seen the plan's contracts yet, and is best effort: whatever it
// misses is read lazily.
func (f *fork) prefetch(ctx context.Context, from common.Address, txs []tool.Tx, watch []tool.Address) {
	f.mu.RLock()
	seen := true
	for _, t := range txs {
		if _, ok := f.accounts[common.Address(t.To)]; !ok {
			seen = false
		}
	}
	f.mu.RUnlock()
	if seen {
		return
	}
	block := hexutil.EncodeUint64(f.block)
	lists := make([]struct {
		AccessList types.AccessList `json:"accessList"`
	}, len(txs))
	elems := make([]rpc.BatchElem, len(txs))
	for i, t := range txs {
		arg := map[string]any{"from": from, "to": common.Address(t.To), "input": hexutil.Bytes(t.Data)}
		if t.Value != nil {
			arg["value"] = (*hexutil.Big)(t.Value)
		}
		elems[i] = rpc.BatchElem{Method: "eth_createAccessList", Args: []any{arg, block}, Result: &lists[i]}
	}
	if f.p.RPC().BatchCallContext(ctx, elems) != nil {
		return
	}

	addrs := map[common.Address]bool{from: true}
	slots := map[storageKey]bool{}
	for _, t := range txs {
		addrs[common.Address(t.To)] = true
	}
	for _, w := range watch {
		if !w.IsZero() {
			addrs[common.Address(w)] = true
		}
	}
	for i := range lists {
		if elems[i].Error != nil {
			continue // a reverting transaction still ran; use what came back
		}
		for _, e := range lists[i].AccessList {
			addrs[e.Address] = true
			for _, k := range e.StorageKeys {
				slots[storageKey{e.Address, k}] = true
			}
		}
	}
	f.mu.RLock()
	for a := range addrs {
		if _, ok := f.accounts[a]; ok {
			delete(addrs, a)
		}
	}
	for k := range slots {
		if _, ok := f.storage[k]; ok {
			delete(slots, k)
		}
	}
	f.mu.RUnlock()

	type account struct {
		addr  common.Address
		nonce hexutil.Uint64
		bal   hexutil.Big
		code  hexutil.Bytes
	}
	type slot struct {
		key storageKey
		val common.Hash
	}
	accs := make([]*account, 0, len(addrs))
	sls := make([]*slot, 0, len(slots))
	var reqs []rpc.BatchElem
	for a := range addrs {
		acc := &account{addr: a}
		accs = append(accs, acc)
		reqs = append(reqs,
			rpc.BatchElem{Method: "eth_getTransactionCount", Args: []any{a, block}, Result: &acc.nonce},
			rpc.BatchElem{Method: "eth_getBalance", Args: []any{a, block}, Result: &acc.bal},
			rpc.BatchElem{Method: "eth_getCode", Args: []any{a, block}, Result: &acc.code})
	}
	for k := range slots {
		s := &slot{key: k}
		sls = append(sls, s)
		reqs = append(reqs, rpc.BatchElem{Method: "eth_getStorageAt", Args: []any{k.addr, k.slot, block}, Result: &s.val})
	}
	failed := map[int]bool{}
	for start := 0; start < len(reqs); start += maxBatch {
		end := min(start+maxBatch, len(reqs))
		if err := f.p.RPC().BatchCallContext(ctx, reqs[start:end]); err != nil {
			for i := start; i < end; i++ {
				failed[i] = true
			}
		}
	}
	for i := range reqs {
		if reqs[i].Error != nil {
			failed[i] = true
		}
	}

	f.mu.Lock()
	defer f.mu.Unlock()
	for i, acc := range accs {
		if failed[3*i] || failed[3*i+1] || failed[3*i+2] {
			continue
		}
		if _, ok := f.accounts[acc.addr]; ok {
			continue
		}
		bal := (*big.Int)(&acc.bal)
		if acc.nonce == 0 && bal.Sign() == 0 && len(acc.code) == 0 {
			f.accounts[acc.addr] = nil
			continue
		}
		sa := &types.StateAccount{Nonce: uint64(acc.nonce), Balance: uint256.MustFromBig(bal), CodeHash: types.EmptyCodeHash[:]}
		if len(acc.code) > 0 {
			sa.CodeHash = crypto.Keccak256(acc.code)
			f.code[common.BytesToHash(sa.CodeHash)] = acc.code
		}
		f.accounts[acc.addr] = sa
	}
	for i, s := range sls {
		if !failed[3*len(accs)+i] {
			if _, ok := f.storage[s.key]; !ok {
				f.storage[s.key] = s.val
			}
		}
	}
}
