package gate

import (
	"errors"
	"fmt"

	"github.com/wardhq/ward/internal/hook"
)

// hookChains are the safety hooks of the call path, in the order the flow
// runs them; package hook holds the hooks, the flow says which run where.
// NewTools builds them once from the configured set; every hook is traced.
type hookChains struct {
	// preview is what every write passes before its permit
	// (Tools.preview, step 5), in the seed's order: phase gate,
	// allowlist, spending limiter, rate limiter, simulation, hallucination
	// detector, result filter.
	preview hook.Chain
	// commit is what a commit runs again of it (Tools.admitCommit): the
	// phase gate, as a commit, since a phase lets some actions be
	// previewed that it does not let execute (conservation previews
	// anything). The spending and rate limits are checked again too, but
	// atomically with recording the spend (hook.Set.Begin), not as hooks.
	commit hook.Chain
}

// chainsOf returns s's hooks as the flow's chains. Every hook of the set
// must be present: a missing one fails rather than leaving its check out.
func chainsOf(s *hook.Set) (hookChains, error) {
	if s == nil {
		return hookChains{}, errors.New("hook: nil set")
	}
	order := []struct {
		name    string
		hook    hook.Hook
		present bool
	}{
		{"phase gate", s.Phase, s.Phase != nil},
		{"allowlist", s.Allowlist, s.Allowlist != nil},
		{"spending limiter", s.Spending, s.Spending != nil},
		{"rate limiter", s.Rate, s.Rate != nil},
		{"simulation", s.Simulation, s.Simulation != nil},
		{"hallucination", s.Hallucination, s.Hallucination != nil},
		{"result filter", s.Filter, s.Filter != nil},
	}
	preview := make(hook.Chain, 0, len(order))
	for _, h := range order {
		if !h.present {
			return hookChains{}, fmt.Errorf("hook: the set has no %s", h.name)
		}
		preview = append(preview, h.hook)
	}
	return hookChains{preview: traced(preview), commit: traced(hook.Chain{s.Phase})}, nil
}
