package upstream

import (
	"path/filepath"
	"testing"

	"github.com/wardhq/ward/internal/store/sqlite"
)

// StdioServer is stdioServer for the external tests.
var StdioServer = stdioServer

// NewBenchStore opens a SQLite store in a temporary directory, closed
// when tb ends.
func NewBenchStore(tb testing.TB) *sqlite.Store {
	st, err := sqlite.Open(tb.Context(), sqlite.Config{Path: filepath.Join(tb.TempDir(), "ward.db"), Synchronous: "normal"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}
