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
//   - Decide: the seed's consensus, Strictness.Threshold() of the layers,
//     after Weigh has given each failing vote its strength; Tally is its
//     rule over votes already weighed, which the pipeline calls.
//   - Batch and Contradictions: the seed's batch validation.
//
// A layer can reject on its own evidence. Consensus alone lets two passing
// layers outvote a third that found the candidate overturning what the
// agent knows, and L1 and L3b pass almost everything, so Weigh grades a
// failing vote by the strength of its evidence before Decide counts it:
//
//   - Decisive (rejects whatever the others say): L2 finds a direct
//     conflict (Vote.Direct: a reversal, a denial, or a redirection to
//     another address or URL) with a claim held at confidence 0.8 or more
//     (Score >= StrongDivergence); L1 puts the
//     candidate at StrongAnomaly (twice) or more of the corpus's own outlier
//     distance. A layer may also set Decisive itself (a provably false
//     claim; a contradiction of a mental model held at high confidence; a
//     second L1 signal such as a rare-token score), and Weigh keeps it.
//   - Scrutiny (the Strict threshold: every layer that ran must pass, so
//     the failing layer is not outvoted): a direct L2 conflict with
//     knowledge held at 0.5 or more (Score >= ScrutinyDivergence), and an
//     unconditional contradiction of a mental model by L3b (Score >=
//     ScrutinyConsistency; the seed: a contradiction "is not an automatic
//     rejection, but triggers additional scrutiny").
//   - A plain vote, which consensus may outvote: L1 between 1 and 2 (by
//     construction about 1 % of the agent's own knowledge lies beyond the
//     corpus's p99), L2 against weakly held knowledge or on a changed
//     magnitude or a free-text redirection (claim extraction misreads
//     ordinary prose: "patient 462", "he later moved to"), and L3b under
//     conditions its model does not name ("models can be wrong for novel
//     conditions").
//
// The bars are set by who can plant the evidence, not by a data set. An
// attacker who wants to keep good knowledge out must make a layer fail on
// it: L2 is decisive only against knowledge held at 0.8 or more, which
// external entries never reach at adoption (ingest: 0.2 at most), so only
// the agent's own or long-confirmed knowledge can veto; L1's decisive bar
// is twice the spread of the agent's own corpus, which a single outlier
// barely moves; L3b's models ship with ward or are the operator's.
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
	// threshold (a contradiction of established knowledge, seed 4.4). Weigh
	// sets them from the layer's evidence; a layer may set them itself.
	Decisive, Scrutiny bool
	// Direct: an L2 failure overturns a claim outright, at ScrutinyDivergence
	// or more: a reversal of its direction, a denial of its requirement,
	// implication or bound, or a redirection of its subject to another
	// identity (address, URL). A changed magnitude and a redirection to a
	// free-text object, which claim extraction misreads in ordinary prose,
	// are not direct.
	Direct bool
	// Signals are the layer's named measurements besides Score (L1's
	// ScoreRareToken), for the report.
	Signals map[string]float64
}

// Strength bars of Weigh (see the package comment). L2's score is
// 0.5 + 0.5 × the confidence of the knowledge a candidate overturns; L3b's
// is 0.9 for an unconditional contradiction of a mental model and 0.6 for
// one under conditions the model does not name; L1's is the distance over
// the corpus's own outlier distance.
const (
	StrongDivergence    = 0.9  // overturns knowledge held at 0.8 or more
	ScrutinyDivergence  = 0.75 // overturns knowledge held at 0.5 or more
	ScrutinyConsistency = 0.9  // an unconditional contradiction
	StrongAnomaly       = 2.0  // twice the corpus's outlier distance
)

// Weigh returns v with Decisive or Scrutiny set when it fails on evidence
// strong enough to reject on its own (see the package comment); a passing
// or skipped vote, and a vote of another layer, are returned unchanged.
// Flags a layer set itself are kept, so Weigh is idempotent.
func Weigh(v Vote) Vote {
	if v.Pass || v.Skipped {
		return v
	}
	switch v.Layer {
	case knowledge.LayerAnomaly:
		emb := v.Score
		if r, ok := v.Signals[ScoreEmbeddingRatio]; ok {
			emb = r
		}
		v.Decisive = v.Decisive || emb >= StrongAnomaly
	case knowledge.LayerDivergence:
		v.Decisive = v.Decisive || (v.Direct && v.Score >= StrongDivergence)
		v.Scrutiny = v.Scrutiny || (v.Direct && v.Score >= ScrutinyDivergence)
	case knowledge.LayerConsistency:
		v.Scrutiny = v.Scrutiny || v.Score >= ScrutinyConsistency
	}
	return v
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
	// Confirmed holds the addresses the address book confirms the entry
	// names as what they are (BookResult.Confirmed): L2 does not read a
	// claim of such an identity as changed against the Grimoire.
	Confirmed []Address
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
// Each vote is weighed first (Weigh), then counted by Tally: a failing
// Decisive vote fails the candidate whatever the others say, and a failing
// Scrutiny vote raises the threshold to Strict's.
func Decide(votes []Vote, s knowledge.Strictness) (pass bool, passes int) {
	weighed := make([]Vote, len(votes))
	for i, v := range votes {
		weighed[i] = Weigh(v)
	}
	c := Tally(weighed, s, false)
	return c.Pass, c.Passes
}

// Consensus is what Tally concluded from a candidate's votes. The zero
// value fails the candidate.
type Consensus struct {
	Pass bool
	// Passes and Ran count the votes that passed and that were not skipped.
	Passes, Ran int
	// Need is the number of passes the candidate needed: the strictness's
	// threshold, raised to Strict's by scrutiny, capped at Ran, at least 1.
	Need int
	// Decisive is the layer of the first failing Decisive vote, Raised of
	// the first failing Scrutiny vote; knowledge.NoLayer for none. They say
	// why for a report; Pass alone is the decision.
	Decisive, Raised knowledge.Layer
}

// Tally is the consensus rule of Decide over votes as they are, without
// weighing them: the caller has (ingest's layers weigh their own votes). A
// skipped vote counts neither way; a failing Decisive vote fails the
// candidate; a failing Scrutiny vote, or scrutiny (the caller's own reason
// to look harder), raises the threshold of s to Strict's. The threshold is
// capped at the number of votes that ran, and is at least 1, so a
// candidate no layer judged fails.
func Tally(votes []Vote, s knowledge.Strictness, scrutiny bool) Consensus {
	var c Consensus
	decisive, raised := false, false
	for _, v := range votes {
		if v.Skipped {
			continue
		}
		c.Ran++
		if v.Pass {
			c.Passes++
			continue
		}
		if v.Decisive && !decisive {
			decisive, c.Decisive = true, v.Layer
		}
		if v.Scrutiny && !raised {
			raised, c.Raised = true, v.Layer
		}
	}
	t := s.Threshold()
	if scrutiny || raised {
		t = max(t, knowledge.Strict.Threshold())
	}
	c.Need = max(1, min(t, c.Ran))
	c.Pass = !decisive && c.Passes >= c.Need
	return c
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
