package ingest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
)

// legacyConsensus is Pipeline.consensus as it was before it called
// validate.Tally (its own copy of validate.Decide's rule), kept as the
// reference TestConsensusAsBefore holds the shared rule to.
func legacyConsensus(p *Pipeline, x *subject, b ballot, scrutiny string) decision {
	need, ran := p.cfg.Strictness.Threshold(), 0
	var decisive, raised knowledge.Layer
	for _, v := range b.votes {
		if v.Skipped {
			continue
		}
		ran++
		switch {
		case v.Pass:
		case v.Decisive && decisive == knowledge.NoLayer:
			decisive = v.Layer
		case v.Scrutiny && raised == knowledge.NoLayer:
			raised = v.Layer
		}
	}
	if raised != knowledge.NoLayer || scrutiny != "" {
		need = max(need, knowledge.Strict.Threshold())
	}
	need = max(1, min(need, ran))
	x.r.Scores["consensus"] = float64(len(b.passed))
	if len(b.passed) < need || decisive != knowledge.NoLayer {
		f := legacyDissent(p, b, need, decisive, raised, scrutiny)
		return decision{reject: &f}
	}
	return decision{passed: b.passed, trusted: b.trusted}
}

func legacyDissent(p *Pipeline, b ballot, need int, decisive, raised knowledge.Layer, scrutiny string) fault {
	why := []string{fmt.Sprintf("%d of %d votes passed, %s needs %d", len(b.passed), knowledge.Validators, p.cfg.Strictness, need)}
	switch {
	case decisive != knowledge.NoLayer:
		why[0] = decisive.String() + " is decisive: its failure rejects the entry without consensus"
	case raised != knowledge.NoLayer:
		why[0] = fmt.Sprintf("%d of %d votes passed; %s raised scrutiny, which needs %d", len(b.passed), knowledge.Validators, raised, need)
	case scrutiny != "":
		why[0] = fmt.Sprintf("%d of %d votes passed; %s, which raises scrutiny to %d", len(b.passed), knowledge.Validators, scrutiny, need)
	}
	layer := decisive
	if layer == knowledge.NoLayer {
		layer = raised
	}
	code := reason.KnowledgeConsensusFailed
	for _, v := range b.votes {
		if v.Pass || v.Skipped {
			continue
		}
		if layer == knowledge.NoLayer {
			layer = v.Layer
		}
		if v.Decisive && v.Layer == decisive && v.Code != "" {
			code = v.Code
		}
		for _, s := range v.Reasons {
			why = append(why, v.Layer.String()+": "+s)
		}
	}
	return fault{stage: StageStage2, layer: layer, attack: classify(layer), code: code, why: why, stored: true}
}

// consensusLayers are the layers a Stage 2 vote can carry (Pipeline.vote
// gives a vote of no layer its validator's).
var consensusLayers = []knowledge.Layer{knowledge.LayerAnomaly, knowledge.LayerDivergence, knowledge.LayerOnChain, knowledge.LayerConsistency}

// consensusVotes are the kinds of vote a layer can cast, flags that only
// count on a failure included.
var consensusVotes = []Vote{
	{Skipped: true},
	{Skipped: true, Decisive: true, Scrutiny: true},
	{Pass: true},
	{Pass: true, Decisive: true, Scrutiny: true},
	{},
	{Decisive: true},
	{Decisive: true, Code: reason.KnowledgeVerifiableFalse},
	{Scrutiny: true},
	{Decisive: true, Scrutiny: true},
	{Decisive: true, Scrutiny: true, Code: reason.KnowledgeVerifiableFalse},
}

// TestConsensusAsBefore holds Pipeline.consensus, which decides by
// validate.Tally, to the rule it kept itself before (legacyConsensus): the
// same decision, fault and consensus score for every ballot of up to three
// votes of every kind and layer, and for random longer ones, at every
// strictness, with and without the batch's scrutiny.
func TestConsensusAsBefore(t *testing.T) {
	levels := []knowledge.Strictness{0, knowledge.Relaxed, knowledge.Standard, knowledge.Strict, knowledge.Paranoid, 9}
	kinds := len(consensusVotes) * len(consensusLayers)
	ballotOf := func(picks []int) ballot {
		var b ballot
		for i, k := range picks {
			v := consensusVotes[k%len(consensusVotes)]
			v.Layer = consensusLayers[k/len(consensusVotes)]
			v.Score = float64(i) / 4
			v.Reasons = []string{fmt.Sprintf("reason %d", i)}
			b.votes = append(b.votes, v)
			if v.Pass && !v.Skipped {
				b.passed = append(b.passed, v.Layer.String())
			}
		}
		b.trusted = len(picks)%2 == 1
		return b
	}
	var ballots []ballot
	var grow func(picks []int)
	grow = func(picks []int) {
		ballots = append(ballots, ballotOf(picks))
		if len(picks) == 3 {
			return
		}
		for k := range kinds {
			grow(append(picks[:len(picks):len(picks)], k))
		}
	}
	grow(nil)
	rng := rand.New(rand.NewPCG(20, 16))
	for range 5000 {
		picks := make([]int, 4+rng.IntN(3))
		for i := range picks {
			picks[i] = rng.IntN(kinds)
		}
		ballots = append(ballots, ballotOf(picks))
	}
	var rejected, passed int
	for _, s := range levels {
		p := &Pipeline{cfg: Config{Strictness: s}}
		for _, scrutiny := range []string{"", "the batch holds a contradiction"} {
			for _, b := range ballots {
				gx := &subject{r: &Report{Scores: map[string]float64{}}}
				wx := &subject{r: &Report{Scores: map[string]float64{}}}
				got, want := p.consensus(gx, b, scrutiny), legacyConsensus(p, wx, b, scrutiny)
				if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gx.r.Scores, wx.r.Scores) {
					t.Fatalf("%s, scrutiny %q, votes %+v:\ngot  %+v %+v %v\nwant %+v %+v %v",
						s, scrutiny, b.votes, got, got.reject, gx.r.Scores, want, want.reject, wx.r.Scores)
				}
				if got.reject != nil {
					rejected++
				} else {
					passed++
				}
			}
		}
	}
	t.Logf("%d ballots: %d rejected, %d passed, as before", rejected+passed, rejected, passed)
}

// TestConsensusNoLayerFailsClosed: a failing Decisive vote rejects the
// entry whatever layer it names. The pipeline's own rule took a vote of no
// layer (a Validator whose Layer is knowledge.NoLayer) for no veto and
// passed the entry; validate.Decide never did.
func TestConsensusNoLayerFailsClosed(t *testing.T) {
	p := &Pipeline{cfg: Config{Strictness: knowledge.Relaxed}}
	b := ballot{
		votes:  []Vote{{Layer: knowledge.LayerAnomaly, Pass: true}, {Layer: knowledge.LayerDivergence, Pass: true}, {Decisive: true, Scrutiny: true}},
		passed: []string{knowledge.LayerAnomaly.String(), knowledge.LayerDivergence.String()},
	}
	x := &subject{r: &Report{Scores: map[string]float64{}}}
	if d := p.consensus(x, b, ""); d.reject == nil {
		t.Fatalf("consensus passed %v over a decisive failure of no layer, want a rejection", d.passed)
	}
}
