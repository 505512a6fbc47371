package postgres

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/store"
)

// What ingestion learns. Every write is one transaction; one that reads
// what it is about to bound or order (the lessons' and sources' LRU
// counters, the series' kept days, the filters it ORs into, a session's
// retrieval order, the clade's entries) first takes the advisory lock of
// its table (lockLearnt), so that writers from any number of instances
// take turns and the bounds hold as with SQLite's single writer.

// SaveLessons durably stores put and deletes remove (see store.Lessons).
func (s *Store) SaveLessons(ctx context.Context, put []adopt.Lesson, remove []string) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckLessons(put, remove); err != nil {
		return fmt.Errorf("postgres: save lessons: %w", err)
	}
	put, remove = slices.Clone(put), slices.Clone(remove)
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockLearnt, "lessons"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM lessons WHERE id = ANY($1)`, remove); err != nil {
			return err
		}
		var used int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(used), 0) FROM lessons`).Scan(&used); err != nil {
			return err
		}
		for i := range put {
			l := &put[i]
			_, err := tx.Exec(ctx, `INSERT INTO lessons (id, used, summary, advice, reason, entry_id, conditions, keywords,
  confidence, created_ns, touched_ns, matches, promoted_ns) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
ON CONFLICT (id) DO UPDATE SET used = EXCLUDED.used, summary = EXCLUDED.summary, advice = EXCLUDED.advice,
  reason = EXCLUDED.reason, entry_id = EXCLUDED.entry_id, conditions = EXCLUDED.conditions, keywords = EXCLUDED.keywords,
  confidence = EXCLUDED.confidence, created_ns = EXCLUDED.created_ns, touched_ns = EXCLUDED.touched_ns,
  matches = EXCLUDED.matches, promoted_ns = EXCLUDED.promoted_ns`,
				l.ID, used+int64(i)+1, l.Summary, null(l.Advice), null(l.Reason), null(l.EntryID),
				nonNil(l.Conditions), nonNil(l.Keywords), l.Confidence, l.Created.UnixNano(), l.Touched.UnixNano(), store.MatchNanos(*l),
				optNull(l.Promoted))
			if err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `DELETE FROM lessons WHERE id IN (SELECT id FROM lessons ORDER BY used DESC OFFSET $1)`, adopt.MaxLessons)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: save lessons: %w", err)
	}
	return nil
}

func scanLesson(row pgx.CollectableRow) (adopt.Lesson, error) {
	var (
		l                     adopt.Lesson
		advice, reason, entry *string
		created, touched      int64
		promoted              *int64
		ms                    []int64
	)
	err := row.Scan(&l.ID, &l.Summary, &advice, &reason, &entry, &l.Conditions, &l.Keywords, &l.Confidence,
		&created, &touched, &ms, &promoted)
	l.Advice, l.Reason, l.EntryID = text(advice), text(reason), text(entry)
	l.Created, l.Touched = time.Unix(0, created).UTC(), time.Unix(0, touched).UTC()
	if promoted != nil {
		l.Promoted = time.Unix(0, *promoted).UTC()
	}
	store.ReadLesson(&l, ms)
	return l, err
}

// Lessons returns every lesson, most recently used first.
func (s *Store) Lessons(ctx context.Context) ([]adopt.Lesson, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanLesson, `SELECT id, summary, advice, reason, entry_id, conditions, keywords,
  confidence, created_ns, touched_ns, matches, promoted_ns FROM lessons ORDER BY used DESC`)
	if err != nil {
		return nil, fmt.Errorf("postgres: lessons: %w", err)
	}
	return out, nil
}

// nonNil is ss, or an empty list for nil (stored as an empty array).
func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// optNull stores a zero time as NULL and any other as Unix nanoseconds.
func optNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}
