// Package auth issues and verifies the bearer tokens clients present to
// ward serve. A token stands for a principal (store.PrincipalRecord): an id
// that never changes, a name unique among live principals, a role (owner,
// agent or peer) that decides what the client may do and which input
// source the policy sees, and a life: a token may expire, be revoked, or be
// rotated (a new secret for the same principal, the old one refused from
// then on). Only the SHA-256 of a token is stored; the token itself is
// shown once, when it is created or rotated.
//
// Inside ward a token is held only as a *taint.String labelled
// taint.OwnerSecret (a bearer credential never reaches the model's context,
// the audit trail, logs or another agent); one presented by a client is also
// labelled taint.UntrustedExternal. CreateSecret, SecretFromHeader and
// VerifySecret work on such values: a token is hashed from there and the
// Verifier's cache is keyed by the hash. Create, Rotate and Verify
// take or return a plain string for callers that have nothing else (the CLI
// and the API printing a new token once to the owner, tests, clients); the
// Go string cannot be zeroed, so it should go no further than that.
//
// Revocation is prompt: a Verifier re-reads a cached principal after
// DefaultCacheTTL (500 ms), so a token revoked by any process on the
// database (`ward token revoke` beside a running `ward serve`) is refused
// within a second; Invalidate drops it at once in the revoking process; and
// Watch ends a long-lived request (an event stream, an MCP session's stream)
// when its principal is revoked or expires.
package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/taint"
)

// Role is what a token may do.
type Role string

// Roles.
const (
	Owner Role = "owner" // approves, lifts halts, changes the phase, reviews, manages tokens
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
// role: the owner is the agent's creator, a peer is a peer. A role outside
// the three (the zero Role included) is external, the least trusted.
func (r Role) Source() policy.InputSource {
	switch r {
	case Owner:
		return policy.Creator
	case Agent:
		return policy.Agent
	case Peer:
		return policy.Peer
	}
	return policy.External
}

// Principal is a verified token's holder.
type Principal struct {
	ID      string    `json:"id"`
	Role    Role      `json:"role"`
	Name    string    `json:"name,omitempty"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires,omitzero"` // zero: never
}

// Live reports whether p may act at now: it has a role and has not
// expired. (Revocation is the store's to say: see Verifier.)
func (p Principal) Live(now time.Time) bool {
	_, err := ParseRole(string(p.Role))
	return err == nil && p.ID != "" && (p.Expires.IsZero() || now.Before(p.Expires))
}

// Info is what `ward token list` and GET /v1/tokens show of a principal:
// everything but the secret.
type Info struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Role     Role      `json:"role"`
	Created  time.Time `json:"created"`
	Expires  time.Time `json:"expires,omitzero"`
	Revoked  time.Time `json:"revoked,omitzero"`
	Rotated  time.Time `json:"rotated,omitzero"`
	LastUsed time.Time `json:"last_used,omitzero"`
}

func principalOf(r *store.PrincipalRecord) Principal {
	return Principal{ID: r.ID, Role: Role(r.Role), Name: r.Name, Created: r.Created.UTC(), Expires: r.Expires.UTC()}
}

// InfoOf is what may be shown of a stored principal.
func InfoOf(r *store.PrincipalRecord) Info {
	return Info{ID: r.ID, Name: r.Name, Role: Role(r.Role), Created: r.Created.UTC(), Expires: utc(r.Expires),
		Revoked: utc(r.Revoked), Rotated: utc(r.Rotated), LastUsed: utc(r.LastUsed)}
}

func utc(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.UTC()
}

// Errors of token management. A refused token is always ErrInvalid: a
// client is never told whether a token it holds was revoked, expired or
// never existed.
var (
	ErrInvalid  = errors.New("invalid token")
	ErrBadName  = errors.New("a token name is 1 to 64 printable characters, without control characters or surrounding spaces")
	ErrBadTTL   = errors.New("a token's ttl is positive and at most 10 years")
	ErrNotFound = errors.New("no token has this id or name")
	ErrRevoked  = errors.New("the token is revoked")
)

const (
	prefix   = "ward_"
	tokenLen = len(prefix) + 43 // 32 random bytes in unpadded base64url

	// MaxNameLen is the longest token name, in bytes.
	MaxNameLen = 64
	// MaxTTL is the longest lifetime a token may be given.
	MaxTTL = 10 * 365 * 24 * time.Hour
)

// Spec is what a new token is: its role, a name (empty: one is made from
// the role and the id) and a lifetime (0: it does not expire).
type Spec struct {
	Role Role
	Name string
	TTL  time.Duration
}

// CheckName returns ErrBadName unless name is a usable token name.
func CheckName(name string) error {
	if name == "" || len(name) > MaxNameLen || !utf8.ValidString(name) || strings.TrimSpace(name) != name {
		return ErrBadName
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return ErrBadName
		}
	}
	return nil
}

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

// newSecret makes a fresh token and its hash.
func newSecret() (*taint.String, [32]byte, error) {
	var raw [32]byte
	defer clear(raw[:])
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, [32]byte{}, err
	}
	tok := make([]byte, tokenLen)
	copy(tok, prefix)
	base64.RawURLEncoding.Encode(tok[len(prefix):], raw[:])
	h := sha256.Sum256(tok)
	return taint.FromBytes(tok, taint.OwnerSecret), h, nil
}

// CreateSecret makes a new principal as spec says and stores its token's
// hash. The token is returned as a taint.String labelled taint.OwnerSecret,
// whatever the role, and is never stored; the caller releases it. A name
// that a live principal holds fails (store.ErrNameTaken).
func CreateSecret(ctx context.Context, st store.Principals, spec Spec, now time.Time) (*taint.String, Principal, error) {
	if _, err := ParseRole(string(spec.Role)); err != nil {
		return nil, Principal{}, err
	}
	if spec.TTL < 0 || spec.TTL > MaxTTL {
		return nil, Principal{}, ErrBadTTL
	}
	pid := id.Opaque(now)
	name := spec.Name
	if name == "" {
		name = string(spec.Role) + "-" + strings.ToLower(pid[len(pid)-8:])
	}
	if err := CheckName(name); err != nil {
		return nil, Principal{}, err
	}
	sec, h, err := newSecret()
	if err != nil {
		return nil, Principal{}, fmt.Errorf("create token: %w", err)
	}
	rec := &store.PrincipalRecord{ID: pid, Name: name, Role: string(spec.Role), TokenHash: h, Created: now.UTC()}
	if spec.TTL > 0 {
		rec.Expires = rec.Created.Add(spec.TTL)
	}
	if err := st.CreatePrincipal(ctx, rec); err != nil {
		sec.Release()
		return nil, Principal{}, fmt.Errorf("create token: %w", err)
	}
	return sec, principalOf(rec), nil
}

// Create is CreateSecret for the places a token leaves ward: `ward token
// create` and POST /v1/tokens printing it once to the owner (and a client
// handed its token, as in the demo and tests). The returned string is the
// only plain copy, and a Go string cannot be zeroed; print it and drop it.
// Code that keeps a token uses CreateSecret.
func Create(ctx context.Context, st store.Principals, spec Spec, now time.Time) (string, Principal, error) {
	sec, p, err := CreateSecret(ctx, st, spec, now)
	if err != nil {
		return "", Principal{}, err
	}
	return plain(sec, p)
}

func plain(sec *taint.String, p Principal) (string, Principal, error) {
	defer sec.Release()
	var tok string
	if err := sec.Use(func(b []byte) error { tok = string(b); return nil }); err != nil {
		return "", Principal{}, fmt.Errorf("token: %w", err)
	}
	return tok, p, nil
}

// Find returns the principal named by ref: its id, or the name of a live
// principal. ErrNotFound if neither.
func Find(ctx context.Context, st store.Principals, ref string) (store.PrincipalRecord, error) {
	if ref == "" {
		return store.PrincipalRecord{}, ErrNotFound
	}
	r, err := st.Principal(ctx, ref)
	if errors.Is(err, store.ErrNotFound) {
		r, err = st.PrincipalByName(ctx, ref)
	}
	if errors.Is(err, store.ErrNotFound) {
		return store.PrincipalRecord{}, ErrNotFound
	}
	return r, err
}

// List returns every principal, revoked ones included, oldest first.
func List(ctx context.Context, st store.Principals) ([]Info, error) {
	recs, err := st.ListPrincipals(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tokens: %w", err)
	}
	out := make([]Info, len(recs))
	for i := range recs {
		out[i] = InfoOf(&recs[i])
	}
	return out, nil
}

// RevokeRef revokes the principal ref names (an id, or a live principal's
// name): its token is refused from then on, by every process on the store
// within a Verifier's cache ttl. ErrNotFound, or ErrRevoked if it already
// was.
func RevokeRef(ctx context.Context, st store.Principals, ref string, now time.Time) (Info, error) {
	r, err := Find(ctx, st, ref)
	if err != nil {
		return Info{}, err
	}
	if err := st.RevokePrincipal(ctx, r.ID, now); err != nil {
		if errors.Is(err, store.ErrPrincipalRevoked) {
			return Info{}, ErrRevoked
		}
		return Info{}, fmt.Errorf("revoke token: %w", err)
	}
	r.Revoked = now
	return InfoOf(&r), nil
}

// RotateSecret gives the principal ref names a new token and returns it
// (a taint.String the caller releases); the old one is refused from then
// on. A revoked or expired principal cannot be rotated (ErrRevoked).
func RotateSecret(ctx context.Context, st store.Principals, ref string, now time.Time) (*taint.String, Principal, error) {
	r, err := Find(ctx, st, ref)
	if err != nil {
		return nil, Principal{}, err
	}
	if !r.Live(now) {
		return nil, Principal{}, ErrRevoked
	}
	sec, h, err := newSecret()
	if err != nil {
		return nil, Principal{}, fmt.Errorf("rotate token: %w", err)
	}
	if err := st.RotatePrincipal(ctx, r.ID, h, now); err != nil {
		sec.Release()
		if errors.Is(err, store.ErrPrincipalRevoked) {
			return nil, Principal{}, ErrRevoked
		}
		return nil, Principal{}, fmt.Errorf("rotate token: %w", err)
	}
	return sec, principalOf(&r), nil
}

// Rotate is RotateSecret returning the new token as a plain string, to be
// printed once (see Create).
func Rotate(ctx context.Context, st store.Principals, ref string, now time.Time) (string, Principal, error) {
	sec, p, err := RotateSecret(ctx, st, ref, now)
	if err != nil {
		return "", Principal{}, err
	}
	return plain(sec, p)
}

// DefaultCacheTTL is how long a Verifier trusts a principal it read: the
// bound on how long a token revoked by another process is still accepted.
const DefaultCacheTTL = 500 * time.Millisecond

// touchEvery is how often a Verifier records a principal's last use.
const touchEvery = time.Minute

// maxCached bounds a Verifier's cache.
const maxCached = 4096

// Verifier checks tokens against the store, caching verified ones for a
// short time. The cache is keyed by the token's hash, never the token. It is
// safe for concurrent use, and formats and logs without its cache.
type Verifier struct {
	st  store.Principals
	ttl time.Duration

	mu      sync.Mutex
	hit     map[[32]byte]cached
	touched map[string]time.Time // principal id → last recorded use
}

type cached struct {
	p  Principal
	at time.Time
}

// NewVerifier returns a verifier over st; ttl bounds how long a revoked
// token may still be accepted (DefaultCacheTTL when ttl <= 0).
func NewVerifier(st store.Principals, ttl time.Duration) *Verifier {
	if ttl <= 0 {
		ttl = DefaultCacheTTL
	}
	return &Verifier{st: st, ttl: ttl, hit: map[[32]byte]cached{}, touched: map[string]time.Time{}}
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
// released, unknown, revoked or expired token fails with ErrInvalid; a
// store failure is wrapped. It does not release tok.
func (v *Verifier) VerifySecret(ctx context.Context, tok *taint.String, now time.Time) (Principal, error) {
	h, ok := hashOf(tok)
	if !ok {
		return Principal{}, ErrInvalid
	}
	v.mu.Lock()
	c, ok := v.hit[h]
	if ok && (now.Sub(c.at) >= v.ttl || now.Before(c.at) || !c.p.Live(now)) {
		delete(v.hit, h) // stale or expired: a revoked token must not come back
		ok = false
	}
	v.mu.Unlock()
	if ok {
		return c.p, nil
	}
	r, err := v.st.PrincipalByToken(ctx, h)
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, ErrInvalid
	}
	if err != nil {
		return Principal{}, fmt.Errorf("verify token: %w", err)
	}
	p := principalOf(&r)
	if !r.Live(now) || !p.Live(now) {
		return Principal{}, ErrInvalid
	}
	v.mu.Lock()
	if len(v.hit) >= maxCached {
		clear(v.hit)
	}
	v.hit[h] = cached{p, now}
	last, seen := v.touched[p.ID]
	touch := !seen || now.Sub(last) >= touchEvery
	if touch {
		if len(v.touched) >= maxCached {
			clear(v.touched)
		}
		v.touched[p.ID] = now
	}
	v.mu.Unlock()
	if touch {
		// Best effort by design: last use is shown to the owner, never
		// decides anything.
		_ = v.st.TouchPrincipal(context.WithoutCancel(ctx), p.ID, now)
	}
	return p, nil
}

// Invalidate drops every cached verification of the principal pid, so that
// this process refuses a token revoked or rotated here at once.
func (v *Verifier) Invalidate(pid string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for h, c := range v.hit {
		if c.p.ID == pid {
			delete(v.hit, h)
		}
	}
}

// Live reports whether the principal pid may still act at now: it exists,
// is not revoked and has not expired. It reads the store every time.
func (v *Verifier) Live(ctx context.Context, pid string, now time.Time) (bool, error) {
	r, err := v.st.Principal(ctx, pid)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return r.Live(now), nil
}

// WatchEvery is how often Watch checks a principal.
const WatchEvery = 250 * time.Millisecond

// Watch returns a context that is cancelled once p is revoked or expires
// (or the store cannot say it is live), checked every WatchEvery against
// the store, and once parent ends. The goroutine that watches belongs to
// the returned context: calling cancel, or parent ending, stops it.
func (v *Verifier) Watch(parent context.Context, p Principal) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	go func() {
		t := time.NewTicker(WatchEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				live, err := v.Live(ctx, p.ID, now)
				if ctx.Err() != nil {
					return
				}
				if err != nil || !live || !p.Live(now) {
					v.Invalidate(p.ID)
					cancel(ErrInvalid)
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
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
