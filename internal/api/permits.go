package api

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
)

// permitView is a permit on the wire; Summary is its plan's summary.
type permitView struct {
	ID         string             `json:"id"`
	Status     store.PermitStatus `json:"status"`
	Tool       string             `json:"tool"`
	SessionID  string             `json:"session_id,omitempty"`
	CreatedAt  time.Time          `json:"created_at"`
	ExpiresAt  time.Time          `json:"expires_at"`
	NotBefore  time.Time          `json:"not_before,omitzero"`
	ExpiryTick uint64             `json:"expiry_tick,omitempty"`
	RiskTier   string             `json:"risk_tier,omitempty"`
	ValueCents int64              `json:"value_cents"`
	Summary    string             `json:"summary,omitempty"`
	// Description is what the permit would do in a person's units
	// (tokens, USD value, counterparties, simulated balance changes), as
	// the gate described it at preview.
	Description json.RawMessage `json:"description,omitempty"`
	ArgsHash    string          `json:"args_hash"`
	Args        json.RawMessage `json:"args,omitempty"`
	PolicyHash  string          `json:"policy_hash"`
	Phase       string          `json:"phase"`
	Preview     json.RawMessage `json:"preview,omitempty"`
	ClosedAt    time.Time       `json:"closed_at,omitzero"`
	ClosedBy    string          `json:"closed_by,omitempty"`
}

func viewPermit(p *store.Permit, full bool) permitView {
	v := permitView{
		ID: p.ID, Status: p.Status, Tool: p.Tool, SessionID: p.SessionID, CreatedAt: p.CreatedAt, ExpiresAt: p.ExpiresAt,
		NotBefore: p.NotBefore, ExpiryTick: p.ExpiryTick, RiskTier: p.RiskTier, ValueCents: p.ValueCents, ArgsHash: p.ArgsHash,
		PolicyHash: p.PolicyHash, Phase: p.Phase, ClosedAt: p.ClosedAt, ClosedBy: p.ClosedBy,
	}
	if p.Plan != nil {
		v.Summary = p.Plan.Summary
	}
	if json.Valid(p.Description) {
		v.Description = p.Description
	}
	if full {
		if json.Valid(p.Args) {
			v.Args = p.Args
		}
		// The preview as the store keeps it.
		if b, err := p.MarshalPreview(); err == nil {
			v.Preview = b
		}
	}
	return v
}

// listPermits answers GET /v1/permits: the pending, unexpired permits,
// oldest first (?limit, default 100).
func (a *Server) listPermits(ctx context.Context, r *request) (any, error) {
	limit, err := limitParam(r, 100, 10_000)
	if err != nil {
		return nil, err
	}
	ps, err := a.cfg.Store.PendingPermits(ctx, a.cfg.Now(), limit)
	if err != nil {
		return nil, err
	}
	out := make([]permitView, len(ps))
	for i := range ps {
		out[i] = viewPermit(&ps[i], false)
	}
	return map[string]any{"permits": out}, nil
}

// getPermit answers GET /v1/permits/{id}: any permit, with its arguments
// and preview.
func (a *Server) getPermit(ctx context.Context, r *request) (any, error) {
	pid := r.PathValue("id")
	if !id.ValidAny(pid) {
		return nil, notFound("permit")
	}
	p, err := a.cfg.Store.Permit(ctx, pid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, notFound("permit")
	}
	if err != nil {
		return nil, err
	}
	return viewPermit(&p, true), nil
}

// cancelPermit answers POST /v1/permits/{id}/cancel: the owner cancels a
// pending permit (its holds are released; the action log names the owner's
// session).
func (a *Server) cancelPermit(ctx context.Context, r *request) (any, error) {
	var in struct{}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	pid := r.PathValue("id")
	if !id.ValidAny(pid) {
		return nil, notFound("permit")
	}
	if err := a.cfg.Tools.CancelByOwner(ctx, pid, by(r.p)); err != nil {
		return nil, err
	}
	return map[string]any{"id": pid, "status": store.PermitCancelled}, nil
}
