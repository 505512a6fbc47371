package chain

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/wardhq/ward/internal/tool"
)

// TxState is where a journaled transaction is. The zero value is in
// flight: what is not known to be settled is treated as possibly on its
// way to the chain.
type TxState uint8

// Journaled transaction states. Reverted is mined without its effect:
// status 0, or a handleOps whose operation failed in the account. Mined
// and reverted hold their nonce for good; dropped (another transaction took the nonce) and refused (the node
// would not take it) free it.
const (
	TxInFlight TxState = iota
	TxMined
	TxReverted
	TxDropped
	TxRefused
	numTxStates
)

var txStateNames = [numTxStates]string{"in_flight", "mined", "reverted", "dropped", "refused"}

// String returns the state's name.
func (s TxState) String() string {
	if s < numTxStates {
		return txStateNames[s]
	}
	return fmt.Sprintf("TxState(%d)", uint8(s))
}

// MarshalText encodes the state as its name.
func (s TxState) MarshalText() ([]byte, error) {
	if s >= numTxStates {
		return nil, fmt.Errorf("chain: marshal tx state %d: out of range", uint8(s))
	}
	return []byte(s.String()), nil
}

// Final reports whether s is a settled state.
func (s TxState) Final() bool { return s > TxInFlight && s < numTxStates }

// SentTx is one signed transaction of a Wallet as its Journal keeps it:
// the wallet (chain and sender), the nonce, the hash and the exact signed
// bytes, the permit whose plan it belongs to and its place in the plan.
type SentTx struct {
	ChainID  uint64
	From     common.Address
	Nonce    uint64
	Hash     common.Hash
	Raw      []byte // EIP-2718 binary, as broadcast
	PermitID string
	Index    int // position in the plan, from 0
	PlanLen  int
	Label    string
	State    TxState
	Block    uint64 // mined or reverted: the block
}

// Journal is where a Wallet writes each signed transaction before it is
// broadcast and what became of it after, so that a restart knows which
// transactions may be on chain. Writes must be durable when they return
// nil (the daemon backs it with the store's send journal).
type Journal interface {
	// JournalTx records t in flight. It must refuse a second live record
	// (in flight, mined or reverted) at t's nonce of t's wallet.
	JournalTx(ctx context.Context, t *SentTx) error
	// SettleTx records the final state of the in-flight transaction hash.
	SettleTx(ctx context.Context, chainID uint64, hash common.Hash, state TxState, block uint64) error
	// OpenTxs returns the wallet's transactions in flight, by nonce, and
	// the nonce after the highest one a live record holds (0: none).
	OpenTxs(ctx context.Context, chainID uint64, from common.Address) (open []SentTx, next uint64, err error)
}

// WalletLocker is implemented by a journal that several processes share:
// Send holds the wallet's lock around its whole plan, so that instances
// sending from one wallet take turns (each then sees the others' journaled
// transactions and the node's nonce) instead of racing for a nonce.
type WalletLocker interface {
	LockWallet(ctx context.Context, chainID uint64, from common.Address) (unlock func(), err error)
}

// ErrJournal marks a Send stopped because its journal could not be
// written: the transaction was not broadcast.
var ErrJournal = errors.New("the send journal could not be written")

// ErrInFlight marks a Send refused because a transaction of the wallet is
// still in flight (see InFlightError). It is tool.ErrInFlight, so the gate
// can tell this refusal from other handler failures without importing
// chain.
var ErrInFlight = tool.ErrInFlight

// InFlightError is a Send refused, before anything was signed, because a
// journaled transaction of the wallet is neither mined nor known to be
// dropped: sending a new plan could put a second effect on chain if the
// caller is retrying the first. It matches ErrInFlight.
type InFlightError struct {
	Hash     common.Hash
	Nonce    uint64
	PermitID string
}

func (e *InFlightError) Error() string {
	return fmt.Sprintf("send: transaction %s (nonce %d, permit %s) is still in flight; retry once it is mined or dropped", e.Hash.Hex(), e.Nonce, e.PermitID)
}

// Is reports whether target is ErrInFlight.
func (e *InFlightError) Is(target error) bool { return target == ErrInFlight }

// Settled is what reconciliation found of one journaled transaction.
type Settled struct {
	Tx SentTx // with its state and block now
	// Receipt is the transaction's receipt when it was mined (or reverted).
	Receipt *types.Receipt
	// Failure, when the transaction is reverted although its receipt's
	// status is success, is why: the UserOperationEvent of a handleOps
	// says its call failed in the account, or is missing.
	Failure error
	// Rebroadcast: the transaction is still in flight; its same signed
	// bytes were sent again because its nonce is still free.
	Rebroadcast bool
	// Incomplete: the transaction settled and was the last sent of its
	// plan, whose later transactions were never sent and never will be
	// (the permit was consumed for the whole plan).
	Incomplete bool
}

// settleTimeout bounds a journal write made after the caller's context
// ended: the outcome of a transaction on chain must still be recorded.
const settleTimeout = 10 * time.Second

// Reconcile settles the wallet's journaled transactions that are in
// flight, in nonce order: one with a receipt (from any endpoint) is
// recorded mined or reverted (a handleOps with a successful receipt is
// reverted unless the EntryPoint's UserOperationEvent for each of its
// operations says success; Settled.Failure says why); one without whose
// nonce the chain has already used is recorded dropped if the node does not know it, and
// stays in flight if it does (a receipt not yet served is not a loss);
// one whose nonce is still free is
// rebroadcast, the same signed bytes (never re-signed: same hash, so at
// most one effect), and stays in flight, or is recorded refused when the
// node refuses it. It signs nothing and sends no transaction that was not
// journaled, so the remaining transactions of an interrupted plan are
// never sent; Settled.Incomplete reports them.
//
// Without a Journal it does nothing. It stops at the first error, with
// what it settled so far; what it did not reach stays in flight.
func (w *Wallet) Reconcile(ctx context.Context) ([]Settled, error) {
	if w.j == nil {
		return nil, nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.reconcile(ctx)
}

// reconcile is Reconcile with w.mu held.
func (w *Wallet) reconcile(ctx context.Context) ([]Settled, error) {
	from, chainID := w.s.Address(), w.p.ChainID()
	open, _, err := w.j.OpenTxs(ctx, chainID, from)
	if err != nil || len(open) == 0 {
		return nil, journalErr("reconcile", err)
	}
	// The mined nonce is read before any receipt: a transaction mined
	// after this read is found by its receipt or rebroadcast harmlessly
	// (same bytes), never taken for dropped.
	mined, err := w.p.MinedNonce(ctx, from)
	if err != nil {
		return nil, fmt.Errorf("reconcile: %w", err)
	}
	last := map[string]int{}
	for _, t := range open {
		last[t.PermitID] = max(last[t.PermitID], t.Index)
	}
	var out []Settled
	for _, t := range open {
		s := Settled{Tx: t}
		r, err := w.p.Receipt(ctx, t.Hash)
		switch {
		case err == nil:
			s.Receipt, s.Tx.State, s.Tx.Block = r, TxMined, r.BlockNumber.Uint64()
			if r.Status != types.ReceiptStatusSuccessful {
				s.Tx.State = TxReverted
				break
			}
			// A mined handleOps whose operation's call reverted in the
			// account did not have its effect either.
			failure, err := w.journaledOpsOutcome(ctx, t, r)
			if err != nil {
				return out, fmt.Errorf("reconcile %s: %w", t.Hash.Hex(), err)
			}
			if failure != nil {
				s.Tx.State, s.Failure = TxReverted, failure
			}
		case !errors.Is(err, ethereum.NotFound):
			return out, fmt.Errorf("reconcile %s: %w", t.Hash.Hex(), err)
		case mined > t.Nonce:
			// The nonce is used, by this transaction or another. A node
			// whose receipts lag its blocks, or an endpoint behind another,
			// can answer no receipt for a transaction it mined: it is
			// dropped only when the node does not know it at all, and
			// otherwise stays in flight until its receipt is seen.
			known, err := w.p.TransactionKnown(ctx, t.Hash)
			if err != nil {
				return out, fmt.Errorf("reconcile %s: %w", t.Hash.Hex(), err)
			}
			if !known {
				s.Tx.State = TxDropped
			}
		default:
			tx := new(types.Transaction)
			if err := tx.UnmarshalBinary(t.Raw); err != nil || tx.Hash() != t.Hash {
				return out, fmt.Errorf("reconcile %s: the journal's signed bytes do not decode to the transaction", t.Hash.Hex())
			}
			switch err := w.p.SendTransaction(ctx, tx); {
			case err == nil:
				s.Rebroadcast = true
			case refused(ctx, err):
				s.Tx.State = TxRefused
			default:
				return out, fmt.Errorf("reconcile %s: rebroadcast: %w", t.Hash.Hex(), err)
			}
		}
		if s.Tx.State.Final() {
			if err := w.j.SettleTx(ctx, chainID, t.Hash, s.Tx.State, s.Tx.Block); err != nil {
				return out, journalErr("reconcile "+t.Hash.Hex(), err)
			}
			s.Incomplete = t.Index == last[t.PermitID] && t.Index+1 < t.PlanLen
		}
		if w.onSet != nil {
			w.onSet(ctx, s)
		}
		out = append(out, s)
	}
	return out, nil
}

// refused reports whether err is a node's refusal of a transaction (a
// JSON-RPC error that is not transient) rather than a failure to reach
// one, after which the transaction may still be on its way.
func refused(ctx context.Context, err error) bool {
	var re rpc.Error
	return ctx.Err() == nil && errors.As(err, &re) && !retryable(err)
}

func journalErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w: %w", op, ErrJournal, err)
}
