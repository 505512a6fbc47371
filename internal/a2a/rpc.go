package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
)

// JSON-RPC 2.0 and A2A error codes.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
	codeTaskNotFound   = -32001
	// codeTooManyLookups refuses a principal that looked up too many task
	// ids it holds no task by (a server error of ward's own).
	codeTooManyLookups   = -32029
	codeNotCancelable    = -32002
	codePushNotSupported = -32003
	codeContentType      = -32005
	codeExtendedCard     = -32007
)

// rpcError is a JSON-RPC error object. Its message is written for the
// client and never carries an internal error's text or the client's input.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func invalidParams(msg string) *rpcError { return &rpcError{Code: codeInvalidParams, Message: msg} }

var nullID = json.RawMessage("null")

// request is a decoded JSON-RPC request.
type request struct {
	id     json.RawMessage // a string, a number or null
	method string
	params json.RawMessage // nil when absent
}

// response is a JSON-RPC response.
type response struct {
	ID     json.RawMessage
	Result any
	Error  *rpcError
}

func (r response) MarshalJSON() ([]byte, error) {
	id := r.ID
	if len(id) == 0 {
		id = nullID
	}
	if r.Error != nil {
		return json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *rpcError       `json:"error"`
		}{"2.0", id, r.Error})
	}
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, r.Result})
}

// decodeRequest decodes one JSON-RPC request. On error the returned
// request carries the id when it could be read (else null).
func decodeRequest(body []byte) (request, *rpcError) {
	req := request{id: nullID}
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return req, &rpcError{Code: codeParse, Message: "the request body is not valid JSON"}
	}
	switch body[0] {
	case '{':
	case '[':
		return req, &rpcError{Code: codeInvalidRequest, Message: "batch requests are not supported: send one request per HTTP request"}
	default:
		return req, &rpcError{Code: codeInvalidRequest, Message: "a JSON-RPC request is a JSON object"}
	}
	var env struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return req, &rpcError{Code: codeInvalidRequest, Message: "a JSON-RPC request is a JSON object"}
	}
	switch {
	case env.ID == nil:
		return req, &rpcError{Code: codeInvalidRequest, Message: "id is required: ward does not take notifications"}
	case len(env.ID) > maxID:
		return req, &rpcError{Code: codeInvalidRequest, Message: "id is too long"}
	case env.ID[0] == '"' || env.ID[0] == '-' || (env.ID[0] >= '0' && env.ID[0] <= '9') || string(env.ID) == "null":
		req.id = env.ID
	default:
		return req, &rpcError{Code: codeInvalidRequest, Message: "id must be a string, a number or null"}
	}
	var version string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != "2.0" {
		return req, &rpcError{Code: codeInvalidRequest, Message: `jsonrpc must be "2.0"`}
	}
	if json.Unmarshal(env.Method, &req.method) != nil || req.method == "" {
		return req, &rpcError{Code: codeInvalidRequest, Message: "method must be a non-empty string"}
	}
	if p := bytes.TrimSpace(env.Params); len(p) > 0 && string(p) != "null" {
		req.params = p
	}
	return req, nil
}

// decodeParams decodes a method's params object into v. A type error
// names the field (from ward's own field names), never the value.
func decodeParams(raw json.RawMessage, v any) *rpcError {
	if len(raw) == 0 {
		return invalidParams("params are required")
	}
	if raw[0] != '{' {
		return invalidParams("params must be an object")
	}
	return decodeObject(raw, v, "params")
}

// decodeObject decodes raw into v; prefix names raw in error messages.
func decodeObject(raw json.RawMessage, v any, prefix string) *rpcError {
	err := json.Unmarshal(raw, v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && safeField(te.Field) {
		return invalidParams(prefix + "." + te.Field + " has the wrong type")
	}
	return invalidParams(prefix + " does not have the expected shape")
}

// safeField reports whether a field path from a type error is made only
// of the characters of ward's own field names (a path through a map
// would carry the client's keys).
func safeField(f string) bool {
	if f == "" || len(f) > 64 {
		return false
	}
	return strings.Trim(f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.") == ""
}

// writeRPC writes a JSON-RPC response with an HTTP status, giving a
// client that reads slowly writeTimeout to take it.
func writeRPC(w http.ResponseWriter, status int, r response) {
	b, err := json.Marshal(r)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(response{ID: r.ID, Error: &rpcError{Code: codeInternal, Message: "the response could not be encoded"}})
	}
	w.Header().Set("Content-Type", mediaJSON)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	w.WriteHeader(status)
	if _, err := w.Write(append(b, '\n')); err == nil {
		_ = rc.Flush()
	}
	// The connection may serve the client's next request.
	_ = rc.SetWriteDeadline(time.Time{})
}
