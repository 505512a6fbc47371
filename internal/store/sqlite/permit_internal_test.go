package sqlite

import (
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// errConstraint stands for any constraint error in a table of wanted errors.
var errConstraint = errors.New("constraint")

func testPermit(now time.Time) *store.Permit {
	return &store.Permit{
		ID: id.New(now), CreatedAt: now, ExpiresAt: now.Add(time.Hour), Tool: "wallet_swap",
		ArgsHash: "ab", PolicyHash: "cd", Phase: "live", Status: store.PermitPending,
	}
}

func permitCheck(p *store.Permit, now time.Time) store.PermitCheck {
	return store.PermitCheck{Now: now, Tool: p.Tool, ArgsHash: p.ArgsHash, PolicyHash: p.PolicyHash, Phase: p.Phase, By: "s"}
}

// A refused consume, a refused cancel and a duplicate create in one batch
// fail alone: the rest of the batch commits, and a consume that succeeded
// in the transaction the duplicate aborted succeeds once in the retry.
func TestPermitRefusalsFailAlone(t *testing.T) {
	s := testStore(t, Config{})
	ctx := t.Context()
	now := time.Now()
	existing, other := testPermit(now), testPermit(now)
	for _, p := range []*store.Permit{existing, other} {
		if err := s.CreatePermit(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CancelPermit(ctx, other.ID, "owner", now); err != nil {
		t.Fatal(err)
	}
	release := plug(t, s, func(int32) error { return nil })
	defer release()

	dup := *existing
	wrongPolicy := permitCheck(existing, now)
	wrongPolicy.PolicyHash = "ef"
	calls := []struct {
		name string
		call func() error
		want error // nil: success
	}{
		{"ConsumePermit with another policy", func() error { _, err := s.ConsumePermit(ctx, existing.ID, wrongPolicy); return err }, store.ErrPolicyChanged},
		{"CancelPermit of a cancelled permit", func() error { return s.CancelPermit(ctx, other.ID, "owner", now) }, store.ErrPermitCancelled},
		{"ConsumePermit", func() error { _, err := s.ConsumePermit(ctx, existing.ID, permitCheck(existing, now)); return err }, nil},
		{"duplicate CreatePermit", func() error { return s.CreatePermit(ctx, &dup) }, errConstraint},
		{"SetHalt", func() error {
			return s.SetHalt(ctx, true, "on", "x", now, &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionHalt})
		}, nil},
		{"AppendDecision", func() error { return s.AppendDecision(ctx, rec("after"), true) }, nil},
	}
	errs := make([]error, len(calls))
	done := make(chan struct{})
	for i, c := range calls {
		go func() {
			errs[i] = c.call()
			done <- struct{}{}
		}()
		waitQueued(s, i+1) // in this order
	}
	release()
	for range calls {
		<-done
	}
	for i, c := range calls {
		switch err := errs[i]; {
		case c.want == nil && err != nil:
			t.Errorf("%s: %v, want success", c.name, err)
		case c.want == errConstraint && !isConstraint(err):
			t.Errorf("%s: %v, want a constraint error", c.name, err)
		case c.want != nil && c.want != errConstraint && !errors.Is(err, c.want):
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if p, err := s.Permit(ctx, existing.ID); err != nil || p.Status != store.PermitConsumed {
		t.Errorf("Permit = %s, %v; want consumed", p.Status, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := s.DroppedRecords(); n != 0 {
		t.Errorf("DroppedRecords = %d, want 0", n)
	}
}

// A consume whose batch fails to commit reports the failure and changes
// nothing; the permit stays consumable.
func TestConsumeInFailedCommit(t *testing.T) {
	s := testStore(t, Config{})
	ctx := t.Context()
	now := time.Now()
	p := testPermit(now)
	if err := s.CreatePermit(ctx, p); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk on fire")
	release := plug(t, s, func(n int32) error {
		if n == 2 {
			return boom
		}
		return nil
	})
	failed := make(chan error)
	go func() {
		_, err := s.ConsumePermit(ctx, p.ID, permitCheck(p, now))
		failed <- err
	}()
	waitQueued(s, 1)
	release()
	if err := <-failed; !errors.Is(err, boom) {
		t.Fatalf("ConsumePermit in a failed commit: %v, want %v", err, boom)
	}
	if got, err := s.Permit(ctx, p.ID); err != nil || got.Status != store.PermitPending {
		t.Fatalf("Permit after the failed commit = %s, %v; want pending", got.Status, err)
	}
	if _, err := s.ConsumePermit(ctx, p.ID, permitCheck(p, now)); err != nil {
		t.Fatalf("ConsumePermit after the failed commit: %v", err)
	}
}

// A database written at schema version 1 opens, keeps its records and
// gains the tables of version 2.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Exec(`PRAGMA journal_mode = WAL`); err != nil {
		t.Fatal(err)
	}
	if err := applyMigration(c, migrations[0]); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	stamp, err := formatTime(at)
	if err != nil {
		t.Fatal(err)
	}
	execID := id.New(at)
	if err := c.Exec(`INSERT INTO tool_executions (id, created_at, tool_name, spend_cents) VALUES ('` + execID + `', '` + stamp + `', 'wallet_send', 250);
INSERT INTO tracked_balance (id, cents, observed_at) VALUES (1, 12345, '` + stamp + `');`); err != nil {
		t.Fatal(err)
	}
	tables := func() []string {
		st, _, err := c.Prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var names []string
		for st.Step() {
			names = append(names, st.ColumnText(0))
		}
		return names
	}
	if got := tables(); slices.Contains(got, "permits") {
		t.Fatalf("version 1 already has permits: %v", got)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	s := testStore(t, Config{Path: path})
	ctx := t.Context()
	if ex, err := s.Executions(ctx, time.Time{}); err != nil || len(ex) != 1 || ex[0].ID != execID {
		t.Errorf("Executions after the migration = %+v, %v; want the one of version 1", ex, err)
	}
	if cents, _, ok, err := s.Balance(ctx); err != nil || !ok || cents != 12345 {
		t.Errorf("Balance after the migration = %d, %v, %v; want 12345", cents, ok, err)
	}
	now := time.Now()
	p := testPermit(now)
	if err := s.CreatePermit(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ConsumePermit(ctx, p.ID, permitCheck(p, now)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetPhase(ctx, "stable", "owner", now, &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionPhaseChanged}); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendAction(ctx, &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionPermitConsumed, PermitID: p.ID}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	c, err = sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, table := range []string{"permits", "gate_control", "action_log", "trust_log", "withheld_outputs", "withheld_wraps", "quarantine_entries", "grimoire_entries"} {
		if !slices.Contains(tables(), table) {
			t.Errorf("table %s missing after the migration", table)
		}
	}
	if v, err := userVersion(c); err != nil || v != schemaVersion() {
		t.Errorf("user_version = %d, %v; want %d", v, err, schemaVersion())
	}
	st, _, err := c.Prepare(`SELECT group_concat(version) FROM schema_migrations`)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var all []string
	for _, m := range migrations {
		all = append(all, strconv.Itoa(m.version))
	}
	if want := strings.Join(all, ","); !st.Step() || st.ColumnText(0) != want {
		t.Errorf("schema_migrations = %q, want %s", st.ColumnText(0), want)
	}
}
