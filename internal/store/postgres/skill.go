package postgres

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/store"
)

// AddSkills durably stores the components whose names are new (see
// store.Skills), under the skills' lock so that one call's components are
// added in order, not interleaved with another instance's.
func (s *Store) AddSkills(ctx context.Context, cs []skill.Component, at time.Time) error {
	if err := s.ok(); err != nil {
		return err
	}
	if err := store.CheckSkills(cs, at); err != nil {
		return fmt.Errorf("postgres: add skills: %w", err)
	}
	cs = slices.Clone(cs)
	for i := range cs {
		cs[i].WASM = bytes.Clone(cs[i].WASM)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if err := xlock(ctx, tx, lockLearnt, "skills"); err != nil {
			return err
		}
		for _, c := range cs {
			var wasm []byte
			expr, fn := null(c.Expr), null(c.Func)
			if c.Kind == skill.KindSizing {
				wasm, expr = c.WASM, nil
			} else {
				fn = nil
			}
			_, err := tx.Exec(ctx, `INSERT INTO skill_components (name, kind, text, expr, wasm, func, added_ns) VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (name) DO NOTHING`, c.Name, c.Kind.String(), c.Text, expr, wasm, fn, at.UnixNano())
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("postgres: add skills: %w", err)
	}
	return nil
}

func scanComponent(row pgx.CollectableRow) (skill.Component, error) {
	var (
		c    skill.Component
		kind string
	)
	if err := row.Scan(&c.Name, &kind, &c.Text, &c.Expr, &c.WASM, &c.Func); err != nil {
		return c, err
	}
	return c, c.Kind.UnmarshalText([]byte(kind))
}

// SkillComponents returns the stored components in the order added.
func (s *Store) SkillComponents(ctx context.Context) ([]skill.Component, error) {
	if err := s.ok(); err != nil {
		return nil, err
	}
	out, err := queryRows(ctx, s.pool, scanComponent, `SELECT name, kind, text, coalesce(expr, ''), wasm, coalesce(func, '') FROM skill_components ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("postgres: skill components: %w", err)
	}
	return out, nil
}
