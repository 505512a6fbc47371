package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/wardhq/ward/internal/chain/artifacts/published"
	"github.com/wardhq/ward/internal/tool"
)

// A Safe wallet sends ward's writes from a Safe (Safe{Wallet}, v1.3 and
// later, whose EIP-712 domain is chainId and verifyingContract) of which
// ward's key is one owner. Each planned transaction becomes a SafeTx (a
// CALL with no refund: safeTxGas, baseGas and gasPrice 0, no gas token
// or refund receiver), or, with the Safe's MultiSendCallOnly, the whole
// plan one SafeTx delegating to it, at the Safe's next nonce, hashed per the Safe's
// EIP-712 domain and signed by ward's key once the capability is
// consumed. With threshold 1 ward's key executes it (execTransaction);
// with a higher threshold the signed SafeTx is written to a SafeQueue and
// the Send ends with a *SafePendingError: owners add signatures with
// Wallet.SignSafeTx, which executes the SafeTx once the threshold is met.
// The Safe, not ward's key, is then the sender every tool sees
// (Wallet.Address): balances, allowances and simulations are the Safe's;
// ward's key only pays the gas of execTransaction.

// SafeABI is the Safe v1.4.1 singleton's ABI as @safe-global/safe-contracts
// publishes it.
func SafeABI() *ABI { return safeABI() }

// SafeProxyFactoryABI is the Safe v1.4.1 proxy factory's ABI.
func SafeProxyFactoryABI() *ABI { return safeFactoryABI() }

var (
	safeABI        = sync.OnceValue(func() *ABI { return publishedABI("Safe") })
	safeFactoryABI = sync.OnceValue(func() *ABI { return publishedABI("SafeProxyFactory") })
)

// publishedABI parses the ABI of an embedded published artifact; a
// missing or malformed one is a build defect.
func publishedABI(name string) *ABI {
	a, err := published.Load(name)
	if err != nil {
		panic(err)
	}
	return mustParseABI(string(a.ABI))
}

var multiSendABI = sync.OnceValue(func() *ABI { return publishedABI("MultiSendCallOnly") })

// Safe transaction operations.
const (
	SafeCall         uint8 = 0
	SafeDelegateCall uint8 = 1
)

// SafeTx is one transaction a Safe executes, with no gas refund. Its
// Operation is SafeCall, or SafeDelegateCall for a batch through the
// wallet's MultiSendCallOnly (WalletConfig.SafeMultiSend), the only
// DELEGATECALL ward proposes.
type SafeTx struct {
	Safe      common.Address
	ChainID   uint64
	To        common.Address
	Value     *big.Int
	Data      []byte
	Operation uint8
	Nonce     uint64
}

// Hash returns the SafeTx's EIP-712 hash, the digest owners sign.
func (t *SafeTx) Hash() (common.Hash, error) {
	value := t.Value
	if value == nil {
		value = new(big.Int)
	}
	td := apitypes.TypedData{
		Types: apitypes.Types{
			"EIP712Domain": {{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"}},
			"SafeTx": {
				{Name: "to", Type: "address"}, {Name: "value", Type: "uint256"}, {Name: "data", Type: "bytes"},
				{Name: "operation", Type: "uint8"}, {Name: "safeTxGas", Type: "uint256"}, {Name: "baseGas", Type: "uint256"},
				{Name: "gasPrice", Type: "uint256"}, {Name: "gasToken", Type: "address"}, {Name: "refundReceiver", Type: "address"},
				{Name: "nonce", Type: "uint256"},
			},
		},
		PrimaryType: "SafeTx",
		Domain: apitypes.TypedDataDomain{
			ChainId:           (*math.HexOrDecimal256)(new(big.Int).SetUint64(t.ChainID)),
			VerifyingContract: t.Safe.Hex(),
		},
		Message: apitypes.TypedDataMessage{
			"to": t.To.Hex(), "value": value.String(), "data": hexutil.Encode(t.Data),
			"operation": fmt.Sprint(t.Operation), "safeTxGas": "0", "baseGas": "0", "gasPrice": "0",
			"gasToken": common.Address{}.Hex(), "refundReceiver": common.Address{}.Hex(),
			"nonce": new(big.Int).SetUint64(t.Nonce).String(),
		},
	}
	h, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		return common.Hash{}, fmt.Errorf("safe tx hash: %w", err)
	}
	return common.Hash(h), nil
}

// execCall packs execTransaction of t with the owners' signatures, which
// must be sorted by owner address as the Safe requires.
func (t *SafeTx) execCall(sigs []byte) ([]byte, error) {
	value := t.Value
	if value == nil {
		value = new(big.Int)
	}
	return safeABI().Pack("execTransaction", t.To, value, t.Data, t.Operation, new(big.Int), new(big.Int), new(big.Int),
		common.Address{}, common.Address{}, sigs)
}

// SafeSignature is one owner's signature of a SafeTx: r ‖ s ‖ v with v
// 27 or 28, over the SafeTx hash.
type SafeSignature struct {
	Owner common.Address
	Sig   []byte
}

// SafeProposal is a SafeTx ward signed that awaits more owners'
// signatures: the permit it executes, its place in the permit's plan,
// the signatures so far (ward's first) and, once executed, the hash of
// the execTransaction that did.
type SafeProposal struct {
	Hash       common.Hash
	Tx         SafeTx
	PermitID   string
	Index      int
	PlanLen    int
	Label      string
	Signatures []SafeSignature
	Executed   common.Hash // zero while pending
	Created    time.Time
}

// SafeQueue keeps the SafeTxs that await owners' signatures. Every write
// is durable when it returns nil.
type SafeQueue interface {
	// ProposeSafeTx stores p pending; it refuses a hash it already holds.
	ProposeSafeTx(ctx context.Context, p *SafeProposal) error
	// SafeTx returns the proposal of hash (ErrSafeTxUnknown if none).
	SafeTx(ctx context.Context, hash common.Hash) (SafeProposal, error)
	// AddSafeSignature appends sig to the pending proposal hash; it
	// refuses a second signature of the same owner and an executed
	// proposal (ErrSafeTxDone).
	AddSafeSignature(ctx context.Context, hash common.Hash, sig SafeSignature) error
	// SafeTxExecuted records that the proposal hash was executed by tx,
	// in one conditional update: a second call fails with ErrSafeTxDone.
	SafeTxExecuted(ctx context.Context, hash, tx common.Hash) error
	// PendingSafeTxs returns the pending proposals of the Safe, by nonce.
	PendingSafeTxs(ctx context.Context, chainID uint64, safe common.Address) ([]SafeProposal, error)
}

// Sentinel errors of the Safe path.
var (
	ErrSafeTxUnknown   = errors.New("no such Safe transaction awaits signatures")
	ErrSafeTxDone      = errors.New("the Safe transaction was already executed")
	ErrSafeSigner      = errors.New("the signature is not by an owner of the Safe")
	ErrSafeSignedTwice = errors.New("the owner already signed this Safe transaction")
	ErrSafePending     = errors.New("a Safe transaction of the wallet awaits owner signatures")
	ErrSafeSignature   = errors.New("malformed signature")
)

// SafePendingError ends a Send from a Safe whose threshold ward's key
// alone does not meet: nothing was executed; the SafeTxs, signed by
// ward's key, await the other owners' signatures in the SafeQueue.
type SafePendingError struct {
	Safe      common.Address
	Threshold uint64
	Hashes    []common.Hash // the SafeTx hashes, in plan order
}

func (e *SafePendingError) Error() string {
	return fmt.Sprintf("awaiting owner signatures: %d Safe transaction(s) of %s need %d signatures", len(e.Hashes), e.Safe.Hex(), e.Threshold)
}

// safeState reads what a Safe send depends on: its nonce, its threshold
// and its owners.
func (w *Wallet) safeState(ctx context.Context) (nonce, threshold uint64, owners []common.Address, err error) {
	call := func(method string) ([]any, error) {
		data, err := safeABI().Pack(method)
		if err != nil {
			return nil, err
		}
		out, err := w.p.Call(ctx, ethereum.CallMsg{To: &w.safe, Data: data})
		if err != nil {
			return nil, fmt.Errorf("safe %s: %w", method, err)
		}
		return safeABI().Unpack(method, out)
	}
	n, err := call("nonce")
	if err != nil {
		return 0, 0, nil, err
	}
	th, err := call("getThreshold")
	if err != nil {
		return 0, 0, nil, err
	}
	ow, err := call("getOwners")
	if err != nil {
		return 0, 0, nil, err
	}
	nb, tb := n[0].(*big.Int), th[0].(*big.Int)
	if !nb.IsUint64() || !tb.IsUint64() || tb.Sign() == 0 {
		return 0, 0, nil, fmt.Errorf("safe %s: nonce %s, threshold %s out of range", w.safe.Hex(), nb, tb)
	}
	return nb.Uint64(), tb.Uint64(), ow[0].([]common.Address), nil
}

// safePlan turns a consumed plan into what ward's key sends: a plan of
// several transactions is first batched into one through the wallet's
// MultiSendCallOnly, if it has one; with
// threshold 1 each transaction becomes execTransaction of its SafeTx
// signed by ward's key; above, the signed SafeTxs are queued and the
// result is a *SafePendingError. It runs with the wallet locked.
func (w *Wallet) safePlan(ctx context.Context, permitID string, txs []tool.Tx) ([]tool.Tx, error) {
	nonce, threshold, owners, err := w.safeState(ctx)
	if err != nil {
		return nil, fmt.Errorf("send: %w", err)
	}
	key := w.s.Address()
	if !slices.Contains(owners, key) {
		return nil, fmt.Errorf("send: ward's key %s is not an owner of the Safe %s", key.Hex(), w.safe.Hex())
	}
	if threshold > 1 {
		if w.queue == nil {
			return nil, fmt.Errorf("send: the Safe %s needs %d signatures and no queue keeps pending Safe transactions", w.safe.Hex(), threshold)
		}
		pending, err := w.queue.PendingSafeTxs(ctx, w.p.ChainID(), w.safe)
		if err != nil {
			return nil, fmt.Errorf("send: %w", err)
		}
		for _, p := range pending {
			if p.Tx.Nonce >= nonce {
				return nil, fmt.Errorf("send: %w (%s at nonce %d)", ErrSafePending, p.Hash.Hex(), p.Tx.Nonce)
			}
		}
	}
	// A planned call of MultiSendCallOnly itself would become a
	// DELEGATECALL running calls the gate never saw: refused.
	if w.multi != (common.Address{}) && slices.ContainsFunc(txs, func(t tool.Tx) bool { return common.Address(t.To) == w.multi }) {
		return nil, fmt.Errorf("send: the plan calls the Safe's MultiSendCallOnly %s, which only ward's batching may", w.multi.Hex())
	}
	if w.multi != (common.Address{}) && len(txs) > 1 {
		batch, err := multiSendTx(w.multi, txs)
		if err != nil {
			return nil, fmt.Errorf("send: %w", err)
		}
		txs = []tool.Tx{batch}
	}
	chainID := w.p.ChainID()
	out := make([]tool.Tx, 0, len(txs))
	pendingErr := &SafePendingError{Safe: w.safe, Threshold: threshold}
	for i, t := range txs {
		st := SafeTx{Safe: w.safe, ChainID: chainID, To: common.Address(t.To), Value: t.Value, Data: t.Data,
			Operation: w.safeOperation(common.Address(t.To)), Nonce: nonce + uint64(i)}
		h, err := st.Hash()
		if err != nil {
			return nil, fmt.Errorf("send: %w", err)
		}
		sig, err := w.s.SignHash(ctx, h)
		if err != nil {
			return nil, fmt.Errorf("send: %w", err)
		}
		if threshold == 1 {
			data, err := st.execCall(sig)
			if err != nil {
				return nil, fmt.Errorf("send: %w", err)
			}
			out = append(out, tool.Tx{To: tool.Address(w.safe), Data: data, Label: t.Label})
			continue
		}
		p := &SafeProposal{Hash: h, Tx: st, PermitID: permitID, Index: i, PlanLen: len(txs), Label: t.Label,
			Signatures: []SafeSignature{{Owner: key, Sig: sig}}, Created: time.Now()}
		if err := w.queue.ProposeSafeTx(ctx, p); err != nil {
			return nil, fmt.Errorf("send: queue Safe transaction: %w", err)
		}
		pendingErr.Hashes = append(pendingErr.Hashes, h)
	}
	if threshold > 1 {
		return nil, pendingErr
	}
	return out, nil
}

// MultiSendCallOnlyCodeHash is the keccak256 of Safe v1.4.1's
// MultiSendCallOnly runtime code, as @safe-global/safe-deployments lists
// it for the canonical deployment (and the published creation code
// deploys).
var MultiSendCallOnlyCodeHash = common.HexToHash("0xecd5bd14a08c5d2122379900b2f272bdf107a7e92423c10dd5fe3254386c9939")

// CheckMultiSend verifies that addr on p's chain holds Safe v1.4.1's
// MultiSendCallOnly code (MultiSendCallOnlyCodeHash). A Safe wallet
// delegates to its MultiSendCallOnly, so it must never be anything else.
func CheckMultiSend(ctx context.Context, p *Provider, addr common.Address) error {
	code, err := p.Code(ctx, addr)
	if err != nil {
		return fmt.Errorf("check multisend: %w", err)
	}
	if h := crypto.Keccak256Hash(code); h != MultiSendCallOnlyCodeHash {
		return fmt.Errorf("check multisend: %s holds code %s, not Safe v1.4.1's MultiSendCallOnly %s", addr.Hex(), h.Hex(), MultiSendCallOnlyCodeHash.Hex())
	}
	return nil
}

// safeOperation is the operation of a SafeTx to to: a DELEGATECALL to
// the wallet's MultiSendCallOnly, a CALL to anything else. A queue keeps
// no operation: it follows from the address, as here.
func (w *Wallet) safeOperation(to common.Address) uint8 {
	if w.multi != (common.Address{}) && to == w.multi {
		return SafeDelegateCall
	}
	return SafeCall
}

// multiSendTx batches txs into one transaction to MultiSendCallOnly's
// multiSend: each packed as operation (CALL) ‖ to ‖ value ‖ data length ‖
// data, which the Safe delegates to in one SafeTx. Its label joins the
// transactions' labels.
func multiSendTx(multi common.Address, txs []tool.Tx) (tool.Tx, error) {
	var packed []byte
	labels := make([]string, 0, len(txs))
	for _, t := range txs {
		value := t.Value
		if value == nil {
			value = new(big.Int)
		}
		if value.Sign() < 0 || value.BitLen() > 256 {
			return tool.Tx{}, fmt.Errorf("multisend: value %s out of range", value)
		}
		packed = append(packed, SafeCall)
		packed = append(packed, t.To[:]...)
		packed = append(packed, common.LeftPadBytes(value.Bytes(), 32)...)
		packed = append(packed, common.LeftPadBytes(new(big.Int).SetInt64(int64(len(t.Data))).Bytes(), 32)...)
		packed = append(packed, t.Data...)
		labels = append(labels, t.Label)
	}
	data, err := multiSendABI().Pack("multiSend", packed)
	if err != nil {
		return tool.Tx{}, fmt.Errorf("multisend: %w", err)
	}
	return tool.Tx{To: tool.Address(multi), Data: data, Label: "multisend: " + strings.Join(labels, ", ")}, nil
}

// RecoverSafeSigner returns the address that signed digest with sig
// (r ‖ s ‖ v, v 27 or 28).
func RecoverSafeSigner(digest common.Hash, sig []byte) (common.Address, error) {
	if len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) {
		return common.Address{}, errors.New("signature: want 65 bytes r ‖ s ‖ v with v 27 or 28")
	}
	s := bytes.Clone(sig)
	s[64] -= 27
	pub, err := crypto.SigToPub(digest[:], s)
	if err != nil {
		return common.Address{}, fmt.Errorf("signature: %w", err)
	}
	return crypto.PubkeyToAddress(*pub), nil
}

// SafeSignResult is what SignSafeTx did: the signatures the SafeTx has,
// the threshold, and the execTransaction's receipt once executed.
type SafeSignResult struct {
	Hash       common.Hash
	Signatures int
	Threshold  uint64
	Executed   common.Hash // zero while it still awaits signatures
	Status     uint64      // the execution's receipt status, when executed
}

// SignSafeTx adds an owner's signature to the pending SafeTx hash and
// executes it (execTransaction, sent by ward's key) once it has the
// Safe's threshold of owners' signatures and the Safe is at its nonce;
// the SafeTxs after it that have their signatures then run in order.
// The signature must recover to an owner of the Safe who has not signed
// it yet (a signer's repeated signature only retries the execution of a
// SafeTx that has its signatures and is due); an executed SafeTx, an
// unknown hash or a bad signature is refused with nothing changed. Executing needs no capability: the permit
// that proposed the SafeTx was consumed before ward signed it.
func (w *Wallet) SignSafeTx(ctx context.Context, hash common.Hash, sig []byte) (SafeSignResult, error) {
	res := SafeSignResult{Hash: hash}
	if w.safe == (common.Address{}) || w.queue == nil {
		return res, errors.New("sign safe tx: the wallet is not a Safe with a queue")
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	p, err := w.queue.SafeTx(ctx, hash)
	if err != nil {
		return res, fmt.Errorf("sign safe tx: %w", err)
	}
	p.Tx.Operation = w.safeOperation(p.Tx.To)
	if p.Executed != (common.Hash{}) {
		return res, fmt.Errorf("sign safe tx: %w (by %s)", ErrSafeTxDone, p.Executed.Hex())
	}
	if p.Tx.Safe != w.safe || p.Tx.ChainID != w.p.ChainID() {
		return res, fmt.Errorf("sign safe tx: %w", ErrSafeTxUnknown)
	}
	if got, err := p.Tx.Hash(); err != nil || got != hash {
		return res, errors.New("sign safe tx: the stored Safe transaction does not hash to its key")
	}
	nonce, threshold, owners, err := w.safeState(ctx)
	if err != nil {
		return res, fmt.Errorf("sign safe tx: %w", err)
	}
	res.Threshold = threshold
	if p.Tx.Nonce < nonce {
		return res, fmt.Errorf("sign safe tx: %w (the Safe is at nonce %d, this one was %d)", ErrSafeTxDone, nonce, p.Tx.Nonce)
	}
	signer, err := RecoverSafeSigner(hash, sig)
	if err != nil {
		return res, fmt.Errorf("sign safe tx: %w: %w", ErrSafeSignature, err)
	}
	if !slices.Contains(owners, signer) {
		return res, fmt.Errorf("sign safe tx: %w (%s)", ErrSafeSigner, signer.Hex())
	}
	signed := slices.ContainsFunc(p.Signatures, func(s SafeSignature) bool { return s.Owner == signer })
	if !signed {
		s := SafeSignature{Owner: signer, Sig: bytes.Clone(sig)}
		if err := w.queue.AddSafeSignature(ctx, hash, s); err != nil {
			return res, fmt.Errorf("sign safe tx: %w", err)
		}
		p.Signatures = append(p.Signatures, s)
	}
	sigs := ownersSignatures(p.Signatures, owners)
	// A signer's second signature is refused, unless the SafeTx has its
	// signatures and is due: then it retries an execution that failed.
	if signed && (uint64(len(sigs)) < threshold || p.Tx.Nonce != nonce) {
		return res, fmt.Errorf("sign safe tx: %w (%s)", ErrSafeSignedTwice, signer.Hex())
	}
	res.Signatures = len(sigs)
	if uint64(len(sigs)) < threshold || p.Tx.Nonce != nonce {
		return res, nil
	}
	if res.Executed, res.Status, err = w.execSafeTx(ctx, p, sigs); err != nil {
		return res, fmt.Errorf("sign safe tx: execute: %w", err)
	}
	// SafeTxs signed out of order wait for the ones before them: each
	// that has its signatures now runs in nonce order.
	for res.Status == 1 {
		nonce++
		pending, err := w.queue.PendingSafeTxs(ctx, w.p.ChainID(), w.safe)
		if err != nil {
			return res, fmt.Errorf("sign safe tx: %w", err)
		}
		i := slices.IndexFunc(pending, func(q SafeProposal) bool { return q.Tx.Nonce == nonce })
		if i < 0 {
			break
		}
		pending[i].Tx.Operation = w.safeOperation(pending[i].Tx.To)
		next := ownersSignatures(pending[i].Signatures, owners)
		if uint64(len(next)) < threshold {
			break
		}
		if _, status, err := w.execSafeTx(ctx, pending[i], next); err != nil || status != 1 {
			return res, errors.Join(err, fmt.Errorf("sign safe tx: the next Safe transaction %s did not execute", pending[i].Hash.Hex()))
		}
	}
	return res, nil
}

// ownersSignatures returns the signatures of current owners (one removed
// since signing no longer counts), sorted by owner as the Safe requires.
func ownersSignatures(all []SafeSignature, owners []common.Address) []SafeSignature {
	var valid []SafeSignature
	for _, s := range all {
		if slices.Contains(owners, s.Owner) {
			valid = append(valid, s)
		}
	}
	slices.SortFunc(valid, func(a, b SafeSignature) int { return bytes.Compare(a.Owner[:], b.Owner[:]) })
	return valid
}

// execSafeTx sends execTransaction of p with the first threshold of sigs
// (sorted by owner) from ward's key, through the send journal under p's
// permit, and records p executed once mined. The caller holds w.mu.
func (w *Wallet) execSafeTx(ctx context.Context, p SafeProposal, sigs []SafeSignature) (common.Hash, uint64, error) {
	var packed []byte
	for _, s := range sigs {
		packed = append(packed, s.Sig...)
	}
	data, err := p.Tx.execCall(packed)
	if err != nil {
		return common.Hash{}, 0, err
	}
	receipts, err := w.send(ctx, p.PermitID, []tool.Tx{{To: tool.Address(w.safe), Data: data, Label: p.Label}}, nil)
	if len(receipts) == 0 {
		return common.Hash{}, 0, err
	}
	h, status := receipts[0].TxHash, receipts[0].Status
	if status != 1 {
		return h, status, err // reverted: the Safe's nonce is unused, the SafeTx stays pending
	}
	if qerr := w.queue.SafeTxExecuted(context.WithoutCancel(ctx), p.Hash, h); qerr != nil {
		err = errors.Join(err, fmt.Errorf("record the Safe transaction executed: %w", qerr))
	}
	return h, status, err
}

// SafeStatus reads the Safe of a Safe wallet: its nonce, threshold and
// owners, and whether the wallet's key is one of them. It fails for a
// wallet that is not a Safe's or an address that does not answer as a
// Safe.
func (w *Wallet) SafeStatus(ctx context.Context) (nonce, threshold uint64, owners []common.Address, keyIsOwner bool, err error) {
	if w.safe == (common.Address{}) {
		return 0, 0, nil, false, errors.New("safe status: the wallet is not a Safe's")
	}
	nonce, threshold, owners, err = w.safeState(ctx)
	if err != nil {
		return 0, 0, nil, false, fmt.Errorf("safe status: %w", err)
	}
	return nonce, threshold, owners, slices.Contains(owners, w.s.Address()), nil
}

// PendingSafeTxs returns the Safe transactions of the wallet's Safe that
// await owners' signatures, by nonce (none for a wallet without a
// queue).
func (w *Wallet) PendingSafeTxs(ctx context.Context) ([]SafeProposal, error) {
	if w.safe == (common.Address{}) || w.queue == nil {
		return nil, nil
	}
	ps, err := w.queue.PendingSafeTxs(ctx, w.p.ChainID(), w.safe)
	for i := range ps {
		ps[i].Tx.Operation = w.safeOperation(ps[i].Tx.To)
	}
	return ps, err
}
