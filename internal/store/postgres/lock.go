package postgres

import (
	"context"
	"hash/fnv"

	"github.com/jackc/pgx/v5"
)

// Advisory locks. A transaction that reads what it is about to decide on
// (a window's totals, a session count, the trust log's head) first takes
// pg_advisory_xact_lock on a key naming that thing; every instance takes
// the same key for the same thing, so such transactions run one at a time
// across the database, and the lock is released by their commit or
// rollback, never held by a process that died.

// Lock classes: the first half of a two-int advisory key.
const (
	lockMigrate   int32 = 1 + iota // session lock around migrations
	lockWindows                    // spend and rate windows (one global key)
	lockTrust                      // the trust log's head
	lockSession                    // a principal's sessions (key: principal)
	lockHeld                       // a session's held calls (key: session)
	lockPrincipal                  // principal names
	lockKnowledge                  // an agent's quarantine (key: agent)
	lockLearnt                     // what ingestion learns (key: table)
)

// key hashes a name into the second half of an advisory key.
func key(name string) int32 {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return int32(h.Sum32())
}

// xlock takes the transaction-scoped advisory lock (class, key(name)).
func xlock(ctx context.Context, tx pgx.Tx, class int32, name string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, class, key(name))
	return err
}
