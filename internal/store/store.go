// Package store defines ward's persistence: the audit trail of policy
// decisions, the ledger of executed calls and spend that tracked state is
// rebuilt from, the last known balance, the policies that decided, and for
// writes the permits between preview and commit, the gate's halt and phase,
// and the action log of each write's steps.
//
// The interfaces are small so that every backend (SQLite by default,
// PostgreSQL for several instances) passes the same conformance suite,
// storetest. Records cross this boundary as plain values: enums as their
// stable names, hashes as lower-case hex, rule lists as JSON arrays.
//
// Durability contract: AppendDecision with durable=true returns nil only
// after the record is committed; cancelling ctx never drops a record that
// was accepted (the call may return ctx.Err() while the write completes).
// Records appended with durable=false are written by the next group commit
// and, at the latest, by Close. Every other write (executions, balance,
// policies, permits, state, actions) is durable when it returns nil.
//
// Permits. ConsumePermit is the one place where two callers racing for the
// same thing must not both win: a backend implements it as one conditional
// update of the permit's row, never as a read followed by a write, so that
// exactly one consumption succeeds however many goroutines or processes
// share the database. A ConsumePermit or CancelPermit that returns ctx.Err()
// may still take effect, as a cancelled append may still be written; a
// permit is never consumed twice either way.
//
// Trust log. AppendTrust is durable; the backend assigns each record's seq
// and chains it to the previous record in commit order (see TrustHash for
// the hash every backend computes), and VerifyTrust names the first row
// that breaks the chain.
//
// Withheld outputs. PromoteWithheld and RejectWithheld are, like
// ConsumePermit, one conditional update each: an output is decided once.
// The store sees ciphertext and wraps as opaque bytes (internal/vault
// makes them); the plaintext it holds is only what a judge promoted.
//
// Knowledge. Quarantined entries (Stage 1's separate collection) are
// capped per agent, evicting the oldest pending in the put's own
// transaction, decided once like withheld outputs, and never promoted by
// age; Grimoire entries are insert-only, so their provenance and claimed
// confidence are never lost.
package store

import (
	"context"
	"errors"
	"time"
)

// ErrClosed is returned by every method after Close.
var ErrClosed = errors.New("store closed")

// ErrUnwritable wraps a write the database could not commit (its disk is
// full, the file became read-only or went away): nothing of the write took
// effect. Callers refuse what depends on the write and answer "unavailable",
// not an internal error.
var ErrUnwritable = errors.New("the database cannot be written")

// ErrDiskFull is wrapped, with ErrUnwritable, when the write failed because
// the database's disk (or its size limit) is full.
var ErrDiskFull = errors.New("the database's disk is full")

// ErrSchemaTooNew is returned when opening a database written by a newer
// ward whose schema this build does not know.
var ErrSchemaTooNew = errors.New("database schema is newer than this ward")

// DecisionRecord is one row of policy_decisions.
type DecisionRecord struct {
	ID             string    // time-ordered unique id (ULID)
	Time           time.Time // when the decision was made
	TurnID         string
	SessionID      string
	InputSource    string // creator, agent, system, heartbeat, peer, external
	Authority      string // system, agent, external
	Tool           string
	Category       string
	ArgsHash       string // hex SHA-256 of the canonical arguments
	Risk           string // safe, caution, dangerous, forbidden
	Decision       Verdict
	Reason         string // reason code
	Message        string
	Rule           string // deciding rule, empty when allowed
	RulesEvaluated string // JSON array of rule ids
	RulesTriggered string // JSON array of rule ids
	Latency        time.Duration
	PolicyHash     string // hex
	SpendCategory  string
	SpendCents     int64
	Diagnostic     string
	Origin         Origin
}

// DecisionFilter selects decisions. Zero fields do not filter.
type DecisionFilter struct {
	Tool      string
	Decision  Verdict
	Reason    string
	SessionID string
	TurnID    string
	Origin    Origin
	Since     time.Time // inclusive
	Until     time.Time // exclusive
	Limit     int       // 0: no limit
}

// Report names one of the audit trail's named reports.
type Report string

// Named reports (the seed's three example queries).
const (
	MostDeniedTools    Report = "most-denied-tools"
	MostTriggeredRules Report = "most-triggered-rules"
	DenialsByReason    Report = "denials-by-reason"
)

// Reports lists the named reports.
func Reports() []Report { return []Report{MostDeniedTools, MostTriggeredRules, DenialsByReason} }

// ReportRow is one line of a report, ordered by Count descending, then Key.
type ReportRow struct {
	Key   string
	Count int64
}

// ErrUnknownReport is returned for a report name not in Reports.
var ErrUnknownReport = errors.New("unknown report")

// DecisionLog is the audit trail of policy decisions.
type DecisionLog interface {
	// AppendDecision writes rec. With durable it returns once the record is
	// committed; otherwise once it is queued for the next group commit.
	// It does not keep rec after it returns: the caller may reuse it.
	AppendDecision(ctx context.Context, rec *DecisionRecord, durable bool) error
	// QueryDecisions returns matching decisions, newest first.
	QueryDecisions(ctx context.Context, f DecisionFilter) ([]DecisionRecord, error)
	// CountDecisions returns how many decisions match f (f.Limit is
	// ignored).
	CountDecisions(ctx context.Context, f DecisionFilter) (int64, error)
	// DecisionReport runs a named report over the decisions f selects
	// (f.Limit bounds the rows of the report).
	DecisionReport(ctx context.Context, r Report, f DecisionFilter) ([]ReportRow, error)
}

// CommittedDecisionLog is a DecisionLog that can return once a record is
// committed, before the sync that makes it survive a power loss: the
// record is written (a full disk fails it) and survives a crash of the
// process. The audit recorder uses it, when the log has it, for records a
// call waits on that need not be power-loss durable (reads).
// Like AppendDecision, AppendDecisionCommitted does not keep rec.
type CommittedDecisionLog interface {
	AppendDecisionCommitted(ctx context.Context, rec *DecisionRecord) error
}

// BoundedDecisionLog is a DecisionLog that bounds every append by a
// timeout of its own: AppendDecision and AppendDecisionCommitted return,
// with an error if the record is not yet committed (or synced), at most
// AppendTimeout after they were called, whatever ctx. The audit recorder
// relies on it instead of giving each record a timeout context when the
// bound is no longer than its own.
type BoundedDecisionLog interface {
	AppendTimeout() time.Duration
}

// ExecutionRecord is one executed call, written by the caller after the
// call's effect happened; spend and rate limits count these.
type ExecutionRecord struct {
	ID            string
	Time          time.Time
	Tool          string
	Category      string
	SessionID     string
	TurnID        string
	DecisionID    string
	SpendCategory string // empty: the call spent nothing
	SpendCents    int64
}

// Ledger persists executed calls and the last known balance.
type Ledger interface {
	// AppendExecution durably writes one executed call.
	AppendExecution(ctx context.Context, rec *ExecutionRecord) error
	// Executions returns executed calls at or after since, oldest first.
	Executions(ctx context.Context, since time.Time) ([]ExecutionRecord, error)
	// SetBalance durably records the last known balance in cents.
	SetBalance(ctx context.Context, cents int64, at time.Time) error
	// Balance returns the last recorded balance; ok is false if none was.
	Balance(ctx context.Context) (cents int64, at time.Time, ok bool, err error)
}

// PolicyLog keeps the source of every policy that decided, by hash.
type PolicyLog interface {
	// RecordPolicy stores a policy's source under its hash (idempotent).
	RecordPolicy(ctx context.Context, hash string, source []byte) error
	// Policy returns the source recorded under hash.
	Policy(ctx context.Context, hash string) ([]byte, error)
}

// ErrNotFound is returned when a looked-up record does not exist.
var ErrNotFound = errors.New("not found")

// Store is a complete backend.
type Store interface {
	DecisionLog
	Ledger
	PolicyLog
	Permits
	SentTxs
	ActionLog
	TrustLog
	// Retention's archival of old audit rows (archive.go).
	AuditArchive
	Withheld
	Quarantine
	Grimoire
	Principals
	Sessions
	HeldCalls
	Control
	// What the knowledge pipeline learns (learnt.go) and the pins of
	// upstream tools (pin.go).
	Lessons
	Series
	Memory
	Skills
	Reputation
	Influences
	Clade
	Pins
	// The checks of the keys the data was written with (change.go).
	KeyChecks
	// Close flushes queued records and releases the backend.
	Close() error
}
