package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	spec "github.com/a2aproject/a2a-go/a2a"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/reason"
)

// emitFunc receives a task's events as they happen (message/stream); a
// droppable one may be lost to a slow client.
type emitFunc func(ev spec.Event, droppable bool)

// send answers message/send and message/stream: a message with a call
// starts a task; a message on a task waiting for input checks on it.
func (h *Handler) send(ctx context.Context, p auth.Principal, in *sendInput, emit emitFunc) (spec.Task, *rpcError) {
	if in.taskID == "" {
		return h.execute(ctx, p, in, emit)
	}
	if rerr := h.lookup(ctx, p); rerr != nil {
		return spec.Task{}, rerr
	}
	prev, ok := h.tasks.get(p.ID, in.taskID)
	if !ok {
		return spec.Task{}, h.unknownTask(ctx, p, in.taskID)
	}
	if in.msg.ContextID != "" && in.msg.ContextID != prev.ContextID {
		return spec.Task{}, invalidParams("params.message.contextId is not the task's context")
	}
	in.msg.ContextID = prev.ContextID
	t, err := h.tasks.addMessage(p.ID, in.taskID, in.msg)
	switch {
	case errors.Is(err, errNotFound):
		return spec.Task{}, taskNotFound()
	case errors.Is(err, errState):
		return spec.Task{}, invalidParams(fmt.Sprintf("the task is %s: only a task waiting for input (input-required) takes another message; send a call as a new task", t.Status.State))
	}
	h.refresh(ctx, p, in.taskID)
	if t, ok = h.tasks.get(p.ID, in.taskID); !ok {
		return spec.Task{}, taskNotFound() // evicted meanwhile
	}
	if emit != nil {
		emit(&t, false)
		emit(statusEvent(t, true), false)
	}
	return trimHistory(t, in.history), nil
}

// execute runs the call of in as a new task and returns the task as it
// ended.
func (h *Handler) execute(ctx context.Context, p auth.Principal, in *sendInput, emit emitFunc) (spec.Task, *rpcError) {
	// The call outlives the client's connection, not tasks/cancel.
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	now := h.cfg.Now().UTC()
	in.msg.TaskID = spec.NewTaskID()
	if in.msg.ContextID == "" {
		in.msg.ContextID = spec.NewContextID()
	}
	submitted := spec.Task{ID: in.msg.TaskID, ContextID: in.msg.ContextID,
		Status: spec.TaskStatus{State: spec.TaskStateSubmitted, Timestamp: &now}, History: []*spec.Message{in.msg}}
	working := submitted
	working.History = []*spec.Message{in.msg}
	working.Status = spec.TaskStatus{State: spec.TaskStateWorking, Timestamp: &now}
	t, err := h.tasks.start(p.ID, working, cancel)
	if errors.Is(err, errFull) {
		return spec.Task{}, &rpcError{Code: codeInternal, Message: "too many tasks are working; try again shortly"}
	}
	if emit != nil {
		emit(&submitted, false)
		emit(statusEvent(t, false), false)
		runCtx = facade.WithProgress(runCtx, func(_, step string, i, n int) {
			ev := statusEvent(t, false)
			ev.Status.Message = statusMessage(t.TaskInfo(), fmt.Sprintf("step %d of %d: %s", i+1, n, step), nil)
			emit(ev, true)
		})
	}
	res, runErr := h.cfg.Run(runCtx, p, in.call.tool, in.call.args)
	// Decide outside the table's lock what each ending looks like.
	end := h.outcome(t.TaskInfo(), in, res, runErr)
	canceled := ending{status: h.status(t.TaskInfo(), spec.TaskStateCanceled, "canceled with tasks/cancel", nil)}
	final := h.tasks.finish(t.ID, func(wasCanceled bool) ending {
		if wasCanceled && runErr != nil {
			return canceled
		}
		return end
	})
	if emit != nil {
		for _, a := range final.Artifacts {
			emit(&spec.TaskArtifactUpdateEvent{TaskID: final.ID, ContextID: final.ContextID, Artifact: a, LastChunk: true}, false)
		}
		emit(statusEvent(final, true), false)
	}
	return trimHistory(final, in.history), nil
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
		return ending{held: rf.Quarantine, status: h.status(info, spec.TaskStateInputRequired,
			rf.Message+". This task stays input-required until the owner decides: tasks/get (or a message on this task) then shows the outcome; tasks/cancel gives up on it.",
			map[string]any{"code": string(rf.Code), "message": rf.Message, "quarantine_id": rf.Quarantine})}
	case errors.As(err, &rf):
		return ending{status: h.status(info, spec.TaskStateFailed, rf.Message, map[string]any{"code": string(rf.Code), "message": rf.Message})}
	}
	h.cfg.Log.Warn("a2a: call failed", "tool", in.call.tool, "task", info.TaskID, "err", err)
	const msg = "ward could not complete the call; check query_state before trying again"
	return ending{status: h.status(info, spec.TaskStateFailed, msg, map[string]any{"code": string(reason.ExecutionFailed), "message": msg})}
}

// refresh settles owner's task id if it waits for the owner's review of a
// held call and the owner has decided: it asks the gate, through the same
// facade tool an agent would (query_state kind quarantine), which also
// runs an approved call that has not run yet.
func (h *Handler) refresh(ctx context.Context, p auth.Principal, id spec.TaskID) {
	item, info, ok := h.tasks.waiting(p.ID, id)
	if !ok {
		return
	}
	args, err := json.Marshal(map[string]any{"kind": "quarantine", "params": map[string]string{"id": item}})
	if err != nil {
		return
	}
	res, err := h.cfg.Run(ctx, p, "query_state", args)
	var rf *facade.Refusal
	switch {
	case errors.As(err, &rf) && rf.Code == reason.QuarantineNotFound:
		h.tasks.settle(p.ID, id, item, ending{status: h.status(info, spec.TaskStateFailed, rf.Message,
			map[string]any{"code": string(rf.Code), "message": rf.Message})})
		return
	case err != nil:
		h.cfg.Log.Warn("a2a: read a quarantined call", "task", id, "err", err)
		return
	}
	var it facade.Quarantined
	if err := json.Unmarshal(res, &it); err != nil {
		h.cfg.Log.Warn("a2a: read a quarantined call", "task", id, "err", err)
		return
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
		return // pending, or approved and not run yet
	case !out.OK:
		end.status = h.status(info, spec.TaskStateFailed, out.Message, data(out.Code, out.Message))
	default:
		res := out.Result
		if out.Permit != nil {
			if res, err = json.Marshal(out.Permit); err != nil {
				return
			}
		}
		end.status = h.status(info, spec.TaskStateCompleted, "the owner approved the call and it ran", nil)
		end.artifacts = []*spec.Artifact{artifact(it.Tool, false, res)}
	}
	h.tasks.settle(p.ID, id, item, end)
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

func statusEvent(t spec.Task, final bool) *spec.TaskStatusUpdateEvent {
	return &spec.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status, Final: final}
}

// trimHistory keeps the last n messages of t's history (all when n is
// nil).
func trimHistory(t spec.Task, n *int) spec.Task {
	if n != nil && len(t.History) > *n {
		t.History = t.History[len(t.History)-*n:]
	}
	return t
}
