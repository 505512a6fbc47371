package postgres

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wardhq/ward/internal/store"
)

// TestUnwritable: a full disk and a read-only server are store.ErrUnwritable
// (the full disk also store.ErrDiskFull), so the API answers 503 for them
// as for SQLite; other server errors pass through.
func TestUnwritable(t *testing.T) {
	for _, tc := range []struct {
		code       string
		unwritable bool
		full       bool
	}{
		{"53100", true, true},
		{"25006", true, false},
		{"23505", false, false},
	} {
		err := unwritable(fmt.Errorf("insert: %w", &pgconn.PgError{Code: tc.code}))
		if errors.Is(err, store.ErrUnwritable) != tc.unwritable || errors.Is(err, store.ErrDiskFull) != tc.full {
			t.Errorf("SQLSTATE %s: %v, want unwritable %v, full %v", tc.code, err, tc.unwritable, tc.full)
		}
		var pe *pgconn.PgError
		if !errors.As(err, &pe) {
			t.Errorf("SQLSTATE %s: the server's error is lost: %v", tc.code, err)
		}
	}
	if unwritable(nil) != nil {
		t.Error("unwritable(nil) is not nil")
	}
}
