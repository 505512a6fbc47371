package sqlite

import (
	"context"
	"fmt"
	"slices"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// migration is one step of the schema; versions are 1, 2, 3, ... in order.
type migration struct {
	version int
	sql     string
}

// baseMigrations are versions 1 to 7 of the schema. Append only: a released migration
// never changes.
//
// Decisions are stored compactly in decision_log, and policy_decisions is a
// view with the seed's columns, names and textual values (plus ward's), so
// that the seed's queries run unchanged. The writer's cost grows with the
// bytes it writes, and decision_log halves them:
//
//   - created_ns is the time in Unix nanoseconds; the view formats it as
//     created_at text and derives latency_ms from latency_ns.
//   - risk and decision, the closed enums the writer validates, are small
//     integers (their order as tool.Risk and policy.Action: risk 1 safe to 4
//     forbidden, decision 0 deny, 1 quarantine, 2 allow).
//   - Repeated strings are ids into decision_dict: input_source and origin
//     (open sets; their usual values have the fixed ids inserted below),
//     tool, category, reason, rule, spend_category, and the two rule lists,
//     each interned whole as its JSON text (a policy evaluates few distinct
//     lists, so a row holds one small id per list instead of the list).
//     authority is NULL when it is the one derived from input_source
//     (creator, agent: agent; system, heartbeat: system; any other: external;
//     none: none), else the id of its own text.
//   - policy is the id of the hash in policy_snapshots; a hash a decision
//     names before RecordPolicy stores its source has a NULL source.
//   - args_hash is a BLOB when the record's hash is lower-case hex (a
//     SHA-256 takes 32 bytes instead of 64), else the record's text.
//   - NULL stands for the empty string, which the view shows as NULL or
//     as text, as the seed's table stored it.
//
// The writer interns a string in the transaction of the first row that uses
// it, so no committed row names a missing id, and ids never change, so
// readers may cache them. There are no foreign key constraints: each would
// cost a lookup per row and the writer already guarantees them.
//
// decision_log's only index is the id primary key: ids grow with time, so
// inserts append to one leaf page and time ranges are id ranges. An index on
// session_id was measured and left out: with many sessions per group commit
// every commit rewrites one index leaf page per session, which cost the
// writer 1.4-3x per row. There is no foreign key from tool_executions to
// decisions: an executed call is recorded even if its decision's record is
// missing.
//
// Version 2 adds the write path's tables, which see a row per write, not
// per call, and so stay plain: permits (times in Unix nanoseconds, a zero
// NotBefore and an open permit's closed_ns as NULL, Args and Preview as JSON
// text, the columns a commit compares NOT NULL so that equality never meets
// NULL; a CHECK ties status to closed_ns), gate_state (one row per key), and
// action_log (Detail as JSON text). The index on permits (status,
// expires_ns) serves PendingPermits; action_log's indexes serve its permit
// and time filters.
//
// Version 3 adds trust_log, the hash-chained trust audit log (see trust.go):
// seq is the rowid, the writer assigns it and prev, and hash is
// store.TrustHash of the row. Triggers refuse an UPDATE or DELETE and an
// INSERT whose seq does not follow the last row (which also stops INSERT OR
// REPLACE from overwriting one); they are a defence in depth, and
// VerifyTrust still finds rows changed with the triggers dropped.
//
// Version 4 adds the withheld outputs of isolated orchestration (see
// withheld.go): withheld_outputs holds one output's metadata, its nonce and
// ciphertext as opaque BLOBs, and once decided who decided and when
// (decided_by, decided_ns: a promotion or a rejection, by status) and, once
// promoted, the released plaintext; CHECKs tie decided_ns to the status
// and plain to promotion, and a trigger refuses any change to a decided
// row. withheld_wraps holds one wrapped data key per reviewer of an
// output. The index on (session_id, time_ns) serves WithheldBySession.
//
// Version 5 adds the knowledge tables (see grimoire.go). quarantine_entries
// is Stage 1's collection: seq, an INTEGER PRIMARY KEY so that VACUUM keeps
// it, is the order of arrival that FIFO eviction follows; agent is the
// lower-case address (empty for none); content_hash is the SHA-256 of the
// content, unique per agent (the durable replay guard); entry is the
// knowledge.Entry as JSON. A CHECK ties decided_ns to the status and a
// trigger refuses any change to a decided row. The index on (agent,
// status) serves eviction and listing, the one on (status, decided_ns)
// pruning. grimoire_entries holds the Grimoire's entries in columns, the
// embedding as little-endian float32s and the claim and heuristic as
// JSON; a trigger refuses any update of the source columns or the claimed
// confidence, which are kept for good.
//
// Version 6 adds grimoire_entries.adoption, the Stage 4 adoption record
// (internal/adopt.Record) of an adopted external entry as JSON, NULL for
// none. It is outside the trigger's columns: confirmation changes it.
//
// Version 7 adds the quarantine status rolled_back (causal rollback sends
// an adopted entry back). SQLite cannot alter a CHECK, so the table is
// rebuilt with its rows, seq included; its trigger now allows the one
// change of a decided row, passed to rolled_back, with the entry as it was.
var baseMigrations = []migration{{1, `
CREATE TABLE schema_migrations (
  version INTEGER PRIMARY KEY,
  applied_at TEXT NOT NULL
);
CREATE TABLE decision_dict (
  id INTEGER PRIMARY KEY,
  value TEXT NOT NULL UNIQUE
);
INSERT INTO decision_dict (id, value) VALUES
  (1, 'external'), (2, 'peer'), (3, 'heartbeat'), (4, 'system'), (5, 'agent'), (6, 'creator'),
  (7, 'gate'), (8, 'check');
CREATE TABLE policy_snapshots (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  source BLOB,
  created_at TEXT
);
CREATE TABLE decision_log (
  id TEXT PRIMARY KEY,
  created_ns INTEGER NOT NULL,
  turn_id TEXT,
  session_id TEXT,
  input_source INTEGER,
  authority INTEGER,
  tool INTEGER,
  category INTEGER,
  args_hash,
  risk INTEGER NOT NULL CHECK (risk BETWEEN 1 AND 4),
  decision INTEGER NOT NULL CHECK (decision BETWEEN 0 AND 2),
  reason INTEGER,
  message TEXT,
  rule INTEGER,
  rules_evaluated INTEGER NOT NULL,
  rules_triggered INTEGER NOT NULL,
  latency_ns INTEGER NOT NULL,
  policy INTEGER,
  spend_category INTEGER,
  spend_cents INTEGER NOT NULL,
  diagnostic TEXT,
  origin INTEGER
);
CREATE VIEW policy_decisions AS
SELECT
  d.id AS id,
  d.turn_id AS turn_id,
  COALESCE((SELECT value FROM decision_dict WHERE id = d.tool), '') AS tool_name,
  CASE typeof(d.args_hash) WHEN 'blob' THEN lower(hex(d.args_hash)) ELSE COALESCE(d.args_hash, '') END AS tool_args_hash,
  CASE d.risk WHEN 1 THEN 'safe' WHEN 2 THEN 'caution' WHEN 3 THEN 'dangerous' WHEN 4 THEN 'forbidden' END AS risk_level,
  CASE d.decision WHEN 0 THEN 'deny' WHEN 1 THEN 'quarantine' WHEN 2 THEN 'allow' END AS decision,
  (SELECT value FROM decision_dict WHERE id = d.rules_evaluated) AS rules_evaluated,
  (SELECT value FROM decision_dict WHERE id = d.rules_triggered) AS rules_triggered,
  COALESCE((SELECT value FROM decision_dict WHERE id = d.reason), '') AS reason,
  d.latency_ns / 1e6 AS latency_ms,
  strftime('%Y-%m-%dT%H:%M:%S', (d.created_ns - (d.created_ns % 1000000000 + 1000000000) % 1000000000) / 1000000000, 'unixepoch')
    || printf('.%09dZ', (d.created_ns % 1000000000 + 1000000000) % 1000000000) AS created_at,
  d.session_id AS session_id,
  (SELECT value FROM decision_dict WHERE id = d.input_source) AS input_source,
  CASE
    WHEN d.authority IS NOT NULL THEN NULLIF((SELECT value FROM decision_dict WHERE id = d.authority), '')
    WHEN d.input_source IS NULL THEN NULL
    WHEN d.input_source IN (5, 6) THEN 'agent'
    WHEN d.input_source IN (3, 4) THEN 'system'
    ELSE 'external'
  END AS authority_level,
  (SELECT value FROM decision_dict WHERE id = d.category) AS tool_category,
  d.message AS message,
  (SELECT value FROM decision_dict WHERE id = d.rule) AS rule,
  (SELECT hash FROM policy_snapshots WHERE id = d.policy) AS policy_hash,
  d.latency_ns AS latency_ns,
  (SELECT value FROM decision_dict WHERE id = d.spend_category) AS spend_category,
  d.spend_cents AS spend_cents,
  d.diagnostic AS diagnostic,
  (SELECT value FROM decision_dict WHERE id = d.origin) AS origin
FROM decision_log AS d;
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
`}, {2, `
CREATE TABLE permits (
  id TEXT PRIMARY KEY,
  created_ns INTEGER NOT NULL,
  expires_ns INTEGER NOT NULL,
  not_before_ns INTEGER,
  expiry_tick INTEGER NOT NULL CHECK (expiry_tick >= 0),
  session_id TEXT,
  tool TEXT NOT NULL,
  args_hash TEXT NOT NULL,
  args TEXT,
  policy_hash TEXT NOT NULL,
  phase TEXT NOT NULL,
  risk_tier TEXT,
  value_cents INTEGER NOT NULL,
  preview TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'consumed', 'cancelled')),
  closed_ns INTEGER,
  closed_by TEXT,
  CHECK ((status = 'pending') = (closed_ns IS NULL))
);
CREATE INDEX permits_status_expires ON permits (status, expires_ns);
CREATE TABLE gate_state (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  set_ns INTEGER NOT NULL
);
CREATE TABLE action_log (
  id TEXT PRIMARY KEY,
  time_ns INTEGER NOT NULL,
  kind TEXT NOT NULL,
  permit_id TEXT,
  session_id TEXT,
  tool TEXT,
  action_type TEXT,
  args_hash TEXT,
  tx_hash TEXT,
  status TEXT,
  block_reason TEXT,
  gas_used INTEGER NOT NULL CHECK (gas_used >= 0),
  gas_cost_wei TEXT,
  verified INTEGER NOT NULL CHECK (verified IN (0, 1)),
  expected TEXT,
  actual TEXT,
  ground_truth TEXT,
  detail TEXT
);
CREATE INDEX action_log_permit ON action_log (permit_id);
CREATE INDEX action_log_time ON action_log (time_ns);
`}, {3, `
CREATE TABLE trust_log (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  time_ns INTEGER NOT NULL,
  kind TEXT NOT NULL,
  session_id TEXT NOT NULL,
  actor TEXT NOT NULL,
  target TEXT NOT NULL,
  detail TEXT,
  prev BLOB NOT NULL,
  hash BLOB NOT NULL
);
CREATE TRIGGER trust_log_append BEFORE INSERT ON trust_log
WHEN NEW.seq IS NOT (SELECT COALESCE(MAX(seq), 0) + 1 FROM trust_log)
BEGIN SELECT RAISE(ABORT, 'trust_log is append-only: seq must follow the last row'); END;
CREATE TRIGGER trust_log_no_update BEFORE UPDATE ON trust_log
BEGIN SELECT RAISE(ABORT, 'trust_log is append-only: rows cannot be updated'); END;
CREATE TRIGGER trust_log_no_delete BEFORE DELETE ON trust_log
BEGIN SELECT RAISE(ABORT, 'trust_log is append-only: rows cannot be deleted'); END;
`}, {4, `
CREATE TABLE withheld_outputs (
  key TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  parent_id TEXT,
  tool TEXT NOT NULL,
  time_ns INTEGER NOT NULL,
  size INTEGER NOT NULL CHECK (size >= 0),
  exit_code INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('withheld', 'promoted', 'rejected')),
  nonce BLOB NOT NULL,
  ciphertext BLOB NOT NULL,
  decided_by TEXT,
  decided_ns INTEGER,
  plain BLOB,
  CHECK ((status = 'withheld') = (decided_ns IS NULL)),
  CHECK ((status = 'promoted') = (plain IS NOT NULL))
);
CREATE INDEX withheld_outputs_session ON withheld_outputs (session_id, time_ns);
CREATE TRIGGER withheld_outputs_decided BEFORE UPDATE ON withheld_outputs
WHEN OLD.status IS NOT 'withheld'
BEGIN SELECT RAISE(ABORT, 'withheld_outputs: a decided output never changes'); END;
CREATE TABLE withheld_wraps (
  key TEXT NOT NULL REFERENCES withheld_outputs (key),
  reviewer TEXT NOT NULL,
  wrap BLOB NOT NULL,
  PRIMARY KEY (key, reviewer)
) WITHOUT ROWID;
`}, {5, `
CREATE TABLE quarantine_entries (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  agent TEXT NOT NULL,
  content_hash BLOB NOT NULL,
  entry TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'passed', 'failed')),
  reason TEXT,
  attack TEXT,
  batch_id TEXT,
  quarantined_ns INTEGER NOT NULL,
  decided_ns INTEGER,
  CHECK ((status = 'pending') = (decided_ns IS NULL)),
  UNIQUE (agent, content_hash)
);
CREATE INDEX quarantine_entries_agent ON quarantine_entries (agent, status);
CREATE INDEX quarantine_entries_decided ON quarantine_entries (status, decided_ns);
CREATE TRIGGER quarantine_entries_decided BEFORE UPDATE ON quarantine_entries
WHEN OLD.status IS NOT 'pending'
BEGIN SELECT RAISE(ABORT, 'quarantine_entries: a decided entry never changes'); END;
CREATE TABLE grimoire_entries (
  id TEXT PRIMARY KEY,
  partition TEXT NOT NULL CHECK (partition IN ('self', 'external', 'quarantine', 'lessons')),
  entry_type TEXT NOT NULL,
  content TEXT NOT NULL,
  provenance TEXT NOT NULL,
  confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
  agent TEXT,
  signature BLOB,
  anchor TEXT,
  listing TEXT,
  clade TEXT,
  source_ns INTEGER NOT NULL,
  embedding BLOB,
  claim TEXT,
  heuristic TEXT,
  created_ns INTEGER NOT NULL
);
CREATE INDEX grimoire_entries_partition ON grimoire_entries (partition, created_ns);
CREATE TRIGGER grimoire_entries_source BEFORE UPDATE OF provenance, confidence, agent, signature, anchor, listing, clade, source_ns ON grimoire_entries
BEGIN SELECT RAISE(ABORT, 'grimoire_entries: an entry''s source and claimed confidence never change'); END;
`}, {6, `
ALTER TABLE grimoire_entries ADD COLUMN adoption TEXT;
`}, {7, `
CREATE TABLE quarantine_entries_v7 (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  agent TEXT NOT NULL,
  content_hash BLOB NOT NULL,
  entry TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'passed', 'failed', 'rolled_back')),
  reason TEXT,
  attack TEXT,
  batch_id TEXT,
  quarantined_ns INTEGER NOT NULL,
  decided_ns INTEGER,
  CHECK ((status = 'pending') = (decided_ns IS NULL)),
  UNIQUE (agent, content_hash)
);
INSERT INTO quarantine_entries_v7 (seq, id, agent, content_hash, entry, status, reason, attack, batch_id, quarantined_ns, decided_ns)
SELECT seq, id, agent, content_hash, entry, status, reason, attack, batch_id, quarantined_ns, decided_ns FROM quarantine_entries;
DROP TABLE quarantine_entries;
ALTER TABLE quarantine_entries_v7 RENAME TO quarantine_entries;
CREATE INDEX quarantine_entries_agent ON quarantine_entries (agent, status);
CREATE INDEX quarantine_entries_decided ON quarantine_entries (status, decided_ns);
CREATE TRIGGER quarantine_entries_decided BEFORE UPDATE ON quarantine_entries
WHEN OLD.status IS NOT 'pending' AND NOT (OLD.status = 'passed' AND NEW.status = 'rolled_back'
  AND NEW.id = OLD.id AND NEW.agent = OLD.agent AND NEW.content_hash = OLD.content_hash AND NEW.entry = OLD.entry)
BEGIN SELECT RAISE(ABORT, 'quarantine_entries: a decided entry never changes, but for passed to rolled_back'); END;
`}}

// migrations is every migration in order: the audit, write-path, trust,
// withheld-output and knowledge tables of versions 1 to 7, then the typed
// enforcement state of schema_state.go, then what the knowledge pipeline
// learns and the upstream pins of schema_ingest.go.
var migrations = slices.Concat(baseMigrations, stateMigrations, ingestMigrations, finalMigrations)

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
