package api

import (
	"context"

	"github.com/wardhq/ward/internal/hook"
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
// and hold against them.
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
	return map[string]any{
		"phase": phase.String(), "halted": halted, "halt_reason": why, "tick": tick, "session_id": s.ID(),
		"spend": []spendWindow{
			window("tick", st.TickCents, st.TickHeldCents, st.Limits.PerTickCents),
			window("session", st.SessionCents, st.SessionHeldCents, st.Limits.PerSessionCents),
			window("daily", st.DailyCents, st.DailyHeldCents, st.Limits.DailyCents),
		},
	}, nil
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
