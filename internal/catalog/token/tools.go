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
func Balance() native.Maker { return balance }

// Tools are the ERC-20 writes and permits, then the WETH tools (registered
// only when the WETH contract is known).
func Tools() []native.Maker {
	return []native.Maker{approve, revoke, transfer, permitSign, permitVerify, wrap, unwrap}
}

func hasWETH(env *native.Env) bool { return env.Venues.WETH != (common.Address{}) }
