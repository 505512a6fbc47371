package daemon

import (
	"context"

	"github.com/wardhq/ward/internal/store/sqlite"
)

// OpenStore opens the database at path with ward's backend, SQLite, in the
// given synchronous mode ("": the backend's default). It is the one place
// that picks the backend: the stack, the stand-alone ingestion pipeline and
// the commands that read or write a data directory's records without the
// whole stack (tokens, audit, upstream pins, Grimoire export) open their
// store through it. The caller closes the store.
func OpenStore(ctx context.Context, path, synchronous string) (*sqlite.Store, error) {
	return sqlite.Open(ctx, sqlite.Config{Path: path, Synchronous: synchronous})
}
