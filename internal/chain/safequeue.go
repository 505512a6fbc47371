package chain

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"
)

// MemSafeQueue is a SafeQueue in memory: for the dev chain, which does
// not outlive the process either, and tests. A chain that outlives ward
// needs a durable one (the store's). The zero value is empty and ready;
// it is safe for concurrent use.
type MemSafeQueue struct {
	mu sync.Mutex
	m  map[common.Hash]*SafeProposal
}

var _ SafeQueue = (*MemSafeQueue)(nil)

func (q *MemSafeQueue) ProposeSafeTx(_ context.Context, p *SafeProposal) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.m == nil {
		q.m = map[common.Hash]*SafeProposal{}
	}
	if _, ok := q.m[p.Hash]; ok {
		return fmt.Errorf("propose safe tx: %s is already queued", p.Hash.Hex())
	}
	c := *p
	c.Signatures = slices.Clone(p.Signatures)
	q.m[p.Hash] = &c
	return nil
}

func (q *MemSafeQueue) SafeTx(_ context.Context, h common.Hash) (SafeProposal, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	p, ok := q.m[h]
	if !ok {
		return SafeProposal{}, ErrSafeTxUnknown
	}
	c := *p
	c.Signatures = slices.Clone(p.Signatures)
	return c, nil
}

func (q *MemSafeQueue) AddSafeSignature(_ context.Context, h common.Hash, s SafeSignature) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	p, err := q.pending(h)
	if err != nil {
		return err
	}
	for _, o := range p.Signatures {
		if o.Owner == s.Owner {
			return ErrSafeSignedTwice
		}
	}
	p.Signatures = append(p.Signatures, s)
	return nil
}

func (q *MemSafeQueue) SafeTxExecuted(_ context.Context, h, tx common.Hash) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	p, err := q.pending(h)
	if err != nil {
		return err
	}
	p.Executed = tx
	return nil
}

// pending returns the queued proposal h if it is not executed yet, else
// ErrSafeTxUnknown or ErrSafeTxDone. q.mu must be held.
func (q *MemSafeQueue) pending(h common.Hash) (*SafeProposal, error) {
	p, ok := q.m[h]
	if !ok {
		return nil, ErrSafeTxUnknown
	}
	if p.Executed != (common.Hash{}) {
		return nil, ErrSafeTxDone
	}
	return p, nil
}

func (q *MemSafeQueue) PendingSafeTxs(_ context.Context, chainID uint64, safe common.Address) ([]SafeProposal, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []SafeProposal
	for _, p := range q.m {
		if p.Executed == (common.Hash{}) && p.Tx.ChainID == chainID && p.Tx.Safe == safe {
			out = append(out, *p)
		}
	}
	slices.SortFunc(out, func(a, b SafeProposal) int { return cmp.Compare(a.Tx.Nonce, b.Tx.Nonce) })
	return out, nil
}
