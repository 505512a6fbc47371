package daemon

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/upstream"
)

// Applying [[upstream]] changes on reload.
//
// A server a reload adds, and a server whose table it changed, is
// connected to first, in a set of its own (upstream.Open: the same
// timeouts, classification and pinning, trust on first use included, as
// at start); its tools and the removal of the tools of the servers it
// removed or changed are checked as one registry change. Only when all of
// that succeeded is the reload recorded and the change made, in one step
// (registry.Change.Commit, right after the policy's swap): views and
// calls see the old servers' tools or the new ones, never a mix. A server that cannot be reached, or a tool
// name that collides with a tool ward serves, refuses the reload and
// changes nothing. A removed server's set is closed once its calls in
// flight end, when no server it holds is still served. The pending
// permits of the tools removed are cancelled (a changed server's tool of
// the same name is another definition: a permit previewed against the
// old one must not execute the new one).

// upstreamSets returns the upstream sets ward serves tools from.
func (s *Server) upstreamSets() []*upstream.Set {
	if p := s.sets.Load(); p != nil {
		return *p
	}
	if s.Stack.Upstream != nil {
		return []*upstream.Set{s.Stack.Upstream}
	}
	return nil
}

// upstreamPlan is an upstream change checked and not yet made.
type upstreamPlan struct {
	change *registry.Change
	// opened holds the servers added or changed (nil: none).
	opened *upstream.Set
	// gone are the servers whose tools the change removes.
	gone []string
	// tools are the names the change adds and removes.
	added, removed []string
}

// planUpstreams connects to the servers next adds or changes and checks
// the registry change that serves them. On error nothing stays open.
func (s *Server) planUpstreams(ctx context.Context, next *config.File, added, removed, changed []string) (*upstreamPlan, error) {
	p := &upstreamPlan{gone: append(slices.Clone(removed), changed...), added: []string{}, removed: []string{}}
	if len(added)+len(changed) == 0 && len(p.gone) == 0 {
		return p, nil
	}
	var servers []upstream.Server
	for _, u := range next.Upstream {
		if slices.Contains(added, u.Name) || slices.Contains(changed, u.Name) {
			servers = append(servers, u)
		}
	}
	var add []registry.Tool
	if len(servers) > 0 {
		cfg := upstream.Config{Servers: servers, State: s.Stack.Store, Actions: s.Stack.Store, Log: s.Log}
		if s.Data != "" {
			cfg.Dir = filepath.Join(s.Data, "upstream")
		}
		if s.Stack.Provider != nil {
			cfg.ChainID = s.Stack.Provider.ChainID()
		}
		if s.Stack.Wallet != nil {
			cfg.From = tool.Address(s.Stack.Wallet.Address())
		}
		set, err := upstream.Open(ctx, cfg)
		if err != nil {
			return nil, err
		}
		up := set.Servers()
		for _, u := range servers {
			if !slices.Contains(up, u.Name) {
				// The cause is in the log: a connection error may
				// quote the server's URL or its output.
				return nil, errors.Join(fmt.Errorf("upstream %s: cannot connect to it or list its tools (the log says why)", u.Name), set.Close())
			}
		}
		p.opened = set
		add = set.Tools()
	}
	var rm []string
	for _, e := range s.Stack.Registry.All() {
		for _, g := range p.gone {
			if e.Venue == "mcp_"+g {
				rm = append(rm, e.Def.Name)
			}
		}
	}
	change, err := s.Stack.Registry.Prepare(add, rm)
	if err != nil {
		err = fmt.Errorf("upstream: %w", err)
		if p.opened != nil {
			err = errors.Join(err, p.opened.Close())
		}
		return nil, err
	}
	p.change = change
	for _, t := range add {
		p.added = append(p.added, t.Def.Name)
	}
	p.removed = append(p.removed, rm...)
	slices.Sort(p.added)
	slices.Sort(p.removed)
	return p, nil
}

// abandon releases what a plan opened (the reload was refused).
func (p *upstreamPlan) abandon() error {
	if p.opened != nil {
		return p.opened.Close()
	}
	return nil
}

// commit makes the registry change p planned. It fails only if the
// registry changed since the plan, which reloadMu rules out.
func (p *upstreamPlan) commit() error {
	if p.change == nil {
		return nil
	}
	if err := p.change.Commit(); err != nil {
		return errors.Join(err, p.abandon())
	}
	return nil
}

// applyUpstreams completes the change p planned once it is committed: the
// new set serves approved definitions, the pending permits of the removed
// tools are cancelled, and each set none of whose servers is served any
// more is closed once its calls in flight end. It runs under reloadMu.
func (s *Server) applyUpstreams(ctx context.Context, p *upstreamPlan) error {
	var keep, drop []*upstream.Set
	for _, set := range s.upstreamSets() {
		names, served := set.Servers(), false
		for _, n := range names {
			if slices.Contains(p.gone, n) {
				set.Drop(n)
			} else {
				served = true
			}
		}
		if len(names) > 0 && !served {
			drop = append(drop, set)
		} else {
			keep = append(keep, set)
		}
	}
	if p.opened != nil {
		p.opened.ServeApproved(s.Stack.Registry.Replace)
		keep = append(keep, p.opened)
		// Closed with the stack if no reload closes it first (Close is
		// idempotent).
		s.Stack.closers = append(s.Stack.closers, p.opened.Close)
	}
	s.sets.Store(&keep)
	var errs []error
	if len(p.removed) > 0 {
		errs = append(errs, s.cancelPermits(ctx, p.removed))
	}
	for _, set := range drop {
		errs = append(errs, set.CloseIdle())
	}
	return errors.Join(errs...)
}

// cancelPermits cancels the pending permits of the tools named, as the
// owner's decision recorded by "config reload".
func (s *Server) cancelPermits(ctx context.Context, tools []string) error {
	pending, err := s.Stack.Store.PendingPermits(ctx, time.Now(), 0)
	if err != nil {
		return fmt.Errorf("the pending permits of the removed upstream tools could not be read: %w", err)
	}
	var errs []error
	for _, pm := range pending {
		if slices.Contains(tools, pm.Tool) {
			if err := s.Stack.Tools.CancelByOwner(ctx, pm.ID, "config reload: its upstream server was removed or changed"); err != nil {
				errs = append(errs, fmt.Errorf("permit %s: %w", pm.ID, err))
			}
		}
	}
	return errors.Join(errs...)
}
