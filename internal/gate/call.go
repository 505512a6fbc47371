package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/wardhq/ward/internal/addrbook"
	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/crashpoint"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/telemetry"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/trust"
	"github.com/wardhq/ward/internal/vault"
)

// Tools is the path from an agent's tool call to its effect. Reading its
// methods top to bottom is reading the order of the stages:
//
//	Read:    resolve (profile) → schema → policy + audit → handler within
//	         its tick budget → result filter → events
//	Preview: halt → resolve → schema → policy + audit → plan → hook chain
//	         (phase, allowlist, spending, rate, simulation, hallucination,
//	         result filter) → permit (durable) → events
//	Commit:  halt → permit row pending → phase gate as a commit →
//	         spending and rate re-check, the spend recorded → consumed in
//	         one conditional update (same tool, arguments, policy hash and
//	         phase; unexpired; past its announce delay) → mint the
//	         capability → handler within its tick budget → outcome record
//	         → result filter → events
//
// Which hooks run where, in which order, is declared once, in hooks.go
// (hookChains).
//
// Any veto mints nothing. Tools is safe for concurrent use.
type Tools struct {
	decider  *Gate
	engine   *policy.Engine
	reg      *registry.Registry
	set      *hook.Set
	hooks    hookChains
	permits  store.Permits
	control  store.Control
	held     store.HeldCalls
	actions  store.ActionLog
	bus      *event.Bus
	approver Approver
	cfg      ToolsConfig

	// commitMu serialises commits in this process (the wallet sends one
	// nonce sequence at a time anyway). Across processes the permit row is
	// what makes a permit single-use.
	commitMu sync.Mutex

	// queue is the quarantine queue's memory (quarantine.go).
	queue quarantineQueue

	// book is the owner's address book: values with trusted provenance in
	// every session (trust.go).
	book *trust.Ledger

	// sessions caches the sessions of the store (session.go).
	sessions *sessionTable

	// allow caches the owner's allowlist entries (allowlist.go).
	allow allowCache

	// auditFailures counts audit records that could not be written where
	// the call went on regardless (reads with [audit] reads_best_effort, a
	// trusted output's observation, a veto's record).
	auditFailures atomic.Uint64

	// tracer starts each call's span (trace.go).
	tracer trace.Tracer
}

// Approver verifies an owner's approval of a privileged call: a signature
// over the permit id, the tool and the arguments hash.
type Approver interface {
	VerifyApproval(permitID, toolName string, argsHash [32]byte, sig []byte) (owner string, err error)
}

// ToolsConfig configures Tools.
type ToolsConfig struct {
	Decider  *Gate
	Engine   *policy.Engine
	Registry *registry.Registry
	// Hooks are the safety hooks; the call path runs them in the order
	// hooks.go declares (hookChains).
	Hooks   *hook.Set
	Permits store.Permits
	// Control holds the phase and the halt; Held the quarantine queue.
	Control store.Control
	Held    store.HeldCalls
	Actions store.ActionLog
	Bus     *event.Bus
	// Approver verifies owner approvals; nil makes privileged tools
	// impossible to commit.
	Approver Approver
	// PermitTTL is how long a permit stays committable (default 3 min:
	// seed 002's "re-preview after 3 minutes").
	PermitTTL time.Duration
	// PermitTicks is the permit's expiry in ticks (default 6).
	PermitTicks uint64
	// AnnounceDelay is how long an Elevated or riskier permit waits before
	// it can be committed (default 30 s; negative: none).
	AnnounceDelay time.Duration
	// TickPeriod is the length of one tick (default 30 s); ticks count from
	// Epoch.
	TickPeriod time.Duration
	Epoch      time.Time
	// ChainID is the chain writes go to when the call does not say.
	ChainID uint64
	// QuarantineTTL is how long a quarantined call waits for the owner's
	// review (default DefaultQuarantineTTL, 24 h).
	QuarantineTTL time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time

	// TrustLog receives taint assignments, access denials, review
	// verdicts and promotions; nil keeps no trust log.
	TrustLog store.TrustLog
	// Checkers are the reviewers and judges sessions may name (the
	// built-in RulesReviewer and RulesJudge are added when absent).
	Checkers map[string]trust.Checker
	// DefaultReviewers and DefaultJudge review a session that becomes
	// tainted without having named its own (default RulesReviewer and
	// RulesJudge).
	DefaultReviewers []string
	DefaultJudge     string
	// Vault and Withheld seal and store the outputs an isolated
	// orchestrator delegates (delegate.go); nil disables delegation.
	Vault    *vault.Vault
	Withheld store.Withheld
	// Knowledge is the Grimoire's dual memory: it answers query_grimoire,
	// gives the lessons that apply to a write about to be previewed, and
	// the external entries that influence a write the session commits (the
	// commit's record carries them). nil leaves query_grimoire refusing and
	// consults and tags nothing.
	Knowledge Knowledge
	// AddressBook holds the owner's known counterparties (addresses,
	// account numbers, names): values with trusted provenance everywhere.
	AddressBook []string
	// AddressNames are the owner's names for some of those counterparties
	// (name → value), shown on held calls and permits; display data only.
	AddressNames map[string]string
	// Book is the chains' address book (tokens, symbols, decimals,
	// protocol contracts), which names what a held call's description
	// shows; nil names nothing.
	Book *addrbook.Book

	// Sessions stores sessions, their trust state and their ledgers
	// (session.go); nil keeps sessions in memory only (tests).
	Sessions store.Sessions
	// Principals, when set, lets Recheck refuse a session whose
	// principal's token was revoked or expired (nil: not checked, tests).
	Principals store.Principals
	// SessionLimits bound each principal's sessions (zero fields:
	// store.DefaultSessionLimits).
	SessionLimits store.SessionLimits
	// LedgerBytes bounds the observations stored per session (default
	// DefaultLedgerBytes).
	LedgerBytes int
	// View is the tools of a session the gate loads itself (to run an
	// approved call as its session after a restart).
	View func() (*registry.View, error)
	// Log receives what went wrong where the caller cannot be told (a
	// failed audit write the call survives); default: discarded.
	Log *slog.Logger
	// Tracer makes a span of every call and its stages (see package
	// telemetry for what they carry); nil: the no-op provider.
	Tracer trace.TracerProvider
}

// Knowledge is the Grimoire as the gate uses it (seed 001 §6.2's dual
// memory); *ingest.Pipeline implements it.
type Knowledge interface {
	// QueryFor answers session's query_grimoire: JSON of the closest
	// entries, and whether any is not the agent's own knowledge.
	QueryFor(ctx context.Context, session, query string, limit int) (out json.RawMessage, external bool, err error)
	// ConsultLessons returns the lessons that apply to session's action
	// toolName described by text (canonical arguments and plan summary).
	ConsultLessons(ctx context.Context, session, toolName, text string, now time.Time) []adopt.Advice
	// Influences returns the external entries that influence session's
	// decision at now.
	Influences(session string, now time.Time) []adopt.Influence
}

// NewTools validates cfg and returns the tool gate.
func NewTools(cfg ToolsConfig) (*Tools, error) {
	if err := cfg.missing(); err != nil {
		return nil, err
	}
	hooks, err := chainsOf(cfg.Hooks)
	if err != nil {
		return nil, fmt.Errorf("gate: %w", err)
	}
	if cfg, err = cfg.withDefaults(); err != nil {
		return nil, err
	}
	t := &Tools{book: addressBook(cfg.AddressBook),
		decider: cfg.Decider, engine: cfg.Engine, reg: cfg.Registry, set: cfg.Hooks, hooks: hooks,
		permits: cfg.Permits, control: cfg.Control, held: cfg.Held, actions: cfg.Actions, bus: cfg.Bus,
		approver: cfg.Approver, cfg: cfg, queue: newQuarantineQueue(),
		sessions: newSessionTable(cacheBudget(cfg)), tracer: cfg.Tracer.Tracer(telemetry.Instrumentation),
	}
	// The owner's stored override of the spending limits wins over the
	// configured ones until cleared; the limiter reads it at every check.
	cfg.Hooks.Spending.SetOverride(t.SpendingOverride)
	if cfg.Hooks.Allowlist != nil {
		cfg.Hooks.Allowlist.SetOverride(t.AllowlistOverride)
	}
	return t, nil
}

// missing reports the first part the gate cannot work without.
func (cfg ToolsConfig) missing() error {
	switch {
	case cfg.Decider == nil || cfg.Engine == nil:
		return errors.New("gate: tools need the policy gate and engine")
	case cfg.Registry == nil:
		return errors.New("gate: tools need a registry")
	case cfg.Permits == nil || cfg.Control == nil || cfg.Held == nil || cfg.Actions == nil:
		return errors.New("gate: tools need permit, control, held-call and action stores")
	case cfg.Bus == nil:
		return errors.New("gate: tools need an event bus")
	case cfg.Hooks == nil:
		return errors.New("gate: tools need the safety hooks")
	}
	return nil
}

// withDefaults returns cfg with every unset knob at its default and the
// rule-based reviewer and judge among its checkers; it fails when a
// default reviewer or judge names no checker.
func (cfg ToolsConfig) withDefaults() (ToolsConfig, error) {
	if cfg.PermitTTL == 0 {
		cfg.PermitTTL = 3 * time.Minute
	}
	if cfg.PermitTicks == 0 {
		cfg.PermitTicks = 6
	}
	if cfg.AnnounceDelay == 0 {
		cfg.AnnounceDelay = 30 * time.Second
	}
	if cfg.AnnounceDelay < 0 {
		cfg.AnnounceDelay = 0
	}
	if cfg.TickPeriod <= 0 {
		cfg.TickPeriod = 30 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Epoch.IsZero() {
		cfg.Epoch = cfg.Now()
	}
	checkers := map[string]trust.Checker{RulesReviewer: trust.RulesReviewer(), RulesJudge: trust.RulesJudge()}
	for name, c := range cfg.Checkers {
		checkers[name] = c
	}
	cfg.Checkers = checkers
	if cfg.DefaultReviewers == nil {
		cfg.DefaultReviewers = []string{RulesReviewer}
	}
	if cfg.DefaultJudge == "" {
		cfg.DefaultJudge = RulesJudge
	}
	for _, r := range append(slices.Clone(cfg.DefaultReviewers), cfg.DefaultJudge) {
		if _, ok := checkers[r]; !ok {
			return cfg, fmt.Errorf("gate: no reviewer or judge is named %q", r)
		}
	}
	cfg.SessionLimits = cfg.SessionLimits.WithDefaults()
	if cfg.LedgerBytes <= 0 {
		cfg.LedgerBytes = DefaultLedgerBytes
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Tracer == nil {
		cfg.Tracer = noop.NewTracerProvider()
	}
	return cfg, nil
}

// addressBook is the ledger of the owner's known counterparties, or nil
// when there are none.
func addressBook(entries []string) *trust.Ledger {
	if len(entries) == 0 {
		return nil
	}
	book := trust.NewLedger(0)
	for _, v := range entries {
		book.Observe(trust.Source{Kind: trust.AddressBook, Ref: "address_book"}, v)
	}
	return book
}

// cacheBudget is the bytes the cached sessions' ledgers may hold
// together (store.SessionLimits.CacheBytes), or zero (no bound) for a gate
// without a session store: its cache is the sessions' only copy.
func cacheBudget(cfg ToolsConfig) int64 {
	if cfg.Sessions == nil {
		return 0
	}
	return cfg.SessionLimits.CacheBytes
}

// auditFailed counts and logs an audit record that could not be written
// where what it records went on (see Tools.auditFailures).
func (t *Tools) auditFailed(what string, err error) {
	t.auditFailures.Add(1)
	t.cfg.Log.Error("gate: audit record not written", "record", what, "err", err)
}

// AuditFailures returns how many audit records could not be written where
// the call went on regardless.
func (t *Tools) AuditFailures() uint64 { return t.auditFailures.Load() }

// Session is who is calling: its identity, the principal that holds it
// and the name it goes by (session.go), the input source the policy sees,
// and the tools its profile allows. A Session the gate opened
// (OpenSession, CreateSession, ...) persists its trust state; one a caller
// makes itself keeps it in memory only.
type Session struct {
	ID        string
	TurnID    string
	Principal string
	Name      string
	Source    policy.InputSource
	View      *registry.View
	// Trust is the session's taint state (trust.go); nil starts a clean
	// session the first time the gate sees it.
	Trust     *SessionTrust
	trustOnce sync.Once
}

// Refusal is a call the gate refused: a stable code and a message safe to
// show the agent. Detail is for operators and the audit trail only.
type Refusal struct {
	Code    reason.Code
	Message string
	Stage   string // "profile", "schema", "policy", a hook's name, "permit", ...
	Detail  string
	// Quarantine is the id of the quarantine item a policy quarantine
	// queued the call as (see quarantine.go); empty otherwise.
	Quarantine string
}

func (r *Refusal) Error() string { return string(r.Code) + ": " + r.Message }

// ReasonCode returns the refusal's code (for a handler that passes a
// refusal on without importing gate).
func (r *Refusal) ReasonCode() string { return string(r.Code) }

func refuse(code reason.Code, stage, msg, detail string) *Refusal {
	return &Refusal{Code: code, Stage: stage, Message: msg, Detail: detail}
}

// Now is the gate's clock (ToolsConfig.Now).
func (t *Tools) Now() time.Time { return t.cfg.Now() }

// Tick returns the tick of now.
func (t *Tools) Tick(now time.Time) uint64 {
	if now.Before(t.cfg.Epoch) {
		return 0
	}
	return uint64(now.Sub(t.cfg.Epoch) / t.cfg.TickPeriod)
}

// resolve finds name in the session's view and validates raw against its
// schema. Tools outside the profile do not exist for the session.
func (t *Tools) resolve(ctx context.Context, s *Session, name string, raw json.RawMessage) (*registry.Entry, *tool.Args, error) {
	e, ok := s.View.Get(name)
	if !ok {
		return nil, nil, refuse(reason.ToolUnavailable, "profile", "no tool "+quote(name)+" is available in this session", "")
	}
	// The name is tagged once it is a tool's: the agent's own string is not.
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(telemetry.Tool.String(e.Def.Name), telemetry.RiskTier.String(e.Def.RiskTier.String()))
	}
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	args, err := tool.ParseArgs(raw)
	if err != nil {
		return nil, nil, refuse(reason.BadInput, "schema", "the arguments are not a valid JSON object", err.Error())
	}
	if err := e.Validate(raw); err != nil {
		return nil, nil, refuse(reason.SchemaInvalid, "schema", "the arguments do not match the tool's schema: "+err.Error(), "")
	}
	if c, ok := args.Get("chain_id"); ok {
		if n, err := c.Int(); err == nil && !e.Def.SupportsChain(uint64(n)) {
			return nil, nil, refuse(reason.ChainNotSupported, "profile", fmt.Sprintf("%s does not support chain %d", e.Def.Name, n), "")
		}
	}
	return e, args, nil
}

// decide runs the policy and the audit of one call. Only an allow passes,
// and a quarantine the owner lifted for this call by approving it
// (o.approved, given only by runHeld); any other quarantine is queued for
// the owner's review, with the facade the call came through (o.Facade).
// With deferred, the audit record is made durable by the caller's next
// durable write (a preview's permit or veto record, or the queued item).
//
// plan is the previewed write's plan, which the value rules read (nil for
// a call that has none).
func (t *Tools) decide(ctx context.Context, s *Session, e *registry.Entry, raw json.RawMessage, plan *tool.Plan, deferred bool, o callOpts) (*Admission, error) {
	ct, err := t.admitTrust(ctx, s, e, raw)
	if err != nil {
		return nil, err
	}
	a := t.decider.Decide(ctx, Call{
		Tool: e.Def.Ref(), Args: raw, Deferred: deferred, Read: e.Def.Tier == tool.Read,
		Turn:  policy.Turn{ID: s.TurnID, SessionID: s.ID, Source: s.Source},
		Trust: ct.view, Plan: plan,
	})
	d := &a.Decision
	if span := trace.SpanFromContext(ctx); span.IsRecording() && d.Rule() != "" {
		span.SetAttributes(telemetry.Rule.String(d.Rule()))
	}
	switch d.Action() {
	case policy.Allow:
		if a.AuditErr != nil {
			t.auditFailed("read decision", a.AuditErr) // [audit] reads_best_effort
		}
		return a, nil
	case policy.Quarantine:
		if o.approved.lifts(a) {
			return a, nil
		}
		verdicts, approved := t.trustReview(ctx, s, e, raw, ct, d)
		if approved {
			a.Judged = verdicts
			return a, nil
		}
		return a, t.hold(ctx, s, e, raw, a, verdicts, plan, ct.view, o.Facade)
	default:
		return a, refuse(d.Code(), "policy", d.Message(), d.Diagnostic())
	}
}

// input is the handler's input of a call with options opts: the calls
// the handler makes through its session carry the same options, and its
// progress steps go to opts.Progress as well as to the tool:update events.
func (t *Tools) input(s *Session, e *registry.Entry, args *tool.Args, raw json.RawMessage, now time.Time, opts CallOptions) *registry.Input {
	d := e.Def
	ph := args.HashHex()
	return &registry.Input{
		Args: args, Raw: raw, SessionID: s.ID, Tick: t.Tick(now), Now: now, Session: handlerCalls{t: t, s: s, opts: opts},
		Step: func(i int) {
			step := ""
			if i >= 0 && i < len(d.ProgressSteps) {
				step = d.ProgressSteps[i]
			}
			t.bus.Publish(event.Event{Kind: event.ToolUpdate, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name,
				ParamsHash: ph, Step: step, StepIndex: i, TotalSteps: len(d.ProgressSteps)})
			if opts.Progress != nil {
				opts.Progress(d.Name, step, i, len(d.ProgressSteps))
			}
		},
	}
}

// Read runs a read tool with the options WithFacade and WithProgress put
// in ctx (OptionsFromContext): ReadWith for a caller that predates
// CallOptions.
func (t *Tools) Read(ctx context.Context, s *Session, name string, raw json.RawMessage) (*tool.Result, error) {
	return t.ReadWith(ctx, s, name, raw, OptionsFromContext(ctx))
}

// ReadWith runs a read tool; opts says which facade the call came through
// and who listens for its progress.
func (t *Tools) ReadWith(ctx context.Context, s *Session, name string, raw json.RawMessage, opts CallOptions) (*tool.Result, error) {
	return t.read(ctx, s, name, raw, callOpts{CallOptions: opts})
}

// read is ReadWith with the per-call values as its stages pass them.
func (t *Tools) read(ctx context.Context, s *Session, name string, raw json.RawMessage, o callOpts) (_ *tool.Result, err error) {
	ctx, span := t.startCall(ctx, "ward.read", s)
	defer func() { endCall(span, err) }()
	e, args, err := t.resolve(ctx, s, name, raw)
	if err != nil {
		return nil, err
	}
	if e.Def.Tier != tool.Read {
		return nil, refuse(reason.ToolUnavailable, "profile", name+" changes state: use preview_action and commit_action", "")
	}
	a, err := t.decide(ctx, s, e, raw, nil, false, o)
	if err != nil {
		return nil, err
	}
	now := t.cfg.Now()
	in := t.input(s, e, args, raw, now, o.CallOptions)
	res, err := t.run(ctx, s, e, in, func(ctx context.Context) (*tool.Result, error) { return e.Read(ctx, in) })
	if err == nil {
		if oerr := t.observe(ctx, s, e.Def, raw, res); oerr != nil {
			res, err = nil, oerr
		}
	}
	// Only calls that stateful rules count (rate limits) need their
	// execution recorded; other reads leave no trace beyond the decision.
	if a.Decision.Stateful() {
		if derr := t.decider.Done(ctx, a, Outcome{Executed: err == nil}); derr != nil {
			t.auditFailed("read execution", derr)
		}
	}
	return res, err
}

// run executes a handler within the tool's tick budget, with its events,
// and filters the result.
func (t *Tools) run(ctx context.Context, s *Session, e *registry.Entry, in *registry.Input, h func(context.Context) (*tool.Result, error)) (*tool.Result, error) {
	d := e.Def
	ph := in.Args.HashHex()
	start := t.cfg.Now()
	t.bus.Publish(event.Event{Kind: event.ToolStart, Time: start, SessionID: s.ID, Tool: d.Name, ParamsHash: ph})
	ctx, cancel := context.WithTimeout(ctx, d.Budget.Duration())
	defer cancel()
	ctx, span := telemetry.Start(ctx, "ward.execute")
	defer span.End()
	res, err := h(ctx)
	if err == nil && res == nil {
		err = errors.New("handler returned no result")
	}
	if err != nil {
		code, msg := reason.ExecutionFailed, d.Name+" failed"
		var down chainDown
		var coded reasoned
		isCoded := d.Effect == tool.EffectNone && errors.As(err, &coded) && reason.Known(coded.Reason())
		switch {
		case isCoded:
			// A read that refused for a reason of the catalogue (a stream_
			// tool's subscription limit): its fixed text is the message.
			code, msg = coded.Reason(), coded.Error()
		case d.Effect == tool.EffectNone && errors.As(err, &down):
			// Only a read: a write's error may name a transaction that
			// was sent before the chain stopped answering, and the agent
			// must see it.
			code, msg = reason.ChainUnavailable, down.ChainDown()
		case errors.Is(err, tool.ErrInFlight):
			// The cause names the other transaction and its permit, which
			// may be another principal's: the agent is told only what to do.
			code, msg = reason.TxInFlight, "nothing was sent: an earlier transaction of the wallet is not yet known to be mined or dropped (ward settles it with the chain); this permit is used up: preview again once it settles"
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			code, msg = reason.BudgetExceeded, fmt.Sprintf("%s did not finish within its %s tick budget (%v)", d.Name, d.Budget, d.Budget.Duration())
		}
		t.bus.Publish(event.Event{Kind: event.ToolError, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name, ParamsHash: ph, Code: string(code), Message: msg})
		span.SetStatus(codes.Error, string(code))
		var rf *Refusal
		if errors.As(err, &rf) {
			return nil, err
		}
		if code == reason.TxInFlight || code == reason.ChainUnavailable || isCoded {
			return nil, &Refusal{Code: code, Stage: "handler", Message: msg, Detail: err.Error()}
		}
		return nil, &Refusal{Code: code, Stage: "handler", Message: msg + ": " + agentSafe(err), Detail: err.Error()}
	}
	if res.SchemaVersion == 0 {
		res.SchemaVersion = d.SchemaVersion
	}
	res, rep := t.set.Filter.Filter(res)
	t.bus.Publish(event.Event{Kind: event.ToolEnd, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name, ParamsHash: ph,
		Success: !res.IsError, DurationMS: t.cfg.Now().Sub(start).Milliseconds(), Payload: event.ResultFilter{Report: rep.String()}})
	return res, nil
}

// reasoned is a read handler's error that refuses with a code of the
// reason catalogue and a fixed message written for the agent
// (stream.Error).
type reasoned interface {
	error
	Reason() reason.Code
}

// chainDown is an error saying every endpoint of a chain failed recently
// (chain.DownError); ChainDown names the chain and when it is tried
// again, without the endpoints' addresses.
type chainDown interface{ ChainDown() string }

// chainRefusal is CHAIN_UNAVAILABLE when err says a chain is down, nil
// otherwise.
func chainRefusal(stage string, err error) *Refusal {
	var cd chainDown
	if !errors.As(err, &cd) {
		return nil
	}
	return refuse(reason.ChainUnavailable, stage, cd.ChainDown(), err.Error())
}

// agentSafe returns an error's text for the agent: handler errors come
// from ward's own code (chain errors, revert reasons already bounded by the
// chain layer), cut to a bounded length.
func agentSafe(err error) string {
	s := err.Error()
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// Phase returns the PolicyCage phase (thriving until set).
func (t *Tools) Phase(ctx context.Context) (hook.Phase, error) {
	c, err := t.control.GateControl(ctx)
	if err != nil {
		return 0, fmt.Errorf("gate: read phase: %w", err)
	}
	return hook.ParsePhase(c.Phase)
}

// SetPhase changes the PolicyCage phase (an owner operation). Pending
// permits previewed in another phase can no longer be committed. The
// change and its record are one transaction: unrecorded, it does not
// happen.
func (t *Tools) SetPhase(ctx context.Context, p hook.Phase, by string) error {
	if !p.Valid() {
		return fmt.Errorf("gate: set phase: invalid phase %d", p)
	}
	now := t.cfg.Now()
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionPhaseChanged, Detail: jsonOf(map[string]string{"phase": p.String(), "by": by})}
	if err := t.control.SetPhase(ctx, p.String(), by, now, rec); err != nil {
		return fmt.Errorf("gate: set phase: %w", err)
	}
	t.bus.Publish(event.Event{Kind: event.GatePhase, Time: now, Message: p.String(), Payload: event.PhaseChange{By: by}})
	return nil
}

// haltRefusal is the refusal of a write while writes are halted, nil
// when they are not. A halt that cannot be read refuses. A halt does not
// stop a privileged tool marked Unhalted (the revocation of a session
// key: it only takes power away) that the session resolves by the name
// toolName returns, which is asked only while halted; every later check
// (the owner's approval among them) still applies to it.
func (t *Tools) haltRefusal(ctx context.Context, s *Session, toolName func() string) *Refusal {
	halted, why, err := t.Halted(ctx)
	if err == nil && !halted {
		return nil
	}
	if err == nil {
		if e, ok := s.View.Get(toolName()); ok && e.Def.Tier == tool.Privileged && e.Def.Unhalted {
			return nil
		}
	}
	return refuse(reason.Halted, "halt", "writes are halted: "+why, errString(err))
}

// Halted reports whether writes are halted, and why. A halt that cannot
// be read counts as a halt.
func (t *Tools) Halted(ctx context.Context) (bool, string, error) {
	c, err := t.control.GateControl(ctx)
	if err != nil {
		return true, "", fmt.Errorf("gate: read halt state: %w", err)
	}
	return c.Halted, c.HaltReason, nil
}

// Halt stops every write until the owner lifts it. Anyone with a session
// may halt; pending permits stay pending but cannot be committed. The halt
// and its record are one transaction.
func (t *Tools) Halt(ctx context.Context, s *Session, why string) error {
	if why == "" {
		why = "emergency halt"
	}
	if len(why) > 200 {
		why = why[:200]
	}
	now := t.cfg.Now()
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionHalt, PrincipalID: s.Principal, SessionID: s.ID,
		Detail: jsonOf(map[string]string{"reason": why})}
	if err := t.control.SetHalt(ctx, true, why, s.ID, now, rec); err != nil {
		return fmt.Errorf("gate: halt: %w", err)
	}
	t.bus.Publish(event.Event{Kind: event.GateHalted, Time: now, SessionID: s.ID, Message: why})
	return nil
}

// Resume lifts the emergency halt (an owner operation: the caller checks
// the role). Unrecorded, it does not happen.
func (t *Tools) Resume(ctx context.Context, by string) error {
	now := t.cfg.Now()
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionHaltLifted, Detail: jsonOf(map[string]string{"by": by})}
	if err := t.control.SetHalt(ctx, false, "", by, now, rec); err != nil {
		return fmt.Errorf("gate: resume: %w", err)
	}
	t.bus.Publish(event.Event{Kind: event.GateResumed, Time: now, Message: by})
	return nil
}

// record appends an action record; the audit trail must have it before the
// caller goes on, so a failure is returned by the callers that need it.
func (t *Tools) record(ctx context.Context, r *store.ActionRecord) error {
	if r.ID == "" {
		r.ID = id.New(t.cfg.Now())
	}
	if r.Time.IsZero() {
		r.Time = t.cfg.Now()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return t.actions.AppendAction(ctx, r)
}

// recordBoth appends two action records concurrently, so one group
// commit makes both durable.
func (t *Tools) recordBoth(ctx context.Context, a, b *store.ActionRecord) error {
	errA := make(chan error, 1)
	go func() { errA <- t.record(ctx, a) }()
	errB := t.record(ctx, b)
	return errors.Join(<-errA, errB)
}

func jsonOf(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func hashHex(h [32]byte) string { return hex.EncodeToString(h[:]) }

// permitRisk classifies an action (seed 002's adapter risk tiers):
// privileged tools are critical; Layer3 tools high; LP changes elevated;
// swaps above $50,000 and lending, staking and vault moves above $100,000
// elevated; everything else standard.
func permitRisk(d *tool.Def, p *tool.Plan) tool.PermitRisk {
	switch {
	case d.Tier == tool.Privileged:
		return tool.Critical
	case d.RiskTier == tool.Layer3:
		return tool.High
	case d.Category == tool.CatLP:
		return tool.Elevated
	case d.Category == tool.CatTrading && p.ValueCents > 5_000_000:
		return tool.Elevated
	case (d.Category == tool.CatLending || d.Category == tool.CatStaking || d.Category == tool.CatVault) && p.ValueCents > 10_000_000:
		return tool.Elevated
	}
	return tool.Standard
}

// PermitView is what preview_action returns: the permit and what the
// action would do.
type PermitView struct {
	PermitID   string          `json:"permit_id"`
	Tool       string          `json:"tool"`
	Status     string          `json:"status"`
	ExpiresAt  time.Time       `json:"expires_at"`
	ExpiryTick uint64          `json:"expiry_tick"`
	NotBefore  time.Time       `json:"not_before,omitzero"`
	RiskTier   tool.PermitRisk `json:"risk_tier"`
	ValueCents int64           `json:"value_cents"`
	Summary    string          `json:"summary"`
	Simulation *hook.SimResult `json:"simulation,omitempty"`
	GasTotal   uint64          `json:"gas_estimate"`
	Plan       *tool.Plan      `json:"plan"`
	ArgsHash   string          `json:"args_hash"`
	PolicyHash string          `json:"policy_hash"`
	Phase      string          `json:"phase"`
	Hooks      []string        `json:"hooks_passed"`
	// Review holds the verdicts when the session's judge approved a call
	// the trust model had held (the call then needs no owner review).
	Review []trust.Verdict `json:"review,omitempty"`
	// Lessons are the lessons learnt from earlier failures (rejected or
	// rolled-back knowledge, sandbox breaches) that apply to this action:
	// read them before committing.
	Lessons []adopt.Advice `json:"lessons,omitempty"`
}

// Preview is PreviewWith with the options WithFacade and WithProgress put
// in ctx (OptionsFromContext), for a caller that predates CallOptions.
func (t *Tools) Preview(ctx context.Context, s *Session, name string, raw json.RawMessage) (*PermitView, error) {
	return t.PreviewWith(ctx, s, name, raw, OptionsFromContext(ctx))
}

// PreviewWith checks a write and returns a permit for it. Nothing changes
// on chain. opts says which facade the call came through and who listens
// for the planner's progress.
func (t *Tools) PreviewWith(ctx context.Context, s *Session, name string, raw json.RawMessage, opts CallOptions) (*PermitView, error) {
	return t.preview(ctx, s, name, raw, callOpts{CallOptions: opts})
}

// preview is PreviewWith with the per-call values as its stages pass them.
func (t *Tools) preview(ctx context.Context, s *Session, name string, raw json.RawMessage, o callOpts) (_ *PermitView, err error) {
	ctx, span := t.startCall(ctx, "ward.preview", s)
	defer func() { endCall(span, err) }()
	// 1. A halt stops writes before anything else runs, except a tool
	// that only takes power away.
	if r := t.writeRefusal(ctx, s, name); r != nil {
		return nil, t.vetoed(ctx, s, name, "", r)
	}
	// 2. The tool must be a write in the session's profile; arguments
	// must match its schema.
	e, args, err := t.resolve(ctx, s, name, raw)
	if err != nil {
		return nil, err
	}
	d := e.Def
	if d.Tier == tool.Read {
		return nil, refuse(reason.NotPreviewable, "profile", name+" only reads: call it through query_state or search_context", "")
	}
	// 3. Build the plan without side effects. It comes before the policy
	// because the policy's value rules read it (what the write is worth,
	// whom it pays, what allowance it grants); building it only reads the
	// chain. A plan that cannot be built is refused after the policy has
	// had its say, so that a call the policy denies or holds is answered
	// as before, whatever its plan.
	now := t.cfg.Now()
	in := t.input(s, e, args, raw, now, o.CallOptions)
	plan, planErr := planOf(ctx, e, in)
	// 4. Policy and audit. The decision's record becomes durable with the
	// permit (or the veto) written below, before anything can act on it.
	a, err := t.decide(ctx, s, e, raw, plan, true, o)
	if err != nil {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), err.(*Refusal))
	}
	// The preview executes nothing; the commit records the execution.
	_ = t.decider.Done(ctx, a, Outcome{Executed: false}) // releases the hold; nothing is written
	if planErr != nil {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), planRefusal(planErr))
	}
	phase, err := t.Phase(ctx)
	if err != nil {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), refuse(reason.HookError, "phase", "the gate cannot read its phase, so the action is refused", err.Error()))
	}
	// 5. The hook chain; any veto wins and no permit is made.
	hc := &hook.Call{Def: d, Args: args, Plan: plan, Phase: phase, SessionID: s.ID, Tick: in.Tick, Now: now, Preview: true}
	v, ran := t.hooks.preview.Run(ctx, hc)
	if v.Veto {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), hookRefusal(v))
	}
	// 6. Hold the action's value and a rate slot under the permit's id
	// until commit, in the windows every process shares: of two previews
	// that only one fits, one is refused here.
	pid := id.Opaque(now)
	if rv := t.set.Reserve(ctx, hc, pid, t.cfg.PermitTTL); rv.Veto {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), hookRefusal(rv))
	}
	// 7. The lessons learnt that apply (seed 001: consulted before every
	// action). They advise; the hooks above decide.
	var lessons []adopt.Advice
	if t.cfg.Knowledge != nil {
		lessons = t.cfg.Knowledge.ConsultLessons(ctx, s.ID, d.Name, string(args.Canonical())+"\n"+plan.Summary, now)
	}
	// 8. The permit, durable before it is returned.
	return t.issuePermit(ctx, s, e, args, a, plan, v.Sim, ran, lessons, pid, phase, in.Tick, now)
}

// writeRefusal is why a write may not even be previewed: the gate is
// halted (except for a tool that only takes power away), or the session's
// principal is no longer current (see freshPrincipal). Nil lets it on.
func (t *Tools) writeRefusal(ctx context.Context, s *Session, name string) *Refusal {
	if r := t.haltRefusal(ctx, s, func() string { return name }); r != nil {
		return r
	}
	if err := t.freshPrincipal(ctx, s); err != nil {
		return err.(*Refusal)
	}
	return nil
}

// planOf builds e's plan for in without side effects, within the medium
// tick budget; a plan that cannot be built is nil, with the error.
func planOf(ctx context.Context, e *registry.Entry, in *registry.Input) (*tool.Plan, error) {
	ctx, cancel := context.WithTimeout(ctx, tool.Medium.Duration())
	defer cancel()
	ctx, span := telemetry.Start(ctx, "ward.plan")
	defer span.End()
	plan, err := e.Plan(ctx, in)
	if err != nil {
		span.SetStatus(codes.Error, "")
		return nil, err
	}
	return plan, nil
}

// planRefusal is the refusal of a call whose plan could not be built: the
// planner's own refusal, a chain failure's, or an execution failure that
// tells the agent only what is safe to tell.
func planRefusal(err error) *Refusal {
	var rf *Refusal
	if errors.As(err, &rf) {
		return rf
	}
	if rf := chainRefusal("plan", err); rf != nil {
		return rf
	}
	return refuse(reason.ExecutionFailed, "plan", "the action cannot be planned: "+agentSafe(err), err.Error())
}

// issuePermit is Preview's last stage: the permit and its audit record,
// both durable before the permit is returned.
func (t *Tools) issuePermit(ctx context.Context, s *Session, e *registry.Entry, args *tool.Args, a *Admission, plan *tool.Plan,
	sim *hook.SimResult, ran []string, lessons []adopt.Advice, pid string, phase hook.Phase, tick uint64, now time.Time) (*PermitView, error) {
	d := e.Def
	risk := permitRisk(d, plan)
	// The permit is for this definition of the tool: a reload that
	// replaces it (an upstream server changed) leaves the permit unusable.
	plan.Def = tool.DefHash(d)
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(telemetry.Permit.String(pid), telemetry.PermitRisk.String(risk.String()))
	}
	p := &store.Permit{
		ID: pid, CreatedAt: now, ExpiresAt: now.Add(t.cfg.PermitTTL),
		ExpiryTick: tick + t.cfg.PermitTicks, PrincipalID: s.Principal, SessionID: s.ID, Tool: d.Name,
		ArgsHash: args.HashHex(), Args: args.Canonical(), PolicyHash: hashHex(t.engine.Snapshot().Hash()),
		Phase: phase.String(), RiskTier: risk.String(), ValueCents: plan.ValueCents,
		Plan: plan, Simulation: sim, Lessons: lessons, Status: store.PermitPending,
	}
	if risk >= tool.Elevated {
		p.NotBefore = now.Add(t.cfg.AnnounceDelay)
	}
	desc := t.describe(args, &a.Decision, plan, policy.Trust{Taint: t.Level(s).String()})
	desc.withSimulation(t.cfg.Book, sim)
	p.Description = jsonOf(desc)
	// The audit record carries the preview as the permit row stores it.
	preview, err := p.MarshalPreview()
	if err != nil {
		t.releaseHold(ctx, p.ID)
		return nil, refuse(reason.AuditUnavailable, "permit", "the permit could not be stored and recorded, so none was issued", err.Error())
	}
	// The permit and its audit record are written concurrently so that
	// one group commit (one sync) makes both durable.
	recErr := make(chan error, 1)
	go func() {
		recErr <- t.record(ctx, &store.ActionRecord{Kind: store.ActionPermitCreated, PermitID: p.ID, PrincipalID: s.Principal, SessionID: s.ID, Tool: d.Name,
			ActionType: e.Action, ArgsHash: p.ArgsHash, Status: store.StatusDeferred, Detail: preview})
	}()
	createErr := t.permits.CreatePermit(ctx, p)
	if err := <-recErr; err != nil || createErr != nil {
		if createErr == nil {
			if cerr := t.permits.CancelPermit(context.WithoutCancel(ctx), p.ID, "gate", now); cerr != nil {
				t.auditFailed("cancel of an unrecorded permit", cerr)
			}
		}
		t.releaseHold(ctx, p.ID)
		return nil, refuse(reason.AuditUnavailable, "permit", "the permit could not be stored and recorded, so none was issued", errString(errors.Join(createErr, err)))
	}
	t.bus.Publish(event.Event{Kind: event.PermitCreated, Time: now, SessionID: s.ID, Tool: d.Name, PermitID: p.ID, ParamsHash: p.ArgsHash, Payload: event.PermitPlan{Plan: plan.Summary}})
	view := &PermitView{
		PermitID: p.ID, Tool: d.Name, Status: string(p.Status), ExpiresAt: p.ExpiresAt, ExpiryTick: p.ExpiryTick,
		NotBefore: p.NotBefore, RiskTier: risk, ValueCents: plan.ValueCents, Summary: plan.Summary,
		Simulation: sim, Plan: plan, ArgsHash: p.ArgsHash, PolicyHash: p.PolicyHash, Phase: p.Phase, Hooks: ran,
		Review: a.Judged, Lessons: lessons,
	}
	if sim != nil {
		view.GasTotal = sim.TotalGas
	}
	return view, nil
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// vetoed records a refused write in the action log and as an event, and
// returns the refusal.
func (t *Tools) vetoed(ctx context.Context, s *Session, name, argsHash string, r *Refusal) error {
	// The write is refused whether or not its record can be written; an
	// unwritten one is counted and logged.
	if err := t.record(ctx, &store.ActionRecord{Kind: store.ActionVetoed, PrincipalID: s.Principal, SessionID: s.ID, Tool: name, ArgsHash: argsHash,
		Status: store.StatusBlocked, BlockReason: string(r.Code), Detail: jsonOf(map[string]string{"stage": r.Stage, "detail": r.Detail})}); err != nil {
		t.auditFailed("veto", err)
	}
	t.bus.Publish(event.Event{Kind: event.GateVetoed, Time: t.cfg.Now(), SessionID: s.ID, Tool: name, Code: string(r.Code), Message: r.Message, Payload: event.Veto{Stage: r.Stage}})
	return r
}

// CommitRequest is commit_action's input.
type CommitRequest struct {
	PermitID string
	// Args, when given, must be the previewed arguments.
	Args json.RawMessage
	// Approval is the owner's signature for privileged tools.
	Approval []byte
}

// Commit is CommitWith with the options WithProgress put in ctx
// (OptionsFromContext), for a caller that predates CallOptions.
func (t *Tools) Commit(ctx context.Context, s *Session, req CommitRequest) (*tool.Result, error) {
	return t.CommitWith(ctx, s, req, OptionsFromContext(ctx))
}

// CommitWith executes a previewed write once, in four stages:
//
//  1. load: a halt stops it; the permit must be the session's, its tool
//     still a write of the session's profile, the arguments the previewed
//     ones, a privileged tool's approval the owner's;
//  2. admit (under the commit lock): the phase gate as a commit, the
//     spending and rate limits against what executed since the preview,
//     and the permit consumed, once;
//  3. execute: the capability is minted for this call only and the
//     handler runs;
//  4. settle: the outcome is observed, the spend settled and the outcome
//     recorded with the permit's consumption.
//
// opts.Progress listens for the handler's progress (a commit is never
// held, so opts.Facade is not recorded).
func (t *Tools) CommitWith(ctx context.Context, s *Session, req CommitRequest, opts CallOptions) (_ *tool.Result, err error) {
	ctx, span := t.startCall(ctx, "ward.commit", s)
	defer func() { endCall(span, err) }()
	c, err := t.loadCommit(ctx, s, req, opts)
	if err != nil {
		return nil, err
	}
	t.commitMu.Lock()
	defer t.commitMu.Unlock()
	actx, aspan := telemetry.Start(ctx, "ward.admit")
	err = t.admitCommit(actx, c)
	endCall(aspan, err)
	if err != nil {
		return nil, err
	}
	res, err := t.executeCommit(ctx, c)
	if err != nil {
		t.settleFailed(ctx, c, err)
		return nil, err
	}
	return t.settleExecuted(ctx, c, res)
}

// commitCall is a commit as its stages build it up.
type commitCall struct {
	s        *Session
	opts     CallOptions
	p        store.Permit
	e        *registry.Entry
	raw      json.RawMessage
	args     *tool.Args
	phase    hook.Phase
	plan     tool.Plan
	approval *capability.Approval
	owner    string // the approving owner of a privileged call

	// Set by admitCommit.
	now         time.Time
	tick        uint64
	began       bool // the spend was recorded (Begin)
	consumed    store.Permit
	consumedRec *store.ActionRecord

	// Set by executeCommit.
	capability *capability.Capability
}

func (c *commitCall) def() *tool.Def { return c.e.Def }

// loadCommit is stage 1: everything that can be checked before the
// commit lock.
func (t *Tools) loadCommit(ctx context.Context, s *Session, req CommitRequest, opts CallOptions) (*commitCall, error) {
	permitTool := func() string {
		// Only a permit of the session names a tool a halt may let
		// through; any other answer leaves the halt in force.
		if p, err := t.permits.Permit(ctx, req.PermitID); err == nil && owns(s, &p) {
			return p.Tool
		}
		return ""
	}
	if r := t.haltRefusal(ctx, s, permitTool); r != nil {
		return nil, t.vetoed(ctx, s, "", "", r)
	}
	if err := t.freshPrincipal(ctx, s); err != nil {
		return nil, t.vetoed(ctx, s, "", "", err.(*Refusal))
	}
	if err := t.lookupAllowed(ctx, s); err != nil {
		return nil, err
	}
	p, err := t.permits.Permit(ctx, req.PermitID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !owns(s, &p)) {
		return nil, t.lookupFailed(ctx, s, "permit", req.PermitID, refuse(reason.PermitNotFound, "permit", "no permit has this id", ""))
	}
	if err != nil {
		return nil, refuse(reason.AuditUnavailable, "permit", "the permit could not be read", err.Error())
	}
	// The permit's tool must still be in the session's profile.
	e, ok := s.View.Get(p.Tool)
	if !ok || e.Def.Tier == tool.Read {
		return nil, refuse(reason.ToolUnavailable, "profile", "the permit's tool is not available in this session", "")
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		// The permit is the session's: its id and tool are ward's, not
		// what the agent sent.
		span.SetAttributes(telemetry.Permit.String(p.ID), telemetry.Tool.String(e.Def.Name),
			telemetry.RiskTier.String(e.Def.RiskTier.String()), telemetry.PermitRisk.String(p.RiskTier))
	}
	c := &commitCall{s: s, opts: opts, p: p, e: e, raw: json.RawMessage(p.Args)}
	if len(req.Args) > 0 {
		c.raw = req.Args
	}
	if c.args, err = tool.ParseArgs(c.raw); err != nil {
		return nil, refuse(reason.BadInput, "schema", "the arguments are not a valid JSON object", err.Error())
	}
	if c.phase, err = t.Phase(ctx); err != nil {
		return nil, refuse(reason.HookError, "phase", "the gate cannot read its phase, so the action is refused", err.Error())
	}
	// A permit row without a plan (none the gate wrote) executes nothing.
	if p.Plan == nil {
		return nil, refuse(reason.AuditUnavailable, "permit", "the permit's plan cannot be read", "the permit has no plan")
	}
	c.plan = *p.Plan
	// The definition the session resolves now must be the one previewed:
	// an upstream server changed by a reload may serve a tool of the same
	// name that does something else.
	if c.plan.Def == "" || c.plan.Def != tool.DefHash(e.Def) {
		return nil, refuse(reason.ToolChanged, "permit", "the tool "+p.Tool+" changed since the preview: preview again", "")
	}
	if e.Def.Tier == tool.Privileged {
		if t.approver == nil || len(req.Approval) == 0 {
			return nil, refuse(reason.ApprovalRequired, "approval", "this action needs the owner's signed approval of permit "+p.ID, "")
		}
		o, err := t.approver.VerifyApproval(p.ID, p.Tool, c.args.Hash(), req.Approval)
		if err != nil {
			return nil, refuse(reason.ApprovalInvalid, "approval", "the approval is not the owner's signature of this permit", err.Error())
		}
		c.owner = o
		c.approval = mint.Approval(p.ID, o, t.cfg.Now())
	}
	return c, nil
}

// admitCommit is stage 2, under the commit lock: the checks that depend on
// what other writes did since the preview, and the permit's single use.
func (t *Tools) admitCommit(ctx context.Context, c *commitCall) error {
	s, d := c.s, c.def()
	c.now = t.cfg.Now()
	c.tick = t.Tick(c.now)
	hc := &hook.Call{Def: d, Args: c.args, Plan: &c.plan, Phase: c.phase, SessionID: s.ID, Tick: c.tick, Now: c.now}
	// The commit's hooks (hookChains.commit: the phase gate again, as a
	// commit).
	if v, _ := t.hooks.commit.Run(ctx, hc); v.Veto {
		return t.vetoed(ctx, s, d.Name, c.args.HashHex(), hookRefusal(v))
	}
	// The spending and rate limits again, against what executed since the
	// preview (in any process), with the spend recorded before the write
	// runs: the hold becomes spend, counted even if ward dies mid-way. Then
	// the durable half of single use, one conditional update, whose sync
	// makes the recorded spend durable too (the store syncs in order).
	crashpoint.Hit(crashpoint.BeforeIntent)
	began, v := t.set.Begin(ctx, hc, c.p.ID, c.p.ValueCents)
	if v.Veto && v.Code == reason.PermitConsumed {
		// Another commit of this permit (here or in another process) got
		// there first: it consumes the permit, this one stops.
		return t.vetoed(ctx, s, d.Name, c.args.HashHex(), &Refusal{Code: v.Code, Stage: "permit", Message: v.Message, Detail: v.Detail})
	}
	consumed, err := t.permits.ConsumePermit(ctx, c.p.ID, store.PermitCheck{
		SessionID: s.ID, Now: c.now, Tick: c.tick, Tool: d.Name, ArgsHash: c.args.HashHex(),
		PolicyHash: hashHex(t.engine.Snapshot().Hash()), Phase: c.phase.String(), By: s.ID,
	})
	c.began = began
	if err != nil {
		// Nothing runs: the spend recorded for it goes, and so does the
		// hold of a permit that is done with.
		t.finish(ctx, c.p.ID, began, false, 0)
		if !errors.Is(err, store.ErrPermitEarly) {
			t.releaseHold(ctx, c.p.ID)
		}
		return t.vetoed(ctx, s, d.Name, c.args.HashHex(), permitRefusal(err))
	}
	if v.Veto {
		t.releaseHold(ctx, c.p.ID)
		r := hookRefusal(v)
		r.Message += " (the permit is used up: preview again)"
		return t.vetoed(ctx, s, d.Name, c.args.HashHex(), r)
	}
	c.consumed = consumed
	// The permit row, consumed, is the durable record that this commit
	// happened; its action record is written with the outcome's, in one
	// group commit.
	c.consumedRec = &store.ActionRecord{ID: id.New(c.now), Kind: store.ActionPermitConsumed, Time: c.now, PermitID: c.p.ID, PrincipalID: s.Principal, SessionID: s.ID, Tool: d.Name,
		ActionType: c.e.Action, ArgsHash: consumed.ArgsHash}
	t.bus.Publish(event.Event{Kind: event.PermitConsumed, Time: c.now, SessionID: s.ID, Tool: d.Name, PermitID: c.p.ID})
	crashpoint.Hit(crashpoint.AfterIntent)
	return nil
}

// executeCommit is stage 3: the capability exists only from here, for
// this call, and the handler runs with it.
func (t *Tools) executeCommit(ctx context.Context, c *commitCall) (*tool.Result, error) {
	d := c.def()
	c.capability = mint.Capability(mint.Fields{
		PermitID: c.p.ID, Tool: d.Name, ArgsHash: c.args.Hash(), PolicyHash: t.engine.Snapshot().Hash(),
		ValueCents: c.consumed.ValueCents, ExpiresAt: c.consumed.ExpiresAt, ExpiryTick: c.consumed.ExpiryTick,
		Owner: c.owner,
	})
	in := t.input(c.s, c.e, c.args, c.raw, c.now, c.opts)
	in.Tick = c.tick
	return t.run(ctx, c.s, c.e, in, func(ctx context.Context) (*tool.Result, error) {
		if d.Tier == tool.Privileged {
			return c.e.Privileged(ctx, in, &c.plan, c.capability, c.approval)
		}
		return c.e.Write(ctx, in, &c.plan, c.capability)
	})
}

// outcomeRecord is the tool_call record of a commit's outcome.
func (c *commitCall) outcomeRecord(status store.ActionStatus) *store.ActionRecord {
	return &store.ActionRecord{Kind: store.ActionToolCall, PermitID: c.p.ID, PrincipalID: c.s.Principal, SessionID: c.s.ID, Tool: c.def().Name,
		ActionType: c.e.Action, ArgsHash: c.consumed.ArgsHash, Status: status}
}

// settleFailed is stage 4 of a handler that failed: the outcome is
// recorded, and the spend stays counted if the capability was used (the
// write may have reached the chain).
func (t *Tools) settleFailed(ctx context.Context, c *commitCall, err error) {
	rec := c.outcomeRecord(store.StatusFailed)
	var rf *Refusal
	if errors.As(err, &rf) {
		rec.BlockReason = string(rf.Code)
		rec.Detail = jsonOf(map[string]string{"detail": rf.Detail})
	}
	// A write refused because another transaction is in flight sent
	// nothing, though it consumed its capability: its spend goes. One
	// whose capability was used may have reached the chain: it counts.
	executed := c.capability.Used() && (rf == nil || rf.Code != reason.TxInFlight)
	if rerr := t.recordOutcome(ctx, c, rec, executed); rerr != nil {
		t.auditFailed("failed commit", rerr)
	} else {
		crashpoint.Hit(crashpoint.Outcome)
	}
	t.finish(ctx, c.p.ID, c.began, executed, c.consumed.ValueCents)
}

// recordOutcome writes a commit's consumed-permit and outcome records
// and, for a write that executed (or may have), its execution: the one
// the policy's rate and spend rules count, in the same group commit as the
// outcome.
func (t *Tools) recordOutcome(ctx context.Context, c *commitCall, rec *store.ActionRecord, executed bool) error {
	if !executed {
		return t.recordBoth(ctx, c.consumedRec, rec)
	}
	errE := make(chan error, 1)
	go func() {
		errE <- t.decider.Executed(ctx, c.def().Ref(), c.args, c.s.ID, c.s.TurnID, "", time.Time{}) // the clock decisions count by
	}()
	err := t.recordBoth(ctx, c.consumedRec, rec)
	return errors.Join(err, <-errE)
}

// settleExecuted is stage 4 of a write that executed: its result is
// observed like any output, the spend kept and the outcome recorded. A
// write whose outcome cannot be recorded is not acknowledged: the caller
// gets an AuditUnavailable refusal naming the transactions sent, and the
// owner a tool:error event; the send journal still holds them, and the
// next start's reconciliation completes the record (Tools.ReconcileCommits).
func (t *Tools) settleExecuted(ctx context.Context, c *commitCall, res *tool.Result) (*tool.Result, error) {
	s, d := c.s, c.def()
	rec := c.outcomeRecord(store.StatusExecuted)
	// The decision is tagged with the external knowledge that influenced
	// it (seed 001 §6.2), for causal rollback to attribute by.
	detail := map[string]any{}
	if t.cfg.Knowledge != nil {
		if ins := t.cfg.Knowledge.Influences(s.ID, c.now); len(ins) > 0 {
			detail["influences"] = ins
		}
	}
	// A write's result is output the session sees like any other.
	if oerr := t.observe(ctx, s, d, c.raw, res); oerr != nil {
		detail["taint"] = oerr.Error()
		res = &tool.Result{Data: json.RawMessage(`{"withheld":"the output could not be taint-checked"}`), SchemaVersion: d.SchemaVersion,
			ExpectedOutcome: res.ExpectedOutcome, ActualOutcome: res.ActualOutcome, GroundTruthSource: res.GroundTruthSource}
	}
	if len(detail) > 0 {
		rec.Detail = jsonOf(detail)
	}
	rec.Expected, rec.Actual, rec.GroundTruth = res.ExpectedOutcome, res.ActualOutcome, res.GroundTruthSource
	rec.Verified = res.ExpectedOutcome != "" && res.ExpectedOutcome == res.ActualOutcome
	if n := len(res.TxHashes); n > 0 {
		rec.TxHash, rec.ChainID = res.TxHashes[n-1], c.plan.Chain
	}
	rec.GasUsed = res.GasUsed
	t.finish(ctx, c.p.ID, c.began, true, c.consumed.ValueCents)
	if err := t.recordOutcome(ctx, c, rec, true); err != nil {
		t.auditFailed("executed commit", err)
		msg := "the write executed but its outcome could not be recorded"
		if len(res.TxHashes) > 0 {
			msg = "transaction " + strings.Join(res.TxHashes, ", ") + " was sent but its outcome could not be recorded"
		}
		msg += "; ward completes the record from its send journal when it next starts: do not retry this permit"
		t.bus.Publish(event.Event{Kind: event.ToolError, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name, PermitID: c.p.ID,
			Code: string(reason.AuditUnavailable), Message: msg})
		return nil, &Refusal{Code: reason.AuditUnavailable, Stage: "outcome", Message: msg, Detail: err.Error()}
	}
	crashpoint.Hit(crashpoint.Outcome)
	return res, nil
}

// finish settles the spend Begin recorded for a commit: kept when the
// write executed (or may have: its capability was used), removed when it
// did not run. A settlement that cannot be written leaves the spend
// counted, the safe side.
func (t *Tools) finish(ctx context.Context, permitID string, began, executed bool, cents int64) {
	if !began {
		return
	}
	if err := t.set.Finish(context.WithoutCancel(ctx), permitID, executed, cents); err != nil {
		t.auditFailed("spend settlement", err)
	}
}

// releaseHold drops a permit's hold; one that cannot be dropped expires
// with the permit.
func (t *Tools) releaseHold(ctx context.Context, permitID string) {
	if err := t.set.Release(context.WithoutCancel(ctx), permitID); err != nil {
		t.auditFailed("hold release", err)
	}
}

// storeUnavailableMsg is what an agent is told when the store cannot be
// written (a full disk): the same cause, whichever write found it.
const storeUnavailableMsg = "the store is unavailable (it cannot be written), so the call is refused and nothing changed"

// hookRefusal is the refusal of a hook's veto: a veto because the
// windows' store cannot be written is the store's failure
// (AUDIT_UNAVAILABLE, as every other write the disk refuses), not a
// hook's.
func hookRefusal(v hook.Verdict) *Refusal {
	if errors.Is(v.Err, store.ErrUnwritable) {
		return &Refusal{Code: reason.AuditUnavailable, Stage: v.Hook, Message: storeUnavailableMsg, Detail: v.Detail}
	}
	return &Refusal{Code: v.Code, Stage: v.Hook, Message: v.Message, Detail: v.Detail}
}

// permitRefusal maps a failed consumption or cancellation to its reason
// code.
func permitRefusal(err error) *Refusal {
	code, msg := reason.AuditUnavailable, "the permit could not be consumed"
	switch {
	case errors.Is(err, store.ErrUnwritable):
		msg = storeUnavailableMsg
	case errors.Is(err, store.ErrNotFound):
		code, msg = reason.PermitNotFound, "no permit has this id"
	case errors.Is(err, store.ErrPermitConsumed):
		code, msg = reason.PermitConsumed, "the permit was already committed"
	case errors.Is(err, store.ErrPermitCancelled):
		code, msg = reason.PermitCancelled, "the permit was cancelled"
	case errors.Is(err, store.ErrPermitExpired):
		code, msg = reason.PermitExpired, "the permit expired: preview again"
	case errors.Is(err, store.ErrPermitEarly):
		code, msg = reason.AnnounceDelay, "the permit is still in its announce delay: commit after not_before"
	case errors.Is(err, store.ErrPermitMismatch):
		code, msg = reason.PermitMismatch, "the arguments differ from the previewed ones"
	case errors.Is(err, store.ErrPolicyChanged):
		code, msg = reason.PolicyChanged, "the policy changed since the preview: preview again"
	case errors.Is(err, store.ErrPhaseChanged):
		code, msg = reason.PhaseChanged, "the phase changed since the preview: preview again"
	case errors.Is(err, store.ErrPermitNotPending):
		code, msg = reason.PermitConsumed, "the permit is no longer pending"
	}
	return &Refusal{Code: code, Stage: "permit", Message: msg, Detail: err.Error()}
}

// Cancel cancels a pending permit of the session s; another session's
// permit is refused as unknown.
func (t *Tools) Cancel(ctx context.Context, s *Session, permitID string) error {
	if err := t.lookupAllowed(ctx, s); err != nil {
		return err
	}
	p, err := t.permits.Permit(ctx, permitID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && !owns(s, &p)) {
		return t.lookupFailed(ctx, s, "permit", permitID, refuse(reason.PermitNotFound, "permit", "no permit has this id", ""))
	}
	if err != nil {
		return refuse(reason.AuditUnavailable, "permit", "the permit could not be read", err.Error())
	}
	return t.cancel(ctx, p.ID, s.Principal, s.ID, s.ID)
}

// CancelByOwner cancels any pending permit: the owner's decision, by
// (recorded as who cancelled it).
func (t *Tools) CancelByOwner(ctx context.Context, permitID, by string) error {
	return t.cancel(ctx, permitID, "", "", by)
}

// cancel cancels the permit and records it in one transaction (a
// cancellation whose record cannot be written does not happen), then
// releases its holds.
func (t *Tools) cancel(ctx context.Context, permitID, principal, session, by string) error {
	now := t.cfg.Now()
	rec := &store.ActionRecord{ID: id.New(now), Time: now, Kind: store.ActionPermitCancelled, PermitID: permitID, PrincipalID: principal, SessionID: session,
		Detail: jsonOf(map[string]string{"by": by})}
	if err := t.permits.CancelPermitRecorded(ctx, permitID, by, now, rec); err != nil {
		return permitRefusal(err)
	}
	t.releaseHold(ctx, permitID)
	t.bus.Publish(event.Event{Kind: event.PermitCancelled, Time: now, SessionID: session, PermitID: permitID})
	return nil
}

// ArgsHash returns the canonical hash of raw arguments, as permits bind
// them.
func ArgsHash(raw json.RawMessage) ([32]byte, error) {
	a, err := tool.ParseArgs(raw)
	if err != nil {
		return sha256.Sum256(nil), err
	}
	return a.Hash(), nil
}
