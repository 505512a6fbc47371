package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	spec "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/reason"
)

// executor is ward's agent behind a2asrv: it runs a message's call through
// the gate (Config.Run, in the principal's session) and writes the task's
// events; on a task waiting for input it checks whether the owner has
// decided. a2asrv runs each Execute on a goroutine of its own, with the
// request's context values (the principal, the guard's sendInput) and
// without its cancellation; queues counts it for Shutdown, which may
// abort it. Safe for concurrent use.
type executor struct {
	h *Handler

	mu      sync.Mutex
	runs    map[spec.TaskID]*run // executions running, by task
	aborted bool                 // by Shutdown: every run is cancelled
}

var _ a2asrv.AgentExecutor = (*executor)(nil)

// run is an execution in flight: Shutdown may abort it, and tasks/cancel
// stop its call.
type run struct {
	stop     context.CancelFunc
	call     bool // the call is running
	canceled bool // by tasks/cancel
}

// ending is how a call, or the owner's review of it, ends a task.
type ending struct {
	status    spec.TaskStatus
	artifacts []*spec.Artifact
}

// Execute answers one message: a call starts the task, a message on a task
// waiting for input checks on it. Events are written with ctx; the gate
// is asked with a context that tasks/cancel and Shutdown cancel.
func (e *executor) Execute(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	p, ok := auth.PrincipalFrom(ctx)
	in, _ := ctx.Value(sendKey{}).(*sendInput)
	if !ok || in == nil {
		return errors.New("a2a: a message reached the executor unchecked")
	}
	runCtx, r := e.start(ctx, rc.TaskID)
	defer e.finish(rc.TaskID)
	if rc.StoredTask != nil {
		end, decided := e.h.decide(runCtx, p, rc.StoredTask)
		if !decided {
			return q.Write(ctx, rc.StoredTask)
		}
		return e.end(ctx, rc, q, end)
	}
	if in.call == nil {
		return errors.New("a2a: a message starting a task carries no call")
	}
	msg := rc.Message
	msg.TaskID, msg.ContextID = rc.TaskID, rc.ContextID
	if err := q.Write(ctx, spec.NewSubmittedTask(rc, msg)); err != nil {
		return err
	}
	if err := q.Write(ctx, e.h.statusEvent(rc, spec.TaskStateWorking, "", nil, false)); err != nil {
		return err
	}
	opts := facade.CallOptions{Progress: func(_, step string, i, n int) {
		_ = q.Write(ctx, e.h.statusEvent(rc, spec.TaskStateWorking, fmt.Sprintf("step %d of %d: %s", i+1, n, step), nil, false))
	}}
	e.mu.Lock()
	r.call = true
	e.mu.Unlock()
	res, runErr := e.h.cfg.RunWith(runCtx, p, in.call.tool, in.call.args, opts)
	e.mu.Lock()
	r.call = false
	canceled := r.canceled
	e.mu.Unlock()
	if canceled && runErr != nil {
		return e.end(ctx, rc, q, ending{status: e.h.status(rc.TaskInfo(), spec.TaskStateCanceled, "canceled with tasks/cancel", nil)})
	}
	return e.end(ctx, rc, q, e.h.outcome(rc.TaskInfo(), in, res, runErr))
}

// start registers task id's execution and returns the context its gate
// calls run in: cancelled at once if Shutdown has aborted the runs.
func (e *executor) start(ctx context.Context, id spec.TaskID) (context.Context, *run) {
	ctx, stop := context.WithCancel(ctx)
	r := &run{stop: stop}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.aborted {
		stop()
	}
	e.runs[id] = r
	return ctx, r
}

func (e *executor) finish(id spec.TaskID) {
	e.mu.Lock()
	r := e.runs[id]
	delete(e.runs, id)
	e.mu.Unlock()
	r.stop()
}

// abort cancels every execution's gate calls, now and from now on, and
// returns how many were running.
func (e *executor) abort() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.aborted = true
	for _, r := range e.runs {
		r.stop()
	}
	return len(e.runs)
}

// end writes a task's artifacts and its final status.
func (e *executor) end(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue, end ending) error {
	for _, a := range end.artifacts {
		if err := q.Write(ctx, &spec.TaskArtifactUpdateEvent{TaskID: rc.TaskID, ContextID: rc.ContextID, Artifact: a, LastChunk: true}); err != nil {
			return err
		}
	}
	return q.Write(ctx, &spec.TaskStatusUpdateEvent{TaskID: rc.TaskID, ContextID: rc.ContextID, Status: end.status, Final: true})
}

// Cancel stops the task's call if one is running (Execute then writes the
// ending: canceled, or completed if the call finished first) and cancels
// a task waiting for input at once.
func (e *executor) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	e.mu.Lock()
	r, ok := e.runs[rc.TaskID]
	running := ok && r.call
	if running {
		r.canceled = true
		r.stop()
	}
	e.mu.Unlock()
	if running {
		return nil
	}
	return q.Write(ctx, &spec.TaskStatusUpdateEvent{TaskID: rc.TaskID, ContextID: rc.ContextID, Final: true,
		Status: e.h.status(rc.TaskInfo(), spec.TaskStateCanceled, "canceled with tasks/cancel. A call held for the owner's review stays in the owner's queue: "+
			"if the owner approves it, a read runs and a write is previewed (nothing executes without commit_action).", nil)})
}

// outcome is how a call's result or error ends its task. A refusal shows
// its code and agent-safe message, never its detail; another error shows
// neither (it is logged).
func (h *Handler) outcome(info spec.TaskInfo, in *sendInput, res json.RawMessage, err error) ending {
	var rf *facade.Refusal
	switch {
	case err == nil:
		return ending{status: h.status(info, spec.TaskStateCompleted, in.call.tool+" completed", nil),
			artifacts: []*spec.Artifact{artifact(in.call.tool, in.text, res)}}
	case errors.As(err, &rf) && rf.Quarantine != "":
		return ending{status: h.status(info, spec.TaskStateInputRequired,
			rf.Message+". This task stays input-required until the owner decides: tasks/get (or a message on this task) then shows the outcome; tasks/cancel gives up on it.",
			map[string]any{"code": string(rf.Code), "message": rf.Message, "quarantine_id": rf.Quarantine})}
	case errors.As(err, &rf):
		return ending{status: h.status(info, spec.TaskStateFailed, rf.Message, map[string]any{"code": string(rf.Code), "message": rf.Message})}
	}
	h.cfg.Log.Warn("a2a: call failed", "tool", in.call.tool, "task", info.TaskID, "err", err)
	const msg = "ward could not complete the call; check query_state before trying again"
	return ending{status: h.status(info, spec.TaskStateFailed, msg, map[string]any{"code": string(reason.ExecutionFailed), "message": msg})}
}

// refresh settles p's task id, on tasks/get and tasks/resubscribe, if it
// waits for the owner's review of a held call and the owner has decided.
func (h *Handler) refresh(ctx context.Context, p auth.Principal, id spec.TaskID) {
	t, err := h.store.Get(ctx, id)
	if err != nil {
		return
	}
	if end, decided := h.decide(ctx, p, t); decided {
		h.store.settle(p.ID, id, heldItem(t), end.status, end.artifacts)
	}
}

// decide reports how task t of p ends if it waits for the owner's review
// of a held call and the owner has decided: it asks the gate, through the
// same facade tool an agent would (query_state kind quarantine), which
// also runs an approved call that has not run yet.
func (h *Handler) decide(ctx context.Context, p auth.Principal, t *spec.Task) (ending, bool) {
	item := heldItem(t)
	if item == "" {
		return ending{}, false
	}
	info := t.TaskInfo()
	args, err := json.Marshal(map[string]any{"kind": "quarantine", "params": map[string]string{"id": item}})
	if err != nil {
		return ending{}, false
	}
	res, err := h.cfg.RunWith(ctx, p, "query_state", args, facade.CallOptions{})
	var rf *facade.Refusal
	switch {
	case errors.As(err, &rf) && rf.Code == reason.QuarantineNotFound:
		return ending{status: h.status(info, spec.TaskStateFailed, rf.Message,
			map[string]any{"code": string(rf.Code), "message": rf.Message})}, true
	case err != nil:
		h.cfg.Log.Warn("a2a: read a quarantined call", "task", info.TaskID, "err", err)
		return ending{}, false
	}
	var it facade.Quarantined
	if err := json.Unmarshal(res, &it); err != nil {
		h.cfg.Log.Warn("a2a: read a quarantined call", "task", info.TaskID, "err", err)
		return ending{}, false
	}
	data := func(code reason.Code, msg string) map[string]any {
		return map[string]any{"code": string(code), "message": msg, "quarantine_id": it.ID, "review": it.Status.String()}
	}
	var end ending
	switch out := it.Outcome; {
	case it.Status == facade.QuarantineRejected:
		msg := "the owner rejected the call"
		end.status = h.status(info, spec.TaskStateFailed, msg, data(it.Reason, msg))
	case it.Status == facade.QuarantineExpired:
		msg := "the owner did not review the call before it expired"
		end.status = h.status(info, spec.TaskStateFailed, msg, data(it.Reason, msg))
	case it.Status != facade.QuarantineApproved || out == nil:
		return ending{}, false // pending, or approved and not run yet
	case !out.OK:
		end.status = h.status(info, spec.TaskStateFailed, out.Message, data(out.Code, out.Message))
	default:
		res := out.Result
		if out.Permit != nil {
			if res, err = json.Marshal(out.Permit); err != nil {
				return ending{}, false
			}
		}
		end.status = h.status(info, spec.TaskStateCompleted, "the owner approved the call and it ran", nil)
		end.artifacts = []*spec.Artifact{artifact(it.Tool, false, res)}
	}
	return end, true
}

// artifact makes a call's result a task's artifact: a data part (a result
// that is not an object is put under "result"), or text when the client
// takes only text. A result over maxResult is not kept.
func artifact(tool string, text bool, res json.RawMessage) *spec.Artifact {
	a := &spec.Artifact{ID: spec.NewArtifactID(), Name: tool, Description: "the result of " + tool}
	var v any
	switch {
	case len(res) > maxResult:
		a.Parts = spec.ContentParts{spec.TextPart{Text: fmt.Sprintf("the call completed but its result is larger than %d bytes and is not returned over A2A", maxResult)}}
	case text || decodeNumbers(res, &v) != nil:
		a.Parts = spec.ContentParts{spec.TextPart{Text: string(res)}}
	default:
		m, ok := v.(map[string]any)
		if !ok {
			m = map[string]any{"result": v}
		}
		a.Parts = spec.ContentParts{spec.DataPart{Data: m}}
	}
	return a
}

// status is a task status now, with an agent message of text and data.
func (h *Handler) status(info spec.TaskInfo, state spec.TaskState, text string, data map[string]any) spec.TaskStatus {
	now := h.cfg.Now().UTC()
	return spec.TaskStatus{State: state, Timestamp: &now, Message: statusMessage(info, text, data)}
}

// statusMessage is an agent message about a task: text, and data when
// given.
func statusMessage(info spec.TaskInfo, text string, data map[string]any) *spec.Message {
	m := &spec.Message{ID: spec.NewMessageID(), Role: spec.MessageRoleAgent, TaskID: info.TaskID, ContextID: info.ContextID,
		Parts: spec.ContentParts{spec.TextPart{Text: text}}}
	if data != nil {
		m.Parts = append(m.Parts, spec.DataPart{Data: data})
	}
	return m
}

// statusEvent is a status update of rc's task now.
func (h *Handler) statusEvent(rc *a2asrv.RequestContext, state spec.TaskState, text string, data map[string]any, final bool) *spec.TaskStatusUpdateEvent {
	st := spec.TaskStatus{State: state}
	if text != "" {
		st = h.status(rc.TaskInfo(), state, text, data)
	} else {
		now := h.cfg.Now().UTC()
		st.Timestamp = &now
	}
	return &spec.TaskStatusUpdateEvent{TaskID: rc.TaskID, ContextID: rc.ContextID, Status: st, Final: final}
}
