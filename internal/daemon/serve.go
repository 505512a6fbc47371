package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/wardhq/ward/internal/upstream"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/gate"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/trust"
)

// ServeConfig configures ward serve.
type ServeConfig struct {
	// Addr is the listen address (default 127.0.0.1:8787). A non-loopback
	// address needs TLS (TLSCert and TLSKey) or AllowInsecure.
	Addr          string
	TLSCert       string
	TLSKey        string
	AllowInsecure bool
	// Data is the data directory (created on first start): ward.db.
	Data string
	// File is the loaded ward.toml (defaults when nil).
	File *config.File
	// Out receives the "ready" line; Log the server's log.
	Out io.Writer
	Log *slog.Logger
	// Mount adds the surfaces (MCP, API, dashboard, A2A) to the server's
	// mux; it runs once the stack is open. MountSurfaces adds them all;
	// nil: only /healthz.
	Mount func(s *Server) error
	// Version is ward's version as the surfaces announce it (MCP's
	// server info, the A2A Agent Card).
	Version string
	// Ready, if set, is called once the server accepts requests.
	Ready func(s *Server)
	// Extra registers more tools (upstream MCP servers); see Config.Extra.
	Extra func(ctx context.Context, st *Stack) ([]registry.Tool, func() error, error)
	// Init lets an existing empty ward.db become a new database (ward
	// serve --init); see DataOptions.
	Init bool
	// ReloadOnHangup reloads File on SIGHUP (Server.Reload), reporting
	// each reload on Out and refused ones on Log.
	ReloadOnHangup bool
	// OwnerTxSweep is how often the owner's held transactions are read
	// on chain; zero is the constant OwnerTxSweep.
	OwnerTxSweep time.Duration
}

// DefaultAddr is where ward serve listens by default.
const DefaultAddr = "127.0.0.1:8787"

// Server is a running ward serve: the stack, the token verifier and the
// HTTP listener.
type Server struct {
	Stack    *Stack
	Verifier *auth.Verifier
	Mux      *http.ServeMux
	File     *config.File
	Log      *slog.Logger
	Version  string // ward's version, as the surfaces announce it
	Addr     net.Addr
	URL      string // http(s)://HOST:PORT once listening
	// Data is the data directory.
	Data string

	shutdowns []func(context.Context) error
	// background is what surfaces run beside their requests (Background).
	background []func(context.Context)
	// reloadMu serialises reloads; loaded is the configuration in force
	// after the last one (nil: File).
	reloadMu sync.Mutex
	loaded   atomic.Pointer[Loaded]
	// sets are the upstream sets served after the last reload that
	// changed [[upstream]] (nil: Stack.Upstream alone).
	sets atomic.Pointer[[]*upstream.Set]
}

// OnShutdown registers f to stop a surface as Serve shuts down: f runs
// once the listener has stopped and requests in flight have ended (or
// been cut off), before the stack closes, with what is left of the grace
// period; it must return only when the surface no longer uses the stack.
// Surfaces stop in the order they registered. A mount function calls it.
func (s *Server) OnShutdown(f func(context.Context) error) {
	s.shutdowns = append(s.shutdowns, f)
}

// Background registers f to run in its own goroutine from the moment
// Serve is ready until shutdown begins, when its context ends; Serve waits
// for it to return before stopping the listener's surfaces and the stack.
// A mount function calls it (MCP's delivery of live data updates).
func (s *Server) Background(f func(context.Context)) {
	s.background = append(s.background, f)
}

// owner is the session owner a principal is.
func owner(p auth.Principal) gate.Owner {
	return gate.Owner{PrincipalID: p.ID, Name: p.Name, Source: p.Role.Source()}
}

// Session returns the gate session a principal holds under the client's
// session name ("" is the principal's default session), opening a clean
// one the first time: the configured profile, the input source of the
// principal's role. The name is the principal's own: another principal's
// session of the same name is another session. A principal at its limit
// of live sessions is refused (gate.ErrSessionLimit), never served by
// evicting another.
func (s *Server) Session(ctx context.Context, p auth.Principal, clientSession string) (*facade.Session, error) {
	v, err := s.Stack.View(s.File.Tools)
	if err != nil {
		return nil, err
	}
	return surface(s.Stack.Tools.OpenSession(ctx, owner(p), clientSession, v))
}

// surface hands the surfaces the gate session g opened, as a facade
// session.
func surface(g *gate.Session, err error) (*facade.Session, error) {
	if err != nil {
		return nil, err
	}
	return facade.NewSession(g), nil
}

// SessionOptions create a session over the API (POST /v1/sessions).
type SessionOptions struct {
	// Name is the client session name (the X-Ward-Session header of later
	// calls).
	Name string
	// Isolated makes an isolated orchestrator; Parent (a session name of
	// the same token) makes a child, which starts tainted.
	Isolated  bool
	Parent    string
	Reviewers []string
	Judge     string
	Directive string
}

// ErrSessionExists is returned when a session name is taken.
var ErrSessionExists = gate.ErrSessionExists

// CreateSession creates a named session of a principal with its trust
// options. A child session starts tainted and needs reviewers and a judge;
// a directive counts as trusted only from the owner.
func (s *Server) CreateSession(ctx context.Context, p auth.Principal, o SessionOptions) (*facade.Session, error) {
	to := gate.TrustOptions{Isolated: o.Isolated, Reviewers: o.Reviewers, Judge: o.Judge, Author: p.Name}
	if p.Role == auth.Owner {
		to.Directive = o.Directive
	}
	if o.Parent != "" {
		parent, err := s.NamedSession(ctx, p, o.Parent)
		if err != nil {
			return nil, fmt.Errorf("no session named %q for this token", o.Parent)
		}
		to.Parent, to.Level = parent.ID(), trust.Tainted
		if o.Isolated {
			return nil, errors.New("a child session cannot itself be an isolated orchestrator")
		}
	}
	v, err := s.Stack.View(s.File.Tools)
	if err != nil {
		return nil, err
	}
	return surface(s.Stack.Tools.CreateSession(ctx, owner(p), o.Name, to, v))
}

// NamedSession returns an existing session of a principal by name
// (gate.ErrNoSession if it holds none).
func (s *Server) NamedSession(ctx context.Context, p auth.Principal, name string) (*facade.Session, error) {
	v, err := s.Stack.View(s.File.Tools)
	if err != nil {
		return nil, err
	}
	return surface(s.Stack.Tools.NamedSession(ctx, p.ID, name, p.Role.Source(), v))
}

// SessionByID returns any session by its id (for the owner).
func (s *Server) SessionByID(ctx context.Context, id string) (*facade.Session, error) {
	return surface(s.Stack.Tools.SessionByID(ctx, id))
}

// Authenticate wraps h: the request must carry a valid bearer token whose
// role is one of roles (any role when empty); its principal is put in the
// request's context. No token, or an invalid, revoked or expired one, is
// 401, a wrong role 403. A long-lived request (an event stream: GET with
// Accept: text/event-stream, as /v1/events and an MCP session's stream are)
// is watched: it ends within auth.WatchEvery of its principal's revocation
// or expiry, whichever process revoked it.
func (s *Server) Authenticate(h http.Handler, roles ...auth.Role) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The presented token is held as a tainted value from here on and
		// released once verified.
		tok, ok := auth.SecretFromHeader(r.Header.Get("Authorization"))
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="ward"`)
			WriteError(w, http.StatusUnauthorized, "UNAUTHENTICATED", "a bearer token is required (ward token create)")
			return
		}
		p, err := s.Verifier.VerifySecret(r.Context(), tok, time.Now())
		tok.Release()
		if err != nil {
			if !errors.Is(err, auth.ErrInvalid) {
				s.Log.Warn("auth: the token could not be verified", "err", err)
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="ward", error="invalid_token"`)
			WriteError(w, http.StatusUnauthorized, "INVALID_TOKEN", "the bearer token is not valid")
			return
		}
		if len(roles) > 0 && !hasRole(roles, p.Role) {
			WriteError(w, http.StatusForbidden, "FORBIDDEN", fmt.Sprintf("the %s role may not do this", p.Role))
			return
		}
		ctx := auth.WithPrincipal(r.Context(), p)
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			var stop context.CancelFunc
			ctx, stop = s.Verifier.Watch(ctx, p)
			defer stop()
		}
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

func hasRole(roles []auth.Role, r auth.Role) bool {
	for _, x := range roles {
		if x == r {
			return true
		}
	}
	return false
}

// WriteError writes a JSON error with a stable code.
func WriteError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"code":%q,"message":%q}}`+"\n", code, msg)
}

// OpenData opens the stack of a data directory (created if missing) with
// the configuration f. Its policy is f's, compiled knowing where this ward
// keeps its files (see selfPolicy).
func OpenData(ctx context.Context, dir string, f *config.File, extra ...func(ctx context.Context, st *Stack) ([]registry.Tool, func() error, error)) (*Stack, error) {
	var opt DataOptions
	if len(extra) > 0 {
		opt.Extra = extra[0]
	}
	return OpenDataWith(ctx, dir, f, opt)
}

// DataOptions are OpenDataWith's choices beyond the configuration.
type DataOptions struct {
	// Extra registers more tools (upstream MCP servers); see Config.Extra.
	Extra func(ctx context.Context, st *Stack) ([]registry.Tool, func() error, error)
	// Init lets an existing empty database file become a new database.
	// Without it an empty ward.db is refused (a ward database is never
	// empty once created: an empty one is a truncated copy or a failed
	// restore, and starting fresh on it would silently drop tokens, halt
	// and the audit trail). A missing ward.db is always created.
	Init bool
}

// OpenDataWith is OpenData with options. The data directory is locked for
// the stack's lifetime (a second process is refused: lockData), and its
// SQLite database is checked before use: header, SQLite's quick_check,
// schema version and every table of the schema (sqlite.Config.Verify).
func OpenDataWith(ctx context.Context, dir string, f *config.File, opt DataOptions) (_ *Stack, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	release, err := lockData(dir)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, release())
		}
	}()
	snap, tools, err := selfPolicy(dir, f)
	if err != nil {
		return nil, err
	}
	ex := opt.Extra
	var more []ChainEndpoint
	for _, c := range f.Chains[min(1, len(f.Chains)):] {
		if c.RPCURL == "" {
			return nil, fmt.Errorf("config: chain %s is the embedded dev chain: it can only be the first [[chain]] table", c.Name)
		}
		more = append(more, ChainEndpoint{Name: c.Name, RPCURLs: c.RPCURLs, ChainID: c.ChainID, WalletKeyFile: c.WalletKeyFile, SafeAddress: common.Address(c.SafeAddress), Price: c.Price,
			AccountAddress: common.Address(c.AccountAddress), EntryPoint: common.Address(c.EntryPoint)})
	}
	grim := f.Grimoire
	if grim.Playbook != "" && !filepath.IsAbs(grim.Playbook) {
		grim.Playbook = filepath.Join(dir, grim.Playbook) // like ward.db, in the data directory
	}
	st, err := Open(ctx, Config{
		Extra: ex, WASM: f.WASM,
		DB: StoreTarget(dir, f), Synchronous: f.Store.Synchronous, Policy: snap,
		RPCURL: f.Chain.RPCURL, RPCURLs: rest(f.Chain.RPCURLs), ChainID: f.Chain.ChainID, Book: f.Book, MoreChains: more, WalletKeyFile: f.Chain.WalletKeyFile, DevSeed: f.Chain.DevSeed,
		SafeAddress: common.Address(f.Chain.SafeAddress), DevSafe: f.Chain.RPCURL == "" && f.Chain.Wallet == config.WalletSafe, Price: f.Chain.Price,
		AccountAddress: common.Address(f.Chain.AccountAddress), EntryPoint: common.Address(f.Chain.EntryPoint),
		DevAccount: f.Chain.RPCURL == "" && f.Chain.Wallet == config.WalletERC4337,
		Hooks:      f.Hooks, PermitTTL: f.Gate.PermitTTL, AnnounceDelay: announceDelay(f.Gate.AnnounceDelay), TickPeriod: f.Gate.TickPeriod,
		QuarantineTTL: f.Gate.QuarantineTTL,
		Owner:         f.Gate.Owner, Tools: f.Tools, SessionLimits: f.Sessions, ReadsBestEffort: f.Audit.ReadsBestEffort,
		Trust: f.Trust, VaultKey: filepath.Join(dir, "vault.key"), Grimoire: grim, Telemetry: f.Telemetry,
		Relay: f.Relay, RelayDir: relayDir(dir), Init: opt.Init, Verify: true, Streaming: f.Streaming,
		DevDir: filepath.Join(dir, "devchain"),
	})
	if err != nil {
		return nil, err
	}
	st.closers = append([]func() error{release}, st.closers...) // released last
	tools.Store(st.Registry)
	return st, nil
}

// selfPolicy compiles f's policy for a ward whose data directory is dir:
// command safety protects that directory (its database and keys) and the
// configuration file f was read from, wherever they are, and classifies
// the parameter schema of every registered tool, native or upstream, to
// find the commands its calls carry. The registry exists only once the
// stack is open, so the caller stores it in the returned pointer then
// (before it, no call is decided). The policy's hash is f's: where ward
// runs is not part of it.
func selfPolicy(dir string, f *config.File) (*policy.Snapshot, *atomic.Pointer[registry.Registry], error) {
	pc := f.Policy
	data, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("data directory: %w", err)
	}
	pc.Self = rules.Self{DataDir: data}
	if f.Path != "" {
		file, err := filepath.Abs(f.Path)
		if err != nil {
			return nil, nil, fmt.Errorf("configuration file: %w", err)
		}
		pc.Self.Files = []string{file}
	}
	tools := new(atomic.Pointer[registry.Registry])
	pc.ToolParams = func(name string) json.RawMessage {
		if r := tools.Load(); r != nil {
			if e, ok := r.Get(name); ok {
				return e.Def.Params
			}
		}
		return nil
	}
	snap, err := rules.Compile(pc)
	if err != nil {
		return nil, nil, fmt.Errorf("policy: %w", err)
	}
	return snap, tools, nil
}

// Serve runs ward serve until ctx ends, then shuts down: the listener
// stops accepting, in-flight requests get until their tick budget (at most
// 4 s) to finish, the surfaces stop (OnShutdown) within what is left of
// it, and the store flushes every acknowledged record before Serve
// returns.
func Serve(ctx context.Context, cfg ServeConfig) error {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return err
	}
	start := time.Now()
	srv, archiver, err := openServer(ctx, cfg, start)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return errors.Join(fmt.Errorf("serve: %w", err), srv.Stack.Close())
	}
	srv.Addr = ln.Addr()
	// Long-lived event streams (MCP's standalone SSE stream, /v1/events)
	// never finish on their own: they end as soon as shutdown begins, while
	// calls in flight get their grace period.
	streams, endStreams := context.WithCancel(context.WithoutCancel(ctx))
	defer endStreams()
	hs := srv.httpServer(ctx, streams)
	hs.RegisterOnShutdown(endStreams)
	served := make(chan error, 1)
	go func() {
		if cfg.tls() {
			served <- hs.ServeTLS(ln, cfg.TLSCert, cfg.TLSKey)
		} else {
			served <- hs.Serve(ln)
		}
	}()
	srv.announce(cfg, start)
	background, stopBackground := context.WithCancel(ctx)
	defer stopBackground()
	var running sync.WaitGroup
	srv.runBackground(background, &running, cfg, archiver)
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	stopBackground()
	running.Wait()
	return srv.shutdown(ctx, hs, served, serveErr)
}

// withDefaults fills what cfg leaves unset (address, data directory,
// output, log, the default configuration) and refuses a listener that
// would serve tokens in the clear beyond this machine.
func (cfg ServeConfig) withDefaults() (ServeConfig, error) {
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if cfg.Data == "" {
		cfg.Data = "ward-data"
	}
	if cfg.Out == nil {
		cfg.Out = io.Discard
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.File == nil {
		f, err := config.Default()
		if err != nil {
			return cfg, err
		}
		cfg.File = f
	}
	if cfg.tls() && (cfg.TLSCert == "" || cfg.TLSKey == "") {
		return cfg, errors.New("serve: --tls-cert and --tls-key go together")
	}
	if !cfg.tls() && !cfg.AllowInsecure && !loopback(cfg.Addr) {
		return cfg, fmt.Errorf("serve: %s is not a loopback address: serve it with TLS (--tls-cert, --tls-key) or pass --insecure-remote", cfg.Addr)
	}
	return cfg, nil
}

// tls reports whether cfg serves over TLS.
func (cfg ServeConfig) tls() bool { return cfg.TLSCert != "" || cfg.TLSKey != "" }

// openServer opens the data directory's stack and the Server over it: the
// token verifier (invalidated by a principal changed through another
// instance), /healthz and the surfaces cfg.Mount mounts. With [audit]
// retain it also returns the archiver. On error nothing stays open.
func openServer(ctx context.Context, cfg ServeConfig, start time.Time) (*Server, *audit.Archiver, error) {
	st, err := OpenDataWith(ctx, cfg.Data, cfg.File, DataOptions{Extra: cfg.Extra, Init: cfg.Init})
	if err != nil {
		return nil, nil, err
	}
	var archiver *audit.Archiver
	if cfg.File.Audit.Retain > 0 {
		if archiver, err = NewArchiver(st.Store, cfg.File, cfg.Data); err != nil {
			return nil, nil, errors.Join(fmt.Errorf("serve: %w", err), st.Close())
		}
	}
	srv := &Server{Stack: st, Verifier: auth.NewVerifier(st.Store, 0), Mux: http.NewServeMux(), File: cfg.File, Log: cfg.Log, Version: cfg.Version, Data: cfg.Data}
	invalidate := srv.Verifier.Invalidate
	st.owner.invalidate.Store(&invalidate)
	st.OnChange(func(c store.Change) {
		if c.Kind == store.ChangePrincipal {
			srv.Verifier.Invalidate(c.ID) // a token revoked or rotated through another instance
		}
	})
	srv.loaded.Store(&Loaded{File: cfg.File, At: start})
	srv.Mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintln(w, `{"status":"ok"}`)
	})
	if cfg.Mount != nil {
		if err := cfg.Mount(srv); err != nil {
			return nil, nil, errors.Join(err, st.Close())
		}
	}
	return srv, archiver, nil
}

// httpServer is the HTTP server of s's mux: its requests live beyond ctx
// (shutdown gives them a grace period) except event streams, which end
// with streams.
func (s *Server) httpServer(ctx, streams context.Context) *http.Server {
	var handler http.Handler = s.Mux
	if s.Stack.Telemetry.Enabled() {
		// A client's W3C traceparent continues in the spans of its calls.
		handler = telemetry.Handler(handler)
	}
	return &http.Server{
		Handler:           endStreamsOnShutdown(streams, handler),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.Log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
}

// announce says ward is ready, at s.URL, once start-up's garbage is
// returned, and calls cfg.Ready.
func (s *Server) announce(cfg ServeConfig, start time.Time) {
	// Start-up (deploying the dev chain's contracts above all) leaves
	// garbage behind: return it to the OS before idling.
	runtime.GC()
	debug.FreeOSMemory()
	scheme := "http"
	if cfg.tls() {
		scheme = "https"
	}
	s.URL = scheme + "://" + s.Addr.String()
	fmt.Fprintf(cfg.Out, "ward ready on %s (data %s, started in %v)\n", s.URL, cfg.Data, time.Since(start).Round(time.Millisecond))
	if cfg.Ready != nil {
		cfg.Ready(s)
	}
}

// runBackground starts, in running, the work ward does on its own until
// ctx ends: the Curator, audit retention, the surfaces' Background work,
// the owner's transactions sweep, the end of expired streams and, when
// asked, reloading on SIGHUP.
func (s *Server) runBackground(ctx context.Context, running *sync.WaitGroup, cfg ServeConfig, archiver *audit.Archiver) {
	st := s.Stack
	// The Curator (decay and TTL pruning of adopted external knowledge)
	// runs on ward's heartbeat until shutdown begins.
	if st.Ingest != nil {
		running.Go(func() {
			runCurator(ctx, st.Ingest, cfg.File.Grimoire.CuratorInterval, cfg.Log, marketSampler(st.Env, st.Ingest))
		})
	}
	if archiver != nil {
		// [audit] retain: old audit rows move to archive files, at start
		// and every RetentionInterval.
		running.Go(func() { runRetention(ctx, archiver, RetentionInterval, cfg.Log) })
	}
	for _, f := range s.background {
		running.Go(func() { f(ctx) })
	}
	// The owner's held transactions (wallet_grant_session_key and
	// wallet_revoke_session_key) are marked done, or stale, from the chain
	// every OwnerTxSweep, listed or not.
	if st.Wallet != nil {
		every := cfg.OwnerTxSweep
		if every <= 0 {
			every = OwnerTxSweep
		}
		running.Go(func() { watchOwnerTxs(ctx, st, every, cfg.Log) })
	}
	// Live data subscriptions whose gate session has expired (or was
	// removed) end: no one is left to receive them.
	running.Go(func() { endExpiredStreams(ctx, st, StreamSweep) })
	if cfg.ReloadOnHangup {
		running.Go(func() {
			s.reloadOnHangup(ctx, func(rep ReloadReport, err error) {
				if err != nil {
					cfg.Log.Warn("reload refused: the configuration in force is unchanged", "file", rep.File, "err", err)
					return
				}
				fmt.Fprintf(cfg.Out, "ward reloaded %s: policy %s -> %s, upstreams applied: %s, needs a restart: %s\n", rep.File, short(rep.PolicyBefore), short(rep.PolicyAfter), orNone(rep.UpstreamsApplied), orNone(rep.NeedsRestart))
			})
		})
	}
}

// shutdown stops hs within the grace period (4 s), cutting off what still
// runs after it, waits for the listener's goroutine (served, unless
// serveErr already came from it), stops the surfaces and closes the
// stack. It returns every error but the listener's ordinary close.
func (s *Server) shutdown(ctx context.Context, hs *http.Server, served <-chan error, serveErr error) error {
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 4*time.Second)
	defer cancel()
	err := hs.Shutdown(shut)
	if errors.Is(err, context.DeadlineExceeded) {
		// The grace period is over: what still runs is cut off, and said so.
		s.Log.Warn("shutdown: requests still running after the grace period were cancelled")
		err = hs.Close()
	}
	if serveErr == nil {
		serveErr = <-served // the listener goroutine has returned
	}
	for _, stop := range s.shutdowns {
		if err := stop(shut); err != nil {
			// The grace period ran out for work a surface runs beyond its
			// requests (A2A's calls): it was cancelled and has returned.
			s.Log.Warn("shutdown: a surface's work still running after the grace period was cancelled", "err", err)
		}
	}
	if errors.Is(serveErr, http.ErrServerClosed) {
		serveErr = nil
	}
	return errors.Join(serveErr, err, s.Stack.Close())
}

// endStreamsOnShutdown ends event-stream requests (GET with Accept:
// text/event-stream) when streams is cancelled, which happens as shutdown
// begins.
func endStreamsOnShutdown(streams context.Context, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(streams, cancel)
		defer stop()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Started is a ward serve running in this process (see Start).
type Started struct {
	*Server
	cancel context.CancelFunc
	done   chan error
}

// Start runs Serve in a goroutine and returns once it accepts requests
// (or failed to start). Stop shuts it down and returns Serve's error.
func Start(ctx context.Context, cfg ServeConfig) (*Started, error) {
	ctx, cancel := context.WithCancel(ctx)
	ready := make(chan *Server, 1)
	cfg.Ready = func(s *Server) { ready <- s }
	st := &Started{cancel: cancel, done: make(chan error, 1)}
	go func() { st.done <- Serve(ctx, cfg) }()
	select {
	case st.Server = <-ready:
		return st, nil
	case err := <-st.done:
		cancel()
		if err == nil {
			err = errors.New("serve: stopped before it was ready")
		}
		return nil, err
	}
}

// Stop shuts the server down and waits for Serve to return.
func (s *Started) Stop() error {
	s.cancel()
	return <-s.done
}

func short(h string) string { return h[:min(12, len(h))] }

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "nothing"
	}
	return strings.Join(xs, ", ")
}

// rest returns all but the first of s.
func rest(s []string) []string {
	if len(s) < 2 {
		return nil
	}
	return s[1:]
}

// announceDelay is the gate's announce delay for the configured one. The
// configuration holds its default (30s) unless ward.toml sets one, so a
// zero there is an explicit "0s", which the documentation promises turns
// the delay off; the gate reads a zero as "use the default" and a
// negative as "none".
func announceDelay(configured time.Duration) time.Duration {
	if configured == 0 {
		return -1
	}
	return configured
}
