package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// schemaSafeTxs (migration 7) adds the queue of Safe transactions
// awaiting owners' signatures (store.SafeTxs).
const schemaSafeTxs = `
CREATE TABLE safe_txs (
  hash text PRIMARY KEY CHECK (hash ~ '^0x[0-9a-f]{64}$'),
  chain_id bigint NOT NULL CHECK (chain_id > 0),
  safe text NOT NULL CHECK (safe ~ '^0x[0-9a-f]{40}$'),
  nonce bigint NOT NULL CHECK (nonce >= 0),
  to_addr text NOT NULL CHECK (to_addr ~ '^0x[0-9a-f]{40}$'),
  value text NOT NULL,
  data bytea,
  permit_id text NOT NULL,
  plan_index integer NOT NULL CHECK (plan_index >= 0),
  plan_len integer NOT NULL CHECK (plan_len > plan_index),
  label text,
  executed_tx text,
  created_ns bigint NOT NULL,
  executed_ns bigint,
  CHECK ((executed_tx IS NULL) = (executed_ns IS NULL))
);
CREATE INDEX safe_txs_pending ON safe_txs (chain_id, safe, nonce) WHERE executed_tx IS NULL;
CREATE TABLE safe_signatures (
  hash text NOT NULL REFERENCES safe_txs (hash),
  owner text NOT NULL CHECK (owner ~ '^0x[0-9a-f]{40}$'),
  sig bytea NOT NULL CHECK (length(sig) = 65),
  signed_ns bigint NOT NULL,
  PRIMARY KEY (hash, owner)
);
`

const safeColumns = `hash, chain_id, safe, nonce, to_addr, value, data, permit_id, plan_index, plan_len, label, executed_tx, created_ns, executed_ns`

func scanSafe(row pgx.CollectableRow) (store.SafeTx, error) {
	var (
		t               store.SafeTx
		chain, nonce    int64
		label, executed *string
		created         int64
		executedAt      *int64
	)
	if err := row.Scan(&t.Hash, &chain, &t.Safe, &nonce, &t.To, &t.Value, &t.Data, &t.PermitID, &t.Index, &t.PlanLen, &label,
		&executed, &created, &executedAt); err != nil {
		return t, err
	}
	t.ChainID, t.Nonce, t.Label, t.Executed, t.Created = uint64(chain), uint64(nonce), text(label), text(executed), nsTime(created)
	if executedAt != nil {
		t.ExecutedAt = nsTime(*executedAt)
	}
	return t, nil
}

func scanSafeSignature(row pgx.CollectableRow) (store.SafeSignature, error) {
	var sg store.SafeSignature
	var at int64
	err := row.Scan(&sg.Owner, &sg.Sig, &at)
	sg.At = nsTime(at)
	return sg, err
}

// ProposeSafeTx stores a Safe transaction awaiting signatures, with its
// signatures, in one transaction (see store.SafeTxs).
func (s *Store) ProposeSafeTx(ctx context.Context, t *store.SafeTx) error {
	if err := admit(s, "postgres: propose safe tx", t, func(t *store.SafeTx) []string { return []string{t.PermitID, t.Label} }); err != nil {
		return err
	}
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO safe_txs (hash, chain_id, safe, nonce, to_addr, value, data, permit_id, plan_index, plan_len, label, created_ns)
VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
			t.Hash, int64(t.ChainID), t.Safe, int64(t.Nonce), t.To, t.Value, t.Data, t.PermitID, t.Index, t.PlanLen, null(t.Label), t.Created.UnixNano()); err != nil {
			return err
		}
		for _, sg := range t.Signatures {
			if _, err := tx.Exec(ctx, `INSERT INTO safe_signatures (hash, owner, sig, signed_ns) VALUES ($1,$2,$3,$4)`,
				t.Hash, sg.Owner, sg.Sig, sg.At.UnixNano()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: propose safe tx %s: %w", t.Hash, err)
	}
	return nil
}

// SafeTx returns a Safe transaction with its signatures (see
// store.SafeTxs).
func (s *Store) SafeTx(ctx context.Context, hash string) (store.SafeTx, error) {
	if err := s.ok(); err != nil {
		return store.SafeTx{}, err
	}
	var t store.SafeTx
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		if t, err = queryOne(ctx, tx, scanSafe, `SELECT `+safeColumns+` FROM safe_txs WHERE hash = $1`, hash); err != nil {
			return err
		}
		t.Signatures, err = queryRows(ctx, tx, scanSafeSignature, `SELECT owner, sig, signed_ns FROM safe_signatures WHERE hash = $1 ORDER BY signed_ns, owner`, hash)
		return err
	})
	if err != nil {
		return store.SafeTx{}, fmt.Errorf("postgres: safe tx %s: %w", hash, err)
	}
	return t, nil
}

// AddSafeSignature adds an owner's signature to a pending Safe
// transaction, the row locked against a concurrent execution (see
// store.SafeTxs).
func (s *Store) AddSafeSignature(ctx context.Context, hash string, sg store.SafeSignature) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := sg.Validate(); err != nil {
		return fmt.Errorf("postgres: add safe signature: %w", err)
	}
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var executed *string
		err := tx.QueryRow(ctx, `SELECT executed_tx FROM safe_txs WHERE hash = $1 FOR UPDATE`, hash).Scan(&executed)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return store.ErrNotFound
		case err != nil:
			return err
		case executed != nil:
			return store.ErrSafeTxExecuted
		}
		tag, err := tx.Exec(ctx, `INSERT INTO safe_signatures (hash, owner, sig, signed_ns) VALUES ($1,$2,$3,$4) ON CONFLICT (hash, owner) DO NOTHING`,
			hash, sg.Owner, sg.Sig, sg.At.UnixNano())
		if err == nil && tag.RowsAffected() == 0 {
			return store.ErrSafeSignedTwice
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: add safe signature to %s: %w", hash, err)
	}
	return nil
}

// SafeTxExecuted records a Safe transaction executed, in one conditional
// update (see store.SafeTxs).
func (s *Store) SafeTxExecuted(ctx context.Context, hash, txHash string, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if txHash == "" || at.IsZero() {
		return errors.New("postgres: safe tx executed: transaction and time required")
	}
	if err := s.settleOnce(ctx, `UPDATE safe_txs SET executed_tx = $1, executed_ns = $2 WHERE hash = $3 AND executed_tx IS NULL`, []any{txHash, at.UnixNano(), hash},
		`SELECT 1 FROM safe_txs WHERE hash = $1`, hash, store.ErrSafeTxExecuted); err != nil {
		return fmt.Errorf("postgres: safe tx %s executed: %w", hash, err)
	}
	return nil
}

// settleOnce runs update, which settles one row not yet settled (its
// WHERE names the row and that it is unsettled). When it changes no row
// it answers store.ErrNotFound if exists (a query of the row by key)
// finds none, else already: the row was settled before. The Safe queue's
// executions and the owner's transactions are settled this way.
func (s *Store) settleOnce(ctx context.Context, update string, args []any, exists, key string, already error) error {
	tag, err := s.pool.Exec(ctx, update, args...)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	var one int
	switch err := s.pool.QueryRow(ctx, exists, key).Scan(&one); {
	case errors.Is(err, pgx.ErrNoRows):
		return store.ErrNotFound
	case err != nil:
		return err
	}
	return already
}

// PendingSafeTxs returns a Safe's pending transactions by nonce (see
// store.SafeTxs).
func (s *Store) PendingSafeTxs(ctx context.Context, chainID uint64, safe string) ([]store.SafeTx, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	hashes, err := queryRows(ctx, s.pool, pgx.RowTo[string], `SELECT hash FROM safe_txs WHERE chain_id = $1 AND safe = $2 AND executed_tx IS NULL ORDER BY nonce, created_ns`,
		int64(chainID), safe)
	if err != nil {
		return nil, fmt.Errorf("postgres: pending safe txs: %w", err)
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
