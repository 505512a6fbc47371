package catalog

import (
	"slices"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/catalog/token"
)

// baseTools are the chain, wallet, token, price, safety, intelligence,
// testnet and bootstrap tools.
func baseTools() []native.Maker {
	return slices.Concat([]native.Maker{
		// Chain and wallet reads.
		chainInfo, walletStatus, nativeBalance, token.Balance(), tokenBalances, tokenInfo, allowance, portfolio, gasPrice,
		// Prices.
		tokenPrice, feedData,
		// ERC-20 and WETH (token.Tools), then the rest.
	}, token.Tools(), []native.Maker{
		// Safety.
		simulate, checkToken, checkApprovals, priceDeviation,
		// Intelligence.
		impermanentLoss, gasCost, gasForecast, lvrTool, regimeTool,
		// Testnet (dev chain only).
		fundWallet, setPrice, advanceTime,
		// Bootstrap.
		checkSetup,
	})
}

// hasSim reports whether env can simulate (safety_simulate_transaction).
func hasSim(env *Env) bool { return env.Sim != nil }
