package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// SentState is where a signed transaction of ward's is: in flight from
// the moment it is journaled (before it is broadcast) until ward knows
// what became of it. The zero value is in flight, the safe reading: a
// wallet with a transaction in flight sends nothing new until it is
// settled.
type SentState uint8

// Sent transaction states. Mined and reverted hold the nonce for good;
// dropped (another transaction took the nonce) and refused (the node
// would not take it) free it.
const (
	SentInFlight SentState = iota
	SentMined
	SentReverted
	SentDropped
	SentRefused
	numSentStates
)

var sentStateNames = [numSentStates]string{"in_flight", "mined", "reverted", "dropped", "refused"}

// String returns the state's name as the store keeps it.
func (s SentState) String() string {
	if s < numSentStates {
		return sentStateNames[s]
	}
	return fmt.Sprintf("SentState(%d)", uint8(s))
}

// Valid reports whether s is one of the states.
func (s SentState) Valid() bool { return s < numSentStates }

// Final reports whether s is a settled state.
func (s SentState) Final() bool { return s > SentInFlight && s < numSentStates }

// MarshalText encodes the state as its name.
func (s SentState) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("store: marshal sent state %d: out of range", uint8(s))
	}
	return []byte(s.String()), nil
}

// ParseSentState returns the state named s.
func ParseSentState(s string) (SentState, error) {
	for i, n := range sentStateNames {
		if n == s {
			return SentState(i), nil
		}
	}
	return 0, fmt.Errorf("store: unknown sent state %q", s)
}

// SentTx is one signed transaction in the send journal: which wallet
// (chain and sender), which nonce, its hash and exact signed bytes, the
// permit it executes and its place in that permit's plan, and its state.
// Addresses and hashes are lower-case 0x hex.
type SentTx struct {
	ChainID  uint64
	From     string
	Nonce    uint64
	Hash     string
	Raw      []byte // the signed transaction as broadcast (EIP-2718 binary)
	PermitID string
	Index    int // position in the plan, from 0
	PlanLen  int // transactions in the plan
	Label    string
	State    SentState
	Block    uint64 // the block it was mined in (mined or reverted)
	Created  time.Time
	Settled  time.Time // zero while in flight
}

// ErrSentSettled is returned when a transaction already settled is
// settled again with another outcome.
var ErrSentSettled = errors.New("the transaction is already settled")

// SentTxs is the send journal: the durable record, written before a
// signed transaction leaves the process, that lets ward know after a
// crash which of its transactions may be on chain. Every write is durable
// when it returns nil.
type SentTxs interface {
	// JournalTx stores t in flight. It refuses, writing nothing, a record
	// without chain, sender, hash, raw bytes or permit, one not in flight,
	// one whose hash exists, and one whose nonce a transaction of the same
	// wallet in flight, mined or reverted holds: two live records never
	// share a nonce.
	JournalTx(ctx context.Context, t *SentTx) error
	// SettleTx moves the in-flight transaction hash of chainID to the
	// final state (block for mined and reverted) at at, in one conditional
	// update. Settling again with the same state and block is a no-op;
	// with another, ErrSentSettled. ErrNotFound for an unknown hash.
	SettleTx(ctx context.Context, chainID uint64, hash string, state SentState, block uint64, at time.Time) error
	// OpenTxs returns the wallet's transactions in flight, by nonce, and
	// the nonce after the highest one it holds (in flight, mined or
	// reverted; 0 when none).
	OpenTxs(ctx context.Context, chainID uint64, from string) (open []SentTx, next uint64, err error)
	// PermitTxs returns every journaled transaction of the permit, in any
	// state, by chain and nonce.
	PermitTxs(ctx context.Context, permitID string) ([]SentTx, error)
}
