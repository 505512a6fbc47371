package validate

import (
	"regexp"
	"strings"
)

// This file reads two shapes of directional claim the subject-verb-object
// parse of sentenceClaim misses: the correlative comparative ("the longer
// the window, the higher the cost") and a verb of direction that an agent
// applies to one quantity as another moves ("lenders lower the rate as
// utilisation rises"). Both state how one quantity moves with another,
// which is what the directional models are about.

// comparatives are the comparative adjectives of magnitude with their
// sign: "the longer X" is X up, "the lower Y" is Y down.
var comparatives = map[string]int{
	"more": 1, "higher": 1, "larger": 1, "greater": 1, "bigger": 1, "longer": 1, "wider": 1, "deeper": 1, "looser": 1, "steeper": 1,
	"less": -1, "fewer": -1, "lower": -1, "smaller": -1, "shorter": -1, "narrower": -1, "shallower": -1, "tighter": -1, "flatter": -1,
}

var reCorrelative = regexp.MustCompile(`(?i)^the\s+([a-z]+)\s+(?:the\s+)?([^,]+?)\s*,\s*the\s+([a-z]+)\s+(?:the\s+)?(.+?)\s*$`)

// subjectWords open a clause whose subject is a person or a pronoun
// rather than a quantity: "the more you borrow, the higher it goes" names
// no quantity to compare.
var subjectWords = map[string]bool{"it": true, "you": true, "they": true, "we": true, "i": true, "he": true, "she": true, "one": true, "this": true, "that": true, "there": true}

// correlativeClaim reads "the Xer A, the Yer B" as A increasing B when
// both comparatives point the same way, decreasing it otherwise. It
// reports false for any other sentence, and when either side opens with
// a pronoun or a person ("the longer you wait, the more it costs").
func correlativeClaim(s string) (Claim, bool) {
	m := reCorrelative.FindStringSubmatch(s)
	if m == nil {
		return Claim{}, false
	}
	s1, ok1 := comparatives[strings.ToLower(m[1])]
	s2, ok2 := comparatives[strings.ToLower(m[3])]
	if !ok1 || !ok2 || opensWithPronoun(m[2]) || opensWithPronoun(m[4]) {
		return Claim{}, false
	}
	subj, obj := phrase(m[2]), phrase(strings.TrimRight(m[4], ".!"))
	if subj == "" || obj == "" {
		return Claim{}, false
	}
	c := Claim{Subject: subj, Object: obj, Direction: s1 * s2, Relation: RelIncreases}
	if c.Direction < 0 {
		c.Relation = RelDecreases
	}
	return c, true
}

func opensWithPronoun(p string) bool {
	f := strings.Fields(strings.ToLower(p))
	return len(f) == 0 || subjectWords[f[0]]
}

var reAsClause = regexp.MustCompile(`(?i)\s+(?:as|when|whenever|while)\s+(?:the\s+)?`)

// agentClaim reads "S VERB Y as X MOVES", where VERB and MOVES are verbs
// of direction and S is whoever acts ("lending markets lower the borrow
// rate as utilisation rises"), as X moving Y: X rising and Y lowered is X
// decreasing Y. The clause after "as" must be a bare quantity and its
// verb, and Y a phrase without a verb of its own; it reports false
// otherwise.
func agentClaim(s string) (Claim, bool) {
	// What follows "so" or ", which" is a further claim, and a comma
	// ends the clause that moves: "… as utilisation rises, so borrowing
	// is cheapest …".
	s = mainClause(strings.TrimRight(strings.TrimSpace(s), ".!"))
	if i := strings.Index(s, ","); i >= 0 {
		s = s[:i]
	}
	ls, le, v, found := agentVerb(s)
	if !found || strings.TrimSpace(s[:ls]) == "" {
		return Claim{}, false
	}
	rest := s[le:]
	loc := reAsClause.FindStringIndex(rest)
	if loc == nil {
		return Claim{}, false
	}
	y, x := rest[:loc[0]], rest[loc[1]:]
	if _, _, _, found := findVerb(y, false); found {
		return Claim{}, false
	}
	xs, xe, xv, found := findVerb(x, true)
	if !found || strings.TrimSpace(x[xe:]) != "" || xs == 0 || reNeg.MatchString(s) {
		return Claim{}, false
	}
	subj, sSign := modified(x[:xs])
	obj, oSign := modified(y)
	if subj == "" || obj == "" || opensWithPronoun(x) {
		return Claim{}, false
	}
	d := v.dir * xv.dir
	if sSign != 0 {
		d *= sSign
	}
	if oSign != 0 {
		d *= oSign
	}
	c := Claim{Subject: subj, Object: obj, Direction: d, Relation: RelIncreases}
	if d < 0 {
		c.Relation = RelDecreases
	}
	return c, true
}

// agentVerb finds the first verb of direction in s, as findVerb does, but
// also reads "lower" as a verb (findVerb leaves it out: it is mostly the
// adjective) where no determiner or copula comes right before it.
func agentVerb(s string) (start, end int, v verb, ok bool) {
	ls, le, v, found := findVerb(s, true)
	lower := strings.ToLower(s)
	for i := 0; ; {
		k := strings.Index(lower[i:], " lower ")
		if k < 0 || found && i+k >= ls {
			break
		}
		at := i + k
		f := strings.Fields(lower[:at])
		if len(f) > 0 && !determined(lower[:at]) && !copulas[f[len(f)-1]] {
			return at + 1, at + len(" lower"), verb{RelDecreases, -1}, true
		}
		i = at + 1
	}
	return ls, le, v, found
}

var copulas = map[string]bool{"is": true, "are": true, "was": true, "were": true, "be": true, "much": true, "even": true, "far": true, "a": true, "no": true}
