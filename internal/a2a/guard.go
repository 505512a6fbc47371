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
// trims a send's history and puts ward's error in place of one the
// library made, so no internal text reaches the client.
type guard struct{ h *Handler }

var _ a2asrv.CallInterceptor = guard{}

// Context keys: a send's *sendInput (from Before to the executor and
// After), the task id a request names (from Before to After), and the
// message's data parts with exact numbers (from ServeHTTP to Before).
type (
	sendKey  struct{}
	taskKey  struct{}
	exactKey struct{}
)

// Before checks req for the principal of ctx.
func (g guard) Before(ctx context.Context, cc *a2asrv.CallContext, req *a2asrv.Request) (context.Context, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return ctx, &rpcErr{codeInvalidRequest, "a bearer token is required"}
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
		return context.WithValue(ctx, taskKey{}, q.ID), nil
	case *spec.TaskIDParams:
		if err := g.h.owned(ctx, p, q.ID); err != nil {
			return ctx, err
		}
		ctx = context.WithValue(ctx, taskKey{}, q.ID)
		switch cc.Method() {
		case "OnCancelTask":
			// The library would answer a canceled task with the task;
			// A2A says a final task is not cancelable.
			if t, err := g.h.store.Get(ctx, q.ID); err == nil && t.Status.State.Terminal() {
				return ctx, notCancelable(t.Status.State)
			}
		case "OnResubscribeToTask":
			g.h.refresh(ctx, p, q.ID)
			if t, err := g.h.store.Get(ctx, q.ID); err == nil && !running(t) {
				return ctx, &settled{t}
			}
		}
		return ctx, nil
	case *spec.MessageSendParams:
		return g.send(ctx, p, q)
	}
	return ctx, nil
}

// send checks a message/send or message/stream.
func (g guard) send(ctx context.Context, p auth.Principal, q *spec.MessageSendParams) (context.Context, error) {
	if exact, _ := ctx.Value(exactKey{}).([]map[string]any); q.Message != nil && len(exact) == len(q.Message.Parts) {
		for i, part := range q.Message.Parts {
			if d, ok := part.(spec.DataPart); ok && exact[i] != nil {
				d.Data = exact[i]
				q.Message.Parts[i] = d
			}
		}
	}
	in, err := checkSend(q)
	if err != nil {
		return ctx, err
	}
	if id := q.Message.TaskID; id != "" {
		if err := g.h.owned(ctx, p, id); err != nil {
			return ctx, err
		}
		ctx = context.WithValue(ctx, taskKey{}, id)
		t, err := g.h.store.Get(ctx, id)
		switch {
		case err != nil:
			return ctx, taskNotFound() // evicted meanwhile
		case q.Message.ContextID != "" && q.Message.ContextID != t.ContextID:
			return ctx, invalidParams("params.message.contextId is not the task's context")
		case t.Status.State != spec.TaskStateInputRequired:
			return ctx, invalidParams(fmt.Sprintf("the task is %s: only a task waiting for input (input-required) takes another message; send a call as a new task", t.Status.State))
		}
	} else if !g.h.store.room() {
		return ctx, &rpcErr{codeInternal, "too many tasks are working; try again shortly"}
	}
	// Every send is answered once its call has finished: a2asrv would
	// answer a non-blocking one with the submitted task.
	if q.Config == nil {
		q.Config = &spec.MessageSendConfig{}
	}
	blocking := true
	q.Config.Blocking = &blocking
	return context.WithValue(ctx, sendKey{}, in), nil
}

// After trims a send's reply to the history asked for and cleans errors.
func (g guard) After(ctx context.Context, cc *a2asrv.CallContext, resp *a2asrv.Response) error {
	if resp.Err != nil {
		return g.clean(ctx, cc, resp.Err)
	}
	in, _ := ctx.Value(sendKey{}).(*sendInput)
	if t, ok := resp.Payload.(*spec.Task); ok && in != nil && in.history != nil && cc.Method() == "OnSendMessage" {
		if n := *in.history; len(t.History) > n {
			t.History = t.History[len(t.History)-n:]
		}
	}
	return nil
}

// clean keeps ward's own errors and answers the library's with ward's
// text for the protocol error they wrap: a2asrv would send the whole
// chain's text as error.data.error.
func (g guard) clean(ctx context.Context, cc *a2asrv.CallContext, err error) error {
	var re *rpcErr
	if errors.As(err, &re) {
		return re
	}
	id, _ := ctx.Value(taskKey{}).(spec.TaskID)
	switch {
	case errors.Is(err, spec.ErrTaskNotFound):
		// A resubscription the call's end outran: replay the task.
		if t, gerr := g.h.store.Get(ctx, id); cc.Method() == "OnResubscribeToTask" && gerr == nil && !running(t) {
			return &settled{t}
		}
		return taskNotFound()
	case errors.Is(err, spec.ErrTaskNotCancelable):
		// The call finished before the cancel stopped it.
		if t, gerr := g.h.store.Get(ctx, id); gerr == nil {
			return notCancelable(t.Status.State)
		}
		return &rpcErr{codeNotCancelable, "the task cannot be canceled"}
	}
	for code, pe := range protocolErrors {
		if code != codeInternal && errors.Is(err, pe) {
			g.h.cfg.Log.InfoContext(ctx, "a2a: request refused", "err", err)
			return &rpcErr{code, pe.Error()}
		}
	}
	g.h.cfg.Log.WarnContext(ctx, "a2a: request failed", "err", err)
	return &rpcErr{codeInternal, "ward could not answer the request"}
}

// owned is called before p looks a task id up: a principal that failed
// too many lookups lately is refused, and an id p holds no task by is
// answered, and recorded, as unknown (another principal's task the same).
func (h *Handler) owned(ctx context.Context, p auth.Principal, id spec.TaskID) error {
	if h.cfg.Lookups != nil {
		if err := h.cfg.Lookups.LookupAllowed(ctx, p.ID); err != nil {
			return &rpcErr{codeTooManyLookups, "too many lookups of task ids that do not exist: wait a few seconds"}
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
