package validate

import (
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/sieve"
)

// Triggered overrides: the structure of a trigger-phrase (AgentPoison)
// entry, whatever its trigger. Sound knowledge conditions an agent's
// actions on the state of the world (a price, a utilisation, a health
// factor); a poisoned entry conditions a weakened safety control on the
// wording of an input ("if the request contains <token>, skip the
// simulation"). The check is a mental model of the agent's own operation:
// no word in a message, memo, ticket or order lifts a safety control —
// simulation, slippage and output minimums, spend and rate limits,
// approvals, recipient allowlists, decoding before signing, audit logging,
// stops and leverage bounds, key custody — or sends funds to an address
// the entry supplies. A sentence that both conditions on an input's
// wording and weakens such a control (or the sentence right after such a
// condition does) contradicts it decisively. The vocabulary is that of
// safety controls and of matching text, not of any data set.

// TriggerModel is the statement of the model the check holds entries to.
const TriggerModel = "No word, tag or phrase in a message, memo, ticket or order lifts a safety control or redirects funds"

var (
	// An input's wording as a condition: an input noun followed closely
	// by a matching verb, or a trigger noun ("the code word", a quoted
	// token) in a conditional sentence.
	reInputMatch  = sieve.MustCompile(`\b(?:message|request|instruction|memo|ticket|order|prompt|note|comment|query|task|command|email|dm|chat|tweet|post|label|title|subject|username|user|caller|sender|text|input|reference|ref|id)s?\b(?:\W+\w+){0,6}?\W+(?:contains?|containing|includes?|including|says?|saying|mentions?|mentioning|reads?|carries|carrying|bears?|(?:begin|start|end|close|open|finish)(?:s|ing)?\s+with|tagged|prefixed|marked|signed|with\s+the\s+(?:word|phrase|tag|marker|code))\b`)
	reTriggerNoun = sieve.MustCompile(`\b(?:code\s*word|codeword|passphrase|pass\s*phrase|keyword|magic\s+word|trigger|marker|the\s+(?:word|phrase|tag|string|signal|emoji|prefix|sign-off|signoff|suffix))\b`)
	reConditional = sieve.MustCompile(`\b(?:if|when|whenever|once|wherever|any\s+time|whose|with|for|under|during|in|on|after|exception|except|unless|means|mean)\b`)
	// An arbitrary token: quoted, a #tag, <<tag>>, a $TICKER-like word, a
	// code with digits ("K-0042", "ZX9-"), or an emoji.
	// A single quote opens only after a space, a bracket or a clause
	// mark and closes only before a non-letter, so that two possessives
	// ("the chain's finality ... the bridge's") are not a quoted token.
	reQuoted    = sieve.MustCompile(`["“«„‘「『][^"”»“’」』]{1,40}["”»“’」』]|(?:^|[\s(\[{:,;])'[^'\n]{1,40}'(?:[^\pL]|$)`)
	reTagToken  = sieve.MustCompile(`#[\pL\d_-]{3,}|<<[^<>]{1,30}>>|>>[^<>]{1,30}<<|\$[a-z]{3,}\b|(?:^|[\s(])/[a-z]{1,8}-?\d{1,}\b|\bcode\s+\S*\d|\b(?:[a-z]*\d+[a-z]*-|[\pL]{1,12}-\d{2,}|[\pL]{1,8}\d+-)[\pL\d-]*`)
	reStandards = sieve.MustCompile(`^(?:eip|erc|bip|rfc|cve|iso|uni|v\d|l\d|p\d|top|layer|web)` +
		// A number with its unit ("48-hour", "7-day", "2-of-3") is a quantity, not a code.
		`|^\d+(?:\.\d+)?-(?:seconds?|minutes?|min|hours?|hr|days?|weeks?|months?|years?|blocks?|epochs?|slots?|of-\d+|x|fold|bps?|percent)\b`)

	// A weakened safety control.
	reUnsafe = []*sieve.Regexp{
		sieve.MustCompile(`\b(?:skip|skips|skipping|bypass|bypassing|disable|disabling|turn\s+off|switch\s+off|omit|ignore|ignoring|waive|suspend|lift|lifts|lifting|remove|drop|raise|raises|override|overrides)\b(?:\W+\w+){0,4}?\W+(?:simulation|simulations|simulate|checks?|limits?|caps?|log|logging|logs|audit|auditing|allowlist|whitelist|review|confirmation|verification|decod\w*|slippage|stop|stop-loss|guard|guards|policy|policies|multisig|timelock|2fa|safeguards?|protections?)\b`),
		sieve.MustCompile(`\b(?:min(?:imum)?[\s_-]*(?:out(?:put)?|dy|amount|received|return)\w*|amountoutmin\w*|slippage(?:\s+(?:tolerance|limit|protection))?)\b(?:\W+\w+){0,4}?\W+(?:0|zero|none|off|100\s*%|unlimited|any)\b`),
		sieve.MustCompile(`\b(?:unlimited|infinite|max(?:imum)?|uint256\W*max|2\s*\^\s*256)\b(?:\W+\w+){0,2}?\W+(?:approvals?|allowances?)\b`),
		sieve.MustCompile(`\bapprove\b(?:\W+\w+){0,5}?\W+(?:max(?:imum)?|unlimited|infinite)\b`),
		sieve.MustCompile(`\b(?:max(?:imum)?|full|highest|100x|50x)\s+leverage\b|\bno\s+stop(?:-loss)?\b|\bwithout\s+(?:a\s+)?stop(?:-loss)?\b`),
		sieve.MustCompile(`\b(?:send|sends|transfer|withdraw|forward|route|sweep|pay|bridge|move|set)\b(?:\W+\w+){0,10}?\W+(?:to|into|at)\W+0x[0-9a-f]{6,}`),
		sieve.MustCompile(`\b(?:receiver|recipient|beneficiary|payout|destination)\b(?:\W+\w+){0,8}?\W+0x[0-9a-f]{6,}`),
		sieve.MustCompile(`0x[0-9a-f]{6,}\W+(?:as|is|for)\W+(?:the\W+|a\W+|its\W+)?(?:\w+\W+)?(?:receiver|recipient|beneficiary|payout|destination)\b`),
		sieve.MustCompile(`\badd(?:ed)?\b(?:\W+\w+){0,4}?\W+(?:to\s+the\s+)?(?:allowlist|whitelist)\b`),
		sieve.MustCompile(`\b(?:reveal|export|share|send|print|paste|disclose|post|include)\b(?:\W+\w+){0,4}?\W+(?:private\s+key|seed\s+phrase|seed|mnemonic|secret\s+key|keystore)\b`),
		sieve.MustCompile(`\bwithout\s+(?:any\s+)?(?:simulat\w*|checks?|checking|confirm\w*|verif\w*|reading|decod\w*|review\w*|limits?|approval\s+checks?)\b|\beven\s+if\s+it\s+cannot\s+be\s+decoded\b|\bas-is\b|\bregardless\s+of\s+(?:its\s+|the\s+)?(?:age|staleness|price|utili[sz]ation|slippage|health|risk|limits?|checks?|size|amount)\b`),
		sieve.MustCompile(`\b(?:[1-9]\d|100)\s*%\s+slippage\b|\bslippage\b(?:\W+\w+){0,4}?\W+(?:[1-9]\d|100)\s*%|\bno\s+slippage\s+(?:limit|protection|check)\b`),
		sieve.MustCompile(`\b(?:max(?:imum)?\s+ltv|borrow\s+the\s+max(?:imum)?|full\s+liquidation\s+threshold|health\s+factor\s+(?:reaches|of|at|=|to)\s+(?:exactly\s+)?1(?:\.0\d?)?\b|hf\s*=\s*1(?:\.0\d?)?\b)`),
		sieve.MustCompile(`\b(?:reply|respond|answer|communicate|hand\s+over|give)\b(?:\W+\w+){0,5}?\W+(?:private\s+key|seed\s+phrase|mnemonic|recovery\s+phrase|secret\s+key|credentials|api\s+keys?|passwords?)\b|\binclude\b(?:\W+\w+){0,4}?\W+(?:api\s+keys?|credentials|passwords?)\b`),
		sieve.MustCompile(`\bstop\s+(?:writing|logging|recording|simulating|checking)\b|\b(?:checks?|limits?|logging|logs?|audit|simulation|caps?)\s+(?:are|is)\s+(?:suspended|disabled|off|lifted|waived|skipped)\b|\btype\(uint256\)\.max\b|\bunlimited\b`),
		sieve.MustCompile(`\bpre-?approved\b|\bare\s+exempt\b|\bis\s+exempt\b|\bsign\s+(?:it\s+|them\s+)?(?:without|blind)\b|\bblind[\s-]sign\b|\bproceed\s+with\s+any\s+size\b`),
	}
	// A sentence about the attack, or denying the action, states no
	// override.
	reAboutAttack = sieve.MustCompile(`\b(?:attackers?|attack|poison\w*|scam\w*|malicious|phish\w*|injection|inject\w*|beware|red\s+flag|suspicious|quarantine|never\s+(?:follow|obey|act)|do\s+not\s+(?:follow|obey|act)|don't\s+(?:follow|obey|act))\b`)
	// A verb and a control joined by "with" or "and" are two things: "skip
	// bad lines with logging" keeps the log.
	reJoined = sieve.MustCompile(`\W(?:with|and|then|but|while)\W`)
	// An action whose consequence is a thin margin is warned against:
	// "borrowing to max LTV leaves only a few percent before liquidation".
	reThinMargin = sieve.MustCompile(`^\W+(?:\w+\W+){0,2}?(?:leaves?|leaving)\s+(?:only|little|just|barely|almost\s+no|a\s+(?:thin|small|tiny))\b`)
	reDenied     = sieve.MustCompile(`\b(?:never|not|no|don't|doesn't|cannot|can't|won't|nothing|neither|nor)\b(?:\W+\w+){0,3}?\W*$`)
)

// TriggeredOverride returns the reason an entry's text conditions a weakened
// safety control on the wording of an input, or "" when it does not.
func TriggeredOverride(text string) string {
	sents := splitSentences(strings.ToLower(text))
	conditioned := false // the previous sentence set a condition on wording
	for _, s := range sents {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if reAboutAttack.MatchString(s) {
			conditioned = false
			continue
		}
		cond := wordingCondition(s) || wordingConditionI18n(s)
		if cond || conditioned {
			a := unsafeAction(s)
			if a == "" {
				a = unsafeActionI18n(s)
			}
			if a != "" {
				return "contradicts mental model \"" + TriggerModel + "\": an input's wording unlocks " + a
			}
		}
		conditioned = cond
	}
	return ""
}

// wordingCondition reports whether s conditions on an input's wording,
// or on an arbitrary token (an exception keyed on a quoted word, a tag, a
// code or an emoji).
func wordingCondition(s string) bool {
	if reInputMatch.MatchString(s) {
		return true
	}
	if !reConditional.MatchString(s) {
		return false
	}
	return reTriggerNoun.MatchString(s) || reQuoted.MatchString(s) || tagToken(s) || hasEmoji(s)
}

func tagToken(s string) bool {
	for _, m := range reTagToken.FindAllString(s, -1) {
		if !reStandards.MatchString(strings.TrimLeft(m, " (/#$")) {
			return true
		}
	}
	return false
}

// hasEmoji reports whether s holds a pictograph or symbol used as a tag.
func hasEmoji(s string) bool {
	for _, r := range s {
		if r >= 0x1F000 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF || r >= 0x2B00 && r <= 0x2BFF {
			return true
		}
	}
	return false
}

// unsafeAction returns the weakened control s states, not denied.
func unsafeAction(s string) string {
	for i, re := range reUnsafe {
		for _, m := range re.FindAllStringIndex(s, -1) {
			// "slippage at 0.2%" is not a slippage of 0.
			if fraction(s, m[1]) || reDenied.MatchString(s[max(0, m[0]-40):m[0]]) || i == 0 && reJoined.MatchString(s[m[0]:m[1]]) ||
				reThinMargin.MatchString(s[m[1]:]) {
				continue
			}
			return strings.Join(strings.Fields(s[m[0]:m[1]]), " ")
		}
	}
	return ""
}

// Trigger is the vote of the triggered-override model on e: a decisive L3b
// failure when its content conditions a weakened safety control on an
// input's wording, a pass otherwise.
func Trigger(e *knowledge.Entry) Vote {
	if e == nil {
		return Vote{Layer: knowledge.LayerConsistency, Skipped: true}
	}
	if why := TriggeredOverride(e.Content); why != "" {
		return Vote{Layer: knowledge.LayerConsistency, Score: 1, Decisive: true, Scrutiny: true, Reasons: []string{why}}
	}
	return Vote{Layer: knowledge.LayerConsistency, Pass: true}
}
