package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/tool"
)

// PermitStatus is where a permit is in its life: pending until exactly one
// commit consumes it or it is cancelled; consumed and cancelled are final.
type PermitStatus string

// Permit statuses.
const (
	PermitPending   PermitStatus = "pending"
	PermitConsumed  PermitStatus = "consumed"
	PermitCancelled PermitStatus = "cancelled"
)

// Permit is a previewed write waiting for its commit. The gate stores one
// per preview; the commit must still match what was previewed (see
// PermitCheck).
type Permit struct {
	ID         string // ULID-like, from internal/id
	CreatedAt  time.Time
	ExpiresAt  time.Time // commit must happen strictly before
	NotBefore  time.Time // announce delay: commit only at or after (zero: immediately)
	ExpiryTick uint64    // 0: none
	// PrincipalID and SessionID are whose the permit is: only that
	// session of that principal may commit it (PermitCheck.SessionID).
	PrincipalID string
	SessionID   string
	Tool        string // the write tool's name
	ArgsHash    string // hex SHA-256 of the canonical arguments
	Args        []byte // canonical JSON arguments
	PolicyHash  string // hex
	Phase       string // PolicyCage phase at preview
	RiskTier    string // routine|standard|elevated|high|critical
	ValueCents  int64
	// Plan, Simulation and Lessons are what the preview showed: the plan
	// is what the commit executes (the gate refuses to commit a permit
	// without one), the simulation and lessons are nil when none ran or
	// applied. A store keeps the three as one document, MarshalPreview's.
	Plan       *tool.Plan
	Simulation *hook.SimResult
	Lessons    []adopt.Advice
	// Description is what the permit would do in a person's units (JSON
	// the gate makes once, at preview; display only, never decided on);
	// nil for permits from before ward made one. It is kept in the
	// preview document.
	Description json.RawMessage
	Status      PermitStatus
	ClosedAt    time.Time // when consumed or cancelled
	ClosedBy    string    // who consumed/cancelled (session or "owner")
}

// preview is the document a permit's preview is stored as. Its encoding
// is the stored format (the permits table's preview column and the Detail
// of the permit's permit_created record): fields are only ever added.
type preview struct {
	Plan       *tool.Plan      `json:"plan"`
	Simulation *hook.SimResult `json:"simulation,omitempty"`
	Lessons    []adopt.Advice  `json:"lessons,omitempty"`
	// Description is display data for the owner (see Permit).
	Description json.RawMessage `json:"description,omitempty"`
}

// MarshalPreview returns p's Plan, Simulation and Lessons as the JSON
// document a store keeps and the action log records; it fails only for a
// value JSON cannot hold (a NaN confidence).
func (p *Permit) MarshalPreview() ([]byte, error) {
	b, err := json.Marshal(preview{Plan: p.Plan, Simulation: p.Simulation, Lessons: p.Lessons, Description: p.Description})
	if err != nil {
		return nil, fmt.Errorf("permit %s: encode preview: %w", p.ID, err)
	}
	return b, nil
}

// UnmarshalPreview sets p's Plan, Simulation and Lessons from b, a
// document MarshalPreview wrote (older documents, which lack later
// fields, included); an empty b sets them to nil.
func (p *Permit) UnmarshalPreview(b []byte) error {
	var v preview
	if len(b) > 0 {
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("permit %s: decode preview: %w", p.ID, err)
		}
	}
	p.Plan, p.Simulation, p.Lessons, p.Description = v.Plan, v.Simulation, v.Lessons, v.Description
	return nil
}

// PermitCheck is what a commit must still match. SessionID, when set,
// must be the permit's session: another session's permit is refused as
// not found (ErrNotFound), exactly like an unknown id.
type PermitCheck struct {
	SessionID  string
	Now        time.Time
	Tick       uint64
	Tool       string
	ArgsHash   string
	PolicyHash string
	Phase      string
	By         string
}

// Reasons a permit was not consumed or cancelled. A refusal for the
// permit's status wraps ErrPermitNotPending as well as ErrPermitConsumed or
// ErrPermitCancelled, so either test works.
var (
	ErrPermitNotPending = errors.New("permit not pending")
	ErrPermitConsumed   = errors.New("permit already consumed")
	ErrPermitCancelled  = errors.New("permit cancelled")
	ErrPermitExpired    = errors.New("permit expired")
	ErrPermitEarly      = errors.New("permit announce delay not over")
	ErrPermitMismatch   = errors.New("permit bound to other arguments") // tool or args hash differ
	ErrPolicyChanged    = errors.New("policy changed since preview")
	ErrPhaseChanged     = errors.New("phase changed since preview")
)

// Permits stores permits and makes their consumption single-use across
// goroutines and processes sharing the backend.
type Permits interface {
	// CreatePermit durably stores p (Status must be pending). It refuses,
	// writing nothing, a permit without an id, tool, args hash, policy hash,
	// CreatedAt or an ExpiresAt after CreatedAt, one that is not pending or
	// has ClosedAt or ClosedBy set, and one whose id exists.
	CreatePermit(ctx context.Context, p *Permit) error
	// Permit returns the permit with id, or ErrNotFound.
	Permit(ctx context.Context, id string) (Permit, error)
	// ConsumePermit moves the permit from pending to consumed in one conditional
	// update whose WHERE clause holds every condition of c (status pending,
	// ExpiresAt > Now, NotBefore <= Now, ExpiryTick == 0 or Tick < ExpiryTick,
	// tool, args hash, policy hash and phase equal). Exactly one of any number of
	// concurrent calls (goroutines or processes) succeeds. On failure nothing
	// changes and the error says why (ErrNotFound or one of the ErrPermit*/ErrPolicyChanged/ErrPhaseChanged
	// above, found by reading the row after the update matched nothing).
	// Returns the consumed permit.
	ConsumePermit(ctx context.Context, id string, c PermitCheck) (Permit, error)
	// CancelPermit moves a pending permit to cancelled (ErrPermitNotPending wrapped otherwise, ErrNotFound).
	CancelPermit(ctx context.Context, id string, by string, now time.Time) error
	// CancelPermitRecorded is CancelPermit appending rec to the action log
	// in the same transaction: both happen or neither does.
	CancelPermitRecorded(ctx context.Context, id string, by string, now time.Time, rec *ActionRecord) error
	// PendingPermits returns pending, unexpired permits at now, oldest first (limit 0 = all).
	PendingPermits(ctx context.Context, now time.Time, limit int) ([]Permit, error)
	// OpenCommits returns the consumed permits that have no outcome record
	// (no action record of kind ActionToolCall): commits a crash
	// interrupted between consuming the permit and recording what it did.
	// Oldest consumption first; limit 0 = all.
	OpenCommits(ctx context.Context, limit int) ([]Permit, error)
}

// ActionRecord is one step of a write's life in the audit trail (seed 002's
// ActionRecord plus permit lifecycle), of a kind ActionKind names.
type ActionRecord struct {
	ID          string
	Time        time.Time
	Kind        ActionKind
	PermitID    string
	PrincipalID string
	SessionID   string
	Tool        string
	ActionType  string // "swap", "deposit", ...
	ArgsHash    string
	TxHash      string
	// ChainID is the chain TxHash is on (0: none, or a record from before
	// it was kept).
	ChainID     uint64
	Status      ActionStatus
	BlockReason string // reason code when blocked
	GasUsed     uint64
	GasCostWei  string
	// OutcomeRecord fields (seed 002), for executed writes:
	Verified    bool
	Expected    string
	Actual      string
	GroundTruth string // receipt, balance_check, log_comparison
	Detail      []byte // JSON, optional
}

// ActionFilter selects action records. Zero fields do not filter; Since is
// inclusive, Until exclusive, Limit 0 means no limit.
type ActionFilter struct {
	PermitID, PrincipalID, SessionID, Tool string
	Kind                                   ActionKind // zero: every kind
	Since, Until                           time.Time
	Limit                                  int
}

// ActionLog is the audit trail of writes, step by step.
type ActionLog interface {
	// AppendAction durably writes rec.
	AppendAction(ctx context.Context, rec *ActionRecord) error
	// Actions returns matching records, oldest first.
	Actions(ctx context.Context, f ActionFilter) ([]ActionRecord, error)
	// FailedLookups counts the principal's records of kind
	// ActionLookupFailed at or after since.
	FailedLookups(ctx context.Context, principalID string, since time.Time) (int, error)
}

// ActionLookupFailed is the kind of the record of a lookup, by a
// principal, of an id that does not exist or is not its own.
const ActionLookupFailed = ActionLookupFailedKind
