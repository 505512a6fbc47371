package validate

import "regexp"

// reConsequence starts the clause a sentence draws from, or gives for, its
// claim: ", so …", ", because …", ", which means …". What follows is a
// second claim (a consequence or a cause), not part of the first claim's
// object: in "higher utilisation lowers the borrow rate, so a pool near 95 %
// is the cheapest place to borrow" the claim is "utilisation decreases
// borrow rate", and read whole its object would name no model's.
var reConsequence = regexp.MustCompile(`(?i),\s*(?:and\s+)?(?:so|thus|hence|therefore|because|since|as\s+a\s+result|meaning|which\s+(?:is\s+why|means))\b|\s(?:because|so\s+that)\b`)

// mainClause returns s without the consequence or cause clause that
// follows its claim, when the part before still holds a verb; else s.
func mainClause(s string) string {
	loc := reConsequence.FindStringIndex(s)
	if loc == nil || loc[0] == 0 {
		return s
	}
	if _, _, _, found := findVerb(s[:loc[0]], false); !found {
		return s
	}
	return s[:loc[0]]
}

// newPredicate are the verbs that, right after "and", start a second
// predicate of the same subject: "stops earning fees and is held in one
// token".
var newPredicate = set("is", "are", "was", "were", "becomes", "become", "remains", "remain", "stays", "stay", "ends", "end", "gets", "get")

// closedBy reports whether the negation at toks[i] is closed before e by
// a second predicate ("and is …"): in "the position stops earning fees and
// is held entirely in one token" the "stops" denies the fees, not what the
// second predicate says.
func closedBy(toks []string, i, e int) bool {
	for k := i + 1; k+1 < min(e, len(toks)); k++ {
		if toks[k] == "and" && newPredicate[toks[k+1]] {
			return true
		}
	}
	return false
}
