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

const safeColumns = `hash, chain_id, safe, nonce, to_addr, value, data, permit_id, plan_index, plan_len, label, executed_tx, created_ns, executed_ns`

func scanSafe(st *sqlite3.Stmt) store.SafeTx {
	return store.SafeTx{
		Hash: st.ColumnText(0), ChainID: uint64(st.ColumnInt64(1)), Safe: st.ColumnText(2), Nonce: uint64(st.ColumnInt64(3)),
		To: st.ColumnText(4), Value: st.ColumnText(5), Data: slices.Clone(st.ColumnRawBlob(6)), PermitID: st.ColumnText(7),
		Index: st.ColumnInt(8), PlanLen: st.ColumnInt(9), Label: st.ColumnText(10), Executed: st.ColumnText(11),
		Created: nsTime(st, 12), ExecutedAt: nsTime(st, 13),
	}
}

// ProposeSafeTx stores a Safe transaction awaiting signatures (see
// store.SafeTxs).
func (s *Store) ProposeSafeTx(ctx context.Context, t *store.SafeTx) error {
	if err := store.CheckRecord("sqlite: propose safe tx", t); err != nil {
		return err
	}
	c := *t
	c.Data = slices.Clone(t.Data)
	c.Signatures = slices.Clone(t.Signatures)
	err := s.do(ctx, func(tx *wtx) error {
		if _, err := tx.exec(`INSERT INTO safe_txs (hash, chain_id, safe, nonce, to_addr, value, data, permit_id, plan_index, plan_len, label, created_ns)
  VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
			c.Hash, c.ChainID, c.Safe, c.Nonce, c.To, c.Value, c.Data, c.PermitID, c.Index, c.PlanLen, nullable(c.Label), c.Created); err != nil {
			return err
		}
		for _, sg := range c.Signatures {
			if _, err := tx.exec(`INSERT INTO safe_signatures (hash, owner, sig, signed_ns) VALUES (?,?,?,?)`, c.Hash, sg.Owner, sg.Sig, sg.At); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: propose safe tx %s: %w", c.Hash, err)
	}
	return nil
}

// SafeTx returns a Safe transaction with its signatures (see
// store.SafeTxs).
func (s *Store) SafeTx(ctx context.Context, hash string) (store.SafeTx, error) {
	var t store.SafeTx
	found := false
	err := s.r.query(ctx, `SELECT `+safeColumns+` FROM safe_txs WHERE hash = ?`, []any{hash}, func(st *sqlite3.Stmt) error {
		t, found = scanSafe(st), true
		return nil
	})
	if err == nil && !found {
		err = store.ErrNotFound
	}
	if err == nil {
		err = s.r.query(ctx, `SELECT owner, sig, signed_ns FROM safe_signatures WHERE hash = ? ORDER BY signed_ns, rowid`, []any{hash},
			func(st *sqlite3.Stmt) error {
				t.Signatures = append(t.Signatures, store.SafeSignature{Owner: st.ColumnText(0), Sig: slices.Clone(st.ColumnRawBlob(1)), At: nsTime(st, 2)})
				return nil
			})
	}
	if err != nil {
		return store.SafeTx{}, fmt.Errorf("sqlite: safe tx %s: %w", hash, err)
	}
	return t, nil
}

// AddSafeSignature adds an owner's signature to a pending Safe
// transaction (see store.SafeTxs).
func (s *Store) AddSafeSignature(ctx context.Context, hash string, sg store.SafeSignature) error {
	if err := sg.Validate(); err != nil {
		return fmt.Errorf("sqlite: add safe signature: %w", err)
	}
	sg.Sig = slices.Clone(sg.Sig)
	err := s.do(ctx, func(tx *wtx) error {
		var executed string
		found, err := tx.one(`SELECT coalesce(executed_tx, '') FROM safe_txs WHERE hash = ?`, []any{hash},
			func(st *sqlite3.Stmt) error { executed = st.ColumnText(0); return nil })
		switch {
		case err != nil:
			return err
		case !found:
			return answer(store.ErrNotFound)
		case executed != "":
			return answer(store.ErrSafeTxExecuted)
		}
		n, err := tx.exec(`INSERT INTO safe_signatures (hash, owner, sig, signed_ns) VALUES (?,?,?,?) ON CONFLICT (hash, owner) DO NOTHING`,
			hash, sg.Owner, sg.Sig, sg.At)
		if err == nil && n == 0 {
			return answer(store.ErrSafeSignedTwice)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: add safe signature to %s: %w", hash, err)
	}
	return nil
}

// SafeTxExecuted records a Safe transaction executed (see
// store.SafeTxs).
func (s *Store) SafeTxExecuted(ctx context.Context, hash, txHash string, at time.Time) error {
	if txHash == "" || at.IsZero() {
		return errors.New("sqlite: safe tx executed: transaction and time required")
	}
	err := s.do(ctx, func(tx *wtx) error {
		return tx.settleOnce(`UPDATE safe_txs SET executed_tx = ?, executed_ns = ? WHERE hash = ? AND executed_tx IS NULL`, []any{txHash, at, hash},
			`SELECT 1 FROM safe_txs WHERE hash = ?`, hash, store.ErrSafeTxExecuted)
	})
	if err != nil {
		return fmt.Errorf("sqlite: safe tx %s executed: %w", hash, err)
	}
	return nil
}

// PendingSafeTxs returns a Safe's pending transactions by nonce (see
// store.SafeTxs).
func (s *Store) PendingSafeTxs(ctx context.Context, chainID uint64, safe string) ([]store.SafeTx, error) {
	var hashes []string
	err := s.r.query(ctx, `SELECT hash FROM safe_txs WHERE chain_id = ? AND safe = ? AND executed_tx IS NULL ORDER BY nonce, created_ns`,
		[]any{chainID, safe}, func(st *sqlite3.Stmt) error { hashes = append(hashes, st.ColumnText(0)); return nil })
	if err != nil {
		return nil, fmt.Errorf("sqlite: pending safe txs: %w", err)
	}
	out := make([]store.SafeTx, 0, len(hashes))
	for _, h := range hashes {
		t, err := s.SafeTx(ctx, h)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

var _ store.SafeTxs = (*Store)(nil)

// settleOnce runs update, which settles one row not yet settled (its
// WHERE names the row and that it is unsettled). When it changes no row
// it answers store.ErrNotFound if exists (a query of the row by key)
// finds none, else already: the row was settled before. The Safe queue's
// executions and the owner's transactions are settled this way.
func (tx *wtx) settleOnce(update string, args []any, exists, key string, already error) error {
	n, err := tx.exec(update, args...)
	if err != nil || n == 1 {
		return err
	}
	found, err := tx.one(exists, []any{key}, func(*sqlite3.Stmt) error { return nil })
	switch {
	case err != nil:
		return err
	case !found:
		return answer(store.ErrNotFound)
	}
	return answer(already)
}
