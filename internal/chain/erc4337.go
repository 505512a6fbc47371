package chain

// The ERC-4337 signer (wallet_kind = "erc4337"): the wallet sends from a
// smart account (ward's SessionKeyAccount, contracts/src) through the
// EntryPoint v0.7. Ward holds only a session key of the account, whose
// scope the owner set on chain: allowed (target, selector) pairs, a
// per-call native value cap and an expiry. Each transaction of a consumed
// plan becomes a UserOperation calling account.execute(to, value, data),
// signed by the session key, and ward is its own bundler: the session
// key's address sends EntryPoint.handleOps([op], itself) and pays the
// gas, and the account's deposit at the EntryPoint refunds it. A commit
// succeeds only if handleOps is mined and its UserOperationEvent says the
// inner call succeeded.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/wardhq/ward/internal/chain/artifacts"
	"github.com/wardhq/ward/internal/tool"
)

// EntryPointABI is the EntryPoint v0.7's ABI as @account-abstraction/contracts
// 0.7.0 publishes it.
func EntryPointABI() *ABI { return entryPointABI() }

// SessionKeyAccountABI is the ABI of ward's ERC-4337 account.
func SessionKeyAccountABI() *ABI { return sessionAccountABI() }

var (
	entryPointABI     = sync.OnceValue(func() *ABI { return publishedABI("EntryPoint") })
	sessionAccountABI = sync.OnceValue(func() *ABI {
		a, err := artifacts.Load("SessionKeyAccount")
		if err != nil {
			panic(err)
		}
		return mustParseABI(string(a.ABI))
	})
)

// ErrSessionScope is a write the session key may not send: outside its
// scope, over its value cap, expired or revoked. Nothing was signed.
var ErrSessionScope = errors.New("session key may not send this call")

// UserOp is an EntryPoint v0.7 PackedUserOperation; its field names are
// the ABI's, so it packs as the handleOps tuple.
type UserOp struct {
	Sender             common.Address
	Nonce              *big.Int
	InitCode           []byte
	CallData           []byte
	AccountGasLimits   [32]byte // verificationGasLimit ‖ callGasLimit, 16 bytes each
	PreVerificationGas *big.Int
	GasFees            [32]byte // maxPriorityFeePerGas ‖ maxFeePerGas, 16 bytes each
	PaymasterAndData   []byte
	Signature          []byte
}

// pack16 puts a and b, each below 2^128, into one word.
func pack16(a, b *big.Int) [32]byte {
	var w [32]byte
	a.FillBytes(w[:16])
	b.FillBytes(w[16:])
	return w
}

// Gas the account's validateUserOp may use (an ecrecover and the scope's
// storage reads) and the bundle's overhead outside the calls.
const (
	userOpVerificationGas = 150_000
	userOpPreVerification = 60_000
)

// AccountSetup checks, at startup, that account is a SessionKeyAccount of
// entryPoint on p's chain and that key is one of its live session keys.
// It returns a clear error naming what is wrong.
func AccountSetup(ctx context.Context, p *Provider, account, entryPoint, key common.Address) error {
	if account == (common.Address{}) {
		return errors.New("erc4337: account_address is required")
	}
	if entryPoint == (common.Address{}) {
		return errors.New("erc4337: entry_point is required")
	}
	for _, c := range []struct {
		what string
		addr common.Address
	}{{"account_address", account}, {"entry_point", entryPoint}} {
		code, err := p.Code(ctx, c.addr)
		if err != nil {
			return fmt.Errorf("erc4337: read the code of %s %s: %w", c.what, c.addr.Hex(), err)
		}
		if len(code) == 0 {
			return fmt.Errorf("erc4337: %s %s has no code on chain %d", c.what, c.addr.Hex(), p.ChainID())
		}
	}
	a := sessionAccountABI()
	data, _ := a.Pack("entryPoint")
	ret, err := p.Call(ctx, ethereum.CallMsg{To: &account, Data: data})
	if err != nil {
		return fmt.Errorf("erc4337: account %s does not answer entryPoint(): %w", account.Hex(), err)
	}
	v, err := a.Unpack("entryPoint", ret)
	if err != nil {
		return fmt.Errorf("erc4337: account %s does not answer entryPoint(): %w", account.Hex(), err)
	}
	if got := v[0].(common.Address); got != entryPoint {
		return fmt.Errorf("erc4337: account %s uses the entry point %s, not the configured %s", account.Hex(), got.Hex(), entryPoint.Hex())
	}
	data, _ = a.Pack("sessionKey", key)
	ret, err = p.Call(ctx, ethereum.CallMsg{To: &account, Data: data})
	if err != nil {
		return fmt.Errorf("erc4337: read session key %s: %w", key.Hex(), err)
	}
	if v, err = a.Unpack("sessionKey", ret); err != nil {
		return fmt.Errorf("erc4337: read session key %s: %w", key.Hex(), err)
	}
	if !v[0].(bool) {
		return fmt.Errorf("erc4337: wallet_key_file's key %s is not a session key of account %s", key.Hex(), account.Hex())
	}
	return nil
}

// accountCall reads the account with the session key as caller.
func (w *Wallet) accountCall(ctx context.Context, method string, args ...any) ([]any, error) {
	a := sessionAccountABI()
	data, err := a.Pack(method, args...)
	if err != nil {
		return nil, err
	}
	ret, err := w.p.Call(ctx, ethereum.CallMsg{To: &w.account, Data: data})
	if err != nil {
		return nil, fmt.Errorf("account %s: %s: %w", w.account.Hex(), method, err)
	}
	return a.Unpack(method, ret)
}

// entryPointCall reads the EntryPoint.
func (w *Wallet) entryPointCall(ctx context.Context, method string, args ...any) ([]any, error) {
	a := entryPointABI()
	data, err := a.Pack(method, args...)
	if err != nil {
		return nil, err
	}
	ret, err := w.p.Call(ctx, ethereum.CallMsg{To: &w.entryPoint, Data: data})
	if err != nil {
		return nil, fmt.Errorf("entry point %s: %s: %w", w.entryPoint.Hex(), method, err)
	}
	return a.Unpack(method, ret)
}

// accountPlan turns a consumed plan into handleOps transactions, one per
// UserOperation, and returns with them the userOpHashes whose events
// the receipts must carry. Each call is checked against the session
// key's on-chain scope before anything is signed. It runs with the
// wallet locked.
func (w *Wallet) accountPlan(ctx context.Context, txs []tool.Tx) ([]tool.Tx, []common.Hash, error) {
	key := w.s.Address()
	calls := make([][]byte, len(txs))
	for i, t := range txs {
		value := t.Value
		if value == nil {
			value = new(big.Int)
		}
		data, err := sessionAccountABI().Pack("execute", common.Address(t.To), value, []byte(t.Data))
		if err != nil {
			return nil, nil, fmt.Errorf("send: %w", err)
		}
		v, err := w.accountCall(ctx, "checkSessionCall", key, data)
		if err != nil {
			return nil, nil, fmt.Errorf("send: %w", err)
		}
		if ok, why := v[0].(bool), v[1].(string); !ok {
			return nil, nil, &SendError{Index: i, Label: t.Label, Err: fmt.Errorf("%w: %s (key %s, account %s)", ErrSessionScope, why, key.Hex(), w.account.Hex())}
		}
		calls[i] = data
	}
	v, err := w.entryPointCall(ctx, "getNonce", w.account, new(big.Int))
	if err != nil {
		return nil, nil, fmt.Errorf("send: %w", err)
	}
	nonce := v[0].(*big.Int)
	head, err := w.p.HeaderLatest(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("send: %w", err)
	}
	tip, err := w.p.SuggestGasTip(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("send: %w", err)
	}
	maxFee := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	out := make([]tool.Tx, 0, len(txs))
	hashes := make([]common.Hash, 0, len(txs))
	callGas, err := w.callGas(ctx, txs, head.GasLimit)
	if err != nil {
		return nil, nil, err
	}
	for i := range txs {
		op := UserOp{
			Sender:             w.account,
			Nonce:              new(big.Int).Add(nonce, big.NewInt(int64(i))),
			InitCode:           []byte{},
			CallData:           calls[i],
			AccountGasLimits:   pack16(big.NewInt(userOpVerificationGas), new(big.Int).SetUint64(callGas[i])),
			PreVerificationGas: big.NewInt(userOpPreVerification),
			GasFees:            pack16(tip, maxFee),
			PaymasterAndData:   []byte{},
			Signature:          []byte{},
		}
		v, err := w.entryPointCall(ctx, "getUserOpHash", op)
		if err != nil {
			return nil, nil, fmt.Errorf("send: %w", err)
		}
		h := common.Hash(v[0].([32]byte))
		sig, err := w.s.SignHash(ctx, common.BytesToHash(accounts.TextHash(h[:])))
		if err != nil {
			return nil, nil, fmt.Errorf("send: %w", err)
		}
		op.Signature = sig
		data, err := entryPointABI().Pack("handleOps", []UserOp{op}, key)
		if err != nil {
			return nil, nil, fmt.Errorf("send: %w", err)
		}
		out = append(out, tool.Tx{To: tool.Address(w.entryPoint), Data: data, Label: txs[i].Label})
		hashes = append(hashes, h)
	}
	return out, hashes, nil
}

// callGas returns each call's callGasLimit: its gas from the account,
// plus the wallet's margin and accrualHeadroom, at most the block's gas
// limit. The EntryPoint v0.7 keeps a tenth of a limit's unused part, so
// every call is estimated, none gets a fixed allowance. A single call is
// estimated by the node (eth_estimateGas from the account); a plan's calls
// are run in sequence on a fork of the latest state (Simulator, the
// account as sender), so a swap is estimated after its approval, and each
// gets the peak gas it used before refunds. A call that would revert is a
// *SendError naming it, and nothing is signed.
func (w *Wallet) callGas(ctx context.Context, txs []tool.Tx, blockGas uint64) ([]uint64, error) {
	limit := func(g uint64) uint64 { return min(g*(100+w.margin)/100+accrualHeadroom, blockGas) }
	if len(txs) == 1 {
		t := txs[0]
		to := common.Address(t.To)
		g, err := w.p.EstimateGas(ctx, ethereum.CallMsg{From: w.account, To: &to, Value: t.Value, Data: t.Data})
		if err != nil {
			return nil, &SendError{Index: 0, Label: t.Label, Err: err}
		}
		return []uint64{limit(g)}, nil
	}
	res, err := w.sim.Simulate(ctx, w.p.ChainID(), tool.Address(w.account), txs, nil)
	if err != nil {
		return nil, fmt.Errorf("send: estimate the plan's calls: %w", err)
	}
	if !res.OK {
		i := res.Reverted
		return nil, &SendError{Index: i, Label: txs[i].Label, Err: &RevertError{Reason: res.RevertReason, Data: res.RevertData}}
	}
	out := make([]uint64, len(txs))
	for i, g := range res.peakGas {
		out[i] = limit(g)
	}
	return out, nil
}

// userOpOutcome finds the UserOperationEvent of hash, emitted by
// entryPoint, in r and returns nil if the inner call succeeded, a
// *RevertError with the account's revert reason if it did not, and an
// error if the receipt has no such event.
func userOpOutcome(r *types.Receipt, entryPoint common.Address, hash common.Hash) error {
	a := entryPointABI()
	ev, _ := a.Event("UserOperationEvent")
	rev, _ := a.Event("UserOperationRevertReason")
	evID, reasonID := common.Hash(ev), common.Hash(rev)
	var reason []byte
	for _, l := range r.Logs {
		if l.Address != entryPoint || len(l.Topics) < 2 || l.Topics[1] != hash {
			continue
		}
		switch l.Topics[0] {
		case reasonID:
			v, err := a.abi.Unpack("UserOperationRevertReason", l.Data)
			if err == nil && len(v) == 2 {
				reason, _ = v[1].([]byte)
			}
		case evID:
			v, err := a.abi.Unpack("UserOperationEvent", l.Data)
			if err != nil || len(v) != 4 {
				return fmt.Errorf("user operation %s: malformed UserOperationEvent", hash.Hex())
			}
			if ok, _ := v[1].(bool); ok {
				return nil
			}
			return fmt.Errorf("user operation %s failed in the account: %w", hash.Hex(), DecodeRevert(reason, sessionAccountABI()))
		}
	}
	return fmt.Errorf("user operation %s: handleOps receipt has no UserOperationEvent for it", hash.Hex())
}

// journaledOpsOutcome returns, for a journaled transaction whose receipt
// r has status success, why its effect did not happen (nil: it did). A
// transaction that is not a call of handleOps succeeded; one that is
// succeeded only if the EntryPoint it called emitted a successful
// UserOperationEvent for each operation's hash (userOpOutcome), as the
// live Send decides. It looks at the signed bytes, not at the wallet's
// configuration, which may have changed since they were sent. Bytes that
// do not decode, or a handleOps whose operations cannot be read, are
// failures: an effect that cannot be verified is not recorded as done.
// An error reading the operations' hashes from the chain is err, and the
// caller leaves the transaction in flight.
func (w *Wallet) journaledOpsOutcome(ctx context.Context, t SentTx, r *types.Receipt) (failure error, err error) {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(t.Raw); err != nil || tx.Hash() != t.Hash {
		return errors.New("the journal's signed bytes do not decode to the transaction"), nil
	}
	a := entryPointABI()
	sel, _ := a.Selector("handleOps")
	data := tx.Data()
	if tx.To() == nil || len(data) < 4 || [4]byte(data[:4]) != sel {
		return nil, nil
	}
	entryPoint := *tx.To()
	ops, err := unpackOps(data[4:])
	if err != nil || len(ops) == 0 {
		return fmt.Errorf("handleOps %s: its operations do not decode", t.Hash.Hex()), nil
	}
	for _, op := range ops {
		h, err := a.Pack("getUserOpHash", op)
		if err != nil {
			return fmt.Errorf("handleOps %s: %w", t.Hash.Hex(), err), nil
		}
		ret, err := w.p.Call(ctx, ethereum.CallMsg{To: &entryPoint, Data: h})
		if err != nil {
			return nil, fmt.Errorf("entry point %s: getUserOpHash: %w", entryPoint.Hex(), err)
		}
		hv, err := a.Unpack("getUserOpHash", ret)
		if err != nil {
			return nil, fmt.Errorf("entry point %s: getUserOpHash: %w", entryPoint.Hex(), err)
		}
		if err := userOpOutcome(r, entryPoint, common.Hash(hv[0].([32]byte))); err != nil {
			return err, nil
		}
	}
	return nil, nil
}

// unpackOps decodes handleOps' arguments (selector removed) into its
// operations.
func unpackOps(args []byte) (ops []UserOp, err error) {
	v, err := entryPointABI().abi.Methods["handleOps"].Inputs.Unpack(args)
	if err != nil {
		return nil, err
	}
	if len(v) != 2 {
		return nil, fmt.Errorf("handleOps has %d arguments, want 2", len(v))
	}
	defer func() { // abi.ConvertType panics on a shape it cannot convert
		if r := recover(); r != nil {
			ops, err = nil, fmt.Errorf("handleOps operations: %v", r)
		}
	}()
	return *abi.ConvertType(v[0], new([]UserOp)).(*[]UserOp), nil
}

// entryPointReason names the EntryPoint's custom errors (FailedOp with
// its "AAxx" code) in a revert of handleOps that decoded without them.
func entryPointReason(err error) error {
	var re *RevertError
	if errors.As(err, &re) && strings.HasPrefix(re.Reason, "custom error") {
		re.Reason = DecodeRevert(re.Data, entryPointABI(), sessionAccountABI()).Reason
	}
	return err
}
