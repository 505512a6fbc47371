package poisoning

import (
	"testing"

	"github.com/wardhq/ward/internal/ingest"
	"github.com/wardhq/ward/internal/knowledge"
)

// Per-layer counts on hand-built outcomes where it is known which layer
// flags which row: a layer counts a row it voted against whether or not it
// decided, a skipped vote counts nowhere, and the deciding check counts
// once even when it also voted.
func TestLayerCounts(t *testing.T) {
	l1, l2, l3b := knowledge.LayerAnomaly, knowledge.LayerDivergence, knowledge.LayerConsistency
	vote := func(l knowledge.Layer, pass bool) ingest.Vote { return ingest.Vote{Layer: l, Pass: pass} }
	rows := []Row{
		{Label: "poison", AttackClass: "minja"},                  // content screen, no votes
		{Label: "poison", AttackClass: "semantic_contradiction"}, // L2 decides, L1 also against
		{Label: "poison", AttackClass: "semantic_contradiction"}, // missed, L3b outvoted
		{Label: "clean"}, // adopted, L1 outvoted
		{Label: "clean"}, // L2 decides: a false positive
		{Label: "clean"}, // oracle
		{},               // unlabelled: counts nowhere
	}
	out := []Outcome{
		{Caught: "stage1/content", Decider: "content"},
		{Caught: "stage2/L2", Decider: "L2", Votes: []ingest.Vote{vote(l1, false), vote(l2, false), vote(l3b, true)}},
		{Adopted: true, Votes: []ingest.Vote{vote(l1, true), vote(l2, true), vote(l3b, false)}},
		{Adopted: true, Votes: []ingest.Vote{vote(l1, false), vote(l2, true), vote(l3b, true)}},
		{Caught: "stage2/L2", Decider: "L2", Votes: []ingest.Vote{{Layer: l1, Skipped: true}, vote(l2, false), vote(l3b, true)}},
		{Caught: "oracle", Decider: "oracle"},
		{Caught: "oracle", Decider: "oracle", Votes: []ingest.Vote{vote(l2, false)}},
	}
	rep := &Report{}
	if err := rep.Score(rows, out); err != nil {
		t.Fatal(err)
	}
	rep.Finish()
	type class = map[string]LayerClass
	want := map[string]struct {
		poison, clean, decided, cleanDecided, judgedP, judgedC int
		classes                                                class
	}{
		"content": {1, 0, 1, 0, 0, 0, class{"minja": {1, 1}}},
		"L1":      {1, 1, 0, 0, 2, 1, class{"semantic_contradiction": {1, 0}}},
		"L2":      {1, 1, 2, 1, 2, 2, class{"semantic_contradiction": {1, 1}}},
		"L3b":     {1, 0, 0, 0, 2, 2, class{"semantic_contradiction": {1, 0}}},
		"oracle":  {0, 1, 1, 1, 0, 0, class{}},
	}
	if len(rep.Layers) != len(want) {
		t.Errorf("layers %v, want %d", Names(rep.Layers), len(want))
	}
	for name, w := range want {
		l := rep.Layers[name]
		if l == nil {
			t.Errorf("%s: missing", name)
			continue
		}
		got := [6]int{l.PoisonFlagged, l.CleanFlagged, l.Decided, l.CleanDecided, l.PoisonJudged, l.CleanJudged}
		if exp := [6]int{w.poison, w.clean, w.decided, w.cleanDecided, w.judgedP, w.judgedC}; got != exp {
			t.Errorf("%s: poison, clean flagged, decided, clean decided, judged = %v, want %v", name, got, exp)
		}
		if len(l.Classes) != len(w.classes) {
			t.Errorf("%s: classes %v, want %v", name, l.Classes, w.classes)
		}
		for c, wc := range w.classes {
			if gc := l.Classes[c]; gc == nil || *gc != wc {
				t.Errorf("%s %s: %+v, want %+v", name, c, gc, wc)
			}
		}
	}
}

// Through the real pipeline: the seeded fact's reversal is flagged and
// decided by L2 (decisive: it overturns the agent's own knowledge held at
// 0.8), the injection by the content screen, and no layer flags the clean
// entry.
func TestRunFilesLayers(t *testing.T) {
	rep, err := RunFiles(t.Context(), "testdata/seed.jsonl", []string{"testdata/incoming.jsonl"}, Options{Strictness: knowledge.Standard})
	if err != nil {
		t.Fatal(err)
	}
	if l := rep.Layers["L2"]; l == nil || l.Decided != 1 || l.CleanFlagged != 0 || l.Classes["semantic_contradiction"] == nil ||
		*l.Classes["semantic_contradiction"] != (LayerClass{Flagged: 1, Decided: 1}) {
		t.Errorf("L2: %+v\n%s", l, rep.Text())
	}
	if l := rep.Layers["content"]; l == nil || l.PoisonFlagged != 1 || l.Classes["prompt_injection"] == nil {
		t.Errorf("content: %+v", l)
	}
	for n, l := range rep.Layers {
		if l.CleanFlagged != 0 {
			t.Errorf("%s flagged %d clean", n, l.CleanFlagged)
		}
	}
	if l := rep.Layers["L2"]; l != nil && l.PoisonJudged+l.CleanJudged != 2 {
		t.Errorf("L2 judged %d poison, %d clean; want the contradiction and the clean entry", l.PoisonJudged, l.CleanJudged)
	}
}
