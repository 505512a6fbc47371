// Package upstream fronts other MCP servers: ward connects to each as an
// MCP client (a command over stdio, or a URL over streamable HTTP), lists
// its tools and turns each into a registry.Tool named mcp_<server>_<tool>,
// so that every call to an upstream tool takes the same path as a native
// one: profile, schema, policy, hooks, permit and capability for writes,
// audit, result filter.
//
// Classification. Each tool gets a capability tier, a risk level, a
// category and a third-party-content flag: from the operator's overrides
// (per tool, then per server) where given, else from the tool's MCP
// annotations, conservatively (Classify). Annotations are the upstream's
// own claims; they are trusted only as far as the owner approved them.
//
// Schemas. A tool whose input schema ward cannot compile (schema.Compile:
// remote or cyclic references, patterns Go cannot compile, ...) is not
// imported: its Status is Skipped, with a reason naming the place in the
// schema, and a warning says so; the server's other tools are imported.
// A tool whose output schema ward cannot compile is imported without it
// (tool.Def.OutputSchema empty: its output is not validated), with a
// warning and the reason in its Status.
//
// Pinning. Each tool's definition (name, description, input schema,
// annotations, output schema) is hashed (DefHash). The first time ward
// sees a tool it records the hash as approved (trust on first use); on
// every later start, and when the upstream says its tool list changed, a
// tool whose hash differs from the approved one is disabled (not
// registered at start, refused from then on at run time) and an
// upstream_tool_changed action record is written, until the owner
// approves the new definition (Approve; ward upstream approve). A tool
// disabled while ward runs is served again with the approved definition
// without a restart (approve.go: Reapprove); one already changed at start
// was never registered and comes back on the next start.
//
// Writes. An upstream write's plan moves no tokens and sends no
// transactions (ValueCents 0): the hooks check its phase and rate, and the
// handler consumes its capability before it calls the upstream. What the
// upstream did is its own report: ward cannot verify it, so the outcome is
// recorded as reported, not verified.
//
// A Set owns its client sessions, their subprocesses and one goroutine
// that re-checks definitions on list-changed notifications; Close stops
// them all.
package upstream

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// Server is one upstream MCP server ([[upstream]] in ward.toml).
type Server struct {
	// Name is 1 to 32 lower-case letters and digits in words joined by
	// single underscores; it names the tools (mcp_<name>_<tool>) and keys
	// their approvals.
	Name string
	// Command is the argv of a server spoken to over stdio; URL the
	// endpoint of a streamable HTTP server. Exactly one is set.
	Command []string
	URL     string
	// Env is added to the command's environment, which otherwise holds
	// only HOME, LOGNAME, PATH, SHELL, TERM, USER, LANG and TMPDIR from
	// ward's (a sandboxed server's HOME and TMPDIR are its private
	// directory). Headers are sent with every HTTP request. In both, ${VAR}
	// is replaced by ward's environment variable VAR when connecting (so
	// secrets need not be written in ward.toml); an unset VAR is an
	// error.
	Env     map[string]string
	Headers map[string]string
	// Defaults override the classification of every tool of the server;
	// Tools override it per tool, by the upstream's name for the tool.
	Defaults Override
	Tools    map[string]Override
	// TrustAnnotations makes the server's MCP annotations the operator's
	// word: readOnlyHint may then make a tool a read and openWorldHint
	// false its output trusted and its calls not sending data out.
	// Without it annotations only make ward stricter (see Classify).
	TrustAnnotations bool
	// Sandbox is how a command server is confined (zero: in the
	// sandbox, strictest).
	Sandbox Confinement
}

// Override is an operator's classification of upstream tools. Zero fields
// leave the classification to the next level (per tool, per server,
// annotations).
type Override struct {
	Category   tool.Category // one of the 17
	Risk       tool.Risk
	Tier       tool.Tier // Read or Write
	ThirdParty *bool
	// Egress marks tools that send data out (messages, HTTP requests): a
	// tainted session is held to them like to writes.
	Egress *bool
	// SystemFields are the places in a tool's JSON output its service
	// produces (tool.Def.SystemFields): trusted although the rest of the
	// output is third-party. Per tool only.
	SystemFields []string
}

// Validate reports the first way s is not a usable server.
func (s *Server) Validate() error {
	switch {
	case !ValidServerName(s.Name):
		return fmt.Errorf("upstream %q: name must be 1 to 32 lower-case letters and digits, words joined by single underscores", s.Name)
	case len(s.Command) > 0 && s.URL != "":
		return fmt.Errorf("upstream %s: set command or url, not both", s.Name)
	case len(s.Command) == 0 && s.URL == "":
		return fmt.Errorf("upstream %s: set command (stdio) or url (streamable HTTP)", s.Name)
	case len(s.Command) > 0 && s.Command[0] == "":
		return fmt.Errorf("upstream %s: empty command", s.Name)
	case s.URL != "" && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://"):
		return fmt.Errorf("upstream %s: url must be http(s)", s.Name)
	case len(s.Headers) > 0 && s.URL == "":
		return fmt.Errorf("upstream %s: headers apply to a url only", s.Name)
	case len(s.Env) > 0 && len(s.Command) == 0:
		return fmt.Errorf("upstream %s: env applies to a command only", s.Name)
	}
	if err := s.Sandbox.validate(len(s.Command) > 0); err != nil {
		return fmt.Errorf("upstream %s: %w", s.Name, err)
	}
	if err := s.Defaults.validate(); err != nil {
		return fmt.Errorf("upstream %s: %w", s.Name, err)
	}
	if len(s.Defaults.SystemFields) > 0 {
		return fmt.Errorf("upstream %s: system fields are set per tool", s.Name)
	}
	for n, o := range s.Tools {
		if err := o.validate(); err != nil {
			return fmt.Errorf("upstream %s: tool %q: %w", s.Name, n, err)
		}
	}
	return nil
}

func (o Override) validate() error {
	switch {
	case o.Category != "" && !slices.Contains(tool.Categories(), o.Category):
		return fmt.Errorf("category %q is not one of the 17", o.Category)
	case o.Risk > tool.Forbidden:
		return fmt.Errorf("invalid risk %d", o.Risk)
	case o.Tier != tool.TierUnset && o.Tier != tool.Read && o.Tier != tool.Write:
		return errors.New("tier must be read or write")
	}
	for _, f := range o.SystemFields {
		if err := tool.ValidFieldPath(f); err != nil {
			return fmt.Errorf("system field %q: %w", f, err)
		}
	}
	return nil
}

// ValidServerName reports whether name can name an upstream server.
func ValidServerName(name string) bool {
	if len(name) == 0 || len(name) > 32 || name[0] == '_' || name[len(name)-1] == '_' || strings.Contains(name, "__") {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// Config configures Open.
type Config struct {
	Servers []Server
	// State holds the approved definition hashes and the changed
	// definitions waiting for approval; Actions receives the pinning
	// records. Both are required.
	State   store.Pins
	Actions store.ActionLog
	// ChainID and From fill upstream writes' plans (the chain and wallet
	// the hooks see).
	ChainID uint64
	From    tool.Address
	// Log receives warnings (tools not imported, definitions changed,
	// servers unreachable); nil discards them.
	Log *slog.Logger
	// ConnectTimeout bounds connecting to one server and listing its
	// tools (default 10 s).
	ConnectTimeout time.Duration
	// Dir is where each sandboxed command server gets its private,
	// writable directory (Dir/NAME: its HOME, TMPDIR and working
	// directory); "": a temporary directory per start, removed when the
	// server ends. The daemon sets DATA/upstream.
	Dir string
	// Now is the clock (default time.Now).
	Now func() time.Time
	// ApprovalPoll is how often the set reads the pins of its disabled
	// tools to serve a definition approved in another process (default
	// 2 s; see ServeApproved).
	ApprovalPoll time.Duration

	// onRefresh, if set, runs after each refresh the notification
	// goroutine makes (tests).
	onRefresh func()
}

// Status is what happened to one upstream tool. Reason says why a tool
// was not imported or is disabled, or, for an imported one, why its
// output schema is not used.
type Status struct {
	Server string    `json:"server"`
	Tool   string    `json:"tool"`           // the upstream's name
	Name   string    `json:"name,omitempty"` // ward's name, when it has one
	State  ToolState `json:"state"`
	Reason string    `json:"reason,omitempty"`
	Hash   string    `json:"hash,omitempty"`
}

// ToolState is what became of an upstream tool.
type ToolState string

// Tool states.
const (
	Imported ToolState = "imported" // registered and callable
	Changed  ToolState = "changed"  // its definition differs from the approved one: disabled
	Skipped  ToolState = "skipped"  // not importable (schema, name, collision)
	Removed  ToolState = "removed"  // the upstream no longer lists it: disabled
)

// Set is the connected upstream servers and their imported tools. It is
// safe for concurrent use.
type Set struct {
	cfg     Config
	log     *slog.Logger
	servers []*server
	tools   []registry.Tool

	mu     sync.Mutex // guards status
	status []Status
	// refreshMu serialises refreshes.
	refreshMu sync.Mutex

	// notify carries list-changed notifications to the watch goroutine,
	// which cancel stops and done reports stopped.
	notify chan struct{}
	cancel context.CancelFunc
	done   chan struct{}
	closed atomic.Bool
	// replace registers a tool in place of another (ServeApproved).
	replace atomic.Pointer[func(registry.Tool) error]
	// inflight is held shared by every upstream call, exclusively by
	// CloseIdle.
	inflight sync.RWMutex
}

// server is one connected upstream.
type server struct {
	cfg    Server
	cs     *mcp.ClientSession
	stderr *tail
	// tools are the imported tools by the upstream's name.
	tools map[string]*imported
	// dropped is set when ward no longer serves the server's tools
	// (Drop): refreshes leave it alone and Status leaves it out.
	dropped atomic.Bool
}

// imported is one registered upstream tool.
type imported struct {
	set      *Set
	srv      *server
	upstream string // the upstream's name for it
	def      *tool.Def
	hash     string
	disabled atomic.Bool
}

// Open connects to every server of cfg (concurrently, each within
// ConnectTimeout), lists and classifies their tools and checks their
// definitions against the approved ones. A server that cannot be reached
// contributes no tools (with a warning); so does a tool whose input
// schema ward cannot compile (Skipped, with the reason naming the place
// in the schema), whose name collides with another's, or whose definition
// changed since it was approved. A tool whose output schema ward cannot
// compile is imported without it (a warning, and the reason in its
// Status). Open fails only for an invalid cfg or a store that cannot
// record the pins; on error nothing stays open.
func Open(ctx context.Context, cfg Config) (*Set, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	set := &Set{cfg: cfg, log: cfg.Log, notify: make(chan struct{}, 1), done: make(chan struct{})}
	cands := set.candidates(set.connectAll(ctx))
	pending, err := set.importAll(ctx, cands)
	if err != nil {
		return nil, errors.Join(err, set.Close())
	}
	for _, srv := range set.servers {
		if err := writePending(ctx, cfg.State, srv.cfg.Name, pending[srv.cfg.Name]); err != nil {
			return nil, errors.Join(err, set.Close())
		}
	}
	sort.Slice(set.tools, func(i, j int) bool { return set.tools[i].Def.Name < set.tools[j].Def.Name })
	// The watch goroutine outlives Open's caller's cancellation: Close
	// stops it.
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	set.cancel = cancel
	go set.watch(wctx)
	return set, nil
}

// withDefaults checks cfg (the stores, each server, no name twice) and
// fills in the defaults of its zero fields.
func (cfg Config) withDefaults() (Config, error) {
	if cfg.State == nil || cfg.Actions == nil {
		return cfg, errors.New("upstream: state and action stores are required")
	}
	seen := map[string]bool{}
	for i := range cfg.Servers {
		s := &cfg.Servers[i]
		if err := s.Validate(); err != nil {
			return cfg, err
		}
		if seen[s.Name] {
			return cfg, fmt.Errorf("upstream %s: configured twice", s.Name)
		}
		seen[s.Name] = true
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ApprovalPoll <= 0 {
		cfg.ApprovalPoll = defaultApprovalPoll
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return cfg, nil
}

// listing is what connecting to one server gave: the session and its
// tools, or why it is not available.
type listing struct {
	srv   *server
	tools []*mcp.Tool
	err   error
}

// connectAll connects to every configured server concurrently (each
// listing bounded by ConnectTimeout) and returns the listings in the
// order of the configuration.
func (s *Set) connectAll(ctx context.Context) []listing {
	results := make([]listing, len(s.cfg.Servers))
	var wg sync.WaitGroup
	for i := range s.cfg.Servers {
		wg.Go(func() {
			srv, tools, err := s.connect(ctx, s.cfg.Servers[i])
			results[i] = listing{srv, tools, err}
		})
	}
	wg.Wait()
	return results
}

// candidates keeps the servers that answered and converts their tools
// into candidates; a tool that cannot be converted is Skipped, a server
// that did not answer and an override naming an unlisted tool are
// warnings.
func (s *Set) candidates(results []listing) []candidate {
	var cands []candidate
	for _, r := range results {
		if r.err != nil {
			s.log.Warn("upstream server not available: its tools are not imported", "error", r.err)
			continue
		}
		s.servers = append(s.servers, r.srv)
		for _, t := range r.tools {
			c, err := convert(r.srv.cfg, t)
			if err != nil {
				s.skip(r.srv.cfg.Name, t.Name, "", err.Error())
				continue
			}
			cands = append(cands, c)
		}
		for n := range r.srv.cfg.Tools {
			if !slices.ContainsFunc(r.tools, func(t *mcp.Tool) bool { return t.Name == n }) {
				s.log.Warn("upstream: an override names a tool the server does not list", "server", r.srv.cfg.Name, "tool", n)
			}
		}
	}
	return cands
}

// importAll pins each candidate and imports the ones whose definition is
// approved. Two upstream tools that sanitise to the same name are both
// left out: which one would win is not the operator's choice. It returns
// the definitions waiting for approval, by server and tool; an error
// means the pins could not be recorded.
func (s *Set) importAll(ctx context.Context, cands []candidate) (map[string]map[string]PendingDef, error) {
	count := map[string]int{}
	for _, c := range cands {
		count[c.def.Name]++
	}
	pending := map[string]map[string]PendingDef{}
	for _, c := range cands {
		if count[c.def.Name] > 1 {
			s.skip(c.srv.Name, c.upstream, c.def.Name, "its name collides with another upstream tool's after sanitising")
			continue
		}
		ok, err := s.pin(ctx, c, pending)
		if err != nil {
			return nil, err
		}
		if ok {
			s.importTool(c)
		}
	}
	return pending, nil
}

// importTool registers the approved candidate c and records it Imported.
func (s *Set) importTool(c candidate) {
	srv := s.serverNamed(c.srv.Name)
	im := &imported{set: s, srv: srv, upstream: c.upstream, def: c.def, hash: c.hash}
	srv.tools[c.upstream] = im
	s.tools = append(s.tools, im.registryTool(s))
	if c.noOutput != "" {
		s.log.Warn("upstream tool imported without output validation", "server", c.srv.Name, "tool", c.upstream, "reason", c.noOutput)
	}
	s.setStatus(Status{Server: c.srv.Name, Tool: c.upstream, Name: c.def.Name, State: Imported, Hash: c.hash, Reason: c.noOutput})
}

func (s *Set) serverNamed(name string) *server {
	for _, srv := range s.servers {
		if srv.cfg.Name == name {
			return srv
		}
	}
	return nil
}

// Servers returns the names of the servers Open connected to, in the
// order of the configuration.
func (s *Set) Servers() []string {
	var out []string
	for _, c := range s.cfg.Servers {
		if s.serverNamed(c.Name) != nil {
			out = append(out, c.Name)
		}
	}
	return out
}

// Drop tells the set that ward no longer serves the tools of the server
// called name (a reload removed or changed it): refreshes and approvals
// leave them alone from then on, so that none is registered again in
// place of another server's tool of the same name. Calls already made
// are not affected; CloseIdle ends the connection.
func (s *Set) Drop(name string) {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	if srv := s.serverNamed(name); srv != nil {
		srv.dropped.Store(true)
	}
}

// CloseIdle waits for the upstream calls in flight to end (each is
// bounded by its call's deadline), then closes the set (Close); a call
// that starts after it fails with ErrClosed.
func (s *Set) CloseIdle() error {
	s.inflight.Lock()
	defer s.inflight.Unlock()
	return s.Close()
}

// Tools returns the imported tools, sorted by name, to register.
func (s *Set) Tools() []registry.Tool { return slices.Clone(s.tools) }

// Status returns what happened to each upstream tool, sorted by server
// and tool; the tools of a dropped server are left out.
func (s *Set) Status() []Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.DeleteFunc(slices.Clone(s.status), func(st Status) bool {
		srv := s.serverNamed(st.Server)
		return srv != nil && srv.dropped.Load()
	})
	sort.Slice(out, func(i, j int) bool {
		if out[i].Server != out[j].Server {
			return out[i].Server < out[j].Server
		}
		return out[i].Tool < out[j].Tool
	})
	return out
}

func (s *Set) setStatus(st Status) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.status {
		if s.status[i].Server == st.Server && s.status[i].Tool == st.Tool {
			s.status[i] = st
			return
		}
	}
	s.status = append(s.status, st)
}

func (s *Set) skip(server, upstreamName, name, why string) {
	s.log.Warn("upstream tool not imported", "server", server, "tool", upstreamName, "reason", why)
	s.setStatus(Status{Server: server, Tool: upstreamName, Name: name, State: Skipped, Reason: why})
}

// Close stops the notification goroutine and closes every session (which
// ends the servers' subprocesses). It is idempotent.
func (s *Set) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	if s.cancel != nil {
		s.cancel()
		<-s.done
	}
	var errs []error
	for _, srv := range s.servers {
		err := srv.cs.Close()
		var exit *exec.ExitError
		switch {
		case err == nil, errors.Is(err, context.Canceled):
		case errors.As(err, &exit):
			// How a server's process ended (a terminal's Ctrl-C reaches
			// it too) is not a failure of ward's shutdown.
			s.log.Info("upstream server exited", "server", srv.cfg.Name, "status", exit.String())
		default:
			errs = append(errs, fmt.Errorf("upstream %s: close: %w", srv.cfg.Name, err))
		}
	}
	return errors.Join(errs...)
}
