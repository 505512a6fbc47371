// Package capability is the single-use permission a write tool's handler
// needs in order to run (seed 002's Capability<T>), and the owner approval a
// privileged handler needs as well.
//
// A Capability is bound to one permit, one tool and one argument hash; it
// carries the USD value it authorises, its expiry (tick and wall clock) and
// the hash of the policy that allowed it. Its fields are unexported and it
// has no exported constructor: only capability/mint creates one, and a
// dependency test (internal/arch) fails the build if any package other than
// gate and daemon imports mint. It cannot be copied without go vet saying
// so, and Consume succeeds once, atomically, across goroutines. The durable
// half of single use is the permit row, moved pending → consumed in one
// conditional update before the capability is minted, so a second commit
// fails even from another process.
package capability

import "github.com/wardhq/ward/internal/capability/internal/token"

// Capability is a minted, single-use permission (see the package comment).
// The zero value is invalid.
type Capability = token.Capability

// Approval is an owner's verified approval of one privileged call.
type Approval = token.Approval

// Errors returned by Capability.Consume.
var (
	ErrInvalid  = token.ErrInvalid
	ErrConsumed = token.ErrConsumed
	ErrExpired  = token.ErrExpired
	ErrScope    = token.ErrScope
)
