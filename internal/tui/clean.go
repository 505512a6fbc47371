package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// clean returns s made safe to print on a terminal as one line of at most
// max runes (unbounded when max <= 0): escape sequences (CSI, OSC, DCS and
// the other ESC-introduced strings) are removed whole; other control
// characters (C0, DEL, C1 including the 8-bit CSI U+009B), Unicode format
// characters (bidirectional overrides, zero-width characters) and line or
// paragraph separators are removed; tabs and newlines become spaces;
// invalid UTF-8 becomes U+FFFD. A cut string ends in "…".
//
// Every string the API sends (tool names, step names, reasons, ids, error
// text) passes through clean before the model stores it: an agent or an
// attacker can choose those strings, and the terminal must not interpret
// them.
func clean(s string, max int) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
			// 8-bit CSI, OSC, DCS, SOS, PM, APC: skip their bodies too.
			i += size + bodyLen(s[i+size:], r == 0x9b)
			continue
		case r == '\t' || r == '\n' || r == '\r':
			r = ' '
		case r == utf8.RuneError && size <= 1:
			r = '\uFFFD'
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
			i += size
			continue
		}
		i += size
		if max > 0 && n == max-1 && i < len(s) {
			b.WriteRune('…')
			return b.String()
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// escapeLen returns the length of the escape sequence at the start of s
// (s[0] is ESC).
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + bodyLen(s[2:], true)
	case ']', 'P', 'X', '^', '_':
		return 2 + bodyLen(s[2:], false)
	default:
		// Two-character sequences (ESC c, ESC 7, ...) and charset
		// designations (ESC ( B): drop ESC and its intermediates and final.
		i := 1
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) {
			i++
		}
		return i
	}
}

// bodyLen returns the length of an escape sequence's body: for a CSI, its
// parameter and intermediate bytes and the final byte; for a string
// sequence (OSC, DCS, ...), everything up to and including BEL or ST
// (ESC \ or U+009C). An unterminated body runs to the end of s.
func bodyLen(s string, csi bool) int {
	if csi {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c >= 0x40 && c <= 0x7e {
				return i + 1
			} else if c < 0x20 || c > 0x7e {
				// Not a CSI byte: the sequence is malformed; stop here and
				// let the caller clean the rest.
				return i
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
	}
	return len(s)
}
