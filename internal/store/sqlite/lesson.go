package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/store"
)

// lessonRow is a lesson with its lists encoded for its row.
type lessonRow struct {
	l                             adopt.Lesson
	conditions, keywords, matches string
}

func encodeLesson(l adopt.Lesson) (lessonRow, error) {
	var enc [3][]byte
	for i, v := range []any{nonNil(l.Conditions), nonNil(l.Keywords), store.MatchNanos(l)} {
		b, err := json.Marshal(v)
		if err != nil {
			return lessonRow{}, err
		}
		enc[i] = b
	}
	return lessonRow{l: l, conditions: string(enc[0]), keywords: string(enc[1]), matches: string(enc[2])}, nil
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// SaveLessons durably stores put and deletes remove (see store.Lessons).
func (s *Store) SaveLessons(ctx context.Context, put []adopt.Lesson, remove []string) error {
	if err := store.CheckLessons(put, remove); err != nil {
		return fmt.Errorf("sqlite: save lessons: %w", err)
	}
	rows := make([]lessonRow, len(put))
	for i, l := range put {
		r, err := encodeLesson(l)
		if err != nil {
			return fmt.Errorf("sqlite: save lessons: %w", err)
		}
		rows[i] = r
	}
	remove = append([]string(nil), remove...)
	err := s.do(ctx, func(tx *wtx) error {
		for _, id := range remove {
			if _, err := tx.exec(`DELETE FROM lessons WHERE id = ?`, id); err != nil {
				return err
			}
		}
		used, err := tx.int64(`SELECT coalesce(max(used), 0) FROM lessons`)
		if err != nil {
			return err
		}
		for i, r := range rows {
			l := &r.l
			_, err := tx.exec(`INSERT OR REPLACE INTO lessons (id, used, summary, advice, reason, entry_id, conditions, keywords,
  confidence, created_ns, touched_ns, matches, promoted_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				l.ID, used+int64(i)+1, l.Summary, textOrNull(l.Advice), textOrNull(l.Reason), textOrNull(l.EntryID),
				r.conditions, r.keywords, l.Confidence, l.Created, l.Touched, r.matches, l.Promoted)
			if err != nil {
				return err
			}
		}
		_, err = tx.exec(`DELETE FROM lessons WHERE id IN (SELECT id FROM lessons ORDER BY used DESC LIMIT -1 OFFSET ?)`, adopt.MaxLessons)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: save lessons: %w", err)
	}
	return nil
}

// Lessons returns every lesson, most recently used first.
func (s *Store) Lessons(ctx context.Context) ([]adopt.Lesson, error) {
	var out []adopt.Lesson
	err := s.r.query(ctx, `SELECT id, summary, coalesce(advice, ''), coalesce(reason, ''), coalesce(entry_id, ''), conditions, keywords,
  confidence, created_ns, touched_ns, matches, promoted_ns FROM lessons ORDER BY used DESC`, nil, func(st *sqlite3.Stmt) error {
		l := adopt.Lesson{ID: st.ColumnText(0), Summary: st.ColumnText(1), Advice: st.ColumnText(2), Reason: st.ColumnText(3),
			EntryID: st.ColumnText(4), Confidence: st.ColumnFloat(7), Created: nsTime(st, 8), Touched: nsTime(st, 9), Promoted: nsTime(st, 11)}
		var ms []int64
		for _, c := range []struct {
			col int
			dst any
		}{{5, &l.Conditions}, {6, &l.Keywords}, {10, &ms}} {
			if err := json.Unmarshal(st.ColumnRawText(c.col), c.dst); err != nil {
				return fmt.Errorf("lesson %s: %w", l.ID, err)
			}
		}
		store.ReadLesson(&l, ms)
		out = append(out, l)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: lessons: %w", err)
	}
	return out, nil
}

// textOrNull is s, or NULL for the empty string.
func textOrNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}
