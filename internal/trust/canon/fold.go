package canon

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lookalike maps letters of other scripts that render like a Latin letter
// to it: Cyrillic, Greek and Armenian homoglyphs. NFKC has already folded
// full-width and mathematical alphanumeric letters.
var lookalike = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'с': 'c', 'ԁ': 'd', 'е': 'e', 'ё': 'e', 'һ': 'h', 'і': 'i', 'ї': 'i', 'ј': 'j', 'к': 'k', 'ӏ': 'l',
	'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'ԛ': 'q', 'ѕ': 's', 'т': 't', 'у': 'y', 'ԝ': 'w', 'х': 'x', 'ү': 'y', 'ь': 'b',
	'А': 'A', 'В': 'B', 'С': 'C', 'Е': 'E', 'Н': 'H', 'І': 'I', 'Ј': 'J', 'К': 'K', 'М': 'M', 'О': 'O', 'Р': 'P',
	'Ѕ': 'S', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'Ү': 'Y', 'Ԛ': 'Q', 'Ԝ': 'W', 'Ӏ': 'I',
	// Greek
	'α': 'a', 'β': 'b', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x', 'γ': 'y',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	// Armenian
	'օ': 'o', 'ս': 'u', 'հ': 'h', 'ո': 'n', 'ց': 'g', 'զ': 'q',
}

// latinLookalike maps Latin letters that imitate plain ones and that NFKC
// leaves alone (small capitals, dotless i, script g): they are folded
// wherever they appear.
var latinLookalike = map[rune]rune{
	'ᴀ': 'a', 'ʙ': 'b', 'ᴄ': 'c', 'ᴅ': 'd', 'ᴇ': 'e', 'ɢ': 'g', 'ʜ': 'h', 'ɪ': 'i', 'ᴊ': 'j', 'ᴋ': 'k', 'ʟ': 'l',
	'ᴍ': 'm', 'ɴ': 'n', 'ᴏ': 'o', 'ᴘ': 'p', 'ʀ': 'r', 'ꜱ': 's', 'ᴛ': 't', 'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w', 'ʏ': 'y',
	'ᴢ': 'z', 'ı': 'i', 'ȷ': 'j', 'ɡ': 'g', 'ɑ': 'a', 'ꞵ': 'b',
}

// Lookalike returns the Latin letter r imitates, if it is a homoglyph
// Fold knows; package catalog folds token symbols by it.
func Lookalike(r rune) (rune, bool) {
	if l, ok := latinLookalike[r]; ok {
		return l, true
	}
	l, ok := lookalike[r]
	return l, ok
}

// Fold replaces look-alike letters with the Latin letters they imitate
// where they imitate them: in a word that mixes them with Latin letters
// ("pаypal" with a Cyrillic а), and in a word of look-alikes only when at
// least 80 % of the text's letters are Latin ("ѕкір" in English text).
// Words of Cyrillic, Greek or Armenian prose are left as they are, and so
// is every letter without a Latin look-alike.
func Fold(s string) string {
	if isASCII(s) {
		return s
	}
	latin, letters := 0, 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			letters++
			if r < utf8.RuneSelf || unicode.Is(unicode.Latin, r) {
				latin++
			}
		}
	}
	mostlyLatin := latin*5 >= letters*4
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		j := i
		for j < len(s) {
			r, n := utf8.DecodeRuneInString(s[j:])
			if !unicode.IsLetter(r) && !unicode.IsMark(r) && !unicode.IsDigit(r) {
				break
			}
			j += n
		}
		if j == i {
			_, n := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteString(foldWord(s[i:j], mostlyLatin))
		i = j
	}
	return b.String()
}

// foldWord folds one word (see Fold).
func foldWord(w string, mostlyLatin bool) string {
	var ascii, look, other int
	for _, r := range w {
		switch {
		case r < utf8.RuneSelf:
			if unicode.IsLetter(r) {
				ascii++
			}
		case latinLookalike[r] != 0:
			look++
		case lookalike[r] != 0:
			look++
		case unicode.IsLetter(r):
			other++
		}
	}
	if look == 0 || !(ascii > 0 || other == 0 && mostlyLatin) {
		return w
	}
	return strings.Map(func(r rune) rune {
		if l, ok := Lookalike(r); ok {
			return l
		}
		return r
	}, w)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
