package upstream

import (
	"context"
	"errors"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
)

// Serving an approved definition without a restart.
//
// A tool disabled while ward runs because its definition changed stays
// registered under its name, with the definition the owner approved
// before. Once the owner approves the definition the upstream now serves
// (Approve: ward upstream approve, the API, the dashboard), Reapprove
// registers the tool again with it, in place (registry.Registry.Replace:
// every session resolves the new definition from its next call) and
// enables it. The set notices an approval made by another process (the
// CLI shares the data directory, not the process) by reading the pins of
// its disabled tools every ApprovalPoll, and at once when the daemon calls
// Reapprove (after an approval over the API, and on a reload). A new
// definition that would move the tool between profiles, tiers or adapters
// cannot be placed in the sessions' views while ward runs: it is left
// disabled, with the reason, until the next start. A tool that was
// already changed when ward started was never registered: it is served
// from the next start.

// ServeApproved gives the set the registry's Replace, so that approved
// definitions are served without a restart (Reapprove); until it is
// called, approvals take effect at the next start only. The daemon calls
// it once the registry holds the set's tools.
func (s *Set) ServeApproved(replace func(registry.Tool) error) {
	s.replace.Store(&replace)
}

// Reapprove registers again, and enables, each disabled tool whose
// approved definition is now the one its upstream serves. It returns
// ward's names of the tools it brought back. A server that cannot be
// listed keeps its tools disabled (a warning says why).
func (s *Set) Reapprove(ctx context.Context) []string {
	rp := s.replace.Load()
	if rp == nil || s.closed.Load() {
		return nil
	}
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	var back []string
	for _, srv := range s.servers {
		if srv.dropped.Load() {
			continue
		}
		// The disabled tools whose pin moved since they were registered.
		approved := map[string]store.PinnedTool{}
		for name, im := range srv.tools {
			if !im.disabled.Load() {
				continue
			}
			pin, err := s.cfg.State.PinnedTool(ctx, srv.cfg.Name, name)
			if err != nil {
				if !errors.Is(err, store.ErrNotFound) {
					s.log.Warn("upstream: cannot read a pin", "server", srv.cfg.Name, "tool", name, "error", err)
				}
				continue
			}
			if pin.Hash != im.hash {
				approved[name] = pin
			}
		}
		if len(approved) == 0 {
			continue
		}
		lctx, cancel := context.WithTimeout(ctx, s.cfg.ConnectTimeout)
		tools, err := list(lctx, srv.cs)
		cancel()
		if err != nil {
			s.log.Warn("upstream: cannot list tools to serve an approved definition", "server", srv.cfg.Name, "error", err)
			continue
		}
		for name, pin := range approved {
			var found *mcp.Tool
			for _, t := range tools {
				if t.Name == name {
					found = t
				}
			}
			if found == nil {
				continue // no longer listed: stays disabled
			}
			c, err := convert(srv.cfg, found)
			if err != nil || c.hash != pin.Hash {
				continue // the upstream serves another definition than the approved one
			}
			im := &imported{set: s, srv: srv, upstream: name, def: c.def, hash: c.hash}
			if err := (*rp)(im.registryTool(s)); err != nil {
				s.log.Warn("upstream: an approved definition is served from the next start", "server", srv.cfg.Name, "tool", name, "error", err)
				s.setStatus(Status{Server: srv.cfg.Name, Tool: name, Name: c.def.Name, State: Changed, Hash: c.hash,
					Reason: "approved; its new classification is served from the next start of ward serve"})
				continue
			}
			srv.tools[name] = im
			s.setStatus(Status{Server: srv.cfg.Name, Tool: name, Name: c.def.Name, State: Imported, Hash: c.hash, Reason: c.noOutput})
			back = append(back, c.def.Name)
		}
	}
	return back
}

// pollApprovals runs Reapprove when a disabled tool's pin moved: what
// watch does every ApprovalPoll.
func (s *Set) pollApprovals(ctx context.Context) {
	if s.replace.Load() == nil {
		return
	}
	s.Reapprove(ctx)
}

// defaultApprovalPoll is how often a running set reads the pins of its
// disabled tools.
const defaultApprovalPoll = 2 * time.Second
