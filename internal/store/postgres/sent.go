package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// The send journal's rule that two live records of one wallet never share
// a nonce is a partial unique index (sent_txs_nonce): the database refuses
// the second insert whichever instance makes it.

const sentColumns = `chain_id, sender, nonce, hash, raw, permit_id, plan_index, plan_len, label, state, block, created_ns, settled_ns`

func scanSent(row pgx.CollectableRow) (store.SentTx, error) {
	var (
		t              store.SentTx
		chain, nonce   int64
		label          *string
		state          string
		block, settled *int64
		created        int64
	)
	if err := row.Scan(&chain, &t.From, &nonce, &t.Hash, &t.Raw, &t.PermitID, &t.Index, &t.PlanLen, &label, &state, &block,
		&created, &settled); err != nil {
		return t, err
	}
	t.ChainID, t.Nonce, t.Label, t.Created = uint64(chain), uint64(nonce), text(label), nsTime(created)
	if block != nil {
		t.Block = uint64(*block)
	}
	if settled != nil {
		t.Settled = nsTime(*settled)
	}
	var err error
	if t.State, err = store.ParseSentState(state); err != nil {
		return t, fmt.Errorf("sent tx %s: %w", t.Hash, err)
	}
	return t, nil
}

// JournalTx stores an in-flight transaction (see store.SentTxs). A record
// whose hash exists, or whose nonce a live record of the same wallet
// holds, is refused.
func (s *Store) JournalTx(ctx context.Context, t *store.SentTx) error {
	if err := admit(s, "postgres: journal tx", t, func(t *store.SentTx) []string { return []string{t.PermitID, t.Label} }); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO sent_txs (hash, chain_id, sender, nonce, raw, permit_id, plan_index, plan_len, label, state, created_ns)
VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,'in_flight',$10)`,
		t.Hash, int64(t.ChainID), t.From, int64(t.Nonce), t.Raw, t.PermitID, t.Index, t.PlanLen, null(t.Label), t.Created.UnixNano())
	if isUnique(err) {
		return fmt.Errorf("postgres: journal tx %s: the hash, or nonce %d of %s, is already journaled: %w", t.Hash, t.Nonce, t.From, err)
	}
	if err != nil {
		return fmt.Errorf("postgres: journal tx %s: %w", t.Hash, err)
	}
	return nil
}

// SettleTx records what became of an in-flight transaction, in one
// conditional UPDATE (see store.SentTxs).
func (s *Store) SettleTx(ctx context.Context, chainID uint64, hash string, state store.SentState, block uint64, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckSettle(chainID, state, block, at); err != nil {
		return fmt.Errorf("postgres: settle tx %s: %w", hash, err)
	}
	var blk any
	if block != 0 {
		blk = int64(block)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE sent_txs SET state = $1, block = $2, settled_ns = $3 WHERE hash = $4 AND chain_id = $5 AND state = 'in_flight'`,
		state.String(), blk, at.UnixNano(), hash, int64(chainID))
	if err != nil {
		return fmt.Errorf("postgres: settle tx %s: %w", hash, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var was string
	var wasBlock int64
	err = s.pool.QueryRow(ctx, `SELECT state, coalesce(block, 0) FROM sent_txs WHERE hash = $1 AND chain_id = $2`, hash, int64(chainID)).
		Scan(&was, &wasBlock)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("postgres: settle tx %s: %w", hash, store.ErrNotFound)
	case err != nil:
		return fmt.Errorf("postgres: settle tx %s: %w", hash, err)
	case was == state.String() && uint64(wasBlock) == block:
		return nil
	}
	return fmt.Errorf("postgres: settle tx %s: %w (%s)", hash, store.ErrSentSettled, was)
}

// PermitTxs returns the permit's journaled transactions (see
// store.SentTxs).
func (s *Store) PermitTxs(ctx context.Context, permitID string) ([]store.SentTx, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanSent, `SELECT `+sentColumns+` FROM sent_txs WHERE permit_id = $1 ORDER BY chain_id, nonce`, permitID)
	if err != nil {
		return nil, fmt.Errorf("postgres: permit txs: %w", err)
	}
	return out, nil
}

// OpenTxs returns a wallet's in-flight transactions, by nonce, and its
// next nonce, both read from one snapshot.
func (s *Store) OpenTxs(ctx context.Context, chainID uint64, from string) (open []store.SentTx, next uint64, err error) {
	if err := s.ok(); err != nil {
		return nil, 0, err
	}
	err = pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		if open, err = queryRows(ctx, tx, scanSent, `SELECT `+sentColumns+` FROM sent_txs WHERE chain_id = $1 AND sender = $2 AND state = 'in_flight' ORDER BY nonce`,
			int64(chainID), from); err != nil {
			return err
		}
		var n int64
		err = tx.QueryRow(ctx, `SELECT coalesce(max(nonce) + 1, 0) FROM sent_txs WHERE chain_id = $1 AND sender = $2 AND state IN ('in_flight', 'mined', 'reverted')`,
			int64(chainID), from).Scan(&n)
		next = uint64(n)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("postgres: open txs: %w", err)
	}
	return open, next, nil
}
