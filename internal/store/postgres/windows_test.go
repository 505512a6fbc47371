package postgres_test

import (
	"testing"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/windowstest"
	"github.com/wardhq/ward/internal/store/postgres"
	"github.com/wardhq/ward/internal/store/postgres/pgtest"
)

// TestWindowsConformance runs the spending and rate windows' suite on a
// real server: the same semantics as in memory, and they survive a
// reopen.
func TestWindowsConformance(t *testing.T) {
	windowstest.Run(t, func(t *testing.T) func() hook.Windows {
		url := pgtest.NewDatabase(t)
		var cur *postgres.Store
		t.Cleanup(func() {
			if cur != nil {
				cur.Close()
			}
		})
		return func() hook.Windows {
			if cur != nil {
				if err := cur.Close(); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if cur, err = postgres.Open(t.Context(), postgres.Config{URL: url}); err != nil {
				t.Fatal(err)
			}
			return cur
		}
	})
}
