package postgres

// schemaCore is version 1's audit trail and writes: decisions, executions,
// balance, policies, permits, the send journal, the action log, the trust
// log and the gate's control.
//
// policy_decisions has the seed's columns and names (the SQLite backend's
// view of the same name), so the seed's report queries run unchanged;
// created_ns is the exact time, created_at the same time as RFC 3339 text
// with nine fractional digits. Ids and the names reports group by use the
// "C" collation, so that their order is byte order, as in SQLite. The send
// journal and the trust log refuse in the database what the store never
// does: changing what was sent or settled, deleting a journal row, and
// anything but appending the next seq to the trust log.
const schemaCore = `
CREATE TABLE policy_decisions (
  id text COLLATE "C" PRIMARY KEY,
  created_ns bigint NOT NULL,
  created_at text NOT NULL,
  turn_id text,
  session_id text,
  input_source text,
  authority_level text,
  tool_name text COLLATE "C" NOT NULL,
  tool_category text,
  tool_args_hash text NOT NULL,
  risk_level text NOT NULL CHECK (risk_level IN ('safe', 'caution', 'dangerous', 'forbidden')),
  decision text NOT NULL CHECK (decision IN ('allow', 'deny', 'quarantine')),
  reason text COLLATE "C" NOT NULL,
  message text,
  rule text,
  rules_evaluated text NOT NULL,
  rules_triggered text NOT NULL,
  latency_ns bigint NOT NULL CHECK (latency_ns >= 0),
  latency_ms double precision GENERATED ALWAYS AS (latency_ns / 1e6) STORED,
  policy_hash text,
  spend_category text,
  spend_cents bigint NOT NULL,
  diagnostic text,
  origin text NOT NULL CHECK (origin IN ('gate', 'check'))
);
CREATE INDEX policy_decisions_created ON policy_decisions (created_ns);
CREATE INDEX policy_decisions_session ON policy_decisions (session_id, created_ns);
CREATE TABLE tool_executions (
  id text COLLATE "C" PRIMARY KEY,
  created_ns bigint NOT NULL,
  tool_name text NOT NULL,
  tool_category text,
  session_id text,
  turn_id text,
  decision_id text,
  spend_category text,
  spend_cents bigint NOT NULL CHECK (spend_cents >= 0)
);
CREATE INDEX tool_executions_created ON tool_executions (created_ns, id);
CREATE TABLE tracked_balance (
  id integer PRIMARY KEY CHECK (id = 1),
  cents bigint NOT NULL,
  observed_ns bigint NOT NULL
);
CREATE TABLE policy_snapshots (
  hash text PRIMARY KEY,
  source bytea NOT NULL,
  created_ns bigint NOT NULL
);
CREATE TABLE permits (
  id text COLLATE "C" PRIMARY KEY,
  created_ns bigint NOT NULL,
  expires_ns bigint NOT NULL,
  not_before_ns bigint,
  expiry_tick bigint NOT NULL CHECK (expiry_tick >= 0),
  principal_id text,
  session_id text,
  tool text NOT NULL,
  args_hash text NOT NULL,
  args bytea,
  policy_hash text NOT NULL,
  phase text NOT NULL,
  risk_tier text,
  value_cents bigint NOT NULL CHECK (value_cents >= 0),
  preview bytea,
  status text NOT NULL CHECK (status IN ('pending', 'consumed', 'cancelled')),
  closed_ns bigint,
  closed_by text,
  CHECK ((status = 'pending') = (closed_ns IS NULL))
);
CREATE INDEX permits_pending ON permits (created_ns, id) WHERE status = 'pending';
CREATE TABLE sent_txs (
  hash text PRIMARY KEY,
  chain_id bigint NOT NULL CHECK (chain_id > 0),
  sender text NOT NULL,
  nonce bigint NOT NULL CHECK (nonce >= 0),
  raw bytea NOT NULL,
  permit_id text NOT NULL,
  plan_index integer NOT NULL CHECK (plan_index >= 0),
  plan_len integer NOT NULL CHECK (plan_len > plan_index),
  label text,
  state text NOT NULL CHECK (state IN ('in_flight', 'mined', 'reverted', 'dropped', 'refused')),
  block bigint,
  created_ns bigint NOT NULL,
  settled_ns bigint
);
CREATE UNIQUE INDEX sent_txs_nonce ON sent_txs (chain_id, sender, nonce) WHERE state IN ('in_flight', 'mined', 'reverted');
CREATE FUNCTION sent_txs_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'sent_txs: the send journal is never deleted from';
  END IF;
  IF OLD.state <> 'in_flight' OR (NEW.hash, NEW.chain_id, NEW.sender, NEW.nonce, NEW.raw, NEW.permit_id, NEW.plan_index, NEW.plan_len)
      IS DISTINCT FROM (OLD.hash, OLD.chain_id, OLD.sender, OLD.nonce, OLD.raw, OLD.permit_id, OLD.plan_index, OLD.plan_len) THEN
    RAISE EXCEPTION 'sent_txs: a settled transaction, and what was sent, never change';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER sent_txs_guard BEFORE UPDATE OR DELETE ON sent_txs FOR EACH ROW EXECUTE FUNCTION sent_txs_guard();
CREATE TABLE trust_log (
  seq bigint PRIMARY KEY,
  id text NOT NULL UNIQUE,
  time_ns bigint NOT NULL,
  kind text NOT NULL,
  session_id text NOT NULL,
  actor text NOT NULL,
  target text NOT NULL,
  detail bytea,
  prev bytea NOT NULL,
  hash bytea NOT NULL
);
CREATE FUNCTION trust_log_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'trust_log is append-only: rows cannot be changed or deleted';
  END IF;
  IF NEW.seq IS DISTINCT FROM (SELECT coalesce(max(seq), 0) + 1 FROM trust_log) THEN
    RAISE EXCEPTION 'trust_log is append-only: seq must follow the last row';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER trust_log_guard BEFORE INSERT OR UPDATE OR DELETE ON trust_log FOR EACH ROW EXECUTE FUNCTION trust_log_guard();
CREATE TABLE gate_control (
  id integer PRIMARY KEY CHECK (id = 1),
  phase text NOT NULL CHECK (phase IN ('thriving', 'stable', 'conservation', 'declining', 'terminal')),
  phase_ns bigint,
  phase_by text,
  halted boolean NOT NULL,
  halt_reason text,
  halt_ns bigint,
  halt_by text
);
INSERT INTO gate_control (id, phase, halted) VALUES (1, 'thriving', false);
CREATE TABLE action_log (
  id text PRIMARY KEY,
  time_ns bigint NOT NULL,
  kind text NOT NULL,
  permit_id text,
  session_id text,
  tool text,
  action_type text,
  args_hash text,
  tx_hash text,
  status text NOT NULL,
  block_reason text,
  gas_used bigint NOT NULL CHECK (gas_used >= 0),
  gas_cost_wei text,
  verified boolean NOT NULL,
  expected text,
  actual text,
  ground_truth text,
  detail bytea,
  principal_id text,
  chain_id bigint NOT NULL DEFAULT 0
);
CREATE INDEX action_log_permit ON action_log (permit_id);
CREATE INDEX action_log_time ON action_log (time_ns, id);
CREATE INDEX action_log_lookup_failed ON action_log (principal_id, time_ns) WHERE kind = 'lookup_failed';
`
