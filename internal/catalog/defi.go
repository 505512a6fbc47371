package catalog

import (
	"slices"

	"github.com/wardhq/ward/internal/catalog/aave"
	"github.com/wardhq/ward/internal/catalog/compound"
	"github.com/wardhq/ward/internal/catalog/eigenlayer"
	"github.com/wardhq/ward/internal/catalog/gmx"
	"github.com/wardhq/ward/internal/catalog/identity"
	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/catalog/lido"
	"github.com/wardhq/ward/internal/catalog/morpho"
	"github.com/wardhq/ward/internal/catalog/pendle"
	"github.com/wardhq/ward/internal/catalog/permit2"
	"github.com/wardhq/ward/internal/catalog/rocketpool"
	"github.com/wardhq/ward/internal/catalog/uniswap"
	"github.com/wardhq/ward/internal/catalog/uniswapv4"
	"github.com/wardhq/ward/internal/catalog/vault"
	"github.com/wardhq/ward/internal/catalog/yieldvault"
)

// defiTools are the protocol tools: Uniswap V2, V3 and V4, ERC-4626 vaults and
// Aave V3 style lending, Permit2, Morpho Blue and Compound III, Lido and
// Rocket Pool liquid staking, ERC-8004 agent identity and reputation, and
// EigenLayer restaking, GMX V2 perpetuals, and the named yield vaults
// (sDAI, sUSDe, Yearn V3). Each write has a unique (action, venue) in the
// adapter table; reads carry a kind and venue for query_state and
// search_context.
func defiTools() []native.Maker {
	return slices.Concat(uniswap.Tools(), vault.Tools(), aave.Tools(), permit2.Tools(), morpho.Tools(), compound.Tools(), lido.Tools(), rocketpool.Tools(), pendle.Tools(), yieldvault.Tools(),
		identity.Tools(), eigenlayer.Tools(), gmx.Tools(), uniswapv4.Tools())
}
