package hook

import (
	"fmt"
	"math"
)

// Phase is the agent's PolicyCage phase, set by its vitality (see
// PhaseFor). Lower phases allow fewer kinds of action. The zero Phase is
// invalid; the phase gate refuses every write while the phase is invalid.
type Phase uint8

// Phases from the healthiest down.
const (
	Thriving Phase = iota + 1
	Stable
	Conservation
	Declining
	Terminal
)

var phaseNames = [...]string{Thriving: "thriving", Stable: "stable", Conservation: "conservation", Declining: "declining", Terminal: "terminal"}

// Valid reports whether p is one of the five phases.
func (p Phase) Valid() bool { return p >= Thriving && p <= Terminal }

func (p Phase) String() string {
	if p.Valid() {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", uint8(p))
}

// MarshalText implements encoding.TextMarshaler; an invalid phase is an
// error.
func (p Phase) MarshalText() ([]byte, error) {
	if !p.Valid() {
		return nil, fmt.Errorf("invalid phase %d", uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Phase) UnmarshalText(b []byte) error {
	v, err := ParsePhase(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// ParsePhase parses a phase name ("thriving" ... "terminal").
func ParsePhase(s string) (Phase, error) {
	for i, n := range phaseNames {
		if n != "" && n == s {
			return Phase(i), nil
		}
	}
	return 0, fmt.Errorf("unknown phase %q (want thriving, stable, conservation, declining or terminal)", s)
}

// Vitality thresholds: the lowest vitality of each phase when falling
// into it, and (Hysteresis higher) when rising into it.
const (
	ThrivingAt     = 0.7
	StableAt       = 0.5
	ConservationAt = 0.3
	DecliningAt    = 0.1
	Hysteresis     = 0.05
)

// down and up hold the thresholds of Thriving..Declining; up includes the
// hysteresis, written out so that no float arithmetic moves a boundary.
var (
	down = [...]float64{ThrivingAt, StableAt, ConservationAt, DecliningAt}
	up   = [...]float64{0.75, 0.55, 0.35, 0.15}
)

// PhaseFor returns the phase for vitality v in [0,1] given the current
// phase: thriving at v >= 0.7, stable >= 0.5, conservation >= 0.3,
// declining >= 0.1, terminal below. Falling is immediate; rising to a
// better phase needs that phase's threshold plus 0.05, so a vitality
// hovering at a boundary does not flap. Rising may skip phases (a jump
// from 0.2 to 0.8 goes straight to thriving). A current phase that is not
// valid applies no hysteresis; a NaN vitality is terminal.
func PhaseFor(v float64, current Phase) Phase {
	if math.IsNaN(v) {
		return Terminal
	}
	fell := byThresholds(v, down[:])
	if !current.Valid() || fell >= current {
		return fell
	}
	if rose := byThresholds(v, up[:]); rose < current {
		return rose
	}
	return current
}

func byThresholds(v float64, t []float64) Phase {
	for i, at := range t {
		if v >= at {
			return Phase(i + 1)
		}
	}
	return Terminal
}
