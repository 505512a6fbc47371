package postgres

// schemaCore is version 1's audit trail and writes: decisions, executions,
// balance, policies, permits, the send journal, the action log, the trust
// log and the gate's control.
const schemaCore = `
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
