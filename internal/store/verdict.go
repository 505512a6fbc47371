package store

import "fmt"

// Verdict is a decision record's outcome. The zero value is no verdict: a
// record without one is refused, and a filter without one matches every
// verdict.
type Verdict uint8

// Decision record verdicts.
const (
	verdictNone Verdict = iota
	VerdictAllow
	VerdictQuarantine
	VerdictDeny
	numVerdicts
)

var verdictNames = [numVerdicts]string{"", "allow", "quarantine", "deny"}

// String returns the verdict's name ("" for none).
func (v Verdict) String() string {
	if v < numVerdicts {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// Valid reports whether v is one of the verdicts.
func (v Verdict) Valid() bool { return v > verdictNone && v < numVerdicts }

// MarshalText encodes the verdict as its name.
func (v Verdict) MarshalText() ([]byte, error) {
	if !v.Valid() {
		return nil, fmt.Errorf("store: marshal verdict %d: not a verdict", uint8(v))
	}
	return []byte(v.String()), nil
}

// UnmarshalText decodes a verdict's name.
func (v *Verdict) UnmarshalText(b []byte) error {
	x, err := ParseVerdict(string(b))
	if err != nil {
		return err
	}
	*v = x
	return nil
}

// ParseVerdict returns the verdict named s: allow, quarantine or deny.
func ParseVerdict(s string) (Verdict, error) {
	for i, n := range verdictNames {
		if n == s && Verdict(i) != verdictNone {
			return Verdict(i), nil
		}
	}
	return verdictNone, fmt.Errorf("store: %q is not a verdict (allow, quarantine or deny)", s)
}

// Origin is what made a decision record. The zero value is no origin: a
// record without one is refused, and a filter without one matches every
// origin.
type Origin uint8

// Decision record origins.
const (
	originNone  Origin = iota
	OriginGate         // a live call through the gate
	OriginCheck        // a what-if evaluation recorded on request
	numOrigins
)

var originNames = [numOrigins]string{"", "gate", "check"}

// String returns the origin's name ("" for none).
func (o Origin) String() string {
	if o < numOrigins {
		return originNames[o]
	}
	return fmt.Sprintf("Origin(%d)", uint8(o))
}

// Valid reports whether o is one of the origins.
func (o Origin) Valid() bool { return o > originNone && o < numOrigins }

// MarshalText encodes the origin as its name.
func (o Origin) MarshalText() ([]byte, error) {
	if !o.Valid() {
		return nil, fmt.Errorf("store: marshal origin %d: not an origin", uint8(o))
	}
	return []byte(o.String()), nil
}

// UnmarshalText decodes an origin's name.
func (o *Origin) UnmarshalText(b []byte) error {
	x, err := ParseOrigin(string(b))
	if err != nil {
		return err
	}
	*o = x
	return nil
}

// ParseOrigin returns the origin named s: gate or check.
func ParseOrigin(s string) (Origin, error) {
	for i, n := range originNames {
		if n == s && Origin(i) != originNone {
			return Origin(i), nil
		}
	}
	return originNone, fmt.Errorf("store: %q is not an origin (gate or check)", s)
}
