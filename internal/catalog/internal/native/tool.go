package native

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// A Maker builds one tool for env, or reports that env cannot support it.
// ReadTool and WriteTool are the two kinds.
type Maker interface {
	Make(env *Env) (registry.Tool, bool)
}

var (
	_ Maker = ReadTool{}
	_ Maker = WriteTool{}
)

// ReadTool declares a read tool: what the model reads about it, its
// parameters and result, where query_state and search_context find it,
// and what it runs. Its definition is a Layer1 read of schema version 1
// whose parameters end with chain_id; it registers only with a chain.
type ReadTool struct {
	Name        string
	Description string
	Category    tool.Category
	Budget      tool.Budget
	Steps       []string // progress steps
	Snippet     string   // prompt snippet
	Guidelines  []string // prompt guidelines
	Required    []string
	Params      []string // property fragments (PAddress, PAmount, ...); chain_id is added last unless placed
	Result      []string // result property fragments (RProp, ...)
	ThirdParty  bool
	// Action and Venue place the tool for query_state and search_context.
	Action, Venue string
	// Wallet registers the tool only with a wallet (a read about the
	// wallet itself); When only where it holds.
	Wallet bool
	When   func(env *Env) bool
	// Offline is pure arithmetic: no chain, no chain_id parameter, always
	// registered.
	Offline bool
	// Run reads; its result is the tool's data. The chain_id argument is
	// checked before it runs.
	Run func(ctx context.Context, env *Env, in *registry.Input) (any, error)
}

// Def returns the tool's definition.
func (t ReadTool) Def() *tool.Def {
	d := &tool.Def{
		Name: t.Name, Description: t.Description,
		Category: t.Category, Tier: tool.Read, RiskTier: tool.Layer1, Budget: t.Budget,
		ProgressSteps: t.Steps, PromptSnippet: t.Snippet, PromptGuidelines: t.Guidelines,
		Params: params(t.Required, t.Params, !t.Offline), SchemaVersion: 1, ThirdParty: t.ThirdParty,
	}
	if len(t.Result) > 0 {
		d.Result = ResultSchema(t.Result...)
	}
	if t.Wallet {
		d.Requires = []tool.Requirement{tool.NeedsWallet}
	}
	return d
}

// Make builds the tool for env.
func (t ReadTool) Make(env *Env) (registry.Tool, bool) {
	if (!t.Offline && env.Chain == nil) || (t.Wallet && env.Wallet == nil) || (t.When != nil && !t.When(env)) {
		return registry.Tool{}, false
	}
	d := t.Def()
	if !t.Offline {
		d.Chains = chainsOf(env)
	}
	return registry.Tool{Def: d, Action: t.Action, Venue: t.Venue, Read: func(ctx context.Context, in *registry.Input) (*tool.Result, error) {
		if !t.Offline {
			if err := CheckChain(env, in); err != nil {
				return nil, err
			}
			// Every call of this execution reads one block (chain.Pin).
			var err error
			if ctx, _, err = env.Chain.PinLatest(ctx); err != nil {
				return nil, err
			}
		}
		data, err := t.Run(ctx, env, in)
		if err != nil {
			return nil, err
		}
		return tool.ReadResult(d, data)
	}}, true
}

// WriteTool declares a write tool: what the model reads about it, its
// parameters, its (action, venue) in the adapter table, its planner and
// its write handler. Its definition is a slow write of schema version 1
// that needs the wallet, whose parameters end with chain_id; it registers
// only with a chain and a wallet.
type WriteTool struct {
	Name        string
	Description string
	Category    tool.Category
	Risk        tool.RiskTier // Layer2 (bounded) or Layer3
	Effect      tool.Effect
	Steps       []string // progress steps; the last two are sending and confirming
	Snippet     string   // prompt snippet
	Guidelines  []string // prompt guidelines
	Required    []string
	Params      []string // property fragments (PAddress, PAmount, ...); chain_id is added last unless placed
	Result      []string // result property fragments, where Execute returns its own data
	// Action and Venue place the tool in the adapter table.
	Action, Venue string
	// Dev registers the tool only on the dev chain; When only where it
	// holds.
	Dev  bool
	When func(env *Env) bool
	// Plan builds the plan without side effects. The chain_id argument is
	// checked before it runs.
	Plan func(ctx context.Context, env *Env, in *registry.Input) (*tool.Plan, error)
	// Execute is the write handler; nil sends the plan (see execute). It
	// must consume the capability before any effect.
	Execute func(env *Env, d *tool.Def) registry.WriteHandler
	// Observe, when set, checks state the write changes besides the
	// wallet's token balances (e.g. a registry entry): the default write
	// handler calls it before sending, and the check it returns after
	// the receipts, which says what was expected, what the chain shows
	// and whether they agree. It is ignored with Execute.
	Observe Observe
	// Recheck, when set, runs just before the write handler and refuses
	// the commit, sending nothing, when a condition the plan rests on no
	// longer holds (e.g. who owns the position it acts on).
	Recheck func(ctx context.Context, env *Env, in *registry.Input) error
}

// Def returns the tool's definition.
func (t WriteTool) Def() *tool.Def {
	d := &tool.Def{
		Name: t.Name, Description: t.Description,
		Category: t.Category, Tier: tool.Write, RiskTier: t.Risk, Budget: tool.Slow, Effect: t.Effect,
		ProgressSteps: t.Steps, PromptSnippet: t.Snippet, PromptGuidelines: t.Guidelines,
		Params: params(t.Required, t.Params, true), SchemaVersion: 1,
		Requires: []tool.Requirement{tool.NeedsWallet},
	}
	if len(t.Result) > 0 {
		d.Result = ResultSchema(t.Result...)
	}
	return d
}

// Make builds the tool for env.
func (t WriteTool) Make(env *Env) (registry.Tool, bool) {
	if env.Chain == nil || env.Wallet == nil || (t.Dev && env.Dev == nil) || (t.When != nil && !t.When(env)) {
		return registry.Tool{}, false
	}
	d := t.Def()
	d.Chains = chainsOf(env)
	write := execute(env, d, t.Observe)
	if t.Execute != nil {
		write = t.Execute(env, d)
	}
	if t.Recheck != nil {
		send := write
		write = func(ctx context.Context, in *registry.Input, plan *tool.Plan, c *capability.Capability) (*tool.Result, error) {
			if err := t.Recheck(ctx, env, in); err != nil {
				return nil, err
			}
			return send(ctx, in, plan, c)
		}
	}
	return registry.Tool{Def: d, Action: t.Action, Venue: t.Venue, Write: write, Plan: func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
		if err := CheckChain(env, in); err != nil {
			return nil, err
		}
		// The plan reads one block, as a read does (chain.Pin).
		ctx, _, err := env.Chain.PinLatest(ctx)
		if err != nil {
			return nil, err
		}
		return t.Plan(ctx, env, in)
	}}, true
}

// chainsOf is the supported_chains of a tool made for env: its chain, or
// none (any) for an environment bound to no chain (the listing of All).
func chainsOf(env *Env) []uint64 {
	if env.Chain == nil || env.Chain.ChainID() == 0 {
		return nil
	}
	return []uint64{env.Chain.ChainID()}
}

// params is a tool's parameter schema: props, then chain_id when the
// tool talks to a chain and props do not place it.
func params(required, props []string, chain bool) json.RawMessage {
	if chain && !slices.Contains(props, PChain) {
		props = slices.Concat(props, []string{PChain})
	}
	return Schema(required, props...)
}

// Replan is a Recheck that makes plan again just before the commit and
// refuses it when the plan is no longer possible (a position the market
// has since made unhealthy, an unreadable price).
func Replan(plan func(ctx context.Context, env *Env, in *registry.Input) (*tool.Plan, error)) func(ctx context.Context, env *Env, in *registry.Input) error {
	return func(ctx context.Context, env *Env, in *registry.Input) error {
		if _, err := plan(ctx, env, in); err != nil {
			return fmt.Errorf("the commit is refused, nothing was sent: %w", err)
		}
		return nil
	}
}
