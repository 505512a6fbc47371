package postgres

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

// Quarantine. A put takes the advisory lock of its agent (lockKnowledge)
// before it inserts, so that of the puts of one agent, from any number of
// instances, one at a time inserts and then evicts what is beyond
// store.MaxQuarantinePending: the cap holds, and the evicted entries are
// the agent's oldest whichever instance wrote them. The insert is
// ON CONFLICT DO NOTHING on the id and on (agent, content hash), the
// durable replay guard. Deciding an entry is one conditional UPDATE
// (status = 'pending'), which PostgreSQL re-checks on the newest row
// version, so of concurrent deciders exactly one wins.

const quarantineCols = `entry, status, reason, attack, batch_id, quarantined_ns, decided_ns`

// quarantineRow is what PutQuarantined and RollbackQuarantined write.
type quarantineRow struct {
	id, agent, entry, batchID string
	hash                      []byte
	ns                        int64
}

func newQuarantineRow(q *store.QuarantinedEntry) (quarantineRow, error) {
	e := q.Entry
	e.Source.Timestamp = e.Source.Timestamp.UTC()
	js, err := json.Marshal(&e)
	if err != nil {
		return quarantineRow{}, err
	}
	h := sha256.Sum256([]byte(e.Content))
	return quarantineRow{id: e.ID, agent: strings.ToLower(e.Source.Agent), entry: string(js), batchID: q.BatchID,
		hash: h[:], ns: q.QuarantinedAt.UnixNano()}, nil
}

// PutQuarantined durably stores q as pending, evicting its agent's oldest
// pending entries beyond store.MaxQuarantinePending in the same
// transaction, and returns the evicted ids, oldest first. An entry
// store.CheckQuarantined refuses is refused unwritten; one whose id
// exists, or whose agent has an entry with the same content, fails with an
// error wrapping store.ErrQuarantineExists and evicts nothing.
func (s *Store) PutQuarantined(ctx context.Context, q *store.QuarantinedEntry) ([]string, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	if q == nil {
		return nil, errors.New("postgres: put quarantined: nil entry")
	}
	if err := store.CheckQuarantined(q); err != nil {
		return nil, fmt.Errorf("postgres: put quarantined: %w: %w", store.ErrInvalidRecord, err)
	}
	r, err := newQuarantineRow(q)
	if err != nil {
		return nil, fmt.Errorf("postgres: put quarantined %s: %w", q.Entry.ID, err)
	}
	var evicted []string
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		evicted = nil
		if err := xlock(ctx, tx, lockKnowledge, r.agent); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO quarantine_entries (id, agent, content_hash, entry, status, batch_id, quarantined_ns)
VALUES ($1, $2, $3, $4, 'pending', $5, $6) ON CONFLICT DO NOTHING`, r.id, r.agent, r.hash, r.entry, null(r.batchID), r.ns)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return store.ErrQuarantineExists
		}
		rows, err := tx.Query(ctx, `DELETE FROM quarantine_entries WHERE seq IN (
  SELECT seq FROM quarantine_entries WHERE agent = $1 AND status = 'pending' ORDER BY seq DESC OFFSET $2)
RETURNING seq, id`, r.agent, store.MaxQuarantinePending)
		if err != nil {
			return err
		}
		type gone struct {
			seq int64
			id  string
		}
		out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (gone, error) {
			var g gone
			err := row.Scan(&g.seq, &g.id)
			return g, err
		})
		if err != nil {
			return err
		}
		// RETURNING has no order: oldest (lowest seq) first.
		slices.SortFunc(out, func(a, b gone) int { return cmp.Compare(a.seq, b.seq) })
		for _, g := range out {
			evicted = append(evicted, g.id)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: put quarantined %s: %w", r.id, err)
	}
	return evicted, nil
}

// QuarantinedEntry returns the entry with id, or an error wrapping
// store.ErrNotFound.
func (s *Store) QuarantinedEntry(ctx context.Context, id string) (*store.QuarantinedEntry, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	q, err := queryOne(ctx, s.pool, scanQuarantined, `SELECT `+quarantineCols+` FROM quarantine_entries WHERE id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: quarantined entry %s: %w", id, err)
	}
	return &q, nil
}

// ListQuarantined returns the entries f selects in order of arrival.
func (s *Store) ListQuarantined(ctx context.Context, f store.QuarantineFilter) ([]store.QuarantinedEntry, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	if f.Limit < 0 {
		return nil, fmt.Errorf("postgres: list quarantined: negative limit %d", f.Limit)
	}
	out, err := queryRows(ctx, s.pool, scanQuarantined, `SELECT `+quarantineCols+` FROM quarantine_entries
WHERE ($1 = '' OR agent = $1) AND ($2 = '' OR status = $2) ORDER BY seq LIMIT $3`,
		strings.ToLower(f.Agent), string(f.Status), limitArg(f.Limit))
	if err != nil {
		return nil, fmt.Errorf("postgres: list quarantined: %w", err)
	}
	return out, nil
}

// scanQuarantined reads a row of quarantineCols.
func scanQuarantined(row pgx.CollectableRow) (store.QuarantinedEntry, error) {
	var (
		q                     store.QuarantinedEntry
		entry, status         string
		reason, attack, batch *string
		quarantined           int64
		decided               *int64
	)
	if err := row.Scan(&entry, &status, &reason, &attack, &batch, &quarantined, &decided); err != nil {
		return q, err
	}
	if err := json.Unmarshal([]byte(entry), &q.Entry); err != nil {
		return q, fmt.Errorf("stored entry: %w", err)
	}
	q.Status, q.Reason, q.BatchID = store.QuarantineStatus(status), text(reason), text(batch)
	if err := q.Attack.UnmarshalText([]byte(text(attack))); err != nil {
		return q, fmt.Errorf("stored entry %s: %w", q.Entry.ID, err)
	}
	q.QuarantinedAt = time.Unix(0, quarantined).UTC()
	if decided != nil {
		q.DecidedAt = time.Unix(0, *decided).UTC()
	}
	return q, nil
}

// SetQuarantineStatus durably decides the pending entry id with one
// conditional UPDATE. It fails with an error wrapping store.ErrNotFound
// (also for an empty id) or store.ErrQuarantineDecided, and nothing
// changes; a decision store.CheckQuarantineDecision refuses, or a zero
// at, is refused unwritten.
func (s *Store) SetQuarantineStatus(ctx context.Context, id string, status store.QuarantineStatus, reason string, attack knowledge.AttackType, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if id == "" {
		return fmt.Errorf("postgres: set quarantine status: empty id: %w", store.ErrNotFound)
	}
	if err := store.CheckQuarantineDecision(status, reason, attack); err != nil {
		return fmt.Errorf("postgres: set quarantine status of %s: %w: %w", id, store.ErrInvalidRecord, err)
	}
	ns, err := store.Nanos("decision time", at)
	if err != nil {
		return fmt.Errorf("postgres: set quarantine status of %s: %w", id, err)
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE quarantine_entries SET status = $1, reason = $2, attack = $3, decided_ns = $4
WHERE id = $5 AND status = 'pending'`, string(status), null(reason), null(attack.String()), ns, id)
		if err != nil || tag.RowsAffected() == 1 {
			return err
		}
		return refusal(ctx, tx, id)
	})
	if err != nil {
		return fmt.Errorf("postgres: set quarantine status of %s: %w", id, err)
	}
	return nil
}

// refusal diagnoses a conditional update of the entry id that matched
// nothing: store.ErrNotFound, or store.ErrQuarantineDecided naming the
// status the entry has.
func refusal(ctx context.Context, tx pgx.Tx, id string) error {
	var status string
	err := tx.QueryRow(ctx, `SELECT status FROM quarantine_entries WHERE id = $1`, id).Scan(&status)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.ErrNotFound
	case err != nil:
		return err
	}
	return fmt.Errorf("%w (%s)", store.ErrQuarantineDecided, status)
}

// PruneQuarantine durably deletes the passed and failed entries decided
// store.QuarantineRetention or longer before now and returns how many it
// deleted; pending and rolled back entries stay whatever their age.
func (s *Store) PruneQuarantine(ctx context.Context, now time.Time) (int64, error) {
	if err := s.ok(); err != nil {
		return 0, err
	}
	ns, err := store.Nanos("prune time", now.Add(-store.QuarantineRetention))
	if err != nil {
		return 0, fmt.Errorf("postgres: prune quarantine: %w", err)
	}
	tag, err := s.pool.Exec(ctx, `DELETE FROM quarantine_entries WHERE status IN ('passed', 'failed') AND decided_ns <= $1`, ns)
	if err != nil {
		return 0, fmt.Errorf("postgres: prune quarantine: %w", err)
	}
	return tag.RowsAffected(), nil
}

// RollbackQuarantined durably returns the adopted entry q.Entry to
// quarantine as rolled_back: one conditional UPDATE of its passed row, or,
// when there is none, an INSERT of q as rolled_back, under the lock of
// q's agent so that it is decided as one step with the agent's puts. A
// row in any other status fails with an error wrapping
// store.ErrQuarantineDecided, another row of the agent with the same
// content with store.ErrQuarantineExists.
func (s *Store) RollbackQuarantined(ctx context.Context, q *store.QuarantinedEntry, reason string, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if q == nil {
		return errors.New("postgres: rollback quarantined: nil entry")
	}
	if err := store.CheckQuarantineRollback(q, reason, at); err != nil {
		return fmt.Errorf("postgres: rollback quarantined: %w: %w", store.ErrInvalidRecord, err)
	}
	r, err := newQuarantineRow(q)
	if err != nil {
		return fmt.Errorf("postgres: rollback quarantined %s: %w", q.Entry.ID, err)
	}
	ns := at.UnixNano()
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockKnowledge, r.agent); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE quarantine_entries SET status = 'rolled_back', reason = $1, attack = NULL, decided_ns = $2
WHERE id = $3 AND status = 'passed'`, null(reason), ns, r.id)
		if err != nil || tag.RowsAffected() == 1 {
			return err
		}
		if err := refusal(ctx, tx, r.id); !errors.Is(err, store.ErrNotFound) {
			return err
		}
		tag, err = tx.Exec(ctx, `INSERT INTO quarantine_entries (id, agent, content_hash, entry, status, reason, batch_id, quarantined_ns, decided_ns)
VALUES ($1, $2, $3, $4, 'rolled_back', $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
			r.id, r.agent, r.hash, r.entry, null(reason), null(r.batchID), r.ns, ns)
		if err == nil && tag.RowsAffected() == 0 {
			err = store.ErrQuarantineExists
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: rollback quarantined %s: %w", r.id, err)
	}
	return nil
}
