package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// schemaOwnerTxs (migration 8) adds the transactions prepared for the
// owner of the ERC-4337 account (store.OwnerTxs), pending until done_tx
// is set once.
const schemaOwnerTxs = `
CREATE TABLE owner_txs (
  id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
  chain_id bigint NOT NULL CHECK (chain_id > 0),
  account text NOT NULL CHECK (account ~ '^0x[0-9a-f]{40}$'),
  owner text NOT NULL CHECK (owner ~ '^0x[0-9a-f]{40}$'),
  kind text NOT NULL CHECK (kind IN ('grant_session_key', 'revoke_session_key')),
  session_key text NOT NULL CHECK (session_key ~ '^0x[0-9a-f]{40}$'),
  data bytea NOT NULL CHECK (length(data) >= 4),
  unsigned_tx bytea,
  from_block bigint NOT NULL CHECK (from_block >= 0),
  permit_id text NOT NULL,
  created_ns bigint NOT NULL,
  done_tx text,
  done_ns bigint,
  CHECK ((done_tx IS NULL) = (done_ns IS NULL))
);
CREATE INDEX owner_txs_pending ON owner_txs (created_ns) WHERE done_tx IS NULL;
`

// schemaOwnerTxStale (migration 9) adds owner_txs.stale_ns: when ward saw
// the owner's nonce pass a held transaction without its change (NULL:
// never).
const schemaOwnerTxStale = `ALTER TABLE owner_txs ADD COLUMN stale_ns bigint;`

const ownerTxColumns = `id, chain_id, account, owner, kind, session_key, data, unsigned_tx, from_block, permit_id, created_ns, done_tx, done_ns, stale_ns`

func scanOwnerTx(row pgx.CollectableRow) (store.OwnerTx, error) {
	var (
		t                    store.OwnerTx
		chain, from, created int64
		kind                 string
		done                 *string
		doneAt, staleAt      *int64
	)
	if err := row.Scan(&t.ID, &chain, &t.Account, &t.Owner, &kind, &t.SessionKey, &t.Data, &t.Unsigned, &from, &t.PermitID,
		&created, &done, &doneAt, &staleAt); err != nil {
		return t, err
	}
	t.ChainID, t.FromBlock, t.Created, t.Done = uint64(chain), uint64(from), nsTime(created), text(done)
	if doneAt != nil {
		t.DoneAt = nsTime(*doneAt)
	}
	if staleAt != nil {
		t.Stale = nsTime(*staleAt)
	}
	if len(t.Unsigned) == 0 {
		t.Unsigned = nil
	}
	k, err := store.ParseOwnerTxKind(kind)
	if err != nil {
		return t, fmt.Errorf("owner tx %s: stored %w", t.ID, err)
	}
	t.Kind = k
	return t, nil
}

// HoldOwnerTx stores a transaction prepared for the owner, pending (see
// store.OwnerTxs).
func (s *Store) HoldOwnerTx(ctx context.Context, t *store.OwnerTx) error {
	if err := admit(s, "postgres: hold owner tx", t, func(t *store.OwnerTx) []string { return []string{t.ID, t.PermitID} }); err != nil {
		return err
	}
	var unsigned any
	if len(t.Unsigned) > 0 {
		unsigned = t.Unsigned
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO owner_txs (id, chain_id, account, owner, kind, session_key, data, unsigned_tx, from_block, permit_id, created_ns)
VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
		t.ID, int64(t.ChainID), t.Account, t.Owner, t.Kind.String(), t.SessionKey, t.Data, unsigned, int64(t.FromBlock), t.PermitID,
		t.Created.UnixNano())
	if err != nil {
		return fmt.Errorf("postgres: hold owner tx %s: %w", t.ID, err)
	}
	return nil
}

// OwnerTx returns a transaction prepared for the owner (see
// store.OwnerTxs).
func (s *Store) OwnerTx(ctx context.Context, id string) (store.OwnerTx, error) {
	if err := s.ok(); err != nil {
		return store.OwnerTx{}, err
	}
	t, err := queryOne(ctx, s.pool, scanOwnerTx, `SELECT `+ownerTxColumns+` FROM owner_txs WHERE id = $1`, id)
	if err != nil {
		return store.OwnerTx{}, fmt.Errorf("postgres: owner tx %s: %w", id, err)
	}
	return t, nil
}

// OwnerTxDone records a transaction prepared for the owner done, in one
// conditional update (see store.OwnerTxs).
func (s *Store) OwnerTxDone(ctx context.Context, id, txHash string, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if txHash == "" || at.IsZero() {
		return errors.New("postgres: owner tx done: transaction and time required")
	}
	if err := s.settleOnce(ctx, `UPDATE owner_txs SET done_tx = $1, done_ns = $2 WHERE id = $3 AND done_tx IS NULL`, []any{txHash, at.UnixNano(), id},
		`SELECT 1 FROM owner_txs WHERE id = $1`, id, store.ErrOwnerTxDone); err != nil {
		return fmt.Errorf("postgres: owner tx %s done: %w", id, err)
	}
	return nil
}

// OwnerTxStale records a transaction prepared for the owner stale, in one
// conditional update (see store.OwnerTxs).
func (s *Store) OwnerTxStale(ctx context.Context, id string, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if at.IsZero() {
		return errors.New("postgres: owner tx stale: time required")
	}
	var done bool
	err := s.pool.QueryRow(ctx, `WITH u AS (UPDATE owner_txs SET stale_ns = $1 WHERE id = $2 AND done_tx IS NULL AND stale_ns IS NULL RETURNING id)
SELECT done_tx IS NOT NULL FROM owner_txs WHERE id = $2 AND NOT EXISTS (SELECT 1 FROM u)
UNION ALL SELECT false FROM u`, at.UnixNano(), id).Scan(&done)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("postgres: owner tx %s stale: %w", id, store.ErrNotFound)
	case err != nil:
		return fmt.Errorf("postgres: owner tx %s stale: %w", id, err)
	case done:
		return fmt.Errorf("postgres: owner tx %s stale: %w", id, store.ErrOwnerTxDone)
	}
	return nil
}

// PendingOwnerTxs returns the pending transactions prepared for the
// owner, oldest first (see store.OwnerTxs).
func (s *Store) PendingOwnerTxs(ctx context.Context) ([]store.OwnerTx, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanOwnerTx, `SELECT `+ownerTxColumns+` FROM owner_txs WHERE done_tx IS NULL ORDER BY created_ns, id`)
	if err != nil {
		return nil, fmt.Errorf("postgres: pending owner txs: %w", err)
	}
	return out, nil
}

var _ store.OwnerTxs = (*Store)(nil)
