package catalog

import (
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/addrbook"
)

// FromBook returns the tokens and venues the catalogue uses on a chain the
// address book describes: the book's priced tokens (those with a USD
// feed; the wrapped native token prices the native currency), and its
// Uniswap and Aave deployments. A role the book lacks leaves the venue
// unset, so the tools that need it say that no such contract is
// configured. V3 swaps go through the original SwapRouter
// (uniswap_v3_swap_router) where the book has one, else through
// SwapRouter02 (uniswap_v3_swap_router02, the one public chains list),
// with the deadline in its multicall; QuoterV2 (uniswap_v3_quoter_v2)
// quotes routed swaps; Permit2 (permit2) enables the permit2 tools, Morpho
// Blue (morpho_blue) the morpho tools, a Compound III market
// (compound_v3_comet) the comet tools, Lido's withdrawal queue
// (lido_withdrawal_queue) the Lido tools and RocketStorage
// (rocketpool_storage) the Rocket Pool tools; the ERC-8004 registries (erc8004_identity_registry,
// erc8004_reputation_registry) the identity tools, and EigenLayer's
// managers (eigenlayer_strategy_manager, eigenlayer_delegation_manager)
// the eigenlayer tools, which then deposit into no strategy: the book has
// no list of strategies. GMX V2's ExchangeRouter, Router, OrderVault,
// DataStore and Reader (gmx_exchange_router, gmx_router, gmx_order_vault,
// gmx_data_store, gmx_reader) and its markets (every role starting
// gmx_market_, in role order) enable the gmx tools. On Ethereum the book's sDAI and sUSDe tokens are
// Maker's and Ethena's vaults (elsewhere a token of that symbol is a
// bridged ERC-20), enabling their tools; the book lists no Yearn vaults,
// so yearn_get_vault then needs one named.
func FromBook(c *addrbook.Chain) ([]Token, Venues) {
	var tokens []Token
	for _, t := range c.Tokens {
		if t.USDFeed.IsZero() {
			continue
		}
		tokens = append(tokens, Token{Address: common.Address(t.Address), Symbol: t.Symbol, Decimals: t.Decimals, Feed: common.Address(t.USDFeed)})
	}
	role := func(r string) common.Address {
		a, _ := c.Contract(r)
		return common.Address(a)
	}
	v := Venues{
		UniswapV2Factory: role(addrbook.UniswapV2Factory),
		UniswapV2Router:  role(addrbook.UniswapV2Router02),
		UniswapV3Factory: role(addrbook.UniswapV3Factory),
		UniswapV3Router:  role(addrbook.UniswapV3SwapRouter),
		AavePool:         role(addrbook.AaveV3Pool),
		MorphoBlue:       role(addrbook.MorphoBlue),
		Comet:            role(addrbook.CompoundV3Comet),

		UniswapV3SwapRouter02:    role(addrbook.UniswapV3SwapRouter02),
		UniswapV3QuoterV2:        role(addrbook.UniswapV3QuoterV2),
		UniswapV3PositionManager: role(addrbook.UniswapV3PositionManager),
		Permit2:                  role(addrbook.Permit2),
		UniswapV4PoolManager:     role(addrbook.UniswapV4PoolManager),
		UniswapV4StateView:       role(addrbook.UniswapV4StateView),
		UniswapV4Quoter:          role(addrbook.UniswapV4Quoter),
		UniversalRouter:          role(addrbook.UniversalRouter),
		LidoWithdrawalQueue:      role(addrbook.LidoWithdrawalQueue),
		RocketStorage:            role(addrbook.RocketPoolStorage),

		IdentityRegistry:       role(addrbook.ERC8004IdentityRegistry),
		ReputationRegistry:     role(addrbook.ERC8004ReputationRegistry),
		EigenStrategyManager:   role(addrbook.EigenLayerStrategyManager),
		EigenDelegationManager: role(addrbook.EigenLayerDelegationManager),

		GmxExchangeRouter: role(addrbook.GmxExchangeRouter),
		GmxRouter:         role(addrbook.GmxRouter),
		GmxOrderVault:     role(addrbook.GmxOrderVault),
		GmxDataStore:      role(addrbook.GmxDataStore),
		GmxReader:         role(addrbook.GmxReader),
		GmxMarkets:        gmxMarkets(c),
	}
	if c.ID == 1 {
		v.SavingsDai, v.StakedUSDe = onlyToken(c, "sDAI"), onlyToken(c, "sUSDe")
	}
	if w, ok := c.WrappedNative(); ok {
		v.WETH, v.ETHFeed = common.Address(w.Address), common.Address(w.USDFeed)
	}
	return tokens, v
}

// onlyToken is the book's one token with symbol sym, zero when it lists
// none or several.
func onlyToken(c *addrbook.Chain, sym string) common.Address {
	if ts := c.TokensBySymbol(sym); len(ts) == 1 {
		return common.Address(ts[0].Address)
	}
	return common.Address{}
}

// gmxMarkets are the book's GMX markets, in role order.
func gmxMarkets(c *addrbook.Chain) []common.Address {
	var roles []string
	for _, k := range c.Contracts {
		if strings.HasPrefix(k.Role, addrbook.GmxMarketPrefix) {
			roles = append(roles, k.Role)
		}
	}
	slices.Sort(roles)
	var out []common.Address
	for _, r := range roles {
		a, _ := c.Contract(r)
		out = append(out, common.Address(a))
	}
	return out
}
