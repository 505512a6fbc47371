// Package vault seals the output that ward withholds from an isolated
// orchestrator: the raw result of a third-party-content tool run by a
// tainted child session, kept encrypted at rest and readable only by the
// designated reviewers of that child until a judge promotes it.
//
// Envelope encryption. Seal draws a fresh 32-byte data key, encrypts the
// plaintext with AES-256-GCM under it (additional data: the target, the
// output key), and wraps the data key for each reviewer with AES-256-GCM
// under that reviewer's key for the target (additional data: target, 0x00,
// reviewer). A reviewer's key is HKDF-SHA256 of the master key with salt
// "ward/withheld/v1" and info reviewer, 0x00, target: one key per
// reviewer–target pair, so a key handed to one reviewer opens that one
// output and nothing else. Reviewer and target names may not contain 0x00,
// which keeps the pair's encoding unambiguous.
//
// Guarantees. Any change to a sealed output (ciphertext, nonce, a wrap) or
// to its binding (a wrap or ciphertext moved to another target or
// reviewer) fails to open with ErrTampered; a reviewer without a wrap gets
// ErrNotReviewer. The master key and reviewer keys are held only as
// *taint.String labelled taint.OwnerSecret, which never reveals them to
// the LLM context, the audit trail or the logs; data keys and derived keys
// used internally are zeroed after use (the AES key schedule the standard
// library expands from them cannot be). Close zeroes the master key.
//
// A Vault is safe for concurrent use. A Sealed is a plain value: Grant
// modifies it, so callers must not share one across goroutines while
// granting.
package vault

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wardhq/ward/internal/taint"
)

// Bounds.
const (
	KeySize      = 32      // master, reviewer and data keys, in bytes
	MaxPlaintext = 8 << 20 // largest plaintext Seal accepts
	MaxReviewers = 16      // most wraps one sealed output may hold
	MaxReviewer  = 128     // longest reviewer name, in bytes
	MaxTarget    = 64      // longest target (output key), in bytes
)

const (
	nonceSize = 12
	tagSize   = 16
	wrapSize  = nonceSize + KeySize + tagSize // nonce || wrapped data key
	salt      = "ward/withheld/v1"
)

// Errors. Opening a sealed output fails with exactly one of ErrNotReviewer
// and ErrTampered, or with ErrClosed (or an error wrapping
// taint.ErrReleased for a released reviewer key).
var (
	ErrNotReviewer = errors.New("vault: not a designated reviewer of this output")
	ErrTampered    = errors.New("vault: sealed output was modified or belongs to another target")
	ErrTooLarge    = errors.New("vault: plaintext too large")
	ErrClosed      = errors.New("vault: closed")
)

// Vault seals withheld outputs under a master key it never exposes. Make
// one with Open or New; Close releases the key.
type Vault struct {
	master *taint.String
}

// Sealed is one encrypted output. Target is the output key the ciphertext
// and every wrap are bound to; Wraps maps each reviewer to its nonce
// followed by the data key wrapped under its reviewer key.
type Sealed struct {
	Target     string
	Nonce      []byte
	Ciphertext []byte
	Wraps      map[string][]byte
}

// New returns a Vault holding a copy of master, which must be KeySize
// bytes; the caller still owns (and releases) master.
func New(master *taint.String) (*Vault, error) {
	var b []byte
	err := master.Use(func(m []byte) error {
		if len(m) != KeySize {
			return fmt.Errorf("vault: master key of %d bytes, want %d", len(m), KeySize)
		}
		b = bytes.Clone(m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newVault(b), nil
}

// newVault takes ownership of key, which Close zeroes.
func newVault(key []byte) *Vault {
	return &Vault{master: taint.FromBytes(key, taint.OwnerSecret)}
}

// Close zeroes the master key; every later call fails with ErrClosed. It
// waits for calls in progress and is idempotent.
func (v *Vault) Close() { v.master.Release() }

// ReviewerKey returns the key of the reviewer–target pair, labelled
// taint.OwnerSecret: with it and OpenWithKey the reviewer opens that
// target's output and no other. The caller releases it.
func (v *Vault) ReviewerKey(reviewer, target string) (*taint.String, error) {
	if err := checkNames(reviewer, target); err != nil {
		return nil, err
	}
	k, err := v.derive(reviewer, target)
	if err != nil {
		return nil, err
	}
	return taint.FromBytes(k, taint.OwnerSecret), nil
}

// Seal encrypts plaintext (at most MaxPlaintext bytes, else ErrTooLarge)
// for target, wrapping its data key for each of 1 to MaxReviewers distinct
// reviewers.
func (v *Vault) Seal(target string, reviewers []string, plaintext []byte) (*Sealed, error) {
	if len(plaintext) > MaxPlaintext {
		return nil, fmt.Errorf("%w: %d bytes, above %d", ErrTooLarge, len(plaintext), MaxPlaintext)
	}
	switch {
	case len(reviewers) == 0:
		return nil, errors.New("vault: seal: no reviewer")
	case len(reviewers) > MaxReviewers:
		return nil, fmt.Errorf("vault: seal: %d reviewers, above %d", len(reviewers), MaxReviewers)
	}
	for i, r := range reviewers {
		if err := checkNames(r, target); err != nil {
			return nil, err
		}
		if slices.Contains(reviewers[:i], r) {
			return nil, fmt.Errorf("vault: seal: reviewer %q named twice", r)
		}
	}
	dk := make([]byte, KeySize)
	defer clear(dk)
	rand.Read(dk)
	nonce, ct, err := seal(dk, plaintext, []byte(target))
	if err != nil {
		return nil, err
	}
	s := &Sealed{Target: target, Nonce: nonce, Ciphertext: ct, Wraps: make(map[string][]byte, len(reviewers))}
	for _, r := range reviewers {
		if s.Wraps[r], err = v.wrap(dk, target, r); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// OpenFor decrypts s for reviewer with the master key. It fails with
// ErrNotReviewer if reviewer has no wrap, and with an error wrapping
// ErrTampered (and the AEAD's error) if s was modified or moved.
func (v *Vault) OpenFor(s *Sealed, reviewer string) ([]byte, error) {
	if s == nil {
		return nil, errors.New("vault: open: nil sealed output")
	}
	if _, ok := s.Wraps[reviewer]; !ok {
		return nil, ErrNotReviewer
	}
	if err := checkNames(reviewer, s.Target); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTampered, err) // Seal made no such output
	}
	k, err := v.derive(reviewer, s.Target)
	if err != nil {
		return nil, err
	}
	defer clear(k)
	return open(s, reviewer, k)
}

// OpenWithKey decrypts s for reviewer with that reviewer's key for s's
// target alone, as a reviewer holding only its key does. Errors are those
// of OpenFor; a key for another reviewer or target fails with ErrTampered.
func OpenWithKey(s *Sealed, reviewer string, key *taint.String) ([]byte, error) {
	if s == nil {
		return nil, errors.New("vault: open: nil sealed output")
	}
	if _, ok := s.Wraps[reviewer]; !ok {
		return nil, ErrNotReviewer
	}
	var pt []byte
	err := key.Use(func(k []byte) error {
		if len(k) != KeySize {
			return fmt.Errorf("vault: open: reviewer key of %d bytes, want %d", len(k), KeySize)
		}
		var err error
		pt, err = open(s, reviewer, k)
		return err
	})
	if err != nil {
		return nil, err
	}
	return pt, nil
}

// Grant wraps s's data key for reviewer too, unwrapping it from the wrap
// of the first reviewer in name order; the caller persists
// s.Wraps[reviewer] and records the decryption grant in the trust log. A
// reviewer that already has a wrap keeps it and Grant returns nil. It
// fails with ErrTampered if that wrap does not open, and when s already
// has MaxReviewers wraps.
func (v *Vault) Grant(s *Sealed, reviewer string) error {
	if s == nil {
		return errors.New("vault: grant: nil sealed output")
	}
	if err := checkNames(reviewer, s.Target); err != nil {
		return err
	}
	if _, ok := s.Wraps[reviewer]; ok {
		return nil
	}
	if len(s.Wraps) >= MaxReviewers {
		return fmt.Errorf("vault: grant: already %d reviewers, the most there may be", len(s.Wraps))
	}
	if len(s.Wraps) == 0 {
		return fmt.Errorf("vault: grant: no wrap to take the data key from: %w", ErrTampered)
	}
	from := slices.Min(slices.Collect(maps.Keys(s.Wraps)))
	if err := checkNames(from, s.Target); err != nil {
		return fmt.Errorf("vault: grant: %w: %w", ErrTampered, err)
	}
	k, err := v.derive(from, s.Target)
	if err != nil {
		return err
	}
	defer clear(k)
	dk, err := unwrap(s.Wraps[from], k, s.Target, from)
	if err != nil {
		return err
	}
	defer clear(dk)
	w, err := v.wrap(dk, s.Target, reviewer)
	if err != nil {
		return err
	}
	s.Wraps[reviewer] = w
	return nil
}

// Fingerprint returns a value derived from the master key that tells one
// key from another and reveals nothing about it (HKDF under a label of its
// own): what a store keeps so that a ward started with another key than
// the one its data was sealed with is refused before it runs.
func (v *Vault) Fingerprint() ([]byte, error) {
	var k []byte
	err := v.master.Use(func(m []byte) error {
		var err error
		k, err = hkdf.Key(sha256.New, m, []byte(salt), "\x00fingerprint", KeySize)
		return err
	})
	if errors.Is(err, taint.ErrReleased) {
		return nil, fmt.Errorf("%w: %w", ErrClosed, err)
	}
	if err != nil {
		return nil, fmt.Errorf("vault: fingerprint: %w", err)
	}
	return k, nil
}

// derive returns the reviewer–target key; the caller zeroes it.
func (v *Vault) derive(reviewer, target string) ([]byte, error) {
	var k []byte
	err := v.master.Use(func(m []byte) error {
		var err error
		k, err = hkdf.Key(sha256.New, m, []byte(salt), reviewer+"\x00"+target, KeySize)
		return err
	})
	if errors.Is(err, taint.ErrReleased) {
		return nil, fmt.Errorf("%w: %w", ErrClosed, err)
	}
	if err != nil {
		return nil, fmt.Errorf("vault: derive reviewer key: %w", err)
	}
	return k, nil
}

// wrap encrypts the data key dk for reviewer of target.
func (v *Vault) wrap(dk []byte, target, reviewer string) ([]byte, error) {
	k, err := v.derive(reviewer, target)
	if err != nil {
		return nil, err
	}
	defer clear(k)
	nonce, ct, err := seal(k, dk, wrapAAD(target, reviewer))
	if err != nil {
		return nil, err
	}
	return append(nonce, ct...), nil
}

// open unwraps reviewer's data key with its reviewer key k and decrypts s.
func open(s *Sealed, reviewer string, k []byte) ([]byte, error) {
	dk, err := unwrap(s.Wraps[reviewer], k, s.Target, reviewer)
	if err != nil {
		return nil, err
	}
	defer clear(dk)
	if len(s.Nonce) != nonceSize || len(s.Ciphertext) < tagSize || len(s.Ciphertext) > MaxPlaintext+tagSize {
		return nil, fmt.Errorf("%w: nonce of %d bytes, ciphertext of %d", ErrTampered, len(s.Nonce), len(s.Ciphertext))
	}
	a, err := gcm(dk)
	if err != nil {
		return nil, err
	}
	pt, err := a.Open(nil, s.Nonce, s.Ciphertext, []byte(s.Target))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTampered, err)
	}
	return pt, nil
}

// unwrap returns the data key in w; the caller zeroes it.
func unwrap(w, k []byte, target, reviewer string) ([]byte, error) {
	if len(w) != wrapSize {
		return nil, fmt.Errorf("%w: wrap of %d bytes, want %d", ErrTampered, len(w), wrapSize)
	}
	a, err := gcm(k)
	if err != nil {
		return nil, err
	}
	dk, err := a.Open(nil, w[:nonceSize], w[nonceSize:], wrapAAD(target, reviewer))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrTampered, err)
	}
	return dk, nil
}

// seal encrypts pt under key with a fresh random nonce.
func seal(key, pt, aad []byte) (nonce, ct []byte, err error) {
	a, err := gcm(key)
	if err != nil {
		return nil, nil, err
	}
	nonce = make([]byte, nonceSize)
	rand.Read(nonce)
	return nonce, a.Seal(nil, nonce, pt, aad), nil
}

func gcm(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	a, err := cipher.NewGCM(b)
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	return a, nil
}

func wrapAAD(target, reviewer string) []byte {
	return []byte(target + "\x00" + reviewer)
}

// checkNames refuses a reviewer or target that is empty, too long or holds
// 0x00, the separator of the pair's encoding.
func checkNames(reviewer, target string) error {
	switch {
	case reviewer == "" || len(reviewer) > MaxReviewer:
		return fmt.Errorf("vault: reviewer name of %d bytes, want 1 to %d", len(reviewer), MaxReviewer)
	case target == "" || len(target) > MaxTarget:
		return fmt.Errorf("vault: target of %d bytes, want 1 to %d", len(target), MaxTarget)
	case strings.IndexByte(reviewer, 0) >= 0:
		return errors.New("vault: reviewer name holds a NUL byte")
	case strings.IndexByte(target, 0) >= 0:
		return errors.New("vault: target holds a NUL byte")
	}
	return nil
}
