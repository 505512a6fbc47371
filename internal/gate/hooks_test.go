package gate

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// planChain is the chain hooktest's default plans assume: Token and
// Router have code, the wallet holds balance of TKN (18 decimals) and
// ETH, and a simulated plan sends out exactly out TKN and brings in ETH.
type planChain struct{ out, balance int64 }

var errNoToken = errors.New("no such token")

func (c planChain) Simulate(_ context.Context, _ uint64, _ tool.Address, _ []tool.Tx, watch []tool.Address) (hook.SimResult, error) {
	r := hook.SimResult{OK: true, GasUsed: []uint64{46000, 120000}, TotalGas: 166000}
	for _, w := range watch {
		var d int64
		switch w {
		case hooktest.Token:
			d = -c.out
		case tool.Address{}:
			d = 1
		default:
			continue
		}
		r.Deltas = append(r.Deltas, hook.BalanceDelta{Token: w, Before: big.NewInt(1_000_000), After: big.NewInt(1_000_000 + d), Delta: big.NewInt(d)})
	}
	return r, nil
}

func (planChain) Code(_ context.Context, _ uint64, a tool.Address) ([]byte, error) {
	if a == hooktest.Token || a == hooktest.Router {
		return []byte{0x60, 0x80}, nil
	}
	return nil, nil
}

func (planChain) TokenMeta(_ context.Context, _ uint64, t tool.Address) (string, uint8, error) {
	switch t {
	case hooktest.Token:
		return "TKN", 18, nil
	case tool.Address{}:
		return "ETH", 18, nil
	}
	return "", 0, errNoToken
}

func (c planChain) BalanceOf(_ context.Context, _ uint64, t, _ tool.Address) (*big.Int, error) {
	switch t {
	case hooktest.Token:
		return big.NewInt(c.balance), nil
	case tool.Address{}:
		return big.NewInt(1e18), nil
	}
	return nil, errNoToken
}

// hookWrite is a swap with hooktest's default plan, in thriving.
func hookWrite() *hook.Call {
	return &hook.Call{
		Def:  hooktest.Def("uniswap_swap_exact", tool.Write, tool.Layer2, tool.EffectOpen),
		Args: tool.EmptyArgs(), Plan: hooktest.Plan(1000, 500), Phase: hook.Thriving,
		SessionID: "s1", Tick: 1, Now: hooktest.Now,
	}
}

func hookNames(ch hook.Chain) []string {
	var out []string
	for _, h := range ch {
		out = append(out, h.Name())
	}
	return out
}

// TestHookOrder checks the order hooks.go declares: the preview runs every
// hook of the set in the seed's order, the commit the phase gate again,
// and a set missing a hook is refused.
func TestHookOrder(t *testing.T) {
	newSet := func(t *testing.T) *hook.Set {
		t.Helper()
		set, err := hook.NewSet(hook.Config{
			Allowlist:     hook.AllowlistConfig{AnyToken: true, AnyContract: true, AnySelector: true},
			Spending:      hook.SpendingConfig{PerTickCents: hook.Unlimited, PerSessionCents: hook.Unlimited, DailyCents: hook.Unlimited},
			Rate:          hook.RateConfig{Max: 10, Window: 60e9},
			Simulation:    hook.SimulationConfig{Simulator: planChain{out: 1000}},
			Hallucination: hook.HallucinationConfig{Reader: planChain{balance: 5000}},
		})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	ch, err := chainsOf(newSet(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"phase_gate", "allowlist", "spending_limiter", "rate_limiter", "simulation", "hallucination", "result_filter"}
	if got := hookNames(ch.preview); !slices.Equal(got, want) {
		t.Errorf("preview order = %v, want %v", got, want)
	}
	if got := hookNames(ch.commit); !slices.Equal(got, []string{"phase_gate"}) {
		t.Errorf("commit hooks = %v, want [phase_gate]", got)
	}
	v, ran := ch.preview.Run(context.Background(), hookWrite())
	if v.Veto || v.Sim == nil || !slices.Equal(ran, want) {
		t.Errorf("Run = %+v, ran %v; want a pass carrying the simulation after all hooks", v, ran)
	}
	c := hookWrite()
	c.Phase = hook.Declining
	if v, ran := ch.preview.Run(context.Background(), c); v.Code != reason.PhaseBlocked || len(ran) != 1 {
		t.Errorf("declining open: %s after %v, want PHASE_BLOCKED from the first hook", v.Code, ran)
	}
	if v, ran := ch.commit.Run(context.Background(), c); v.Code != reason.PhaseBlocked || len(ran) != 1 {
		t.Errorf("declining open, commit: %s after %v, want PHASE_BLOCKED from the phase gate", v.Code, ran)
	}

	for _, tt := range []struct {
		name    string
		drop    func(*hook.Set)
		wantErr string
	}{
		{"phase gate", func(s *hook.Set) { s.Phase = nil }, "hook: the set has no phase gate"},
		{"allowlist", func(s *hook.Set) { s.Allowlist = nil }, "hook: the set has no allowlist"},
		{"spending", func(s *hook.Set) { s.Spending = nil }, "hook: the set has no spending limiter"},
		{"rate", func(s *hook.Set) { s.Rate = nil }, "hook: the set has no rate limiter"},
		{"simulation", func(s *hook.Set) { s.Simulation = nil }, "hook: the set has no simulation"},
		{"hallucination", func(s *hook.Set) { s.Hallucination = nil }, "hook: the set has no hallucination"},
		{"result filter", func(s *hook.Set) { s.Filter = nil }, "hook: the set has no result filter"},
	} {
		t.Run("without "+tt.name, func(t *testing.T) {
			set := newSet(t)
			tt.drop(set)
			if _, err := chainsOf(set); err == nil || err.Error() != tt.wantErr {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
	if _, err := chainsOf(nil); err == nil {
		t.Error("chainsOf accepted a nil set")
	}
}

// BenchmarkHookChain runs the preview's chain on a write that passes, with
// in-memory fakes for the simulator and the chain reader.
func BenchmarkHookChain(b *testing.B) {
	set, err := hook.NewSet(hook.Config{
		Allowlist: hook.AllowlistConfig{Tokens: []tool.Address{hooktest.Token, {}}, Contracts: []tool.Address{hooktest.Token, hooktest.Router},
			Selectors: []hook.Selector{{0x09, 0x5e, 0xa7, 0xb3}, {0x41, 0x4b, 0xf3, 0x89}}},
		Spending:      hook.SpendingConfig{PerTickCents: 1e6, PerSessionCents: 1e8, DailyCents: 1e9},
		Rate:          hook.RateConfig{Max: 100, Window: time.Hour},
		Simulation:    hook.SimulationConfig{Simulator: planChain{out: 1000}},
		Hallucination: hook.HallucinationConfig{Reader: planChain{balance: 5000}},
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
	ch, err := chainsOf(set)
	if err != nil {
		b.Fatal(err)
	}
	c := hookWrite()
	c.Args = hooktest.DefaultCases()[3].Call.Args
	ctx := context.Background()
	for b.Loop() {
		if v, _ := ch.preview.Run(ctx, c); v.Veto {
			b.Fatal(v)
		}
	}
}
