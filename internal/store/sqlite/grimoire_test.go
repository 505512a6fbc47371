package sqlite_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

var knowledgeTime = time.Date(2026, 11, 2, 3, 4, 5, 0, time.UTC)

func quarantined(agent string, n int) *store.QuarantinedEntry {
	return &store.QuarantinedEntry{
		Entry: knowledge.Entry{
			ID:         id.New(knowledgeTime),
			Content:    fmt.Sprintf("insight %d", n),
			Type:       knowledge.TypeInsight,
			Confidence: 0.5,
			Source:     knowledge.Source{Provenance: knowledge.Clade, Agent: agent, Signature: make([]byte, 65), Timestamp: knowledgeTime},
		},
		QuarantinedAt: knowledgeTime,
	}
}

var agent = "0x" + strings.Repeat("12", 20)

// The triggers refuse, behind the store's back, any change to a decided
// quarantined entry and to a Grimoire entry's source or confidence.
func TestKnowledgeTriggersRefuseChanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	s := openStore(t, sqlite.Config{Path: path})
	ctx := t.Context()
	q := quarantined(agent, 1)
	if _, err := s.PutQuarantined(ctx, q); err != nil {
		t.Fatal(err)
	}
	if err := s.SetQuarantineStatus(ctx, q.Entry.ID, store.QuarantineFailed, "forged", knowledge.ProvenanceForgery, knowledgeTime); err != nil {
		t.Fatal(err)
	}
	g := &store.GrimoireEntry{Entry: quarantined(agent, 2).Entry, Partition: knowledge.PartitionExternal, Created: knowledgeTime}
	if err := s.PutEntry(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c := rawConn(t, path)
	for _, sql := range []string{
		`UPDATE quarantine_entries SET status = 'passed', attack = NULL`,
		`UPDATE quarantine_entries SET status = 'pending', decided_ns = NULL`,
		`UPDATE grimoire_entries SET confidence = 0.99`,
		`UPDATE grimoire_entries SET provenance = 'self', agent = NULL`,
		`UPDATE grimoire_entries SET signature = NULL`,
		`INSERT INTO quarantine_entries (id, agent, content_hash, entry, status, quarantined_ns) VALUES ('x', '', x'00', '{}', 'passed', 1)`,
		`INSERT INTO grimoire_entries (id, partition, entry_type, content, provenance, confidence, source_ns, created_ns) VALUES ('y', 'external', 'insight', 'c', 'clade', 1.5, 1, 1)`,
	} {
		if err := c.Exec(sql); err == nil {
			t.Errorf("%s: accepted", sql)
		}
	}
	mustExec(t, c, `UPDATE grimoire_entries SET partition = 'lessons'`) // moving an entry keeps its source
}

// A refused put or decision answers its caller alone; the batch it shared
// commits.
func TestQuarantineRefusalSparesBatch(t *testing.T) {
	s := openStore(t, sqlite.Config{})
	ctx := t.Context()
	taken := quarantined(agent, 0)
	if _, err := s.PutQuarantined(ctx, taken); err != nil {
		t.Fatal(err)
	}
	if err := s.SetQuarantineStatus(ctx, taken.Entry.ID, store.QuarantinePassed, "", knowledge.NoAttack, knowledgeTime); err != nil {
		t.Fatal(err)
	}
	const n = 64
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if _, err := s.PutQuarantined(ctx, quarantined(agent, i+1)); err != nil {
				t.Errorf("PutQuarantined(new): %v", err)
			}
		})
		wg.Go(func() {
			if _, err := s.PutQuarantined(ctx, quarantined(agent, 0)); !errors.Is(err, store.ErrQuarantineExists) {
				t.Errorf("PutQuarantined(replayed content) = %v, want ErrQuarantineExists", err)
			}
		})
		wg.Go(func() {
			if err := s.SetQuarantineStatus(ctx, taken.Entry.ID, store.QuarantineFailed, "", knowledge.ContentInjection, knowledgeTime); !errors.Is(err, store.ErrQuarantineDecided) {
				t.Errorf("SetQuarantineStatus(decided) = %v, want ErrQuarantineDecided", err)
			}
		})
	}
	wg.Wait()
	got, err := s.ListQuarantined(ctx, store.QuarantineFilter{Agent: agent})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n+1 {
		t.Errorf("%d entries stored, want %d", len(got), n+1)
	}
	if s.DroppedRecords() != 0 {
		t.Errorf("%d records dropped", s.DroppedRecords())
	}
}

// Two stores on one database (as two processes) keep one agent's cap:
// BEGIN IMMEDIATE serializes their eviction.
func TestQuarantineCapAcrossStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ward.db")
	stores := []*sqlite.Store{openStore(t, sqlite.Config{Path: path}), openStore(t, sqlite.Config{Path: path})}
	const per = store.MaxQuarantinePending/2 + 100
	var wg sync.WaitGroup
	var mu sync.Mutex
	evicted := 0
	for si, s := range stores {
		wg.Go(func() {
			for i := range per {
				ev, err := s.PutQuarantined(t.Context(), quarantined(agent, si*per+i))
				if err != nil {
					t.Errorf("store %d: PutQuarantined: %v", si, err)
					return
				}
				mu.Lock()
				evicted += len(ev)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	got, err := stores[0].ListQuarantined(t.Context(), store.QuarantineFilter{Agent: agent, Status: store.QuarantinePending})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != store.MaxQuarantinePending || evicted != 2*per-store.MaxQuarantinePending {
		t.Errorf("%d pending, %d evicted; want %d and %d", len(got), evicted, store.MaxQuarantinePending, 2*per-store.MaxQuarantinePending)
	}
}
