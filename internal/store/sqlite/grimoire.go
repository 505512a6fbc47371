package sqlite

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

// Quarantine and Grimoire writes go through the writer like withheld
// outputs: each is an op of the open batch, durable when its call returns,
// and every expected refusal (an id or agent's content that exists, a
// decided entry) is found by a conditional statement in the batch's
// transaction and answers its own caller without failing the batch.
//
// PutQuarantined inserts with ON CONFLICT DO NOTHING and, only if the row
// is new, deletes the agent's pending entries beyond
// store.MaxQuarantinePending, oldest (lowest seq) first, in the same
// transaction: concurrent puts are serialized by the writer (and other
// processes by BEGIN IMMEDIATE), so the cap holds however many race.

const (
	sqlQuarantineInsert = `INSERT INTO quarantine_entries (id, agent, content_hash, entry, status, batch_id, quarantined_ns)
VALUES (?,?,?,?,'pending',?,?) ON CONFLICT DO NOTHING`
	sqlQuarantineOverflow = `SELECT id FROM quarantine_entries WHERE agent = ?1 AND status = 'pending' ORDER BY seq DESC LIMIT -1 OFFSET ?2`
	sqlQuarantineDelete   = `DELETE FROM quarantine_entries WHERE id = ?`
	sqlQuarantineDecide   = `UPDATE quarantine_entries SET status = ?1, reason = ?2, attack = ?3, decided_ns = ?4 WHERE id = ?5 AND status = 'pending'`
	sqlQuarantineStatus   = `SELECT status FROM quarantine_entries WHERE id = ?`
	sqlQuarantineRollback = `UPDATE quarantine_entries SET status = 'rolled_back', reason = ?1, attack = NULL, decided_ns = ?2 WHERE id = ?3 AND status = 'passed'`
	sqlQuarantineReinsert = `INSERT INTO quarantine_entries (id, agent, content_hash, entry, status, reason, batch_id, quarantined_ns, decided_ns)
VALUES (?,?,?,?,'rolled_back',?,?,?,?) ON CONFLICT DO NOTHING`
	sqlQuarantinePrune = `DELETE FROM quarantine_entries WHERE status IN ('passed', 'failed') AND decided_ns <= ?`
	quarantineCols     = `entry, status, reason, attack, batch_id, quarantined_ns, decided_ns`
	sqlQuarantineRow   = `SELECT ` + quarantineCols + ` FROM quarantine_entries WHERE id = ?`
	sqlQuarantineList  = `SELECT ` + quarantineCols + ` FROM quarantine_entries
WHERE (?1 = '' OR agent = ?1) AND (?2 = '' OR status = ?2) ORDER BY seq LIMIT ?3`

	grimoireCols      = `id, partition, entry_type, content, provenance, confidence, agent, signature, anchor, listing, clade, source_ns, embedding, claim, heuristic, created_ns, adoption`
	sqlGrimoireInsert = `INSERT INTO grimoire_entries (` + grimoireCols + `) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO NOTHING`
	sqlGrimoireAdopt  = `UPDATE grimoire_entries SET adoption = ?1 WHERE id = ?2`
	sqlGrimoireDelete = `DELETE FROM grimoire_entries WHERE id = ?`
	sqlAdoptionRow    = `SELECT adoption FROM grimoire_entries WHERE id = ?`
	sqlAdoptionList   = `SELECT adoption FROM grimoire_entries WHERE adoption IS NOT NULL ORDER BY created_ns, id LIMIT ?`
	sqlGrimoireRow    = `SELECT ` + grimoireCols + ` FROM grimoire_entries WHERE id = ?`
	sqlGrimoireList   = `SELECT ` + grimoireCols + ` FROM grimoire_entries WHERE partition = ? ORDER BY created_ns DESC, id DESC LIMIT ?`
)

// knowledgeWriter holds the writer's statements for quarantine and
// Grimoire entries.
type knowledgeWriter struct {
	qInsert, qOverflow, qDelete, qDecide, qStatus, qPrune, gInsert, gAdopt, gDelete *sqlite3.Stmt
	qRollback, qReinsert                                                            *sqlite3.Stmt
}

func (kw *knowledgeWriter) prepare(prep func(string) *sqlite3.Stmt) {
	kw.qInsert = prep(sqlQuarantineInsert)
	kw.qOverflow = prep(sqlQuarantineOverflow)
	kw.qDelete = prep(sqlQuarantineDelete)
	kw.qDecide = prep(sqlQuarantineDecide)
	kw.qStatus = prep(sqlQuarantineStatus)
	kw.qPrune = prep(sqlQuarantinePrune)
	kw.gInsert = prep(sqlGrimoireInsert)
	kw.gAdopt = prep(sqlGrimoireAdopt)
	kw.gDelete = prep(sqlGrimoireDelete)
	kw.qRollback = prep(sqlQuarantineRollback)
	kw.qReinsert = prep(sqlQuarantineReinsert)
}

// knowledgeOp is a quarantine or Grimoire write and the writer's answer,
// set before the batch's done is closed and read by the caller only if the
// batch committed.
type knowledgeOp struct {
	id      string
	agent   string // put: lower case
	hash    []byte // put: SHA-256 of the content
	entry   string // put: the entry as JSON
	batchID string // put
	ns      int64  // put: quarantined; decide: decided; prune: cutoff
	at      int64  // rollback: decided

	status, reason, attack string // decide

	g         *store.GrimoireEntry // Grimoire put
	embedding []byte
	claim     string
	heuristic string
	adoption  string // Grimoire put (optional) and adoption: the record as JSON

	refused error
	evicted []string // put
	pruned  int64    // prune
}

// PutQuarantined durably stores q as pending, evicting its agent's oldest
// pending entries beyond store.MaxQuarantinePending in the same
// transaction, and returns the evicted ids. An entry store.CheckQuarantined
// refuses is refused unwritten; one whose id exists, or whose agent has an
// entry with the same content, fails with an error wrapping
// store.ErrQuarantineExists. A ctx that ends while the call waits returns
// ctx.Err() and the entry may still be stored.
func (s *Store) PutQuarantined(ctx context.Context, q *store.QuarantinedEntry) ([]string, error) {
	if q == nil {
		return nil, errors.New("sqlite: put quarantined: nil entry")
	}
	if err := store.CheckQuarantined(q); err != nil {
		return nil, fmt.Errorf("sqlite: put quarantined: %w: %w", errInvalid, err)
	}
	ns, err := nanos("quarantine time", q.QuarantinedAt)
	if err != nil {
		return nil, fmt.Errorf("sqlite: put quarantined %s: %w", q.Entry.ID, err)
	}
	e := q.Entry
	e.Source.Timestamp = e.Source.Timestamp.UTC()
	js, err := json.Marshal(&e)
	if err != nil {
		return nil, fmt.Errorf("sqlite: put quarantined %s: %w", q.Entry.ID, err)
	}
	h := sha256.Sum256([]byte(e.Content))
	ko := &knowledgeOp{id: e.ID, agent: strings.ToLower(e.Source.Agent), hash: h[:], entry: string(js), batchID: q.BatchID, ns: ns}
	if err := s.submit(ctx, &op{kind: opQuarantinePut, durable: true, know: ko}); err != nil {
		return nil, err
	}
	if ko.refused != nil {
		return nil, fmt.Errorf("sqlite: put quarantined %s: %w", e.ID, ko.refused)
	}
	return ko.evicted, nil
}

func (w *writer) writeQuarantinePut(o *op) error {
	ko, kw := o.know, &w.know
	ko.refused, ko.evicted = nil, nil
	st := kw.qInsert
	if err := firstErr(
		st.BindText(1, ko.id),
		st.BindText(2, ko.agent),
		st.BindBlob(3, ko.hash),
		st.BindText(4, ko.entry),
		bindOptional(st, 5, ko.batchID),
		st.BindInt64(6, ko.ns),
		st.Exec(),
	); err != nil {
		return err
	}
	if w.conn.Changes() == 0 {
		ko.refused = store.ErrQuarantineExists
		return nil
	}
	q := kw.qOverflow
	if err := firstErr(q.BindText(1, ko.agent), q.BindInt64(2, store.MaxQuarantinePending)); err != nil {
		return err
	}
	for q.Step() {
		ko.evicted = append(ko.evicted, q.ColumnText(0))
	}
	serr, rerr := q.Err(), q.Reset()
	if err := errors.Join(serr, rerr); err != nil {
		return err
	}
	slices.Reverse(ko.evicted) // oldest first
	d := kw.qDelete
	for _, id := range ko.evicted {
		if err := firstErr(d.BindText(1, id), d.Exec()); err != nil {
			return err
		}
	}
	return nil
}

// QuarantinedEntry returns the entry with id, or an error wrapping
// store.ErrNotFound.
func (s *Store) QuarantinedEntry(ctx context.Context, id string) (*store.QuarantinedEntry, error) {
	var out *store.QuarantinedEntry
	err := s.r.query(ctx, sqlQuarantineRow, []any{id}, func(st *sqlite3.Stmt) error {
		q, err := scanQuarantined(st)
		out = &q
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: quarantined entry %s: %w", id, err)
	}
	if out == nil {
		return nil, fmt.Errorf("sqlite: quarantined entry %s: %w", id, store.ErrNotFound)
	}
	return out, nil
}

// ListQuarantined returns the entries f selects in order of arrival.
func (s *Store) ListQuarantined(ctx context.Context, f store.QuarantineFilter) ([]store.QuarantinedEntry, error) {
	if f.Limit < 0 {
		return nil, fmt.Errorf("sqlite: list quarantined: negative limit %d", f.Limit)
	}
	lim := int64(f.Limit)
	if f.Limit == 0 {
		lim = -1
	}
	out, err := readRows(ctx, s.r, scanQuarantined, sqlQuarantineList, strings.ToLower(f.Agent), string(f.Status), lim)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list quarantined: %w", err)
	}
	return out, nil
}

// scanQuarantined reads a row of quarantineCols.
func scanQuarantined(st *sqlite3.Stmt) (store.QuarantinedEntry, error) {
	var q store.QuarantinedEntry
	if err := json.Unmarshal(st.ColumnRawText(0), &q.Entry); err != nil {
		return q, fmt.Errorf("stored entry: %w", err)
	}
	q.Status = store.QuarantineStatus(st.ColumnText(1))
	q.Reason = st.ColumnText(2)
	if err := q.Attack.UnmarshalText(st.ColumnRawText(3)); err != nil {
		return q, fmt.Errorf("stored entry %s: %w", q.Entry.ID, err)
	}
	q.BatchID = st.ColumnText(4)
	q.QuarantinedAt = nsTime(st, 5)
	q.DecidedAt = nsTime(st, 6)
	return q, nil
}

// SetQuarantineStatus durably decides the pending entry id with one
// conditional UPDATE. It fails with an error wrapping store.ErrNotFound
// (also for an empty id) or store.ErrQuarantineDecided, and nothing
// changes; a decision store.CheckQuarantineDecision refuses, or a zero
// at, is refused unwritten. ctx is treated as by PutQuarantined.
func (s *Store) SetQuarantineStatus(ctx context.Context, id string, status store.QuarantineStatus, reason string, attack knowledge.AttackType, at time.Time) error {
	if id == "" {
		return fmt.Errorf("sqlite: set quarantine status: empty id: %w", store.ErrNotFound)
	}
	if err := store.CheckQuarantineDecision(status, reason, attack); err != nil {
		return fmt.Errorf("sqlite: set quarantine status of %s: %w: %w", id, errInvalid, err)
	}
	ns, err := nanos("decision time", at)
	if err != nil {
		return fmt.Errorf("sqlite: set quarantine status of %s: %w", id, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ko := &knowledgeOp{id: id, status: string(status), reason: reason, attack: attack.String(), ns: ns}
	if err := s.submit(ctx, &op{kind: opQuarantineDecide, durable: true, know: ko}); err != nil {
		return err
	}
	if ko.refused != nil {
		return fmt.Errorf("sqlite: set quarantine status of %s: %w", id, ko.refused)
	}
	return nil
}

func (w *writer) writeQuarantineDecide(o *op) error {
	ko, kw := o.know, &w.know
	ko.refused = nil
	st := kw.qDecide
	if err := firstErr(
		st.BindText(1, ko.status),
		bindOptional(st, 2, ko.reason),
		bindOptional(st, 3, ko.attack),
		st.BindInt64(4, ko.ns),
		st.BindText(5, ko.id),
		st.Exec(),
	); err != nil {
		return err
	}
	if w.conn.Changes() == 1 {
		return nil
	}
	q := kw.qStatus
	defer q.Reset()
	if err := q.BindText(1, ko.id); err != nil {
		return err
	}
	if !q.Step() {
		if err := q.Err(); err != nil {
			return err
		}
		ko.refused = store.ErrNotFound
		return nil
	}
	if q.ColumnText(0) == string(store.QuarantinePending) {
		return fmt.Errorf("decide quarantined %s: the update matched nothing, yet it is pending", ko.id)
	}
	ko.refused = fmt.Errorf("%w (%s)", store.ErrQuarantineDecided, q.ColumnText(0))
	return nil
}

// PruneQuarantine durably deletes the passed and failed entries decided
// store.QuarantineRetention or longer before now and returns how many it
// deleted; pending entries stay whatever their age.
func (s *Store) PruneQuarantine(ctx context.Context, now time.Time) (int64, error) {
	ns, err := nanos("prune time", now.Add(-store.QuarantineRetention))
	if err != nil {
		return 0, fmt.Errorf("sqlite: prune quarantine: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	ko := &knowledgeOp{ns: ns}
	if err := s.submit(ctx, &op{kind: opQuarantinePrune, durable: true, know: ko}); err != nil {
		return 0, err
	}
	return ko.pruned, nil
}

func (w *writer) writeQuarantinePrune(o *op) error {
	ko, st := o.know, w.know.qPrune
	ko.pruned = 0
	if err := firstErr(st.BindInt64(1, ko.ns), st.Exec()); err != nil {
		return err
	}
	ko.pruned = w.conn.Changes()
	return nil
}

// RollbackQuarantined durably returns the adopted entry q.Entry to
// quarantine as rolled_back: one conditional UPDATE of its passed row, or,
// when there is none, an INSERT of q as rolled_back. A row in any other
// status fails with an error wrapping store.ErrQuarantineDecided, another
// row of the agent with the same content with store.ErrQuarantineExists.
// ctx is treated as by PutQuarantined.
func (s *Store) RollbackQuarantined(ctx context.Context, q *store.QuarantinedEntry, reason string, at time.Time) error {
	if q == nil {
		return errors.New("sqlite: rollback quarantined: nil entry")
	}
	if err := store.CheckQuarantineRollback(q, reason, at); err != nil {
		return fmt.Errorf("sqlite: rollback quarantined: %w: %w", errInvalid, err)
	}
	qns, err := nanos("quarantine time", q.QuarantinedAt)
	if err != nil {
		return fmt.Errorf("sqlite: rollback quarantined %s: %w", q.Entry.ID, err)
	}
	ns, err := nanos("decision time", at)
	if err != nil {
		return fmt.Errorf("sqlite: rollback quarantined %s: %w", q.Entry.ID, err)
	}
	e := q.Entry
	e.Source.Timestamp = e.Source.Timestamp.UTC()
	js, err := json.Marshal(&e)
	if err != nil {
		return fmt.Errorf("sqlite: rollback quarantined %s: %w", e.ID, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	h := sha256.Sum256([]byte(e.Content))
	ko := &knowledgeOp{id: e.ID, agent: strings.ToLower(e.Source.Agent), hash: h[:], entry: string(js), batchID: q.BatchID,
		ns: qns, at: ns, reason: reason}
	if err := s.submit(ctx, &op{kind: opQuarantineRollback, durable: true, know: ko}); err != nil {
		return err
	}
	if ko.refused != nil {
		return fmt.Errorf("sqlite: rollback quarantined %s: %w", e.ID, ko.refused)
	}
	return nil
}

func (w *writer) writeQuarantineRollback(o *op) error {
	ko, kw := o.know, &w.know
	ko.refused = nil
	st := kw.qRollback
	if err := firstErr(bindOptional(st, 1, ko.reason), st.BindInt64(2, ko.at), st.BindText(3, ko.id), st.Exec()); err != nil {
		return err
	}
	if w.conn.Changes() == 1 {
		return nil
	}
	q := kw.qStatus
	if err := q.BindText(1, ko.id); err != nil {
		return err
	}
	found := q.Step()
	status := ""
	if found {
		status = q.ColumnText(0)
	}
	if err := errors.Join(q.Err(), q.Reset()); err != nil {
		return err
	}
	if found {
		ko.refused = fmt.Errorf("%w (%s)", store.ErrQuarantineDecided, status)
		return nil
	}
	in := kw.qReinsert
	if err := firstErr(
		in.BindText(1, ko.id),
		in.BindText(2, ko.agent),
		in.BindBlob(3, ko.hash),
		in.BindText(4, ko.entry),
		bindOptional(in, 5, ko.reason),
		bindOptional(in, 6, ko.batchID),
		in.BindInt64(7, ko.ns),
		in.BindInt64(8, ko.at),
		in.Exec(),
	); err != nil {
		return err
	}
	if w.conn.Changes() == 0 {
		ko.refused = store.ErrQuarantineExists
	}
	return nil
}

// PutEntry durably stores a copy of g. An entry store.CheckGrimoireEntry
// refuses is refused unwritten; an id that exists fails with an error
// wrapping store.ErrEntryExists. ctx is treated as by PutQuarantined.
func (s *Store) PutEntry(ctx context.Context, g *store.GrimoireEntry) error {
	if g == nil {
		return errors.New("sqlite: put entry: nil entry")
	}
	if err := store.CheckGrimoireEntry(g); err != nil {
		return fmt.Errorf("sqlite: put entry: %w: %w", errInvalid, err)
	}
	if _, err := nanos("creation time", g.Created); err != nil {
		return fmt.Errorf("sqlite: put entry %s: %w", g.Entry.ID, err)
	}
	if _, err := nanos("source time", g.Entry.Source.Timestamp); err != nil {
		return fmt.Errorf("sqlite: put entry %s: %w", g.Entry.ID, err)
	}
	c := *g
	c.Entry.Source.Signature = slices.Clone(g.Entry.Source.Signature)
	ko := &knowledgeOp{g: &c, embedding: store.EncodeEmbedding(g.Entry.Embedding)}
	if cl := g.Entry.Claim; cl != nil {
		b, err := json.Marshal(cl)
		if err != nil {
			return fmt.Errorf("sqlite: put entry %s: claim: %w", g.Entry.ID, err)
		}
		ko.claim = string(b)
	}
	if h := g.Entry.Heuristic; h != nil {
		b, err := json.Marshal(h)
		if err != nil {
			return fmt.Errorf("sqlite: put entry %s: heuristic: %w", g.Entry.ID, err)
		}
		ko.heuristic = string(b)
	}
	if r := g.Adoption; r != nil {
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("sqlite: put entry %s: adoption: %w", g.Entry.ID, err)
		}
		ko.adoption = string(b)
	}
	if err := s.submit(ctx, &op{kind: opGrimoirePut, durable: true, know: ko}); err != nil {
		return err
	}
	if ko.refused != nil {
		return fmt.Errorf("sqlite: put entry %s: %w", g.Entry.ID, ko.refused)
	}
	return nil
}

func (w *writer) writeGrimoirePut(o *op) error {
	ko, st := o.know, w.know.gInsert
	ko.refused = nil
	g, e := ko.g, &ko.g.Entry
	blob := func(i int, b []byte) error {
		if len(b) == 0 {
			return st.BindNull(i)
		}
		return st.BindBlob(i, b)
	}
	if err := firstErr(
		st.BindText(1, e.ID),
		st.BindText(2, g.Partition.String()),
		st.BindText(3, e.Type.String()),
		st.BindText(4, e.Content),
		st.BindText(5, e.Source.Provenance.String()),
		st.BindFloat(6, e.Confidence),
		bindOptional(st, 7, e.Source.Agent),
		blob(8, e.Source.Signature),
		bindOptional(st, 9, e.Source.Anchor),
		bindOptional(st, 10, e.Source.ListingID),
		bindOptional(st, 11, e.Source.CladeID),
		st.BindInt64(12, e.Source.Timestamp.UnixNano()),
		blob(13, ko.embedding),
		bindOptional(st, 14, ko.claim),
		bindOptional(st, 15, ko.heuristic),
		st.BindInt64(16, g.Created.UnixNano()),
		bindOptional(st, 17, ko.adoption),
		st.Exec(),
	); err != nil {
		return err
	}
	if w.conn.Changes() == 0 {
		ko.refused = store.ErrEntryExists
	}
	return nil
}

// Entry returns the Grimoire entry with id, or an error wrapping
// store.ErrNotFound.
func (s *Store) Entry(ctx context.Context, id string) (*store.GrimoireEntry, error) {
	var out *store.GrimoireEntry
	err := s.r.query(ctx, sqlGrimoireRow, []any{id}, func(st *sqlite3.Stmt) error {
		g, err := scanGrimoire(st)
		out = &g
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: entry %s: %w", id, err)
	}
	if out == nil {
		return nil, fmt.Errorf("sqlite: entry %s: %w", id, store.ErrNotFound)
	}
	return out, nil
}

// Entries returns partition's entries, newest first (by creation, then
// id), up to limit (0: all).
func (s *Store) Entries(ctx context.Context, partition knowledge.Partition, limit int) ([]store.GrimoireEntry, error) {
	if !partition.Valid() {
		return nil, fmt.Errorf("sqlite: entries: %w", invalid("partition %d", uint8(partition)))
	}
	if limit < 0 {
		return nil, fmt.Errorf("sqlite: entries: negative limit %d", limit)
	}
	lim := int64(limit)
	if limit == 0 {
		lim = -1
	}
	out, err := readRows(ctx, s.r, scanGrimoire, sqlGrimoireList, partition.String(), lim)
	if err != nil {
		return nil, fmt.Errorf("sqlite: entries of %s: %w", partition, err)
	}
	return out, nil
}

// scanGrimoire reads a row of grimoireCols.
func scanGrimoire(st *sqlite3.Stmt) (store.GrimoireEntry, error) {
	var g store.GrimoireEntry
	e := &g.Entry
	e.ID = st.ColumnText(0)
	errs := []error{
		g.Partition.UnmarshalText(st.ColumnRawText(1)),
		e.Type.UnmarshalText(st.ColumnRawText(2)),
		e.Source.Provenance.UnmarshalText(st.ColumnRawText(4)),
	}
	e.Content = st.ColumnText(3)
	e.Confidence = st.ColumnFloat(5)
	e.Source.Agent = st.ColumnText(6)
	if b := st.ColumnRawBlob(7); len(b) > 0 {
		e.Source.Signature = bytes.Clone(b)
	}
	e.Source.Anchor = st.ColumnText(8)
	e.Source.ListingID = st.ColumnText(9)
	e.Source.CladeID = st.ColumnText(10)
	e.Source.Timestamp = nsTime(st, 11)
	emb, err := store.DecodeEmbedding(st.ColumnRawBlob(12))
	e.Embedding = emb
	errs = append(errs, err)
	if b := st.ColumnRawText(13); len(b) > 0 {
		e.Claim = new(knowledge.Claim)
		errs = append(errs, json.Unmarshal(b, e.Claim))
	}
	if b := st.ColumnRawText(14); len(b) > 0 {
		e.Heuristic = new(knowledge.Heuristic)
		errs = append(errs, json.Unmarshal(b, e.Heuristic))
	}
	g.Created = nsTime(st, 15)
	if b := st.ColumnRawText(16); len(b) > 0 {
		g.Adoption = new(adopt.Record)
		errs = append(errs, json.Unmarshal(b, g.Adoption))
	}
	if err := errors.Join(errs...); err != nil {
		return g, fmt.Errorf("stored entry %s: %w", e.ID, err)
	}
	return g, nil
}

// PutAdoption durably sets the adoption record of the existing entry r.ID
// with one UPDATE; an error wraps store.ErrNotFound when there is no such
// entry. A record store.CheckAdoption refuses is refused unwritten. ctx is
// treated as by PutQuarantined.
func (s *Store) PutAdoption(ctx context.Context, r *adopt.Record) error {
	if r == nil {
		return errors.New("sqlite: put adoption: nil record")
	}
	if err := store.CheckAdoption(r); err != nil {
		return fmt.Errorf("sqlite: put adoption: %w: %w", errInvalid, err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("sqlite: put adoption %s: %w", r.ID, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ko := &knowledgeOp{id: r.ID, adoption: string(b)}
	if err := s.submit(ctx, &op{kind: opGrimoireAdoption, durable: true, know: ko}); err != nil {
		return err
	}
	if ko.refused != nil {
		return fmt.Errorf("sqlite: put adoption %s: %w", r.ID, ko.refused)
	}
	return nil
}

func (w *writer) writeGrimoireAdoption(o *op) error {
	ko, st := o.know, w.know.gAdopt
	ko.refused = nil
	if err := firstErr(st.BindText(1, ko.adoption), st.BindText(2, ko.id), st.Exec()); err != nil {
		return err
	}
	if w.conn.Changes() == 0 {
		ko.refused = store.ErrNotFound
	}
	return nil
}

// DeleteEntry durably deletes the Grimoire entry id with its adoption
// record; an error wraps store.ErrNotFound when there is no such entry.
// ctx is treated as by PutQuarantined.
func (s *Store) DeleteEntry(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ko := &knowledgeOp{id: id}
	if err := s.submit(ctx, &op{kind: opGrimoireDelete, durable: true, know: ko}); err != nil {
		return err
	}
	if ko.refused != nil {
		return fmt.Errorf("sqlite: delete entry %s: %w", id, ko.refused)
	}
	return nil
}

func (w *writer) writeGrimoireDelete(o *op) error {
	ko, st := o.know, w.know.gDelete
	ko.refused = nil
	if err := firstErr(st.BindText(1, ko.id), st.Exec()); err != nil {
		return err
	}
	if w.conn.Changes() == 0 {
		ko.refused = store.ErrNotFound
	}
	return nil
}

// Adoption returns the adoption record of the entry id, or an error
// wrapping store.ErrNotFound when there is no such entry or it has none.
func (s *Store) Adoption(ctx context.Context, id string) (*adopt.Record, error) {
	var out *adopt.Record
	err := s.r.query(ctx, sqlAdoptionRow, []any{id}, func(st *sqlite3.Stmt) error {
		b := st.ColumnRawText(0)
		if len(b) == 0 {
			return nil
		}
		out = new(adopt.Record)
		return json.Unmarshal(b, out)
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: adoption %s: %w", id, err)
	}
	if out == nil {
		return nil, fmt.Errorf("sqlite: adoption %s: %w", id, store.ErrNotFound)
	}
	return out, nil
}

// Adoptions returns the adoption records in order of adoption (the
// entries' creation, then id), up to limit (0: all).
func (s *Store) Adoptions(ctx context.Context, limit int) ([]adopt.Record, error) {
	if limit < 0 {
		return nil, fmt.Errorf("sqlite: adoptions: negative limit %d", limit)
	}
	lim := int64(limit)
	if limit == 0 {
		lim = -1
	}
	var out []adopt.Record
	err := s.r.query(ctx, sqlAdoptionList, []any{lim}, func(st *sqlite3.Stmt) error {
		var r adopt.Record
		err := json.Unmarshal(st.ColumnRawText(0), &r)
		out = append(out, r)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: adoptions: %w", err)
	}
	return out, nil
}
