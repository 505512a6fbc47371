package sqlite

import (
	"context"
	"fmt"
	"slices"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// KeyCheck stores check under name unless one is (version 27's
// key_checks), and returns the stored one.
func (s *Store) KeyCheck(ctx context.Context, name string, check []byte) ([]byte, error) {
	if err := store.CheckKeyCheck(name, check); err != nil {
		return nil, fmt.Errorf("sqlite: key check: %w", err)
	}
	var stored []byte
	err := s.do(ctx, func(tx *wtx) error {
		if _, err := tx.exec(`INSERT INTO key_checks (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, name, slices.Clone(check)); err != nil {
			return err
		}
		return tx.query(`SELECT value FROM key_checks WHERE name = ?`, []any{name}, func(st *sqlite3.Stmt) error {
			stored = st.ColumnBlob(0, nil)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: key check: %w", err)
	}
	return stored, nil
}
