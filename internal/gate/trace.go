package gate

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/telemetry"
)

// A call's span (ward.read, ward.preview, ward.commit) is started by the
// flow with the configured tracer; its stages' spans are its children
// (telemetry.Start). What a span may carry is telemetry's contract: names,
// codes and ids, never the arguments or what they contain.

// startCall starts the span of one tool call of session s.
func (t *Tools) startCall(ctx context.Context, op string, s *Session) (context.Context, trace.Span) {
	ctx, span := t.tracer.Start(ctx, op)
	if span.IsRecording() {
		span.SetAttributes(telemetry.Session.String(s.ID))
	}
	return ctx, span
}

// endCall records a call's outcome on its span and ends it: allow when err
// is nil, hold for a call queued for the owner's review, deny for any
// other refusal; a handler's failure (the call was allowed) is an error.
func endCall(span trace.Span, err error) {
	defer span.End()
	if !span.IsRecording() {
		return
	}
	if err == nil {
		span.SetAttributes(telemetry.Decision.String(telemetry.Allow))
		return
	}
	var rf *Refusal
	if !errors.As(err, &rf) {
		// Not a refusal: its text may hold anything, so only that it failed.
		span.SetAttributes(telemetry.Decision.String(telemetry.Deny))
		span.SetStatus(codes.Error, "")
		return
	}
	switch {
	case rf.Quarantine != "":
		telemetry.Refused(span, telemetry.Hold, string(rf.Code), rf.Stage)
	case rf.Stage == "handler":
		telemetry.Refused(span, telemetry.Allow, string(rf.Code), rf.Stage)
		span.SetStatus(codes.Error, string(rf.Code))
	default:
		telemetry.Refused(span, telemetry.Deny, string(rf.Code), rf.Stage)
	}
}

// decisionOf names a policy action as a span records it.
func decisionOf(a policy.Action) string {
	switch a {
	case policy.Allow:
		return telemetry.Allow
	case policy.Quarantine:
		return telemetry.Hold
	}
	return telemetry.Deny
}

// tracedHook is a hook whose every check is a span (ward.hook.NAME) with
// its verdict.
type tracedHook struct {
	hook.Hook
	name, span string
}

func traced(ch hook.Chain) hook.Chain {
	out := make(hook.Chain, len(ch))
	for i, h := range ch {
		if h == nil {
			continue // the chain vetoes a nil hook itself
		}
		out[i] = tracedHook{Hook: h, name: h.Name(), span: telemetry.HookName(h.Name())}
	}
	return out
}

func (h tracedHook) Check(ctx context.Context, c *hook.Call) hook.Verdict {
	ctx, span := telemetry.Start(ctx, h.span)
	defer span.End()
	v := h.Hook.Check(ctx, c)
	if span.IsRecording() {
		span.SetAttributes(telemetry.Hook.String(h.name))
		if v.Veto {
			telemetry.Refused(span, telemetry.Deny, string(v.Code), h.name)
		} else {
			span.SetAttributes(telemetry.Decision.String(telemetry.Allow))
		}
	}
	return v
}
