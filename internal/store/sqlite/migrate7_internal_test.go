package sqlite

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ncruces/go-sqlite3"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
)

// A version 6 database keeps its quarantine rows (order of arrival,
// statuses, the replay guard) through version 7's rebuild of the table,
// and its passed rows can then be rolled back.
func TestMigrateQuarantineTo7(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	c, err := sqlite3.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:6] {
		if err := applyMigration(c, m); err != nil {
			t.Fatal(err)
		}
	}
	agent := "0x" + strings.Repeat("aa", 20)
	entry := func(id, content string) string {
		return `{"id":"` + id + `","content":"` + content + `","entry_type":"insight","confidence":0.2,` +
			`"source":{"provenance":"purchased","agent":"` + agent + `","signature":"","timestamp":"2026-11-01T00:00:00Z"}}`
	}
	if err := c.Exec(`INSERT INTO quarantine_entries (id, agent, content_hash, entry, status, quarantined_ns) VALUES
  ('pending1', '` + agent + `', x'01', '` + entry("pending1", "one") + `', 'pending', 1);
INSERT INTO quarantine_entries (id, agent, content_hash, entry, status, reason, quarantined_ns, decided_ns) VALUES
  ('passed2', '` + agent + `', x'02', '` + entry("passed2", "two") + `', 'passed', 'KNOWLEDGE_ADOPTED', 2, 3);`); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	s := testStore(t, Config{Path: path})
	ctx := t.Context()
	got, err := s.ListQuarantined(ctx, store.QuarantineFilter{Agent: strings.ToUpper(agent)})
	if err != nil || len(got) != 2 || got[0].Entry.ID != "pending1" || got[1].Entry.ID != "passed2" ||
		got[0].Status != store.QuarantinePending || got[1].Status != store.QuarantinePassed || got[1].Reason != "KNOWLEDGE_ADOPTED" {
		t.Fatalf("rows after the migration = %+v, %v", got, err)
	}
	now := time.Now()
	if err := s.RollbackQuarantined(ctx, &got[1], "rolled_back: counterfactual", now); err != nil {
		t.Fatalf("RollbackQuarantined after the migration: %v", err)
	}
	if err := s.SetQuarantineStatus(ctx, "passed2", store.QuarantineFailed, "x", knowledge.NoAttack, now); !errors.Is(err, store.ErrQuarantineDecided) {
		t.Errorf("a rolled-back row was decided again: %v", err)
	}
	if err := s.SetQuarantineStatus(ctx, "pending1", store.QuarantinePassed, "ok", knowledge.NoAttack, now); err != nil {
		t.Errorf("deciding a migrated pending row: %v", err)
	}
}
