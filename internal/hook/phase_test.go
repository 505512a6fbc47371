package hook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

func TestPhaseText(t *testing.T) {
	for p := hook.Thriving; p <= hook.Terminal; p++ {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("Marshal(%d): %v", p, err)
		}
		var back hook.Phase
		if err := json.Unmarshal(b, &back); err != nil || back != p {
			t.Errorf("round trip of %s: got %v, %v", b, back, err)
		}
		if q, err := hook.ParsePhase(p.String()); err != nil || q != p {
			t.Errorf("ParsePhase(%q) = %v, %v", p, q, err)
		}
	}
	if _, err := hook.Phase(0).MarshalText(); err == nil {
		t.Error("MarshalText of the zero phase succeeded")
	}
	if _, err := hook.ParsePhase("Thriving"); err == nil {
		t.Error("ParsePhase is case-insensitive; want exact names")
	}
	if s := hook.Phase(9).String(); s != "Phase(9)" {
		t.Errorf("String of invalid phase = %q", s)
	}
}

// TestPhaseGateMatrix checks every phase × effect × risk tier × preview
// combination against the PolicyCage table.
func TestPhaseGateMatrix(t *testing.T) {
	g, err := hook.NewPhaseGate(hook.PhaseGateConfig{})
	if err != nil {
		t.Fatal(err)
	}
	allowed := func(p hook.Phase, tier tool.Tier, risk tool.RiskTier, e tool.Effect, preview bool) bool {
		if tier == tool.Read {
			return true
		}
		if risk == tool.Layer3 && p >= hook.Conservation {
			return false
		}
		if tier == tool.Privileged {
			return true // the owner's settings, in every phase
		}
		switch p {
		case hook.Thriving, hook.Stable:
			return true
		case hook.Conservation:
			return preview || e == tool.EffectClose
		case hook.Declining:
			return e == tool.EffectUnwind || e == tool.EffectClose
		case hook.Terminal:
			return e == tool.EffectSettle
		}
		return false
	}
	effects := []tool.Effect{tool.EffectNone, tool.EffectOpen, tool.EffectClose, tool.EffectUnwind, tool.EffectSettle}
	n := 0
	for p := hook.Thriving; p <= hook.Terminal; p++ {
		for _, tier := range []tool.Tier{tool.Read, tool.Write, tool.Privileged, tool.TierUnset} {
			for _, risk := range []tool.RiskTier{tool.Layer1, tool.Layer2, tool.Layer3} {
				for _, e := range effects {
					for _, preview := range []bool{false, true} {
						c := &hook.Call{Def: hooktest.Def("uniswap_swap_exact", tier, risk, e), Args: tool.EmptyArgs(),
							Phase: p, Preview: preview, Now: hooktest.Now}
						v := g.Check(context.Background(), c)
						want := allowed(p, tier, risk, e, preview)
						name := fmt.Sprintf("%s/%s/%s/%q/preview=%t", p, tier, risk, e, preview)
						if v.Veto == want {
							t.Errorf("%s: veto=%t, want allowed=%t", name, v.Veto, want)
						}
						if v.Veto && (v.Code != reason.PhaseBlocked || !strings.Contains(v.Message, p.String())) {
							t.Errorf("%s: %s %q, want PHASE_BLOCKED naming the phase", name, v.Code, v.Message)
						}
						n++
					}
				}
			}
		}
	}
	if n != 5*4*3*5*2 {
		t.Fatalf("checked %d combinations", n)
	}
}

func TestPhaseGateInvalidPhase(t *testing.T) {
	g, _ := hook.NewPhaseGate(hook.PhaseGateConfig{})
	c := &hook.Call{Def: hooktest.Def("uniswap_swap_exact", tool.Write, tool.Layer2, tool.EffectClose), Args: tool.EmptyArgs()}
	if v := g.Check(context.Background(), c); !v.Veto || v.Code != reason.HookError {
		t.Errorf("write with zero phase: %+v, want HOOK_ERROR", v)
	}
	c.Def = hooktest.Def("uniswap_get_quote", tool.Read, tool.Layer1, tool.EffectNone)
	if v := g.Check(context.Background(), c); v.Veto {
		t.Errorf("read with zero phase vetoed: %+v", v)
	}
}
