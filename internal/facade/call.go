package facade

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
)

// Call is CallWith with the progress listener WithProgress put in ctx, for
// a caller that predates CallOptions (the one place the facade reads it).
func (t *Tools) Call(ctx context.Context, s *Session, name string, raw json.RawMessage) (json.RawMessage, error) {
	return t.CallWith(ctx, s, name, raw, CallOptions{Progress: Progress(gate.OptionsFromContext(ctx).Progress)})
}

// CallWith runs the tool name for session s and returns its JSON result:
// a facade, or an upstream tool Listed offers s under its own name. A
// call the gate refuses, or that names a tool s does not offer or
// arguments that do not fit its schema, is a *Refusal; one that names a
// kind or venue that does not resolve says what the valid ones are. The
// gate is told which facade the call came through; opts.Progress
// receives the progress of the tools it runs.
func (t *Tools) CallWith(ctx context.Context, s *Session, name string, raw json.RawMessage, opts CallOptions) (json.RawMessage, error) {
	gs, err := s.gate()
	if err != nil {
		return nil, err
	}
	if e, ok := listedEntry(gs.View, name); ok {
		return t.callListed(ctx, gs, e, raw, opts.gate(e.Def.Name))
	}
	if !offers(gs.View, name) {
		return nil, refuse(reason.ToolUnavailable, "profile", "no tool "+quote(name)+" is available in this session", "")
	}
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	in, err := decodeArgs(name, raw)
	if err != nil {
		return nil, err
	}
	return t.callFacade(ctx, gs, name, in, raw, opts.gate(name))
}

// offers reports whether the view offers the facade name.
func offers(v *registry.View, name string) bool {
	for _, f := range Defs(v) {
		if f.Name == name {
			return true
		}
	}
	return false
}

// facadeArgs are the arguments of every facade, each using some of them.
type facadeArgs struct {
	ActionType string          `json:"action_type"`
	Kind       string          `json:"kind"`
	Venue      string          `json:"venue"`
	Params     json.RawMessage `json:"params"`
	PermitID   string          `json:"permit_id"`
	Approval   string          `json:"approval"`
	Reason     string          `json:"reason"`
	Directive  string          `json:"directive"`
}

// decodeArgs checks raw against the facade name's schema and decodes it.
// Every failure is a *Refusal.
func decodeArgs(name string, raw json.RawMessage) (facadeArgs, error) {
	var in facadeArgs
	compiled, err := schemas()
	if err != nil {
		return in, refuse(reason.HookError, "schema", "the tool's schema is broken; nothing was done", err.Error())
	}
	if err := compiled[name].Validate(raw); err != nil {
		return in, refuse(reason.SchemaInvalid, "schema", "the arguments do not match "+name+"'s schema: "+err.Error(), "")
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, refuse(reason.BadInput, "schema", "the arguments are not valid JSON", err.Error())
	}
	return in, nil
}

// callFacade runs the facade name with its decoded arguments in (raw is
// what they were decoded from) and the gate's options of the call, opts.
func (t *Tools) callFacade(ctx context.Context, gs *gate.Session, name string, in facadeArgs, raw json.RawMessage, opts gate.CallOptions) (json.RawMessage, error) {
	switch name {
	case "preview_action":
		e, rf := resolve(gs.View, true, in.ActionType, in.Venue)
		if rf != nil {
			return nil, rf
		}
		pv, err := t.g.PreviewWith(ctx, gs, e.Def.Name, in.Params, opts)
		if err != nil {
			return nil, err
		}
		return json.Marshal(pv)
	case "commit_action":
		req := gate.CommitRequest{PermitID: in.PermitID}
		if in.Approval != "" {
			sig, err := hex.DecodeString(strings.TrimPrefix(in.Approval, "0x"))
			if err != nil {
				return nil, refuse(reason.BadInput, "schema", "approval is not hex", "")
			}
			req.Approval = sig
		}
		res, err := t.g.CommitWith(ctx, gs, req, opts)
		if err != nil {
			return nil, err
		}
		return json.Marshal(res)
	case "cancel_action":
		if err := t.g.Cancel(ctx, gs, in.PermitID); err != nil {
			return nil, err
		}
		return json.Marshal(map[string]string{"permit_id": in.PermitID, "status": string(store.PermitCancelled)})
	case "emergency_halt":
		if err := t.g.Halt(ctx, gs, in.Reason); err != nil {
			return nil, refuse(reason.AuditUnavailable, "halt", "the halt could not be recorded", err.Error())
		}
		return json.Marshal(map[string]any{"halted": true, "reason": in.Reason})
	case "query_state", "search_context":
		return t.query(ctx, gs, in.Kind, in.Venue, in.Params, opts)
	case "query_grimoire":
		return t.g.QueryGrimoire(ctx, gs, raw)
	case "update_directive":
		trusted, err := t.g.SetDirective(ctx, gs, in.Directive, false)
		if err != nil {
			return nil, refuse(reason.AuditUnavailable, "directive", "the directive could not be recorded", err.Error())
		}
		if !trusted {
			return json.Marshal(map[string]any{"recorded": true, "trusted": false,
				"note": "this session has read third-party content, so a directive from the agent is kept as a note and does not vouch for any value; the owner can set a trusted directive"})
		}
		return json.Marshal(map[string]any{"recorded": true, "trusted": true})
	}
	return nil, refuse(reason.ToolUnavailable, "profile", "no tool "+quote(name), "")
}

// query answers query_state and search_context: the gate's own state
// (permit, quarantine, gate) or a read tool the view adapts the kind to,
// run with opts.
func (t *Tools) query(ctx context.Context, gs *gate.Session, kind, venue string, params json.RawMessage, opts gate.CallOptions) (json.RawMessage, error) {
	switch kind {
	case "permit":
		var p struct {
			PermitID string `json:"permit_id"`
		}
		if err := json.Unmarshal(params, &p); err != nil || p.PermitID == "" {
			return nil, refuse(reason.MissingArgument, "schema", "params.permit_id is required", "")
		}
		pm, err := t.g.LookupPermit(ctx, gs, p.PermitID)
		if err != nil {
			return nil, err
		}
		return json.Marshal(map[string]any{
			"permit_id": pm.ID, "tool": pm.Tool, "status": pm.Status, "expires_at": pm.ExpiresAt,
			"not_before": pm.NotBefore, "risk_tier": pm.RiskTier, "value_cents": pm.ValueCents, "phase": pm.Phase,
		})
	case "quarantine":
		var p struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(params, &p); err != nil || p.ID == "" {
			return nil, refuse(reason.MissingArgument, "schema", "params.id is required", "")
		}
		it, err := t.g.LookupHeldWith(ctx, gs, p.ID, opts)
		if err != nil {
			return nil, err
		}
		return json.Marshal(it)
	case "gate":
		phase, err := t.g.Phase(ctx)
		if err != nil {
			return nil, refuse(reason.AuditUnavailable, "gate", "the gate state could not be read", err.Error())
		}
		halted, why, err := t.g.Halted(ctx)
		if err != nil {
			return nil, refuse(reason.AuditUnavailable, "gate", "the gate state could not be read", err.Error())
		}
		return json.Marshal(map[string]any{"phase": phase.String(), "halted": halted, "halt_reason": why, "tick": t.g.Tick(t.g.Now())})
	case "tools":
		page, err := toolsPage(gs.View, params)
		if err != nil {
			return nil, err
		}
		return json.Marshal(page)
	}
	e, rf := resolve(gs.View, false, kind, venue)
	if rf != nil {
		return nil, rf
	}
	res, err := t.g.ReadWith(ctx, gs, e.Def.Name, params, opts)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

func refuse(code reason.Code, stage, msg, detail string) *Refusal {
	return &Refusal{Code: code, Stage: stage, Message: msg, Detail: detail}
}

// quote quotes a name the agent sent, cut to 64 bytes, for a refusal's
// message.
func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}
