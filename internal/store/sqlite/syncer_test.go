package sqlite

import (
	"errors"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// gatedSync replaces s's WAL sync with one that reports each call on
// calls and then waits for a value on release, which it returns. The test's
// end releases a sync still waiting.
func gatedSync(t *testing.T, s *Store) (calls chan struct{}, release chan error) {
	calls, release = make(chan struct{}, 16), make(chan error)
	ended := make(chan struct{})
	t.Cleanup(func() { close(ended) }) // runs before testStore's Close
	s.sync.syncFile = func(*os.File) error {
		calls <- struct{}{}
		select {
		case err := <-release:
			return err
		case <-ended:
			return nil
		}
	}
	return calls, release
}

func waitErr(t *testing.T, ch <-chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("append did not return")
		return nil
	}
}

// returned reports whether ch delivers within 50ms (consuming it).
func returned(ch <-chan error) bool {
	select {
	case <-ch:
		return true
	case <-time.After(50 * time.Millisecond):
		return false
	}
}

// A durable append returns only after a WAL sync that began after its
// commit. While a sync runs, a small batch waits uncommitted; a batch of
// holdRows records is committed during the sync and released by the next.
func TestSyncerReleasesAfterSync(t *testing.T) {
	s := testStore(t, Config{})
	calls, release := gatedSync(t, s)

	first := make(chan error, 1)
	go func() { first <- s.AppendDecision(t.Context(), rec("first"), true) }()
	<-calls // the first batch committed; its sync is running
	// Committed, hence visible, yet not acknowledged.
	waitRows(t, s, 1, true)
	if returned(first) {
		t.Fatal("durable append returned before its WAL sync finished")
	}

	// A single record is held back while the sync runs.
	second := make(chan error, 1)
	go func() { second <- s.AppendDecision(t.Context(), rec("second"), true) }()
	time.Sleep(50 * time.Millisecond)
	if n := decisionCount(t, s); n != 1 {
		t.Fatalf("%d rows committed during the sync, want the small batch held (1 row)", n)
	}
	// Filling the batch to holdRows commits it during the sync.
	for range holdRows {
		if err := s.AppendDecision(t.Context(), rec("filler"), false); err != nil {
			t.Fatal(err)
		}
	}
	waitRows(t, s, 1+int64(holdRows), false) // first, second and 255 fillers at least
	release <- nil
	if err := waitErr(t, first); err != nil {
		t.Fatalf("first append: %v", err)
	}
	<-calls // the second batch needs a sync of its own
	if returned(second) {
		t.Fatal("a batch committed during a sync was released by it")
	}
	release <- nil
	if err := waitErr(t, second); err != nil {
		t.Fatalf("second append: %v", err)
	}
}

func decisionCount(t *testing.T, s *Store) int64 {
	t.Helper()
	n, err := s.CountDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// waitRows waits for want rows, or at least want unless exact.
func waitRows(t *testing.T, s *Store, want int64, exact bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := decisionCount(t, s)
		if n == want || !exact && n > want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d rows committed, want %d", n, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// A failed sync fails every durable append from then on, without syncing
// again (a later sync could succeed although the lost pages are gone),
// and Close reports it.
func TestSyncerFailureIsFinal(t *testing.T) {
	s := testStore(t, Config{})
	var n atomic.Int32
	s.sync.syncFile = func(*os.File) error {
		if n.Add(1) == 1 {
			return syscall.EIO
		}
		return nil
	}
	for i := range 3 {
		err := s.AppendDecision(t.Context(), rec("x"), true)
		if !errors.Is(err, syscall.EIO) {
			t.Fatalf("append %d: err = %v, want EIO", i, err)
		}
	}
	if got := n.Load(); got != 1 {
		t.Errorf("synced %d times, want 1 (no sync after a failure)", got)
	}
	if err := s.Close(); !errors.Is(err, syscall.EIO) {
		t.Errorf("Close = %v, want the sync failure", err)
	}
}

// Close waits for the batches the syncer holds.
func TestSyncerCloseDrains(t *testing.T) {
	s := testStore(t, Config{})
	calls, release := gatedSync(t, s)
	done := make(chan error, 1)
	go func() { done <- s.AppendDecision(t.Context(), rec("x"), true) }()
	<-calls
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	if returned(closed) {
		t.Fatal("Close returned while a batch waited for its sync")
	}
	release <- nil
	if err := waitErr(t, done); err != nil {
		t.Fatal(err)
	}
	if err := waitErr(t, closed); err != nil {
		t.Fatal(err)
	}
}
