package daemon

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
	"github.com/wardhq/ward/internal/store/storetest"
)

// TestServeArchivesAtStart: with [audit] retain set, ward serve moves the
// audit rows older than the retention to archive files as it starts, and
// the trust chain verifies across them.
func TestServeArchivesAtStart(t *testing.T) {
	dir := t.TempDir()
	st, err := sqlite.Open(t.Context(), sqlite.Config{Path: filepath.Join(dir, "ward.db")})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i, age := range []time.Duration{72 * time.Hour, 48 * time.Hour, time.Minute} {
		at := now.Add(-age)
		// An id of the record's time: id.New follows the latest time the
		// test process used.
		d := &store.DecisionRecord{ID: storetest.TimeID(at, i), Time: at, Tool: "wallet_send_token", Risk: "dangerous", Decision: store.VerdictDeny, Origin: store.OriginGate}
		if err := st.AppendDecision(t.Context(), d, true); err != nil {
			t.Fatal(err)
		}
		if err := st.AppendTrust(t.Context(), &store.TrustRecord{ID: id.New(at), Time: at, Kind: store.TrustAccessDenied, Target: "m"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := config.Default()
	if err != nil {
		t.Fatal(err)
	}
	f.Audit.Retain = 24 * time.Hour
	var srv *Server
	started, err := Start(context.Background(), ServeConfig{Addr: "127.0.0.1:0", Data: dir, File: f, Mount: func(s *Server) error { srv = s; return nil }})
	if err != nil {
		t.Fatalf("serve did not start: %v", err)
	}
	defer started.Stop()
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	poll := time.NewTicker(20 * time.Millisecond)
	defer poll.Stop()
	for {
		files, err := srv.Stack.Store.ArchiveFiles(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 2 {
			break
		}
		select {
		case <-deadline.C:
			t.Fatalf("after 30 s the manifest has %d files, want 2 (decisions, trust)", len(files))
		case <-poll.C:
		}
	}
	a, err := NewArchiver(srv.Stack.Store, f, dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := a.Verify(t.Context())
	if err != nil || !v.OK || v.ArchivedRows != 2 || v.Live.Rows != 1 {
		t.Errorf("Verify = %+v, %v; want OK with 2 archived rows and 1 live", v, err)
	}
	if got, err := filepath.Glob(filepath.Join(dir, "audit-archive", "*.jsonl.gz")); err != nil || len(got) != 2 {
		t.Errorf("archive directory: %v, %v; want 2 files", got, err)
	}
}
