package a2a

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	spec "github.com/a2aproject/a2a-go/a2a"
)

// JSON-RPC 2.0 error codes of what ward answers itself, below the
// library: a request it does not hand to a2asrv.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeInvalidParams  = -32602
)

// rpcErr is an error ward returns through a2asrv: the library answers it
// with the JSON-RPC code and message of kind (an a2a sentinel) and msg as
// error.data.error. msg is written for the client and never carries an
// internal error's text or the client's input.
type rpcErr struct {
	msg  string
	kind error
}

func (e *rpcErr) Error() string { return e.msg }
func (e *rpcErr) Unwrap() error { return e.kind }

func invalidParams(msg string) error { return &rpcErr{msg, spec.ErrInvalidParams} }

// errorObject is a JSON-RPC error object ward writes itself.
type errorObject struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// checkEnvelope checks what a2asrv's JSON-RPC transport does not: that
// the body is one request object with an id (the library answers
// notifications, and batches and non-objects as parse errors), and that
// the params of a method that takes a task or a message decode into the
// library's types (the library answers params it cannot decode with a
// parse error that echoes the decoder's text; JSON-RPC says -32602). It
// returns the request's id (null when unreadable).
func checkEnvelope(body []byte) (json.RawMessage, *errorObject) {
	id := json.RawMessage("null")
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return id, &errorObject{codeParse, "the request body is not valid JSON"}
	}
	switch body[0] {
	case '{':
	case '[':
		return id, &errorObject{codeInvalidRequest, "batch requests are not supported: send one request per HTTP request"}
	default:
		return id, &errorObject{codeInvalidRequest, "a JSON-RPC request is a JSON object"}
	}
	var env struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &env) != nil {
		return id, &errorObject{codeInvalidRequest, "a JSON-RPC request is a JSON object"}
	}
	switch {
	case env.ID == nil:
		return id, &errorObject{codeInvalidRequest, "id is required: ward does not take notifications"}
	case len(env.ID) > maxID:
		return id, &errorObject{codeInvalidRequest, "id is too long"}
	case env.ID[0] == '"' || env.ID[0] == '-' || (env.ID[0] >= '0' && env.ID[0] <= '9') || string(env.ID) == "null":
		id = env.ID
	default:
		return id, &errorObject{codeInvalidRequest, "id must be a string, a number or null"}
	}
	var version, method string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != "2.0" {
		return id, &errorObject{codeInvalidRequest, `jsonrpc must be "2.0"`}
	}
	if json.Unmarshal(env.Method, &method) != nil || method == "" {
		return id, &errorObject{codeInvalidRequest, "method must be a non-empty string"}
	}
	var params any
	switch method {
	case "message/send", "message/stream":
		params = new(spec.MessageSendParams)
	case "tasks/get":
		params = new(spec.TaskQueryParams)
	case "tasks/cancel", "tasks/resubscribe":
		params = new(spec.TaskIDParams)
	default:
		return id, nil
	}
	switch p := bytes.TrimSpace(env.Params); {
	case len(p) == 0 || string(p) == "null":
		return id, &errorObject{codeInvalidParams, "params are required"}
	case p[0] != '{':
		return id, &errorObject{codeInvalidParams, "params must be an object"}
	case json.Unmarshal(p, params) != nil:
		return id, &errorObject{codeInvalidParams, "params do not have the expected shape (see the A2A 0.3 schema)"}
	}
	return id, nil
}

// writeError writes a JSON-RPC error response with an HTTP status.
func writeError(w http.ResponseWriter, status int, id json.RawMessage, e errorObject) {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   errorObject     `json:"error"`
	}{"2.0", id, e})
	w.Header().Set("Content-Type", mediaJSON)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// deadlineWriter gives a client that reads slowly writeTimeout for each
// write (a stream's events included: a2asrv's SSE writer sets no
// deadline), so a stalled client cannot hold a stream, and the events of
// the task it watches, for longer.
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
}

func (w deadlineWriter) Write(b []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	return w.ResponseWriter.Write(b)
}

func (w deadlineWriter) Flush() { _ = w.rc.Flush() }

func (w deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
