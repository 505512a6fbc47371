package sqlite

import (
	"errors"
	"fmt"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/store"
)

// commitError is the error every op of a batch that could not be committed
// gets: store.ErrUnwritable, and store.ErrDiskFull when SQLite ran out of
// space (SQLITE_FULL: the disk, or the file's size limit).
func commitError(err error) error {
	if errors.Is(err, sqlite3.FULL) {
		return fmt.Errorf("sqlite: commit: %w: %w: %w", store.ErrUnwritable, store.ErrDiskFull, err)
	}
	return fmt.Errorf("sqlite: commit: %w: %w", store.ErrUnwritable, err)
}

// SimulateFullDisk makes every write transaction fail at its COMMIT with
// SQLITE_FULL while on, as on a full disk: the transaction rolls back and
// its callers get store.ErrDiskFull; reads keep working. Turning it off is
// the space coming back. It exists for tests of how ward behaves without
// a writable database; TestSimulatedFullIsRealFull checks that a real
// SQLITE_FULL fails the same way.
func (s *Store) SimulateFullDisk(on bool) {
	if !on {
		s.w.failHook.Store(nil)
		return
	}
	full := func() error { return sqlite3.FULL }
	s.w.failHook.Store(&full)
}
