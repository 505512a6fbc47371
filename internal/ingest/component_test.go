package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/wasm"
	"github.com/wardhq/ward/internal/wasm/wasmtest"
)

// Component guests are built once per test binary with the toolchain
// that runs the tests: the shipped example, the hostile component and
// package wasm's guest that imports a host function ward lacks.
var (
	guestOnce sync.Once
	guestDir  string
	guestErr  error
)

func componentModule(t testing.TB, name string) []byte {
	t.Helper()
	guestOnce.Do(func() {
		guestDir, guestErr = os.MkdirTemp("", "ward-component-guests-")
		if guestErr != nil {
			return
		}
		for dir, out := range map[string]string{
			"../../examples/wasm-component": "example.wasm",
			"testdata/component":            "attack.wasm",
			"../wasm/testdata/badimport":    "badimport.wasm",
		} {
			if guestErr = wasmtest.Build(dir, filepath.Join(guestDir, out)); guestErr != nil {
				return
			}
		}
	})
	if guestErr != nil {
		t.Fatal(guestErr)
	}
	b, err := os.ReadFile(filepath.Join(guestDir, name+".wasm"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestComponentModule runs the hostile component directly: what each
// attack gets from the host.
func TestComponentModule(t *testing.T) {
	ctx := t.Context()
	attack := componentModule(t, "attack")
	if _, err := LoadComponent(ctx, componentModule(t, "badimport"), skill.WASMLimits{}); err == nil || !strings.Contains(err.Error(), "does not provide") {
		t.Errorf("a module importing a host function ward lacks: %v, want refused", err)
	}
	if _, err := LoadComponent(ctx, []byte("\x00asm\x01\x00\x00\x00"), skill.WASMLimits{}); err == nil {
		t.Error("a module without ward_run was loaded")
	}
	m, err := LoadComponent(ctx, attack, hostileLimits)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	run := func(mode string) (json.RawMessage, error) {
		return m.Run(ctx, []byte(`{"kind":"condition","args":{"mode":"`+mode+`"},"market":{}}`))
	}
	// Unbounded recursion grows the guest's stack by copying it: the CPU
	// budget or the memory limit stops it, whichever comes first.
	for _, c := range []struct {
		mode   string
		limits []string
	}{{"loop", []string{"cpu"}}, {"alloc", []string{"memory"}}, {"recurse", []string{"cpu", "memory"}}} {
		start := time.Now()
		_, err := run(c.mode)
		var le *skill.LimitError
		if !errors.As(err, &le) || !slices.Contains(c.limits, le.Limit) {
			t.Errorf("%s: %v, want a limit of %v", c.mode, err, c.limits)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: stopped after %v", c.mode, d)
		}
	}
	if out, err := run("call"); err != nil || string(out) != "-5" {
		t.Errorf("a call to a read tool: %s, %v; want -5 (no session)", out, err)
	}
	for _, mode := range []string{"silent", "extra"} {
		if out, err := run(mode); err == nil {
			t.Errorf("%s: result %s accepted", mode, out)
		}
	}
	if out, err := run("true"); err != nil || string(out) != "true" {
		t.Errorf("true: %s, %v", out, err)
	}
}

// hostileLimits let the hostile component reach its memory limit well
// before its CPU budget.
var hostileLimits = skill.WASMLimits{Memory: 24 << 20, CPU: 300 * time.Millisecond, WallClock: 2 * time.Second}

// exampleLibrary holds the shipped example registered as a condition
// (oversold_calm) and as a sizing (vol_target), and the hostile component
// as both kinds.
func exampleLibrary(t *testing.T) *skill.Library {
	t.Helper()
	lib := skill.NewLibrary()
	ex, attack := componentModule(t, "example"), componentModule(t, "attack")
	for _, c := range []skill.Component{
		{Name: "oversold_calm", Kind: skill.KindCondition, Text: "rsi oversold in a calm market", WASM: ex},
		{Name: "vol_target", Kind: skill.KindSizing, Text: "volatility-targeted size", WASM: ex},
		{Name: "hostile", Kind: skill.KindCondition, Text: "a hostile condition", WASM: attack, Limits: hostileLimits},
		{Name: "hostile_size", Kind: skill.KindSizing, Text: "a hostile sizing", WASM: attack, Limits: hostileLimits},
		{Name: "lacking", Kind: skill.KindCondition, Text: "imports a host function ward lacks", WASM: componentModule(t, "badimport")},
	} {
		if err := lib.Add(c); err != nil {
			t.Fatal(err)
		}
	}
	return lib
}

// TestComponentEvaluation checks, in process, that a component's result
// is what the evaluation uses: a WASM condition over the market state
// triggers exactly where the same CEL condition does, and a WASM size
// from its arguments and the market state is the size traded.
func TestComponentEvaluation(t *testing.T) {
	lib := exampleLibrary(t)
	market := skill.Market{Scenarios: 8}
	eval := func(t *testing.T, f *skill.Fragment) *skill.Evaluation {
		t.Helper()
		req := &skill.Request{Fragment: f, Market: market, Components: lib.Needs(f)}
		ev, err := skill.EvaluateWASM(t.Context(), req, LoadComponent)
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	cond := func(args string) skill.Condition {
		return skill.Condition{Text: "oversold", Component: "oversold_calm", Args: json.RawMessage(args)}
	}
	buy := func(size float64) []skill.Action {
		return []skill.Action{{Text: "buy", Kind: skill.ActBuy, Size: size}}
	}
	sized := func(args string) []skill.Action {
		return []skill.Action{{Text: "buy", Kind: skill.ActBuy, SizeFrom: "vol_target", SizeArgs: json.RawMessage(args)}}
	}
	cel := eval(t, &skill.Fragment{Conditions: []skill.Condition{{Text: "rsi", Expr: "rsi < 45.0"}}, Actions: buy(0.2)})
	wasmCond := eval(t, &skill.Fragment{Conditions: []skill.Condition{cond(`{"rsi_below": 45}`)}, Actions: buy(0.2)})
	if cel.Strategy.Triggers == 0 || wasmCond.Strategy != cel.Strategy {
		t.Errorf("WASM condition: %+v\nCEL condition: %+v; want the same, with triggers", wasmCond.Strategy, cel.Strategy)
	}
	calm := eval(t, &skill.Fragment{Conditions: []skill.Condition{cond(`{"rsi_below": 45, "max_vol": 0.012}`)}, Actions: buy(0.2)})
	calmCEL := eval(t, &skill.Fragment{Conditions: []skill.Condition{{Text: "rsi", Expr: "rsi < 45.0 && vol <= 0.012"}}, Actions: buy(0.2)})
	if calm.Strategy != calmCEL.Strategy || calm.Strategy.Triggers >= cel.Strategy.Triggers {
		t.Errorf("calm WASM condition %+v, CEL %+v (all: %d triggers)", calm.Strategy, calmCEL.Strategy, cel.Strategy.Triggers)
	}
	capped := eval(t, &skill.Fragment{Conditions: []skill.Condition{{Text: "rsi", Expr: "rsi < 45.0"}}, Actions: sized(`{"target_vol": 100, "max": 0.2}`)})
	if capped.Strategy != cel.Strategy {
		t.Errorf("a size capped at its max 0.2: %+v, want the fixed 0.2's %+v", capped.Strategy, cel.Strategy)
	}
	small := eval(t, &skill.Fragment{Conditions: []skill.Condition{{Text: "rsi", Expr: "rsi < 45.0"}}, Actions: sized(`{"target_vol": 0.001, "max": 0.2}`)})
	if small.Strategy.Triggers != cel.Strategy.Triggers || small.Strategy.Turnover <= 0 || small.Strategy.Turnover >= cel.Strategy.Turnover {
		t.Errorf("a volatility-targeted size: turnover %v, want below the fixed size's %v", small.Strategy.Turnover, cel.Strategy.Turnover)
	}
	// CEL conditions run first: a component behind one that never holds
	// never runs (the hostile loop would void the evaluation).
	guarded := eval(t, &skill.Fragment{Conditions: []skill.Condition{
		{Text: "loop", Component: "hostile", Args: json.RawMessage(`{"mode": "loop"}`)}, {Text: "never", Expr: "rsi < 0.0"}}, Actions: buy(0.2)})
	if guarded.Strategy.Triggers != 0 || guarded.Exceeded != "" {
		t.Errorf("guarded component: %+v", guarded)
	}
	// A fragment naming a component the request does not provide fails.
	f := &skill.Fragment{Conditions: []skill.Condition{cond(`{}`)}, Actions: buy(0.1)}
	if _, err := skill.EvaluateWASM(t.Context(), &skill.Request{Fragment: f, Market: market}, LoadComponent); err == nil {
		t.Error("a fragment naming an absent component was evaluated")
	}
	if _, err := skill.EvaluateWASM(t.Context(), &skill.Request{Fragment: f, Market: market, Components: lib.Needs(f)}, nil); err == nil {
		t.Error("a WASM component was evaluated without a loader")
	}
}

// TestStage3Components runs entries naming WASM components through the
// pipeline and its sandbox: a real component decides a strategy that is
// adopted; every hostile one voids the evaluation and the entry is
// rejected with the component and the reason named; an unregistered
// name leaves the entry pending.
func TestStage3Components(t *testing.T) {
	lib := exampleLibrary(t)
	heuristic := func(cond string, params map[string]string) *knowledge.Heuristic {
		return &knowledge.Heuristic{Conditions: []string{cond}, Actions: []string{"buy"}, Parameters: params}
	}
	sizing := map[string]string{"size_component": "vol_target", "size_args": `{"target_vol": 0.004, "max": 0.25}`}
	cases := []struct {
		name    string
		h       *knowledge.Heuristic
		verdict Verdict
		code    reason.Code
		breach  string
		why     string
	}{
		{"real component adopted", heuristic(`component: oversold_calm {"rsi_below": 10}`, sizing), Adopted, reason.KnowledgeAdopted, "", ""},
		{"loop", heuristic(`component: hostile {"mode": "loop"}`, nil), Rejected, reason.KnowledgeSandboxExceeded, "wasm_cpu", "component hostile breached the sandbox limit wasm_cpu"},
		{"alloc", heuristic(`component: hostile {"mode": "alloc"}`, nil), Rejected, reason.KnowledgeSandboxExceeded, "wasm_memory", "component hostile breached the sandbox limit wasm_memory"},
		{"garbage condition", heuristic(`component: hostile {"mode": "garbage"}`, nil), Rejected, reason.KnowledgeSandboxFailed, "", "not a JSON boolean"},
		{"garbage size", heuristic("rsi below 101", map[string]string{"size_component": "hostile_size", "size_args": `{"mode": "huge"}`}), Rejected, reason.KnowledgeSandboxFailed, "", "not a number in [0, 1]"},
		{"no result", heuristic(`component: hostile {"mode": "silent"}`, nil), Rejected, reason.KnowledgeSandboxFailed, "", "without a result"},
		{"write requests", heuristic(`component: hostile {"mode": "extra"}`, nil), Rejected, reason.KnowledgeSandboxFailed, "", "not a JSON object with a result"},
		{"lacking host function", heuristic(`component: lacking`, nil), Rejected, reason.KnowledgeSandboxFailed, "", "does not provide"},
		{"unregistered", heuristic(`component: kelly.wasm`, nil), Quarantined, reason.KnowledgeSandboxRequired, "", "not registered"},
		{"sizing as condition", heuristic(`component: vol_target`, nil), Quarantined, reason.KnowledgeSandboxRequired, "", "not registered"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, knowledge.Strict, votes(true, true, true)...)
			withStage3(t, h, &Stage3{Library: lib, Market: skill.Market{Scenarios: 8},
				Limits: sandbox.Limits{WallClock: 60 * time.Second, CPUTime: 60 * time.Second, Memory: stage3Memory()}})
			e := h.entry("a strategy using a registered component: "+c.name, 0.5)
			e.Type, e.Heuristic = knowledge.TypeHeuristic, c.h
			r := h.ingest(h.sign(e, nil))
			stage := StageSandbox
			if c.verdict == Adopted {
				stage = StageAdopt
			}
			want(t, r, c.verdict, stage, c.code, knowledge.NoAttack)
			t.Logf("reasons %q", r.Reasons)
			if c.why != "" && !reasonsContain(r, c.why) {
				t.Errorf("reasons %q do not say %q", r.Reasons, c.why)
			}
			_, adopted := h.p.Grimoire().Get(e.ID)
			if adopted != (c.verdict == Adopted) {
				t.Errorf("in the Grimoire: %v", adopted)
			}
			switch c.verdict {
			case Adopted:
				ev := r.Sandbox.Evaluation
				if ev == nil || !ev.Pass || ev.Strategy.Triggers == 0 || ev.Strategy.Turnover == 0 {
					t.Errorf("evaluation %+v, want a passing one that traded", ev)
				}
			case Rejected:
				if q := h.status(e.ID); q.Status != store.QuarantineFailed {
					t.Errorf("row %s, want failed", q.Status)
				}
				if r.Sandbox == nil || r.Sandbox.Breach != c.breach || r.Sandbox.Promoted != 0 {
					t.Errorf("sandbox outcome %+v, want breach %q", r.Sandbox, c.breach)
				}
				if _, scored := r.Scores["sandbox_mean_return"]; scored {
					t.Error("a void evaluation was scored")
				}
			case Quarantined:
				if q := h.status(e.ID); q.Status != store.QuarantinePending {
					t.Errorf("row %s, want pending", q.Status)
				}
			}
		})
	}
}

// TestComponentLimitsMapped keeps the skill limits and package wasm's in
// step.
func TestComponentLimitsMapped(t *testing.T) {
	got := ComponentLimits(skill.WASMLimits{Memory: 1 << 20, WallClock: time.Second, CPU: time.Millisecond})
	if got != (wasm.Limits{Memory: 1 << 20, WallClock: time.Second, CPU: time.Millisecond}) {
		t.Errorf("limits %+v", got)
	}
	if _, err := LoadComponent(context.Background(), componentModule(t, "example"), skill.WASMLimits{CPU: time.Hour}); err == nil {
		t.Error("a cpu budget above the wall clock was accepted")
	}
}

// TestComponentInBaseline: a component of the agent's own strategy that
// fails is no verdict on the entry under test: the job fails (the entry
// would stay pending), it is not a void evaluation that rejects it.
func TestComponentInBaseline(t *testing.T) {
	lib := exampleLibrary(t)
	own := &skill.Fragment{Conditions: []skill.Condition{{Text: "garbage", Component: "hostile", Args: json.RawMessage(`{"mode": "garbage"}`)}},
		Actions: []skill.Action{{Text: "wait", Kind: skill.ActWait}}}
	entry := &skill.Fragment{Conditions: []skill.Condition{{Text: "rsi", Expr: "rsi < 30.0"}}, Actions: []skill.Action{{Text: "buy", Kind: skill.ActBuy, Size: 0.1}}}
	req := &skill.Request{Fragment: entry, Baseline: []*skill.Fragment{own}, Market: skill.Market{Scenarios: 2}, Components: lib.Needs(entry, own)}
	_, err := skill.EvaluateWASM(t.Context(), req, LoadComponent)
	var ce *skill.ComponentError
	if err == nil || errors.As(err, &ce) || !strings.Contains(err.Error(), "the agent's strategy") {
		t.Errorf("err = %v, want a failure of the agent's strategy that is not a component error", err)
	}
}

// stage3Memory is the Stage 3 job's memory limit in these tests: the
// default, except under the race detector, whose shadow memory (the job is
// this test binary re-executed under it, compiling and running a Go-built
// module) passes 256 MB. The components' own limits are unchanged.
func stage3Memory() int64 {
	if raceEnabled {
		return 1 << 30
	}
	return 0
}
