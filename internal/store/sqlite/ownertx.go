package sqlite

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

const ownerTxColumns = `id, chain_id, account, owner, kind, session_key, data, unsigned_tx, from_block, permit_id, created_ns, done_tx, done_ns, stale_ns`

func scanOwnerTx(st *sqlite3.Stmt) (store.OwnerTx, error) {
	t := store.OwnerTx{
		ID: st.ColumnText(0), ChainID: uint64(st.ColumnInt64(1)), Account: st.ColumnText(2), Owner: st.ColumnText(3),
		SessionKey: st.ColumnText(5), Data: slices.Clone(st.ColumnRawBlob(6)), Unsigned: slices.Clone(st.ColumnRawBlob(7)),
		FromBlock: uint64(st.ColumnInt64(8)), PermitID: st.ColumnText(9), Created: nsTime(st, 10), Done: st.ColumnText(11),
		DoneAt: nsTime(st, 12), Stale: nsTime(st, 13),
	}
	k, err := store.ParseOwnerTxKind(st.ColumnText(4))
	if err != nil {
		return t, fmt.Errorf("owner tx %s: stored %w", t.ID, err)
	}
	t.Kind = k
	if len(t.Unsigned) == 0 {
		t.Unsigned = nil
	}
	return t, nil
}

// HoldOwnerTx stores a transaction prepared for the owner, pending (see
// store.OwnerTxs).
func (s *Store) HoldOwnerTx(ctx context.Context, t *store.OwnerTx) error {
	if err := store.CheckRecord("sqlite: hold owner tx", t); err != nil {
		return err
	}
	c := *t
	c.Data, c.Unsigned = slices.Clone(t.Data), slices.Clone(t.Unsigned)
	var unsigned any
	if len(c.Unsigned) > 0 {
		unsigned = c.Unsigned
	}
	err := s.do(ctx, func(tx *wtx) error {
		_, err := tx.exec(`INSERT INTO owner_txs (id, chain_id, account, owner, kind, session_key, data, unsigned_tx, from_block, permit_id, created_ns)
  VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
			c.ID, c.ChainID, c.Account, c.Owner, c.Kind.String(), c.SessionKey, c.Data, unsigned, c.FromBlock, c.PermitID, c.Created)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: hold owner tx %s: %w", c.ID, err)
	}
	return nil
}

// OwnerTx returns a transaction prepared for the owner (see
// store.OwnerTxs).
func (s *Store) OwnerTx(ctx context.Context, id string) (store.OwnerTx, error) {
	t, err := readOne(ctx, s.r, scanOwnerTx, `SELECT `+ownerTxColumns+` FROM owner_txs WHERE id = ?`, id)
	if err != nil {
		return store.OwnerTx{}, fmt.Errorf("sqlite: owner tx %s: %w", id, err)
	}
	return t, nil
}

// OwnerTxDone records a transaction prepared for the owner done (see
// store.OwnerTxs).
func (s *Store) OwnerTxDone(ctx context.Context, id, txHash string, at time.Time) error {
	if txHash == "" || at.IsZero() {
		return errors.New("sqlite: owner tx done: transaction and time required")
	}
	err := s.do(ctx, func(tx *wtx) error {
		return tx.settleOnce(`UPDATE owner_txs SET done_tx = ?, done_ns = ? WHERE id = ? AND done_tx IS NULL`, []any{txHash, at, id},
			`SELECT 1 FROM owner_txs WHERE id = ?`, id, store.ErrOwnerTxDone)
	})
	if err != nil {
		return fmt.Errorf("sqlite: owner tx %s done: %w", id, err)
	}
	return nil
}

// OwnerTxStale records a transaction prepared for the owner stale (see
// store.OwnerTxs).
func (s *Store) OwnerTxStale(ctx context.Context, id string, at time.Time) error {
	if at.IsZero() {
		return errors.New("sqlite: owner tx stale: time required")
	}
	err := s.do(ctx, func(tx *wtx) error {
		if _, err := tx.exec(`UPDATE owner_txs SET stale_ns = ? WHERE id = ? AND done_tx IS NULL AND stale_ns IS NULL`, at, id); err != nil {
			return err
		}
		var done bool
		found, err := tx.one(`SELECT done_tx IS NOT NULL FROM owner_txs WHERE id = ?`, []any{id}, func(st *sqlite3.Stmt) error {
			done = st.ColumnBool(0)
			return nil
		})
		switch {
		case err != nil:
			return err
		case !found:
			return answer(store.ErrNotFound)
		case done:
			return answer(store.ErrOwnerTxDone)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: owner tx %s stale: %w", id, err)
	}
	return nil
}

// PendingOwnerTxs returns the pending transactions prepared for the
// owner, oldest first (see store.OwnerTxs).
func (s *Store) PendingOwnerTxs(ctx context.Context) ([]store.OwnerTx, error) {
	out, err := readRows(ctx, s.r, scanOwnerTx, `SELECT `+ownerTxColumns+` FROM owner_txs WHERE done_tx IS NULL ORDER BY created_ns, id`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: pending owner txs: %w", err)
	}
	return out, nil
}

var _ store.OwnerTxs = (*Store)(nil)
