package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/store"
)

// Tokens is what the token routes need: the principals' store and this
// process's verifier, whose cache a revocation or rotation here clears at
// once (another process's verifier refuses within its cache ttl).
type Tokens struct {
	Store      store.Principals
	Invalidate func(principalID string)
}

func (a *Server) tokensReady() error {
	if a.cfg.Tokens.Store == nil {
		return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "tokens cannot be managed on this server"}
	}
	return nil
}

// listTokens answers GET /v1/tokens: every principal, revoked ones
// included, oldest first; never a secret.
func (a *Server) listTokens(ctx context.Context, r *request) (any, error) {
	if err := a.tokensReady(); err != nil {
		return nil, err
	}
	list, err := auth.List(ctx, a.cfg.Tokens.Store)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []auth.Info{}
	}
	return map[string]any{"tokens": list}, nil
}

// getToken answers GET /v1/tokens/{ref}: one principal by id or live name.
func (a *Server) getToken(ctx context.Context, r *request) (any, error) {
	if err := a.tokensReady(); err != nil {
		return nil, err
	}
	rec, err := auth.Find(ctx, a.cfg.Tokens.Store, r.PathValue("ref"))
	if errors.Is(err, auth.ErrNotFound) {
		return nil, notFound("token")
	}
	if err != nil {
		return nil, err
	}
	return auth.InfoOf(&rec), nil
}

// createToken answers POST /v1/tokens {"role", "name", "ttl"}: the new
// token, shown this once, and its principal.
func (a *Server) createToken(ctx context.Context, r *request) (any, error) {
	if err := a.tokensReady(); err != nil {
		return nil, err
	}
	var in struct {
		Role string `json:"role"`
		Name string `json:"name"`
		TTL  string `json:"ttl"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	role, err := auth.ParseRole(in.Role)
	if err != nil {
		return nil, badRequest("role must be owner, agent or peer")
	}
	if in.Name != "" && auth.CheckName(in.Name) != nil {
		return nil, badRequest("%s", auth.ErrBadName.Error())
	}
	var ttl time.Duration
	if in.TTL != "" {
		if ttl, err = time.ParseDuration(in.TTL); err != nil || ttl <= 0 || ttl > auth.MaxTTL {
			return nil, badRequest("ttl must be a positive duration of at most 10 years, e.g. \"720h\"")
		}
	}
	tok, p, err := auth.Create(ctx, a.cfg.Tokens.Store, auth.Spec{Role: role, Name: in.Name, TTL: ttl}, a.cfg.Now())
	if errors.Is(err, store.ErrNameTaken) {
		return nil, &Error{Status: http.StatusConflict, Code: CodeBadRequest, Message: "a token that is not revoked has this name"}
	}
	if err != nil {
		return nil, err
	}
	return map[string]any{"token": tok, "principal": p}, nil
}

// revokeToken answers POST /v1/tokens/{ref}/revoke: the principal is
// refused from then on, here at once and by other processes within a
// second, open event streams and MCP sessions included.
func (a *Server) revokeToken(ctx context.Context, r *request) (any, error) {
	if err := a.tokensReady(); err != nil {
		return nil, err
	}
	var in struct{}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	info, err := auth.RevokeRef(ctx, a.cfg.Tokens.Store, r.PathValue("ref"), a.cfg.Now())
	switch {
	case errors.Is(err, auth.ErrNotFound):
		return nil, notFound("token")
	case errors.Is(err, auth.ErrRevoked):
		return nil, &Error{Status: http.StatusConflict, Code: CodeBadRequest, Message: "the token is already revoked"}
	case err != nil:
		return nil, err
	}
	if a.cfg.Tokens.Invalidate != nil {
		a.cfg.Tokens.Invalidate(info.ID)
	}
	return info, nil
}

// rotateToken answers POST /v1/tokens/{ref}/rotate: a new secret for the
// same principal, shown this once; the old one is refused from then on.
func (a *Server) rotateToken(ctx context.Context, r *request) (any, error) {
	if err := a.tokensReady(); err != nil {
		return nil, err
	}
	var in struct{}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	tok, p, err := auth.Rotate(ctx, a.cfg.Tokens.Store, r.PathValue("ref"), a.cfg.Now())
	switch {
	case errors.Is(err, auth.ErrNotFound):
		return nil, notFound("token")
	case errors.Is(err, auth.ErrRevoked):
		return nil, &Error{Status: http.StatusConflict, Code: CodeBadRequest, Message: "a revoked or expired token cannot be rotated"}
	case err != nil:
		return nil, err
	}
	if a.cfg.Tokens.Invalidate != nil {
		a.cfg.Tokens.Invalidate(p.ID)
	}
	return map[string]any{"token": tok, "principal": p}, nil
}
