package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
)

// DefaultK is the number of related corpus entries Divergence retrieves when
// k is not positive.
const DefaultK = 8

// maxSubjectHits caps the corpus entries found by subject, beyond the
// embedding neighbours, that Divergence reads per claim.
const maxSubjectHits = 64

// Divergence is Layer 2: it asks whether adding the candidate changes what
// the Grimoire concludes. It retrieves the k corpus entries with claims
// nearest the candidate's embedding, plus entries with a claim on the same
// subject, and for each candidate claim compares the conclusion they hold
// (confidence-weighted) with the candidate's:
//
//   - a reversal of the direction they hold for the same subject and object,
//   - a magnitude for the same subject apart by MagnitudeFactor or more,
//   - a redirection (or new value) of an established subject to an object
//     none of them holds,
//   - the denial of a requirement, implication or bound they hold.
//
// Each finding scores 0.5 to 1 by the weight of the knowledge it overturns;
// Score is the largest, and the layer fails at FailScore. Candidates that
// agree with their neighbours, or speak of subjects the corpus has no claim
// on, pass with score 0.
func Divergence(c Candidate, corpus *Corpus, k int) Vote {
	v := Vote{Layer: knowledge.LayerDivergence, Pass: true}
	if k <= 0 {
		k = DefaultK
	}
	claims := c.claims()
	if corpus == nil || len(claims) == 0 {
		return v
	}
	var near []int
	if u := normalized(c.Embedding); u != nil {
		for _, h := range corpus.nearest(u, k) {
			near = append(near, h.idx)
		}
	}
	for _, cl := range keyAll(claims) {
		if confirmedIdentity(cl, c.Confirmed) {
			continue
		}
		related := slices.Clone(near)
		for _, s := range phraseStems(cl.Subject) {
			for _, i := range corpus.bySubject[s] {
				if len(related) >= len(near)+maxSubjectHits {
					break
				}
				related = append(related, i)
			}
		}
		slices.Sort(related)
		related = slices.Compact(related)
		score, isDirect, reason := diverge(cl, corpus, related)
		if score > v.Score {
			v.Score = score
		}
		if score >= FailScore {
			v.Reasons = append(v.Reasons, reason)
			v.Direct = v.Direct || (score >= ScrutinyDivergence && isDirect)
		}
	}
	v.Pass = v.Score < FailScore
	return Weigh(v)
}

// confirmedIdentity reports whether cl states the identity of an address
// the address book confirms. The book, generated from the protocols' own
// packages, outranks what the Grimoire holds: a corpus entry that gives
// the name another address is wrong or speaks of another chain or issue
// (the book checks the chain and the issue the claim names), so the
// claim does not overturn it.
func confirmedIdentity(cl keyed, confirmed []Address) bool {
	if len(confirmed) == 0 || !strings.HasPrefix(cl.objEnt, "0x") {
		return false
	}
	for _, a := range confirmed {
		if a.String() == cl.objEnt {
			return true
		}
	}
	return false
}

// direct reports whether candidate claim c's conflict of kind k with
// established claim n overturns n outright: a reversal of direction, a
// denial of a requirement, implication or bound, or an identity (an
// address, a URL) replaced by another. A redirection to or from a
// free-text object ("he later moved to ...") and a changed magnitude are
// what claim extraction misreads in ordinary prose, so they are not.
func direct(c, n keyed, k string) bool {
	switch k {
	case "reversal", "denial":
		return true
	case "redirection", "changed value":
		return c.objEnt != "" && n.objEnt != ""
	}
	return false
}

// diverge compares one claim with the related corpus entries' claims and
// returns its score, whether the conflict that scored is direct, and the
// reason.
func diverge(cl keyed, corpus *Corpus, related []int) (float64, bool, string) {
	var against, support float64 // weight of claims the candidate overturns / agrees with
	var againstID string
	var kind string
	var isDirect bool
	for _, i := range related {
		w := 0.5 + 0.5*corpus.conf[i]
		for _, n := range corpus.claims[i] {
			if !cl.sameSubject(n) && !swapped(cl, n) {
				continue
			}
			k := conflict(cl, n)
			switch {
			case k != "":
				d := direct(cl, n, k)
				if w > against || (w == against && d && !isDirect) {
					againstID, kind, isDirect = corpus.ids[i], k, d
				}
				against = max(against, w)
			case agrees(cl, n):
				support = max(support, w)
			}
		}
	}
	if against == 0 || support >= against {
		return 0, false, ""
	}
	score := against
	return score, isDirect, fmt.Sprintf("%s: claim %q %s %q; corpus entry %s holds otherwise", kind, cl.Subject, cl.Relation, cl.Object, againstID)
}

// conflict names how candidate claim c overturns established claim n, or "".
func conflict(c, n keyed) string {
	switch {
	case swapped(c, n):
		if c.Direction == -n.Direction {
			return "reversal"
		}
	case c.Direction != 0 && n.Direction != 0 && c.Object != "" && n.Object != "":
		if c.sameObject(n) && c.Direction == -n.Direction {
			return "reversal"
		}
	case c.Relation == n.Relation && (c.Relation == RelRequires || c.Relation == RelImplies || c.Relation == RelBoundedBy):
		if c.sameObject(n) && c.Negated != n.Negated {
			return "denial"
		}
	case (c.Relation == RelIs || c.Redirect) && (n.Relation == RelIs || n.Redirect):
		if c.Magnitude != nil && n.Magnitude != nil && c.objEnt == "" && n.objEnt == "" {
			if magnitudeClash(c.Magnitude, n.Magnitude) {
				return "magnitude"
			}
			return ""
		}
		if !c.sameObject(n) {
			if c.objEnt != "" && n.objEnt != "" && otherChain(c.Subject, n.Subject) {
				// "USDC on Arbitrum is 0xaf88…" does not overturn "USDC
				// on Base is 0x8335…": a token or contract has one
				// deployment per chain.
				return ""
			}
			if c.Redirect {
				return "redirection"
			}
			return "changed value"
		}
	}
	return ""
}

// agrees reports whether c restates established claim n.
func agrees(c, n keyed) bool {
	switch {
	case swapped(c, n):
		return c.Direction == n.Direction
	case c.Direction != 0 && n.Direction != 0:
		return c.sameObject(n) && c.Direction == n.Direction
	case c.Relation == RelIs || c.Redirect:
		if c.Magnitude != nil && n.Magnitude != nil {
			return !magnitudeClash(c.Magnitude, n.Magnitude)
		}
		return (n.Relation == RelIs || n.Redirect) && c.sameObject(n)
	}
	return c.Relation == n.Relation && c.sameObject(n) && c.Negated == n.Negated
}

func (c Claim) String() string {
	var b strings.Builder
	if c.Negated {
		b.WriteString("not ")
	}
	fmt.Fprintf(&b, "%s %s %s", c.Subject, c.Relation, c.Object)
	return b.String()
}

// otherChain reports whether subjects a and b each name one chain, and
// not the same one.
func otherChain(a, b string) bool {
	ca, cb := onlyChain(a), onlyChain(b)
	return ca != 0 && cb != 0 && ca != cb
}
