package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/capability/mint"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/store"
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
//	         (phase, allowlist, spending, rate, simulation, hallucination)
//	         → permit (durable) → events
//	Commit:  halt → permit row pending → consumed in one conditional update
//	         (same tool, arguments, policy hash and phase; unexpired; past
//	         its announce delay) → spending and rate re-check → mint the
//	         capability → handler within its tick budget → outcome record
//	         → result filter → events
//
// Any veto mints nothing. Tools is safe for concurrent use.
type Tools struct {
	decider  *Gate
	engine   *policy.Engine
	reg      *registry.Registry
	set      *hook.Set
	hooks    hook.Chain
	permits  store.Permits
	state    store.State
	actions  store.ActionLog
	bus      *event.Bus
	approver Approver
	cfg      ToolsConfig

	// commitMu serialises commits in this process (the wallet sends one
	// nonce sequence at a time anyway). Across processes the permit row is
	// what makes a permit single-use.
	commitMu sync.Mutex

	// holds are the spending and rate holds each pending permit of this
	// process took at preview; the commit settles them, a cancel or a
	// failure releases them, and they expire with the permit.
	holdsMu sync.Mutex
	holds   map[string]holds

	// queue is the quarantine queue's memory (quarantine.go).
	queue quarantineQueue

	// book is the owner's address book: values with trusted provenance in
	// every session (trust.go).
	book *trust.Ledger
}

type holds struct {
	spend, rate hook.HoldID
	expires     time.Time
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
	// Hooks are the safety hooks; the chain runs them in the seed's order
	// (hook.DefaultChain).
	Hooks   *hook.Set
	Permits store.Permits
	State   store.State
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
	switch {
	case cfg.Decider == nil || cfg.Engine == nil:
		return nil, errors.New("gate: tools need the policy gate and engine")
	case cfg.Registry == nil:
		return nil, errors.New("gate: tools need a registry")
	case cfg.Permits == nil || cfg.State == nil || cfg.Actions == nil:
		return nil, errors.New("gate: tools need permit, state and action stores")
	case cfg.Bus == nil:
		return nil, errors.New("gate: tools need an event bus")
	case cfg.Hooks == nil:
		return nil, errors.New("gate: tools need the safety hooks")
	}
	chain, err := hook.DefaultChain(cfg.Hooks)
	if err != nil {
		return nil, fmt.Errorf("gate: %w", err)
	}
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
			return nil, fmt.Errorf("gate: no reviewer or judge is named %q", r)
		}
	}
	var book *trust.Ledger
	if len(cfg.AddressBook) > 0 {
		book = trust.NewLedger(0)
		for _, v := range cfg.AddressBook {
			book.Observe(trust.Source{Kind: trust.AddressBook, Ref: "address_book"}, v)
		}
	}
	return &Tools{book: book,
		decider: cfg.Decider, engine: cfg.Engine, reg: cfg.Registry, set: cfg.Hooks, hooks: chain,
		permits: cfg.Permits, state: cfg.State, actions: cfg.Actions, bus: cfg.Bus,
		approver: cfg.Approver, cfg: cfg, holds: map[string]holds{}, queue: newQuarantineQueue(),
	}, nil
}

// Session is who is calling: its identity, the input source the policy
// sees, and the tools its profile allows.
type Session struct {
	ID     string
	TurnID string
	Source policy.InputSource
	View   *registry.View
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

func refuse(code reason.Code, stage, msg, detail string) *Refusal {
	return &Refusal{Code: code, Stage: stage, Message: msg, Detail: detail}
}

// Tick returns the current tick.
func (t *Tools) Tick(now time.Time) uint64 {
	if now.Before(t.cfg.Epoch) {
		return 0
	}
	return uint64(now.Sub(t.cfg.Epoch) / t.cfg.TickPeriod)
}

// resolve finds name in the session's view and validates raw against its
// schema. Tools outside the profile do not exist for the session.
func (t *Tools) resolve(s *Session, name string, raw json.RawMessage) (*registry.Entry, *tool.Args, error) {
	e, ok := s.View.Get(name)
	if !ok {
		return nil, nil, refuse(reason.ToolUnavailable, "profile", "no tool "+quote(name)+" is available in this session", "")
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
// and a quarantine the owner lifted for this call by approving it; any
// other quarantine is queued for the owner's review. With deferred, the
// audit record is made durable by the caller's next durable write (a
// preview's permit or veto record, or the queued item).
func (t *Tools) decide(ctx context.Context, s *Session, e *registry.Entry, raw json.RawMessage, deferred bool) (*Admission, error) {
	ct, err := t.admitTrust(ctx, s, e, raw)
	if err != nil {
		return nil, err
	}
	a := t.decider.Decide(ctx, Call{
		Tool: e.Def.Ref(), Args: raw, Deferred: deferred,
		Turn:  policy.Turn{ID: s.TurnID, SessionID: s.ID, Source: s.Source},
		Trust: ct.view,
	})
	d := &a.Decision
	switch d.Action() {
	case policy.Allow:
		return a, nil
	case policy.Quarantine:
		if lifted(ctx, a) {
			return a, nil
		}
		verdicts, approved := t.trustReview(ctx, s, e, raw, ct, d)
		if approved {
			a.Judged = verdicts
			return a, nil
		}
		return a, t.hold(ctx, s, e, raw, a, verdicts)
	default:
		return a, refuse(d.Code(), "policy", d.Message(), d.Diagnostic())
	}
}

func (t *Tools) input(ctx context.Context, s *Session, e *registry.Entry, args *tool.Args, raw json.RawMessage, now time.Time) *registry.Input {
	d := e.Def
	ph := args.HashHex()
	progress, _ := ctx.Value(progressKey{}).(Progress)
	return &registry.Input{
		Args: args, Raw: raw, SessionID: s.ID, Tick: t.Tick(now), Now: now,
		Step: func(i int) {
			step := ""
			if i >= 0 && i < len(d.ProgressSteps) {
				step = d.ProgressSteps[i]
			}
			t.bus.Publish(event.Event{Kind: event.ToolUpdate, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name,
				ParamsHash: ph, Step: step, StepIndex: i, TotalSteps: len(d.ProgressSteps)})
			if progress != nil {
				progress(d.Name, step, i, len(d.ProgressSteps))
			}
		},
	}
}

// Progress receives a call's progress steps as its handler enters them
// (for a surface to forward, e.g. as MCP progress notifications). It must
// not block.
type Progress func(toolName, step string, index, total int)

type progressKey struct{}

// WithProgress returns a context whose tool calls report their progress
// steps to p, in addition to the tool:update events.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// Read runs a read tool.
func (t *Tools) Read(ctx context.Context, s *Session, name string, raw json.RawMessage) (*tool.Result, error) {
	e, args, err := t.resolve(s, name, raw)
	if err != nil {
		return nil, err
	}
	if e.Def.Tier != tool.Read {
		return nil, refuse(reason.ToolUnavailable, "profile", name+" changes state: use preview_action and commit_action", "")
	}
	a, err := t.decide(ctx, s, e, raw, false)
	if err != nil {
		return nil, err
	}
	now := t.cfg.Now()
	in := t.input(ctx, s, e, args, raw, now)
	res, err := t.run(ctx, s, e, in, func(ctx context.Context) (*tool.Result, error) { return e.Read(ctx, in) })
	if err == nil {
		if oerr := t.observe(ctx, s, e.Def, res); oerr != nil {
			res, err = nil, oerr
		}
	}
	// Only calls that stateful rules count (rate limits) need their
	// execution recorded; other reads leave no trace beyond the decision.
	if a.Decision.Stateful() {
		_ = t.decider.Done(ctx, a, Outcome{Executed: err == nil})
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
	res, err := h(ctx)
	if err == nil && res == nil {
		err = errors.New("handler returned no result")
	}
	if err != nil {
		code, msg := reason.ExecutionFailed, d.Name+" failed"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			code, msg = reason.BudgetExceeded, fmt.Sprintf("%s did not finish within its %s tick budget (%v)", d.Name, d.Budget, d.Budget.Duration())
		}
		t.bus.Publish(event.Event{Kind: event.ToolError, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name, ParamsHash: ph, Code: string(code), Message: msg})
		var rf *Refusal
		if errors.As(err, &rf) {
			return nil, err
		}
		return nil, &Refusal{Code: code, Stage: "handler", Message: msg + ": " + agentSafe(err), Detail: err.Error()}
	}
	if res.SchemaVersion == 0 {
		res.SchemaVersion = d.SchemaVersion
	}
	res, rep := t.set.Filter.Filter(res)
	t.bus.Publish(event.Event{Kind: event.ToolEnd, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name, ParamsHash: ph,
		Success: !res.IsError, DurationMS: t.cfg.Now().Sub(start).Milliseconds(), Summary: rep.String()})
	return res, nil
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
	v, _, ok, err := t.state.State(ctx, statePhase)
	if err != nil {
		return 0, fmt.Errorf("gate: read phase: %w", err)
	}
	if !ok {
		return hook.Thriving, nil
	}
	return hook.ParsePhase(v)
}

// SetPhase changes the PolicyCage phase (an owner operation). Pending
// permits previewed in another phase can no longer be committed.
func (t *Tools) SetPhase(ctx context.Context, p hook.Phase, by string) error {
	now := t.cfg.Now()
	if err := t.state.SetState(ctx, statePhase, p.String(), now); err != nil {
		return fmt.Errorf("gate: set phase: %w", err)
	}
	t.record(ctx, &store.ActionRecord{Kind: "phase_changed", Detail: jsonOf(map[string]string{"phase": p.String(), "by": by})})
	t.bus.Publish(event.Event{Kind: event.GatePhase, Time: now, Message: p.String(), Summary: by})
	return nil
}

// Halted reports whether writes are halted, and why.
func (t *Tools) Halted(ctx context.Context) (bool, string, error) {
	v, _, ok, err := t.state.State(ctx, stateHalt)
	if err != nil {
		return true, "", fmt.Errorf("gate: read halt state: %w", err)
	}
	return ok && v != "", v, nil
}

// Halt stops every write until the owner lifts it. Anyone with a session
// may halt; pending permits stay pending but cannot be committed.
func (t *Tools) Halt(ctx context.Context, s *Session, why string) error {
	if why == "" {
		why = "emergency halt"
	}
	if len(why) > 200 {
		why = why[:200]
	}
	now := t.cfg.Now()
	if err := t.state.SetState(ctx, stateHalt, why, now); err != nil {
		return fmt.Errorf("gate: halt: %w", err)
	}
	t.record(ctx, &store.ActionRecord{Kind: "halt", SessionID: s.ID, Detail: jsonOf(map[string]string{"reason": why})})
	t.bus.Publish(event.Event{Kind: event.GateHalted, Time: now, SessionID: s.ID, Message: why})
	return nil
}

// Resume lifts the emergency halt (an owner operation: the caller checks
// the role).
func (t *Tools) Resume(ctx context.Context, by string) error {
	now := t.cfg.Now()
	if err := t.state.SetState(ctx, stateHalt, "", now); err != nil {
		return fmt.Errorf("gate: resume: %w", err)
	}
	t.record(ctx, &store.ActionRecord{Kind: "halt_lifted", Detail: jsonOf(map[string]string{"by": by})})
	t.bus.Publish(event.Event{Kind: event.GateResumed, Time: now, Message: by})
	return nil
}

const (
	statePhase = "phase"
	stateHalt  = "halt"
)

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

// Preview checks a write and returns a permit for it. Nothing changes on
// chain.
func (t *Tools) Preview(ctx context.Context, s *Session, name string, raw json.RawMessage) (*PermitView, error) {
	// 1. A halt stops writes before anything else runs.
	if halted, why, err := t.Halted(ctx); err != nil || halted {
		return nil, t.vetoed(ctx, s, name, "", refuse(reason.Halted, "halt", "writes are halted: "+why, errString(err)))
	}
	// 2. The tool must be a write in the session's profile; arguments
	// must match its schema.
	e, args, err := t.resolve(s, name, raw)
	if err != nil {
		return nil, err
	}
	d := e.Def
	if d.Tier == tool.Read {
		return nil, refuse(reason.NotPreviewable, "profile", name+" only reads: call it through query_state or search_context", "")
	}
	// 3. Policy and audit. The decision's record becomes durable with the
	// permit (or the veto) written below, before anything can act on it.
	a, err := t.decide(ctx, s, e, raw, true)
	if err != nil {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), err.(*Refusal))
	}
	// The preview executes nothing; the commit records the execution.
	_ = t.decider.Done(ctx, a, Outcome{Executed: false})
	phase, err := t.Phase(ctx)
	if err != nil {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), refuse(reason.HookError, "phase", "the gate cannot read its phase, so the action is refused", err.Error()))
	}
	now := t.cfg.Now()
	in := t.input(ctx, s, e, args, raw, now)
	// 4. Build the plan without side effects.
	pctx, cancel := context.WithTimeout(ctx, tool.Medium.Duration())
	plan, err := e.Plan(pctx, in)
	cancel()
	if err != nil {
		var rf *Refusal
		if errors.As(err, &rf) {
			return nil, t.vetoed(ctx, s, name, args.HashHex(), rf)
		}
		return nil, t.vetoed(ctx, s, name, args.HashHex(), refuse(reason.ExecutionFailed, "plan", "the action cannot be planned: "+agentSafe(err), err.Error()))
	}
	// 5. The hook chain; any veto wins and no permit is made.
	hc := &hook.Call{Def: d, Args: args, Plan: plan, Phase: phase, SessionID: s.ID, Tick: in.Tick, Now: now, Preview: true}
	v, ran := t.hooks.Run(ctx, hc)
	if v.Veto {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), &Refusal{Code: v.Code, Stage: v.Hook, Message: v.Message, Detail: v.Detail})
	}
	sim := v.Sim
	// 6. Hold the action's value and a rate slot until commit: of two
	// previews that only one fits, one is refused here.
	var h holds
	if h.spend, v = t.set.Spending.Reserve(hc, t.cfg.PermitTTL); v.Veto {
		return nil, t.vetoed(ctx, s, name, args.HashHex(), &Refusal{Code: v.Code, Stage: v.Hook, Message: v.Message, Detail: v.Detail})
	}
	if h.rate, v = t.set.Rate.Reserve(hc, t.cfg.PermitTTL); v.Veto {
		t.set.Spending.Release(h.spend)
		return nil, t.vetoed(ctx, s, name, args.HashHex(), &Refusal{Code: v.Code, Stage: v.Hook, Message: v.Message, Detail: v.Detail})
	}
	v.Sim = sim
	// 7. The lessons learnt that apply (seed 001: consulted before every
	// action). They advise; the hooks above decide.
	var lessons []adopt.Advice
	if t.cfg.Knowledge != nil {
		lessons = t.cfg.Knowledge.ConsultLessons(ctx, s.ID, d.Name, string(args.Canonical())+"\n"+plan.Summary, now)
	}
	// 8. The permit, durable before it is returned.
	risk := permitRisk(d, plan)
	preview := jsonOf(struct {
		Plan       *tool.Plan      `json:"plan"`
		Simulation *hook.SimResult `json:"simulation,omitempty"`
		Lessons    []adopt.Advice  `json:"lessons,omitempty"`
	}{plan, v.Sim, lessons})
	p := &store.Permit{
		ID: id.New(now), CreatedAt: now, ExpiresAt: now.Add(t.cfg.PermitTTL),
		ExpiryTick: in.Tick + t.cfg.PermitTicks, SessionID: s.ID, Tool: d.Name,
		ArgsHash: args.HashHex(), Args: args.Canonical(), PolicyHash: hashHex(t.engine.Snapshot().Hash()),
		Phase: phase.String(), RiskTier: risk.String(), ValueCents: plan.ValueCents, Preview: preview,
		Status: store.PermitPending,
	}
	if risk >= tool.Elevated {
		p.NotBefore = now.Add(t.cfg.AnnounceDelay)
	}
	// The permit and its audit record are written concurrently so that
	// one group commit (one sync) makes both durable.
	recErr := make(chan error, 1)
	go func() {
		recErr <- t.record(ctx, &store.ActionRecord{Kind: "permit_created", PermitID: p.ID, SessionID: s.ID, Tool: d.Name,
			ActionType: e.Action, ArgsHash: p.ArgsHash, Status: "deferred", Detail: preview})
	}()
	createErr := t.permits.CreatePermit(ctx, p)
	if err := <-recErr; err != nil || createErr != nil {
		if createErr == nil {
			_ = t.permits.CancelPermit(context.WithoutCancel(ctx), p.ID, "gate", now)
		}
		t.release(h)
		return nil, refuse(reason.AuditUnavailable, "permit", "the permit could not be stored and recorded, so none was issued", errString(errors.Join(createErr, err)))
	}
	h.expires = p.ExpiresAt
	t.holdsMu.Lock()
	for id, o := range t.holds {
		// The limiters drop expired holds themselves; forget them here.
		if !now.Before(o.expires) {
			delete(t.holds, id)
		}
	}
	t.holds[p.ID] = h
	t.holdsMu.Unlock()
	t.bus.Publish(event.Event{Kind: event.PermitCreated, Time: now, SessionID: s.ID, Tool: d.Name, PermitID: p.ID, ParamsHash: p.ArgsHash, Summary: plan.Summary})
	view := &PermitView{
		PermitID: p.ID, Tool: d.Name, Status: string(p.Status), ExpiresAt: p.ExpiresAt, ExpiryTick: p.ExpiryTick,
		NotBefore: p.NotBefore, RiskTier: risk, ValueCents: plan.ValueCents, Summary: plan.Summary,
		Simulation: v.Sim, Plan: plan, ArgsHash: p.ArgsHash, PolicyHash: p.PolicyHash, Phase: p.Phase, Hooks: ran,
		Review: a.Judged, Lessons: lessons,
	}
	if v.Sim != nil {
		view.GasTotal = v.Sim.TotalGas
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
	_ = t.record(ctx, &store.ActionRecord{Kind: "vetoed", SessionID: s.ID, Tool: name, ArgsHash: argsHash,
		Status: "blocked", BlockReason: string(r.Code), Detail: jsonOf(map[string]string{"stage": r.Stage, "detail": r.Detail})})
	t.bus.Publish(event.Event{Kind: event.GateVetoed, Time: t.cfg.Now(), SessionID: s.ID, Tool: name, Code: string(r.Code), Message: r.Message, Summary: r.Stage})
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

// Commit executes a previewed write once.
func (t *Tools) Commit(ctx context.Context, s *Session, req CommitRequest) (*tool.Result, error) {
	if halted, why, err := t.Halted(ctx); err != nil || halted {
		return nil, t.vetoed(ctx, s, "", "", refuse(reason.Halted, "halt", "writes are halted: "+why, errString(err)))
	}
	p, err := t.permits.Permit(ctx, req.PermitID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return nil, refuse(reason.PermitNotFound, "permit", "no permit has this id", "")
		}
		return nil, refuse(reason.AuditUnavailable, "permit", "the permit could not be read", err.Error())
	}
	// The permit's tool must still be in the session's profile.
	e, ok := s.View.Get(p.Tool)
	if !ok || e.Def.Tier == tool.Read {
		return nil, refuse(reason.ToolUnavailable, "profile", "the permit's tool is not available in this session", "")
	}
	raw := json.RawMessage(p.Args)
	if len(req.Args) > 0 {
		raw = req.Args
	}
	args, err := tool.ParseArgs(raw)
	if err != nil {
		return nil, refuse(reason.BadInput, "schema", "the arguments are not a valid JSON object", err.Error())
	}
	d := e.Def
	phase, err := t.Phase(ctx)
	if err != nil {
		return nil, refuse(reason.HookError, "phase", "the gate cannot read its phase, so the action is refused", err.Error())
	}
	var plan tool.Plan
	var pv struct {
		Plan *tool.Plan `json:"plan"`
	}
	pv.Plan = &plan
	if err := json.Unmarshal(p.Preview, &pv); err != nil {
		return nil, refuse(reason.AuditUnavailable, "permit", "the permit's plan cannot be read", err.Error())
	}
	var approval *capability.Approval
	owner := ""
	if d.Tier == tool.Privileged {
		if t.approver == nil || len(req.Approval) == 0 {
			return nil, refuse(reason.ApprovalRequired, "approval", "this action needs the owner's signed approval of permit "+p.ID, "")
		}
		o, err := t.approver.VerifyApproval(p.ID, p.Tool, args.Hash(), req.Approval)
		if err != nil {
			return nil, refuse(reason.ApprovalInvalid, "approval", "the approval is not the owner's signature of this permit", err.Error())
		}
		owner = o
		approval = mint.Approval(p.ID, owner, t.cfg.Now())
	}

	t.commitMu.Lock()
	defer t.commitMu.Unlock()
	now := t.cfg.Now()
	tick := t.Tick(now)
	// Spending and rate limits are checked again: other writes may have
	// executed since the preview.
	// The phase gate again, as a commit: a phase lets some actions be
	// previewed that it does not let execute (conservation previews
	// anything).
	if v, _ := (hook.Chain{t.set.Phase}).Run(ctx, &hook.Call{Def: d, Args: args, Plan: &plan, Phase: phase, SessionID: s.ID, Tick: tick, Now: now}); v.Veto {
		return nil, t.vetoed(ctx, s, d.Name, args.HashHex(), &Refusal{Code: v.Code, Stage: v.Hook, Message: v.Message, Detail: v.Detail})
	}
	h, held := t.takeHolds(p.ID)
	if !held {
		// Previewed by another process (or before a restart): check the
		// limits against what executed since.
		hc := &hook.Call{Def: d, Args: args, Plan: &plan, Phase: phase, SessionID: s.ID, Tick: tick, Now: now}
		if v, _ := (hook.Chain{t.set.Spending, t.set.Rate}).Run(ctx, hc); v.Veto {
			return nil, t.vetoed(ctx, s, d.Name, args.HashHex(), &Refusal{Code: v.Code, Stage: v.Hook, Message: v.Message, Detail: v.Detail})
		}
	}
	// The durable half of single use: one conditional update.
	consumed, err := t.permits.ConsumePermit(ctx, p.ID, store.PermitCheck{
		Now: now, Tick: tick, Tool: d.Name, ArgsHash: args.HashHex(),
		PolicyHash: hashHex(t.engine.Snapshot().Hash()), Phase: phase.String(), By: s.ID,
	})
	if err != nil {
		if held {
			if errors.Is(err, store.ErrPermitEarly) {
				t.putHolds(p.ID, h) // still pending: keep its holds
			} else {
				t.release(h)
			}
		}
		return nil, t.vetoed(ctx, s, d.Name, args.HashHex(), permitRefusal(err))
	}
	// The permit row, consumed, is the durable record that this commit
	// happened; its action record is written with the outcome's, in one
	// group commit.
	consumedRec := &store.ActionRecord{ID: id.New(now), Kind: "permit_consumed", Time: now, PermitID: p.ID, SessionID: s.ID, Tool: d.Name,
		ActionType: e.Action, ArgsHash: consumed.ArgsHash}
	t.bus.Publish(event.Event{Kind: event.PermitConsumed, Time: now, SessionID: s.ID, Tool: d.Name, PermitID: p.ID})
	// The capability exists only from here, for this call.
	c := mint.Capability(mint.Fields{
		PermitID: p.ID, Tool: d.Name, ArgsHash: args.Hash(), PolicyHash: t.engine.Snapshot().Hash(),
		ValueCents: consumed.ValueCents, ExpiresAt: consumed.ExpiresAt, ExpiryTick: consumed.ExpiryTick,
		Owner: owner,
	})
	in := t.input(ctx, s, e, args, raw, now)
	in.Tick = tick
	res, err := t.run(ctx, s, e, in, func(ctx context.Context) (*tool.Result, error) {
		if d.Tier == tool.Privileged {
			return e.Privileged(ctx, in, &plan, c, approval)
		}
		return e.Write(ctx, in, &plan, c)
	})
	rec := &store.ActionRecord{Kind: "tool_call", PermitID: p.ID, SessionID: s.ID, Tool: d.Name, ActionType: e.Action, ArgsHash: consumed.ArgsHash}
	if err != nil {
		rec.Status = "failed"
		var rf *Refusal
		if errors.As(err, &rf) {
			rec.BlockReason = string(rf.Code)
			rec.Detail = jsonOf(map[string]string{"detail": rf.Detail})
		}
		t.recordBoth(ctx, consumedRec, rec)
		// A capability consumed by the handler means the write may have
		// reached the chain: it counts against the limits.
		if c.Used() {
			t.settle(h, held, s, tick, now, consumed.ValueCents)
		} else if held {
			t.release(h)
		}
		return nil, err
	}
	rec.Status = "executed"
	// The decision is tagged with the external knowledge that influenced
	// it (seed 001 §6.2), for causal rollback to attribute by.
	detail := map[string]any{}
	if t.cfg.Knowledge != nil {
		if ins := t.cfg.Knowledge.Influences(s.ID, now); len(ins) > 0 {
			detail["influences"] = ins
		}
	}
	// A write's result is output the session sees like any other.
	if oerr := t.observe(ctx, s, d, res); oerr != nil {
		detail["taint"] = oerr.Error()
		res = &tool.Result{Data: json.RawMessage(`{"withheld":"the output could not be taint-checked"}`), SchemaVersion: d.SchemaVersion,
			ExpectedOutcome: res.ExpectedOutcome, ActualOutcome: res.ActualOutcome, GroundTruthSource: res.GroundTruthSource}
	}
	if len(detail) > 0 {
		rec.Detail = jsonOf(detail)
	}
	rec.Expected, rec.Actual, rec.GroundTruth = res.ExpectedOutcome, res.ActualOutcome, res.GroundTruthSource
	rec.Verified = res.ExpectedOutcome != "" && res.ExpectedOutcome == res.ActualOutcome
	var txs struct {
		TxHashes []string `json:"tx_hashes"`
		GasUsed  uint64   `json:"gas_used"`
	}
	_ = json.Unmarshal(res.Data, &txs)
	if n := len(txs.TxHashes); n > 0 {
		rec.TxHash = txs.TxHashes[n-1]
	}
	rec.GasUsed = txs.GasUsed
	t.settle(h, held, s, tick, now, consumed.ValueCents)
	if err := t.recordBoth(ctx, consumedRec, rec); err != nil {
		// The effect happened; the result still goes back, with the
		// failure on the operator's side of the trail.
		t.bus.Publish(event.Event{Kind: event.ToolError, Time: t.cfg.Now(), SessionID: s.ID, Tool: d.Name, Code: string(reason.AuditUnavailable), Message: "the outcome could not be recorded"})
	}
	return res, nil
}

// settle counts an executed write against the spending and rate limits,
// dropping the holds its preview took.
func (t *Tools) settle(h holds, held bool, s *Session, tick uint64, at time.Time, cents int64) {
	if held {
		t.set.Spending.Settle(h.spend, s.ID, tick, at, cents)
		t.set.Rate.Settle(h.rate, at)
		return
	}
	t.set.Spending.Record(s.ID, tick, at, cents)
	t.set.Rate.Record(s.ID, tick, at, cents)
}

func (t *Tools) release(h holds) {
	t.set.Spending.Release(h.spend)
	t.set.Rate.Release(h.rate)
}

func (t *Tools) takeHolds(permitID string) (holds, bool) {
	t.holdsMu.Lock()
	defer t.holdsMu.Unlock()
	h, ok := t.holds[permitID]
	delete(t.holds, permitID)
	return h, ok
}

func (t *Tools) putHolds(permitID string, h holds) {
	t.holdsMu.Lock()
	t.holds[permitID] = h
	t.holdsMu.Unlock()
}

// permitRefusal maps a failed consumption to its reason code.
func permitRefusal(err error) *Refusal {
	code, msg := reason.AuditUnavailable, "the permit could not be consumed"
	switch {
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

// Cancel cancels a pending permit.
func (t *Tools) Cancel(ctx context.Context, s *Session, permitID string) error {
	now := t.cfg.Now()
	if err := t.permits.CancelPermit(ctx, permitID, s.ID, now); err != nil {
		return permitRefusal(err)
	}
	if h, ok := t.takeHolds(permitID); ok {
		t.release(h)
	}
	_ = t.record(ctx, &store.ActionRecord{Kind: "permit_cancelled", PermitID: permitID, SessionID: s.ID})
	t.bus.Publish(event.Event{Kind: event.PermitCancelled, Time: now, SessionID: s.ID, PermitID: permitID})
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
