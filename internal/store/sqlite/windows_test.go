package sqlite_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/windowstest"
	"github.com/wardhq/ward/internal/reason"
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

// TestWindowsTwoStores: two stores on one file (as two ward processes
// are: separate connections, separate writers, SQLite's file locks between
// them) share one spending window. Of 32 concurrent holds of $1 under a
// $10 day, split between them, exactly 10 are taken, and each store's
// totals show all 10.
func TestWindowsTwoStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	var stores [2]*sqlite.Store
	for i := range stores {
		s, err := sqlite.Open(t.Context(), sqlite.Config{Path: path, Synchronous: "normal"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores[i] = s
	}
	var ok atomic.Int64
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			s, err := hook.NewLimits(hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: 1000},
				hook.RateConfig{Max: 1 << 20, Window: time.Hour}, stores[i%2])
			if err != nil {
				t.Error(err)
				return
			}
			c := windowstest.Call(fmt.Sprint("s", i), 1, windowstest.Now, 100)
			if v := s.Reserve(t.Context(), c, fmt.Sprint("k", i), time.Hour); !v.Veto {
				ok.Add(1)
			} else if v.Code != reason.SpendDailyLimit {
				t.Errorf("Reserve: %+v", v)
			}
		})
	}
	wg.Wait()
	if n := ok.Load(); n != 10 {
		t.Errorf("%d holds of $1 taken across two stores under a $10 day, want 10", n)
	}
	for i, s := range stores {
		got, err := s.Totals(t.Context(), hook.WindowQuery{Session: "x", Now: windowstest.Now, RateWindow: time.Hour})
		if err != nil || got.DayHeld != 1000 || got.WritesHeld != 10 {
			t.Errorf("store %d sees %+v, %v; want all 10 holds", i, got, err)
		}
	}
}
