package hook

import (
	"context"
	"fmt"

	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/tool"
)

// PhaseGateConfig configures a PhaseGate. The gate's rules are fixed by
// PolicyCage; there is nothing to configure yet.
type PhaseGateConfig struct{}

// PhaseGate is PolicyCage: it allows fewer kinds of write as the agent's
// phase falls.
//
//   - Reads always pass.
//   - Thriving and stable allow every write.
//   - Conservation allows previews and writes that close a position.
//   - Declining allows writes that unwind or close a position.
//   - Terminal allows only settlement.
//   - Layer3 tools are refused from conservation down, previews included.
//   - Privileged tools pass in every phase: they change the owner's
//     settings (the phase itself among them), not a position, and each
//     commit carries the owner's signature.
//
// A write in an invalid phase is refused with HOOK_ERROR. PhaseGate is
// stateless and safe for concurrent use.
type PhaseGate struct{}

var _ Hook = (*PhaseGate)(nil)

// NewPhaseGate returns a PhaseGate.
func NewPhaseGate(PhaseGateConfig) (*PhaseGate, error) { return &PhaseGate{}, nil }

// Name returns "phase_gate".
func (*PhaseGate) Name() string { return "phase_gate" }

// Check implements Hook.
func (g *PhaseGate) Check(_ context.Context, c *Call) Verdict {
	const name = "phase_gate"
	if c == nil || c.Def == nil {
		return veto(name, reason.HookError, "the safety checks could not complete, so the action is refused", "call without a tool definition")
	}
	if isRead(c) {
		return Verdict{}
	}
	p := c.Phase
	if !p.Valid() {
		return veto(name, reason.HookError, "the agent's phase is unknown, so writes are refused", fmt.Sprintf("invalid phase %d", uint8(p)))
	}
	if c.Def.RiskTier == tool.Layer3 && p >= Conservation {
		return veto(name, reason.PhaseBlocked,
			fmt.Sprintf("the agent is in the %s phase: high-risk (layer 3) tools are not allowed", p),
			fmt.Sprintf("%s is layer3; phase %s", c.Def.Name, p))
	}
	if c.Def.Tier == tool.Privileged {
		return Verdict{}
	}
	e := c.Def.Effect
	var ok bool
	var allows string
	switch p {
	case Thriving, Stable:
		return Verdict{}
	case Conservation:
		ok = c.Preview || e == tool.EffectClose
		allows = "only reads, previews and closing positions are allowed"
	case Declining:
		ok = e == tool.EffectUnwind || e == tool.EffectClose
		allows = "only reads and unwinding or closing positions are allowed"
	case Terminal:
		ok = e == tool.EffectSettle
		allows = "only reads and settlement are allowed"
	}
	if ok {
		return Verdict{}
	}
	return veto(name, reason.PhaseBlocked,
		fmt.Sprintf("the agent is in the %s phase: %s", p, allows),
		fmt.Sprintf("%s has effect %q (preview %t); phase %s", c.Def.Name, e, c.Preview, p))
}
