package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/tool"
)

// HeldStatus is where a held call is in the owner's review: pending until
// approved or rejected, once. (A pending call past its expiry reads as
// expired to the gate; the store keeps it pending.)
type HeldStatus uint8

// Held call statuses. The zero value is pending: nothing has run.
const (
	HeldPending HeldStatus = iota
	HeldApproved
	HeldRejected
	numHeldStatuses
)

var heldStatusNames = [numHeldStatuses]string{"pending", "approved", "rejected"}

// String returns the status's name.
func (s HeldStatus) String() string {
	if s < numHeldStatuses {
		return heldStatusNames[s]
	}
	return fmt.Sprintf("HeldStatus(%d)", uint8(s))
}

// MarshalText encodes the status as its name.
func (s HeldStatus) MarshalText() ([]byte, error) {
	if s >= numHeldStatuses {
		return nil, fmt.Errorf("store: marshal held status %d: out of range", s)
	}
	return []byte(s.String()), nil
}

// ParseHeldStatus returns the status named s.
func ParseHeldStatus(s string) (HeldStatus, error) {
	for i, n := range heldStatusNames {
		if n == s {
			return HeldStatus(i), nil
		}
	}
	return 0, fmt.Errorf("store: unknown held status %q", s)
}

// HeldCall is a call the policy quarantined, held for the owner's review:
// whose it is (principal and session), what it was (tool, tier, canonical
// arguments), why it was held, and what became of it.
type HeldCall struct {
	ID          string
	PrincipalID string
	SessionID   string
	Time        time.Time
	Expires     time.Time
	TurnID      string
	InputSource string
	Facade      string
	Tool        string
	Tier        tool.Tier
	Args        []byte // canonical JSON
	ArgsHash    string
	Reason      string
	Message     string
	Rule        string
	DecisionID  string
	Reviews     []byte // JSON array of the verdicts of the session's checkers, or nil
	Status      HeldStatus
	DecidedAt   time.Time
	DecidedBy   string
	Note        string
	Outcome     []byte // JSON: what the approved call did; nil until it ran
	// RetryKey identifies the call for refusing its identical retry once
	// the owner rejected it: a hash of the tool and of arguments
	// canonicalised beyond ArgsHash (the gate makes it); empty: none.
	RetryKey string
	// Description is what the call would do in a person's units (JSON,
	// made once when it is held); display data, never read for a decision.
	Description []byte
}

// HoldLimits bound what HoldCall accepts.
type HoldLimits struct {
	// MaxPending is how many pending, unexpired calls one session may
	// have waiting at once.
	MaxPending int
	// RejectedSince, when not zero, refuses a call whose principal had a
	// call with the same tool and RetryKey rejected at or after it (and,
	// for the principal "local", which in-process sessions share, in the
	// same session).
	RejectedSince time.Time
}

// HeldFilter selects held calls. Zero fields do not filter; Status is
// matched only with ByStatus.
type HeldFilter struct {
	Since     time.Time
	SessionID string
	ByStatus  bool
	Status    HeldStatus
	Limit     int // 0: 100
}

// Reasons a call was not held or decided.
var (
	ErrHeldLimit   = errors.New("too many calls of this session already wait for the owner")
	ErrHeldDecided = errors.New("the held call was already decided")
	ErrHeldExpired = errors.New("the held call expired")
	// ErrHeldRejected: the owner rejected this same call recently.
	ErrHeldRejected = errors.New("the owner rejected an identical call")
)

// HeldCalls stores the quarantine queue. Every write is durable when it
// returns nil and carries its action record in the same transaction.
type HeldCalls interface {
	// HoldCall stores c and rec, unless the owner rejected an identical
	// call (see HoldLimits.RejectedSince: the rejected call's id is
	// returned with ErrHeldRejected), the session has a pending,
	// unexpired call of the same tool and arguments (its id is returned
	// and nothing is written) or already lim.MaxPending pending,
	// unexpired calls (ErrHeldLimit).
	HoldCall(ctx context.Context, c *HeldCall, lim HoldLimits, rec *ActionRecord) (existing string, err error)
	// HeldCall returns the held call id, or ErrNotFound.
	HeldCall(ctx context.Context, id string) (HeldCall, error)
	// HeldCalls returns the calls f selects, oldest first.
	HeldCalls(ctx context.Context, f HeldFilter) ([]HeldCall, error)
	// DecideHeldCall moves a pending, unexpired call at at to status
	// (approved or rejected) with by and note, and appends rec, in one
	// conditional update: of concurrent decisions exactly one succeeds.
	// ErrNotFound, ErrHeldDecided, ErrHeldExpired.
	DecideHeldCall(ctx context.Context, id string, status HeldStatus, by, note string, at time.Time, rec *ActionRecord) error
	// SetHeldOutcome stores what an approved call did, once, and appends
	// rec. ErrNotFound, or ErrHeldDecided if it has an outcome already or
	// is not approved.
	SetHeldOutcome(ctx context.Context, id string, outcome []byte, rec *ActionRecord) error
}

// Validate returns why c cannot be held as a new call (an error wrapping
// ErrInvalidRecord), or nil: an id ward makes, its principal, session,
// tool and reason, a known tier, JSON arguments (and reviews and
// description, if any), pending and undecided, held at a representable
// time and expiring after it.
func (c *HeldCall) Validate() error {
	switch {
	case !id.ValidAny(c.ID):
		return Invalid("id %q is not an id ward makes", c.ID)
	case c.PrincipalID == "" || c.SessionID == "" || c.Tool == "":
		return Invalid("a held call needs its principal, session and tool")
	case c.Tier != tool.Read && c.Tier != tool.Write && c.Tier != tool.Privileged:
		return Invalid("tier %v", c.Tier)
	case !json.Valid(c.Args):
		return Invalid("args are not JSON")
	case len(c.Reviews) > 0 && !json.Valid(c.Reviews):
		return Invalid("reviews are not JSON")
	case len(c.Description) > 0 && !json.Valid(c.Description):
		return Invalid("description is not JSON")
	case c.Status != HeldPending || !c.DecidedAt.IsZero() || c.DecidedBy != "" || c.Outcome != nil:
		return Invalid("a new held call is pending and undecided")
	case c.Reason == "":
		return Invalid("empty reason")
	}
	if _, err := Nanos("time", c.Time); err != nil {
		return err
	}
	if _, err := Nanos("expires", c.Expires); err != nil {
		return err
	}
	if !c.Expires.After(c.Time) {
		return Invalid("expires %v, not after it was held", c.Expires)
	}
	return nil
}
