package ingest

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/event"
	"github.com/wardhq/ward/internal/knowledge"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/skill"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/postgres/pgtest"
	"github.com/wardhq/ward/internal/tool"
)

func TestMain(m *testing.M) {
	if code, ok := sandbox.Main(SandboxJobs()); ok {
		os.Exit(code)
	}
	code := pgtest.Main(m)
	if guestDir != "" {
		os.RemoveAll(guestDir)
	}
	os.Exit(code)
}

// Hand-assembled WebAssembly sizing components (see internal/sandbox's
// wasm_test.go for the format).
var (
	// sizeModule exports "size" () -> i32, returning 2500 basis points.
	sizeModule = []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x05\x01\x60\x00\x01\x7f" + // type 0: () -> i32
		"\x03\x02\x01\x00" + // func 0: type 0
		"\x07\x08\x01\x04size\x00\x00" + // export "size" func 0
		"\x0a\x07\x01\x05\x00\x41\xc4\x13\x0b") // i32.const 2500 end
	// spinModule exports "size" () -> (), which loops forever.
	spinModule = []byte("\x00asm\x01\x00\x00\x00" +
		"\x01\x04\x01\x60\x00\x00" +
		"\x03\x02\x01\x00" +
		"\x07\x08\x01\x04size\x00\x00" +
		"\x0a\x09\x01\x07\x00\x03\x40\x0c\x00\x0b\x0b") // loop br 0 end end
)

// withStage3 rebuilds h's pipeline with a Stage 3 evaluator.
func withStage3(t *testing.T, h *harness, s *Stage3) {
	t.Helper()
	cfg := h.p.cfg
	cfg.Stage3 = s
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.p = p
}

func TestStage3(t *testing.T) {
	const (
		reasonable = "When the price drops 25 % and position below 65 %, buy 25 %."
		harmful    = "Sell everything when the price drops 1 %."
	)
	expensive := "cel: [1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, a + b + c + tick > 0)))"
	cases := []struct {
		name      string
		strict    knowledge.Strictness
		content   string
		heuristic *knowledge.Heuristic
		verdict   Verdict
		code      reason.Code
		breach    string
	}{
		{"reasonable adopted", knowledge.Strict, reasonable, nil, Adopted, reason.KnowledgeAdopted, ""},
		{"reasonable adopted paranoid", knowledge.Paranoid, reasonable, nil, Adopted, reason.KnowledgeAdopted, ""},
		{"harmful rejected", knowledge.Strict, harmful, nil, Rejected, reason.KnowledgeSandboxFailed, ""},
		{"undecomposable held", knowledge.Strict, "Liquidity providers should follow the moon.", nil, Quarantined, reason.KnowledgeSandboxRequired, ""},
		{"wasm sizing", knowledge.Strict, "crash buyer, sized by a component",
			&knowledge.Heuristic{Conditions: []string{"price drops 25 %", "position below 65 %"}, Actions: []string{"buy"}, Parameters: map[string]string{"size_component": "quarter"}},
			Adopted, reason.KnowledgeAdopted, ""},
		{"wasm infinite loop", knowledge.Strict, "crash buyer, sized by a spinning component",
			&knowledge.Heuristic{Conditions: []string{"price drops 25 %"}, Actions: []string{"buy"}, Parameters: map[string]string{"size_component": "spin"}},
			Rejected, reason.KnowledgeSandboxExceeded, "wall_clock"},
		{"cel over budget", knowledge.Strict, "an expensive condition",
			&knowledge.Heuristic{Conditions: []string{expensive}, Actions: []string{"buy 10 %"}},
			Rejected, reason.KnowledgeSandboxExceeded, "cel_cost"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lib := skill.NewLibrary()
			for _, comp := range []skill.Component{
				{Name: "quarter", Kind: skill.KindSizing, Text: "a quarter", WASM: sizeModule, Func: "size"},
				{Name: "spin", Kind: skill.KindSizing, Text: "never returns", WASM: spinModule, Func: "size"},
			} {
				if err := lib.Add(comp); err != nil {
					t.Fatal(err)
				}
			}
			h := newHarness(t, c.strict, votes(true, true, true)...)
			// A generous wall clock, so that a loaded machine does not fail
			// a run that passes (a paranoid run is 4x a strict one); the
			// spinning component gets a short one, as it is the breach.
			limits := sandbox.Limits{WallClock: 60 * time.Second, CPUTime: 60 * time.Second}
			if c.breach == "wall_clock" {
				limits.WallClock = 2 * time.Second
			}
			withStage3(t, h, &Stage3{Library: lib, Market: skill.Market{Scenarios: 8}, Limits: limits})
			e := h.entry(c.content, 0.5)
			e.Type, e.Heuristic = knowledge.TypeHeuristic, c.heuristic
			r := h.ingest(h.sign(e, nil))
			stage := StageSandbox
			if c.verdict == Adopted {
				stage = StageAdopt
			}
			want(t, r, c.verdict, stage, c.code, knowledge.NoAttack)
			t.Logf("reasons %q", r.Reasons)
			_, inGrimoire := h.p.Grimoire().Get(e.ID)
			if inGrimoire != (c.verdict == Adopted) {
				t.Errorf("in the Grimoire: %v", inGrimoire)
			}
			q := h.status(e.ID)
			switch c.verdict {
			case Adopted:
				ev := r.Sandbox.Evaluation
				if ev == nil || !ev.Pass {
					t.Fatalf("sandbox outcome %+v", r.Sandbox)
				}
				if c.strict == knowledge.Paranoid && ev.Ticks != ParanoidSandboxTicks {
					t.Errorf("paranoid run of %d ticks, want %d", ev.Ticks, ParanoidSandboxTicks)
				}
				if c.heuristic == nil && r.Sandbox.Promoted != 2 {
					t.Errorf("promoted %d novel conditions, want 2", r.Sandbox.Promoted)
				}
			case Rejected:
				if q.Status != store.QuarantineFailed {
					t.Errorf("row %s, want failed", q.Status)
				}
				if r.Sandbox == nil || r.Sandbox.Breach != c.breach {
					t.Errorf("sandbox outcome %+v, want breach %q", r.Sandbox, c.breach)
				}
				if c.breach == "" && (r.Sandbox.Evaluation == nil || r.Sandbox.Evaluation.Pass) {
					t.Errorf("evaluation %+v, want a failing one", r.Sandbox.Evaluation)
				}
				if c.breach != "" && r.Sandbox.Promoted != 0 {
					t.Error("a breaching entry promoted components")
				}
				// A breach leaves a lesson keyed on the source (seed 5);
				// a strategy that merely loses does not.
				found := false
				for _, l := range h.p.Lessons().List() {
					found = found || l.EntryID == e.ID && l.Reason == string(reason.KnowledgeSandboxExceeded)
				}
				if found != (c.breach != "") {
					t.Errorf("lesson stored: %v, want %v", found, c.breach != "")
				}
			case Quarantined:
				if q.Status != store.QuarantinePending {
					t.Errorf("row %s, want pending", q.Status)
				}
				if !reasonsContain(r, "cannot be evaluated") {
					t.Errorf("reasons %q do not say why", r.Reasons)
				}
			}
		})
	}
}

// TestStage3Job checks that the evaluation job runs in a sandbox child of
// this test binary at all (the registration in TestMain).
func TestStage3Job(t *testing.T) {
	res, err := sandbox.Run(t.Context(), sandbox.Spec{Job: skill.JobName,
		Input: []byte(`{"fragment":{"conditions":[{"text":"x","expr":"rsi < 30.0"}],"actions":[{"kind":"buy","size":0.1}]},"market":{"scenarios":2}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("job: exit %d, breach %s, output %s", res.ExitCode, res.Breach, res.Output)
	}
	var ev skill.Evaluation
	if err := json.Unmarshal(res.Output, &ev); err != nil || ev.Scenarios != 2 {
		t.Errorf("output %s: %v", res.Output, err)
	}
}

func TestSandboxHeuristicTool(t *testing.T) {
	h := newHarness(t, knowledge.Strict, votes(true, true, true)...)
	tl := func() *registry.Entry {
		reg := registry.New()
		for _, tl := range Tools(h.p) {
			if err := reg.Add(tl); err != nil {
				t.Fatal(err)
			}
		}
		e, ok := reg.Get("memory_sandbox_heuristic")
		if !ok || e.Read == nil || e.Action != "sandbox_heuristic" {
			t.Fatal("memory_sandbox_heuristic is not a registered read tool")
		}
		return e
	}
	read := func(raw string) (*tool.Result, error) {
		t.Helper()
		return tl().Read(h.ctx, &registry.Input{Raw: []byte(raw)})
	}
	if _, err := read(`{"text":"when rsi below 30, buy 10 %"}`); !errors.Is(err, ErrNoStage3) {
		t.Errorf("without Stage 3: %v, want ErrNoStage3", err)
	}
	withStage3(t, h, &Stage3{Market: skill.Market{Scenarios: 8}})
	held := h.entry("Sell everything when the price drops 1 %.", 0.5)
	held.Type = knowledge.TypeHeuristic
	if _, err := h.p.Quarantine(h.ctx, []*knowledge.Entry{h.sign(held, nil)}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, raw string
		pass      bool
		state     string
	}{
		{"text", `{"text":"when gas above 100 gwei, wait"}`, true, ""},
		{"heuristic", `{"heuristic":{"conditions":["price drops 25 %"],"actions":["buy 25 %"]}}`, true, ""},
		{"entry", `{"entry_id":"` + held.ID + `"}`, false, ""},
		{"not evaluable", `{"text":"buy low, sell high"}`, false, "not_evaluable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tl().Validate([]byte(tc.raw)); err != nil {
				t.Fatalf("schema: %v", err)
			}
			res, err := read(tc.raw)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				SandboxOutcome
				State string `json:"state"`
			}
			if err := json.Unmarshal(res.Data, &got); err != nil {
				t.Fatal(err)
			}
			if got.State != tc.state || tc.state == "" && (got.Evaluation == nil || got.Evaluation.Pass != tc.pass) {
				t.Errorf("result %s", res.Data)
			}
		})
	}
	if q := h.status(held.ID); q.Status != store.QuarantinePending {
		t.Errorf("the evaluated entry's row is %s, want still pending", q.Status)
	}
	for _, raw := range []string{`{}`, `{"entry_id":"x","text":"y"}`} {
		if _, err := read(raw); err == nil {
			t.Errorf("%s accepted", raw)
		}
	}
	if _, err := read(`{"entry_id":"nowhere"}`); !errors.Is(err, ErrNoEntry) {
		t.Errorf("unknown id: %v", err)
	}
}

// TestStage3AgentStrategy: with the agent's strategy configured, an entry
// is judged by what it does to that strategy. Waiting when the price
// drops 3 % is harmless to a holder and adopted; it silences a 5 %
// stop-loss, and against that strategy it is rejected.
func TestStage3AgentStrategy(t *testing.T) {
	stop, err := skill.Parse("when price drops 5 %, sell everything")
	if err != nil {
		t.Fatal(err)
	}
	m := skill.Market{Scenarios: 8, Regimes: []skill.Regime{skill.RegimeCrash}}
	for _, c := range []struct {
		strategy []*skill.Fragment
		verdict  Verdict
		code     reason.Code
		says     string
	}{
		{nil, Adopted, reason.KnowledgeAdopted, "hold baseline"},
		{[]*skill.Fragment{stop}, Rejected, reason.KnowledgeSandboxFailed, "agent's strategy (1 rules)"},
	} {
		h := newHarness(t, knowledge.Strict, votes(true, true, true)...)
		withStage3(t, h, &Stage3{Market: m, Strategy: c.strategy})
		e := h.entry("When the price drops 3 %, wait.", 0.5)
		e.Type = knowledge.TypeHeuristic
		r := h.ingest(h.sign(e, nil))
		stage := StageSandbox
		if c.verdict == Adopted {
			stage = StageAdopt
		}
		want(t, r, c.verdict, stage, c.code, knowledge.NoAttack)
		if !reasonsContain(r, c.says) {
			t.Errorf("reasons %q do not name the %s", r.Reasons, c.says)
		}
	}
}

// TestStage3LLMDecomposition: an entry the parser cannot decompose goes
// to the configured model; its fragment is evaluated like a parsed one.
// A model that says the entry is no trading behaviour, or that fails,
// leaves it waiting in quarantine.
func TestStage3LLMDecomposition(t *testing.T) {
	const content = "Liquidity providers should follow the moon."
	fragment := `{"decomposable":true,"conditions":[{"text":"price fell a quarter","expr":"chg <= -0.25"}],"actions":[{"text":"buy a little","kind":"buy","size":0.1}]}`
	for _, c := range []struct {
		name    string
		status  int
		reply   string
		verdict Verdict
		code    reason.Code
		calls   int
	}{
		{"decomposed and evaluated", 200, fragment, Adopted, reason.KnowledgeAdopted, 1},
		{"not a trading behaviour", 200, `{"decomposable":false}`, Quarantined, reason.KnowledgeSandboxRequired, 1},
		{"model down", 500, "", Quarantined, reason.KnowledgeSandboxRequired, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var hits atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				if c.status != 200 {
					w.WriteHeader(c.status)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"role": "assistant", "content": c.reply}}}})
			}))
			t.Cleanup(srv.Close)
			llm, err := skill.NewLLM(skill.LLMConfig{Endpoint: srv.URL + "/v1/chat/completions", Model: "m", Chat: SkillChat(srv.Client())})
			if err != nil {
				t.Fatal(err)
			}
			h := newHarness(t, knowledge.Strict, votes(true, true, true)...)
			withStage3(t, h, &Stage3{Market: skill.Market{Scenarios: 8}, LLM: llm})
			e := h.entry(content, 0.5)
			e.Type = knowledge.TypeHeuristic
			r := h.ingest(h.sign(e, nil))
			stage := StageSandbox
			if c.verdict == Adopted {
				stage = StageAdopt
			}
			want(t, r, c.verdict, stage, c.code, knowledge.NoAttack)
			if hits.Load() == 0 {
				t.Error("the model was never asked")
			}
			if c.calls > 0 && (r.Sandbox == nil || r.Sandbox.LLMCalls != c.calls) {
				t.Errorf("sandbox outcome %+v, want %d LLM calls", r.Sandbox, c.calls)
			}
			if c.verdict == Adopted && (r.Sandbox.Evaluation == nil || r.Sandbox.Plan == nil) {
				t.Errorf("the model's fragment was not evaluated: %+v", r.Sandbox)
			}
		})
	}
}

// TestStage3RequiresIsolation forces mechanisms of the sandbox off (or
// requires one this machine lacks) and checks that Stage 3 refuses to
// evaluate: the entry stays pending, neither adopted nor rejected, the
// report says what was missing, and the owner gets the pending event with
// KNOWLEDGE_SANDBOX_REQUIRED.
func TestStage3RequiresIsolation(t *testing.T) {
	const reasonable = "When the price drops 25 % and position below 65 %, buy 25 %."
	cgroup2 := sandbox.Requirement{All: sandbox.MechCgroup2}
	// What [grimoire.sandbox] require = [..., "cgroup2"] configures.
	configured, err := sandbox.ParseRequirement(append(slices.Clone(sandbox.DefaultRequirementNames), "cgroup2"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		without sandbox.Mechanism
		require *sandbox.Requirement
		missing string
	}{
		{"no seccomp", sandbox.MechSeccomp, nil, "missing: seccomp"},
		{"no mount namespace", sandbox.MechMountNS, nil, "missing: mountns"},
		{"neither", sandbox.MechSeccomp | sandbox.MechMountNS, nil, "missing: mountns, seccomp"},
		{"cgroup v2 required, absent here", 0, &cgroup2, "missing: cgroup2"},
		{"require key with cgroup2, absent here", 0, &configured, "missing: cgroup2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, knowledge.Strict, votes(true, true, true)...)
			limits := sandbox.Limits{WallClock: 60 * time.Second, CPUTime: 60 * time.Second, Without: c.without}
			withStage3(t, h, &Stage3{Market: skill.Market{Scenarios: 8}, Limits: limits, Require: c.require})
			sub := h.bus.Subscribe(64, func(k event.Kind) bool { return k == event.GrimoireValidationPassed })
			e := h.entry(reasonable, 0.5)
			e.Type = knowledge.TypeHeuristic
			r := h.ingest(h.sign(e, nil))
			want(t, r, Quarantined, StageSandbox, reason.KnowledgeSandboxRequired, knowledge.NoAttack)
			if !reasonsContain(r, c.missing) || !reasonsContain(r, "refused to evaluate") {
				t.Errorf("reasons %q do not say %q", r.Reasons, c.missing)
			}
			if q := h.status(e.ID); q.Status != store.QuarantinePending {
				t.Errorf("row %s, want pending", q.Status)
			}
			if _, ok := h.p.Grimoire().Get(e.ID); ok {
				t.Error("adopted without the required isolation")
			}
			if r.Sandbox != nil && r.Sandbox.Evaluation != nil {
				t.Errorf("an evaluation ran: %+v", r.Sandbox.Evaluation)
			}
			select {
			case ev := <-sub.C():
				if ev.Code != string(reason.KnowledgeSandboxRequired) {
					t.Errorf("event code %s, want %s", ev.Code, reason.KnowledgeSandboxRequired)
				}
			default:
				t.Error("the owner was not told: no pending event")
			}
		})
	}
	// The default requirement holds on this machine: the same entry is
	// evaluated and adopted.
	h := newHarness(t, knowledge.Strict, votes(true, true, true)...)
	withStage3(t, h, &Stage3{Market: skill.Market{Scenarios: 8}, Limits: sandbox.Limits{WallClock: 60 * time.Second, CPUTime: 60 * time.Second}})
	e := h.entry(reasonable, 0.5)
	e.Type = knowledge.TypeHeuristic
	want(t, h.ingest(h.sign(e, nil)), Adopted, StageAdopt, reason.KnowledgeAdopted, knowledge.NoAttack)
}
