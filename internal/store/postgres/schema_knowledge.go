package postgres

// schemaKnowledge is version 1's knowledge pipeline: quarantine, the
// Grimoire, and what ingestion learns (lessons, series, memory, skills,
// reputation, influences, clade), and the pins of upstream tools.
//
// Text that results are ordered by is COLLATE "C", so that the order is
// the bytes' order, as in SQLite, whatever the database's locale. Orders
// of arrival are identity columns (seq); where a bound or an order must
// follow commit order (quarantine, skills, signatures) they are assigned
// under the advisory lock that serialises their writers (lock.go); the
// clade's bound is kept without one (clade.go).
// The triggers keep, whoever writes, what the store's contract promises
// never changes: a decided quarantine entry (but for passed to
// rolled_back) and a Grimoire entry's source and claimed confidence.
const schemaKnowledge = `
CREATE TABLE quarantine_entries (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  agent text COLLATE "C" NOT NULL,
  content_hash bytea NOT NULL CHECK (length(content_hash) = 32),
  entry text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'passed', 'failed', 'rolled_back')),
  reason text,
  attack text,
  batch_id text,
  quarantined_ns bigint NOT NULL,
  decided_ns bigint,
  CHECK ((status = 'pending') = (decided_ns IS NULL)),
  UNIQUE (agent, content_hash)
);
CREATE INDEX quarantine_entries_agent ON quarantine_entries (agent, status, seq);
CREATE INDEX quarantine_entries_decided ON quarantine_entries (status, decided_ns);
CREATE FUNCTION quarantine_entries_decided() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'pending' AND NOT (OLD.status = 'passed' AND NEW.status = 'rolled_back'
      AND NEW.id = OLD.id AND NEW.agent = OLD.agent AND NEW.content_hash = OLD.content_hash AND NEW.entry = OLD.entry) THEN
    RAISE EXCEPTION 'quarantine_entries: a decided entry never changes, but for passed to rolled_back';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER quarantine_entries_decided BEFORE UPDATE ON quarantine_entries
FOR EACH ROW EXECUTE FUNCTION quarantine_entries_decided();

CREATE TABLE grimoire_entries (
  id text COLLATE "C" PRIMARY KEY,
  partition text NOT NULL CHECK (partition IN ('self', 'external', 'quarantine', 'lessons')),
  entry_type text NOT NULL,
  content text NOT NULL,
  provenance text NOT NULL,
  confidence double precision NOT NULL CHECK (confidence BETWEEN 0 AND 1),
  agent text,
  signature bytea,
  anchor text,
  listing text,
  clade text,
  source_ns bigint NOT NULL,
  embedding bytea CHECK (length(embedding) % 4 = 0),
  claim text,
  heuristic text,
  created_ns bigint NOT NULL,
  adoption text
);
CREATE INDEX grimoire_entries_partition ON grimoire_entries (partition, created_ns, id);
CREATE INDEX grimoire_entries_adopted ON grimoire_entries (created_ns, id) WHERE adoption IS NOT NULL;
CREATE FUNCTION grimoire_entries_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.provenance, NEW.confidence, NEW.agent, NEW.signature, NEW.anchor, NEW.listing, NEW.clade, NEW.source_ns)
      IS DISTINCT FROM (OLD.id, OLD.provenance, OLD.confidence, OLD.agent, OLD.signature, OLD.anchor, OLD.listing, OLD.clade, OLD.source_ns) THEN
    RAISE EXCEPTION 'grimoire_entries: an entry''s source and claimed confidence never change';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER grimoire_entries_source BEFORE UPDATE ON grimoire_entries
FOR EACH ROW EXECUTE FUNCTION grimoire_entries_source();

CREATE TABLE lessons (
  id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
  used bigint NOT NULL,
  summary text NOT NULL,
  advice text,
  reason text,
  entry_id text,
  conditions text[] NOT NULL,
  keywords text[] NOT NULL,
  confidence double precision NOT NULL CHECK (confidence > 0 AND confidence <= 1),
  created_ns bigint NOT NULL,
  touched_ns bigint NOT NULL,
  matches bigint[] NOT NULL,
  promoted_ns bigint,
  CHECK (cardinality(conditions) + cardinality(keywords) > 0)
);
CREATE INDEX lessons_used ON lessons (used);

CREATE TABLE series_samples (
  day date NOT NULL,
  name text COLLATE "C" NOT NULL CHECK (name ~ '^[a-z0-9_]{1,64}$'),
  value double precision NOT NULL,
  PRIMARY KEY (day, name)
);

CREATE TABLE oracle_filters (
  kind text PRIMARY KEY CHECK (kind IN ('exact', 'similar')),
  bands integer NOT NULL CHECK (bands BETWEEN 1 AND 64),
  band_bits integer NOT NULL CHECK (band_bits BETWEEN 1 AND 64),
  seed bigint NOT NULL,
  hashes integer NOT NULL CHECK (hashes BETWEEN 1 AND 32),
  bits bigint NOT NULL CHECK (bits > 0 AND bits % 64 = 0),
  items bigint NOT NULL CHECK (items >= 0),
  words bytea NOT NULL CHECK (length(words)::bigint * 8 = bits),
  saved_ns bigint NOT NULL
);
CREATE TABLE immune_signatures (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id bytea NOT NULL CHECK (length(id) = 16),
  class bytea NOT NULL CHECK (length(class) = 16),
  centroid bytea NOT NULL CHECK (length(centroid) = 32),
  sketch bytea NOT NULL CHECK (length(sketch) = 16),
  dim bigint NOT NULL CHECK (dim > 0),
  attack text NOT NULL CHECK (attack IN ('', 'embedding_anomaly', 'confidence_inflation', 'provenance_forgery',
    'content_injection', 'causal_graph_poisoning')),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 255),
  recorded_ns bigint NOT NULL
);

CREATE TABLE skill_components (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 144),
  kind text NOT NULL CHECK (kind IN ('condition', 'sizing')),
  text text NOT NULL,
  expr text CHECK (expr <> ''),
  wasm bytea CHECK (length(wasm) > 0),
  func text CHECK (func <> ''),
  added_ns bigint NOT NULL,
  CHECK ((kind = 'condition') = (expr IS NOT NULL)),
  CHECK ((kind = 'sizing') = (wasm IS NOT NULL AND func IS NOT NULL))
);

CREATE TABLE source_reputation (
  agent text PRIMARY KEY CHECK (length(agent) BETWEEN 1 AND 128 AND agent = lower(agent)),
  used bigint NOT NULL,
  submitted bigint NOT NULL CHECK (submitted >= 0),
  quarantined bigint NOT NULL CHECK (quarantined >= 0),
  adopted bigint NOT NULL CHECK (adopted >= 0),
  confirmed bigint NOT NULL CHECK (confirmed >= 0),
  rolled_back bigint NOT NULL CHECK (rolled_back >= 0),
  stage1_passed bigint NOT NULL CHECK (stage1_passed >= 0),
  stage1_failed bigint NOT NULL CHECK (stage1_failed >= 0),
  stage2_passed bigint NOT NULL CHECK (stage2_passed >= 0),
  stage2_failed bigint NOT NULL CHECK (stage2_failed >= 0),
  sandbox_passed bigint NOT NULL CHECK (sandbox_passed >= 0),
  sandbox_failed bigint NOT NULL CHECK (sandbox_failed >= 0),
  adopt_passed bigint NOT NULL CHECK (adopt_passed >= 0),
  adopt_failed bigint NOT NULL CHECK (adopt_failed >= 0),
  safety_alpha double precision NOT NULL CHECK (safety_alpha >= 1),
  safety_beta double precision NOT NULL CHECK (safety_beta >= 1)
);
CREATE TABLE source_failures (
  agent text NOT NULL REFERENCES source_reputation (agent) ON DELETE CASCADE,
  attack text NOT NULL CHECK (attack IN ('embedding_anomaly', 'confidence_inflation', 'provenance_forgery',
    'content_injection', 'causal_graph_poisoning')),
  failures bigint NOT NULL CHECK (failures >= 0),
  PRIMARY KEY (agent, attack)
);
CREATE TABLE source_buyers (
  agent text NOT NULL REFERENCES source_reputation (agent) ON DELETE CASCADE,
  buyer text NOT NULL CHECK (length(buyer) BETWEEN 1 AND 128),
  decided bigint NOT NULL CHECK (decided >= 0),
  failed bigint NOT NULL CHECK (failed BETWEEN 0 AND decided),
  PRIMARY KEY (agent, buyer)
);

CREATE TABLE session_influences (
  session_id text COLLATE "C" NOT NULL CHECK (length(session_id) BETWEEN 1 AND 256),
  entry_id text NOT NULL CHECK (length(entry_id) BETWEEN 1 AND 128),
  seq bigint NOT NULL,
  provenance text NOT NULL CHECK (provenance IN ('purchased', 'clade', 'cross_user')),
  agent text NOT NULL,
  confidence double precision NOT NULL CHECK (confidence BETWEEN 0 AND 1),
  retrieved_ns bigint NOT NULL,
  PRIMARY KEY (session_id, entry_id)
);
CREATE INDEX session_influences_time ON session_influences (retrieved_ns);
CREATE INDEX session_influences_seq ON session_influences (session_id, seq);

CREATE TABLE clade_entries (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  entry_id text COLLATE "C" NOT NULL UNIQUE CHECK (length(entry_id) BETWEEN 1 AND 128)
);
CREATE TABLE clade_votes (
  entry_id text COLLATE "C" NOT NULL REFERENCES clade_entries (entry_id) ON DELETE CASCADE,
  member text COLLATE "C" NOT NULL CHECK (length(member) BETWEEN 1 AND 128 AND member = lower(member)),
  rejected boolean NOT NULL,
  voted_ns bigint NOT NULL,
  PRIMARY KEY (entry_id, member)
);
CREATE TABLE clade_demotions (
  entry_id text COLLATE "C" PRIMARY KEY CHECK (length(entry_id) BETWEEN 1 AND 128),
  member text NOT NULL CHECK (length(member) BETWEEN 1 AND 128 AND member = lower(member)),
  amount double precision NOT NULL CHECK (amount > 0 AND amount <= 1),
  demoted_ns bigint NOT NULL
);

CREATE TABLE upstream_pins (
  server text COLLATE "C" NOT NULL CHECK (length(server) BETWEEN 1 AND 64),
  tool text COLLATE "C" NOT NULL CHECK (length(tool) BETWEEN 1 AND 256),
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  approved_ns bigint NOT NULL,
  approved_by text,
  PRIMARY KEY (server, tool)
);
CREATE TABLE upstream_pending (
  server text COLLATE "C" NOT NULL CHECK (length(server) BETWEEN 1 AND 64),
  tool text COLLATE "C" NOT NULL CHECK (length(tool) BETWEEN 1 AND 256),
  hash text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
  approved_hash text NOT NULL CHECK (approved_hash ~ '^[0-9a-f]{64}$'),
  seen_ns bigint NOT NULL,
  definition text NOT NULL CHECK (definition::jsonb IS NOT NULL),
  PRIMARY KEY (server, tool)
);
`
