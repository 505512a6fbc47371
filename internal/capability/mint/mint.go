// Package mint creates capabilities and owner approvals. Only the safety
// layer may import it (gate, and daemon for wiring): internal/arch fails
// the build otherwise.
package mint

import (
	"time"

	"github.com/wardhq/ward/internal/capability"
	"github.com/wardhq/ward/internal/capability/internal/token"
)

// Fields are what a capability is minted with.
type Fields = token.Fields

// Capability mints a capability. The caller (the gate) must have moved the
// permit from pending to consumed first.
func Capability(f Fields) *capability.Capability { return token.New(f) }

// Approval records an owner approval the caller has verified.
func Approval(permitID, owner string, at time.Time) *capability.Approval {
	return token.NewApproval(permitID, owner, at)
}
