package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/windowstest"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// TestWindowsConformance runs the spending and rate windows' suite on the
// store: the same semantics as in memory, and they survive a reopen.
func TestWindowsConformance(t *testing.T) {
	windowstest.Run(t, func(t *testing.T) func() hook.Windows {
		path := filepath.Join(t.TempDir(), "ward.db")
		var cur *sqlite.Store
		t.Cleanup(func() {
			if cur != nil {
				cur.Close()
			}
		})
		return func() hook.Windows {
			if cur != nil {
				if err := cur.Close(); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if cur, err = sqlite.Open(t.Context(), sqlite.Config{Path: path, Synchronous: "normal"}); err != nil {
				t.Fatal(err)
			}
			return cur
		}
	})
}
