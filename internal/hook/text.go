package hook

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// cleanText drops control and format characters (bidirectional overrides,
// zero-width characters) and invalid UTF-8 from untrusted text, and
// collapses runs of whitespace into one space.
func cleanText(s string) string {
	var b strings.Builder
	space := false
	for i, r := range s {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(s[i:]); n <= 1 {
				continue
			}
		}
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
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

// truncText cuts s to at most n runes, marking a cut with "…".
func truncText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n-1 {
			return s[:j] + "…"
		}
		i++
	}
	return s
}
