// Package token holds the capability type itself. It is internal to
// capability so that only capability (which exposes it to handlers) and
// capability/mint (which creates it) can name its constructor.
package token

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// noCopy lets go vet's copylocks check report a copied Capability.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}

// Capability is a single-use permission to run one write tool with one set
// of arguments. The zero value is invalid.
type Capability struct {
	_ noCopy

	permitID   string
	tool       string
	argsHash   [32]byte
	policyHash [32]byte
	valueCents int64
	tick       uint64 // valid while the current tick is below it
	expires    time.Time
	owner      string // the approving owner, for privileged tools

	used atomic.Bool
}

// Fields are what a capability is minted with.
type Fields struct {
	PermitID   string
	Tool       string
	ArgsHash   [32]byte
	PolicyHash [32]byte
	ValueCents int64
	ExpiresAt  time.Time
	ExpiryTick uint64
	Owner      string
}

// New returns a capability with f's fields.
func New(f Fields) *Capability {
	return &Capability{
		permitID: f.PermitID, tool: f.Tool, argsHash: f.ArgsHash, policyHash: f.PolicyHash,
		valueCents: f.ValueCents, tick: f.ExpiryTick, expires: f.ExpiresAt, owner: f.Owner,
	}
}

// Errors returned by Consume.
var (
	ErrInvalid  = errors.New("capability: invalid (not minted by the safety layer)")
	ErrConsumed = errors.New("capability: already consumed")
	ErrExpired  = errors.New("capability: expired")
	ErrScope    = errors.New("capability: not for this tool and these arguments")
)

// Consume uses the capability for tool with the arguments whose canonical
// hash is argsHash, at tick and now. It succeeds exactly once over the
// capability's life, whatever the number of goroutines calling it; a
// capability that fails its checks is not consumed.
func (c *Capability) Consume(tool string, argsHash [32]byte, tick uint64, now time.Time) error {
	if c == nil || c.permitID == "" || c.tool == "" || c.expires.IsZero() {
		return ErrInvalid
	}
	if c.tool != tool || c.argsHash != argsHash {
		return fmt.Errorf("%w (minted for %s)", ErrScope, c.tool)
	}
	// A capability is valid strictly before its expiry (the seed's
	// expires_at > current_tick).
	if !now.Before(c.expires) || (c.tick != 0 && tick >= c.tick) {
		return ErrExpired
	}
	if !c.used.CompareAndSwap(false, true) {
		return ErrConsumed
	}
	return nil
}

// Used reports whether the capability has been consumed.
func (c *Capability) Used() bool { return c != nil && c.used.Load() }

// PermitID returns the permit the capability was minted for.
func (c *Capability) PermitID() string { return c.permitID }

// Tool returns the tool the capability is bound to.
func (c *Capability) Tool() string { return c.tool }

// ArgsHash returns the hash of the arguments it is bound to.
func (c *Capability) ArgsHash() [32]byte { return c.argsHash }

// PolicyHash returns the hash of the policy that allowed it.
func (c *Capability) PolicyHash() [32]byte { return c.policyHash }

// ValueCents returns the most USD value (in cents) it authorises.
func (c *Capability) ValueCents() int64 { return c.valueCents }

// ExpiresAt returns the wall-clock expiry.
func (c *Capability) ExpiresAt() time.Time { return c.expires }

// ExpiryTick returns the tick expiry (0: none).
func (c *Capability) ExpiryTick() uint64 { return c.tick }

// Owner returns the owner who approved a privileged call, or "".
func (c *Capability) Owner() string { return c.owner }

// Approval is an owner's approval of one privileged call, verified by the
// safety layer before it is made. The zero value is invalid.
type Approval struct {
	_        noCopy
	permitID string
	owner    string
	at       time.Time
}

// NewApproval returns a verified approval.
func NewApproval(permitID, owner string, at time.Time) *Approval {
	return &Approval{permitID: permitID, owner: owner, at: at}
}

// Valid reports whether a is an approval of permit permitID.
func (a *Approval) Valid(permitID string) bool {
	return a != nil && a.permitID != "" && a.permitID == permitID && a.owner != ""
}

// Owner returns the approving owner's address.
func (a *Approval) Owner() string { return a.owner }

// At returns when the owner signed.
func (a *Approval) At() time.Time { return a.at }
