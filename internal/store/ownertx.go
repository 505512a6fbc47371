package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// OwnerTxKind is what an owner's transaction changes.
type OwnerTxKind uint8

// Kinds of OwnerTx. The zero value is none, and invalid.
const (
	GrantSessionKey OwnerTxKind = iota + 1
	RevokeSessionKey
)

var ownerTxKinds = [...]string{GrantSessionKey: "grant_session_key", RevokeSessionKey: "revoke_session_key"}

// String returns the kind's name ("" for an invalid kind).
func (k OwnerTxKind) String() string {
	if k == 0 || int(k) >= len(ownerTxKinds) {
		return ""
	}
	return ownerTxKinds[k]
}

// MarshalText implements encoding.TextMarshaler.
func (k OwnerTxKind) MarshalText() ([]byte, error) {
	if k.String() == "" {
		return nil, fmt.Errorf("owner tx kind %d", uint8(k))
	}
	return []byte(k.String()), nil
}

// ParseOwnerTxKind parses a kind's name.
func ParseOwnerTxKind(s string) (OwnerTxKind, error) {
	for k, n := range ownerTxKinds {
		if n != "" && n == s {
			return OwnerTxKind(k), nil
		}
	}
	return 0, fmt.Errorf("owner tx kind %q", s)
}

// OwnerTx is a transaction ward prepared for the owner of its ERC-4337
// account, which only the owner can send (ward holds no owner key): the
// owner calls Account with Data. Unsigned is, when the owner is an EOA,
// the exact unsigned transaction to sign (its binary encoding); empty when
// the owner is a contract. It stays pending until ward sees on chain that
// the change took effect, at or after FromBlock; then Done is the
// transaction that made it. It is marked Stale, still without Done, when
// the chain shows the owner's nonce past Unsigned's without the change:
// that exact transaction can never be mined, though the change may still
// be made another way (then it is done). Addresses and hashes are
// lower-case 0x hex.
type OwnerTx struct {
	ID         string
	ChainID    uint64
	Account    string
	Owner      string
	Kind       OwnerTxKind
	SessionKey string
	Data       []byte
	Unsigned   []byte
	FromBlock  uint64
	PermitID   string
	Created    time.Time
	Done       string    // "" while pending
	DoneAt     time.Time // zero while pending
	Stale      time.Time // when it was seen stale; zero if never
}

// ErrOwnerTxDone is an owner's transaction already recorded done.
var ErrOwnerTxDone = errors.New("the owner's transaction was already observed done")

// OwnerTxs holds the transactions prepared for the owner. Every write is
// durable when it returns nil. A backend implements it beside Store; the
// daemon finds it by type assertion.
type OwnerTxs interface {
	// HoldOwnerTx stores t pending. It refuses, writing nothing, an
	// invalid record and an id it holds.
	HoldOwnerTx(ctx context.Context, t *OwnerTx) error
	// OwnerTx returns the record id (ErrNotFound for none).
	OwnerTx(ctx context.Context, id string) (OwnerTx, error)
	// OwnerTxDone records id done by tx at at, in one conditional
	// update: ErrOwnerTxDone if it already was, ErrNotFound if unknown.
	OwnerTxDone(ctx context.Context, id, tx string, at time.Time) error
	// OwnerTxStale records id stale at at, in one conditional update
	// that keeps the first time: ErrOwnerTxDone if it is done,
	// ErrNotFound if unknown.
	OwnerTxStale(ctx context.Context, id string, at time.Time) error
	// PendingOwnerTxs returns the records not done, stale ones
	// included, oldest first.
	PendingOwnerTxs(ctx context.Context) ([]OwnerTx, error)
}

// Validate checks a record before HoldOwnerTx stores it.
func (t *OwnerTx) Validate() error {
	switch {
	case t.ID == "" || len(t.ID) > 64:
		return errors.New("owner tx: id must be 1 to 64 bytes")
	case t.ChainID == 0:
		return errors.New("owner tx: no chain")
	case !hexAddr.MatchString(t.Account) || !hexAddr.MatchString(t.Owner) || !hexAddr.MatchString(t.SessionKey):
		return errors.New("owner tx: the account, the owner and the session key must be lower-case 0x addresses")
	case t.Kind.String() == "":
		return fmt.Errorf("owner tx: kind %d", uint8(t.Kind))
	case len(t.Data) < 4:
		return errors.New("owner tx: no call data")
	case t.PermitID == "":
		return errors.New("owner tx: no permit")
	case t.Done != "" || !t.DoneAt.IsZero() || !t.Stale.IsZero():
		return errors.New("owner tx: a held transaction is pending")
	case t.Created.IsZero():
		return errors.New("owner tx: no creation time")
	}
	return nil
}
