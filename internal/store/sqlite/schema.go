package sqlite

import (
	"context"
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// migration is one step of the schema; versions are 1, 2, 3, ... in order.
type migration struct {
	version int
	sql     string
}

// migrations is the schema's history. Append only: a released migration
// never changes.
//
// policy_decisions keeps the seed's columns (latency_ms is now REAL and
// filled) and adds ward's. Its only index is the id primary key: ids grow
// with time, so inserts append to one leaf page and time ranges are id
// ranges. An index on session_id was measured and left out: with many
// sessions per group commit every commit rewrites one index leaf page per
// session, which cost the writer 1.4-3x per row. There is no foreign
// key from tool_executions to policy_decisions: an executed call is
// recorded even if its decision's record is missing.
var migrations = []migration{{1, `
CREATE TABLE schema_migrations (
  version INTEGER PRIMARY KEY,
  applied_at TEXT NOT NULL
);
CREATE TABLE policy_decisions (
  id TEXT PRIMARY KEY,
  turn_id TEXT,
  tool_name TEXT NOT NULL,
  tool_args_hash TEXT NOT NULL,
  risk_level TEXT NOT NULL CHECK(risk_level IN ('safe','caution','dangerous','forbidden')),
  decision TEXT NOT NULL CHECK(decision IN ('allow','deny','quarantine')),
  rules_evaluated TEXT NOT NULL DEFAULT '[]',
  rules_triggered TEXT NOT NULL DEFAULT '[]',
  reason TEXT NOT NULL DEFAULT '',
  latency_ms REAL NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  session_id TEXT,
  input_source TEXT,
  authority_level TEXT,
  tool_category TEXT,
  message TEXT,
  rule TEXT,
  policy_hash TEXT,
  latency_ns INTEGER NOT NULL DEFAULT 0,
  spend_category TEXT,
  spend_cents INTEGER NOT NULL DEFAULT 0,
  diagnostic TEXT,
  origin TEXT
);
CREATE TABLE tool_executions (
  id TEXT PRIMARY KEY,
  created_at TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  tool_category TEXT,
  session_id TEXT,
  turn_id TEXT,
  decision_id TEXT,
  spend_category TEXT,
  spend_cents INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tool_executions_created_at ON tool_executions(created_at);
CREATE TABLE tracked_balance (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  cents INTEGER NOT NULL,
  observed_at TEXT NOT NULL
);
CREATE TABLE policy_snapshots (
  hash TEXT PRIMARY KEY,
  source BLOB NOT NULL,
  created_at TEXT NOT NULL
);
`}}

// schemaVersion is the newest schema this build knows.
func schemaVersion() int { return migrations[len(migrations)-1].version }

// migrate brings the database on conn up to schemaVersion, one transaction
// per migration. It is safe against another process migrating at the same
// time: the version is re-read under the write lock.
func migrate(ctx context.Context, conn *sqlite3.Conn) error {
	old := conn.SetInterrupt(ctx)
	defer conn.SetInterrupt(old)
	for _, m := range migrations {
		if err := applyMigration(conn, m); err != nil {
			return err
		}
	}
	return nil
}

func applyMigration(conn *sqlite3.Conn, m migration) (err error) {
	tx, err := conn.BeginImmediate()
	if err != nil {
		return fmt.Errorf("sqlite: migrate to %d: %w", m.version, err)
	}
	defer func() {
		if err != nil && !conn.GetAutocommit() {
			if rerr := tx.Rollback(); rerr != nil {
				err = fmt.Errorf("%w (rollback: %v)", err, rerr)
			}
		}
	}()
	v, err := userVersion(conn)
	if err != nil {
		return err
	}
	if v > schemaVersion() {
		return fmt.Errorf("sqlite: schema version %d, this build knows up to %d: %w", v, schemaVersion(), store.ErrSchemaTooNew)
	}
	if v >= m.version {
		return tx.Commit()
	}
	if v != m.version-1 {
		return fmt.Errorf("sqlite: migrate to %d: database is at version %d", m.version, v)
	}
	if err := conn.Exec(m.sql); err != nil {
		return fmt.Errorf("sqlite: migrate to %d: %w", m.version, err)
	}
	// user_version takes no bound parameters; m.version is our constant.
	record := fmt.Sprintf(`INSERT INTO schema_migrations (version, applied_at) VALUES (%d, strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', 'now')); PRAGMA user_version = %d;`, m.version, m.version)
	if err := conn.Exec(record); err != nil {
		return fmt.Errorf("sqlite: migrate to %d: record version: %w", m.version, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: migrate to %d: commit: %w", m.version, err)
	}
	return nil
}

func userVersion(conn *sqlite3.Conn) (int, error) {
	st, _, err := conn.Prepare(`PRAGMA user_version`)
	if err != nil {
		return 0, fmt.Errorf("sqlite: read schema version: %w", err)
	}
	defer st.Close()
	if !st.Step() {
		if err := st.Err(); err != nil {
			return 0, fmt.Errorf("sqlite: read schema version: %w", err)
		}
		return 0, fmt.Errorf("sqlite: read schema version: no row")
	}
	return st.ColumnInt(0), nil
}
