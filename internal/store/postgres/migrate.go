package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/wardhq/ward/internal/store"
)

// migration is one step of the schema; versions are 1, 2, 3, ... in order.
// Append only: a released migration never changes.
type migration struct {
	version int
	sql     string
}

// migrations is the schema. Version 1 is the whole of ward's state as of
// the backend's first release, in three parts kept beside the code that
// uses them: the audit trail and writes (schema_core.go), what decisions
// depend on (schema_state.go), and what the knowledge pipeline keeps
// (schema_knowledge.go).
var migrations = []migration{
	{1, schemaCore + schemaState + schemaKnowledge},
	{2, schemaKeyChecks},
	{3, schemaArchive},
	{4, schemaSpendTotals},
	{5, schemaSpendingOverride},
	{6, schemaAllowlist},
	{7, schemaSafeTxs},
	{8, schemaOwnerTxs},
	{9, schemaOwnerTxStale},
}

// SchemaVersion is the newest schema this build knows.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

// migrate applies pending migrations. A session-level advisory lock makes
// instances that start together take turns: the first applies each
// version, the others then find it applied.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1, 0)`, lockMigrate); err != nil {
		return fmt.Errorf("postgres: migrate: lock: %w", err)
	}
	defer func() {
		// A failed unlock leaves the lock to the connection: destroy it.
		if _, err := conn.Exec(context.Background(), `SELECT pg_advisory_unlock($1, 0)`, lockMigrate); err != nil {
			_ = conn.Conn().Close(context.Background())
		}
	}()
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`); err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	var v int
	if err := conn.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return fmt.Errorf("postgres: read schema version: %w", err)
	}
	if v > SchemaVersion() {
		return fmt.Errorf("postgres: schema version %d, this build knows up to %d: %w", v, SchemaVersion(), store.ErrSchemaTooNew)
	}
	for _, m := range migrations {
		if m.version <= v {
			continue
		}
		err := pgx.BeginFunc(ctx, conn.Conn(), func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, m.version)
			return err
		})
		if err != nil {
			return fmt.Errorf("postgres: migrate to %d: %w", m.version, err)
		}
	}
	return nil
}

var errTODO = errors.New("postgres: not implemented yet")
