package validate

import (
	"regexp"
	"strings"
)

// Certainty about the unknowable. The seed calls a confidence inflated
// when a source asserts "numbers with certainty the source cannot have".
// What no source can be certain of is the future of a market, a vote or a
// listing, or that a strategy cannot lose: an entry that states such an
// outcome as settled, and claims more confidence than its provenance
// allows, inflates its claim whatever the number (the pipeline then
// refuses it as confidence inflation instead of discounting it). Stated
// without the overclaim, the same words are an opinion, discounted like
// any other.
//
// The vocabulary is that of guarantees and of predictions (English, the
// language the rest of the pipeline reads after canonicalisation), not of
// any data set; a denial ("nothing is guaranteed") or a condition ("if
// utilisation rises, the rate will rise") states no certainty.

var (
	reGuarantee  = regexp.MustCompile(`\b(?:guaranteed\s+(?:profit|profits|returns?|gains?|yield|income|win|outcome|upside|money)|(?:profits?|returns?|gains?|yield|income|upside|payout|outcome)\s+(?:is|are)\s+guaranteed|guaranteed\s+to\s+(?:profit|win|pump|rise|double|outperform|pay\s+off|make\s+money)|risk[- ]free\s+(?:profit|money|returns?|gains?|trade|arbitrage|yield)|zero[- ]risk|free\s+money|sure\s+(?:thing|profit|win|bet|return)|can(?:not|'t|\s+not)\s+(?:lose|underperform|go\s+down)|will\s+never\s+(?:lose|underperform|delist|depeg|go\s+down)|never\s+lose[s]?\s+(?:to|against|money|principal|value)\b|never\s+(?:had|has|have)\s+a\s+losing|no\s+downside|(?:outcome|result|vote|decision|approval)\s+is\s+(?:decided|certain|settled|locked\s+in|a\s+given)|is\s+a\s+done\s+deal|100\s*%\s+(?:sure|certain|guaranteed|chance|probability)|(?:will|shall)\s+(?:certainly|definitely|surely|undoubtedly|inevitably)|without\s+(?:any\s+)?(?:doubt|question)|future\s+returns?\s+will)\b`)
	rePrediction = regexp.MustCompile(`\bwill\s+(?:(?:certainly|definitely|surely|absolutely|easily)\s+)?(?:pump|dump|moon|rally|crash|double|triple|surge|soar|skyrocket|pass|be\s+approved|approve|be\s+extended|be\s+listed|be\s+delisted|delist|fork|airdrop|stay\s+(?:above|below|over|under)|remain\s+(?:above|below|over|under)|outperform|beat\s+(?:holding|the\s+market|hodl))\b`)
	// A forecaster's stated hit rate near certainty ("predicts spikes with
	// 99.7 % accuracy", "right 100 % of the time") is the same claim as
	// certainty about the outcomes it forecasts: no source can have it.
	reNearCertainRate = regexp.MustCompile(`\b(?:(?:9[5-9]|100)(?:\.\d+)?\s*%\s*(?:accura\w*|win\s+rate|success\s+rate|hit\s+rate|precision|of\s+the\s+time)|(?:accura\w*|win\s+rate|success\s+rate|hit\s+rate|precision)\s+(?:of\s+)?(?:9[5-9]|100)(?:\.\d+)?\s*%)`)
	// A market's move stated as certain, with its size or its time, is a
	// forecast whatever event it waits on ("when the report comes out, ETH
	// will pump at least 8 % within the hour"): a condition does not make
	// a price a mechanic.
	reMarketMove = regexp.MustCompile(`\bwill\s+(?:(?:certainly|definitely|surely|absolutely|easily)\s+)?(?:pump|dump|moon|rally|crash|surge|soar|skyrocket|spike|tank|rip)\b(?:\W+\w+){0,4}?\W+(?:\d+(?:\.\d+)?\s*(?:%|x\b)|within|by|before|tomorrow|tonight|next)`)
	// "Will always" states a future without exception: what a builder, a
	// counterparty or a market will do is not knowable.
	reAlwaysWill = regexp.MustCompile(`\bwill\s+always\s+(?:be\s+)?(?:included|filled|executed|accepted|honou?red|win|profit|pay|land|confirm\w*|front-?run|beat|outperform|rise|go\s+up|recover|repeg|be\s+(?:first|profitable|repaid|reimbursed))\b`)
	// An exact figure for a quantity that is not yet known ("the APY next
	// month will be exactly 7.42 %", "withdrawals always settle in exactly
	// 3 days", "over any 90 days it is precisely 0 %") states a future
	// measurement as settled: a protocol constant needs neither a future
	// nor a universal over time to be stated exactly.
	reExactFuture = regexp.MustCompile(`\b(?:(?:will|shall)\s+(?:\w+\s+){0,4}?|always\s+(?:\w+\s+){0,3}?|over\s+(?:any|every)\s+\d+[-\s]\w+(?:\W+\w+){0,8}?\W+)(?:exactly|precisely)\s+[$€£]?\d`)
	// Certainty words in a sentence about the future ("the snapshot is
	// definitely on the next block", "ETH will be above 5k by Friday, for
	// sure"): the certainty is about an outcome no source can know.
	reCertainWord = regexp.MustCompile(`\b(?:definitely|certainly|surely|undoubtedly|for\s+(?:sure|certain)|no\s+doubt|beyond\s+doubt)\b`)
	reFuture      = regexp.MustCompile(`\b(?:will|next|tomorrow|tonight|upcoming|coming\s+(?:days?|weeks?|months?)|(?:this|next)\s+(?:week|month|quarter|year)|by\s+(?:the\s+end|friday|monday|maturity|year-end|q[1-4]))\b`)
	// The same guarantees in the other languages the pipeline meets: the
	// strong forms only ("certain à 100 %", "absolut sicher", "garantiert"),
	// each a statement of certainty whatever it is about.
	reCertainI18n = regexp.MustCompile(`(?:\b(?:certaine?s?|sûre?s?|sichere?|seguro|segura|garanti[et]?e?s?|garantizad[oa]s?|garantit[oa])\s+(?:à|a|al|zu)\s+100\s*%|\b100\s*%\s+(?:sicher|seguro|segura|sûr|sûre|garanti\w*|certo|certa)|\babsolut(?:e|ely)?\s+sicher|\bmit\s+(?:absoluter\s+)?sicherheit\b|\bgarantiert\b|\bà\s+coup\s+sûr|\bsans\s+aucun\s+doute|\bsin\s+(?:ninguna\s+)?duda|\bcon\s+total\s+seguridad|\bsenza\s+dubbio)`)
	// A condition makes a "will" a mechanic, not a prediction.
	reIfClause = regexp.MustCompile(`\b(?:if|when|whenever|unless|once|until|should|as\s+long\s+as|in\s+case)\b`)
	reDenyNear = regexp.MustCompile(`\b(?:no|not|never|nothing|none|isn't|aren't|wasn't|isnt|arent|nor|neither|without|rarely|hardly|claims?|claimed|promis\w*|says?|said|pretend\w*|beware|scam\w*)\b(?:\W+\w+){0,3}?\W*$`)
)

// UnknowableCertainty returns the phrase in which text states an
// unknowable outcome as certain, or "".
func UnknowableCertainty(text string) string {
	for _, s := range splitSentences(strings.ToLower(text)) {
		if m := reGuarantee.FindStringIndex(s); m != nil && !reDenyNear.MatchString(s[max(0, m[0]-48):m[0]]) {
			return strings.TrimSpace(s[m[0]:m[1]])
		}
		if m := reNearCertainRate.FindStringIndex(s); m != nil && !reDenyNear.MatchString(s[max(0, m[0]-48):m[0]]) {
			return strings.TrimSpace(s[m[0]:m[1]])
		}
		for _, re := range []*regexp.Regexp{reMarketMove, reAlwaysWill, reExactFuture, reCertainI18n} {
			if m := re.FindStringIndex(s); m != nil && !reDenyNear.MatchString(s[max(0, m[0]-48):m[0]]) {
				return strings.TrimSpace(s[m[0]:m[1]])
			}
		}
		if reIfClause.MatchString(s) {
			continue
		}
		if m := reCertainWord.FindStringIndex(s); m != nil && reFuture.MatchString(s) && !reDenyNear.MatchString(s[max(0, m[0]-48):m[0]]) {
			return strings.TrimSpace(s[m[0]:m[1]])
		}
		if m := rePrediction.FindStringIndex(s); m != nil && !reDenyNear.MatchString(s[max(0, m[0]-48):m[0]]) {
			return strings.TrimSpace(s[m[0]:m[1]])
		}
	}
	return ""
}

// Self-vouching. Ingestion takes the confidence a source may claim from
// its channel (the provenance the signature proves), never from what the
// text says of itself: "verified by the core team", "official research
// desk", "audited fact" cost an attacker nothing to write. A text that
// vouches for itself in such words while claiming more than its
// provenance's ceiling is trying to borrow an authority the channel does
// not carry, which is the inflation attack; the same words within the
// ceiling are only words, and a claim the address book confirms (the
// pipeline's verified facts) has the authority it names.
var reSelfVouch = regexp.MustCompile(`(?:\b(?:verified|confirmed|certified|audited|endorsed|vetted|approved|validated)\s+(?:on-?chain\s+)?by\s+(?:the\s+|our\s+|its\s+|their\s+)?(?:official\s+|core\s+|dev\s+|research\s+)*(?:team|devs?|developers|foundation|labs|protocol|dao|auditors?|insiders?)|\bofficial(?:ly)?\s+(?:\w+\s+){0,3}?(?:confirmed|verified|certified|team|research|announcement|desk)\b|\bofficial\s+(?:source|data|guidance)\b|\((?:verified|official|confirmed)\)|\b(?:audited|verified|confirmed|certified)\s+fact|\bconfidence\s+(?:1(?:\.0+)?|100\s*%)(?:\W|$)|\boffiziell\s+bestätigt|\bvérifié\s+par\s+l'équipe|\bverificado\s+por\s+el\s+equipo)`)

// SelfVouching returns the phrase in which text vouches for its own
// authority ("verified by the core team", "official research desk"), or
// "" (not after a denial: "not verified by the team").
func SelfVouching(text string) string {
	for _, s := range splitSentences(strings.ToLower(text)) {
		if m := reSelfVouch.FindStringIndex(s); m != nil && !reDenyNear.MatchString(s[max(0, m[0]-48):m[0]]) {
			return strings.TrimSpace(s[m[0]:m[1]])
		}
	}
	return ""
}
