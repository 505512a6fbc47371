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
		native.Read(defChainInfo, "chain", chainInfo),
		native.WalletRead(defWalletStatus, "wallet", walletStatus),
		native.Read(defNativeBalance, "native_balance", nativeBalance),
		token.Balance(),
		native.Read(defTokenBalances, "balances", tokenBalances),
		native.Read(defTokenInfo, "token", tokenInfoRead),
		native.Read(defAllowance, "allowance", allowanceOf),
		native.Read(defPortfolio, "portfolio", portfolio),
		native.Read(defGasPrice, "gas", gasPrice),
		// Prices.
		native.Read(defTokenPrice, "price", tokenPrice),
		native.Read(defFeedData, "feed", feedData),
		// ERC-20 and WETH (token.Tools), then the rest.
	}, token.Tools(), []native.Maker{
		// Safety.
		native.SimRead(defSimulate, "simulate", simulateTx),
		native.Read(defCheckToken, "token_check", checkToken),
		native.Read(defCheckApprovals, "approvals", checkApprovals),
		native.Read(defPriceDeviation, "price_deviation", priceDeviation),
		// Intelligence.
		native.Pure(defImpermanentLoss, "impermanent_loss", impermanentLoss),
		native.Read(defGasCost, "gas_cost", gasCost),
		// Testnet (dev chain only).
		native.When(canFund, native.DevWrite(defFundWallet, "fund", "testnet", planFund, fund)),
		native.DevWrite(defSetPrice, "set_price", "testnet", planSetPrice, setPrice),
		native.DevWrite(defAdvanceTime, "advance_time", "testnet", planAdvanceTime, advanceTime),
		// Bootstrap.
		native.Read(defCheckSetup, "setup", checkSetup),
	})
}
