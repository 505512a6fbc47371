package postgres

import (
	"context"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/store"
)

func (st *Store) AddWithheldWrap(ctx context.Context, key string, reviewer string, wrap []byte) error {
	return errTODO
}

func (st *Store) PromoteWithheld(ctx context.Context, key string, by string, at time.Time, plain []byte) error {
	return errTODO
}

func (st *Store) PutWithheld(ctx context.Context, w *store.WithheldOutput) error {
	return errTODO
}

func (st *Store) RejectWithheld(ctx context.Context, key string, by string, at time.Time) error {
	return errTODO
}

func (st *Store) Withheld(ctx context.Context, key string) (*store.WithheldOutput, error) {
	return nil, errTODO
}

func (st *Store) WithheldBySession(ctx context.Context, sessionID string, limit int) ([]store.WithheldOutput, error) {
	return nil, errTODO
}

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
