package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

func testStore(t *testing.T, cfg Config) *Store {
	t.Helper()
	if cfg.Path == "" {
		cfg.Path = filepath.Join(t.TempDir(), "ward.db")
	}
	s, err := Open(t.Context(), cfg)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func rec(tool string) *store.DecisionRecord {
	now := time.Now()
	return &store.DecisionRecord{ID: id.New(now), Time: now, Tool: tool, ArgsHash: "ab", Risk: "safe", Decision: store.VerdictAllow, Origin: store.OriginGate}
}

// setHook makes f run before every COMMIT.
func setHook(s *Store, f func() error) { s.w.failHook.Store(&f) }

// plug blocks the writer in its next commit until the returned release is
// called, so that the test controls what the following batch holds.
func plug(t *testing.T, s *Store, then func(call int32) error) (release func()) {
	t.Helper()
	entered, released := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	setHook(s, func() error {
		n := calls.Add(1)
		if n == 1 {
			close(entered)
			<-released
			return nil
		}
		return then(n)
	})
	if err := s.AppendDecision(t.Context(), rec("plug"), false); err != nil {
		t.Fatal(err)
	}
	<-entered
	return sync.OnceFunc(func() { close(released) })
}

// waitQueued waits until the open batch holds n records.
func waitQueued(s *Store, n int) {
	for {
		s.mu.Lock()
		l := len(s.open.ops)
		s.mu.Unlock()
		if l >= n {
			return
		}
		runtime.Gosched()
	}
}

func countRows(t *testing.T, path, where string) map[string]bool {
	t.Helper()
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, _, err := c.Prepare(`SELECT tool_name FROM policy_decisions ` + where)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got := map[string]bool{}
	for st.Step() {
		got[st.ColumnText(0)] = true
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// A failed commit fails the callers still waiting; records nobody waits for
// are retried once, then counted as dropped; the writer keeps going.
func TestFailedCommit(t *testing.T) {
	boom := errors.New("disk on fire")
	tests := []struct {
		name        string
		failures    int32 // consecutive failing commits after the plug
		wantPresent []string
		wantDropped uint64
	}{
		{"retry succeeds", 1, []string{"plug", "async", "abandoned", "after"}, 0},
		{"retry fails", 2, []string{"plug", "after"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ward.db")
			s := testStore(t, Config{Path: path})
			retryTaken := make(chan struct{})
			release := plug(t, s, func(n int32) error {
				if n == 3 { // the batch of retried records
					close(retryTaken)
				}
				if n-1 <= tt.failures {
					return boom
				}
				return nil
			})
			defer release()

			if err := s.AppendDecision(t.Context(), rec("async"), false); err != nil {
				t.Fatal(err)
			}
			waiting := make(chan error, 1)
			go func() { waiting <- s.AppendDecision(t.Context(), rec("waiting"), true) }()
			ctx, cancel := context.WithCancel(t.Context())
			abandoned := make(chan error, 1)
			go func() { abandoned <- s.AppendDecision(ctx, rec("abandoned"), true) }()
			waitQueued(s, 3)
			cancel()
			if err := <-abandoned; !errors.Is(err, context.Canceled) {
				t.Fatalf("abandoned append: %v, want %v", err, context.Canceled)
			}
			release()
			if err := <-waiting; !errors.Is(err, boom) {
				t.Fatalf("waiting append: %v, want an error wrapping %v", err, boom)
			}
			<-retryTaken
			if err := s.AppendDecision(t.Context(), rec("after"), true); err != nil {
				t.Fatalf("append after the failures: %v", err)
			}
			if err := s.Close(); err != nil && tt.wantDropped == 0 {
				t.Fatalf("Close: %v", err)
			}
			if got := s.DroppedRecords(); got != tt.wantDropped {
				t.Errorf("DroppedRecords = %d, want %d", got, tt.wantDropped)
			}
			got := countRows(t, path, "")
			if len(got) != len(tt.wantPresent) {
				t.Errorf("rows %v, want %v", got, tt.wantPresent)
			}
			for _, tool := range tt.wantPresent {
				if !got[tool] {
					t.Errorf("record %q missing; rows %v", tool, got)
				}
			}
		})
	}
}

func TestBackpressure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := testStore(t, Config{MaxBatch: 2, CommitTimeout: time.Second})
		release := plug(t, s, func(int32) error { return nil })
		for range 2 {
			if err := s.AppendDecision(t.Context(), rec("queued"), false); err != nil {
				t.Fatal(err)
			}
		}
		start := time.Now()
		err := s.AppendDecision(t.Context(), rec("refused"), false)
		if !errors.Is(err, ErrQueueFull) {
			t.Fatalf("append to a full batch: %v, want %v", err, ErrQueueFull)
		}
		if waited := time.Since(start); waited != time.Second {
			t.Errorf("waited %v for room, want the commit timeout %v", waited, time.Second)
		}
		// Once the writer takes the full batch, there is room again.
		release()
		synctest.Wait()
		if err := s.AppendDecision(t.Context(), rec("admitted"), true); err != nil {
			t.Fatalf("append after the writer caught up: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// An idle store's open batch does not expire before anything joins it.
func TestIdleThenDurable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := testStore(t, Config{CommitTimeout: time.Second})
		time.Sleep(time.Minute) // the bubble's fake clock
		if err := s.AppendDecision(t.Context(), rec("late"), true); err != nil {
			t.Fatalf("durable append after an idle minute: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCommitTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "ward.db")
		s := testStore(t, Config{Path: path, CommitTimeout: time.Second})
		release := plug(t, s, func(int32) error { return nil })
		err := s.AppendDecision(t.Context(), rec("slow"), true)
		if !errors.Is(err, ErrCommitTimeout) {
			t.Fatalf("durable append while the writer is stuck: %v, want %v", err, ErrCommitTimeout)
		}
		release()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if got := countRows(t, path, ""); !got["slow"] {
			t.Errorf("the timed-out record was not written: rows %v", got)
		}
	})
}

// TestCommitTimeoutAfterWaitingForRoom: a durable append that first waits
// for room in a full batch, then joins a younger batch, still returns
// CommitTimeout after it was called (AppendTimeout), not CommitTimeout
// after that younger batch opened: the audit recorder gives the record no
// deadline of its own when the store bounds it.
func TestCommitTimeoutAfterWaitingForRoom(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := testStore(t, Config{MaxBatch: 2, CommitTimeout: time.Second})
		if got := s.AppendTimeout(); got != time.Second {
			t.Fatalf("AppendTimeout = %v, want the commit timeout %v", got, time.Second)
		}
		stuck := make(chan struct{})
		release := plug(t, s, func(n int32) error {
			if n == 2 {
				<-stuck // the full batch's commit
			}
			return nil
		})
		for range 2 {
			if err := s.AppendDecision(t.Context(), rec("queued"), false); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(600 * time.Millisecond)
		start := time.Now()
		var (
			err    error
			waited time.Duration
			done   = make(chan struct{})
		)
		go func() {
			defer close(done)
			err = s.AppendDecision(t.Context(), rec("late"), true)
			waited = time.Since(start)
		}()
		time.Sleep(200 * time.Millisecond)
		release() // the writer takes the full batch and sticks in its commit
		<-done
		if !errors.Is(err, ErrCommitTimeout) {
			t.Errorf("append while the writer is stuck: %v, want %v", err, ErrCommitTimeout)
		}
		if waited != time.Second {
			t.Errorf("returned %v after the call, want the commit timeout %v", waited, time.Second)
		}
		close(stuck)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

// Close leaves no goroutine behind: synctest fails if any goroutine started
// in the bubble is still blocked when the test function returns.
func TestCloseStopsWriter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := Open(t.Context(), Config{Path: filepath.Join(t.TempDir(), "ward.db"), MaxBatch: 16})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := range 50 {
					if err := s.AppendDecision(t.Context(), rec(fmt.Sprint(w)), i%3 == 0); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestNoGoroutineLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := Open(t.Context(), Config{Path: filepath.Join(t.TempDir(), "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AppendDecision(t.Context(), rec("x"), true); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// The writer has returned; let it finish exiting.
	for range 1000 {
		if runtime.NumGoroutine() <= before {
			return
		}
		runtime.Gosched()
	}
	t.Errorf("%d goroutines after Close, %d before Open", runtime.NumGoroutine(), before)
}

func TestReaderIsReadOnly(t *testing.T) {
	s := testStore(t, Config{})
	for _, sql := range []string{
		`INSERT INTO policy_snapshots (hash, source, created_at) VALUES ('x', x'00', 'now')`,
		`DELETE FROM decision_log`,
		`CREATE TABLE t (x)`,
		`PRAGMA user_version = 9`,
	} {
		s.r.mu.Lock()
		err := s.r.conn.Exec(sql)
		s.r.mu.Unlock()
		if err == nil {
			t.Errorf("read connection ran %q", sql)
		}
	}
	if ro, _ := s.r.conn.ReadOnly("main"); !ro {
		t.Error("read connection: sqlite3_db_readonly is false")
	}
}

// Readers see committed data while the writer commits (WAL).
func TestReadWhileWriting(t *testing.T) {
	s := testStore(t, Config{})
	release := plug(t, s, func(int32) error { return nil })
	defer release()
	got, err := s.QueryDecisions(t.Context(), store.DecisionFilter{})
	if err != nil {
		t.Fatalf("QueryDecisions during a commit: %v", err)
	}
	if len(got) != 0 {
		t.Errorf("read %d uncommitted records", len(got))
	}
}

func TestChunking(t *testing.T) {
	// Batch sizes around the chunk boundaries all write every row once.
	for _, n := range []int{1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 256 + 64 + 16 + 1, 600} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ward.db")
			s := testStore(t, Config{Path: path})
			release := plug(t, s, func(int32) error { return nil })
			for i := range n {
				if err := s.AppendDecision(t.Context(), rec(fmt.Sprint(i)), false); err != nil {
					t.Fatal(err)
				}
			}
			release()
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if got := countRows(t, path, "WHERE tool_name != 'plug'"); len(got) != n {
				t.Errorf("%d rows, want %d", len(got), n)
			}
		})
	}
}

// Checkpoints keep the WAL bounded under a steady load, and every row
// survives.
func TestCheckpointsBoundWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s, err := open(t.Context(), Config{Path: path, Synchronous: "normal"}, options{checkpointPages: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Durable appends keep batches small: every commit writes a few pages.
	const workers, each = 4, 1000
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				if err := s.AppendDecision(t.Context(), rec(fmt.Sprint(w, i)), true); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := s.AppendDecision(t.Context(), rec("last"), true); err != nil {
		t.Fatal(err)
	}
	// Over a thousand commits of at least two 4 KiB pages each went
	// through a WAL checkpointed every 64 pages (256 KiB).
	fi, err := os.Stat(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 1<<20 {
		t.Errorf("WAL is %d bytes after checkpoints every 64 pages", fi.Size())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := countRows(t, path, ""); len(got) != workers*each+1 {
		t.Errorf("%d rows, want %d", len(got), workers*each+1)
	}
}

// TestCheckpointerWakes: between a quarter and the whole checkpoint
// length the writer wakes the checkpointer once per eighth of the length
// the WAL grows, not after every commit, and again from a quarter after
// the WAL restarts.
func TestCheckpointerWakes(t *testing.T) {
	w := &writer{ckpt: &checkpointer{wake: make(chan struct{}, 1)}, checkpointPages: 4096}
	fill := func() (pokes int) {
		for pages := 0; pages < w.checkpointPages; pages += 10 { // a commit of 10 pages
			w.walPages = pages
			w.afterCommit()
			select {
			case <-w.ckpt.wake:
				pokes++
			default:
			}
		}
		return pokes
	}
	// 307 commits from 1024 to 4095 pages; one wake per 512 pages grown.
	for round := range 2 {
		if got := fill(); got != 6 {
			t.Errorf("round %d: %d wakes of the checkpointer, want 6", round, got)
		}
		w.walPages = 3 // the WAL restarted
		w.afterCommit()
	}
}

// Config.Synchronous reaches the write connection: "full" leaves the WAL
// sync to the syncer, so COMMIT runs with NORMAL either way.
func TestSynchronous(t *testing.T) {
	for sync, want := range map[string]int{"": 1, "full": 1, "normal": 1} {
		t.Run(sync, func(t *testing.T) {
			s := testStore(t, Config{Synchronous: sync})
			got := make(chan int, 1)
			// The hook runs on the writer goroutine, which owns the connection.
			setHook(s, func() error {
				st, _, err := s.w.conn.Prepare(`PRAGMA synchronous`)
				if err != nil {
					return err
				}
				defer st.Close()
				st.Step()
				select {
				case got <- st.ColumnInt(0):
				default:
				}
				return st.Err()
			})
			if err := s.AppendDecision(t.Context(), rec("x"), true); err != nil {
				t.Fatal(err)
			}
			if g := <-got; g != want {
				t.Errorf("PRAGMA synchronous = %d, want %d", g, want)
			}
			if hasSyncer := s.sync != nil; hasSyncer != (sync != "normal") {
				t.Errorf("syncer running: %v, want %v", hasSyncer, sync != "normal")
			}
		})
	}
}

// Time filters use the id primary key, and the default order needs no sort.
func TestQueryPlans(t *testing.T) {
	s := testStore(t, Config{})
	now := time.Now()
	tests := []struct {
		name string
		f    store.DecisionFilter
		want string
	}{
		{"newest first", store.DecisionFilter{Limit: 10}, "SCAN d USING INDEX sqlite_autoindex_decision_log_1"},
		{"since", store.DecisionFilter{Since: now}, "SEARCH d USING INDEX sqlite_autoindex_decision_log_1 (id>?)"},
		{"since and tool", store.DecisionFilter{Since: now, Tool: "x", Until: now.Add(time.Hour)}, "SEARCH d USING INDEX sqlite_autoindex_decision_log_1 (id>?)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sql, args, err := decisionQuery(tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var plan []string
			err = s.r.query(t.Context(), "EXPLAIN QUERY PLAN "+sql, args, func(st *sqlite3.Stmt) error {
				plan = append(plan, st.ColumnText(3))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(plan, tt.want) || slices.ContainsFunc(plan, func(p string) bool { return strings.Contains(p, "TEMP B-TREE") }) {
				t.Errorf("plan %q, want %q and no sort", plan, tt.want)
			}
		})
	}
}

// Decision ops are reused once their caller saw the outcome; an op its
// caller abandoned, or did not wait for, is the writer's until written.
// Many goroutines append durable, committed-only, abandoned (a context
// already cancelled) and queued-only decisions, each with a tool and args
// hash of its own, while the writer yields before every commit; every
// record must then be stored exactly as it was appended, once. Reusing an
// abandoned or queued op overwrites a record the writer has yet to write.
func TestRecycledOpsKeepRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := testStore(t, Config{Path: path})
	setHook(s, func() error { runtime.Gosched(); return nil })
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	const workers, each = 16, 150
	var mu sync.Mutex
	want := map[string]string{} // id -> tool + " " + args hash
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				r := rec(fmt.Sprintf("t%d-%d", w, i))
				r.ArgsHash = fmt.Sprintf("%064x", w*each+i)
				var err error
				switch i % 4 {
				case 0:
					err = s.AppendDecision(t.Context(), r, true)
				case 1:
					err = s.AppendDecisionCommitted(t.Context(), r)
				case 2:
					if err = s.AppendDecision(cancelled, r, true); errors.Is(err, context.Canceled) {
						err = nil // abandoned: the writer still writes it
					}
				case 3:
					err = s.AppendDecision(t.Context(), r, false)
				}
				if err != nil {
					t.Errorf("append %s: %v", r.Tool, err)
					return
				}
				mu.Lock()
				want[r.ID] = r.Tool + " " + r.ArgsHash
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, _, err := c.Prepare(`SELECT id, tool_name, tool_args_hash FROM policy_decisions`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got := map[string]string{}
	for st.Step() {
		id, row := st.ColumnText(0), st.ColumnText(1)+" "+st.ColumnText(2)
		if prev, dup := got[id]; dup {
			t.Errorf("id %s stored twice: %q and %q", id, prev, row)
		}
		got[id] = row
	}
	if err := st.Err(); err != nil {
		t.Fatal(err)
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("record %s: stored %q, want %q", id, got[id], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d rows stored, want %d", len(got), len(want))
	}
}
