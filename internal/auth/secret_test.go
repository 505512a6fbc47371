package auth

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/taint"
)

// memPrincipals is a store.Principals in memory that keeps every value
// ever written, so a test can look for the raw token anywhere in the
// store's history.
type memPrincipals struct {
	mu      sync.Mutex
	rows    map[string]*store.PrincipalRecord
	written []string
	fail    error
}

func newMemState() *memPrincipals { return &memPrincipals{rows: map[string]*store.PrincipalRecord{}} }

func (s *memPrincipals) CreatePrincipal(_ context.Context, p *store.PrincipalRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	if err := store.CheckPrincipal(p); err != nil {
		return err
	}
	for _, r := range s.rows {
		if r.Revoked.IsZero() && r.Name == p.Name {
			return store.ErrNameTaken
		}
		if r.ID == p.ID || r.TokenHash == p.TokenHash {
			return store.ErrPrincipalExists
		}
	}
	c := *p
	s.rows[p.ID] = &c
	s.written = append(s.written, fmt.Sprintf("%+v", c), string(c.TokenHash[:]), hex.EncodeToString(c.TokenHash[:]))
	return nil
}

func (s *memPrincipals) find(match func(*store.PrincipalRecord) bool) (store.PrincipalRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return store.PrincipalRecord{}, s.fail
	}
	for _, r := range s.rows {
		if match(r) {
			return *r, nil
		}
	}
	return store.PrincipalRecord{}, store.ErrNotFound
}

func (s *memPrincipals) PrincipalByToken(_ context.Context, h [32]byte) (store.PrincipalRecord, error) {
	return s.find(func(r *store.PrincipalRecord) bool { return r.TokenHash == h })
}

func (s *memPrincipals) Principal(_ context.Context, pid string) (store.PrincipalRecord, error) {
	return s.find(func(r *store.PrincipalRecord) bool { return r.ID == pid })
}

func (s *memPrincipals) PrincipalByName(_ context.Context, name string) (store.PrincipalRecord, error) {
	return s.find(func(r *store.PrincipalRecord) bool { return r.Revoked.IsZero() && r.Name == name })
}

func (s *memPrincipals) ListPrincipals(context.Context) ([]store.PrincipalRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.PrincipalRecord
	for _, r := range s.rows {
		out = append(out, *r)
	}
	return out, s.fail
}

func (s *memPrincipals) RevokePrincipal(_ context.Context, pid string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	r, ok := s.rows[pid]
	switch {
	case !ok:
		return store.ErrNotFound
	case !r.Revoked.IsZero():
		return store.ErrPrincipalRevoked
	}
	r.Revoked = at
	return nil
}

func (s *memPrincipals) RotatePrincipal(_ context.Context, pid string, h [32]byte, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	r, ok := s.rows[pid]
	switch {
	case !ok:
		return store.ErrNotFound
	case !r.Revoked.IsZero():
		return store.ErrPrincipalRevoked
	}
	r.TokenHash, r.Rotated = h, at
	s.written = append(s.written, string(h[:]), hex.EncodeToString(h[:]))
	return nil
}

func (s *memPrincipals) TouchPrincipal(_ context.Context, pid string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.rows[pid]; ok && at.After(r.LastUsed) {
		r.LastUsed = at
	}
	return nil
}

// reveal returns a token's value for a test to play the client with.
func reveal(t *testing.T, s *taint.String) string {
	t.Helper()
	var tok string
	if err := s.Use(func(b []byte) error { tok = string(b); return nil }); err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestCreateSecretIsOwnerSecret(t *testing.T) {
	for _, role := range []Role{Owner, Agent, Peer} {
		t.Run(string(role), func(t *testing.T) {
			st := newMemState()
			sec, p, err := CreateSecret(t.Context(), st, Spec{Role: role, Name: "n"}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if got, want := sec.Labels(), taint.Labels(0).With(taint.OwnerSecret); got != want {
				t.Errorf("labels = %v, want %v", got, want)
			}
			for _, sink := range []taint.Sink{taint.LLMContext, taint.Relay, taint.Audit, taint.Logs} {
				if _, err := sec.Reveal(sink); !errors.Is(err, taint.ErrForbidden) {
					t.Errorf("Reveal(%v): err = %v, want ErrForbidden", sink, err)
				}
			}
			tok := reveal(t, sec)
			for _, w := range st.written {
				if strings.Contains(w, tok) || strings.Contains(w, tok[len(prefix):]) {
					t.Errorf("the store was given the raw token: %q", w)
				}
			}
			v := NewVerifier(st, 0)
			if got, err := v.VerifySecret(t.Context(), sec, time.Now()); err != nil || got != p {
				t.Errorf("VerifySecret = %+v, %v; want %+v", got, err, p)
			}
			sec.Release()
			if _, err := NewVerifier(st, 0).VerifySecret(t.Context(), sec, time.Now()); !errors.Is(err, ErrInvalid) {
				t.Errorf("released token: err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestCreateReturnsTheOnlyPlainCopy(t *testing.T) {
	st := newMemState()
	tok, p, err := Create(t.Context(), st, Spec{Role: Agent, Name: "cli"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) != tokenLen || !strings.HasPrefix(tok, prefix) {
		t.Fatalf("token %q: want %d bytes starting %q", tok, tokenLen, prefix)
	}
	if got, err := NewVerifier(st, 0).Verify(t.Context(), tok, time.Now()); err != nil || got != p {
		t.Errorf("Verify = %+v, %v; want %+v", got, err, p)
	}
	st.fail = errors.New("disk full")
	if tok, _, err := Create(t.Context(), st, Spec{Role: Owner, Name: ""}, time.Now()); err == nil || tok != "" {
		t.Errorf("Create on a failing store = %q, %v; want no token and an error", tok, err)
	}
	if sec, _, err := CreateSecret(t.Context(), st, Spec{Role: Owner, Name: ""}, time.Now()); err == nil || sec != nil {
		t.Errorf("CreateSecret on a failing store = %v, %v; want no token and an error", sec, err)
	}
	if _, _, err := Create(t.Context(), newMemState(), Spec{Role: Owner, Name: strings.Repeat("x", 65)}, time.Now()); err == nil {
		t.Error("a 65-byte name was accepted")
	}
}

// Nothing a principal, a verifier or a token's holder prints, logs or
// marshals contains the token.
func TestTokenNeverPrinted(t *testing.T) {
	st := newMemState()
	sec, p, err := CreateSecret(t.Context(), st, Spec{Role: Owner, Name: "laptop"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	defer sec.Release()
	tok := reveal(t, sec)
	v := NewVerifier(st, time.Hour)
	if _, err := v.Verify(t.Context(), tok, time.Now()); err != nil {
		t.Fatal(err)
	}
	hdr, _ := SecretFromHeader("Bearer " + tok)
	defer hdr.Release()
	h := sha256.Sum256([]byte(tok))
	ctx := WithPrincipal(t.Context(), p)
	holder := struct {
		P      Principal
		V      *Verifier
		Secret *taint.String
		Header *taint.String
	}{p, v, sec, hdr}
	hidden := struct {
		p Principal
		v *Verifier
		s *taint.String
	}{p, v, sec}

	outs := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q", "%d"} {
		outs[verb+" principal"] = fmt.Sprintf(verb, p)
		outs[verb+" verifier"] = fmt.Sprintf(verb, v)
		outs[verb+" secret"] = fmt.Sprintf(verb, sec)
		outs[verb+" holder"] = fmt.Sprintf(verb, holder)
		outs[verb+" hidden"] = fmt.Sprintf(verb, hidden)
		outs[verb+" context"] = fmt.Sprintf(verb, ctx)
	}
	j, err := json.Marshal(holder)
	if err != nil {
		t.Fatal(err)
	}
	outs["json"] = string(j)
	var logged bytes.Buffer
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("auth", "p", p, "v", v, "secret", sec, "header", hdr, "holder", holder)
	slog.New(slog.NewTextHandler(&logged, nil)).Info("auth", "p", p, "v", v, "secret", sec, "hidden", hidden)
	outs["slog"] = logged.String()
	outs["error"] = fmt.Errorf("verify %v for %+v with %v: %w", sec, p, v, ErrInvalid).Error()

	for name, o := range outs {
		for _, secret := range []string{tok, tok[len(prefix):], tok[len(prefix) : len(prefix)+12], hex.EncodeToString(h[:])} {
			if strings.Contains(o, secret) {
				t.Errorf("%s leaks %q: %s", name, secret, o)
			}
		}
	}
	if !strings.Contains(outs["%v principal"], p.ID) {
		t.Errorf("principal prints as %q, want its id %s", outs["%v principal"], p.ID)
	}
}

// The Verifier's cache is keyed by the token's hash.
func TestVerifierCachesByHash(t *testing.T) {
	st := newMemState()
	tok, p, err := Create(t.Context(), st, Spec{Role: Peer, Name: ""}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	v := NewVerifier(st, time.Minute)
	now := time.Now()
	if _, err := v.Verify(t.Context(), tok, now); err != nil {
		t.Fatal(err)
	}
	if len(v.hit) != 1 {
		t.Fatalf("cache has %d entries, want 1", len(v.hit))
	}
	if c, ok := v.hit[sha256.Sum256([]byte(tok))]; !ok || c.p != p {
		t.Errorf("cache is not keyed by the token's hash: %v", v.hit)
	}
	// A cached token is served even when the store fails.
	st.fail = errors.New("store down")
	if got, err := v.Verify(t.Context(), tok, now.Add(time.Second)); err != nil || got != p {
		t.Errorf("cached Verify = %+v, %v", got, err)
	}
	// Past the ttl the store is asked again, and its failure is an error,
	// never a verified principal and never ErrInvalid.
	if _, err := v.Verify(t.Context(), tok, now.Add(time.Minute)); err == nil || errors.Is(err, ErrInvalid) {
		t.Errorf("Verify on a failing store: err = %v, want a store error", err)
	}
}

// nonCanonical returns the base64url digit c with a padding bit set: as the
// last digit of a 32-byte encoding it decodes (non-strictly) to the same
// bytes.
func nonCanonical(c byte) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	return string(alphabet[strings.IndexByte(alphabet, c)|1])
}

// An attacker's tokens: forged, malformed, misplaced or revoked.
func TestVerifyRefusesForgedTokens(t *testing.T) {
	st := newMemState()
	now := time.Now()
	tok, _, err := Create(t.Context(), st, Spec{Role: Owner, Name: "victim"}, now)
	if err != nil {
		t.Fatal(err)
	}
	body := tok[len(prefix):]
	h := sha256.Sum256([]byte(tok))

	// A revoked owner's token, and an expired one.
	revoked, rp, err := Create(t.Context(), st, Spec{Role: Owner, Name: "revoked"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RevokeRef(t.Context(), st, rp.ID, now); err != nil {
		t.Fatal(err)
	}
	expired, _, err := Create(t.Context(), st, Spec{Role: Owner, Name: "expired", TTL: time.Minute}, now.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	// A principal whose stored role is not one of the three (a row from a
	// newer ward, or a hand edit): unknown means refuse.
	odd := prefix + base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	st.rows["odd"] = &store.PrincipalRecord{ID: "odd", Name: "odd", Role: "admin", TokenHash: sha256.Sum256([]byte(odd)), Created: now}
	// A token for another ward's store.
	other, _, err := Create(t.Context(), newMemState(), Spec{Role: Owner, Name: ""}, now)
	if err != nil {
		t.Fatal(err)
	}
	flip := func(s string, i int) string {
		b := []byte(s)
		b[i] ^= 1
		return string(b)
	}

	for _, tc := range []struct {
		name, token string
		headerOK    bool // the header's whitespace is trimmed, leaving the real token
	}{
		{"empty", "", false},
		{"prefix only", prefix, false},
		{"no prefix", body, false},
		{"no prefix, right length", "xxxxx" + body, false},
		{"upper-case prefix", "WARD_" + body, false},
		{"right prefix, unknown body", prefix + strings.Repeat("A", 43), false},
		{"right prefix, random body", prefix + base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte{0xa5}, 32)), false},
		{"first body byte flipped", flip(tok, len(prefix)), false},
		{"last byte flipped", flip(tok, len(tok)-1), false},
		{"non-canonical last digit (same bytes)", tok[:len(tok)-1] + nonCanonical(body[42]), false},
		{"standard base64 alphabet", prefix + strings.Repeat("+", 43), false},
		{"padded", tok[:len(tok)-1] + "=", false},
		{"one byte short", tok[:len(tok)-1], false},
		{"one byte long", tok + "A", false},
		{"trailing newline", tok + "\n", true},
		{"trailing NUL", tok + "\x00", false},
		{"NUL inside", tok[:10] + "\x00" + tok[11:], false},
		{"1 MiB", prefix + strings.Repeat("A", 1<<20), false},
		{"the token's hash", hex.EncodeToString(h[:]), false},
		{"the principal id", prefix + hex.EncodeToString(h[:6]), false},
		{"revoked owner", revoked, false},
		{"expired owner", expired, false},
		{"unknown stored role", odd, false},
		{"another ward's token", other, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.token == tok {
				t.Fatal("case is the real token")
			}
			v := NewVerifier(st, time.Hour)
			p, err := v.Verify(t.Context(), tc.token, now)
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("Verify = %+v, %v; want ErrInvalid", p, err)
			}
			if err != nil && tc.token != "" && strings.Contains(err.Error(), tc.token) {
				t.Errorf("error echoes the token: %v", err)
			}
			sec, ok := SecretFromHeader("Bearer " + tc.token)
			if !ok {
				return // nothing after "Bearer ": refused before verification
			}
			defer sec.Release()
			if tc.headerOK {
				if _, err := v.VerifySecret(t.Context(), sec, now); err != nil {
					t.Errorf("VerifySecret of the trimmed header: %v", err)
				}
				return
			}
			if p, err := v.VerifySecret(t.Context(), sec, now); !errors.Is(err, ErrInvalid) {
				t.Errorf("VerifySecret = %+v, %v; want ErrInvalid", p, err)
			}
			if len(v.hit) != 0 {
				t.Error("a refused token was cached")
			}
		})
	}
	if _, err := NewVerifier(st, 0).Verify(t.Context(), tok, now); err != nil {
		t.Errorf("the real token is refused after the forgeries: %v", err)
	}
}

func TestRevokedTokenReplay(t *testing.T) {
	st := newMemState()
	now := time.Now()
	sec, p, err := CreateSecret(t.Context(), st, Spec{Role: Agent, Name: ""}, now)
	if err != nil {
		t.Fatal(err)
	}
	defer sec.Release()
	tok := reveal(t, sec)
	const ttl = 5 * time.Second
	v := NewVerifier(st, ttl)
	if _, err := v.Verify(t.Context(), tok, now); err != nil {
		t.Fatal(err)
	}
	if _, err := RevokeRef(t.Context(), st, p.ID, now); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		v        *Verifier
		at       time.Time
		accepted bool
	}{
		{"fresh verifier", NewVerifier(st, ttl), now, false},
		{"cached, within ttl (the documented bound)", v, now.Add(ttl - time.Nanosecond), true},
		{"cached, at ttl", v, now.Add(ttl), false},
		{"cached, long after", v, now.Add(time.Hour), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.v.Verify(t.Context(), tok, tc.at)
			if tc.accepted && err != nil {
				t.Errorf("err = %v, want accepted", err)
			}
			if !tc.accepted && !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
	// Once refused, the token stays refused: it is not re-cached.
	if _, err := v.Verify(t.Context(), tok, now); !errors.Is(err, ErrInvalid) {
		t.Errorf("replay after refusal: err = %v, want ErrInvalid", err)
	}
}

func TestSecretFromHeader(t *testing.T) {
	tok := prefix + strings.Repeat("A", 43)
	for _, tc := range []struct {
		name, header string
		ok           bool
		wantLen      int
	}{
		{"bearer", "Bearer " + tok, true, tokenLen},
		{"lower-case scheme", "bearer " + tok, true, tokenLen},
		{"padded", "Bearer   " + tok + " ", true, tokenLen},
		{"basic", "Basic " + tok, false, 0},
		{"no token", "Bearer ", false, 0},
		{"empty", "", false, 0},
		{"oversized is cut but stays invalid", "Bearer " + tok + strings.Repeat("B", 1<<16), true, tokenLen + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sec, ok := SecretFromHeader(tc.header)
			defer sec.Release()
			if ok != tc.ok || sec.Len() != tc.wantLen {
				t.Fatalf("SecretFromHeader = %d bytes, %v; want %d, %v", sec.Len(), ok, tc.wantLen, tc.ok)
			}
			if !ok {
				return
			}
			if got, want := sec.Labels(), taint.Labels(0).With(taint.OwnerSecret, taint.UntrustedExternal); got != want {
				t.Errorf("labels = %v, want %v", got, want)
			}
		})
	}
}

func BenchmarkVerify(b *testing.B) {
	st := newMemState()
	tok, _, err := Create(b.Context(), st, Spec{Role: Agent, Name: ""}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	v := NewVerifier(st, time.Hour)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Verify(b.Context(), tok, now); err != nil {
			b.Fatal(err)
		}
	}
}
