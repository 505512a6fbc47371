package sqlite

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/store"
)

// NoteInfluences durably records session's retrievals and applies the
// bounds (see store.Influences).
func (s *Store) NoteInfluences(ctx context.Context, session string, ins []adopt.Influence, at time.Time) error {
	if err := store.CheckInfluences(session, ins, at); err != nil {
		return fmt.Errorf("sqlite: note influences: %w", err)
	}
	ins = slices.Clone(ins)
	err := s.do(ctx, func(tx *wtx) error {
		seq, err := tx.int64(`SELECT coalesce(max(seq), 0) FROM session_influences WHERE session_id = ?`, session)
		if err != nil {
			return err
		}
		for i, in := range ins {
			_, err := tx.exec(`INSERT OR REPLACE INTO session_influences (session_id, entry_id, seq, provenance, agent, confidence, retrieved_ns)
VALUES (?, ?, ?, ?, ?, ?, ?)`, session, in.EntryID, seq+int64(i)+1, in.Provenance.String(), in.Agent, in.Confidence, at)
			if err != nil {
				return err
			}
		}
		_, err = tx.exec(`DELETE FROM session_influences WHERE session_id = ?1 AND entry_id IN
  (SELECT entry_id FROM session_influences WHERE session_id = ?1 ORDER BY seq DESC LIMIT -1 OFFSET ?2)`, session, adopt.MaxInfluences)
		if err != nil {
			return err
		}
		_, err = tx.exec(`DELETE FROM session_influences WHERE retrieved_ns < ?`, at.Add(-store.InfluenceWindow))
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: note influences of %s: %w", session, err)
	}
	return nil
}

// InfluencesSince returns the retrievals at or after since: by session, in
// the order each retrieved them.
func (s *Store) InfluencesSince(ctx context.Context, since time.Time) ([]store.Influence, error) {
	var out []store.Influence
	err := s.r.query(ctx, `SELECT session_id, entry_id, provenance, agent, confidence, retrieved_ns FROM session_influences
WHERE retrieved_ns >= ? ORDER BY session_id, seq`, []any{nsFloor(since)}, func(st *sqlite3.Stmt) error {
		in := store.Influence{Session: st.ColumnText(0), At: nsTime(st, 5)}
		in.EntryID, in.Agent, in.Confidence = st.ColumnText(1), st.ColumnText(3), st.ColumnFloat(4)
		if err := in.Provenance.UnmarshalText(st.ColumnRawText(2)); err != nil {
			return err
		}
		out = append(out, in)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: influences: %w", err)
	}
	return out, nil
}

// nsFloor is t in Unix nanoseconds, clamped to what they can hold (the
// zero time is the least).
func nsFloor(t time.Time) int64 {
	switch {
	case t.IsZero() || t.Before(minTime):
		return math.MinInt64
	case t.After(maxTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}
