package ingest

import (
	"context"
	"slices"
	"sync"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/trust/canon"
	"github.com/wardhq/ward/internal/validate"
	"github.com/wardhq/ward/internal/validate/reasoning"
)

// Stage2 returns the three layers of Stage 2 consensus (seed 001) as
// validators over the Grimoire view: L1 embedding-space anomaly, L2
// reasoning divergence over claims and neighbours, L3b consistency with
// mental models (models nil: the ones shipped with ward). They share one
// validate.Corpus, rebuilt when the Grimoire has grown by a tenth (fitting
// its k-means model costs about 0.35 s for 10,000 entries, so not per
// entry); claims extracted from an entry's text are kept per entry.
// Options add to the layers (WithReasoner); without any, the layers are
// deterministic. Every vote is weighed (validate.Weigh): a failure on
// strong evidence is Decisive, a weaker one of L2 or L3b raises Scrutiny.
func Stage2(models []validate.Model, opts ...Stage2Option) ([]Validator, error) {
	var o stage2Options
	for _, opt := range opts {
		opt(&o)
	}
	if models == nil {
		var err error
		if models, err = validate.ShippedModels(); err != nil {
			return nil, err
		}
	}
	c := &corpusCache{claims: map[string][]validate.Claim{}, texts: map[string]string{}}
	var l2 Validator = layer{l: knowledge.LayerDivergence, c: c, vote: func(cand validate.Candidate, corpus *validate.Corpus) validate.Vote {
		return validate.Divergence(cand, corpus, validate.DefaultK)
	}}
	if o.reasoner != nil {
		l2 = reasonedLayer{claims: l2.(layer), r: o.reasoner}
	}
	return []Validator{
		layer{l: knowledge.LayerAnomaly, c: c, vote: func(cand validate.Candidate, corpus *validate.Corpus) validate.Vote {
			return validate.Anomaly(cand, corpus)
		}},
		l2,
		layer{l: knowledge.LayerConsistency, c: c, vote: func(cand validate.Candidate, _ *validate.Corpus) validate.Vote {
			v := validate.Consistency(cand, models)
			// The model of the agent's own operation: no input's wording
			// lifts a safety control (validate.TriggeredOverride).
			if t := validate.Trigger(cand.Entry); !t.Pass && !t.Skipped {
				t.Reasons = append(t.Reasons, v.Reasons...)
				return t
			}
			// The same model where the trigger is not named: a safeguard
			// scoped away from inputs that carry a token
			// (validate.GatedRelaxation) raises scrutiny.
			if g := validate.Gate(cand.Entry); !g.Pass && !g.Skipped {
				g.Reasons = append(g.Reasons, v.Reasons...)
				return g
			}
			// The model of evidence and risk: one observation does not
			// justify an all-in commitment (validate.BlendedConclusion).
			if b := validate.Blend(cand.Entry); !b.Pass && !b.Skipped {
				b.Reasons = append(b.Reasons, v.Reasons...)
				return b
			}
			// The model of who sets the agent's controls: no condition,
			// date or procedure step lifts one (validate.LoosenedControl).
			if l := validate.Loosen(cand.Entry); !l.Pass && !l.Skipped {
				l.Reasons = append(l.Reasons, v.Reasons...)
				return l
			}
			return v
		}},
	}, nil
}

// Stage2Option adds to the layers Stage2 returns.
type Stage2Option func(*stage2Options)

type stage2Options struct {
	reasoner *reasoning.Reasoner
}

// WithReasoner makes L2 also ask r whether the entry diverges the
// reasoning over its related memories. The L2 vote then fails if either
// the claim divergence or r's divergence fails, scores the larger of the
// two and gives both reasons; it raises scrutiny (the Strict threshold)
// only when r's divergence fails. An error of r is the layer's error: the
// entry stays in quarantine. A nil r changes nothing.
func WithReasoner(r *reasoning.Reasoner) Stage2Option {
	return func(o *stage2Options) { o.reasoner = r }
}

// layer adapts one validate layer to a Validator.
type layer struct {
	l    knowledge.Layer
	c    *corpusCache
	vote func(validate.Candidate, *validate.Corpus) validate.Vote
}

func (l layer) Layer() knowledge.Layer { return l.l }

func (l layer) Validate(ctx context.Context, c *Candidate, g *Grimoire) (Vote, error) {
	if err := ctx.Err(); err != nil {
		return Vote{}, err
	}
	cand := validate.Candidate{Entry: c.Entry, Embedding: c.Embedding, Confirmed: c.Confirmed}
	v := validate.Weigh(l.vote(cand, l.c.corpus(g)))
	return Vote{Layer: v.Layer, Pass: v.Pass, Skipped: v.Skipped, Score: v.Score, Reasons: v.Reasons, Decisive: v.Decisive, Scrutiny: v.Scrutiny, Signals: v.Signals}, nil
}

// reasonedLayer is L2 with a Reasoner: the claim divergence of claims
// and the reasoning divergence of r.
type reasonedLayer struct {
	claims layer
	r      *reasoning.Reasoner
}

func (l reasonedLayer) Layer() knowledge.Layer { return l.claims.Layer() }

func (l reasonedLayer) Validate(ctx context.Context, c *Candidate, g *Grimoire) (Vote, error) {
	v, err := l.claims.Validate(ctx, c, g)
	if err != nil {
		return Vote{}, err
	}
	d, err := l.r.Diverge(ctx, reasoningCandidate(c), memoryOf(g))
	if err != nil {
		return Vote{}, err
	}
	if d.Skipped {
		return v, nil
	}
	v.Reasons = append(slices.Clip(v.Reasons), d.Reasons...)
	v.Score = max(v.Score, d.Score)
	if d.Fail {
		if v.Pass {
			l.r.CountAlone()
		}
		v.Pass, v.Scrutiny = false, true
	}
	return v, nil
}

// reasoningCandidate is c as the Reasoner reads it (nil: nil).
func reasoningCandidate(c *Candidate) *reasoning.Candidate {
	if c == nil {
		return nil
	}
	return &reasoning.Candidate{Entry: c.Entry, Embedding: c.Embedding, Claims: c.Claims}
}

// grimoireMemory is a Grimoire as the Reasoner searches it.
type grimoireMemory struct{ g *Grimoire }

// memoryOf returns g as a reasoning.Memory; a nil g is a nil Memory.
func memoryOf(g *Grimoire) reasoning.Memory {
	if g == nil {
		return nil
	}
	return grimoireMemory{g}
}

func (m grimoireMemory) Search(q []float32, k int) []reasoning.Neighbour {
	ns := m.g.Search(q, k)
	out := make([]reasoning.Neighbour, len(ns))
	for i, n := range ns {
		out[i] = reasoning.Neighbour{ID: n.Entry.ID, Content: n.Entry.Content, Score: n.Score}
	}
	return out
}

// corpusCache holds the Corpus of a Grimoire view, rebuilt as it grows.
type corpusCache struct {
	mu     sync.Mutex
	built  int
	cur    *validate.Corpus
	claims map[string][]validate.Claim // entry id → claims from its text
	texts  map[string]string           // entry id → its canonical text
}

// text returns the canonical text of entry id's content, kept per entry;
// the caller holds cc.mu.
func (cc *corpusCache) text(id, content string) string {
	t, ok := cc.texts[id]
	if !ok {
		t = canon.Text(content)
		cc.texts[id] = t
	}
	return t
}

func (cc *corpusCache) corpus(g *Grimoire) *validate.Corpus {
	n := g.Len()
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.cur != nil && (n == cc.built || (cc.built >= validate.MinCorpus && n < cc.built+cc.built/10)) {
		return cc.cur
	}
	all := g.All()
	entries := make([]validate.CorpusEntry, 0, len(all))
	for _, k := range all {
		id := k.Entry.ID
		cl, ok := cc.claims[id]
		if !ok {
			cl = validate.ExtractClaims(cc.text(id, k.Entry.Content))
			for _, kc := range k.Claims {
				if c, ok := validate.FromKnowledge(&kc); ok {
					cl = append(cl, c)
				}
			}
			cc.claims[id] = cl
		}
		entries = append(entries, validate.CorpusEntry{ID: id, Embedding: k.Embedding, Claims: cl, Confidence: k.Confidence, Text: cc.text(id, k.Entry.Content)})
	}
	cc.cur, cc.built = validate.NewCorpus(entries), n
	return cc.cur
}
