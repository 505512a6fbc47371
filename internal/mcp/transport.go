package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/facade"
)

// idleSession is how long an MCP session over HTTP may stay unused before
// it is closed (the client then opens a new one).
const idleSession = time.Hour

// Handler returns the streamable HTTP endpoint (the same one on every
// call: it holds the MCP sessions). It must sit behind ward's
// authentication (daemon.Server.Authenticate): a request whose context
// carries no auth.Principal is refused with 401. Each MCP session is bound
// to the token that opened it; a request for it with another token is
// refused with 403. Bodies over MaxMessageBytes are refused with 413,
// cross-origin browser requests with 403; sessions idle for an hour are
// closed.
func (s *Server) Handler() http.Handler {
	s.httpOnce.Do(func() {
		h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.srv }, &sdk.StreamableHTTPOptions{
			MaxRequestBodyBytes: MaxMessageBytes,
			SessionTimeout:      idleSession,
			Logger:              s.log,
		})
		bind := sdkauth.RequireBearerToken(principalInfo, &sdkauth.RequireBearerTokenOptions{AllowMissingExpiration: true})
		s.http = http.NewCrossOriginProtection().Handler(bind(s.sse.endOnShutdown(namedSession(h))))
	})
	return s.http
}

// sseStreams ends the standalone event streams (the GET a client keeps open
// for server notifications) when the HTTP server they came in on shuts
// down. Such a stream lasts as long as its client; left alone it would
// hold a graceful shutdown up until its deadline. Calls in flight are not
// touched: their responses finish as usual.
type sseStreams struct {
	mu     sync.Mutex
	next   uint64
	open   map[*http.Server]map[uint64]context.CancelFunc
	closed map[*http.Server]bool
}

func (st *sseStreams) endOnShutdown(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hs, ok := r.Context().Value(http.ServerContextKey).(*http.Server)
		if r.Method != http.MethodGet || !ok {
			h.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		id := st.add(hs, cancel)
		defer st.remove(hs, id)
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

func (st *sseStreams) add(hs *http.Server, cancel context.CancelFunc) uint64 {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.closed[hs] {
		cancel()
		return 0
	}
	if st.open == nil {
		st.open, st.closed = map[*http.Server]map[uint64]context.CancelFunc{}, map[*http.Server]bool{}
	}
	if st.open[hs] == nil {
		st.open[hs] = map[uint64]context.CancelFunc{}
		hs.RegisterOnShutdown(func() { st.shutdown(hs) })
	}
	st.next++
	st.open[hs][st.next] = cancel
	return st.next
}

func (st *sseStreams) remove(hs *http.Server, id uint64) {
	st.mu.Lock()
	delete(st.open[hs], id)
	st.mu.Unlock()
}

func (st *sseStreams) shutdown(hs *http.Server) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.closed[hs] = true
	for _, cancel := range st.open[hs] {
		cancel()
	}
	delete(st.open, hs)
}

// principalInfo hands the principal ward's authentication verified to the
// SDK as its token info, whose user id the SDK checks on every request of
// a session against the one that opened it. The token itself was checked
// already and is not looked at again.
func principalInfo(_ context.Context, _ string, r *http.Request) (*sdkauth.TokenInfo, error) {
	p, ok := auth.PrincipalFrom(r.Context())
	if !ok || p.ID == "" {
		return nil, sdkauth.ErrInvalidToken
	}
	return &sdkauth.TokenInfo{UserID: p.ID}, nil
}

// SessionHeader names a session created over the API (POST /v1/sessions:
// an isolated orchestrator, say) that an MCP client works in.
const SessionHeader = "X-Ward-Session"

type sessionNameKey struct{}

// namedSession puts the SessionHeader of a request in its context.
func namedSession(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name := r.Header.Get(SessionHeader); name != "" {
			r = r.WithContext(context.WithValue(r.Context(), sessionNameKey{}, name))
		}
		h.ServeHTTP(w, r)
	})
}

// NamedSessions adapts lookups by principal (daemon.Server.Session and
// NamedSession) to Config.Session for the HTTP handler: the principal is
// the one in the context the MCP session was opened with. A client that
// names a session with the SessionHeader works in that session (which must
// exist and belong to its token); any other in its own.
func NamedSessions(lookup func(ctx context.Context, p auth.Principal, clientSession string) (*facade.Session, error), named func(ctx context.Context, p auth.Principal, name string) (*facade.Session, error)) func(context.Context, string) (*facade.Session, error) {
	return func(ctx context.Context, clientSession string) (*facade.Session, error) {
		p, ok := auth.PrincipalFrom(ctx)
		if !ok {
			return nil, errors.New("mcp: no authenticated principal in the session's context")
		}
		if name, _ := ctx.Value(sessionNameKey{}).(string); name != "" {
			if g, err := named(ctx, p, name); err == nil {
				return g, nil
			}
			return nil, fmt.Errorf("mcp: no session named %q for this token", name)
		}
		return lookup(ctx, p, clientSession)
	}
}
