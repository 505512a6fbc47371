package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"time"

	spec "github.com/a2aproject/a2a-go/a2a"
)

// JSON-RPC 2.0 and A2A error codes ward answers with.
const (
	codeParse            = -32700
	codeInvalidRequest   = -32600
	codeMethodNotFound   = -32601
	codeInvalidParams    = -32602
	codeInternal         = -32603
	codeServer           = -32000 // ward is shutting down
	codeTaskNotFound     = -32001
	codeNotCancelable    = -32002
	codePushNotSupported = -32003
	codeContentType      = -32005
	codeExtendedCard     = -32007
	// codeTooManyLookups refuses a principal that looked up too many task
	// ids it holds no task by (a server error of ward's own).
	codeTooManyLookups = -32029
)

// rpcErr is an error ward answers a request with, whether ward writes the
// response itself or a2asrv does: the client reads code and msg as
// error.code and error.message. msg is written for the client and never
// carries an internal error's text or the client's input.
type rpcErr struct {
	code int
	msg  string
}

func (e *rpcErr) Error() string { return e.msg }

// Unwrap returns the a2a error of e's code, so errors.Is(err,
// spec.ErrTaskNotFound) holds for ward's "no task has this id".
func (e *rpcErr) Unwrap() error {
	if k, ok := protocolErrors[e.code]; ok {
		return k
	}
	return spec.ErrServerError
}

// wireError names a2a-go's JSON-RPC error type (internal to the module).
const wireErrorPkg, wireErrorName = "github.com/a2aproject/a2a-go/internal/jsonrpc", "Error"

// As makes a2asrv answer e as ward wrote it. The library's JSON-RPC
// transport writes an error that is (or wraps) its own wire error as it
// is, and answers every other with the protocol's text for the a2a error
// it wraps (ward's text would go to error.data.error) and no custom code.
// The wire error type is internal to a2a-go, so As fills it by reflection,
// by name; should a release change it, As reports false and the library's
// answer is the code of Unwrap with its own text (TestErrorsAreWards
// says so).
func (e *rpcErr) As(target any) bool {
	p := reflect.ValueOf(target)
	if p.Kind() != reflect.Pointer || p.IsNil() || p.Elem().Kind() != reflect.Pointer {
		return false
	}
	t := p.Elem().Type().Elem()
	if t.Kind() != reflect.Struct || t.PkgPath() != wireErrorPkg || t.Name() != wireErrorName {
		return false
	}
	v := reflect.New(t)
	code, msg := v.Elem().FieldByName("Code"), v.Elem().FieldByName("Message")
	if code.Kind() != reflect.Int || msg.Kind() != reflect.String {
		return false
	}
	code.SetInt(int64(e.code))
	msg.SetString(e.msg)
	p.Elem().Set(v)
	return true
}

// MarshalJSON writes e as a JSON-RPC error object.
func (e *rpcErr) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{e.code, e.msg})
}

// protocolErrors are the a2a errors by their JSON-RPC code.
var protocolErrors = map[int]error{
	codeParse: spec.ErrParseError, codeInvalidRequest: spec.ErrInvalidRequest, codeMethodNotFound: spec.ErrMethodNotFound,
	codeInvalidParams: spec.ErrInvalidParams, codeInternal: spec.ErrInternalError, codeServer: spec.ErrServerError,
	codeTaskNotFound: spec.ErrTaskNotFound, codeNotCancelable: spec.ErrTaskNotCancelable,
	codePushNotSupported: spec.ErrPushNotificationNotSupported, -32004: spec.ErrUnsupportedOperation,
	codeContentType: spec.ErrUnsupportedContentType, -32006: spec.ErrInvalidAgentResponse,
	codeExtendedCard: spec.ErrAuthenticatedExtendedCardNotConfigured,
}

func invalidParams(msg string) *rpcErr { return &rpcErr{codeInvalidParams, msg} }

func taskNotFound() *rpcErr { return &rpcErr{codeTaskNotFound, "no task has this id"} }

func notCancelable(state spec.TaskState) *rpcErr {
	return &rpcErr{codeNotCancelable, fmt.Sprintf("the task is %s and cannot be canceled", state)}
}

var (
	errShuttingDown = &rpcErr{codeServer, "ward is shutting down: try again once it is back"}
	errPush         = &rpcErr{codePushNotSupported, "push notifications are not supported: use message/stream or tasks/get"}
)

// checkEnvelope checks what a2asrv's JSON-RPC transport does not: that
// the body is one request object with an id (the library answers
// notifications, and batches and non-objects as parse errors), that ward
// serves the method (the library would answer the push configuration
// methods itself), and that the params of a method that takes a task or a
// message decode into the library's types (the library answers params it
// cannot decode with a parse error that echoes the decoder's text;
// JSON-RPC says -32602). It returns the request's id (null when
// unreadable) and, for message/send and message/stream, the message's
// data parts decoded with exact numbers (see exactData).
func checkEnvelope(body []byte) (json.RawMessage, []map[string]any, *rpcErr) {
	id := json.RawMessage("null")
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		return id, nil, &rpcErr{codeParse, "the request body is not valid JSON"}
	}
	switch body[0] {
	case '{':
	case '[':
		return id, nil, &rpcErr{codeInvalidRequest, "batch requests are not supported: send one request per HTTP request"}
	default:
		return id, nil, &rpcErr{codeInvalidRequest, "a JSON-RPC request is a JSON object"}
	}
	var env struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &env) != nil {
		return id, nil, &rpcErr{codeInvalidRequest, "a JSON-RPC request is a JSON object"}
	}
	switch {
	case env.ID == nil:
		return id, nil, &rpcErr{codeInvalidRequest, "id is required: ward does not take notifications"}
	case len(env.ID) > maxID:
		return id, nil, &rpcErr{codeInvalidRequest, "id is too long"}
	case env.ID[0] == '"' || env.ID[0] == '-' || (env.ID[0] >= '0' && env.ID[0] <= '9') || string(env.ID) == "null":
		id = env.ID
	default:
		return id, nil, &rpcErr{codeInvalidRequest, "id must be a string, a number or null"}
	}
	var version, method string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != "2.0" {
		return id, nil, &rpcErr{codeInvalidRequest, `jsonrpc must be "2.0"`}
	}
	if json.Unmarshal(env.Method, &method) != nil || method == "" {
		return id, nil, &rpcErr{codeInvalidRequest, "method must be a non-empty string"}
	}
	var params any
	switch method {
	case "message/send", "message/stream":
		params = new(spec.MessageSendParams)
	case "tasks/get":
		params = new(spec.TaskQueryParams)
	case "tasks/cancel", "tasks/resubscribe":
		params = new(spec.TaskIDParams)
	case "tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/set",
		"tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete":
		return id, nil, errPush
	case "agent/getAuthenticatedExtendedCard":
		return id, nil, &rpcErr{codeExtendedCard, "ward has no extended agent card"}
	default:
		return id, nil, &rpcErr{codeMethodNotFound, "method not found: ward serves message/send, message/stream, tasks/get, tasks/cancel and tasks/resubscribe"}
	}
	p := bytes.TrimSpace(env.Params)
	switch {
	case len(p) == 0 || string(p) == "null":
		return id, nil, invalidParams("params are required")
	case p[0] != '{':
		return id, nil, invalidParams("params must be an object")
	}
	if err := json.Unmarshal(p, params); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && safeField(te.Field) {
			return id, nil, invalidParams("params." + te.Field + " has the wrong type")
		}
		return id, nil, invalidParams("params do not have the expected shape (see the A2A 0.3 schema)")
	}
	if _, ok := params.(*spec.MessageSendParams); !ok {
		return id, nil, nil
	}
	data, rerr := exactData(p)
	return id, data, rerr
}

// exactData decodes the data parts of a send's message again, keeping
// numbers exact (json.Number): a2a-go decodes them as float64, which
// rounds an integer past 2^53 (an amount in base units) without a word.
// The guard puts them in place of the library's. A part that is not data
// is nil.
func exactData(params json.RawMessage) ([]map[string]any, *rpcErr) {
	var p struct {
		Message struct {
			Parts []struct {
				Kind string          `json:"kind"`
				Data json.RawMessage `json:"data"`
			} `json:"parts"`
		} `json:"message"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil, invalidParams("params do not have the expected shape (see the A2A 0.3 schema)")
	}
	out := make([]map[string]any, len(p.Message.Parts))
	for i, part := range p.Message.Parts {
		if part.Kind != "data" {
			continue
		}
		if decodeNumbers(part.Data, &out[i]) != nil || out[i] == nil {
			return nil, invalidParams(fmt.Sprintf("params.message.parts[%d].data must be an object", i))
		}
	}
	return out, nil
}

// safeField reports whether a field path from a type error is made only
// of the characters of the protocol's field names (a path through a map
// would carry the client's keys).
func safeField(f string) bool {
	if f == "" || len(f) > 64 {
		return false
	}
	return strings.Trim(f, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.") == ""
}

// writeError writes a JSON-RPC error response with an HTTP status.
func writeError(w http.ResponseWriter, status int, id json.RawMessage, e *rpcErr) {
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *rpcErr         `json:"error"`
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
// the task it watches, for longer. It keeps ward's caching header on a
// stream (the library's says no-cache).
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
}

func (w deadlineWriter) WriteHeader(status int) {
	w.Header().Set("Cache-Control", "no-store")
	w.ResponseWriter.WriteHeader(status)
}

func (w deadlineWriter) Write(b []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	return w.ResponseWriter.Write(b)
}

func (w deadlineWriter) Flush() { _ = w.rc.Flush() }

func (w deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
