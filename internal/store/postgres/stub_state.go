package postgres

import (
	"context"

	"github.com/wardhq/ward/internal/hook"
)

func (st *Store) Begin(ctx context.Context, e hook.WindowSpend, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	return errTODO
}

func (st *Store) Finish(ctx context.Context, key string, executed bool, cents int64) error {
	return errTODO
}

func (st *Store) Release(ctx context.Context, key string) error {
	return errTODO
}

func (st *Store) Reserve(ctx context.Context, h hook.WindowHold, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	return errTODO
}

func (st *Store) Totals(ctx context.Context, q hook.WindowQuery) (hook.WindowTotals, error) {
	return hook.WindowTotals{}, errTODO
}
