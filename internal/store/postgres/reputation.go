package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

const sourceColumns = `agent, submitted, quarantined, adopted, confirmed, rolled_back, stage1_passed, stage1_failed,
  stage2_passed, stage2_failed, sandbox_passed, sandbox_failed, adopt_passed, adopt_failed, safety_alpha, safety_beta`

// SaveSources durably stores put and deletes remove (see
// store.Reputation). A source's failures and buyers are rows of their own
// that go with it (ON DELETE CASCADE).
func (s *Store) SaveSources(ctx context.Context, put []store.SourceRecord, remove []string) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckSources(put, remove); err != nil {
		return fmt.Errorf("postgres: save sources: %w", err)
	}
	put = slices.Clone(put)
	for i := range put {
		put[i].Failures, put[i].Buyers = maps.Clone(put[i].Failures), maps.Clone(put[i].Buyers)
	}
	remove = slices.Clone(remove)
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockLearnt, "sources"); err != nil {
			return err
		}
		agents := slices.Clone(remove)
		for _, r := range put {
			agents = append(agents, r.Agent)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM source_reputation WHERE agent = ANY($1)`, agents); err != nil {
			return err
		}
		var used int64
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(used), 0) FROM source_reputation`).Scan(&used); err != nil {
			return err
		}
		for i := range put {
			r := &put[i]
			_, err := tx.Exec(ctx, `INSERT INTO source_reputation (used, `+sourceColumns+`)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
				used+int64(i)+1, r.Agent, r.Submitted, r.Quarantined, r.Adopted, r.Confirmed, r.RolledBack,
				r.Stage1.Passed, r.Stage1.Failed, r.Stage2.Passed, r.Stage2.Failed, r.Sandbox.Passed, r.Sandbox.Failed,
				r.Adopt.Passed, r.Adopt.Failed, r.SafetyAlpha, r.SafetyBeta)
			if err != nil {
				return err
			}
			for _, a := range slices.Sorted(maps.Keys(r.Failures)) {
				if _, err := tx.Exec(ctx, `INSERT INTO source_failures (agent, attack, failures) VALUES ($1, $2, $3)`,
					r.Agent, a.String(), r.Failures[a]); err != nil {
					return err
				}
			}
			for _, b := range slices.Sorted(maps.Keys(r.Buyers)) {
				c := r.Buyers[b]
				if _, err := tx.Exec(ctx, `INSERT INTO source_buyers (agent, buyer, decided, failed) VALUES ($1, $2, $3, $4)`,
					r.Agent, b, c.Decided, c.Failed); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: save sources: %w", err)
	}
	return nil
}

func scanSource(row pgx.CollectableRow) (store.SourceRecord, error) {
	r := store.SourceRecord{Failures: map[knowledge.AttackType]int{}, Buyers: map[string]store.BuyerCount{}}
	var failures, buyers string
	if err := row.Scan(&r.Agent, &r.Submitted, &r.Quarantined, &r.Adopted, &r.Confirmed, &r.RolledBack,
		&r.Stage1.Passed, &r.Stage1.Failed, &r.Stage2.Passed, &r.Stage2.Failed, &r.Sandbox.Passed, &r.Sandbox.Failed,
		&r.Adopt.Passed, &r.Adopt.Failed, &r.SafetyAlpha, &r.SafetyBeta, &failures, &buyers); err != nil {
		return r, err
	}
	var bs map[string][2]int
	if err := json.Unmarshal([]byte(failures), &r.Failures); err != nil {
		return r, fmt.Errorf("source %s: failures: %w", r.Agent, err)
	}
	if err := json.Unmarshal([]byte(buyers), &bs); err != nil {
		return r, fmt.Errorf("source %s: buyers: %w", r.Agent, err)
	}
	for b, c := range bs {
		r.Buyers[b] = store.BuyerCount{Decided: c[0], Failed: c[1]}
	}
	return r, nil
}

// Sources returns every source's record, least recently updated first,
// as of one snapshot (one statement).
func (s *Store) Sources(ctx context.Context) ([]store.SourceRecord, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanSource, `SELECT `+sourceColumns+`,
  (SELECT coalesce(json_object_agg(attack, failures), '{}') FROM source_failures f WHERE f.agent = r.agent)::text,
  (SELECT coalesce(json_object_agg(buyer, json_build_array(decided, failed)), '{}') FROM source_buyers b WHERE b.agent = r.agent)::text
FROM source_reputation r ORDER BY used`)
	if err != nil {
		return nil, fmt.Errorf("postgres: sources: %w", err)
	}
	return out, nil
}
