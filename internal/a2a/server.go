package a2a

import (
	"context"
	"errors"
	"iter"

	spec "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
)

// server is a2asrv's request handler (with the guard inside it) and what
// ward adds around it: every request's way through the library counts as
// work for Shutdown and is refused once Shutdown has begun; a cancel is
// waited for to its end (the library runs it detached and stops waiting
// when the client goes away); tasks/resubscribe of a task that no call is
// running for replays it (the library streams only a running execution).
type server struct {
	a2asrv.RequestHandler
	h *Handler
}

func (s server) OnGetTask(ctx context.Context, q *spec.TaskQueryParams) (*spec.Task, error) {
	if !s.h.work.begin() {
		return nil, errShuttingDown
	}
	defer s.h.work.end()
	return s.RequestHandler.OnGetTask(ctx, q)
}

func (s server) OnCancelTask(ctx context.Context, q *spec.TaskIDParams) (*spec.Task, error) {
	if !s.h.work.begin() {
		return nil, errShuttingDown
	}
	defer s.h.work.end()
	return s.RequestHandler.OnCancelTask(context.WithoutCancel(ctx), q)
}

func (s server) OnSendMessage(ctx context.Context, q *spec.MessageSendParams) (spec.SendMessageResult, error) {
	if !s.h.work.begin() {
		return nil, errShuttingDown
	}
	defer s.h.work.end()
	return s.RequestHandler.OnSendMessage(ctx, q)
}

func (s server) OnSendMessageStream(ctx context.Context, q *spec.MessageSendParams) iter.Seq2[spec.Event, error] {
	return func(yield func(spec.Event, error) bool) {
		if !s.h.work.begin() {
			yield(nil, errShuttingDown)
			return
		}
		defer s.h.work.end()
		for ev, err := range s.RequestHandler.OnSendMessageStream(ctx, q) {
			if !yield(ev, err) {
				return
			}
		}
	}
}

// settled is the guard's answer to tasks/resubscribe of a task no call is
// running for: server replays the task instead.
type settled struct{ task *spec.Task }

func (*settled) Error() string { return "the task is not running" }

func (s server) OnResubscribeToTask(ctx context.Context, q *spec.TaskIDParams) iter.Seq2[spec.Event, error] {
	return func(yield func(spec.Event, error) bool) {
		if !s.h.work.begin() {
			yield(nil, errShuttingDown)
			return
		}
		defer s.h.work.end()
		final := false
		for ev, err := range s.RequestHandler.OnResubscribeToTask(ctx, q) {
			var st *settled
			if errors.As(err, &st) {
				replay(st.task, yield)
				return
			}
			if !yield(ev, err) || err != nil {
				return
			}
			switch ev := ev.(type) {
			case *spec.TaskStatusUpdateEvent:
				final = final || ev.Final
			case *spec.Task:
				final = final || !running(ev)
			}
		}
		// The call ended between the guard's look and the library's
		// subscription: the stream saw no end, the store has it.
		if t, err := s.h.store.Get(ctx, q.ID); !final && err == nil && !running(t) {
			replay(t, yield)
		}
	}
}

// replay streams a task no call is running for: the task, then its
// status as the final event.
func replay(t *spec.Task, yield func(spec.Event, error) bool) {
	if yield(t, nil) {
		yield(&spec.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status, Final: true}, nil)
	}
}

// running reports whether a call may still change t.
func running(t *spec.Task) bool {
	return !t.Status.State.Terminal() && t.Status.State != spec.TaskStateInputRequired
}
