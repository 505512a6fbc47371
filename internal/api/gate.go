package api

import (
	"context"
	"errors"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/store"
)

// spendWindow is one spending limit and what counts against it.
type spendWindow struct {
	Window     string `json:"window"` // tick, session, daily
	SpentCents int64  `json:"spent_cents"`
	HeldCents  int64  `json:"held_cents"`
	LimitCents int64  `json:"limit_cents"`
	Unlimited  bool   `json:"unlimited"`
}

// gateState answers GET /v1/gate: the phase, the halt, the tick, and the
// spending limits with what the day and the caller's session have spent
// and hold against them; for an owner, also what each agent session
// active in the last day has spent and holds (agent_spend).
func (a *Server) gateState(ctx context.Context, r *request) (any, error) {
	s, err := a.session(r)
	if err != nil {
		return nil, err
	}
	t := a.cfg.Tools
	phase, err := t.Phase(ctx)
	if err != nil {
		return nil, err
	}
	halted, why, err := t.Halted(ctx)
	if err != nil {
		return nil, err
	}
	now := a.cfg.Now()
	tick := t.Tick(now)
	st, err := a.cfg.Spending.Stats(ctx, s.ID(), tick, now)
	if err != nil {
		return nil, err
	}
	window := func(name string, spent, held, limit int64) spendWindow {
		return spendWindow{Window: name, SpentCents: spent, HeldCents: held, LimitCents: limit, Unlimited: limit == hook.Unlimited}
	}
	out := map[string]any{
		"phase": phase.String(), "halted": halted, "halt_reason": why, "tick": tick, "session_id": s.ID(),
		"spend": []spendWindow{
			window("tick", st.TickCents, st.TickHeldCents, st.Limits.PerTickCents),
			window("session", st.SessionCents, st.SessionHeldCents, st.Limits.PerSessionCents),
			window("daily", st.DailyCents, st.DailyHeldCents, st.Limits.DailyCents),
		},
	}
	// Other sessions' spend is the owner's business only.
	if r.p.Role == auth.Owner {
		agents, err := a.agentSpend(ctx, r, tick, now)
		if err != nil {
			return nil, err
		}
		out["agent_spend"] = agents
	}
	return out, nil
}

// sessionSpend is one agent session's spend against the per-tick and
// per-session limits.
type sessionSpend struct {
	SessionID string        `json:"session_id"`
	Name      string        `json:"name"`
	Principal string        `json:"principal_id"`
	Active    time.Time     `json:"active"`
	Spend     []spendWindow `json:"spend"` // tick, session
}

// maxAgentMeters bounds the sessions GET /v1/gate reports the spend of.
const maxAgentMeters = 20

// agentSpend returns the spend of the agent sessions active in the last
// day, most recently active first: every stored session but those of the
// owners (the dashboard's and the TUI's own, which spend nothing). When
// the principals cannot be listed, only the caller's own sessions are
// left out.
func (a *Server) agentSpend(ctx context.Context, r *request, tick uint64, now time.Time) ([]sessionSpend, error) {
	owners := map[string]bool{r.p.ID: true}
	if a.cfg.Tokens.Store != nil {
		ps, err := a.cfg.Tokens.Store.ListPrincipals(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if p.Role == string(auth.Owner) {
				owners[p.ID] = true
			}
		}
	}
	recs, err := a.cfg.Tools.Sessions(ctx, store.SessionFilter{Limit: 1000})
	if err != nil {
		return nil, err
	}
	out := []sessionSpend{}
	for i := range recs {
		rec := &recs[i]
		if owners[rec.PrincipalID] || rec.Active.Before(now.Add(-24*time.Hour)) {
			continue
		}
		st, err := a.cfg.Spending.Stats(ctx, rec.ID, tick, now)
		if err != nil {
			return nil, err
		}
		out = append(out, sessionSpend{SessionID: rec.ID, Name: rec.Name, Principal: rec.PrincipalID, Active: rec.Active, Spend: []spendWindow{
			{Window: "tick", SpentCents: st.TickCents, HeldCents: st.TickHeldCents, LimitCents: st.Limits.PerTickCents, Unlimited: st.Limits.PerTickCents == hook.Unlimited},
			{Window: "session", SpentCents: st.SessionCents, HeldCents: st.SessionHeldCents, LimitCents: st.Limits.PerSessionCents, Unlimited: st.Limits.PerSessionCents == hook.Unlimited},
		}})
		if len(out) == maxAgentMeters {
			break
		}
	}
	return out, nil
}

// halt answers POST /v1/gate/halt (any role, as the emergency_halt facade).
func (a *Server) halt(ctx context.Context, r *request) (any, error) {
	var in struct {
		Reason string `json:"reason"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	if len(in.Reason) > 200 {
		return nil, badRequest("reason is longer than 200 bytes")
	}
	s, err := a.session(r)
	if err != nil {
		return nil, err
	}
	if err := a.cfg.Tools.Halt(ctx, s, in.Reason); err != nil {
		return nil, err
	}
	_, why, err := a.cfg.Tools.Halted(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{"halted": true, "halt_reason": why}, nil
}

// resume answers POST /v1/gate/resume (owner).
func (a *Server) resume(ctx context.Context, r *request) (any, error) {
	var in struct{}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	if err := a.cfg.Tools.Resume(ctx, by(r.p)); err != nil {
		return nil, err
	}
	return map[string]any{"halted": false}, nil
}

// setPhase answers POST /v1/gate/phase (owner).
func (a *Server) setPhase(ctx context.Context, r *request) (any, error) {
	var in struct {
		Phase string `json:"phase"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	p, err := hook.ParsePhase(in.Phase)
	if err != nil {
		return nil, badRequest("phase must be thriving, stable, conservation, declining or terminal")
	}
	if err := a.cfg.Tools.SetPhase(ctx, p, by(r.p)); err != nil {
		return nil, err
	}
	return map[string]any{"phase": p.String()}, nil
}

// setSpending answers POST /v1/gate/spending (owner): the owner's override
// of the spending limits, {"per_tick_usd", "per_session_usd", "daily_usd"}
// (all three; dollars or "unlimited"), or {"clear": true}. The same
// operation as the privileged tool safety_set_spending_limits.
func (a *Server) setSpending(ctx context.Context, r *request) (any, error) {
	var in struct {
		PerTick    *string `json:"per_tick_usd"`
		PerSession *string `json:"per_session_usd"`
		Daily      *string `json:"daily_usd"`
		Clear      bool    `json:"clear"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	given := in.PerTick != nil && in.PerSession != nil && in.Daily != nil
	var limits *hook.SpendingConfig
	switch {
	case in.Clear && (in.PerTick != nil || in.PerSession != nil || in.Daily != nil):
		return nil, badRequest("clear takes no limits: give either clear or all three limits")
	case in.Clear:
	case !given:
		return nil, badRequest("per_tick_usd, per_session_usd and daily_usd must all be given (or clear: true)")
	default:
		var c [3]int64
		for i, f := range []struct {
			name string
			v    string
		}{{"per_tick_usd", *in.PerTick}, {"per_session_usd", *in.PerSession}, {"daily_usd", *in.Daily}} {
			v, err := hook.ParseLimitUSD(f.v)
			if err != nil {
				return nil, badRequest("%s: %v", f.name, err)
			}
			c[i] = v
		}
		limits = &hook.SpendingConfig{PerTickCents: c[0], PerSessionCents: c[1], DailyCents: c[2]}
	}
	if err := a.cfg.Tools.SetSpendingLimits(ctx, limits, by(r.p)); err != nil {
		return nil, err
	}
	l, ok, err := a.cfg.Tools.SpendingOverride(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return map[string]any{"override": false}, nil
	}
	return map[string]any{"override": true, "per_tick_usd": hook.FormatLimitUSD(l.PerTickCents),
		"per_session_usd": hook.FormatLimitUSD(l.PerSessionCents), "daily_usd": hook.FormatLimitUSD(l.DailyCents)}, nil
}

// allowlistEntry is one of the owner's allowlist entries as the API shows
// it.
type allowlistEntry struct {
	Kind    string    `json:"kind"`
	Value   string    `json:"value"`
	Allowed bool      `json:"allowed"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
}

// allowlist answers GET /v1/gate/allowlist (owner): the owner's changes
// to ward.toml's allowlist, {"entries": [...]}.
func (a *Server) allowlist(ctx context.Context, _ *request) (any, error) {
	es, err := a.cfg.Tools.AllowlistEntries(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]allowlistEntry, 0, len(es))
	for _, e := range es {
		out = append(out, allowlistEntry{Kind: string(e.Kind), Value: e.Value, Allowed: e.Allowed, By: e.By, At: e.At})
	}
	return map[string]any{"entries": out}, nil
}

// changeAllowlist answers POST /v1/gate/allowlist (owner): {"add":
// {"tokens", "contracts", "selectors"}, "remove": {...}, "reset": bool}.
// What add lists is allowed besides ward.toml's lists, what remove lists
// is refused whatever they say; reset first forgets the earlier changes.
// The same operation as the privileged tool safety_change_allowlist.
// Answers the entries after the change.
func (a *Server) changeAllowlist(ctx context.Context, r *request) (any, error) {
	var in struct {
		Add    hook.AllowlistLists `json:"add"`
		Remove hook.AllowlistLists `json:"remove"`
		Reset  bool                `json:"reset"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	o, err := hook.ParseAllowlistOverride(in.Add, in.Remove)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	if o.Empty() && !in.Reset {
		return nil, badRequest("nothing to change: give add, remove or reset")
	}
	if err := a.cfg.Tools.ChangeAllowlist(ctx, o, in.Reset, by(r.p)); err != nil {
		if errors.Is(err, facade.ErrBadAllowlist) || errors.Is(err, store.ErrInvalidRecord) {
			return nil, badRequest("%v", err)
		}
		return nil, err
	}
	return a.allowlist(ctx, r)
}
