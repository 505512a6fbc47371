package api

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"regexp"
	"strings"

	"github.com/wardhq/ward/internal/auth"
)

// Safe serves the Safe transactions that await owners' signatures, for a
// wallet that sends from a Safe (docs/chains.md, Signers). Both functions
// are optional: without them the routes answer 404.
type Safe struct {
	// Pending returns the view of the Safe transactions awaiting
	// signatures, on every chain whose wallet is a Safe.
	Pending func(ctx context.Context) (any, error)
	// Sign adds an owner's signature (65 bytes r ‖ s ‖ v) to the Safe
	// transaction hash, sent on p's behalf, and executes it once the
	// Safe's threshold is met; it returns what it did. A signature that
	// is refused wraps ErrSafeRefused; an unknown hash ErrSafeUnknown.
	Sign func(ctx context.Context, p auth.Principal, hash string, sig []byte) (any, error)
}

// Errors Safe.Sign wraps.
var (
	ErrSafeRefused = errors.New("safe signature refused")
	ErrSafeUnknown = errors.New("no such Safe transaction")
)

// CodeSafeSignatureRefused is the code of a refused owner signature.
const CodeSafeSignatureRefused = "SAFE_SIGNATURE_REFUSED"

var safeHash = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)

// safePending answers GET /v1/safe.
func (a *Server) safePending(ctx context.Context, r *request) (any, error) {
	if a.cfg.Safe.Pending == nil {
		return nil, notFoundRoute()
	}
	return a.cfg.Safe.Pending(ctx)
}

// safeSign answers POST /v1/safe/{hash}/signatures with
// {"signature":"0x…"}: the signature's owner is recovered and checked
// against the Safe's owners by the wallet.
func (a *Server) safeSign(ctx context.Context, r *request) (any, error) {
	if a.cfg.Safe.Sign == nil {
		return nil, notFoundRoute()
	}
	var in struct {
		Signature string `json:"signature"`
	}
	if err := decode(r.body, &in); err != nil {
		return nil, err
	}
	hash := r.PathValue("hash")
	if !safeHash.MatchString(hash) {
		return nil, notFound("Safe transaction")
	}
	raw, ok := strings.CutPrefix(in.Signature, "0x")
	sig, err := hex.DecodeString(raw)
	if !ok || err != nil || len(sig) != 65 {
		return nil, badRequest("signature: want 0x and 130 hex digits (r ‖ s ‖ v)")
	}
	out, err := a.cfg.Safe.Sign(ctx, r.p, strings.ToLower(hash), sig)
	switch {
	case errors.Is(err, ErrSafeUnknown):
		return nil, notFound("Safe transaction awaiting signatures")
	case errors.Is(err, ErrSafeRefused):
		return nil, &Error{Status: http.StatusConflict, Code: CodeSafeSignatureRefused, Message: safeRefusal(err)}
	case err != nil:
		return nil, err
	}
	return out, nil
}

// safeRefusal is the refusal's text after the sentinel: the wallet's
// reason (an owner, a signature or a state: never a secret).
func safeRefusal(err error) string {
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, ErrSafeRefused.Error()+": "); ok {
		return after
	}
	return msg
}
