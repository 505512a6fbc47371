package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/llm"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
)

// Stage3 configures the Stage 3 strategy evaluation (seed §5): an
// actionable entry that passed Stage 2 under Strict or Paranoid strictness
// is decomposed (skill.Decompose), resolved against the skill library, and
// simulated against the baseline (the agent's Strategy, or holding) inside
// the process sandbox as the job
// skill.JobName, which every binary running a Pipeline with a Stage3 must
// register with sandbox.Main. The zero Stage3 is usable: a fresh library,
// the seed's sandbox limits and the default scenarios.
type Stage3 struct {
	// Library holds the verified components; nil: skill.NewLibrary(). A
	// passing entry's novel conditions are promoted into it.
	Library *skill.Library
	// Limits bound each sandbox run (the evaluation with its WASM
	// components, and each raw sizing function); zero: the seed's. A WASM
	// component's own limits are its Component.Limits.
	Limits sandbox.Limits
	// Market generates the scenarios; zero: 20 scenarios of 30 ticks. Under
	// Paranoid strictness runs are at least ParanoidSandboxTicks long.
	Market skill.Market
	// Recorded scenarios (skill.ReadCSV) are evaluated besides the
	// generated ones.
	Recorded  []skill.Scenario
	Tolerance *skill.Tolerance // nil: skill.DefaultTolerance
	// Strategy is the agent's own strategy, rule by rule: the baseline an
	// entry is judged against (what the entry changes in it). Empty: the
	// baseline holds.
	Strategy []*skill.Fragment
	// LLM, if set, decomposes an entry the deterministic parser cannot
	// (at most skill.MaxLLMCalls calls per entry).
	LLM *skill.LLM
	// Require is the isolation without which Stage 3 does not evaluate:
	// a run that lacks any of it is stopped before the job starts and the
	// entry stays pending in quarantine, the reason naming what was
	// missing. nil: sandbox.DefaultRequirement (user and PID namespaces,
	// network namespace, mount namespace, seccomp, a memory and a process
	// limit by cgroup or rlimit).
	Require *sandbox.Requirement
}

// SandboxOutcome is what Stage 3 found for an entry; Report.Sandbox
// carries it, so a later stage (causal rollback's lessons) can use a
// breach without re-running anything.
type SandboxOutcome struct {
	Plan       *skill.Plan       `json:"plan,omitempty"`
	Evaluation *skill.Evaluation `json:"evaluation,omitempty"`
	// Breach names the limit that stopped the evaluation: a sandbox limit
	// (wall_clock, memory, cpu, disk, processes, network) or cel_cost.
	Breach string `json:"breach,omitempty"`
	// Component is the library component whose run breached or failed
	// (the evaluation is then void), if it was not the evaluation itself.
	Component string        `json:"component,omitempty"`
	Promoted  int           `json:"promoted,omitempty"`  // novel conditions added to the library
	LLMCalls  int           `json:"llm_calls,omitempty"` // calls the LLM decomposition made
	Elapsed   time.Duration `json:"elapsed"`             // in the sandbox, all runs
}

// errNotRun: the sandbox could not run the evaluation to a verdict; the
// entry waits in quarantine.
var errNotRun = errors.New("the sandbox could not run the evaluation")

// requirement is the isolation s requires of every run.
func (s *Stage3) requirement() sandbox.Requirement {
	if s.Require == nil {
		return sandbox.DefaultRequirement
	}
	return *s.Require
}

// Evaluate runs e through Stage 3 alone: decomposition, the library and
// the sandboxed evaluation, at the pipeline's strictness. It stores and
// promotes nothing. An error wrapping skill.ErrUndecomposable means e
// cannot be evaluated; any other error that the sandbox could not run.
func (s *Stage3) Evaluate(ctx context.Context, e *knowledge.Entry, st knowledge.Strictness) (*SandboxOutcome, error) {
	lib := s.library()
	calls := 0
	f, err := skill.Decompose(e)
	if errors.Is(err, skill.ErrUndecomposable) && s.LLM != nil {
		f, calls, err = s.LLM.DecomposeWith(ctx, e, lib)
	}
	if err != nil {
		if calls > 0 {
			return &SandboxOutcome{LLMCalls: calls}, err
		}
		return nil, err
	}
	plan, err := lib.Compose(f)
	if err != nil {
		return &SandboxOutcome{LLMCalls: calls}, err
	}
	out := &SandboxOutcome{Plan: plan, LLMCalls: calls}
	frag, err := s.sized(ctx, lib, f, out)
	if err != nil || frag == nil { // nil: a sizing component breached
		return out, err
	}
	return out, s.evaluate(ctx, lib, frag, st, out)
}

// sized returns a copy of f whose actions sized by a compiled component
// have the size it returns, run once per component in the sandbox (a
// ward_v1 component sizes each trade in the evaluation instead). A
// component that breaches its limits is recorded in out, and sized
// returns no fragment: the evaluation ends there.
func (s *Stage3) sized(ctx context.Context, lib *skill.Library, f *skill.Fragment, out *SandboxOutcome) (*skill.Fragment, error) {
	frag := *f
	frag.Actions = append([]skill.Action(nil), f.Actions...)
	sizes := map[string]float64{}
	for i, a := range frag.Actions {
		if a.SizeFrom == "" {
			continue
		}
		size, ok := sizes[a.SizeFrom]
		if !ok {
			c, _ := lib.Get(a.SizeFrom) // Compose checked it exists
			if c.Func == "" {
				continue // a ward_v1 component: run in the evaluation, at each trade
			}
			spec, err := sandbox.WASM(c.WASM, c.Func, nil, s.Limits)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", errNotRun, err)
			}
			spec.Require = s.requirement()
			res, err := sandbox.Run(ctx, spec)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", errNotRun, err)
			}
			out.Elapsed += res.Elapsed
			if res.Breach != sandbox.BreachNone {
				out.Breach, out.Component = res.Breach.String(), c.Name
				return nil, nil
			}
			vals, err := sandbox.WASMResults(res)
			if err != nil || len(vals) == 0 {
				return nil, fmt.Errorf("%w: sizing component %s returned no size", errNotRun, c.Name)
			}
			size = float64(min(vals[0], 10_000)) / 10_000
			sizes[a.SizeFrom] = size
		}
		frag.Actions[i].Size, frag.Actions[i].SizeFrom, frag.Actions[i].SizeArgs = size, "", nil
	}
	return &frag, nil
}

// evaluate runs the sandboxed evaluation of frag against the baseline
// strategy in s's market (longer when st is paranoid) and records in out
// its result, or its breach.
func (s *Stage3) evaluate(ctx context.Context, lib *skill.Library, frag *skill.Fragment, st knowledge.Strictness, out *SandboxOutcome) error {
	m := s.Market
	if st == knowledge.Paranoid {
		m.Ticks = max(m.Ticks, ParanoidSandboxTicks)
	}
	comps := lib.Needs(append([]*skill.Fragment{frag}, s.Strategy...)...)
	in, err := json.Marshal(skill.Request{Fragment: frag, Baseline: s.Strategy, Market: m, Recorded: s.Recorded, Tolerance: s.Tolerance, Components: comps})
	if err != nil {
		return fmt.Errorf("%w: %w", errNotRun, err)
	}
	res, err := sandbox.Run(ctx, sandbox.Spec{Job: skill.JobName, Input: in, Limits: s.Limits, Require: s.requirement()})
	if err != nil {
		return fmt.Errorf("%w: %w", errNotRun, err)
	}
	out.Elapsed += res.Elapsed
	if res.Breach != sandbox.BreachNone {
		out.Breach = res.Breach.String()
		return nil
	}
	if !res.OK() {
		return fmt.Errorf("%w: the job exited %d", errNotRun, res.ExitCode)
	}
	var ev skill.Evaluation
	if err := json.Unmarshal(res.Output, &ev); err != nil {
		return fmt.Errorf("%w: output: %w", errNotRun, err)
	}
	out.Evaluation = &ev
	out.Breach, out.Component = ev.Exceeded, ev.Component
	return nil
}

// SkillChat is the transport of Stage 3's LLM decomposition
// (skill.LLMConfig.Chat): llm.ChatJSON over client (nil:
// http.DefaultClient).
func SkillChat(client *http.Client) skill.ChatFunc {
	return func(ctx context.Context, ep skill.ChatEndpoint, system string, user []byte, out any) error {
		ep.Client = client
		return llm.ChatJSON(ctx, ep, system, user, out)
	}
}

// baselineName says what an entry was judged against.
func (s *Stage3) baselineName() string {
	if len(s.Strategy) > 0 {
		return fmt.Sprintf("agent's strategy (%d rules)", len(s.Strategy))
	}
	return "hold baseline"
}

func (s *Stage3) library() *skill.Library {
	if s.Library == nil {
		return skill.NewLibrary()
	}
	return s.Library
}

// withDefaults returns a copy of s with its own library, so that
// promotions accumulate; nil stays nil.
func (s *Stage3) withDefaults() *Stage3 {
	if s == nil {
		return nil
	}
	c := *s
	c.Library = s.library()
	return &c
}

// trial is what Stage 3 found of an entry: wait says why it could not
// evaluate it (the entry stays pending in quarantine), reject why it fails;
// otherwise it passed, with out its outcome.
type trial struct {
	out    *SandboxOutcome
	wait   string
	reject *fault
}

// stage3 evaluates x, an actionable entry that passed consensus where the
// strictness requires the sandbox: it fails on a breach
// (sandbox_resource_exceeded) or a failed evaluation, and waits when no
// Stage3 is configured, x cannot be decomposed or the sandbox could not
// run. A failure here is not an attack: nothing is remembered in the
// immune memory or the oracle.
func (p *Pipeline) stage3(ctx context.Context, x *subject) (trial, error) {
	if p.cfg.Stage3 == nil {
		return trial{wait: "no Stage 3 evaluator is configured"}, nil
	}
	out, err := p.cfg.Stage3.Evaluate(ctx, x.e, p.cfg.Strictness)
	x.r.Sandbox = out
	switch {
	case ctx.Err() != nil:
		return trial{}, fmt.Errorf("ingest %s: sandbox: %w", x.e.ID, ctx.Err())
	case errors.Is(err, skill.ErrUndecomposable):
		return trial{wait: "it cannot be evaluated (" + err.Error() + ")"}, nil
	case errors.Is(err, sandbox.ErrNotEnforced):
		missing := "unknown"
		if ne, ok := errors.AsType[*sandbox.NotEnforcedError](err); ok {
			missing = strings.Join(ne.Missing, ", ")
		}
		return trial{wait: "the sandbox could not put in force the isolation Stage 3 requires (missing: " + missing + "), so it refused to evaluate"}, nil
	case err != nil:
		return trial{wait: errNotRun.Error()}, nil
	case out.Breach != "":
		f, err := p.breach(ctx, x.e, out)
		return trial{reject: &f}, err
	}
	ev := out.Evaluation
	if ev.Component != "" {
		why := append([]string{"the evaluation is void: WASM component " + ev.Component + " failed"}, ev.Reasons...)
		return trial{reject: &fault{stage: StageSandbox, layer: knowledge.LayerSandbox, code: reason.KnowledgeSandboxFailed, why: why, stored: true}}, nil
	}
	x.r.Scores["sandbox_mean_return"] = ev.Strategy.MeanReturn
	x.r.Scores["sandbox_baseline_mean_return"] = ev.Baseline.MeanReturn
	x.r.Scores["sandbox_worst_loss"] = ev.Strategy.WorstLoss
	x.r.Scores["sandbox_max_drawdown"] = ev.Strategy.MaxDrawdown
	if !ev.Pass {
		why := append([]string{fmt.Sprintf("against the %s over %d scenarios of up to %d ticks", p.cfg.Stage3.baselineName(), ev.Scenarios, ev.Ticks)}, ev.Reasons...)
		return trial{reject: &fault{stage: StageSandbox, layer: knowledge.LayerSandbox, code: reason.KnowledgeSandboxFailed, why: why, stored: true}}, nil
	}
	return trial{out: out}, nil
}

// breach is the fault of an entry whose evaluation breached a limit; a
// lesson about it is stored.
func (p *Pipeline) breach(ctx context.Context, e *knowledge.Entry, out *SandboxOutcome) (fault, error) {
	why := "the evaluation breached the sandbox limit " + out.Breach
	if out.Evaluation != nil && out.Evaluation.Exceeded == "cel_cost" {
		why = "a condition exceeded its CEL cost budget (" + out.Breach + ")"
	}
	if out.Component != "" {
		why = fmt.Sprintf("component %s breached the sandbox limit %s", out.Component, out.Breach)
	}
	reasons := []string{why}
	l, err := p.sandboxLesson(ctx, e, out, why)
	if err != nil {
		return fault{}, fmt.Errorf("ingest %s: sandbox lesson: %w", e.ID, err)
	}
	if l != "" {
		reasons = append(reasons, "lesson "+l+" stored")
	}
	return fault{stage: StageSandbox, layer: knowledge.LayerSandbox, code: reason.KnowledgeSandboxExceeded, why: reasons, stored: true, lesson: l}, nil
}

// sandboxPassed ends Stage 3 for x, adopted (or confirming) after passing
// it with outcome out: the plan's novel conditions join the library and
// the report says what the entry was judged against.
func (p *Pipeline) sandboxPassed(ctx context.Context, x *subject, out *SandboxOutcome) error {
	if x.r.Verdict != Adopted && x.r.Verdict != Confirmed {
		return nil
	}
	var err error
	if out.Promoted, err = p.promote(ctx, x.e, out.Plan); err != nil {
		return fmt.Errorf("ingest %s: adopted, but %w", x.e.ID, err)
	}
	ev := out.Evaluation
	x.r.Reasons = append(x.r.Reasons, fmt.Sprintf("Stage 3: passed against the %s over %d scenarios (mean return %.2f%%, baseline %.2f%%)",
		p.cfg.Stage3.baselineName(), ev.Scenarios, 100*ev.Strategy.MeanReturn, 100*ev.Baseline.MeanReturn))
	return nil
}

// awaitSandbox holds x, an actionable entry that passed consensus, in
// quarantine because Stage 3 cannot evaluate it, saying why.
func (p *Pipeline) awaitSandbox(x *subject, passed []string, why string) {
	e, r := x.e, x.r
	p.publish(x.log, event.GrimoireValidationPassed, reason.KnowledgeSandboxRequired, true, event.ValidationPassed{EntryID: e.ID, LayersPassed: slices.Clone(passed), Score: meanScore(r, passed)})
	need := fmt.Sprintf("%s strictness requires the Stage 3 sandbox for a %s entry", p.cfg.Strictness, e.Type)
	if p.cfg.Strictness == knowledge.Paranoid {
		need += fmt.Sprintf(", run for an extended %d ticks", ParanoidSandboxTicks)
	}
	r.Verdict, r.Stage, r.Code = Quarantined, StageSandbox, reason.KnowledgeSandboxRequired
	r.Reasons = []string{string(r.Code), votesPassed(passed), need + "; " + why + ", so the entry stays pending in quarantine"}
}

// ErrNoStage3 is returned by SandboxHeuristic when the pipeline has no
// Stage 3 evaluator.
var ErrNoStage3 = errors.New("ingest: no Stage 3 evaluator is configured")

// SandboxHeuristic evaluates, without deciding or storing anything, the
// entry id (quarantined or adopted) or, when id is empty, an entry made of
// h or text. The outcome's Breach, Evaluation and Plan say what Stage 3
// would find; an error wrapping skill.ErrUndecomposable means it cannot
// evaluate it, ErrNoEntry that id is unknown.
func (p *Pipeline) SandboxHeuristic(ctx context.Context, id string, h *knowledge.Heuristic, text string) (*SandboxOutcome, error) {
	if p.cfg.Stage3 == nil {
		return nil, ErrNoStage3
	}
	e := &knowledge.Entry{ID: "inline", Content: text, Type: knowledge.TypeHeuristic, Heuristic: h}
	if id != "" {
		if k, ok := p.grim.Get(id); ok {
			e = k.Entry
		} else {
			q, err := p.cfg.Store.QuarantinedEntry(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				return nil, ErrNoEntry
			}
			if err != nil {
				return nil, fmt.Errorf("ingest: %w", err)
			}
			e = &q.Entry
		}
	}
	return p.cfg.Stage3.Evaluate(ctx, e, p.cfg.Strictness)
}

func (p *Pipeline) sandboxTool(ctx context.Context, in *registry.Input) (*tool.Result, error) {
	var a struct {
		EntryID   string               `json:"entry_id"`
		Text      string               `json:"text"`
		Heuristic *knowledge.Heuristic `json:"heuristic"`
	}
	if err := json.Unmarshal(in.Raw, &a); err != nil || (a.EntryID == "") == (a.Text == "" && a.Heuristic == nil) {
		return nil, errArgs
	}
	if h := a.Heuristic; h != nil && !heuristicBounded(h) {
		return nil, errArgs
	}
	out, err := p.SandboxHeuristic(ctx, a.EntryID, a.Heuristic, a.Text)
	switch {
	case errors.Is(err, skill.ErrUndecomposable):
		return tool.ReadResult(defSandbox, map[string]string{"state": "not_evaluable", "reason": err.Error()})
	case errors.Is(err, ErrNoEntry), errors.Is(err, ErrNoStage3):
		return nil, fmt.Errorf("sandbox heuristic: %w", err)
	case err != nil:
		return nil, errors.New("sandbox heuristic: the sandbox could not run the evaluation")
	}
	return tool.ReadResult(defSandbox, out)
}

// heuristicBounded reports whether h keeps within knowledge's bounds on
// items and field lengths.
func heuristicBounded(h *knowledge.Heuristic) bool {
	if len(h.Conditions) > knowledge.MaxItems || len(h.Actions) > knowledge.MaxItems || len(h.Parameters) > knowledge.MaxItems {
		return false
	}
	for _, l := range [][]string{h.Conditions, h.Actions} {
		for _, x := range l {
			if len(x) > knowledge.MaxField {
				return false
			}
		}
	}
	for k, v := range h.Parameters {
		if len(k) > knowledge.MaxField || len(v) > knowledge.MaxField {
			return false
		}
	}
	return true
}

// promote adds the novel conditions of the adopted entry e's plan to the
// skill library (skill.Promotion), saving those the library accepts to the
// State, if any, before the library holds them, and returns how many were
// added.
func (p *Pipeline) promote(ctx context.Context, e *knowledge.Entry, plan *skill.Plan) (int, error) {
	lib := p.cfg.Stage3.library()
	var cs []skill.Component
	for _, c := range skill.Promotion(e.ID, plan) {
		if _, held := lib.Get(c.Name); !held && skill.Check(c.Expr) == nil {
			cs = append(cs, c)
		}
	}
	if len(cs) > 0 && p.cfg.State != nil {
		if err := p.cfg.State.AddSkills(context.WithoutCancel(ctx), cs, p.cfg.Now()); err != nil {
			return 0, fmt.Errorf("its conditions could not be promoted: %w", err)
		}
	}
	n := 0
	for _, c := range cs {
		if lib.Add(c) == nil {
			n++
		}
	}
	return n, nil
}

// LoadLibrary adds the components the State holds to lib, skipping names
// lib already holds; a stored component that no longer verifies is an
// error.
func LoadLibrary(ctx context.Context, st store.Skills, lib *skill.Library) error {
	cs, err := st.SkillComponents(ctx)
	if err != nil {
		return fmt.Errorf("ingest: skill library: %w", err)
	}
	for _, c := range cs {
		if _, ok := lib.Get(c.Name); ok {
			continue
		}
		if err := lib.Add(c); err != nil {
			return fmt.Errorf("ingest: skill library: %w", err)
		}
	}
	return nil
}

// SandboxLessonConfidence is the confidence of the lesson a sandbox breach
// leaves.
const SandboxLessonConfidence = 0.8

// sandboxLesson stores the lesson of a breach (seed 5: a breach rejects
// the entry "with sandbox_resource_exceeded and a lesson"): the source and
// the breaching component are its keywords, so that consulting the lessons
// before acting on either finds it. It returns the lesson's id, or "" if
// the breach makes no valid lesson; an error if the lesson could not be
// saved.
func (p *Pipeline) sandboxLesson(ctx context.Context, e *knowledge.Entry, out *SandboxOutcome, why string) (string, error) {
	now := p.cfg.Now()
	keywords := []string{e.Source.Agent}
	if out.Component != "" {
		keywords = append(keywords, out.Component)
	}
	l := adopt.Lesson{
		ID:         "sandbox-" + id.New(now),
		Summary:    fmt.Sprintf("entry %s from %s was stopped in the sandbox: %s", e.ID, e.Source.Agent, why),
		Advice:     "do not run this strategy or its components outside the sandbox",
		Reason:     string(reason.KnowledgeSandboxExceeded),
		EntryID:    e.ID,
		Keywords:   keywords,
		Confidence: SandboxLessonConfidence,
		Created:    now,
	}
	if err := p.addLesson(ctx, l); errors.Is(err, adopt.ErrInvalid) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	return l.ID, nil
}
