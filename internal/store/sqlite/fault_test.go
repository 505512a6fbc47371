package sqlite

import (
	"errors"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/wardhq/ward/internal/store"
)

// maxPages sets PRAGMA max_page_count on the writer's connection (SQLite
// keeps it at least the file's current size) and returns the limit.
func maxPages(t *testing.T, s *Store, n int64) int64 {
	t.Helper()
	var got int64
	err := s.do(t.Context(), func(tx *wtx) error {
		st, _, err := tx.w.conn.Prepare(`PRAGMA max_page_count = ` + strconv.FormatInt(n, 10))
		if err != nil {
			return err
		}
		defer st.Close()
		if st.Step() {
			got = st.ColumnInt64(0)
		}
		return st.Err()
	})
	if err != nil {
		t.Fatalf("max_page_count = %d: %v", n, err)
	}
	return got
}

// TestSimulatedFullIsRealFull: a database that reached its size limit
// (PRAGMA max_page_count, SQLite's SQLITE_FULL as on a full disk) fails a
// durable write with store.ErrUnwritable and store.ErrDiskFull, and so
// does SimulateFullDisk, which the daemon's disk-full tests use because
// it fails every write, not only those that need a new page. Both leave
// the rolled-back write out of the file and work again once space returns.
func TestSimulatedFullIsRealFull(t *testing.T) {
	s := testStore(t, Config{Path: filepath.Join(t.TempDir(), "ward.db"), Synchronous: "normal"})
	ctx := t.Context()
	if err := s.AppendDecision(ctx, rec("before"), true); err != nil {
		t.Fatal(err)
	}
	limit := maxPages(t, s, 1)
	var real error
	for i := 0; i < 10_000 && real == nil; i++ {
		real = s.AppendDecision(ctx, rec("filler"), true)
	}
	if !errors.Is(real, store.ErrUnwritable) || !errors.Is(real, store.ErrDiskFull) {
		t.Fatalf("write past max_page_count %d: %v, want ErrUnwritable and ErrDiskFull", limit, real)
	}
	maxPages(t, s, 1<<30)
	if err := s.AppendDecision(ctx, rec("after real"), true); err != nil {
		t.Fatalf("write after the limit was raised: %v", err)
	}

	s.SimulateFullDisk(true)
	err := s.AppendDecision(ctx, rec("simulated"), true)
	if !errors.Is(err, store.ErrUnwritable) || !errors.Is(err, store.ErrDiskFull) {
		t.Fatalf("write on the simulated full disk: %v, want ErrUnwritable and ErrDiskFull", err)
	}
	s.SimulateFullDisk(false)
	if err := s.AppendDecision(ctx, rec("after simulated"), true); err != nil {
		t.Fatalf("write after space returned: %v", err)
	}
	got := countRows(t, s.cfg.Path, "")
	for _, tool := range []string{"before", "after real", "after simulated"} {
		if !got[tool] {
			t.Errorf("decision %q missing", tool)
		}
	}
	if got["simulated"] {
		t.Error("the write refused on the simulated full disk is in the file")
	}
}
