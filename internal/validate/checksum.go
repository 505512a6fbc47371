package validate

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/tool"
)

// EIP-55 misuse. A mixed-case address carries a checksum: the case of
// each letter is a bit of the Keccak-256 of the lower-case address, and
// every wallet and explorer writes it so. An address in mixed case whose
// case does not match has had digits edited after a tool checksummed it
// (one nibble changed in a copied address keeps the old case pattern, and
// then about half of its letters are in the wrong case): a random edit
// keeps a valid checksum with probability about 2⁻¹⁵ for the 15 letters an
// address has on average. Wallets refuse such an address; an entry that
// presents one as a token's or a contract's states something no source
// copied from the chain.
//
// All lower-case or all upper-case addresses carry no checksum and are
// not judged.
func badChecksum(written string) bool {
	if len(written) != 42 || !tool.ClaimsChecksum(written) {
		return false
	}
	return common.HexToAddress(written).Hex()[2:] != written[2:]
}

// checksumFalse returns the reason an identity's address is false for
// its checksum, or "": a warning about the address is not a claim.
func checksumFalse(id Identity) string {
	if id.Warned || !badChecksum(id.Written) {
		return ""
	}
	return fmt.Sprintf("%s is written with an invalid EIP-55 checksum: its digits were edited after it was checksummed", short(id.Address))
}
