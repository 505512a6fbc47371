package validate

import (
	"regexp"
	"strings"
)

// A conclusion drawn without a connective: a sentence that reports one
// past event or dated reading ("the peg held at 0.999 through May", "our
// three withdrawals went through") followed at once by a sentence in the
// generic present or the future that states a leap ("stETH is always worth
// 1 ETH", "withdrawals never fail", "skip the simulation"). Juxtaposition
// is how an inference is most often written; the connective adds nothing.
// The second sentence is read as drawn from the first unless it sets
// itself against it (a contrastive connective, a concession: "but", "still",
// "even so"), hedges (a modal of possibility or an evidential: "may",
// "suggests"), or reports events of its own (a post-mortem's past tense).

var (
	// A contrastive or concessive opening: what follows is held against
	// the observation, not drawn from it.
	reContrast = regexp.MustCompile(`^\W*(?:but|still|yet|however|even\s+so|that\s+said|nevertheless|nonetheless|although|though|while|whereas|despite|in\s+spite|instead|on\s+the\s+other\s+hand|this\s+is\s+(?:a\s+)?(?:good|one)|that\s+is\s+(?:a\s+)?(?:good|one))\b|\b(?:anyway|regardless\s+of\s+(?:this|that|it)|all\s+the\s+same|not\s+a\s+(?:guarantee|promise|proof|rule)|no\s+guarantee|says\s+(?:little|nothing)|is\s+not\s+(?:a\s+)?(?:evidence|proof))\b`)
	// A hedge: a modal of possibility or an evidential verb.
	reHedge = regexp.MustCompile(`\b(?:may|might|could|can\s+still|perhaps|probably|likely|possibly|suggests?|tends?\s+to|seems?|appears?|usually|often|sometimes|in\s+most\s+cases|consistent\s+with)\b`)

	// A regular past verb after a first-person subject (the agent's own
	// experience), or a count of occasions: "our keeper claimed … twenty
	// times".
	rePastRegular = regexp.MustCompile(`\b(?:we|i|our\s+[\w-]+)\s+(?:[\w-]+\s+)?[a-z]{2,}[^e\W]ed\b|\b(?:twice|thrice|(?:\d+|two|three|four|five|six|seven|eight|nine|ten|\w+ty)\s+times)\b`)
	reMayCan      = regexp.MustCompile(`\b(?:may|can)\b`)
	// A change of the agent's own practice reported: "we now allow …".
	reNowWe = regexp.MustCompile(`\b(?:we|i)\s+now\b|\bnow\s+(?:we|i)\b`)
	// A dated reading: a month, a weekday, a quarter or a year after a
	// preposition of time, or "once", "ago".
	reDated = regexp.MustCompile(`\b(?:in|since|during|through|on|by|until)\s+(?:early\s+|late\s+|mid-?)?(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|q[1-4]|20\d\d)\b|\b(?:once|ago)\b`)
	// A past verb with its object ("the team added an allowlist", "we
	// removed the cap"): the sentence reports what was done.
	rePastAct = regexp.MustCompile(`\b(?:had|did|was|were|never\s+[a-z]{2,}[^e\W]ed|[a-z]{2,}[^e\W]ed\s+(?:the|a|an|our|its|their|his|her|my|it|them|us|this|that|no)\b)`)
	// Advice or a warning, not a report: a sentence opening with an
	// imperative of caution.
	reAdviceOpen = regexp.MustCompile(`^\W*(?:don't|do\s+not|never|always|avoid|check|verify|keep|make\s+sure|ensure)\b`)
	// A subordinate clause around the leap: "decides when funds are safe".
	reSubordinate = regexp.MustCompile(`\b(?:when|until|unless|whether|if|once|before|after|where|how)\b`)
	// Idioms with a totality that commit nothing: "all else equal".
	reIdiomAll = regexp.MustCompile(`\ball\s+(?:else|other\s+things|things)\b|\bafter\s+all\b|\bat\s+all\b`)
	// A universal that denies a safeguard's removal protects it: "the
	// banner cannot be disabled".
	// A narrative about people, or reported speech, is not a conclusion of
	// the agent's: "Jefferson never remarried", "officials said all
	// workers are safe".
	reNarrative = regexp.MustCompile(`\b(?:he|she|his|her|him|hers)\b|\b(?:said|says|told|reported|announced|wrote|stated|according\s+to)\b`)
	// Universals too common in ordinary prose to be read as a leap without
	// a connective: "in general", "broken", "all … are".
	reWeakUniversal = regexp.MustCompile(`^(?:in\s+general|regardless|broken|useless|meaningless|worthless|perfectly|proves?|(?:every|all)\s.*)$`)
	reKeptSafeguard = regexp.MustCompile(`\b(?:can(?:not|'t|\s+not)|could\s+never)\s+be\s+(?:disabled|skipped|bypassed|removed|overridden|turned\s+off|ignored|waived|changed|undone|reversed)\b`)
)

// juxtaposedLeap returns the leap sents[i] states when it follows an
// observation without a connective, or "". A sentence with a connective
// of its own is read up to it: the connective's reading covers the rest.
func juxtaposedLeap(sents []string, i int, prev string) string {
	if i == 0 || !event(prev) && !rePastRegular.MatchString(prev) && !rePastAct.MatchString(prev) && !reDated.MatchString(prev) || reAboutAttack.MatchString(prev) || reAdviceOpen.MatchString(prev) || reNarrative.MatchString(prev) {
		return ""
	}
	s := sents[i]
	if m := reInference.FindStringIndex(" " + s); m != nil {
		s = s[:max(0, m[0]-1)]
	}
	// A hedge qualifies a claim, not an instruction: "you may skip the
	// simulation" still removes it.
	hedged := reHedge.MatchString(s) && !(reMayCan.MatchString(s) && unsafeAction(s) != "")
	// A contrast sets a claim against the observation; it does not make
	// removing a safeguard sound ("still, the check is redundant").
	contrasted := reContrast.MatchString(s) && unsafeAction(s) == "" && !reDismissed.MatchString(s)
	if strings.TrimSpace(s) == "" || event(s) || rePastAct.MatchString(s) || contrasted ||
		hedged || reAboutAttack.MatchString(s) || reIdiomAll.MatchString(s) || reKeptSafeguard.MatchString(s) ||
		reNarrative.MatchString(s) || reNowWe.MatchString(s) {
		return ""
	}
	leap := conclusionLeap(s)
	if leap == "" && i+1 < len(sents) {
		// A generic claim, then an instruction that acts on it: "circuit
		// breakers only cause false alarms; disable it".
		leap = removal(sents[i+1])
	}
	if leap == "" || reWeakUniversal.MatchString(leap) || quoted(s, leap) {
		return ""
	}
	if k := strings.Index(s, strings.Fields(leap)[0]); k >= 0 {
		before := s[max(0, k-40):k]
		if j := strings.LastIndexAny(before, ",;:—"); j >= 0 {
			before = before[j+1:]
		}
		if reSubordinate.MatchString(before) {
			return ""
		}
	}
	return leap
}

// quoted reports whether leap sits inside a quotation in s: a quoted
// phrase is mentioned, not asserted.
func quoted(s, leap string) bool {
	for _, q := range reQuoted.FindAllString(s, -1) {
		if strings.Contains(q, leap) {
			return true
		}
	}
	return false
}

// removal returns the safeguard next removes or dismisses, as an
// instruction of its own, or "".
func removal(next string) string {
	if event(next) || rePastAct.MatchString(next) || reContrast.MatchString(next) || reAboutAttack.MatchString(next) ||
		reNarrative.MatchString(next) || reAdviceOpen.MatchString(next) {
		return ""
	}
	if a := unsafeAction(next); a != "" {
		return a
	}
	if m := reDismissed.FindStringIndex(next); m != nil && !reDenied.MatchString(next[:m[0]]) {
		return strings.Join(strings.Fields(next[m[0]:m[1]]), " ")
	}
	return ""
}
