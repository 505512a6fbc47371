package postgres_test

import (
	"os"
	"testing"

	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/postgres"
	"github.com/wardhq/ward/internal/store/postgres/pgtest"
	"github.com/wardhq/ward/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestConformance runs the suite every backend passes against a real
// PostgreSQL server, a fresh database per subtest.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() (store.Store, error) {
		url := pgtest.NewDatabase(t)
		return func() (store.Store, error) { return postgres.Open(t.Context(), postgres.Config{URL: url}) }
	})
}
