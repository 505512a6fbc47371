package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/trust"
)

// Trust is what the trust routes need from the daemon; nil fields leave
// the routes answering 404.
type Trust struct {
	// Create makes a named session with trust options
	// (daemon.Server.CreateSession).
	Create func(ctx context.Context, p auth.Principal, o SessionOptions) (*facade.Session, error)
	// Named returns a principal's session by name (facade.ErrNoSession if
	// it holds none).
	Named func(ctx context.Context, p auth.Principal, name string) (*facade.Session, error)
	// ByID returns any session by its id (the owner's directive).
	ByID func(ctx context.Context, id string) (*facade.Session, error)
}

// SessionOptions are the body of POST /v1/sessions.
type SessionOptions struct {
	Name      string   `json:"name"`
	Isolated  bool     `json:"isolated"`
	Parent    string   `json:"parent,omitempty"`
	Reviewers []string `json:"reviewers,omitempty"`
	Judge     string   `json:"judge,omitempty"`
	Directive string   `json:"directive,omitempty"`
}

func (a *Server) trustReady() error {
	if a.cfg.Trust.Create == nil || a.cfg.Trust.Named == nil {
		return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "sessions cannot be created on this server"}
	}
	return nil
}

// createSession answers POST /v1/sessions.
func (a *Server) createSession(ctx context.Context, r *request) (any, error) {
	if err := a.trustReady(); err != nil {
		return nil, err
	}
	var in SessionOptions
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	if in.Name == "" || !validName(in.Name, 64) || !validName(in.Parent, 64) {
		return nil, badRequest("name (and parent) must be 1 to 64 letters, digits, '.', '_' or '-'")
	}
	if len(in.Reviewers) > 8 || len(in.Directive) > 4000 {
		return nil, badRequest("at most 8 reviewers and a directive of at most 4000 bytes")
	}
	for _, rv := range append(append([]string{}, in.Reviewers...), in.Judge) {
		if !validName(rv, 128) {
			return nil, badRequest("reviewer and judge names must be letters, digits, '.', '_' or '-'")
		}
	}
	s, err := a.cfg.Trust.Create(ctx, r.p, in)
	if errors.Is(err, facade.ErrSelfReview) {
		return nil, &Error{Status: http.StatusForbidden, Code: "SELF_REVIEW", Message: err.Error()}
	}
	if errors.Is(err, facade.ErrSessionLimit) {
		return nil, sessionLimit()
	}
	if errors.Is(err, store.ErrUnwritable) {
		return nil, storeUnavailable(err)
	}
	if err != nil {
		return nil, &Error{Status: http.StatusConflict, Code: CodeBadRequest, Message: err.Error()}
	}
	tr := s.Trust()
	return map[string]any{"session_id": s.ID(), "name": in.Name, "taint": tr.Level.String(), "isolated": tr.Isolated,
		"parent": tr.Parent, "reviewers": tr.Reviewers, "judge": tr.Judge}, nil
}

func (a *Server) named(r *request) (*facade.Session, error) {
	if err := a.trustReady(); err != nil {
		return nil, err
	}
	s, err := a.cfg.Trust.Named(r.Context(), r.p, r.PathValue("name"))
	if errors.Is(err, facade.ErrNoSession) {
		return nil, notFound("session")
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// ownerSession resolves {name} for an owner route: one of the owner's
// session names, or any live session's id.
func (a *Server) ownerSession(r *request) (*facade.Session, error) {
	s, err := a.named(r)
	if err != nil && a.cfg.Trust.ByID != nil {
		if byID, berr := a.cfg.Trust.ByID(r.Context(), r.PathValue("name")); berr == nil {
			return byID, nil
		}
	}
	return s, err
}

// setDirective answers POST /v1/sessions/{name}/directive: the owner's
// directive, whose values have trusted provenance. {name} is one of the
// owner's session names or any live session's id.
func (a *Server) setDirective(ctx context.Context, r *request) (any, error) {
	s, err := a.ownerSession(r)
	if err != nil {
		return nil, err
	}
	var in struct {
		Directive string `json:"directive"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	if in.Directive == "" || len(in.Directive) > 4000 {
		return nil, badRequest("directive must be 1 to 4000 bytes")
	}
	trusted, err := a.cfg.Tools.SetDirective(ctx, s, in.Directive, true)
	if err != nil {
		return nil, err
	}
	return map[string]any{"recorded": true, "trusted": trusted}, nil
}

// setLevel answers POST /v1/sessions/{name}/level: the owner puts a
// tainted session under review, or lifts a review back to tainted.
func (a *Server) setLevel(ctx context.Context, r *request) (any, error) {
	s, err := a.ownerSession(r)
	if err != nil {
		return nil, err
	}
	var in struct {
		Level string `json:"level"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	lv, err := trust.ParseLevel(in.Level)
	if err != nil {
		return nil, badRequest("level must be tainted or review")
	}
	if err := a.cfg.Tools.SetLevel(ctx, s, lv, by(r.p)); err != nil {
		if errors.Is(err, facade.ErrBadLevel) {
			return nil, &Error{Status: http.StatusConflict, Code: CodeBadRequest, Message: err.Error()}
		}
		return nil, err
	}
	return map[string]any{"session_id": s.ID(), "taint": lv.String()}, nil
}

// delegate answers POST /v1/sessions/{name}/delegate: the orchestrator
// {name} runs a read tool in its tainted child and gets metadata only.
func (a *Server) delegate(ctx context.Context, r *request) (any, error) {
	parent, err := a.named(r)
	if err != nil {
		return nil, err
	}
	var in struct {
		Child string          `json:"child"`
		Tool  string          `json:"tool"`
		Args  json.RawMessage `json:"args"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	child, err := a.cfg.Trust.Named(ctx, r.p, in.Child)
	if err != nil {
		return nil, notFound("child session")
	}
	return a.cfg.Tools.Delegate(ctx, parent, child, in.Tool, in.Args)
}

// readOutput answers GET /v1/outputs/{key}: a designated reviewer (the
// token's name) reads a withheld output; once promoted, the orchestrator
// (X-Ward-Session) reads it too.
func (a *Server) readOutput(ctx context.Context, r *request) (any, error) {
	key := r.PathValue("key")
	if !validName(key, 64) {
		return nil, badRequest("invalid output key")
	}
	var sid string
	if name := r.Header.Get("X-Ward-Session"); name != "" && a.cfg.Trust.Named != nil {
		if s, err := a.cfg.Trust.Named(ctx, r.p, name); err == nil {
			sid = s.ID()
		}
	}
	reader := r.p.Name
	if reader == "" {
		reader = by(r.p)
	}
	return a.cfg.Tools.ReadOutput(ctx, key, facade.OutputReader{Name: reader, Principal: r.p.ID, Session: sid, Owner: r.p.Role == auth.Owner})
}

// deleteSession answers DELETE /v1/sessions/{name}: the owner clears a
// session ({name}: one of the owner's session names, or any session id),
// its taint, review and ledger with it; its name opens a clean session
// again.
func (a *Server) deleteSession(ctx context.Context, r *request) (any, error) {
	s, err := a.ownerSession(r)
	if err != nil {
		return nil, err
	}
	if err := a.cfg.Tools.DeleteSession(ctx, s); err != nil {
		return nil, err
	}
	return map[string]any{"session_id": s.ID(), "deleted": true}, nil
}
