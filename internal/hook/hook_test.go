package hook_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// stub is a Hook with a fixed behaviour.
type stub struct {
	name  string
	v     hook.Verdict
	panic bool
	check func(ctx context.Context) hook.Verdict
}

func (s *stub) Name() string { return s.name }
func (s *stub) Check(ctx context.Context, _ *hook.Call) hook.Verdict {
	if s.panic {
		panic("boom")
	}
	if s.check != nil {
		return s.check(ctx)
	}
	return s.v
}

func pass(name string) *stub { return &stub{name: name} }

func writeCall() *hook.Call {
	return &hook.Call{
		Def:  hooktest.Def("uniswap_swap_exact", tool.Write, tool.Layer2, tool.EffectOpen),
		Args: tool.EmptyArgs(), Plan: hooktest.Plan(1000, 500), Phase: hook.Thriving,
		SessionID: "s1", Tick: 1, Now: hooktest.Now,
	}
}

func TestChainRun(t *testing.T) {
	sim := &hook.SimResult{OK: true, TotalGas: 21000}
	denyA := hook.Verdict{Veto: true, Code: reason.PhaseBlocked, Message: "no", Hook: "impostor"}
	tests := []struct {
		name     string
		chain    hook.Chain
		call     *hook.Call
		veto     bool
		code     reason.Code
		hook     string
		ran      []string
		wantSim  bool
		cancelAt int // cancel the context when the hook at this index runs (0: never)
	}{
		{name: "all pass", chain: hook.Chain{pass("a"), pass("b")}, ran: []string{"a", "b"}},
		{name: "first veto wins", chain: hook.Chain{pass("a"), &stub{name: "b", v: denyA}, &stub{name: "c", v: hook.Verdict{Veto: true, Code: reason.HookRateLimit, Message: "x"}}},
			veto: true, code: reason.PhaseBlocked, hook: "b", ran: []string{"a", "b"}},
		{name: "panic fails closed", chain: hook.Chain{&stub{name: "a", panic: true}, pass("b")},
			veto: true, code: reason.HookError, hook: "a", ran: []string{"a"}},
		{name: "veto without code", chain: hook.Chain{&stub{name: "a", v: hook.Verdict{Veto: true, Message: "no"}}},
			veto: true, code: reason.HookError, hook: "a", ran: []string{"a"}},
		{name: "veto with malformed code", chain: hook.Chain{&stub{name: "a", v: hook.Verdict{Veto: true, Code: "lower case"}}},
			veto: true, code: reason.HookError, hook: "a", ran: []string{"a"}},
		{name: "nil hook", chain: hook.Chain{pass("a"), nil}, veto: true, code: reason.HookError, hook: "chain", ran: []string{"a"}},
		{name: "empty chain", chain: hook.Chain{}, veto: true, code: reason.HookError, hook: "chain", ran: []string{}},
		{name: "nil call", chain: hook.Chain{pass("a")}, call: &hook.Call{}, veto: true, code: reason.HookError, hook: "chain", ran: []string{}},
		{name: "sim carried to pass", chain: hook.Chain{pass("a"), &stub{name: "simulation", v: hook.Verdict{Sim: sim}}, pass("c")},
			ran: []string{"a", "simulation", "c"}, wantSim: true},
		{name: "sim carried to later veto", chain: hook.Chain{&stub{name: "simulation", v: hook.Verdict{Sim: sim}}, &stub{name: "h", v: denyA}},
			veto: true, code: reason.PhaseBlocked, hook: "h", ran: []string{"simulation", "h"}, wantSim: true},
		{name: "context ends mid-chain", chain: hook.Chain{pass("a"), pass("b"), pass("c")}, cancelAt: 2,
			veto: true, code: reason.HookError, hook: "chain", ran: []string{"a", "b"}},
		{name: "context ends in last hook", chain: hook.Chain{pass("a"), pass("b")}, cancelAt: 2,
			veto: true, code: reason.HookError, hook: "chain", ran: []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelAt > 0 {
				s := tt.chain[tt.cancelAt-1].(*stub)
				s.check = func(context.Context) hook.Verdict { cancel(); return hook.Verdict{} }
			}
			c := tt.call
			if c == nil {
				c = writeCall()
			}
			v, ran := tt.chain.Run(ctx, c)
			if v.Veto != tt.veto || v.Code != tt.code || v.Hook != tt.hook {
				t.Errorf("verdict = {Veto:%t Code:%s Hook:%q}, want {Veto:%t Code:%s Hook:%q} (%s)", v.Veto, v.Code, v.Hook, tt.veto, tt.code, tt.hook, v.Detail)
			}
			if v.Veto && v.Message == "" {
				t.Error("veto without a message")
			}
			if !slices.Equal(ran, tt.ran) {
				t.Errorf("ran = %v, want %v", ran, tt.ran)
			}
			if (v.Sim != nil) != tt.wantSim {
				t.Errorf("Sim = %v, want set=%t", v.Sim, tt.wantSim)
			}
		})
	}
}

func TestChainPanicDetailStaysInternal(t *testing.T) {
	v, _ := hook.Chain{&stub{name: "a", panic: true}}.Run(context.Background(), writeCall())
	if strings.Contains(v.Message, "boom") || !strings.Contains(v.Detail, "boom") {
		t.Errorf("panic value must be in Detail only: Message %q, Detail %q", v.Message, v.Detail)
	}
}

// TestNewSetRefusesEmptyConfig: a set is built whole or not at all (the
// gate's chains need every hook: gate/hooks_test.go).
func TestNewSetRefusesEmptyConfig(t *testing.T) {
	if _, err := hook.NewSet(hook.Config{}); err == nil {
		t.Error("NewSet accepted a config without simulator and reader")
	}
}

// TestConformance runs hooktest against every hook.
func TestConformance(t *testing.T) {
	must := func(h hook.Hook, err error) hook.Hook {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	for name, newHook := range map[string]func() hook.Hook{
		"phase_gate":       func() hook.Hook { return must(hook.NewPhaseGate(hook.PhaseGateConfig{})) },
		"allowlist strict": func() hook.Hook { return must(hook.NewAllowlist(hook.AllowlistConfig{})) },
		"allowlist open": func() hook.Hook {
			return must(hook.NewAllowlist(hook.AllowlistConfig{Tokens: []tool.Address{hooktest.Token, {}},
				Contracts: []tool.Address{hooktest.Token, hooktest.Router}, AnySelector: true}))
		},
		"spending": func() hook.Hook {
			s := must(hook.NewSpendingLimiter(hook.SpendingConfig{PerTickCents: 1000, PerSessionCents: 5000, DailyCents: 10000})).(*hook.SpendingLimiter)
			s.Record("s1", 7, hooktest.Now.Add(-1e9), 400)
			return s
		},
		"rate": func() hook.Hook {
			r := must(hook.NewRateLimiter(hook.RateConfig{Max: 2, Window: 60e9})).(*hook.RateLimiter)
			r.Record("s1", 7, hooktest.Now.Add(-1e9), 0)
			return r
		},
		"simulation": func() hook.Hook {
			return must(hook.NewSimulation(hook.SimulationConfig{Simulator: okSim(1000)}))
		},
		"simulation reverting": func() hook.Hook {
			return must(hook.NewSimulation(hook.SimulationConfig{Simulator: &fakeSim{res: hook.SimResult{Reverted: 1, RevertReason: "STF\x00"}}}))
		},
		"simulation blocking": func() hook.Hook {
			return must(hook.NewSimulation(hook.SimulationConfig{Simulator: &fakeSim{block: true}, Timeout: 1e6}))
		},
		"hallucination": func() hook.Hook {
			return must(hook.NewHallucination(hook.HallucinationConfig{Reader: chainState(5000)}))
		},
		"result_filter": func() hook.Hook { return must(hook.NewResultFilter(hook.FilterConfig{})) },
	} {
		t.Run(name, func(t *testing.T) { hooktest.Run(t, newHook) })
	}
}

// meter is the shape the gate records executed writes through: both
// limiters must fit it.
type meter interface {
	Record(sessionID string, tick uint64, at time.Time, cents int64)
}

var (
	_ meter = (*hook.SpendingLimiter)(nil)
	_ meter = (*hook.RateLimiter)(nil)
)

// BenchmarkHallucination runs the hallucination hook alone on the write
// the gate's BenchmarkHookChain runs: code, metadata and balance reads from
// an in-memory chain.
func BenchmarkHallucination(b *testing.B) {
	h, err := hook.NewHallucination(hook.HallucinationConfig{Reader: chainState(5000)})
	if err != nil {
		b.Fatal(err)
	}
	c := writeCall()
	c.Args = hooktest.DefaultCases()[3].Call.Args
	ctx := context.Background()
	for b.Loop() {
		if v := h.Check(ctx, c); v.Veto {
			b.Fatal(v)
		}
	}
}
