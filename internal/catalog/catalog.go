// Package catalog is ward's native tool catalogue: DeFi tools over the
// chain layer (chain and wallet reads, ERC-20, WETH, price feeds, Uniswap
// V2 and V3, ERC-4626 vaults, Aave V3 style lending, Morpho Blue and
// Compound III (Comet) lending, Lido and Rocket Pool liquid staking,
// safety checks, testnet helpers), each a tool.Def plus the handler its
// tier requires.
//
// Every tool talks to contracts through their mainnet ABIs, so it works
// against any deployment of the protocol, not only the dev chain's. Write
// tools build a tool.Plan without side effects (the gate previews,
// simulates and checks it) and execute exactly that plan with
// chain.Wallet.Send, which consumes the capability the gate minted: no
// write tool can reach the chain without one.
//
// Tools lists every tool in one place; nothing registers itself.
package catalog

import (
	"slices"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/catalog/privileged"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/stream"
)

// Env is what the tools run against; Token and Venues are the tokens and
// protocol contracts it names (defined with the tools' shared code).
type (
	Env    = native.Env
	Token  = native.Token
	Venues = native.Venues
	// PriceConfig configures pool prices (see native.Valuate); PriceCache
	// keeps one Env's valuations per block.
	PriceConfig = native.PriceConfig
	PriceCache  = native.PriceCache
)

// Tools returns the catalogue for env: read tools always, write tools
// only with a wallet, testnet tools only on the dev chain, the stream_
// tools (over the other reads) only with a subscription hub.
func Tools(env *Env) []registry.Tool {
	var out []registry.Tool
	for _, mk := range slices.Concat(baseTools(), defiTools()) {
		t, ok := mk.Make(env)
		if ok {
			out = append(out, t)
		}
	}
	for _, mk := range streamTools(out) {
		if t, ok := mk.Make(env); ok {
			out = append(out, t)
		}
	}
	return out
}

// Register adds the catalogue for env to r.
func Register(r *registry.Registry, env *Env) error {
	for _, t := range Tools(env) {
		if err := r.Add(t); err != nil {
			return err
		}
	}
	return nil
}

// All returns every tool of the catalogue as it registers on the dev chain
// with a wallet, and the privileged tools (package privileged), for
// listing and documentation. Its handlers are bound to no chain, gate or
// store and must not be called.
func All() []registry.Tool {
	one := common.Address{1}
	// A hub that is never subscribed to starts nothing; its config is
	// valid, so New does not fail (a nil hub would only leave the stream_
	// tools out of the listing, which TestDefs would catch).
	hub, _ := stream.New(stream.Config{Publish: func(event.Event) {}})
	return append(Tools(&Env{
		Chain: &chain.Provider{}, Wallet: &chain.Wallet{}, Sim: &chain.Simulator{}, Dev: &chain.DevChain{},
		Venues: Venues{WETH: one, UniswapV2Factory: one, UniswapV2Router: one, UniswapV3Factory: one,
			UniswapV3Router: one, UniswapV3LiquidityHelper: one, UniswapV3PositionManager: one, Permit2: one,
			UniswapV4PoolManager: one, UniswapV4StateView: one, UniswapV4Quoter: one, UniversalRouter: one, AavePool: one, MorphoBlue: one, Comet: one, Vaults: []common.Address{one}, ETHFeed: one,
			LidoWithdrawalQueue: one, RocketStorage: one,
			IdentityRegistry: one, ReputationRegistry: one,
			EigenStrategyManager: one, EigenDelegationManager: one, EigenStrategies: []common.Address{one},
			GmxExchangeRouter: one, GmxRouter: one, GmxOrderVault: one, GmxDataStore: one, GmxReader: one, GmxMarkets: []common.Address{one},
			PendleRouter: one, PendleMarkets: []common.Address{one},
			SavingsDai: one, StakedUSDe: one, YearnVaults: []common.Address{one}},
		Streams: hub,
	}), privileged.All()...)
}

// The bounds of PriceConfig, for the configuration's messages.
const (
	MinTWAPWindow      = native.MinTWAPWindow
	MaxTWAPWindow      = native.MaxTWAPWindow
	MaxMaxDeviationBps = native.MaxMaxDeviationBps
)
