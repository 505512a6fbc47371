// Package a2a serves ward's tools to other agents over the Agent2Agent
// protocol (A2A 0.3): a public Agent Card, and JSON-RPC 2.0 at /a2a with
// message/send, message/stream, tasks/get, tasks/cancel and
// tasks/resubscribe. The protocol (JSON-RPC transport, task lifecycle,
// event queues, Server-Sent Events) is a2a-go's a2asrv; this package is
// ward's agent behind it (an a2asrv.AgentExecutor), the bounded and
// per-principal task store, a call interceptor that checks every request
// against its principal, and the HTTP checks a2asrv leaves to its host.
//
// A message carries one call of a facade tool, {"tool": name,
// "arguments": {...}}, as a data part or as a text part holding that JSON.
// The call runs through the same gate as on every other surface, in the
// caller token's session, so a peer token acts with peer authority. A task
// moves submitted → working → completed (the result as a data artifact) or
// failed (the refusal's reason code and its agent-safe message, never its
// internal detail). A call the policy quarantines leaves the task
// input-required: it waits for the owner, and the caller sends a message
// on the same task (or tasks/get) once the owner has decided, or cancels
// the task. tasks/cancel cancels a task that is not final; a working call
// is stopped if it can still be (a call that finished first stays
// completed, and the cancel is refused as not cancelable).
// tasks/resubscribe streams the events of a task's running call, and
// replays a task no call runs for: the task, then its status.
//
// Calls run on a2asrv's execution goroutines, detached from the client's
// connection (a client that goes away does not abort an action half way;
// the result waits in tasks/get) but cancellable with tasks/cancel; each
// call is bounded by its tool's tick budget. "blocking": false is
// accepted and answered when the call has finished, as every send is.
// Nobody awaits those goroutines in the library, so ward counts them:
// Shutdown refuses what comes after it and returns only once every call,
// cancellation and request in the library has ended (cancelling the calls
// at its deadline), so the stack behind Run may close then.
//
// Everything a client sends or makes ward keep is bounded: the request
// body (1 MiB), a message (64 KiB, 16 parts), a task's history (8
// messages) and result (1 MiB), and the task table (10,000 tasks and
// 64 MiB: the oldest final tasks are evicted first, then the oldest waiting
// for input; working tasks never). A task is visible only to the token
// that created it: another token's task id is answered exactly as an
// unknown one. Numbers in data parts, the client's and the results', keep
// their exact value. Bad input gets a JSON-RPC error (or a 4xx for what
// is wrong below JSON-RPC: a body too large, not JSON) whose message is
// ward's, written for the client, never an internal error's text: ward
// answers with its own text and codes where a2asrv answers (rpcErr.As).
package a2a

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"time"

	spec "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"

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

// RunWithFunc is a RunFunc told the call's options: the listener of its
// progress, which a task reports as working-status updates.
type RunWithFunc func(ctx context.Context, p auth.Principal, tool string, args json.RawMessage, opts facade.CallOptions) (json.RawMessage, error)

// Config configures the A2A surface. Run or RunWith is required.
type Config struct {
	// Run runs a facade tool call in the principal's session; the call's
	// progress listener rides in its context (facade.WithProgress). It is
	// used only when RunWith is nil.
	Run RunFunc
	// RunWith runs a facade tool call in the principal's session with the
	// call's options.
	RunWith RunWithFunc
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
	store *taskStore
	exec  *executor
	work  work
	rpc   http.Handler // a2asrv's JSON-RPC transport
}

// New returns a handler for cfg.
func New(cfg Config) (*Handler, error) {
	if cfg.Run == nil && cfg.RunWith == nil {
		return nil, errors.New("a2a: no Run function")
	}
	if cfg.RunWith == nil {
		cfg.RunWith = runWith(cfg.Run)
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
	card, err := buildCard(cfg)
	if err != nil {
		return nil, err
	}
	// a2asrv copies a task with encoding/gob whenever it stores an event,
	// and gob must know every concrete type held in an interface: data
	// parts keep their numbers exact as json.Number. The registration is
	// process-wide but only adds a name (gob's default for the type) that
	// nothing else could mean; registering it again is a no-op.
	gob.Register(json.Number(""))
	h := &Handler{cfg: cfg, card: card, store: newTaskStore(maxTasks, maxTaskBytes)}
	h.exec = &executor{h: h, runs: map[spec.TaskID]*run{}}
	lib := a2asrv.NewHandler(h.exec,
		a2asrv.WithTaskStore(h.store),
		a2asrv.WithEventQueueManager(newQueues(&h.work)),
		a2asrv.WithCallInterceptor(guard{h}),
		a2asrv.WithLogger(cfg.Log))
	h.rpc = a2asrv.NewJSONRPCHandler(server{lib, h})
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
// the caller's principal (auth.WithPrincipal): without one it is 401. It
// checks what a2asrv leaves to its host (the principal, the media type,
// the body's size and the request's envelope) and hands the request to
// a2asrv's JSON-RPC transport.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	null := json.RawMessage("null")
	if h.work.closing() {
		writeError(w, http.StatusServiceUnavailable, null, errShuttingDown)
		return
	}
	if _, ok := auth.PrincipalFrom(r.Context()); !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="ward"`)
		writeError(w, http.StatusUnauthorized, null, &rpcErr{codeInvalidRequest, "a bearer token is required"})
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != mediaJSON {
			writeError(w, http.StatusUnsupportedMediaType, null, &rpcErr{codeInvalidRequest, "the request body must be application/json"})
			return
		}
	}
	tooLarge := &rpcErr{codeInvalidRequest, fmt.Sprintf("the request body is larger than %d bytes", maxBody)}
	if r.ContentLength > maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, null, tooLarge)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			writeError(w, http.StatusRequestEntityTooLarge, null, tooLarge)
			return
		}
		writeError(w, http.StatusBadRequest, null, &rpcErr{codeParse, "the request body could not be read"})
		return
	}
	id, exact, rerr := checkEnvelope(body)
	if rerr != nil {
		writeError(w, http.StatusOK, id, rerr)
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), exactKey{}, exact))
	r.Body = io.NopCloser(bytes.NewReader(body))
	w.Header().Set("Content-Type", mediaJSON) // a stream's SSE writer sets its own
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	rc := http.NewResponseController(w)
	h.rpc.ServeHTTP(deadlineWriter{w, rc}, r)
	// The connection may serve the client's next request.
	_ = rc.SetWriteDeadline(time.Time{})
}

// runWith is run as a RunWithFunc: the options' progress listener goes in
// the context (facade.WithProgress), as run expects it.
func runWith(run RunFunc) RunWithFunc {
	return func(ctx context.Context, p auth.Principal, tool string, args json.RawMessage, opts facade.CallOptions) (json.RawMessage, error) {
		if opts.Progress != nil {
			ctx = facade.WithProgress(ctx, opts.Progress)
		}
		return run(ctx, p, tool, args)
	}
}
