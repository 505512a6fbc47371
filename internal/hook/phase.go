package hook

import "fmt"

// Phase is the agent's PolicyCage phase, set by the owner (the gate's
// SetPhase). Lower phases allow fewer kinds of action. The zero Phase is
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
