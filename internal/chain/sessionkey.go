package chain

// The owner's session-key calls. Ward holds a session key of its ERC-4337
// account, never the owner's key, so it cannot grant or revoke a session
// key itself: it prepares the owner's call (the account's grantSessionKey
// or revokeSessionKey, sent by the owner to the account; for an owner
// that is an EOA, the exact unsigned transaction), and later reads the
// account to see whether the owner sent it. Nothing here signs or sends.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Limits of what SessionKeyAccount can express, and of what ward asks of
// it in one call.
const (
	// MaxSessionCalls bounds a grant's (target, selector) pairs: the
	// account loops over them in grant, revoke and validation.
	MaxSessionCalls = 32
	maxUint48       = 1<<48 - 1
)

var maxUint128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))

// ErrSessionKeyChange is a grant or revocation the account cannot
// express or would refuse: nothing was prepared.
var ErrSessionKeyChange = errors.New("session key change refused")

// SessionKeyChange is a grant of Scope to Key on Account (Revoke false),
// or Key's revocation.
type SessionKeyChange struct {
	Account common.Address
	Key     common.Address
	Revoke  bool
	Scope   SessionScope // a grant's; ignored for a revocation
}

// OwnerCall is the owner's transaction that makes a SessionKeyChange:
// From (the account's owner, read on chain) calls Account with Data.
// Tx is, when the owner is an EOA, the exact unsigned EIP-1559
// transaction to sign (nonce, gas and fees as of Block); nil when the
// owner is a contract, which sends Data its own way. Block is the head
// when it was prepared: the change is looked for from there.
type OwnerCall struct {
	ChainID uint64
	Account common.Address
	Owner   common.Address
	Key     common.Address
	Revoke  bool
	Data    []byte
	Block   uint64
	Tx      *types.Transaction
}

func refuseChange(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrSessionKeyChange, fmt.Sprintf(format, a...))
}

// checkScope says what in s SessionKeyAccount cannot express (nil: all of
// it can), at time now.
func checkScope(s SessionScope, account common.Address, now time.Time) error {
	switch {
	case len(s.Targets) == 0:
		return refuseChange("a grant needs at least one (target, selector) pair")
	case len(s.Targets) > MaxSessionCalls:
		return refuseChange("a grant may name at most %d (target, selector) pairs, not %d", MaxSessionCalls, len(s.Targets))
	case len(s.Targets) != len(s.Selectors):
		return refuseChange("targets and selectors differ in length")
	case !s.ValidUntil.After(now):
		return refuseChange("expiry %s is not in the future", s.ValidUntil.UTC().Format(time.RFC3339))
	case s.ValidUntil.Unix() > maxUint48:
		return refuseChange("expiry %d is beyond the account's uint48 seconds", s.ValidUntil.Unix())
	case s.ValueCap == nil || s.ValueCap.Sign() < 0 || s.ValueCap.Cmp(maxUint128) > 0:
		return refuseChange("the per-call value cap must be 0 to 2^128-1 wei")
	}
	for i, t := range s.Targets {
		switch {
		case t == (common.Address{}):
			return refuseChange("target %d is the zero address", i)
		case t == account:
			return refuseChange("target %d is the account itself: session keys cannot call the account", i)
		}
		for j := range i {
			if s.Targets[j] == t && s.Selectors[j] == s.Selectors[i] {
				return refuseChange("pair %d repeats pair %d", i, j)
			}
		}
	}
	return nil
}

// PrepareSessionKey reads c.Account on p's chain and returns the owner's
// call for c: an ErrSessionKeyChange says why the account cannot express
// c or would refuse it (the key is the owner, the account or zero; a
// revoked key is not granted; the call reverts when simulated from the
// owner). It signs and sends nothing.
func PrepareSessionKey(ctx context.Context, p *Provider, c SessionKeyChange, now time.Time) (*OwnerCall, error) {
	if c.Account == (common.Address{}) {
		return nil, refuseChange("the wallet sends from no ERC-4337 account")
	}
	if c.Key == (common.Address{}) || c.Key == c.Account {
		return nil, refuseChange("session key %s is zero or the account itself", c.Key.Hex())
	}
	a := sessionAccountABI()
	read := func(method string, args ...any) ([]any, error) {
		data, err := a.Pack(method, args...)
		if err != nil {
			return nil, err
		}
		ret, err := p.Call(ctx, ethereum.CallMsg{To: &c.Account, Data: data})
		if err != nil {
			return nil, fmt.Errorf("account %s: %s: %w", c.Account.Hex(), method, err)
		}
		return a.Unpack(method, ret)
	}
	v, err := read("owner")
	if err != nil {
		return nil, fmt.Errorf("prepare session key: %w", err)
	}
	owner := v[0].(common.Address)
	if c.Key == owner {
		return nil, refuseChange("session key %s is the account's owner", c.Key.Hex())
	}
	var data []byte
	if c.Revoke {
		if v, err = read("sessionKey", c.Key); err != nil {
			return nil, fmt.Errorf("prepare session key: %w", err)
		}
		if !v[0].(bool) {
			return nil, refuseChange("%s is not a session key of account %s", c.Key.Hex(), c.Account.Hex())
		}
		data, err = a.Pack("revokeSessionKey", c.Key)
	} else {
		s := c.Scope
		if err := checkScope(s, c.Account, now); err != nil {
			return nil, err
		}
		data, err = a.Pack("grantSessionKey", c.Key, big.NewInt(s.ValidUntil.Unix()), s.ValueCap, s.Targets, s.Selectors)
	}
	if err != nil {
		return nil, fmt.Errorf("prepare session key: %w", err)
	}
	head, err := p.HeaderLatest(ctx)
	if err != nil {
		return nil, fmt.Errorf("prepare session key: %w", err)
	}
	msg := ethereum.CallMsg{From: owner, To: &c.Account, Data: data}
	gas, err := p.EstimateGas(ctx, msg)
	if err != nil {
		return nil, refuseChange("the account refuses the owner's call: %v", err)
	}
	out := &OwnerCall{ChainID: p.ChainID(), Account: c.Account, Owner: owner, Key: c.Key, Revoke: c.Revoke, Data: data, Block: head.Number.Uint64()}
	code, err := p.Code(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("prepare session key: %w", err)
	}
	if len(code) > 0 {
		return out, nil // a contract owner (a Safe) sends Data its own way
	}
	nonce, err := p.Nonce(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("prepare session key: %w", err)
	}
	tip, err := p.SuggestGasTip(ctx)
	if err != nil {
		return nil, fmt.Errorf("prepare session key: %w", err)
	}
	maxFee := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	out.Tx = types.NewTx(&types.DynamicFeeTx{
		ChainID: new(big.Int).SetUint64(p.ChainID()), Nonce: nonce, GasTipCap: tip, GasFeeCap: maxFee,
		Gas: gas + gas/5, To: &c.Account, Value: new(big.Int), Data: data,
	})
	return out, nil
}

// SessionKeyCall is a decoded owner's session-key call.
type SessionKeyCall struct {
	Key    common.Address
	Revoke bool
	Scope  SessionScope // a grant's
}

// DecodeSessionKeyCall decodes the account's grantSessionKey or
// revokeSessionKey calldata; any other calldata is an error.
func DecodeSessionKeyCall(data []byte) (SessionKeyCall, error) {
	name, v, err := sessionAccountABI().UnpackArgs(data)
	if err != nil {
		return SessionKeyCall{}, fmt.Errorf("session key call: %w", err)
	}
	switch name {
	case "revokeSessionKey":
		return SessionKeyCall{Key: v[0].(common.Address), Revoke: true}, nil
	case "grantSessionKey":
		return SessionKeyCall{Key: v[0].(common.Address), Scope: SessionScope{
			ValidUntil: time.Unix(v[1].(*big.Int).Int64(), 0), ValueCap: v[2].(*big.Int),
			Targets: v[3].([]common.Address), Selectors: v[4].([][4]byte),
		}}, nil
	}
	return SessionKeyCall{}, fmt.Errorf("session key call: %s is not grantSessionKey or revokeSessionKey", name)
}

// SessionKeyObserved reads account on p's chain and says whether the
// owner's call data (DecodeSessionKeyCall) took effect: the account's
// state matches it now (a granted key active with exactly its expiry, cap
// and scope; a revoked key inactive) and a SessionKeyGranted or
// SessionKeyRevoked event of the key was emitted at or after block from.
// tx is the transaction of the latest such event. Nothing a client
// claims is taken into account.
func SessionKeyObserved(ctx context.Context, p *Provider, account common.Address, data []byte, from uint64) (tx common.Hash, ok bool, err error) {
	c, err := DecodeSessionKeyCall(data)
	if err != nil {
		return common.Hash{}, false, err
	}
	a := sessionAccountABI()
	read := func(method string, args ...any) ([]any, error) {
		d, err := a.Pack(method, args...)
		if err != nil {
			return nil, err
		}
		ret, err := p.Call(ctx, ethereum.CallMsg{To: &account, Data: d})
		if err != nil {
			return nil, fmt.Errorf("account %s: %s: %w", account.Hex(), method, err)
		}
		return a.Unpack(method, ret)
	}
	v, err := read("sessionKey", c.Key)
	if err != nil {
		return common.Hash{}, false, err
	}
	active := v[0].(bool)
	if active == c.Revoke {
		return common.Hash{}, false, nil
	}
	event := "SessionKeyRevoked"
	if !c.Revoke {
		event = "SessionKeyGranted"
		until, valueCap := v[1].(*big.Int), v[2].(*big.Int)
		if until.Int64() != c.Scope.ValidUntil.Unix() || valueCap.Cmp(c.Scope.ValueCap) != 0 {
			return common.Hash{}, false, nil
		}
		if v, err = read("sessionScope", c.Key); err != nil {
			return common.Hash{}, false, err
		}
		if !slices.Equal(v[0].([]common.Address), c.Scope.Targets) || !slices.Equal(v[1].([][4]byte), c.Scope.Selectors) {
			return common.Hash{}, false, nil
		}
	}
	id, _ := a.Event(event)
	logs, err := p.Logs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), Addresses: []common.Address{account},
		Topics: [][]common.Hash{{common.Hash(id)}, {common.BytesToHash(c.Key.Bytes())}},
	})
	if err != nil {
		return common.Hash{}, false, fmt.Errorf("account %s: %s logs: %w", account.Hex(), event, err)
	}
	if len(logs) == 0 {
		return common.Hash{}, false, nil
	}
	return logs[len(logs)-1].TxHash, true, nil
}
