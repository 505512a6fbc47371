package trust

import (
	"github.com/wardhq/ward/internal/trust/screen"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// normalize returns s in the form both sides of a comparison are put in:
// NFKC, case-folded, without format characters (zero-width and bidi
// controls, which would otherwise let a page hide a value from the
// comparison), with every whitespace run collapsed to one space, trimmed.
func normalize(s string) string {
	s = cases.Fold().String(norm.NFKC.String(s))
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case isFormat(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isFormat reports whether r is an invisible format character (Unicode Cf).
func isFormat(r rune) bool { return unicode.Is(unicode.Cf, r) }

// wordRune reports whether r is part of a token, as detection reads
// tokens: a letter, digit or mark.
func wordRune(r rune) bool { return screen.WordRune(r) }

func boundaryBefore(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return !wordRune(r)
}

func boundaryAfter(text string, i int) bool {
	if i >= len(text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return !wordRune(r)
}

// nextStart returns the first index after i that follows a non-word rune:
// the next place an occurrence with a boundary before it can start.
func nextStart(text string, i int) int {
	for i < len(text) {
		if c := text[i]; c < utf8.RuneSelf {
			i++
			if !wordRune(rune(c)) {
				return i
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		if !wordRune(r) {
			return i
		}
	}
	return len(text) + 1
}

// containsToken reports whether v occurs in text with no letter or digit
// immediately before or after it. Both are normalised.
func containsToken(text, v string) bool {
	for i := 0; i <= len(text); {
		j := strings.Index(text[i:], v)
		if j < 0 {
			return false
		}
		start := i + j
		if boundaryBefore(text, start) && boundaryAfter(text, start+len(v)) {
			return true
		}
		i = nextStart(text, start)
	}
	return false
}

// maxCompact bounds the values compared with whitespace removed, which
// keeps the comparison linear in practice: IBANs, card, account and phone
// numbers are well below it.
const maxCompact = 64

// wantsCompact reports whether v (normalised) is also compared with its
// whitespace removed: it has a digit and 8 to maxCompact runes.
func wantsCompact(v string) bool {
	n := utf8.RuneCountInString(v)
	return n >= 8 && n <= maxCompact && strings.ContainsFunc(v, unicode.IsDigit)
}

// containsCompact reports whether cv, a normalised value with its spaces
// removed, occurs in text when text's spaces are ignored, with token
// boundaries in text around the occurrence.
func containsCompact(text, cv string) bool {
	if cv == "" {
		return false
	}
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], cv[0])
		if j < 0 {
			return false
		}
		start := i + j
		if boundaryBefore(text, start) {
			if end, ok := matchSpaced(text, start, cv); ok && boundaryAfter(text, end) {
				return true
			}
		}
		i = nextStart(text, start)
	}
	return false
}

// matchSpaced reports whether cv matches text from start when spaces in
// text after the first byte are skipped, and where the match ends.
func matchSpaced(text string, start int, cv string) (end int, ok bool) {
	k, t := 0, start
	for k < len(cv) && t < len(text) {
		switch {
		case text[t] == cv[k]:
			k++
		case text[t] != ' ' || k == 0:
			return 0, false
		}
		t++
	}
	return t, k == len(cv)
}

// Delimiters between tokens, besides whitespace. The comma is not one for
// numbers, which may group thousands with it.
const (
	numberDelims = "\"'`()[]{}<>=:;|\x00"
	tokenDelims  = numberDelims + ","
	trailPunct   = ",;.!?%$€£¥"
)

func fields(s, delims string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(delims, r)
	})
}

// shortTokens adds to set the tokens of text (normalised) shorter than
// three runes, the only ones a short value is compared with.
func shortTokens(set map[string]struct{}, text string) {
	for _, f := range fields(text, tokenDelims) {
		f = strings.TrimRight(f, trailPunct)
		f = strings.TrimLeft(f, "#")
		if f != "" && utf8.RuneCountInString(f) < 3 {
			set[f] = struct{}{}
		}
	}
}

// numbers adds to set the canonical form of every number token in text
// (normalised). A token that is not a number but has commas is split on
// them, so that "1,2,3" yields 1, 2 and 3.
func numbers(set map[string]struct{}, text string) {
	for _, f := range fields(text, numberDelims) {
		f = strings.TrimRight(strings.TrimLeft(f, "#"), trailPunct)
		if f == "" || !strings.ContainsFunc(f, isASCIIDigit) {
			continue
		}
		if c, ok := canonNumber(f); ok {
			set[c] = struct{}{}
			continue
		}
		if strings.Contains(f, ",") {
			for p := range strings.SplitSeq(f, ",") {
				if c, ok := canonNumber(strings.TrimRight(p, trailPunct)); ok {
					set[c] = struct{}{}
				}
			}
		}
	}
}

func isASCIIDigit(r rune) bool { return r >= '0' && r <= '9' }

// maxExponent bounds a number's decimal exponent, and so its canonical form.
const maxExponent = 400

// canonNumber parses s as a number and returns its canonical decimal form:
// no grouping, no leading zeros, no trailing fractional zeros, no exponent,
// "-" only for a non-zero negative. It accepts an optional sign, an optional
// currency symbol ($ € £ ¥) before or after the sign, digits optionally
// grouped in thousands by commas, a fraction and an exponent. A date or a
// version ("2022-03-07", "1.2.3") is not a number. The conversion is exact:
// no floating point.
func canonNumber(s string) (string, bool) {
	neg := false
	sign := func() {
		if s != "" && (s[0] == '-' || s[0] == '+') {
			neg = s[0] == '-'
			s = s[1:]
		}
	}
	sign()
	for _, c := range []string{"$", "€", "£", "¥"} {
		if rest, ok := strings.CutPrefix(s, c); ok {
			s = rest
			if !neg {
				sign()
			}
			break
		}
	}
	mant, exp, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp, hasExp = s[:i], s[i+1:], true
	}
	intPart, frac, hasPoint := strings.Cut(mant, ".")
	if hasPoint && !allDigits(frac) {
		return "", false
	}
	intPart, ok := ungroup(intPart)
	if !ok || intPart == "" && frac == "" {
		return "", false
	}
	e := 0
	if hasExp {
		v, ok := parseExponent(exp)
		if !ok {
			return "", false
		}
		e = v
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	e -= len(frac)
	for strings.HasSuffix(digits, "0") {
		digits = digits[:len(digits)-1]
		e++
	}
	if digits == "" {
		return "0", true
	}
	if e > maxExponent || e < -maxExponent-len(digits) {
		return "", false
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	switch {
	case e >= 0:
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", e))
	case len(digits) > -e:
		b.WriteString(digits[:len(digits)+e])
		b.WriteByte('.')
		b.WriteString(digits[len(digits)+e:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -e-len(digits)))
		b.WriteString(digits)
	}
	return b.String(), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ungroup returns s without thousands separators if it is plain digits or
// digits grouped as 1-3 digits followed by ",ddd" groups.
func ungroup(s string) (string, bool) {
	if !strings.Contains(s, ",") {
		return s, allDigits(s)
	}
	groups := strings.Split(s, ",")
	if n := len(groups[0]); n < 1 || n > 3 || !allDigits(groups[0]) {
		return "", false
	}
	for _, g := range groups[1:] {
		if len(g) != 3 || !allDigits(g) {
			return "", false
		}
	}
	return strings.Join(groups, ""), true
}

func parseExponent(s string) (int, bool) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" || !allDigits(s) {
		return 0, false
	}
	s = strings.TrimLeft(s, "0")
	if len(s) > 6 {
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		v = v*10 + int(s[i]-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}
