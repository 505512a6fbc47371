package sqlite

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// PutSample durably replaces the sample of s.Day and keeps the latest keep
// days (see store.Series).
func (s *Store) PutSample(ctx context.Context, sm store.Sample, keep int) error {
	if err := store.CheckSample(sm, keep); err != nil {
		return fmt.Errorf("sqlite: put sample: %w", err)
	}
	day := sm.Day.UTC().Format(time.DateOnly)
	names := slices.Sorted(maps.Keys(sm.Values))
	values := maps.Clone(sm.Values)
	err := s.do(ctx, func(tx *wtx) error {
		if _, err := tx.exec(`DELETE FROM series_samples WHERE day = ?`, day); err != nil {
			return err
		}
		for _, n := range names {
			if _, err := tx.exec(`INSERT INTO series_samples (day, name, value) VALUES (?, ?, ?)`, day, n, values[n]); err != nil {
				return err
			}
		}
		_, err := tx.exec(`DELETE FROM series_samples WHERE day NOT IN (SELECT DISTINCT day FROM series_samples ORDER BY day DESC LIMIT ?)`, keep)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: put sample of %s: %w", day, err)
	}
	return nil
}

// Samples returns every day's sample, oldest first.
func (s *Store) Samples(ctx context.Context) ([]store.Sample, error) {
	var out []store.Sample
	err := s.r.query(ctx, `SELECT day, name, value FROM series_samples ORDER BY day, name`, nil, func(st *sqlite3.Stmt) error {
		day, err := time.Parse(time.DateOnly, st.ColumnText(0))
		if err != nil {
			return err
		}
		if n := len(out); n == 0 || !out[n-1].Day.Equal(day) {
			out = append(out, store.Sample{Day: day, Values: map[string]float64{}})
		}
		out[len(out)-1].Values[st.ColumnText(1)] = st.ColumnFloat(2)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: samples: %w", err)
	}
	return out, nil
}
