// Package vault holds the catalogue's ERC-4626 vault tools: state,
// previews, positions, and deposit, withdraw and redeem plans.
package vault

import "github.com/wardhq/ward/internal/catalog/internal/native"

// Tools are the ERC-4626 vault tools: state, previews, position, deposit,
// withdraw and redeem.
func Tools() []native.Maker {
	return []native.Maker{
		native.At("vault", native.Read(defVaultInfo, "vault", vaultInfo)),
		native.At("vault", native.Read(defVaultPreviewDeposit, "deposit_preview", vaultPreviewDeposit)),
		native.At("vault", native.Read(defVaultPreviewRedeem, "redeem_preview", vaultPreviewRedeem)),
		native.At("vault", native.Read(defVaultPreviewWithdraw, "withdraw_preview", vaultPreviewWithdraw)),
		native.At("vault", native.Read(defVaultPosition, "vault_position", vaultPosition)),
		native.Write(defVaultDeposit, "deposit", "vault", planVaultDeposit),
		native.Write(defVaultWithdraw, "withdraw", "vault", planVaultWithdraw),
		native.Write(defVaultRedeem, "redeem", "vault", planVaultRedeem),
	}
}
