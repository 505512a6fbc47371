package validate

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// This file reads the claims L3b's property, bound, set and comparison
// models are about. A free parse of "X rebases" or "the close factor is
// 150 %" would need a grammar; instead each clause becomes a sequence of
// canonical word stems (DeFi synonyms folded: HF, LTV, bps…) in which a
// model's subject and object terms are found, with the clause's negation
// parity, the numbers next to the subject and whether the sentence is
// conditional or reported speech. The model then says what such a mention
// claims (see Model.contradiction).

// synonyms folds DeFi vocabulary to one spelling before stemming, in order.
// Each runs only on text containing one of its keys (a cheap filter: most
// text holds none of this vocabulary).
var synonyms = []struct {
	re   *regexp.Regexp
	out  string
	keys []string
}{
	{regexp.MustCompile(`\bcan't\b`), "can not", []string{"can't"}},
	{regexp.MustCompile(`\bwon't\b`), "will not", []string{"won't"}},
	{regexp.MustCompile(`n't\b`), " not", []string{"n't"}},
	{regexp.MustCompile(`\bcannot\b`), "can not", []string{"cannot"}},
	{regexp.MustCompile(`\bloan[- ]to[- ]value(?: ratio)?\b`), "ltv", []string{"loan"}},
	{regexp.MustCompile(`\bhf\b`), "health factor", []string{"hf"}},
	{regexp.MustCompile(`\blt\b`), "liquidation threshold", []string{"lt"}},
	{regexp.MustCompile(`\bliquidation (?:bonus|incentive|discount)\b`), "liquidation penalty", []string{"liquidation "}},
	{regexp.MustCompile(`\b(?:impermanent|divergence) loss\b|\bil\b`), "impermanent loss", []string{"loss", "il"}},
	{regexp.MustCompile(`\b(?:maximal|miner) extractable value\b`), "mev", []string{"extractable"}},
	{regexp.MustCompile(`\bsandwich(?:ed|ing|es)?(?: attacks?)?\b`), "sandwich", []string{"sandwich"}},
	{regexp.MustCompile(`\b(?:infinite|unlimited|max|maximum|uint256\.?max|type\(uint256\)\.max|unbounded) (?:token |erc-?20 )?(?:approvals?|allowances?)\b`), "unlimited approval", []string{"approv", "allowance"}},
	{regexp.MustCompile(`\ballowances?\b`), "approval", []string{"allowance"}},
	{regexp.MustCompile(`\butili[sz]ation(?: rate| ratio)?\b`), "utilization", []string{"utili"}},
	{regexp.MustCompile(`\b(?:variable )?borrow(?:ing)? (?:interest )?(?:rates?|aprs?|apys?|costs?)\b`), "borrow rate", []string{"borrow"}},
	{regexp.MustCompile(`\b(?:supply|deposit|lending|lender) (?:interest )?(?:rates?|aprs?|apys?|yields?)\b`), "supply rate", []string{"rate", "apr", "apy", "yield"}},
	{regexp.MustCompile(`\btxs?\b|\btransactions\b`), "transaction", []string{"tx", "transactions"}},
	{regexp.MustCompile(`\bsimulat[a-z]*\b|\bdry[- ]runs?\b|\beth_call\b`), "simulation", []string{"simulat", "dry", "eth_call"}},
	{regexp.MustCompile(`\b(?:priority (?:fees?|tips?)|tips?|miner tips?)\b`), "priority fee", []string{"tip", "priority"}},
	{regexp.MustCompile(`\bbase ?fees?\b`), "base fee", []string{"base"}},
	{regexp.MustCompile(`\b(?:block )?(?:proposers?|builders?|miners?|validators?)\b`), "validator", []string{"proposer", "builder", "miner", "validator"}},
	{regexp.MustCompile(`\b(?:native|canonical|official) (?:rollup |l2 )?bridges?\b`), "canonical bridge", []string{"bridge"}},
	{regexp.MustCompile(`\bop mainnet\b|\boptimism\b|\bop stack\b|\boptimistic rollups?\b`), "optimistic rollup", []string{"op ", "optimis"}},
	{regexp.MustCompile(`\bprivate (?:mempools?|rpcs?|relays?|order ?flow)\b|\bflashbots protect\b|\bmev[- ]?(?:blocker|protect(?:ion)? rpc)\b`), "private mempool", []string{"private", "flashbots", "mev"}},
	{regexp.MustCompile(`\bslippage (?:tolerance|setting|limit)s?\b|\bmax(?:imum)? slippage\b`), "slippage tolerance", []string{"slippage"}},
	{regexp.MustCompile(`\b(?:amountoutmin(?:imum)?|min(?:imum)? (?:amount )?(?:out|output|received))\b`), "minimum output", []string{"amountoutmin", "min"}},
	{regexp.MustCompile(`\bout[- ]of[- ]range\b`), "out of range", []string{"range"}},
	{regexp.MustCompile(`\bin[- ]range\b`), "in range", []string{"range"}},
	{regexp.MustCompile(`\bnon[- ]zero\b`), "nonzero", []string{"non"}}, // a quantity, not a denial
	{regexp.MustCompile(`\bnon[- ]`), "not ", []string{"non"}},
	{regexp.MustCompile(`\brather than\b|\binstead of\b`), "not", []string{"rather", "instead"}},
	{regexp.MustCompile(`\bno longer\b`), "not", []string{"no longer"}},
	// Other languages' negations, so that "O wstETH não faz rebase" is
	// read as denied (the tokens keep only ASCII letters: "não" would
	// leave "n" and "o").
	{regexp.MustCompile(`(^|[^\pL])(?:não|nao|nicht|kein|keine|keinen|keiner|niet|geen|nie|pas)([^\pL]|$)`), "${1}not${2}",
		[]string{"não", "nao", "nicht", "kein", "niet", "geen", "nie", "pas"}},
	{regexp.MustCompile(`\bone\b`), "1", []string{"one"}},
	{regexp.MustCompile(`\btwo\b`), "2", []string{"two"}},
	{regexp.MustCompile(`\bthree\b`), "3", []string{"three"}},
	{regexp.MustCompile(`\bseven\b`), "7", []string{"seven"}},
	{regexp.MustCompile(`\ba week\b`), "1 week", []string{"a week"}},
	{regexp.MustCompile(`\bhalf\b`), "50 %", []string{"half"}},
	{regexp.MustCompile(`\bdoubl(?:e|es|ed|ing)\b`), "rise 100 %", []string{"doubl"}},
	{regexp.MustCompile(`\bbasis points?\b|\bbps\b`), "bps", []string{"basis", "bps"}},
}

var punct = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`, "–", "-", "—", "-")

// canonical returns text lower-cased with the synonyms folded.
func canonical(text string) string {
	s := strings.ToLower(punct.Replace(text))
	for _, r := range synonyms {
		if containsAny(s, r.keys) {
			s = r.re.ReplaceAllString(s, r.out)
		}
	}
	return s
}

// stems returns text's canonical tokens: word stems, numbers verbatim,
// commas kept (they bound negation, see segment), articles dropped.
func stems(text string) []string {
	var out []string
	for _, t := range tokens(canonical(text)) {
		switch {
		case t == "the" || t == "a" || t == "an":
			continue
		case t[0] >= 'a' && t[0] <= 'z':
			t = stem(strings.TrimSuffix(strings.TrimSuffix(t, "'s"), "'"))
		}
		out = append(out, t)
	}
	return out
}

// tokens splits lower-case text into words ([a-z][a-z0-9']*), numbers
// ("1.05", "1:1") and the symbols % , < > ≤ ≥; a dash between spaces, a
// colon before a space and parentheses count as commas.
func tokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			j := i + 1
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9' || s[j] == '\'') {
				j++
			}
			out = append(out, s[i:j])
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j+1 < len(s) && (s[j] == '.' || s[j] == ':') && s[j+1] >= '0' && s[j+1] <= '9' {
				j++
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			out = append(out, s[i:j])
			i = j
		case c == '%' || c == ',' || c == '<' || c == '>':
			out = append(out, s[i:i+1])
			i++
		case c == '(' || c == ')' || c == ':' && (i+1 == len(s) || s[i+1] == ' ') || c == '-' && i > 0 && s[i-1] == ' ' && i+1 < len(s) && s[i+1] == ' ':
			out = append(out, ",")
			i++
		case strings.HasPrefix(s[i:], "≤"), strings.HasPrefix(s[i:], "≥"):
			out = append(out, s[i:i+len("≤")])
			i += len("≤")
		default:
			i++
		}
	}
	return out
}

// segment widens [s, e) to the commas around it: negation in another
// comma-separated part of a clause ("if you don't revoke, approvals
// persist") does not bear on the mentions.
func segment(toks []string, s, e int) (int, int) {
	for s > 0 && toks[s-1] != "," {
		s--
	}
	for e < len(toks) && toks[e] != "," {
		e++
	}
	return s, e
}

var (
	negWords = set("not", "no", "never", "none", "nothing", "nobody", "noone", "neither", "nor", "without", "avoid", "avoids", "avoiding", "avoided", "instead", "stop", "stops", "stopped", "cease", "ceases", "myth", "misconception", "mistake", "mistaken", "mistakenly", "wrongly", "incorrectly", "fallacy", "false", "untrue", "incorrect", "wrong")
	// after a verb, a quantity of nothing denies it: "proves little",
	// "guarantees nothing"
	nullAfter = set("little", "nothing", "naught")
	landWords = set("mined", "included", "executed", "confirmed", "landed", "broadcast", "submitted")
	condWords = set("if", "when", "whenever", "unless", "provided", "assuming", "during", "once", "until", "while", "only", "except")
	// reported speech and hedges: the sentence does not assert its claim
	reportWords = set("claim", "claims", "say", "says", "believe", "believes", "think", "thinks", "assume", "assumes", "pretend", "beware", "warn", "warns", "scam", "scammer", "scammers", "phishing", "promise", "promises", "rumor", "rumour", "allegedly", "supposedly", "attacker", "attackers", "fake", "supposed")
	motionWords = set("rise", "rises", "rising", "climb", "climbs", "drop", "drops", "fall", "falls", "fell", "go", "goes", "move", "moves", "cross", "crosses", "reach", "reaches", "push", "pushes", "get", "gets", "drift", "drifts", "slip", "slips", "dip", "dips", "sink", "sinks", "surge", "surges", "jump", "jumps", "becomes", "become")
	belowWords  = set("below", "under", "beneath", "<", "≤")
	aboveWords  = set("above", "over", "beyond", ">", "≥")
	lessWords   = set("less", "lower", "smaller", "fewer", "flatter", "shallower", "gentler")
	moreWords   = set("more", "higher", "greater", "larger", "bigger", "steeper")
	exceedWords = set("exceed", "exceeds", "outweighs", "above")
)

// present drops from clauses what states a former state: from "used to"
// (but not "is used to", a purpose) or "formerly" to the end of the
// clause, or to a "now", "today" or "currently" that starts the present
// one. In "the stable rate used to look fixed, now it is disabled" only
// "now it is disabled" is read.
func present(clauses [][]string) [][]string {
	var out [][]string
	for _, c := range clauses {
		for i := 0; i < len(c); i++ {
			if !past(c, i) {
				continue
			}
			rest := c[i:]
			c = c[:i]
			for k, t := range rest {
				if nowWords[t] {
					c = append(c[:len(c):len(c)], rest[k:]...)
					break
				}
			}
		}
		if len(c) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// past reports whether toks[i] starts a statement of a former state.
func past(toks []string, i int) bool {
	switch {
	case toks[i] == stem("formerly"):
		return true
	case toks[i] == stem("used") && i+1 < len(toks) && is(toks[i+1], "to"):
		return i == 0 || !beWords[toks[i-1]]
	}
	return false
}

var nowWords = set("now", "today", "currently", "nowadays")

var beWords = set("is", "are", "was", "were", "be", "been", "being", "get", "gets", "got", "getting")

// set returns the stems of words, so that tokens (which are stems) can be
// looked up in it.
func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[stem(w)] = true
	}
	return m
}

func is(t, word string) bool { return t == stem(word) }

// view is one sentence as L3b reads it.
type view struct {
	clauses  [][]string
	all      []string        // every token of the sentence
	has      map[string]bool // the tokens of all
	reported bool            // "some say", "beware"…: the claim is not asserted
	question bool
	// prior are the tokens of the sentence before, when this one opens
	// by referring back to it ("Aave v3 … . Its close factor is 80 %"):
	// a model limited to protocols may find them there.
	prior []string
	// antecedent are the tokens of the sentence before and pronoun the
	// number of tokens of this one's opening pronoun subject ("Lido
	// issues stETH. It does not rebase."), when it has one and neither
	// sentence quotes (see pronounLen and resolved).
	antecedent []string
	pronoun    int
}

// pronouns are the subject pronouns that refer back to the sentence
// before, in English, German, French and Portuguese ("es", German's "it",
// is also Spanish's "is", and Spanish drops its subject pronouns).
var pronouns = set("it", "they", "er", "sie", "il", "ils", "elle", "elles", "ele", "ela", "eles", "elas")

// demonstratives are pronoun subjects only before a verb ("This is not
// rebasing", not "This token rebases").
var demonstratives = set("this", "these", "dies", "ceci", "cela", "isso", "isto", "esto")

// pronounVerbs follow a demonstrative subject.
var pronounVerbs = set("is", "are", "was", "were", "be", "can", "cannot", "will", "does", "do", "has", "have", "may", "must", "should", "never", "not", "ist", "sind", "est", "sont")

// expletives after "it is" make it a dummy subject: "it is worth noting
// that…", "it is possible to…" (but "it is largest when…" is said of the
// antecedent).
var expletives = set("that", "to", "whether")

// pronounLen returns how many tokens the pronoun subject opening a
// sentence spans, or 0 when it opens with none.
func pronounLen(toks []string) int {
	switch {
	case len(toks) < 2:
		return 0
	case pronouns[toks[0]]:
		if beWords[toks[1]] {
			for _, t := range toks[2:min(5, len(toks))] {
				if expletives[t] {
					return 0
				}
			}
		}
		return 1
	case demonstratives[toks[0]] && pronounVerbs[toks[1]]:
		return 1
	}
	return 0
}

// anaphors open a sentence that refers back to the one before.
var anaphors = set("it", "its", "they", "their", "there", "this", "these", "that", "here")

// refersBack reports whether a sentence's first two tokens hold an
// anaphor.
func refersBack(toks []string) bool {
	for _, t := range toks[:min(2, len(toks))] {
		if anaphors[t] {
			return true
		}
	}
	return false
}

// clauseWords end a clause: what follows "but", "while", "unlike"… is a
// separate claim, and so is the reason after "because".
var clauseWords = set("but", "whereas", "while", "although", "though", "however", "unlike", "so", "because")

// views splits text into sentences and their clauses.
func views(text string) []view {
	var out []view
	var before []string
	quotedBefore := true
	sents, semi := splitLabelledEnds(text)
	for i, s := range sents {
		var v view
		v.question = strings.HasSuffix(strings.TrimSpace(s), "?")
		v.all = stems(s)
		// A clause after a semicolon continues the sentence before it:
		// in "Aave's close factor is 50 %; below 0.95 it is 25 %" the
		// second half is Aave's too.
		if refersBack(v.all) || semi[i] {
			v.prior = before
		}
		quoted := strings.ContainsAny(s, quoteMarks)
		if n := pronounLen(v.all); n > 0 && !quoted && !quotedBefore {
			v.antecedent, v.pronoun = before, n
		}
		before, quotedBefore = v.all, quoted
		if v.split() {
			out = append(out, v)
		}
	}
	return out
}

// split splits v.all into v.clauses and fills in v.has and v.reported;
// it reports whether v has a clause.
func (v *view) split() bool {
	start := 0
	for i := 0; i <= len(v.all); i++ {
		if i < len(v.all) && !clauseWords[v.all[i]] {
			continue
		}
		if i > start {
			v.clauses = append(v.clauses, v.all[start:i])
		}
		start = i + 1
	}
	v.has = make(map[string]bool, len(v.all))
	for _, t := range v.all {
		v.reported = v.reported || reportWords[t]
		v.has[t] = true
	}
	v.clauses = present(v.clauses)
	return len(v.clauses) > 0
}

var reSentenceEnd = regexp.MustCompile(`[!?;:]+(?:\s+|$)|\.(?:\s+|$)|\n+|[。！？；।]+\s*`)

// splitSentences splits on sentence ends but keeps decimals ("1.05") and
// question marks (a question asserts nothing). A colon ends a sentence too:
// what follows it elaborates ("X cannot lose: if a leg loses, it reverts"),
// and its condition is not the claim's.
func splitSentences(text string) []string {
	var out []string
	last := 0
	for _, m := range reSentenceEnd.FindAllStringIndex(text, -1) {
		end := m[0]
		if strings.Contains(text[m[0]:m[1]], "?") {
			end = m[0] + 1
		}
		out = append(out, text[last:end])
		last = m[1]
	}
	return append(out, text[last:])
}

// splitLabelled is splitSentences for L3b's reading, but a colon after
// a label does not end a sentence: a key, a field or a heading of at most
// four words without a verb ("withdraw: rounds up", "// previewRedeem:
// rounds up", "Aave V3 close factor: a liquidator repays …") names what
// the words after it are about, so they are read as one sentence with it.
func splitLabelled(text string) []string {
	out, _ := splitLabelledEnds(text)
	return out
}

// splitLabelledEnds is splitLabelled that also reports, per sentence,
// whether it follows a semicolon on the same line.
func splitLabelledEnds(text string) (out []string, semi []bool) {
	last, afterSemi := 0, false
	for _, m := range reSentenceEnd.FindAllStringIndex(text, -1) {
		end := m[0]
		if strings.Contains(text[m[0]:m[1]], "?") {
			end = m[0] + 1
		}
		sep := strings.TrimSpace(text[m[0]:m[1]])
		if sep == ":" && label(text[last:end]) {
			continue
		}
		out, semi = append(out, text[last:end]), append(semi, afterSemi)
		afterSemi = sep == ";"
		last = m[1]
	}
	return append(out, text[last:]), append(semi, afterSemi)
}

// label reports whether s, the words before a colon, is a label: one to
// four words after any comment or list marker, with no verb or negation.
func label(s string) bool {
	s = strings.TrimLeft(strings.TrimSpace(s), "/#*->|` \t")
	f := strings.Fields(s)
	if len(f) == 0 || len(f) > 4 || strings.ContainsAny(s, ",;") {
		return false
	}
	if _, _, _, found := findVerb(strings.ToLower(s), false); found {
		return false
	}
	return !reNeg.MatchString(s)
}

// Sentences returns how many non-empty sentences text holds, split as the
// layers split them (decimals kept whole).
func Sentences(text string) int {
	n := 0
	for _, s := range splitSentences(text) {
		if strings.TrimSpace(s) != "" {
			n++
		}
	}
	return n
}

// mayMention is a cheap filter for find: whether the sentence holds the
// first word of any of ts.
func (v view) mayMention(ts []term) bool {
	for _, t := range ts {
		if v.has[t[0]] {
			return true
		}
	}
	return false
}

// term is a phrase as canonical stems.
type term []string

func terms(ps ...[]string) []term {
	var out []term
	for _, p := range ps {
		for _, s := range p {
			if t := stems(s); len(t) > 0 {
				out = append(out, t)
			}
		}
	}
	return out
}

// span is a token range [s, e) of a clause.
type span struct{ s, e int }

// find returns every occurrence of any of ts in toks.
func find(toks []string, ts []term) []span {
	var out []span
	for _, t := range ts {
	next:
		for i := 0; i+len(t) <= len(toks); i++ {
			for j, w := range t {
				if toks[i+j] != w {
					continue next
				}
			}
			out = append(out, span{i, i + len(t)})
		}
	}
	return out
}

// findLoose is find allowing one extra word between the words of a term
// of three words or more ("only happens when price drops" for "only when
// price drops"), never a negating one, and a non-zero quantity between the
// words of any term ("charges a 0.09 % fee" for "charges a fee"; a zero
// one, "a 0 % fee", is no fee).
func findLoose(toks []string, ts []term) []span {
	var out []span
	for _, t := range ts {
		if len(t) < 2 {
			out = append(out, find(toks, []term{t})...)
			continue
		}
		for i := 0; i+len(t) <= len(toks); i++ {
			if toks[i] != t[0] {
				continue
			}
			k, j := i+1, 1
			for ; j < len(t) && k < len(toks); j++ {
				q := quantityLen(toks, k)
				switch {
				case toks[k] == t[j]:
					k++
				case q > 0 && k+q < len(toks) && toks[k+q] == t[j]:
					k += q + 1
				case len(t) >= 3 && k+1 < len(toks) && toks[k+1] == t[j] && !negWords[toks[k]] && toks[k] != ",":
					k += 2
				default:
					j = len(t) + 1
				}
			}
			if j == len(t) {
				out = append(out, span{i, k})
			}
		}
	}
	return out
}

// quantityLen returns how many tokens a non-zero quantity at toks[i]
// spans (a number and its unit, if one follows), or 0 when none starts
// there.
func quantityLen(toks []string, i int) int {
	v, err := strconv.ParseFloat(toks[i], 64)
	if err != nil || v == 0 {
		return 0
	}
	if i+1 < len(toks) && quantityUnits[toks[i+1]] {
		return 2
	}
	return 1
}

var quantityUnits = set("%", "bp", "bps", "x", "eth", "gwei", "wei")

// purpose reports whether words between a subject and its object hold a
// purpose clause ("simulate transactions to ensure…"): the object is the
// aim, not a claim.
func purpose(between []string) bool {
	for i := 0; i+1 < len(between); i++ {
		if is(between[i], "to") && purposeVerbs[between[i+1]] {
			return true
		}
	}
	return false
}

var purposeVerbs = set("ensure", "make", "guarantee", "check", "verify", "confirm", "catch", "see", "help", "test", "prove", "avoid", "reduce", "keep", "stay", "be")

func mentions(toks []string, ts []term) bool { return len(find(toks, ts)) > 0 }

// negations counts the negating words of toks[s:e] outside the spans skip.
func negations(toks []string, s, e int, skip ...[]span) int {
	n := 0
outer:
	for i := max(s, 0); i < min(e, len(toks)); i++ {
		for _, sp := range skip {
			for _, x := range sp {
				if i >= x.s && i < x.e {
					continue outer
				}
			}
		}
		// A negation right before "through", "via" or "by" denies the
		// means, not the claim: "rewards accrue through the rate rather
		// than through balance changes".
		if negWords[toks[i]] && !closedBy(toks, i, e) && !(i+1 < len(toks) && meansWords[toks[i+1]]) {
			n++
		}
	}
	return n
}

var meansWords = set("through", "via", "by")

// interval is the set of values a clause gives a quantity.
type interval struct {
	lo, hi float64
	unit   string
	at     int // the token index of the (first) number
}

func (iv interval) point() bool { return iv.lo == iv.hi }

// numbersNear returns the quantities stated near a mention at sp: up to
// eight tokens after it or three before, each widened by a qualifier
// ("below 1" is (-inf, 1), "at least 2" is [2, inf), "between 5 and 10").
func numbersNear(toks []string, sp span) []interval {
	return numbersIn(toks, max(0, sp.s-3), min(len(toks), sp.e+8), sp)
}

// numbersIn returns the quantities stated in toks[from:to], outside sp.
func numbersIn(toks []string, from, to int, sp span) []interval {
	var out []interval
	for i := from; i < to; i++ {
		if i >= sp.s && i < sp.e {
			continue
		}
		unit, scale := "", 1.0
		if i+1 < len(toks) {
			unit, scale = unitOf(toks[i+1])
		}
		v, err := strconv.ParseFloat(toks[i], 64)
		if err != nil {
			// A number in words counts only before a unit ("one hour",
			// "seven days"): "one of the pools" states no quantity.
			n, ok := numberWords[toks[i]]
			if !ok || unit == "" || unit == "%" && n < 2 {
				continue
			}
			v = n
		}
		iv := interval{lo: v * scale, hi: v * scale, unit: unit, at: i}
		if i+3 < len(toks) && (toks[i+1] == "and" || toks[i+1] == "to") {
			if w, err := strconv.ParseFloat(toks[i+2], 64); err == nil {
				u, sc := unitOf(toks[i+3])
				if unit == "" {
					unit, scale = u, sc
				}
				iv = interval{lo: v * scale, hi: w * sc, unit: unit, at: i}
				i += 2
			}
		}
		switch qualifier(toks, i) {
		case -1: // "below 1" excludes 1
			iv.lo, iv.hi = math.Inf(-1), math.Nextafter(iv.hi, math.Inf(-1))
		case +1:
			iv.lo, iv.hi = math.Nextafter(iv.lo, math.Inf(1)), math.Inf(1)
		}
		out = append(out, iv)
	}
	return out
}

// numberWords are the small numbers written as words.
var numberWords = map[string]float64{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "fifteen": 15,
	"twenty": 20, "thirty": 30, "sixty": 60}

// unitOf returns the canonical unit of a token and the factor to it:
// percentages, days for durations, amounts of ether ("32 ETH"), plain
// otherwise.
func unitOf(t string) (string, float64) {
	switch {
	case t == "%", is(t, "percent"):
		return "%", 1
	case is(t, "bps"):
		return "%", 0.01
	case is(t, "days"):
		return "days", 1
	case is(t, "weeks"):
		return "days", 7
	case is(t, "hours"), is(t, "hrs"), t == "h":
		return "days", 1.0 / 24
	case is(t, "minutes"), is(t, "mins"):
		return "days", 1.0 / 1440
	case is(t, "seconds"), is(t, "secs"):
		return "days", 1.0 / 86400
	case is(t, "milliseconds"), t == "ms":
		return "days", 1.0 / 86400000
	case t == "x":
		return "x", 1
	case is(t, "gwei"):
		return "gwei", 1
	case t == "eth", t == "ether":
		return "eth", 1
	case is(t, "decimals"):
		return "decimals", 1
	}
	return "", 1
}

// qualifier reads the words before the number at i: -1 for an upper bound
// ("below", "under", "less than", "up to", "at most", "<"), +1 for a lower
// bound ("above", "over", "more than", "at least", ">"), 0 for none.
func qualifier(toks []string, i int) int {
	w := func(k int) string {
		if i-k < 0 {
			return ""
		}
		return toks[i-k]
	}
	switch {
	case belowWords[w(1)]:
		return -1
	case aboveWords[w(1)]:
		return +1
	case is(w(1), "than") && lessWords[w(2)]:
		return -1
	case is(w(1), "than") && moreWords[w(2)]:
		return +1
	case is(w(1), "to") && is(w(2), "up"), is(w(1), "most") && is(w(2), "at"), is(w(1), "max"), is(w(1), "maximum"):
		return -1
	case is(w(1), "least") && is(w(2), "at"), is(w(1), "min"), is(w(1), "minimum"):
		return +1
	}
	return 0
}

// comparison reads "A is higher than B" between spans a and b of toks
// (a before b): +1 if the words between them put A above B, -1 below, 0 if
// they compare nothing. Verbs of motion ("rises above") describe an event,
// not the parameters, and compare nothing.
func comparison(toks []string, a, b span) int {
	if b.s <= a.e || b.s-a.e > 8 {
		return 0
	}
	between := toks[a.e:b.s]
	for _, t := range between {
		if motionWords[t] {
			return 0
		}
	}
	for i, t := range between {
		than := i+1 < len(between) && is(between[i+1], "than")
		switch {
		case exceedWords[t], moreWords[t] && than:
			return +1
		case belowWords[t], lessWords[t] && than:
			return -1
		}
	}
	return 0
}

func (iv interval) String() string {
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) + iv.unit }
	switch {
	case iv.point():
		return num(iv.lo)
	case math.IsInf(iv.lo, -1):
		return "below " + num(iv.hi)
	case math.IsInf(iv.hi, 1):
		return "above " + num(iv.lo)
	}
	return num(iv.lo) + " to " + num(iv.hi)
}

// conditional reports whether the sentence states a condition ("if",
// "when", "unless"…) outside the spans of clause ci a model's own terms
// occupy ("only when price falls" is the claim, not its condition). Only
// clause ci and the clauses before it can condition it: what follows "so"
// or "but" is a further claim ("X rebases, so you miss rewards unless…"
// still asserts that X rebases).
//
// "When mined", "once included" and the like say when, not whether.
func (v view) conditional(ci int, used ...span) bool {
	for i, c := range v.clauses[:ci+1] {
	next:
		for k, t := range c {
			if !condWords[t] || k+1 < len(c) && landWords[c[k+1]] {
				continue
			}
			if i == ci {
				for _, sp := range used {
					if k >= sp.s && k < sp.e || introduces(c, k, sp) {
						continue next
					}
				}
			}
			return true
		}
	}
	return false
}

// introduces reports whether the condition word at toks[k] introduces
// just the mention sp: what it opens, up to a comma or the clause's end,
// is sp ("when funding is positive, longs pay shorts" for a model of
// positive funding). Such a condition is the model's own subject or
// object, not a circumstance the model does not name.
func introduces(toks []string, k int, sp span) bool {
	// At most two words may come before the mention: "if a transaction
	// runs out of gas, …" for a model of running out of gas.
	if sp.s <= k || sp.s > k+3 {
		return false
	}
	for _, t := range toks[k+1 : sp.s] {
		if t == "," || negWords[t] || condWords[t] {
			return false
		}
	}
	return sp.e == len(toks) || toks[sp.e] == ","
}
