package format

import (
	"errors"
	"fmt"

	"golang.org/x/crypto/sha3"
)

const addressLen = 2 + 40

var (
	errAddressLen      = errors.New("address must be 42 characters: 0x and 40 hex digits")
	errAddressPrefix   = errors.New("address must start with 0x")
	errAddressChecksum = errors.New("address checksum does not match (EIP-55)")
)

// Address validates a 0x-prefixed 20-byte Ethereum address: exactly 42
// characters, "0x" (lower case) then 40 hex digits. When the digits mix
// upper- and lower-case letters the EIP-55 checksum must match; all lower
// case and all upper case are accepted as unchecksummed.
func Address(s string) error {
	if len(s) != addressLen {
		return errAddressLen
	}
	if s[0] != '0' || s[1] != 'x' {
		return errAddressPrefix
	}
	var hasLower, hasUpper bool
	for i := 2; i < len(s); i++ {
		switch c := s[i]; {
		case isDigit(c):
		case 'a' <= c && c <= 'f':
			hasLower = true
		case 'A' <= c && c <= 'F':
			hasUpper = true
		default:
			return fmt.Errorf("address has a non-hex character at offset %d", i)
		}
	}
	if hasLower && hasUpper {
		var sum [addressLen]byte
		checksum(&sum, s)
		if string(sum[:]) != s {
			return errAddressChecksum
		}
	}
	return nil
}

// ZeroAddress reports whether s is the zero address, "0x" followed by 40
// zeros; the prefix may be "0x" or "0X". Anything else, including invalid
// input, reports false.
func ZeroAddress(s string) bool {
	if len(s) != addressLen || s[0] != '0' || s[1]|0x20 != 'x' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if s[i] != '0' {
			return false
		}
	}
	return true
}

// ChecksumAddress returns the EIP-55 mixed-case form of an address that
// passes Address, or Address's error.
func ChecksumAddress(s string) (string, error) {
	if err := Address(s); err != nil {
		return "", err
	}
	var sum [addressLen]byte
	checksum(&sum, s)
	return string(sum[:]), nil
}

// checksum writes the EIP-55 form of the well-formed address s into buf.
// Per EIP-55, a hex letter is upper case when
// the matching nibble of Keccak-256 over the 40 lower-case hex digits is 8
// or more.
func checksum(buf *[addressLen]byte, s string) {
	buf[0], buf[1] = '0', 'x'
	for i := 2; i < addressLen; i++ {
		c := s[i]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	h := sha3.NewLegacyKeccak256()
	h.Write(buf[2:])
	var digest [32]byte
	h.Sum(digest[:0])
	for i := 0; i < 40; i++ {
		nibble := digest[i/2] >> 4
		if i%2 == 1 {
			nibble = digest[i/2] & 0x0f
		}
		if c := buf[2+i]; nibble >= 8 && isLower(c) {
			buf[2+i] = c - ('a' - 'A')
		}
	}
}
