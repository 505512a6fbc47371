package ingest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/adopt"
)

// TestQueryForRemembersInfluences: the external entries query_grimoire
// returns to a session influence that session's decisions, for
// InfluenceWindow, and no other session's.
func TestQueryForRemembersInfluences(t *testing.T) {
	s := newRollbackScene(t)
	h := s.h
	out, external, err := h.p.QueryFor(h.ctx, "s1", "Curve 3pool imbalance USDC discount", 3)
	if err != nil || !external || !strings.Contains(string(out), s.used) {
		t.Fatalf("query: external %v, %v:\n%s", external, err, out)
	}
	now := h.clock()
	ins := h.p.Influences("s1", now)
	found := false
	for _, in := range ins {
		if in.EntryID == s.used {
			found = in.Agent == s.source && in.Provenance.External() && in.Confidence > 0
		}
	}
	if !found {
		t.Fatalf("influences of s1 = %+v, want %s from %s", ins, s.used, s.source)
	}
	if got := h.p.Influences("s2", now); len(got) != 0 {
		t.Errorf("another session is influenced: %+v", got)
	}
	if got := h.p.Influences("s1", now.Add(InfluenceWindow)); len(got) != 0 {
		t.Errorf("influences outlive the window: %+v", got)
	}
}

// TestInfluencesBounded: at most adopt.MaxInfluences entries per session,
// the most recent kept, and at most the capacity of sessions, the least
// recently active forgotten.
func TestInfluencesBounded(t *testing.T) {
	m := newInfluences(2)
	at := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for i := range adopt.MaxInfluences + 10 {
		m.note("a", []adopt.Influence{{EntryID: fmt.Sprint("e", i), Agent: "0xabc"}}, at)
	}
	got := m.of("a", at)
	if len(got) != adopt.MaxInfluences || got[0].EntryID != "e10" || got[len(got)-1].EntryID != fmt.Sprint("e", adopt.MaxInfluences+9) {
		t.Errorf("%d influences, first %s: want the %d most recent", len(got), got[0].EntryID, adopt.MaxInfluences)
	}
	// A re-retrieved entry moves to the end, once.
	m.note("a", []adopt.Influence{{EntryID: "e10", Agent: "0xabc"}}, at.Add(time.Minute))
	got = m.of("a", at.Add(time.Minute))
	if len(got) != adopt.MaxInfluences || got[len(got)-1].EntryID != "e10" || got[0].EntryID != "e11" {
		t.Errorf("after re-retrieval: %d, first %s, last %s", len(got), got[0].EntryID, got[len(got)-1].EntryID)
	}
	m.note("b", []adopt.Influence{{EntryID: "x"}}, at)
	m.note("a", []adopt.Influence{{EntryID: "y"}}, at) // a is now the most recent
	m.note("c", []adopt.Influence{{EntryID: "z"}}, at) // evicts b
	if len(m.of("b", at)) != 0 || len(m.of("a", at)) == 0 || len(m.of("c", at)) != 1 {
		t.Error("the least recently active session was not the one forgotten")
	}
	m.note("", []adopt.Influence{{EntryID: "q"}}, at)
	if len(m.of("", at)) != 0 {
		t.Error("an empty session id was remembered")
	}
}

// TestConsultLessonsBeforeActing: a lesson keyed on a source applies to a
// session about to act under that source's knowledge, not to one that is
// not; frequent matches promote it to the PLAYBOOK, and matches persist.
func TestConsultLessonsBeforeActing(t *testing.T) {
	s := newRollbackScene(t)
	h := s.h
	pb, err := adopt.OpenPlaybook(h.ctx, filepath.Join(t.TempDir(), "PLAYBOOK.md"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pb.Close() })
	h.p.cfg.Playbook = pb
	l := adopt.Lesson{ID: "rollback-x", Summary: "knowledge from the source was rolled back", Advice: "hedge before acting on 3pool tilts",
		Keywords: []string{s.source}, Confidence: 0.9, Created: h.clock()}
	if _, err := h.p.Lessons().Add(l); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.p.QueryFor(h.ctx, "s1", "Curve 3pool imbalance USDC discount", 3); err != nil {
		t.Fatal(err)
	}
	now := h.clock()
	if got := h.p.ConsultLessons(h.ctx, "s2", "uniswap_execute_swap", `{"amount":"1"}`, now); len(got) != 0 {
		t.Errorf("a session not influenced by the source got %+v", got)
	}
	got := h.p.ConsultLessons(h.ctx, "s1", "uniswap_execute_swap", `{"amount":"1"}`, now)
	if len(got) != 1 || got[0].ID != "rollback-x" || got[0].Advice == "" {
		t.Fatalf("advice = %+v, want the rollback lesson", got)
	}
	// The lesson also applies when the action names the source itself.
	if got := h.p.ConsultLessons(h.ctx, "s3", "transfer", `{"to":"`+s.source+`"}`, now); len(got) != 1 {
		t.Errorf("an action naming the source got %+v", got)
	}
	for i := range promotionCheck {
		h.p.ConsultLessons(h.ctx, "s1", "uniswap_execute_swap", "{}", now.Add(time.Duration(i)*time.Minute))
	}
	b, err := os.ReadFile(pb.Path())
	if err != nil || !strings.Contains(string(b), "hedge before acting on 3pool tilts") {
		t.Errorf("after frequent matches the PLAYBOOK does not hold the lesson (%v):\n%s", err, b)
	}
	// The matches were saved: a restarted pipeline sees the promotion.
	p2, err := New(h.p.cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := p2.Restore(h.ctx); err != nil {
		t.Fatal(err)
	}
	if l, ok := p2.Lessons().Get("rollback-x"); !ok || l.Promoted.IsZero() {
		t.Errorf("after a restart the lesson is %+v (found %v), want promoted", l, ok)
	}
}

// promotionCheck is more matches than adopt.PromotionMatches.
const promotionCheck = adopt.PromotionMatches + 1
