// Package auth issues and verifies the bearer tokens clients present to
// ward serve. A token is bound to a role (owner, agent or peer) that
// decides what the client may do and which input source the policy sees.
// Only the SHA-256 of a token is stored; the token itself is shown once,
// when it is created.
//
// Inside ward a token is held only as a *taint.String labelled
// taint.OwnerSecret (a bearer credential never reaches the model's context,
// the audit trail, logs or another agent); one presented by a client is also
// labelled taint.UntrustedExternal. CreateSecret, SecretFromHeader and
// VerifySecret work on such values: a token is hashed from there and the
// Verifier's cache is keyed by the hash. Create, FromHeader, Verify and
// Revoke take or return a plain string for callers that have nothing else
// (the CLI printing a new token once to the owner, tests, clients); the
// Go string cannot be zeroed, so it should go no further than that.
package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/taint"
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

const (
	prefix   = "ward_"
	tokenLen = len(prefix) + 43 // 32 random bytes in unpadded base64url
)

// keyOf is the state key of a token hash.
func keyOf(hash [32]byte) string { return "token:" + hex.EncodeToString(hash[:]) }

// idOf is a principal's id: the first 12 hex digits of its token's hash.
func idOf(hash [32]byte) string { return hex.EncodeToString(hash[:6]) }

// wellFormed reports whether b has the shape of a token ward issues: the
// prefix and 32 bytes in strict unpadded base64url.
func wellFormed(b []byte) bool {
	if len(b) != tokenLen || !bytes.HasPrefix(b, []byte(prefix)) {
		return false
	}
	var raw [33]byte
	defer clear(raw[:])
	n, err := base64.RawURLEncoding.Strict().Decode(raw[:], b[len(prefix):])
	return err == nil && n == 32
}

// hashOf returns the SHA-256 of a well-formed token; ok is false for a
// malformed or released one.
func hashOf(tok *taint.String) (h [32]byte, ok bool) {
	err := tok.Use(func(b []byte) error {
		if !wellFormed(b) {
			return ErrInvalid
		}
		h = sha256.Sum256(b)
		return nil
	})
	return h, err == nil
}

// CreateSecret makes a new token for role and stores its hash. The token is
// returned as a taint.String labelled taint.OwnerSecret, whatever the role,
// and is never stored; the caller releases it.
func CreateSecret(ctx context.Context, st store.State, role Role, name string, now time.Time) (*taint.String, Principal, error) {
	if _, err := ParseRole(string(role)); err != nil {
		return nil, Principal{}, err
	}
	if len(name) > 64 {
		return nil, Principal{}, errors.New("token name longer than 64 bytes")
	}
	var raw [32]byte
	defer clear(raw[:])
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, Principal{}, fmt.Errorf("create token: %w", err)
	}
	tok := make([]byte, tokenLen)
	copy(tok, prefix)
	base64.RawURLEncoding.Encode(tok[len(prefix):], raw[:])
	h := sha256.Sum256(tok)
	p := Principal{ID: idOf(h), Role: role, Name: name, Created: now.UTC()}
	b, _ := json.Marshal(p)
	if err := st.SetState(ctx, keyOf(h), string(b), now); err != nil {
		clear(tok)
		return nil, Principal{}, fmt.Errorf("create token: %w", err)
	}
	return taint.FromBytes(tok, taint.OwnerSecret), p, nil
}

// Create is CreateSecret for the one place a token leaves ward: `ward token
// create` printing it once to the owner (and a client handed its token, as
// in the demo and tests). The returned string is the only plain copy, and a
// Go string cannot be zeroed; print it and drop it. Code that keeps a token
// uses CreateSecret.
func Create(ctx context.Context, st store.State, role Role, name string, now time.Time) (string, Principal, error) {
	sec, p, err := CreateSecret(ctx, st, role, name, now)
	if err != nil {
		return "", Principal{}, err
	}
	defer sec.Release()
	var tok string
	if err := sec.Use(func(b []byte) error { tok = string(b); return nil }); err != nil {
		return "", Principal{}, fmt.Errorf("create token: %w", err)
	}
	return tok, p, nil
}

// Verifier checks tokens against the store, caching verified ones for a
// short time. The cache is keyed by the token's hash, never the token. It is
// safe for concurrent use, and formats and logs without its cache.
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

// Verify is VerifySecret for a token held as a Go string: it wraps token
// in a taint.String at once (after rejecting one of the wrong length
// without copying it) and releases it when done.
func (v *Verifier) Verify(ctx context.Context, token string, now time.Time) (Principal, error) {
	if len(token) != tokenLen {
		return Principal{}, ErrInvalid
	}
	tok := taint.New(token, taint.OwnerSecret, taint.UntrustedExternal)
	defer tok.Release()
	return v.VerifySecret(ctx, tok, now)
}

// VerifySecret returns the principal of a bearer token. A malformed,
// released, unknown or revoked token fails with ErrInvalid; a store failure
// is wrapped. It does not release tok.
func (v *Verifier) VerifySecret(ctx context.Context, tok *taint.String, now time.Time) (Principal, error) {
	h, ok := hashOf(tok)
	if !ok {
		return Principal{}, ErrInvalid
	}
	v.mu.Lock()
	c, ok := v.hit[h]
	if ok && now.Sub(c.at) >= v.ttl {
		delete(v.hit, h) // expired: a revoked token must not come back
		ok = false
	}
	v.mu.Unlock()
	if ok {
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
	if subtle.ConstantTimeCompare([]byte(p.ID), []byte(idOf(h))) != 1 {
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

// String describes the verifier without its cache.
func (v *Verifier) String() string {
	if v == nil {
		return "auth.Verifier(nil)"
	}
	return "auth.Verifier(ttl=" + v.ttl.String() + ")"
}

// Format prints String for every verb, so no verb reaches the cache.
func (v *Verifier) Format(f fmt.State, _ rune) { fmt.Fprint(f, v.String()) }

// LogValue logs String.
func (v *Verifier) LogValue() slog.Value { return slog.StringValue(v.String()) }

// Revoke is RevokeSecret for a token held as a Go string.
func Revoke(ctx context.Context, st store.State, token string, now time.Time) error {
	if len(token) != tokenLen {
		return ErrInvalid
	}
	tok := taint.New(token, taint.OwnerSecret, taint.UntrustedExternal)
	defer tok.Release()
	return RevokeSecret(ctx, st, tok, now)
}

// RevokeSecret removes a token (by the token itself); a malformed one fails
// with ErrInvalid. A Verifier may still accept it for up to its ttl. It
// does not release tok.
func RevokeSecret(ctx context.Context, st store.State, tok *taint.String, now time.Time) error {
	h, ok := hashOf(tok)
	if !ok {
		return ErrInvalid
	}
	if err := st.SetState(ctx, keyOf(h), "", now); err != nil {
		return fmt.Errorf("revoke token: %w", err)
	}
	return nil
}

// FromHeader extracts the token of an "Authorization: Bearer ..." header.
// Prefer SecretFromHeader, which holds it as a taint.String.
func FromHeader(h string) (string, bool) {
	const b = "Bearer "
	if len(h) <= len(b) || !strings.EqualFold(h[:len(b)], b) {
		return "", false
	}
	return strings.TrimSpace(h[len(b):]), true
}

// SecretFromHeader is FromHeader returning the token as a taint.String
// labelled taint.OwnerSecret and taint.UntrustedExternal, for VerifySecret;
// the caller releases it. A value longer than any token is cut to one byte
// more than a token, which keeps it invalid and the copy small.
func SecretFromHeader(h string) (*taint.String, bool) {
	tok, ok := FromHeader(h)
	if !ok {
		return nil, false
	}
	return taint.New(tok[:min(len(tok), tokenLen+1)], taint.OwnerSecret, taint.UntrustedExternal), true
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
