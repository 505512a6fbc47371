package store

import "context"

// ChangeKind names what kind of state a Change is about.
type ChangeKind uint8

// Kinds of change. The zero value is ChangeAll: forget everything cached
// (sent when a watcher may have missed changes, as after a reconnect).
const (
	ChangeAll       ChangeKind = iota
	ChangeSession              // ID: a session id whose record or ledger changed
	ChangePrincipal            // ID: a principal whose tokens, review or taint changed
	ChangeControl              // the gate's phase or halt
)

// Change tells the caches above a store shared by several processes that
// another writer changed something they may hold.
type Change struct {
	Kind ChangeKind
	ID   string
}

// Watcher is implemented by a backend that several processes share. Watch
// delivers, until ctx ends, a Change for every committed write of any
// process that changed a session, a principal or the gate's control, and
// a ChangeAll whenever it cannot vouch that it missed none (first
// connection, reconnect, a full channel). A process's own writes are
// delivered too.
type Watcher interface {
	Watch(ctx context.Context) (<-chan Change, error)
}

// KeyChecks keeps, per name, a check value of a key the data was written
// with (a fingerprint, never the key), so that a ward started with another
// key is refused instead of failing later on data it cannot open.
type KeyChecks interface {
	// KeyCheck stores check under name unless one is stored, durably, and
	// returns the stored one (check itself the first time). name is 1 to
	// 64 bytes; check 16 to 64 bytes.
	KeyCheck(ctx context.Context, name string, check []byte) (stored []byte, err error)
}

// CheckKeyCheck returns why KeyCheck must refuse its arguments, or nil.
func CheckKeyCheck(name string, check []byte) error {
	switch {
	case name == "" || len(name) > 64:
		return Invalid("key check name of %d bytes, want 1 to 64", len(name))
	case len(check) < 16 || len(check) > 64:
		return Invalid("key check of %d bytes, want 16 to 64", len(check))
	}
	return nil
}

// WalletLocker is implemented by a backend that several processes share:
// LockWallet holds the wallet (from, lower-case hex, on chainID) for one
// process at a time, until unlock is called or the process dies, so that
// sends from one wallet through several ward instances take turns instead
// of racing for nonces. It waits for the lock until ctx ends.
type WalletLocker interface {
	LockWallet(ctx context.Context, chainID uint64, from string) (unlock func(), err error)
}
