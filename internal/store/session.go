package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/wardhq/ward/internal/trust"
)

// SessionRecord is a session's security state: who owns it, the name its
// client uses (unique per principal, never across principals), its taint
// level, whether it is an isolated orchestrator or a child of one, who
// reviews and judges it, the owner's directive, and how far its ledger of
// observations goes.
type SessionRecord struct {
	ID          string
	PrincipalID string
	Name        string // "" is the principal's default session
	Created     time.Time
	Active      time.Time // last use (updated coarsely)
	Level       trust.Level
	LevelAt     time.Time // when the level last changed; zero: never
	Isolated    bool
	ParentID    string
	Author      string // who created it: it never reviews or judges it
	Reviewers   []string
	Judge       string
	// Directive is the latest directive; DirectiveTrusted says whether it
	// vouches for values (the owner's, or a clean session's own).
	Directive        string
	DirectiveTrusted bool
	Judged           int   // calls the judge let through
	LedgerSeq        int64 // observations recorded so far (the last seq)
	// LedgerDropped is set once untrusted observations were pruned to
	// keep the ledger within its limit: an Unknown provenance may then
	// hide an Untrusted one.
	LedgerDropped bool
}

// Bounds of a session, which every backend enforces.
const (
	MaxSessionName      = 128
	MaxSessionReviewers = 16
	MaxCheckerName      = 128
	MaxDirective        = 16 << 10
	MaxObservationRef   = 256
	MaxObservationBody  = 8 << 20
)

// SessionLimits bound a principal's sessions. Zero fields are
// DefaultSessionLimits'.
type SessionLimits struct {
	// MaxPerPrincipal is how many live sessions a principal may hold;
	// creating one more is refused with ErrSessionLimit (nothing is
	// evicted to make room).
	MaxPerPrincipal int
	// IdleTTL is how long a clean, non-isolated session may stay unused
	// before it expires.
	IdleTTL time.Duration
	// KeepTTL is how long a tainted, under-review or isolated session may
	// stay unused before it expires (until then only the owner clears it).
	KeepTTL time.Duration
	// CacheBytes bounds the memory the ledgers of the sessions one
	// process caches hold together; past it the least recently used are
	// dropped from memory, never from the store (a later use loads them
	// again).
	CacheBytes int64
}

// DefaultSessionLimits are the limits when none are configured.
var DefaultSessionLimits = SessionLimits{MaxPerPrincipal: 1000, IdleTTL: time.Hour, KeepTTL: 30 * 24 * time.Hour, CacheBytes: 512 << 20}

// WithDefaults fills zero fields from DefaultSessionLimits.
func (l SessionLimits) WithDefaults() SessionLimits {
	if l.MaxPerPrincipal <= 0 {
		l.MaxPerPrincipal = DefaultSessionLimits.MaxPerPrincipal
	}
	if l.IdleTTL <= 0 {
		l.IdleTTL = DefaultSessionLimits.IdleTTL
	}
	if l.KeepTTL <= 0 {
		l.KeepTTL = DefaultSessionLimits.KeepTTL
	}
	if l.CacheBytes <= 0 {
		l.CacheBytes = DefaultSessionLimits.CacheBytes
	}
	return l
}

// Expired reports whether r has expired at now under l: a clean,
// non-isolated session after IdleTTL unused, any other after KeepTTL.
func (l SessionLimits) Expired(r *SessionRecord, now time.Time) bool {
	ttl := l.IdleTTL
	if r.Level != trust.Clean || r.Isolated {
		ttl = l.KeepTTL
	}
	return !now.Before(r.Active.Add(ttl))
}

// Reasons a session was not created or changed.
var (
	ErrSessionExists = errors.New("the principal already has a session with this name")
	ErrSessionLimit  = errors.New("the principal holds as many live sessions as it may")
	ErrLevelChange   = errors.New("the session's level does not allow this change")
)

// Observation is one directive or tool output a session saw: what its
// ledger is rebuilt from. Body is the text (JSON true: a JSON result),
// sealed by the caller when Sealed.
type Observation struct {
	Seq          int64 // set by the store: 1, 2, 3, ... per session
	Time         time.Time
	Kind         trust.SourceKind
	Ref          string
	Instructions []string
	JSON         bool
	Sealed       bool // Body and Args are sealed
	Body         []byte
	// Args are the JSON arguments of the call whose output Body is (nil
	// for a directive or an output without them).
	Args []byte
}

// LevelChange is a change of a session's taint level, made only if the
// session is at one of From when it is applied.
type LevelChange struct {
	To   trust.Level
	From []trust.Level
	At   time.Time
	// Reviewers and Judge become the session's checkers if it has none
	// (a session that becomes tainted gets the defaults).
	Reviewers []string
	Judge     string
}

// ObservationWrite is an observation to append and, optionally, a level
// change made in the same transaction (reading third-party content taints
// the session: the taint and what tainted it are recorded together).
type ObservationWrite struct {
	Observation
	// Level, if set, is applied with the observation; a level the session
	// is not in From of is left as it is (the observation is still
	// appended).
	Level *LevelChange
	// LimitBytes bounds the bodies the session keeps: past it the oldest
	// observations are deleted (and LedgerDropped set if one was
	// untrusted). 0: no bound.
	LimitBytes int64
}

// SessionFilter selects sessions for listing. Zero fields do not filter.
type SessionFilter struct {
	PrincipalID string
	Level       *trust.Level
	Limit       int // 0: 1000
}

// Sessions stores sessions and their ledgers. A session is never dropped
// to make room: only expiry (SessionLimits) and DeleteSession remove one.
// Every write is durable when it returns nil, except TouchSession and an
// AppendObservation made with durable false.
type Sessions interface {
	// OpenSession returns the live session rec.PrincipalID holds under
	// rec.Name, creating it from rec (ID, Created, the trust options) if
	// there is none; created says which. An expired session of the name
	// is deleted first and a new one made. Creating one when the principal
	// holds lim.MaxPerPrincipal live sessions fails with ErrSessionLimit;
	// with mustCreate, an existing live session fails with
	// ErrSessionExists. Expired sessions of the principal are deleted in
	// the same transaction. Atomic: of concurrent opens of one name,
	// every caller gets the same session.
	OpenSession(ctx context.Context, rec *SessionRecord, lim SessionLimits, mustCreate bool, now time.Time) (s SessionRecord, created bool, err error)
	// Session returns the session id (expired or not), or ErrNotFound.
	Session(ctx context.Context, id string) (SessionRecord, error)
	// SessionByName returns the session principalID holds under name, or
	// ErrNotFound.
	SessionByName(ctx context.Context, principalID, name string) (SessionRecord, error)
	// ListSessions returns sessions f selects, most recently active first.
	ListSessions(ctx context.Context, f SessionFilter) ([]SessionRecord, error)
	// UnderReview reports whether any session of principalID is under
	// review.
	UnderReview(ctx context.Context, principalID string) (bool, error)
	// Tainted reports whether any session of principalID is tainted or
	// under review.
	Tainted(ctx context.Context, principalID string) (bool, error)
	// SetSessionLevel applies c to the session id: ErrNotFound, or
	// ErrLevelChange if its level is not one of c.From (nothing changes).
	SetSessionLevel(ctx context.Context, id string, c LevelChange) error
	// SetDirective stores the session's directive.
	SetDirective(ctx context.Context, id, directive string, trusted bool, at time.Time) error
	// AddJudged adds n to the session's count of calls its judge let
	// through.
	AddJudged(ctx context.Context, id string, n int) error
	// AppendObservation appends w to the session's ledger. With durable it
	// returns the observation's seq once committed (ErrNotFound if the
	// session does not exist); without, it returns 0 once queued, and a
	// failure is counted as a dropped record.
	AppendObservation(ctx context.Context, id string, w *ObservationWrite, durable bool) (int64, error)
	// Observations returns the session's observations with seq above
	// after, in order.
	Observations(ctx context.Context, id string, after int64) ([]Observation, error)
	// TouchSession records that id was used at at; not durable.
	TouchSession(ctx context.Context, id string, at time.Time) error
	// DeleteSession deletes the session and its ledger (the owner clears
	// it, or its client closes a clean one). ErrNotFound if absent.
	DeleteSession(ctx context.Context, id string) error
}

// CheckSession returns why rec cannot be stored as a new session, or nil.
func CheckSession(rec *SessionRecord) error {
	switch {
	case rec.ID == "" || len(rec.ID) > MaxPrincipalID:
		return fmt.Errorf("id of %d bytes, want 1 to %d", len(rec.ID), MaxPrincipalID)
	case rec.PrincipalID == "" || len(rec.PrincipalID) > MaxPrincipalID:
		return fmt.Errorf("principal id of %d bytes, want 1 to %d", len(rec.PrincipalID), MaxPrincipalID)
	case len(rec.Name) > MaxSessionName:
		return fmt.Errorf("name of %d bytes, above %d", len(rec.Name), MaxSessionName)
	case !representable(rec.Created):
		return fmt.Errorf("created %v: want a time within the years 1678-2262", rec.Created)
	case rec.Level != trust.Clean && rec.Level != trust.Tainted && rec.Level != trust.Review:
		return fmt.Errorf("level %v", rec.Level)
	case len(rec.Reviewers) > MaxSessionReviewers:
		return fmt.Errorf("%d reviewers, at most %d", len(rec.Reviewers), MaxSessionReviewers)
	case len(rec.Judge) > MaxCheckerName || len(rec.Author) > MaxPrincipalName || len(rec.ParentID) > MaxPrincipalID:
		return errors.New("judge, author or parent too long")
	case len(rec.Directive) > MaxDirective:
		return fmt.Errorf("directive of %d bytes, above %d", len(rec.Directive), MaxDirective)
	case rec.Judged != 0 || rec.LedgerSeq != 0 || rec.LedgerDropped:
		return errors.New("a new session has judged nothing and seen nothing")
	}
	for _, r := range rec.Reviewers {
		if r == "" || len(r) > MaxCheckerName {
			return fmt.Errorf("reviewer name of %d bytes, want 1 to %d", len(r), MaxCheckerName)
		}
	}
	return nil
}

// CheckObservation returns why o cannot be appended, or nil.
func CheckObservation(o *Observation) error {
	switch {
	case !representable(o.Time):
		return fmt.Errorf("time %v: want a time within the years 1678-2262", o.Time)
	case o.Kind != trust.Directive && o.Kind != trust.AddressBook && o.Kind != trust.TrustedOutput &&
		o.Kind != trust.UntrustedOutput && o.Kind != trust.Promoted:
		return fmt.Errorf("kind %v", o.Kind)
	case o.Ref == "" || len(o.Ref) > MaxObservationRef:
		return fmt.Errorf("ref of %d bytes, want 1 to %d", len(o.Ref), MaxObservationRef)
	case len(o.Body) > MaxObservationBody:
		return fmt.Errorf("body of %d bytes, above %d", len(o.Body), MaxObservationBody)
	case len(o.Args) > MaxObservationBody:
		return fmt.Errorf("args of %d bytes, above %d", len(o.Args), MaxObservationBody)
	case o.Seq != 0:
		return errors.New("the store assigns seq")
	case slices.Contains(o.Instructions, ""):
		return errors.New("an empty instruction signal")
	}
	return nil
}

// CheckLevelChange returns why c cannot be applied, or nil.
func CheckLevelChange(c *LevelChange) error {
	valid := func(l trust.Level) bool { return l == trust.Clean || l == trust.Tainted || l == trust.Review }
	switch {
	case !valid(c.To):
		return fmt.Errorf("to level %v", c.To)
	case len(c.From) == 0:
		return errors.New("no from level")
	case !representable(c.At):
		return fmt.Errorf("at %v", c.At)
	case len(c.Reviewers) > MaxSessionReviewers || len(c.Judge) > MaxCheckerName:
		return errors.New("too many reviewers, or a judge name too long")
	}
	for _, f := range c.From {
		if !valid(f) {
			return fmt.Errorf("from level %v", f)
		}
	}
	return nil
}
