package postgres

import (
	"context"
	"time"

	"github.com/wardhq/ward/internal/store"
)

func (st *Store) ApproveTool(ctx context.Context, server string, tool string, by string, at time.Time) (store.PendingTool, error) {
	return store.PendingTool{}, errTODO
}

func (st *Store) PendingTools(ctx context.Context, server string) ([]store.PendingTool, error) {
	return nil, errTODO
}

func (st *Store) PinTool(ctx context.Context, p store.PinnedTool) (approved store.PinnedTool, created bool, err error) {
	return store.PinnedTool{}, false, errTODO
}

func (st *Store) PinnedTool(ctx context.Context, server string, tool string) (store.PinnedTool, error) {
	return store.PinnedTool{}, errTODO
}

func (st *Store) PinnedTools(ctx context.Context, server string) ([]store.PinnedTool, error) {
	return nil, errTODO
}

func (st *Store) RepinTool(ctx context.Context, p store.PinnedTool, from string) (updated bool, err error) {
	return false, errTODO
}

func (st *Store) SetPendingTools(ctx context.Context, server string, ps []store.PendingTool) error {
	return errTODO
}
