package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/catalog/internal/native"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

var checkSetup = native.ReadTool{
	Name: "bootstrap_check_setup",
	Description: "Check that ward is ready to act: the chain answers and is the one configured; a wallet is configured and holds ETH " +
		"for gas; every known token has code and reports the decimals ward expects; every known protocol contract (WETH, Uniswap " +
		"factories and routers, lending pool, vaults) has code; every price feed answers with a fresh price; the simulator is available. " +
		"Returns each check with pass, warn or fail, and ready = no failures. Use it first in a session, or when actions fail " +
		"unexpectedly. Does not fix anything.",
	Category: tool.CatBootstrap, Budget: tool.Medium,
	Steps:   []string{"Reaching the chain", "Checking the wallet", "Checking tokens and venues", "Checking price feeds"},
	Snippet: "bootstrap_check_setup checks chain, wallet, tokens, venues and feeds are ready.",
	Result: []string{native.RProp("ready", "boolean", "No check failed"), native.RProp("verdict", "string", "pass, warn or fail"),
		native.RProp("checks", "array", "Each check: name, status, detail")},
	Action: "setup",
	Run:    readCheckSetup,
}

type setupOut struct {
	Ready   bool    `json:"ready"`
	Verdict string  `json:"verdict"`
	ChainID uint64  `json:"chain_id"`
	Chain   string  `json:"chain"`
	Wallet  string  `json:"wallet,omitempty"`
	Checks  []check `json:"checks"`
}

func readCheckSetup(ctx context.Context, env *Env, in *registry.Input) (any, error) {
	out := setupOut{ChainID: env.Chain.ChainID(), Chain: chainName(env.Chain.ChainID())}
	in.Step(0)
	if out.checkChain(ctx, env) {
		in.Step(1)
		out.checkWallet(ctx, env)
		out.checkSimulator(env)
		in.Step(2)
		out.checkTokens(ctx, env)
		out.checkVenues(ctx, env)
		in.Step(3)
		out.checkFeeds(ctx, env)
	}
	out.Verdict = verdict(out.Checks)
	out.Ready = out.Verdict != statusFail
	return out, nil
}

func (out *setupOut) add(name, status, detail string) {
	out.Checks = append(out.Checks, check{name, status, detail})
}

// checkChain checks the node answers and its head is recent; false when
// it does not answer, and nothing else can be checked.
func (out *setupOut) checkChain(ctx context.Context, env *Env) bool {
	h, err := native.Head(ctx, env)
	if err != nil {
		out.add("chain_reachable", statusFail, "the chain's node does not answer")
		return false
	}
	out.add("chain_reachable", statusPass, fmt.Sprintf("%s (chain %d) at block %d", out.Chain, out.ChainID, h.Number.Uint64()))
	age := env.Clock().Sub(time.Unix(int64(h.Time), 0))
	switch {
	case env.Dev != nil:
		out.add("chain_fresh", statusPass, "dev chain: blocks are mined on demand")
	case age > 10*time.Minute:
		out.add("chain_fresh", statusWarn, fmt.Sprintf("the latest block is %s old: the node may be behind", age.Round(time.Second)))
	default:
		out.add("chain_fresh", statusPass, fmt.Sprintf("latest block %s old", age.Round(time.Second)))
	}
	return true
}

// checkWallet checks a wallet is configured for this chain and holds ETH
// for gas.
func (out *setupOut) checkWallet(ctx context.Context, env *Env) {
	if env.Wallet == nil {
		out.add("wallet", statusWarn, "no wallet is configured: ward can read but no write tool is available")
	} else {
		addr := env.Wallet.Address()
		out.Wallet = addr.Hex()
		switch bal, err := env.Chain.BalanceOf(ctx, addr); {
		case err != nil:
			out.add("wallet", statusFail, "the wallet's balance cannot be read")
		case env.Wallet.ChainID() != env.Chain.ChainID():
			out.add("wallet", statusFail, fmt.Sprintf("the wallet sends on chain %d, not %d", env.Wallet.ChainID(), env.Chain.ChainID()))
		case bal.Sign() == 0:
			out.add("wallet", statusFail, "the wallet holds no ETH: it cannot pay for gas")
		default:
			out.add("wallet", statusPass, fmt.Sprintf("%s holds %s ETH", addr.Hex(), native.FormatUnits(bal, 18)))
		}
	}
}

func (out *setupOut) checkSimulator(env *Env) {
	if env.Sim == nil {
		out.add("simulator", statusWarn, "no simulator: writes cannot be simulated before they are sent")
	} else {
		out.add("simulator", statusPass, "available")
	}
}

// checkTokens checks every known token has code and the decimals ward
// expects.
func (out *setupOut) checkTokens(ctx context.Context, env *Env) {
	var missing, wrong []string
	for _, t := range env.KnownTokens() {
		code, err := env.Chain.Code(ctx, t.Address)
		if err != nil || len(code) == 0 {
			missing = append(missing, t.Symbol)
			continue
		}
		d, err := native.Call(ctx, env.Chain, chain.ERC20ABI(), t.Address, "decimals")
		if err != nil || d[0].(uint8) != t.Decimals {
			wrong = append(wrong, t.Symbol)
		}
	}
	switch {
	case len(env.KnownTokens()) == 0:
		out.add("tokens", statusWarn, "no tokens are configured")
	case len(missing) > 0:
		out.add("tokens", statusFail, "no code at the configured address of: "+strings.Join(missing, ", "))
	case len(wrong) > 0:
		out.add("tokens", statusFail, "decimals differ from the configured ones for: "+strings.Join(wrong, ", "))
	default:
		out.add("tokens", statusPass, fmt.Sprintf("%d tokens have code and the expected decimals", len(env.KnownTokens())))
	}
}

// checkVenues checks every configured protocol contract has code.
func (out *setupOut) checkVenues(ctx context.Context, env *Env) {
	type venue struct {
		name string
		addr common.Address
	}
	venues := []venue{
		{"weth", env.Venues.WETH}, {"uniswap_v2_factory", env.Venues.UniswapV2Factory}, {"uniswap_v2_router", env.Venues.UniswapV2Router},
		{"uniswap_v3_factory", env.Venues.UniswapV3Factory}, {"uniswap_v3_router", env.Venues.UniswapV3Router},
		{"uniswap_v3_swap_router02", env.Venues.UniswapV3SwapRouter02}, {"uniswap_v3_quoter_v2", env.Venues.UniswapV3QuoterV2}, {"permit2", env.Venues.Permit2}, {"aave_pool", env.Venues.AavePool},
		{"morpho_blue", env.Venues.MorphoBlue}, {"comet", env.Venues.Comet},
	}
	for i, v := range env.Venues.Vaults {
		venues = append(venues, venue{fmt.Sprintf("vault_%d", i), v})
	}
	var set, noCode []string
	for _, v := range venues {
		if v.addr == (common.Address{}) {
			continue
		}
		set = append(set, v.name)
		if code, err := env.Chain.Code(ctx, v.addr); err != nil || len(code) == 0 {
			noCode = append(noCode, v.name)
		}
	}
	switch {
	case len(set) == 0:
		out.add("venues", statusWarn, "no protocol contracts are configured: only token tools work")
	case len(noCode) > 0:
		out.add("venues", statusFail, "no code at the configured address of: "+strings.Join(noCode, ", "))
	default:
		out.add("venues", statusPass, "code found for: "+strings.Join(set, ", "))
	}
}

// checkFeeds checks every price feed answers with a fresh price.
func (out *setupOut) checkFeeds(ctx context.Context, env *Env) {
	feeds := map[common.Address][]string{}
	var order []common.Address
	for _, t := range append([]Token{{Symbol: "ETH", Feed: env.Venues.ETHFeed}}, env.KnownTokens()...) {
		if t.Feed == (common.Address{}) {
			continue
		}
		if feeds[t.Feed] == nil {
			order = append(order, t.Feed)
		}
		feeds[t.Feed] = append(feeds[t.Feed], t.Symbol)
	}
	var dead, stale []string
	for _, f := range order {
		name := strings.Join(feeds[f], "/")
		p, err := native.FeedPrice(ctx, env, f)
		switch {
		case err != nil:
			dead = append(dead, name)
		case p.Stale:
			stale = append(stale, name+" ("+strings.Join(p.StaleReasons, "; ")+")")
		}
	}
	switch {
	case len(order) == 0:
		out.add("price_feeds", statusWarn, "no price feeds: no action can be valued, so spending limits refuse them all")
	case len(dead) > 0:
		out.add("price_feeds", statusFail, "these feeds do not answer: "+strings.Join(dead, ", "))
	case len(stale) > 0:
		out.add("price_feeds", statusWarn, "stale prices (actions on these tokens are refused until they update): "+strings.Join(stale, ", "))
	default:
		out.add("price_feeds", statusPass, fmt.Sprintf("%d feeds answer with fresh prices", len(order)))
	}
}
