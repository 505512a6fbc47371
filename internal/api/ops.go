package api

import (
	"context"
	"errors"
	"net/http"

	"github.com/wardhq/ward/internal/auth"
)

// Ops is what the operator's routes need from the daemon: reloading the
// configuration and the views of the policy and the upstream servers.
// Every field is optional; a route whose function is nil answers 404.
type Ops struct {
	// Reload reloads the configuration for principal p and returns its
	// report. A refused reload returns its report too, with an error
	// wrapping ErrRefused; nothing changed then.
	Reload func(ctx context.Context, p auth.Principal) (report any, err error)
	// Policy returns the view of the policy in force.
	Policy func(ctx context.Context) (any, error)
	// Upstreams returns the view of the upstream servers.
	Upstreams func(ctx context.Context) (any, error)
	// Approve records p's approval of the pending definition of an
	// upstream server's tool (by the upstream's name for it) and returns
	// what changed; ErrNotPending when none waits.
	Approve func(ctx context.Context, p auth.Principal, server, tool string) (any, error)
}

// ErrRefused and ErrNotPending are what Ops' functions wrap for a refused
// reload and an approval of nothing.
var (
	ErrRefused    = errors.New("refused")
	ErrNotPending = errors.New("not pending")
)

// CodeConfigInvalid is the code of a refused reload.
const CodeConfigInvalid = "CONFIG_INVALID"

// reload answers POST /v1/config/reload: the reload's report, or, for a
// refused reload, a 422 CONFIG_INVALID error carrying the report (its
// problems say why).
func (a *Server) reload(ctx context.Context, r *request) (any, error) {
	if a.cfg.Ops.Reload == nil {
		return nil, notFoundRoute()
	}
	var in struct{}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	rep, err := a.cfg.Ops.Reload(ctx, r.p)
	if errors.Is(err, ErrRefused) {
		return nil, &Error{Status: http.StatusUnprocessableEntity, Code: CodeConfigInvalid,
			Message: "the configuration was not reloaded and nothing changed: see reload.problems", Reload: rep}
	}
	if err != nil {
		return nil, err
	}
	return rep, nil
}

func notFoundRoute() *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "this server does not offer this route"}
}

// policyView answers GET /v1/policy.
func (a *Server) policyView(ctx context.Context, r *request) (any, error) {
	if a.cfg.Ops.Policy == nil {
		return nil, notFoundRoute()
	}
	return a.cfg.Ops.Policy(ctx)
}

// upstreams answers GET /v1/upstreams.
func (a *Server) upstreams(ctx context.Context, r *request) (any, error) {
	if a.cfg.Ops.Upstreams == nil {
		return nil, notFoundRoute()
	}
	return a.cfg.Ops.Upstreams(ctx)
}

// approveUpstream answers POST /v1/upstreams/{server}/tools/{tool}/approve.
func (a *Server) approveUpstream(ctx context.Context, r *request) (any, error) {
	if a.cfg.Ops.Approve == nil {
		return nil, notFoundRoute()
	}
	var in struct{}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	v, err := a.cfg.Ops.Approve(ctx, r.p, r.PathValue("server"), r.PathValue("tool"))
	if errors.Is(err, ErrNotPending) {
		return nil, &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "no changed definition of this tool waits for approval"}
	}
	return v, err
}
