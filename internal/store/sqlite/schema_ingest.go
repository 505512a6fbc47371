package sqlite

// ingestMigrations (versions 13 to 21) give what the knowledge pipeline
// learns, and the pins of upstream tools, tables of their own, where
// version 2's gate_state kept them as JSON or base64 under one key each,
// or nothing kept them at all. Each moves what gate_state held of it
// (times to the millisecond: SQLite parses RFC 3339 no finer) and deletes
// those keys; a value that is not what ward wrote, or a row that would
// break a constraint, is dropped rather than moved half (INSERT OR
// IGNORE skips it). A list the rows of one table order is ranked by an
// integer the store assigns (used, seq), never by time alone.
//
// Version 13: lessons, one row per lesson of the lessons store
// (adopt.Lessons), formerly "grimoire:lessons". used ranks them by
// recency (the largest is the most recently used); conditions, keywords
// and matches (Unix nanoseconds) are JSON arrays, the lists of one
// lesson.
//
// Version 14: series_samples, one row per figure of a day's market sample
// (day is the UTC date), formerly the JSON array "grimoire:series".
//
// Version 15: oracle_filters, the oracle's exact and similarity Bloom
// filters, one row each: the banding and seed its similarity keys are
// made with, the filter's parameters, and its bit array as a BLOB
// (big-endian 64-bit words). seed is the uint64 seed's bits as a signed
// integer. "grimoire:oracle" was base64 of the oracle's binary export,
// which SQL cannot decode (SQLite has no base64 function here, and parsing
// the format in SQL would be a second, untested decoder of it): it is
// dropped. What that loses is the oracle's early hold of content rejected
// before the upgrade; such content still meets the screens that rejected
// it, and the same entry from the same agent is still refused as a replay
// by quarantine_entries' unique (agent, content_hash).
//
// Version 16: immune_signatures, one row per structural signature of a
// rejected entry, in the order recorded (seq); the store keeps the newest
// the immune memory's capacity allows. "grimoire:immune" was base64 of a
// binary encoding, dropped for the reason version 15 gives; it loses the
// immune memory's hold of paraphrases of entries rejected before the
// upgrade.
//
// Version 17: skill_components, one row per verified component that
// Stage 3 promoted into the skill library, in the order added (seq).
// "grimoire:skill_library" held every component, the built-in ones among
// them (a library already holds those, and skips them on load); its
// conditions move here. A sizing component's WASM module was base64 in
// that JSON: it is dropped, and none was ever saved, since Stage 3
// promotes conditions only.
//
// Version 18: the ingestion metrics and Beta reputation of each source
// agent, formerly "grimoire:reputation": source_reputation holds its
// counters, the passes and failures of each stage, and safety_alpha and
// safety_beta; used ranks the sources by their last update (eviction
// spares the most recent). source_failures holds its failures by attack,
// source_buyers what each buyer decided of its entries. What derives from
// these (the mean, the rates, the blacklist) is computed on load.
//
// Version 19: session_influences, the adopted external entries each
// session retrieved (one row per session and entry, a later retrieval
// replacing the earlier), which tag the session's decisions for causal
// rollback. The store keeps a session's 64 most recent (seq orders them)
// and deletes rows older than 24 hours; the index on retrieved_ns serves
// that. Nothing kept them before.
//
// Version 20: clade_votes, each clade member's latest verdict on a shared
// entry; clade_entries, the entries voted on in the order of their first
// vote (seq), which bounds them: the votes on the oldest go beyond 10,000
// entries; and clade_demotions, the trust a sharer lost for a rejected
// share, at most once per entry (the primary key), never forgotten.
// Nothing kept them before.
//
// Version 21: upstream_pins, the approved definition hash of each
// upstream server's tool (approved_by is NULL for trust on first use),
// formerly "upstream:<server>:<tool>"; upstream_pending, the changed
// definitions waiting for approval, formerly the JSON map
// "upstream-pending:<server>".
var ingestMigrations = []migration{{13, `
CREATE TABLE lessons (
  id TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 128),
  used INTEGER NOT NULL,
  summary TEXT NOT NULL,
  advice TEXT,
  reason TEXT,
  entry_id TEXT,
  conditions TEXT NOT NULL CHECK (json_valid(conditions) AND json_type(conditions) = 'array'),
  keywords TEXT NOT NULL CHECK (json_valid(keywords) AND json_type(keywords) = 'array'),
  confidence REAL NOT NULL CHECK (confidence > 0 AND confidence <= 1),
  created_ns INTEGER NOT NULL,
  touched_ns INTEGER NOT NULL,
  matches TEXT NOT NULL CHECK (json_valid(matches) AND json_type(matches) = 'array'),
  promoted_ns INTEGER,
  CHECK (json_array_length(conditions) + json_array_length(keywords) > 0)
);
INSERT OR IGNORE INTO lessons (id, used, summary, advice, reason, entry_id, conditions, keywords, confidence,
  created_ns, touched_ns, matches, promoted_ns)
SELECT json_extract(l.value, '$.id'),
  json_array_length(g.value, '$.lessons') - l.key,
  coalesce(json_extract(l.value, '$.summary'), ''),
  nullif(json_extract(l.value, '$.advice'), ''), nullif(json_extract(l.value, '$.reason'), ''),
  nullif(json_extract(l.value, '$.entry_id'), ''),
  coalesce(json_extract(l.value, '$.conditions'), '[]'), coalesce(json_extract(l.value, '$.keywords'), '[]'),
  json_extract(l.value, '$.confidence'),
  CAST(round(unixepoch(json_extract(l.value, '$.created'), 'subsec') * 1000) AS INTEGER) * 1000000,
  CAST(round(unixepoch(json_extract(l.value, '$.touched'), 'subsec') * 1000) AS INTEGER) * 1000000,
  (SELECT json_group_array(CAST(round(unixepoch(m.value, 'subsec') * 1000) AS INTEGER) * 1000000)
     FROM json_each(l.value, '$.matches') m WHERE unixepoch(m.value, 'subsec') IS NOT NULL),
  CAST(round(unixepoch(json_extract(l.value, '$.promoted'), 'subsec') * 1000) AS INTEGER) * 1000000
FROM (SELECT value FROM gate_state WHERE key = 'grimoire:lessons' AND json_valid(value)
      AND json_extract(value, '$.version') = 1 AND json_type(value, '$.lessons') = 'array') g,
  json_each(g.value, '$.lessons') l
WHERE l.type = 'object';
DELETE FROM gate_state WHERE key = 'grimoire:lessons';
`}, {14, `
CREATE TABLE series_samples (
  day TEXT NOT NULL CHECK (day = date(day)),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64 AND NOT name GLOB '*[^a-z0-9_]*'),
  value REAL NOT NULL,
  PRIMARY KEY (day, name)
) WITHOUT ROWID;
INSERT OR IGNORE INTO series_samples (day, name, value)
SELECT date(json_extract(s.value, '$.day')), v.key, v.value
FROM (SELECT value FROM gate_state WHERE key = 'grimoire:series' AND json_valid(value) AND json_type(value) = 'array') g,
  json_each(g.value) s, json_each(s.value, '$.values') v
WHERE s.type = 'object' AND v.type IN ('integer', 'real')
ORDER BY s.key DESC;
DELETE FROM gate_state WHERE key = 'grimoire:series';
`}, {15, `
CREATE TABLE oracle_filters (
  kind TEXT PRIMARY KEY CHECK (kind IN ('exact', 'similar')),
  bands INTEGER NOT NULL CHECK (bands BETWEEN 1 AND 64),
  band_bits INTEGER NOT NULL CHECK (band_bits BETWEEN 1 AND 64),
  seed INTEGER NOT NULL,
  hashes INTEGER NOT NULL CHECK (hashes BETWEEN 1 AND 32),
  bits INTEGER NOT NULL CHECK (bits > 0 AND bits % 64 = 0),
  items INTEGER NOT NULL CHECK (items >= 0),
  words BLOB NOT NULL CHECK (length(words) * 8 = bits),
  saved_ns INTEGER NOT NULL
) WITHOUT ROWID;
DELETE FROM gate_state WHERE key = 'grimoire:oracle';
`}, {16, `
CREATE TABLE immune_signatures (
  seq INTEGER PRIMARY KEY,
  id BLOB NOT NULL CHECK (length(id) = 16),
  class BLOB NOT NULL CHECK (length(class) = 16),
  centroid BLOB NOT NULL CHECK (length(centroid) = 32),
  sketch BLOB NOT NULL CHECK (length(sketch) = 16),
  dim INTEGER NOT NULL CHECK (dim > 0),
  attack TEXT NOT NULL CHECK (attack IN ('unknown', 'embedding_anomaly', 'confidence_inflation', 'provenance_forgery',
    'content_injection', 'causal_graph_poisoning')),
  reason TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 255),
  recorded_ns INTEGER NOT NULL
);
DELETE FROM gate_state WHERE key = 'grimoire:immune';
`}, {17, `
CREATE TABLE skill_components (
  seq INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 144),
  kind TEXT NOT NULL CHECK (kind IN ('condition', 'sizing')),
  text TEXT NOT NULL,
  expr TEXT CHECK (expr <> ''),
  wasm BLOB CHECK (length(wasm) > 0),
  func TEXT CHECK (func <> ''),
  added_ns INTEGER NOT NULL,
  CHECK ((kind = 'condition') = (expr IS NOT NULL)),
  CHECK ((kind = 'sizing') = (wasm IS NOT NULL AND func IS NOT NULL))
);
INSERT OR IGNORE INTO skill_components (name, kind, text, expr, added_ns)
SELECT json_extract(c.value, '$.name'), 'condition', coalesce(json_extract(c.value, '$.text'), ''),
  json_extract(c.value, '$.expr'), g.set_ns
FROM (SELECT value, set_ns FROM gate_state WHERE key = 'grimoire:skill_library' AND json_valid(value) AND json_type(value) = 'array') g,
  json_each(g.value) c
WHERE c.type = 'object' AND coalesce(json_extract(c.value, '$.kind'), 0) IN (0, 'condition')
ORDER BY c.key;
DELETE FROM gate_state WHERE key = 'grimoire:skill_library';
`}, {18, `
CREATE TABLE source_reputation (
  agent TEXT PRIMARY KEY CHECK (length(agent) BETWEEN 1 AND 128 AND agent = lower(agent)),
  used INTEGER NOT NULL,
  submitted INTEGER NOT NULL CHECK (submitted >= 0),
  quarantined INTEGER NOT NULL CHECK (quarantined >= 0),
  adopted INTEGER NOT NULL CHECK (adopted >= 0),
  confirmed INTEGER NOT NULL CHECK (confirmed >= 0),
  rolled_back INTEGER NOT NULL CHECK (rolled_back >= 0),
  stage1_passed INTEGER NOT NULL CHECK (stage1_passed >= 0),
  stage1_failed INTEGER NOT NULL CHECK (stage1_failed >= 0),
  stage2_passed INTEGER NOT NULL CHECK (stage2_passed >= 0),
  stage2_failed INTEGER NOT NULL CHECK (stage2_failed >= 0),
  sandbox_passed INTEGER NOT NULL CHECK (sandbox_passed >= 0),
  sandbox_failed INTEGER NOT NULL CHECK (sandbox_failed >= 0),
  adopt_passed INTEGER NOT NULL CHECK (adopt_passed >= 0),
  adopt_failed INTEGER NOT NULL CHECK (adopt_failed >= 0),
  safety_alpha REAL NOT NULL CHECK (safety_alpha >= 1),
  safety_beta REAL NOT NULL CHECK (safety_beta >= 1)
);
CREATE TABLE source_failures (
  agent TEXT NOT NULL,
  attack TEXT NOT NULL CHECK (attack IN ('embedding_anomaly', 'confidence_inflation', 'provenance_forgery',
    'content_injection', 'causal_graph_poisoning')),
  failures INTEGER NOT NULL CHECK (failures >= 0),
  PRIMARY KEY (agent, attack)
) WITHOUT ROWID;
CREATE TABLE source_buyers (
  agent TEXT NOT NULL,
  buyer TEXT NOT NULL CHECK (length(buyer) BETWEEN 1 AND 128),
  decided INTEGER NOT NULL CHECK (decided >= 0),
  failed INTEGER NOT NULL CHECK (failed BETWEEN 0 AND decided),
  PRIMARY KEY (agent, buyer)
) WITHOUT ROWID;
CREATE TEMP TABLE v18_sources AS
SELECT lower(json_extract(s.value, '$.agent')) AS agent, s.key + 1 AS used, s.value AS v
FROM (SELECT value FROM gate_state WHERE key = 'grimoire:reputation' AND json_valid(value)
      AND json_extract(value, '$.version') = 1 AND json_type(value, '$.sources') = 'array') g,
  json_each(g.value, '$.sources') s
WHERE s.type = 'object' AND coalesce(json_extract(s.value, '$.agent'), '') <> '';
INSERT OR IGNORE INTO source_reputation (agent, used, submitted, quarantined, adopted, confirmed, rolled_back,
  stage1_passed, stage1_failed, stage2_passed, stage2_failed, sandbox_passed, sandbox_failed, adopt_passed, adopt_failed,
  safety_alpha, safety_beta)
SELECT agent, used,
  coalesce(json_extract(v, '$.entries_submitted'), 0), coalesce(json_extract(v, '$.entries_quarantined'), 0),
  coalesce(json_extract(v, '$.entries_adopted'), 0), coalesce(json_extract(v, '$.entries_confirmed'), 0),
  coalesce(json_extract(v, '$.entries_rolled_back'), 0),
  coalesce(json_extract(v, '$.stages.stage1.passed'), 0), coalesce(json_extract(v, '$.stages.stage1.failed'), 0),
  coalesce(json_extract(v, '$.stages.stage2.passed'), 0), coalesce(json_extract(v, '$.stages.stage2.failed'), 0),
  coalesce(json_extract(v, '$.stages.sandbox.passed'), 0), coalesce(json_extract(v, '$.stages.sandbox.failed'), 0),
  coalesce(json_extract(v, '$.stages.adopt.passed'), 0), coalesce(json_extract(v, '$.stages.adopt.failed'), 0),
  max(coalesce(json_extract(v, '$.safety_alpha'), 1), 1), max(coalesce(json_extract(v, '$.safety_beta'), 1), 1)
FROM v18_sources ORDER BY used DESC;
INSERT OR IGNORE INTO source_failures (agent, attack, failures)
SELECT s.agent, f.key, f.value
FROM v18_sources s JOIN source_reputation r ON r.agent = s.agent AND r.used = s.used, json_each(s.v, '$.failures_by_attack') f
WHERE json_type(s.v, '$.failures_by_attack') = 'object' AND f.type = 'integer';
INSERT OR IGNORE INTO source_buyers (agent, buyer, decided, failed)
SELECT s.agent, b.key, coalesce(json_extract(b.value, '$.decided'), 0), coalesce(json_extract(b.value, '$.failed'), 0)
FROM v18_sources s JOIN source_reputation r ON r.agent = s.agent AND r.used = s.used, json_each(s.v, '$.buyers') b
WHERE json_type(s.v, '$.buyers') = 'object' AND b.type = 'object';
DROP TABLE v18_sources;
DELETE FROM gate_state WHERE key = 'grimoire:reputation';
`}, {19, `
CREATE TABLE session_influences (
  session_id TEXT NOT NULL CHECK (length(session_id) BETWEEN 1 AND 256),
  entry_id TEXT NOT NULL CHECK (length(entry_id) BETWEEN 1 AND 128),
  seq INTEGER NOT NULL,
  provenance TEXT NOT NULL CHECK (provenance IN ('purchased', 'clade', 'cross_user')),
  agent TEXT NOT NULL,
  confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
  retrieved_ns INTEGER NOT NULL,
  PRIMARY KEY (session_id, entry_id)
) WITHOUT ROWID;
CREATE INDEX session_influences_time ON session_influences (retrieved_ns);
`}, {20, `
CREATE TABLE clade_entries (
  seq INTEGER PRIMARY KEY,
  entry_id TEXT NOT NULL UNIQUE CHECK (length(entry_id) BETWEEN 1 AND 128)
);
CREATE TABLE clade_votes (
  entry_id TEXT NOT NULL,
  member TEXT NOT NULL CHECK (length(member) BETWEEN 1 AND 128 AND member = lower(member)),
  rejected INTEGER NOT NULL CHECK (rejected IN (0, 1)),
  voted_ns INTEGER NOT NULL,
  PRIMARY KEY (entry_id, member)
) WITHOUT ROWID;
CREATE TABLE clade_demotions (
  entry_id TEXT PRIMARY KEY CHECK (length(entry_id) BETWEEN 1 AND 128),
  member TEXT NOT NULL CHECK (length(member) BETWEEN 1 AND 128 AND member = lower(member)),
  amount REAL NOT NULL CHECK (amount > 0 AND amount <= 1),
  demoted_ns INTEGER NOT NULL
) WITHOUT ROWID;
`}, {21, `
CREATE TABLE upstream_pins (
  server TEXT NOT NULL CHECK (length(server) BETWEEN 1 AND 64),
  tool TEXT NOT NULL CHECK (length(tool) BETWEEN 1 AND 256),
  hash TEXT NOT NULL CHECK (length(hash) = 64 AND NOT hash GLOB '*[^0-9a-f]*'),
  approved_ns INTEGER NOT NULL,
  approved_by TEXT,
  PRIMARY KEY (server, tool)
) WITHOUT ROWID;
CREATE TABLE upstream_pending (
  server TEXT NOT NULL CHECK (length(server) BETWEEN 1 AND 64),
  tool TEXT NOT NULL CHECK (length(tool) BETWEEN 1 AND 256),
  hash TEXT NOT NULL CHECK (length(hash) = 64 AND NOT hash GLOB '*[^0-9a-f]*'),
  approved_hash TEXT NOT NULL CHECK (length(approved_hash) = 64 AND NOT approved_hash GLOB '*[^0-9a-f]*'),
  seen_ns INTEGER NOT NULL,
  definition TEXT NOT NULL CHECK (json_valid(definition)),
  PRIMARY KEY (server, tool)
) WITHOUT ROWID;
INSERT OR IGNORE INTO upstream_pins (server, tool, hash, approved_ns)
SELECT substr(key, 10, instr(substr(key, 10), ':') - 1), substr(key, 10 + instr(substr(key, 10), ':')), value, set_ns
FROM gate_state
WHERE key LIKE 'upstream:%' AND instr(substr(key, 10), ':') > 1;
INSERT OR IGNORE INTO upstream_pending (server, tool, hash, approved_hash, seen_ns, definition)
SELECT substr(g.key, 18), p.key, json_extract(p.value, '$.hash'), json_extract(p.value, '$.approved_hash'),
  coalesce(CAST(round(unixepoch(json_extract(p.value, '$.seen_at'), 'subsec') * 1000) AS INTEGER) * 1000000, g.set_ns),
  json(json_extract(p.value, '$.definition'))
FROM (SELECT key, value, set_ns FROM gate_state WHERE key LIKE 'upstream-pending:%' AND json_valid(value)
      AND json_type(value) = 'object') g,
  json_each(g.value) p
WHERE p.type = 'object' AND json_type(p.value, '$.definition') IN ('object', 'array');
DELETE FROM gate_state WHERE key LIKE 'upstream:%' OR key LIKE 'upstream-pending:%';
`}}
