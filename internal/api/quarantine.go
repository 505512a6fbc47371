package api

import (
	"context"

	"github.com/wardhq/ward/internal/facade"
)

// listQuarantine answers GET /v1/quarantine: the quarantined calls held
// since ?since (default: the quarantine TTL), oldest first, with ?status
// (pending by default; approved, rejected, expired or all), ?session and
// ?limit (default 100, at most 1000).
func (a *Server) listQuarantine(ctx context.Context, r *request) (any, error) {
	var f facade.QuarantineFilter
	st, err := param(r, "status")
	if err != nil {
		return nil, err
	}
	switch st {
	case "", "pending":
	case "all":
		f.AnyStatus = true
	default:
		if f.Status, err = facade.ParseQuarantineStatus(st); err != nil {
			return nil, badRequest("status must be pending, approved, rejected, expired or all")
		}
	}
	if f.SessionID, err = param(r, "session", "session_id"); err != nil {
		return nil, err
	}
	if f.Since, err = timeParam(r, "since", a.cfg.Now()); err != nil {
		return nil, err
	}
	if f.Limit, err = limitParam(r, 100, 1000); err != nil {
		return nil, err
	}
	items, err := a.cfg.Tools.QuarantineQueue(ctx, f)
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []facade.Quarantined{}
	}
	return map[string]any{"items": items}, nil
}

// getQuarantined answers GET /v1/quarantine/{id}.
func (a *Server) getQuarantined(ctx context.Context, r *request) (any, error) {
	return a.cfg.Tools.Quarantined(ctx, r.PathValue("id"))
}

// approve answers POST /v1/quarantine/{id}/approve {"note": ...}: the call
// runs on the agent's behalf and the item comes back with its outcome.
func (a *Server) approve(ctx context.Context, r *request) (any, error) {
	note, err := reviewNote(r)
	if err != nil {
		return nil, err
	}
	return a.cfg.Tools.Approve(ctx, r.PathValue("id"), by(r.p), note)
}

// reject answers POST /v1/quarantine/{id}/reject {"note": ...}.
func (a *Server) reject(ctx context.Context, r *request) (any, error) {
	note, err := reviewNote(r)
	if err != nil {
		return nil, err
	}
	return a.cfg.Tools.Reject(ctx, r.PathValue("id"), by(r.p), note)
}

func reviewNote(r *request) (string, error) {
	var in struct {
		Note string `json:"note"`
	}
	if err := decode(r.body, &in); err != nil {
		return "", err
	}
	if len(in.Note) > 500 {
		return "", badRequest("note is longer than 500 bytes")
	}
	return in.Note, nil
}
