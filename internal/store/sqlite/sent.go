package sqlite

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

const sentColumns = `chain_id, sender, nonce, hash, raw, permit_id, plan_index, plan_len, label, state, block, created_ns, settled_ns`

func scanSent(st *sqlite3.Stmt) (store.SentTx, error) {
	t := store.SentTx{
		ChainID: uint64(st.ColumnInt64(0)), From: st.ColumnText(1), Nonce: uint64(st.ColumnInt64(2)), Hash: st.ColumnText(3),
		Raw: slices.Clone(st.ColumnRawBlob(4)), PermitID: st.ColumnText(5), Index: st.ColumnInt(6), PlanLen: st.ColumnInt(7),
		Label: st.ColumnText(8), Block: uint64(st.ColumnInt64(10)), Created: nsTime(st, 11), Settled: nsTime(st, 12),
	}
	var err error
	if t.State, err = store.ParseSentState(st.ColumnText(9)); err != nil {
		return t, fmt.Errorf("sent tx %s: %w", t.Hash, err)
	}
	return t, nil
}

// JournalTx stores an in-flight transaction (see store.SentTxs).
func (s *Store) JournalTx(ctx context.Context, t *store.SentTx) error {
	if err := store.CheckRecord("sqlite: journal tx", t); err != nil {
		return err
	}
	c := *t
	c.Raw = slices.Clone(t.Raw)
	err := s.do(ctx, func(tx *wtx) error {
		_, err := tx.exec(`INSERT INTO sent_txs (hash, chain_id, sender, nonce, raw, permit_id, plan_index, plan_len, label, state, created_ns)
  VALUES (?,?,?,?,?,?,?,?,?,'in_flight',?)`,
			c.Hash, c.ChainID, c.From, c.Nonce, c.Raw, c.PermitID, c.Index, c.PlanLen, nullable(c.Label), c.Created)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: journal tx %s: %w", c.Hash, err)
	}
	return nil
}

// SettleTx records what became of an in-flight transaction (see
// store.SentTxs).
func (s *Store) SettleTx(ctx context.Context, chainID uint64, hash string, state store.SentState, block uint64, at time.Time) error {
	if err := store.CheckSettle(chainID, state, block, at); err != nil {
		return fmt.Errorf("sqlite: settle tx %s: %w", hash, err)
	}
	var blk any
	if block != 0 {
		blk = block
	}
	err := s.do(ctx, func(tx *wtx) error {
		n, err := tx.exec(`UPDATE sent_txs SET state = ?, block = ?, settled_ns = ? WHERE hash = ? AND chain_id = ? AND state = 'in_flight'`,
			state.String(), blk, at, hash, chainID)
		if err != nil || n == 1 {
			return err
		}
		var was string
		var wasBlock int64
		found, err := tx.one(`SELECT state, coalesce(block, 0) FROM sent_txs WHERE hash = ? AND chain_id = ?`, []any{hash, chainID},
			func(st *sqlite3.Stmt) error { was, wasBlock = st.ColumnText(0), st.ColumnInt64(1); return nil })
		switch {
		case err != nil:
			return err
		case !found:
			return answer(store.ErrNotFound)
		case was == state.String() && uint64(wasBlock) == block:
			return nil
		}
		return answer(fmt.Errorf("%w (%s)", store.ErrSentSettled, was))
	})
	if err != nil {
		return fmt.Errorf("sqlite: settle tx %s: %w", hash, err)
	}
	return nil
}

// OpenTxs returns a wallet's in-flight transactions and its next nonce
// (see store.SentTxs).
func (s *Store) OpenTxs(ctx context.Context, chainID uint64, from string) ([]store.SentTx, uint64, error) {
	var open []store.SentTx
	// The live-state term repeats the partial index's WHERE, so the index
	// serves this query too.
	err := s.r.query(ctx, `SELECT `+sentColumns+` FROM sent_txs WHERE chain_id = ? AND sender = ?
  AND state IN ('in_flight', 'mined', 'reverted') AND state = 'in_flight' ORDER BY nonce`,
		[]any{chainID, from}, func(st *sqlite3.Stmt) error {
			t, err := scanSent(st)
			open = append(open, t)
			return err
		})
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: open txs: %w", err)
	}
	var next uint64
	err = s.r.query(ctx, `SELECT max(nonce) + 1 FROM sent_txs WHERE chain_id = ? AND sender = ? AND state IN ('in_flight', 'mined', 'reverted')`,
		[]any{chainID, from}, func(st *sqlite3.Stmt) error {
			next = uint64(st.ColumnInt64(0)) // NULL (none) reads as 0
			return nil
		})
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: open txs: %w", err)
	}
	return open, next, nil
}

// PermitTxs returns the permit's journaled transactions (see
// store.SentTxs).
func (s *Store) PermitTxs(ctx context.Context, permitID string) ([]store.SentTx, error) {
	out, err := readRows(ctx, s.r, scanSent, `SELECT `+sentColumns+` FROM sent_txs WHERE permit_id = ? ORDER BY chain_id, nonce`, permitID)
	if err != nil {
		return nil, fmt.Errorf("sqlite: permit txs: %w", err)
	}
	return out, nil
}

var _ store.SentTxs = (*Store)(nil)
