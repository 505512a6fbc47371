// Package format validates the format of values that agents pass as tool
// arguments: npm package specifiers, http(s) URLs and their hosts, domain
// allowlist patterns, Ethereum addresses (EIP-55), git object names, ports,
// cron expressions and values bound for a shell command line.
//
// The agent may be prompt-injected, so every validator is an allowlist of
// one strict grammar rather than a blocklist of known attacks, and where two
// real parsers could read a value differently (a URL's host, an npm spec's
// type) the grammar is narrowed to the part on which they agree. Each
// validator returns nil for a valid value, or an error whose message is
// short, lower-case and safe to show to the agent: it never echoes the
// value back, only its length or the byte offset (0-based) and kind of the
// offending character.
//
// Every function is pure, safe for concurrent use and free of panics, and
// runs in time linear in its input, most of them after capping its length.
// Validators do not allocate when the value is valid, except Address on a
// mixed-case address, whose EIP-55 check is go-ethereum's (rules caches
// the addresses it accepted); errors that report an offset allocate.
package format

// isDigit reports whether c is an ASCII decimal digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isLower reports whether c is an ASCII lower-case letter.
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// isUpper reports whether c is an ASCII upper-case letter.
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool { return isDigit(c) || isLower(c) || isUpper(c) }

// isHex reports whether c is an ASCII hexadecimal digit of either case.
func isHex(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }

// isControl reports whether c is an ASCII control character or space.
func isControl(c byte) bool { return c <= ' ' || c == 0x7f }

// allHex reports whether s is non-empty and made only of hex digits.
func allHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

// allDigits reports whether s is non-empty and made only of decimal digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
