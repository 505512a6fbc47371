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

func TestDefaultChain(t *testing.T) {
	set, err := hook.NewSet(hook.Config{
		Allowlist:     hook.AllowlistConfig{AnyToken: true, AnyContract: true, AnySelector: true},
		Spending:      hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
		Rate:          hook.RateConfig{Max: 10, Window: 60e9},
		Simulation:    hook.SimulationConfig{Simulator: okSim(1000)},
		Hallucination: hook.HallucinationConfig{Reader: chainState(5000)},
	})
	if err != nil {
		t.Fatal(err)
	}
	ch, err := hook.DefaultChain(set)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range ch {
		names = append(names, h.Name())
	}
	want := []string{"phase_gate", "allowlist", "spending_limiter", "rate_limiter", "simulation", "hallucination", "result_filter"}
	if !slices.Equal(names, want) {
		t.Errorf("order = %v, want %v", names, want)
	}
	v, ran := ch.Run(context.Background(), writeCall())
	if v.Veto || v.Sim == nil || !slices.Equal(ran, want) {
		t.Errorf("Run = %+v, ran %v; want a pass carrying the simulation after all hooks", v, ran)
	}
	c := writeCall()
	c.Phase = hook.Declining
	if v, ran := ch.Run(context.Background(), c); v.Code != reason.PhaseBlocked || len(ran) != 1 {
		t.Errorf("declining open: %s after %v, want PHASE_BLOCKED from the first hook", v.Code, ran)
	}

	set.Filter = nil
	if _, err := hook.DefaultChain(set); err == nil {
		t.Error("DefaultChain accepted a set without a result filter")
	}
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

// BenchmarkDefaultChain runs the whole chain on a write that passes, with
// in-memory fakes for the simulator and the chain reader.
func BenchmarkDefaultChain(b *testing.B) {
	set, err := hook.NewSet(hook.Config{
		Allowlist: hook.AllowlistConfig{Tokens: []tool.Address{hooktest.Token, {}}, Contracts: []tool.Address{hooktest.Token, hooktest.Router},
			Selectors: []hook.Selector{{0x09, 0x5e, 0xa7, 0xb3}, {0x41, 0x4b, 0xf3, 0x89}}},
		Spending:      hook.SpendingConfig{PerTickCents: 1e6, PerSessionCents: 1e8, DailyCents: 1e9},
		Rate:          hook.RateConfig{Max: 100, Window: time.Hour},
		Simulation:    hook.SimulationConfig{Simulator: okSim(1000)},
		Hallucination: hook.HallucinationConfig{Reader: chainState(5000)},
	})
	if err != nil {
		b.Fatal(err)
	}
	// Fifty writes of history, which the spending and rate limiters both
	// read from the set's one window store: recording them through each
	// would count a hundred, the rate limit itself.
	for i := range 50 {
		set.Spending.Record("s1", uint64(i), hooktest.Now.Add(-time.Duration(i)*time.Minute), 100)
	}
	ch, _ := hook.DefaultChain(set)
	c := writeCall()
	c.Args = hooktest.DefaultCases()[3].Call.Args
	ctx := context.Background()
	for b.Loop() {
		if v, _ := ch.Run(ctx, c); v.Veto {
			b.Fatal(v)
		}
	}
}

// BenchmarkHallucination runs the hallucination hook alone on the write
// BenchmarkDefaultChain runs: code, metadata and balance reads from an
// in-memory chain.
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
