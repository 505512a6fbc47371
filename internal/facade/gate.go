package facade

import (
	"context"

	"github.com/wardhq/ward/internal/gate"
)

// The values the gate answers with, named here so that a surface needs no
// import of the gate. They are the gate's own types, not copies: a
// refusal or a quarantined call is made where the decision is made, and
// converting each at this boundary would add a second definition of one
// idea and a place to lose a field (see docs/architecture.md).
type (
	// Refusal is a call the gate refused: a stable code, a message safe to
	// show the agent, and a Detail that is for operators only.
	Refusal = gate.Refusal
	// Quarantined is a call held for the owner's review.
	Quarantined = gate.Quarantined
	// QuarantineStatus is where a quarantined call is in its review.
	QuarantineStatus = gate.QuarantineStatus
	// QuarantineOutcome is what running an approved call did.
	QuarantineOutcome = gate.QuarantineOutcome
	// QuarantineFilter selects quarantined calls.
	QuarantineFilter = gate.QuarantineFilter
	// OutputReader is who asks to read a withheld output.
	OutputReader = gate.OutputReader
	// Output is a withheld output as a reader may see it.
	Output = gate.Output
	// OutputMeta is what an orchestrator learns of a delegated call.
	OutputMeta = gate.OutputMeta
)

// Review states of a quarantined call.
const (
	QuarantinePending  = gate.QuarantinePending
	QuarantineApproved = gate.QuarantineApproved
	QuarantineRejected = gate.QuarantineRejected
	QuarantineExpired  = gate.QuarantineExpired
)

// ParseQuarantineStatus parses a status name (pending, approved, rejected,
// expired).
func ParseQuarantineStatus(s string) (QuarantineStatus, error) { return gate.ParseQuarantineStatus(s) }

// The gate's errors a surface answers differently; they are the gate's
// values.
var (
	ErrQuarantineNotFound = gate.ErrQuarantineNotFound
	ErrQuarantineDecided  = gate.ErrQuarantineDecided
	ErrQuarantineExpired  = gate.ErrQuarantineExpired
	// ErrNoSession is a session that does not exist, or another
	// principal's.
	ErrNoSession = gate.ErrNoSession
	// ErrSessionLimit: the principal holds as many live sessions as it may.
	ErrSessionLimit = gate.ErrSessionLimit
	// ErrSelfReview: a session named as its own reviewer or judge.
	ErrSelfReview = gate.ErrSelfReview
	// ErrBadLevel: a level change the owner may not make.
	ErrBadLevel = gate.ErrBadLevel
	// ErrBadAllowlist: an allowlist change that adds and removes one
	// value, or changes nothing.
	ErrBadAllowlist = gate.ErrBadAllowlist
)

// Progress receives a call's progress steps as its handler enters them
// (for a surface to forward, e.g. as MCP progress notifications). It must
// not block.
type Progress func(toolName, step string, index, total int)

// WithProgress returns a context whose calls report their progress steps
// to p, in addition to the tool:update events. Only Call reads it; ward's
// surfaces pass CallOptions to CallWith instead.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return gate.WithProgress(ctx, gate.Progress(p))
}

// CallOptions is what a surface says about one call besides its session,
// tool and arguments (CallWith). The zero value asks for nothing. The
// facade the call came through is the facade's to say, not the
// surface's.
type CallOptions struct {
	// Progress receives the progress steps of the tools the call runs, in
	// addition to the tool:update events; nil: none.
	Progress Progress
}

// gate returns the gate's options of a call through the facade tool
// facade.
func (o CallOptions) gate(facade string) gate.CallOptions {
	return gate.CallOptions{Facade: facade, Progress: gate.Progress(o.Progress)}
}
