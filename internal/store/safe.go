package store

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"time"
)

// SafeTx is a Safe transaction ward signed that awaits the other owners'
// signatures (chain.SafeProposal, in the store's types): the Safe, its
// nonce and the call, the permit whose plan it is part of, the owners'
// signatures in the order they arrived (ward's first), and, once
// executed, the hash of the execTransaction that did. Addresses and
// hashes are lower-case 0x hex; Value is decimal wei.
type SafeTx struct {
	Hash       string
	ChainID    uint64
	Safe       string
	Nonce      uint64
	To         string
	Value      string
	Data       []byte
	PermitID   string
	Index      int
	PlanLen    int
	Label      string
	Signatures []SafeSignature
	Executed   string // "" while pending
	Created    time.Time
	ExecutedAt time.Time // zero while pending
}

// SafeSignature is one owner's 65-byte signature of a SafeTx.
type SafeSignature struct {
	Owner string
	Sig   []byte
	At    time.Time
}

// Errors of SafeTxs.
var (
	ErrSafeTxExecuted  = errors.New("the Safe transaction was already executed")
	ErrSafeSignedTwice = errors.New("the owner already signed this Safe transaction")
)

// SafeTxs is the queue of Safe transactions awaiting owners' signatures.
// Every write is durable when it returns nil. A backend implements it
// beside Store; the daemon finds it by type assertion.
type SafeTxs interface {
	// ProposeSafeTx stores t pending, with its signatures so far. It
	// refuses, writing nothing, an invalid record and a hash it holds.
	ProposeSafeTx(ctx context.Context, t *SafeTx) error
	// SafeTx returns the transaction hash with its signatures
	// (ErrNotFound for none).
	SafeTx(ctx context.Context, hash string) (SafeTx, error)
	// AddSafeSignature adds an owner's signature to the pending hash:
	// ErrSafeSignedTwice for an owner who signed, ErrSafeTxExecuted once
	// executed, ErrNotFound for an unknown hash.
	AddSafeSignature(ctx context.Context, hash string, s SafeSignature) error
	// SafeTxExecuted records hash executed by tx at at, in one
	// conditional update: ErrSafeTxExecuted if it already was.
	SafeTxExecuted(ctx context.Context, hash, tx string, at time.Time) error
	// PendingSafeTxs returns the Safe's pending transactions, by nonce.
	PendingSafeTxs(ctx context.Context, chainID uint64, safe string) ([]SafeTx, error)
}

var (
	hexAddr = regexp.MustCompile(`^0x[0-9a-f]{40}$`)
	hexHash = regexp.MustCompile(`^0x[0-9a-f]{64}$`)
)

// Validate checks a record before ProposeSafeTx stores it.
func (t *SafeTx) Validate() error {
	v, ok := new(big.Int).SetString(t.Value, 10)
	switch {
	case !hexHash.MatchString(t.Hash):
		return fmt.Errorf("safe tx: hash %q is not lower-case 0x hex of 32 bytes", t.Hash)
	case t.ChainID == 0:
		return errors.New("safe tx: no chain")
	case !hexAddr.MatchString(t.Safe) || !hexAddr.MatchString(t.To):
		return errors.New("safe tx: the Safe and the target must be lower-case 0x addresses")
	case !ok || v.Sign() < 0:
		return fmt.Errorf("safe tx: value %q is not a non-negative decimal", t.Value)
	case t.PermitID == "":
		return errors.New("safe tx: no permit")
	case t.Index < 0 || t.PlanLen <= t.Index:
		return fmt.Errorf("safe tx: index %d of a plan of %d", t.Index, t.PlanLen)
	case t.Executed != "" || !t.ExecutedAt.IsZero():
		return errors.New("safe tx: a proposal is pending")
	case t.Created.IsZero():
		return errors.New("safe tx: no creation time")
	}
	for _, s := range t.Signatures {
		if err := s.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks a signature before it is stored.
func (s *SafeSignature) Validate() error {
	switch {
	case !hexAddr.MatchString(s.Owner):
		return fmt.Errorf("safe signature: owner %q is not a lower-case 0x address", s.Owner)
	case len(s.Sig) != 65:
		return fmt.Errorf("safe signature: %d bytes, want 65", len(s.Sig))
	case s.At.IsZero():
		return errors.New("safe signature: no time")
	}
	return nil
}
