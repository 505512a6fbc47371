package sqlite

// stateMigrations (versions 8 to 12) give the state that decisions depend
// on tables of its own, where version 2 had kept it as JSON in gate_state:
// principals, sessions and what they have seen, the principal of permits,
// withheld outputs and held calls, the spending windows, and the gate's
// phase and halt. Each moves what gate_state held of it and deletes those
// keys.
//
// Version 8: principals, one row per bearer token's holder. token_hash is
// the SHA-256 of the current token (rotation replaces it; the id stays);
// times are Unix nanoseconds, NULL for not set. A name is unique among the
// principals that are not revoked (a partial unique index), so `ward token
// revoke NAME` names one. The tokens version 2 kept under "token:<hash>"
// move here with their ids (the first 12 hex digits of the hash) and
// names; a token with no name, or sharing its name with another, is named
// after its role and id.
//
// Version 9: sessions, one row per session of a principal: the name the
// client uses is unique per principal, never across them. level is the
// taint level; reviewers is a JSON array of checker names. The session's
// ledger is session_observations: every directive and tool output it saw,
// in order (seq), with the kind of source, the instruction-like signals
// found in it, and its body as text or JSON, sealed (encrypted) when the
// gate has a sealer. ledger_bytes is their total size, ledger_dropped set
// once untrusted text was pruned to stay within the limit. The index on
// (principal_id, level, active_ns) serves the per-principal count and the
// expiry of idle clean sessions. Version 2's "directive:<session>" keys
// named sessions that no longer exist and are deleted.
//
// Version 10: the principal of what a client can name. permits,
// withheld_outputs and action_log gain principal_id; held_calls holds the
// quarantine queue's items (version 2 kept them as "quarantine:<id>" JSON,
// moved here, their principal taken from the "tok-<id>-" session names of
// then). The partial index on action_log serves the count of a principal's
// recent failed lookups, which slows guessing.
//
// Version 11: the spending and rate windows. spend_holds holds what a
// pending permit reserved until it is committed, cancelled or expires;
// spend_ledger every write that began to execute, keyed by its permit so
// that it is counted once: 'committing' from the moment the permit is
// consumed (a crash then leaves the spend counted, never forgotten),
// 'executed' once it ran. Windows sum these rows; nothing is in memory.
//
// Version 12: gate_control, the single row of the gate's phase and halt,
// with who set them and when.
var stateMigrations = []migration{{8, `
CREATE TABLE principals (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 128),
  role TEXT NOT NULL CHECK (role IN ('owner', 'agent', 'peer')),
  token_hash BLOB NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  created_ns INTEGER NOT NULL,
  expires_ns INTEGER,
  revoked_ns INTEGER,
  rotated_ns INTEGER,
  last_used_ns INTEGER
);
CREATE UNIQUE INDEX principals_live_name ON principals (name) WHERE revoked_ns IS NULL;
INSERT INTO principals (id, name, role, token_hash, created_ns)
SELECT json_extract(g.value, '$.id'),
  CASE WHEN coalesce(json_extract(g.value, '$.name'), '') = ''
         OR (SELECT count(*) FROM gate_state h WHERE h.key LIKE 'token:%' AND h.value <> '' AND json_valid(h.value)
             AND json_extract(h.value, '$.name') = json_extract(g.value, '$.name')) > 1
       THEN json_extract(g.value, '$.role') || '-' || json_extract(g.value, '$.id')
       ELSE json_extract(g.value, '$.name') END,
  json_extract(g.value, '$.role'),
  unhex(substr(g.key, 7)),
  g.set_ns
FROM gate_state g
WHERE g.key LIKE 'token:%' AND length(g.key) = 70 AND g.value <> '' AND json_valid(g.value)
  AND json_extract(g.value, '$.role') IN ('owner', 'agent', 'peer');
DELETE FROM gate_state WHERE key LIKE 'token:%';
`}, {9, `
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  principal_id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_ns INTEGER NOT NULL,
  active_ns INTEGER NOT NULL,
  level TEXT NOT NULL CHECK (level IN ('clean', 'tainted', 'review')),
  level_ns INTEGER,
  isolated INTEGER NOT NULL DEFAULT 0 CHECK (isolated IN (0, 1)),
  parent_id TEXT,
  author TEXT,
  reviewers TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(reviewers)),
  judge TEXT,
  directive TEXT,
  directive_trusted INTEGER NOT NULL DEFAULT 0 CHECK (directive_trusted IN (0, 1)),
  judged INTEGER NOT NULL DEFAULT 0,
  ledger_seq INTEGER NOT NULL DEFAULT 0,
  ledger_bytes INTEGER NOT NULL DEFAULT 0,
  ledger_dropped INTEGER NOT NULL DEFAULT 0 CHECK (ledger_dropped IN (0, 1)),
  UNIQUE (principal_id, name)
);
CREATE INDEX sessions_principal ON sessions (principal_id, level, active_ns);
CREATE INDEX sessions_parent ON sessions (parent_id) WHERE parent_id IS NOT NULL;
CREATE TABLE session_observations (
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  time_ns INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('directive', 'address_book', 'trusted_output', 'untrusted_output', 'promoted')),
  ref TEXT NOT NULL,
  instructions TEXT CHECK (instructions IS NULL OR json_valid(instructions)),
  format TEXT NOT NULL CHECK (format IN ('text', 'json')),
  sealed INTEGER NOT NULL CHECK (sealed IN (0, 1)),
  body BLOB NOT NULL,
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
DELETE FROM gate_state WHERE key LIKE 'directive:%';
`}, {10, `
ALTER TABLE permits ADD COLUMN principal_id TEXT;
ALTER TABLE withheld_outputs ADD COLUMN principal_id TEXT;
ALTER TABLE action_log ADD COLUMN principal_id TEXT;
CREATE INDEX action_log_lookup_failed ON action_log (principal_id, time_ns) WHERE kind = 'lookup_failed';
CREATE TABLE held_calls (
  id TEXT PRIMARY KEY,
  principal_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  time_ns INTEGER NOT NULL,
  expires_ns INTEGER NOT NULL,
  turn_id TEXT,
  input_source TEXT NOT NULL,
  facade TEXT,
  tool TEXT NOT NULL,
  tier TEXT NOT NULL CHECK (tier IN ('read', 'write', 'privileged')),
  args TEXT NOT NULL CHECK (json_valid(args)),
  args_hash TEXT NOT NULL,
  reason TEXT NOT NULL,
  message TEXT NOT NULL,
  rule TEXT,
  decision_id TEXT,
  reviews TEXT CHECK (reviews IS NULL OR json_valid(reviews)),
  status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_ns INTEGER,
  decided_by TEXT,
  note TEXT,
  outcome TEXT CHECK (outcome IS NULL OR json_valid(outcome)),
  CHECK ((status = 'pending') = (decided_ns IS NULL))
);
CREATE INDEX held_calls_time ON held_calls (time_ns);
CREATE INDEX held_calls_session ON held_calls (session_id, status, tool, args_hash);
CREATE TRIGGER held_calls_decided BEFORE UPDATE OF status, decided_ns, decided_by ON held_calls
WHEN OLD.status IS NOT 'pending'
BEGIN SELECT RAISE(ABORT, 'held_calls: a decided call is not decided again'); END;
INSERT INTO held_calls (id, principal_id, session_id, time_ns, expires_ns, turn_id, input_source, facade, tool, tier, args, args_hash,
  reason, message, rule, decision_id, reviews, status, decided_ns, decided_by, note, outcome)
SELECT json_extract(v, '$.id'),
  CASE WHEN json_extract(v, '$.session_id') LIKE 'tok-%' THEN substr(json_extract(v, '$.session_id'), 5, 12) ELSE '' END,
  json_extract(v, '$.session_id'),
  CAST(unixepoch(json_extract(v, '$.time'), 'subsec') * 1000000000 AS INTEGER),
  CAST(unixepoch(json_extract(v, '$.expires_at'), 'subsec') * 1000000000 AS INTEGER),
  nullif(json_extract(v, '$.turn_id'), ''), coalesce(json_extract(v, '$.input_source'), ''), nullif(json_extract(v, '$.facade'), ''),
  json_extract(v, '$.tool'), json_extract(v, '$.tier'), json(json_extract(v, '$.args')), json_extract(v, '$.args_hash'),
  json_extract(v, '$.reason'), coalesce(json_extract(v, '$.message'), ''), nullif(json_extract(v, '$.rule'), ''),
  nullif(json_extract(v, '$.decision_id'), ''), json_extract(v, '$.reviews'),
  CASE json_extract(v, '$.status') WHEN 'approved' THEN 'approved' WHEN 'rejected' THEN 'rejected' ELSE 'pending' END,
  CASE WHEN json_extract(v, '$.status') IN ('approved', 'rejected')
       THEN coalesce(CAST(unixepoch(json_extract(v, '$.decided_at'), 'subsec') * 1000000000 AS INTEGER), set_ns) END,
  nullif(json_extract(v, '$.decided_by'), ''), nullif(json_extract(v, '$.note'), ''), json_extract(v, '$.outcome')
FROM (SELECT value AS v, set_ns FROM gate_state WHERE key LIKE 'quarantine:%' AND json_valid(value))
WHERE json_extract(v, '$.id') IS NOT NULL AND json_extract(v, '$.tool') IS NOT NULL
  AND json_extract(v, '$.tier') IN ('read', 'write', 'privileged') AND json_extract(v, '$.args') IS NOT NULL
  AND json_extract(v, '$.time') IS NOT NULL AND json_extract(v, '$.expires_at') IS NOT NULL;
DELETE FROM gate_state WHERE key LIKE 'quarantine:%';
`}, {11, `
CREATE TABLE spend_holds (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  tick INTEGER NOT NULL,
  cents INTEGER NOT NULL CHECK (cents >= 0),
  created_ns INTEGER NOT NULL,
  expires_ns INTEGER NOT NULL
);
CREATE INDEX spend_holds_expires ON spend_holds (expires_ns);
CREATE INDEX spend_holds_session ON spend_holds (session_id, tick);
CREATE TABLE spend_ledger (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  tick INTEGER NOT NULL,
  cents INTEGER NOT NULL CHECK (cents >= 0),
  time_ns INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('committing', 'executed'))
);
CREATE INDEX spend_ledger_time ON spend_ledger (time_ns);
CREATE INDEX spend_ledger_session ON spend_ledger (session_id, tick);
`}, {12, `
CREATE TABLE gate_control (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  phase TEXT NOT NULL CHECK (phase IN ('thriving', 'stable', 'conservation', 'declining', 'terminal')),
  phase_ns INTEGER,
  phase_by TEXT,
  halted INTEGER NOT NULL CHECK (halted IN (0, 1)),
  halt_reason TEXT,
  halt_ns INTEGER,
  halt_by TEXT
);
INSERT INTO gate_control (id, phase, phase_ns, halted, halt_reason, halt_ns)
SELECT 1,
  coalesce((SELECT value FROM gate_state WHERE key = 'phase' AND value IN ('thriving', 'stable', 'conservation', 'declining', 'terminal')), 'thriving'),
  (SELECT set_ns FROM gate_state WHERE key = 'phase'),
  coalesce((SELECT value <> '' FROM gate_state WHERE key = 'halt'), 0),
  (SELECT nullif(value, '') FROM gate_state WHERE key = 'halt'),
  (SELECT set_ns FROM gate_state WHERE key = 'halt');
DELETE FROM gate_state WHERE key IN ('phase', 'halt');
`}}

// finalMigrations come after every version that moved a part of
// gate_state into its table (8 to 21).
//
// Version 22 drops gate_state: every key ward wrote there has a table of
// its own now, and nothing reads or writes it.
//
// Version 23 keeps, with each tool output a session observed, the
// arguments of the call that produced it (sealed as the body is): what an
// output echoes of its own arguments it does not vouch for, and a session
// rebuilt after a restart must know that too. Rows from before have none.
// Version 24 records the chain of an action's transaction, for its
// explorer link; rows from before have none.
// Version 25 adds the send journal (store.SentTxs): each signed
// transaction, written before it is broadcast, and what became of it.
// Two live rows of one wallet never share a nonce (a partial unique
// index), and what was sent never changes once written.
// Version 26 keeps, with each held call, what it would do in a person's
// units (description, display only) and the key that refuses its
// identical retry once the owner rejected it (retry_key).
// Version 30 adds the owner's override of the spending limits to
// gate_control (store.SpendingOverride): NULL limits mean no override.
// Version 31 adds the owner's allowlist entries (store.AllowlistEntry)
// and gate_control's count of their changes.
// Version 32 adds the queue of Safe transactions awaiting owners'
// signatures (store.SafeTxs): safe_txs, pending until executed_tx is set
// once, and each owner's signature of one in safe_signatures.
// Version 33 adds the transactions prepared for the owner of the ERC-4337
// account (store.OwnerTxs): owner_txs, pending until done_tx is set once,
// when ward saw on chain that the change took effect.
// Version 34 adds owner_txs.stale_ns: when ward saw the owner's nonce pass
// a held transaction without its change (NULL: never).
//
// Version 29 keeps running totals of spend_ledger, maintained by triggers
// in the transaction that writes each row, so that the spending windows
// cost the same at a session's ten-thousandth write as at its first:
// spend_session_totals, each session's sum, and spend_minutes, every
// session's sum and count of writes per minute of time_ns (the day and
// rate windows sum at most 1,441 minutes, and the rows of the minute they
// start in). It also indexes
// sent_txs by permit, which a commit and its reconciliation look up.
//
// Version 28 adds the manifest of audit archive files (store.AuditArchive)
// and lets the trust log lose only rows a manifest entry holds: its
// no-delete trigger now refuses the deletion of any seq above the last
// archived one. The manifest itself is append-only.
var finalMigrations = []migration{{22, `
DROP TABLE gate_state;
`}, {23, `
ALTER TABLE session_observations ADD COLUMN args BLOB;
`}, {24, `
ALTER TABLE action_log ADD COLUMN chain_id INTEGER;
`}, {25, `
CREATE TABLE sent_txs (
  hash TEXT PRIMARY KEY,
  chain_id INTEGER NOT NULL CHECK (chain_id > 0),
  sender TEXT NOT NULL,
  nonce INTEGER NOT NULL CHECK (nonce >= 0),
  raw BLOB NOT NULL,
  permit_id TEXT NOT NULL,
  plan_index INTEGER NOT NULL CHECK (plan_index >= 0),
  plan_len INTEGER NOT NULL CHECK (plan_len > plan_index),
  label TEXT,
  state TEXT NOT NULL CHECK (state IN ('in_flight', 'mined', 'reverted', 'dropped', 'refused')),
  block INTEGER,
  created_ns INTEGER NOT NULL,
  settled_ns INTEGER
);
CREATE UNIQUE INDEX sent_txs_nonce ON sent_txs (chain_id, sender, nonce) WHERE state IN ('in_flight', 'mined', 'reverted');
CREATE TRIGGER sent_txs_settled BEFORE UPDATE ON sent_txs
WHEN OLD.state <> 'in_flight' OR NEW.hash IS NOT OLD.hash OR NEW.chain_id IS NOT OLD.chain_id OR NEW.sender IS NOT OLD.sender
  OR NEW.nonce IS NOT OLD.nonce OR NEW.raw IS NOT OLD.raw OR NEW.permit_id IS NOT OLD.permit_id
  OR NEW.plan_index IS NOT OLD.plan_index OR NEW.plan_len IS NOT OLD.plan_len
BEGIN SELECT RAISE(ABORT, 'sent_txs: a settled transaction, and what was sent, never change'); END;
CREATE TRIGGER sent_txs_kept BEFORE DELETE ON sent_txs
BEGIN SELECT RAISE(ABORT, 'sent_txs: the send journal is never deleted from'); END;
`}, {26, `
ALTER TABLE held_calls ADD COLUMN retry_key TEXT;
ALTER TABLE held_calls ADD COLUMN description TEXT CHECK (description IS NULL OR json_valid(description));
CREATE INDEX held_calls_retry ON held_calls (principal_id, tool, retry_key, status, decided_ns) WHERE retry_key IS NOT NULL;
`}, {27, `
CREATE TABLE key_checks (
  name TEXT PRIMARY KEY,
  value BLOB NOT NULL CHECK (length(value) BETWEEN 16 AND 64)
);
`}, {28, `
CREATE TABLE audit_archives (
  name TEXT PRIMARY KEY,
  tbl TEXT NOT NULL CHECK (tbl IN ('decisions', 'actions', 'trust')),
  rows INTEGER NOT NULL CHECK (rows > 0),
  from_ns INTEGER NOT NULL,
  to_ns INTEGER NOT NULL,
  sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
  first_seq INTEGER,
  last_seq INTEGER,
  last_hash BLOB,
  created_ns INTEGER NOT NULL,
  CHECK ((tbl = 'trust') = (last_seq IS NOT NULL AND first_seq IS NOT NULL AND length(last_hash) = 32))
);
CREATE TRIGGER audit_archives_no_change BEFORE UPDATE ON audit_archives
BEGIN SELECT RAISE(ABORT, 'audit_archives is append-only'); END;
CREATE TRIGGER audit_archives_no_delete BEFORE DELETE ON audit_archives
BEGIN SELECT RAISE(ABORT, 'audit_archives is append-only'); END;
DROP TRIGGER trust_log_no_delete;
CREATE TRIGGER trust_log_no_delete BEFORE DELETE ON trust_log
WHEN OLD.seq > (SELECT COALESCE(MAX(last_seq), 0) FROM audit_archives WHERE tbl = 'trust')
BEGIN SELECT RAISE(ABORT, 'trust_log is append-only: only archived rows can be deleted'); END;
`}, {29, `
CREATE TABLE spend_session_totals (
  session_id TEXT PRIMARY KEY,
  cents INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE spend_minutes (
  minute INTEGER PRIMARY KEY,
  cents INTEGER NOT NULL,
  writes INTEGER NOT NULL
);
INSERT INTO spend_session_totals (session_id, cents) SELECT session_id, sum(cents) FROM spend_ledger GROUP BY session_id;
INSERT INTO spend_minutes (minute, cents, writes) SELECT time_ns / 60000000000, sum(cents), count(*) FROM spend_ledger GROUP BY time_ns / 60000000000;
CREATE TRIGGER spend_ledger_totals_insert AFTER INSERT ON spend_ledger BEGIN
  INSERT INTO spend_session_totals (session_id, cents) VALUES (NEW.session_id, NEW.cents)
    ON CONFLICT (session_id) DO UPDATE SET cents = cents + excluded.cents;
  INSERT INTO spend_minutes (minute, cents, writes) VALUES (NEW.time_ns / 60000000000, NEW.cents, 1)
    ON CONFLICT (minute) DO UPDATE SET cents = cents + excluded.cents, writes = writes + 1;
END;
CREATE TRIGGER spend_ledger_totals_delete AFTER DELETE ON spend_ledger BEGIN
  UPDATE spend_session_totals SET cents = cents - OLD.cents WHERE session_id = OLD.session_id;
  UPDATE spend_minutes SET cents = cents - OLD.cents, writes = writes - 1 WHERE minute = OLD.time_ns / 60000000000;
END;
CREATE TRIGGER spend_ledger_totals_update AFTER UPDATE OF session_id, cents, time_ns ON spend_ledger BEGIN
  UPDATE spend_session_totals SET cents = cents - OLD.cents WHERE session_id = OLD.session_id;
  UPDATE spend_minutes SET cents = cents - OLD.cents, writes = writes - 1 WHERE minute = OLD.time_ns / 60000000000;
  INSERT INTO spend_session_totals (session_id, cents) VALUES (NEW.session_id, NEW.cents)
    ON CONFLICT (session_id) DO UPDATE SET cents = cents + excluded.cents;
  INSERT INTO spend_minutes (minute, cents, writes) VALUES (NEW.time_ns / 60000000000, NEW.cents, 1)
    ON CONFLICT (minute) DO UPDATE SET cents = cents + excluded.cents, writes = writes + 1;
END;
CREATE INDEX sent_txs_permit ON sent_txs (permit_id);
`}, {30, `
ALTER TABLE gate_control ADD COLUMN spend_tick_cents INTEGER CHECK (spend_tick_cents >= 0);
ALTER TABLE gate_control ADD COLUMN spend_session_cents INTEGER CHECK (spend_session_cents >= 0);
ALTER TABLE gate_control ADD COLUMN spend_day_cents INTEGER CHECK (spend_day_cents >= 0);
ALTER TABLE gate_control ADD COLUMN spend_by TEXT;
ALTER TABLE gate_control ADD COLUMN spend_ns INTEGER;
`}, {31, `
CREATE TABLE allowlist_entries (
  kind TEXT NOT NULL CHECK (kind IN ('token', 'contract', 'selector')),
  value TEXT NOT NULL CHECK (value GLOB '0x*' AND length(value) = CASE kind WHEN 'selector' THEN 10 ELSE 42 END),
  allowed INTEGER NOT NULL CHECK (allowed IN (0, 1)),
  set_by TEXT NOT NULL,
  set_ns INTEGER NOT NULL,
  PRIMARY KEY (kind, value)
);
ALTER TABLE gate_control ADD COLUMN allow_version INTEGER NOT NULL DEFAULT 0;
`}, {32, `
CREATE TABLE safe_txs (
  hash TEXT PRIMARY KEY CHECK (hash GLOB '0x*' AND length(hash) = 66),
  chain_id INTEGER NOT NULL CHECK (chain_id > 0),
  safe TEXT NOT NULL CHECK (safe GLOB '0x*' AND length(safe) = 42),
  nonce INTEGER NOT NULL CHECK (nonce >= 0),
  to_addr TEXT NOT NULL CHECK (to_addr GLOB '0x*' AND length(to_addr) = 42),
  value TEXT NOT NULL,
  data BLOB,
  permit_id TEXT NOT NULL,
  plan_index INTEGER NOT NULL CHECK (plan_index >= 0),
  plan_len INTEGER NOT NULL CHECK (plan_len > plan_index),
  label TEXT,
  executed_tx TEXT,
  created_ns INTEGER NOT NULL,
  executed_ns INTEGER,
  CHECK ((executed_tx IS NULL) = (executed_ns IS NULL))
);
CREATE INDEX safe_txs_pending ON safe_txs (chain_id, safe, nonce) WHERE executed_tx IS NULL;
CREATE TABLE safe_signatures (
  hash TEXT NOT NULL REFERENCES safe_txs (hash),
  owner TEXT NOT NULL CHECK (owner GLOB '0x*' AND length(owner) = 42),
  sig BLOB NOT NULL CHECK (length(sig) = 65),
  signed_ns INTEGER NOT NULL,
  PRIMARY KEY (hash, owner)
);
`}, {33, `
CREATE TABLE owner_txs (
  id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
  chain_id INTEGER NOT NULL CHECK (chain_id > 0),
  account TEXT NOT NULL CHECK (account GLOB '0x*' AND length(account) = 42),
  owner TEXT NOT NULL CHECK (owner GLOB '0x*' AND length(owner) = 42),
  kind TEXT NOT NULL CHECK (kind IN ('grant_session_key', 'revoke_session_key')),
  session_key TEXT NOT NULL CHECK (session_key GLOB '0x*' AND length(session_key) = 42),
  data BLOB NOT NULL CHECK (length(data) >= 4),
  unsigned_tx BLOB,
  from_block INTEGER NOT NULL CHECK (from_block >= 0),
  permit_id TEXT NOT NULL,
  created_ns INTEGER NOT NULL,
  done_tx TEXT,
  done_ns INTEGER,
  CHECK ((done_tx IS NULL) = (done_ns IS NULL))
);
CREATE INDEX owner_txs_pending ON owner_txs (created_ns) WHERE done_tx IS NULL;
`}, {34, `
ALTER TABLE owner_txs ADD COLUMN stale_ns INTEGER;
`}}
