// Package mcp serves ward's tool gate to agents over the Model Context
// Protocol, with the official Go SDK: streamable HTTP for ward serve (behind
// its bearer-token authentication) and stdio for ward mcp.
//
// The tools a session lists are exactly what its profile lets it call
// (facade.Listed): the gate's facades (a data session sees no preview,
// commit or cancel), then each upstream tool of its view under ward's name
// for it, with ward's annotations, over as many pages as a byte bound
// needs. A call runs the tool through the gate; a refusal becomes a tool result with isError set whose
// text is "CODE: message", the code from the reason catalogue and the message
// the gate wrote for the agent. The refusal's internal detail and Go errors
// never reach the client, nor do the agent's arguments beyond what the
// gate's message quotes. A call's progress steps
// become progress notifications when the client asked for them with a
// progress token. Time limits are the gate's: each tool runs within its tick
// budget. Over HTTP each MCP session is bound to the token that opened it
// and runs in that token's gate session; over stdio the one session is the
// one Config.Session returns.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/telemetry"
)

// Config configures a Server.
type Config struct {
	// Tools is the tool gate calls go through (required).
	Tools *facade.Tools
	// Session returns the gate session of a caller (required). clientSession
	// is the MCP session id ("" over stdio); ctx is the context the MCP
	// session was opened with, so over HTTP it carries the authenticated
	// principal (see NamedSessions).
	Session func(ctx context.Context, clientSession string) (*facade.Session, error)
	// Version is ward's version, announced in the MCP handshake.
	Version string
	// Log receives internal failures (never sent to the client); nil
	// discards them.
	Log *slog.Logger
	// Updates, when set, is the bus whose stream:* events (the stream_
	// tools' subscriptions) Deliver sends to the MCP sessions of their
	// gate session as notifications/message with logger StreamLogger;
	// EndStreams (required with it) ends a gate session's subscriptions
	// once its MCP sessions have ended, which Deliver looks for every
	// StreamSweep (DefaultSweep when zero).
	Updates     *event.Bus
	EndStreams  func(session string) int
	StreamSweep time.Duration
}

// MaxMessageBytes bounds one HTTP request body or one stdio message.
const MaxMessageBytes = 1 << 20

// Server is an MCP server over the tool gate. It is safe for concurrent
// use; one Server serves any number of MCP sessions.
type Server struct {
	tools   *facade.Tools
	session func(context.Context, string) (*facade.Session, error)
	log     *slog.Logger
	srv     *sdk.Server

	httpOnce sync.Once
	http     http.Handler
	sse      sseStreams
	streams  *delivery // nil without Config.Updates
}

// New validates cfg and returns a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Tools == nil || cfg.Session == nil {
		return nil, errors.New("mcp: the server needs the tool gate and a session lookup")
	}
	if cfg.Version == "" {
		cfg.Version = "dev"
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Updates != nil && cfg.EndStreams == nil {
		return nil, errors.New("mcp: stream updates need a way to end a session's subscriptions")
	}
	if cfg.StreamSweep <= 0 {
		cfg.StreamSweep = DefaultSweep
	}
	s := &Server{tools: cfg.Tools, session: cfg.Session, log: cfg.Log}
	// Tools, and a session's list never changes; with stream updates,
	// logging, whose notifications carry them.
	caps := &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}}
	if cfg.Updates != nil {
		caps.Logging = &sdk.LoggingCapabilities{}
	}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "ward", Title: "ward tool gate", Version: cfg.Version}, &sdk.ServerOptions{
		Logger: cfg.Log, Capabilities: caps,
	})
	if cfg.Updates != nil {
		s.streams = newDelivery(s.srv, cfg.Updates, cfg.EndStreams, cfg.StreamSweep)
	}
	// The tools depend on the caller's session, so tools/list and
	// tools/call are answered here rather than from the SDK's one registry.
	s.srv.AddReceivingMiddleware(s.route)
	return s, nil
}

// describe is a facade's description as the model reads it: what it does,
// then the gate's guidelines for using it.
func describe(f facade.Def) string {
	if len(f.PromptGuidelines) == 0 {
		return f.Description
	}
	var b strings.Builder
	b.WriteString(f.Description)
	b.WriteString("\n\nGuidelines:")
	for _, g := range f.PromptGuidelines {
		b.WriteString("\n- ")
		b.WriteString(g)
	}
	return b.String()
}

// gateSession returns the gate session of the MCP session a request came
// in on.
func (s *Server) gateSession(ctx context.Context, ss *sdk.ServerSession) (*facade.Session, error) {
	id := ""
	if ss != nil {
		id = ss.ID()
	}
	g, err := s.session(ctx, id)
	if err == nil && (g == nil || g.View() == nil) {
		err = errors.New("the session lookup returned no session")
	}
	if err != nil {
		s.log.Warn("mcp: no gate session", "mcp_session", id, "err", err)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "ward has no session for this caller"}
	}
	return g, nil
}

// route answers tools/list and tools/call for the caller's session and
// passes every other method on.
func (s *Server) route(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		switch method {
		case "tools/list":
			ss, _ := req.GetSession().(*sdk.ServerSession)
			g, err := s.gateSession(ctx, ss)
			if err != nil {
				return nil, err
			}
			cursor := ""
			if l, ok := req.(*sdk.ListToolsRequest); ok && l.Params != nil {
				cursor = l.Params.Cursor
			}
			return list(g, cursor)
		case "tools/call":
			call, ok := req.(*sdk.CallToolRequest)
			if !ok || call.Params == nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/call needs params"}
			}
			// A client's W3C trace context (the HTTP request's traceparent,
			// else the call's _meta) continues in ward's spans.
			var h http.Header
			if call.Extra != nil {
				h = call.Extra.Header
			}
			return s.call(telemetry.ForCall(ctx, h, call.Params.Meta), call)
		}
		return next(ctx, method, req)
	}
}

// MaxListBytes bounds one page of tools/list: a page holds tools until
// the next would pass it, and at least one. The facades come first and
// fit on the first page; a session that may call many upstream tools
// with large schemas gets them over several pages (nextCursor).
const MaxListBytes = 512 << 10

// list returns one page of the tools session g may call (facade.Listed),
// from cursor on: an offset into that list, as the previous page's
// nextCursor gave it.
func list(g *facade.Session, cursor string) (*sdk.ListToolsResult, error) {
	fs := facade.Listed(g.View())
	start := 0
	if cursor != "" {
		n, err := strconv.Atoi(cursor)
		if err != nil || n <= 0 || n >= len(fs) || strconv.Itoa(n) != cursor {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "tools/list: the cursor is not one this server gave"}
		}
		start = n
	}
	// The list depends on the caller's profile: only its client may cache it.
	res := &sdk.ListToolsResult{Cacheable: sdk.Cacheable{CacheScope: "private"}, Tools: []*sdk.Tool{}}
	size := 0
	for i := start; i < len(fs); i++ {
		t := listed(fs[i])
		b, err := json.Marshal(t)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "tools/list: a tool's schema could not be sent"}
		}
		if len(res.Tools) > 0 && size+len(b) > MaxListBytes {
			res.NextCursor = strconv.Itoa(i)
			break
		}
		size += len(b)
		res.Tools = append(res.Tools, t)
	}
	return res, nil
}

// listed is a tool as tools/list sends it, with ward's hints as its
// annotations.
func listed(f facade.Def) *sdk.Tool {
	h := f.Hints
	destructive, openWorld := h.Destructive, h.OpenWorld
	return &sdk.Tool{Name: f.Name, Title: h.Title, Description: describe(f), InputSchema: f.Params,
		Annotations: &sdk.ToolAnnotations{Title: h.Title, ReadOnlyHint: h.ReadOnly, DestructiveHint: &destructive,
			IdempotentHint: h.Idempotent, OpenWorldHint: &openWorld}}
}

// call runs one facade through the gate. A tool the session does not offer
// is a protocol error, as the MCP specification asks; everything the gate
// refuses is a tool error the agent can read.
func (s *Server) call(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	g, err := s.gateSession(ctx, req.Session)
	if err != nil {
		return nil, err
	}
	if s.streams != nil {
		s.streams.bind(req.Session, g.ID())
	}
	if !facade.Offers(g.View(), req.Params.Name) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown tool: this session offers no tool by that name"}
	}
	args := bytes.TrimSpace(req.Params.Arguments)
	if bytes.Equal(args, []byte("null")) {
		args = nil
	}
	var opts facade.CallOptions
	if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
		p := startProgress(ctx, req.Session, tok)
		defer p.stop() // every step is sent before the result
		opts.Progress = p.report
	}
	out, err := s.tools.CallWith(ctx, g, req.Params.Name, json.RawMessage(args), opts)
	if err != nil {
		return s.refused(req.Params.Name, err), nil
	}
	return succeeded(out), nil
}

// refused turns a failed call into a tool error the agent may read: the
// refusal's code and message, nothing else.
func (s *Server) refused(name string, err error) *sdk.CallToolResult {
	var r *facade.Refusal
	if !errors.As(err, &r) {
		s.log.Error("mcp: the gate failed without a refusal", "tool", name, "err", err)
		r = &facade.Refusal{Code: reason.ExecutionFailed, Message: "the call failed inside ward; nothing more can be said"}
	}
	var sc refusalContent
	sc.Error.Code, sc.Error.Message = r.Code, r.Message
	return &sdk.CallToolResult{
		IsError:           true,
		Content:           []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%s: %s", r.Code, r.Message)}},
		StructuredContent: sc,
	}
}

// refusalContent is a refusal's structured content.
type refusalContent struct {
	Error struct {
		Code    reason.Code `json:"code"`
		Message string      `json:"message"`
	} `json:"error"`
}

// succeeded returns the gate's JSON as text and, when it is an object, as
// structured content. A tool result the gate marks is_error (a read whose
// tool reported a failure) is an error result too.
func succeeded(out json.RawMessage) *sdk.CallToolResult {
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(out)}}}
	var flag struct {
		IsError bool `json:"is_error"`
	}
	if t := bytes.TrimSpace(out); len(t) > 0 && t[0] == '{' {
		res.StructuredContent = json.RawMessage(t)
		_ = json.Unmarshal(t, &flag)
	}
	res.IsError = flag.IsError
	return res
}
