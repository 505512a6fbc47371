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
	reGuarantee  = regexp.MustCompile(`\b(?:guaranteed\s+(?:profit|profits|returns?|gains?|yield|income|win|outcome|upside|money)|(?:profits?|returns?|gains?|yield|income|upside|payout|outcome)\s+(?:is|are)\s+guaranteed|guaranteed\s+to\s+(?:profit|win|pump|rise|double|outperform|pay\s+off|make\s+money)|risk[- ]free\s+(?:profit|money|returns?|gains?|trade|arbitrage|yield)|zero[- ]risk|free\s+money|sure\s+(?:thing|profit|win|bet|return)|can(?:not|'t|\s+not)\s+(?:lose|underperform|go\s+down)|will\s+never\s+(?:lose|underperform|delist|depeg|go\s+down)|never\s+(?:had|has|have)\s+a\s+losing|no\s+downside|(?:outcome|result|vote|decision|approval)\s+is\s+(?:decided|certain|settled|locked\s+in|a\s+given)|is\s+a\s+done\s+deal|100\s*%\s+(?:sure|certain|guaranteed|chance|probability)|(?:will|shall)\s+(?:certainly|definitely|surely|undoubtedly|inevitably)|without\s+(?:any\s+)?(?:doubt|question)|future\s+returns?\s+will)\b`)
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
		for _, re := range []*regexp.Regexp{reMarketMove, reAlwaysWill} {
			if m := re.FindStringIndex(s); m != nil && !reDenyNear.MatchString(s[max(0, m[0]-48):m[0]]) {
				return strings.TrimSpace(s[m[0]:m[1]])
			}
		}
		if reIfClause.MatchString(s) {
			continue
		}
		if m := rePrediction.FindStringIndex(s); m != nil && !reDenyNear.MatchString(s[max(0, m[0]-48):m[0]]) {
			return strings.TrimSpace(s[m[0]:m[1]])
		}
	}
	return ""
}
