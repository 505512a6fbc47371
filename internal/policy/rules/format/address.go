package format

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/tool"
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
	for i := 2; i < len(s); i++ {
		if !isHex(s[i]) {
			return fmt.Errorf("address has a non-hex character at offset %d", i)
		}
	}
	if tool.ClaimsChecksum(s) && common.HexToAddress(s).Hex() != s {
		return errAddressChecksum
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
