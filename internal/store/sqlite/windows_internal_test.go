package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/hook"
)

// scanTotalsQuery is windowTotals before migration 29: the session's and
// the day's spend summed over their rows at every call. It is the oracle
// of the running totals and the "before" of BenchmarkWindowTotalsHistory.
const scanTotalsQuery = `WITH latest AS (SELECT max(tick) AS t FROM spend_ledger WHERE session_id = ?1)
SELECT
  coalesce((SELECT sum(cents) FROM spend_ledger, latest WHERE session_id = ?1 AND tick = latest.t AND ?2 <= latest.t), 0),
  coalesce((SELECT sum(cents) FROM spend_ledger WHERE session_id = ?1), 0),
  coalesce((SELECT sum(cents) FROM spend_ledger WHERE time_ns > ?4), 0),
  coalesce((SELECT sum(cents) FROM spend_holds WHERE session_id = ?1 AND tick = ?2 AND expires_ns > ?3 AND id <> ?6), 0),
  coalesce((SELECT sum(cents) FROM spend_holds WHERE session_id = ?1 AND expires_ns > ?3 AND id <> ?6), 0),
  coalesce((SELECT sum(cents) FROM spend_holds WHERE expires_ns > ?3 AND id <> ?6), 0),
  (SELECT count(*) FROM spend_ledger WHERE time_ns > ?5),
  (SELECT count(*) FROM spend_holds WHERE expires_ns > ?3 AND id <> ?6)`

func (s *Store) scanTotals(ctx context.Context, q hook.WindowQuery) (hook.WindowTotals, error) {
	var t hook.WindowTotals
	err := s.r.query(ctx, scanTotalsQuery, windowArgs(q, "")[:6], func(st *sqlite3.Stmt) error {
		t = scanTotals(st)
		return nil
	})
	return t, err
}

// A version 28 database has spend rows and no running totals: migration
// 29 computes them from the rows, and the windows read from them agree
// with the sums over the rows.
func TestMigrateSpendTotals(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations {
		if m.version > 28 {
			break
		}
		if err := applyMigration(c, m); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for i := range 500 {
		at := now.Add(-time.Duration(i) * 7 * time.Minute / 2)
		if err := c.Exec(fmt.Sprintf(`INSERT INTO spend_ledger (id, session_id, tick, cents, time_ns, status) VALUES ('k%d', 's%d', %d, %d, %d, 'executed')`,
			i, i%3, i%5, 100+i, at.UnixNano())); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	s := testStore(t, Config{Path: path})
	for _, q := range []hook.WindowQuery{
		{Session: "s0", Tick: 0, Now: now, RateWindow: time.Hour},
		{Session: "s1", Tick: 4, Now: now.Add(-10 * time.Hour), RateWindow: time.Minute},
		{Session: "s2", Tick: 9, Now: now.Add(30*time.Second + 1), RateWindow: 24 * time.Hour},
		{Session: "none", Tick: 0, Now: now.Add(12 * time.Hour), RateWindow: time.Hour},
	} {
		got, err := s.Totals(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.scanTotals(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || want.Session == 0 && q.Session != "none" {
			t.Errorf("%+v:\n got %+v\nwant %+v", q, got, want)
		}
	}
}

// BenchmarkWindowTotalsHistory reads a session's windows (what every
// write's preview does) with 10, 1,000 and 10,000 prior spend rows of that
// session in the last day, and a rate window of an hour: "scan" sums and
// counts the rows, as before migration 29, "totals" reads the running
// totals.
func BenchmarkWindowTotalsHistory(b *testing.B) {
	for _, n := range []int{10, 1_000, 10_000} {
		s, err := Open(b.Context(), Config{Path: filepath.Join(b.TempDir(), "ward.db"), Synchronous: "normal"})
		if err != nil {
			b.Fatal(err)
		}
		now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
		fits := func(hook.WindowTotals) error { return nil }
		for i := range n {
			at := now.Add(-time.Duration(n-i) * time.Second)
			e := hook.WindowSpend{Key: fmt.Sprintf("k%d", i), Session: "s", Tick: uint64(i), Cents: 100, At: at}
			if err := s.Begin(b.Context(), e, hook.WindowQuery{Session: "s", Tick: e.Tick, Now: at, RateWindow: time.Minute}, fits); err != nil {
				b.Fatal(err)
			}
		}
		q := hook.WindowQuery{Session: "s", Tick: uint64(n), Now: now, RateWindow: time.Hour} // the soak's rate window
		b.Run(fmt.Sprintf("scan/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.scanTotals(b.Context(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("totals/%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Totals(b.Context(), q); err != nil {
					b.Fatal(err)
				}
			}
		})
		s.Close()
	}
}
