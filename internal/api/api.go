// Package api is ward's HTTP API: everything the CLI does, under /v1, for
// the owner's tools (dashboard, TUI, scripts) and for agents that call
// their tools over HTTP, plus /metrics in the Prometheus text format.
// docs/api.md is the reference of every route.
//
// Contract. Every route but the index is behind a bearer token
// (Config.Authenticate); owner routes need the owner role. Requests are JSON
// of at most 1 MiB, decoded strictly (unknown fields, trailing data and
// wrong types are BAD_JSON); every error is JSON,
// {"error":{"code":CODE,"message":...}}, with a stable code: the API's own
// (BAD_JSON, TOO_LARGE, NOT_FOUND, METHOD_NOT_ALLOWED, ...) or the gate's
// reason code of a refused call. Every request runs under a deadline. A
// message never carries an internal cause: that goes to the log.
//
// Events. GET /v1/events streams the event bus as Server-Sent Events. Each
// client has its own bounded subscription, so a slow client loses events
// (a "gap" event says how many) and never slows the bus. A ring of recent
// events, filled by one recorder goroutine that Server owns, serves
// reconnects with Last-Event-ID or ?since=SEQ, as far back as it reaches.
//
// Metrics. /metrics counts decisions by action and reason (read from the
// audit trail at each scrape, so nothing on the decision path changes),
// their latency, tool call durations, permits, quarantined calls, the
// bus's published and dropped events and the API's own requests. It is
// open to loopback clients without a token unless Config.MetricsToken is
// set, and otherwise needs an owner token.
package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
)

// Store is what the API reads and writes of the store.
type Store interface {
	store.DecisionLog
	store.Ledger
	store.Permits
	store.ActionLog
}

// Config is what the API needs from the daemon. Every field but Log, Now,
// MetricsToken, Heartbeat and MaxStreams is required.
type Config struct {
	// Authenticate lets only requests with a valid bearer token of one of
	// roles (any role when none) reach h, with their principal in the
	// request's context (daemon.Server.Authenticate).
	Authenticate func(h http.Handler, roles ...auth.Role) http.Handler
	// Session returns the gate session of a principal and a client
	// session name (daemon.Server.Session).
	Session func(ctx context.Context, p auth.Principal, clientSession string) (*facade.Session, error)
	Tools   *facade.Tools
	Store   Store
	// Trust creates and finds named sessions (optional).
	Trust Trust
	// Tokens manages the principals under /v1/tokens (optional).
	Tokens Tokens
	// Ops reloads the configuration and serves the views of the policy
	// and the upstream servers (optional).
	Ops Ops
	// Safe lists and signs the Safe transactions awaiting owners'
	// signatures (optional).
	Safe Safe
	// OwnerTxs lists the transactions prepared for the owner of the
	// ERC-4337 account (optional).
	OwnerTxs OwnerTxs
	// Policy returns the policy in force (policy.Engine.Snapshot).
	Policy   func() *policy.Snapshot
	Spending *hook.SpendingLimiter
	Bus      *event.Bus
	Log      *slog.Logger     // default: discard
	Now      func() time.Time // default: time.Now
	// TxURL links a transaction of a chain to its explorer page ("" when
	// the chain has none; optional).
	TxURL func(chainID uint64, hash string) string
	// MetricsToken makes /metrics need an owner token from loopback
	// clients too (set it when a proxy on the same host forwards remote
	// requests).
	MetricsToken bool
	// Heartbeat is the interval of the event stream's keep-alive comments
	// (default 15 s); MaxStreams bounds concurrent event streams (default
	// 64).
	Heartbeat  time.Duration
	MaxStreams int
}

// Limits of every request.
const (
	maxBody        = 1 << 20
	defaultTimeout = 15 * time.Second
	// callTimeout bounds a facade call (a commit waits for its
	// transaction) and an approval (which runs the call).
	callTimeout = 3 * time.Minute
)

// Server serves the API. It owns one goroutine, the event recorder, which
// runs until Close or until the bus closes.
type Server struct {
	cfg     Config
	epoch   string // distinguishes this server's event ids from another run's
	v1      http.Handler
	index   []string // "METHOD /path" of every route
	metrics *metrics
	ring    *ring

	sub      *event.Subscription
	recorded chan struct{} // closed when the recorder has returned

	streams     atomic.Int64
	streamsDone chan struct{} // closed to end every event stream
	endOnce     sync.Once
	watched     sync.Map // *http.Server → struct{}: shutdown hooks registered
}

// New validates cfg and returns a Server with its event recorder running.
func New(cfg Config) (*Server, error) {
	switch {
	case cfg.Authenticate == nil || cfg.Session == nil:
		return nil, errors.New("api: need the daemon's Authenticate and Session")
	case cfg.Tools == nil || cfg.Store == nil || cfg.Policy == nil:
		return nil, errors.New("api: need the tool gate, the store and the policy")
	case cfg.Spending == nil || cfg.Bus == nil:
		return nil, errors.New("api: need the spending limiter and the event bus")
	case cfg.Heartbeat < 0 || cfg.MaxStreams < 0:
		return nil, errors.New("api: negative heartbeat or stream limit")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Heartbeat == 0 {
		cfg.Heartbeat = 15 * time.Second
	}
	if cfg.MaxStreams == 0 {
		cfg.MaxStreams = 64
	}
	a := &Server{cfg: cfg, epoch: strconv.FormatInt(time.Now().UnixNano(), 36), ring: newRing(ringSize),
		recorded: make(chan struct{}), streamsDone: make(chan struct{})}
	a.metrics = newMetrics(a)
	a.v1 = a.routes()
	a.sub = cfg.Bus.Subscribe(recorderBuffer, nil)
	go a.record()
	return a, nil
}

// Mount registers the API on mux: /v1/ and /metrics.
func (a *Server) Mount(mux *http.ServeMux) {
	mux.Handle("/v1/", a.v1)
	mux.Handle("/metrics", a.metricsHandler())
}

// Close ends every event stream and stops the recorder, and waits for it.
// It is idempotent.
func (a *Server) Close() {
	a.endStreams()
	a.sub.Close()
	<-a.recorded
}

func (a *Server) endStreams() { a.endOnce.Do(func() { close(a.streamsDone) }) }

// route is one path of the API and a handler per method.
type route struct {
	pattern string // ServeMux pattern, no method
	name    string // the metrics label
	methods map[string]http.Handler
}

// routes builds the /v1 handler. A path the API does not serve is 404 and
// a method a path does not take is 405, both as JSON.
func (a *Server) routes() http.Handler {
	owner := []auth.Role{auth.Owner}
	var anyRole []auth.Role
	rs := []route{
		{"/v1/{$}", "index", map[string]http.Handler{"GET": http.HandlerFunc(a.listRoutes)}},
		{"/v1/tools", "tools", map[string]http.Handler{"GET": a.json(anyRole, defaultTimeout, a.listTools)}},
		{"/v1/sessions", "sessions", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.listSessions), "POST": a.json(anyRole, defaultTimeout, a.createSession)}},
		{"/v1/sessions/{name}", "session", map[string]http.Handler{"DELETE": a.json(owner, defaultTimeout, a.deleteSession)}},
		{"/v1/sessions/{name}/directive", "session_directive", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.setDirective)}},
		{"/v1/sessions/{name}/level", "session_level", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.setLevel)}},
		{"/v1/sessions/{name}/delegate", "session_delegate", map[string]http.Handler{"POST": a.json(anyRole, callTimeout, a.delegate)}},
		{"/v1/outputs/{key}", "output", map[string]http.Handler{"GET": a.json(anyRole, defaultTimeout, a.readOutput)}},
		{"/v1/gate", "gate", map[string]http.Handler{"GET": a.json(anyRole, defaultTimeout, a.gateState)}},
		{"/v1/gate/halt", "gate_halt", map[string]http.Handler{"POST": a.json(anyRole, defaultTimeout, a.halt)}},
		{"/v1/gate/resume", "gate_resume", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.resume)}},
		{"/v1/gate/phase", "gate_phase", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.setPhase)}},
		{"/v1/gate/spending", "gate_spending", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.setSpending)}},
		{"/v1/gate/allowlist", "gate_allowlist", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.allowlist), "POST": a.json(owner, defaultTimeout, a.changeAllowlist)}},
		{"/v1/call/{facade}", "call", map[string]http.Handler{"POST": a.json(anyRole, callTimeout, a.call)}},
		{"/v1/policy/check", "policy_check", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.policyCheck)}},
		{"/v1/decisions", "decisions", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.decisions)}},
		{"/v1/reports", "reports", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.reportNames)}},
		{"/v1/reports/{name}", "report", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.report)}},
		{"/v1/actions", "actions", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.actions)}},
		{"/v1/permits", "permits", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.listPermits)}},
		{"/v1/permits/{id}", "permit", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.getPermit)}},
		{"/v1/permits/{id}/cancel", "permit_cancel", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.cancelPermit)}},
		{"/v1/quarantine", "quarantine", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.listQuarantine)}},
		{"/v1/quarantine/{id}", "quarantine_item", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.getQuarantined)}},
		{"/v1/quarantine/{id}/approve", "quarantine_approve", map[string]http.Handler{"POST": a.json(owner, callTimeout, a.approve)}},
		{"/v1/quarantine/{id}/reject", "quarantine_reject", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.reject)}},
		{"/v1/tokens", "tokens", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.listTokens), "POST": a.json(owner, defaultTimeout, a.createToken)}},
		{"/v1/tokens/{ref}", "token", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.getToken)}},
		{"/v1/tokens/{ref}/revoke", "token_revoke", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.revokeToken)}},
		{"/v1/tokens/{ref}/rotate", "token_rotate", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.rotateToken)}},
		{"/v1/config/reload", "config_reload", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.reload)}},
		{"/v1/policy", "policy", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.policyView)}},
		{"/v1/upstreams", "upstreams", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.upstreams)}},
		{"/v1/upstreams/{server}/tools/{tool}/approve", "upstream_approve", map[string]http.Handler{"POST": a.json(owner, defaultTimeout, a.approveUpstream)}},
		{"/v1/safe", "safe", map[string]http.Handler{"GET": a.json(owner, defaultTimeout, a.safePending)}},
		{"/v1/safe/{hash}/signatures", "safe_sign", map[string]http.Handler{"POST": a.json(owner, callTimeout, a.safeSign)}},
		{"/v1/wallet/pending", "wallet_pending", map[string]http.Handler{"GET": a.json(owner, callTimeout, a.ownerTxsPending)}},
		{"/v1/wallet/pending/{id}", "wallet_pending_tx", map[string]http.Handler{"GET": a.json(owner, callTimeout, a.ownerTx)}},
		{"/v1/events", "events", map[string]http.Handler{"GET": a.cfg.Authenticate(http.HandlerFunc(a.events), auth.Owner)}},
	}
	mux := http.NewServeMux()
	for _, rt := range rs {
		mux.Handle(rt.pattern, a.observe(rt.name, methods(rt.methods)))
		for m := range rt.methods {
			if rt.name != "index" {
				a.index = append(a.index, m+" "+rt.pattern)
			}
		}
	}
	a.index = append(a.index, "GET /metrics")
	mux.Handle("/v1/", a.observe("unknown", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "no such API route (see GET /v1/)"})
	})))
	return mux
}

// methods dispatches by method; HEAD is served as GET.
func methods(m map[string]http.Handler) http.Handler {
	allow := make([]string, 0, len(m)+1)
	for k := range m {
		allow = append(allow, k)
		if k == http.MethodGet {
			allow = append(allow, http.MethodHead)
		}
	}
	slices.Sort(allow)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		method := r.Method
		if method == http.MethodHead {
			method = http.MethodGet
		}
		h, ok := m[method]
		if !ok {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, &Error{Status: http.StatusMethodNotAllowed, Code: CodeMethodNotAllowed,
				Message: fmt.Sprintf("%s does not take %s (allowed: %s)", r.URL.Path, clip(r.Method, 16), strings.Join(allow, ", "))})
			return
		}
		h.ServeHTTP(w, r)
	})
}

// observe counts and times requests, and turns a panic into a 500.
func (a *Server) observe(name string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				a.cfg.Log.Error("api: handler panicked", "route", name, "panic", fmt.Sprint(v))
				if !sw.wrote {
					writeError(sw, &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal error"})
				}
			}
			a.metrics.request(name, sw.status(), time.Since(start))
		}()
		h.ServeHTTP(sw, r)
	})
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	code  int
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.code, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.code, w.wrote = http.StatusOK, true
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) status() int {
	if !w.wrote {
		return http.StatusOK
	}
	return w.code
}

// Unwrap lets http.ResponseController reach the connection (flushes and
// deadlines of the event stream).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// request is one authenticated API request, as a JSON handler sees it.
type request struct {
	*http.Request
	p    auth.Principal
	body []byte // the whole body, at most maxBody (nil for GET)
}

// handler is a JSON endpoint: it returns the response's value (written with
// status 200) or an error (written by writeError's rules).
type handler func(ctx context.Context, r *request) (any, error)

// json wraps h: authentication with roles, the body read whole within
// maxBody, a deadline, and the answer or the error written as JSON.
func (a *Server) json(roles []auth.Role, timeout time.Duration, h handler) http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := auth.PrincipalFrom(r.Context())
		if !ok {
			writeError(w, &Error{Status: http.StatusUnauthorized, Code: CodeUnauthenticated, Message: "a bearer token is required"})
			return
		}
		req := &request{Request: r, p: p}
		if r.Method == http.MethodPost {
			body, e := readBody(w, r)
			if e != nil {
				writeError(w, e)
				return
			}
			req.body = body
		}
		// The server's read deadline would cancel the request's context
		// once the body is read (net/http's background read fails): the
		// request's own deadline replaces it.
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(timeout + 5*time.Second))
		_ = rc.SetWriteDeadline(time.Now().Add(timeout + 10*time.Second))
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		v, err := h(ctx, req)
		if err != nil {
			a.fail(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
	})
	return a.cfg.Authenticate(inner, roles...)
}

// fail writes err: an *Error as it is, a gate refusal with its reason code,
// anything else as a 500 (or 504 past the deadline) whose cause is logged,
// not sent.
func (a *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := errorOf(err)
	if e.Status >= 500 {
		a.cfg.Log.Warn("api: request failed", "method", r.Method, "path", r.URL.Path, "status", e.Status, "err", err)
	}
	writeError(w, e)
}

// listRoutes answers GET /v1/ with the routes (no token needed: it holds
// no data).
func (a *Server) listRoutes(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"api": "ward", "version": 1, "docs": "docs/api.md", "routes": a.index})
}

// session returns the caller's gate session, with the client session id
// of the X-Ward-Session header.
func (a *Server) session(r *request) (*facade.Session, error) {
	cs := r.Header.Get("X-Ward-Session")
	if !validName(cs, 64) {
		return nil, badRequest("X-Ward-Session must be at most 64 letters, digits, '.', '_' or '-'")
	}
	s, err := a.cfg.Session(r.Context(), r.p, cs)
	if errors.Is(err, facade.ErrSessionLimit) {
		return nil, sessionLimit()
	}
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	return s, nil
}

// by names the principal in audit records: "owner:ID".
func by(p auth.Principal) string { return string(p.Role) + ":" + p.ID }

// validName reports whether s is empty or at most max bytes of letters,
// digits, '.', '_' and '-'.
func validName(s string, max int) bool {
	if len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
