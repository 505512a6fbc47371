package sqlite

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/wardhq/ward/internal/store"
)

// killAppenderEnv names the database a re-executed test binary appends
// to (TestKillLosesNothingAcknowledged's child).
const killAppenderEnv = "WARD_TEST_KILL_APPENDER_DB"

// TestKillLosesNothingAcknowledged kills a process that appends durable
// decisions from 64 goroutines (many batches in flight, one committing
// while the previous one syncs) with SIGKILL mid-stream, then reopens the
// database: every decision the process acknowledged (printed its id after
// AppendDecision returned nil) is in the audit trail.
func TestKillLosesNothingAcknowledged(t *testing.T) {
	if path := os.Getenv(killAppenderEnv); path != "" {
		killAppender(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "ward.db")
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillLosesNothingAcknowledged$", "-test.count=1")
		cmd.Env = append(os.Environ(), killAppenderEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acked := map[string]bool{}
		sc := bufio.NewScanner(out)
		// Kill once a few thousand decisions were acknowledged: batches
		// are then being written and synced back to back.
		want := 2000 + 1000*round
		for sc.Scan() && len(acked) < want {
			acked[sc.Text()] = true
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		for sc.Scan() { // acknowledged before the kill landed
			acked[sc.Text()] = true
		}
		cmd.Wait()
		if len(acked) < want {
			t.Fatalf("round %d: the child acknowledged %d decisions before it ended, want %d", round, len(acked), want)
		}

		s, err := Open(t.Context(), Config{Path: path})
		if err != nil {
			t.Fatalf("round %d: reopen after kill: %v", round, err)
		}
		rows, err := s.QueryDecisions(t.Context(), store.DecisionFilter{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		stored := make(map[string]bool, len(rows))
		for _, r := range rows {
			stored[r.ID] = true
		}
		lost := 0
		for id := range acked {
			if !stored[id] {
				lost++
			}
		}
		if lost > 0 {
			t.Fatalf("round %d: %d of %d acknowledged decisions missing after the kill (%d rows stored)", round, lost, len(acked), len(rows))
		}
		t.Logf("round %d: %d acknowledged, %d stored (the rest were in flight)", round, len(acked), len(rows))
	}
}

// killAppender appends durable decisions until it is killed, printing the
// id of each once its append returned nil. The store is never closed.
func killAppender(t *testing.T, path string) {
	s, err := Open(t.Context(), Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Go(func() {
			for i := 0; ; i++ {
				r := rec(fmt.Sprintf("kill_%d_%d", g, i))
				if err := s.AppendDecision(t.Context(), r, true); err != nil {
					t.Errorf("append: %v", err) // the parent sees too few acknowledgements
					return
				}
				mu.Lock()
				fmt.Fprintln(out, r.ID)
				out.Flush()
				mu.Unlock()
			}
		})
	}
	wg.Wait() // only if every appender failed: the parent kills it otherwise
}
