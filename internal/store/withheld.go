package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// WithheldStatus is where a withheld output is in its life: withheld until
// a judge promotes or rejects it, once; promoted and rejected are final.
type WithheldStatus string

// Withheld output statuses.
const (
	WithheldPending  WithheldStatus = "withheld"
	WithheldPromoted WithheldStatus = "promoted"
	WithheldRejected WithheldStatus = "rejected"
)

// Bounds of a withheld output, which every backend enforces.
const (
	MaxWithheldKey       = 64      // longest output key, in bytes
	MaxWithheldSize      = 8 << 20 // largest plaintext (Size, and Plain once promoted)
	MaxWithheldReviewers = 16      // most wraps one output may hold
	MaxWithheldReviewer  = 128     // longest reviewer name, in bytes
	MaxWithheldWrap      = 256     // longest wrap, in bytes

	// maxWithheldOverhead is what a cipher may add to the plaintext's
	// size (nonces, tags).
	maxWithheldOverhead = 1024
)

// WithheldOutput is the raw output of a tool that a tainted child session
// ran for an isolated orchestrator, which ward keeps encrypted instead of
// returning it (see internal/vault): the orchestrator sees the metadata
// only. The store holds the ciphertext and the wraps as opaque bytes.
type WithheldOutput struct {
	Key string // output key (ULID-like), 1 to MaxWithheldKey bytes
	// PrincipalID holds the child and its orchestrator: a principal's
	// outputs are invisible to every other but their designated readers.
	PrincipalID string
	SessionID   string // the tainted child session that produced it
	ParentID    string // the orchestrator; may be empty
	Tool        string
	Time        time.Time
	Size        int64 // plaintext size
	ExitCode    int   // 0: the tool succeeded
	Status      WithheldStatus
	Nonce       []byte
	Ciphertext  []byte
	Wraps       map[string][]byte // reviewer → wrapped data key
	PromotedBy  string            // set once promoted
	PromotedAt  time.Time
	RejectedBy  string // set once rejected
	RejectedAt  time.Time
	Plain       []byte // the plaintext the judge released, once promoted (non-nil then); nil otherwise
}

// Reasons a withheld output was not stored, wrapped or decided. A refusal
// for the output's status wraps ErrWithheldDecided as well as
// ErrWithheldPromoted or ErrWithheldRejected, so either test works.
var (
	ErrWithheldExists   = errors.New("withheld output already exists")
	ErrWithheldWrapped  = errors.New("reviewer already has a wrap for this withheld output")
	ErrWithheldDecided  = errors.New("withheld output already decided")
	ErrWithheldPromoted = errors.New("withheld output already promoted")
	ErrWithheldRejected = errors.New("withheld output rejected")
)

// Withheld stores withheld outputs and makes their promotion or rejection
// single-shot across goroutines and processes sharing the backend.
type Withheld interface {
	// PutWithheld durably stores w (see CheckWithheld), its wraps in the
	// same transaction. A key that exists fails with ErrWithheldExists and
	// writes nothing.
	PutWithheld(ctx context.Context, w *WithheldOutput) error
	// Withheld returns the output with key, wraps included (and Plain once
	// promoted), or ErrNotFound.
	Withheld(ctx context.Context, key string) (*WithheldOutput, error)
	// AddWithheldWrap durably adds reviewer's wrap to the output key
	// (ErrNotFound if absent); a reviewer that has one already fails with
	// ErrWithheldWrapped, and an output at MaxWithheldReviewers wraps is
	// refused. The status does not matter.
	AddWithheldWrap(ctx context.Context, key, reviewer string, wrap []byte) error
	// PromoteWithheld moves the output from withheld to promoted, storing
	// by, at and plain, in one conditional update: of any number of
	// concurrent promotions and rejections exactly one succeeds. On failure
	// nothing changes and the error wraps ErrNotFound, or ErrWithheldDecided
	// and ErrWithheldPromoted or ErrWithheldRejected.
	PromoteWithheld(ctx context.Context, key, by string, at time.Time, plain []byte) error
	// RejectWithheld moves the output from withheld to rejected, as
	// PromoteWithheld does but storing no plaintext.
	RejectWithheld(ctx context.Context, key, by string, at time.Time) error
	// WithheldBySession returns the outputs of sessionID, oldest first (by
	// time, then key), up to limit (0: all), as metadata: without Nonce,
	// Ciphertext, Wraps or Plain.
	WithheldBySession(ctx context.Context, sessionID string, limit int) ([]WithheldOutput, error)
}

// CheckWithheld returns why w cannot be stored as a new withheld output, or
// nil: it needs a key of 1 to MaxWithheldKey bytes, a session, a tool, a
// non-zero Time within the years 1678-2262, a Size from 0 to
// MaxWithheldSize, Status WithheldPending (or empty, read as pending), a
// nonce, a ciphertext no longer than the size allows, 1 to
// MaxWithheldReviewers wraps (each reviewer 1 to MaxWithheldReviewer bytes,
// each wrap 1 to MaxWithheldWrap bytes), and no decision or plaintext.
func CheckWithheld(w *WithheldOutput) error {
	switch {
	case w.Key == "" || len(w.Key) > MaxWithheldKey:
		return fmt.Errorf("key of %d bytes, want 1 to %d", len(w.Key), MaxWithheldKey)
	case w.SessionID == "":
		return errors.New("empty session")
	case w.Tool == "":
		return errors.New("empty tool")
	case w.Time.IsZero():
		return errors.New("zero time")
	case w.Time.Before(time.Unix(0, math.MinInt64)) || w.Time.After(time.Unix(0, math.MaxInt64)):
		return fmt.Errorf("time %v outside years 1678-2262", w.Time)
	case w.Size < 0 || w.Size > MaxWithheldSize:
		return fmt.Errorf("size %d, want 0 to %d", w.Size, MaxWithheldSize)
	case w.Status != "" && w.Status != WithheldPending:
		return fmt.Errorf("status %q: a new output is %s", w.Status, WithheldPending)
	case len(w.Nonce) == 0 || len(w.Nonce) > maxWithheldOverhead:
		return fmt.Errorf("nonce of %d bytes, want 1 to %d", len(w.Nonce), maxWithheldOverhead)
	case len(w.Ciphertext) == 0 || int64(len(w.Ciphertext)) > w.Size+maxWithheldOverhead:
		return fmt.Errorf("ciphertext of %d bytes for a plaintext of %d", len(w.Ciphertext), w.Size)
	case len(w.Wraps) == 0 || len(w.Wraps) > MaxWithheldReviewers:
		return fmt.Errorf("%d wraps, want 1 to %d", len(w.Wraps), MaxWithheldReviewers)
	case w.PromotedBy != "" || !w.PromotedAt.IsZero() || w.RejectedBy != "" || !w.RejectedAt.IsZero():
		return errors.New("a new output is not decided")
	case w.Plain != nil:
		return errors.New("a new output has no released plaintext")
	}
	for r, wrap := range w.Wraps {
		if err := CheckWithheldWrap(r, wrap); err != nil {
			return err
		}
	}
	return nil
}

// CheckWithheldWrap returns why reviewer's wrap cannot be stored, or nil.
func CheckWithheldWrap(reviewer string, wrap []byte) error {
	switch {
	case reviewer == "" || len(reviewer) > MaxWithheldReviewer:
		return fmt.Errorf("reviewer name of %d bytes, want 1 to %d", len(reviewer), MaxWithheldReviewer)
	case len(wrap) == 0 || len(wrap) > MaxWithheldWrap:
		return fmt.Errorf("wrap of %d bytes for %q, want 1 to %d", len(wrap), reviewer, MaxWithheldWrap)
	}
	return nil
}

// WithheldStatusErr returns the refusal for deciding an output in status s
// (nil for WithheldPending): what a backend reports when its conditional
// update matched an existing row.
func WithheldStatusErr(s WithheldStatus) error {
	switch s {
	case WithheldPending:
		return nil
	case WithheldPromoted:
		return fmt.Errorf("%w: %w", ErrWithheldDecided, ErrWithheldPromoted)
	case WithheldRejected:
		return fmt.Errorf("%w: %w", ErrWithheldDecided, ErrWithheldRejected)
	}
	return fmt.Errorf("%w: stored status %q", ErrWithheldDecided, s)
}
