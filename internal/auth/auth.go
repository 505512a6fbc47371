// Package auth issues and verifies the bearer tokens clients present to
// ward serve. A token is bound to a role (owner, agent or peer) that
// decides what the client may do and which input source the policy sees.
// Only the SHA-256 of a token is stored; the token itself is shown once,
// when it is created.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
)

// Role is what a token may do.
type Role string

// Roles.
const (
	Owner Role = "owner" // approves, lifts halts, changes the phase, reviews
	Agent Role = "agent" // calls tools
	Peer  Role = "peer"  // another agent: calls tools with peer authority
)

// ParseRole parses a role name.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case Owner, Agent, Peer:
		return r, nil
	}
	return "", fmt.Errorf("unknown role %q (want owner, agent or peer)", s)
}

// Source returns the input source the policy sees for calls made with the
// role: the owner is the agent's creator, a peer is a peer.
func (r Role) Source() policy.InputSource {
	switch r {
	case Owner:
		return policy.Creator
	case Agent:
		return policy.Agent
	}
	return policy.Peer
}

// Principal is a verified token's holder.
type Principal struct {
	ID      string    `json:"id"` // the first 12 hex digits of the token's hash
	Role    Role      `json:"role"`
	Name    string    `json:"name,omitempty"`
	Created time.Time `json:"created"`
}

// ErrInvalid is returned for a token that is malformed, unknown or revoked.
var ErrInvalid = errors.New("invalid token")

const prefix = "ward_"

// keyOf is the state key of a token hash.
func keyOf(hash [32]byte) string { return "token:" + hex.EncodeToString(hash[:]) }

// Create makes a new token for role and stores its hash. The token is
// returned once and never stored.
func Create(ctx context.Context, st store.State, role Role, name string, now time.Time) (string, Principal, error) {
	if _, err := ParseRole(string(role)); err != nil {
		return "", Principal{}, err
	}
	if len(name) > 64 {
		return "", Principal{}, errors.New("token name longer than 64 bytes")
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", Principal{}, fmt.Errorf("create token: %w", err)
	}
	tok := prefix + base64.RawURLEncoding.EncodeToString(raw[:])
	h := sha256.Sum256([]byte(tok))
	p := Principal{ID: hex.EncodeToString(h[:6]), Role: role, Name: name, Created: now.UTC()}
	b, _ := json.Marshal(p)
	if err := st.SetState(ctx, keyOf(h), string(b), now); err != nil {
		return "", Principal{}, fmt.Errorf("create token: %w", err)
	}
	return tok, p, nil
}

// Verifier checks tokens against the store, caching verified ones for a
// short time.
type Verifier struct {
	st  store.State
	ttl time.Duration
	mu  sync.Mutex
	hit map[[32]byte]cached
}

type cached struct {
	p  Principal
	at time.Time
}

// NewVerifier returns a verifier over st; ttl bounds how long a revoked
// token may still be accepted (default 5 s).
func NewVerifier(st store.State, ttl time.Duration) *Verifier {
	if ttl <= 0 {
		ttl = 5 * time.Second
	}
	return &Verifier{st: st, ttl: ttl, hit: map[[32]byte]cached{}}
}

// Verify returns the principal of a bearer token.
func (v *Verifier) Verify(ctx context.Context, token string, now time.Time) (Principal, error) {
	if !strings.HasPrefix(token, prefix) || len(token) != len(prefix)+43 {
		return Principal{}, ErrInvalid
	}
	h := sha256.Sum256([]byte(token))
	v.mu.Lock()
	c, ok := v.hit[h]
	v.mu.Unlock()
	if ok && now.Sub(c.at) < v.ttl {
		return c.p, nil
	}
	val, _, found, err := v.st.State(ctx, keyOf(h))
	if err != nil {
		return Principal{}, fmt.Errorf("verify token: %w", err)
	}
	if !found || val == "" {
		return Principal{}, ErrInvalid
	}
	var p Principal
	if err := json.Unmarshal([]byte(val), &p); err != nil {
		return Principal{}, ErrInvalid
	}
	// The stored id is derived from the hash; a mismatch means the row
	// was not written by Create.
	if subtle.ConstantTimeCompare([]byte(p.ID), []byte(hex.EncodeToString(h[:6]))) != 1 {
		return Principal{}, ErrInvalid
	}
	v.mu.Lock()
	if len(v.hit) > 4096 {
		clear(v.hit)
	}
	v.hit[h] = cached{p, now}
	v.mu.Unlock()
	return p, nil
}

// Revoke removes a token (by the token itself).
func Revoke(ctx context.Context, st store.State, token string, now time.Time) error {
	h := sha256.Sum256([]byte(token))
	return st.SetState(ctx, keyOf(h), "", now)
}

// FromHeader extracts the token of an "Authorization: Bearer ..." header.
func FromHeader(h string) (string, bool) {
	const b = "Bearer "
	if len(h) <= len(b) || !strings.EqualFold(h[:len(b)], b) {
		return "", false
	}
	return strings.TrimSpace(h[len(b):]), true
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal ctx carries.
func PrincipalFrom(ctx context.Context) (Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(Principal)
	return p, ok
}
