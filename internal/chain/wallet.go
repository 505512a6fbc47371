package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/crashpoint"
	"github.com/wardhq/ward/internal/tool"
)

// Scope is what a Send is for: the tool, the hash of its canonical
// arguments, and the tick and time of the commit. The capability must
// have been minted for exactly this tool and argument hash.
type Scope struct {
	Tool     string
	ArgsHash [32]byte
	Tick     uint64
	Now      time.Time
}

// WalletConfig configures a Wallet. The zero value is usable.
type WalletConfig struct {
	// GasMarginPercent is added to each gas estimate (default 20).
	GasMarginPercent int
	// Journal, when set, records every signed transaction before it is
	// broadcast and its outcome after (see Send and Reconcile). Nil: none,
	// for a chain that does not outlive the process (the dev chain).
	Journal Journal
	// Settled, when set, is told of each journaled transaction that a
	// reconciliation (Reconcile, or the one that starts every Send)
	// settled or rebroadcast, so its outcome can be recorded where tool
	// outcomes are. It runs with the wallet locked: it must not call the
	// wallet.
	Settled func(context.Context, Settled)
	// Safe, when set, makes the wallet send from that Safe, of which the
	// signer's key must be an owner (see SafeTx): the wallet's Address is
	// the Safe's, and the key only signs SafeTxs and pays for
	// execTransaction. Zero: the key sends itself.
	Safe common.Address
	// SafeQueue keeps the SafeTxs of a Safe whose threshold is above 1
	// until the other owners sign them (Wallet.SignSafeTx). Nil: such a
	// Safe's sends are refused.
	SafeQueue SafeQueue
	// SafeMultiSend, when set, is the Safe's MultiSendCallOnly (v1.4.1):
	// a plan of several transactions becomes one SafeTx, a DELEGATECALL
	// of its multiSend, so the owners sign once per plan and the plan
	// executes, or reverts, as a whole. It is the only address a SafeTx
	// of the wallet delegates to. Zero: each transaction is its own SafeTx.
	SafeMultiSend common.Address
	// Account, when set with EntryPoint, makes the wallet send from that
	// ERC-4337 account (ward's SessionKeyAccount), of which the signer's
	// key must be a session key: each transaction becomes a
	// UserOperation the key signs and sends to EntryPoint.handleOps (see
	// erc4337.go). Zero: not an ERC-4337 wallet.
	Account    common.Address
	EntryPoint common.Address
}

// Wallet pairs a Signer with the Provider of one chain. Send is its only
// method that broadcasts; it never exposes its Signer. Sends are
// serialised per Wallet, so nonces are consecutive; two Wallets over the
// same key would race for nonces, so make one per key.
type Wallet struct {
	s      Signer
	p      *Provider
	j      Journal // nil: none
	onSet  func(context.Context, Settled)
	margin uint64
	safe   common.Address // zero: the key sends itself
	queue  SafeQueue      // nil: none
	multi  common.Address // the Safe's MultiSendCallOnly; zero: none

	account    common.Address // zero: not an ERC-4337 wallet
	entryPoint common.Address
	sim        *Simulator // an ERC-4337 wallet's: estimates a plan's calls in sequence

	mu sync.Mutex // held for a whole Send: one nonce sequence at a time
}

// NewWallet returns a wallet sending from s's address on p's chain.
func NewWallet(s Signer, p *Provider, cfg WalletConfig) (*Wallet, error) {
	if s == nil || p == nil {
		return nil, errors.New("new wallet: signer and provider required")
	}
	if cfg.GasMarginPercent < 0 || cfg.GasMarginPercent > 400 {
		return nil, fmt.Errorf("new wallet: gas margin %d%% out of range 0-400", cfg.GasMarginPercent)
	}
	if cfg.GasMarginPercent == 0 {
		cfg.GasMarginPercent = 20
	}
	if (cfg.Account == common.Address{}) != (cfg.EntryPoint == common.Address{}) {
		return nil, errors.New("new wallet: an ERC-4337 account needs both its address and its entry point")
	}
	if cfg.Account != (common.Address{}) && cfg.Safe != (common.Address{}) {
		return nil, errors.New("new wallet: a wallet sends from a Safe or from an ERC-4337 account, not both")
	}
	w := &Wallet{s: s, p: p, j: cfg.Journal, onSet: cfg.Settled, margin: uint64(cfg.GasMarginPercent),
		safe: cfg.Safe, queue: cfg.SafeQueue, multi: cfg.SafeMultiSend, account: cfg.Account, entryPoint: cfg.EntryPoint}
	if w.account != (common.Address{}) {
		ps, err := NewProviders(p)
		if err != nil {
			return nil, fmt.Errorf("new wallet: %w", err)
		}
		if w.sim, err = NewSimulator(ps, SimConfig{Forks: 2}); err != nil {
			return nil, fmt.Errorf("new wallet: %w", err)
		}
	}
	return w, nil
}

// Address returns the address the wallet sends from: the Safe's for a
// Safe wallet, else the signer's.
func (w *Wallet) Address() common.Address {
	if w.account != (common.Address{}) {
		return w.account
	}
	if w.safe != (common.Address{}) {
		return w.safe
	}
	return w.s.Address()
}

// KeyAddress returns the address of the wallet's key, which pays the gas
// (for a Safe wallet, the owner key ward holds).
func (w *Wallet) KeyAddress() common.Address { return w.s.Address() }

// Account returns the ERC-4337 account the wallet sends from (zero for
// none).
func (w *Wallet) Account() common.Address { return w.account }

// EntryPoint returns the EntryPoint an ERC-4337 wallet's operations go
// through (zero for none).
func (w *Wallet) EntryPoint() common.Address { return w.entryPoint }

// Safe returns the Safe the wallet sends from (zero for none).
func (w *Wallet) Safe() common.Address { return w.safe }

// ChainID returns the chain the wallet sends on.
func (w *Wallet) ChainID() uint64 { return w.p.ChainID() }

// Provider returns the wallet's provider, for reads.
func (w *Wallet) Provider() *Provider { return w.p }

// SendError is a Send that stopped at one of its transactions.
type SendError struct {
	Index int         // position of the transaction in the plan
	Label string      // its label
	Hash  common.Hash // zero when it was not broadcast, or a node refused it
	Err   error       // a *RevertError when it reverted (or would have)
}

func (e *SendError) Error() string {
	where := fmt.Sprintf("tx %d", e.Index)
	if e.Label != "" {
		where += " (" + e.Label + ")"
	}
	if e.Hash != (common.Hash{}) {
		where += " " + e.Hash.Hex()
	}
	return "send: " + where + ": " + e.Err.Error()
}

func (e *SendError) Unwrap() error { return e.Err }

// Send consumes cap for scope and then sends txs in order from the
// wallet's address: EIP-1559 transactions with consecutive nonces and gas
// estimated (plus the margin) just before each is signed. It waits for
// each receipt before the next transaction and stops at the first one
// that fails.
//
// Nothing is signed or sent unless cap.Consume succeeds, so a nil, zero,
// used, expired or out-of-scope capability sends nothing. A transaction
// whose estimate reverts is not sent; a mined transaction with status 0
// ends the Send with a *SendError whose Err is the *RevertError found by
// replaying the call on the parent block. The receipts of the
// transactions mined so far are returned in every case.
//
// With a Journal, Send first reconciles the wallet's transactions left in
// flight (see Reconcile) and refuses with an *InFlightError while one
// still is: the caller may be retrying an action whose first transaction
// is on its way, and a second plan would be a second effect. Refusing
// rather than waiting keeps a commit's time bounded and its answer
// explicit; the next Send, or Reconcile, settles the transaction once it
// is mined. The first nonce is the larger of the node's pending nonce and
// the journal's next, so an endpoint behind the chain never makes the
// wallet reuse a nonce. Each transaction is journaled, durably, after it
// is signed and before it is broadcast; if that write fails the
// transaction is not sent (the error matches ErrJournal). Receipts are
// recorded when the plan ends; a Send whose outcomes could not be
// recorded returns an error naming the transaction, with its receipts,
// and the journal keeps it in flight until reconciled.
//
// A Safe wallet signs each transaction (or the plan batched through its
// MultiSendCallOnly) as a SafeTx after the capability is consumed, and either executes it (threshold 1) or queues it and
// returns a *SafePendingError (see SafeTx).
func (w *Wallet) Send(ctx context.Context, cap *capability.Capability, scope Scope, txs []tool.Tx) (receipts []*types.Receipt, err error) {
	if err := cap.Consume(scope.Tool, scope.ArgsHash, scope.Tick, scope.Now); err != nil {
		return nil, fmt.Errorf("send: %w", err)
	}
	if len(txs) == 0 {
		return nil, errors.New("send: no transactions")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.safe != (common.Address{}) {
		if txs, err = w.safePlan(ctx, cap.PermitID(), txs); err != nil {
			return nil, err
		}
	}
	var check func(int, *types.Receipt) error
	if w.account != (common.Address{}) {
		var hashes []common.Hash
		if txs, hashes, err = w.accountPlan(ctx, txs); err != nil {
			return nil, err
		}
		check = func(i int, r *types.Receipt) error { return userOpOutcome(r, w.entryPoint, hashes[i]) }
		receipts, err = w.send(ctx, cap.PermitID(), txs, check)
		return receipts, entryPointReason(err)
	}
	return w.send(ctx, cap.PermitID(), txs, check)
}

// send signs and sends txs from the wallet's key, for the permit
// permitID, as Send describes. check, when not nil, is asked about each
// successful receipt (an ERC-4337 wallet's inner call may have failed in
// a mined handleOps) and an error from it ends the send as a revert
// would. The caller holds w.mu.
func (w *Wallet) send(ctx context.Context, permitID string, txs []tool.Tx, check func(int, *types.Receipt) error) (receipts []*types.Receipt, err error) {
	if l, ok := w.j.(WalletLocker); ok {
		unlock, err := l.LockWallet(ctx, w.p.ChainID(), w.s.Address())
		if err != nil {
			return nil, fmt.Errorf("send: %w: %w", ErrJournal, err)
		}
		defer unlock()
	}
	nonce, err := w.firstNonce(ctx)
	if err != nil {
		return nil, err
	}
	from := w.s.Address()
	chainID := new(big.Int).SetUint64(w.p.ChainID())
	var sent []SentTx // journaled, in plan order
	if w.j != nil {
		defer func() {
			if serr := w.settle(ctx, sent); serr != nil {
				err = errors.Join(err, serr)
			}
		}()
	}
	receipts = make([]*types.Receipt, 0, len(txs))
	for i, t := range txs {
		fail := func(h common.Hash, err error) ([]*types.Receipt, error) {
			return receipts, &SendError{Index: i, Label: t.Label, Hash: h, Err: err}
		}
		to := common.Address(t.To)
		msg := ethereum.CallMsg{From: from, To: &to, Value: t.Value, Data: t.Data}
		signed, err := w.signTx(ctx, chainID, nonce+uint64(i), msg)
		if err != nil {
			return fail(common.Hash{}, err)
		}
		var rec *SentTx // the journal's record of signed, kept in step (nil without a journal)
		if w.j != nil {
			journaled, err := w.journalTx(ctx, signed, SentTx{ChainID: chainID.Uint64(), From: from,
				PermitID: permitID, Index: i, PlanLen: len(txs), Label: t.Label})
			if err != nil {
				return fail(common.Hash{}, err)
			}
			sent = append(sent, journaled)
			rec = &sent[len(sent)-1]
			crashpoint.Hit(crashpoint.Journaled)
		}
		r, h, err := w.deliver(ctx, signed, rec)
		if err != nil {
			return fail(h, err)
		}
		receipts = append(receipts, r)
		if r.Status != types.ReceiptStatusSuccessful {
			return fail(signed.Hash(), w.p.failure(ctx, msg, signed, r))
		}
		if check != nil {
			if err := check(i, r); err != nil {
				if rec != nil {
					rec.State = TxReverted // mined, its effect did not happen
				}
				return fail(signed.Hash(), err)
			}
		}
	}
	return receipts, nil
}

// deliver sends signed and waits for its receipt, keeping rec (when not
// nil) in step: refused, mined or reverted. With an error it returns
// signed's hash when the transaction may have reached a node, else the
// zero hash.
func (w *Wallet) deliver(ctx context.Context, signed *types.Transaction, rec *SentTx) (*types.Receipt, common.Hash, error) {
	if err := w.p.SendTransaction(ctx, signed); err != nil {
		if !refused(ctx, err) {
			return nil, signed.Hash(), err // it may have reached a node
		}
		if rec != nil {
			rec.State = TxRefused
		}
		return nil, common.Hash{}, err
	}
	crashpoint.Hit(crashpoint.Sent)
	r, err := w.p.WaitReceipt(ctx, signed.Hash())
	if err != nil {
		return nil, signed.Hash(), err
	}
	crashpoint.Hit(crashpoint.Receipt)
	if rec != nil {
		rec.State, rec.Block = TxMined, r.BlockNumber.Uint64()
		if r.Status != types.ReceiptStatusSuccessful {
			rec.State = TxReverted
		}
	}
	return r, common.Hash{}, nil
}

// firstNonce returns the nonce of a send's first transaction: the node's
// pending nonce, or the journal's next one when that is higher, after
// reconciling what the journal holds (as ready does).
func (w *Wallet) firstNonce(ctx context.Context) (uint64, error) {
	var next uint64 // the journal's next nonce
	if w.j != nil {
		var err error
		if next, err = w.ready(ctx); err != nil {
			return 0, err
		}
	}
	nonce, err := w.p.Nonce(ctx, w.s.Address())
	if err != nil {
		return 0, fmt.Errorf("send: %w", err)
	}
	return max(nonce, next), nil
}

// signTx builds msg's transaction at nonce and has the wallet's signer sign
// it, refusing a transaction signed by any other key.
func (w *Wallet) signTx(ctx context.Context, chainID *big.Int, nonce uint64, msg ethereum.CallMsg) (*types.Transaction, error) {
	tx, err := w.buildTx(ctx, chainID, nonce, msg)
	if err != nil {
		return nil, err
	}
	signed, err := w.s.SignTx(ctx, chainID, tx)
	if err != nil {
		return nil, err
	}
	if sender, err := types.Sender(types.LatestSignerForChainID(chainID), signed); err != nil || sender != msg.From {
		return nil, errors.New("signer returned a transaction not signed by the wallet's key")
	}
	return signed, nil
}

// journalTx writes signed to the journal before it is sent, as rec (which
// names its chain, sender and place in the plan) completed with the
// transaction's nonce, hash and encoding, and returns what it wrote.
func (w *Wallet) journalTx(ctx context.Context, signed *types.Transaction, rec SentTx) (SentTx, error) {
	raw, err := signed.MarshalBinary()
	if err != nil {
		return SentTx{}, fmt.Errorf("%w: encode: %w", ErrJournal, err)
	}
	rec.Nonce, rec.Hash, rec.Raw = signed.Nonce(), signed.Hash(), raw
	if err := w.j.JournalTx(ctx, &rec); err != nil {
		return SentTx{}, fmt.Errorf("%w: %w", ErrJournal, err)
	}
	return rec, nil
}

// ready reconciles the wallet's journaled transactions and returns the
// journal's next nonce, or an *InFlightError while one is still in
// flight.
func (w *Wallet) ready(ctx context.Context) (uint64, error) {
	settled, err := w.reconcile(ctx)
	if err != nil {
		return 0, fmt.Errorf("send: %w", err)
	}
	for _, s := range settled {
		if !s.Tx.State.Final() {
			return 0, &InFlightError{Hash: s.Tx.Hash, Nonce: s.Tx.Nonce, PermitID: s.Tx.PermitID}
		}
	}
	_, next, err := w.j.OpenTxs(ctx, w.p.ChainID(), w.s.Address())
	if err != nil {
		return 0, fmt.Errorf("send: %w", journalErr("next nonce", err))
	}
	return next, nil
}

// settle records the outcome of a Send's journaled transactions: those
// with a receipt and those the node refused. The others stay in flight.
// It writes even after ctx ended: a transaction on chain must not lose
// its record to a cancelled commit.
func (w *Wallet) settle(ctx context.Context, sent []SentTx) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
	defer cancel()
	var errs []error
	for _, t := range sent {
		if !t.State.Final() {
			continue
		}
		if err := w.j.SettleTx(ctx, t.ChainID, t.Hash, t.State, t.Block); err != nil {
			errs = append(errs, fmt.Errorf("send: record the outcome of %s (%s): %w", t.Hash.Hex(), t.State, journalErr("settle", err)))
		}
	}
	return errors.Join(errs...)
}

// accrualHeadroom is gas added to every estimate besides the margin: an
// estimate runs at the latest block, where a lending market touched in
// that block accrues no interest (no time has passed), while the mined
// transaction runs a block later and pays for the accrual's storage
// writes (Morpho Blue, Compound III, Aave: tens of thousands of gas), so
// a small call's percentage margin is not enough. Unused gas is not paid.
const accrualHeadroom = 60_000

// buildTx estimates gas and prices one transaction.
func (w *Wallet) buildTx(ctx context.Context, chainID *big.Int, nonce uint64, msg ethereum.CallMsg) (*types.Transaction, error) {
	head, err := w.p.HeaderLatest(ctx)
	if err != nil {
		return nil, err
	}
	gas, err := w.p.EstimateGas(ctx, msg)
	if err != nil {
		return nil, err
	}
	gas = min(gas*(100+w.margin)/100+accrualHeadroom, head.GasLimit)
	value := msg.Value
	if value == nil {
		value = new(big.Int)
	}
	if value.Sign() < 0 {
		return nil, errors.New("negative value")
	}
	if head.BaseFee == nil {
		price, err := w.p.SuggestGasPrice(ctx)
		if err != nil {
			return nil, err
		}
		return types.NewTx(&types.LegacyTx{Nonce: nonce, GasPrice: price, Gas: gas, To: msg.To, Value: value, Data: msg.Data}), nil
	}
	tip, err := w.p.SuggestGasTip(ctx)
	if err != nil {
		return nil, err
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	return types.NewTx(&types.DynamicFeeTx{
		ChainID: chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas,
		To: msg.To, Value: value, Data: msg.Data,
	}), nil
}

// failure explains a mined transaction with status 0 by replaying it on
// the parent block's state.
func (p *Provider) failure(ctx context.Context, msg ethereum.CallMsg, tx *types.Transaction, r *types.Receipt) error {
	if r.GasUsed >= tx.Gas() {
		return &RevertError{Reason: "out of gas"}
	}
	msg.Gas = tx.Gas()
	parent := new(big.Int).Sub(r.BlockNumber, big.NewInt(1))
	_, err := p.CallAt(ctx, msg, parent)
	var re *RevertError
	if errors.As(err, &re) {
		return re
	}
	return &RevertError{Reason: fmt.Sprintf("reverted in block %d (the replay on the parent block did not revert)", r.BlockNumber)}
}
