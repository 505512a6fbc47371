package validate

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
)

// Relations a Claim can carry.
const (
	RelIncreases = "increases"
	RelDecreases = "decreases"
	RelRequires  = "requires"
	RelImplies   = "implies"
	RelBoundedBy = "bounded_by"
	RelIs        = "is"       // Subject has the value Object (an address, URL, number…)
	RelRedirect  = "redirect" // Subject now lives at, or should be replaced by, Object
	RelChanges   = "changes"  // Subject moves in Direction, with no object named
)

// Quantity is a number with its unit ("%", "bps", "eth", "x"…; "" for none).
type Quantity struct {
	Value float64
	Unit  string
}

// Claim is one statement extracted from text: Subject Relation Object,
// holding under Conditions. Direction is +1 for an increase, -1 for a
// decrease, 0 for none; for RelIncreases and RelDecreases it already folds in
// the subject's and object's modifiers ("lower X increases Y" is X decreases
// Y) and negation. Negated marks a denied non-directional relation ("X does
// not require Y"). Subject and Object are lower-case phrases, or the entity
// itself for addresses and URLs.
type Claim struct {
	Subject    string
	Relation   string
	Object     string
	Direction  int
	Magnitude  *Quantity
	Conditions []string
	Redirect   bool
	Negated    bool
}

var (
	reSentence = regexp.MustCompile(`[.!?;]+(?:\s+|$)|\n+`)
	reAddress  = regexp.MustCompile(`\b0x[0-9a-fA-F]{6,64}\b`)
	reURL      = regexp.MustCompile(`(?i)\b(?:https?://|www\.)[^\s,;)"'<>]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|xyz|finance|fi|app|exchange|eth|co)\b(?:/[^\s,;)"'<>]*)?`)
	reQty      = regexp.MustCompile(`(?i)(?:\$\s?)?([-+]?\d+(?:,\d{3})*(?:\.\d+)?)\s*(%|bps|basis points|x\b|eth\b|usd\b|usdc\b|gwei\b|wei\b|days?\b|hours?\b|blocks?\b|k\b|m\b|b\b)?`)
	reTicker   = regexp.MustCompile(`\$?\b[A-Z][A-Z0-9]{1,9}\b`)
	reCond     = regexp.MustCompile(`(?i)(?:^|,\s*|\s)(only if|as long as|whenever|when|if|during|unless|while|once|after|before|until)\s+`)
	reNeg      = regexp.MustCompile(`(?i)\b(?:not|never|no longer|cannot|can't|doesn't|don't|won't|isn't|aren't|wasn't|didn't|hardly|no)\b`)
)

type verb struct {
	rel string
	dir int
}

// verbTable maps verb phrases (one to three lower-case words) to the
// relation they state. findVerb picks the earliest in a clause, longest
// first, and a copula ("is", "are"…) only when no other verb occurs.
var verbTable = func() map[string]verb {
	t := map[string]verb{}
	add := func(rel string, dir int, list string) {
		for _, w := range strings.Split(list, "|") {
			t[w] = verb{rel, dir}
		}
	}
	add(RelBoundedBy, 0, "is bounded by|are bounded by|is capped by|are capped by|is limited by|are limited by|cannot exceed|can't exceed|never exceeds|never exceed|must not exceed|is at most|are at most")
	add("bounds", 0, "bounds|limits")
	add(RelRequires, 0, "requires|require|required|needs|depends on|depend on")
	add(RelIncreases, +1, "increases|increase|increased|raises|raise|raised|boosts|boost|boosted|amplifies|amplify|drives up|drive up|pushes up|push up|inflates|inflate|widens|widen|worsens|worsen|grows|grow|rises|rise|rose|climbs|climb|goes up|go up|spikes|jumps|improves|improve|expands|expand")
	add(RelDecreases, -1, "decreases|decrease|decreased|reduces|reduce|reduced|lowers|lowered|cuts|diminishes|diminish|shrinks|shrink|drives down|drive down|pushes down|push down|narrows|narrow|dampens|dampen|erodes|erode|compresses|suppresses|falls|fall|fell|drops|drop|dropped|declines|decline|goes down|go down|sinks|sink|contracts")
	add(RelImplies, 0, "leads to|lead to|results in|result in|causes|cause|triggers|trigger|means|mean|implies|imply|produces|produce|brings|makes")
	add(RelIs, 0, "is|are|was|were|equals|equal|stands at|sits at|is set to|are set to")
	return t
}()

// findVerb returns the byte span of the verb phrase in clause and its
// relation, and whether one was found. Only directional verbs are considered
// when dirOnly is set.
func findVerb(clause string, dirOnly bool) (start, end int, v verb, ok bool) {
	type tok struct{ s, e int }
	var toks []tok
	for i := 0; i < len(clause); {
		for i < len(clause) && clause[i] == ' ' {
			i++
		}
		j := i
		for j < len(clause) && clause[j] != ' ' {
			j++
		}
		if j > i {
			toks = append(toks, tok{i, j})
		}
		i = j
	}
	copula := -1
	var cs, ce int
	var key strings.Builder
	for i := range toks {
		for n := min(3, len(toks)-i); n >= 1; n-- {
			key.Reset()
			for k := i; k < i+n; k++ {
				if k > i {
					key.WriteByte(' ')
				}
				key.WriteString(strings.ToLower(strings.Trim(clause[toks[k].s:toks[k].e], ",;:()\"'")))
			}
			w, found := verbTable[key.String()]
			if !found || (dirOnly && w.dir == 0) {
				continue
			}
			if w.rel == RelIs {
				if copula < 0 {
					copula, cs, ce = i, toks[i].s, toks[i+n-1].e
				}
				break
			}
			return toks[i].s, toks[i+n-1].e, w, true
		}
	}
	if copula >= 0 && !dirOnly {
		return cs, ce, verb{RelIs, 0}, true
	}
	return 0, 0, verb{}, false
}

var modUp = map[string]bool{"higher": true, "raising": true, "more": true, "larger": true, "greater": true, "bigger": true, "increased": true, "increasing": true, "rising": true, "high": true, "elevated": true, "large": true, "big": true, "growing": true, "wider": true, "heavier": true, "longer": true, "looser": true, "deeper": true}
var modDown = map[string]bool{"lower": true, "less": true, "smaller": true, "fewer": true, "reduced": true, "decreasing": true, "falling": true, "low": true, "small": true, "declining": true, "shrinking": true, "narrower": true, "lighter": true, "decreased": true, "shorter": true, "tighter": true, "thinner": true, "shallower": true,
	// taking some of a quantity away lowers it: "withdrawing collateral" is less collateral
	"withdrawing": true, "removing": true, "lowering": true, "cutting": true}

// redirect patterns: (subject group, object group) indices, 0 for absent.
type redirectPattern struct {
	re       *regexp.Regexp
	subj, ob int
	keys     []string // the pattern cannot match a sentence without one of these
}

func containsAny(s string, keys []string) bool {
	for _, k := range keys {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

var redirects = []redirectPattern{
	{regexp.MustCompile(`(?i)^(?:the\s+)?new\s+(?:official\s+)?(?:address|url|endpoint|contract|domain|site|link|location|home|router|website|pool)\s+(?:for|of)\s+(.+?)\s+is\s+(.+)$`), 1, 2, []string{"new "}},
	{regexp.MustCompile(`(?i)^(.+?)(?:'s|s')\s+new\s+(?:official\s+)?(?:address|url|endpoint|contract|domain|site|link|location|home|website)\s+is\s+(.+)$`), 1, 2, []string{"new "}},
	{regexp.MustCompile(`(?i)^(?:the\s+)?(new\s+(?:official\s+)?(?:address|url|endpoint|contract|domain|site|link|location|website))\s+is\s+(.+)$`), 1, 2, []string{"new "}},
	{regexp.MustCompile(`(?i)^(.+?)\s+(?:has\s+|have\s+)?(?:now\s+)?(?:lives?|resides?|is hosted|is located|is deployed|is available|is served|can be found)\s+(?:now\s+)?(?:at|on)\s+(.+)$`), 1, 2, []string{"live", "reside", "hosted", "located", "deployed", "available", "served", "found"}},
	{regexp.MustCompile(`(?i)^(.+?)\s+(?:has|have|was|were|is|are)?\s*(?:now\s+)?(?:been\s+)?(?:moved|migrated|relocated|redeployed|switched|changed|upgraded|rebranded)\s+(?:over\s+)?to\s+(.+)$`), 1, 2, []string{"moved", "migrated", "relocated", "redeployed", "switched", "changed", "upgraded", "rebranded"}},
	{regexp.MustCompile(`(?i)^(.+?)\s+(?:has|have|was|were|is|are)?\s*(?:now\s+)?(?:been\s+)?(?:replaced|superseded)\s+by\s+(.+)$`), 1, 2, []string{"replaced", "superseded"}},
	{regexp.MustCompile(`(?i)^(.+?)\s+(?:has|have|was|were|is|are)\s+(?:now\s+)?(?:been\s+)?deprecated\b.*?\buse\s+(.+?)(?:\s+instead)?$`), 1, 2, []string{"deprecated"}},
	{regexp.MustCompile(`(?i)^instead\s+of\s+(.+?),?\s+(?:always\s+)?(?:use|call|send to|route (?:through|to|via)|connect to|go to|visit)\s+(.+)$`), 1, 2, []string{"instead"}},
	{regexp.MustCompile(`(?i)^(?:(.+?)\s*[:,-]\s*)?(?:always\s+|just\s+|please\s+)?(?:use|call|send to|route (?:through|to|via)|connect to|go to|visit)\s+(.+?)\s+instead(?:\s+of\s+(.+))?$`), 1, 2, []string{"instead"}},
	{regexp.MustCompile(`(?i)^(?:(.+?)\s*[:,-]\s*)?always\s+(?:use|call|send (?:funds |assets |tokens )?to|route (?:through|to|via)|connect to|go to|visit|approve|trust)\s+(.+?)(?:\s+(?:for|when|to)\s+(.+))?$`), 1, 2, []string{"always"}},
	{regexp.MustCompile(`(?i)^(?:(.+?)\s*[:,-]\s*)?(?:switch|migrate)\s+to\s+(.+?)(?:\s+for\s+(.+))?$`), 1, 2, []string{"switch", "migrate"}},
}

// ExtractClaims extracts the claims a text makes, one sentence at a time:
// redirections ("X now lives at Y", "use Y instead of X", "always use Y"),
// directional statements ("higher X increases Y", "X falls when Y rises",
// "X does not raise Y"), requirements, implications, bounds and value
// statements ("X is 0x…", "X is 5%"), with their conditions ("when", "if",
// "during", "unless"…) and magnitudes. It is deterministic and never fails;
// text it cannot parse yields no claims.
func ExtractClaims(text string) []Claim {
	var out []Claim
	for _, s := range reSentence.Split(text, -1) {
		s = strings.TrimSpace(s)
		if len(s) < 3 {
			continue
		}
		if c, ok := sentenceClaim(s); ok {
			out = append(out, c)
		}
	}
	return out
}

// firstConjunct cuts an object phrase at an "and" that starts a second
// verb phrase: in "raises the protocol's revenue and lowers the supply
// rate" the object is "the protocol's revenue", not a phrase that runs on
// into another claim.
func firstConjunct(right string) string {
	lower := strings.ToLower(right)
	for i := 0; ; {
		k := strings.Index(lower[i:], " and ")
		if k < 0 {
			return right
		}
		at := i + k
		rest := right[at+len(" and "):]
		if ls, _, _, found := findVerb(rest, true); found && strings.TrimSpace(rest[:ls]) == "" {
			return right[:at]
		}
		i = at + 1
	}
}

// sentenceClaim reads the claim of one sentence: a redirect ("use Y
// instead of X"), or else subject, verb and object, with the conditions
// the sentence puts on them.
func sentenceClaim(s string) (Claim, bool) {
	s = strings.Trim(s, " \t\"'`*-–—•>")
	if c, ok := redirectClaim(s); ok {
		return c, true
	}
	if c, ok := correlativeClaim(s); ok {
		return c, true
	}
	if c, ok := agentClaim(s); ok {
		return c, true
	}
	main, conds := splitConditions(mainClause(s))
	ls, le, v, found := findVerb(main, false)
	if !found {
		return Claim{}, false
	}
	left, neg := subjectSide(main[:ls])
	subj, sSign := modified(left)
	right, oSign := objectSide(main[le:], v)
	obj, objSign := modified(right)
	if oSign < 0 {
		// "X rises as Y falls": the object's own verb turns its sign
		objSign = -cmp.Or(objSign, 1)
	}
	if subj == "" {
		return Claim{}, false
	}
	c := Claim{Conditions: conds, Subject: subj, Object: obj, Magnitude: quantity(right)}
	if !c.relate(v, right, sSign, objSign, neg) || c.Object == "" && c.Relation != RelChanges {
		return Claim{}, false
	}
	return c, true
}

// redirectClaim reads a sentence that sends the reader from one thing to
// another ("X has moved to Y", "use Y instead of X").
func redirectClaim(s string) (Claim, bool) {
	lower := strings.ToLower(s)
	for _, p := range redirects {
		if !containsAny(lower, p.keys) {
			continue
		}
		m := p.re.FindStringSubmatchIndex(s)
		if m == nil {
			continue
		}
		group := func(g int) string {
			if g == 0 || m[2*g] < 0 {
				return ""
			}
			return s[m[2*g]:m[2*g+1]]
		}
		obj := group(p.ob)
		subj := group(p.subj)
		if subj == "" && len(m) > 6 && m[6] >= 0 {
			subj = s[m[6]:m[7]] // "use Y instead of X", "always use Y for X"
		}
		c := Claim{Relation: RelRedirect, Redirect: true, Subject: phrase(subj), Object: entityOr(obj)}
		if c.Object == "" {
			continue
		}
		if reNeg.MatchString(s[:m[2*p.ob]]) && !strings.Contains(lower, "instead") {
			continue // "X has not moved to Y" redirects nothing
		}
		return c, true
	}
	return Claim{}, false
}

// subjectSide is the words before the verb without the negation directly
// before it ("does not raise", "never exceeds") and the auxiliaries
// ("does", "will", "can", "always"), and whether it was negated.
func subjectSide(left string) (string, bool) {
	neg := false
	if nm := reNeg.FindAllStringIndex(left, -1); nm != nil {
		tail := strings.Fields(left[nm[len(nm)-1][0]:])
		neg = len(tail) <= 3
		if neg {
			left = left[:nm[len(nm)-1][0]]
		}
	}
	left = strings.TrimSuffix(strings.TrimSpace(left), " does")
	for _, aux := range []string{" do", " will", " can", " always"} {
		left = strings.TrimSuffix(left, aux)
	}
	return left, neg
}

// reContrastTail is a denied alternative closing the object (", not
// less"): it restates the claim, and its "not" and its comparative are
// not the object's.
var reContrastTail = regexp.MustCompile(`(?i),\s*(?:and\s+|but\s+)?not\s+\w+(?:\s+\w+)?[.!]?\s*$`)

// objectSide is the words after a verb of v's kind that name its object:
// for a verb of direction, without a leading "with", "as", "by"..., up to
// a second verb after "and"; and where the object ends in its own verb of
// direction ("X rises as Y falls"), without it and with that verb's sign
// (1 when it has none).
func objectSide(right string, v verb) (string, int) {
	right = strings.TrimSpace(reContrastTail.ReplaceAllString(right, ""))
	if v.dir == 0 {
		return right, 1
	}
	for _, pre := range []string{"with ", "as ", "alongside ", "in line with ", "by "} {
		if strings.HasPrefix(strings.ToLower(right), pre) {
			right = right[len(pre):]
			break
		}
	}
	right = firstConjunct(right)
	if ls, le, ov, found := findVerb(right, true); found && strings.TrimSpace(right[le:]) == "" && ls > 0 && !determined(right[:ls]) {
		return right[:ls], ov.dir
	}
	return right, 1
}

// relate sets the claim's relation from the verb, the signs its subject
// and object carry ("lower X", "less Y") and the negation; false when the
// sentence says too little to compare.
func (c *Claim) relate(v verb, right string, sSign, oSign int, neg bool) bool {
	switch v.rel {
	case RelIncreases, RelDecreases:
		d := v.dir
		if sSign != 0 {
			d *= sSign
		}
		if oSign != 0 {
			d *= oSign
		}
		if neg {
			d = -d
		}
		c.Direction = d
		c.Relation = RelIncreases
		if d < 0 {
			c.Relation = RelDecreases
		}
		if c.Object == "" {
			c.Relation = RelChanges
			c.fromCondition(sSign)
		}
	case RelImplies:
		if sSign != 0 && oSign != 0 {
			c.Direction = sSign * oSign
			if neg {
				c.Direction = -c.Direction
			}
			c.Relation = RelIncreases
			if c.Direction < 0 {
				c.Relation = RelDecreases
			}
		} else {
			c.Relation, c.Negated = RelImplies, neg
		}
	case "bounds":
		c.Subject, c.Object, c.Relation, c.Negated = c.Object, c.Subject, RelBoundedBy, neg
	case RelBoundedBy, RelRequires:
		c.Relation, c.Negated = v.rel, neg
	case RelIs:
		e := entityOr(right)
		if e == "" || (c.Magnitude == nil && !isEntity(e)) {
			return false // "X is Y" between plain phrases says too little to compare
		}
		c.Relation, c.Object, c.Negated = RelIs, e, neg
	}
	return true
}

// determined reports whether the words before a verb end in a determiner,
// which makes the "verb" a noun ("just like a fall").
func determined(before string) bool {
	f := strings.Fields(strings.ToLower(before))
	if len(f) == 0 {
		return false
	}
	switch f[len(f)-1] {
	case "a", "an", "the", "any", "each", "every", "this", "that":
		return true
	}
	return false
}

// fromCondition turns "X falls when Y rises" into "Y decreases X": a
// RelChanges claim whose single condition moves in a direction.
func (c *Claim) fromCondition(sSign int) {
	if len(c.Conditions) != 1 {
		return
	}
	cond := c.Conditions[0]
	kw, rest, _ := strings.Cut(cond, " ")
	if kw == "unless" {
		return
	}
	if ls, le, v, found := findVerb(rest, true); found {
		loc := []int{ls, le}
		ysubj, ySign := modified(rest[:loc[0]])
		if ysubj == "" || strings.TrimSpace(rest[loc[1]:]) != "" {
			return
		}
		d := v.dir
		if ySign != 0 {
			d *= ySign
		}
		if reNeg.MatchString(rest[:loc[0]]) {
			d = -d
		}
		c.Object, c.Subject = c.Subject, ysubj
		c.Direction *= d
		c.Relation = RelIncreases
		if c.Direction < 0 {
			c.Relation = RelDecreases
		}
		c.Conditions = nil
		return
	}
}

// splitConditions cuts the conditional clauses off a sentence.
func splitConditions(s string) (string, []string) {
	locs := reCond.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return s, nil
	}
	var conds []string
	if locs[0][0] == 0 || strings.TrimSpace(s[:locs[0][0]]) == "" {
		// leading condition: "If X, Y" / "When X, Y"
		rest := s[locs[0][1]:]
		if i := strings.Index(rest, ","); i >= 0 {
			kw := strings.ToLower(s[locs[0][2]:locs[0][3]])
			conds = append(conds, kw+" "+phrase(rest[:i]))
			return strings.TrimSpace(rest[i+1:]), conds
		}
		return s, nil
	}
	main := s[:locs[0][0]]
	for i, l := range locs {
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		kw := strings.ToLower(s[l[2]:l[3]])
		conds = append(conds, kw+" "+strings.ToLower(strings.Trim(strings.TrimSpace(s[l[1]:end]), ",")))
	}
	return strings.TrimSpace(main), conds
}

// modified strips direction modifiers from a phrase and returns the phrase
// and their combined sign (0 if there were none).
func modified(p string) (string, int) {
	sign := 0
	var keep []string
	for _, w := range strings.Fields(strings.ToLower(p)) {
		w = strings.Trim(w, ",:;\"'()")
		switch {
		case modUp[w]:
			if sign == 0 {
				sign = 1
			}
		case modDown[w]:
			if sign == 0 {
				sign = 1
			}
			sign = -sign
		default:
			keep = append(keep, w)
		}
	}
	return phrase(strings.Join(keep, " ")), sign
}

var stop = map[string]bool{"the": true, "a": true, "an": true, "of": true, "for": true, "on": true, "in": true, "to": true, "its": true, "their": true, "this": true, "that": true, "these": true, "those": true, "and": true, "or": true, "any": true, "all": true, "your": true, "our": true, "it": true, "is": true, "are": true, "be": true, "will": true, "can": true, "does": true, "do": true, "generally": true, "usually": true, "typically": true, "always": true, "often": true, "directly": true, "significantly": true, "also": true, "by": true, "with": true, "at": true, "from": true, "than": true, "much": true, "very": true, "now": true, "which": true, "then": true, "just": true}

// phrase normalises a noun phrase: lower case, punctuation and stop words
// dropped, entities kept verbatim (addresses lower-cased).
func phrase(p string) string {
	if maybeEntity(p) {
		if e := entity(p); e != "" && len(strings.Fields(p)) <= 2 {
			return e
		}
	}
	var keep []string
	for _, w := range strings.Fields(strings.ToLower(p)) {
		w = strings.Trim(w, ",:;.!?\"'()[]{}`*")
		if w == "" || stop[w] {
			continue
		}
		keep = append(keep, w)
	}
	return strings.Join(keep, " ")
}

// maybeEntity is entity's cheap precheck: addresses contain "0x", URLs a
// dot before a letter.
func maybeEntity(p string) bool {
	if strings.Contains(p, "0x") {
		return true
	}
	for i := 0; i+1 < len(p); i++ {
		if p[i] == '.' && (p[i+1] >= 'a' && p[i+1] <= 'z' || p[i+1] >= 'A' && p[i+1] <= 'Z') {
			return true
		}
	}
	return false
}

// entity returns the first address or URL in p, normalised, or "".
func entity(p string) string {
	if !maybeEntity(p) {
		return ""
	}
	if m := reAddress.FindString(p); m != "" {
		return strings.ToLower(m)
	}
	if m := reURL.FindString(p); m != "" {
		m = strings.ToLower(strings.TrimRight(m, "./"))
		m = strings.TrimPrefix(strings.TrimPrefix(m, "https://"), "http://")
		return strings.TrimPrefix(m, "www.")
	}
	return ""
}

func isEntity(s string) bool { return entity(s) != "" || reQty.MatchString(s) && quantity(s) != nil }

// entityOr returns p's address or URL, else its number with unit, else its
// first capitalised name or ticker, else the normalised phrase.
func entityOr(p string) string {
	p = strings.TrimSpace(p)
	if e := entity(p); e != "" {
		return e
	}
	if q := quantity(p); q != nil && len(strings.Fields(p)) <= 3 {
		return strconv.FormatFloat(q.Value, 'g', -1, 64) + q.Unit
	}
	if len(strings.Fields(p)) > 4 {
		if t := reTicker.FindString(p); t != "" {
			return strings.ToLower(strings.TrimPrefix(t, "$"))
		}
	}
	return phrase(p)
}

// quantity returns the first number in p with its unit, or nil.
func quantity(p string) *Quantity {
	for _, m := range reQty.FindAllStringSubmatchIndex(p, -1) {
		if m[2] < 0 {
			continue
		}
		// skip digits inside hex addresses and words ("0x12ab", "v3")
		if m[2] > 0 {
			prev := p[m[2]-1]
			if prev == 'x' || prev == 'X' || prev == 'v' || prev == 'V' || isAlnum(prev) {
				continue
			}
		}
		if m[3] < len(p) && isAlnum(p[m[3]]) && (m[4] < 0) {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(p[m[2]:m[3]], ",", ""), 64)
		if err != nil {
			continue
		}
		unit := ""
		if m[4] >= 0 {
			unit = strings.ToLower(strings.TrimSpace(p[m[4]:m[5]]))
		}
		switch unit {
		case "basis points":
			unit = "bps"
		case "day":
			unit = "days"
		case "hour":
			unit = "hours"
		case "block":
			unit = "blocks"
		case "k":
			v, unit = v*1e3, ""
		case "m":
			v, unit = v*1e6, ""
		case "b":
			v, unit = v*1e9, ""
		}
		if unit == "bps" {
			v, unit = v/100, "%"
		}
		return &Quantity{Value: v, Unit: unit}
	}
	return nil
}

func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// FromKnowledge converts an entry's structured claim, reading direction and
// negation from its relation ("increases", "does not raise", "bounded by").
// It reports false for a claim without subject or relation.
func FromKnowledge(k *knowledge.Claim) (Claim, bool) {
	if k == nil || strings.TrimSpace(k.Subject) == "" || strings.TrimSpace(k.Relation) == "" {
		return Claim{}, false
	}
	rel := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(k.Relation), "_", " "))
	c, ok := sentenceClaim(k.Subject + " " + rel + " " + k.Object)
	if !ok || c.Relation == RelChanges {
		c = Claim{Subject: phrase(k.Subject), Relation: phrase(rel), Object: entityOr(k.Object)}
	}
	c.Conditions = append(c.Conditions, k.Conditions...)
	return c, true
}

// stem reduces an English word to a crude stem so that "rates", "rate",
// "utilisation" and "utilization" compare equal.
func stem(w string) string {
	w = strings.ToLower(w)
	if tickers[w] {
		return w
	}
	w = strings.ReplaceAll(w, "isation", "ization")
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		w = w[:len(w)-3] + "y"
	case len(w) > 4 && strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		w = w[:len(w)-1]
	}
	for _, suf := range []string{"ations", "ation", "ings", "ing", "ed"} {
		if len(w)-len(suf) >= 4 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			break
		}
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// tickers are token symbols the suffix rules would fold into another
// one: USDS and USDe are not plurals or forms of USD.
var tickers = map[string]bool{"usds": true, "usde": true}

// phraseStems returns the stems of a phrase's content words, in order,
// with DeFi synonyms folded (see canonical).
func phraseStems(p string) []string {
	if strings.HasPrefix(p, "0x") || strings.Contains(p, "/") {
		return []string{p}
	}
	return stems(phrase(p)) // DeFi synonyms folded: "HF" is "health factor"
}

// similarStems reports whether two phrases name the same thing: a Dice
// coefficient of at least 0.5 over their content-word stems, and, when
// both phrases qualify a generic head ("risk", "rate", "cost"…), at least
// one qualifier in common: "sandwich risk" and "revert risk", or "borrow
// rate" and "supply rate", are different quantities.
func similarStems(sa, sb []string) bool {
	if len(sa) == 0 || len(sb) == 0 {
		return false
	}
	common, qualifiers := 0, 0
	for i, x := range sb {
		if slices.Contains(sb[:i], x) {
			continue
		}
		if slices.Contains(sa, x) {
			common++
			if !genericHeads[x] {
				qualifiers++
			}
		}
	}
	if qualifiers == 0 && qualified(sa) && qualified(sb) {
		return false
	}
	// A parameter is not the quantity its modifiers describe: the
	// "liquidation threshold" is not the "liquidation risk", though both
	// are about liquidation.
	ha, hb := sa[len(sa)-1], sb[len(sb)-1]
	if ha != hb && (paramHeads[ha] || paramHeads[hb]) && !slices.Contains(sb, ha) && !slices.Contains(sa, hb) {
		return false
	}
	return 2*float64(common)/float64(len(sa)+len(sb)) >= 0.5
}

// genericHeads are stems of nouns that name a kind of quantity rather than
// the quantity itself: two phrases sharing only one of them differ.
var genericHeads = set("risk", "rate", "cost", "fee", "price", "token")

// paramHeads are stems of nouns that name a protocol parameter, a set
// value rather than the state it bounds.
var paramHeads = set("threshold", "factor", "cap", "ratio", "limit")

// qualified reports whether a phrase has a stem besides the generic heads.
func qualified(stems []string) bool {
	return slices.ContainsFunc(stems, func(s string) bool { return !genericHeads[s] })
}

// keyed is a claim with its phrases' stems and entities worked out once,
// for the many comparisons the layers make.
type keyed struct {
	Claim
	subj, obj       []string
	subjEnt, objEnt string
}

func key(c Claim) keyed {
	return keyed{Claim: c, subj: phraseStems(c.Subject), obj: phraseStems(c.Object), subjEnt: entity(c.Subject), objEnt: entity(c.Object)}
}

func keyAll(cs []Claim) []keyed {
	out := make([]keyed, len(cs))
	for i, c := range cs {
		out[i] = key(c)
	}
	return out
}

func (a keyed) sameSubject(b keyed) bool {
	if a.Subject == "" || b.Subject == "" {
		return false
	}
	return a.Subject == b.Subject || similarStems(a.subj, b.subj) && !opposed(a.subj, b.subj)
}

// opposites are actions whose phrases share their other words but mean the
// reverse ("repaying debt" and "drawing debt"), as stems.
var opposites = func() map[string][]string {
	pairs := [][2]string{{"repay", "borrow"}, {"repay", "draw"}, {"repay", "take"}, {"deposit", "withdraw"}, {"add", "remove"},
		{"buy", "sell"}, {"long", "short"}, {"stake", "unstake"}, {"mint", "burn"}, {"supply", "borrow"}, {"lend", "borrow"},
		{"open", "close"}, {"enter", "exit"}, {"wrap", "unwrap"}, {"lock", "unlock"}}
	m := map[string][]string{}
	for _, p := range pairs {
		a, b := stem(p[0]), stem(p[1])
		m[a] = append(m[a], b)
		m[b] = append(m[b], a)
	}
	return m
}()

// opposed reports whether one phrase has an action the other reverses, and
// not also the action itself: "repaying debt" and "drawing debt" are
// opposed, "the borrow rate" and "the borrow rate on lending markets" are
// not (both borrow).
func opposed(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			continue
		}
		for _, y := range opposites[x] {
			if slices.Contains(b, y) && !slices.Contains(a, y) {
				return true
			}
		}
	}
	return false
}

func (a keyed) sameObject(b keyed) bool {
	if a.objEnt != "" || b.objEnt != "" {
		return a.objEnt == b.objEnt
	}
	if a.Object == "" || b.Object == "" {
		return false
	}
	return a.Object == b.Object || similarStems(a.obj, b.obj) && !opposed(a.obj, b.obj)
}

// subjectIsObject reports whether a's subject names b's object.
func (a keyed) subjectIsObject(b keyed) bool {
	if a.Subject == "" || b.Object == "" {
		return false
	}
	return a.Subject == b.Object || similarStems(a.subj, b.obj)
}

// swapped reports whether directional claims a and b relate the same two
// quantities in the opposite order ("Y rises with X" against "X raises Y").
func swapped(a, b keyed) bool {
	return a.Direction != 0 && b.Direction != 0 && a.Object != "" && b.Object != "" &&
		!a.sameSubject(b) && a.subjectIsObject(b) && b.subjectIsObject(a)
}

// MagnitudeFactor is the ratio between two magnitudes of the same quantity
// at which they contradict each other.
const MagnitudeFactor = 3.0

func magnitudeClash(a, b *Quantity) bool {
	if a == nil || b == nil || a.Unit != b.Unit {
		return false
	}
	x, y := abs(a.Value), abs(b.Value)
	if x == 0 || y == 0 {
		return x != y
	}
	return max(x, y)/min(x, y) >= MagnitudeFactor || (a.Value < 0) != (b.Value < 0)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Contradictions reports whether claims a and b cannot both hold: on the
// same subject, opposite directions on the same object (or with subject and
// object swapped, since a direction states co-movement), the same
// non-directional relation affirmed by one and denied by the other,
// magnitudes apart by MagnitudeFactor or more, or different values or
// redirect targets. Claims on different subjects never contradict.
func Contradictions(a, b Claim) bool { return contradicts(key(a), key(b)) }

func contradicts(a, b keyed) bool {
	if swapped(a, b) {
		return a.Direction == -b.Direction // co-movement is symmetric: "Y rises with X" is "X raises Y"
	}
	if !a.sameSubject(b) {
		return false
	}
	switch {
	case a.Direction != 0 && b.Direction != 0 && a.Object != "" && b.Object != "":
		return a.sameObject(b) && a.Direction == -b.Direction
	case a.Relation == b.Relation && (a.Relation == RelRequires || a.Relation == RelImplies || a.Relation == RelBoundedBy):
		return a.sameObject(b) && a.Negated != b.Negated
	case (a.Relation == RelIs || a.Redirect) && (b.Relation == RelIs || b.Redirect):
		if a.Magnitude != nil && b.Magnitude != nil && a.objEnt == "" && b.objEnt == "" {
			return magnitudeClash(a.Magnitude, b.Magnitude)
		}
		return !a.sameObject(b)
	}
	return false
}
