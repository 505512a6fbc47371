package adopt

import (
	"fmt"
	"strings"

	"github.com/wardhq/ward/internal/knowledge"
)

// Scope is how far an entry may spread. The zero value, ScopeLocal, is the
// agent's own Grimoire: nothing propagates by default.
type Scope uint8

// Scopes, narrowest first.
const (
	ScopeLocal   Scope = iota
	ScopeClade         // the agent's clade siblings
	ScopeCommons       // the ecosystem commons
	ScopeListed        // a marketplace listing: only by the owner (MayList)
)

var scopeNames = [...]string{ScopeLocal: "local", ScopeClade: "clade", ScopeCommons: "commons", ScopeListed: "listed"}

// String returns the scope's stable name.
func (s Scope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return fmt.Sprintf("scope(%d)", uint8(s))
}

// MarshalText encodes a valid scope as its name.
func (s Scope) MarshalText() ([]byte, error) {
	if int(s) >= len(scopeNames) {
		return nil, fmt.Errorf("adopt: %w: scope %d", ErrInvalid, uint8(s))
	}
	return []byte(s.String()), nil
}

// Propagation gates (seed, Propagation Promotion Gates).
const (
	WarningCladeGate        = 0.4
	InsightCladeGate        = 0.6
	HeuristicCommonsGate    = 0.7
	HeuristicCommonsMinimum = 5 // validations
)

// Reach returns the widest scope r may be promoted to automatically:
// warnings reach the clade at confidence ≥ 0.4, insights at ≥ 0.6,
// heuristics the commons (and so the clade) with ≥ 5 validations and
// confidence ≥ 0.7; anything else, and any record with a NaN confidence,
// stays ScopeLocal. ScopeListed is never reached automatically.
func Reach(r *Record) Scope {
	c := r.Confidence
	switch r.Type {
	case knowledge.TypeWarning:
		if c >= WarningCladeGate {
			return ScopeClade
		}
	case knowledge.TypeInsight:
		if c >= InsightCladeGate {
			return ScopeClade
		}
	case knowledge.TypeHeuristic:
		if r.Validations >= HeuristicCommonsMinimum && c >= HeuristicCommonsGate {
			return ScopeCommons
		}
	}
	return ScopeLocal
}

// MayPropagate reports whether r may be promoted to scope s: ScopeLocal always,
// ScopeListed never (see MayList), the others when Reach(r) reaches them.
func MayPropagate(r *Record, s Scope) bool {
	switch s {
	case ScopeLocal:
		return true
	case ScopeClade, ScopeCommons:
		return Reach(r) >= s
	}
	return false
}

// MayList reports whether actor may list an entry owned by owner on the
// marketplace: only the owner may, by hand. Both must be non-empty;
// they compare case-insensitively, since owners are addresses whose case is
// only a checksum.
func MayList(actor, owner string) bool {
	return actor != "" && owner != "" && strings.EqualFold(actor, owner)
}
