package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// schemaKeyChecks is version 2: the checks of the keys the data was
// written with.
const schemaKeyChecks = `
CREATE TABLE key_checks (
  name text PRIMARY KEY,
  value bytea NOT NULL CHECK (length(value) BETWEEN 16 AND 64)
);
`

// KeyCheck stores check under name unless one is, and returns the stored
// one: of instances starting together with different keys, the first to
// commit sets it and the others are told.
func (s *Store) KeyCheck(ctx context.Context, name string, check []byte) ([]byte, error) {
	if err := store.CheckKeyCheck(name, check); err != nil {
		return nil, fmt.Errorf("postgres: key check: %w", err)
	}
	var stored []byte
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO key_checks (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, check); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT value FROM key_checks WHERE name = $1`, name).Scan(&stored)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: key check: %w", err)
	}
	return stored, nil
}
