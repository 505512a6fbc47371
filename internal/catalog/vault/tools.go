// Package vault holds the catalogue's ERC-4626 vault tools: state,
// previews, positions, and deposit, withdraw and redeem plans.
package vault

import "github.com/wardhq/ward/internal/catalog/internal/native"

// Tools are the ERC-4626 vault tools: state, previews, position, deposit,
// withdraw and redeem.
func Tools() []native.Maker {
	return []native.Maker{info, previewDeposit, previewRedeem, previewWithdraw, position, deposit, withdraw, redeem}
}
