// Package token holds the catalogue's ERC-20 and WETH tools: balances,
// approvals and their revocation, transfers, EIP-2612 permits, and
// wrapping and unwrapping ETH.
package token

import (
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
)

// Balance is the ERC-20 balance read (the catalogue lists it among the
// chain and wallet reads).
func Balance() native.Maker { return native.Read(defTokenBalance, "balance", tokenBalance) }

// Tools are the ERC-20 writes and permits, then the WETH tools (registered
// only when the WETH contract is known).
func Tools() []native.Maker {
	return []native.Maker{
		native.Write(defApprove, "approve", "erc20", planApprove),
		native.Write(defRevoke, "revoke", "erc20", planRevoke),
		native.Write(defTransfer, "transfer", "erc20", planTransfer),
		native.WriteWith(defSignPermit, "permit", "erc20", planSignPermit, signPermit),
		native.Read(defVerifyPermit, "permit_check", verifyPermit),
		native.When(hasWETH, native.Write(defWrap, "wrap", "weth", planWETH(true))),
		native.When(hasWETH, native.Write(defUnwrap, "unwrap", "weth", planWETH(false))),
	}
}

func hasWETH(env *native.Env) bool { return env.Venues.WETH != (common.Address{}) }
