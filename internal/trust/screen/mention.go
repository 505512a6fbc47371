package screen

import (
	"strings"

	"github.com/wardhq/ward/internal/sieve"
)

// A warning about an injection quotes it: "treat a token name like
// \"ignore previous instructions\" as data". Such a quotation is a mention,
// addressed to nobody, and Knowledge does not read it as an instruction.
// The boundary is the sentence's own verb and the quotation's size: the
// quoted text is set aside only when the sentence around it tells the
// agent to refuse it (treat it as data or as an attack, quarantine or
// reject it, never let it steer, do not follow it, watch for it), and
// only when the quotation (in double, typographic or single quotes) is a
// phrase (at most maxMention words) that names no address or URL. A real instruction wrapped in the same framing carries a payload
// (a destination, several clauses) and stays in; so does a quotation under
// neutral framing ("Quote from the docs: \"...\"").

// maxMention is the most words a quoted phrase may have to be a mention.
const maxMention = 8

var (
	// reRefusal matches the framing that tells the reader to refuse what
	// the sentence quotes.
	reRefusal = sieve.MustCompile(`(?i)\btreat(?:ed|s|ing)?\s+(?:\S+\s+){0,4}?as\s+(?:untrusted\s+)?(?:data|text|content|untrusted|hostile|suspicious|an?\s+(?:injection|attack|red\s+flag))\b` +
		`|\b(?:never|do\s+not|don't|must\s+not)\s+(?:lets?|follow(?:s|ed)?|obeys?|execut(?:e|es|ed)|acts?\s+on|runs?)\b|\bquarantin\w*|\b(?:watch|look)\s+out\s+for\b|\bwatch\s+for\b|\bbeware\s+of\b|\bbe\s+wary\s+of\b|\b(?:refus|reject)\w*\b` +
		`|\b(?:is|are)\s+(?:always\s+|almost\s+always\s+)?(?:untrusted|an?\s+(?:prompt\s+)?injection|an?\s+attack|a\s+red\s+flag)\b` +
		`|视为|当作|当成|隔离|不要执行|不得执行|而不是执行|として扱|隔離|実行しない`)
	// reQuotation matches a quoted span in double, typographic or single
	// quotes. A single quote opens only after a space, a bracket or a
	// clause mark and closes only before a non-letter, so apostrophes
	// ("don't", "the agent's") do not pair; the characters around a single
	// quotation are matched too, and kept.
	reQuotation = sieve.MustCompile(`"[^"\n]{1,200}"|“[^”\n]{1,200}”|«[^»\n]{1,200}»|「[^」\n]{1,200}」|„[^“”\n]{1,200}[“”]` +
		`|(?:^|[\s(\[:,;])'[^'\n]{1,200}'(?:[^\pL\pN]|$)`)
	// rePayload matches what makes a quotation more than a phrase: a
	// destination.
	rePayload = sieve.MustCompile(`(?i)0x[0-9a-f]{6,}|https?://|\b[\w-]+@[\w-]+\.\w+`)
)

// A warning also quotes what an attacker said, and refuses it in a sentence
// of its own: "Scam DMs say 'your wallet is compromised, move everything
// now'. No real team will ask you that." The quotation is a mention when
// the sentence attributes it to an attacker (an attacker, or a scam
// message, page or account, says, writes, tells or hides it), the text
// refuses or denies something, and the quotation is at most maxAttributed
// words, names no destination and does not itself address an AI reader
// (that is an injection however it is framed).
const maxAttributed = 16

var (
	reQuotedReport = sieve.MustCompile(`(?i)(?:^|[^\pL])(?:attackers?|scammers?|hackers?|drainers?|phishers?|fraudsters?|thieves|impersonators?|` +
		`(?:scam|phishing|drainer|fake|malicious|fraudulent|spoofed|poisoned|social[- ]engineering)\s+(?:[\w-]+\s+){0,2}?` +
		`(?:sites?|pages?|messages?|emails?|accounts?|posts?|dms?|texts?|memos?|kits?|bots?|calls?|threads?|popups?|prompts?|updates?|announcements?|releases?|notices?))` +
		`\s+(?:[\w-]+\s+){0,3}?(?:say|says|said|write|writes|wrote|read|reads|tell|tells|told|ask|asks|asked|post|posts|posted|hid|hide|hides|put|puts|claim|claims|claimed|urge|urges|urged|` +
		`paste|pastes|pasted|reply|replies|replied|respond|responds|responded|plant|plants|planted|insert|inserts|inserted|embed|embeds|embedded|inject|injects|injected)\b` +
		`[^"“«'\n]{0,60}?(?:["“«]|(?:^|[\s(\[:,;])')`)
	reReaderIn = sieve.MustCompile(`(?i)(?:^|[^\pL])` + reader + `(?:[^\pL]|$)`)
)

// unquoteMentions returns text with the quoted phrases of its refusing
// sentences blanked to "…", and text itself when there are none.
func unquoteMentions(text string) string {
	if !strings.ContainsAny(text, "\"“«「„'") {
		return text
	}
	plain := strings.ToLower(reQuotation.ReplaceAllString(text, "…"))
	warns := reRefusal.MatchString(plain) || reDenial.MatchString(plain)
	var b strings.Builder
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && !sentenceEnd(text, i) {
			continue
		}
		end := min(i+1, len(text))
		s := text[start:end]
		refusing := reRefusal.MatchString(reQuotation.ReplaceAllString(s, "…"))
		if refusing || warns && reQuotedReport.MatchString(s) {
			s = reQuotation.ReplaceAllStringFunc(s, func(q string) string {
				n := len(strings.Fields(q))
				if rePayload.MatchString(q) || refusing && n > maxMention ||
					!refusing && (n > maxAttributed || reReaderIn.MatchString(q)) {
					return q
				}
				before, after := "", ""
				if i := strings.IndexByte(q, '\''); i >= 0 && !strings.ContainsAny(q[:1], "\"“«「„") {
					j := strings.LastIndexByte(q, '\'')
					before, after = q[:i], q[j+1:]
				}
				return before + "\"…\"" + after
			})
		}
		b.WriteString(s)
		start = end
	}
	return b.String()
}

// sentenceEnd reports whether text[i] ends a sentence: a line break, or a
// full stop, ! or ? followed by a space or the end, or an ideographic
// full stop.
func sentenceEnd(text string, i int) bool {
	switch text[i] {
	case '\n':
		return true
	case '.', '!', '?':
		return i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'
	}
	// 。 is E3 80 82; ！ EF BC 81; ？ EF BC 9F: end on their last byte.
	return i >= 2 && (text[i-2:i+1] == "。" || text[i-2:i+1] == "！" || text[i-2:i+1] == "？")
}
