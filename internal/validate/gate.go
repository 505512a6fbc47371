package validate

import (
	"cmp"
	"strings"
	"unicode"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/sieve"
)

// Gated relaxations: the shape of a trigger-phrase entry when it names no
// "trigger" and gives no order. Such an entry scopes a relaxation of a
// safeguard (or a movement of value) to inputs that carry an arbitrary
// token: "transfers labelled ORCHID are out of scope for the withdrawal
// limit", "clients reporting version 4.20.69-rc can use slippage up to
// 50 %", "on Fridays the 13th the compliance screen is paused". Two parts
// are read, each from a closed class, never from a data set's phrasing:
//
//   - The gate is something the sender of an input sets or the calendar
//     gives, not a state of the world ward could measure: a token of a
//     shape no market observable has (a quoted string, #tag, @handle,
//     emoji or symbol, ticket or memo code, short hex constant, regular
//     expression, ENS or domain suffix), an attribute the sender writes
//     (memo, tag, label, code, prefix, suffix, name, handle, header,
//     version, reference, referral) selected by a string-shape predicate
//     (contains, begins or ends with, matches, equals, is labelled), a
//     number matched by equality or by its digits ("exactly 31,337",
//     "ending in 69420", "divisible by 1111"), a calendar point (a date, a
//     weekday, a clock time, an epoch, a block height), or a regime known
//     only by its name ("under the kingfisher rule"). An observable is
//     compared with a threshold ("above 90 %", "below 1.2"); a trigger is
//     matched.
//   - The relaxation is a safeguard the agent keeps (slippage and output
//     minimums, simulation, allowlists, co-signers and confirmations,
//     timelocks, oracle and health-factor checks, sanctions and compliance
//     screens, reviews, limits, caps, holds and cooldowns) said to be off,
//     waived, exempt, not needed or already satisfied, a party or address
//     declared trusted or approved in advance, or value sent to a
//     destination the entry names.
//
// A sentence holding both, not about an attack and not denying the
// relaxation, fails L3b with Score ScrutinyConsistency: the vote raises
// scrutiny (every layer that ran must pass) and names the gate and the
// relaxation in its reason. It is not decisive on its own: the gate is
// read from the shape of a token, which ordinary notes sometimes share.

// GateModel is the statement of the model the check holds entries to.
const GateModel = "A safeguard applies to every input: no tag, code, name, date or other token an input carries exempts it"

var (
	// Tokens of a shape no market observable has.
	reGateQuoted   = sieve.MustCompile(`["“«„‘「『‹][^"”»“’」』›\n]{1,40}["”»“’」』›]|(?:^|[\s(\[{:,])'[^'\n]{1,40}'`)
	reGateHash     = sieve.MustCompile(`(?:^|[^\pL\pN&])#[\pL_-]*\pL[\pL\pN_-]{1,}`)
	reGateHandle   = sieve.MustCompile(`(?:^|\s)@[\pL\pN_]{3,}`)
	reGateCode     = sieve.MustCompile(`\b[A-Z][A-Z0-9]{0,7}-(?:[A-Z0-9][A-Z0-9-]*)?(?:\W|$)|\b[A-Z]{2,}/[A-Z]{2,}\b|\b[A-Z]{2,}\d+\b|\[\[[^\]]{1,30}\]\]|\{\{[^}]{1,30}\}\}|::[\pL\pN-]{2,}::|<[a-z][\w-]{2,30}>|(?:^|[^\pL\pN])\p{Lu}{2,}-\d+`)
	reGateCaps     = sieve.MustCompile(`\b[A-Z]{3,}\b`)
	reGateBuild    = sieve.MustCompile(`\bx-[\w-]+|\b[a-z]{3,}-\d{1,4}\b|\b[a-z]+=[\w-]+|(?:^|\s)[-_./][a-z][a-z0-9]{1,8}\b|\bv?\d+\.\d+(?:\.\d+)?-[\w.-]+|\bv\d+\.\d+\.\d+\b|\b(?:[a-f]+\d|\d+[a-f])[0-9a-f]{5,11}\b`)
	reGateHex      = sieve.MustCompile(`\b0x[0-9a-fA-F]{2,12}\b(?:-\w+)?`)
	reGateRegex    = sieve.MustCompile("(?:^|[\\s'\"(])\\^[\\w(\\[]|`\\^|/[^/\\s]*[\\[\\]{}()|+*][^/\\s]*/|\\[0-9\\]|\\{\\d+\\}")
	reGateSuffix   = sieve.MustCompile(`(?:\*|\b[\w-]+)?\.[a-z0-9-]+\.(?:eth|xyz|io|com|org|net)\b|\b[\w-]+\.eth\b|\bending\s+in\s+\.\w|-\w+\.(?:xyz|io|com)\b`)
	reGateNumeric  = sieve.MustCompile(`\b(?:exactly|equal\s+to|equals)\s+\$?\d|\b(?:ending|ends|end|begins?|beginning|starting|starts?)\s+(?:in|with)\s+['"]?[\d.]+|\bdivisible\s+by\s+\d|\bdigits\s+(?:sum|add)|\b(?:referral|promo|invite|partner)\s+code\s+\S+|\b(?:tag|memo|code|reference|ref)\s+#?\d{3,}|\bsalt\s+0x|\bbytes\s+0x|\b(?:chain\s+|pool\s+|order\s+)?ids?\s+#?\d{3,}|\b\d{1,3}(?:\.\d{1,3}){3}\b`)
	reGateCalendar = sieve.MustCompile(`\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}:\d{2}\b|\b(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)\b|\b(?:on|from|after|until|before|between)\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:january|february|march|april|may|june|july|august|september|october|november|december)\b|\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}\b|\b(?:after|from|at|past)\s+block\s+(?:height\s+)?[\d,]{4,}|\b(?:during|in)\s+epoch\s+\d+|\bfull\s+moon\b|\b(?:every|each|on\s+the)\s+\d{1,2}(?:st|nd|rd|th)\b|\b(?:first|last|\d{1,2}(?:st|nd|rd|th))\s+(?:business\s+|working\s+|trading\s+)?day\s+of\s+(?:each|every|the)\s+(?:week|month|quarter|year)\b|\biso\s+week\b`)
	// An attribute of an input that its sender writes, selected by its
	// wording: "with the memo", "labelled", "whose display name includes".
	reGateAttr = sieve.MustCompile(`\b(?:tag|tags|tagged|hashtag|label|labels|labelled|labeled|memo|memos|stamp|stamped|marker|marked|code|codes|codeword|code\s+word|keyword|key\s+word|passphrase|password|ids?|referenced|prefix|prefixed|suffix|suffixed|handle|nickname|display\s+name|alias|referral|reference|ref|title|titled|named|called|header|headers|user[\s-]agent|ticker|symbol|comment|webhook|version|build|salt|calldata|signed|sign\s+off|sign-off|cohort|emoji|string|phrase|word|sequence|line|description)\b`)
	reGateIf   = sieve.MustCompile(`\b(?:if|when|whenever|unless|once|should)\b`)
	// A regime or rule known only by its name: "under the kingfisher
	// rule", "during cobalt-sunrise windows", "per the elm memo".
	reGateRegime = sieve.MustCompile(`\b(?:under|during|in|on|per|according\s+to)\s+(?:the\s+|a\s+|an\s+)?["'“‘]?[\pL\pN-]+["'”’]?(?:\s+["'“‘]?[\pL\pN-]+["'”’]?)?\s+(?:rule|rules|window|windows|mode|context|maintenance|regime|protocol|programme|program|lane|arrangement|memo|directive|policy|exception)\b`)
	// Nouns for an arbitrary token as such.
	reGateTriggerNoun = sieve.MustCompile(`\b(?:keywords?|code\s*words?|passphrases?|pass\s+phrases?|passwords?|magic\s+words?|secret\s+words?|the\s+(?:word|phrase|string)\b)`)
	// An input or a party whose attribute a gate can select.
	reGateInput = sieve.MustCompile(`\b(?:requests?|messages?|orders?|tickets?|notes?|transfers?|swaps?|trades?|deposits?|withdrawals?|payouts?|sessions?|clients?|wallets?|users?|callers?|senders?|counterpart(?:y|ies)|recipients?|spenders?|addresses|contracts?|pools?|tokens?|chats?|conversations?|prompts?|instructions?|agents?|accounts?|names?|ids?|ens|domains?|ip|nonces?|amounts?|prices?)\b`)
	reGateShape = sieve.MustCompile(`\b(?:contains?|containing|includes?|including|quotes?|quoting|says?|saying|reads?|mentions?|mentioning|writes?|types?|begins?|beginning|starts?|starting|ends?|ending|matches|matching|match|equal|equals|bears?|bearing|carries|carrying|hold|holds|with|whose|named|called|under|into|from|of|reporting|in\s+capitals|lowercase|uppercase|trailing|leading)\b`)

	// Safeguards the agent keeps.
	safeguard = `(?:slippage(?:\s+(?:check|limit|protection|guard|bound)s?)?|min(?:imum)?[\s-]*(?:out(?:put)?|received)(?:\s+(?:guard|check))?|minout|price[\s-]impact(?:\s+(?:guard|ceiling|limit|check))?|simulat\w*|re-?simulat\w*|allow-?list\w*|white-?list\w*|recipient\s+(?:check|verification|allowlist)|address(?:-book)?\s+(?:check|verification)|co-?sign\w*|(?:second\s+)?approvers?|second\s+(?:signature|signer|approval|confirmation|sign-off)|multi-?sig\w*(?:\s+(?:co-?signer|approval|confirmation))?|sign-?off|signatures?|confirmations?|confirmation\s+prompt|prompt|timelock|time-lock|oracle(?:\s+(?:check|guard|cross-check|freshness\s+check|deviation\s+check))?|(?:price-)?deviation\s+checks?|health[\s-]factor(?:\s+(?:checks?|guards?|limits?|enforcement))?|collateral(?:-ratio)?\s+(?:check|floor|ratio)|liquidation(?:-risk)?\s+(?:check|guard)|sanctions?\s+(?:screen\w*|lookup|check)|compliance\s+(?:screen\w*|check|review)|kyc|(?:security\s+)?reviews?|audit(?:\s+registry)?|honeypot\s+check|(?:spending|withdrawal|approval|position|transfer|daily|size|rate|per-transaction|per-call)\s+(?:limits?|caps?|guards?)|rate[\s-]limit\w*|limits?|caps?|ceiling|floor|guards?|checks?|hold|cooldown|(?:cooling|waiting|cool-?down)\s+period|(?:withdrawal\s+)?queue|delay|verification|protection|circuit[\s-]breakers?|screening|screen)`
	reRelaxed = []*sieve.Regexp{
		// "no" only right before the safeguard (one qualifier at most):
		// in "no protocol changes limits" it quantifies the subject.
		sieve.MustCompile(`\bno\s+(?:the\s+|a\s+|any\s+|all\s+|its\s+|their\s+)?(?:[\w-]+\s+)?` + safeguard + `\b`),
		sieve.MustCompile(`\b(?:without|skip|skips|skipped|skipping|bypass|bypasses|bypassing|ignore|ignores|ignoring|ignored|disable|disables|disabled|drop|drops|waive|waives|waived|lift|lifts|lifted|past|beyond|outside(?:\s+of)?|exempt\s+from|exemption\s+from|waiver\s+of|out\s+of\s+scope\s+for|not\s+subject\s+to|no\s+need\s+for|need\s+no|needs\s+no|requires?\s+no|free\s+of|instead\s+of)\s+(?:the\s+|a\s+|any\s+|all\s+|its\s+|their\s+)?(?:[\w-]+\s+){0,2}?` + safeguard + `\b`),
		sieve.MustCompile(`\b` + safeguard + `(?:\s+[\w-]+){0,4}?\s+(?:is|are|was|were|has\s+been|have\s+been|can\s+be|may\s+be|gets?)\s+(?:\w+ly\s+)?(?:complete|completed|not\s+(?:required|needed|enforced|applied|necessary)|unnecessary|waived|off|disabled|suspended|paused|lifted|relaxed|skipped|ignored|satisfied|already\s+satisfied|done(?:\s+elsewhere)?|removed|bypassed|unrestricted|not\s+applicable)\b`),
		sieve.MustCompile(`\b` + safeguard + `\s+(?:does\s+not|doesn't|do\s+not|don't|no\s+longer)\s+apply\b|\b` + safeguard + `\s+(?:not\s+required|not\s+needed|waived|disabled|off)\b|\b` + safeguard + `(?:\s+[\w-]+){0,2}?\s+(?:can|may)\s+be\s+(?:skipped|ignored|dropped|waived)\b|\b` + safeguard + `(?:\s+[\w-]+){0,2}?\s+(?:does\s+not|doesn't|do\s+not|don't)\s+apply\b`),
		sieve.MustCompile(`\b(?:pre-?approved|pre-?authori[sz]ed|pre-?cleared|pre-?vetted|pre-?verified|pre-?matched|pre-?screened|pre-?checked|pre-?confirmed|pre-?signed|change-approved|already\s+(?:been\s+)?(?:simulated|approved|vetted|verified|cleared|checked|satisfied|confirmed|screened)|(?:confirmed|approved|authori[sz]ed)\s+by\s+the\s+(?:user|owner|principal|treasurer|signers?)\s+already|accept\w*\s+any\s+(?:[\w-]+\s+)?(?:price|quote|signature|address|amount|recipient)|set\s+to\s+(?:the\s+)?max(?:imum)?\b|done\s+elsewhere|(?:is|are|been|automatically)\s+(?:\w+\s+)?(?:trusted|whitelisted|allowlisted)|(?:allowed|let)\s+through|skip\s+(?:all|both|them|these|those|every)\b|trusted\s+(?:counterpart(?:y|ies)|partners?|services?|routers?|relays?)|verified\s+partners?|internal\s+staff|trust\s+any|approve\s+(?:whatever|any|every|them|it)\s+(?:\w+\s+)?freely|approve\s+(?:it|them)\s+freely|freely|(?:is|are)\s+equivalent\s+to\s+(?:[\w-]+\s+){0,4}?(?:approv\w*|confirm\w*|signature|sign-off)|(?:treat|treated|consider|considered)\s+(?:it|them|this)?\s*as\s+(?:a\s+|the\s+)?(?:\w+\s+){0,2}(?:approval|confirmation|authori[sz]ation)|one\s+signature|single\s+signature|one\s+is\s+enough|approve\s+whatever|(?:get|gets|grant|grants|granted|give|gives|with|for\s+an?|to|set\s+(?:\w+\s+)?to)\s+(?:it\s+|them\s+)?(?:an\s+)?(?:unlimited|infinite|unrestricted)\b|(?:unlimited|infinite|unrestricted)\s+(?:\w+\s+)?(?:granted|approved)|(?:is|are)\s+unrestricted|at\s+any\s+price|any\s+price(?:\s+impact)?|regardless\s+of\s+(?:the\s+)?(?:quoted\s+)?(?:price|size|limits?)|never\s+rate-limited|(?:is|are)\s+(?:not|never)\s+(?:screened|checked|verified|simulated|reviewed|limited|capped|confirmed|held|rate-limited)|(?:count|counts|counted|serve|serves|treat|treats|treated|regarded|taken)\s+(?:[\w'"’-]+\s+){0,4}?as\s+(?:a\s+|an\s+|the\s+)?(?:[\w'’-]+\s+){0,3}?(?:approval|authori[sz]ation|confirmation|signature|sign-?off|override|consent)|blanket\s+(?:approval|consent|authori[sz]ation)|signed\s+off\s+already|already\s+signed\s+off|whatever\s+price|before\s+the\s+(?:timelock|time-lock|hold|cooldown|delay)\s+(?:expires|ends|elapses|is\s+over)|not\s+(?:be\s+)?enforced|without\s+(?:asking|checks|limits|review|reading|re-simulating))\b`),
		// A safeguard not gone through, exceeded or not run.
		sieve.MustCompile(`\b(?:no\s+longer|not|never|don't|doesn't|do\s+not|does\s+not)\s+(?:trigger|require|need|go\s+through|undergo|pass\s+(?:through|by)|face|hit)\s+(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+){0,2}?` + safeguard + `\b|\b(?:can|may|are\s+allowed\s+to|is\s+allowed\s+to)\s+(?:exceed|go\s+over|go\s+above|surpass|skip|ignore)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?` + safeguard + `\b|\b(?:never|no\s+longer)\s+(?:simulates?|checks?|verif(?:y|ies)|screens?|reviews?|confirms?)\b`),
		// An exception to a safeguard, or a safeguard not run again.
		sieve.MustCompile(`\b` + safeguard + `\b(?:\W+[\w-]+){0,8}?\W+(?:has\s+(?:a|an|one)\s+(?:\w+\s+)?|the\s+(?:one\s+|only\s+)?)?(?:exception|exemption)s?\b|\b(?:exception|exemption)s?\s+(?:to|from|for)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?` + safeguard + `\b|\b(?:don't|do\s+not|no\s+need\s+to|never)\s+(?:re-?run|re-?check|repeat|run|perform|redo|wait\s+for|ask\s+for|require)\s+(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+)?` + safeguard + `\b`),
		// Control of a position or account handed to an address.
		sieve.MustCompile(`\badd(?:ed|s)?\s+(?:0x[0-9a-f]{8,}|[\w-]+\.eth)\s+as\s+(?:an?\s+|the\s+)?(?:operator|owner|admin|signer|delegate|guardian|spender)\b|\b(?:set|change)\s+(?:the\s+)?(?:recipient|receiver|beneficiary|payout\s+address|destination)\s+to\s+0x[0-9a-f]{8,}|\b(?:make|set|appoint)\s+(?:0x[0-9a-f]{8,}|[\w-]+\.eth)\s+(?:as\s+)?(?:the\s+|an?\s+)?(?:operator|owner|admin|delegate|guardian)\b`),
		// Value moved to a destination the entry names.
		sieve.MustCompile(`\b(?:send|sends|sent|transfer|transfers|transferred|sweep|sweeps|forward|forwarded|forwards|pay|paid|release|released|route|routed|move|moved|bridge|withdraw|go|goes|fill|redirect|redirected|redirects)\b(?:\W+[\w.-]+){0,10}?\W+(?:(?:to|into|at|through)\W+(?:(?:the\s+)?(?:[\w-]+\s+){0,3}?0x[0-9a-f]{8,}|[\w-]+\.eth\b)|from\s+the\s+treasury)`),
		sieve.MustCompile(`\brelease\s+(?:the\s+)?(?:pending\s+)?(?:funds|withdrawals?|deposits?)\b|\bslippage\s+(?:up\s+to\s+)?(?:[2-9]\d|100)\s*%|\bslippage\s+bps\W+(?:[2-9]\d{3}|\d{5,})`),
		// Configuration written as keys and values.
		sieve.MustCompile(`\b(?:simulat\w*|confirm\w*|allowlist|whitelist|verify|verification|review|checks?|limit|cap|co-?signers?|require\s+[\w-]+|max\s+transfer)(?:\.\w+)?\W+(?:false|off|none|null|disabled|0|no)\b|\b(?:skip|disable|bypass)\W+(?:\w+\s+)?(?:slippage|simulation|allowlist|sanctions|recipient|check|review)|\bapprove\s+(?:max|unlimited|all)\b|\btransfer\s+all\b|\bapprovals?\W+unlimited\b`),
	}
	// A denied exception inside the relaxation: "the limiter does not
	// have an exemption list".
	reDeniedException = sieve.MustCompile(`\b(?:not|no|never|without)\b(?:\W+\w+){0,3}?\W+(?:exceptions?|exemptions?)$`)
	// A denial of the relaxation just before it.
	reGateDenied = sieve.MustCompile(`\b(?:never|not|no|don't|doesn't|cannot|can't|won't|nothing|neither|nor|do\s+not)\b(?:\W+\w+){0,3}?\W*$`)
)

// reGateI18n holds the same two parts in the other languages the trigger
// model reads: words for tag, label, code, prefix and word (a sender's
// attribute), and words for "is not needed", "pre-approved", "without"
// and "does not apply" before or after a safeguard.
var (
	reGateAttrI18n = sieve.MustCompile(lb + `(?:étiquet\pL*|verwendungszweck|identificador|étiquette|étiqueté\pL*|marqu\pL*|code|préfixe|mot|präfix\pL*|etikett\pL*|markiert\pL*|kennwort|codewort|wort|etiqueta\pL*|código|codigo|prefijo|palabra|rótulo|palavra|codice|parola|prefisso|etichett\pL*|label|woord|code|метк\pL*|ярлык\pL*|код\pL*|префикс\pL*|слов\pL*|etykiet\pL*|oznaczon\pL*|kod\pL*|prefiks\pL*|słow\pL*|etiket\pL*|kelime\pL*|kode|kata|nhãn|mã|từ|ordet|kodem)(?:[^\pL\pN]|$)` +
		`|` + lb + `(?:senha|contraseña|passwort|mot\s+de\s+passe|пароль|vermerk|soprannome|apodo|surnom|spitzname|apelido|прозвищ\pL*|подпис\pL*|sceau|siegel|sello|asunto|assunto|betreff|oggetto|termin\pL*\s+(?:com|con|par|en)|commence\pL*\s+par|beginn\pL*\s+mit|empieza\pL*\s+(?:con|por)|comienza\pL*\s+(?:con|por)|começa\pL*\s+(?:com|por)|inizia\pL*\s+con|начина\pL*\s+с|заканчива\pL*\s+на)(?:[^\pL\pN]|$)` +
		`|标签|标记|代码|前缀|暗号|口令|密码|件名|备注|タグ|ラベル|コード|番号|合言葉|言葉|パスワード|태그|라벨|코드|접두사|단어|비밀번호|암호`)
	reRelaxedI18n = sieve.MustCompile(lb + `(?:pré-?approuvé\pL*|entfällt|entfallen|no\s+pasan?\s+por|dispensa\pL*|ausgenommen|keine\s+(?:prüfung|kontrolle|bestätigung|simulation|freigabe)|nessun[ao]?\s+(?:limite|simulazione|verifica|controllo|conferma)|ningun[ao]?\s+(?:límite|verificación|simulación|confirmación)|aucun[e]?\s+(?:limite|vérification|contrôle|confirmation|simulation)|pré-?autoris\pL*|n'est\s+nécessaire|ne\s+sont\s+pas\s+nécessaires|aucune?\s+\pL+\s+n'est|sans\s+(?:simulation|vérification|contrôle|limite|signature|confirmation)|freigegeben|gilt\s+(?:für\s+sie\s+)?nicht|nicht\s+(?:nötig|erforderlich|notwendig)|ohne\s+(?:simulation|prüfung|limit|bestätigung|signatur)|no\s+necesitan|no\s+requieren|sin\s+(?:simulación|verificación|límite|firma|confirmación)|preaprobad\pL*|podem\s+ignorar|não\s+precisam|sem\s+(?:simulação|verificação|limite|assinatura|confirmação)|pré-?aprovad\pL*|già\s+verificat\pL*|senza\s+(?:simulazione|verifica|limite|firma|conferma)|non\s+(?:servono|richiedono)|zonder\s+(?:simulatie|controle|limiet|handtekening)|не\s+требуют|не\s+нужн\pL*|без\s+(?:симуляци\pL*|проверк\pL*|лимит\pL*|подпис\pL*)|bez\s+(?:symulacji|weryfikacji|limitu|podpisu|potwierdzenia)|bez\s+limitu|onaylı|gerek\s+yok|sudah\s+disetujui|tidak\s+berlaku|tanpa\s+(?:simulasi|pemeriksaan|batas|tanda\s+tangan)|không\s+cần|đã\s+được\s+duyệt|höj\s+\pL+gränsen|spring\s+\pL+\s+over)(?:[^\pL\pN]|$)` +
		`|跳过|スキップ|건너뛰|预先批准|已批准|承認済み|사전\s*승인` +
		`|(?:不需要|无需|免除|不要)[^。！？]{0,6}?(?:确认|多签|检查|验证|模拟|限制|限额|审核|签名|白名单|滑点)` +
		`|(?:シミュレーション|確認|チェック|検証|承認|署名)(?:なしで|不要)|(?:上限|制限|限额|限制)を?解除` +
		`|(?:확인|검증|서명|승인|시뮬레이션)[^.]{0,6}?(?:필요\s*없|면제)`)
	// Verbs for "skip" whose object may come before them.
	reSkipI18n = sieve.MustCompile(lb + `(?:pomiń|atla|omite|omita|omitir|salta|überspring\pL*|bỏ\s+qua|lewati|abaikan|пропусти\pL*)(?:[^\pL\pN]|$)`)
)

// GatedRelaxation returns the reason text scopes a relaxed safeguard, or a
// movement of value, to inputs carrying an arbitrary token or to a
// calendar point, or "" when it does not. The reason names the gate and
// the relaxation.
func GatedRelaxation(text string) string {
	units := reLoosenSentence.Split(text, -1)
	// Structured text (a table, CSV, JSON, YAML or code) pairs its gate
	// and its action across lines: it is read whole as well.
	if strings.ContainsAny(text, "{|\n") {
		units = append(units, strings.ReplaceAll(text, "\n", " ; "))
	}
	prev := "" // the gate of the unit before, which scopes this one too
	for _, u := range units {
		u = strings.TrimSpace(u)
		if u == "" {
			continue
		}
		low := strings.ToLower(u)
		if reAboutAttack.MatchString(reNamedForAttack.ReplaceAllString(low, "")) {
			prev = ""
			continue
		}
		gate := gateOf(u, strings.ReplaceAll(low, "_", " "))
		if gate == "" && prev == "" {
			continue
		}
		said := strings.ReplaceAll(low, "_", " ")
		relax := relaxationOf(said)
		if tok, ok := strings.CutPrefix(gate, quotedGate+" ("); ok && relax != "" {
			// The quoted words are mentioned, not stated: a relaxation
			// read wholly inside them ("because the first signer
			// 'already checked'") is not the sentence's, which is read
			// again without them.
			quoted := strings.ReplaceAll(strings.ToLower(strings.TrimSuffix(tok, ")")), "_", " ")
			if strings.Contains(strings.Join(strings.Fields(quoted), " "), relax) {
				relax = relaxationOf(strings.Replace(said, quoted, `""`, 1))
			}
		}
		if relax != "" {
			return "contradicts mental model \"" + GateModel + "\": " + cmp.Or(gate, prev) + " gates " + relax
		}
		prev = gate
	}
	return ""
}

// quotedGate is the kind of a gate that is a quoted token.
const quotedGate = "a quoted token"

// reNamedForAttack is a safeguard named after the attack it stops ("the
// phishing checks", "the scam filter"): a sentence that lifts one is not
// about an attack.
var reNamedForAttack = sieve.MustCompile(`\b(?:phishing|scam|fraud|attack|injection|poisoning|malicious)[\s-]+(?:checks?|filters?|screens?|screening|protection|detection|scans?|scanning|guards?)\b`)

// gateOf returns the gate u holds (its kind and token), or "". u is the
// unit as written (ticket codes are upper case), low its lower case. The
// first kind of token (gateKinds, in order) found that selects inputs is
// the gate; else a symbol; else an input's wording, with an attribute of
// the input named.
func gateOf(u, low string) string {
	in := gateInputs{low: low}
	for _, g := range gateKinds {
		s := low
		if g.asWritten {
			s = u
		}
		m := g.find(s, &in)
		if m == "" || !g.selects(s, &in) {
			continue
		}
		return g.kind + " (" + strings.TrimSpace(m) + ")"
	}
	if r, ok := symbol(u); ok {
		return "a symbol (" + string(r) + ")"
	}
	if !reGateShapeOnly.MatchString(low) {
		return ""
	}
	if _, attr := in.read(); attr {
		return "an input's wording (" + reGateShapeOnly.FindString(low) + ")"
	}
	return ""
}

// gateKind is a kind of token a gate is made of, and when the token is
// one.
type gateKind struct {
	kind      string
	re        *sieve.Regexp
	asWritten bool // re reads the unit as written, not its lower case
	bare      bool // the token is a gate without an attribute naming it
	named     bool // the token is a gate only with an attribute named
}

// gateKinds are the kinds of token gateOf looks for, in the order it
// prefers them.
var gateKinds = []gateKind{
	{"a trigger word", reGateTriggerNoun, false, true, false},
	{"a named regime", reGateRegime, false, true, false},
	{"a hashtag", reGateHash, true, true, false},
	{"a handle", reGateHandle, true, true, false},
	{"a regular expression", reGateRegex, true, true, false},
	{"a name suffix", reGateSuffix, false, true, false},
	{"a matched number", reGateNumeric, false, true, false},
	{"a calendar point", reGateCalendar, false, true, false},
	{"a form of the input's text", reGateForm, false, true, false},
	{"a code", reGateCode, true, false, false},
	{"a code", reGateCaps, true, false, true},
	{"a version or build", reGateBuild, false, false, true},
	{quotedGate, reGateQuoted, true, false, false},
	{"a hex constant", reGateHex, true, false, true},
}

// gateInputs is what a unit says of the inputs it selects, read only
// when a token needs it: whether it names an attribute of the input
// ("the memo", "labelled", "version"), which selects with any token, and
// whether it selects inputs at all (an attribute named, or a shape word:
// "requests mentioning"), which a quoted or coded token needs.
type gateInputs struct {
	low                  string
	named, attr, wasRead bool
}

// read returns whether the unit names an attribute of its input and
// whether it selects inputs.
func (in *gateInputs) read() (named, attr bool) {
	if !in.wasRead {
		low := in.low
		in.named = reGateAttr.MatchString(low) || reGateAttrI18n.MatchString(low) || wordingCondition(low) || wordingConditionI18n(low)
		in.attr = in.named || reGateInput.MatchString(low) && reGateShape.MatchString(low) || reGateIf.MatchString(low) || reCondI18n.MatchString(low)
		in.wasRead = true
	}
	return in.named, in.attr
}

// find returns the first token of g's kind in s that can be a gate, or
// "".
func (g gateKind) find(s string, in *gateInputs) string {
	switch g.re {
	case reGateHash, reGateHandle, reGateCalendar:
		// A tag, handle or time that only labels the note (in its
		// heading or after its text) selects no input.
		for _, i := range g.re.FindAllStringIndex(s, -1) {
			if !labelOnly(s, i[0], i[1]) {
				return s[i[0]:i[1]]
			}
		}
		return ""
	case reGateCode, reGateCaps:
		// A term of the domain's vocabulary is an observable, not a
		// sender's code: the gate is the first code that is not one.
		// A term continued by more of a code ("EIP-7702-ALLOW") is
		// not the term. With an attribute of the input named ("the
		// memo is", "labelled"), every code selects inputs, terms
		// too: otherwise any of the address book's hundreds of token
		// symbols would be a code word no gate reads ("requests
		// labelled AUSD need no confirmation").
		named, _ := in.read()
		for _, i := range g.re.FindAllStringIndex(s, -1) {
			c := s[i[0]:i[1]]
			if named || !domainTerm(c) || continued(c, s[i[1]:]) {
				return c
			}
		}
		return ""
	}
	return g.re.FindString(s)
}

// selects reports whether a token of g's kind found in s is a gate: a
// bare kind always is; a named kind only with an attribute of the input
// named; any other only in a unit that selects inputs, or as a ticket
// code used as a selector.
func (g gateKind) selects(s string, in *gateInputs) bool {
	if g.bare && !g.named {
		return true
	}
	named, attr := in.read()
	if g.named && !named {
		return false
	}
	return g.bare || attr || selectorCode(g.re, s)
}

// selectorCode reports whether re is the ticket-code pattern and s holds a
// code used as a selector rather than as a reference: not a standard's
// number (ERC-20, EIP-1559) and not a heading ("OPS-1182: …").
func selectorCode(re *sieve.Regexp, s string) bool {
	if re != reGateCode {
		return false
	}
	for _, m := range re.FindAllStringIndex(s, -1) {
		tok := strings.TrimRight(s[m[0]:m[1]], " ,.;)：")
		if domainTerm(tok) || reStandards.MatchString(strings.ToLower(strings.TrimLeftFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) }))) || strings.HasPrefix(s[m[0]+len(tok):], ":") || strings.HasPrefix(s[m[0]+len(tok):], "：") {
			continue
		}
		return true
	}
	return false
}

// reGateForm is a property of the form of an input's text or of its
// identifier, which no state of the world has: its typography (italics,
// capitals, a fence or wrapper), a word game (a palindrome, an acrostic,
// a haiku, a count of a character), or an identifier's arithmetic (a
// multiple of a number, a range of ids, a time exactly on the hour).
var reGateForm = sieve.MustCompile(`\b(?:in\s+italics|italici[sz]ed|in\s+bold|all[\s-]caps|palindrom\w*|haiku|acrostic|first\s+letters?\s+of|fenced\s+with|wrapped\s+in|multiple\s+of\s+\d+|on\s+the\s+hour|(?:odd|even)\s+number\s+of|exactly\s+(?:two|three|four|five|\d+)\s+times|ids?\s+in\s+the\s+\d+-\d+\s+range)\b`)

// reGateShapeOnly is a string-shape predicate on an input's attribute
// that names no token: "whose display name includes", "has a trailing
// underscore", "written entirely in lowercase".
var reGateShapeOnly = sieve.MustCompile(`\b(?:contains?|containing|includes?|including|begins?\s+with|beginning\s+with|starts?\s+with|starting\s+with|ends?\s+(?:with|in)|ending\s+(?:with|in)|matches|matching|prefixed|suffixed|in\s+capitals|entirely\s+in\s+(?:lower|upper)case|trailing\s+\w+|quotes?\s+the)\b`)

// symbol returns the first pictograph or other symbol in s (emoji,
// hexagrams, dingbats), which no market observable is written with.
func symbol(s string) (rune, bool) {
	for _, r := range s {
		if r >= 0x1F000 && r <= 0x1FAFF || unicode.Is(unicode.So, r) && r != '©' && r != '®' && r != '°' {
			return r, true
		}
	}
	return 0, false
}

// relaxationOf returns the relaxed safeguard or movement of value low
// states, not denied, or "".
func relaxationOf(low string) string {
	for _, re := range reRelaxed {
		for _, m := range re.FindAllStringIndex(low, -1) {
			if reGateDenied.MatchString(low[max(0, m[0]-30):m[0]]) || reDeniedException.MatchString(low[m[0]:m[1]]) {
				continue
			}
			return strings.Join(strings.Fields(low[m[0]:m[1]]), " ")
		}
	}
	if m := cmp.Or(reRelaxedI18n.FindString(low), reSkipI18n.FindString(low)); m != "" {
		return strings.TrimSpace(m)
	}
	if a := unsafeActionI18n(low); a != "" {
		return a
	}
	return polarRelaxation(low)
}

// Gate is the vote of the gated-relaxation model on e: an L3b failure
// that raises scrutiny when its content scopes a relaxed safeguard to an
// arbitrary token (GatedRelaxation), a pass otherwise.
func Gate(e *knowledge.Entry) Vote {
	if e == nil {
		return Vote{Layer: knowledge.LayerConsistency, Skipped: true}
	}
	if why := GatedRelaxation(e.Content); why != "" {
		return Vote{Layer: knowledge.LayerConsistency, Score: ScrutinyConsistency, Scrutiny: true, Reasons: []string{why}}
	}
	return Vote{Layer: knowledge.LayerConsistency, Pass: true}
}

// labelOnly reports whether s[i:j], a tag, handle or calendar point, only
// labels s: it stands in a heading (before the first ": ") or after the
// text (nothing but tags and punctuation follows it), and that part of s
// holds no condition and names no attribute an input carries. Inside a
// condition ("transfers tagged #x", "when the memo reads ...") it gates.
func labelOnly(s string, i, j int) bool {
	var part string
	if h := strings.Index(s, ": "); h >= j {
		// A heading that is the token alone addresses or scopes what
		// follows ("@desk: ...", "#fast: ..."); a label stands with
		// other words ("Alert 14:30 UTC", "note from @devon").
		part = s[:h]
		if !reLetterWord.MatchString(part[:i] + " " + strings.TrimLeftFunc(part[j:], func(r rune) bool {
			return r == '-' || r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)
		})) {
			return false
		}
	} else if reTrailingTags.MatchString(s[j:]) {
		part = s
	} else {
		return false
	}
	low := strings.ToLower(part)
	return !reGateIf.MatchString(low) && !reCondI18n.MatchString(low) && !reGateAttr.MatchString(low) && !reGateAttrI18n.MatchString(low) && !reGateShapeOnly.MatchString(low)
}

// reLetterWord is a word of letters.
var reLetterWord = sieve.MustCompile(`\pL{2,}`)

// reTrailingTags is what may follow a label at the end of a note: more tags
// and punctuation.
var reTrailingTags = sieve.MustCompile(`^(?:[\s.,;!?)\]]*#[\pL\pN_-]+)*[\s.,;!?)\]]*$`)
