package sqlite

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/store"
)

// AddSkills durably stores the components whose names are new (see
// store.Skills).
func (s *Store) AddSkills(ctx context.Context, cs []skill.Component, at time.Time) error {
	if err := store.CheckSkills(cs, at); err != nil {
		return fmt.Errorf("sqlite: add skills: %w", err)
	}
	cs = slices.Clone(cs)
	for i := range cs {
		cs[i].WASM = bytes.Clone(cs[i].WASM)
	}
	err := s.do(ctx, func(tx *wtx) error {
		for _, c := range cs {
			var wasm []byte
			expr, fn := textOrNull(c.Expr), textOrNull(c.Func)
			if c.Kind == skill.KindSizing {
				wasm, expr = c.WASM, nil
			} else {
				fn = nil
			}
			_, err := tx.exec(`INSERT INTO skill_components (name, kind, text, expr, wasm, func, added_ns) VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (name) DO NOTHING`, c.Name, c.Kind.String(), c.Text, expr, wasm, fn, at)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlite: add skills: %w", err)
	}
	return nil
}

// SkillComponents returns the stored components in the order added.
func (s *Store) SkillComponents(ctx context.Context) ([]skill.Component, error) {
	var out []skill.Component
	err := s.r.query(ctx, `SELECT name, kind, text, coalesce(expr, ''), wasm, coalesce(func, '') FROM skill_components ORDER BY seq`, nil,
		func(st *sqlite3.Stmt) error {
			c := skill.Component{Name: st.ColumnText(0), Text: st.ColumnText(2), Expr: st.ColumnText(3), Func: st.ColumnText(5)}
			if err := c.Kind.UnmarshalText(st.ColumnRawText(1)); err != nil {
				return err
			}
			if st.ColumnType(4) != sqlite3.NULL {
				c.WASM = st.ColumnBlob(4, nil)
			}
			out = append(out, c)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("sqlite: skill components: %w", err)
	}
	return out, nil
}
