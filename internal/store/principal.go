package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// PrincipalRecord is one bearer token's holder: who it is, what role it
// acts with, and the life of its token. Only the SHA-256 of the token is
// stored. A principal keeps its ID for its whole life; rotating its token
// replaces TokenHash and nothing else.
type PrincipalRecord struct {
	ID        string
	Name      string // unique among principals not revoked
	Role      string // owner, agent or peer
	TokenHash [32]byte
	Created   time.Time
	Expires   time.Time // zero: never
	Revoked   time.Time // zero: not revoked
	Rotated   time.Time // zero: never rotated
	LastUsed  time.Time // zero: never used (updated coarsely)
}

// Live reports whether the principal's token may be used at now: it is
// not revoked and has not expired.
func (p *PrincipalRecord) Live(now time.Time) bool {
	return p.Revoked.IsZero() && (p.Expires.IsZero() || now.Before(p.Expires))
}

// Bounds of a principal, which every backend enforces.
const (
	MaxPrincipalID   = 64
	MaxPrincipalName = 128
)

// Reasons a principal was not created or changed.
var (
	ErrPrincipalExists  = errors.New("a principal with this id or token already exists")
	ErrNameTaken        = errors.New("a principal that is not revoked already has this name")
	ErrPrincipalRevoked = errors.New("the principal is revoked")
)

// Principals stores the principals bearer tokens stand for. Every write is
// durable when it returns nil; a revocation is visible to every process on
// the backend as soon as it returns.
type Principals interface {
	// CreatePrincipal stores p (see CheckPrincipal). An id or token hash
	// that exists fails with ErrPrincipalExists, a name held by a principal
	// that is not revoked with ErrNameTaken; nothing is written.
	CreatePrincipal(ctx context.Context, p *PrincipalRecord) error
	// PrincipalByToken returns the principal whose current token hashes to
	// h, revoked or expired ones included, or ErrNotFound.
	PrincipalByToken(ctx context.Context, h [32]byte) (PrincipalRecord, error)
	// Principal returns the principal id, or ErrNotFound.
	Principal(ctx context.Context, id string) (PrincipalRecord, error)
	// PrincipalByName returns the principal that is not revoked named
	// name, or ErrNotFound.
	PrincipalByName(ctx context.Context, name string) (PrincipalRecord, error)
	// ListPrincipals returns every principal, revoked ones included,
	// oldest first.
	ListPrincipals(ctx context.Context) ([]PrincipalRecord, error)
	// RevokePrincipal revokes id at at: its token is refused from then on.
	// ErrNotFound for an unknown id, ErrPrincipalRevoked if it already is
	// (the first revocation's time stays).
	RevokePrincipal(ctx context.Context, id string, at time.Time) error
	// RotatePrincipal replaces id's token hash with h at at, in one
	// conditional update: the old token is refused from then on.
	// ErrNotFound, ErrPrincipalRevoked, or ErrPrincipalExists if h is
	// another principal's.
	RotatePrincipal(ctx context.Context, id string, h [32]byte, at time.Time) error
	// TouchPrincipal records that id was used at at (kept if later than
	// the stored time). It is not durable: a crash may lose the last
	// touches, never anything a decision depends on.
	TouchPrincipal(ctx context.Context, id string, at time.Time) error
}

// CheckPrincipal returns why p cannot be stored as a new principal, or
// nil: an id of 1 to MaxPrincipalID bytes, a name of 1 to MaxPrincipalName
// bytes, a role of owner, agent or peer, a token hash that is not zero, a
// Created within the years 1678-2262, an Expires (if set) after it, and no
// revocation, rotation or use yet.
func CheckPrincipal(p *PrincipalRecord) error {
	switch {
	case p.ID == "" || len(p.ID) > MaxPrincipalID:
		return fmt.Errorf("id of %d bytes, want 1 to %d", len(p.ID), MaxPrincipalID)
	case p.Name == "" || len(p.Name) > MaxPrincipalName:
		return fmt.Errorf("name of %d bytes, want 1 to %d", len(p.Name), MaxPrincipalName)
	case p.Role != "owner" && p.Role != "agent" && p.Role != "peer":
		return fmt.Errorf("role %q: want owner, agent or peer", p.Role)
	case p.TokenHash == [32]byte{}:
		return errors.New("zero token hash")
	case !representable(p.Created):
		return fmt.Errorf("created %v: want a time within the years 1678-2262", p.Created)
	case !p.Expires.IsZero() && (!representable(p.Expires) || !p.Expires.After(p.Created)):
		return fmt.Errorf("expires %v: want a time after its creation", p.Expires)
	case !p.Revoked.IsZero() || !p.Rotated.IsZero() || !p.LastUsed.IsZero():
		return errors.New("a new principal is not revoked, rotated or used")
	}
	return nil
}

// representable reports whether t is not zero and Unix nanoseconds hold it.
func representable(t time.Time) bool {
	return !t.IsZero() && !t.Before(time.Unix(0, minNanos)) && !t.After(time.Unix(0, maxNanos))
}

const (
	minNanos = -1 << 63
	maxNanos = 1<<63 - 1
)
