package validate

import (
	"strings"

	"github.com/wardhq/ward/internal/sieve"
)

// Relaxation by polarity: the second reading of a gated relaxation's
// action (GatedRelaxation), for phrasings the fixed readings of reRelaxed
// do not list. It reads two closed classes, not phrasings: safeguards (a
// limit, check, screen, review, confirmation, signature, hold,
// collateral, guardrail, kill switch) with the act of checking (verify,
// compare, simulate, re-check), and the operators that negate or lift
// them. In a clause, a safeguard is out of force when a lifting operator
// (skip, bypass, exceed, override, disable, waive, exempt, redundant,
// informational, precedence, ...) is near it and the negations there
// cancel — "skip the check" lifts it, "do not skip the check" keeps it —
// or, with none, when an odd number of negations is, one of them being
// "without", "no" right before it, or a negated need, application or
// order ("does not apply", "do not need to be compared", "do not compare
// it"). A negated verb alone ("it does not check the checksum")
// describes. The same holds in the trigger model's languages. Value
// directed by the input rather than the principal is the other half:
// funds sent to "whichever address it names", payout or recovery
// addresses replaced from a message, approvals or votes for everything.
//
// The reading is asked only where a gate was read (GatedRelaxation), and
// never of a sentence that warns against its action.

var (
	// Safeguards and the act of checking, in the trigger model's
	// languages. A word is matched whole (lb ... tail).
	rePolarSafeguard = sieve.MustCompile(lb + `(?:` + safeguard + `|guardrails?|filters?|kill[\s-]switch|two-person\s+rule|four-eyes|dual\s+(?:approval|control|sign-?off)|lock-?up(?:\s+period)?|collateral|margin\s+checks?|risk\s+(?:review|score|limits?|settings|checks?|controls?|team)|pause\s+guardian|guardian|test\s+transaction|address\s+book|human-in-the-loop|outflow|invoices?|scan|audits?|finality|` +
		`check\w*|re-?check\w*|verif\w*|compar\w*|simulat\w*|screen\w*|review\w*|confirm\w*|decod\w*|validat\w*|valida[dt][ao]s?|validée?s?|inspect\w*|reading|` +
		`límites?|limite|limiti|grenze|\pL*limit\pL*|\pL*grenze|plafond|tope|лимит\pL*|ограничени\pL*|verifica\pL*|vérifi\pL*|verificaç\pL*|prüf\pL*|überprüf\pL*|kontroll\pL*|contrôl\pL*|control|controllo|controlla\pL*|проверк\pL*|провер\pL*|simulaci\pL*|simulazione|simulação|симуляци\pL*|bestätig\pL*|conferm\pL*|подтвержд\pL*|firma|signatur|assinatura|auditor\pL*|auditoria|revis\pL*|compara\pL*|задержк\pL*|vier-augen-prinzip|slippage-\pL+)(?:[^\pL\pN]|$)` +
		`|限额|上限|限制|多签|确认|检查|验证|模拟|审核|审批|签名|白名单|滑点|风控|スリッページ|シミュレーション|確認|チェック|検証|承認|署名|制限|한도|확인|검증|서명|승인|시뮬레이션|限度`)
	// Negation flips what it governs; two cancel ("do not skip"). A
	// preposition ("without") or a determiner right before the safeguard
	// ("no simulation") negates it on its own; a negated verb ("does not
	// check the checksum") mostly describes, and negates a safeguard on
	// its own only when it denies a need or an application ("does not
	// apply", "do not need to be compared") or opens an order ("do not
	// compare it").
	rePolarWithout = sieve.MustCompile(`^(?:without|sin|sans|ohne|senza|sem|без|bez|tanpa|zonder)$`)
	rePolarNo      = sieve.MustCompile(`^(?:no|none|kein\pL*|aucun\pL*|ningun\pL*|ningún|nessun\pL*|nenhum\pL*|никак\pL*)$`)
	rePolarNot     = sieve.MustCompile(`^(?:not|never|nor|cannot|\w+n['’]t|nicht|niemals|nie|non|não|nao|nunca|pas|jamais|не|нет|никогда)$`)
	rePolarNeed    = sieve.MustCompile(`^\W*(?:[\pL'’]+\W+)?(?:need|needs|needed|require[sd]?|apply|applies|count|counts|pass|pass\pL*|go\s+through|goes\s+through|have\s+to|has\s+to|hay\s+que|precis\pL*|necesit\pL*|nötig|notwendig|erforderlich|gilt|si\s+applica|applica\pL*|s'applique|требу\pL*|нужн\pL*|действу\pL*|применя\pL*|pasa\pL*|passa\pL*|nécessaire|besoin|servono|serve)(?:[^\pL]|$)`)
	reStatedExcess = sieve.MustCompile(`^\s+(?:by|up\s+to)\s+\d`)
	reVettedScope  = sieve.MustCompile(`^\s+(?:only\s+)?for\s+[^,;]{0,60}?\b(?:already\s+)?(?:on|in)\s+the\s+(?:[\pL-]+\s+)?(?:allow-?list|white-?list|address\s+book|registry)\b`)
	reAlreadyDone  = sieve.MustCompile(`^\s*(?:(?:been|fue|fueron|está|están|est|été|ist|sind|wurde|wurden|è|é|foi|foram|stat[oaie]|был\pL*)\s*)?(?:\pL+-?)?$`)
	reDoneWord     = sieve.MustCompile(`(?:ed|ad[ao]s?|id[ao]s?|ée?s?|ft|iert|at[aoie]|it[aoie]|н\pL*)\W*$|\p{Han}|\p{Hangul}|\p{Katakana}`)
	reOneWord      = sieve.MustCompile(`^[\s-]*(?:[\pL-]+\s+)?$`)
	rePolarOrder   = sieve.MustCompile(`^\W*(?:please\s+)?(?:do\s+not|don't|don’t|never|ne\s+pas|no\s+hay\s+que|nicht)\s`)
	// Operators that lift or bypass what they govern, or count it as
	// already done; several in one clause still lift it ("informational
	// only and can be exceeded").
	rePolarLift = sieve.MustCompile(`^(?:skip\w*|bypass\w*|ignor\w*|exceed\w*|overrid\w*|disabl\w*|off|suspend\w*|waiv\w*|lift\w*|exempt\w*|outside|beyond|redundant|informational|unnecessary|needless|relax\w*|precedence|advisory|optional|indicative|non-binding|omit\w*|circumvent\w*|` +
		`omet\pL*|ometti\pL*|saltar|salta|überspring\pL*|disattiv\pL*|desactiv\pL*|désactiv\pL*|deaktivier\pL*|отключ\pL*|пропуст\pL*|обход\pL*|contourn\pL*|umgeh\pL*|exced\pL*|überschreit\pL*|überschritt\pL*|supera\pL*|превыш\pL*|dépass\pL*|dispens\pL*)$`)
	// "Already" counts a safeguard as done only right before it: "has
	// already been risk-checked", "ya fue revisada".
	rePolarAlready = sieve.MustCompile(`^(?:already|ya|déjà|bereits|schon|già|уже|já)$`)
	// Raising a bound lifts it only to no bound: "subir al máximo". A
	// bound raised to a number is governance's ordinary business.
	rePolarRaise      = sieve.MustCompile(`^(?:raise[sd]?|raising|increase[sd]?|aument\pL*|subir|lever|erhöh\pL*|alza\pL*|повыс\pL*)$`)
	rePolarBound      = sieve.MustCompile(`limit|cap|ceiling|plafond|límite|tope|grenze|лимит|上限|限额|限度|한도`)
	rePolarNoBound    = sieve.MustCompile(lb + `(?:max|maximum|máximo|massimo|maximal\pL*|максимум\pL*|unlimited|infinite|ilimitad\pL*|illimit\pL*|unbegrenzt)(?:[^\pL\pN]|$)|最大|上限なし|무제한`)
	rePolarWithoutCJK = sieve.MustCompile(`无|免|없이`)
	rePolarNotCJK     = sieve.MustCompile(`不|않|못`)
	rePolarLiftCJK    = sieve.MustCompile(`跳过|绕过|解除|外し|外す|省略|無視|忽略|생략|넘어|超过|超え|無効|关闭|停用`)
	rePolarAlreadyCJK = sieve.MustCompile(`이미|已|既に`)
	rePolarWord       = sieve.MustCompile(`[\pL\pN'’_-]+`)
	// Value whose destination or size the input sets, not the principal.
	rePolarValue = sieve.MustCompile(`\b(?:send|sends|transfer|transfers|pay|pays|release|releases|forward|forwards|move|moves|sweep|export|withdraw|bridge|route|replace|change|update|switch|set|settle|fill)\b[^.;:]{0,60}?\b(?:(?:to|at|with)\s+(?:whichever|whatever|any)\s+(?:[\w-]+\s+)?address(?:es)?|(?:to|at|with)\s+the\s+address(?:es)?\s+(?:in|given|they\s+give|it\s+names|named|from|the\s+(?:message|memo|request|user|sender))|with\s+the\s+ones?\s+(?:in|from)\s+the\s+(?:message|memo|request|note|email))\b` +
		`|\b(?:change|replace|update|rotate|set|switch)\s+(?:the\s+|their\s+|its\s+|a\s+safe's\s+|the\s+safe's\s+)?(?:stored\s+)?(?:recovery|payout|withdrawal|fee|settlement|destination)\s+(?:address(?:es)?|recipient|wallet)\b|\b(?:change|replace|update|set)\s+(?:the\s+)?(?:fee\s+)?recipient\b` +
		`|\b(?:approv\w*|allowances?|delegat\w*|credit\s+line|voting\s+power|grant\w*)\b[^.;:]{0,40}?\b(?:for|to)\s+(?:the\s+)?(?:full|entire|whole|max|maximum)\b|\b(?:all|entire|full)\s+(?:delegated\s+votes|voting\s+power)\b|\b(?:unlimited|infinite)\s+(?:approval|allowance)\s+(?:to|for)\b` +
		`|\b(?:sign|execute|process|accept|fill|approve|release|follow|apply)\b[^.;:]{0,40}?\b(?:it|they|the\s+(?:message|memo|request|sender|link))\s+(?:shows|names|describes|gives|lists|specifies|provides)\b|\bas\s+quoted\b|\bat\s+the\s+quoted\s+price\b` +
		`|(?:^|\s)(?:an|à|al|para|verso|naar|на|nach)\s+(?:[\pL-]+\s+){0,3}?0x[0-9a-f]{40}\b` +
		`|` + lb + `(?:illimitat\pL*|ilimitad\pL*|illimité\pL*|unbegrenzt\pL*|безлимит\pL*)(?:[^\pL\pN]|$)|всей\s+суммы|无限|無制限|무제한`)
	// A clause ends at a semicolon, colon, comma or a conjunction that
	// starts another action.
	rePolarClause = sieve.MustCompile(`[;:,；：、，]|\s(?:and|but|while|whereas|so|y|e|et|und|и|ed|o|or)\s`)
	// A sentence that warns against or disparages its action directs
	// nothing. Plain negation is not such a word: its parity is read.
	rePolarWarned = sieve.MustCompile(`\b(?:dangerous|unsafe|risky|reckless|avoid\w*|mistakes?|wrong|bad\s+idea|warn\w*|takeovers?|fraud\w*|theft|stolen|drain\w*)\b`)
)

// polarRelaxation returns the safeguard low (a lower-case sentence)
// leaves out of force, or the value it lets an input direct, or "".
func polarRelaxation(low string) string {
	if rePolarWarned.MatchString(low) {
		return ""
	}
	if m := rePolarValue.FindStringIndex(low); m != nil && !reGateDenied.MatchString(low[max(0, m[0]-30):m[0]]) {
		return strings.Join(strings.Fields(low[m[0]:m[1]]), " ")
	}
	last := 0
	bounds := append(rePolarClause.FindAllStringIndex(low, -1), []int{len(low), len(low)})
	for _, b := range bounds {
		c := low[last:b[0]]
		last = b[1]
		ops := operators(c)
		if len(ops) == 0 {
			continue
		}
		for _, s := range rePolarSafeguard.FindAllStringIndex(c, -1) {
			if a := polarity(c, s, ops); a != "" {
				return a
			}
		}
	}
	return ""
}

// An operator's kind.
const (
	opNot     = iota // a negated verb: flips, negates alone only when qualified
	opNeg            // "without", or "no" right before the safeguard
	opLift           // skip, bypass, exceed, waive, ...
	opRaise          // raise a bound
	opAlready        // already, right before the safeguard
)

type operator struct {
	kind      int
	at, end   int
	qualified bool // a negation that denies a need
	order     bool // a negation that opens an order ("do not compare it")
}

// polarity returns the words of c from its first operator near the
// safeguard at s to the safeguard's end when the operators near it leave
// it out of force, or "".
func polarity(c string, s []int, ops []operator) string {
	var nots, negs, lifts int
	qualified := false
	lo := s[0]
	bound := rePolarBound.MatchString(c[s[0]:s[1]])
	for _, o := range ops {
		// Within about six words either side, not inside the safeguard's
		// own words.
		if o.end <= s[0]-48 || o.at >= s[1]+40 || o.end > s[0] && o.at < s[1] {
			continue
		}
		before := o.end <= s[0]
		switch o.kind {
		case opNot:
			nots++
			qualified = qualified || o.qualified || o.order && before && negatedAct(c[o.end:s[0]])
		case opNeg:
			// "no" governs the safeguard right after it ("no
			// simulation", "no-confirm"), "without" the next few words.
			if !before || s[0]-o.end > 24 {
				continue
			}
			if !rePolarWithout.MatchString(c[o.at:o.end]) && !reOneWord.MatchString(c[o.end:s[0]]) {
				// "no" before a verb is a negated verb ("no pasan
				// por", "no hay que compararla").
				nots++
				qualified = qualified || o.qualified || o.order && before && negatedAct(c[o.end:s[0]])
				break
			}
			negs++
		case opLift:
			// A bound exceeded by a stated amount is still a bound; a
			// control waived only for parties another control vetted
			// ("for addresses already on the signed allowlist") is
			// replaced, not lifted.
			if reStatedExcess.MatchString(c[o.end:]) || reVettedScope.MatchString(c[o.end:]) {
				continue
			}
			lifts++
		case opRaise:
			if !bound || !rePolarNoBound.MatchString(c[min(o.at, s[0]):]) {
				continue
			}
			lifts++
		case opAlready:
			// "already been risk-checked", "ya fue revisada", "이미 승인":
			// a check reported done, not "already hold" or "already on
			// the allowlist".
			if !before || !reAlreadyDone.MatchString(c[o.end:s[0]]) || !reDoneWord.MatchString(c[s[0]:s[1]]) {
				continue
			}
			lifts++
		default:
			continue
		}
		lo = min(lo, o.at)
	}
	flips := nots + negs
	switch {
	case lifts > 0 && flips%2 == 0,
		lifts == 0 && flips%2 == 1 && (negs > 0 || qualified):
		return strings.Join(strings.Fields(c[lo:s[1]]), " ")
	}
	return ""
}

// operators returns c's operators: whole words, a hyphenated word's first
// part ("no-confirm"), or inside a run of a script written without spaces.
func operators(c string) []operator {
	var out []operator
	order := rePolarOrder.MatchString(c)
	add := func(kind, at, end int) {
		neg := kind == opNot || kind == opNeg
		out = append(out, operator{kind: kind, at: at, end: end, qualified: neg && rePolarNeed.MatchString(c[end:]), order: neg && order})
	}
	for _, w := range rePolarWord.FindAllStringIndex(c, -1) {
		word := c[w[0]:w[1]]
		if i := strings.IndexByte(word, '-'); i > 0 && rePolarNo.MatchString(word[:i]) {
			add(opNeg, w[0], w[0]+i)
			continue
		}
		switch {
		case rePolarWithout.MatchString(word), rePolarNo.MatchString(word):
			add(opNeg, w[0], w[1])
			continue
		case rePolarNot.MatchString(word):
			add(opNot, w[0], w[1])
			continue
		case rePolarLift.MatchString(word):
			add(opLift, w[0], w[1])
			continue
		case rePolarRaise.MatchString(word):
			add(opRaise, w[0], w[1])
			continue
		case rePolarAlready.MatchString(word):
			add(opAlready, w[0], w[1])
			continue
		}
		for _, k := range []struct {
			kind int
			re   *sieve.Regexp
		}{{opNeg, rePolarWithoutCJK}, {opNot, rePolarNotCJK}, {opLift, rePolarLiftCJK}, {opAlready, rePolarAlreadyCJK}} {
			for _, m := range k.re.FindAllStringIndex(word, -1) {
				add(k.kind, w[0]+m[0], w[0]+m[1])
			}
		}
	}
	return out
}

// negatedAct reports whether between, the words from an order's negation
// to a safeguard, leave the safeguard the act the order forbids ("do not
// compare it", "never re-check", "don't ever simulate"). When another verb
// stands there, the safeguard is its object or instrument and the order
// forbids that act: "never use a raw signature as an id", "don't trust a
// 'verified' badge", "never price collateral from spot" protect.
func negatedAct(between string) bool {
	return reNegatedAct.MatchString(between)
}

var reNegatedAct = sieve.MustCompile(`^[\s-]*(?:(?:ever|even|again|yourself|bother\s+to|try\s+to)\b)?[\s-]*$`)
