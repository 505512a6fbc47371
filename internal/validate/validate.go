// Package validate is Stage 2 of knowledge ingestion (seed 001): the
// consensus layers that judge a quarantined entry against what the Grimoire
// already holds, as pure, deterministic functions with no I/O and no LLM.
//
//   - L1, Anomaly: embedding-space anomaly detection (TrustRAG). Spherical
//     k-means with k = min(5, n/10) over the corpus, deterministic k-means++
//     seeding; skipped below 50 entries. A candidate fails when its cosine
//     distance to the nearest centroid exceeds the larger of the 99th
//     percentile and mean + 3 sd of the corpus's own member-to-centroid
//     distances. Cluster flags coordinated newcomers: four or more candidates
//     within cosine 0.9 of one another, none within 0.9 of existing knowledge.
//   - L2, Divergence: reasoning divergence without an LLM. Claims are
//     extracted from text (ExtractClaims) and compared with the claims of the
//     K nearest corpus entries and of corpus entries on the same subject: a
//     reversal of the direction they hold, a magnitude changed by a factor of
//     3 or more, or a redirection of an established subject to a new object
//     fails the layer.
//   - L3b, Consistency: mental-model consistency against established
//     mechanics (ShippedModels, or LoadModels for a user's file).
//   - Decide: the seed's consensus, Strictness.Threshold() of the layers.
//   - Batch and Contradictions: the seed's batch validation.
//
// Votes are values: a layer that cannot judge says Skipped, and a layer given
// malformed input (an embedding of the wrong dimension) fails rather than
// passes. Every function is safe for concurrent use; a Corpus fits its k-means
// model once, on first use.
package validate

import (
	"math"

	"github.com/wardhq/ward/internal/knowledge"
)

// Vote is one layer's verdict on a candidate.
type Vote struct {
	Layer knowledge.Layer // LayerAnomaly, LayerDivergence or LayerConsistency
	Pass  bool
	// Skipped reports that the layer could not judge (L1 below MinCorpus
	// entries, or a trusted clade member's entry). A skipped vote neither
	// passes nor fails: see Decide.
	Skipped bool
	Score   float64 // anomaly or divergence score, higher is more suspicious; fails at 1 or more for L1, FailScore for L2 and L3b
	Reasons []string
	// Decisive: this failure rejects without consensus (a provably false
	// claim). Scrutiny: this failure raises the candidate to the Strict
	// threshold (a contradiction of established knowledge, seed 4.4).
	Decisive, Scrutiny bool
	// Signals are the layer's named measurements besides Score (L1's
	// ScoreRareToken), for the report.
	Signals map[string]float64
}

// FailScore is the score at or above which L2 and L3b fail a candidate.
const FailScore = 0.5

// Candidate is an entry under validation with its embedding and claims.
// When Claims is nil the layers extract them from Entry.Content; the entry's
// own structured Claim, if any, is always added.
type Candidate struct {
	Entry     *knowledge.Entry
	Embedding []float32
	Claims    []Claim
}

func (c Candidate) claims() []Claim {
	out := c.Claims
	if out == nil && c.Entry != nil {
		out = ExtractClaims(c.Entry.Content)
	}
	if c.Entry != nil && c.Entry.Claim != nil {
		if k, ok := FromKnowledge(c.Entry.Claim); ok {
			out = append(out[:len(out):len(out)], k)
		}
	}
	return out
}

// Decide applies the consensus threshold of strictness s to votes and
// returns whether the candidate passes and how many layers passed it.
//
// The seed makes s.Threshold() of the three validators necessary (1 for
// Relaxed, 2 for Standard, 3 for Strict and Paranoid) and skips L1 below 50
// entries, relying on the other layers. A skipped vote therefore neither
// passes nor fails: the threshold applies to the layers that ran, capped at
// their number, so with L1 skipped Standard needs both L2 and L3b. If no
// layer ran the candidate fails: nothing vouched for it.
//
// A failing Decisive vote fails the candidate whatever the others say, and a
// failing Scrutiny vote raises the threshold to Strict's.
func Decide(votes []Vote, s knowledge.Strictness) (pass bool, passes int) {
	ran, decisive, scrutiny := 0, false, false
	for _, v := range votes {
		if v.Skipped {
			continue
		}
		ran++
		if v.Pass {
			passes++
			continue
		}
		decisive = decisive || v.Decisive
		scrutiny = scrutiny || v.Scrutiny
	}
	t := s.Threshold()
	if scrutiny {
		t = max(t, knowledge.Strict.Threshold())
	}
	need := min(t, ran)
	if ran == 0 || need < 1 || decisive {
		return false, passes
	}
	return passes >= need, passes
}

// dot returns the dot product of a and b over their common length.
func dot(a, b []float32) float32 {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= n; i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < n; i++ {
		s0 += a[i] * b[i]
	}
	return s0 + s1 + s2 + s3
}

// normalized returns a unit-length copy of v, or nil if v is empty or zero.
func normalized(v []float32) []float32 {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 || math.IsNaN(ss) || math.IsInf(ss, 0) {
		return nil
	}
	inv := float32(1 / math.Sqrt(ss))
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x * inv
	}
	return out
}

// cosine returns the cosine similarity of a and b (0 if either is zero or
// their lengths differ).
func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	na, nb := normalized(a), normalized(b)
	if na == nil || nb == nil {
		return 0
	}
	return float64(dot(na, nb))
}
