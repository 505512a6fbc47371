package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/wardhq/ward/internal/facade"
	"github.com/wardhq/ward/internal/reason"
	"github.com/wardhq/ward/internal/store"
)

// The API's own error codes. A refused call's error carries the gate's
// reason code instead (reason's catalog).
const (
	CodeBadJSON          = "BAD_JSON"
	CodeBadRequest       = "BAD_REQUEST"
	CodeTooLarge         = "TOO_LARGE"
	CodeUnsupportedType  = "UNSUPPORTED_MEDIA_TYPE"
	CodeNotFound         = "NOT_FOUND"
	CodeMethodNotAllowed = "METHOD_NOT_ALLOWED"
	CodeUnauthenticated  = "UNAUTHENTICATED"
	CodeForbidden        = "FORBIDDEN"
	CodeAlreadyReviewed  = "ALREADY_REVIEWED"
	CodeExpired          = "EXPIRED"
	CodeTooManyStreams   = "TOO_MANY_STREAMS"
	CodeTimeout          = "TIMEOUT"
	CodeUnavailable      = "UNAVAILABLE"
	// CodeStoreUnavailable: the daemon's database cannot be written (a
	// full disk), so the request changed nothing (503).
	CodeStoreUnavailable = "STORE_UNAVAILABLE"
	CodeInternal         = "INTERNAL"
	CodeSessionLimit     = string(reason.SessionsExhausted)
)

// Error is an API error: an HTTP status, a stable code and a message safe
// to show any caller. Quarantine is the queued item of a quarantined call.
type Error struct {
	Status     int    `json:"-"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	Quarantine string `json:"quarantine_id,omitempty"`
	// Reload is a refused reload's report (CONFIG_INVALID).
	Reload any `json:"reload,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func badRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: CodeBadRequest, Message: fmt.Sprintf(format, args...)}
}

func notFound(what string) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Message: "no " + what + " has this id"}
}

// sessionLimit is the answer to a principal at its limit of live
// sessions.
func sessionLimit() *Error {
	return &Error{Status: http.StatusTooManyRequests, Code: CodeSessionLimit,
		Message: "this token holds as many live sessions as it may ([sessions] max_per_principal): reuse a session name, or let idle ones expire"}
}

// errorOf maps an error to what the client sees.
func errorOf(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var rf *facade.Refusal
	if errors.As(err, &rf) {
		return &Error{Status: refusalStatus(rf.Code), Code: string(rf.Code), Message: rf.Message, Quarantine: rf.Quarantine}
	}
	switch {
	case errors.Is(err, facade.ErrQuarantineNotFound):
		return notFound("quarantined call")
	case errors.Is(err, facade.ErrQuarantineDecided):
		return &Error{Status: http.StatusConflict, Code: CodeAlreadyReviewed, Message: "the quarantined call was already approved or rejected"}
	case errors.Is(err, facade.ErrQuarantineExpired):
		return &Error{Status: http.StatusGone, Code: CodeExpired, Message: "the quarantined call expired before its review"}
	case errors.Is(err, store.ErrUnwritable):
		return storeUnavailable(err)
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Status: http.StatusGatewayTimeout, Code: CodeTimeout, Message: "the request did not finish in time"}
	}
	return &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "internal error (see the daemon's log)"}
}

// storeUnavailable is the answer to a request whose write the database
// could not commit: nothing it asked for took effect.
func storeUnavailable(err error) *Error {
	cause := "see the daemon's log"
	if errors.Is(err, store.ErrDiskFull) {
		cause = "its disk is full"
	}
	return &Error{Status: http.StatusServiceUnavailable, Code: CodeStoreUnavailable,
		Message: "the daemon's database cannot be written (" + cause + "), so nothing was changed: free space and retry"}
}

// refusalStatus is the HTTP status of a refused call.
func refusalStatus(c reason.Code) int {
	switch c {
	case reason.BadInput, reason.SchemaInvalid, reason.MissingArgument, reason.ChainNotSupported, reason.VenueRequired, reason.StreamInterval:
		return http.StatusBadRequest
	case reason.ToolUnavailable, reason.NotPreviewable, reason.PermitNotFound, reason.QuarantineNotFound, reason.StreamNotFound:
		return http.StatusNotFound
	case reason.PermitConsumed, reason.PermitCancelled, reason.PermitExpired, reason.PermitMismatch,
		reason.PolicyChanged, reason.PhaseChanged, reason.ToolChanged, reason.AnnounceDelay, reason.TxInFlight:
		return http.StatusConflict
	case reason.Halted:
		return http.StatusLocked
	case reason.HookRateLimit, reason.RateLimitExceeded, reason.PerTurnLimit, reason.SessionLimit, reason.WindowRateLimit,
		reason.LookupLimited, reason.SessionsExhausted, reason.StreamLimit:
		return http.StatusTooManyRequests
	case reason.OutputNotFound:
		return http.StatusNotFound
	case reason.AuditUnavailable, reason.HookError, reason.SimulationFailed, reason.TaintCheckFailed, reason.ChainUnavailable, reason.StreamUnavailable:
		return http.StatusServiceUnavailable
	case reason.ExecutionFailed:
		return http.StatusBadGateway
	case reason.BudgetExceeded:
		return http.StatusGatewayTimeout
	}
	return http.StatusForbidden // the policy's and the hooks' refusals
}

// writeError writes e as {"error":{...}}.
func writeError(w http.ResponseWriter, e *Error) {
	b, err := json.Marshal(struct {
		Error *Error `json:"error"`
	}{e})
	if err != nil {
		b = []byte(`{"error":{"code":"INTERNAL","message":"internal error"}}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(e.Status)
	w.Write(append(b, '\n'))
}

// writeJSON writes v, or its bytes as they are when it is a
// json.RawMessage.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			writeError(w, &Error{Status: http.StatusInternalServerError, Code: CodeInternal, Message: "the response could not be encoded"})
			return
		}
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// readBody reads a request's whole body: at most maxBody bytes, JSON when
// it has a type.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *Error) {
	tooLarge := &Error{Status: http.StatusRequestEntityTooLarge, Code: CodeTooLarge, Message: fmt.Sprintf("the request body exceeds %d bytes", maxBody)}
	if r.ContentLength > maxBody {
		return nil, tooLarge
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return nil, &Error{Status: http.StatusUnsupportedMediaType, Code: CodeUnsupportedType, Message: "the request body must be application/json"}
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, tooLarge
		}
		return nil, badRequest("the request body could not be read")
	}
	return body, nil
}

// decode decodes a JSON object body into v strictly: no unknown fields, no
// trailing data. An empty body is {}.
func decode(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		body = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &Error{Status: http.StatusBadRequest, Code: CodeBadJSON, Message: describeJSON(err)}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Status: http.StatusBadRequest, Code: CodeBadJSON, Message: "more than one JSON value in the body"}
	}
	return nil
}

// describeJSON says what is wrong with a body in words that repeat none of
// it: field names come from the API's own types.
func describeJSON(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return fmt.Sprintf("the body must be a JSON %s, not %s", jsonKind(te.Type.Kind().String()), te.Value)
		}
		return fmt.Sprintf("field %s: expected %s, got %s", te.Field, jsonKind(te.Type.Kind().String()), te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "incomplete JSON"
	}
	// The decoder's other failure is a field the route does not take.
	return "the body has a field this route does not take"
}

func jsonKind(k string) string {
	switch k {
	case "struct", "map":
		return "object"
	case "slice", "array":
		return "array"
	case "int", "int64", "uint64", "uint8", "int32", "float64":
		return "number"
	case "bool":
		return "boolean"
	}
	return k
}
