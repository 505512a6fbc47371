package rules

import (
	"fmt"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
)

// rateLimits builds the configured rate limits (per turn, per session, per
// sliding window) and the self-modification limit. They count executed calls
// (and holds of admitted ones), not allowed decisions.
func (b *builder) rateLimits() {
	c := b.cfg.Commands
	if c.SelfModPerHour < 0 {
		b.errorf("commands.self_mod_per_hour", "must not be negative")
	}
	if len(c.SelfModTools) > 0 {
		const id = "command-safety.self-mod-rate-limit"
		b.add(countLimit(RateLimit{
			ID: id, Priority: 50,
			AppliesTo: b.selectorFor(id, policy.Names(c.SelfModTools...)),
			Scope:     "window", Window: hour, Max: c.SelfModPerHour,
			Code:    reason.RateLimitExceeded,
			Message: fmt.Sprintf("self-modification rate limit: %d per hour", c.SelfModPerHour),
		}))
	}
	seen := map[string]bool{}
	for i, l := range b.cfg.Limits {
		path := fmt.Sprintf("rate_limits.%d", i)
		ok := true
		fail := func(key, format string, args ...any) {
			b.errorf(path+key, format, args...)
			ok = false
		}
		switch {
		case l.ID == "":
			fail(".id", "a rate limit needs an id")
		case seen[l.ID]:
			fail(".id", "duplicate rate limit id %q", l.ID)
		}
		seen[l.ID] = true
		switch l.Scope {
		case "turn", "session":
		case "window":
			if l.Window <= 0 || l.Window > policy.MaxWindow {
				fail(".window", "window must be between 1ns and %s", policy.MaxWindow)
			}
		default:
			fail(".scope", "scope must be turn, session or window")
		}
		if l.Max < 0 {
			fail(".max", "must not be negative")
		}
		if !l.Code.Valid() {
			fail(".reason_code", "invalid reason code %q (upper snake case)", l.Code)
		}
		if err := l.AppliesTo.Validate(); err != nil {
			fail(".applies_to", "%v", err)
		} else if l.AppliesTo.By == policy.SelectRisk {
			fail(".applies_to", "rate limits select tools by name or category (or all), not by risk")
		}
		if ok {
			b.add(countLimit(l))
		}
	}
}

// countQuery counts the executed calls of the tools a selector selects; a
// selector by risk or of all tools counts every call.
func countQuery(sel policy.Selector) policy.CountQuery {
	switch sel.By {
	case policy.SelectName:
		return policy.CountQuery{Tools: sel.Names}
	case policy.SelectCategory:
		return policy.CountQuery{Categories: sel.Categories}
	}
	return policy.CountQuery{}
}

func countLimit(l RateLimit) policy.Rule {
	q := countQuery(l.AppliesTo)
	q.Window = l.Window
	switch l.Scope {
	case "turn":
		q.Scope = policy.ScopeTurn
	case "session":
		q.Scope = policy.ScopeSession
	default:
		q.Scope = policy.ScopeWindow
	}
	return policy.Rule{
		ID: l.ID, Priority: l.Priority, Applies: l.AppliesTo, Stateful: true,
		Eval: func(r *policy.Request) (policy.Result, error) {
			q := q
			switch q.Scope {
			case policy.ScopeTurn:
				q.Key = r.Turn.ID
			case policy.ScopeSession:
				q.Key = r.Turn.SessionID
			}
			if n := r.State.Count(q, r.Now); n >= l.Max {
				return policy.Denies(l.Code, l.Message), nil
			}
			return policy.NoOpinion, nil
		},
	}
}
