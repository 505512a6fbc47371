package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

const sourceColumns = `agent, submitted, quarantined, adopted, confirmed, rolled_back, stage1_passed, stage1_failed,
  stage2_passed, stage2_failed, sandbox_passed, sandbox_failed, adopt_passed, adopt_failed, safety_alpha, safety_beta`

// SaveSources durably stores put and deletes remove (see
// store.Reputation).
func (s *Store) SaveSources(ctx context.Context, put []store.SourceRecord, remove []string) error {
	if err := store.CheckSources(put, remove); err != nil {
		return fmt.Errorf("sqlite: save sources: %w", err)
	}
	put = slices.Clone(put)
	for i := range put {
		put[i].Failures, put[i].Buyers = maps.Clone(put[i].Failures), maps.Clone(put[i].Buyers)
	}
	remove = slices.Clone(remove)
	err := s.do(ctx, func(tx *wtx) error {
		for _, a := range remove {
			if err := deleteSource(tx, a); err != nil {
				return err
			}
		}
		used, err := tx.int64(`SELECT coalesce(max(used), 0) FROM source_reputation`)
		if err != nil {
			return err
		}
		for i := range put {
			r := &put[i]
			if err := deleteSource(tx, r.Agent); err != nil {
				return err
			}
			_, err := tx.exec(`INSERT INTO source_reputation (used, `+sourceColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				used+int64(i)+1, r.Agent, r.Submitted, r.Quarantined, r.Adopted, r.Confirmed, r.RolledBack,
				r.Stage1.Passed, r.Stage1.Failed, r.Stage2.Passed, r.Stage2.Failed, r.Sandbox.Passed, r.Sandbox.Failed,
				r.Adopt.Passed, r.Adopt.Failed, r.SafetyAlpha, r.SafetyBeta)
			if err != nil {
				return err
			}
			for _, a := range slices.Sorted(maps.Keys(r.Failures)) {
				if _, err := tx.exec(`INSERT INTO source_failures (agent, attack, failures) VALUES (?, ?, ?)`, r.Agent, a.String(), r.Failures[a]); err != nil {
					return err
				}
			}
			for _, b := range slices.Sorted(maps.Keys(r.Buyers)) {
				c := r.Buyers[b]
				if _, err := tx.exec(`INSERT INTO source_buyers (agent, buyer, decided, failed) VALUES (?, ?, ?, ?)`, r.Agent, b, c.Decided, c.Failed); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: save sources: %w", err)
	}
	return nil
}

func deleteSource(tx *wtx, agent string) error {
	for _, q := range []string{`DELETE FROM source_reputation WHERE agent = ?`, `DELETE FROM source_failures WHERE agent = ?`,
		`DELETE FROM source_buyers WHERE agent = ?`} {
		if _, err := tx.exec(q, agent); err != nil {
			return err
		}
	}
	return nil
}

// Sources returns every source's record, least recently updated first,
// as of one snapshot.
func (s *Store) Sources(ctx context.Context) ([]store.SourceRecord, error) {
	var out []store.SourceRecord
	err := s.r.query(ctx, `SELECT `+sourceColumns+`,
  (SELECT json_group_object(attack, failures) FROM source_failures f WHERE f.agent = r.agent),
  (SELECT json_group_object(buyer, json_array(decided, failed)) FROM source_buyers b WHERE b.agent = r.agent)
FROM source_reputation r ORDER BY used`, nil, func(st *sqlite3.Stmt) error {
		n := func(col int) int { return st.ColumnInt(col) }
		r := store.SourceRecord{Agent: st.ColumnText(0), Submitted: n(1), Quarantined: n(2), Adopted: n(3), Confirmed: n(4), RolledBack: n(5),
			Stage1: store.StageCount{Passed: n(6), Failed: n(7)}, Stage2: store.StageCount{Passed: n(8), Failed: n(9)},
			Sandbox: store.StageCount{Passed: n(10), Failed: n(11)}, Adopt: store.StageCount{Passed: n(12), Failed: n(13)},
			SafetyAlpha: st.ColumnFloat(14), SafetyBeta: st.ColumnFloat(15),
			Failures: map[knowledge.AttackType]int{}, Buyers: map[string]store.BuyerCount{}}
		var buyers map[string][2]int
		if err := json.Unmarshal(st.ColumnRawText(16), &r.Failures); err != nil {
			return fmt.Errorf("source %s: failures: %w", r.Agent, err)
		}
		if err := json.Unmarshal(st.ColumnRawText(17), &buyers); err != nil {
			return fmt.Errorf("source %s: buyers: %w", r.Agent, err)
		}
		for b, c := range buyers {
			r.Buyers[b] = store.BuyerCount{Decided: c[0], Failed: c[1]}
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: sources: %w", err)
	}
	return out, nil
}
