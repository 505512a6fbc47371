// Package a2a serves ward's tools to other agents over the Agent2Agent
// protocol (A2A 0.3): a public Agent Card, and JSON-RPC 2.0 at /a2a with
// message/send, message/stream, tasks/get, tasks/cancel and
// tasks/resubscribe.
//
// A message carries one call of a facade tool, {"tool": name,
// "arguments": {...}}, as a data part or as a text part holding that JSON.
// The call runs through the same gate as on every other surface, in the
// caller token's session, so a peer token acts with peer authority. A task
// moves submitted → working → completed (the result as a data artifact) or
// failed (the refusal's reason code and its agent-safe message, never its
// internal detail). A call the policy quarantines leaves the task
// input-required: it waits for the owner, and the caller sends the call
// again on the same task once the owner has approved it, or cancels the
// task. tasks/cancel cancels a task that is not final; a working call is
// stopped if it can still be (a call that finished first stays completed).
//
// Calls run inside the request that started them, detached from the
// client's connection (a client that goes away does not abort an action
// half way; the result waits in tasks/get) but cancellable with
// tasks/cancel: the package starts no goroutine that outlives a request.
// "blocking": false is accepted and answered when the call has finished;
// each call is bounded by its tool's tick budget.
//
// Everything a client sends or makes ward keep is bounded: the request
// body (1 MiB), a message (64 KiB, 16 parts), a task's history (8
// messages) and result (1 MiB), and the task table (10,000 tasks and
// 64 MiB: the oldest final tasks are evicted first, then the oldest waiting
// for input; working tasks never). A task is visible only to the token
// that created it. Bad input gets a JSON-RPC error (or a 4xx for what is
// wrong below JSON-RPC: a body too large, not JSON) and never an internal
// error's text.
package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"time"

	spec "github.com/a2aproject/a2a-go/a2a"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/reason"
)

// Paths the handler serves: the Agent Card at both well-known locations
// (agent.json, and agent-card.json where A2A 0.3 clients look), and the
// JSON-RPC endpoint.
const (
	CardPath    = "/.well-known/agent.json"
	CardPathV03 = "/.well-known/agent-card.json"
	RPCPath     = "/a2a"
)

// Limits of what a client sends and of what ward keeps for it.
const (
	maxBody      = 1 << 20  // a request body
	maxMessage   = 64 << 10 // one message, as sent
	maxParts     = 16       // parts of one message
	maxID        = 128      // messageId, contextId, taskId, JSON-RPC id
	maxToolName  = 64       // a call's tool name
	maxHistory   = 8        // messages a task keeps
	maxResult    = 1 << 20  // a call's result kept as an artifact
	maxTasks     = 10_000   // tasks kept
	maxTaskBytes = 64 << 20 // their approximate memory

	// writeTimeout bounds each write to a client that reads slowly (a
	// stream drops its other events after one times out).
	writeTimeout = 10 * time.Second
)

const (
	protocolVersion = "0.3.0" // of A2A
	mediaJSON       = "application/json"
	mediaText       = "text/plain"
)

// SessionID is the client session id (daemon.Server.Session) of the A2A
// surface's calls: one gate session per token, so its permits and
// per-session limits are the token's, whatever ids the client sends.
const SessionID = "a2a"

// RunFunc runs one facade tool call for the principal p and returns its
// JSON result, or an error: a *facade.Refusal for a call the gate refused.
type RunFunc func(ctx context.Context, p auth.Principal, tool string, args json.RawMessage) (json.RawMessage, error)

// Config configures the A2A surface. Run is required.
type Config struct {
	// Run runs a facade tool call in the principal's session.
	Run RunFunc
	// Skills are the facade tools the Agent Card advertises (those the
	// configured profile offers).
	Skills []facade.Def
	// URL is the JSON-RPC endpoint's absolute URL written in the card;
	// empty derives it from each card request (its Host, and https when
	// the request came over TLS).
	URL string
	// Version is ward's version, shown in the card (default "dev").
	Version string
	// Log receives what went wrong internally (default: discarded).
	Log *slog.Logger
	// Now is the clock (default time.Now).
	Now func() time.Time
	// Lookups audits a principal's lookups of task ids it does not hold
	// and slows a principal that keeps guessing (*facade.Tools); nil: no
	// audit and no limit.
	Lookups Lookups
}

// Lookups is what the gate does for every lookup by id: refuse a
// principal that failed too many lately, and record a failure.
type Lookups interface {
	LookupAllowed(ctx context.Context, principal string) error
	LookupFailed(ctx context.Context, principal, session, what, ref string, code reason.Code)
}

// Handler serves the A2A surface: Card for the Agent Card, ServeHTTP for
// JSON-RPC. It is safe for concurrent use.
type Handler struct {
	cfg   Config
	card  spec.AgentCard
	tasks *taskTable
}

// New returns a handler for cfg.
func New(cfg Config) (*Handler, error) {
	if cfg.Run == nil {
		return nil, errors.New("a2a: no Run function")
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	h := &Handler{cfg: cfg, tasks: newTaskTable(maxTasks, maxTaskBytes)}
	card, err := buildCard(cfg)
	if err != nil {
		return nil, err
	}
	h.card = card
	return h, nil
}

// Register adds the card (public) and the JSON-RPC endpoint, wrapped in
// authenticate, to mux.
func (h *Handler) Register(mux *http.ServeMux, authenticate func(http.Handler) http.Handler) {
	mux.Handle("GET "+CardPath, h.Card())
	mux.Handle("GET "+CardPathV03, h.Card())
	mux.Handle("POST "+RPCPath, authenticate(h))
}

// ServeHTTP answers one JSON-RPC request. The request's context must carry
// the caller's principal (auth.WithPrincipal): without one it is 401.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p, ok := auth.PrincipalFrom(r.Context())
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="ward"`)
		writeRPC(w, http.StatusUnauthorized, response{ID: nullID, Error: &rpcError{Code: codeInvalidRequest, Message: "a bearer token is required"}})
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != mediaJSON {
			writeRPC(w, http.StatusUnsupportedMediaType, response{ID: nullID, Error: &rpcError{Code: codeInvalidRequest, Message: "the request body must be application/json"}})
			return
		}
	}
	if r.ContentLength > maxBody {
		writeRPC(w, http.StatusRequestEntityTooLarge, response{ID: nullID, Error: tooLarge()})
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			writeRPC(w, http.StatusRequestEntityTooLarge, response{ID: nullID, Error: tooLarge()})
			return
		}
		writeRPC(w, http.StatusBadRequest, response{ID: nullID, Error: &rpcError{Code: codeParse, Message: "the request body could not be read"}})
		return
	}
	req, rerr := decodeRequest(body)
	if rerr != nil {
		writeRPC(w, http.StatusOK, response{ID: req.id, Error: rerr})
		return
	}
	switch req.method {
	case "message/stream", "tasks/resubscribe":
		h.serveStream(r.Context(), w, p, req)
		return
	}
	result, rerr := h.call(r.Context(), p, req)
	if rerr != nil {
		writeRPC(w, http.StatusOK, response{ID: req.id, Error: rerr})
		return
	}
	writeRPC(w, http.StatusOK, response{ID: req.id, Result: result})
}

// call runs one non-streaming method.
func (h *Handler) call(ctx context.Context, p auth.Principal, req request) (any, *rpcError) {
	switch req.method {
	case "message/send":
		in, rerr := parseSend(req.params)
		if rerr != nil {
			return nil, rerr
		}
		t, rerr := h.send(ctx, p, in, nil)
		if rerr != nil {
			return nil, rerr
		}
		return t, nil
	case "tasks/get":
		var q spec.TaskQueryParams
		if rerr := decodeParams(req.params, &q); rerr != nil {
			return nil, rerr
		}
		if q.HistoryLength != nil && *q.HistoryLength < 0 {
			return nil, invalidParams("params.historyLength must not be negative")
		}
		if rerr := h.lookup(ctx, p); rerr != nil {
			return nil, rerr
		}
		h.refresh(ctx, p, q.ID)
		t, ok := h.tasks.get(p.ID, q.ID)
		if !ok {
			return nil, h.unknownTask(ctx, p, q.ID)
		}
		return trimHistory(t, q.HistoryLength), nil
	case "tasks/cancel":
		var q spec.TaskIDParams
		if rerr := decodeParams(req.params, &q); rerr != nil {
			return nil, rerr
		}
		return h.cancel(ctx, p, q.ID)
	case "tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/set",
		"tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete":
		return nil, &rpcError{Code: codePushNotSupported, Message: "push notifications are not supported: use message/stream or tasks/get"}
	case "agent/getAuthenticatedExtendedCard":
		return nil, &rpcError{Code: codeExtendedCard, Message: "ward has no extended agent card"}
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: "method not found: ward serves message/send, message/stream, tasks/get, tasks/cancel and tasks/resubscribe"}
}

// cancel cancels a task that is not final. A working call is asked to
// stop and cancel waits (as long as ctx allows) for it to return.
func (h *Handler) cancel(ctx context.Context, p auth.Principal, id spec.TaskID) (any, *rpcError) {
	if rerr := h.lookup(ctx, p); rerr != nil {
		return nil, rerr
	}
	t, done, err := h.tasks.cancel(p.ID, id, func(info spec.TaskInfo) spec.TaskStatus {
		return h.status(info, spec.TaskStateCanceled, "canceled with tasks/cancel. A call held for the owner's review stays in the owner's queue: "+
			"if the owner approves it, a read runs and a write is previewed (nothing executes without commit_action).", nil)
	})
	switch {
	case errors.Is(err, errNotFound):
		return nil, h.unknownTask(ctx, p, id)
	case errors.Is(err, errFinal):
		return nil, &rpcError{Code: codeNotCancelable, Message: fmt.Sprintf("the task is %s and cannot be canceled", t.Status.State)}
	}
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			return nil, &rpcError{Code: codeInternal, Message: "the request ended before the call stopped; see tasks/get"}
		}
		var ok bool
		if t, ok = h.tasks.get(p.ID, id); !ok {
			return nil, taskNotFound() // evicted meanwhile
		}
	}
	return t, nil
}

func tooLarge() *rpcError {
	return &rpcError{Code: codeInvalidRequest, Message: fmt.Sprintf("the request body is larger than %d bytes", maxBody)}
}

func taskNotFound() *rpcError {
	return &rpcError{Code: codeTaskNotFound, Message: "no task has this id"}
}

// lookup is called before p looks a task id up: a principal that failed
// too many lookups lately is refused (codeTooManyLookups).
func (h *Handler) lookup(ctx context.Context, p auth.Principal) *rpcError {
	if h.cfg.Lookups == nil {
		return nil
	}
	if err := h.cfg.Lookups.LookupAllowed(ctx, p.ID); err != nil {
		return &rpcError{Code: codeTooManyLookups, Message: "too many lookups of task ids that do not exist: wait a few seconds"}
	}
	return nil
}

// unknownTask answers p's lookup of a task id it holds no task by, and
// records it (another principal's task is answered the same).
func (h *Handler) unknownTask(ctx context.Context, p auth.Principal, id spec.TaskID) *rpcError {
	if h.cfg.Lookups != nil {
		h.cfg.Lookups.LookupFailed(ctx, p.ID, SessionID, "task", string(id), reason.Code("TASK_NOT_FOUND"))
	}
	return taskNotFound()
}
