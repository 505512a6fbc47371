package daemon

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// safeQueue is the store's queue of Safe transactions as a wallet's
// chain.SafeQueue, converting between chain's typed values and the
// store's plain ones, and the store's sentinels to chain's.
type safeQueue struct {
	s   store.SafeTxs
	now func() time.Time
}

var _ chain.SafeQueue = safeQueue{}

func lowerHex(a common.Address) string { return strings.ToLower(a.Hex()) }

// storedAddress reads back an address ward stored with lowerHex. A
// malformed one (a damaged or edited row) is an error naming the field,
// never common.HexToAddress's silent zero or truncated address: a queued
// transaction must not be proposed, signed or observed for an address its
// record does not hold.
func storedAddress(field, s string) (common.Address, error) {
	a, err := tool.ParseAddress(s)
	if err != nil {
		return common.Address{}, fmt.Errorf("stored %s: %w", field, err)
	}
	return common.Address(a), nil
}

// safeErr maps the store's outcomes to chain's sentinels, keeping both
// in the chain of errors.
func safeErr(err error) error {
	switch {
	case errors.Is(err, store.ErrNotFound):
		return fmt.Errorf("%w: %w", chain.ErrSafeTxUnknown, err)
	case errors.Is(err, store.ErrSafeTxExecuted):
		return fmt.Errorf("%w: %w", chain.ErrSafeTxDone, err)
	case errors.Is(err, store.ErrSafeSignedTwice):
		return fmt.Errorf("%w: %w", chain.ErrSafeSignedTwice, err)
	}
	return err
}

func (q safeQueue) ProposeSafeTx(ctx context.Context, p *chain.SafeProposal) error {
	value := p.Tx.Value
	if value == nil {
		value = new(big.Int)
	}
	t := &store.SafeTx{
		Hash: p.Hash.Hex(), ChainID: p.Tx.ChainID, Safe: lowerHex(p.Tx.Safe), Nonce: p.Tx.Nonce, To: lowerHex(p.Tx.To),
		Value: value.String(), Data: p.Tx.Data, PermitID: p.PermitID, Index: p.Index, PlanLen: p.PlanLen, Label: p.Label,
		Created: q.now(),
	}
	for _, s := range p.Signatures {
		t.Signatures = append(t.Signatures, store.SafeSignature{Owner: lowerHex(s.Owner), Sig: s.Sig, At: t.Created})
	}
	return safeErr(q.s.ProposeSafeTx(ctx, t))
}

func (q safeQueue) SafeTx(ctx context.Context, hash common.Hash) (chain.SafeProposal, error) {
	t, err := q.s.SafeTx(ctx, hash.Hex())
	if err != nil {
		return chain.SafeProposal{}, safeErr(err)
	}
	return proposalOf(t)
}

func proposalOf(t store.SafeTx) (chain.SafeProposal, error) {
	value, ok := new(big.Int).SetString(t.Value, 10)
	if !ok {
		return chain.SafeProposal{}, fmt.Errorf("safe tx %s: stored value %q", t.Hash, t.Value)
	}
	safe, err := storedAddress("safe", t.Safe)
	if err != nil {
		return chain.SafeProposal{}, fmt.Errorf("safe tx %s: %w", t.Hash, err)
	}
	to, err := storedAddress("to", t.To)
	if err != nil {
		return chain.SafeProposal{}, fmt.Errorf("safe tx %s: %w", t.Hash, err)
	}
	p := chain.SafeProposal{
		Hash: common.HexToHash(t.Hash),
		Tx: chain.SafeTx{Safe: safe, ChainID: t.ChainID, To: to, Value: value,
			Data: t.Data, Nonce: t.Nonce},
		PermitID: t.PermitID, Index: t.Index, PlanLen: t.PlanLen, Label: t.Label, Created: t.Created,
	}
	if t.Executed != "" {
		p.Executed = common.HexToHash(t.Executed)
	}
	for _, s := range t.Signatures {
		owner, err := storedAddress("signer", s.Owner)
		if err != nil {
			return chain.SafeProposal{}, fmt.Errorf("safe tx %s: %w", t.Hash, err)
		}
		p.Signatures = append(p.Signatures, chain.SafeSignature{Owner: owner, Sig: s.Sig})
	}
	return p, nil
}

func (q safeQueue) AddSafeSignature(ctx context.Context, hash common.Hash, s chain.SafeSignature) error {
	return safeErr(q.s.AddSafeSignature(ctx, hash.Hex(), store.SafeSignature{Owner: lowerHex(s.Owner), Sig: s.Sig, At: q.now()}))
}

func (q safeQueue) SafeTxExecuted(ctx context.Context, hash, tx common.Hash) error {
	return safeErr(q.s.SafeTxExecuted(ctx, hash.Hex(), tx.Hex(), q.now()))
}

func (q safeQueue) PendingSafeTxs(ctx context.Context, chainID uint64, safe common.Address) ([]chain.SafeProposal, error) {
	ts, err := q.s.PendingSafeTxs(ctx, chainID, lowerHex(safe))
	if err != nil {
		return nil, err
	}
	out := make([]chain.SafeProposal, 0, len(ts))
	for _, t := range ts {
		p, err := proposalOf(t)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}
