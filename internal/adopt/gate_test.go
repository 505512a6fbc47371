package adopt

import (
	"math"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
)

func TestReach(t *testing.T) {
	for _, tc := range []struct {
		name  string
		typ   knowledge.EntryType
		conf  float64
		valid int
		want  Scope
	}{
		{"warning below 0.4", knowledge.TypeWarning, 0.399, 0, ScopeLocal},
		{"warning at 0.4", knowledge.TypeWarning, 0.4, 0, ScopeClade},
		{"warning high stays in clade", knowledge.TypeWarning, 0.95, 10, ScopeClade},
		{"insight below 0.6", knowledge.TypeInsight, 0.599, 0, ScopeLocal},
		{"insight at 0.6", knowledge.TypeInsight, 0.6, 0, ScopeClade},
		{"heuristic 4 validations", knowledge.TypeHeuristic, 0.9, 4, ScopeLocal},
		{"heuristic 5 validations below 0.7", knowledge.TypeHeuristic, 0.699, 5, ScopeLocal},
		{"heuristic 5 validations at 0.7", knowledge.TypeHeuristic, 0.7, 5, ScopeCommons},
		{"strategy fragment never", knowledge.TypeStrategyFragment, 1, 100, ScopeLocal},
		{"causal link never", knowledge.TypeCausalLink, 1, 100, ScopeLocal},
		{"NaN warning", knowledge.TypeWarning, math.NaN(), 0, ScopeLocal},
		{"NaN heuristic", knowledge.TypeHeuristic, math.NaN(), 5, ScopeLocal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &Record{Type: tc.typ, Confidence: tc.conf, Validations: tc.valid}
			if got := Reach(r); got != tc.want {
				t.Errorf("Reach = %v, want %v", got, tc.want)
			}
			for _, s := range []Scope{ScopeLocal, ScopeClade, ScopeCommons, ScopeListed} {
				want := s == ScopeLocal || (s != ScopeListed && tc.want >= s)
				if got := MayPropagate(r, s); got != want {
					t.Errorf("MayPropagate(%v) = %v, want %v", s, got, want)
				}
			}
		})
	}
}

// TestReachExternalNeedsConfirmation shows the gates and the ceilings
// together: a purchased heuristic can never reach the commons (its ceiling
// 0.6 is below 0.7), a clade warning reaches the clade only after
// independent confirmation.
func TestReachExternalNeedsConfirmation(t *testing.T) {
	h, _ := Adopt(entry("h", knowledge.Purchased, 0.6), Origin{}, t0)
	for _, a := range []string{agentB, agentC, agentD, "0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002", "0x0000000000000000000000000000000000000003"} {
		h, _, _ = Confirm(h, Confirmation{ID: a, Provenance: knowledge.Clade, Agent: a, At: t0})
	}
	if h.Validations < 5 || Reach(&h) != ScopeLocal {
		t.Errorf("purchased heuristic with %d validations at %v reaches %v, want local", h.Validations, h.Confidence, Reach(&h))
	}

	w := entry("w", knowledge.Clade, 0.8)
	w.Type = knowledge.TypeWarning
	r, _ := Adopt(w, Origin{}, t0)
	if Reach(&r) != ScopeLocal {
		t.Errorf("unconfirmed clade warning at %v reaches %v, want local", r.Confidence, Reach(&r))
	}
	r, _, _ = Confirm(r, Confirmation{ID: "o1", Provenance: knowledge.Self, At: t0})
	if Reach(&r) != ScopeClade {
		t.Errorf("confirmed clade warning at %v reaches %v, want clade", r.Confidence, Reach(&r))
	}
}

func TestMayList(t *testing.T) {
	for _, tc := range []struct {
		name, actor, owner string
		want               bool
	}{
		{"owner", agentA, agentA, true},
		{"owner in another case", "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", agentA, true},
		{"someone else", agentB, agentA, false},
		{"no actor", "", agentA, false},
		{"no owner", agentA, "", false},
		{"neither", "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MayList(tc.actor, tc.owner); got != tc.want {
				t.Errorf("MayList(%q, %q) = %v, want %v", tc.actor, tc.owner, got, tc.want)
			}
		})
	}
}
