package postgres

import (
	"context"
	"fmt"
	"strconv"

	"github.com/wardhq/ward/internal/store"
)

// lockWallet is the advisory-lock class of a wallet's sends (a class of
// its own, apart from lock.go's list).
const lockWallet int32 = 100

var _ store.WalletLocker = (*Store)(nil)

// LockWallet takes a session-level advisory lock on the wallet on a
// connection of its own, held until unlock: if this process dies, its
// connection closes and the server releases the lock, so no instance can
// leave a wallet locked.
func (s *Store) LockWallet(ctx context.Context, chainID uint64, from string) (func(), error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: lock wallet: %w", err)
	}
	k := key(strconv.FormatUint(chainID, 10) + ":" + from)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1, $2)`, lockWallet, k); err != nil {
		// A cancelled wait may leave the connection's state unknown.
		_ = conn.Conn().Close(context.Background())
		conn.Release()
		return nil, fmt.Errorf("postgres: lock wallet: %w", err)
	}
	return func() {
		if _, err := conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1, $2)`, lockWallet, k); err != nil {
			_ = conn.Conn().Close(context.Background()) // closing releases it
		}
		conn.Release()
	}, nil
}
