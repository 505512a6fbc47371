package validate

import (
	"strings"
)

// An address may be written in pieces so that no 42-character word
// holds it: "0x 5149 1077 1AF9 …", "0x-1f98…-b020…", or "starts 0x2260fa…
// and ends …4a91f4…". joinSplitAddresses rewrites each such run into the
// one address it spells, so that the book checks it like any other.
//
// A run starts at "0x" followed by fewer than 40 hex digits and takes the
// hex fragments after it, separated by spaces, hyphens, dots or
// apostrophes, or one line break before a hex fragment (an address
// wrapped at the end of a line), and at most maxSplitGap words that are not hex, until the
// fragments hold exactly 40 digits; a run that overshoots, or that ends
// first, is left as written. A fragment must look like part of an address
// (a digit in it, or 8 letters a-f or more), so that the words of a
// sentence ("a", "be", "dead", "add") are never taken for hex.
const maxSplitGap = 3

func joinSplitAddresses(text string) string {
	if !strings.Contains(text, "0x") && !strings.Contains(text, "0X") {
		return text
	}
	var b strings.Builder
	last := 0
	for i := 0; i+1 < len(text); {
		if text[i] != '0' || text[i+1] != 'x' && text[i+1] != 'X' || i > 0 && wordByte(text[i-1]) {
			i++
			continue
		}
		hexs, end, ok := splitRun(text, i+2)
		if !ok {
			i += 2
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString("0x")
		b.WriteString(hexs)
		last, i = end, end
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// splitRun reads the fragments of a split address whose first digit is at
// text[j]: their digits and the end of the last one, ok when they hold
// exactly 40 digits in at least two fragments.
func splitRun(text string, j int) (digits string, end int, ok bool) {
	k := j
	for k < len(text) && hexByte(text[k]) {
		k++
	}
	if k-j >= 40 || k < len(text) && wordByte(text[k]) {
		return "", 0, false // a whole address, a longer hash, or a word ("0xdeadbeefcafe")
	}
	var d strings.Builder
	d.WriteString(text[j:k])
	pieces, gap := 1, 0
	for d.Len() < 40 {
		// Separators between fragments.
		s := k
		for s < len(text) && strings.IndexByte(" \t-.'\r\n", text[s]) >= 0 {
			s++
		}
		if s == k && d.Len() > 0 || s >= len(text) {
			return "", 0, false
		}
		e := s
		for e < len(text) && wordByte(text[e]) {
			e++
		}
		w := text[s:e]
		wrapped := strings.Count(text[k:s], "\n") // a line break continues the address only with its next piece
		switch {
		case e == s || wrapped > 1:
			return "", 0, false
		case allHex(w) && fragment(w):
			d.WriteString(w)
			pieces++
		case gap < maxSplitGap && plainWord(w) && wrapped == 0:
			gap++
		default:
			return "", 0, false
		}
		k = e
	}
	if d.Len() != 40 || pieces < 2 {
		return "", 0, false
	}
	// One more fragment after the 40th digit: the run is not one address.
	s := k
	for s < len(text) && strings.IndexByte(" \t-.'\r\n", text[s]) >= 0 {
		s++
	}
	e := s
	for e < len(text) && wordByte(text[e]) {
		e++
	}
	if s > k && e > s && allHex(text[s:e]) && fragment(text[s:e]) {
		return "", 0, false
	}
	return strings.ToLower(d.String()), k, true
}

// fragment reports whether hex w looks like a piece of an address rather
// than an English word spelt with a-f.
func fragment(w string) bool {
	return strings.ContainsAny(w, "0123456789") || len(w) >= 8
}

func plainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// An address may be written without its "0x" (a config that stores bare
// hex, "route through 2260fa3a…c599"). prefixBareAddresses rewrites a run
// of exactly 40 hex digits, with a digit and a letter among them and no
// word character on either side, into "0x" and the run, so that the book
// checks it like any other. Forty hex digits are an address or a SHA-1
// (a git commit): a run the word before calls a commit, hash, digest or
// revision is left alone.
func prefixBareAddresses(text string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); {
		if !hexByte(text[i]) || i > 0 && wordByte(text[i-1]) {
			i++
			continue
		}
		j := i
		digit, letter := false, false
		for j < len(text) && hexByte(text[j]) {
			if text[j] <= '9' {
				digit = true
			} else {
				letter = true
			}
			j++
		}
		if j-i != 40 || !digit || !letter || j < len(text) && wordByte(text[j]) || hashNamed(text[:i]) {
			i = j
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString("0x")
		last, i = i, j
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// hashWords name a 40-digit hash that is not an address.
var hashWords = wordSet("commit commits sha sha1 sha-1 hash hashes digest revision rev git checksum")

// hashNamed reports whether one of the two words before the end of
// prefix is a hashWord.
func hashNamed(prefix string) bool {
	ws := strings.FieldsFunc(strings.ToLower(prefix[max(0, len(prefix)-40):]), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	})
	for k := len(ws) - 1; k >= 0 && k >= len(ws)-2; k-- {
		if hashWords[ws[k]] {
			return true
		}
	}
	return false
}
