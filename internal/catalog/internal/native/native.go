// Package native is what every tool of ward's native catalogue shares:
// the environment the tools run against (Env), the declaration of a tool
// (ReadTool, WriteTool: named fields from which its definition is built,
// checking chain_id before it runs and registering it only where its
// environment supports it), parameter and result schema fragments, the
// argument reader (Args), contract calls (with a protocol's own ABI
// fragment through LazyABI), the planning steps every write repeats
// (token metadata, balance and allowance checks, amounts bounded by a
// balance, ETH payments, slippage and deadlines, repayments, the plan
// itself), lending arithmetic, USD valuation from price feeds, and
// Execute, the one write handler that sends a previewed plan and checks
// its balance changes.
//
// It is internal to catalog: the protocol packages (aave, compound,
// morpho, lido, rocketpool, pendle, gmx, eigenlayer, identity, token,
// uniswap, vault, ...) build on it and catalog assembles them. An idea
// two of them need lives here once.
package native

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/chain"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/stream"
	"github.com/wardhq/ward/internal/tool"
)

// Token is a token the catalogue knows: its address, symbol and decimals
// as read from the chain at start, and the Chainlink-style USD feed that
// prices it (zero: unpriced).
type Token struct {
	Address  common.Address `json:"address"`
	Symbol   string         `json:"symbol"`
	Decimals uint8          `json:"decimals"`
	Feed     common.Address `json:"feed"`
}

// Venues are the protocol contracts the tools use by default (a call may
// name others where its schema allows).
type Venues struct {
	WETH             common.Address `json:"weth"`
	UniswapV2Factory common.Address `json:"uniswap_v2_factory"`
	UniswapV2Router  common.Address `json:"uniswap_v2_router"`
	UniswapV3Factory common.Address `json:"uniswap_v3_factory"`
	// UniswapV3Router is v3-periphery's original SwapRouter, whose params
	// carry a deadline.
	UniswapV3Router common.Address `json:"uniswap_v3_router"`
	// UniswapV3SwapRouter02 is the router public chains list: no deadline
	// in its params, so ward wraps its swaps in multicall(deadline, ...).
	UniswapV3SwapRouter02 common.Address `json:"uniswap_v3_swap_router02,omitempty"`
	// UniswapV3QuoterV2 quotes V3 paths on chain (zero: single-pool exact
	// inputs are quoted with ward's own pool arithmetic).
	UniswapV3QuoterV2 common.Address `json:"uniswap_v3_quoter_v2,omitempty"`
	// UniswapV3LiquidityHelper adds full-range V3 liquidity for an
	// account (ward's dev chain only; zero leaves uniswap_add_v3_liquidity
	// out).
	UniswapV3LiquidityHelper common.Address `json:"uniswap_v3_liquidity_helper,omitempty"`
	// UniswapV3PositionManager is the NonfungiblePositionManager the V3
	// position tools use (zero leaves them out; a call cannot name
	// another, so an agent cannot be steered into approving tokens to a
	// contract of someone else's choosing).
	UniswapV3PositionManager common.Address `json:"uniswap_v3_position_manager,omitempty"`
	// Permit2 is Uniswap's Permit2, which the permit2 tools approve
	// through (zero leaves them out; a call cannot name another).
	Permit2 common.Address `json:"permit2,omitempty"`
	// Uniswap V4: the PoolManager pools live in, StateView and V4Quoter
	// that read and quote them, and the Universal Router V4 swaps go
	// through (pulling tokens through Permit2). Zero StateView leaves the
	// V4 reads out, zero router or Permit2 the swaps; a call cannot name
	// other contracts, only a pool key.
	UniswapV4PoolManager common.Address `json:"uniswap_v4_pool_manager,omitempty"`
	UniswapV4StateView   common.Address `json:"uniswap_v4_state_view,omitempty"`
	UniswapV4Quoter      common.Address `json:"uniswap_v4_quoter,omitempty"`
	UniversalRouter      common.Address `json:"uniswap_universal_router,omitempty"`
	AavePool             common.Address `json:"aave_pool"`
	// MorphoBlue is the Morpho Blue singleton the morpho tools use (zero
	// leaves them out; a call names a market by id, never another
	// contract, so the market's tokens, oracle and IRM come from chain).
	MorphoBlue common.Address `json:"morpho_blue,omitempty"`
	// Comet is the Compound III market (one per base asset) the comet
	// tools use by default (zero: a call must name one).
	Comet  common.Address   `json:"comet,omitempty"`
	Vaults []common.Address `json:"vaults"`
	// LidoWithdrawalQueue is Lido's WithdrawalQueueERC721; the Lido
	// tools read stETH and wstETH from it (STETH(), WSTETH()), so one
	// address names the whole deployment (zero leaves them out).
	LidoWithdrawalQueue common.Address `json:"lido_withdrawal_queue,omitempty"`
	// PendleRouter is Pendle's router (V4) and PendleMarkets the markets
	// the Pendle tools may trade (zero or none leaves them out; a call
	// names one of these markets, never another contract).
	PendleRouter  common.Address   `json:"pendle_router,omitempty"`
	PendleMarkets []common.Address `json:"pendle_markets,omitempty"`
	// SavingsDai is Maker's sDAI and StakedUSDe Ethena's sUSDe (zero
	// leaves their tools out; deposits and redemptions are the vault
	// tools'); YearnVaults are the Yearn V3 vaults yearn_get_vault reads
	// by default (a call may name another).
	SavingsDai  common.Address   `json:"sdai,omitempty"`
	StakedUSDe  common.Address   `json:"ethena_susde,omitempty"`
	YearnVaults []common.Address `json:"yearn_vaults,omitempty"`
	// RocketStorage is Rocket Pool's RocketStorage; the Rocket Pool tools
	// look the deposit pool, rETH and the deposit settings up in it, as
	// Rocket Pool's own contracts do (zero leaves them out).
	RocketStorage common.Address `json:"rocketpool_storage,omitempty"`
	// ETHFeed prices native ETH (and WETH).
	ETHFeed common.Address `json:"eth_usd_feed"`
	// IdentityRegistry and ReputationRegistry are ERC-8004's registries
	// (zero leaves the identity tools out; a call cannot name others, so
	// the agent's identity and the feedback it gives go where the
	// operator configured).
	IdentityRegistry   common.Address `json:"erc8004_identity_registry,omitempty"`
	ReputationRegistry common.Address `json:"erc8004_reputation_registry,omitempty"`
	// EigenStrategyManager and EigenDelegationManager are EigenLayer's
	// core contracts, EigenStrategies the strategies offered for deposits
	// (zero managers leave the eigenlayer tools out; a call cannot name
	// other managers, and deposits go only to a listed strategy).
	EigenStrategyManager   common.Address   `json:"eigenlayer_strategy_manager,omitempty"`
	EigenDelegationManager common.Address   `json:"eigenlayer_delegation_manager,omitempty"`
	EigenStrategies        []common.Address `json:"eigenlayer_strategies,omitempty"`
	// GMX V2 (Synthetics): the ExchangeRouter orders go through, the
	// Router tokens are approved to, the OrderVault collateral is sent to,
	// the DataStore and Reader positions are read from, and the markets
	// offered (zero router, store or reader, or no market, leaves the gmx
	// tools out; a call cannot name other contracts or markets).
	GmxExchangeRouter common.Address   `json:"gmx_exchange_router,omitempty"`
	GmxRouter         common.Address   `json:"gmx_router,omitempty"`
	GmxOrderVault     common.Address   `json:"gmx_order_vault,omitempty"`
	GmxDataStore      common.Address   `json:"gmx_data_store,omitempty"`
	GmxReader         common.Address   `json:"gmx_reader,omitempty"`
	GmxMarkets        []common.Address `json:"gmx_markets,omitempty"`
}

// Env is what the tools run against.
type Env struct {
	Chain *chain.Provider
	// Wallet sends the agent's transactions; nil registers no write
	// tools (seed 002's wallet capability).
	Wallet *chain.Wallet
	// Sim runs safety_simulate_transaction; nil leaves it out.
	Sim    *chain.Simulator
	Tokens []Token
	Venues Venues
	// Dev is the embedded dev chain, for the testnet tools; nil leaves
	// them out.
	Dev *chain.DevChain
	// MaxFeedAge is how old a price may be before it is stale (default 1
	// hour).
	MaxFeedAge time.Duration
	// Price configures pool prices and how far a feed may stray from
	// them (zero: the strict defaults).
	Price PriceConfig
	// Prices caches valuations per block (see PriceCache); nil prices
	// every call afresh.
	Prices *PriceCache
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Streams runs the stream_ tools' subscriptions; nil leaves them out.
	// Several environments (chains) may share one.
	Streams *stream.Hub
}

func (e *Env) Clock() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

func (e *Env) FeedMaxAge() time.Duration {
	if e.MaxFeedAge > 0 {
		return e.MaxFeedAge
	}
	return time.Hour
}

// schema builds a parameter schema: an object with the given properties
// (JSON fragments), required names, and no other properties.
func Schema(required []string, props ...string) json.RawMessage {
	if required == nil {
		required = []string{}
	}
	req, _ := json.Marshal(required)
	return json.RawMessage(`{"type":"object","additionalProperties":false,"required":` + string(req) +
		`,"properties":{` + strings.Join(props, ",") + `}}`)
}

// Property fragments shared by many tools.
func PAddress(name, desc string) string {
	return fmt.Sprintf(`%q:{"type":"string","pattern":"^0x[0-9a-fA-F]{40}$","description":%q}`, name, desc+" (0x-prefixed hex address)")
}

func PAmount(name, desc string) string {
	return fmt.Sprintf(`%q:{"type":"string","pattern":"^[0-9]{1,78}$","description":%q}`, name, desc+" (decimal string in the token's base units, e.g. \"1000000\" for 1 USDC)")
}

func PString(name, desc string, enum ...string) string {
	if len(enum) > 0 {
		e, _ := json.Marshal(enum)
		return fmt.Sprintf(`%q:{"type":"string","enum":%s,"description":%q}`, name, e, desc)
	}
	return fmt.Sprintf(`%q:{"type":"string","maxLength":256,"description":%q}`, name, desc)
}

func PInt(name, desc string, min, max int64) string {
	return fmt.Sprintf(`%q:{"type":"integer","minimum":%d,"maximum":%d,"description":%q}`, name, min, max, desc)
}

var PChain = `"chain_id":{"type":"integer","minimum":1,"description":"Chain ID (default: the chain ward is connected to)."}`

// Argument readers. Arguments were validated against the schema already;
// these convert and re-check what a schema cannot.

func ArgAddress(in *registry.Input, name string) (common.Address, error) {
	v, ok := in.Args.Get(name)
	if !ok {
		return common.Address{}, fmt.Errorf("%s is required", name)
	}
	s, _ := v.Str()
	a, err := tool.ParseAddress(s)
	if err != nil {
		return common.Address{}, fmt.Errorf("%s: %w", name, err)
	}
	return common.Address(a), nil
}

func ArgAddressOr(in *registry.Input, name string, def common.Address) (common.Address, error) {
	if _, ok := in.Args.Get(name); !ok {
		return def, nil
	}
	return ArgAddress(in, name)
}

func ArgAmount(in *registry.Input, name string) (*big.Int, error) {
	v, ok := in.Args.Get(name)
	if !ok {
		return nil, fmt.Errorf("%s is required", name)
	}
	s, _ := v.Str()
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || n.Sign() < 0 || n.BitLen() > 256 {
		return nil, fmt.Errorf("%s must be a non-negative integer below 2^256", name)
	}
	return n, nil
}

func ArgString(in *registry.Input, name, def string) string {
	v, ok := in.Args.Get(name)
	if !ok {
		return def
	}
	s, _ := v.Str()
	return s
}

func ArgInt(in *registry.Input, name string, def int64) int64 {
	v, ok := in.Args.Get(name)
	if !ok {
		return def
	}
	n, err := v.Int()
	if err != nil {
		return def
	}
	return n
}

// call runs a read-only contract call and decodes its outputs.
func Call(ctx context.Context, p *chain.Provider, a *chain.ABI, to common.Address, method string, args ...any) ([]any, error) {
	data, err := a.Pack(method, args...)
	if err != nil {
		return nil, err
	}
	out, err := p.Call(ctx, ethereum.CallMsg{To: &to, Data: data})
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	vals, err := a.Unpack(method, out)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", method, to.Hex(), err)
	}
	return vals, nil
}

// tx packs one transaction of a plan.
func Tx(a *chain.ABI, to common.Address, label string, method string, args ...any) (tool.Tx, error) {
	data, err := a.Pack(method, args...)
	if err != nil {
		return tool.Tx{}, err
	}
	return tool.Tx{To: tool.Address(to), Data: data, Label: label}, nil
}

// errNoWallet is returned by tools that need the wallet's address.
var errNoWallet = errors.New("no wallet is configured")

// Observe reads, before a write is sent, the state it is to change, and
// returns the check to run after it: what was expected, what the chain
// shows, and whether they agree.
type Observe func(ctx context.Context, env *Env, in *registry.Input) (func(ctx context.Context) (expected, actual string, ok bool, err error), error)

// execute is the write handler shared by every write tool: it sends the
// previewed plan (consuming the capability first) and reports the
// measured balance changes of the plan's tokens against what the plan
// expected, and observe's check when there is one.
func execute(env *Env, d *tool.Def, observe Observe) registry.WriteHandler {
	return func(ctx context.Context, in *registry.Input, plan *tool.Plan, c *capability.Capability) (*tool.Result, error) {
		if env.Wallet == nil {
			return nil, errNoWallet
		}
		owner := env.Wallet.Address()
		watch := watched(plan)
		before, err := Balances(ctx, env.Chain, owner, watch)
		if err != nil {
			return nil, err
		}
		var check func(context.Context) (string, string, bool, error)
		if observe != nil {
			if check, err = observe(ctx, env, in); err != nil {
				return nil, err
			}
		}
		// A write's last two progress steps are sending and confirming;
		// its planner announces the ones before them.
		steps := len(d.ProgressSteps)
		if steps > 0 {
			in.Step(max(steps-2, 0))
		}
		receipts, sendErr := env.Wallet.Send(ctx, c, chain.Scope{Tool: d.Name, ArgsHash: in.Args.Hash(), Tick: in.Tick, Now: in.Now}, plan.Txs)
		out := writeOutcome{Summary: plan.Summary}
		gasWei := new(big.Int)
		for _, r := range receipts {
			out.TxHashes = append(out.TxHashes, r.TxHash.Hex())
			out.GasUsed += r.GasUsed
			out.Block = r.BlockNumber.Uint64()
			if r.EffectiveGasPrice != nil {
				gasWei.Add(gasWei, new(big.Int).Mul(r.EffectiveGasPrice, new(big.Int).SetUint64(r.GasUsed)))
			}
		}
		out.GasCostWei = gasWei.String()
		if pending, ok := errors.AsType[*chain.SafePendingError](sendErr); ok {
			return safePending(d, plan, pending)
		}
		if sendErr != nil {
			return nil, sendErr
		}
		if steps > 1 {
			in.Step(steps - 1)
		}
		after, err := Balances(ctx, env.Chain, owner, watch)
		if err != nil {
			return nil, err
		}
		exp, act, ok := compare(plan, watch, before, after, gasWei)
		out.Deltas, out.Verified = act, ok
		actual, source := formatDeltas(act), "receipt+balance_check"
		if check != nil {
			e, a, good, err := check(ctx)
			if err != nil {
				return nil, err
			}
			exp, actual = strings.TrimPrefix(exp+"; "+e, "; "), actual+"; "+a
			out.Verified, source = out.Verified && good, "receipt+balance_check+state_read"
		}
		res, err := tool.WriteResult(d, out, exp, actual, source)
		if err != nil {
			return nil, err
		}
		res.TxHashes, res.GasUsed = out.TxHashes, out.GasUsed
		return res, nil
	}
}

// safePending is the result of a write sent from a Safe whose threshold
// ward's key does not meet: nothing was executed, the SafeTxs ward signed
// await the other owners' signatures (ward safe sign).
func safePending(d *tool.Def, plan *tool.Plan, e *chain.SafePendingError) (*tool.Result, error) {
	out := safePendingOutcome{Summary: plan.Summary, Status: "awaiting_owner_signatures", Safe: e.Safe.Hex(), Threshold: e.Threshold}
	for _, h := range e.Hashes {
		out.SafeTxHashes = append(out.SafeTxHashes, h.Hex())
	}
	actual := fmt.Sprintf("not executed: %d Safe transaction(s) of %s await %d owner signatures", len(e.Hashes), e.Safe.Hex(), e.Threshold)
	return tool.WriteResult(d, out, plan.Summary, actual, "safe_queue")
}

type safePendingOutcome struct {
	Summary      string   `json:"summary"`
	Status       string   `json:"status"`
	Safe         string   `json:"safe"`
	Threshold    uint64   `json:"threshold"`
	SafeTxHashes []string `json:"safe_tx_hashes"`
	Verified     bool     `json:"verified"`
}

type writeOutcome struct {
	Summary    string            `json:"summary"`
	TxHashes   []string          `json:"tx_hashes"`
	GasUsed    uint64            `json:"gas_used"`
	GasCostWei string            `json:"gas_cost_wei"`
	Block      uint64            `json:"block"`
	Deltas     map[string]string `json:"balance_deltas"`
	Verified   bool              `json:"verified"`
}

// watched returns the tokens whose balances a plan changes.
func watched(p *tool.Plan) []common.Address {
	var out []common.Address
	seen := map[common.Address]bool{}
	for _, t := range p.Tokens {
		a := common.Address(t.Token)
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	return out
}

// balances reads owner's balance of each token (the zero address is
// native ETH).
func Balances(ctx context.Context, p *chain.Provider, owner common.Address, tokens []common.Address) ([]*big.Int, error) {
	out := make([]*big.Int, len(tokens))
	for i, t := range tokens {
		var err error
		if t == (common.Address{}) {
			out[i], err = p.BalanceOf(ctx, owner)
		} else {
			out[i], err = p.TokenBalance(ctx, t, owner)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compare checks measured deltas against the plan: a token going out must
// fall by at most its amount (native ETH: plus the gas paid); a token
// coming in must rise by at least its amount, the plan's minimum (native
// ETH: less the gas paid). It
// returns the expectation as text, the actual deltas by token, and whether
// they agree.
func compare(p *tool.Plan, tokens []common.Address, before, after []*big.Int, gasWei *big.Int) (string, map[string]string, bool) {
	act := map[string]string{}
	delta := map[common.Address]*big.Int{}
	for i, t := range tokens {
		d := new(big.Int).Sub(after[i], before[i])
		delta[t] = d
		act[t.Hex()] = d.String()
	}
	var exp []string
	ok := true
	for _, u := range p.Tokens {
		d := delta[common.Address(u.Token)]
		name := u.Symbol
		if name == "" {
			name = u.Token.Hex()
		}
		if u.Out {
			exp = append(exp, fmt.Sprintf("%s -%s at most", name, u.Amount))
			limit := new(big.Int).Neg(u.Amount)
			if u.Token.IsZero() {
				limit.Sub(limit, gasWei)
			}
			if d.Cmp(limit) < 0 {
				ok = false
			}
		} else {
			exp = append(exp, fmt.Sprintf("%s +%s at least", name, u.Amount))
			least := u.Amount
			if u.Token.IsZero() {
				least = new(big.Int).Sub(u.Amount, gasWei)
			}
			if d.Cmp(least) < 0 {
				ok = false
			}
		}
	}
	return strings.Join(exp, ", "), act, ok
}

func formatDeltas(m map[string]string) string {
	b, _ := json.Marshal(m)
	return string(b)
}

// Block is the block a read's calls are pinned to on env's chain (see
// chain.Pin; ReadTool pins each execution), or 0 outside a pinned read.
func Block(ctx context.Context, env *Env) uint64 {
	n, _ := chain.Pinned(ctx, env.Chain.ChainID())
	return n
}
