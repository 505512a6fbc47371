package catalog

import (
	"context"
	"fmt"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// ToolsOn returns the catalogue over several chains, one environment per
// chain, the default chain first: one tool per name, offered on every
// chain whose environment supports it (its definition's supported_chains,
// in the order given) and run on the chain its chain_id argument names,
// or on the default chain when it names none. A tool the default chain
// does not offer needs a chain_id. With one environment it is Tools.
func ToolsOn(envs ...*Env) []registry.Tool {
	if len(envs) == 1 {
		return Tools(envs[0])
	}
	names, byName := toolsByName(envs)
	var deflt uint64
	if len(envs) > 0 && envs[0].Chain != nil {
		deflt = envs[0].Chain.ChainID()
	}
	out := make([]registry.Tool, 0, len(names))
	for _, name := range names {
		out = append(out, chainTools{name: name, impls: byName[name], deflt: deflt}.tool())
	}
	return out
}

// chainTool is one chain's implementation of a tool.
type chainTool struct {
	id uint64
	t  registry.Tool
}

// toolsByName returns the catalogue over each of envs, grouped by tool
// name: the names in the order first met, and each name's implementations
// in the order of envs.
func toolsByName(envs []*Env) (names []string, byName map[string][]chainTool) {
	byName = map[string][]chainTool{}
	for _, env := range envs {
		for _, t := range Tools(env) {
			if _, seen := byName[t.Def.Name]; !seen {
				names = append(names, t.Def.Name)
			}
			byName[t.Def.Name] = append(byName[t.Def.Name], chainTool{env.Chain.ChainID(), t})
		}
	}
	return names, byName
}

// chainTools are one tool's implementations on several chains; deflt is
// the chain a call naming none runs on.
type chainTools struct {
	name   string
	impls  []chainTool
	deflt  uint64
	chains []uint64
}

// tool is the one tool offered over every chain in c, its definition the
// first implementation's with the chains listed, its handlers dispatching
// a read or plan by its chain_id argument and a write by its plan's chain.
func (c chainTools) tool() registry.Tool {
	for _, impl := range c.impls {
		c.chains = append(c.chains, impl.id)
	}
	def := *c.impls[0].t.Def
	def.Chains = c.chains
	t := registry.Tool{Def: &def, Action: c.impls[0].t.Action, Venue: c.impls[0].t.Venue}
	first := c.impls[0].t
	if first.Read != nil {
		t.Read = func(ctx context.Context, in *registry.Input) (*tool.Result, error) {
			impl, err := c.byArgs(in)
			if err != nil {
				return nil, err
			}
			return impl.Read(ctx, in)
		}
	}
	if first.Plan != nil {
		t.Plan = func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
			impl, err := c.byArgs(in)
			if err != nil {
				return nil, err
			}
			return impl.Plan(ctx, in)
		}
	}
	// A write runs on the chain of the plan that was previewed.
	if first.Write != nil {
		t.Write = func(ctx context.Context, in *registry.Input, p *tool.Plan, cap *capability.Capability) (*tool.Result, error) {
			impl, err := c.byPlan(p)
			if err != nil {
				return nil, err
			}
			return impl.Write(ctx, in, p, cap)
		}
	}
	if first.Privileged != nil {
		t.Privileged = func(ctx context.Context, in *registry.Input, p *tool.Plan, cap *capability.Capability, a *capability.Approval) (*tool.Result, error) {
			impl, err := c.byPlan(p)
			if err != nil {
				return nil, err
			}
			return impl.Privileged(ctx, in, p, cap, a)
		}
	}
	return t
}

// pick returns the implementation on chain id.
func (c chainTools) pick(id uint64) (registry.Tool, error) {
	for _, impl := range c.impls {
		if impl.id == id {
			return impl.t, nil
		}
	}
	return registry.Tool{}, fmt.Errorf("chain_id is not supported here: %s is offered on chains %v, not %d", c.name, c.chains, id)
}

// byArgs returns the implementation on the chain in's chain_id argument
// names, else on the default chain.
func (c chainTools) byArgs(in *registry.Input) (registry.Tool, error) {
	id := c.deflt
	if v, ok := in.Args.Get("chain_id"); ok {
		n, err := v.Int()
		if err != nil || n <= 0 {
			return registry.Tool{}, fmt.Errorf("chain_id is not supported here: want a positive chain id")
		}
		id = uint64(n)
	}
	return c.pick(id)
}

// byPlan returns the implementation on the chain of the previewed plan p.
func (c chainTools) byPlan(p *tool.Plan) (registry.Tool, error) {
	if p == nil {
		return registry.Tool{}, fmt.Errorf("%s: no plan", c.name)
	}
	return c.pick(p.Chain)
}

// RegisterOn adds the catalogue over envs (ToolsOn) to r.
func RegisterOn(r *registry.Registry, envs ...*Env) error {
	for _, t := range ToolsOn(envs...) {
		if err := r.Add(t); err != nil {
			return err
		}
	}
	return nil
}
