package postgres

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/store"
)

// NoteInfluences durably records session's retrievals and applies the
// bounds (see store.Influences). It takes the session's lock before it
// reads the session's last retrieval, so that notes of one session from
// several instances are numbered one after another and the session keeps
// exactly adopt.MaxInfluences.
func (s *Store) NoteInfluences(ctx context.Context, session string, ins []adopt.Influence, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckInfluences(session, ins, at); err != nil {
		return fmt.Errorf("postgres: note influences: %w", err)
	}
	ins = slices.Clone(ins)
	cut := at.Add(-store.InfluenceWindow)
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockLearnt, "influences:"+session); err != nil {
			return err
		}
		var seq int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(seq), 0) FROM session_influences WHERE session_id = $1`, session).Scan(&seq); err != nil {
			return err
		}
		for i, in := range ins {
			_, err := tx.Exec(ctx, `INSERT INTO session_influences (session_id, entry_id, seq, provenance, agent, confidence, retrieved_ns)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (session_id, entry_id) DO UPDATE SET seq = EXCLUDED.seq, provenance = EXCLUDED.provenance, agent = EXCLUDED.agent,
  confidence = EXCLUDED.confidence, retrieved_ns = EXCLUDED.retrieved_ns`,
				session, in.EntryID, seq+int64(i)+1, in.Provenance.String(), in.Agent, in.Confidence, at.UnixNano())
			if err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `DELETE FROM session_influences WHERE session_id = $1 AND entry_id IN
  (SELECT entry_id FROM session_influences WHERE session_id = $1 ORDER BY seq DESC OFFSET $2)`, session, adopt.MaxInfluences)
		if err != nil {
			return err
		}
		// cut may be before the years int64 nanoseconds hold.
		if ns := nsFloor(cut); ns > math.MinInt64 {
			_, err = tx.Exec(ctx, `DELETE FROM session_influences WHERE retrieved_ns < $1`, ns)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: note influences of %s: %w", session, err)
	}
	return nil
}

func scanInfluence(row pgx.CollectableRow) (store.Influence, error) {
	var (
		in   store.Influence
		prov string
		ns   int64
	)
	if err := row.Scan(&in.Session, &in.EntryID, &prov, &in.Agent, &in.Confidence, &ns); err != nil {
		return in, err
	}
	in.At = time.Unix(0, ns).UTC()
	return in, in.Provenance.UnmarshalText([]byte(prov))
}

// InfluencesSince returns the retrievals at or after since: by session, in
// the order each retrieved them.
func (s *Store) InfluencesSince(ctx context.Context, since time.Time) ([]store.Influence, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanInfluence, `SELECT session_id, entry_id, provenance, agent, confidence, retrieved_ns FROM session_influences
WHERE retrieved_ns >= $1 ORDER BY session_id, seq`, nsFloor(since))
	if err != nil {
		return nil, fmt.Errorf("postgres: influences: %w", err)
	}
	return out, nil
}

// nsFloor is t in Unix nanoseconds, clamped to what they can hold (the
// zero time is the least).
func nsFloor(t time.Time) int64 {
	switch {
	case t.IsZero() || t.Before(store.MinTime):
		return math.MinInt64
	case t.After(store.MaxTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}
