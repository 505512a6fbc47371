package postgres

// schemaState is version 1's state that decisions depend on: principals
// and tokens, sessions and their ledgers, held calls, spend and rate
// windows, withheld outputs.
//
// principals: one row per bearer token's holder; token_hash is the SHA-256
// of the current token, a name is unique among the principals not revoked
// (a partial unique index). sessions: one row per session of a principal,
// its name unique per principal; session_observations is its ledger, in
// seq order. held_calls: the quarantine queue; a decided call is never
// decided again (a trigger). spend_holds and spend_ledger: the spending and
// rate windows (a hold per previewed write, a row per write that began to
// execute, keyed by its permit). withheld_outputs and withheld_wraps: the
// sealed outputs of tainted child sessions and the wrapped keys of their
// readers; a decided output never changes (a trigger).
const schemaState = `
CREATE TABLE principals (
  id text PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 128),
  role text NOT NULL CHECK (role IN ('owner', 'agent', 'peer')),
  token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  created_ns bigint NOT NULL,
  expires_ns bigint,
  revoked_ns bigint,
  rotated_ns bigint,
  last_used_ns bigint
);
CREATE UNIQUE INDEX principals_live_name ON principals (name) WHERE revoked_ns IS NULL;

CREATE TABLE sessions (
  id text PRIMARY KEY,
  principal_id text NOT NULL,
  name text NOT NULL,
  created_ns bigint NOT NULL,
  active_ns bigint NOT NULL,
  level text NOT NULL CHECK (level IN ('clean', 'tainted', 'review')),
  level_ns bigint,
  isolated boolean NOT NULL DEFAULT false,
  parent_id text,
  author text,
  reviewers text[] NOT NULL DEFAULT '{}',
  judge text,
  directive text,
  directive_trusted boolean NOT NULL DEFAULT false,
  judged bigint NOT NULL DEFAULT 0,
  ledger_seq bigint NOT NULL DEFAULT 0,
  ledger_bytes bigint NOT NULL DEFAULT 0,
  ledger_dropped boolean NOT NULL DEFAULT false,
  UNIQUE (principal_id, name)
);
CREATE INDEX sessions_principal ON sessions (principal_id, level, active_ns);
CREATE INDEX sessions_parent ON sessions (parent_id) WHERE parent_id IS NOT NULL;
CREATE TABLE session_observations (
  session_id text NOT NULL,
  seq bigint NOT NULL,
  time_ns bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('directive', 'address_book', 'trusted_output', 'untrusted_output', 'promoted')),
  ref text NOT NULL,
  instructions text[],
  format text NOT NULL CHECK (format IN ('text', 'json')),
  sealed boolean NOT NULL,
  body bytea NOT NULL,
  args bytea,
  PRIMARY KEY (session_id, seq)
);

CREATE TABLE held_calls (
  id text PRIMARY KEY,
  principal_id text NOT NULL,
  session_id text NOT NULL,
  time_ns bigint NOT NULL,
  expires_ns bigint NOT NULL,
  turn_id text,
  input_source text NOT NULL,
  facade text,
  tool text NOT NULL,
  tier text NOT NULL CHECK (tier IN ('read', 'write', 'privileged')),
  args text NOT NULL,
  args_hash text NOT NULL,
  reason text NOT NULL,
  message text NOT NULL,
  rule text,
  decision_id text,
  reviews text,
  status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
  decided_ns bigint,
  decided_by text,
  note text,
  outcome text,
  retry_key text,
  description text,
  CHECK ((status = 'pending') = (decided_ns IS NULL))
);
CREATE INDEX held_calls_time ON held_calls (time_ns);
CREATE INDEX held_calls_session ON held_calls (session_id, status, tool, args_hash);
CREATE INDEX held_calls_retry ON held_calls (principal_id, tool, retry_key, status, decided_ns) WHERE retry_key IS NOT NULL;
CREATE FUNCTION held_calls_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'held_calls: a decided call is not decided again';
END $$;
CREATE TRIGGER held_calls_decided BEFORE UPDATE OF status, decided_ns, decided_by ON held_calls
FOR EACH ROW WHEN (OLD.status <> 'pending') EXECUTE FUNCTION held_calls_decided();

CREATE TABLE spend_holds (
  id text PRIMARY KEY,
  session_id text NOT NULL,
  tick bigint NOT NULL,
  cents bigint NOT NULL CHECK (cents >= 0),
  created_ns bigint NOT NULL,
  expires_ns bigint NOT NULL
);
CREATE INDEX spend_holds_expires ON spend_holds (expires_ns);
CREATE INDEX spend_holds_session ON spend_holds (session_id, tick);
CREATE TABLE spend_ledger (
  id text PRIMARY KEY,
  session_id text NOT NULL,
  tick bigint NOT NULL,
  cents bigint NOT NULL CHECK (cents >= 0),
  time_ns bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('committing', 'executed'))
);
CREATE INDEX spend_ledger_time ON spend_ledger (time_ns);
CREATE INDEX spend_ledger_session ON spend_ledger (session_id, tick);

CREATE TABLE withheld_outputs (
  key text PRIMARY KEY,
  principal_id text,
  session_id text NOT NULL,
  parent_id text,
  tool text NOT NULL,
  time_ns bigint NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  exit_code bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('withheld', 'promoted', 'rejected')),
  nonce bytea NOT NULL,
  ciphertext bytea NOT NULL,
  decided_by text,
  decided_ns bigint,
  plain bytea,
  CHECK ((status = 'withheld') = (decided_ns IS NULL)),
  CHECK ((status = 'promoted') = (plain IS NOT NULL))
);
CREATE INDEX withheld_outputs_session ON withheld_outputs (session_id, time_ns);
CREATE FUNCTION withheld_outputs_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'withheld_outputs: a decided output never changes';
END $$;
CREATE TRIGGER withheld_outputs_decided BEFORE UPDATE ON withheld_outputs
FOR EACH ROW WHEN (OLD.status <> 'withheld') EXECUTE FUNCTION withheld_outputs_decided();
CREATE TABLE withheld_wraps (
  key text NOT NULL REFERENCES withheld_outputs (key),
  reviewer text NOT NULL,
  wrap bytea NOT NULL,
  PRIMARY KEY (key, reviewer)
);
`
