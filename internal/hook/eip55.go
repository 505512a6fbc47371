package hook

import (
	"golang.org/x/crypto/sha3"
)

// isHexAddress reports whether s is 0x followed by 40 hex digits.
func isHexAddress(s string) bool {
	if len(s) != 42 || s[0] != '0' || s[1] != 'x' {
		return false
	}
	for i := 2; i < 42; i++ {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// mixedCase reports whether the hex digits of a 0x address use both
// cases: only such an address claims an EIP-55 checksum.
func mixedCase(s string) bool {
	lower, upper := false, false
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'f':
			lower = true
		case c >= 'A' && c <= 'F':
			upper = true
		}
	}
	return lower && upper
}

// checksumAddress returns the EIP-55 spelling of a 0x address: a hex
// letter is upper case when the matching nibble of Keccak-256 of the
// lower-case hex is 8 or more.
func checksumAddress(s string) string {
	low := make([]byte, 40)
	for i := range 40 {
		c := s[2+i]
		if c >= 'A' && c <= 'F' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	h := sha3.NewLegacyKeccak256()
	h.Write(low)
	sum := h.Sum(nil)
	out := []byte("0x" + string(low))
	for i := range 40 {
		nibble := sum[i/2] >> 4
		if i%2 == 1 {
			nibble = sum[i/2] & 0x0f
		}
		if c := out[2+i]; c >= 'a' && c <= 'f' && nibble >= 8 {
			out[2+i] = c - ('a' - 'A')
		}
	}
	return string(out)
}

// validChecksum reports whether a mixed-case 0x address is spelled exactly
// as EIP-55 says. Addresses in one case carry no checksum and are valid.
func validChecksum(s string) bool {
	if !isHexAddress(s) || !mixedCase(s) {
		return true
	}
	return checksumAddress(s) == s
}
