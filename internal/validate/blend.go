package validate

import (
	"regexp"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
)

// Blended observations: a true-sounding measurement ("the pool had low
// volume today", "the health factor is 1.4") followed by an inference ("so",
// "therefore", "which means") to a conclusion that commits everything or
// removes a safety margin ("move all liquidity to …", "it is safe to borrow
// the maximum"). The check is a mental model of how evidence relates to
// risk: one observation of the world's state — a number, a reading at a
// time, a past event — describes the moment it was taken; markets, rates
// and oracles move, so it cannot establish that an all-in commitment is
// sound or that a safeguard has become unnecessary. Sound knowledge draws a
// bounded conclusion from an observation ("low volume means fewer fees"),
// or warns against the leap; a poisoned entry uses the observation to carry
// the leap past the reader. The vocabulary is that of inference, of
// commitment of funds and of safety margins, not of any data set.

// BlendModel is the statement of the model the check holds entries to.
const BlendModel = "A single observation of a market's state does not justify committing all funds or removing a safety margin"

var (
	// An inferential connective: what follows is drawn from what precedes.
	// "so" counts only after a clause break (", so"), and not in "so far",
	// "so that", "so on".
	reInference    = regexp.MustCompile(`(?:^\s*|[,;]\s*|\s[-–—]+\s*)(?:and\s+)?(?:so\b|since\s+[^,]{3,60},)|\s(?:therefore|thus|hence|consequently|meaning|proving|proves?|(?:which|this|that|it)\s+(?:means|proves|shows|confirms|implies|guarantees|indicates)|(?:is|was)\s+(?:enough|sufficient)\s+(?:evidence|proof))\b`)
	reNotInference = regexp.MustCompile(`^\s*(?:far|that|on|called|much|many|long|too|as)\b`)
	// An observation: a measured number, a reading at a time, a past
	// event, or a run of experience ("during every test", "in a row").
	reObservation = regexp.MustCompile(`\d|\b(?:during|in\s+(?:every|each|all)|(?:every|each)\s+(?:time|test|trial|day|week|run)|in\s+a\s+row|consecutive|without\s+(?:an?\s+|any\s+)?(?:incident|issue|problem|failure|loss))\b|\b(?:today|yesterday|tonight|this\s+(?:morning|week|month|quarter|year|epoch|cycle)|last\s+(?:week|month|night|quarter|year|epoch)|right\s+now|currently|at\s+the\s+moment|so\s+far|recently|lately|had|was|were|has\s+been|have\s+been|rose|fell|dropped|doubled|tripled|halved|turned|recovered|jumped|spiked|surged|processed|passed|matched|updated|withdrew|deposited|traded|grew|shrank)\b`)

	// A commitment of everything: a fund-moving verb with a totality. A
	// totality without the agent's verb ("a cascade can take the whole
	// position") describes a risk, not a commitment.
	reAllIn = []*regexp.Regexp{
		regexp.MustCompile(`\b(?:open|opening|enter|entering|approve|approving|route|routing|hold|holding|move|moving|deposit|depositing|sell|selling|buy|buying|migrate|migrating|put|putting|withdraw|withdrawing|bridge|bridging|send|sending|pull|pulling|swap|swapping|invest|investing|stake|staking|loop|looping|allocate|allocating|shift|shifting|rotate|rotating|submit|execute|ape|dump|dumping|lend|lending|supply|supplying|commit|committing|keep|keeping)\b(?:\W+\w+){0,5}?\W+(?:all|everything|entire|whole|100\s*%|full)\b`),
		regexp.MustCompile(`\bfull\s+(?:balance|allocation|amount|position|treasury|stack|portfolio|bag)\b|\b(?:borrow|leverage|lever|loop)\b(?:\W+\w+){0,3}?\W+(?:more|max(?:imum|ed)?|at\s+the\s+max(?:imum)?)\b|\bleverage\s+can\s+be\s+max\w*|\b\d+x\s+(?:leverage|long|short)\b`),
	}
	// A removed safety margin stated as a fact: safe, no need, no risk,
	// never, impossible.
	reDeniedSafe = regexp.MustCompile(`^(?:is|are|it's|be|remains?|stays?)\s+(?:not|never|hardly|rarely|less|only|un\w+)\b`)
	// A totality lost is a risk, not a commitment: "buying below peg can
	// lose everything".
	reLostAll = regexp.MustCompile(`\blos[et]\w*\b`)
	reNoRisk  = regexp.MustCompile(`\b(?:is|are|it's|be|remains?|stays?)\s+(?:\w+\s+){0,2}?(?:safe|fine|secure|riskless|harmless|sustainable|trustworthy)\b|\bsafe\s+to\b|\bno\s+(?:need|point|reason)\b|\bneeds?\s+no\b|\bno\s+(?:\w+\s+)?(?:buffer|margin|check|monitoring|limit|stop)s?\s+(?:is\s+|are\s+)?(?:needed|required|necessary)\b|\b(?:can|could|will)\s+never\b|\bcan(?:not|'t|\s+not)\s+(?:be\s+)?(?:liquidat\w*|lose|fail|depeg\w*|contain|manipulat\w*|go\s+wrong|happen)\b|\bimpossible\b|\bno\s+(?:\w+\s+){0,2}?(?:risk|downside|danger)\b|\bguarantee[sd]?\b|\bleft\s+unattended\b|\bwithout\s+(?:re-?)?(?:check\w*|verif\w*|review\w*|monitor\w*)|\bcan\s+be\s+(?:ignored|skipped|trusted|dropped|removed|disabled|turned\s+off)\b|\bturn\s+(?:it|them|this|that)\s+off\b|\b(?:is|are)\s+(?:unnecessary|not\s+needed|noise|priced\s+in)\b|\bnot\s+a\s+real\s+risk\b|\bno\s+min(?:imum)?\s+(?:output|out|amount)\b|\bnegligible\b`)
)

// The universal generalisation of one observation, a leap of its own,
// and the further ways an observation and an inference are written.
var (
	// "X means Y" of any subject, and a back-reference to the observation
	// by its degree ("TVL that high", "slippage this low").
	reInferenceMore = regexp.MustCompile(`\s(?:means|(?:that|this|so|such\s+a)\s+(?:high|low|large|small|deep|tight|strong|long|cheap),?)\b`)
	// More past events and readings: "the report found", "bids won",
	// "the order filled", "has run without an exploit".
	reObservationMore = regexp.MustCompile(`\b(?:shows?|showed|found|won|kept|paid|earned|made|lost|held|hit|sold|got|went|came|stayed|arrived|returned|stopped|settled|confirmed|moved|averaged|quoted|minted|received|watched|saw|noticed|observed|filled|executed|ran|without\s+(?:an?\s+|any\s+)?(?:exploit|hack|breach|outage))\b`)
	// A universal generalisation: what one observation showed is said to
	// hold always, for any size, in every market, or to be certain
	// ("so depegs always recover", "so it will earn 365 ETH a year", "so
	// the yield is risk-free"). Advice ("so always check …") is no
	// generalisation: the word must follow the clause's own subject, not
	// open an instruction, and "should"/"to" before it make it advice.
	reUniversal = regexp.MustCompile(`\b(?:always|never|every\s+time|(?:in|for)\s+(?:every|any)\s+(?:market|size|condition)|any\s+size|risk[-\s]free|free\s+(?:money|return|yield|lunch)|costs?\s+nothing|too\s+small\s+to\s+matter|(?:manipulation|hack|exploit|bullet|rug)[-\s]?proof|trustless|perfectly|irrelevant|(?:can(?:not|'t|\s+not)|could\s+never)\s+(?:be\s+|have\s+)?\w+|must\s+(?:go\s+up|rise|fall|be\s+(?:better|liquid|safe))|will\s+(?:always|keep|stay|remain|earn|return|pay|never)|(?:is|are)\s+(?:fixed|final|locked\s+in)|locked\s+in|proves?|no\s+(?:\w+\s+){0,2}?(?:downside|risk)|safely|equally\s+\w+|interchangeable|the\s+same\s+(?:trust|risk|security)|fully\s+(?:backed|safe|collaterali[sz]ed|hedged)|without\s+moving\s+the\s+price|will\s+(?:go\s+up|rise|be\s+there)|forever|permanently|from\s+now\s+on|in\s+general|regardless|useless|meaningless|worthless|broken|(?:every|all|any)\s+(?:\w+\s+){0,2}?(?:is|are|will|can)|none\s+of\s+(?:them|these|those)\s+can)\b`)
	// Words that, right before a universal, make it advice or a
	// hypothesis rather than a claim about the world.
	reUniversalAdvice = regexp.MustCompile(`(?:^|[,;:]\s*|\b(?:should|must|to|you|we|please|and|then|if|whether|not|don't|do)\s+)$`)
	// What after "never" makes it caution: "it is never safe to skip".
	reUniversalCaution = regexp.MustCompile(`^\s+(?:safe|wise|ok|okay|advisable|enough|a\s+good\s+idea)\b`)
)

// universalAdvice reports whether the universal at m in concl, after
// before, is advice or caution rather than a generalisation: "always" or
// "never" opening an instruction ("so always check …", "you should never
// …"), or "never" denying safety ("it is never safe to …").
func universalAdvice(concl, before string, m []int) bool {
	w := concl[m[0]:m[1]]
	if !strings.HasPrefix(w, "always") && !strings.HasPrefix(w, "never") {
		return false
	}
	return reUniversalAdvice.MatchString(strings.TrimLeft(before, " ")) ||
		strings.HasPrefix(w, "never") && reUniversalCaution.MatchString(concl[m[1]:])
}

// reCapacity ends the words before a comparative leap that make it a
// protocol's capacity rather than advice: "so Aave lets you borrow more"
// compares two protocols' limits.
var reCapacity = regexp.MustCompile(`\b(?:lets?|allows?|enables?|permits?)\s+(?:you|users?|borrowers?|one)\s+(?:to\s+)?$`)

// BlendedConclusion returns the reason text draws an all-in commitment or
// a removed safety margin from a single observation, or "" when it does
// not. A conclusion about an attack, or one that is denied ("so it is not
// safe to …"), is no such leap.
func BlendedConclusion(text string) string {
	sents := splitSentences(strings.ToLower(text))
	prev := "" // the sentence before, a premise for "So …", "That means …"
	for i, s := range sents {
		for _, m := range slices.Concat(reInference.FindAllStringIndex(" "+s, -1), reInferenceMore.FindAllStringIndex(" "+s, -1), rePremiseClause.FindAllStringIndex(" "+s, -1)) {
			// A "since …," clause is its own premise.
			premise, rest := s[:max(0, m[1]-1)], s[max(0, m[1]-1):]
			if reNotInference.MatchString(rest) {
				continue
			}
			if !observed(premise) && !observed(prev) {
				continue
			}
			// The conclusion runs to the end of the sentence, and on into
			// the next one when a semicolon or colon split it off ("…
			// which means rates will fall; deposit the whole treasury").
			concl := rest
			if i+1 < len(sents) {
				concl += " ; " + sents[i+1]
			}
			if reAboutAttack.MatchString(concl) {
				continue
			}
			if leap := conclusionLeap(concl); leap != "" && (!universal(leap) || event(premise) || event(prev)) {
				return "contradicts mental model \"" + BlendModel + "\": an observation is taken to mean " + leap
			}
		}
		if leap := juxtaposedLeap(sents, i, prev); leap != "" {
			return "contradicts mental model \"" + BlendModel + "\": an observation is taken to mean " + leap
		}
		if leap := blendedI18n(s, prev); leap != "" && !reAboutAttack.MatchString(s) {
			return "contradicts mental model \"" + BlendModel + "\": an observation is taken to mean " + leap
		}
		prev = s
	}
	return ""
}

// observed reports whether s states an observation.
func observed(s string) bool {
	return reObservation.MatchString(s) || reObservationMore.MatchString(s)
}

// event reports whether s states a past event or a dated reading, not
// only a number: a universal is a leap from what happened ("the keeper
// earned 2 ETH yesterday, so it will earn 730 a year"), while from a
// number alone it is often arithmetic ("USDC has 6 decimals, so 1 USDC is
// always 10^6 units").
func event(s string) bool {
	return reObservation.MatchString(reDigits.ReplaceAllString(s, " ")) || reObservationMore.MatchString(s)
}

var reDigits = regexp.MustCompile(`\d`)

// universal reports whether leap is a universal generalisation rather
// than a commitment or removed margin.
func universal(leap string) bool {
	return reUniversal.MatchString(leap) && !reNoRisk.MatchString(leap) && !slices.ContainsFunc(reAllIn, func(re *regexp.Regexp) bool { return re.MatchString(leap) })
}

// conclusionLeap returns the all-in commitment or removed safety margin
// concl states, not denied, or "".
func conclusionLeap(concl string) string {
	if a := unsafeAction(concl); a != "" {
		return a
	}
	if c := UnknowableCertainty(concl); c != "" {
		return c
	}
	res := slices.Concat([]*regexp.Regexp{reNoRisk, reDismissed, reUnbounded}, reAllIn, reCommitted)
	res = append(res, reUniversal)
	for _, re := range res {
		for _, m := range re.FindAllStringIndex(concl, -1) {
			// A denial counts only in the leap's own clause: in "never
			// change quickly; no need to monitor" nothing denies the leap.
			before := concl[max(0, m[0]-40):m[0]]
			if k := strings.LastIndexAny(before, ";,:—"); k >= 0 {
				before = before[k+1:]
			}
			if reDenied.MatchString(before) || reDeniedSafe.MatchString(concl[m[0]:m[1]]) || reLostAll.MatchString(concl[m[0]:m[1]]) ||
				strings.HasSuffix(concl[m[0]:m[1]], "more") && reCapacity.MatchString(before) {
				continue
			}
			if (re == reDismissed || re == reUnbounded) && reAdviceOpen.MatchString(before) {
				continue
			}
			if re == reUniversal && universalAdvice(concl, before, m) {
				continue
			}
			return strings.Join(strings.Fields(concl[m[0]:m[1]]), " ")
		}
	}
	return ""
}

// Blend is the vote of the blended-observation model on e: a decisive L3b
// failure when its content draws an all-in commitment or a removed safety
// margin from a single observation, a pass otherwise.
func Blend(e *knowledge.Entry) Vote {
	if e == nil {
		return Vote{Layer: knowledge.LayerConsistency, Skipped: true}
	}
	if why := BlendedConclusion(e.Content); why != "" {
		return Vote{Layer: knowledge.LayerConsistency, Score: 1, Decisive: true, Scrutiny: true, Reasons: []string{why}}
	}
	return Vote{Layer: knowledge.LayerConsistency, Pass: true}
}
