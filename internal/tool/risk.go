// Package tool is ward's vocabulary for tools: risk levels, categories,
// capability tiers, the reference the policy sees, and Args, the decoded and
// canonically hashed arguments of a call.
//
// It depends on the standard library only. Everything that decodes agent
// input here is bounded (size, depth, key count) and rejects ambiguity
// (duplicate keys, invalid UTF-8, lone surrogates, out-of-range numbers)
// instead of guessing.
package tool

import (
	"fmt"
)

// Risk is a tool's policy risk level (seed 003): safe, caution, dangerous or
// forbidden. The zero value, RiskUnset, is treated by the policy as the
// strictest level (forbidden) until something declares the tool's risk.
type Risk uint8

// Risk levels in increasing order of danger.
const (
	RiskUnset Risk = iota
	Safe
	Caution
	Dangerous
	Forbidden
)

var riskNames = [...]string{RiskUnset: "", Safe: "safe", Caution: "caution", Dangerous: "dangerous", Forbidden: "forbidden"}

// String returns the level's name; RiskUnset is the empty string.
func (r Risk) String() string {
	if int(r) < len(riskNames) {
		return riskNames[r]
	}
	return fmt.Sprintf("Risk(%d)", uint8(r))
}

// Effective returns the level the policy applies: RiskUnset and unknown
// values become Forbidden.
func (r Risk) Effective() Risk {
	if r == RiskUnset || r > Forbidden {
		return Forbidden
	}
	return r
}

// MarshalText implements encoding.TextMarshaler.
func (r Risk) MarshalText() ([]byte, error) {
	if r > Forbidden {
		return nil, fmt.Errorf("invalid risk level %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Risk) UnmarshalText(b []byte) error {
	v, err := ParseRisk(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// ParseRisk parses a risk level name.
func ParseRisk(s string) (Risk, error) {
	switch s {
	case "safe":
		return Safe, nil
	case "caution":
		return Caution, nil
	case "dangerous":
		return Dangerous, nil
	case "forbidden":
		return Forbidden, nil
	}
	return RiskUnset, fmt.Errorf("unknown risk level %q (want safe, caution, dangerous or forbidden)", s)
}

// Tier is a tool's capability tier (seed 002): what its handler may do.
// The zero value, TierUnset, is treated as Write: durable audit and
// state-change checks apply until the tool says it only reads.
type Tier uint8

// Capability tiers.
const (
	TierUnset Tier = iota
	Read
	Write
	Privileged
)

var tierNames = [...]string{TierUnset: "", Read: "read", Write: "write", Privileged: "privileged"}

// String returns the tier's name; TierUnset is the empty string.
func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return fmt.Sprintf("Tier(%d)", uint8(t))
}

// Effective returns the tier checks apply to: TierUnset and unknown values
// become Write.
func (t Tier) Effective() Tier {
	if t == TierUnset || t > Privileged {
		return Write
	}
	return t
}

// MarshalText implements encoding.TextMarshaler.
func (t Tier) MarshalText() ([]byte, error) {
	if t > Privileged {
		return nil, fmt.Errorf("invalid tier %d", uint8(t))
	}
	return []byte(t.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (t *Tier) UnmarshalText(b []byte) error {
	v, err := ParseTier(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// ParseTier parses a tier name.
func ParseTier(s string) (Tier, error) {
	switch s {
	case "read":
		return Read, nil
	case "write":
		return Write, nil
	case "privileged":
		return Privileged, nil
	}
	return TierUnset, fmt.Errorf("unknown tier %q (want read, write or privileged)", s)
}

// Category groups tools for policy selection and profile filtering. The set
// is open: the seeds name the DeFi categories (data, trading, lending, ...)
// and the agent-runtime ones (vm, financial, conway, replication, ...), and
// operators assign categories to tools they import.
type Category string

// ValidName reports whether s is usable as a tool name or category: 1 to 128
// bytes of ASCII letters, digits, '_', '-', '.' and ':', starting with a
// letter or digit.
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case (c == '_' || c == '-' || c == '.' || c == ':') && i > 0:
		default:
			return false
		}
	}
	return true
}

// Ref is what the policy knows about the tool being called: its name,
// category, risk level and tier.
type Ref struct {
	Name     string
	Category Category
	Risk     Risk
	Tier     Tier
}
