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
	type onChain struct {
		id uint64
		t  registry.Tool
	}
	var names []string
	byName := map[string][]onChain{}
	for _, env := range envs {
		for _, t := range Tools(env) {
			if _, seen := byName[t.Def.Name]; !seen {
				names = append(names, t.Def.Name)
			}
			byName[t.Def.Name] = append(byName[t.Def.Name], onChain{env.Chain.ChainID(), t})
		}
	}
	var deflt uint64
	if len(envs) > 0 && envs[0].Chain != nil {
		deflt = envs[0].Chain.ChainID()
	}
	out := make([]registry.Tool, 0, len(names))
	for _, name := range names {
		impls := byName[name]
		def := *impls[0].t.Def
		def.Chains = nil
		for _, c := range impls {
			def.Chains = append(def.Chains, c.id)
		}
		pick := func(id uint64) (registry.Tool, error) {
			for _, c := range impls {
				if c.id == id {
					return c.t, nil
				}
			}
			return registry.Tool{}, fmt.Errorf("chain_id is not supported here: %s is offered on chains %v, not %d", name, def.Chains, id)
		}
		byArgs := func(in *registry.Input) (registry.Tool, error) {
			id := deflt
			if v, ok := in.Args.Get("chain_id"); ok {
				n, err := v.Int()
				if err != nil || n <= 0 {
					return registry.Tool{}, fmt.Errorf("chain_id is not supported here: want a positive chain id")
				}
				id = uint64(n)
			}
			return pick(id)
		}
		t := registry.Tool{Def: &def, Action: impls[0].t.Action, Venue: impls[0].t.Venue}
		first := impls[0].t
		if first.Read != nil {
			t.Read = func(ctx context.Context, in *registry.Input) (*tool.Result, error) {
				c, err := byArgs(in)
				if err != nil {
					return nil, err
				}
				return c.Read(ctx, in)
			}
		}
		if first.Plan != nil {
			t.Plan = func(ctx context.Context, in *registry.Input) (*tool.Plan, error) {
				c, err := byArgs(in)
				if err != nil {
					return nil, err
				}
				return c.Plan(ctx, in)
			}
		}
		// A write runs on the chain of the plan that was previewed.
		if first.Write != nil {
			t.Write = func(ctx context.Context, in *registry.Input, p *tool.Plan, cap *capability.Capability) (*tool.Result, error) {
				if p == nil {
					return nil, fmt.Errorf("%s: no plan", name)
				}
				c, err := pick(p.Chain)
				if err != nil {
					return nil, err
				}
				return c.Write(ctx, in, p, cap)
			}
		}
		if first.Privileged != nil {
			t.Privileged = func(ctx context.Context, in *registry.Input, p *tool.Plan, cap *capability.Capability, a *capability.Approval) (*tool.Result, error) {
				if p == nil {
					return nil, fmt.Errorf("%s: no plan", name)
				}
				c, err := pick(p.Chain)
				if err != nil {
					return nil, err
				}
				return c.Privileged(ctx, in, p, cap, a)
			}
		}
		out = append(out, t)
	}
	return out
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
