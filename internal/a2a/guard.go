package a2a

import (
	"context"
	"errors"
	"fmt"

	spec "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/reason"
)

// guard is the a2asrv.CallInterceptor every request passes before the
// library acts on it: it binds the request to its principal (a task id the
// principal holds no task by is unknown, and counted as a failed lookup),
// validates a message and finds its call, settles a task whose held call
// the owner has decided, and makes every send blocking. After the call it
// trims a send's history and replaces an error the library made by its
// bare code, so no internal text reaches the client.
type guard struct{ h *Handler }

var _ a2asrv.CallInterceptor = guard{}

// sendKey is the context key of a send's *sendInput, from Before to the
// executor and After.
type sendKey struct{}

// Before checks req for the principal of ctx.
func (g guard) Before(ctx context.Context, cc *a2asrv.CallContext, req *a2asrv.Request) (context.Context, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return ctx, &rpcErr{"a bearer token is required", spec.ErrInvalidRequest}
	}
	switch q := req.Payload.(type) {
	case *spec.TaskQueryParams:
		if q.HistoryLength != nil && *q.HistoryLength < 0 {
			return ctx, invalidParams("params.historyLength must not be negative")
		}
		if err := g.h.owned(ctx, p, q.ID); err != nil {
			return ctx, err
		}
		g.h.refresh(ctx, p, q.ID)
	case *spec.TaskIDParams:
		if err := g.h.owned(ctx, p, q.ID); err != nil {
			return ctx, err
		}
		if cc.Method() == "OnResubscribeToTask" {
			g.h.refresh(ctx, p, q.ID)
		}
	case *spec.MessageSendParams:
		in, err := checkSend(q)
		if err != nil {
			return ctx, err
		}
		if id := q.Message.TaskID; id != "" {
			if err := g.h.owned(ctx, p, id); err != nil {
				return ctx, err
			}
			if t, err := g.h.store.Get(ctx, id); err != nil {
				return ctx, taskNotFound() // evicted meanwhile
			} else if t.Status.State != spec.TaskStateInputRequired {
				return ctx, invalidParams(fmt.Sprintf("the task is %s: only a task waiting for input (input-required) takes another message; send a call as a new task", t.Status.State))
			}
		} else if !g.h.store.room() {
			return ctx, &rpcErr{"too many tasks are working; try again shortly", spec.ErrInternalError}
		}
		// Every send is answered once its call has finished: a2asrv would
		// answer a non-blocking one with the submitted task.
		if q.Config == nil {
			q.Config = &spec.MessageSendConfig{}
		}
		blocking := true
		q.Config.Blocking = &blocking
		ctx = context.WithValue(ctx, sendKey{}, in)
	}
	return ctx, nil
}

// After trims a send's reply to the history asked for and cleans errors.
func (g guard) After(ctx context.Context, cc *a2asrv.CallContext, resp *a2asrv.Response) error {
	if resp.Err != nil {
		return g.clean(ctx, resp.Err)
	}
	in, _ := ctx.Value(sendKey{}).(*sendInput)
	if t, ok := resp.Payload.(*spec.Task); ok && in != nil && in.history != nil && cc.Method() == "OnSendMessage" {
		if n := *in.history; len(t.History) > n {
			t.History = t.History[len(t.History)-n:]
		}
	}
	return nil
}

// protocolErrors are the a2a errors a2asrv turns into JSON-RPC codes.
var protocolErrors = []error{
	spec.ErrParseError, spec.ErrInvalidRequest, spec.ErrMethodNotFound, spec.ErrInvalidParams,
	spec.ErrInternalError, spec.ErrServerError, spec.ErrTaskNotFound, spec.ErrTaskNotCancelable,
	spec.ErrPushNotificationNotSupported, spec.ErrUnsupportedOperation, spec.ErrUnsupportedContentType,
	spec.ErrInvalidAgentResponse, spec.ErrAuthenticatedExtendedCardNotConfigured,
}

// clean keeps ward's own errors and reduces the library's to the protocol
// error they wrap: a2asrv would send the whole chain's text as
// error.data.error.
func (g guard) clean(ctx context.Context, err error) error {
	var re *rpcErr
	if errors.As(err, &re) {
		return re
	}
	for _, pe := range protocolErrors {
		if errors.Is(err, pe) {
			return pe
		}
	}
	g.h.cfg.Log.WarnContext(ctx, "a2a: request failed", "err", err)
	return &rpcErr{"ward could not answer the request", spec.ErrInternalError}
}

// owned is called before p looks a task id up: a principal that failed
// too many lookups lately is refused, and an id p holds no task by is
// answered, and recorded, as unknown (another principal's task the same).
func (h *Handler) owned(ctx context.Context, p auth.Principal, id spec.TaskID) error {
	if h.cfg.Lookups != nil {
		if err := h.cfg.Lookups.LookupAllowed(ctx, p.ID); err != nil {
			return &rpcErr{"too many lookups of task ids that do not exist: wait a few seconds", spec.ErrServerError}
		}
	}
	if _, err := h.store.Get(ctx, id); err == nil {
		return nil
	}
	if h.cfg.Lookups != nil {
		h.cfg.Lookups.LookupFailed(ctx, p.ID, SessionID, "task", string(id), reason.Code("TASK_NOT_FOUND"))
	}
	return taskNotFound()
}

func taskNotFound() error { return &rpcErr{"no task has this id", spec.ErrTaskNotFound} }
