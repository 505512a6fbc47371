package postgres

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/store"
)

// PutSample durably replaces the sample of s.Day and keeps the latest keep
// days (see store.Series).
func (s *Store) PutSample(ctx context.Context, sm store.Sample, keep int) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckSample(sm, keep); err != nil {
		return fmt.Errorf("postgres: put sample: %w", err)
	}
	day := sm.Day.UTC()
	names := slices.Sorted(maps.Keys(sm.Values))
	values := make([]float64, len(names))
	for i, n := range names {
		values[i] = sm.Values[n]
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockLearnt, "series"); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM series_samples WHERE day = $1`, day); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO series_samples (day, name, value) SELECT $1, n, v FROM unnest($2::text[], $3::float8[]) AS u (n, v)`,
			day, names, values); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM series_samples WHERE day NOT IN (SELECT DISTINCT day FROM series_samples ORDER BY day DESC LIMIT $1)`, keep)
		return err
	})
	if err != nil {
		return fmt.Errorf("postgres: put sample of %s: %w", day.Format(time.DateOnly), err)
	}
	return nil
}

// Samples returns every day's sample, oldest first.
func (s *Store) Samples(ctx context.Context) ([]store.Sample, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT day, name, value FROM series_samples ORDER BY day, name`)
	if err != nil {
		return nil, fmt.Errorf("postgres: samples: %w", err)
	}
	var (
		out   []store.Sample
		day   time.Time
		name  string
		value float64
	)
	_, err = pgx.ForEachRow(rows, []any{&day, &name, &value}, func() error {
		day = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
		if n := len(out); n == 0 || !out[n-1].Day.Equal(day) {
			out = append(out, store.Sample{Day: day, Values: map[string]float64{}})
		}
		out[len(out)-1].Values[name] = value
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: samples: %w", err)
	}
	return out, nil
}
