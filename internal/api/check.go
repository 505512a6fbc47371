package api

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/policy"
)

// The what-if contract of `ward policy check`, one request per call: the
// request evaluates against the policy in force and the tracked state of
// the store (or the state it seeds), and its decision is returned, not
// recorded. This is the CLI's request format, field for field
// (internal/cli/policy.go).

// policyCheck answers POST /v1/policy/check.
func (a *Server) policyCheck(ctx context.Context, r *request) (any, error) {
	var cr policy.CheckRequest
	if err := decode(r.body, &cr); err != nil {
		return nil, err
	}
	// A request naming only a tool this ward offers is evaluated as that
	// tool (its category, risk and tier), as `ward policy check` does.
	if a.cfg.Tools != nil {
		if d, ok := a.cfg.Tools.Def(cr.Tool.Name); ok {
			cr.Complete(d.Ref())
		}
	}
	snap := a.cfg.Policy()
	now := a.cfg.Now()
	var tracked *policy.Tracker
	if cr.State == nil {
		tracked = policy.NewTracker()
		if err := facade.Restore(ctx, a.cfg.Store, tracked, snap, now); err != nil {
			return nil, err
		}
	}
	d, err := evaluateCheck(snap, tracked, &cr, now)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(d.AppendJSON(nil)), nil
}

// evaluateCheck evaluates cr; a malformed request is a 400 naming the
// field.
func evaluateCheck(snap *policy.Snapshot, tracked *policy.Tracker, cr *policy.CheckRequest, now time.Time) (policy.Decision, error) {
	d, err := cr.Evaluate(snap, tracked, now)
	var fe *policy.FieldError
	if errors.As(err, &fe) {
		return d, badRequest("field %s: %s", fe.Field, fe.Msg)
	}
	return d, err
}
