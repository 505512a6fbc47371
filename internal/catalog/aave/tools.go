// Package aave holds the catalogue's Aave V3 lending tools: account and
// reserve reads, and supply, withdraw, borrow, repay and liquidation
// plans that predict the health factor and refuse what would make the
// account liquidatable.
package aave

import "github.com/wardhq/ward/internal/catalog/internal/native"

// Tools are the Aave V3 style lending tools: account and reserve reads,
// supply, withdraw, borrow, repay and liquidate.
func Tools() []native.Maker {
	return []native.Maker{accountData, reserveData, supply, withdraw, borrow, repay, liquidate}
}
