package trust

import (
	"github.com/wardhq/ward/internal/trust/screen"
	"html"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// IdentKind is what kind of identifier Identifiers found in free text.
type IdentKind uint8

// The identifier kinds: each names a place data, money or access can go,
// or an object a call can reach.
const (
	IdentURL     IdentKind = iota + 1 // a URL, or a host with www. or a path
	IdentDomain                       // a bare domain name
	IdentEmail                        // an e-mail address
	IdentPhone                        // a phone number
	IdentIBAN                         // an IBAN (checksum verified)
	IdentAccount                      // a long digit run: an account or card number
	IdentAddress                      // a chain address (0x and 40 hex digits)
	IdentHandle                       // an @handle
	IdentID                           // a UUID or a long letter-and-digit code
	numIdentKinds
)

var identNames = [numIdentKinds]string{
	IdentURL: "url", IdentDomain: "domain", IdentEmail: "email", IdentPhone: "phone", IdentIBAN: "iban",
	IdentAccount: "account number", IdentAddress: "chain address", IdentHandle: "handle", IdentID: "id",
}

// String returns the kind's name.
func (k IdentKind) String() string {
	if k > 0 && k < numIdentKinds {
		return identNames[k]
	}
	return "IdentKind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText encodes the kind as its name.
func (k IdentKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Identifier is one identifier found in free text.
type Identifier struct {
	Kind IdentKind `json:"kind"`
	// Value is the identifier as a lookup compares it: normalised (NFKC,
	// case-folded, without format characters), decoded from the encoding
	// it was found in, trailing punctuation trimmed.
	Value string `json:"value"`
}

// Limits of Identifiers.
const (
	// maxIdentText bounds the text scanned, per call, in bytes (decoded
	// variants included).
	maxIdentText = 256 << 10
	// MaxIdentifiers bounds the identifiers returned for one text.
	MaxIdentifiers = 64
)

// Identifiers returns the identifiers embedded in free text: URLs and
// domains, e-mail addresses, phone numbers, IBANs and other account
// numbers, chain addresses, handles and ids. It reads the text the way a
// recipient would, not only as written: after NFKC normalisation and case
// folding, without zero-width and other format characters, with common
// look-alike letters of other scripts read as Latin for recognition (the
// Value keeps what was written), with defanged forms repaired ("[.]",
// "(dot)", "[at]", "hxxp"), with spaces around the dots and at-signs of an
// address closed up, and inside %-encoded, \u-escaped, HTML-escaped,
// base64 and hex text. A text with more than MaxIdentifiers distinct
// identifiers returns the first MaxIdentifiers and more = true: a caller
// must treat the rest as unchecked.
func Identifiers(text string) (ids []Identifier, more bool) {
	s := identScanner{seen: map[Identifier]bool{}, budget: maxIdentText}
	s.scan(text, 0)
	return s.out, s.more
}

type identScanner struct {
	out    []Identifier
	seen   map[Identifier]bool
	more   bool
	budget int
}

func (s *identScanner) add(k IdentKind, v string) {
	id := Identifier{Kind: k, Value: v}
	if v == "" || s.seen[id] {
		return
	}
	if len(s.out) == MaxIdentifiers {
		s.more = true
		return
	}
	s.seen[id] = true
	s.out = append(s.out, id)
}

// scan finds identifiers in text and in what it decodes to.
func (s *identScanner) scan(text string, depth int) {
	if len(text) > s.budget {
		text = text[:s.budget]
	}
	s.budget -= len(text)
	if text == "" {
		return
	}
	visible, _, tags := screen.StripHidden(norm.NFKC.String(text))
	folded := cases.Fold().String(visible)
	s.tokens(folded)
	if r := refang(folded); r != folded {
		s.tokens(r)
	}
	if c := closeUp(refang(folded)); c != folded {
		s.closedUp(c)
	}
	if depth >= screen.MaxDecodeDepth || s.budget <= 0 {
		return
	}
	if tags != "" {
		s.scan(tags, depth+1)
	}
	if screen.HasPercentEscape(visible) {
		s.scan(screen.PercentDecode(visible), depth+1)
	}
	if screen.HasUnicodeEscape(visible) {
		s.scan(screen.UnicodeDecode(visible), depth+1)
	}
	if strings.Contains(visible, "&") {
		if u := html.UnescapeString(visible); u != visible {
			s.scan(u, depth+1)
		}
	}
	screen.Blobs(visible, func(m string) bool {
		if b, ok := screen.DecodeBlob(m); ok {
			s.scan(string(b), depth+1)
		}
		return s.budget > 0
	})
}

// refang repairs the usual ways of writing an address so that it is not
// a link: "example[.]com", "example(dot)com", "user[at]example.com",
// "hxxps://".
var refanger = strings.NewReplacer(
	"[.]", ".", "(.)", ".", "{.}", ".", "[dot]", ".", "(dot)", ".", "{dot}", ".", " dot ", ".",
	"[at]", "@", "(at)", "@", "{at}", "@", "[@]", "@", "(@)", "@",
	"hxxp", "http", "h**p", "http", "[:]", ":", "[://]", "://",
)

func refang(s string) string {
	if !strings.ContainsAny(s, "[({*") && !strings.Contains(s, "hxxp") && !strings.Contains(s, " dot ") {
		return s
	}
	return refanger.Replace(s)
}

// closeUp removes whitespace between a word character and a '.', '@' or
// '/' next to it: "example . com" and "user @ example.com" read as
// addresses.
func closeUp(s string) string {
	if !strings.ContainsAny(s, ".@/") {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(rs); {
		if !unicode.IsSpace(rs[i]) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		j := i
		for j < len(rs) && unicode.IsSpace(rs[j]) {
			j++
		}
		var prev, next rune
		if i > 0 {
			prev = rs[i-1]
		}
		if j < len(rs) {
			next = rs[j]
		}
		if !(isJoin(prev) && wordRune(next) || isJoin(next) && wordRune(prev)) {
			b.WriteString(string(rs[i:j]))
		}
		i = j
	}
	return b.String()
}

func isJoin(r rune) bool { return r == '.' || r == '@' || r == '/' }

// closedUp records what a closed-up text adds, keeping only what is
// unlikely to be two sentences run together: URLs, e-mail addresses and
// domains whose name has a digit or a hyphen or whose suffix is a common
// one.
func (s *identScanner) closedUp(text string) {
	for _, tok := range candidates(text) {
		for _, id := range classifyAll(tok) {
			switch id.Kind {
			case IdentURL, IdentEmail:
				s.add(id.Kind, id.Value)
			case IdentDomain:
				name, suffix, _ := strings.Cut(id.Value, ".")
				if strings.ContainsAny(name, "0123456789-") || commonSuffix[lastLabel(suffix)] {
					s.add(id.Kind, id.Value)
				}
			}
		}
	}
}

var commonSuffix = map[string]bool{
	"com": true, "net": true, "org": true, "io": true, "co": true, "info": true, "biz": true, "xyz": true, "ru": true,
	"cn": true, "de": true, "uk": true, "app": true, "dev": true, "me": true, "us": true, "eth": true, "onion": true,
}

func lastLabel(d string) string {
	if i := strings.LastIndexByte(d, '.'); i >= 0 {
		return d[i+1:]
	}
	return d
}

// tokens records the identifiers of a folded text.
func (s *identScanner) tokens(text string) {
	for _, tok := range candidates(text) {
		for _, id := range classifyAll(tok) {
			s.add(id.Kind, id.Value)
		}
	}
	s.digitRuns(text)
}

// candidates splits text into the runs that may be identifiers: between
// whitespace, quotes, brackets and similar delimiters, with trailing
// sentence punctuation trimmed.
func candidates(text string) []string {
	fs := strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'`()[]{}<>|,;\x00", r)
	})
	out := fs[:0]
	for _, f := range fs {
		f = strings.TrimRight(f, ".!?:*")
		f = strings.TrimLeft(f, "*:")
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// classifyAll returns the identifiers of a candidate token as a whole and
// of the parts it has glued to words by other punctuation: "link:www.x.com",
// "to=evil.com", "mail\\bob@x.io" name the same addresses as their last
// part would alone.
func classifyAll(tok string) []Identifier {
	out := classify(tok)
	parts := strings.FieldsFunc(tok, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || strings.ContainsRune(".-_/@%~+", r))
	})
	if len(parts) < 2 {
		return out
	}
	for _, p := range parts {
		if p = strings.Trim(p, ".-_/"); p != "" {
			out = append(out, classify(p)...)
		}
	}
	return out
}

// classify returns the identifiers one candidate token is or contains.
func classify(tok string) []Identifier {
	var out []Identifier
	skel := skeleton(tok)
	switch {
	case strings.Contains(skel, "://"):
		out = append(out, Identifier{IdentURL, tok})
		return out
	case strings.HasPrefix(skel, "www."):
		out = append(out, Identifier{IdentURL, tok})
		return out
	}
	if at := strings.IndexByte(tok, '@'); at >= 0 {
		local, domain := tok[:at], tok[at+1:]
		switch {
		case at == 0 && reHandle(domain):
			out = append(out, Identifier{IdentHandle, tok})
		case local != "" && isDomain(skeleton(domain)):
			out = append(out, Identifier{IdentEmail, tok})
		}
		return out
	}
	if hex40(tok) {
		return append(out, Identifier{IdentAddress, tok})
	}
	host, path, hasPath := strings.Cut(tok, "/")
	if isDomain(skeleton(hostOnly(host))) {
		if hasPath && path != "" {
			return append(out, Identifier{IdentURL, tok})
		}
		return append(out, Identifier{IdentDomain, tok})
	}
	if isUUID(tok) || isCode(tok) {
		out = append(out, Identifier{IdentID, tok})
	}
	return out
}

// hostOnly drops a port from host.
func hostOnly(host string) string {
	if i := strings.LastIndexByte(host, ':'); i > 0 && allDigits(host[i+1:]) {
		return host[:i]
	}
	return host
}

// isDomain reports whether d (folded, look-alikes read as Latin) is a
// domain name under a public suffix ICANN delegates, or under .eth or
// .onion.
func isDomain(d string) bool {
	if len(d) < 4 || len(d) > 253 || !strings.Contains(d, ".") || strings.HasPrefix(d, ".") || strings.HasSuffix(d, ".") {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") {
			return false
		}
		for _, r := range label {
			if !(r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return false
			}
		}
	}
	last := lastLabel(d)
	if allDigits(last) {
		return false // a number such as 1.5, or an IPv4 address's last part
	}
	if last == "eth" || last == "onion" {
		return true
	}
	suffix, icann := publicsuffix.PublicSuffix(d)
	return icann && suffix != d
}

func reHandle(s string) bool {
	if len(s) < 2 || len(s) > 64 {
		return false
	}
	letters := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', unicode.IsLetter(r):
			letters = true
		case r >= '0' && r <= '9', r == '_', r == '.', r == '-':
		default:
			return false
		}
	}
	return letters
}

func hex40(s string) bool {
	s = strings.TrimPrefix(s, "0x")
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// isCode reports whether s is a code-like id: 8 to 64 letters, digits,
// '-' and '_', with at least three digits and a letter, and not a date,
// time or a number with a unit.
func isCode(s string) bool {
	if len(s) < 8 || len(s) > 64 {
		return false
	}
	var digits, letters int
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'z':
			letters++
		case r == '-' || r == '_':
		default:
			return false
		}
	}
	if digits < 3 || letters == 0 || looksLikeDate(s) {
		return false
	}
	// A number followed by a unit ("2500000wei", "100km") is a quantity.
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	return !(i > 0 && strings.IndexFunc(s[i:], func(r rune) bool { return r >= '0' && r <= '9' }) < 0)
}

// reIBAN matches what may be an IBAN, written whole or in groups of four.
var reIBAN = regexp.MustCompile(`(?:^|[^a-z0-9])([a-z]{2}[0-9]{2}(?: ?[a-z0-9]{4}){2,7}(?: ?[a-z0-9]{1,3})?)`)

// digitRuns records IBANs, phone numbers and account numbers: they are
// often written with spaces, dashes, dots or parentheses between groups,
// so they are read across them.
func (s *identScanner) digitRuns(text string) {
	for _, m := range reIBAN.FindAllStringSubmatch(text, -1) {
		run := strings.TrimSpace(m[1])
		// The longest prefix of whole groups with a valid checksum.
		for cut := len(run); cut >= 15; cut-- {
			if c := strings.ReplaceAll(run[:cut], " ", ""); isIBAN(c) {
				s.add(IdentIBAN, run[:cut])
				break
			}
		}
	}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if !(r >= '0' && r <= '9' || r == '+' || r == '(') || i > 0 && wordRune(rs[i-1]) {
			continue
		}
		j, digits := i, 0
	run:
		for ; j < len(rs); j++ {
			switch c := rs[j]; {
			case c >= '0' && c <= '9':
				digits++
			case c == '+' && j == i, c == '(' || c == ')':
			case c == ' ' || c == '-' || c == '.' || c == '/':
				// A separator only between two groups.
				if j == i || j+1 >= len(rs) || !(rs[j+1] >= '0' && rs[j+1] <= '9' || rs[j+1] == '(') {
					break run
				}
			default:
				break run
			}
		}
		if j < len(rs) && wordRune(rs[j]) {
			i = j // digits run into a word: a code, read as a token
			continue
		}
		run := strings.TrimRight(string(rs[i:j]), " -./(")
		i = j
		if digits < 7 || looksLikeDate(run) || looksLikeAmount(run) {
			continue
		}
		compact := strings.Map(func(r rune) rune {
			if r == ' ' || r == '-' || r == '.' || r == '/' || r == '(' || r == ')' || r == '+' {
				return -1
			}
			return r
		}, run)
		switch {
		case strings.HasPrefix(run, "+") || strings.ContainsAny(run, " -()") && digits <= 15:
			s.add(IdentPhone, run)
		case digits >= 8:
			s.add(IdentAccount, compact)
		}
	}
}

// isIBAN checks an IBAN's shape and its mod-97 checksum.
func isIBAN(s string) bool {
	if len(s) < 15 || len(s) > 34 || !(s[0] >= 'a' && s[0] <= 'z' && s[1] >= 'a' && s[1] <= 'z') || !(s[2] >= '0' && s[2] <= '9' && s[3] >= '0' && s[3] <= '9') {
		return false
	}
	var b strings.Builder
	for _, r := range s[4:] + s[:4] {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= 'a' && r <= 'z':
			b.WriteString(strconv.Itoa(int(r-'a') + 10))
		default:
			return false
		}
	}
	n, ok := new(big.Int).SetString(b.String(), 10)
	return ok && new(big.Int).Mod(n, big.NewInt(97)).Int64() == 1
}

// looksLikeDate reports whether s is a date or a time: digit groups of
// 4-2-2, 2-2-4 or 2-2-2 (with -, / or .), or hh:mm.
func looksLikeDate(s string) bool {
	groups := strings.FieldsFunc(s, func(r rune) bool {
		return r == '-' || r == '/' || r == '.' || r == 't' || r == ':' || r == ' ' || r == 'z'
	})
	if len(groups) < 3 {
		return false
	}
	lens := make([]int, 0, 3)
	for _, g := range groups[:3] {
		if !allDigits(g) {
			return false
		}
		lens = append(lens, len(g))
	}
	return slices.Equal(lens, []int{4, 2, 2}) || slices.Equal(lens, []int{2, 2, 4}) || slices.Equal(lens, []int{1, 2, 4}) ||
		slices.Equal(lens, []int{2, 1, 4}) || slices.Equal(lens, []int{1, 1, 4}) || slices.Equal(lens, []int{2, 2, 2})
}

// looksLikeAmount reports whether s is a number as canonNumber reads it
// (grouped thousands, a fraction): an amount, not an account.
func looksLikeAmount(s string) bool {
	if !strings.ContainsAny(s, ".,") || strings.ContainsAny(s, " -/()+") {
		return false
	}
	_, ok := canonNumber(s)
	return ok
}

// skeleton maps the Cyrillic and Greek letters that look like Latin ones
// to those, so that a look-alike address is recognised as an address.
func skeleton(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if l, ok := lookAlike[r]; ok {
			return l
		}
		return r
	}, s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lookAlike maps lower-case Cyrillic and Greek letters to the Latin
// letters they are confused with (Unicode's confusables for these
// scripts, folded).
var lookAlike = map[rune]rune{
	'а': 'a', 'в': 'b', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'һ': 'h', 'і': 'i', 'ј': 'j', 'к': 'k', 'ӏ': 'l', 'м': 'm', 'н': 'h',
	'о': 'o', 'р': 'p', 'ԛ': 'q', 'г': 'r', 'ѕ': 's', 'т': 't', 'ц': 'u', 'ѵ': 'v', 'ԝ': 'w', 'х': 'x', 'у': 'y', 'ᴢ': 'z',
	'ё': 'e', 'ї': 'i', 'ο': 'o', 'α': 'a', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ρ': 'p', 'τ': 't', 'υ': 'u',
	'χ': 'x', 'γ': 'y', 'ς': 's', 'σ': 'o', 'η': 'n', 'β': 'b', 'ω': 'w', 'μ': 'u',
}
